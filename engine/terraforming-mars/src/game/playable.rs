//! [`Playable`] and [`Evaluate`] for [`Game`]: an action is one whole input (a line), except
//! that a set of cards (kept, bought, sold) is picked one card at a time, take or leave, so no
//! listing grows as 2ⁿ; the input is applied when the last card is decided.
//!
//! [`Game::for_seat`] is the game as one seat may know it: the other seats' hands (and what they
//! are choosing from) and the order of the draw pile are dealt again at random from the cards
//! the seat has not seen.

use std::fmt;

use orrery_core::play_api::{Evaluate, Playable};
use orrery_core::rng::Rng;

use crate::content::Res;
use crate::notation::{Line, Name};

use super::{CardId, Choice, Game, Pending};

/// One decision of a bot: a whole input, the start of an input ending in a pick of cards, or
/// taking or leaving the next card of that pick.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// A whole input.
    Line(Line),
    /// The fixed steps of an input whose last step picks cards (picked by the parts after).
    Start(Line),
    /// Take the next card of the pick.
    Take(Name),
    /// Leave the next card of the pick.
    Leave(Name),
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Line(l) => write!(f, "{l}"),
            Part::Start(l) => write!(f, "{l} …"),
            Part::Take(n) => write!(f, "take {n}"),
            Part::Leave(n) => write!(f, "leave {n}"),
        }
    }
}

/// A pick in progress: the input, the cards taken, the next card to decide.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct Picking {
    #[serde(with = "super::saved::choice_form")]
    pub(super) choice: Choice,
    pub(super) taken: Vec<Name>,
    pub(super) next: usize,
}

impl Game {
    /// The parts the seat to decide may play now (see [`Part`]).
    pub fn legal_parts(&self) -> Vec<Part> {
        if let Some(pk) = &self.picking {
            let Some(set) = &pk.choice.set else {
                return Vec::new();
            };
            let Some(name) = set.from.get(pk.next) else {
                return Vec::new();
            };
            let after = set.from.len() - pk.next - 1;
            let mut out = Vec::new();
            if pk.taken.len() < set.max {
                out.push(Part::Take(name.clone()));
            }
            if pk.taken.len() + after >= set.min {
                out.push(Part::Leave(name.clone()));
            }
            return out;
        }
        self.choices()
            .into_iter()
            .map(|c| {
                let line = Line {
                    player: c.player,
                    steps: c.steps,
                };
                match c.set {
                    None => Part::Line(line),
                    Some(_) => Part::Start(line),
                }
            })
            .collect()
    }

    /// Plays one part; on error the game is unchanged.
    ///
    /// # Errors
    /// A part that is not legal now, or an input the game refuses.
    pub fn apply_part(&mut self, part: &Part) -> Result<(), String> {
        match (part, &self.picking) {
            (Part::Line(l), None) => self.apply_line(l),
            (Part::Start(l), None) => {
                let choice = self
                    .choices()
                    .into_iter()
                    .find(|c| c.set.is_some() && c.player == l.player && c.steps == l.steps)
                    .ok_or_else(|| format!("`{l}` does not start a pick now"))?;
                let pk = Picking {
                    choice,
                    taken: Vec::new(),
                    next: 0,
                };
                self.finish_pick(pk)
            }
            (Part::Take(n) | Part::Leave(n), Some(pk)) => {
                let mut pk = pk.clone();
                let legal = self.legal_parts();
                if !legal.contains(part) {
                    return Err(format!("`{part}` is not the next pick"));
                }
                if matches!(part, Part::Take(_)) {
                    pk.taken.push(n.clone());
                }
                pk.next += 1;
                self.finish_pick(pk)
            }
            (_, Some(_)) => Err("a pick of cards is in progress".into()),
            (_, None) => Err(format!("`{part}` is not a pick in progress")),
        }
    }

