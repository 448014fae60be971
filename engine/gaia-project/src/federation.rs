//! Federations: checking a proposed federation and listing every legal one.
//!
//! A federation is a connected set of hexes: some of a player's buildings (each with a power
//! value) plus new satellites on free space. The rules this module applies, in the reading of
//! the reference engine:
//!
//! * **Closure.** A federation always contains every building of the player adjacent to one of
//!   its hexes, and the whole cluster of adjacent buildings around it ("adjacent planets are
//!   already connected"). A proposal is extended that way before it is checked, so the
//!   *building set* of a federation is always a union of [building groups](#building-groups).
//! * **Usable hexes.** Buildings must be the player's and not yet federated; satellites go on
//!   hexes the caller's `space` predicate accepts. Unless `single_federation` is set, no hex
//!   of the federation may be in or next to one of the player's existing federations.
//! * **Connected** by hex adjacency, with **value ≥ threshold**.
//! * **Fewest satellites.** With `c` the number of satellites, the federation is rejected when
//!   another legal federation needs fewer than `c` satellites and its building set is
//!   *comparable*: the same buildings, a subset of them that still reaches the threshold (the
//!   "one planet fewer and one satellite fewer" case), or a superset of them (a cheaper
//!   connection that passes through more of the player's buildings). A federation worth more
//!   than the threshold is therefore legal when its cheapest connection passes through the extra
//!   buildings.
//! * **Single federation** (`single_federation`): the player grows one federation. The existing
//!   federation (its hexes, plus any buildings touching them) is one more group that every
//!   federation must contain once it exists; its old satellites cost nothing, and the value
//!   counts every building of the whole federation found in `buildings`. A proposal may name
//!   the old hexes or not; a federation found or returned always names them all (its
//!   [hexes](Federation::hexes) are the whole grown federation, as recorded games write the
//!   move).
//!
//! # Building groups
//!
//! The player's usable buildings split into groups of mutually adjacent buildings. Because of
//! the closure rule a federation is described by which groups it holds and which satellites
//! join them. For a set `T` of groups, the cheapest federation whose building set is exactly
//! `T` is a node-weighted Steiner tree (groups cost 0, satellites 1) restricted to the space
//! hexes that touch no group outside `T`; it is computed with the Dreyfus–Wagner subset dynamic
//! programme, bounded by the satellite budget, on the few hexes that can lie on a path of that
//! length between two of the groups.
//!
//! Every satellite layout of a building set ([`available_layouts`]) is a set of exactly that
//! many satellites joining its groups within the same region. Such sets are grown from one
//! group over the hexes that lie on some cheapest layout (their Dreyfus–Wagner value with all
//! the groups is the cheapest cost), each hex either taken or banned for the rest of the
//! branch so that every layout is found once, and a branch is cut when a missing group is
//! farther than the satellites left. The building set is legal, so every layout is too: no
//! check per layout is needed.

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use orrery_core::hex::Hex;

/// The largest number of building groups one federation may join for the exact search (the
/// subset programme grows as 3ⁿ). Larger building sets are never listed by [`available`] and
/// are checked without the superset/subset comparison by [`check`].
pub const MAX_GROUPS_PER_FEDERATION: usize = 14;

/// The largest number of usable building groups [`available`] combines: groups beyond the
/// first ones (in board order) are left out of the listing.
pub const MAX_GROUPS: usize = 20;

/// Satellite budgets are capped at this many (far more than any player owns).
const MAX_BUDGET: usize = 200;

/// Everything the federation rules need to know about one player's position.
pub struct FedInput<'a> {
    /// The player's colonized planets (and other federation members such as stations) that are
    /// not in a federation, with their power values. In single-federation mode the buildings
    /// of the existing federation may be listed too: their values then count toward the total.
    pub buildings: &'a HashMap<Hex, u32>,
    /// Every hex (buildings and satellites) of the player's existing federations.
    pub federated: &'a HashSet<Hex>,
    /// May a new satellite go on this hex: on the map, empty space, no satellite of this
    /// player. Hexes next to an existing federation are excluded by this module, not by the
    /// predicate.
    pub space: &'a dyn Fn(Hex) -> bool,
    /// The value the federation must reach (in single-federation mode: the total value of the
    /// grown federation).
    pub threshold: u32,
    /// The player has one federation that each formation extends.
    pub single_federation: bool,
}

/// A legal federation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Federation {
    /// Its buildings (sorted), including those added because they touch it. In
    /// single-federation mode this includes the buildings of the existing federation that are
    /// listed in [`FedInput::buildings`], so a growth that adds nothing new is still non-empty.
    pub buildings: Vec<Hex>,
    /// The new satellites (sorted): the satellite count is `satellites.len()`.
    pub satellites: Vec<Hex>,
    /// In single-federation mode, the satellites of the existing federation (sorted; every
    /// hex of [`FedInput::federated`] joined that is not in [`FedInput::buildings`]): part of
    /// the federation's hexes, but neither buildings nor new satellites. Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub old_satellites: Vec<Hex>,
    /// Its power value (in single-federation mode, of the whole federation).
    pub value: u32,
}

impl Federation {
    /// The hexes of the federation (buildings, new satellites and, in single-federation mode,
    /// the old satellites), sorted: the argument of the `federation` move.
    pub fn hexes(&self) -> Vec<Hex> {
        let mut all: Vec<Hex> = self
            .buildings
            .iter()
            .chain(&self.satellites)
            .chain(&self.old_satellites)
            .copied()
            .collect();
        all.sort();
        all
    }
}

/// A list of hexes, displayed comma-separated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexList(pub Vec<Hex>);

impl fmt::Display for HexList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, h) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{h}")?;
        }
        Ok(())
    }
}

/// Why a proposed federation is not legal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FedError {
    /// No hex was given.
    #[error("the federation has no hex")]
    Empty,
    /// A hex was given twice.
    #[error("{0} is listed twice")]
    Repeated(Hex),
    /// A hex is neither a usable building nor free space for a satellite.
    #[error("{0} is neither one of your buildings nor free space for a satellite")]
    NotUsable(Hex),
    /// A hex (given, or added because it touches the federation) is in or next to one of the
    /// player's federations.
    #[error("touches an existing federation at {0}")]
    TouchesFederation(Hex),
    /// The hexes do not form one connected group.
    #[error("not connected")]
    NotConnected,
    /// The total power value is too low.
    #[error("value {value} below {threshold}")]
    BelowThreshold {
        /// The federation's value.
        value: u32,
        /// The value required.
        threshold: u32,
    },
    /// In single-federation mode, the existing federation must be extended.
    #[error("must extend the existing federation")]
    MustExtend,
    /// The same buildings can be federated with fewer satellites.
    #[error("needs fewer satellites: a federation of the same planets needs {needed}, not {used}")]
    SameBuildingsFewer {
        /// Satellites the cheapest federation of these buildings needs.
        needed: usize,
        /// Satellites proposed.
        used: usize,
    },
    /// Part of the buildings reaches the threshold with fewer satellites.
    #[error(
        "needs fewer satellites: the planets {planets} alone reach the threshold with {needed}, not {used}"
    )]
    SubsetFewer {
        /// The buildings of the cheaper federation.
        planets: HexList,
        /// Its satellites.
        needed: usize,
        /// Satellites proposed.
        used: usize,
    },
    /// A connection through more of the player's buildings needs fewer satellites.
    #[error(
        "needs fewer satellites: passing by more of your planets connects these with {needed}, not {used}"
    )]
    SupersetFewer {
        /// Satellites of the cheaper, larger federation.
        needed: usize,
        /// Satellites proposed.
        used: usize,
    },
}

