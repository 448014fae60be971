//! Bots for any [`Playable`] game: `random` (uniform among legal actions), `greedy` (one step
//! of lookahead with a heuristic value) and `search` (whole decisions planned by lookahead with
//! greedy play-outs to a depth, then the heuristic). All are deterministic for a seed, and the
//! search's effort is a budget of simulated actions, not of wall time.

mod greedy;
mod random;
mod search;

pub use greedy::GreedyBot;
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
/// of N simulated actions per decision) or `best` (the strongest: `search`).
pub fn by_name<G: Evaluate + 'static>(name: &str, seed: u64) -> Option<Box<dyn Bot<G> + Send>>
where
    G::Action: Send,
{
    let bot: Box<dyn Bot<G> + Send> = match name {
        "random" => Box::new(RandomBot::new(seed, MAX_FREE)),
        "greedy" => Box::new(GreedyBot::new(seed)),
        "search" | "best" => Box::new(SearchBot::new(seed, search::DEFAULT_BUDGET)),
        _ => {
            let budget: u32 = name.strip_prefix("search:")?.parse().ok()?;
            if budget == 0 {
                return None;
            }
            Box::new(SearchBot::new(seed, budget))
        }
    };
    Some(bot)
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
    let action = bot
        .choose(game, &legal)
        .ok_or(PlayError::Stuck(game.decisions_done()))?;
    game.play(&action).map_err(|reason| PlayError::Refused {
        part: action.to_string(),
        reason,
    })?;
    Ok(Some(action))
}

/// Plays a game to its end with one bot per seat, at most `max_parts` actions; calls `seen`
/// with the seat and each action played. Returns the number of actions.
pub fn play_game<G: Playable>(
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
        game.play(&action).map_err(|reason| PlayError::Refused {
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
