//! A faction's special power token (content: `special_token`): where it goes when a charge,
//! a payment or a token move could treat it in more than one way. When the ways differ, the
//! player answers with the token's verb and an area (`<verb> area2`, `<verb> gaia`, …).

use super::question::Question;
use super::{err, Decision, Game, MoveError};
use crate::power::{Area, Power};

/// `answer` with what changed from `base` to `now` applied to its normal tokens; `None` when
/// that would take more tokens from an area than the answer leaves there.
fn rebase(answer: Power, base: Power, now: Power) -> Option<Power> {
    let mut out = answer;
    for i in 0..4 {
        let n = i64::from(answer.areas[i]) + i64::from(now.areas[i]) - i64::from(base.areas[i]);
        out.areas[i] = u32::try_from(n).ok()?;
    }
    Some(out)
}

/// How an area is named in answers.
pub fn area_word(area: Option<Area>) -> &'static str {
    match area {
        Some(Area::I) => "area1",
        Some(Area::II) => "area2",
        Some(Area::III) => "area3",
        Some(Area::Gaia) => "gaia",
        None => "discard",
    }
}

impl Game {
    /// Opens a question (nothing moves until it is answered); a single distinct outcome needs
    /// no question.
    fn ask(&mut self, seat: usize, mut options: Vec<(String, Power)>, always: bool) {
        options.dedup_by(|a, b| a.0 == b.0);
        if options.len() > 1 || (always && !options.is_empty()) {
            // Nothing moves until the answer.
            let base = Some(self.state.players[seat].power);
            self.state.question = Some(Box::new(Question {
                seat,
                options,
                base,
            }));
        } else if let Some((_, only)) = options.first() {
            self.state.players[seat].power = *only;
        }
    }

    /// Charges power, asking where the special token ends when that is open.
    pub(crate) fn charge_power(&mut self, seat: usize, n: u32) {
        let p = self.state.players[seat].power;
        match p.special_area() {
            Some(Area::I) | Some(Area::II) if n > 0 => {
                let mut eager = p;
                eager.charge_eager(n);
                let mut lazy = p;
                lazy.charge_lazy(n);
                if eager.special_area() == lazy.special_area() {
                    // One outcome, named once: no question, and no list of answers made.
                    self.state.players[seat].power = eager;
                    return;
                }
                self.ask(
                    seat,
                    vec![
                        (area_word(eager.special_area()).to_string(), eager),
                        (area_word(lazy.special_area()).to_string(), lazy),
                    ],
                    false,
                );
            }
            _ => {
                self.state.players[seat].power.charge(n, false);
            }
        }
    }

    /// Spends power from area III, with the special token when it is there.
    pub(crate) fn spend_power(&mut self, seat: usize, n: u32, value: u32) -> Result<(), MoveError> {
        let p = self.state.players[seat].power;
        if !p.special_in(Area::III) || n == 0 {
            let mut q = p;
            q.spend(n, value, false)
                .map_err(|e| MoveError(e.to_string()))?;
            self.state.players[seat].power = q;
            return Ok(());
        }
        let special_value = p.special.map_or(0, |s| s.value);
        let need = p.areas[Area::III.index()] * value.max(1) < n;
        let small = n < special_value;
        let mut with = p;
        with.spend(n, value, true)
            .map_err(|e| MoveError(e.to_string()))?;
        let mut without = p;
        let can_without = without.spend(n, value, false).is_ok();
        match (need, small) {
            (true, false) => self.state.players[seat].power = with,
            (true, true) => self.ask(seat, vec![("area1".into(), with)], true),
            (false, true) => self.state.players[seat].power = without,
            (false, false) => {
                let mut options = vec![("area1".to_string(), with)];
                if can_without {
                    options.insert(0, ("area3".to_string(), without));
                }
                self.ask(seat, options, false);
            }
        }
        Ok(())
    }