/// Checks a proposed federation: the hexes of the player's buildings and of the new satellites
/// (in single-federation mode, hexes of the existing federation may be listed too). Buildings
/// touching the proposal are added to it. Returns the federation that would be formed.
pub fn check(input: &FedInput, proposal: &[Hex]) -> Result<Federation, FedError> {
    if proposal.is_empty() {
        return Err(FedError::Empty);
    }
    let mut seen = HashSet::with_capacity(proposal.len());
    for &h in proposal {
        if !seen.insert(h) {
            return Err(FedError::Repeated(h));
        }
    }
    let mut sats: Vec<Hex> = Vec::new();
    for &h in proposal {
        let member = input.buildings.contains_key(&h) || input.federated.contains(&h);
        if !input.single_federation && member && near_federation(input.federated, h) {
            return Err(FedError::TouchesFederation(h));
        }
        if member {
            continue;
        }
        if !(input.space)(h) {
            return Err(FedError::NotUsable(h));
        }
        if !input.single_federation && near_federation(input.federated, h) {
            return Err(FedError::TouchesFederation(h));
        }
        sats.push(h);
    }
    let budget = sats.len().saturating_sub(1).min(MAX_BUDGET);
    let graph = Graph::build(input, budget);

    // Closure: the groups of the listed buildings and of the satellites' neighbours.
    let mut mask: u64 = 0;
    let add_comp = |c: u32, mask: &mut u64| -> Result<(), FedError> {
        let comp = &graph.comps[c as usize];
        match comp.bit {
            Some(b) => *mask |= 1 << b,
            None => {
                return Err(match comp.touch {
                    Some(at) => FedError::TouchesFederation(at),
                    None => FedError::NotUsable(comp.hexes[0]),
                })
            }
        }
        Ok(())
    };
    for &h in proposal {
        if let Some(c) = graph.comp_at(h) {
            add_comp(c, &mut mask)?;
        }
    }
    for &s in &sats {
        for n in s.neighbours() {
            if let Some(c) = graph.comp_at(n) {
                add_comp(c, &mut mask)?;
            }
        }
    }
    // Connectivity over the closed set.
    let mut hexes: HashSet<Hex> = sats.iter().copied().collect();
    for b in bits(mask) {
        hexes.extend(graph.groups[b].hexes.iter().copied());
    }
    if !connected(&hexes) {
        return Err(FedError::NotConnected);
    }
    if let Some(core) = graph.core {
        if mask & (1 << core) == 0 {
            return Err(FedError::MustExtend);
        }
    }
    let value: u32 = bits(mask).map(|b| graph.groups[b].value).sum();
    if value < input.threshold {
        return Err(FedError::BelowThreshold {
            value,
            threshold: input.threshold,
        });
    }
    let used = sats.len();
    if used > 0 && (mask.count_ones() as usize) <= MAX_GROUPS_PER_FEDERATION {
        let mut dw = Dw::default();
        // Same buildings or a subset reaching the threshold with fewer satellites.
        dw.run(&graph, mask, mask, budget as u8, None);
        let full = dw.full();
        let exact = dw.cost(full);
        if exact as usize <= budget {
            return Err(FedError::SameBuildingsFewer {
                needed: exact as usize,
                used,
            });
        }
        if let Some((sub, c)) = dw.cheapest_subset(&graph, input.threshold) {
            if (c as usize) < used {
                let planets = HexList(graph.buildings_of(dw.global_mask(sub)));
                return Err(FedError::SubsetFewer {
                    planets,
                    needed: c as usize,
                    used,
                });
            }
        }
        // A superset through other buildings.
        dw.run(&graph, mask, graph.all_mask(), budget as u8, None);
        let c = dw.cost(dw.full());
        if c as usize <= budget {
            return Err(FedError::SupersetFewer {
                needed: c as usize,
                used,
            });
        }
    }
    let (buildings, old_satellites) = graph.members_of(mask, input);
    sats.sort();
    Ok(Federation {
        buildings,
        satellites: sats,
        old_satellites,
        value,
    })
}

/// Every legal federation needing at most `max` new satellites (the satellites the player can
/// pay for), one per building set (satellite layouts of the same cost are interchangeable, so
/// only one is given; [`available_layouts`] lists them all), sorted by satellite count, then
/// by buildings.
pub fn available(input: &FedInput, max: usize) -> Vec<Federation> {
    let (graph, sets, mut dw) = legal_sets(input, max);
    sets.into_iter()
        .map(|set| {
            let satellites = if set.cost == 0 {
                Vec::new()
            } else {
                dw.run(&graph, set.mask, set.mask, set.cost, None);
                let mut s: Vec<Hex> = dw
                    .tree(dw.full())
                    .into_iter()
                    .filter_map(|n| graph.space_hex(n))
                    .collect();
                s.sort();
                s
            };
            Federation {
                value: graph.value_of(set.mask),
                buildings: set.buildings,
                satellites,
                old_satellites: set.old_satellites,
            }
        })
        .collect()
}

/// Every legal federation needing at most `max` new satellites, every satellite layout
/// included: for each building set of [`available`] (in its order), every set of exactly its
/// fewest satellites that joins it, the layouts of one set sorted.
///
/// At most `limit` federations are returned: the listing stops there, so later building sets
/// are left out and the building set it stops in may be listed with only some of its layouts
/// (those found first, sorted). With fewer than `limit` results the listing is complete.
pub fn available_layouts(input: &FedInput, max: usize, limit: usize) -> Vec<Federation> {
    let mut out: Vec<Federation> = Vec::new();
    if limit == 0 {
        return out;
    }
    let (graph, sets, mut dw) = legal_sets(input, max);
    let mut rows: Vec<u8> = Vec::new();
    let mut search = LayoutSearch::default();
    for set in sets {
        let layouts = if set.cost == 0 {
            vec![Vec::new()]
        } else {
            graph.region_rows(set.mask, &mut rows);
            dw.run(&graph, set.mask, set.mask, set.cost, Some(&rows));
            search.run(&graph, &dw, &rows, set.cost, limit - out.len())
        };
        let value = graph.value_of(set.mask);
        out.extend(layouts.into_iter().map(|satellites| Federation {
            buildings: set.buildings.clone(),
            satellites,
            old_satellites: set.old_satellites.clone(),
            value,
        }));
        if out.len() >= limit {
            out.truncate(limit);
            break;
        }
    }
    out
}

/// The building set of a legal federation.
struct BuildingSet {
    /// Its groups.
    mask: u64,
    /// Its fewest satellites.
    cost: u8,
    /// Its buildings, as [`Federation::buildings`].
    buildings: Vec<Hex>,
    /// The existing federation's satellites, as [`Federation::old_satellites`].
    old_satellites: Vec<Hex>,
}

/// The building sets of the legal federations needing at most `max` satellites, in the order
/// of [`available`]; with the graph and the search buffers.
fn legal_sets(input: &FedInput, max: usize) -> (Graph, Vec<BuildingSet>, Dw) {
    let budget = max.min(MAX_BUDGET) as u8;
    let graph = Graph::build(input, budget as usize);
    let mut dw = Dw::default();
    let k = graph.groups.len().min(MAX_GROUPS);
    if k == 0 {
        return (graph, Vec::new(), dw);
    }
    let thr = input.threshold;
    let core_bit: usize = graph.core.map_or(0, |c| 1 << c);
    let size = 1usize << k;
    // Per set of groups, in numeric order so that every subset comes first: its value, the
    // largest pairwise distance (a lower bound on its satellites), and `quota`, the fewest
    // satellites of a federation whose building set is within it and reaches the threshold.
    let mut value = vec![0u32; size];
    let mut lb = vec![0u8; size];
    let mut quota = vec![INF; size];
    let mut found: Vec<(u64, u8)> = Vec::new();
    let mut rows: Vec<u8> = Vec::new();
    for t in 1..size {
        let low = t.trailing_zeros() as usize;
        let rest = t & (t - 1);
        value[t] = value[rest] + graph.groups[low].value;
        lb[t] = bits(rest as u64).fold(lb[rest], |m, b| m.max(graph.pair(low, b)));
        let sub = bits(t as u64).fold(INF, |m, b| m.min(quota[t ^ (1 << b)]));
        quota[t] = sub;
        if value[t] < thr || t & core_bit != core_bit || lb[t] > budget || lb[t] > sub {
            // Not a federation, out of reach, or beaten by a subset whatever it costs.
            continue;
        }
        let terms = t as u64;
        let cap = budget.min(sub);
        let cost = match t.count_ones() {
            1 => 0,
            c if c as usize > MAX_GROUPS_PER_FEDERATION => continue,
            c => {
                // Distances inside the region of exactly these groups.
                graph.region_rows(terms, &mut rows);
                let lower = graph.joins(terms, &rows, c <= 3);
                if lower > cap {
                    continue;
                }
                if c <= 3 {
                    lower
                } else {
                    let Some(upper) = graph.greedy(terms) else {
                        continue;
                    };
                    dw.run(&graph, terms, terms, upper.min(cap), Some(&rows));
                    let c = dw.cost(dw.full());
                    if c == INF {
                        continue;
                    }
                    c
                }
            }
        };
        quota[t] = sub.min(cost);
        if cost <= sub {
            found.push((terms, cost));
        }
    }
    // No cheaper federation may pass through more of the buildings: one search per set, or
    // a single search over all groups when that is cheaper.
    let open: Vec<bool> = found
        .iter()
        .map(|&(t, cost)| cost > 0 && graph.joins(t, &graph.dist, t.count_ones() <= 3) < cost)
        .collect();
    let separate: f64 = found
        .iter()
        .zip(&open)
        .filter(|(_, &o)| o)
        .map(|(&(t, _), _)| 3f64.powi(t.count_ones() as i32))
        .sum();
    let all = graph.groups.len();
    let together =
        (all <= MAX_GROUPS_PER_FEDERATION && separate > 3f64.powi(all as i32)).then(|| {
            let top = found
                .iter()
                .zip(&open)
                .filter(|(_, &o)| o)
                .map(|(&(_, c), _)| c)
                .max()
                .unwrap_or(1);
            dw.run(&graph, graph.all_mask(), graph.all_mask(), top - 1, None);
            found
                .iter()
                .map(|&(t, _)| dw.cost(t as usize))
                .collect::<Vec<u8>>()
        });
    let mut keep = Vec::with_capacity(found.len());
    for (i, &(t, cost)) in found.iter().enumerate() {
        let cheaper = open[i]
            && match &together {
                Some(sup) => sup[i] < cost,
                None => {
                    dw.run(&graph, t, graph.all_mask(), cost - 1, None);
                    dw.cost(dw.full()) != INF
                }
            };
        if !cheaper {
            keep.push((t, cost));
        }
    }
    let mut sets: Vec<BuildingSet> = keep
        .into_iter()
        .map(|(mask, cost)| {
            let (buildings, old_satellites) = graph.members_of(mask, input);
            BuildingSet {
                mask,
                cost,
                buildings,
                old_satellites,
            }
        })
        .collect();
    sets.sort_by(|a, b| (a.cost, &a.buildings).cmp(&(b.cost, &b.buildings)));
    (graph, sets, dw)
}

