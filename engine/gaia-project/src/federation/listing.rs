//! Listing the legal federations: the building sets that pass (searched and scored once per
//! set of groups), and for each its satellites, one layout or every one.

use super::graph::{bits, Graph, INF};
use super::layouts::LayoutSearch;
use super::steiner::Dw;
use super::{FedInput, Federation, MAX_BUDGET, MAX_GROUPS, MAX_GROUPS_PER_FEDERATION};
use orrery_core::hex::Hex;

/// Every legal federation needing at most `max` new satellites (the satellites the player can
/// pay for), one per building set (satellite layouts of the same cost are interchangeable, so
/// only one is given; [`available_layouts`] lists them all), sorted by satellite count, then
/// by buildings.
pub fn available(input: &FedInput, max: usize) -> Vec<Federation> {
    listed(input, max, usize::MAX, |graph, dw, set, _| {
        dw.run(graph, set.mask, set.mask, set.cost, None);
        let mut s: Vec<Hex> = dw
            .tree(dw.full())
            .into_iter()
            .filter_map(|n| graph.space_hex(n))
            .collect();
        s.sort();
        vec![s]
    })
}

/// Every legal federation needing at most `max` new satellites, every satellite layout
/// included: for each building set of [`available`] (in its order), every set of exactly its
/// fewest satellites that joins it, the layouts of one set sorted.
///
/// At most `limit` federations are returned: the listing stops there, so later building sets
/// are left out and the building set it stops in may be listed with only some of its layouts
/// (those found first, sorted). With fewer than `limit` results the listing is complete.
pub fn available_layouts(input: &FedInput, max: usize, limit: usize) -> Vec<Federation> {
    let mut rows: Vec<u8> = Vec::new();
    let mut search = LayoutSearch::default();
    listed(input, max, limit, |graph, dw, set, left| {
        graph.region_rows(set.mask, &mut rows);
        dw.run(graph, set.mask, set.mask, set.cost, Some(&rows));
        search.run(graph, dw, &rows, set.cost, left)
    })
}

/// The legal federations needing at most `max` new satellites, building set by building set
/// in the order of [`legal_sets`], with the satellite layouts `layouts` gives for a set that
/// needs any (given the set and how many federations may still be listed); at most `limit`.
fn listed(
    input: &FedInput,
    max: usize,
    limit: usize,
    mut layouts: impl FnMut(&Graph, &mut Dw, &BuildingSet, usize) -> Vec<Vec<Hex>>,
) -> Vec<Federation> {
    let mut out: Vec<Federation> = Vec::new();
    if limit == 0 {
        return out;
    }
    let (graph, sets, mut dw) = legal_sets(input, max);
    for mut set in sets {
        let found = if set.cost == 0 {
            vec![Vec::new()]
        } else {
            layouts(&graph, &mut dw, &set, limit - out.len())
        };
        let value = graph.value_of(set.mask);
        let last = found.len().saturating_sub(1);
        for (i, satellites) in found.into_iter().enumerate() {
            // The set's own lists go to its last federation; the others take copies.
            let (buildings, old_satellites) = if i == last {
                (
                    std::mem::take(&mut set.buildings),
                    std::mem::take(&mut set.old_satellites),
                )
            } else {
                (set.buildings.clone(), set.old_satellites.clone())
            };
            out.push(Federation {
                buildings,
                satellites,
                old_satellites,
                value,
            });
        }
        if out.len() >= limit {
            out.truncate(limit);
            break;
        }
    }
    out
}

/// The building set of a legal federation.
pub(super) struct BuildingSet {
    /// Its groups.
    pub(super) mask: u64,
    /// Its fewest satellites.
    pub(super) cost: u8,
    /// Its buildings, as [`Federation::buildings`].
    pub(super) buildings: Vec<Hex>,
    /// The existing federation's satellites, as [`Federation::old_satellites`].
    pub(super) old_satellites: Vec<Hex>,
}

/// The building sets of the legal federations needing at most `max` satellites, in the order
/// of [`available`]; with the graph and the search buffers.
pub(super) fn legal_sets(input: &FedInput, max: usize) -> (Graph, Vec<BuildingSet>, Dw) {
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
