//! Handles on what a seat's grants are read from: the content and the seats' fixed facts,
//! held apart from the game (reference counts, nothing copied), so that effects found through
//! them stay borrowed while the rules change the game.

use std::sync::Arc;

use smallvec::SmallVec;

use super::{Game, SeatFixed, Seats};
use crate::board::FactionBoard;
use crate::content::{Content, Effect, Faction, Grants};

/// Content and the seats' fixed facts, held by reference count.
pub(crate) struct Handles {
    content: Arc<Content>,
    seats: Seats,
}

impl Handles {
    /// The content.
    pub(crate) fn content(&self) -> &Content {
        &self.content
    }

    /// A seat's fixed facts; `None` before it has a faction.
    fn fixed(&self, seat: usize) -> Option<&SeatFixed> {
        self.seats.get(seat).and_then(Option::as_deref)
    }

    /// A seated faction's fixed facts.
    fn seated(&self, seat: usize) -> &SeatFixed {
        self.fixed(seat).expect("seat has a faction")
    }

    /// A seated faction.
    pub(crate) fn faction(&self, seat: usize) -> &Faction {
        &self.content.factions[self.seated(seat).faction]
    }

    /// A seat's faction board; `None` before it has a faction.
    pub(crate) fn board(&self, seat: usize) -> Option<&FactionBoard> {
        self.fixed(seat).map(|f| &f.board)
    }

    /// Calls `f` with everything active for a seated faction in `game`, in income order, each
    /// tagged with the VP source it books to ([`crate::player::Player::each_active_tagged`]).
    pub(crate) fn each_tagged<'a>(
        &'a self,
        game: &Game,
        seat: usize,
        f: impl FnMut(&'static str, Grants<'a>),
    ) {
        let board = &self.seated(seat).board;
        game.state.players[seat].each_active_tagged(&self.content, self.faction(seat), board, f);
    }

    /// Calls `f` with everything active for a seated faction in `game`, in income order.
    pub(crate) fn each<'a>(&'a self, game: &Game, seat: usize, f: impl FnMut(Grants<'a>)) {
        let board = &self.seated(seat).board;
        game.state.players[seat].each_active(&self.content, self.faction(seat), board, f);
    }

    /// A seated faction's income effects due in `game`, in order
    /// ([`crate::player::Player::income_refs`]).
    pub(crate) fn income<'a>(&'a self, game: &Game, seat: usize) -> SmallVec<[&'a Effect; 24]> {
        let board = &self.seated(seat).board;
        game.state.players[seat].income_refs(&self.content, self.faction(seat), board)
    }
}

impl Game {
    /// Handles on the content and the seats' fixed facts (see [`Handles`]).
    pub(crate) fn handles(&self) -> Handles {
        Handles {
            content: self.content.clone(),
            seats: self.seats.clone(),
        }
    }
}
