//! Charges: the offers a turn's buildings make to neighbours, and a neighbour's decision to
//! accept (charging power for VP) or decline.

use super::happened::Happened;
use super::{err, Decision, Game, MoveError};
use crate::content::{Effect, Modifier};
use crate::notation::Command;
use crate::player::VP;

impl Game {
    /// Queues charge offers for the spaces built this turn: the most recent building first,
    /// then players in seat order after the builder.
    pub(super) fn offer_charges(&mut self, seat: usize) {
        let n = self.state.players.len();
        let dist = self.content.rules.charge_distance;
        // Held inline: a turn's offers (a few seats for each space built) allocate nothing.
        let mut offers: smallvec::SmallVec<[Decision; 6]> = smallvec::SmallVec::new();
        for &idx in self.state.turn.leech.iter().rev() {
            let hex = self.state.map.spaces[idx].hex;
            for k in 1..n {
                let other = (seat + k) % n;
                // The seat's modifiers are gathered once, and only when it has a building in
                // reach; its structures are read in place.
                let mut mods = None;
                let mut value = 0;
                for (i, list) in self.state.structures.iter() {
                    for s in list.iter().filter(|s| s.seat == other) {
                        if self.is_station(other, &s.building)
                            || self.state.map.spaces[*i].hex.distance(hex) > dist
                        {
                            continue;
                        }
                        let mods = mods.get_or_insert_with(|| self.modifiers(other));
                        value = value.max(self.power_value_with(other, *i, &s.building, mods));
                    }
                }
                let tokens = || self.charge_gains_tokens(other);
                if value > 0 && (self.state.players[other].power.chargeable() > 0 || tokens()) {
                    offers.push(Decision::Leech {
                        seat: other,
                        value,
                        from: Some(super::ChargeFrom { seat, space: idx }),
                    });
                }
            }
        }
        for d in offers.into_iter().rev() {
            self.state.queue.push_front(d);
        }
    }

    /// The charge actually offered: limited by what the bowls can take and by VP.
    pub(crate) fn offer_amount(&self, seat: usize, value: u32) -> u32 {
        let p = &self.state.players[seat];
        let vp = p.resource(&self.content, VP).max(0) as u32;
        value.min(p.power.chargeable()).min(vp + 1)
    }

    /// A part of a charge decision: `charge …`, `decline …`, or an answer.
    pub(super) fn charge_part(
        &mut self,
        seat: usize,
        value: u32,
        from: Option<super::ChargeFrom>,
        part: &Command,
    ) -> Result<(), MoveError> {
        let decided = self.state.turn.decided;
        match part {
            Command::Charge(items) if !decided => {
                let (pw, tokens) = charge_counts(items);
                let allowed = self.charge_tokens(seat);
                let mut amount = self.offer_amount(seat, value);
                if tokens != 0 && tokens != allowed {
                    return err(if allowed == 0 {
                        "no power tokens come with this charge".to_string()
                    } else {
                        format!("this charge comes with {allowed}t")
                    });
                }
                if allowed > 0 && tokens == 0 {
                    return err(format!(
                        "this charge comes with {allowed}t (`charge {amount}pw,{allowed}t`)"
                    ));
                }
                let token_first = items.first().is_some_and(|a| a.code == "t");
                if token_first {
                    self.state.players[seat].power.gain_tokens(tokens);
                    amount = self.offer_amount(seat, value);
                }
                if pw != amount {
                    return err(format!("the offer is {amount}pw, not {pw}pw"));
                }
                self.charge_power(seat, amount);
                if !token_first {
                    // An open question adds these tokens to its answer.
                    self.state.players[seat].power.gain_tokens(tokens);
                }
                self.gain_code(seat, VP, -(amount.saturating_sub(1) as i32), "leech");
                self.fire(seat, &Happened::ChargeAccepted { amount, from })?;
                self.state.turn.decided = true;
                Ok(())
            }
            Command::Decline(_) if !decided => {
                self.state.turn.decided = true;
                Ok(())
            }
            Command::Other { verb, args } if self.try_answer(seat, verb, args)? => Ok(()),
            other => err(format!("`{other}` is not an answer to a charge offer")),
        }
    }

    /// Whether a part answering a charge offer (the open decision, or the next) cannot be
    /// refused once it starts, checked without changing anything, in a game without hooks or
    /// triggers watching other seats: a decline, or a charge of exactly the amount offered
    /// with no power tokens to come with it, whose own triggers only gain.
    /// [`Game::apply_part`] keeps no undo copy for it.
    pub(super) fn charge_checked_first(&self, part: &Command) -> bool {
        if self.hooked || !matches!(part, Command::Charge(_) | Command::Decline(_)) {
            return false;
        }
        // Opening the offer starts its progress afresh: nothing is decided yet.
        let (seat, value, from, decided) = match (&self.state.open, self.state.queue.front()) {
            (Some(Decision::Leech { seat, value, from }), _) => {
                (*seat, *value, *from, self.state.turn.decided)
            }
            (None, Some(Decision::Leech { seat, value, from })) => (*seat, *value, *from, false),
            _ => return false,
        };
        if decided {
            return false;
        }
        let Command::Charge(items) = part else {
            return true;
        };
        let (pw, tokens) = charge_counts(items);
        let amount = self.offer_amount(seat, value);
        if tokens != 0 || pw != amount || self.watching || self.charge_tokens(seat) != 0 {
            return false;
        }
        let h = self.handles();
        let what = Happened::ChargeAccepted { amount, from };
        let due = self.due_triggers(&h, seat, seat, &what);
        due.iter()
            .all(|(_, effects)| effects.iter().all(|e| matches!(e, Effect::Gain(_))))
    }

    /// Power tokens a seat gains with an accepted charge.
    pub(crate) fn charge_tokens(&self, seat: usize) -> u32 {
        if !self.may_have(seat).charge_gains_tokens {
            return 0;
        }
        self.modifier(seat, |m| match m {
            Modifier::ChargeGainsTokens(n) => Some(*n),
            _ => None,
        })
        .unwrap_or(0)
    }

    /// Ends a charge decision.
    pub(super) fn end_charge(&mut self, seat: usize, value: u32) -> Result<(), MoveError> {
        if !self.state.turn.decided {
            let amount = self.offer_amount(seat, value);
            return err(format!("charge or decline the offer of {amount}pw"));
        }
        self.require_no_question()
    }
}

/// The power (`pw`) and power tokens (`t`) a `charge` part writes, each summed.
fn charge_counts(items: &[crate::notation::Amount]) -> (u32, u32) {
    items
        .iter()
        .fold((0u32, 0u32), |(pw, t), a| match a.code.as_str() {
            "pw" => (pw.saturating_add(a.count), t),
            "t" => (pw, t.saturating_add(a.count)),
            _ => (pw, t),
        })
}
