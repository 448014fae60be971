//! Exploration for training self-play: a bot that plays as another, except that each later
//! part of a decision (after its first paid part: what an action takes or where it goes) is,
//! with a given chance, chosen uniformly among the legal paid parts.
//! The wrapped bot's play stays the rule, so the positions are still those of good play, but
//! every choice a decision offers turns up in the games (a learned evaluation cannot learn
//! the worth of what its teacher never takes).

use super::Bot;
use crate::play_api::Playable;
use crate::rng::Rng;

/// The largest chance [`Exploring`] takes, in thousandths: every later part chosen at random.
pub const MAX_PER_MILLE: u32 = 1000;

/// A bot that plays as `inner` but chooses each part of a decision after its first paid part
/// at random with a chance of `per_mille` thousandths. Deterministic for its seed.
pub struct Exploring<G: Playable> {
    inner: Box<dyn Bot<G> + Send>,
    per_mille: u32,
    rng: Rng,
    /// The decision the last part was chosen in.
    decision: usize,
    /// Whether a paid part was chosen in it (the parts after that are the later ones).
    paid_chosen: bool,
}

impl<G: Playable> Exploring<G> {
    /// `inner` exploring with a chance of `per_mille` thousandths (at most
    /// [`MAX_PER_MILLE`]) at each later part of a decision.
    pub fn new(inner: Box<dyn Bot<G> + Send>, per_mille: u32, seed: u64) -> Exploring<G> {
        Exploring {
            inner,
            per_mille: per_mille.min(MAX_PER_MILLE),
            rng: Rng::new(seed),
            decision: usize::MAX,
            paid_chosen: false,
        }
    }
}

impl<G: Playable> Bot<G> for Exploring<G> {
    fn choose(&mut self, game: &G, legal: &[G::Action]) -> Option<G::Action> {
        if game.decisions_done() != self.decision {
            self.decision = game.decisions_done();
            self.paid_chosen = false;
        }
        let mut chosen = None;
        if self.paid_chosen && self.per_mille > 0 {
            let paid: Vec<&G::Action> = legal.iter().filter(|a| !game.is_free(a)).collect();
            // Drawn only where there is a choice, so a forced part leaves the draws as they
            // were.
            if paid.len() > 1 && (self.rng.below(MAX_PER_MILLE as usize) as u32) < self.per_mille {
                chosen = Some(paid[self.rng.below(paid.len())].clone());
            }
        }
        let chosen = chosen.or_else(|| self.inner.choose(game, legal))?;
        self.paid_chosen |= !game.is_free(&chosen);
        Some(chosen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::GreedyBot;
    use crate::play_api::Evaluate;

    /// A made-up game of three decisions by one seat, each of two parts: a first part (only
    /// `Go`), then one of `Low` (1 point), `High` (2 points) or a free `Look` (nothing).
    #[derive(Debug, Clone, Default)]
    struct Pick {
        parts: Vec<u8>,
        points: i32,
    }

    impl Playable for Pick {
        type Action = u8;
        fn seat_count(&self) -> usize {
            1
        }
        fn to_decide(&self) -> Option<usize> {
            (!self.is_over()).then_some(0)
        }
        fn legal(&self) -> Vec<u8> {
            if self.is_over() {
                Vec::new()
            } else if self.parts.len() % 2 == 0 {
                vec![0]
            } else {
                vec![1, 2, 9]
            }
        }
        fn play(&mut self, a: &u8) -> Result<(), String> {
            if !self.legal().contains(a) {
                return Err(format!("{a} is not legal"));
            }
            if *a != 9 {
                self.points += i32::from(*a);
                self.parts.push(*a);
            }
            Ok(())
        }
        fn is_over(&self) -> bool {
            self.parts.len() >= 6
        }
        fn score(&self) -> Vec<i32> {
            vec![self.points]
        }
        fn decisions_done(&self) -> usize {
            self.parts.len() / 2
        }
        fn is_free(&self, a: &u8) -> bool {
            *a == 9
        }
    }

    impl Evaluate for Pick {
        fn value(&self, _: usize) -> f64 {
            f64::from(self.points)
        }
    }

    fn play(per_mille: u32, seed: u64) -> Vec<u8> {
        let mut g = Pick::default();
        let mut bot = Exploring::new(Box::new(GreedyBot::new(seed)), per_mille, seed);
        while !g.is_over() {
            let legal = g.legal();
            let a = bot.choose(&g, &legal).expect("a choice");
            g.play(&a).expect("legal");
        }
        g.parts
    }

    #[test]
    fn later_parts_are_explored_at_the_chance_given() {
        // Never: the greedy choice (2) every time.
        assert_eq!(play(0, 1), vec![0, 2, 0, 2, 0, 2]);
        // Always: a random paid part, never the free one; over seeds both turn up.
        let mut seen = [false; 3];
        for seed in 0..20 {
            let parts = play(MAX_PER_MILLE, seed);
            for (i, p) in parts.iter().enumerate() {
                if i % 2 == 0 {
                    assert_eq!(*p, 0, "a first part is the inner bot's");
                } else {
                    assert!(matches!(p, 1 | 2), "{parts:?}");
                    seen[usize::from(*p)] = true;
                }
            }
            assert_eq!(parts, play(MAX_PER_MILLE, seed), "deterministic");
        }
        assert!(seen[1] && seen[2]);
        // A chance above the largest is the largest.
        assert_eq!(
            Exploring::<Pick>::new(Box::new(GreedyBot::new(0)), 5000, 0).per_mille,
            1000
        );
    }
}
