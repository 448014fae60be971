//! Federations of a seat: the input of the federation rules ([`crate::federation`]) from the
//! state, the federations it could form (remembered), forming one, and growing one when a
//! building joins it.

use std::sync::{Arc, OnceLock};

use smallvec::SmallVec;

use super::bundle::scaled;
use super::{err, Game, MoveError};
use crate::content::{Bundle, Modifier, PlanetKind};
use crate::federation::{self, FedInput, HexSet, HexValues};
use crate::lookup::by_id;
use orrery_core::hex::Hex;

/// The most federations (counting every satellite layout) listed in one state.
pub const FEDERATION_LIMIT: usize = 5000;

/// Hexes with a value each, inline: a seat rarely has more buildings, so gathering a
/// federation search's input (on every listing where a seat reaches the threshold) allocates
/// nothing.
pub(crate) type ValuedHexes = SmallVec<[(Hex, u32); 16]>;

/// Hexes, inline up to a seat's federations or a map's structures in a usual game.
pub(crate) type Hexes<const N: usize> = SmallVec<[Hex; N]>;

/// What the federation rules need to know about a seat (see [`Game::federation_input`]).
pub(crate) struct FedParts {
    /// Buildings that may join a federation, with their power values, sorted by hex.
    pub buildings: ValuedHexes,
    /// Hexes already in a federation, sorted.
    pub federated: Hexes<16>,
    /// The power a federation needs.
    pub threshold: u32,
    /// The single-federation rule holds.
    pub single: bool,
}

impl Game {
    /// A structure built next to one of the seat's federations joins it together with its
    /// whole group: every structure of the seat connected to it through neighbouring spaces
    /// that hold a structure of the seat with a power value or belong to one of its
    /// federations (rules digest §6: "adds the new structure and the structures connected to
    /// it"). It gains no token.
    pub(super) fn join_federation(&mut self, seat: usize, idx: usize) {
        let hex = self.state.map.spaces[idx].hex;
        let p = &self.state.players[seat];
        // Most structures join no federation: found by looking, before any set is built.
        if p.federations.iter().flatten().any(|h| *h == hex) {
            return;
        }
        let Some(target) = p
            .federations
            .iter()
            .position(|f| f.iter().any(|h| h.distance(hex) == 1))
        else {
            return;
        };
        // The group is a few hexes: looked up in the federations' lists and on the map's
        // spaces as it grows, nothing gathered into sets first.
        let federated = |h: Hex| p.federations.iter().flatten().any(|x| *x == h);
        let mods = self.modifiers(seat);
        let structures = &self.state.structures;
        let valued = |h: Hex| {
            let Some(i) = self.state.map.space_index(h) else {
                return false;
            };
            structures.get(&i).is_some_and(|list| {
                list.iter().any(|s| {
                    s.seat == seat
                        && (s.shared || self.power_value_with(seat, i, &s.building, &mods) > 0)
                })
            })
        };
        let mut group: Hexes<16> = Hexes::new();
        group.push(hex);
        let mut next = 0;
        while let Some(&h) = group.get(next) {
            next += 1;
            for n in h.neighbours() {
                if !group.contains(&n) && (federated(n) || valued(n)) {
                    group.push(n);
                }
            }
        }
        let joining: Hexes<16> = group.into_iter().filter(|h| !federated(*h)).collect();
        drop(mods);
        let fed = &mut self.state.players[seat].federations[target];
        fed.extend(joining);
    }

    /// The input of the federation rules for a seat: its buildings not yet federated (all of
    /// them under the single-federation rule) with their power values, and the federated hexes,
    /// both sorted; the power threshold; whether the single-federation rule holds.
    pub(crate) fn federation_input(&self, seat: usize) -> FedParts {
        self.federation_input_with(seat, &self.modifiers(seat))
    }

