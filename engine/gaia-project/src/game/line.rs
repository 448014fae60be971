//! A move line applied part by part: its parts in order, with the ends of decisions the line
//! implies (after a decision that can take nothing more, and at the line's end). Playing a
//! line and walking a record part by part both go through [`Game::apply_line_visiting`], so
//! a record is walked exactly as it is replayed.

use std::convert::Infallible;

use super::{Decision, Game, MoveError};
use crate::notation::{Actor, Command, MoveLine};

/// Why a move line applied part by part ([`Game::apply_line_visiting`]) stopped.
#[derive(Debug, Clone, PartialEq)]
pub enum LineStop<E> {
    /// The game refused the line or one of its parts.
    Refused {
        /// The part refused: one of the line's own, or an end of a decision the line implies
        /// (its first part when the line is refused as a whole, for its actor).
        part: Box<Command>,
        /// The part's place among the line's parts when the game refused that part itself.
        at: Option<usize>,
        /// Why.
        error: MoveError,
    },
    /// The visitor asked to stop.
    Visitor(E),
}

impl Game {
    /// Applies one parsed move line with no undo copy (see [`Game::apply`]).
    pub(super) fn apply_line(&mut self, line: &MoveLine) -> Result<(), MoveError> {
        self.apply_line_visiting(line, |_, _| Ok::<(), Infallible>(()))
            .map_err(|stop| match stop {
                LineStop::Refused {
                    part,
                    at: Some(i),
                    error,
                } if *part != Command::EndTurn => {
                    MoveError(format!("part {} \"{part}\": {}", i + 1, error.0))
                }
                LineStop::Refused { error, .. } => error,
                LineStop::Visitor(never) => match never {},
            })
    }

    /// Applies one parsed move line part by part, calling `visit` with the state before each
    /// part applied: the line's own parts, an end of the decision before a part that follows
    /// a decision that can take nothing more (what follows belongs to the next decision,
    /// which must be the same seat's answer about its special token), and the end of the
    /// decision the line leaves open. No undo copy is taken: on error the game may be left
    /// part-way through the line.
    pub(crate) fn apply_line_visiting<E>(
        &mut self,
        line: &MoveLine,
        mut visit: impl FnMut(&Game, &Command) -> Result<(), E>,
    ) -> Result<(), LineStop<E>> {
        let refused = |part: &Command, at: Option<usize>, error: MoveError| LineStop::Refused {
            part: Box::new(part.clone()),
            at,
            error,
        };
        let (actor, parts) = match line {
            MoveLine::Init { .. } => {
                return Err(refused(
                    &Command::EndTurn,
                    None,
                    MoveError("the game is already set up".into()),
                ))
            }
            MoveLine::Turn { actor, parts } => (actor, parts),
        };
        let first = parts.first().unwrap_or(&Command::EndTurn);
        let Some(seat) = self.deciding_seat() else {
            return Err(refused(first, None, MoveError("the game is over".into())));
        };
        let ok_actor = match actor {
            // `pN` names seat N before and after it has chosen its faction.
            Actor::Seat(n) => usize::from(*n) == seat + 1,
            Actor::Faction(f) => *f == self.state.players[seat].faction,
        };
        if !ok_actor {
            let why = format!("it is {}'s turn to decide", self.seat_name(seat));
            return Err(refused(first, None, MoveError(why)));
        }
        let mut step = |g: &mut Game, part: &Command, at: Option<usize>| {
            visit(g, part).map_err(LineStop::Visitor)?;
            g.part(part).map_err(|e| refused(part, at, e))
        };
        let mut closed = false;
        for (i, part) in parts.iter().enumerate() {
            if !closed && *part != Command::EndTurn && self.decision_done() {
                step(self, &Command::EndTurn, None)?;
                closed = true;
            }
            if closed {
                // A question about the seat's special token that the automatic steps after
                // the decision opened (income after the round's last pass, a second charge of
                // the same income) is answered within the same line.
                let answer =
                    matches!(self.state.queue.front(), Some(Decision::Answer(s)) if *s == seat);
                if !answer || *part == Command::EndTurn {
                    let why = format!("part {} \"{part}\" comes after the end of the turn", i + 1);
                    return Err(refused(part, None, MoveError(why)));
                }
            }
            step(self, part, Some(i))?;
            closed = self.state.open.is_none();
        }
        if !closed {
            step(self, &Command::EndTurn, None)?;
        }
        Ok(())
    }
}
