//! Checking a proposed federation: closure, usable hexes, connection, threshold and the fewest
//! satellites against the same, fewer or more buildings.

use std::collections::HashSet;

use super::graph::{bits, connected_sorted, near_federation, Graph, INF};
use super::model::{
    FedError, FedInput, Federation, HexList, MAX_BUDGET, MAX_GROUPS_PER_FEDERATION,
};
use super::steiner::{cheapest_subset, global_mask, DreyfusWagner};
use orrery_core::hex::Hex;

/// Checks a proposed federation: the hexes of the player's buildings and of the new satellites
/// (in single-federation mode, hexes of the existing federation may be listed too). Buildings
/// touching the proposal are added to it. Returns the federation that would be formed.
pub fn check(input: &FedInput, proposal: &[Hex]) -> Result<Federation, FedError> {
    checked(input, proposal, Search::Fast)
}

/// How [`checked`] finds the fewest satellites of the proposal's groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Search {
    /// When the proposal holds every group and there are at most three: from the distance
    /// rows alone ([`meeting_costs`]); otherwise as [`Search::Steiner`].
    Fast,
    /// With the Dreyfus–Wagner programme always (to compare with in tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Steiner,
}

/// [`check`], with the fewest satellites found as `search` says.
pub(super) fn checked(
    input: &FedInput,
    proposal: &[Hex],
    search: Search,
) -> Result<Federation, FedError> {
    if proposal.is_empty() {
        return Err(FedError::Empty);
    }
    // A repeated hex is rare: looked for in a sorted copy, named in the proposal's order.
    let mut sorted = proposal.to_vec();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        let mut seen = HashSet::with_capacity(proposal.len());
        for &h in proposal {
            if !seen.insert(h) {
                return Err(FedError::Repeated(h));
            }
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
    // The space hexes are added only when the fewest satellites are searched.
    let mut graph = Graph::members(input, budget);

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
    let mut hexes: Vec<Hex> = sats.clone();
    for b in bits(mask) {
        hexes.extend(graph.groups[b].hexes.iter().copied());
    }
    hexes.sort_unstable();
    if !connected_sorted(&hexes) {
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
        graph.add_spaces(input, budget);
        // Both searches below measure from the proposal's groups only.
        graph.fill_rows(mask);
        let term_bit: Vec<usize> = bits(mask).collect();
        let mut dw = DreyfusWagner::default();
        // The fewest satellites joining each set of the proposal's groups (numbered as
        // subsets of `term_bit`) within the proposal's region, `INF` above the budget.
        let costs: Vec<u8> = match search {
            Search::Fast if mask == graph.all_mask() && term_bit.len() <= 3 => {
                meeting_costs(&graph, &term_bit, budget)
            }
            _ => {
                dw.run(&graph, mask, mask, budget as u8, None);
                (0..=dw.full())
                    .map(|c| if c == 0 { INF } else { dw.cost(c) })
                    .collect()
            }
        };
        // Same buildings or a subset reaching the threshold with fewer satellites.
        let exact = costs[costs.len() - 1];
        if exact as usize <= budget {
            return Err(FedError::SameBuildingsFewer {
                needed: exact as usize,
                used,
            });
        }
        if let Some((sub, c)) = cheapest_subset(&term_bit, &costs, &graph, input.threshold) {
            if (c as usize) < used {
                let planets = HexList(graph.buildings_of(global_mask(&term_bit, sub)));
                return Err(FedError::SubsetFewer {
                    planets,
                    needed: c as usize,
                    used,
                });
            }
        }
        // A superset through other buildings (none when the proposal holds every group: the
        // search above was that one).
        let c = if mask == graph.all_mask() {
            exact
        } else {
            dw.run(&graph, mask, graph.all_mask(), budget as u8, None);
            dw.cost(dw.full())
        };
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

/// The fewest satellites joining each set of at most three groups `term_bit`, every group of
/// the graph among them, `INF` above `budget` (as [`DreyfusWagner::run`] finds them with
/// every group a terminal): none for one group; for two or three, the best meeting point of
/// their shortest paths ([`Graph::joins`]) over the distance rows of the groups, which the
/// graph holds.
fn meeting_costs(graph: &Graph, term_bit: &[usize], budget: usize) -> Vec<u8> {
    debug_assert!(term_bit.len() <= 3 && term_bit.len() == graph.groups.len());
    (0..1usize << term_bit.len())
        .map(|c| match c.count_ones() {
            0 => INF,
            1 => 0,
            _ => {
                let cost = graph.joins(global_mask(term_bit, c), &graph.dist, true);
                if cost as usize <= budget {
                    cost
                } else {
                    INF
                }
            }
        })
        .collect()
}