    /// Moves `n` tokens from areas I–III to the Gaia area (or discards them), asking whether
    /// the special token is one of them when that is open.
    pub(crate) fn move_tokens(
        &mut self,
        seat: usize,
        n: u32,
        to_gaia: bool,
    ) -> Result<(), MoveError> {
        let p = self.state.players[seat].power;
        let Some(area) = p.special_area().filter(|a| *a != Area::Gaia) else {
            let mut q = p;
            q.remove_tokens(n, to_gaia)
                .map_err(|e| MoveError(e.to_string()))?;
            self.state.players[seat].power = q;
            return Ok(());
        };
        let normal: u32 = p.areas[..3].iter().sum();
        let mut with = p;
        let with_ok = with.remove_with_special(n, to_gaia, true).is_ok();
        let mut without = p;
        let without_ok = n <= normal && without.remove_with_special(n, to_gaia, false).is_ok();
        if !with_ok && !without_ok {
            return err(format!(
                "not enough power tokens: need {n}, have {}",
                normal + 1
            ));
        }
        if n == normal + 1 {
            self.state.players[seat].power = with;
            return Ok(());
        }
        let below: u32 = (0..=area.index()).map(|i| p.areas[i]).sum();
        let keep = (area_word(Some(area)).to_string(), without);
        let lose = (if to_gaia { "gaia" } else { "discard" }.to_string(), with);
        if !to_gaia && below >= n {
            self.state.players[seat].power = without;
            return Ok(());
        }
        let options = match (without_ok, with_ok) {
            (true, true) => vec![keep, lose],
            (true, false) => vec![keep],
            _ => vec![lose],
        };
        self.ask(seat, options, true);
        Ok(())
    }

    /// Applies an answer part (`<verb> <area>`), if it is one. Returns whether it was.
    pub(crate) fn try_answer(
        &mut self,
        seat: usize,
        verb: &str,
        args: &[crate::notation::Word],
    ) -> Result<bool, MoveError> {
        let token = self
            .faction(seat)
            .special_token
            .as_ref()
            .map(|t| t.id.clone());
        if token.as_deref() != Some(verb) {
            return Ok(false);
        }
        let Some(q) = self.state.question.take() else {
            return err(format!("no question about the {verb} is open"));
        };
        let word = args.first().map(|w| w.as_str()).unwrap_or_default();
        match q.options.iter().find(|(w, _)| w == word) {
            Some((_, power)) if q.seat == seat => {
                let now = self.state.players[seat].power;
                let to = match q.base {
                    Some(base) => rebase(*power, base, now)
                        .ok_or_else(|| MoveError(format!("{verb} {word} is no longer possible")))?,
                    None => *power,
                };
                self.state.players[seat].power = to;
                Ok(true)
            }
            _ => {
                let words: Vec<&str> = q.options.iter().map(|(w, _)| w.as_str()).collect();
                err(format!("answer {verb} with one of {}", words.join(", ")))
            }
        }
    }

    /// A pending question must be answered by the next part of the line.
    pub(crate) fn require_no_question(&self) -> Result<(), MoveError> {
        match &self.state.question {
            Some(q) => {
                let words: Vec<&str> = q.options.iter().map(|(w, _)| w.as_str()).collect();
                let verb = self
                    .faction(q.seat)
                    .special_token
                    .as_ref()
                    .map_or("special", |t| t.id.as_str());
                err(format!("expected `{verb} {}`", words.join("|")))
            }
            None => Ok(()),
        }
    }

    /// A part of a standalone answer decision.
    pub(super) fn answer_part(
        &mut self,
        seat: usize,
        part: &crate::notation::Command,
    ) -> Result<(), MoveError> {
        match part {
            crate::notation::Command::Other { verb, args } if !self.state.turn.decided => {
                if !self.try_answer(seat, verb, args)? {
                    return err(format!("`{verb}` is not an answer"));
                }
                self.state.turn.decided = true;
                Ok(())
            }
            other => err(format!("`{other}` is not an answer")),
        }
    }

    /// Queues a standalone answer when a question is still open after a line.
    pub(crate) fn queue_open_question(&mut self) {
        if let Some(q) = &self.state.question {
            let d = Decision::Answer(q.seat);
            if self.state.queue.front() != Some(&d) {
                self.state.queue.push_front(d);
            }
        }
    }
}