/// Is the hex in or next to one of the federations?
fn near_federation(federated: &HashSet<Hex>, h: Hex) -> bool {
    !federated.is_empty()
        && (federated.contains(&h) || h.neighbours().iter().any(|n| federated.contains(n)))
}

/// Is the set connected by hex adjacency?
fn connected(hexes: &HashSet<Hex>) -> bool {
    let Some(&start) = hexes.iter().next() else {
        return true;
    };
    let mut seen: HashSet<Hex> = HashSet::with_capacity(hexes.len());
    seen.insert(start);
    let mut stack = vec![start];
    while let Some(h) = stack.pop() {
        for n in h.neighbours() {
            if hexes.contains(&n) && seen.insert(n) {
                stack.push(n);
            }
        }
    }
    seen.len() == hexes.len()
}

/// The set bits of a mask, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let b = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(b)
    })
}

const NONE: u32 = u32::MAX;
const INF: u8 = u8::MAX;

/// A connected cluster of the player's federation members.
struct Comp {
    hexes: Vec<Hex>,
    /// Its bit among the usable groups; `None` when it touches an existing federation.
    bit: Option<usize>,
    /// For an unusable cluster, one of its hexes next to a federation.
    touch: Option<Hex>,
}

/// A usable building group.
struct Group {
    hexes: Vec<Hex>,
    value: u32,
}

/// The search graph: usable groups (nodes `0..k`, weight 0) and the space hexes that may
/// carry a satellite within the budget (nodes `k..`, weight 1).
struct Graph {
    comps: Vec<Comp>,
    groups: Vec<Group>,
    core: Option<usize>,
    /// Dense lookup over a bounding box: component id per cell.
    q0: i32,
    r0: i32,
    width: i32,
    height: i32,
    cell_comp: Vec<u32>,
    /// Space hexes of nodes `k..`.
    spaces: Vec<Hex>,
    /// Groups adjacent to each node (a group node holds its own bit).
    touch: Vec<u64>,
    /// Adjacency, compressed rows.
    off: Vec<u32>,
    nbr: Vec<u32>,
    /// `dist[g * n + v]`: fewest satellites on a path from group `g` to node `v`, `v` included.
    dist: Vec<u8>,
}

impl Graph {
    fn build(input: &FedInput, budget: usize) -> Graph {
        let single = input.single_federation;
        // Federation members: usable buildings, and in single mode the federation itself.
        let mut members: Vec<Hex> = input
            .buildings
            .keys()
            .copied()
            .filter(|h| single || !input.federated.contains(h))
            .collect();
        if single {
            members.extend(
                input
                    .federated
                    .iter()
                    .copied()
                    .filter(|h| !input.buildings.contains_key(h)),
            );
        }
        members.sort();
        let (mut q0, mut r0, mut q1, mut r1) = (0, 0, -1, -1);
        if let Some(first) = members.first() {
            (q0, r0, q1, r1) = (first.q, first.r, first.q, first.r);
            for h in &members {
                q0 = q0.min(h.q);
                q1 = q1.max(h.q);
                r0 = r0.min(h.r);
                r1 = r1.max(h.r);
            }
        }
        let margin = budget as i32 + 2;
        let (q0, r0) = (q0 - margin, r0 - margin);
        let width = q1 + margin + 1 - q0;
        let height = r1 + margin + 1 - r0;
        let mut g = Graph {
            comps: Vec::new(),
            groups: Vec::new(),
            core: None,
            q0,
            r0,
            width: width.max(0),
            height: height.max(0),
            cell_comp: vec![NONE; (width.max(0) * height.max(0)) as usize],
            spaces: Vec::new(),
            touch: Vec::new(),
            off: Vec::new(),
            nbr: Vec::new(),
            dist: Vec::new(),
        };
        const MEMBER: u32 = NONE - 1;
        for &h in &members {
            let i = g.cell(h).expect("member inside the box");
            g.cell_comp[i] = MEMBER;
        }
        // Components of members.
        for &start in &members {
            let i = g.cell(start).expect("inside");
            if g.cell_comp[i] != MEMBER {
                continue;
            }
            let id = g.comps.len() as u32;
            g.cell_comp[i] = id;
            let mut hexes = vec![start];
            let mut k = 0;
            while k < hexes.len() {
                let h = hexes[k];
                k += 1;
                for n in h.neighbours() {
                    if let Some(j) = g.cell(n) {
                        if g.cell_comp[j] == MEMBER {
                            g.cell_comp[j] = id;
                            hexes.push(n);
                        }
                    }
                }
            }
            hexes.sort();
            let touch = if single {
                None
            } else {
                hexes
                    .iter()
                    .copied()
                    .find(|&h| near_federation(input.federated, h))
            };
            g.comps.push(Comp {
                hexes,
                bit: None,
                touch,
            });
        }
        // Usable groups: the core (single mode) first, then by position.
        let mut order: Vec<usize> = (0..g.comps.len())
            .filter(|&c| g.comps[c].touch.is_none())
            .collect();
        if single && !input.federated.is_empty() {
            let is_core = |c: &Comp| c.hexes.iter().any(|h| input.federated.contains(h));
            let cores: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&c| is_core(&g.comps[c]))
                .collect();
            if let Some(&first) = cores.first() {
                // Several pieces of one federation (not expected) act as one group.
                for &c in &cores[1..] {
                    let moved = std::mem::take(&mut g.comps[c].hexes);
                    for &h in &moved {
                        let j = g.cell(h).expect("inside");
                        g.cell_comp[j] = first as u32;
                    }
                    g.comps[first].hexes.extend(moved);
                }
                g.comps[first].hexes.sort();
                order.retain(|c| !cores[1..].contains(c));
                order.retain(|&c| c != first);
                order.insert(0, first);
                g.core = Some(0);
            }
        }
        for (bit, &c) in order.iter().enumerate().take(64) {
            g.comps[c].bit = Some(bit);
            let value = g.comps[c]
                .hexes
                .iter()
                .filter_map(|h| input.buildings.get(h))
                .sum();
            g.groups.push(Group {
                hexes: g.comps[c].hexes.clone(),
                value,
            });
        }
        let k = g.groups.len();

