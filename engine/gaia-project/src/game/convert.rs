//! Free-action conversions: a written cost and gain that are a multiple of one conversion the
//! seat has in the phase.

use super::bundle::{self, Written};
use super::{err, Game, MoveError};
use crate::content::{Conversion, Effect, Phase};
use crate::notation::Amount;

impl Game {
    /// A free-action conversion: the written cost and gain must be a multiple of one
    /// conversion the seat has in this phase.
    pub(super) fn convert(
        &mut self,
        seat: usize,
        cost: &[Amount],
        gain: &[Amount],
        phase: Phase,
    ) -> Result<(), MoveError> {
        // Read where they are written: a bundle is built only for the cost paid.
        let cost_w = Written::of(cost);
        let gain_w = Written::of(gain);
        // The first conversion (the board's, then each active grant's in income order) whose
        // multiple is what was written; found on borrowed content, only its gain copied.
        let matching = |conv: &Conversion| -> Option<i32> {
            let (code, n) = conv.pay.iter().next()?;
            if n <= 0 || cost_w.get(code) % n != 0 {
                return None;
            }
            let k = cost_w.get(code) / n;
            if k <= 0 || !cost_w.is_multiple(&conv.pay, k) {
                return None;
            }
            gain_w.is_gain_multiple(&conv.gain, k)?.then_some(k)
        };
        // Handles on content and the seats' facts are held here, so the gain found in them
        // is applied from where it is.
        let h = self.handles();
        let mut found: Option<(i32, &[Effect])> = None;
        if phase == Phase::Actions {
            found = h
                .board(seat)
                .expect("seat has a faction")
                .conversions
                .iter()
                .find_map(|c| matching(c).map(|k| (k, &c.gain[..])));
        }
        if found.is_none() {
            h.each(self, seat, |g| {
                if found.is_none() {
                    found = g
                        .conversions
                        .iter()
                        .filter(|c| c.phase == phase)
                        .find_map(|c| matching(c).map(|k| (k, &c.gain[..])));
                }
            });
        }
        if let Some((k, effects)) = found {
            self.pay_amounts(seat, bundle::amounts_by_code(cost))?;
            for _ in 0..k {
                self.apply_effects(seat, effects, "other")?;
            }
            return Ok(());
        }
        err(format!(
            "no conversion of {} into {}",
            cost.iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(","),
            gain.iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ))
    }
}
