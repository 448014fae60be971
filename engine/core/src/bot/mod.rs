//! Bots for any [`Playable`] game: `random` (uniform among legal actions), `greedy` (one step
//! of lookahead with a heuristic value) and `search` (whole decisions planned by lookahead with
//! greedy play-outs to a depth, then the heuristic). All are deterministic for a seed, and the
//! search's effort is a budget of simulated actions, not of wall time. `best` is the search
//! valuing positions by a learned evaluation ([`Model`], fitted from self-play by [`fit`]) when
//! one is given, else by the game's heuristic, looking further at more completed decisions
//! and deeper ([`search::BEST_WIDTH`], [`search::BEST_DEPTH`]) and valuing each by the mean
//! of its margins along the look-ahead ([`SearchBot::averaging`]), trying other choices at
//! the later parts of its best decisions ([`SearchBot::branching`]); asked by name, it also
//! weighs the next seat's best answers to each decision it looks further at
//! ([`SearchBot::answering`]).

mod explore;
pub mod fit;
mod greedy;
mod learned;
mod random;
mod search;

use std::sync::Arc;

pub use explore::{Exploring, MAX_PER_MILLE as EXPLORE_MAX_PER_MILLE};
pub use greedy::GreedyBot;
pub use learned::{Model, FORMAT as WEIGHTS_FORMAT};
pub use random::RandomBot;
pub use search::SearchBot;

use crate::play_api::{Evaluate, Playable};

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
    /// One of the above, with the problems the game met on the way (the first hook errors):
    /// a part left unlisted because its hook failed says why here.
    #[error("{reason}; {}", problems.join("; "))]
    WithProblems {
        /// Why the game stopped.
        reason: Box<PlayError>,
        /// What the game reported ([`Playable::problems`]).
        problems: Vec<String>,
    },
}

impl PlayError {
    /// This error with the game's problems, if it has any.
    pub fn with_problems_of<G: Playable>(self, game: &G) -> PlayError {
        let problems = game.problems();
        if problems.is_empty() {
            self
        } else {
            PlayError::WithProblems {
                reason: Box::new(self),
                problems,
            }
        }
    }
}

/// A player of a game: picks one of the legal actions of the seat to decide.
pub trait Bot<G: Playable> {
    /// Chooses among `legal`, the legal next actions of `game` (`None` when there are none).
    fn choose(&mut self, game: &G, legal: &[G::Action]) -> Option<G::Action>;
}

/// The bot names [`by_name`] knows; `best` is the strongest.
pub const NAMES: [&str; 4] = ["random", "greedy", "search", "best"];

/// The most free actions a bot takes in one decision.
pub const MAX_FREE: u32 = 3;

/// A bot by name, seeded: `random`, `greedy`, `search` (default budget), `search:N` (a budget
/// of N simulated actions per decision), `search:N:W:D` (looking further at W completed
/// decisions, D decisions deep) or `best` (the strongest: here, without a learned evaluation,
/// `search`; see [`by_name_with`]).
pub fn by_name<G: Evaluate + 'static>(name: &str, seed: u64) -> Option<Box<dyn Bot<G> + Send>>
where
    G::Action: Send,
{
    by_name_with(name, seed, None)
}

