//! Where a seat stands on the map: where its range is measured from, and how far each planet
//! is from there, worked out once while the seat's range origins and the planets stay the
//! same. Listing asks it for every space at every main action.

use std::cell::OnceCell;
use std::sync::Arc;

use super::memo::KeptPlace;
use super::placement::RangeOrigins;
use super::Game;
use crate::content::PlanetKind;
use crate::map::Map;
use orrery_core::hex::HexBox;
use orrery_core::shared::Shared;

/// A space holding a planet, with its distance to the nearest place range is measured from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Near {
    /// The space.
    pub idx: usize,
    /// Distance to the nearest range origin; `None` when the seat has none.
    pub distance: Option<u32>,
}

/// A seat's range origins and the distance of every planet to them, with the map and planets
/// they were worked out from.
#[derive(Debug)]
pub(crate) struct SeatMap {
    seat: usize,
    /// Held so that a pointer compares equal only to them.
    map: Arc<Map>,
    planets: Shared<Vec<u8>>,
    /// Where range is measured from (the spaces with one of the seat's structures).
    pub from: RangeOrigins,
    /// The box around `from`.
    pub from_box: Option<HexBox>,
    /// The spaces holding a planet of any kind but empty space, in space order.
    pub near: Arc<[Near]>,
}

impl SeatMap {
    /// Works it out for a seat of a game; `last`: the seat's place remembered last, whose
    /// distances are reused where they still hold (the same spaces holding planets and the
    /// same origins, or origins only added to).
    /// `from`: where its range is measured from ([`Game::range_from`]).
    pub fn of(game: &Game, seat: usize, from: &RangeOrigins, last: Option<&SeatMap>) -> SeatMap {
        let last = last.filter(|l| l.same_spaces(game, seat));
        let near: Arc<[Near]> = match last {
            // Another seat built: the same distances.
            Some(l) if l.from == *from => {
                return SeatMap {
                    seat,
                    map: game.state.map.clone(),
                    planets: game.state.planets.clone(),
                    from_box: l.from_box,
                    from: RangeOrigins::from_slice(from),
                    near: l.near.clone(),
                };
            }
            // The seat built where it had no structure: each distance to the new origins.
            Some(l) if !l.from.is_empty() && l.from.iter().all(|h| from.contains(h)) => {
                let added: RangeOrigins = from
                    .iter()
                    .filter(|h| !l.from.contains(h))
                    .copied()
                    .collect();
                let spaces = &game.state.map.spaces;
                match added.as_slice() {
                    // Mostly one structure built where the seat had none: its distance
                    // alone, read without a list of one.
                    [one] => l
                        .near
                        .iter()
                        .map(|n| {
                            let d = one.distance(spaces[n.idx].hex);
                            Near {
                                idx: n.idx,
                                distance: Some(n.distance.map_or(d, |a| a.min(d))),
                            }
                        })
                        .collect(),
                    _ => l
                        .near
                        .iter()
                        .map(|n| {
                            let hex = spaces[n.idx].hex;
                            let to_added = added.iter().map(|h| h.distance(hex)).min();
                            Near {
                                idx: n.idx,
                                distance: match (n.distance, to_added) {
                                    (Some(a), Some(b)) => Some(a.min(b)),
                                    (a, b) => a.or(b),
                                },
                            }
                        })
                        .collect(),
                }
            }
            _ => {
                let kinds = &game.content.planets.planets;
                let spaces = &game.state.map.spaces;
                let mut near = Vec::with_capacity(spaces.len());
                for (idx, (p, space)) in game.state.planets.iter().zip(spaces).enumerate() {
                    if kinds[usize::from(*p)].kind == PlanetKind::Empty {
                        continue;
                    }
                    let hex = space.hex;
                    near.push(Near {
                        idx,
                        distance: from.iter().map(|h| h.distance(hex)).min(),
                    });
                }
                near.into()
            }
        };
        SeatMap {
            seat,
            map: game.state.map.clone(),
            planets: game.state.planets.clone(),
            from_box: HexBox::around(from),
            from: RangeOrigins::from_slice(from),
            near,
        }
    }

    /// Whether it was worked out for a seat on the game's map (by pointer) with the same
    /// spaces holding a planet: its distances hold for the same origins. Planets change
    /// (terraforming, a Gaia project) far more often than which spaces hold one.
    fn same_spaces(&self, game: &Game, seat: usize) -> bool {
        if self.seat != seat || !Arc::ptr_eq(&self.map, &game.state.map) {
            return false;
        }
        if Shared::ptr_eq(&self.planets, &game.state.planets) {
            return true;
        }
        let kinds = &game.content.planets.planets;
        let empty = |p: u8| kinds[usize::from(p)].kind == PlanetKind::Empty;
        self.planets.len() == game.state.planets.len()
            && self
                .planets
                .iter()
                .zip(game.state.planets.iter())
                .all(|(&a, &b)| a == b || empty(a) == empty(b))
    }

    /// Whether it was worked out for a seat on the game's very map and planets (by pointer);
    /// it is the seat's place if its origins are too.
    pub fn fits(&self, game: &Game, seat: usize) -> bool {
        self.seat == seat
            && Shared::ptr_eq(&self.planets, &game.state.planets)
            && Arc::ptr_eq(&self.map, &game.state.map)
    }
}

