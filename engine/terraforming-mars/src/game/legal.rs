//! The legal inputs of the seat to decide, in the line notation.
//!
//! An input is a [`Choice`]: fixed steps, possibly followed by a set of cards to pick (the cards
//! kept at the initial choice or in research, the cards sold as patents). Sets are listed as the
//! cards to pick from with the bounds on how many, since listing every subset grows as 2ⁿ;
//! [`Game::legal_lines`] expands them for small sets. Payments list every split of the cost
//! over M€ and the resources that may pay: steel, titanium and heat up to what would pay the
//! whole cost, and M€ for exactly the rest.

use crate::content::{Effect, Res};
use crate::notation::{Kvs, Line, Name, Step};

use super::{CardId, Game, Pending, Phase};

/// How a picked set of cards is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SetVerb {
    /// `buy A, B` (paid selections).
    Buy,
    /// `cards A, B` (other selections).
    Cards,
}

/// A set of cards to pick as the last step of an input.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SetChoice {
    /// How the step is written.
    pub verb: SetVerb,
    /// The cards to pick from.
    pub from: Vec<Name>,
    /// At least this many.
    pub min: usize,
    /// At most this many.
    pub max: usize,
}

impl SetChoice {
    /// The step picking `names`.
    pub fn step(&self, names: Vec<Name>) -> Step {
        match self.verb {
            SetVerb::Buy => Step::Buy(names),
            SetVerb::Cards => Step::Cards(names),
        }
    }

    /// Whether `names` is a pick this choice allows (distinct cards from `from`, a count within
    /// the bounds).
    pub fn allows(&self, names: &[Name]) -> bool {
        let distinct = names
            .iter()
            .enumerate()
            .all(|(i, n)| !names[..i].contains(n));
        distinct
            && (self.min..=self.max).contains(&names.len())
            && names.iter().all(|n| self.from.contains(n))
    }
}

/// One legal input of the seat to decide: `steps`, then a pick from `set` when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The seat's color.
    pub player: Name,
    /// The fixed steps.
    pub steps: Vec<Step>,
    /// The cards to pick from as a last step.
    pub set: Option<SetChoice>,
}

impl Choice {
    fn new(player: &str, steps: Vec<Step>) -> Choice {
        Choice {
            player: Name::from(player),
            steps,
            set: None,
        }
    }

    /// The line of this input with `names` picked (ignored without a set).
    pub fn line(&self, names: Vec<Name>) -> Line {
        let mut steps = self.steps.clone();
        if let Some(s) = &self.set {
            steps.push(s.step(names));
        }
        Line {
            player: self.player.clone(),
            steps,
        }
    }

    /// Whether `line` is this input (a set step matching in any card order).
    pub fn matches(&self, line: &Line) -> bool {
        if line.player != self.player {
            return false;
        }
        let n = self.steps.len();
        let fixed = line.steps.len() >= n && same_steps(&line.steps[..n], &self.steps);
        match (&self.set, &line.steps[n.min(line.steps.len())..]) {
            (None, []) => fixed,
            (Some(s), [Step::Buy(names)]) if s.verb == SetVerb::Buy => fixed && s.allows(names),
            (Some(s), [Step::Cards(names)]) if s.verb == SetVerb::Cards => fixed && s.allows(names),
            _ => false,
        }
    }
}

/// Steps equal up to the order of payment entries.
fn same_steps(a: &[Step], b: &[Step]) -> bool {
    let norm = |k: &Option<Kvs>| {
        let mut v: Kvs = k.clone().unwrap_or_default();
        v.retain(|(_, n)| *n != 0);
        v.sort();
        v
    };
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Step::Play(n, p), Step::Play(m, q)) | (Step::Standard(n, p), Step::Standard(m, q)) => {
                n == m && norm(p) == norm(q)
            }
            (Step::Pay(p), Step::Pay(q)) => norm(p) == norm(q),
            _ => x == y,
        })
}

/// Every subset of `from` with a size in `min..=max`, in index order.
fn subsets(from: &[Name], min: usize, max: usize) -> Vec<Vec<Name>> {
    let n = from.len();
    let mut out = Vec::new();
    for mask in 0u64..(1u64 << n) {
        let k = mask.count_ones() as usize;
        if (min..=max).contains(&k) {
            out.push(
                (0..n)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| from[i].clone())
                    .collect(),
            );
        }
    }
    out
}

