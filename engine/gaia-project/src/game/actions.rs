//! Actions by id: the board's power and QIC actions, and the special actions a seat owns.

use super::{err, Game, MoveError};
use crate::lookup::by_id;

impl Game {
    /// Takes a board action (once a round), paying its cost.
    pub(super) fn board_action(&mut self, seat: usize, id: &str) -> Result<(), MoveError> {
        // Content is read through a handle, not copied.
        let h = self.handles();
        let a = by_id(&h.content().board_actions.actions, id)
            .ok_or_else(|| MoveError(format!("unknown board action {id}")))?;
        if self.state.actions_used.iter().any(|u| u == id) {
            return err(format!("{id} was used this round"));
        }
        if self.gain_wholly_capped(seat, &a.effects) {
            return err(format!("{id} would gain nothing: its gain is at the cap"));
        }
        self.pay(seat, &a.cost)?;
        self.state.actions_used.push(id.into());
        self.apply_effects(seat, &a.effects, "board actions")
    }

    /// Takes a special action the seat owns (once a round), by its key.
    pub(super) fn special(&mut self, seat: usize, key: &str) -> Result<(), MoveError> {
        if self.state.players[seat]
            .specials_used
            .iter()
            .any(|k| k == key)
        {
            return err(format!("special action {key} was used this round"));
        }
        // The seat's grants are walked in place through handles, and the action's effects
        // read where they are, not copied.
        let h = self.handles();
        let mut found = None;
        h.each_tagged(self, seat, |src, g| {
            if found.is_none() {
                found = g
                    .action
                    .filter(|a| a.key == key)
                    .map(|a| (src, a.effects.as_slice()));
            }
        });
        let (src, effects) =
            found.ok_or_else(|| MoveError(format!("you have no special action {key}")))?;
        self.state.players[seat].specials_used.push(key.into());
        self.apply_effects(seat, effects, src)
    }
}
