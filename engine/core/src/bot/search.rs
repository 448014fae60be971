//! A search player that plans whole decisions. For each legal first action it completes the
//! decision greedily (paid actions only), ranks the completed decisions by the heuristic value
//! (or a learned evaluation, [`SearchBot::with_model`], wherever a value is taken),
//! and looks further at the best few: each is played on by greedy players for every seat for
//! a few decisions, and scored by its seat's value minus the best rival's. The plan chosen is
//! then played part by part. The effort is a budget of simulated actions per decision, so
//! the bot is deterministic for a seed: the greedy completion of every first action is always
//! done, and what is left of the budget is shared by the looks further. Answering
//! ([`SearchBot::answering`], the `best` bot) also weighs, after each planned decision looked
//! at further, the next seat's best few answers (completed greedily and played on alike) and
//! keeps the one that seat's own margin prefers: a move the greedy players would not punish
//! but a searching rival would is seen. To make that cheaper it may complete only the
//! answering seat's best few first parts by one step ([`SearchBot::answer_first`]).
//! Averaging ([`SearchBot::averaging`], the `best` bot) values a decision looked at further by
//! the mean of its margin at the start of the look-ahead and after every decision played on,
//! not by the margin at its end alone, so one lucky or unlucky last step of the greedy players
//! weighs less. Branching ([`SearchBot::branching`], the `best` bot) also tries, at every part
//! after the first of the best completed decisions, the best few other choices by one step,
//! each completed greedily, so the look-ahead compares "an action, then choice A or choice B",
//! not only the choice one step of lookahead prefers.

use std::sync::Arc;

use super::greedy::best_index;
use super::{sample_seed, Bot, FreeCap, Model, MAX_FREE};
use crate::play_api::Evaluate;
use crate::rng::Rng;

/// Simulated actions per decision by default.
pub const DEFAULT_BUDGET: u32 = 3000;

/// Completed decisions looked at further, by default.
pub const DEFAULT_WIDTH: usize = 6;

/// Completed decisions `best` looks at further, by default: more than `search`, since its
/// look-aheads stop at their depth long before the budget is spent.
pub const BEST_WIDTH: usize = 8;

/// Most decisions `best`'s look-aheads play past the planned one, by default: deeper than
/// `search`, which averaging makes pay (without it 9 deep won less often).
pub const BEST_DEPTH: usize = 9;

/// Other choices `best` tries at each part after the first of its best completed decisions
/// (what an action goes on to choose): the look-ahead, not one step, then compares them.
pub const BEST_BRANCH: usize = 2;

/// Most decisions a look-ahead plays past the planned one, by default.
pub const DEFAULT_DEPTH: usize = 6;

/// Answers of the next seat `best` weighs after each planned decision, by default: none. Weighing
/// answers (`best:N:W:D:R`) cost about 4–5× the time of a decision and did not win clearly more
/// often in the first game's 2-player matches against `search` (61% of 100, where `best`
/// without them won 58% of 400), nor did weighing 3 with only the best 4 first parts of each
/// answer completed (`best:N:W:D:3:4`, about 2× the time: 59.5% of 400), so it is asked for
/// by name.
pub const DEFAULT_REPLIES: usize = 0;

