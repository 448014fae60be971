//! A search player that plans whole decisions. For each legal first action it completes the
//! decision greedily (paid actions only), ranks the completed decisions by the heuristic value
//! (or a learned evaluation, [`SearchBot::with_model`], wherever a value is taken),
//! and looks further at the best few: each is played on by greedy players for every seat for
//! a few decisions, and scored by its seat's value minus the best rival's. The plan chosen is
//! then played part by part. The effort is a budget of simulated actions per decision, so
//! the bot is deterministic for a seed: the greedy completion of every first action is always
//! done, and what is left of the budget is shared by the looks further.

use std::sync::Arc;

use super::greedy::best_index;
use super::{sample_seed, Bot, FreeCap, Model, MAX_FREE};
use crate::play_api::Evaluate;
use crate::rng::Rng;

/// Simulated actions per decision by default.
pub const DEFAULT_BUDGET: u32 = 3000;

/// Completed decisions looked at further, by default.
pub const DEFAULT_WIDTH: usize = 6;

/// Most decisions a look-ahead plays past the planned one, by default.
pub const DEFAULT_DEPTH: usize = 6;

/// Most parts one decision may take while it is completed.
const PARTS_PER_DECISION: usize = 40;

/// A seeded planning player with a budget of simulated actions per decision.
#[derive(Debug, Clone)]
pub struct SearchBot<A> {
    seed: u64,
    rng: Rng,
    budget: u64,
    width: usize,
    depth: usize,
    cap: FreeCap,
    /// The rest of the plan for the decision `plan_for`.
    plan: Vec<A>,
    plan_for: usize,
    /// The learned evaluation positions are valued by; the game's heuristic when `None`.
    model: Option<Arc<Model>>,
}

impl<A> SearchBot<A> {
    /// A bot with a seed and a budget of simulated actions per decision.
    pub fn new(seed: u64, budget: u32) -> SearchBot<A> {
        SearchBot::shaped(seed, budget, DEFAULT_WIDTH, DEFAULT_DEPTH)
    }

    /// A bot that looks further at the best `width` completed decisions, each for at most
    /// `depth` decisions (both at least 1).
    pub fn shaped(seed: u64, budget: u32, width: usize, depth: usize) -> SearchBot<A> {
        SearchBot {
            seed,
            rng: Rng::new(seed),
            budget: u64::from(budget),
            width: width.max(1),
            depth: depth.max(1),
            cap: FreeCap::new(MAX_FREE),
            plan: Vec::new(),
            plan_for: usize::MAX,
            model: None,
        }
    }

    /// The same bot valuing positions by a learned evaluation instead of the game's
    /// heuristic.
    pub fn with_model(mut self, model: Arc<Model>) -> SearchBot<A> {
        self.model = Some(model);
        self
    }
}

/// The value of `g` for `seat`: by the model when there is one, else the game's heuristic.
fn value_by<G: Evaluate>(model: Option<&Model>, g: &G, seat: usize) -> f64 {
    match model {
        Some(m) => m.value(g, seat),
        None => g.value(seat),
    }
}

/// Plays greedy paid actions until the decision open in `g` is closed (or the game ends);
/// returns the actions played, or `None` when it does not close within the part limit.
fn complete<G: Evaluate>(
    g: &mut G,
    decision: usize,
    rng: &mut Rng,
    spent: &mut u64,
    value: &impl Fn(&G, usize) -> f64,
) -> Option<Vec<G::Action>> {
    let mut line = Vec::new();
    while g.decisions_done() == decision && !g.is_over() {
        if line.len() >= PARTS_PER_DECISION {
            return None;
        }
        let legal = g.legal();
        let i = best_index(g, &legal, false, rng, spent, value)?;
        *spent += 1;
        g.play(&legal[i]).ok()?;
        line.push(legal[i].clone());
    }
    Some(line)
}

/// The seat's value minus its best rival's.
fn margin<G: Evaluate>(g: &G, seat: usize, value: &impl Fn(&G, usize) -> f64) -> f64 {
    let own = value(g, seat);
    let rival = (0..g.seat_count())
        .filter(|&s| s != seat)
        .map(|s| value(g, s))
        .fold(f64::NEG_INFINITY, f64::max);
    if rival.is_finite() {
        own - rival
    } else {
        own
    }
}

impl<G: Evaluate> Bot<G> for SearchBot<G::Action> {
    fn choose(&mut self, game: &G, legal: &[G::Action]) -> Option<G::Action> {
        let free_ok = self.cap.allows(game);
        let decision = game.decisions_done();
        let pick = self.pick(game, legal, free_ok, decision)?;
        self.cap.note(game, &pick);
        Some(pick)
    }
}

impl<A: Clone + PartialEq> SearchBot<A> {
    fn pick<G: Evaluate<Action = A>>(
        &mut self,
        game: &G,
        legal: &[A],
        free_ok: bool,
        decision: usize,
    ) -> Option<A> {
        if legal.len() <= 1 {
            return legal.first().cloned();
        }
        if self.plan_for == decision && !self.plan.is_empty() && legal.contains(&self.plan[0]) {
            return Some(self.plan.remove(0));
        }
        let seat = game.to_decide()?;
        // Plan on what the seat may know, never on the hidden part of the game.
        let game = &game.for_seat(seat, sample_seed(self.seed, game));
        let model = self.model.clone();
        let value = |g: &G, s: usize| value_by(model.as_deref(), g, s);
        let mut spent: u64 = 0;
        // Every first action, with its decision completed greedily.
        let mut lines: Vec<(f64, G, Vec<A>)> = Vec::new();
        let any_paid = legal.iter().any(|a| !game.is_free(a));
        for a in legal {
            if game.is_free(a) && (!free_ok && any_paid) {
                continue;
            }
            let mut g = game.clone();
            spent += 1;
            if g.play(a).is_err() {
                continue;
            }
            let Some(rest) = complete(&mut g, decision, &mut self.rng, &mut spent, &value) else {
                continue;
            };
            let mut line = vec![a.clone()];
            line.extend(rest);
            lines.push((value(&g, seat), g, line));
        }
        if lines.is_empty() {
            return None;
        }
        // The best few by value, in a stable order; ties keep the listing order.
        lines.sort_by(|x, y| y.0.total_cmp(&x.0));
        lines.truncate(self.width);
        let share = self.budget.saturating_sub(spent) / lines.len() as u64;
        let mut best = (f64::NEG_INFINITY, 0usize);
        for (i, (_, g, _)) in lines.iter().enumerate() {
            let mut g = g.clone();
            let mut used: u64 = 0;
            let start = g.decisions_done();
            while !g.is_over() && used < share && g.decisions_done() < start + self.depth {
                let legal = g.legal();
                let Some(j) = best_index(&g, &legal, false, &mut self.rng, &mut used, &value)
                else {
                    break;
                };
                used += 1;
                if g.play(&legal[j]).is_err() {
                    break;
                }
            }
            let m = margin(&g, seat, &value);
            if m > best.0 {
                best = (m, i);
            }
        }
        let (_, _, mut line) = lines.swap_remove(best.1);
        let first = line.remove(0);
        // After a free action the decision is planned again, so several may be chained.
        self.plan = if game.is_free(&first) {
            Vec::new()
        } else {
            line
        };
        self.plan_for = decision;
        Some(first)
    }
}