        // Space hexes within `budget` satellites of a group.
        let usable = |g: &Graph, h: Hex| -> bool {
            if g.comp_at(h).is_some() || !(input.space)(h) {
                return false;
            }
            if !single && near_federation(input.federated, h) {
                return false;
            }
            // A satellite next to an unusable cluster would pull it in.
            h.neighbours().iter().all(|&n| {
                g.comp_at(n)
                    .is_none_or(|c| g.comps[c as usize].bit.is_some())
            })
        };
        // Per cell: NONE (not looked at), REJECTED, or the node.
        const REJECTED: u32 = NONE - 1;
        let mut cell_node = vec![NONE; g.cell_comp.len()];
        let mut frontier: Vec<Hex> = Vec::new();
        let mut next: Vec<Hex> = Vec::new();
        if budget > 0 {
            for grp in &g.groups {
                frontier.extend(grp.hexes.iter().copied());
            }
        }
        for _ in 0..budget {
            next.clear();
            for &h in &frontier {
                for n in h.neighbours() {
                    let Some(i) = g.cell(n) else { continue };
                    if cell_node[i] != NONE {
                        continue;
                    }
                    if usable(&g, n) {
                        cell_node[i] = (k + g.spaces.len()) as u32;
                        g.spaces.push(n);
                        next.push(n);
                    } else {
                        cell_node[i] = REJECTED;
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
        }
        let (q0, r0, width, height) = (g.q0, g.r0, g.width, g.height);
        let node_at = |h: Hex| {
            let (x, y) = (h.q - q0, h.r - r0);
            (x >= 0 && y >= 0 && x < width && y < height)
                .then(|| cell_node[(y * width + x) as usize])
                .filter(|&v| v < REJECTED)
        };
        // Adjacency.
        let n = k + g.spaces.len();
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n];
        g.touch = vec![0; n];
        for (b, t) in g.touch.iter_mut().enumerate().take(k) {
            *t = 1 << b;
        }
        for (j, &h) in g.spaces.iter().enumerate() {
            let v = (k + j) as u32;
            for nh in h.neighbours() {
                if let Some(u) = node_at(nh) {
                    lists[v as usize].push(u);
                } else if let Some(c) = g.comp_at(nh) {
                    if let Some(b) = g.comps[c as usize].bit {
                        if g.touch[v as usize] & (1 << b) == 0 {
                            g.touch[v as usize] |= 1 << b;
                            lists[v as usize].push(b as u32);
                            lists[b].push(v);
                        }
                    }
                }
            }
        }
        g.off.push(0);
        for l in &lists {
            g.nbr.extend_from_slice(l);
            g.off.push(g.nbr.len() as u32);
        }
        // Distances from each group.
        g.dist = vec![INF; k * n];
        let mut queue: Vec<u32> = Vec::new();
        for s in 0..k {
            let d = &mut g.dist[s * n..(s + 1) * n];
            d[s] = 0;
            queue.clear();
            queue.push(s as u32);
            // Breadth-first by layers; groups (weight 0) are expanded in the same layer.
            let mut head = 0;
            while head < queue.len() {
                let v = queue[head] as usize;
                head += 1;
                for &u in &g.nbr[g.off[v] as usize..g.off[v + 1] as usize] {
                    let u = u as usize;
                    let w = u8::from(u >= k);
                    let nd = d[v].saturating_add(w);
                    if nd < d[u] {
                        d[u] = nd;
                        if w == 0 {
                            // A group reached: explore it before farther hexes.
                            queue.insert(head, u as u32);
                        } else {
                            queue.push(u as u32);
                        }
                    }
                }
            }
        }
        g
    }

    /// An upper bound on the satellites joining exactly the groups of `terms`: attach the
    /// nearest missing group by a shortest path, repeatedly, using only hexes touching no other
    /// group. `None` when they cannot be joined that way at all.
    fn greedy(&self, terms: u64) -> Option<u8> {
        let n = self.nodes();
        let k = self.groups.len();
        let mut in_tree = vec![false; n];
        let first = terms.trailing_zeros() as usize;
        in_tree[first] = true;
        let mut missing = terms & !(1 << first);
        let mut cost: u32 = 0;
        let mut dist = vec![u32::MAX; n];
        let mut prev = vec![NONE; n];
        let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
        while missing != 0 {
            dist.fill(u32::MAX);
            queue.clear();
            for v in 0..n {
                if in_tree[v] {
                    dist[v] = 0;
                    queue.push_back(v);
                }
            }
            let mut reached = None;
            while let Some(v) = queue.pop_front() {
                if v < k && missing & (1 << v) != 0 {
                    reached = Some(v);
                    break;
                }
                for &u in &self.nbr[self.off[v] as usize..self.off[v + 1] as usize] {
                    let u = u as usize;
                    if u >= k && self.touch[u] & !terms != 0 || u < k && terms & (1 << u) == 0 {
                        continue;
                    }
                    let w = u32::from(u >= k);
                    if dist[v] + w < dist[u] {
                        dist[u] = dist[v] + w;
                        prev[u] = v as u32;
                        if w == 0 {
                            queue.push_front(u);
                        } else {
                            queue.push_back(u);
                        }
                    }
                }
            }
            let g = reached?;
            cost += dist[g];
            missing &= !(1 << g);
            let mut v = g;
            while !in_tree[v] {
                in_tree[v] = true;
                v = prev[v] as usize;
            }
        }
        Some(cost.min(INF as u32 - 1) as u8)
    }

    /// Distance rows (as `dist`) from each group of `terms` within the region of exactly those
    /// groups: other groups and the hexes touching them are impassable. Rows of other groups
    /// are left as they are.
    fn region_rows(&self, terms: u64, rows: &mut Vec<u8>) {
        let n = self.nodes();
        let k = self.groups.len();
        rows.resize(k * n, INF);
        let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
        for s in bits(terms) {
            let d = &mut rows[s * n..(s + 1) * n];
            d.fill(INF);
            d[s] = 0;
            queue.clear();
            queue.push_back(s);
            while let Some(v) = queue.pop_front() {
                for &u in &self.nbr[self.off[v] as usize..self.off[v + 1] as usize] {
                    let u = u as usize;
                    let blocked = if u < k {
                        terms & (1 << u) == 0
                    } else {
                        self.touch[u] & !terms != 0
                    };
                    if blocked {
                        continue;
                    }
                    let w = u8::from(u >= k);
                    let nd = d[v].saturating_add(w);
                    if nd < d[u] {
                        d[u] = nd;
                        if w == 0 {
                            queue.push_front(u);
                        } else {
                            queue.push_back(u);
                        }
                    }
                }
            }
        }
    }

    /// The fewest satellites joining the groups of `terms` (at least two) given distance
    /// rows: exact for two or three groups (the best meeting point of three shortest paths)
    /// when `exact` is set; otherwise the largest such value over the pairs and triples, a lower
    /// bound. `INF` when some pair cannot be joined.
    fn joins(&self, terms: u64, rows: &[u8], exact: bool) -> u8 {
        let n = self.nodes();
        let k = self.groups.len();
        let t: Vec<usize> = bits(terms).collect();
        let mut best = 0u8;
        for (i, &a) in t.iter().enumerate() {
            for &b in &t[i + 1..] {
                best = best.max(rows[a * n + b]);
            }
        }
        if best == INF || t.len() < 3 || (exact && t.len() > 3) {
            return best;
        }
        for (i, &a) in t.iter().enumerate() {
            for (j, &b) in t.iter().enumerate().skip(i + 1) {
                for &c in &t[j + 1..] {
                    let (ra, rb, rc) = (
                        &rows[a * n..a * n + n],
                        &rows[b * n..b * n + n],
                        &rows[c * n..c * n + n],
                    );
                    let mut m = u16::MAX;
                    for v in 0..n {
                        let sum = ra[v] as u16 + rb[v] as u16 + rc[v] as u16;
                        let sum = sum - 2 * u16::from(v >= k);
                        m = m.min(sum);
                    }
                    best = best.max(m.min(INF as u16) as u8);
                }
            }
        }
        best
    }

    fn cell(&self, h: Hex) -> Option<usize> {
        let (x, y) = (h.q - self.q0, h.r - self.r0);
        (x >= 0 && y >= 0 && x < self.width && y < self.height)
            .then(|| (y * self.width + x) as usize)
    }

    /// The member component at a hex.
    fn comp_at(&self, h: Hex) -> Option<u32> {
        self.cell(h)
            .map(|i| self.cell_comp[i])
            .filter(|&c| (c as usize) < self.comps.len())
    }

    fn nodes(&self) -> usize {
        self.groups.len() + self.spaces.len()
    }

    fn all_mask(&self) -> u64 {
        let k = self.groups.len();
        if k >= 64 {
            u64::MAX
        } else {
            (1u64 << k) - 1
        }
    }

    /// Fewest satellites connecting two groups (a lower bound for any federation with both).
    fn pair(&self, a: usize, b: usize) -> u8 {
        self.dist[a * self.nodes() + b]
    }

    fn space_hex(&self, node: usize) -> Option<Hex> {
        node.checked_sub(self.groups.len()).map(|j| self.spaces[j])
    }

    /// The power value of a set of groups.
    fn value_of(&self, mask: u64) -> u32 {
        bits(mask).map(|b| self.groups[b].value).sum()
    }

    fn buildings_of(&self, mask: u64) -> Vec<Hex> {
        let mut v: Vec<Hex> = bits(mask)
            .flat_map(|b| self.groups[b].hexes.iter().copied())
            .collect();
        v.sort();
        v
    }

    /// The hexes of a set of groups split into buildings (those in [`FedInput::buildings`])
    /// and the existing federation's satellites (the others, only found in the core), both
    /// sorted: [`Federation::buildings`] and [`Federation::old_satellites`].
    fn members_of(&self, mask: u64, input: &FedInput) -> (Vec<Hex>, Vec<Hex>) {
        self.buildings_of(mask)
            .into_iter()
            .partition(|h| input.buildings.contains_key(h))
    }
}

/// Dreyfus–Wagner Steiner tree search over a sub-graph, with reusable buffers.
#[derive(Default)]
struct Dw {
    /// Global group bit of each terminal.
    term_bit: Vec<usize>,
    /// Global node of each local node.
    global: Vec<u32>,
    local: Vec<u32>,
    w: Vec<u8>,
    off: Vec<u32>,
    nbr: Vec<u32>,
    n: usize,
    budget: u8,
    dp: Vec<u8>,
    buckets: Vec<Vec<u32>>,
}

impl Dw {
    /// Fills `dp[C][v]`, the fewest satellites of a connected set holding terminal groups `C`
    /// and node `v`, for every subset `C` of `terms`, using only groups in `region` and space
    /// hexes touching no group outside it. Values above `budget` are `INF`.
    ///
    /// `rows` (distance rows of all groups, as [`Graph::region_rows`] gives) sharpen the choice
    /// of useful hexes; by default the whole-graph distances are used.
    fn run(&mut self, g: &Graph, terms: u64, region: u64, budget: u8, rows: Option<&[u8]>) {
        let rows = rows.unwrap_or(&g.dist);
        let k = g.groups.len();
        let total = g.nodes();
        self.budget = budget;
        self.term_bit = bits(terms).collect();
        let t = self.term_bit.len();
        // Local nodes: terminals first, other region groups, then useful space hexes.
        self.local.clear();
        self.local.resize(total, NONE);
        self.global.clear();
        for &b in &self.term_bit {
            self.local[b] = self.global.len() as u32;
            self.global.push(b as u32);
        }
        for b in bits(region & !terms) {
            if b < k {
                self.local[b] = self.global.len() as u32;
                self.global.push(b as u32);
            }
        }
        for v in k..total {
            if g.touch[v] & !region != 0 {
                continue;
            }
            // On a path between two terminals within the budget?
            let (mut s1, mut s2) = (INF, INF);
            for &b in &self.term_bit {
                let d = rows[b * total + v];
                if d < s1 {
                    s2 = s1;
                    s1 = d;
                } else if d < s2 {
                    s2 = d;
                }
            }
            if s2 == INF || (s1 as u16 + s2 as u16) > budget as u16 + 1 {
                continue;
            }
            self.local[v] = self.global.len() as u32;
            self.global.push(v as u32);
        }
        let n = self.global.len();
        self.n = n;
        self.w.clear();
        self.off.clear();
        self.nbr.clear();
        self.off.push(0);
        for i in 0..n {
            let v = self.global[i] as usize;
            self.w.push(u8::from(v >= k));
            for &u in &g.nbr[g.off[v] as usize..g.off[v + 1] as usize] {
                let lu = self.local[u as usize];
                if lu != NONE {
                    self.nbr.push(lu);
                }
            }
            self.off.push(self.nbr.len() as u32);
        }
        let size = (1usize << t) * n;
        self.dp.clear();
        self.dp.resize(size, INF);
        if self.buckets.len() < budget as usize + 1 {
            self.buckets.resize(budget as usize + 1, Vec::new());
        }
        for c in 1usize..(1 << t) {
            let base = c * n;
            if c.count_ones() == 1 {
                self.dp[base + c.trailing_zeros() as usize] = 0;
            } else {
                let low = c & c.wrapping_neg();
                let rest = c ^ low;
                // Submasks holding the lowest bit, except `c` itself.
                let mut s = rest;
                loop {
                    s = (s.wrapping_sub(1)) & rest;
                    let c1 = s | low;
                    if c1 != c {
                        let c2 = c ^ c1;
                        let (head, tail) = self.dp.split_at_mut(base);
                        let a = &head[c1 * n..c1 * n + n];
                        let b = &head[c2 * n..c2 * n + n];
                        let out = &mut tail[..n];
                        for (((o, &x), &y), &w) in out.iter_mut().zip(a).zip(b).zip(&self.w) {
                            let sum = (x as u16 + y as u16 - w as u16).min(INF as u16) as u8;
                            *o = (*o).min(sum);
                        }
                    }
                    if s == 0 {
                        break;
                    }
                }
                for x in &mut self.dp[base..base + n] {
                    if *x > budget {
                        *x = INF;
                    }
                }
            }
            self.relax(c);
        }
    }