/// Sets larger than this are not expanded by [`Game::legal_lines`].
pub const MAX_EXPANDED_SET: usize = 12;

impl Game {
    /// The seat that decides next; `None` once the game is over.
    pub fn to_decide(&self) -> Option<usize> {
        if self.phase == Phase::End {
            return None;
        }
        match self.queue.front() {
            Some(d) => Some(d.player),
            None => Some(self.active),
        }
    }

    /// The seats that may give an input now: the seat to decide, or during simultaneous
    /// choices (initial choice, research) every seat with one still open, in seat order.
    pub fn deciding_seats(&self) -> Vec<usize> {
        match self.queue.front() {
            Some(d) if d.simultaneous() => {
                let mut v: Vec<usize> = self
                    .queue
                    .iter()
                    .filter(|d| d.simultaneous())
                    .map(|d| d.player)
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            }
            _ => self.to_decide().into_iter().collect(),
        }
    }

    /// Every legal input of the seat to decide (empty once the game is over).
    pub fn choices(&self) -> Vec<Choice> {
        match self.to_decide() {
            Some(p) => self.choices_for(p),
            None => Vec::new(),
        }
    }

    /// Every legal input of seat `p` now (empty when it has nothing to decide).
    pub fn choices_for(&self, p: usize) -> Vec<Choice> {
        if self.phase == Phase::End || p >= self.colors.len() {
            return Vec::new();
        }
        let color = self.colors[p].as_str();
        match self.pending_for(p) {
            Some(at) => self.answers(p, &self.queue[at].what),
            None if self.queue.is_empty() && p == self.active => self.main_menu(p, color),
            None => Vec::new(),
        }
    }