    /// [`Game::federation_input`] with the modifiers in force given.
    fn federation_input_with(&self, seat: usize, mods: &[&Modifier]) -> FedParts {
        let (threshold, single) = self.federation_threshold(seat, mods);
        let p = &self.state.players[seat];
        // Copied a federation at a time (not hex by hex through a generic `extend`).
        let mut federated = Hexes::<16>::new();
        for f in p.federations.iter() {
            federated.extend_from_slice(f);
        }
        federated.sort_unstable();
        federated.dedup();
        let mut buildings = ValuedHexes::new();
        for (idx, list) in self.state.structures.iter() {
            for s in list.iter().filter(|s| s.seat == seat) {
                let hex = self.state.map.spaces[*idx].hex;
                if single || federated.binary_search(&hex).is_err() {
                    let value = if s.shared {
                        1
                    } else {
                        self.power_value_with(seat, *idx, &s.building, mods)
                    };
                    buildings.push((hex, value));
                }
            }
        }
        buildings.sort_unstable();
        FedParts {
            buildings,
            federated,
            threshold,
            single,
        }
    }

    /// The power a federation of the seat needs, and whether the single-federation rule
    /// holds, under the modifiers in force `mods`.
    fn federation_threshold(&self, seat: usize, mods: &[&Modifier]) -> (u32, bool) {
        let single = mods.iter().any(|m| matches!(m, Modifier::SingleFederation));
        let threshold = mods
            .iter()
            .find_map(|m| match m {
                Modifier::FederationThreshold(t) => Some(*t),
                _ => None,
            })
            .unwrap_or(self.content.rules.federation_threshold);
        // Under the single-federation rule every formation counts (a growth merges into the
        // one federation, so the number of federations would stay 1).
        let threshold = match single {
            true => {
                let formations = self.state.players[seat].formations;
                threshold.saturating_mul(formations.saturating_add(1))
            }
            false => threshold,
        };
        (threshold, single)
    }

    /// Every federation the seat could form now (not outclassed; at most as many new
    /// satellites as it can pay for).
    pub fn available_federations(&self, seat: usize) -> Vec<federation::Federation> {
        let max = self.affordable_satellites(seat);
        self.with_fed_input(seat, |input| federation::available(input, max))
    }

    /// Every federation the seat could form now, every satellite layout included (at most
    /// [`FEDERATION_LIMIT`] of them).
    ///
    /// The search is a pure function of the seat's position, so results are remembered by
    /// their complete input and shared by clones of this game (a bot exploring moves, a turn
    /// built part by part).
    pub fn federation_layouts(&self, seat: usize) -> Vec<federation::Federation> {
        self.federation_layouts_with(seat, &self.modifiers(seat))
            .as_ref()
            .clone()
    }

    /// [`Game::federation_layouts`] with the modifiers in force given.
    pub(crate) fn federation_layouts_with(
        &self,
        seat: usize,
        mods: &[&Modifier],
    ) -> Arc<Vec<federation::Federation>> {
        // Most seats asked have too little power: told while the key is gathered.
        let Some(key) = self.federation_key(seat, mods) else {
            return no_federations();
        };
        if let Some(hit) = self.memo.get(&key) {
            return hit;
        }
        let mut buildings = key.buildings.clone();
        buildings.sort_unstable();
        let mut federated = key.federated.clone();
        federated.sort_unstable();
        federated.dedup();
        let parts = FedParts {
            buildings,
            federated,
            threshold: key.threshold,
            single: key.single,
        };
        let max = key.max;
        let found = Arc::new(self.with_fed_input_from(seat, parts, |input| {
            federation::available_layouts(input, max, FEDERATION_LIMIT)
        }));
        self.memo.put(key, found.clone());
        found
    }

    /// The federation `proposal` names when the seat's search in this very state, remembered
    /// (its listing made it), found it: what the search finds the check accepts as it is
    /// (`federation::tests`), so a part a listing offered is not checked again. `None` when
    /// no search of the state is remembered or the proposal is not among its federations
    /// (then the check decides).
    fn remembered_federation(
        &self,
        seat: usize,
        mods: &[&Modifier],
        proposal: &[Hex],
    ) -> Option<federation::Federation> {
        let key = self.federation_key(seat, mods)?;
        let found = self.memo.get(&key)?;
        let mut sorted = Hexes::<24>::from_slice(proposal);
        sorted.sort_unstable();
        // A federation's hexes are distinct: as many, each among the proposal's, are the
        // proposal's very hexes.
        found
            .iter()
            .find(|f| {
                f.buildings.len() + f.satellites.len() + f.old_satellites.len() == sorted.len()
                    && (f.buildings.iter())
                        .chain(&f.satellites)
                        .chain(&f.old_satellites)
                        .all(|h| sorted.binary_search(h).is_ok())
            })
            .cloned()
    }

