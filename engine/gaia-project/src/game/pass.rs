//! Passing: the pass effects of what the seat owns, and the booster it takes for the next
//! round.

use super::{err, Game, MoveError};
use crate::content::Effect;

impl Game {
    /// Passes: pass effects, then the booster for the next round (none in the last).
    pub(super) fn pass(&mut self, seat: usize, booster: Option<&str>) -> Result<(), MoveError> {
        let last = self.state.round >= self.content.rules.rounds;
        let pass_effects: Vec<(&'static str, Vec<Effect>)> = self
            .sources(seat)
            .into_iter()
            .map(|(s, g)| (s, g.pass.to_vec()))
            .collect();
        for (src, effects) in pass_effects {
            // Nothing can follow a pass: a hook's return is held to what YAML may say there.
            let mut plain = Vec::with_capacity(effects.len());
            for e in effects {
                let Effect::Script(s) = &e else {
                    plain.push(e);
                    continue;
                };
                for got in self.hook_effects(seat, s, src)? {
                    if let Err(why) = got.pays_without_choice("a pass") {
                        return Err(self.hook_refusal(s, format!("returned {got:?}: {why}")));
                    }
                    plain.push(got);
                }
            }
            self.apply_effects(seat, &plain, src)?;
        }
        let old = self.state.players[seat].booster.take();
        match (booster, last) {
            (Some(b), false) => self.take_booster(seat, b)?,
            (None, true) => {}
            (Some(_), true) => return err("no booster is taken in the last round"),
            (None, false) => return err("choose a booster when passing"),
        }
        if let Some(o) = old {
            self.state.boosters.push(o);
        }
        self.state.players[seat].passed = true;
        self.state.passed_order.push(seat);
        Ok(())
    }
}
