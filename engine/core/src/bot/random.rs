//! A random player: it picks uniformly among the legal next actions, except that after a
//! bounded number of free actions in one decision it stops converting, so games do not turn
//! into endless conversion chains.

use super::{Bot, FreeCap, PlayError};
use crate::play_api::Playable;
use crate::rng::Rng;

/// A seeded random player.
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: Rng,
    cap: FreeCap,
}

impl RandomBot {
    /// A bot with a seed and the most free actions it takes in one decision.
    pub fn new(seed: u64, max_free_actions: u32) -> RandomBot {
        RandomBot {
            rng: Rng::new(seed),
            cap: FreeCap::new(max_free_actions),
        }
    }

    /// Plays one part for whoever decides and returns it; `Ok(None)` once the game is over.
    pub fn step<G: Playable>(&mut self, game: &mut G) -> Result<Option<G::Action>, PlayError> {
        super::step(self, game)
    }

    /// Plays until the game is over, at most `max_parts` parts; returns the parts played.
    pub fn play_out<G: Playable>(
        &mut self,
        game: &mut G,
        max_parts: usize,
    ) -> Result<usize, PlayError> {
        for n in 0..max_parts {
            if self.step(game)?.is_none() {
                return Ok(n);
            }
        }
        if game.is_over() {
            Ok(max_parts)
        } else {
            Err(PlayError::TooLong(max_parts))
        }
    }
}

impl<G: Playable> Bot<G> for RandomBot {
    fn choose(&mut self, game: &G, legal: &[G::Action]) -> Option<G::Action> {
        let capped = !self.cap.allows(game);
        let pool: Vec<&G::Action> = legal
            .iter()
            .filter(|a| !(capped && game.is_free(a)))
            .collect();
        let pool = if pool.is_empty() {
            legal.iter().collect()
        } else {
            pool
        };
        if pool.is_empty() {
            return None;
        }
        let pick = pool[self.rng.below(pool.len())].clone();
        self.cap.note(game, &pick);
        Some(pick)
    }
}
