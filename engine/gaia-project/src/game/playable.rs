//! [`Playable`] for [`Game`]: the action is one part of a move line.

use super::{Decision, Game};
use crate::notation::Command;
use orrery_core::play_api::Playable;

impl Playable for Game {
    type Action = Command;

    fn seat_count(&self) -> usize {
        self.state.players.len()
    }

    fn to_decide(&self) -> Option<usize> {
        self.deciding_seat()
    }

    fn legal(&self) -> Vec<Command> {
        self.legal_parts()
    }

    fn legal_into(&self, out: &mut Vec<Command>) {
        self.legal_parts_into(out)
    }

    fn play(&mut self, action: &Command) -> Result<(), String> {
        self.apply_part(action).map_err(|e| e.0)
    }

    fn play_unguarded(&mut self, action: &Command) -> Result<(), String> {
        self.apply_part_unguarded(action).map_err(|e| e.0)
    }

    fn is_over(&self) -> bool {
        self.finished()
    }

    fn score(&self) -> Vec<i32> {
        self.scores()
    }

    fn decisions_done(&self) -> usize {
        self.state.moves
    }

    /// Conversions and burning; and a decline in the Gaia phase, which the listing offers
    /// again after it is taken (it changes nothing), so a bot could repeat it forever.
    fn is_free(&self, action: &Command) -> bool {
        match action {
            Command::Spend { .. } | Command::Burn(_) => true,
            Command::Decline(_) => matches!(self.state.open, Some(Decision::Gaia(_))),
            _ => false,
        }
    }

    /// The first hook errors the game met, counted ([`Game::hook_error_lines`]).
    fn problems(&self) -> Vec<String> {
        self.hook_error_lines()
    }
}