/// A bot by name as [`by_name`], with the learned evaluation `best` plays with: `best`,
/// `best:N` and `best:N:W:D` are the search of the same budget and shape valuing positions by
/// `model` (by the game's heuristic when there is none) and each decision it looks further
/// at by the mean of its margins along the look-ahead ([`SearchBot::averaging`]) and trying
/// [`search::BEST_BRANCH`] other choices at each later part of its best decisions
/// ([`SearchBot::branching`]), `best` and
/// `best:N` looking further at [`search::BEST_WIDTH`] decisions [`search::BEST_DEPTH`] deep;
/// `best:N:W:D:R` also weighs the next seat's best R answers (0 to 64; [`search::DEFAULT_REPLIES`] by default) and
/// `best:N:W:D:R:K` completes only the best K first parts (by one step) of that seat's
/// decision to find them (0 to 64, 0 for every one; [`search::DEFAULT_ANSWER_FIRST`] by
/// default).
pub fn by_name_with<G: Evaluate + 'static>(
    name: &str,
    seed: u64,
    model: Option<&Arc<Model>>,
) -> Option<Box<dyn Bot<G> + Send>>
where
    G::Action: Send,
{
    let learned = |b: SearchBot<G::Action>, replies: usize, first: usize| {
        let b = b
            .answering(replies)
            .answer_first(first)
            .averaging(true)
            .branching(search::BEST_BRANCH);
        match model {
            Some(m) => b.with_model(m.clone()),
            None => b,
        }
    };
    let bot: Box<dyn Bot<G> + Send> = match name {
        "random" => Box::new(RandomBot::new(seed, MAX_FREE)),
        "greedy" => Box::new(GreedyBot::new(seed)),
        "search" => Box::new(SearchBot::new(seed, search::DEFAULT_BUDGET)),
        "best" => Box::new(learned(
            SearchBot::shaped(
                seed,
                search::DEFAULT_BUDGET,
                search::BEST_WIDTH,
                search::BEST_DEPTH,
            ),
            search::DEFAULT_REPLIES,
            search::DEFAULT_ANSWER_FIRST,
        )),
        _ => {
            // `search:N`, or `search:N:W:D` (looking further at W completed decisions, D
            // decisions deep); the same after `best:`, which may add `:R` (the answers of the
            // next seat it weighs) and then `:K` (the first parts of those it completes).
            let (kind, rest) = name.split_once(':')?;
            let mut parts = rest.split(':');
            let budget: u32 = parts.next()?.parse().ok()?;
            let shape: Vec<usize> = parts.map(|p| p.parse().ok()).collect::<Option<_>>()?;
            if budget == 0 {
                return None;
            }
            let shaped = |w: usize, d: usize| {
                ((1..=64).contains(&w) && (1..=200).contains(&d))
                    .then(|| SearchBot::shaped(seed, budget, w, d))
            };
            let (replies, first) = (search::DEFAULT_REPLIES, search::DEFAULT_ANSWER_FIRST);
            let (width, depth) = if kind == "best" {
                (search::BEST_WIDTH, search::BEST_DEPTH)
            } else {
                (search::DEFAULT_WIDTH, search::DEFAULT_DEPTH)
            };
            let (bot, replies, first) = match (kind, &shape[..]) {
                (_, []) => (
                    SearchBot::shaped(seed, budget, width, depth),
                    replies,
                    first,
                ),
                (_, &[w, d]) => (shaped(w, d)?, replies, first),
                ("best", &[w, d, r]) if r <= 64 => (shaped(w, d)?, r, first),
                ("best", &[w, d, r, k]) if r <= 64 && k <= 64 => (shaped(w, d)?, r, k),
                _ => return None,
            };
            match kind {
                "search" => Box::new(bot),
                "best" => Box::new(learned(bot, replies, first)),
                _ => return None,
            }
        }
    };
    Some(bot)
}