    /// Every legal input as a line, sets expanded into every allowed subset.
    ///
    /// # Errors
    /// A set of more than [`MAX_EXPANDED_SET`] cards (use [`Game::choices`]).
    pub fn legal_lines(&self) -> Result<Vec<Line>, String> {
        let mut out = Vec::new();
        for c in self.choices() {
            match &c.set {
                None => out.push(c.line(Vec::new())),
                Some(s) if s.from.len() > MAX_EXPANDED_SET => {
                    return Err(format!(
                        "a pick among {} cards has too many subsets to list",
                        s.from.len()
                    ))
                }
                Some(s) => {
                    for names in subsets(&s.from, s.min, s.max) {
                        out.push(c.line(names));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Whether `line` is one of the listed inputs of its seat.
    pub fn is_listed(&self, line: &Line) -> bool {
        self.colors
            .iter()
            .position(|c| *c == line.player)
            .is_some_and(|p| self.choices_for(p).iter().any(|c| c.matches(line)))
    }

    fn names(&self, ids: &[CardId]) -> Vec<Name> {
        ids.iter()
            .map(|c| Name::from(self.card(*c).name.as_str()))
            .collect()
    }

    /// How many cards at the card price `p` can pay for with `mc` M€ (and heat if it pays).
    fn affordable_cards(&self, p: usize, mc: i32) -> usize {
        let price = self.content.rules.card_cost;
        if price <= 0 {
            return usize::MAX;
        }
        let heat = if self.heat_pays(p) {
            self.players[p].res[Res::Heat.index()]
        } else {
            0
        };
        usize::try_from((mc + heat) / price).unwrap_or(0)
    }

    fn answers(&self, p: usize, what: &Pending) -> Vec<Choice> {
        let color = self.colors[p].as_str();
        let one = |s: Step| Choice::new(color, vec![s]);
        match what {
            Pending::Initial => self.dealt_corps[p]
                .iter()
                .map(|c| {
                    let start = self.card(*c).starting_mc.unwrap_or(0);
                    let price = self.content.rules.card_cost.max(1);
                    Choice {
                        player: Name::from(color),
                        steps: vec![Step::Corporation(self.card(*c).name.as_str().into())],
                        set: Some(SetChoice {
                            verb: SetVerb::Buy,
                            from: self.names(&self.dealt_cards[p]),
                            min: 0,
                            max: usize::try_from(start / price).unwrap_or(0),
                        }),
                    }
                })
                .collect(),
            Pending::Research(drawn) => vec![Choice {
                player: Name::from(color),
                steps: Vec::new(),
                set: Some(SetChoice {
                    verb: SetVerb::Buy,
                    from: self.names(drawn),
                    min: 0,
                    max: self
                        .affordable_cards(p, self.players[p].res[0])
                        .min(drawn.len()),
                }),
            }],
            Pending::Pay {
                mc,
                steel,
                titanium,
                ..
            } => self
                .payments(p, *mc, *steel, *titanium, &[0; 6])
                .into_iter()
                .map(|k| one(Step::Pay(if k.is_empty() { None } else { Some(k) })))
                .collect(),
            Pending::Place { place, .. } => self
                .legal_spaces(p, place)
                .into_iter()
                .map(|s| one(Step::Space(self.content.map.spaces[s].id.as_str().into())))
                .collect(),
            Pending::Target { res, count, .. } => (0..self.colors.len())
                .filter(|q| self.players[*q].prod[res.index()] - count >= self.floor(*res))
                .map(|q| one(Step::Target(self.colors[q].as_str().into())))
                .collect(),
            Pending::RemovePlants(n) => {
                let mut out: Vec<Choice> = (0..self.colors.len())
                    // Any player with plants, oneself included (as the engine offers it),
                    // but no other player whose plants are shielded.
                    .filter(|q| {
                        self.players[*q].res[Res::Plants.index()] > 0
                            && (*q == p || !self.shielded(*q, "plant"))
                    })
                    .map(|q| {
                        let take = self.players[q].res[Res::Plants.index()].min(*n);
                        one(Step::Option(
                            compact_str::format_compact!(
                                "Remove {take} plants from {}",
                                self.colors[q]
                            ),
                            None,
                        ))
                    })
                    .collect();
                out.push(one(Step::Option(super::SKIP_REMOVING_PLANTS.into(), None)));
                out
            }
            Pending::Options(opts, _) => {
                let mut out = Vec::new();
                for (t, effects) in opts {
                    let option = Step::Option(t.as_str().into(), None);
                    match effects.first() {
                        // An option that picks cards at once is one input with its pick.
                        Some(Effect::Discard(n)) => {
                            let n = usize::try_from(*n).unwrap_or(0);
                            out.push(Choice {
                                player: Name::from(color),
                                steps: vec![option],
                                set: Some(SetChoice {
                                    verb: SetVerb::Cards,
                                    from: self.names(&self.players[p].hand),
                                    min: n,
                                    max: n,
                                }),
                            });
                        }
                        Some(Effect::RemoveFromAny(cr)) => {
                            let able = self.cards_with(p, &cr.kind, cr.count);
                            if able.len() > 1 {
                                for (_, c) in able {
                                    out.push(Choice::new(
                                        color,
                                        vec![
                                            option.clone(),
                                            Step::Cards(vec![self.card(c).name.as_str().into()]),
                                        ],
                                    ));
                                }
                            } else {
                                out.push(one(option));
                            }
                        }
                        _ => out.push(one(option)),
                    }
                }
                out
            }
            Pending::AddTo { kind, .. } => self
                .cards_holding(p, kind)
                .into_iter()
                .map(|c| one(Step::Cards(vec![self.card(c).name.as_str().into()])))
                .collect(),
            Pending::RemoveFrom { kind, .. } => self
                .cards_with(p, kind, 1)
                .into_iter()
                .map(|(_, c)| one(Step::Cards(vec![self.card(c).name.as_str().into()])))
                .collect(),
            Pending::FinalGreenery => {
                let mut out: Vec<Choice> = self
                    .legal_spaces(p, &super::greenery_place())
                    .into_iter()
                    .map(|s| {
                        Choice::new(
                            color,
                            vec![
                                Step::Option(FINAL_GREENERY.into(), None),
                                Step::Space(self.content.map.spaces[s].id.as_str().into()),
                            ],
                        )
                    })
                    .collect();
                out.push(one(Step::Option(NO_FINAL_GREENERY.into(), None)));
                out
            }
            Pending::Amount(_, _, most) => (0..=*most)
                .map(|n| one(Step::Amount(i64::from(n))))
                .collect(),
            Pending::Sell(_) => vec![Choice {
                player: Name::from(color),
                steps: Vec::new(),
                set: Some(SetChoice {
                    verb: SetVerb::Cards,
                    from: self.names(&self.players[p].hand),
                    min: 1,
                    max: self.players[p].hand.len(),
                }),
            }],
            Pending::Draft => self.players[p]
                .draft_hand
                .iter()
                .map(|c| one(Step::Draft(vec![self.card(*c).name.as_str().into()])))
                .collect(),
            Pending::Keep(drawn, keep) => vec![Choice {
                player: Name::from(color),
                steps: Vec::new(),
                set: Some(SetChoice {
                    verb: SetVerb::Cards,
                    from: self.names(drawn),
                    min: (*keep).min(drawn.len()),
                    max: (*keep).min(drawn.len()),
                }),
            }],
            Pending::BuyCards(drawn) => vec![Choice {
                player: Name::from(color),
                steps: Vec::new(),
                set: Some(SetChoice {
                    verb: SetVerb::Buy,
                    from: self.names(drawn),
                    min: 0,
                    max: self
                        .affordable_cards(p, self.players[p].res[0])
                        .min(drawn.len()),
                }),
            }],
            Pending::Discard(n) => vec![Choice {
                player: Name::from(color),
                steps: Vec::new(),
                set: Some(SetChoice {
                    verb: SetVerb::Cards,
                    from: self.names(&self.players[p].hand),
                    min: *n,
                    max: *n,
                }),
            }],
            Pending::AddToHolding(_) => self
                .cards_holding_any(p)
                .into_iter()
                .map(|c| one(Step::Cards(vec![self.card(c).name.as_str().into()])))
                .collect(),
            Pending::StockAmount(_, _, most) => (1..=*most)
                .map(|n| one(Step::Amount(i64::from(n))))
                .collect(),
            Pending::Claim => self
                .claimable_spaces()
                .into_iter()
                .map(|s| one(Step::Space(self.content.map.spaces[s].id.as_str().into())))
                .collect(),
            Pending::Copy(tag) => self
                .copyable(p, tag)
                .into_iter()
                .map(|c| one(Step::Cards(vec![self.card(c).name.as_str().into()])))
                .collect(),
            Pending::Continue(..) | Pending::Unsupported(_) => Vec::new(),
        }
    }

    /// Every payment of `cost` the player may make leaving `reserve` (what the paid effects
    /// spend): steel, titanium and heat (each as allowed) up to what would pay the whole
    /// cost, the rest in M€.
    pub(super) fn payments(
        &self,
        p: usize,
        cost: i32,
        steel: bool,
        titanium: bool,
        reserve: &[i32; 6],
    ) -> Vec<Kvs> {
        let mut res = self.players[p].res;
        for (r, k) in res.iter_mut().zip(reserve) {
            *r -= k;
        }
        if res.iter().any(|r| *r < 0) {
            return Vec::new();
        }
        let (sv, tv) = (self.steel_value(p).max(1), self.titanium_value(p).max(1));
        let cap = |have: i32, value: i32, allowed: bool| {
            if allowed {
                have.min((cost + value - 1) / value).max(0)
            } else {
                0
            }
        };
        let smax = cap(res[Res::Steel.index()], sv, steel);
        let tmax = cap(res[Res::Titanium.index()], tv, titanium);
        let hmax = cap(res[Res::Heat.index()], 1, self.heat_pays(p));
        let mut out = Vec::new();
        for s in 0..=smax {
            for t in 0..=tmax {
                let metal = s * sv + t * tv;
                // Heat pays like M€, so it never goes beyond what is left to pay.
                for h in 0..=hmax.min((cost - metal).max(0)) {
                    let mc = (cost - metal - h).max(0);
                    if mc > res[0] {
                        continue;
                    }
                    let mut k = Kvs::new();
                    for (key, v) in [("mc", mc), ("steel", s), ("titanium", t), ("heat", h)] {
                        if v > 0 {
                            k.push((Name::from(key), i64::from(v)));
                        }
                    }
                    out.push(k);
                }
            }
        }
        out
    }

    fn main_menu(&self, p: usize, color: &str) -> Vec<Choice> {
        let one = |s: Step| Choice::new(color, vec![s]);
        let pl = &self.players[p];
        if pl.first_action_due {
            return pl
                .corporation
                .map(|c| one(Step::FirstAction(self.card(c).name.as_str().into())))
                .into_iter()
                .collect();
        }
        let mut out = Vec::new();
        // Project cards from hand.
        for &c in &pl.hand {
            if self.unplayable(p, c).is_some() {
                continue;
            }
            let card = self.card(c);
            let cost = self.card_cost(p, c);
            let name = Name::from(card.name.as_str());
            if cost == 0 {
                out.push(one(Step::Play(name, None)));
                continue;
            }
            let steel = card.tags.iter().any(|t| t == "building");
            let titanium = card.tags.iter().any(|t| t == "space");
            for k in self.payments(p, cost, steel, titanium, &Game::reserved(&card.play)) {
                out.push(one(Step::Play(name.clone(), Some(k))));
            }
        }
        // Standard projects.
        for sp in self
            .content
            .standard_projects
            .iter()
            .filter(|s| !s.solo_only)
        {
            if !self.can_do_all(p, &sp.effects, None) {
                continue;
            }
            if sp.effects.iter().any(|e| matches!(e, Effect::SellCards(_))) {
                if !pl.hand.is_empty() {
                    out.push(Choice {
                        player: Name::from(color),
                        steps: vec![Step::Standard(sp.id.as_str().into(), None)],
                        set: Some(SetChoice {
                            verb: SetVerb::Cards,
                            from: self.names(&pl.hand),
                            min: 1,
                            max: pl.hand.len(),
                        }),
                    });
                }
                continue;
            }
            let cost = self.standard_cost(p, &sp.id, sp.cost);
            if cost == 0 {
                out.push(one(Step::Standard(sp.id.as_str().into(), None)));
                continue;
            }
            for k in self.payments(p, cost, false, false, &Game::reserved(&sp.effects)) {
                out.push(one(Step::Standard(sp.id.as_str().into(), Some(k))));
            }
        }
        // Plants and heat.
        if pl.res[Res::Plants.index()] >= self.plants_per_greenery(p) {
            for s in self.legal_spaces(p, &super::greenery_place()) {
                out.push(Choice::new(
                    color,
                    vec![
                        Step::Greenery,
                        Step::Space(self.content.map.spaces[s].id.as_str().into()),
                    ],
                ));
            }
        }
        if self.heat_conversion_possible(p) {
            out.push(one(Step::Heat));
        }
        // Card actions.
        for c in pl.corporation.iter().chain(pl.played.iter()) {
            if self.action_open(p, *c) {
                out.push(one(Step::Action(self.card(*c).name.as_str().into())));
            }
        }
        // Milestones and awards.
        for (i, m) in self.content.scoring.milestones.iter().enumerate() {
            if self.milestone_open(p, i) {
                out.push(one(Step::Claim(m.name.as_str().into())));
            }
        }
        for (i, a) in self.content.scoring.awards.iter().enumerate() {
            if self.award_open(p, i) {
                out.push(one(Step::Fund(a.name.as_str().into())));
            }
        }
        if self.end_turn_allowed(p) {
            out.push(one(Step::End));
        }
        out.push(one(Step::Pass));
        out
    }

    /// Whether the player has the heat to convert (allowed at the maximum temperature too).
    pub(super) fn heat_conversion_possible(&self, p: usize) -> bool {
        self.players[p].res[Res::Heat.index()] >= self.content.rules.heat_per_temperature
    }

    /// Whether End Turn is allowed: after an action, while another player is in the generation.
    pub(super) fn end_turn_allowed(&self, p: usize) -> bool {
        self.actions_taken > 0 && (0..self.colors.len()).any(|q| q != p && !self.passed[q])
    }
}

/// The final greenery offer's title for placing one.
pub(super) const FINAL_GREENERY: &str = "Select space for greenery tile";
/// The final greenery offer's title for declining.
pub(super) const NO_FINAL_GREENERY: &str = "Don't place a greenery";