    /// Shortest-path closure of `dp[c]` (Dial's buckets; weights 0 and 1).
    fn relax(&mut self, c: usize) {
        let n = self.n;
        let budget = self.budget as usize;
        let row = &mut self.dp[c * n..c * n + n];
        for (v, &d) in row.iter().enumerate() {
            if d != INF {
                self.buckets[d as usize].push(v as u32);
            }
        }
        for d in 0..=budget {
            while let Some(v) = self.buckets[d].pop() {
                let v = v as usize;
                if row[v] as usize != d {
                    continue;
                }
                for &u in &self.nbr[self.off[v] as usize..self.off[v + 1] as usize] {
                    let u = u as usize;
                    let nd = d + self.w[u] as usize;
                    if nd <= budget && nd < row[u] as usize {
                        row[u] = nd as u8;
                        self.buckets[nd].push(u as u32);
                    }
                }
            }
        }
    }

    fn full(&self) -> usize {
        (1 << self.term_bit.len()) - 1
    }

    /// Fewest satellites joining terminal subset `c` (`INF` above the budget).
    fn cost(&self, c: usize) -> u8 {
        self.dp[c * self.n + c.trailing_zeros() as usize]
    }

    /// The global group mask of a terminal subset.
    fn global_mask(&self, c: usize) -> u64 {
        bits(c as u64).fold(0, |m, i| m | 1 << self.term_bit[i])
    }

    /// The cheapest proper subset of the terminals that reaches the threshold (and holds the
    /// core, if any), with its cost.
    fn cheapest_subset(&self, g: &Graph, threshold: u32) -> Option<(usize, u8)> {
        let full = self.full();
        let core = g.core.map(|c| 1u64 << c);
        let mut best: Option<(usize, u8)> = None;
        for c in 1..full {
            let cost = self.cost(c);
            if cost == INF || best.is_some_and(|(_, b)| b <= cost) {
                continue;
            }
            let m = self.global_mask(c);
            if core.is_some_and(|cb| m & cb == 0) {
                continue;
            }
            let value: u32 = bits(m).map(|b| g.groups[b].value).sum();
            if value >= threshold {
                best = Some((c, cost));
            }
        }
        best
    }

