//! Actions by id: the board's power and QIC actions, and the special actions a seat owns.

use super::handles::Handles;
use super::{err, Game, MoveError};
use crate::content::{BoardAction, Effect};
use crate::lookup::by_id;
use crate::notation::{Amounts, Word};

impl Game {
    /// Takes a board action (once a round), paying its cost.
    pub(super) fn board_action(&mut self, seat: usize, id: &str) -> Result<(), MoveError> {
        // Content is read through a handle, not copied.
        let h = self.handles();
        let a = self.board_action_open(&h, seat, id)?;
        self.pay(seat, &a.cost)?;
        self.state.actions_used.push(id.into());
        self.apply_effects(seat, &a.effects, "board actions")
    }

    /// The board action with this id, checked without changing anything (its cost aside):
    /// not used this round, and not gaining nothing for the seat's caps.
    pub(super) fn board_action_open<'a>(
        &self,
        h: &'a Handles,
        seat: usize,
        id: &str,
    ) -> Result<&'a BoardAction, MoveError> {
        let a = by_id(&h.content().board_actions.actions, id)
            .ok_or_else(|| MoveError(format!("unknown board action {id}")))?;
        if self.state.actions_used.iter().any(|u| u == id) {
            return err(format!("{id} was used this round"));
        }
        if self.gain_wholly_capped(seat, &a.effects) {
            return err(format!("{id} would gain nothing: its gain is at the cap"));
        }
        Ok(a)
    }

    /// Takes a special action the seat owns (once a round), by its key.
    pub(super) fn special(&mut self, seat: usize, key: &str) -> Result<(), MoveError> {
        if self.special_used(seat, key) {
            return err(format!("special action {key} was used this round"));
        }
        // The seat's grants are walked in place through handles, and the action's effects
        // read where they are, not copied.
        let h = self.handles();
        let (src, effects) = Self::special_found(&h, self, seat, key)
            .ok_or_else(|| MoveError(format!("you have no special action {key}")))?;
        self.state.players[seat].specials_used.push(key.into());
        self.apply_effects(seat, effects, src)
    }

    /// Whether the seat took the special action with this key this round.
    pub(super) fn special_used(&self, seat: usize, key: &str) -> bool {
        self.state.players[seat]
            .specials_used
            .iter()
            .any(|k| k == key)
    }

    /// The VP source and effects of the seat's special action with this key, if it has one.
    pub(super) fn special_found<'a>(
        h: &'a Handles,
        game: &Game,
        seat: usize,
        key: &str,
    ) -> Option<(&'static str, &'a [Effect])> {
        let mut found = None;
        h.each_tagged(game, seat, |src, g| {
            if found.is_none() {
                found = g
                    .action
                    .filter(|a| a.key == key)
                    .map(|a| (src, a.effects.as_slice()));
            }
        });
        found
    }
}

/// The key of a `special` part's action: its amounts written one after another, with commas,
/// inline (a few short amounts, so no list of strings is joined).
pub(super) fn special_key(amounts: &Amounts) -> Word {
    let mut key = Word::default();
    for (i, a) in amounts.iter().enumerate() {
        if i > 0 {
            key.push(',');
        }
        key.push_str(&compact_str::ToCompactString::to_compact_string(a));
    }
    key
}