/// First parts of the answering seat's decision completed when answers are weighed, by
/// default: every one (0); `best:N:W:D:R:K` completes only the best K by one step.
pub const DEFAULT_ANSWER_FIRST: usize = 0;

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
    /// Answers of the next seat weighed after each planned decision (0: none, `search`).
    replies: usize,
    cap: FreeCap,
    /// The rest of the plan for the decision `plan_for`.
    plan: Vec<A>,
    plan_for: usize,
    /// The learned evaluation positions are valued by; the game's heuristic when `None`.
    model: Option<Arc<Model>>,
    /// When weighing answers, the first parts of the answering seat's decision completed: the
    /// best by one step (0: every one).
    answer_first: usize,
    /// Whether a look-ahead is valued by the mean of its margins (start and after each
    /// decision) instead of the margin at its end.
    averaging: bool,
    /// Other choices tried at each later part of the best completed decisions
    /// ([`SearchBot::branching`]; 0: none, each decision completed greedily).
    branch: usize,
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
            replies: 0,
            cap: FreeCap::new(MAX_FREE),
            plan: Vec::new(),
            plan_for: usize::MAX,
            model: None,
            answer_first: 0,
            averaging: false,
            branch: 0,
        }
    }

    /// The same bot weighing, after each planned decision it looks further at, the best
    /// `replies` answers of the next seat to decide (when another seat) and keeping the one
    /// that seat would choose by its own margin; 0 looks at none.
    pub fn answering(mut self, replies: usize) -> SearchBot<A> {
        self.replies = replies;
        self
    }

    /// The same bot completing, when it weighs answers ([`SearchBot::answering`]), only the
    /// `first` best first parts of the answering seat's decision by one step of lookahead
    /// (ties in listing order) instead of every one; 0 completes every one.
    pub fn answer_first(mut self, first: usize) -> SearchBot<A> {
        self.answer_first = first;
        self
    }

    /// The same bot valuing each decision it looks further at (when it weighs no answers) by
    /// the mean of its margin at the start of the look-ahead and after every decision the
    /// greedy players complete, instead of the margin where the look-ahead stops.
    pub fn averaging(mut self, on: bool) -> SearchBot<A> {
        self.averaging = on;
        self
    }

    /// The same bot trying, at each part after the first of the best `width` completed
    /// decisions (what an action goes on to choose: which one, where), the `branch` best
    /// other choices by one step, each completed greedily; these join the completed decisions
    /// and the best `width` of them all are looked at further. 0 tries none.
    pub fn branching(mut self, branch: usize) -> SearchBot<A> {
        self.branch = branch;
        self
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

/// Every legal first action of the decision open in `game` (free ones only when `free_ok` or
/// nothing else is legal), each with the decision completed greedily, as (value for the
/// deciding seat, position, actions), best first; ties keep the listing order. With `first`
/// above 0, only the `first` best first actions by one step (ties in listing order) are
/// completed.
#[allow(clippy::too_many_arguments)]
fn expand<G: Evaluate>(
    game: &G,
    legal: &[G::Action],
    free_ok: bool,
    decision: usize,
    first: usize,
    rng: &mut Rng,
    spent: &mut u64,
    value: &impl Fn(&G, usize) -> f64,
) -> Vec<(f64, G, Vec<G::Action>)> {
    let Some(seat) = game.to_decide() else {
        return Vec::new();
    };
    let any_paid = legal.iter().any(|a| !game.is_free(a));
    // Each first action played, in listing order.
    let mut starts: Vec<(&G::Action, G)> = Vec::new();
    for a in legal {
        if game.is_free(a) && (!free_ok && any_paid) {
            continue;
        }
        *spent += 1;
        if let Ok(g) = game.clone().played(a) {
            starts.push((a, g));
        }
    }
    if first > 0 && starts.len() > first {
        starts = best_few(starts, first, |(_, g)| value(g, seat));
    }
    let mut lines = Vec::new();
    for (a, mut g) in starts {
        let Some(rest) = complete(&mut g, decision, rng, spent, value) else {
            continue;
        };
        let mut line = vec![a.clone()];
        line.extend(rest);
        lines.push((value(&g, seat), g, line));
    }
    lines.sort_by(|x, y| y.0.total_cmp(&x.0));
    lines
}

/// The `n` items of `items` with the highest `key`, in their order in `items`; among equal
/// keys the earlier items are kept.
fn best_few<T>(items: Vec<T>, n: usize, key: impl Fn(&T) -> f64) -> Vec<T> {
    let mut ranked: Vec<(f64, usize)> = items.iter().map(&key).zip(0..).collect();
    ranked.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut keep: Vec<usize> = ranked.iter().take(n).map(|&(_, i)| i).collect();
    keep.sort_unstable();
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| keep.binary_search(i).is_ok())
        .map(|(_, t)| t)
        .collect()
}

