//! A small interface to any turn-based game played part by part, in the spirit of OpenSpiel's:
//! who decides, what may be played, play it, copy the game, is it over, the scores. Bots,
//! simulation and benchmarks are written against it, so another game on the same kernel gets
//! them for free.

use std::fmt::{Debug, Display};

/// A game that bots can play: the seat to decide picks one of the legal actions at a time.
pub trait Playable: Clone {
    /// One decision unit (for example one part of a move line).
    type Action: Clone + PartialEq + Debug + Display;

    /// Number of seats.
    fn seat_count(&self) -> usize;
    /// The seat to decide next; `None` once the game is over.
    fn to_decide(&self) -> Option<usize>;
    /// Every legal next action, in a stable order (empty once the game is over).
    fn legal(&self) -> Vec<Self::Action>;
    /// Every legal next action, as [`Playable::legal`] lists them, into `out` (what it held
    /// is dropped): a caller that lists again and again reuses one buffer. By default it
    /// lists anew; a game overrides it to fill the buffer without allocating it.
    fn legal_into(&self, out: &mut Vec<Self::Action>) {
        *out = self.legal();
    }
    /// Plays an action; on error the game is unchanged.
    fn play(&mut self, action: &Self::Action) -> Result<(), String>;
    /// Plays an action for a caller that gives the game up when the action is refused (a
    /// game played to its end, where a refusal ends it): on error the game may be left
    /// part-way through the action, fit only to be dropped or asked for its
    /// [`Playable::problems`], so a game may skip what keeps [`Playable::play`]'s game
    /// unchanged (an undo copy). By default it is [`Playable::play`].
    fn play_unguarded(&mut self, action: &Self::Action) -> Result<(), String> {
        self.play(action)
    }
    /// The game with an action played, for a caller that gives the game up when the action
    /// is refused (a bot's trial on a copy): on error the game is dropped with the refusal
    /// ([`Playable::play_unguarded`]).
    fn played(mut self, action: &Self::Action) -> Result<Self, String> {
        self.play_unguarded(action).map(|()| self)
    }
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// Score per seat (final once the game is over).
    fn score(&self) -> Vec<i32>;
    /// How many decisions have been completed; it grows by one each time a seat's decision
    /// (a whole turn, one answer to another seat's action, …) is closed.
    fn decisions_done(&self) -> usize;
    /// Whether an action leaves the decision open and could be repeated at will (a free
    /// conversion): bots cap how many of these they take per decision.
    fn is_free(&self, action: &Self::Action) -> bool;
    /// Problems met while listing or playing that a user should see with a failure (such as
    /// the first hook errors, counted); none by default.
    fn problems(&self) -> Vec<String> {
        Vec::new()
    }
    /// A copy of the game as `seat` may know it: what the seat cannot see (other seats' hands,
    /// the order of a deck) replaced by a sample consistent with what it can, drawn with
    /// `seed`. Bots plan on this copy, never on the game itself. A game without hidden
    /// information returns a plain copy (the default).
    fn for_seat(&self, _seat: usize, _seed: u64) -> Self {
        self.clone()
    }
}

/// A heuristic value of a position for a seat, in score units: roughly the score the seat can
/// expect at the end. Equal to the score once the game is over.
pub trait Evaluate: Playable {
    /// The value of the position for `seat`.
    fn value(&self, seat: usize) -> f64;

    /// The names of the numbers [`Evaluate::features`] describes a position with, in their
    /// order; they depend only on the game's content, never on the position. None by default
    /// (a game without features has no learned evaluation).
    fn feature_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// The position described for `seat` as numbers, one per [`Evaluate::feature_names`], for
    /// a learned evaluation ([`crate::bot::Model`]) to weigh.
    fn features(&self, _seat: usize) -> Vec<f64> {
        Vec::new()
    }

    /// [`Evaluate::value`] and [`Evaluate::features`] of one position together; a game whose
    /// features share work with its value (or contain it) computes that work once here.
    fn value_and_features(&self, seat: usize) -> (f64, Vec<f64>) {
        (self.value(seat), self.features(seat))
    }
}
