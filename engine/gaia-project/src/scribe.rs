//! Gaia Project's log lines, written as the recording platform writes them, so that the
//! logs of a study replay in Orrery and on the platform alike.

use orrery_core::game_module::Scribe;

use crate::game::{Decision, Game, Stage};
use crate::notation::{Actor, Command, MoveLine};

/// Gathers parts into move lines, written as the recording platform writes them:
///
/// * `endturn` closes only a turn that took an action (not a pass); every other decision (a
///   faction, a booster, income, a charge, the Gaia phase, a pass) ends with its line, and the
///   platform refuses an `endturn` there;
/// * the platform takes a seat's income and its Gaia phase whole, questions about the special
///   token included, and a charge with the question it opens: the decisions one seat takes in a
///   row there (income, Gaia phase, an answer after either or after a charge) share one line.
#[derive(Default)]
pub struct LineWriter {
    actor: Option<Actor>,
    parts: Vec<Command>,
    /// The line written last, while a decision of the same seat may still continue it.
    last: Option<WrittenLine>,
}

/// A line as written, kept so that the next decision can continue it.
struct WrittenLine {
    actor: Actor,
    parts: Vec<Command>,
    seat: usize,
    stage: Stage,
    decision: Decision,
}

/// Whether the decision open in `game` is closed by a written `endturn` (see [`LineWriter`]).
fn ends_with_endturn(game: &Game) -> bool {
    matches!(game.state.open, Some(Decision::Turn(_))) && !game.state.turn.passed
}

/// Whether `next`, taken by the seat of `last` in the same stage, goes on in `last`'s line.
fn continues(last: &WrittenLine, seat: usize, stage: Stage, next: &Decision) -> bool {
    let before = matches!(
        last.decision,
        Decision::Income(_) | Decision::Gaia(_) | Decision::Leech { .. } | Decision::Answer(_)
    );
    let same_kind = std::mem::discriminant(&last.decision) == std::mem::discriminant(next);
    let goes_on = matches!(next, Decision::Answer(_))
        || (same_kind && matches!(next, Decision::Income(_) | Decision::Gaia(_)));
    last.seat == seat
        && last.stage == stage
        && before
        && goes_on
        && last.parts.last() != Some(&Command::EndTurn)
}

impl LineWriter {
    /// Notes a part about to be played in `game`.
    pub fn write(&mut self, game: &Game, part: &Command, lines: &mut Vec<String>) {
        if self.actor.is_none() {
            let Some(seat) = game.deciding_seat() else {
                return;
            };
            let Some(decision) = game.state.open.as_ref().or(game.state.queue.front()) else {
                return;
            };
            let stage = game.state.stage;
            // A continued line keeps the decision it began with (income goes on after an
            // answer in the middle of it).
            let mut begun = decision.clone();
            match self.last.take() {
                Some(last) if continues(&last, seat, stage, decision) && lines.pop().is_some() => {
                    self.actor = Some(last.actor);
                    self.parts = last.parts;
                    begun = last.decision;
                }
                _ => {
                    let f = &game.state.players[seat].faction;
                    self.actor = Some(if f.is_empty() {
                        Actor::Seat(u8::try_from(seat + 1).unwrap_or(u8::MAX))
                    } else {
                        Actor::Faction(f.clone())
                    });
                }
            }
            self.last = Some(WrittenLine {
                actor: Actor::Seat(0),
                parts: Vec::new(),
                seat,
                stage,
                decision: begun,
            });
        }
        if *part != Command::EndTurn {
            self.parts.push(part.clone());
            return;
        }
        // A decision made of its end alone keeps it, so that the line says something.
        if ends_with_endturn(game) || self.parts.is_empty() {
            self.parts.push(Command::EndTurn);
        }
        if let Some(actor) = self.actor.take() {
            let parts = std::mem::take(&mut self.parts);
            let line = MoveLine::Turn {
                actor: actor.clone(),
                parts: parts.clone(),
            };
            lines.push(line.to_string());
            if let Some(last) = &mut self.last {
                last.actor = actor;
                last.parts = parts;
            }
        }
    }
}

impl Scribe<Game> for LineWriter {
    fn note(&mut self, game: &Game, part: &Command, lines: &mut Vec<String>) {
        self.write(game, part, lines);
    }
}