/// A seat's place on the map for a view, worked out only when a listing walks the placements
/// (applying a part makes views that never do): at once when the memo holds it (for the very
/// structures, or for the seat's range origins), else the first time it is asked for.
#[derive(Debug, Clone)]
pub(crate) struct LazySeatMap<'a> {
    game: &'a Game,
    seat: usize,
    /// Where the seat's range is measured from, while the place is not known (empty once
    /// it is).
    pending: RangeOrigins,
    map: OnceCell<Arc<SeatMap>>,
}

impl<'a> LazySeatMap<'a> {
    /// The place of a seat of a game, taken from the memo if it holds it, else left to be
    /// worked out when asked for.
    pub fn new(game: &'a Game, seat: usize) -> LazySeatMap<'a> {
        let kept = game.memo.seat_map_kept(
            seat,
            &game.state.structures,
            || game.range_from(seat),
            |m| m.fits(game, seat),
        );
        let (pending, map) = match kept {
            KeptPlace::Place(m) => (RangeOrigins::new(), OnceCell::from(m)),
            KeptPlace::Origins(from) => (from, OnceCell::new()),
        };
        LazySeatMap {
            game,
            seat,
            pending,
            map,
        }
    }

    /// The place of a seat of a game, worked out now if the memo does not hold it (a listing,
    /// which mostly walks placements).
    #[inline(always)]
    pub fn made(game: &'a Game, seat: usize) -> LazySeatMap<'a> {
        let map = remembered_place(game, seat, || game.range_from(seat));
        LazySeatMap {
            game,
            seat,
            pending: RangeOrigins::new(),
            map: OnceCell::from(map),
        }
    }

    /// Where the seat's range is measured from.
    pub fn from(&self) -> &RangeOrigins {
        self.map.get().map_or(&self.pending, |m| &m.from)
    }

    /// The place if it is already known (its box around the origins saves working it out).
    pub fn known(&self) -> Option<&SeatMap> {
        self.map.get().map(|m| &**m)
    }

    /// The place, worked out now if it is not known yet.
    pub fn get(&self) -> &SeatMap {
        self.map
            .get_or_init(|| remembered_place(self.game, self.seat, || self.from().clone()))
    }
}

/// A seat's place on the map as the memo holds it, or worked out from the range origins
/// `from` gives (and then remembered).
fn remembered_place(game: &Game, seat: usize, from: impl FnOnce() -> RangeOrigins) -> Arc<SeatMap> {
    game.memo.seat_map(
        seat,
        &game.state.structures,
        from,
        |m| m.fits(game, seat),
        |from, last| SeatMap::of(game, seat, from, last),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::fixture;

    #[test]
    fn distances_to_origins_added_are_those_measured_afresh() {
        let g = fixture::blips_game(5);
        let hexes: Vec<_> = g.state.map.spaces.iter().map(|s| s.hex).collect();
        let last = hexes.len() - 1;
        let origins = |at: &[usize]| -> RangeOrigins { at.iter().map(|&i| hexes[i]).collect() };
        let afresh = |from: &RangeOrigins| SeatMap::of(&g, 0, from, None).near.to_vec();
        for start in [&[0][..], &[0, last]] {
            let before = SeatMap::of(&g, 0, &origins(start), None);
            // One origin added, two, the same ones in another order.
            for grown in [
                &[0, 5][..],
                &[0, last],
                &[last, 0],
                &[0, 5, 9],
                &[9, 0, last, 5],
            ] {
                if !start.iter().all(|i| grown.contains(i)) {
                    continue;
                }
                let from = origins(grown);
                let after = SeatMap::of(&g, 0, &from, Some(&before));
                assert_eq!(after.near.to_vec(), afresh(&from), "{start:?} to {grown:?}");
                assert_eq!(after.from, from);
            }
        }
    }

    #[test]
    fn distances_are_kept_while_the_same_spaces_hold_planets_and_redone_when_not() {
        let mut g = fixture::blips_game(5);
        let from: RangeOrigins = [g.state.map.spaces[0].hex].into_iter().collect();
        let afresh = |g: &Game| SeatMap::of(g, 0, &from, None).near.to_vec();
        let first = SeatMap::of(&g, 0, &from, None);
        let kinds: Vec<PlanetKind> = g.content.planets.planets.iter().map(|p| p.kind).collect();
        let empty = |p: u8| kinds[usize::from(p)] == PlanetKind::Empty;
        let planets = g.state.planets.to_vec();
        let held = planets.iter().position(|p| !empty(*p)).expect("a planet");
        let other = (0..kinds.len() as u8)
            .find(|p| !empty(*p) && *p != planets[held])
            .expect("another kind of planet");
        // Terraformed: another planet, the same spaces holding one.
        g.state.planets[held] = other;
        let again = SeatMap::of(&g, 0, &from, Some(&first));
        assert!(Arc::ptr_eq(&first.near, &again.near));
        assert!(again.fits(&g, 0) && !first.fits(&g, 0));
        assert_eq!(again.near.to_vec(), afresh(&g));
        // A planet where there was none: measured again, the new planet among them.
        let space = planets.iter().position(|p| empty(*p)).expect("empty space");
        g.state.planets[space] = other;
        let third = SeatMap::of(&g, 0, &from, Some(&again));
        assert!(!Arc::ptr_eq(&again.near, &third.near));
        assert!(third.near.iter().any(|n| n.idx == space));
        assert_eq!(third.near.to_vec(), afresh(&g));
    }
}