    /// Everything the seat's federation search depends on, gathered in the state's own order
    /// (nothing sorted: the same state always gives the same key, and equal keys are equal
    /// inputs); `None` when, outside the single-federation rule, the seat's buildings not yet
    /// federated are worth less than the threshold (no federation to search).
    fn federation_key(&self, seat: usize, mods: &[&Modifier]) -> Option<super::memo::FedKey> {
        let (threshold, single) = self.federation_threshold(seat, mods);
        let p = &self.state.players[seat];
        let in_federation = |hex: Hex| p.federations.iter().flatten().any(|h| *h == hex);
        let spaces = &self.state.map.spaces;
        let mut buildings = ValuedHexes::new();
        let mut unfederated = 0u32;
        for (idx, list) in self.state.structures.iter() {
            for s in list.iter().filter(|s| s.seat == seat) {
                let hex = spaces[*idx].hex;
                let federated = in_federation(hex);
                if single || !federated {
                    let value = match s.shared {
                        true => 1,
                        false => self.power_value_with(seat, *idx, &s.building, mods),
                    };
                    buildings.push((hex, value));
                    if !federated {
                        unfederated = unfederated.wrapping_add(value);
                    }
                }
            }
        }
        if !single && unfederated < threshold {
            return None;
        }
        let mut federated = Hexes::<16>::new();
        for f in p.federations.iter() {
            federated.extend_from_slice(f);
        }
        // The seat's satellites, then the spaces whose structures keep a satellite off.
        let mut blocked = Hexes::<48>::from_slice(&p.satellites);
        for (idx, list) in self.state.structures.iter() {
            if list
                .iter()
                .any(|x| x.seat == seat || !self.is_station(x.seat, &x.building))
            {
                blocked.push(spaces[*idx].hex);
            }
        }
        Some(super::memo::FedKey {
            seat,
            buildings,
            federated,
            blocked,
            planets: self.state.planets.clone(),
            threshold,
            single,
            max: self.affordable_satellites_with(seat, mods),
        })
    }

