//! A greedy player: it tries every legal action on a copy of the game and keeps the one after
//! which the heuristic value of its seat is highest (ties broken by its seeded generator).

use super::{sample_seed, Bot, FreeCap, MAX_FREE};
use crate::play_api::Evaluate;
use crate::rng::Rng;

/// A seeded one-step-lookahead player.
#[derive(Debug, Clone)]
pub struct GreedyBot {
    seed: u64,
    rng: Rng,
    cap: FreeCap,
}

impl GreedyBot {
    /// A greedy bot with a seed (for breaking ties).
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            seed,
            rng: Rng::new(seed),
            cap: FreeCap::new(MAX_FREE),
        }
    }
}

/// The index of the best of `legal` for the deciding seat by one step of lookahead, skipping
/// free actions unless `free` (or unless nothing else is legal); ties go to `rng`. Adds the
/// number of actions tried to `spent`. Positions are valued by `value` (game, seat).
pub(crate) fn best_index<G: Evaluate>(
    game: &G,
    legal: &[G::Action],
    free: bool,
    rng: &mut Rng,
    spent: &mut u64,
    value: &impl Fn(&G, usize) -> f64,
) -> Option<usize> {
    let seat = game.to_decide()?;
    if legal.len() == 1 {
        return Some(0);
    }
    let any_paid = legal.iter().any(|a| !game.is_free(a));
    let mut best = f64::NEG_INFINITY;
    let mut ties: Vec<usize> = Vec::new();
    for (i, a) in legal.iter().enumerate() {
        if !free && any_paid && game.is_free(a) {
            continue;
        }
        *spent += 1;
        let Ok(g) = game.clone().played(a) else {
            continue;
        };
        let v = value(&g, seat);
        if v > best + 1e-9 {
            best = v;
            ties.clear();
            ties.push(i);
        } else if v > best - 1e-9 {
            ties.push(i);
        }
    }
    match ties.len() {
        0 => None,
        1 => Some(ties[0]),
        n => Some(ties[rng.below(n)]),
    }
}

impl<G: Evaluate> Bot<G> for GreedyBot {
    fn choose(&mut self, game: &G, legal: &[G::Action]) -> Option<G::Action> {
        let free = self.cap.allows(game);
        let mut spent = 0;
        let seen = game.for_seat(game.to_decide()?, sample_seed(self.seed, game));
        let pick = legal[best_index(
            &seen,
            legal,
            free,
            &mut self.rng,
            &mut spent,
            &|g: &G, s| g.value(s),
        )?]
        .clone();
        self.cap.note(game, &pick);
        Some(pick)
    }
}
