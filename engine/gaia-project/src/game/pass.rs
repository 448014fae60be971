//! Passing: the pass effects of what the seat owns, and the booster it takes for the next
//! round.

use super::{err, Game, MoveError};
use smallvec::SmallVec;

use crate::content::Effect;

impl Game {
    /// Passes: pass effects, then the booster for the next round (none in the last).
    pub(super) fn pass(&mut self, seat: usize, booster: Option<&str>) -> Result<(), MoveError> {
        let last = self.state.round >= self.content.rules.rounds;
        // The pass effects are read in place through handles, not copied.
        let h = self.handles();
        let mut pass_effects: SmallVec<[(&'static str, &[Effect]); 8]> = SmallVec::new();
        h.each_tagged(self, seat, |src, g| {
            if !g.pass.is_empty() {
                pass_effects.push((src, g.pass));
            }
        });
        for (src, effects) in pass_effects {
            if !effects.iter().any(|e| matches!(e, Effect::Script(_))) {
                self.apply_effects(seat, effects, src)?;
                continue;
            }
            // Nothing can follow a pass: a hook's return is held to what YAML may say there.
            let mut plain = Vec::with_capacity(effects.len());
            for e in effects {
                let Effect::Script(s) = e else {
                    plain.push(e.clone());
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