    /// Runs `f` with the federation rules' input for a seat.
    fn with_fed_input<R>(&self, seat: usize, f: impl FnOnce(&FedInput<'_>) -> R) -> R {
        self.with_fed_input_from(seat, self.federation_input(seat), f)
    }

    /// [`Game::with_fed_input`] with the seat's federation input given.
    fn with_fed_input_from<R>(
        &self,
        seat: usize,
        input: FedParts,
        f: impl FnOnce(&FedInput<'_>) -> R,
    ) -> R {
        let mut buildings = input.buildings;
        // Sorted by hex and value: a hex listed twice keeps its last (largest) value.
        buildings.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                *kept = *later;
            }
            same
        });
        let mut federated = input.federated;
        federated.sort_unstable();
        federated.dedup();
        let (threshold, single) = (input.threshold, input.single);
        let mut own_sats: Vec<Hex> = self.state.players[seat].satellites.to_vec();
        own_sats.sort_unstable();
        let space = |h: Hex| self.satellite_space(seat, h, &own_sats);
        f(&FedInput {
            buildings: HexValues::sorted(&buildings).expect("sorted, each hex once"),
            federated: HexSet::sorted(&federated).expect("sorted, each hex once"),
            space: &space,
            threshold,
            single_federation: single,
        })
    }

    /// How many new satellites a seat can pay for and still place.
    fn affordable_satellites(&self, seat: usize) -> usize {
        self.affordable_satellites_with(seat, &self.modifiers(seat))
    }

    /// [`Game::affordable_satellites`] with the modifiers in force given.
    fn affordable_satellites_with(&self, seat: usize, mods: &[&Modifier]) -> usize {
        let cost = satellite_cost(&self.content, mods);
        let p = &self.state.players[seat];
        let mut max = self
            .content
            .rules
            .satellites
            .saturating_sub(p.satellites.len() as u32) as usize;
        for (code, n) in cost.iter() {
            if n > 0 {
                let have = match code {
                    "t" => {
                        p.power.tokens(crate::power::Area::I)
                            + p.power.tokens(crate::power::Area::II)
                            + p.power.tokens(crate::power::Area::III)
                    }
                    other => p.resource(&self.content, other).max(0) as u32,
                };
                max = max.min((have / n as u32) as usize);
            }
        }
        max
    }

    /// Whether a new satellite of the seat may go on a hex.
    fn satellite_space(&self, seat: usize, h: Hex, own_sats: &[Hex]) -> bool {
        self.state.map.space_index(h).is_some_and(|i| {
            self.planet_kind(i) == PlanetKind::Empty
                && own_sats.binary_search(&h).is_err()
                && self.state.structures.get(&i).is_none_or(|l| {
                    l.iter()
                        .all(|x| x.seat != seat && self.is_station(x.seat, &x.building))
                })
        })
    }

    /// Re-scores a federation token the seat owns (a follow-up): its reward again.
    pub(super) fn rescore_token(&mut self, seat: usize, id: &str) -> Result<(), MoveError> {
        if !self.state.players[seat].tokens.iter().any(|t| t.id == id) {
            return err(format!("you own no {id}"));
        }
        let reward = by_id(&self.content.federation_tokens.tokens, id)
            .map(|t| t.reward.clone())
            .unwrap_or_default();
        self.apply_effects(seat, &reward, "federations")
    }

    /// `federation`: forms a federation of the given hexes, paying its satellites and
    /// taking the token.
    pub(super) fn federate(
        &mut self,
        seat: usize,
        hexes: &[Hex],
        token: &str,
    ) -> Result<(), MoveError> {
        let (fed, single_federation, total) = {
            let mods = self.modifiers(seat);
            let fed = match self.remembered_federation(seat, &mods, hexes) {
                Some(fed) => fed,
                None => self
                    .with_fed_input_from(seat, self.federation_input_with(seat, &mods), |input| {
                        federation::check(input, hexes)
                    })
                    .map_err(|e| MoveError(e.to_string()))?,
            };
            let single = mods.iter().any(|m| matches!(m, Modifier::SingleFederation));
            let cost = satellite_cost(&self.content, &mods);
            let total = scaled(cost, fed.satellites.len() as i32);
            (fed, single, total)
        };
        if self.state.players[seat].satellites.len() + fed.satellites.len()
            > self.content.rules.satellites as usize
        {
            return err("not enough satellites left");
        }
        self.pay(seat, &total)?;
        let left = self.state.fed_supply.get(token).copied().unwrap_or(0);
        if left == 0 {
            return err(format!("no {token} left in the supply"));
        }
        *self.state.fed_supply.entry(token.into()).or_default() -= 1;
        let members: Vec<Hex> = fed
            .buildings
            .iter()
            .chain(&fed.satellites)
            .copied()
            .collect();
        let p = &mut self.state.players[seat];
        p.satellites.extend(fed.satellites.iter().copied());
        p.formations = p.formations.saturating_add(1);
        if single_federation && !p.federations.is_empty() {
            for h in members {
                if !p.federations[0].contains(&h) {
                    p.federations[0].push(h);
                }
            }
        } else {
            p.federations.push(members);
        }
        self.gain_token(seat, token, "federations")
    }
}

/// The empty search result, made once and shared (most seats asked have too little power).
fn no_federations() -> Arc<Vec<federation::Federation>> {
    static EMPTY: OnceLock<Arc<Vec<federation::Federation>>> = OnceLock::new();
    EMPTY.get_or_init(Arc::default).clone()
}

