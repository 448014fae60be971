//! Each seat's grants and place on the map as a game last found them, kept in the game itself
//! (not copied with it), so that listing the same state again, or a state a part left them
//! unchanged in, finds them without asking the memo shared by the game's clones: no lock, no
//! search among the entries kept there, and nothing another state pushed out.
//!
//! The seat's federation search is kept there too, with everything it read.
//!
//! A cell is filled the first time a listing asks (through the memo) and is read only while
//! what it was found for still holds (the grants' own check, the very structures, planets
//! and map, the search's very input); applying a part lets go of those that no longer hold ([`Game::part`] calls
//! [`SeatCells::stale`] and [`SeatCells::forget`]), so the next listing fills them again.

use std::cell::OnceCell;
use std::sync::Arc;

use super::memo::FedNames;
use super::seat_grants::SeatGrants;
use super::seat_map::SeatMap;
use super::structures::Structures;
use super::Game;
use crate::federation::Federation;
use orrery_core::hex::Hex;
use orrery_core::shared::Shared;

/// A seat's place on the map with the structures it was found for (the same structures: the
/// same range origins).
type Place = (Shared<Structures>, Arc<SeatMap>);

/// One seat's cells.
#[derive(Debug, Default)]
struct SeatCell {
    grants: OnceCell<Arc<SeatGrants>>,
    place: OnceCell<Place>,
    search: OnceCell<Box<KeptSearch>>,
}

/// A seat's federation search's result with everything the search read, held so that a
/// pointer compares equal only to them: the grants (the modifiers: power values, threshold,
/// satellite cost), the structures and planets, the seat's federations and satellites, its
/// formations and how many satellites it can pay for.
#[derive(Debug)]
pub(crate) struct KeptSearch {
    grants: Arc<SeatGrants>,
    structures: Shared<Structures>,
    planets: Shared<Vec<u8>>,
    federations: Shared<Vec<Vec<Hex>>>,
    satellites: Shared<Vec<Hex>>,
    formations: u32,
    max: usize,
    /// The federations found.
    pub found: Arc<Vec<Federation>>,
    /// Their names, once a listing wrote them.
    pub names: OnceCell<Arc<FedNames>>,
}

impl KeptSearch {
    /// The search of a seat of a game whose grants are `grants` and who can pay for `max`
    /// satellites, which found `found`.
    pub fn new(
        game: &Game,
        seat: usize,
        grants: &Arc<SeatGrants>,
        max: usize,
        found: Arc<Vec<Federation>>,
    ) -> KeptSearch {
        let p = &game.state.players[seat];
        KeptSearch {
            grants: grants.clone(),
            structures: game.state.structures.clone(),
            planets: game.state.planets.clone(),
            federations: p.federations.clone(),
            satellites: p.satellites.clone(),
            formations: p.formations,
            max,
            found,
            names: OnceCell::new(),
        }
    }

    /// Whether it is the search of a seat of a game as it is now, but for the grants and
    /// the satellites it can pay for.
    fn holds_but_grants(&self, game: &Game, seat: usize) -> bool {
        let p = &game.state.players[seat];
        Shared::ptr_eq(&self.structures, &game.state.structures)
            && Shared::ptr_eq(&self.planets, &game.state.planets)
            && Shared::ptr_eq(&self.federations, &p.federations)
            && Shared::ptr_eq(&self.satellites, &p.satellites)
            && self.formations == p.formations
    }

    /// Whether it is the search of a seat of a game as it is now, with the very `grants`
    /// and `max` satellites paid for.
    fn holds(&self, game: &Game, seat: usize, grants: &Arc<SeatGrants>, max: usize) -> bool {
        Arc::ptr_eq(&self.grants, grants) && self.max == max && self.holds_but_grants(game, seat)
    }
}

/// The cells of a game's first [`SEATS`] seats (a seat past them asks the memo).
#[derive(Debug, Default)]
pub(crate) struct SeatCells {
    cells: [SeatCell; SEATS],
}

impl SeatCell {
    /// A cell holding this one's grants and place (not its search: a copy a part is tried on
    /// lists no federations).
    fn copied(&self) -> SeatCell {
        SeatCell {
            grants: self.grants.clone(),
            place: self.place.clone(),
            search: OnceCell::new(),
        }
    }
}

impl Clone for SeatCells {
    /// Empty cells: a copy of a game is mostly made to be changed (a bot's trial, an undo
    /// copy), so what the cells hold is left to the memo the copies share, and copying a
    /// game takes no reference counts for them.
    fn clone(&self) -> SeatCells {
        SeatCells::default()
    }
}

/// Which seats' cells no longer hold: [`STALE_BITS`] bits a seat, the first seat's lowest
/// ([`GRANTS`], [`PLACE`], [`SEARCH`]).
pub(crate) type Stale = u16;

/// Bits of [`Stale`] a seat.
const STALE_BITS: usize = 3;
/// A seat's grants no longer hold.
const GRANTS: Stale = 1;
/// A seat's place no longer holds.
const PLACE: Stale = 2;
/// A seat's federation search no longer holds.
const SEARCH: Stale = 4;

