//! A record replayed part by part: every state where a recorded part is chosen, with the part.
//! Tests of move listing and the speed benches read records this way.

use std::sync::Arc;

use crate::content::Content;
use crate::game::{Game, LineStop};
use crate::notation::{parse_line, Command, MoveLine};

use super::Record;

/// Where a recorded part was chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct PartAt<'r> {
    /// The index of the line among the record's moves.
    pub index: usize,
    /// The line as recorded.
    pub line: &'r str,
    /// The part: one of the line's parts, or an end of a decision the line implies.
    pub part: &'r Command,
}

/// Why a walk over a record's parts stopped before its end.
#[derive(Debug, Clone, PartialEq)]
pub enum WalkStop<E> {
    /// The record's setup cannot start a game.
    Setup(String),
    /// A line does not parse.
    Unparsable {
        /// The index of the line among the record's moves.
        index: usize,
        /// Why.
        error: String,
    },
    /// The game refused a recorded part.
    Refused {
        /// The index of the line among the record's moves.
        index: usize,
        /// The part refused.
        part: Command,
        /// Why.
        error: String,
    },
    /// The visitor asked to stop.
    Visitor(E),
}

impl<E: std::fmt::Display> std::fmt::Display for WalkStop<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WalkStop::Setup(e) => write!(f, "setup: {e}"),
            WalkStop::Unparsable { index, error } => write!(f, "move {index}: {error}"),
            WalkStop::Refused { index, part, error } => {
                write!(f, "move {index}: `{part}` refused: {error}")
            }
            WalkStop::Visitor(e) => write!(f, "{e}"),
        }
    }
}

impl Record {
    /// Replays the record from its setup one part at a time, each line as playing it applies
    /// it: its parts in order, with the ends of decisions the line implies (before a part
    /// that follows a finished decision, and at the line's end when it leaves one open).
    /// `visit` sees the state before each part and where the part comes from; an error from
    /// it stops the walk. Lines other than turns are skipped. Returns the game after the last
    /// line.
    ///
    /// # Errors
    ///
    /// [`WalkStop`]: the setup fails, a line does not parse, the game refuses a part, or
    /// `visit` stopped the walk.
    pub fn walk_parts<E>(
        &self,
        content: &Arc<Content>,
        mut visit: impl FnMut(&Game, &PartAt<'_>) -> Result<(), E>,
    ) -> Result<Game, WalkStop<E>> {
        let setup = self.game_setup(content).map_err(WalkStop::Setup)?;
        let mut game =
            Game::new(content.clone(), setup).map_err(|e| WalkStop::Setup(e.to_string()))?;
        for (index, line) in self.moves.iter().enumerate().skip(1) {
            let parsed = match parse_line(line) {
                Ok(parsed @ MoveLine::Turn { .. }) => parsed,
                Ok(_) => continue,
                Err(e) => {
                    return Err(WalkStop::Unparsable {
                        index,
                        error: e.to_string(),
                    })
                }
            };
            game.apply_line_visiting(&parsed, |game, part| {
                visit(game, &PartAt { index, line, part })
            })
            .map_err(|stop| match stop {
                LineStop::Refused { part, error, .. } => WalkStop::Refused {
                    index,
                    part: *part,
                    error: error.to_string(),
                },
                LineStop::Visitor(e) => WalkStop::Visitor(e),
            })?;
        }
        Ok(game)
    }
}