    /// Keeps a pick going, or applies its input once every card is decided.
    fn finish_pick(&mut self, pk: Picking) -> Result<(), String> {
        let done = pk
            .choice
            .set
            .as_ref()
            .is_none_or(|s| pk.next >= s.from.len());
        if !done {
            self.picking = Some(pk);
            return Ok(());
        }
        let line = pk.choice.line(pk.taken);
        let before = self.picking.take();
        match self.apply_line(&line) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.picking = before;
                Err(e)
            }
        }
    }

    /// VP total per seat, as the engine counts them now.
    pub fn vp_totals(&self) -> Vec<i32> {
        (0..self.colors.len())
            .map(|p| self.vp_parts(p).total())
            .collect()
    }

    /// The corporation `seat` plays, once played.
    pub fn corporation_name(&self, seat: usize) -> Option<String> {
        self.players
            .get(seat)?
            .corporation
            .map(|c| self.card(c).name.clone())
    }

    /// The VP of `seat` by source (TR, milestones, awards, greenery, city, cards); they add up
    /// to its total.
    pub fn vp_by_source(&self, seat: usize) -> std::collections::BTreeMap<String, i32> {
        let v = self.vp_parts(seat);
        [
            ("tr", v.tr),
            ("milestones", v.milestones),
            ("awards", v.awards),
            ("greenery", v.greenery),
            ("city", v.city),
            ("cards", v.cards),
        ]
        .into_iter()
        .map(|(k, n)| (k.to_owned(), n))
        .collect()
    }

    /// The seats that won a finished game: most VP, a tie going to the most M€ (still tied:
    /// shared); none before the end. A solo game is won only with Mars terraformed.
    pub fn winners(&self) -> Vec<usize> {
        if !self.is_over() || (self.colors.len() == 1 && !self.terraformed()) {
            return Vec::new();
        }
        let vp = self.vp_totals();
        let key = |p: usize| (vp[p], self.players[p].res[Res::Mc.index()]);
        let best = (0..vp.len()).map(key).max();
        (0..vp.len()).filter(|p| Some(key(*p)) == best).collect()
    }

    /// The game as `seat` may know it: other seats' hands, the cards they are choosing from, and
    /// the order of the draw pile dealt again with `seed` from the cards `seat` has not seen.
    /// Pile and hand sizes stay; the discard pile (face down, but its cards only come back after a
    /// reshuffle) is shuffled into the draw pile's sample too.
    pub fn for_seat(&self, seat: usize, seed: u64) -> Game {
        let mut g = self.clone();
        let mut rng = Rng::new(seed);
        g.rng = Rng::new(seed ^ 0x9e37_79b9_7f4a_7c15);
        g.planned_shuffles.clear();
        // Project cards: what the seat cannot see.
        let mut pool: Vec<CardId> = g.deck.iter().copied().collect();
        pool.extend(g.discard.iter().copied());
        for q in (0..g.colors.len()).filter(|q| *q != seat) {
            pool.extend(g.players[q].hand.iter().copied());
            pool.extend(g.dealt_cards[q].iter().copied());
            pool.extend(g.players[q].draft_hand.iter().copied());
            pool.extend(g.players[q].drafted.iter().copied());
            for d in g.queue.iter().filter(|d| d.player == q) {
                if let Pending::Research(drawn)
                | Pending::Keep(drawn, _)
                | Pending::BuyCards(drawn) = &d.what
                {
                    pool.extend(drawn.iter().copied());
                }
            }
        }
        for i in (1..pool.len()).rev() {
            pool.swap(i, rng.below(i + 1));
        }
        let mut deal = pool.into_iter();
        let mut take = |n: usize| deal.by_ref().take(n).collect::<Vec<CardId>>();
        let deck_len = g.deck.len();
        g.deck = take(deck_len).into();
        let discard_len = g.discard.len();
        g.discard = take(discard_len);
        for q in (0..g.colors.len()).filter(|q| *q != seat) {
            let n = g.players[q].hand.len();
            g.players[q].hand = take(n);
            let n = g.dealt_cards[q].len();
            g.dealt_cards[q] = take(n);
            let n = g.players[q].draft_hand.len();
            g.players[q].draft_hand = take(n);
            let n = g.players[q].drafted.len();
            g.players[q].drafted = take(n);
            for d in g.queue.iter_mut().filter(|d| d.player == q) {
                if let Pending::Research(drawn)
                | Pending::Keep(drawn, _)
                | Pending::BuyCards(drawn) = &mut d.what
                {
                    let n = drawn.len();
                    *drawn = take(n);
                }
            }
        }
        // Corporations other seats are choosing from: any the seat was not dealt.
        let choosing = (0..g.colors.len()).any(|q| q != seat && !g.dealt_corps[q].is_empty());
        if choosing && g.queue.iter().any(|d| d.what == Pending::Initial) {
            let beginner = g.card_id_of_beginner().ok();
            let mut corps: Vec<CardId> = (0..g.content.corporations.len())
                .filter(|c| Some(*c) != beginner && !g.dealt_corps[seat].contains(c))
                .collect();
            for i in (1..corps.len()).rev() {
                corps.swap(i, rng.below(i + 1));
            }
            let mut it = corps.into_iter();
            for q in (0..g.colors.len()).filter(|q| *q != seat) {
                let n = g.dealt_corps[q].len();
                g.dealt_corps[q] = it.by_ref().take(n).collect();
            }
        }
        g
    }

    /// The value of the position for `seat` in VP: [`Game::evaluation`] in all.
    pub fn heuristic_value(&self, seat: usize) -> f64 {
        self.evaluation(seat).total()
    }
}