/// The seed a bot samples the hidden part of `game` with ([`Playable::for_seat`]): fixed by
/// the bot's seed and the decision, so drawing it leaves the bot's own generator untouched.
pub(crate) fn sample_seed<G: Playable>(bot_seed: u64, game: &G) -> u64 {
    (game.decisions_done() as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(17)
        ^ bot_seed
}

/// Counts free actions within one decision, to cap them.
#[derive(Debug, Clone)]
pub(crate) struct FreeCap {
    max: u32,
    decision: usize,
    used: u32,
}

impl FreeCap {
    pub(crate) fn new(max: u32) -> FreeCap {
        FreeCap {
            max,
            decision: usize::MAX,
            used: 0,
        }
    }

    /// Whether more free actions are allowed in the decision `game` is at.
    pub(crate) fn allows<G: Playable>(&mut self, game: &G) -> bool {
        if game.decisions_done() != self.decision {
            self.decision = game.decisions_done();
            self.used = 0;
        }
        self.used < self.max
    }

    /// Notes the action chosen.
    pub(crate) fn note<G: Playable>(&mut self, game: &G, action: &G::Action) {
        if game.is_free(action) {
            self.used += 1;
        }
    }
}

/// Plays one action chosen by `bot` for whoever decides; `Ok(None)` once the game is over.
pub fn step<G: Playable, B: Bot<G> + ?Sized>(
    bot: &mut B,
    game: &mut G,
) -> Result<Option<G::Action>, PlayError> {
    if game.is_over() {
        return Ok(None);
    }
    let legal = game.legal();
    let Some(action) = bot.choose(game, &legal) else {
        return Err(PlayError::Stuck(game.decisions_done()).with_problems_of(game));
    };
    game.play(&action).map_err(|reason| {
        PlayError::Refused {
            part: action.to_string(),
            reason,
        }
        .with_problems_of(game)
    })?;
    Ok(Some(action))
}

/// Plays a game to its end with one bot per seat, at most `max_parts` actions; calls `seen`
/// with the seat and each action played. Returns the number of actions. A refused action
/// ends the game with the error, the game left part-way through it
/// ([`Playable::play_unguarded`]: no undo copy is taken for each action).
pub fn play_game<G: Playable>(
    game: &mut G,
    bots: &mut [Box<dyn Bot<G> + Send>],
    max_parts: usize,
    seen: impl FnMut(&G, usize, &G::Action),
) -> Result<usize, PlayError> {
    play_to_end(game, bots, max_parts, seen).map_err(|e| e.with_problems_of(game))
}

fn play_to_end<G: Playable>(
    game: &mut G,
    bots: &mut [Box<dyn Bot<G> + Send>],
    max_parts: usize,
    mut seen: impl FnMut(&G, usize, &G::Action),
) -> Result<usize, PlayError> {
    for n in 0..max_parts {
        let Some(seat) = game.to_decide() else {
            return if game.is_over() {
                Ok(n)
            } else {
                Err(PlayError::Stuck(game.decisions_done()))
            };
        };
        let bot = bots
            .get_mut(seat)
            .ok_or(PlayError::Stuck(game.decisions_done()))?;
        let legal = game.legal();
        let action = bot
            .choose(game, &legal)
            .ok_or(PlayError::Stuck(game.decisions_done()))?;
        seen(game, seat, &action);
        game.play_unguarded(&action)
            .map_err(|reason| PlayError::Refused {
                part: action.to_string(),
                reason,
            })?;
    }
    if game.is_over() {
        Ok(max_parts)
    } else {
        Err(PlayError::TooLong(max_parts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::{Move, Stones};

    /// Plays a game of stones with the named bots; returns the actions (as text) and the scores.
    fn play(names: [&str; 2], seed: u64) -> (Vec<String>, Vec<i32>) {
        let mut g = Stones::new(15 + (seed % 7) as u8);
        let mut bots: Vec<_> = names
            .iter()
            .enumerate()
            .map(|(s, n)| by_name::<Stones>(n, seed + s as u64).expect("known bot"))
            .collect();
        let mut seen = Vec::new();
        let mut free_run = 0;
        let mut decision = usize::MAX;
        play_game(&mut g, &mut bots, 10_000, |g, _, a| {
            if g.decisions_done() != decision {
                decision = g.decisions_done();
                free_run = 0;
            }
            if g.is_free(a) {
                free_run += 1;
            }
            assert!(free_run <= MAX_FREE, "more than {MAX_FREE} free actions");
            seen.push(a.to_string());
        })
        .unwrap_or_else(|e| panic!("{names:?} seed {seed}: {e}: {g:?}"));
        assert!(g.is_over());
        (seen, g.score())
    }

    #[test]
    fn every_bot_finishes_games_and_is_deterministic_for_a_seed() {
        for names in [
            ["random", "greedy"],
            ["search:200", "random"],
            ["best", "greedy"],
        ] {
            for seed in 0..3 {
                let a = play(names, seed);
                assert_eq!(a, play(names, seed), "{names:?} seed {seed}");
                assert!(!a.0.is_empty());
            }
        }
    }

    #[test]
    fn search_names_give_a_budget_and_a_shape_within_bounds() {
        for ok in [
            "search:200",
            "search:200:3:4",
            "search:1:64:200",
            "best:200:3:4:2",
            "best:200:3:4:0",
            "best:200:3:4:2:1",
            "best:200:3:4:2:0",
            "best:200:3:4:64:64",
        ] {
            assert!(by_name::<Stones>(ok, 1).is_some(), "{ok}");
        }
        for bad in [
            "search:0",
            "search:200:3",
            "search:200:0:4",
            "search:200:65:4",
            "search:200:3:201",
            "search:200:3:4:5",
            "best:200:3:4:65",
            "best:200:0:4:2",
            "best:200:3:4:2:65",
            "best:200:3:4:2:1:1",
            "search:200:3:4:2:1",
            "search:x",
        ] {
            assert!(by_name::<Stones>(bad, 1).is_none(), "{bad}");
        }
        // A shaped search finishes games and is deterministic for a seed.
        let a = play(["search:300:2:3", "greedy"], 4);
        assert_eq!(a, play(["search:300:2:3", "greedy"], 4));
        let b = play(["best:300:2:3:2", "search"], 5);
        assert_eq!(b, play(["best:300:2:3:2", "search"], 5));
        let c = play(["best:300:2:3:2:1", "search"], 6);
        assert_eq!(c, play(["best:300:2:3:2:1", "search"], 6));
    }

    #[test]
    fn a_bot_takes_the_last_stone_when_it_can() {
        // Three stones left for seat 0: greedy and search both see the five points.
        for name in ["greedy", "search:100", "best"] {
            let mut g = Stones::new(3);
            let mut bot = by_name::<Stones>(name, 7).expect("known bot");
            let legal = g.legal();
            let choice = bot.choose(&g, &legal).expect("a choice");
            assert_eq!(choice, Move::Take(3), "{name}");
            g.play(&choice).unwrap();
            assert_eq!(g.score(), vec![8, 0]);
        }
    }

    #[test]
    fn names_are_checked() {
        assert!(by_name::<Stones>("greedy", 1).is_some());
        assert!(by_name::<Stones>("search:50", 1).is_some());
        assert!(by_name::<Stones>("search:0", 1).is_none());
        assert!(by_name::<Stones>("search:x", 1).is_none());
        assert!(by_name::<Stones>("nobody", 1).is_none());
    }

    #[test]
    fn the_value_of_a_finished_game_is_its_score() {
        let mut g = Stones::new(11);
        RandomBot::new(4, MAX_FREE)
            .play_out(&mut g, 10_000)
            .expect("ends");
        for (s, vp) in g.score().iter().enumerate() {
            assert_eq!(g.value(s), f64::from(*vp));
        }
    }

    /// One guess by seat 0: which of two cups hides the prize. Seat 0 cannot see it, so its
    /// view ([`Playable::for_seat`]) puts the prize under cup 0 whatever the truth.
    #[derive(Debug, Clone)]
    struct Cups {
        prize: usize,
        guess: Option<usize>,
    }

    impl Playable for Cups {
        type Action = usize;
        fn seat_count(&self) -> usize {
            1
        }
        fn to_decide(&self) -> Option<usize> {
            self.guess.is_none().then_some(0)
        }
        fn legal(&self) -> Vec<usize> {
            if self.guess.is_none() {
                vec![0, 1]
            } else {
                Vec::new()
            }
        }
        fn play(&mut self, cup: &usize) -> Result<(), String> {
            self.guess = Some(*cup);
            Ok(())
        }
        fn is_over(&self) -> bool {
            self.guess.is_some()
        }
        fn score(&self) -> Vec<i32> {
            vec![i32::from(self.guess == Some(self.prize))]
        }
        fn decisions_done(&self) -> usize {
            usize::from(self.guess.is_some())
        }
        fn is_free(&self, _: &usize) -> bool {
            false
        }
        fn for_seat(&self, _seat: usize, _seed: u64) -> Self {
            Cups {
                prize: 0,
                guess: self.guess,
            }
        }
    }

    impl Evaluate for Cups {
        fn value(&self, seat: usize) -> f64 {
            f64::from(self.score()[seat])
        }
    }

    #[test]
    fn bots_plan_on_what_their_seat_may_see() {
        for name in ["greedy", "search:50", "best"] {
            for prize in [0, 1] {
                let g = Cups { prize, guess: None };
                let mut bot = by_name::<Cups>(name, 3).expect("known bot");
                let legal = g.legal();
                // Reading the hidden prize would pick cup 1 when it is there.
                assert_eq!(bot.choose(&g, &legal), Some(0), "{name}, prize {prize}");
            }
        }
    }
}