/// Other completions of the decisions in `lines` (as [`expand`] returns them): for each line,
/// at every part after its first where the deciding seat has a choice, the `branch` best other
/// paid parts by one step (ties in listing order), each completed greedily. Returned as
/// (value for `seat`, position, actions), in the order found.
#[allow(clippy::too_many_arguments)]
fn branches<G: Evaluate>(
    game: &G,
    lines: &[(f64, G, Vec<G::Action>)],
    branch: usize,
    seat: usize,
    decision: usize,
    rng: &mut Rng,
    spent: &mut u64,
    value: &impl Fn(&G, usize) -> f64,
) -> Vec<(f64, G, Vec<G::Action>)> {
    let mut found = Vec::new();
    if branch == 0 {
        return found;
    }
    for (_, _, line) in lines {
        let mut g = game.clone();
        for (i, part) in line.iter().enumerate() {
            if i > 0 && g.decisions_done() == decision && g.to_decide() == Some(seat) {
                let legal = g.legal();
                let mut others: Vec<(f64, G, &G::Action)> = Vec::new();
                for a in &legal {
                    if a == part || g.is_free(a) {
                        continue;
                    }
                    *spent += 1;
                    if let Ok(h) = g.clone().played(a) {
                        others.push((value(&h, seat), h, a));
                    }
                }
                for (_, mut h, a) in best_few(others, branch, |o| o.0) {
                    let Some(rest) = complete(&mut h, decision, rng, spent, value) else {
                        continue;
                    };
                    let mut alt = line[..i].to_vec();
                    alt.push(a.clone());
                    alt.extend(rest);
                    found.push((value(&h, seat), h, alt));
                }
            }
            *spent += 1;
            if g.play(part).is_err() {
                break;
            }
        }
    }
    found
}

impl<A: Clone + PartialEq> SearchBot<A> {
    /// Plays `g` on by greedy players for every seat, for at most `self.depth` decisions and
    /// until `used` reaches `share`.
    fn play_on<G: Evaluate<Action = A>>(
        &mut self,
        g: &mut G,
        share: u64,
        used: &mut u64,
        value: &impl Fn(&G, usize) -> f64,
    ) {
        self.play_on_watched(g, share, used, value, |_| {});
    }

    /// [`SearchBot::play_on`], calling `watch` with the game after every part played.
    fn play_on_watched<G: Evaluate<Action = A>>(
        &mut self,
        g: &mut G,
        share: u64,
        used: &mut u64,
        value: &impl Fn(&G, usize) -> f64,
        mut watch: impl FnMut(&G),
    ) {
        let start = g.decisions_done();
        while !g.is_over() && *used < share && g.decisions_done() < start + self.depth {
            let legal = g.legal();
            let Some(j) = best_index(g, &legal, false, &mut self.rng, used, value) else {
                break;
            };
            *used += 1;
            if g.play(&legal[j]).is_err() {
                break;
            }
            watch(g);
        }
    }

    /// Plays `g` on as [`SearchBot::play_on`] does and returns the mean of `seat`'s margin
    /// at the start and after every decision played on (the last one played only in part
    /// counts too, at the position the look-ahead stops at).
    fn mean_margin<G: Evaluate<Action = A>>(
        &mut self,
        g: &mut G,
        seat: usize,
        share: u64,
        value: &impl Fn(&G, usize) -> f64,
    ) -> f64 {
        let mut sum = margin(g, seat, value);
        let mut n = 1.0;
        let mut at = g.decisions_done();
        let mut counted = true;
        self.play_on_watched(g, share, &mut 0, value, |g| {
            counted = false;
            if g.decisions_done() != at || g.is_over() {
                at = g.decisions_done();
                sum += margin(g, seat, value);
                n += 1.0;
                counted = true;
            }
        });
        if !counted {
            sum += margin(g, seat, value);
            n += 1.0;
        }
        sum / n
    }

