//! Free-action conversions: a written cost and gain that are a multiple of one conversion the
//! seat has in the phase.

use super::bundle::{self, plain_gain, scaled};
use super::{err, Game, MoveError};
use crate::content::{Conversion, Phase};
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
        let cost_b = bundle::of_amounts(cost);
        let gain_b = bundle::of_amounts(gain);
        let mut convs: Vec<Conversion> = if phase == Phase::Actions {
            self.board(seat).conversions.clone()
        } else {
            Vec::new()
        };
        for (_, g) in self.sources(seat) {
            convs.extend(g.conversions.iter().filter(|c| c.phase == phase).cloned());
        }
        for conv in &convs {
            let Some(g) = plain_gain(&conv.gain) else {
                continue;
            };
            let Some((code, n)) = conv.pay.iter().next() else {
                continue;
            };
            if n <= 0 || cost_b.get(code) % n != 0 {
                continue;
            }
            let k = cost_b.get(code) / n;
            if k <= 0 || scaled(&conv.pay, k) != cost_b || scaled(&g, k) != gain_b {
                continue;
            }
            self.pay(seat, &cost_b)?;
            for _ in 0..k {
                self.apply_effects(seat, &conv.gain, "other")?;
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
