//! A random player: it picks uniformly among the legal next parts, except that after a bounded
//! number of free actions in one decision it stops converting, so games do not turn into
//! endless conversion chains. Used by the random-play tests and `orrery play`.

use crate::game::Game;
use crate::notation::Command;
use crate::rng::Rng;

/// A seeded random player.
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: Rng,
    max_free: u32,
    /// Decisions completed when the free actions were last counted.
    decision: usize,
    free_used: u32,
}

/// Why a game could not go on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// Nothing is legal although the game is not over.
    #[error("no legal part at decision {0}")]
    Stuck(usize),
    /// A listed part was refused.
    #[error("listed part `{part}` was refused: {reason}")]
    Refused {
        /// The part.
        part: String,
        /// The engine's reason.
        reason: String,
    },
    /// The part limit was reached before the end.
    #[error("no end after {0} parts")]
    TooLong(usize),
}

fn is_free(c: &Command) -> bool {
    matches!(c, Command::Spend { .. } | Command::Burn(_))
}

impl RandomBot {
    /// A bot with a seed and the most free actions it takes in one decision.
    pub fn new(seed: u64, max_free_actions: u32) -> RandomBot {
        RandomBot {
            rng: Rng::new(seed),
            max_free: max_free_actions,
            decision: usize::MAX,
            free_used: 0,
        }
    }

    /// Chooses among `parts`, the legal next parts of `game` (`None` when there are none).
    pub fn choose(&mut self, game: &Game, parts: &[Command]) -> Option<Command> {
        if game.state.moves != self.decision || game.state.open.is_none() {
            self.decision = game.state.moves;
            self.free_used = 0;
        }
        let capped = self.free_used >= self.max_free;
        let pool: Vec<&Command> = parts.iter().filter(|c| !(capped && is_free(c))).collect();
        let pool = if pool.is_empty() {
            parts.iter().collect()
        } else {
            pool
        };
        if pool.is_empty() {
            return None;
        }
        let pick = pool[self.rng.below(pool.len())].clone();
        if is_free(&pick) {
            self.free_used += 1;
        }
        Some(pick)
    }

    /// Plays one part for whoever decides and returns it; `Ok(None)` once the game is over.
    pub fn step(&mut self, game: &mut Game) -> Result<Option<Command>, PlayError> {
        if game.finished() {
            return Ok(None);
        }
        let parts = game.legal_parts();
        let part = self
            .choose(game, &parts)
            .ok_or(PlayError::Stuck(game.state.moves))?;
        game.apply_part(&part).map_err(|e| PlayError::Refused {
            part: part.to_string(),
            reason: e.0,
        })?;
        Ok(Some(part))
    }

    /// Plays until the game is over, at most `max_parts` parts; returns the parts played.
    pub fn play_out(&mut self, game: &mut Game, max_parts: usize) -> Result<usize, PlayError> {
        for n in 0..max_parts {
            if self.step(game)?.is_none() {
                return Ok(n);
            }
        }
        if game.finished() {
            Ok(max_parts)
        } else {
            Err(PlayError::TooLong(max_parts))
        }
    }
}