    /// The margin of `seat` after the planned decision `g` once the next seat to decide (when
    /// another) has answered it: that seat's best [`SearchBot::replies`] decisions, each
    /// completed greedily and played on as the look-ahead plays, and the one that seat would
    /// choose by its own margin kept. Within `share` simulated actions.
    fn answered<G: Evaluate<Action = A>>(
        &mut self,
        g: &G,
        seat: usize,
        share: u64,
        value: &impl Fn(&G, usize) -> f64,
    ) -> f64 {
        let mut used: u64 = 0;
        let other = g.to_decide();
        let Some(other) = other.filter(|&o| o != seat && !g.is_over()) else {
            let mut g = g.clone();
            self.play_on(&mut g, share, &mut used, value);
            return margin(&g, seat, value);
        };
        let legal = g.legal();
        let decision = g.decisions_done();
        let mut answers = expand(
            g,
            &legal,
            false,
            decision,
            self.answer_first,
            &mut self.rng,
            &mut used,
            value,
        );
        if answers.is_empty() {
            let mut g = g.clone();
            self.play_on(&mut g, share, &mut used, value);
            return margin(&g, seat, value);
        }
        answers.truncate(self.replies);
        let each = share.saturating_sub(used) / answers.len() as u64;
        // The answer the other seat prefers, and this seat's margin after it.
        let mut chosen = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for (_, a, _) in answers {
            let mut a = a;
            let mut spent = 0;
            self.play_on(&mut a, each, &mut spent, value);
            let theirs = margin(&a, other, value);
            if theirs > chosen.0 {
                chosen = (theirs, margin(&a, seat, value));
            }
        }
        chosen.1
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
        let mut lines = expand(
            game,
            legal,
            free_ok,
            decision,
            0,
            &mut self.rng,
            &mut spent,
            &value,
        );
        if lines.is_empty() {
            return None;
        }
        // The best few by value, in a stable order; ties keep the listing order.
        lines.truncate(self.width);
        if self.branch > 0 {
            let more = branches(
                game,
                &lines,
                self.branch,
                seat,
                decision,
                &mut self.rng,
                &mut spent,
                &value,
            );
            lines.extend(more);
            lines.sort_by(|x, y| y.0.total_cmp(&x.0));
            lines.truncate(self.width);
        }
        let share = self.budget.saturating_sub(spent) / lines.len() as u64;
        let mut best = (f64::NEG_INFINITY, 0usize);
        for (i, (_, g, _)) in lines.iter().enumerate() {
            let m = if self.replies > 0 {
                self.answered(g, seat, share, &value)
            } else if self.averaging {
                self.mean_margin(&mut g.clone(), seat, share, &value)
            } else {
                let mut g = g.clone();
                let mut used = 0;
                self.play_on(&mut g, share, &mut used, &value);
                margin(&g, seat, &value)
            };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play_api::Playable;

    /// A made-up game of four turns, seats 0 and 1 alternating. Seat 0 takes 2 points
    /// (`Safe`) or 3 (`Risky`); seat 1 then takes 1 point (`Grab`) or none (`Setup`); seat 0
    /// can only `Wait`; last, seat 1 may `Strike` (moves 4 points from seat 0 to itself) only
    /// after `Risky` then `Setup`, else it can only `Wait`. Greedy play has seat 1 grab, so
    /// risk looks better; seat 1's best answer to it is to set up the strike.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Trap {
        Safe,
        Risky,
        Grab,
        Setup,
        Wait,
        Strike,
    }

    impl std::fmt::Display for Trap {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{self:?}")
        }
    }

    #[derive(Debug, Clone, Default)]
    struct TrapGame {
        played: Vec<Trap>,
        points: [i32; 2],
    }

    impl Playable for TrapGame {
        type Action = Trap;
        fn seat_count(&self) -> usize {
            2
        }
        fn to_decide(&self) -> Option<usize> {
            (self.played.len() < 4).then_some(self.played.len() % 2)
        }
        fn legal(&self) -> Vec<Trap> {
            match self.played[..] {
                [] => vec![Trap::Safe, Trap::Risky],
                [_] => vec![Trap::Grab, Trap::Setup],
                [_, _] => vec![Trap::Wait],
                [Trap::Risky, Trap::Setup, _] => vec![Trap::Wait, Trap::Strike],
                [_, _, _] => vec![Trap::Wait],
                _ => Vec::new(),
            }
        }
        fn play(&mut self, a: &Trap) -> Result<(), String> {
            if !self.legal().contains(a) {
                return Err(format!("{a} is not legal"));
            }
            let seat = self.played.len() % 2;
            match a {
                Trap::Safe => self.points[seat] += 2,
                Trap::Risky => self.points[seat] += 3,
                Trap::Grab => self.points[seat] += 1,
                Trap::Strike => {
                    self.points[0] -= 4;
                    self.points[1] += 4;
                }
                Trap::Setup | Trap::Wait => {}
            }
            self.played.push(*a);
            Ok(())
        }
        fn is_over(&self) -> bool {
            self.played.len() >= 4
        }
        fn score(&self) -> Vec<i32> {
            self.points.to_vec()
        }
        fn decisions_done(&self) -> usize {
            self.played.len()
        }
        fn is_free(&self, _: &Trap) -> bool {
            false
        }
    }

    impl Evaluate for TrapGame {
        fn value(&self, seat: usize) -> f64 {
            f64::from(self.points[seat])
        }
    }

    fn first_choice(bot: &mut SearchBot<Trap>) -> Trap {
        let g = TrapGame::default();
        bot.choose(&g, &g.legal()).expect("a choice")
    }

