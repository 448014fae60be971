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
    /// Plays as [`RandomBot::step`] does, listing into one buffer for the whole game. A
    /// refused part ends the game with the error, the game left part-way through it
    /// ([`Playable::play_unguarded`]: no undo copy is taken for each part).
    pub fn play_out<G: Playable>(
        &mut self,
        game: &mut G,
        max_parts: usize,
    ) -> Result<usize, PlayError> {
        let mut legal = Vec::new();
        for n in 0..max_parts {
            if game.is_over() {
                return Ok(n);
            }
            game.legal_into(&mut legal);
            let Some(i) = self.pick(game, &legal) else {
                return Err(PlayError::Stuck(game.decisions_done()).with_problems_of(game));
            };
            game.play_unguarded(&legal[i]).map_err(|reason| {
                PlayError::Refused {
                    part: legal[i].to_string(),
                    reason,
                }
                .with_problems_of(game)
            })?;
        }
        if game.is_over() {
            Ok(max_parts)
        } else {
            Err(PlayError::TooLong(max_parts))
        }
    }

    /// The index in `legal` of the action chosen: uniform among the actions allowed (free
    /// ones only while the cap allows, or when nothing else is legal).
    fn pick<G: Playable>(&mut self, game: &G, legal: &[G::Action]) -> Option<usize> {
        let capped = !self.cap.allows(game);
        let allowed = |a: &G::Action| !(capped && game.is_free(a));
        let mut count = legal.iter().filter(|a| allowed(a)).count();
        let all = count == 0;
        if all {
            count = legal.len();
        }
        if count == 0 {
            return None;
        }
        let nth = self.rng.below(count);
        let i = match all {
            true => nth,
            false => {
                legal
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| allowed(a))
                    .nth(nth)?
                    .0
            }
        };
        self.cap.note(game, &legal[i]);
        Some(i)
    }
}

impl<G: Playable> Bot<G> for RandomBot {
    fn choose(&mut self, game: &G, legal: &[G::Action]) -> Option<G::Action> {
        self.pick(game, legal).map(|i| legal[i].clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::Stones;

    #[test]
    fn playing_out_plays_as_step_by_step() {
        for seed in 0..40 {
            let mut stepped = Stones::new(12 + (seed % 9) as u8);
            let mut bot = RandomBot::new(seed, 2);
            let mut parts = Vec::new();
            while let Some(a) = bot.step(&mut stepped).expect("plays") {
                parts.push(a);
            }
            let mut played = Stones::new(12 + (seed % 9) as u8);
            let n = RandomBot::new(seed, 2)
                .play_out(&mut played, 10_000)
                .expect("ends");
            assert_eq!(n, parts.len(), "seed {seed}");
            assert_eq!(played, stepped, "seed {seed}");
            assert!(played.is_over());
        }
    }

    #[test]
    fn playing_out_stops_at_the_most_parts_given() {
        let mut g = Stones::new(30);
        let err = RandomBot::new(1, 2).play_out(&mut g, 3);
        assert!(matches!(err, Err(PlayError::TooLong(3))), "{err:?}");
    }
}