/// What one satellite costs a seat.
fn satellite_cost<'a>(content: &'a crate::content::Content, mods: &[&'a Modifier]) -> &'a Bundle {
    mods.iter()
        .find_map(|m| match m {
            Modifier::SatelliteCost(b) => Some(b),
            _ => None,
        })
        .unwrap_or(&content.rules.satellite_cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::fixture;

    /// The ids of the first seat's buildings, in the board's order.
    fn board_buildings(g: &Game) -> Vec<String> {
        g.board(0).buildings.iter().map(|b| b.id.clone()).collect()
    }

    /// The `n` planets nearest the map's first planet, nearest first.
    fn near_planets(g: &Game, n: usize) -> Vec<usize> {
        let mut planets: Vec<usize> = (0..g.state.map.spaces.len())
            .filter(|i| g.planet_kind(*i) != PlanetKind::Empty)
            .collect();
        let first = g.state.map.spaces[planets[0]].hex;
        planets.sort_by_key(|i| g.state.map.spaces[*i].hex.distance(first));
        planets.truncate(n);
        planets
    }

    /// The first empty space of the map without a structure.
    fn first_free_space(g: &Game) -> Hex {
        (0..g.state.map.spaces.len())
            .find(|i| g.planet_kind(*i) == PlanetKind::Empty && g.state.structures.get(i).is_none())
            .map(|i| g.state.map.spaces[i].hex)
            .expect("a free space")
    }

    /// The federations listed (and remembered) are those a search from scratch finds, as
    /// buildings are placed, federated, satellites taken and power spent.
    #[test]
    fn remembered_federations_are_those_found_afresh() {
        let mut g = fixture::blips_game(11);
        let same_as_fresh = |g: &Game| {
            for seat in 0..2 {
                let remembered = g.federation_layouts(seat);
                g.memo.clear();
                assert_eq!(remembered, g.federation_layouts(seat), "seat {seat}");
                // Found again in the memo.
                assert_eq!(remembered, g.federation_layouts(seat), "seat {seat}");
                // The search on the input gathered and sorted as the rules take it.
                let max = g.affordable_satellites(seat);
                let searched = g.with_fed_input(seat, |input| {
                    federation::available_layouts(input, max, FEDERATION_LIMIT)
                });
                assert_eq!(remembered, searched, "seat {seat}");
            }
        };
        let buildings = board_buildings(&g);
        // Planets near one another, mostly the first seat's.
        let planets = near_planets(&g, 10);
        let mut found = 0;
        for (n, idx) in planets.iter().enumerate() {
            let building = &buildings[n % buildings.len()];
            g.put_structure(usize::from(n % 4 == 3), *idx, building, false, false);
            same_as_fresh(&g);
            found += g.federation_layouts(0).len();
        }
        assert!(found > 0, "some federation was listed");
        // A federation, a satellite, then the power to pay for satellites spent.
        let hex = g.state.map.spaces[planets[0]].hex;
        g.state.players[0].federations.push(vec![hex]);
        same_as_fresh(&g);
        let free = first_free_space(&g);
        g.state.players[0].satellites.push(free);
        same_as_fresh(&g);
        g.state.players[0].power = Default::default();
        same_as_fresh(&g);
    }

    /// A federation the remembered search found forms as the check has it: the same
    /// federation, and the same state after forming it, as with nothing remembered; a
    /// proposal the search did not find, or one asked with nothing remembered, is left to the
    /// check.
    #[test]
    fn a_federation_found_by_the_remembered_search_forms_as_checked() {
        let mut g = fixture::blips_game(11);
        let buildings = board_buildings(&g);
        let planets = near_planets(&g, 10);
        let token = g
            .state
            .fed_supply
            .iter()
            .find(|(_, n)| **n > 0)
            .map(|(id, _)| id.to_string())
            .expect("a federation token");
        let mut formed = 0;
        for (n, idx) in planets.iter().enumerate() {
            g.put_structure(0, *idx, &buildings[n % buildings.len()], false, false);
            g.memo.clear();
            let layouts = g.federation_layouts(0);
            let mods = g.modifiers(0);
            for f in layouts.iter().take(20) {
                let hexes = f.hexes();
                let checked = g.with_fed_input(0, |input| federation::check(input, &hexes));
                assert_eq!(checked.as_ref(), Ok(f));
                assert_eq!(g.remembered_federation(0, &mods, &hexes).as_ref(), Some(f));
                // Named in another order: the same federation.
                let reversed: Vec<Hex> = hexes.iter().rev().copied().collect();
                assert_eq!(
                    g.remembered_federation(0, &mods, &reversed).as_ref(),
                    Some(f)
                );
                // A hex left out, or one named twice: not what the search found.
                assert_eq!(g.remembered_federation(0, &mods, &hexes[1..]), None);
                let mut twice = hexes.clone();
                twice.push(hexes[0]);
                assert_eq!(g.remembered_federation(0, &mods, &twice), None);
                // As many hexes, one of them another: not found either.
                let mut other = hexes.clone();
                let last = other.len() - 1;
                other[last] = (other[last].neighbours().into_iter())
                    .find(|h| !hexes.contains(h))
                    .expect("a hex outside the federation");
                assert_eq!(g.remembered_federation(0, &mods, &other), None);
                // Formed from the remembered search and from the check alone: the same.
                let mut remembered = g.clone();
                let by_memo = remembered.federate(0, &hexes, &token);
                let mut fresh = g.clone();
                fresh.memo = Default::default();
                assert_eq!(fresh.remembered_federation(0, &mods, &hexes), None);
                let by_check = fresh.federate(0, &hexes, &token);
                assert_eq!(by_memo.is_ok(), by_check.is_ok(), "{f:?}");
                assert_eq!(remembered.state, fresh.state, "{f:?}");
                formed += usize::from(by_memo.is_ok());
            }
        }
        assert!(formed > 0, "some listed federation was formed");
    }

    /// The search key holds the federation input (its lists in the state's order), and
    /// there is none exactly when the seat's buildings not yet federated are short of the
    /// threshold, as buildings are placed, federated and satellites taken.
    #[test]
    fn federation_key_holds_the_input() {
        let mut g = fixture::blips_game(5);
        let check = |g: &Game| {
            let mut keys = 0;
            for seat in 0..2 {
                let mods = g.modifiers(seat);
                let input = g.federation_input_with(seat, &mods);
                let key = g.federation_key(seat, &mods);
                let p = &g.state.players[seat];
                let unfederated: u32 = input
                    .buildings
                    .iter()
                    .filter(|(h, _)| !p.federations.iter().flatten().any(|x| x == h))
                    .map(|(_, v)| v)
                    .sum();
                assert_eq!(
                    key.is_some(),
                    input.single || unfederated >= input.threshold,
                    "seat {seat}"
                );
                let Some(key) = key else { continue };
                keys += 1;
                let mut buildings = key.buildings.clone();
                buildings.sort_unstable();
                assert_eq!(buildings, input.buildings, "seat {seat}");
                let mut federated = key.federated.clone();
                federated.sort_unstable();
                federated.dedup();
                assert_eq!(federated, input.federated, "seat {seat}");
                assert_eq!((key.threshold, key.single), (input.threshold, input.single));
                assert_eq!(key.max, g.affordable_satellites(seat));
                // Blocked: exactly the empty spaces a satellite of the seat may not take.
                let mut own_sats = p.satellites.to_vec();
                own_sats.sort_unstable();
                for (i, space) in g.state.map.spaces.iter().enumerate() {
                    if g.planet_kind(i) == PlanetKind::Empty {
                        assert_eq!(
                            key.blocked.contains(&space.hex),
                            !g.satellite_space(seat, space.hex, &own_sats),
                            "seat {seat} at {}",
                            space.hex
                        );
                    }
                }
            }
            keys
        };
        check(&g);
        let buildings = board_buildings(&g);
        let planets: Vec<usize> = (0..g.state.map.spaces.len())
            .filter(|i| g.planet_kind(*i) != PlanetKind::Empty)
            .take(8)
            .collect();
        let mut keys = 0;
        for (n, idx) in planets.iter().enumerate() {
            let building = &buildings[n % buildings.len()];
            g.put_structure(n % 2, *idx, building, n == 7, false);
            keys += check(&g);
        }
        assert!(keys > 0, "some seat reached the threshold");
        // A federated building counts no more; a satellite keeps its space.
        let hex = g.state.map.spaces[planets[0]].hex;
        g.state.players[0].federations.push(vec![hex]);
        check(&g);
        let free = first_free_space(&g);
        g.state.players[0].satellites.push(free);
        check(&g);
        // Short of the threshold: nothing searched.
        let mods = g.modifiers(0);
        if g.federation_key(0, &mods).is_none() {
            assert!(g.federation_layouts_with(0, &mods).is_empty());
        }
    }
}