    #[test]
    fn weighing_the_next_seats_answers_avoids_a_trap_greedy_answers_miss() {
        // The plain search expects seat 1 to grab, so it takes the risk.
        assert_eq!(first_choice(&mut SearchBot::new(1, 1000)), Trap::Risky);
        // Weighing seat 1's two answers finds the strike behind `Setup`.
        for replies in [2, 3] {
            let mut bot = SearchBot::new(1, 1000).answering(replies);
            assert_eq!(first_choice(&mut bot), Trap::Safe, "{replies} replies");
        }
        // One answer is seat 1's greedy best only: the trap is missed again.
        assert_eq!(
            first_choice(&mut SearchBot::new(1, 1000).answering(1)),
            Trap::Risky
        );
        // Against a seat 1 that answers by search, the safe start scores more.
        for (start, want) in [(Trap::Safe, [2, 1]), (Trap::Risky, [-1, 4])] {
            let mut g = TrapGame::default();
            g.play(&start).expect("legal");
            let mut answer: SearchBot<Trap> = SearchBot::new(2, 1000).answering(2);
            while !g.is_over() {
                let legal = g.legal();
                let a = answer.choose(&g, &legal).expect("a choice");
                g.play(&a).expect("legal");
            }
            assert_eq!(g.score(), want.to_vec(), "{start}");
        }
    }

    #[test]
    fn completing_only_the_answers_best_first_parts_by_one_step() {
        // Seat 1's `Setup` is worth less than `Grab` one step on, so completing only its best
        // first part misses the trap; completing its best two (or every one, 0) sees it.
        for (first, want) in [(1, Trap::Risky), (2, Trap::Safe), (0, Trap::Safe)] {
            let mut bot = SearchBot::new(1, 1000).answering(2).answer_first(first);
            assert_eq!(first_choice(&mut bot), want, "first {first}");
        }
    }

    #[test]
    fn averaging_values_a_look_ahead_by_the_mean_of_its_margins() {
        // After `Risky` seat 0 leads by 3; greedy seat 1 grabs (lead 2), then both wait
        // (2, 2): the mean is 9 / 4, the end alone 2.
        let mut g = TrapGame::default();
        g.play(&Trap::Risky).expect("legal");
        let mut bot: SearchBot<Trap> = SearchBot::new(1, 1000).averaging(true);
        let value = |g: &TrapGame, s: usize| g.value(s);
        assert_eq!(bot.mean_margin(&mut g.clone(), 0, 1000, &value), 2.25);
        // Two decisions deep: 3, 2 and 2; with no budget, the start alone.
        let mut two: SearchBot<Trap> = SearchBot::shaped(1, 1000, 6, 2).averaging(true);
        assert_eq!(two.mean_margin(&mut g.clone(), 0, 1000, &value), 7.0 / 3.0);
        assert_eq!(two.mean_margin(&mut g.clone(), 0, 0, &value), 3.0);
        // For seat 1 the margins are the negatives.
        assert_eq!(bot.mean_margin(&mut g.clone(), 1, 1000, &value), -2.25);
        // The end of the look-ahead is where the plain search stops.
        let mut end = g.clone();
        bot.play_on(&mut end, 1000, &mut 0, &value);
        assert_eq!(margin(&end, 0, &value), 2.0);
        assert!(end.is_over());
    }