impl Playable for Game {
    type Action = Part;

    fn seat_count(&self) -> usize {
        self.colors.len()
    }

    fn to_decide(&self) -> Option<usize> {
        Game::to_decide(self)
    }

    fn legal(&self) -> Vec<Part> {
        self.legal_parts()
    }

    fn play(&mut self, action: &Part) -> Result<(), String> {
        self.apply_part(action)
    }

    fn is_over(&self) -> bool {
        Game::is_over(self)
    }

    fn score(&self) -> Vec<i32> {
        self.vp_totals()
    }

    fn decisions_done(&self) -> usize {
        self.inputs
    }

    /// No input of Terraforming Mars is free: every one is an action or an answer.
    fn is_free(&self, _action: &Part) -> bool {
        false
    }

    fn for_seat(&self, seat: usize, seed: u64) -> Self {
        Game::for_seat(self, seat, seed)
    }
}

impl Evaluate for Game {
    fn value(&self, seat: usize) -> f64 {
        self.heuristic_value(seat)
    }

    fn feature_names(&self) -> Vec<String> {
        super::eval::Evaluation::names()
    }

    fn features(&self, seat: usize) -> Vec<f64> {
        self.feature_values(seat)
    }
}

impl Game {
    /// The input `part` completes, if it completes one (a whole line, or the last card of a
    /// pick); the line a log of the game writes for it.
    pub fn line_of_part(&self, part: &Part) -> Option<Line> {
        match (part, &self.picking) {
            (Part::Line(l), None) => Some(l.clone()),
            (Part::Start(l), None) => self
                .choices()
                .into_iter()
                .find(|c| c.player == l.player && c.steps == l.steps)
                .filter(|c| c.set.as_ref().is_none_or(|s| s.from.is_empty()))
                .map(|c| c.line(Vec::new())),
            (Part::Take(n) | Part::Leave(n), Some(pk)) => {
                let set = pk.choice.set.as_ref()?;
                if pk.next + 1 != set.from.len() {
                    return None;
                }
                let mut taken = pk.taken.clone();
                if matches!(part, Part::Take(_)) {
                    taken.push(n.clone());
                }
                Some(pk.choice.line(taken))
            }
            _ => None,
        }
    }
}
