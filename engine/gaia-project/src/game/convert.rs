//! Free-action conversions: a written cost and gain that are a multiple of one conversion the
//! seat has in the phase. Also the free actions of a turn (conversions and burns) checked
//! first, which need no undo copy ([`Game::free_action_checked_first`]).

use smallvec::SmallVec;

use super::bundle::{self, Written};
use super::conversion_form::PayCode;
use super::handles::Handles;
use super::{err, Decision, Game, MoveError};
use crate::content::{Conversion, Effect, Phase};
use crate::notation::{Amount, Command};

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
        // Handles on content and the seats' facts are held here, so the gain found in them
        // is applied from where it is.
        let h = self.handles();
        if let Some((k, effects)) = self.find_conversion(&h, seat, cost, gain, phase) {
            return self.pay_and_gain(seat, bundle::amounts_by_code(cost), k, effects);
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

    /// The first conversion (the board's, then each active grant's in income order) whose
    /// multiple is what was written: the multiple and the gain of one use, borrowed from
    /// content through `h`.
    fn find_conversion<'h>(
        &self,
        h: &'h Handles,
        seat: usize,
        cost: &[Amount],
        gain: &[Amount],
        phase: Phase,
    ) -> Option<(i32, &'h [Effect])> {
        // Read where they are written: a bundle is built only for the cost paid.
        let cost_w = Written::of(cost);
        let gain_w = Written::of(gain);
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
        found
    }

    /// Pays a conversion's cost, then gains its gain `k` times.
    fn pay_and_gain(
        &mut self,
        seat: usize,
        cost: SmallVec<[(&str, i32); 8]>,
        k: i32,
        effects: &[Effect],
    ) -> Result<(), MoveError> {
        self.pay_amounts(seat, cost)?;
        for _ in 0..k {
            self.apply_effects(seat, effects, "other")?;
        }
        Ok(())
    }

    /// Applies a free action of a turn (a conversion or a burn) when every check it could
    /// fail has passed first, without changing anything: a game without hooks, a turn (open
    /// or next) with no question open, not passed and no action unfinished (unless free
    /// actions may interrupt one), and then a burn the seat's power allows, or a conversion
    /// found with one code to pay, which the seat can pay, and only resources to gain. Nothing
    /// after its first change can then refuse it, so [`Game::apply_part`] keeps no undo copy
    /// for it. `None`, with nothing changed, for any other part: it is applied in a
    /// transaction, which gives the refusal. Its changes are those of [`Game::part`].
    pub(super) fn free_action_checked_first(
        &mut self,
        part: &Command,
    ) -> Option<Result<(), MoveError>> {
        if !matches!(part, Command::Spend { .. } | Command::Burn(_)) || self.hooked {
            return None;
        }
        let seat = self.free_action_seat()?;
        let r = match part {
            Command::Burn(n) => {
                let mut power = self.state.players[seat].power;
                power.burn(*n, self.burn_to_gaia(seat)).ok()?;
                self.open_turn();
                self.state.players[seat].power = power;
                Ok(())
            }
            Command::Spend { cost, gain } => {
                let h = self.handles();
                h.board(seat)?;
                let (k, effects) = self.find_conversion(&h, seat, cost, gain, Phase::Actions)?;
                let pay = bundle::amounts_by_code(cost);
                let &[(code, n)] = &pay[..] else {
                    return None;
                };
                if !effects.iter().all(|e| matches!(e, Effect::Gain(_))) {
                    return None;
                }
                let code = PayCode::of(&self.content, code);
                // The area-III token value matters only to power paid.
                let value = match code {
                    PayCode::Power => self.token_value(seat),
                    _ => 1,
                };
                let power = self.state.players[seat].power;
                if !self.can_pay_coded(seat, power, &[], [(code, n)], value) {
                    return None;
                }
                self.open_turn();
                self.pay_and_gain(seat, pay, k, effects)
            }
            _ => return None,
        };
        Some(r.map(|()| self.after_turn_step()))
    }

    /// The seat whose turn a free action would be part of, when [`Game::turn_step`] would
    /// take one now: a turn open or next, with no question open, not passed, and no action
    /// unfinished unless free actions may interrupt one.
    fn free_action_seat(&self) -> Option<usize> {
        if self.state.question.is_some() {
            return None;
        }
        match &self.state.open {
            // Opening a turn starts its progress afresh.
            None => match self.state.queue.front() {
                Some(Decision::Turn(s)) => Some(*s),
                _ => None,
            },
            Some(Decision::Turn(s)) => {
                let t = &self.state.turn;
                let free =
                    t.follows.is_empty() || self.content.rules.options.free_actions_within_actions;
                (!t.passed && free).then_some(*s)
            }
            Some(_) => None,
        }
    }

    /// Opens the decision at the head of the queue when none is open, as [`Game::part`] does.
    fn open_turn(&mut self) {
        if self.state.open.is_none() {
            if let Some(d) = self.take_decision() {
                self.open_decision(&d);
            }
        }
    }
}