    /// The global nodes of a cheapest tree for terminal subset `c`.
    fn tree(&self, c: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut todo = vec![(c, c.trailing_zeros() as usize)];
        let n = self.n;
        while let Some((c, v)) = todo.pop() {
            out.push(self.global[v] as usize);
            let d = self.dp[c * n + v];
            if c.count_ones() == 1 && v == c.trailing_zeros() as usize {
                continue;
            }
            // A split at v?
            let low = c & c.wrapping_neg();
            let rest = c ^ low;
            let mut s = rest;
            let mut done = false;
            loop {
                s = s.wrapping_sub(1) & rest;
                let c1 = s | low;
                if c1 != c {
                    let c2 = c ^ c1;
                    let x =
                        self.dp[c1 * n + v] as u16 + self.dp[c2 * n + v] as u16 - self.w[v] as u16;
                    if x == d as u16 {
                        todo.push((c1, v));
                        todo.push((c2, v));
                        done = true;
                        break;
                    }
                }
                if s == 0 {
                    break;
                }
            }
            if done {
                continue;
            }
            let step = self.w[v];
            let prev = self.nbr[self.off[v] as usize..self.off[v + 1] as usize]
                .iter()
                .map(|&u| u as usize)
                .find(|&u| {
                    self.dp[c * n + u] != INF
                        && self.dp[c * n + u] + step == d
                        && (step == 1 || self.w[u] == 1)
                })
                .expect("a predecessor");
            todo.push((c, prev));
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Enumerates the satellite layouts of one building set: every set of exactly its fewest
/// satellites that joins its groups. Connected sets are grown from the first group over the
/// hexes of some cheapest layout (those whose cheapest layout through them has that cost, from
/// [`Dw::run`]), each exactly once: a hex taken from the frontier is either added or banned
/// for the rest of that branch. A group is added as soon as a satellite touches it, and a
/// branch stops when the farthest missing group is out of reach of the satellites left.
#[derive(Default)]
struct LayoutSearch {
    /// Terminals.
    t: usize,
    /// Per local node: `FREE`, `FRONTIER`, `TAKEN` or `BANNED`.
    state: Vec<u8>,
    /// `rows[i * n + v]`: fewest satellites from terminal `i` to local node `v`, `v` included.
    rows: Vec<u8>,
    /// The frontier: free neighbours of the grown set, still to be decided.
    frontier: Vec<u32>,
    /// Undo log: nodes that left `FREE`.
    changed: Vec<u32>,
    /// Undo log: frontier nodes banned.
    banned: Vec<u32>,
    /// Nodes still to add in [`LayoutSearch::take`].
    todo: Vec<u32>,
    /// Satellites taken.
    sats: Vec<u32>,
    /// Terminals joined (local bits).
    joined: u64,
    /// Stack of frames of `t` entries: fewest further satellites to reach each terminal
    /// from the grown set.
    need: Vec<u8>,
    /// Layouts found, as global nodes.
    found: Vec<Vec<u32>>,
    /// Stop after this many layouts.
    limit: usize,
}

const FREE: u8 = 0;
const FRONTIER: u8 = 1;
const TAKEN: u8 = 2;
const BANNED: u8 = 3;

impl LayoutSearch {
    /// The layouts (sorted satellite hexes, sorted) of the building set `dw` was last run on
    /// (terminals = region = the set, budget = `cost`, its fewest satellites, at least 1),
    /// with `rows` its region distances; at most `limit` of them.
    fn run(&mut self, g: &Graph, dw: &Dw, rows: &[u8], cost: u8, limit: usize) -> Vec<Vec<Hex>> {
        let n = dw.n;
        let t = dw.term_bit.len();
        let total = g.nodes();
        let full = dw.full();
        self.t = t;
        self.limit = limit;
        self.found.clear();
        self.frontier.clear();
        self.changed.clear();
        self.banned.clear();
        self.sats.clear();
        // Only hexes of some cheapest layout are free.
        self.state.clear();
        self.state.extend((0..n).map(|v| {
            if v < t || dw.dp[full * n + v] == cost {
                FREE
            } else {
                BANNED
            }
        }));
        self.rows.clear();
        for &b in &dw.term_bit {
            let row = &rows[b * total..(b + 1) * total];
            self.rows
                .extend(dw.global[..n].iter().map(|&v| row[v as usize]));
        }
        self.need.clear();
        self.need.resize(t, INF);
        self.joined = 0;
        self.take(dw, 0, false);
        self.grow(dw, cost);
        let mut out: Vec<Vec<Hex>> = self
            .found
            .iter()
            .map(|layout| {
                let mut hexes: Vec<Hex> = layout
                    .iter()
                    .filter_map(|&v| g.space_hex(v as usize))
                    .collect();
                hexes.sort();
                hexes
            })
            .collect();
        out.sort();
        debug_assert!(
            out.windows(2).all(|w| w[0] != w[1]),
            "a layout listed twice"
        );
        out
    }

    /// Adds local node `v` to the grown set, with the groups it touches, and their free
    /// neighbours to the frontier. With `frame`, a new `need` frame is pushed first.
    fn take(&mut self, dw: &Dw, v: usize, frame: bool) {
        let t = self.t;
        if frame {
            let top = self.need.len() - t;
            self.need.extend_from_within(top..);
        }
        let mut todo = std::mem::take(&mut self.todo);
        todo.push(v as u32);
        while let Some(v) = todo.pop() {
            let v = v as usize;
            self.state[v] = TAKEN;
            self.changed.push(v as u32);
            let top = self.need.len() - t;
            let w = dw.w[v];
            let n = dw.n;
            for i in 0..t {
                let d = self.rows[i * n + v].saturating_sub(w);
                let slot = &mut self.need[top + i];
                *slot = (*slot).min(d);
            }
            if v < t {
                self.joined |= 1 << v;
            }
            for &u in &dw.nbr[dw.off[v] as usize..dw.off[v + 1] as usize] {
                let u = u as usize;
                if self.state[u] != FREE {
                    continue;
                }
                if u < t {
                    // A group touched by the set joins it.
                    self.state[u] = TAKEN;
                    todo.push(u as u32);
                } else {
                    self.state[u] = FRONTIER;
                    self.changed.push(u as u32);
                    self.frontier.push(u as u32);
                }
            }
        }
        self.todo = todo;
    }

    /// Grows the set with at most `left` more satellites.
    fn grow(&mut self, dw: &Dw, left: u8) {
        let t = self.t;
        let all = (1u64 << t) - 1;
        if self.joined == all {
            // Fewer satellites would join them all: exactly the fewest were used.
            self.found
                .push(self.sats.iter().map(|&v| dw.global[v as usize]).collect());
            return;
        }
        if left == 0 {
            return;
        }
        let top = self.need.len() - t;
        let reach = bits(all & !self.joined)
            .map(|i| self.need[top + i])
            .max()
            .unwrap_or(0);
        if reach > left {
            return;
        }
        let banned_mark = self.banned.len();
        while let Some(v) = self.frontier.pop() {
            let v = v as usize;
            // Take v.
            let (frontier_mark, changed_mark, joined) =
                (self.frontier.len(), self.changed.len(), self.joined);
            self.sats.push(v as u32);
            self.take(dw, v, true);
            self.grow(dw, left - 1);
            self.sats.pop();
            self.need.truncate(self.need.len() - t);
            self.joined = joined;
            for &u in &self.changed[changed_mark..] {
                self.state[u as usize] = FREE;
            }
            self.changed.truncate(changed_mark);
            self.frontier.truncate(frontier_mark);
            // Or ban it in the rest of this branch.
            self.state[v] = BANNED;
            self.banned.push(v as u32);
            if self.found.len() >= self.limit {
                break;
            }
        }
        // Back to the frontier as it was.
        while self.banned.len() > banned_mark {
            let v = self.banned.pop().expect("banned");
            self.state[v as usize] = FRONTIER;
            self.frontier.push(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hexagonal board of the given radius around the origin, with planets at some hexes.
    struct Board {
        radius: u32,
        planets: HashSet<Hex>,
        buildings: HashMap<Hex, u32>,
        federated: HashSet<Hex>,
    }

    fn h(q: i32, r: i32) -> Hex {
        Hex::new(q, r)
    }

    impl Board {
        fn new(radius: u32) -> Board {
            Board {
                radius,
                planets: HashSet::new(),
                buildings: HashMap::new(),
                federated: HashSet::new(),
            }
        }

        /// Places one of the player's buildings (on a planet) with a power value.
        fn build(mut self, at: Hex, value: u32) -> Board {
            self.planets.insert(at);
            self.buildings.insert(at, value);
            self
        }

        /// A planet the player does not hold.
        fn planet(mut self, at: Hex) -> Board {
            self.planets.insert(at);
            self
        }

        /// Marks hexes as an existing federation of the player.
        fn federate(mut self, hexes: &[Hex]) -> Board {
            for &x in hexes {
                if self.buildings.contains_key(&x) {
                    self.planets.insert(x);
                }
                self.federated.insert(x);
            }
            self
        }

        fn with<T>(&self, threshold: u32, single: bool, f: impl FnOnce(&FedInput) -> T) -> T {
            let space = |x: Hex| {
                x.distance(Hex::new(0, 0)) <= self.radius
                    && !self.planets.contains(&x)
                    && !self.federated.contains(&x)
            };
            let buildings: HashMap<Hex, u32> = if single {
                self.buildings.clone()
            } else {
                self.buildings
                    .iter()
                    .filter(|(x, _)| !self.federated.contains(x))
                    .map(|(x, v)| (*x, *v))
                    .collect()
            };
            let input = FedInput {
                buildings: &buildings,
                federated: &self.federated,
                space: &space,
                threshold,
                single_federation: single,
            };
            f(&input)
        }

        fn check(&self, proposal: &[Hex]) -> Result<Federation, FedError> {
            self.with(7, false, |i| check(i, proposal))
        }

        fn available(&self, max: usize) -> Vec<Federation> {
            self.with(7, false, |i| available(i, max))
        }

        fn layouts(&self, max: usize, limit: usize) -> Vec<Federation> {
            self.with(7, false, |i| available_layouts(i, max, limit))
        }
    }

    /// Every layout of `fed`'s building set with as many satellites, found naively: sets grown
    /// one free neighbouring hex at a time (each set once), kept when they pass the check with
    /// exactly these buildings.
    fn naive_layouts(input: &FedInput, fed: &Federation) -> Vec<Vec<Hex>> {
        let mut base: HashSet<Hex> = fed.buildings.iter().copied().collect();
        if input.single_federation {
            base.extend(input.federated.iter().copied());
        }
        let mut level: HashSet<Vec<Hex>> = HashSet::from([Vec::new()]);
        for _ in 0..fed.satellites.len() {
            let mut next = HashSet::new();
            for sats in &level {
                for x in base.iter().chain(sats).flat_map(|x| x.neighbours()) {
                    if base.contains(&x) || sats.contains(&x) || !(input.space)(x) {
                        continue;
                    }
                    let mut more = sats.clone();
                    more.push(x);
                    more.sort();
                    next.insert(more);
                }
            }
            level = next;
        }
        let mut out: Vec<Vec<Hex>> = level
            .into_iter()
            .filter(|sats| {
                let mut joined = base.clone();
                joined.extend(sats);
                if !connected(&joined) {
                    return false;
                }
                let mut hexes = fed.buildings.clone();
                hexes.extend(sats);
                check(input, &hexes).is_ok_and(|f| f.buildings == fed.buildings)
            })
            .collect();
        out.sort();
        out
    }

    /// Checks `available_layouts` against `available`, `check` and the naive enumeration.
    fn check_layouts(input: &FedInput, max: usize) -> Vec<Federation> {
        let listed = available(input, max);
        let all = available_layouts(input, max, usize::MAX);
        for f in &listed {
            assert!(all.contains(f), "{f:?} missing from {all:?}");
        }
        // Grouped by building set, in the order of `available`, layouts sorted and distinct.
        let mut i = 0;
        for f in &listed {
            let j = i + all[i..]
                .iter()
                .take_while(|g| g.buildings == f.buildings)
                .count();
            let layouts: Vec<Vec<Hex>> = all[i..j].iter().map(|g| g.satellites.clone()).collect();
            assert!(layouts.windows(2).all(|w| w[0] < w[1]), "{layouts:?}");
            for g in &all[i..j] {
                assert_eq!(g.satellites.len(), f.satellites.len());
                assert_eq!(g.value, f.value);
                assert_eq!(g.old_satellites, f.old_satellites);
                assert!(g.satellites.windows(2).all(|w| w[0] < w[1]));
                assert_eq!(check(input, &g.hexes()).as_ref(), Ok(g));
                // The whole grown federation is named, old satellites included.
                let hexes = g.hexes();
                if input.single_federation {
                    assert!(input.federated.iter().all(|x| hexes.contains(x)), "{g:?}");
                } else {
                    assert!(g.old_satellites.is_empty());
                }
            }
            if f.satellites.len() <= 4 {
                assert_eq!(layouts, naive_layouts(input, f), "{f:?}");
            }
            i = j;
        }
        assert_eq!(i, all.len());
        all
    }

    /// The satellite sets of the layouts.
    fn satellites(listed: &[Federation]) -> Vec<Vec<Hex>> {
        listed.iter().map(|f| f.satellites.clone()).collect()
    }

    /// Two buildings worth 4 and 3, three hexes apart on a line.
    fn pair() -> Board {
        Board::new(5).build(h(0, 0), 4).build(h(3, 0), 3)
    }

    #[test]
    fn connected_or_not() {
        let b = pair();
        let fed = b.check(&[h(0, 0), h(1, 0), h(2, 0), h(3, 0)]).unwrap();
        assert_eq!(fed.buildings, vec![h(0, 0), h(3, 0)]);
        assert_eq!(fed.satellites, vec![h(1, 0), h(2, 0)]);
        assert_eq!(fed.value, 7);
        assert_eq!(
            b.check(&[h(0, 0), h(1, 0), h(3, 0)]),
            Err(FedError::NotConnected)
        );
        assert_eq!(b.check(&[h(0, 0), h(3, 0)]), Err(FedError::NotConnected));
    }

    #[test]
    fn value_below_threshold() {
        let b = Board::new(4).build(h(0, 0), 3).build(h(2, 0), 3);
        let err = b.check(&[h(0, 0), h(1, 0), h(2, 0)]).unwrap_err();
        assert_eq!(
            err,
            FedError::BelowThreshold {
                value: 6,
                threshold: 7
            }
        );
        assert_eq!(err.to_string(), "value 6 below 7");
        assert!(b.available(10).is_empty());
    }

    #[test]
    fn bad_hexes() {
        let b = pair().planet(h(1, 1));
        assert_eq!(b.check(&[]), Err(FedError::Empty));
        assert_eq!(
            b.check(&[h(0, 0), h(0, 0)]),
            Err(FedError::Repeated(h(0, 0)))
        );
        assert_eq!(
            b.check(&[h(0, 0), h(1, 1)]),
            Err(FedError::NotUsable(h(1, 1)))
        );
        assert_eq!(
            b.check(&[h(0, 0), h(9, 0)]),
            Err(FedError::NotUsable(h(9, 0)))
        );
    }

    #[test]
    fn detour_rejected() {
        let b = pair();
        // Around: (0,0) (1,-1) (2,-1) (3,-1) touches (3,0) with three satellites.
        let err = b
            .check(&[h(0, 0), h(1, -1), h(2, -1), h(3, -1), h(3, 0)])
            .unwrap_err();
        assert_eq!(err, FedError::SameBuildingsFewer { needed: 2, used: 3 });
        assert_eq!(
            err.to_string(),
            "needs fewer satellites: a federation of the same planets needs 2, not 3"
        );
        // A satellite that joins nothing.
        let err = b
            .check(&[h(0, 0), h(1, 0), h(2, 0), h(3, 0), h(4, 0)])
            .unwrap_err();
        assert_eq!(err, FedError::SameBuildingsFewer { needed: 2, used: 3 });
    }

    #[test]
    fn one_planet_and_one_satellite_fewer() {
        // 4 and 3 joined by one satellite; a mine worth 1 one satellite further.
        let b = Board::new(5)
            .build(h(0, 0), 4)
            .build(h(2, 0), 3)
            .build(h(0, 2), 1);
        assert!(b.check(&[h(0, 0), h(1, 0), h(2, 0)]).is_ok());
        let err = b
            .check(&[h(0, 0), h(1, 0), h(2, 0), h(0, 1), h(0, 2)])
            .unwrap_err();
        assert!(
            matches!(
                err,
                FedError::SubsetFewer {
                    needed: 1,
                    used: 2,
                    ..
                }
            ),
            "{err}"
        );
        let listed = b.available(10);
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].buildings, vec![h(0, 0), h(2, 0)]);
    }

    /// A worth-3 building and two worth-2 ones whose shortest links pass a worth-1 one.
    fn through_extra() -> Board {
        Board::new(6)
            .build(h(0, 0), 3)
            .build(h(2, 0), 1)
            .build(h(4, 0), 2)
            .build(h(2, 2), 2)
    }

    #[test]
    fn above_threshold_through_extra_buildings() {
        let b = through_extra();
        // The middle building need not be listed: the satellites touch it.
        let fed = b
            .check(&[h(0, 0), h(1, 0), h(3, 0), h(4, 0), h(2, 1), h(2, 2)])
            .unwrap();
        assert_eq!(fed.value, 8);
        assert_eq!(fed.buildings, vec![h(0, 0), h(2, 0), h(2, 2), h(4, 0)]);
        assert_eq!(fed.satellites.len(), 3);
        let listed = b.available(10);
        assert!(
            listed
                .iter()
                .any(|f| f.buildings == fed.buildings && f.satellites.len() == 3),
            "{listed:?}"
        );
        // Going around the middle building to leave it out costs more: a superset is cheaper.
        let around = [
            h(0, 0),
            h(0, 1),
            h(0, 2),
            h(1, 2),
            h(2, 2),
            h(3, 1),
            h(4, 0),
        ];
        let err = b.check(&around);
        assert_eq!(err, Err(FedError::SupersetFewer { needed: 3, used: 4 }));
    }

    #[test]
    fn adjacent_buildings_join() {
        // Adjacent buildings are connected without satellites and always join.
        let b = Board::new(4)
            .build(h(0, 0), 3)
            .build(h(1, 0), 2)
            .build(h(2, 0), 2)
            .build(h(0, 2), 1);
        let fed = b.check(&[h(0, 0)]).unwrap();
        assert_eq!(fed.buildings, vec![h(0, 0), h(1, 0), h(2, 0)]);
        assert!(fed.satellites.is_empty());
        assert_eq!(b.available(5), vec![fed]);
        // Adding the far one with a satellite is not allowed: the group alone suffices.
        assert!(matches!(
            b.check(&[h(0, 0), h(0, 1), h(0, 2)]),
            Err(FedError::SubsetFewer { needed: 0, .. })
        ));
    }

    #[test]
    fn touching_a_federation() {
        let b = pair().build(h(0, -3), 2).federate(&[h(0, -3), h(0, -2)]);
        // (1,-1)… fine; a satellite at (0,-1) touches the federation's satellite at (0,-2).
        assert!(b.check(&[h(0, 0), h(1, 0), h(2, 0), h(3, 0)]).is_ok());
        let err = b.check(&[h(0, 0), h(0, -1)]).unwrap_err();
        assert_eq!(err, FedError::TouchesFederation(h(0, -1)));
        assert_eq!(err.to_string(), "touches an existing federation at 0x-1");
        assert_eq!(
            b.check(&[h(0, -3)]),
            Err(FedError::TouchesFederation(h(0, -3)))
        );
        // The only path avoiding it is used by the listing.
        let listed = b.available(10);
        assert_eq!(listed.len(), 1);
        assert!(listed[0]
            .satellites
            .iter()
            .all(|&x| !near_federation(&b.federated, x)));
    }

    /// A board with one federation worth 7: buildings at (0,0) worth 4 and (2,0) worth 3,
    /// joined by a satellite at (1,0).
    fn federated_seven() -> Board {
        Board::new(6)
            .build(h(0, 0), 4)
            .build(h(2, 0), 3)
            .federate(&[h(0, 0), h(1, 0), h(2, 0)])
    }

    #[test]
    fn single_federation_extension() {
        // An existing federation worth 7: buildings at (0,0) and (2,0) with a satellite.
        let b = federated_seven()
            .build(h(4, 0), 3)
            .build(h(2, 2), 4)
            .build(h(-3, 0), 7);
        b.with(14, true, |input| {
            // Both new buildings, each one satellite away: 7 + 3 + 4 = 14.
            let fed = check(input, &[h(2, 0), h(3, 0), h(4, 0), h(2, 1), h(2, 2)]).unwrap();
            assert_eq!(fed.value, 14);
            assert_eq!(fed.satellites, vec![h(2, 1), h(3, 0)]);
            assert_eq!(fed.buildings, vec![h(0, 0), h(2, 0), h(2, 2), h(4, 0)]);
            // Old hexes may be listed or not.
            assert_eq!(
                check(
                    input,
                    &[
                        h(0, 0),
                        h(1, 0),
                        h(2, 0),
                        h(3, 0),
                        h(4, 0),
                        h(2, 1),
                        h(2, 2)
                    ]
                ),
                Ok(fed.clone())
            );
            // Not reaching the doubled threshold.
            assert_eq!(
                check(input, &[h(3, 0), h(4, 0)]),
                Err(FedError::BelowThreshold {
                    value: 10,
                    threshold: 14
                })
            );
            // A separate federation is not allowed.
            assert_eq!(check(input, &[h(-3, 0)]), Err(FedError::MustExtend));
            // The far building via two satellites is also a legal extension (7 + 7).
            let far = check(input, &[h(-3, 0), h(-2, 0), h(-1, 0)]).unwrap();
            assert_eq!(far.value, 14);
            let listed = available(input, 5);
            assert!(listed.contains(&fed) || listed.iter().any(|f| f.buildings == fed.buildings));
            assert!(listed.iter().any(|f| f.buildings == far.buildings));
            for f in &listed {
                assert_eq!(check(input, &f.hexes()).as_ref(), Ok(f));
            }
        });
        // A grown federation already worth the threshold is a legal (empty) extension.
        b.with(7, true, |input| {
            let fed = check(input, &[h(0, 0), h(1, 0), h(2, 0)]).unwrap();
            assert!(fed.satellites.is_empty());
            assert_eq!(available(input, 3), vec![fed]);
        });
    }

    #[test]
    fn single_federation_names_old_satellites() {
        // An existing federation worth 7 with a satellite at (1,0); new buildings next to it
        // (3,0) worth 3 and (2,1) worth 4 grow it to 14 with no new satellite.
        let b = federated_seven()
            .build(h(3, 0), 3)
            .build(h(2, 1), 4)
            .build(h(-3, 0), 7);
        b.with(14, true, |input| {
            // As recorded games write it: the whole grown federation, old satellite included.
            let whole = [h(0, 0), h(1, 0), h(2, 0), h(2, 1), h(3, 0)];
            let fed = check(input, &whole).unwrap();
            assert_eq!(fed.buildings, vec![h(0, 0), h(2, 0), h(2, 1), h(3, 0)]);
            assert!(fed.satellites.is_empty());
            assert_eq!(fed.old_satellites, vec![h(1, 0)]);
            assert_eq!(fed.value, 14);
            assert_eq!(fed.hexes(), whole.to_vec());
            // Naming only the new buildings forms the same federation.
            assert_eq!(check(input, &[h(2, 1), h(3, 0)]), Ok(fed.clone()));
            // The listing names it the same way.
            let all = check_layouts(input, 3);
            assert_eq!(all[0], fed);
            assert_eq!(available(input, 3), vec![fed]);
        });
        // Without the new neighbours, the far building with two new satellites: the old
        // satellite is named too.
        let b = federated_seven().build(h(-3, 0), 7);
        b.with(14, true, |input| {
            let all = check_layouts(input, 3);
            assert_eq!(all.len(), 1);
            assert_eq!(all[0].satellites, vec![h(-2, 0), h(-1, 0)]);
            assert_eq!(all[0].old_satellites, vec![h(1, 0)]);
            assert_eq!(
                all[0].hexes(),
                vec![h(-3, 0), h(-2, 0), h(-1, 0), h(0, 0), h(1, 0), h(2, 0)]
            );
        });
        // Outside single-federation mode no old satellite is ever named.
        b.with(7, false, |input| {
            assert!(check_layouts(input, 3)
                .iter()
                .all(|f| f.old_satellites.is_empty()));
        });
    }

    #[test]
    fn listing_is_minimal_and_checkable() {
        // A scattered position: every listed federation passes the check, and adding any free
        // neighbouring satellite to it fails.
        let b = Board::new(6)
            .build(h(0, 0), 3)
            .build(h(3, -1), 2)
            .build(h(-2, 3), 2)
            .build(h(1, 3), 1)
            .build(h(2, 3), 1)
            .build(h(-3, 0), 2)
            .build(h(4, -4), 3)
            .planet(h(1, 1))
            .planet(h(-1, 1));
        let listed = b.available(8);
        assert!(!listed.is_empty());
        for f in &listed {
            let hexes = f.hexes();
            assert_eq!(b.check(&hexes).as_ref(), Ok(f));
            for x in hexes.iter().flat_map(|x| x.neighbours()) {
                if hexes.contains(&x) || b.planets.contains(&x) || x.distance(h(0, 0)) > 6 {
                    continue;
                }
                let mut more = hexes.clone();
                more.push(x);
                assert!(b.check(&more).is_err(), "{more:?}");
            }
        }
        // Sorted by satellites, and a smaller budget lists a prefix of them.
        assert!(listed
            .windows(2)
            .all(|w| w[0].satellites.len() <= w[1].satellites.len()));
        let few = b.available(2);
        assert!(few
            .iter()
            .all(|f| f.satellites.len() <= 2 && listed.contains(f)));
    }

    #[test]
    fn layouts_between_two_buildings() {
        // On a line: one shortest path.
        let b = pair();
        let all = b.with(7, false, |i| check_layouts(i, 5));
        assert_eq!(satellites(&all), vec![vec![h(1, 0), h(2, 0)]]);
        // Two steps along q and one along r, in any order: three paths.
        let b = Board::new(5).build(h(0, 0), 4).build(h(2, 1), 3);
        let all = b.with(7, false, |i| check_layouts(i, 5));
        assert_eq!(
            satellites(&all),
            vec![
                vec![h(0, 1), h(1, 1)],
                vec![h(1, 0), h(1, 1)],
                vec![h(1, 0), h(2, 0)],
            ]
        );
        assert!(all.iter().all(|f| f.buildings == vec![h(0, 0), h(2, 1)]));
        // A planet on (1,1) leaves one.
        let b = b.planet(h(1, 1));
        let all = b.with(7, false, |i| check_layouts(i, 5));
        assert_eq!(satellites(&all), vec![vec![h(1, 0), h(2, 0)]]);
        // Two steps along each: C(4,2) = 6 paths of three satellites.
        let b = Board::new(5).build(h(0, 0), 4).build(h(2, 2), 3);
        let all = b.with(7, false, |i| check_layouts(i, 5));
        assert_eq!(all.len(), 6);
        assert!(all.iter().all(|f| f.satellites.len() == 3));
        // Not enough satellites: nothing.
        assert!(b.layouts(2, 100).is_empty());
    }

    #[test]
    fn layouts_of_scattered_positions() {
        let b = Board::new(6)
            .build(h(0, 0), 3)
            .build(h(3, -1), 2)
            .build(h(-2, 3), 2)
            .build(h(1, 3), 1)
            .build(h(2, 3), 1)
            .build(h(-3, 0), 2)
            .build(h(4, -4), 3)
            .planet(h(1, 1))
            .planet(h(-1, 1));
        let all = b.with(7, false, |i| check_layouts(i, 6));
        assert!(all.len() > b.available(6).len());
        b.with(7, false, |i| check_layouts(i, 2));
        through_extra().with(7, false, |i| check_layouts(i, 6));
        Board::new(5)
            .build(h(0, 0), 4)
            .build(h(2, 0), 3)
            .build(h(0, 2), 1)
            .with(7, false, |i| check_layouts(i, 6));
        pair()
            .build(h(0, -3), 2)
            .federate(&[h(0, -3), h(0, -2)])
            .with(7, false, |i| check_layouts(i, 6));
        // Pseudo-random boards, with an existing federation on some.
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for round in 0..40 {
            let radius = 5;
            let mut b = Board::new(radius);
            let mut any = || {
                let q = next(2 * radius as u64 + 1) as i32 - radius as i32;
                let r = next(2 * radius as u64 + 1) as i32 - radius as i32;
                h(q, r)
            };
            let cells: Vec<Hex> = (0..16).map(|_| any()).collect();
            for (i, &x) in cells.iter().enumerate() {
                if x.distance(h(0, 0)) > radius || b.planets.contains(&x) {
                    continue;
                }
                if i % 4 == 3 {
                    b = b.planet(x);
                } else {
                    b = b.build(x, 1 + (i as u32 % 3));
                }
            }
            if round % 4 == 3 {
                if let Some(&x) = b.buildings.keys().min() {
                    b = b.federate(&[x]);
                }
            }
            for single in [false, true] {
                if single && b.federated.is_empty() {
                    continue;
                }
                let thr = if single { 6 } else { 7 };
                b.with(thr, single, |i| check_layouts(i, 4));
            }
        }
    }

    #[test]
    fn layouts_in_single_federation_mode() {
        let b = federated_seven()
            .build(h(4, 0), 3)
            .build(h(2, 2), 4)
            .build(h(-3, 0), 7);
        b.with(14, true, |input| {
            let all = check_layouts(input, 5);
            // West: one straight path. East: (3,0) or (3,1) reaches (4,0), (2,1) or (3,1)
            // reaches (2,2), and the two must touch the federation.
            assert_eq!(
                satellites(&all),
                vec![
                    vec![h(-2, 0), h(-1, 0)],
                    vec![h(2, 1), h(3, 0)],
                    vec![h(2, 1), h(3, 1)],
                    vec![h(3, 0), h(3, 1)],
                ]
            );
            assert_eq!(all[0].buildings, vec![h(-3, 0), h(0, 0), h(2, 0)]);
            assert!(all[1..]
                .iter()
                .all(|f| f.buildings == vec![h(0, 0), h(2, 0), h(2, 2), h(4, 0)] && f.value == 14));
        });
        b.with(7, true, |input| {
            assert_eq!(check_layouts(input, 3).len(), 1);
        });
    }

    #[test]
    fn layouts_limit() {
        let b = Board::new(6)
            .build(h(0, 0), 3)
            .build(h(3, -1), 2)
            .build(h(-2, 3), 2)
            .build(h(1, 3), 1)
            .build(h(2, 3), 1)
            .build(h(-3, 0), 2)
            .build(h(4, -4), 3);
        let full = b.layouts(6, usize::MAX);
        assert!(full.len() > 10);
        for limit in 0..full.len() + 3 {
            let cut = b.layouts(6, limit);
            assert_eq!(cut.len(), limit.min(full.len()));
            assert!(cut.iter().all(|f| full.contains(f)));
            // Whole building sets before the last one listed.
            if let Some(last) = cut.last() {
                let whole = cut
                    .iter()
                    .take_while(|f| f.buildings != last.buildings)
                    .count();
                assert_eq!(cut[..whole], full[..whole]);
                assert!(cut[whole..].iter().all(|f| f.buildings == last.buildings));
            }
        }
    }
}