/// Seats with cells: the base game's most.
const SEATS: usize = 4;

impl SeatCells {
    /// Cells holding these' grants and places, for a copy of the game read like it (a
    /// part tried on a copy while listing): the copy finds them without the memo, and the
    /// part it applies lets go of those it makes stale, as in any game.
    pub fn copied(&self) -> SeatCells {
        SeatCells {
            cells: std::array::from_fn(|i| self.cells[i].copied()),
        }
    }

    /// The seat's grants kept if they `fit`; else those `find` gives, kept if the cell was
    /// empty.
    #[inline]
    pub fn grants(
        &self,
        seat: usize,
        fits: impl Fn(&SeatGrants) -> bool,
        find: impl FnOnce() -> Arc<SeatGrants>,
    ) -> Arc<SeatGrants> {
        let Some(cell) = self.cells.get(seat) else {
            return find();
        };
        match cell.grants.get() {
            Some(kept) if fits(kept) => kept.clone(),
            Some(_) => find(),
            None => {
                // Found before the cell is filled: finding may ask for the cell again.
                let found = find();
                cell.grants.get_or_init(|| found.clone());
                found
            }
        }
    }

    /// The seat's grants kept, whether they fit or not (for tests).
    #[cfg(test)]
    pub fn kept_grants(&self, seat: usize) -> Option<&Arc<SeatGrants>> {
        self.cells.get(seat)?.grants.get()
    }

    /// The seat's federation search kept, whether it holds or not (for tests).
    #[cfg(test)]
    pub fn search_kept(&self, seat: usize) -> Option<&KeptSearch> {
        self.cells.get(seat)?.search.get().map(|k| &**k)
    }

    /// The seat's place kept for the very `structures` if it `fits`.
    #[inline]
    pub fn place(
        &self,
        seat: usize,
        structures: &Shared<Structures>,
        fits: impl Fn(&SeatMap) -> bool,
    ) -> Option<Arc<SeatMap>> {
        let (kept_for, place) = self.cells.get(seat)?.place.get()?;
        (Shared::ptr_eq(kept_for, structures) && fits(place)).then(|| place.clone())
    }

    /// Keeps the seat's place found for `structures`, if its cell is empty.
    #[inline]
    pub fn keep_place(&self, seat: usize, structures: &Shared<Structures>, place: &Arc<SeatMap>) {
        if let Some(cell) = self.cells.get(seat) {
            cell.place
                .get_or_init(|| (structures.clone(), place.clone()));
        }
    }

    /// The seat's federation search kept, if it is the one of the game as it is now with
    /// the very `grants` and `max` satellites paid for; if the cell is empty, the one `search`
    /// makes, kept. `None`: the search kept is another one (the caller searches).
    #[inline]
    pub fn search(
        &self,
        game: &Game,
        seat: usize,
        grants: &Arc<SeatGrants>,
        max: usize,
        search: impl FnOnce() -> KeptSearch,
    ) -> Option<&KeptSearch> {
        let cell = &self.cells.get(seat)?.search;
        match cell.get() {
            Some(kept) => kept.holds(game, seat, grants, max).then_some(&**kept),
            None => {
                // Made before the cell is filled: searching may ask for the cell again.
                let made = Box::new(search());
                Some(&**cell.get_or_init(|| made))
            }
        }
    }

    /// The cells that no longer hold, by the grants' check `grants_fit` and the place's
    /// `place_fits` for the seat's structures as they are now. A search kept holds with the
    /// grants it read only while they are the seat's kept grants and those still fit.
    pub fn stale(
        &self,
        game: &Game,
        grants_fit: impl Fn(usize, &SeatGrants) -> bool,
        place_fits: impl Fn(usize, &SeatMap) -> bool,
    ) -> Stale {
        let mut stale = 0;
        for (seat, cell) in self.cells.iter().enumerate() {
            let grants = cell.grants.get().filter(|g| grants_fit(seat, g));
            if grants.is_none() && cell.grants.get().is_some() {
                stale |= GRANTS << (STALE_BITS * seat);
            }
            if let Some((kept_for, place)) = cell.place.get() {
                if !Shared::ptr_eq(kept_for, &game.state.structures) || !place_fits(seat, place) {
                    stale |= PLACE << (STALE_BITS * seat);
                }
            }
            if let Some(kept) = cell.search.get() {
                let same_grants = grants.is_some_and(|g| Arc::ptr_eq(g, &kept.grants));
                if !same_grants || !kept.holds_but_grants(game, seat) {
                    stale |= SEARCH << (STALE_BITS * seat);
                }
            }
        }
        stale
    }

    /// Empties the cells `stale` names.
    pub fn forget(&mut self, stale: Stale) {
        for (seat, cell) in self.cells.iter_mut().enumerate() {
            let bits = stale >> (STALE_BITS * seat);
            if bits & GRANTS != 0 {
                cell.grants.take();
            }
            if bits & PLACE != 0 {
                cell.place.take();
            }
            if bits & SEARCH != 0 {
                cell.search.take();
            }
        }
    }
}