    /// A made-up game of three decisions. Seat 0 first passes (nothing) or starts, then
    /// chooses option `A` (2 points now) or option `B` (1 point now, 5 more at its next decision);
    /// seat 1 waits; seat 0 collects what its option still pays. One step of lookahead prefers
    /// `A`, the look-ahead `B`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Pick {
        Pass,
        Start,
        A,
        B,
        Wait,
        Collect,
    }

    impl std::fmt::Display for Pick {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{self:?}")
        }
    }

    #[derive(Debug, Clone, Default)]
    struct PickGame {
        played: Vec<Pick>,
        points: [i32; 2],
    }

    impl PickGame {
        fn decisions(&self) -> usize {
            self.played.iter().filter(|a| **a != Pick::Start).count()
        }
    }

    impl Playable for PickGame {
        type Action = Pick;
        fn seat_count(&self) -> usize {
            2
        }
        fn to_decide(&self) -> Option<usize> {
            (self.decisions() < 3).then_some(self.decisions() % 2)
        }
        fn legal(&self) -> Vec<Pick> {
            match (self.decisions(), self.played.last()) {
                (0, Some(Pick::Start)) => vec![Pick::A, Pick::B],
                (0, _) => vec![Pick::Pass, Pick::Start],
                (1, _) => vec![Pick::Wait],
                (2, _) => vec![Pick::Collect],
                _ => Vec::new(),
            }
        }
        fn play(&mut self, a: &Pick) -> Result<(), String> {
            if !self.legal().contains(a) {
                return Err(format!("{a} is not legal"));
            }
            let seat = self.decisions() % 2;
            self.points[seat] += match a {
                Pick::A => 2,
                Pick::B => 1,
                Pick::Collect if self.played.contains(&Pick::B) => 5,
                _ => 0,
            };
            self.played.push(*a);
            Ok(())
        }
        fn is_over(&self) -> bool {
            self.decisions() >= 3
        }
        fn score(&self) -> Vec<i32> {
            self.points.to_vec()
        }
        fn decisions_done(&self) -> usize {
            self.decisions()
        }
        fn is_free(&self, _: &Pick) -> bool {
            false
        }
    }

    impl Evaluate for PickGame {
        fn value(&self, seat: usize) -> f64 {
            f64::from(self.points[seat])
        }
    }

    /// The whole game played by `bot` in seat 0 (seat 1 has one choice): seat 0's parts and
    /// the score.
    fn pick_game(mut bot: SearchBot<Pick>) -> (Vec<Pick>, Vec<i32>) {
        let mut g = PickGame::default();
        while !g.is_over() {
            let legal = g.legal();
            let a = bot.choose(&g, &legal).expect("a choice");
            g.play(&a).expect("legal");
        }
        (g.played.clone(), g.score())
    }

    #[test]
    fn branching_on_a_later_part_finds_the_choice_one_step_misjudges() {
        use Pick::*;
        // Completed greedily, the start takes `A`: one step values it 2 against 1.
        let plain = pick_game(SearchBot::new(1, 1000).averaging(true));
        assert_eq!(plain, (vec![Start, A, Wait, Collect], vec![2, 0]));
        // Trying the other option too, the look-ahead sees `B` pay 5 more.
        for branch in [1, 2] {
            let bot = SearchBot::new(1, 1000).averaging(true).branching(branch);
            let (played, score) = pick_game(bot);
            assert_eq!(played, vec![Start, B, Wait, Collect], "branch {branch}");
            assert_eq!(score, vec![6, 0], "branch {branch}");
        }
        // Looking further at one decision only, the other option ranks below `A` and is dropped.
        let narrow = SearchBot::shaped(1, 1000, 1, 6).branching(1);
        assert_eq!(pick_game(narrow).1, vec![2, 0]);
    }

    #[test]
    fn branches_try_the_best_other_choices_at_each_later_part() {
        let g = PickGame::default();
        let value = |g: &PickGame, s: usize| g.value(s);
        let mut rng = Rng::new(1);
        let mut spent = 0;
        let lines = expand(&g, &g.legal(), false, 0, 0, &mut rng, &mut spent, &value);
        let found: Vec<(f64, Vec<Pick>)> = lines.iter().map(|l| (l.0, l.2.clone())).collect();
        assert_eq!(
            found,
            vec![(2.0, vec![Pick::Start, Pick::A]), (0.0, vec![Pick::Pass])]
        );
        let more = branches(&g, &lines, 1, 0, 0, &mut rng, &mut spent, &value);
        let found: Vec<(f64, Vec<Pick>)> = more.iter().map(|l| (l.0, l.2.clone())).collect();
        // The pass has no later part; the start's option has one other choice.
        assert_eq!(found, vec![(1.0, vec![Pick::Start, Pick::B])]);
        assert_eq!(more[0].1.played, vec![Pick::Start, Pick::B]);
        // Branching on nothing finds nothing and spends nothing.
        let before = spent;
        assert!(branches(&g, &lines, 0, 0, 0, &mut rng, &mut spent, &value).is_empty());
        assert_eq!(spent, before);
    }

    #[test]
    fn the_best_few_keep_their_order_and_the_earlier_of_equals() {
        let items = vec![(1, 5.0), (2, 9.0), (3, 5.0), (4, 7.0), (5, 5.0)];
        let kept = |n| -> Vec<i32> {
            best_few(items.clone(), n, |x: &(i32, f64)| x.1)
                .iter()
                .map(|x| x.0)
                .collect()
        };
        assert_eq!(kept(1), vec![2]);
        assert_eq!(kept(3), vec![1, 2, 4]);
        assert_eq!(kept(4), vec![1, 2, 3, 4]);
        assert_eq!(kept(9), vec![1, 2, 3, 4, 5]);
    }
}
