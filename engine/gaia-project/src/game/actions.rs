//! Actions by id: the board's power and QIC actions, and the special actions a seat owns.

use super::lookup::by_id;
use super::{err, Game, MoveError};

impl Game {
    /// Takes a board action (once a round), paying its cost.
    pub(super) fn board_action(&mut self, seat: usize, id: &str) -> Result<(), MoveError> {
        let a = by_id(&self.content.board_actions.actions, id)
            .cloned()
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
        let effects = self
            .sources(seat)
            .into_iter()
            .find_map(|(src, g)| {
                g.action
                    .filter(|a| a.key == key)
                    .map(|a| (src, a.effects.clone()))
            })
            .ok_or_else(|| MoveError(format!("you have no special action {key}")))?;
        self.state.players[seat].specials_used.push(key.into());
        self.apply_effects(seat, &effects.1, effects.0)
    }
}
