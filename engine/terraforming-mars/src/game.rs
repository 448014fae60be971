//! The game: state, setup from a deal, the generation flow, and the effects of the content's
//! vocabulary.
//!
//! Inputs are the steps of the line notation ([`crate::notation::Step`]). The game keeps a queue
//! of pending decisions (a tile to place, a player to target, an option, a payment); a step
//! answers the first pending decision, or, when none is pending, is a main-menu action of the
//! active player. [`Game::apply`] applies one step and leaves the game unchanged on error.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

use orrery_core::rng::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::content::{
    Band, By, Card, CardType, Content, Counted, Effect, Event, GameOptions, Measured, Metric,
    Param, PerCount, Place, Requirement, Res, Scope, SpaceType, Vp, Where,
};
use crate::notation::{Kvs, Name, Step};

mod eval;
mod legal;
mod playable;
#[cfg(test)]
mod rules_tests;
pub mod saved;
mod spaces;
mod view;

pub use eval::Evaluation;
pub use legal::{Choice, SetChoice, SetVerb, MAX_EXPANDED_SET};
pub use playable::Part;

/// Index of a card in [`Game::cards`].
pub type CardId = usize;

/// Phase of a generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Initial choice and research purchases.
    Research,
    /// Research cards drafted (draft variant).
    Drafting,
    /// Players take actions.
    Action,
    /// Production (also final greenery placement).
    Production,
    /// Game over.
    End,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::Research => "research",
            Phase::Drafting => "drafting",
            Phase::Action => "action",
            Phase::Production => "production",
            Phase::End => "end",
        }
    }
}

/// One player's state.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Player {
    /// Terraform rating.
    pub tr: i32,
    /// Stock by resource.
    pub res: [i32; 6],
    /// Production by resource.
    pub prod: [i32; 6],
    /// Played corporation.
    pub corporation: Option<CardId>,
    /// Hand.
    pub hand: Vec<CardId>,
    /// Played project cards, in order.
    pub played: Vec<CardId>,
    /// Resources on cards.
    pub card_res: BTreeMap<CardId, i32>,
    /// Card actions used this generation.
    pub actions_used: Vec<CardId>,
    /// TR went up this generation.
    pub tr_raised: bool,
    /// Requirement leeway for the next card only.
    pub next_card_bonus: i32,
    /// Whether the corporation's first action is still due.
    pub first_action_due: bool,
    /// M€ off the next card played.
    pub next_card_discount: i32,
    /// Cards to draft from (draft variant).
    pub draft_hand: Vec<CardId>,
    /// Cards drafted this generation, in pick order.
    pub drafted: Vec<CardId>,
}

impl Player {
    /// The player's corporation and played cards, corporation first.
    pub fn owned_cards(&self) -> impl Iterator<Item = CardId> + '_ {
        self.corporation.iter().chain(self.played.iter()).copied()
    }
}

/// A player's VP by source ([`Game::vp_parts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VpParts {
    /// Terraform rating.
    pub tr: i32,
    /// Milestones claimed.
    pub milestones: i32,
    /// Awards funded, as they stand.
    pub awards: i32,
    /// One a greenery tile.
    pub greenery: i32,
    /// Greeneries next to the player's cities.
    pub city: i32,
    /// VP on the player's cards.
    pub cards: i32,
}

impl VpParts {
    /// The sum of the parts.
    pub fn total(&self) -> i32 {
        self.tr + self.milestones + self.awards + self.greenery + self.city + self.cards
    }
}

/// What a player still has to decide.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Pending {
    /// Initial corporation and cards (simultaneous).
    Initial,
    /// Buy research cards from these (simultaneous).
    Research(Vec<CardId>),
    /// A payment of `mc` (with allowed resources) for something that then happens.
    Pay {
        mc: i32,
        steel: bool,
        titanium: bool,
        then: Box<Then>,
    },
    /// Place a tile.
    Place { place: Place, card: Option<CardId> },
    /// Choose a player whose production goes down (the chooser's goes up as much when
    /// `gain`).
    Target { res: Res, count: i32, gain: bool },
    /// Remove up to `n` plants from a player, or skip.
    RemovePlants(i32),
    /// Pick one option; each entry is a title and its effects.
    Options(Vec<(String, Vec<Effect>)>, Option<CardId>),
    /// Choose a card to add resources to.
    AddTo { kind: String, count: i32 },
    /// Choose a card to remove a resource from, then add to `to`.
    RemoveFrom {
        kind: String,
        count: i32,
        to: Option<CardId>,
    },
    /// Final greenery placement offer.
    FinalGreenery,
    /// How many steps of one production become another (up to the most).
    Amount(Res, Res, i32),
    /// Cards to sell from hand, for this many M€ each.
    Sell(i32),
    /// Effects waiting for the decisions ahead of them.
    Continue(Vec<Effect>, Option<CardId>),
    /// A hook the content names that this build does not run.
    Unsupported(String),
    /// Pick one card of the draft hand (simultaneous).
    Draft,
    /// Keep `keep` of the drawn cards; the rest are discarded.
    Keep(Vec<CardId>, usize),
    /// Buy any of the drawn cards; the rest are discarded.
    BuyCards(Vec<CardId>),
    /// Discard this many cards from hand.
    Discard(usize),
    /// Add resources to a card already holding some.
    AddToHolding(i32),
    /// How much of one stock becomes another (1 up to the most).
    StockAmount(Res, Res, i32),
    /// Claim a free land space.
    Claim,
    /// Copy the production of a played card with this tag.
    Copy(String),
}

/// Why a card in hand may not be played now (see [`Game::playable`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unplayable {
    NotInHand,
    Requirements,
    Effects,
    /// Too little to pay this cost.
    Cost(i32),
}

/// What happens once a payment is made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Then {
    Research(Vec<CardId>, Vec<CardId>),
    Milestone(usize),
    Effects(Vec<Effect>, Option<CardId>),
}

/// When a queued decision comes, earliest first; equal ones in the order they were asked (the
/// engine's deferred-action priorities).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
enum Priority {
    /// A card's first choice of a decision with more to say (`option …; cards …`).
    Now,
    /// A cost that must be paid before the effects it buys.
    Cost,
    /// Another player's card reacting during this player's turn.
    OpponentTrigger,
    /// Triggers in the early band ([`Band::Early`]).
    Early,
    /// Choosing among drawn cards.
    DrawCards,
    /// Placing an ocean.
    PlaceOcean,
    /// Anything else (tiles, options, selections).
    Default,
    /// Discarding a card to draw one ([`Band::DiscardDraw`]).
    DiscardDraw,
    /// Making another player lose resources or production.
    Attack,
    /// One's own gains that wait for everything else.
    Gain,
    /// Copying a card's production, after everything else.
    Last,
}

/// One pending decision for one player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Decision {
    player: usize,
    what: Pending,
    prio: Priority,
}

impl Decision {
    /// A decision, coming at the priority its kind has.
    fn new(player: usize, what: Pending) -> Decision {
        let prio = match &what {
            Pending::Pay { .. } => Priority::Cost,
            Pending::Place { place, .. } if place.tile == "ocean" => Priority::PlaceOcean,
            Pending::Target { .. } | Pending::RemovePlants(_) | Pending::RemoveFrom { .. } => {
                Priority::Attack
            }
            Pending::AddTo { .. } => Priority::Gain,
            Pending::Discard(_) => Priority::Now,
            Pending::Keep(..) | Pending::BuyCards(_) => Priority::DrawCards,
            Pending::Copy(_) => Priority::Last,
            _ => Priority::Default,
        };
        Decision { player, what, prio }
    }

    /// Asked of all players at once (initial choice, research and its payment).
    fn simultaneous(&self) -> bool {
        match &self.what {
            Pending::Initial | Pending::Research(_) | Pending::Draft => true,
            Pending::Pay { then, .. } => matches!(**then, Then::Research(..)),
            _ => false,
        }
    }
}

/// A tile on a space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tile {
    /// Tile type.
    pub kind: Arc<str>,
    /// Counts as a city.
    pub city: bool,
    /// Owner seat.
    pub owner: Option<usize>,
    /// Placed for the solo game's neutral player.
    pub neutral: bool,
}

/// The whole game.
#[derive(Debug, Clone)]
pub struct Game {
    content: Arc<Content>,
    /// Every card: corporations, then projects.
    cards: Arc<Vec<Card>>,
    by_name: Arc<HashMap<String, CardId>>,
    space_index: Arc<HashMap<String, usize>>,
    /// Each space's neighbours, by index.
    adjacent: Arc<Vec<Vec<usize>>>,
    colors: Arc<Vec<String>>,
    players: Vec<Player>,
    generation: u32,
    phase: Phase,
    first: usize,
    active: usize,
    passed: Vec<bool>,
    pass_order: Vec<usize>,
    actions_taken: u32,
    params: [i32; 3],
    deck: VecDeque<CardId>,
    discard: Vec<CardId>,
    tiles: BTreeMap<usize, Tile>,
    milestones: Vec<(usize, usize)>,
    awards: Vec<(usize, usize)>,
    queue: VecDeque<Decision>,
    initial: Vec<Option<(CardId, Vec<CardId>)>>,
    dealt_corps: Vec<Vec<CardId>>,
    dealt_cards: Vec<Vec<CardId>>,
    planned_shuffles: VecDeque<Vec<CardId>>,
    rng: Rng,
    last_space: Option<usize>,
    /// Inputs applied so far.
    inputs: usize,
    /// A set of cards being picked one card at a time (the bots' interface).
    picking: Option<playable::Picking>,
    /// Modules and rule options in use.
    options: Arc<GameOptions>,
    /// Land spaces claimed by a player (only they may place there).
    claims: BTreeMap<usize, usize>,
    /// The card being played, for triggers that look at it.
    playing: Option<CardId>,
    /// Deck log of the last input, for checking against a record.
    pub draws: Vec<(CardId, bool)>,
}

/// An error; the game is unchanged.
pub type Refusal = String;

fn param_index(p: Param) -> usize {
    match p {
        Param::Oxygen => 0,
        Param::Temperature => 1,
        Param::Oceans => 2,
    }
}

/// How a game starts: seats, the deal, and the decks.
#[derive(Debug, Clone)]
pub struct Deal {
    /// Seat colors in order.
    pub colors: Vec<String>,
    /// Seat of generation 1's first player.
    pub first: usize,
    /// Beginner flag per seat.
    pub beginner: Vec<bool>,
    /// Corporation deck, top first.
    pub corporations: Vec<String>,
    /// Project deck, top first.
    pub projects: Vec<String>,
    /// Modules and rule options (a solo game is one of one seat).
    pub options: GameOptions,
}

/// The lookup tables a game builds from its content: every card (corporations, then projects)
/// with its number by name, and every space's number by id with its neighbours' numbers.
pub(crate) struct Tables {
    pub cards: Vec<Card>,
    pub by_name: HashMap<String, CardId>,
    pub space_index: HashMap<String, usize>,
    pub adjacent: Vec<Vec<usize>>,
}

impl Tables {
    /// The tables of `content`.
    pub fn of(content: &Content) -> Tables {
        let mut cards = content.corporations.clone();
        cards.extend(content.projects.iter().cloned());
        let by_name: HashMap<String, CardId> = cards
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.clone(), i))
            .collect();
        let space_index: HashMap<String, usize> = content
            .map
            .spaces
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), i))
            .collect();
        let adjacent = content
            .map
            .spaces
            .iter()
            .map(|s| {
                s.adjacent
                    .iter()
                    .filter_map(|a| space_index.get(a).copied())
                    .collect()
            })
            .collect();
        Tables {
            cards,
            by_name,
            space_index,
            adjacent,
        }
    }
}

impl Game {
    /// A new game from content and a deal: deals corporations and cards in generation order.
    ///
    /// # Errors
    /// Unknown card names, a bad seat count, or a deck too small to deal.
    pub fn new(content: Arc<Content>, deal: &Deal, seed: u64) -> Result<Game, Refusal> {
        let n = deal.colors.len();
        if !(1..=5).contains(&n) || deal.first >= n || deal.beginner.len() != n {
            return Err("bad seats".into());
        }
        let Tables {
            cards,
            by_name,
            space_index,
            adjacent,
        } = Tables::of(&content);
        let lookup = |n: &String| {
            by_name
                .get(n)
                .copied()
                .ok_or_else(|| format!("unknown card {n:?}"))
        };
        let corps: Vec<CardId> = deal
            .corporations
            .iter()
            .map(lookup)
            .collect::<Result<_, _>>()?;
        let deck: VecDeque<CardId> = deal.projects.iter().map(lookup).collect::<Result<_, _>>()?;
        let r = &content.rules;
        let mut starting = &r.starting_production;
        for m in &deal.options.modules {
            let module = r
                .modules
                .iter()
                .find(|k| &k.id == m)
                .ok_or_else(|| format!("unknown module {m:?}"))?;
            if let Some(sp) = &module.starting_production {
                starting = sp;
            }
        }
        let mut prod = [0; 6];
        for (res, v) in starting {
            prod[res.index()] = *v;
        }
        let tr = if n == 1 {
            r.solo.starting_tr
        } else {
            r.starting_tr
        };
        let players = (0..n)
            .map(|_| Player {
                tr,
                prod,
                ..Player::default()
            })
            .collect();
        let params = [
            r.parameters.get(&Param::Oxygen).map_or(0, |s| s.start),
            r.parameters.get(&Param::Temperature).map_or(0, |s| s.start),
            r.parameters.get(&Param::Oceans).map_or(0, |s| s.start),
        ];
        let mut g = Game {
            content,
            cards: Arc::new(cards),
            by_name: Arc::new(by_name),
            space_index: Arc::new(space_index),
            adjacent: Arc::new(adjacent),
            colors: Arc::new(deal.colors.clone()),
            players,
            generation: 1,
            phase: Phase::Research,
            first: deal.first,
            active: deal.first,
            passed: vec![false; n],
            pass_order: Vec::new(),
            actions_taken: 0,
            params,
            deck,
            discard: Vec::new(),
            tiles: BTreeMap::new(),
            milestones: Vec::new(),
            awards: Vec::new(),
            queue: VecDeque::new(),
            initial: vec![None; n],
            dealt_corps: vec![Vec::new(); n],
            dealt_cards: vec![Vec::new(); n],
            planned_shuffles: VecDeque::new(),
            rng: Rng::new(seed),
            last_space: None,
            inputs: 0,
            picking: None,
            options: Arc::new(deal.options.clone()),
            claims: BTreeMap::new(),
            playing: None,
            draws: Vec::new(),
        };
        if n == 1 {
            for _ in 0..g.content.rules.solo.neutral_cities {
                g.place_neutral()?;
            }
        }
        let mut corp_deck = corps.into_iter();
        for k in 0..n {
            let p = (deal.first + k) % n;
            if deal.beginner[p] {
                continue;
            }
            for _ in 0..r_usize(g.content.rules.initial_corporations) {
                let c = corp_deck.next().ok_or("corporation deck too small")?;
                g.dealt_corps[p].push(c);
            }
            for _ in 0..g.content.rules.initial_cards {
                let c = g.draw_top(p).ok_or("project deck too small")?;
                g.dealt_cards[p].push(c);
            }
        }
        for p in 0..n {
            if !deal.beginner[p] {
                g.queue.push_back(Decision::new(p, Pending::Initial));
            }
        }
        if g.queue.is_empty() {
            // Everyone plays the Beginner Corporation: played during setup; the phase shows as
            // research until the first action.
            g.play_corporations()?;
            g.phase = Phase::Research;
        }
        g.draws.clear();
        Ok(g)
    }

    /// A new game of `players` seats dealt by the seeded generator: corporation and project
    /// decks shuffled, the first player drawn, seats colored in the engine's order.
    ///
    /// # Errors
    /// A seat count outside 1–5, or content too small to deal.
    pub fn random(content: Arc<Content>, players: usize, seed: u64) -> Result<Game, Refusal> {
        let options = content.rules.defaults.clone();
        Game::random_with(content, players, options, seed)
    }

    /// A random game as [`Game::random`], with the given modules and rule options.
    ///
    /// # Errors
    /// A seat count outside 1–5, an unknown module, or content too small to deal.
    pub fn random_with(
        content: Arc<Content>,
        players: usize,
        options: GameOptions,
        seed: u64,
    ) -> Result<Game, Refusal> {
        const COLORS: [&str; 5] = ["red", "green", "yellow", "blue", "black"];
        if !(1..=COLORS.len()).contains(&players) {
            return Err(format!("{players} players: Terraforming Mars seats 1 to 5"));
        }
        let mut rng = Rng::new(seed);
        let mut shuffled = |mut v: Vec<String>| {
            for i in (1..v.len()).rev() {
                v.swap(i, rng.below(i + 1));
            }
            v
        };
        let in_play = |c: &&Card| {
            c.module
                .as_ref()
                .is_none_or(|m| options.modules.contains(m))
        };
        let corporations = shuffled(
            content
                .corporations
                .iter()
                .filter(in_play)
                .filter(|c| c.name != content.rules.beginner_corporation)
                .map(|c| c.name.clone())
                .collect(),
        );
        let projects = shuffled(
            content
                .projects
                .iter()
                .filter(in_play)
                .map(|c| c.name.clone())
                .collect(),
        );
        let first = rng.below(players);
        let deal = Deal {
            colors: COLORS[..players].iter().map(|c| (*c).to_owned()).collect(),
            first,
            beginner: vec![false; players],
            corporations,
            projects,
            options,
        };
        Game::new(content, &deal, rng.next_u64())
    }

    /// Places one neutral city and a greenery next to it (solo setup), each space chosen by the
    /// printed cost of a card drawn from the top and discarded: the city on the n-th free land
    /// space (n = cost − 1) that has no city next to it and a free land space next to it,
    /// counted from the first space for the first city and from the last for the next; the
    /// greenery on the neighbour of that rank (wrapping) among the free land neighbours.
    fn place_neutral(&mut self) -> Result<(), Refusal> {
        let from_end = self.tiles.values().any(|t| t.neutral && t.city);
        let cost_of_next = |g: &mut Game| -> Result<usize, Refusal> {
            let c = g
                .draw_top(0)
                .ok_or("project deck too small for the neutral tiles")?;
            g.discard.push(c);
            Ok(r_usize(g.card(c).cost.unwrap_or(0) - 1))
        };
        let distance = cost_of_next(self)?;
        let spaces = &self.content.map.spaces;
        let free_land = |s: usize| {
            spaces[s].kind == SpaceType::Land
                && !spaces[s].reserved
                && !self.tiles.contains_key(&s)
                && !self.claims.contains_key(&s)
        };
        let fits: Vec<usize> = (0..spaces.len())
            .filter(|s| {
                free_land(*s)
                    && !self
                        .neighbours(*s)
                        .any(|n| self.tiles.get(&n).is_some_and(|t| t.city))
                    && self.neighbours(*s).any(free_land)
            })
            .collect();
        if fits.is_empty() {
            return Err("no space for a neutral city".into());
        }
        let k = distance % fits.len();
        let city = if from_end {
            fits[fits.len() - 1 - k]
        } else {
            fits[k]
        };
        self.tiles.insert(city, neutral_tile("city", true));
        let spaces = &self.content.map.spaces;
        let free_land = |s: usize| {
            spaces[s].kind == SpaceType::Land && !spaces[s].reserved && !self.tiles.contains_key(&s)
        };
        let around: Vec<usize> = self.neighbours(city).filter(|s| free_land(*s)).collect();
        let rank = cost_of_next(self)?;
        let greenery = *around
            .get(
                rank.checked_rem(around.len())
                    .ok_or("no space for a neutral greenery")?,
            )
            .ok_or("no space for a neutral greenery")?;
        self.tiles.insert(greenery, neutral_tile("greenery", false));
        Ok(())
    }

    /// Gives the order of the next reshuffle (for replaying a record); otherwise the seeded
    /// generator shuffles.
    ///
    /// # Errors
    /// Unknown card names.
    pub fn plan_reshuffle(&mut self, order: &[String]) -> Result<(), Refusal> {
        let ids = order
            .iter()
            .map(|n| self.card_id(n))
            .collect::<Result<Vec<_>, _>>()?;
        self.planned_shuffles.push_back(ids);
        Ok(())
    }

    fn card_id(&self, name: &str) -> Result<CardId, Refusal> {
        self.by_name
            .get(name)
            .copied()
            .ok_or_else(|| format!("unknown card {name:?}"))
    }

    /// A card by id.
    pub fn card(&self, id: CardId) -> &Card {
        &self.cards[id]
    }

    fn reshuffle(&mut self) {
        if self.discard.is_empty() {
            return;
        }
        let mut pile = std::mem::take(&mut self.discard);
        if let Some(order) = self.planned_shuffles.pop_front() {
            let mut sorted_a = order.clone();
            sorted_a.sort_unstable();
            pile.sort_unstable();
            if sorted_a == pile {
                self.deck = order.into();
                return;
            }
        }
        for i in (1..pile.len()).rev() {
            let j = self.rng.below(i + 1);
            pile.swap(i, j);
        }
        self.deck = pile.into();
    }

    fn draw_top(&mut self, _for: usize) -> Option<CardId> {
        if self.deck.is_empty() {
            self.reshuffle();
        }
        let c = self.deck.pop_front()?;
        if self.deck.is_empty() {
            self.reshuffle();
        }
        self.draws.push((c, true));
        Some(c)
    }

    fn draw_bottom(&mut self, _for: usize) -> Option<CardId> {
        if self.deck.is_empty() {
            self.reshuffle();
        }
        let c = self.deck.pop_back()?;
        if self.deck.is_empty() {
            self.reshuffle();
        }
        self.draws.push((c, false));
        Some(c)
    }

    fn seat(&self, color: &str) -> Result<usize, Refusal> {
        self.colors
            .iter()
            .position(|c| c == color)
            .ok_or_else(|| format!("no player {color:?}"))
    }

    #[doc(hidden)]
    pub fn debug_queue(&self) -> String {
        format!("{:?}", self.queue)
    }

    /// Seat colors.
    pub fn colors(&self) -> &[String] {
        &self.colors
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::End
    }

    /// Applies one step by the player of `color`; on error the game is unchanged.
    ///
    /// # Errors
    /// A step that is not legal now.
    pub fn apply(&mut self, color: &str, step: &Step) -> Result<(), Refusal> {
        let mut next = self.clone();
        next.draws.clear();
        let p = next.seat(color)?;
        next.step(p, step)?;
        *self = next;
        Ok(())
    }

    /// Applies a whole line's steps as one input; on error the game is unchanged.
    ///
    /// # Errors
    /// Any step that is not legal.
    pub fn apply_line(&mut self, line: &crate::notation::Line) -> Result<(), Refusal> {
        if self.picking.is_some() {
            return Err("a pick of cards is in progress: take or leave the next card".into());
        }
        let mut next = self.clone();
        next.draws.clear();
        let p = next.seat(&line.player)?;
        let mut i = 0;
        while i < line.steps.len() {
            let s = &line.steps[i];
            // `corporation X; buy …` is one decision.
            if let (Step::Corporation(c), Some(Step::Buy(b))) = (s, line.steps.get(i + 1)) {
                next.initial_choice(p, c, b)?;
                i += 2;
                continue;
            }
            next.step(p, s)?;
            i += 1;
        }
        next.settle();
        next.inputs += 1;
        *self = next;
        Ok(())
    }

    fn pending_for(&self, p: usize) -> Option<usize> {
        // Simultaneous decisions: the first of this player's; otherwise only the queue head.
        match self.queue.front() {
            Some(d) if d.simultaneous() => self
                .queue
                .iter()
                .position(|d| d.player == p && d.simultaneous()),
            Some(d) if d.player == p => Some(0),
            _ => None,
        }
    }

    fn step(&mut self, p: usize, step: &Step) -> Result<(), Refusal> {
        if self.phase == Phase::End {
            return Err("the game is over".into());
        }
        if let Some(at) = self.pending_for(p) {
            let d = self.queue.remove(at).ok_or("no decision")?;
            self.answer(p, d.what, step)?;
            self.resume()?;
            self.settle();
            return Ok(());
        }
        if !self.queue.is_empty() {
            return Err(format!(
                "{} must decide first",
                self.colors[self.queue[0].player]
            ));
        }
        if self.phase == Phase::Research && self.queue.is_empty() && self.generation == 1 {
            self.phase = Phase::Action;
        }
        if self.phase != Phase::Action || p != self.active {
            return Err(format!("it is not {}'s turn", self.colors[p]));
        }
        self.main_action(p, step)?;
        self.resume()?;
        self.settle();
        Ok(())
    }

    fn initial_choice(&mut self, p: usize, corp: &str, buy: &[Name]) -> Result<(), Refusal> {
        let at = self
            .queue
            .iter()
            .position(|d| d.player == p && d.what == Pending::Initial)
            .ok_or("no initial choice is due")?;
        let c = self.card_id(corp)?;
        if !self.dealt_corps[p].contains(&c) {
            return Err(format!("{corp} was not dealt to {}", self.colors[p]));
        }
        let mut kept = Vec::new();
        for b in buy {
            let id = self.card_id(b)?;
            if !self.dealt_cards[p].contains(&id) || kept.contains(&id) {
                return Err(format!("{b} is not among the dealt cards"));
            }
            kept.push(id);
        }
        let corp_card = self.card(c);
        let cost = self.content.rules.card_cost * kept.len() as i32;
        if corp_card.starting_mc.unwrap_or(0) < cost {
            return Err(format!("{corp} cannot pay {cost} M€ for the cards"));
        }
        self.queue.remove(at);
        let unchosen: Vec<CardId> = std::mem::take(&mut self.dealt_cards[p])
            .into_iter()
            .filter(|c| !kept.contains(c))
            .collect();
        self.players[p].hand = kept.clone();
        self.discard.extend(unchosen);
        self.initial[p] = Some((c, kept));
        if !self.queue.iter().any(|d| d.what == Pending::Initial) {
            self.play_corporations()?;
        }
        Ok(())
    }

    fn play_corporations(&mut self) -> Result<(), Refusal> {
        let n = self.colors.len();
        for k in 0..n {
            let p = (self.first + k) % n;
            let (corp, kept) = match self.initial[p].take() {
                Some(x) => x,
                None => (self.card_id_of_beginner()?, Vec::new()),
            };
            let cards = self.cards.clone();
            let card = &cards[corp];
            self.players[p].corporation = Some(corp);
            self.players[p].res[0] += card.starting_mc.unwrap_or(0);
            self.players[p].res[0] -= self.content.rules.card_cost * kept.len() as i32;
            if card.resource.is_some() {
                self.players[p].card_res.insert(corp, 0);
            }
            self.run_effects(p, &card.play, Some(corp))?;
            // The corporation's tags count as played (a tag trigger may watch them).
            self.fire_card_played(p, corp, 0)?;
            self.players[p].first_action_due = !card.first_action.is_empty();
        }
        self.phase = Phase::Action;
        self.active = self.first;
        self.actions_taken = 0;
        Ok(())
    }

    fn card_id_of_beginner(&self) -> Result<CardId, Refusal> {
        // The corporation a beginner plays without choosing, as the rules file names it.
        let name = &self.content.rules.beginner_corporation;
        self.content
            .corporations
            .iter()
            .position(|c| &c.name == name)
            .ok_or_else(|| format!("content has no corporation {name}"))
    }

    // ---------- derived quantities ----------

    fn tags_of(&self, p: usize, tag: &str) -> i32 {
        let pl = &self.players[p];
        let mut n = 0;
        let count = |c: &Card| c.tags.iter().filter(|t| *t == tag).count() as i32;
        if let Some(c) = pl.corporation {
            n += count(self.card(c));
        }
        for &c in &pl.played {
            let card = self.card(c);
            if card.kind != CardType::Event {
                n += count(card);
            }
        }
        n
    }

    fn count(&self, p: usize, what: &Counted, card: Option<CardId>) -> i32 {
        match what {
            Counted::Tag(t) => self.tags_of(p, t),
            Counted::Cities(scope) => self
                .tiles
                .iter()
                .filter(|(s, t)| {
                    t.city
                        && match scope {
                            Scope::Mine => t.owner == Some(p) && self.on_mars(**s),
                            Scope::Mars => self.on_mars(**s),
                            Scope::All => true,
                        }
                })
                .count() as i32,
            Counted::Greeneries => self.own_tiles(p, "greenery"),
            Counted::ResourcesHere => card
                .and_then(|c| self.players[p].card_res.get(&c).copied())
                .unwrap_or(0),
            Counted::AdjacentOceans | Counted::AdjacentGreeneries => {
                let want = if matches!(what, Counted::AdjacentOceans) {
                    "ocean"
                } else {
                    "greenery"
                };
                let Some(space) = card.and_then(|c| self.tile_of_card(p, c)) else {
                    return 0;
                };
                self.neighbours(space)
                    .filter(|s| self.tiles.get(s).is_some_and(|t| t.kind.as_ref() == want))
                    .count() as i32
            }
            Counted::Production(r) => self.players[p].prod[r.index()],
            Counted::TrRaisedThisGeneration => i32::from(self.players[p].tr_raised),
            Counted::OthersTag(t) => (0..self.colors.len())
                .filter(|q| *q != p)
                .map(|q| self.tags_of(q, t))
                .sum(),
            Counted::EventsPlayed => self
                .players
                .iter()
                .flat_map(|pl| pl.played.iter())
                .filter(|c| self.card(**c).kind == CardType::Event)
                .count() as i32,
            Counted::AdjacentCities => {
                let Some(space) = card.and_then(|c| self.tile_of_card(p, c)) else {
                    return 0;
                };
                self.neighbours(space)
                    .filter(|s| self.tiles.get(s).is_some_and(|t| t.city))
                    .count() as i32
            }
        }
    }

    fn tile_of_card(&self, p: usize, c: CardId) -> Option<usize> {
        // A card's tile: the special tile it placed (tile type named by its place effect).
        let kind = self.card(c).play.iter().find_map(|e| match e {
            Effect::Place(pl) => Some(pl.tile.clone()),
            _ => None,
        })?;
        self.tiles
            .iter()
            .find(|(_, t)| t.kind.as_ref() == kind && t.owner == Some(p))
            .map(|(s, _)| *s)
    }

    fn own_tiles(&self, p: usize, kind: &str) -> i32 {
        self.tiles
            .values()
            .filter(|t| {
                t.owner == Some(p) && (t.kind.as_ref() == kind || (kind == "city" && t.city))
            })
            .count() as i32
    }

    fn on_mars(&self, space: usize) -> bool {
        self.content.map.spaces[space].kind != SpaceType::Colony
    }

    fn neighbours(&self, space: usize) -> impl Iterator<Item = usize> + '_ {
        self.adjacent[space].iter().copied()
    }

    fn param_value(&self, p: Param) -> i32 {
        self.params[param_index(p)]
    }

    fn goal(&self, p: Param) -> i32 {
        self.content.rules.parameters.get(&p).map_or(0, |s| s.goal)
    }

    fn requirement_bonus(&self, p: usize) -> i32 {
        let pl = &self.players[p];
        let mut b = pl.next_card_bonus;
        for c in pl.corporation.iter().chain(pl.played.iter()) {
            let card = self.card(*c);
            if let Some(rb) = &card.requirement_bonus {
                if !rb.next_card_only && card.kind != CardType::Event {
                    b += rb.steps;
                }
            }
        }
        b
    }

    fn meets(&self, p: usize, r: &Requirement, leeway: i32, card: Option<CardId>) -> bool {
        let (value, step) = match &r.what {
            Measured::Param(param) => (
                self.param_value(*param),
                self.content
                    .rules
                    .parameters
                    .get(param)
                    .map_or(1, |s| s.step),
            ),
            Measured::Count(c) => (self.count(p, c, card), 0),
        };
        let slack = leeway * step;
        r.min.is_none_or(|m| value >= m - slack) && r.max.is_none_or(|m| value <= m + slack)
    }

    // ---------- payments ----------

    fn steel_value(&self, p: usize) -> i32 {
        self.content.rules.steel_value + self.payment_bonus(p).0
    }
    fn titanium_value(&self, p: usize) -> i32 {
        self.content.rules.titanium_value + self.payment_bonus(p).1
    }
    fn heat_pays(&self, p: usize) -> bool {
        self.payment_bonus(p).2
    }
    fn payment_bonus(&self, p: usize) -> (i32, i32, bool) {
        let pl = &self.players[p];
        let mut out = (0, 0, false);
        for c in pl.corporation.iter().chain(pl.played.iter()) {
            if let Some(pb) = &self.card(*c).payment {
                out.0 += pb.steel_value;
                out.1 += pb.titanium_value;
                out.2 |= pb.heat;
            }
        }
        out
    }

    /// Checks and deducts a payment of at least `cost` with the allowed resources.
    fn pay(
        &mut self,
        p: usize,
        cost: i32,
        kvs: &Kvs,
        steel: bool,
        titanium: bool,
    ) -> Result<(), Refusal> {
        let mut amounts = [0i32; 6];
        for (k, v) in kvs {
            let r = Res::from_key(k).ok_or_else(|| format!("cannot pay with {k}"))?;
            let v = i32::try_from(*v).map_err(|_| "absurd payment")?;
            if v < 0 {
                return Err("negative payment".into());
            }
            let allowed = match r {
                Res::Mc => true,
                Res::Steel => steel,
                Res::Titanium => titanium,
                Res::Heat => self.heat_pays(p),
                _ => false,
            };
            if !allowed {
                return Err(format!("{k} cannot pay for this"));
            }
            amounts[r.index()] += v;
        }
        for r in Res::ALL {
            if amounts[r.index()] > self.players[p].res[r.index()] {
                return Err(format!("not enough {}", r.key()));
            }
        }
        let value = amounts[0]
            + amounts[1] * self.steel_value(p)
            + amounts[2] * self.titanium_value(p)
            + amounts[5];
        if value < cost {
            return Err(format!("payment worth {value} M€ is less than {cost} M€"));
        }
        for r in Res::ALL {
            self.players[p].res[r.index()] -= amounts[r.index()];
        }
        Ok(())
    }

    fn can_afford(&self, p: usize, cost: i32, steel: bool, titanium: bool) -> bool {
        self.can_afford_keeping(p, cost, steel, titanium, &[0; 6])
    }

    /// Whether `cost` can be paid leaving `reserve` of each resource (what the paid effects
    /// spend themselves).
    fn can_afford_keeping(
        &self,
        p: usize,
        cost: i32,
        steel: bool,
        titanium: bool,
        reserve: &[i32; 6],
    ) -> bool {
        let pl = &self.players[p];
        let free = |r: usize| (pl.res[r] - reserve[r]).max(0);
        if pl.res[0] < reserve[0] {
            return false;
        }
        let mut v = free(0);
        if steel {
            v += free(1) * self.steel_value(p);
        }
        if titanium {
            v += free(2) * self.titanium_value(p);
        }
        if self.heat_pays(p) {
            v += free(5);
        }
        v >= cost
    }

    /// What `effects` take from the stock themselves (spent or lost), which paying for them
    /// must leave.
    fn reserved(effects: &[Effect]) -> [i32; 6] {
        let mut out = [0; 6];
        for e in effects {
            match e {
                Effect::Spend(a) => a.iter().for_each(|(r, v)| out[r.index()] += v.max(&0)),
                Effect::Stock(a) => a.iter().for_each(|(r, v)| out[r.index()] += (-v).max(0)),
                _ => {}
            }
        }
        out
    }

    /// Whether a payment would need a separate input (anything else than M€ usable).
    fn needs_pay_input(&self, p: usize, steel: bool, titanium: bool) -> bool {
        let pl = &self.players[p];
        (steel && pl.res[1] > 0)
            || (titanium && pl.res[2] > 0)
            || (self.heat_pays(p) && pl.res[5] > 0)
    }

    fn card_cost(&self, p: usize, c: CardId) -> i32 {
        let card = self.card(c);
        let pl = &self.players[p];
        let mut cost = card.cost.unwrap_or(0) - pl.next_card_discount;
        for d in pl.corporation.iter().chain(pl.played.iter()) {
            for disc in &self.card(*d).discounts {
                if disc.standard_project.is_some() {
                    continue;
                }
                if disc.tag.as_ref().is_none_or(|t| card.tags.contains(t)) {
                    cost -= disc.amount;
                }
            }
        }
        cost.max(0)
    }

    fn standard_cost(&self, p: usize, id: &str, base: i32) -> i32 {
        let pl = &self.players[p];
        let mut cost = base;
        for d in pl.corporation.iter().chain(pl.played.iter()) {
            for disc in &self.card(*d).discounts {
                if disc.standard_project.as_deref() == Some(id) {
                    cost -= disc.amount;
                }
            }
        }
        cost.max(0)
    }

    // ---------- main actions ----------

    fn main_action(&mut self, p: usize, step: &Step) -> Result<(), Refusal> {
        if self.players[p].first_action_due && !matches!(step, Step::FirstAction(_)) {
            return Err("the corporation's first action comes first".into());
        }
        match step {
            Step::FirstAction(name) => {
                let c = self.card_id(name)?;
                if !self.players[p].first_action_due || self.players[p].corporation != Some(c) {
                    return Err(format!("{name} has no first action due"));
                }
                self.players[p].first_action_due = false;
                let cards = self.cards.clone();
                let effects = &cards[c].first_action;
                self.run_effects(p, effects, Some(c))?;
                self.took_action();
                Ok(())
            }
            Step::Pass => {
                self.passed[p] = true;
                self.players[p].next_card_discount = 0;
                self.pass_order.push(p);
                self.next_turn();
                Ok(())
            }
            Step::End => {
                if !self.end_turn_allowed(p) {
                    return Err("End Turn needs an action taken and another player in play".into());
                }
                self.actions_taken = 0;
                self.next_turn();
                Ok(())
            }
            Step::Play(name, pay) => {
                self.play_card(p, name, pay.as_ref())?;
                self.took_action();
                Ok(())
            }
            Step::Standard(id, pay) => {
                self.standard_project(p, id, pay.as_ref())?;
                self.took_action();
                Ok(())
            }
            Step::Greenery => {
                let need = self.plants_per_greenery(p);
                if self.players[p].res[Res::Plants.index()] < need {
                    return Err(format!("a greenery needs {need} plants"));
                }
                if !self.any_legal_space(p, &greenery_place()) {
                    return Err("no space for a greenery".into());
                }
                self.players[p].res[Res::Plants.index()] -= need;
                self.push_front(
                    p,
                    Pending::Place {
                        place: Place {
                            tile: "greenery".into(),
                            counts_as: None,
                            on: None,
                            title: None,
                            then: Vec::new(),
                        },
                        card: None,
                    },
                );
                self.took_action();
                Ok(())
            }
            Step::Heat => {
                let need = self.content.rules.heat_per_temperature;
                if self.players[p].res[Res::Heat.index()] < need {
                    return Err(format!("raising the temperature needs {need} heat"));
                }

                self.players[p].res[Res::Heat.index()] -= need;
                self.raise(p, Param::Temperature, 1)?;
                self.took_action();
                Ok(())
            }
            Step::Action(name) => {
                let c = self.card_id(name)?;
                self.action_usable(p, c)?;
                let action = self
                    .card(c)
                    .action
                    .clone()
                    .ok_or_else(|| format!("{name} has no action"))?;
                self.players[p].actions_used.push(c);
                self.run_effects(p, &action.effects, Some(c))?;
                self.took_action();
                Ok(())
            }
            Step::Claim(name) => {
                let i = self
                    .content
                    .scoring
                    .milestones
                    .iter()
                    .position(|m| m.name == *name)
                    .ok_or_else(|| format!("unknown milestone {name:?}"))?;
                self.milestone_claimable(p, i)?;
                let cost = self.content.rules.milestone_cost;
                self.pay_or_ask(p, cost, false, false, Then::Milestone(i))?;
                self.took_action();
                Ok(())
            }
            Step::Fund(name) => {
                let i = self
                    .content
                    .scoring
                    .awards
                    .iter()
                    .position(|a| a.name == *name)
                    .ok_or_else(|| format!("unknown award {name:?}"))?;
                self.award_fundable(p, i)?;
                let cost = self.content.rules.award_costs[self.awards.len()];
                self.awards.push((i, p));
                self.pay_or_ask(p, cost, false, false, Then::Effects(Vec::new(), None))?;
                self.took_action();
                Ok(())
            }
            other => Err(format!("`{other}` is not a main action")),
        }
    }

    fn pay_or_ask(
        &mut self,
        p: usize,
        cost: i32,
        steel: bool,
        titanium: bool,
        then: Then,
    ) -> Result<(), Refusal> {
        if self.needs_pay_input(p, steel, titanium) {
            self.push_front(
                p,
                Pending::Pay {
                    mc: cost,
                    steel,
                    titanium,
                    then: Box::new(then),
                },
            );
            Ok(())
        } else {
            if self.players[p].res[0] < cost {
                return Err("too little M€".into());
            }
            self.players[p].res[0] -= cost;
            self.after_pay(p, then)
        }
    }

    fn after_pay(&mut self, p: usize, then: Then) -> Result<(), Refusal> {
        match then {
            Then::Milestone(i) => self.milestones.push((i, p)),
            Then::Research(keep, drop) => {
                self.players[p].hand.extend(keep);
                self.discard.extend(drop);
                self.maybe_end_research();
            }
            Then::Effects(e, c) => self.run_effects(p, &e, c)?,
        }
        Ok(())
    }

    fn plants_per_greenery(&self, p: usize) -> i32 {
        let pl = &self.players[p];
        let disc: i32 = pl
            .corporation
            .iter()
            .chain(pl.played.iter())
            .filter_map(|c| self.card(*c).greenery_discount)
            .sum();
        self.content.rules.plants_per_greenery - disc
    }

    fn took_action(&mut self) {
        self.actions_taken += 1;
    }

    /// After a turn's action(s): the next player who has not passed.
    fn next_turn(&mut self) {
        self.actions_taken = 0;
        let n = self.colors.len();
        if self.passed.iter().all(|x| *x) {
            self.production_phase();
            return;
        }
        let mut q = self.active;
        for _ in 0..n {
            q = (q + 1) % n;
            if !self.passed[q] {
                break;
            }
        }
        self.active = q;
    }

    /// Ends the turn once two actions are done and all their decisions are settled.
    fn settle(&mut self) {
        if self.phase == Phase::Action && self.queue.is_empty() {
            let others = (0..self.colors.len()).any(|q| q != self.active && !self.passed[q]);
            if self.actions_taken >= 2 && others {
                self.next_turn();
            }
        }
        if self.phase == Phase::Production {
            self.skip_final_greenery_offers();
            if let Some(d) = self.queue.front() {
                self.active = d.player;
            }
        }
    }

    fn terraformed(&self) -> bool {
        [Param::Oxygen, Param::Temperature, Param::Oceans]
            .iter()
            .all(|p| self.param_value(*p) >= self.goal(*p))
    }

    fn production_phase(&mut self) {
        self.phase = Phase::Production;
        self.passed = vec![false; self.colors.len()];
        self.pass_order.clear();
        for pl in &mut self.players {
            pl.res[Res::Heat.index()] += pl.res[Res::Energy.index()];
            pl.res[Res::Energy.index()] = 0;
            pl.res[0] += pl.prod[0] + pl.tr;
            for r in 1..6 {
                pl.res[r] += pl.prod[r];
            }
            pl.actions_used.clear();
            pl.tr_raised = false;
        }
        let solo = self.colors.len() == 1;
        if solo && self.generation < self.content.rules.solo.generations {
            self.new_generation();
            return;
        }
        if solo && !self.terraformed() {
            // The last solo generation ends the game; final greenery only for a win.
            self.phase = Phase::End;
            return;
        }
        if self.terraformed() {
            let n = self.colors.len();
            for k in 0..n {
                let p = (self.first + k) % n;
                self.queue
                    .push_back(Decision::new(p, Pending::FinalGreenery));
            }
            self.skip_final_greenery_offers();
            return;
        }
        self.new_generation();
    }

    fn skip_final_greenery_offers(&mut self) {
        while let Some(d) = self.queue.front() {
            if d.what == Pending::FinalGreenery
                && (self.players[d.player].res[Res::Plants.index()]
                    < self.plants_per_greenery(d.player)
                    || !self.any_legal_space(d.player, &greenery_place()))
            {
                self.queue.pop_front();
            } else {
                break;
            }
        }
        if self.queue.is_empty() {
            self.phase = Phase::End;
        }
    }

    fn new_generation(&mut self) {
        let n = self.colors.len();
        self.generation += 1;
        self.first = (self.first + 1) % n;
        self.passed = vec![false; n];
        self.pass_order.clear();
        self.phase = Phase::Research;
        let draw = self.content.rules.research_draw;
        if self.options.draft {
            self.phase = Phase::Drafting;
            for p in 0..n {
                for _ in 0..draw {
                    if let Some(c) = self.draw_bottom(p) {
                        self.players[p].draft_hand.push(c);
                    }
                }
            }
            self.draft_round();
            return;
        }
        for p in 0..n {
            let mut got = Vec::new();
            for _ in 0..draw {
                if let Some(c) = self.draw_bottom(p) {
                    got.push(c);
                }
            }
            self.queue
                .push_back(Decision::new(p, Pending::Research(got)));
        }
    }

    /// Starts a draft round: each seat with more than one card to draft from picks one; a last
    /// card passes itself, and the drafted cards become the research choice.
    fn draft_round(&mut self) {
        let n = self.colors.len();
        if self.players.iter().any(|pl| pl.draft_hand.len() > 1) {
            for p in 0..n {
                self.queue.push_back(Decision::new(p, Pending::Draft));
            }
            return;
        }
        self.phase = Phase::Research;
        for p in 0..n {
            let pl = &mut self.players[p];
            let last = std::mem::take(&mut pl.draft_hand);
            pl.drafted.extend(last);
            let drafted = std::mem::take(&mut pl.drafted);
            self.queue
                .push_back(Decision::new(p, Pending::Research(drafted)));
        }
    }

    /// After every seat picked: the hands pass on (to the next seat in even generations, to the
    /// previous one in odd ones) and the next round starts.
    fn pass_draft_hands(&mut self) {
        let n = self.colors.len();
        let hands: Vec<Vec<CardId>> = self
            .players
            .iter_mut()
            .map(|pl| std::mem::take(&mut pl.draft_hand))
            .collect();
        for (p, hand) in hands.into_iter().enumerate() {
            let to = if self.generation % 2 == 0 {
                (p + 1) % n
            } else {
                (p + n - 1) % n
            };
            self.players[to].draft_hand = hand;
        }
        self.draft_round();
    }

    fn maybe_end_research(&mut self) {
        if self.phase == Phase::Research
            && !self
                .queue
                .iter()
                .any(|d| matches!(d.what, Pending::Research(_) | Pending::Pay { .. }))
        {
            self.phase = Phase::Action;
            self.active = self.first;
            self.actions_taken = 0;
        }
    }

    // ---------- cards and projects ----------

    fn play_card(&mut self, p: usize, name: &str, pay: Option<&Kvs>) -> Result<(), Refusal> {
        let c = self.card_id(name)?;
        self.playable(p, c)?;
        let cards = self.cards.clone();
        let card = &cards[c];
        let cost = self.card_cost(p, c);
        let steel = card.tags.iter().any(|t| t == "building");
        let titanium = card.tags.iter().any(|t| t == "space");
        match pay {
            Some(kvs) => self.pay(p, cost, kvs, steel, titanium)?,
            None if cost == 0 => {}
            None => return Err(format!("{name} costs {cost} M€: say how to pay")),
        }
        let pl = &mut self.players[p];
        pl.hand.retain(|x| *x != c);
        pl.played.push(c);
        pl.next_card_bonus = 0;
        pl.next_card_discount = card.next_card_discount.unwrap_or(0);
        if card.resource.is_some() {
            pl.card_res.insert(c, 0);
        }
        if let Some(rb) = &card.requirement_bonus {
            if rb.next_card_only {
                self.players[p].next_card_bonus = rb.steps;
            }
        }
        let raw_cost = card.cost.unwrap_or(0);
        self.playing = Some(c);
        self.run_effects(p, &card.play, Some(c))?;
        self.fire_card_played(p, c, raw_cost)?;
        self.playing = None;
        Ok(())
    }

    /// Whether card `c` in hand may be played now (requirements, effects, affordable).
    fn playable(&self, p: usize, c: CardId) -> Result<(), Refusal> {
        let name = &self.card(c).name;
        match self.unplayable(p, c) {
            None => Ok(()),
            Some(Unplayable::NotInHand) => {
                Err(format!("{name} is not in {}'s hand", self.colors[p]))
            }
            Some(Unplayable::Requirements) => Err(format!("{name}'s requirements are not met")),
            Some(Unplayable::Effects) => Err(format!("{name} cannot be played now")),
            Some(Unplayable::Cost(cost)) => {
                Err(format!("{name} costs {cost} M€: too little to pay"))
            }
        }
    }

    /// Why card `c` may not be played now, if it may not: [`Game::playable`] without building
    /// a message, for listing (most cards in hand are refused, so the messages cost).
    fn unplayable(&self, p: usize, c: CardId) -> Option<Unplayable> {
        let card = self.card(c);
        if !self.players[p].hand.contains(&c) {
            return Some(Unplayable::NotInHand);
        }
        let leeway = self.requirement_bonus(p);
        for r in &card.requires {
            let l = if matches!(r.what, Measured::Param(_)) {
                leeway
            } else {
                0
            };
            if !self.meets(p, r, l, None) {
                return Some(Unplayable::Requirements);
            }
        }
        if !self.can_do_all(p, &card.play, Some(c)) {
            return Some(Unplayable::Effects);
        }
        let steel = card.tags.iter().any(|t| t == "building");
        let titanium = card.tags.iter().any(|t| t == "space");
        let cost = self.card_cost(p, c);
        if !self.can_afford_keeping(p, cost, steel, titanium, &Game::reserved(&card.play)) {
            return Some(Unplayable::Cost(cost));
        }
        None
    }

    /// Whether the action of card `c` may be used now.
    fn action_usable(&self, p: usize, c: CardId) -> Result<(), Refusal> {
        if self.action_open(p, c) {
            return Ok(());
        }
        let pl = &self.players[p];
        let name = &self.card(c).name;
        if !(pl.corporation == Some(c) || pl.played.contains(&c)) {
            return Err(format!("{name} is not in play for {}", self.colors[p]));
        }
        let action = self
            .card(c)
            .action
            .as_ref()
            .ok_or_else(|| format!("{name} has no action"))?;
        if pl.actions_used.contains(&c) {
            return Err(format!("{name}'s action was already used this generation"));
        }
        if !action.requires.iter().all(|r| self.meets(p, r, 0, Some(c))) {
            return Err(format!("{name}'s action is not usable now"));
        }
        if !self.can_do_all(p, &action.effects, Some(c)) {
            return Err(format!("{name}'s action cannot be done now"));
        }
        Ok(())
    }

    /// Whether the action of card `c` may be used now, as a yes or no: [`Game::action_usable`]
    /// says why not.
    fn action_open(&self, p: usize, c: CardId) -> bool {
        let pl = &self.players[p];
        let Some(action) = self.card(c).action.as_ref() else {
            return false;
        };
        (pl.corporation == Some(c) || pl.played.contains(&c))
            && !pl.actions_used.contains(&c)
            && action.requires.iter().all(|r| self.meets(p, r, 0, Some(c)))
            && self.can_do_all(p, &action.effects, Some(c))
    }

    /// Whether milestone `i` may be claimed now, as a yes or no: [`Game::milestone_claimable`]
    /// says why not.
    fn milestone_open(&self, p: usize, i: usize) -> bool {
        let m = &self.content.scoring.milestones[i];
        self.colors.len() != 1
            && !self.milestones.iter().any(|(j, _)| *j == i)
            && self.milestones.len() < self.content.rules.max_milestones
            && self.metric(p, &m.metric, false) >= m.at_least
            && self.can_afford(p, self.content.rules.milestone_cost, false, false)
    }

    /// Whether award `i` may be funded now, as a yes or no: [`Game::award_fundable`] says why
    /// not.
    fn award_open(&self, p: usize, i: usize) -> bool {
        let costs = &self.content.rules.award_costs;
        self.colors.len() != 1
            && !self.awards.iter().any(|(j, _)| *j == i)
            && self.awards.len() < costs.len()
            && self.can_afford(p, costs[self.awards.len()], false, false)
    }

    /// Whether milestone `i` may be claimed now.
    fn milestone_claimable(&self, p: usize, i: usize) -> Result<(), Refusal> {
        if self.milestone_open(p, i) {
            return Ok(());
        }
        let m = &self.content.scoring.milestones[i];
        if self.colors.len() == 1 {
            return Err("no milestones in a solo game".into());
        }
        if self.milestones.iter().any(|(j, _)| *j == i)
            || self.milestones.len() >= self.content.rules.max_milestones
        {
            return Err(format!("{} cannot be claimed", m.name));
        }
        if self.metric(p, &m.metric, false) < m.at_least {
            return Err(format!("{}'s condition is not met", m.name));
        }
        if !self.can_afford(p, self.content.rules.milestone_cost, false, false) {
            return Err("too little M€".into());
        }
        Ok(())
    }

    /// Whether award `i` may be funded now.
    fn award_fundable(&self, p: usize, i: usize) -> Result<(), Refusal> {
        if self.award_open(p, i) {
            return Ok(());
        }
        let name = &self.content.scoring.awards[i].name;
        let costs = &self.content.rules.award_costs;
        if self.colors.len() == 1 {
            return Err("no awards in a solo game".into());
        }
        if self.awards.iter().any(|(j, _)| *j == i) || self.awards.len() >= costs.len() {
            return Err(format!("{name} cannot be funded"));
        }
        if !self.can_afford(p, costs[self.awards.len()], false, false) {
            return Err("too little M€".into());
        }
        Ok(())
    }

    fn fire_card_played(&mut self, p: usize, c: CardId, cost: i32) -> Result<(), Refusal> {
        let cards = self.cards.clone();
        let card = &cards[c];
        let n = self.colors.len();
        for q in 0..n {
            let owned: Vec<CardId> = self.players[q].owned_cards().collect();
            for o in owned {
                for t in &cards[o].triggers {
                    if t.by == By::Owner && q != p {
                        continue;
                    }
                    let times = match &t.when {
                        Event::Tag(tags) => card.tags.iter().filter(|x| tags.contains(x)).count(),
                        Event::EventCard => usize::from(
                            card.kind == CardType::Event
                                && t.with_tag.as_ref().is_none_or(|w| card.tags.contains(w)),
                        ),
                        Event::CostAtLeast(min) => usize::from(cost >= *min),
                        _ => 0,
                    };
                    for _ in 0..times {
                        match cards[o].band {
                            Some(band) => {
                                let prio = match band {
                                    Band::Early => Priority::Early,
                                    Band::DiscardDraw => Priority::DiscardDraw,
                                    Band::Gain => Priority::Gain,
                                    Band::Last => Priority::Last,
                                };
                                self.enqueue(Decision {
                                    player: q,
                                    what: Pending::Continue(t.then.clone(), Some(o)),
                                    prio,
                                });
                            }
                            None => self.run_effects(q, &t.then, Some(o))?,
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn standard_project(&mut self, p: usize, id: &str, pay: Option<&Kvs>) -> Result<(), Refusal> {
        let sp = self
            .content
            .standard_projects
            .iter()
            .find(|s| s.id == id && !s.solo_only)
            .cloned()
            .ok_or_else(|| format!("unknown standard project {id:?}"))?;
        let cost = self.standard_cost(p, id, sp.cost);
        if !self.can_do_all(p, &sp.effects, None) {
            return Err(format!("standard project {id} cannot be done now"));
        }
        if sp.effects.iter().any(|e| matches!(e, Effect::SellCards(_)))
            && self.players[p].hand.is_empty()
        {
            return Err("no cards in hand to sell".into());
        }
        match pay {
            Some(kvs) => self.pay(p, cost, kvs, false, false)?,
            None if cost == 0 => {}
            None => return Err(format!("standard {id} costs {cost} M€: say how to pay")),
        }
        self.fire_cost(p, sp.cost)?;
        self.run_effects(p, &sp.effects, None)?;
        let cards = self.cards.clone();
        let owned: Vec<CardId> = self.players[p].owned_cards().collect();
        for o in owned {
            for t in &cards[o].triggers {
                if let Event::StandardProjectExcept(except) = &t.when {
                    if !except.iter().any(|x| x == id) {
                        self.run_effects(p, &t.then, Some(o))?;
                    }
                }
            }
        }
        Ok(())
    }

    fn fire_cost(&mut self, p: usize, cost: i32) -> Result<(), Refusal> {
        let cards = self.cards.clone();
        let owned: Vec<CardId> = self.players[p].owned_cards().collect();
        for o in owned {
            for t in &cards[o].triggers {
                if let Event::CostAtLeast(min) = t.when {
                    if cost >= min {
                        self.run_effects(p, &t.then, Some(o))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether the costs among `effects` can be paid and its mandatory parts done.
    fn can_do_all(&self, p: usize, effects: &[Effect], card: Option<CardId>) -> bool {
        let mut prod = self.players[p].prod;
        self.can_do_all_with(p, effects, card, &mut prod)
    }

    /// [`Game::can_do_all`] with the production the effects before these leave.
    fn can_do_all_with(
        &self,
        p: usize,
        effects: &[Effect],
        card: Option<CardId>,
        prod: &mut [i32; 6],
    ) -> bool {
        let pl = &self.players[p];
        effects.iter().all(|e| match e {
            Effect::Production(a) => a.iter().all(|(r, v)| {
                prod[r.index()] += v;
                let floor = if *r == Res::Mc {
                    self.content.rules.min_mc_production
                } else {
                    0
                };
                prod[r.index()] >= floor
            }),
            Effect::Stock(a) => a.iter().all(|(r, v)| *v >= 0 || pl.res[r.index()] >= -v),
            Effect::Spend(a) => a.iter().all(|(r, v)| pl.res[r.index()] >= *v),
            Effect::SpendHere(n) => {
                card.and_then(|c| pl.card_res.get(&c)).copied().unwrap_or(0) >= *n
            }
            Effect::Pay(pb) => self.can_afford(p, pb.mc, pb.steel, pb.titanium),
            Effect::ReduceAnyProduction(a) => (0..self.colors.len())
                .any(|q| self.players[q].prod[a.res.index()] - a.count >= self.floor(a.res)),
            Effect::Place(pl) => {
                (pl.tile == "ocean" && pl.on.is_none() || self.any_legal_space(p, pl))
                    && self.can_do_all_with(p, &pl.then, card, prod)
            }
            Effect::Choose(cs) => cs.iter().any(|c| self.can_do_all(p, &c.effects, card)),
            Effect::ConvertStock(cv) => pl.res[cv.from.index()] > 0,
            Effect::CopyProduction(tag) => !self.copyable(p, tag).is_empty(),
            Effect::Claim => !self.claimable_spaces().is_empty(),
            Effect::Discard(n) => pl.hand.len() >= r_usize(*n),
            Effect::Script(_) => true,
            _ => true,
        })
    }

    fn floor(&self, r: Res) -> i32 {
        if r == Res::Mc {
            self.content.rules.min_mc_production
        } else {
            0
        }
    }

    fn push_front(&mut self, p: usize, what: Pending) {
        self.queue.push_front(Decision::new(p, what));
    }

    /// Does effects in order. Effects that need no decision happen at once; those that need
    /// one are asked afterwards in written order. A payment asked of the player holds back
    /// everything written after it until it is made.
    fn run_effects(
        &mut self,
        p: usize,
        effects: &[Effect],
        card: Option<CardId>,
    ) -> Result<(), Refusal> {
        let mut asked = Vec::new();
        for (i, e) in effects.iter().enumerate() {
            if let Some(d) = self.effect(p, e, card)? {
                if matches!(
                    d.what,
                    Pending::Pay { .. } | Pending::RemoveFrom { .. } | Pending::Discard(_)
                ) {
                    // What is written after it waits for it, at its priority.
                    let rest = effects[i + 1..].to_vec();
                    let prio = d.prio;
                    asked.push(d);
                    if !rest.is_empty() {
                        asked.push(Decision {
                            player: p,
                            what: Pending::Continue(rest, card),
                            prio,
                        });
                    }
                    break;
                }
                asked.push(d);
            }
        }
        for d in asked {
            self.enqueue(d);
        }
        Ok(())
    }

    /// Queues a decision of this action: behind every one of its priority or earlier, ahead of
    /// later priorities and of what comes after the action (the next phase's simultaneous
    /// decisions, the next final greenery offer).
    fn enqueue(&mut self, d: Decision) {
        let at = self
            .queue
            .iter()
            .position(|q| q.simultaneous() || q.what == Pending::FinalGreenery || q.prio > d.prio)
            .unwrap_or(self.queue.len());
        self.queue.insert(at, d);
    }

    /// Resumes effects waiting behind a settled decision.
    fn resume(&mut self) -> Result<(), Refusal> {
        loop {
            let full = self.param_value(Param::Oceans) >= self.goal(Param::Oceans);
            match self.queue.front() {
                Some(Decision {
                    what: Pending::Place { place, .. },
                    ..
                }) if full && place.tile == "ocean" && place.on.is_none() => {
                    self.queue.pop_front();
                    continue;
                }
                Some(Decision {
                    what: Pending::Continue(..),
                    ..
                }) => {}
                _ => break,
            }
            let player = self.queue[0].player;
            let Some(Decision {
                what: Pending::Continue(rest, card),
                prio,
                ..
            }) = self.queue.pop_front()
            else {
                break;
            };
            // A card's deferred reaction asks its questions when its turn comes, ahead of
            // everything still waiting.
            let banded = matches!(
                prio,
                Priority::Early | Priority::DiscardDraw | Priority::Last
            );
            if banded {
                let waiting = std::mem::take(&mut self.queue);
                self.run_effects(player, &rest, card)?;
                let fresh = std::mem::replace(&mut self.queue, waiting);
                for d in fresh.into_iter().rev() {
                    self.queue.push_front(d);
                }
            } else {
                self.run_effects(player, &rest, card)?;
            }
        }
        Ok(())
    }

    /// Does one effect; returns the decision it needs, if any.
    fn effect(
        &mut self,
        p: usize,
        e: &Effect,
        card: Option<CardId>,
    ) -> Result<Option<Decision>, Refusal> {
        let d = |what| Some(Decision::new(p, what));
        match e {
            Effect::Production(a) => {
                for (r, v) in a {
                    let floor = self.floor(*r);
                    let x = &mut self.players[p].prod[r.index()];
                    *x += v;
                    if *x < floor {
                        return Err(format!("too little {} production", r.key()));
                    }
                }
            }
            Effect::Stock(a) | Effect::Spend(a) => {
                let sign = if matches!(e, Effect::Spend(_)) { -1 } else { 1 };
                for (r, v) in a {
                    let x = &mut self.players[p].res[r.index()];
                    *x += sign * v;
                    if *x < 0 {
                        return Err(format!("not enough {}", r.key()));
                    }
                }
            }
            Effect::ProductionPer(g) | Effect::StockPer(g) => {
                let n = self.per(p, &g.count, card) * g.each;
                let pl = &mut self.players[p];
                if matches!(e, Effect::ProductionPer(_)) {
                    pl.prod[g.res.index()] += n;
                } else {
                    pl.res[g.res.index()] += n;
                }
            }
            Effect::ReduceAnyProduction(a) => {
                let able: Vec<usize> = (0..self.colors.len())
                    .filter(|q| self.players[*q].prod[a.res.index()] - a.count >= self.floor(a.res))
                    .collect();
                // Nobody able: nothing happens; one other player: no choice to make; the
                // acting player alone (or several): the acting player picks.
                if able.is_empty() || self.colors.len() == 1 {
                    return Ok(None);
                }
                if able.len() == 1 && able[0] != p {
                    self.players[able[0]].prod[a.res.index()] -= a.count;
                    return Ok(None);
                }
                return Ok(d(Pending::Target {
                    res: a.res,
                    count: a.count,
                    gain: false,
                }));
            }
            Effect::RemoveAnyPlants(n) => {
                if !self.plant_targets(p).is_empty() {
                    return Ok(d(Pending::RemovePlants(*n)));
                }
            }
            Effect::Raise(ps) => {
                for (param, steps) in ps {
                    self.raise(p, *param, *steps)?;
                }
            }
            Effect::Tr(n) => self.add_tr(p, *n),
            Effect::Place(pl) => {
                if pl.tile == "ocean" && self.param_value(Param::Oceans) >= self.goal(Param::Oceans)
                {
                    return Ok(None);
                }
                if let Some(Where::Space(id)) = &pl.on {
                    let s = *self.space_index.get(id).ok_or("unknown space")?;
                    self.place_tile(p, pl, s)?;
                    self.run_effects(p, &pl.then, card)?;
                    return Ok(None);
                }
                return Ok(d(Pending::Place {
                    place: pl.clone(),
                    card,
                }));
            }
            Effect::Draw(n) => {
                for _ in 0..*n {
                    if let Some(c) = self.draw_top(p) {
                        self.players[p].hand.push(c);
                    }
                }
            }
            Effect::AddHere(n) => {
                if let Some(c) = card {
                    *self.players[p].card_res.entry(c).or_insert(0) += n;
                }
            }
            Effect::SpendHere(n) => {
                let c = card.ok_or("no card")?;
                let x = self.players[p].card_res.entry(c).or_insert(0);
                if *x < *n {
                    return Err("too few resources on the card".into());
                }
                *x -= n;
            }
            Effect::AddToAny(cr) => {
                let targets = self.cards_holding(p, &cr.kind);
                match targets.len() {
                    0 => {}
                    1 => *self.players[p].card_res.entry(targets[0]).or_insert(0) += cr.count,
                    _ => {
                        return Ok(d(Pending::AddTo {
                            kind: cr.kind.clone(),
                            count: cr.count,
                        }))
                    }
                }
            }
            Effect::RemoveFromAny(cr) => {
                // Up to `count`: a card holding fewer loses what it holds.
                let able = self.cards_with(p, &cr.kind, 1);
                match able.len() {
                    0 => return Ok(None),
                    1 => {
                        let (q, c) = able[0];
                        let held = self.players[q].card_res.entry(c).or_insert(0);
                        *held -= cr.count.min(*held);
                        return Ok(None);
                    }
                    _ => {}
                }
                return Ok(d(Pending::RemoveFrom {
                    kind: cr.kind.clone(),
                    count: cr.count,
                    to: card,
                }));
            }
            Effect::Pay(pb) => {
                if !self.can_afford(p, pb.mc, pb.steel, pb.titanium) {
                    return Err("too little M€".into());
                }
                if self.needs_pay_input(p, pb.steel, pb.titanium) {
                    return Ok(d(Pending::Pay {
                        mc: pb.mc,
                        steel: pb.steel,
                        titanium: pb.titanium,
                        then: Box::new(Then::Effects(Vec::new(), card)),
                    }));
                }
                self.players[p].res[0] -= pb.mc;
            }
            Effect::Choose(cs) => {
                let mut opts = Vec::new();
                for c in cs {
                    if c.title.contains("{card}") {
                        for t in self.cards_holding_kind_in(p, &c.effects) {
                            let title = c.title.replace("{card}", &self.card(t).name);
                            let effects = c
                                .effects
                                .iter()
                                .map(|e| match e {
                                    Effect::AddToAny(cr) => {
                                        Effect::Script(format!("add:{}:{}", t, cr.count))
                                    }
                                    other => other.clone(),
                                })
                                .collect();
                            opts.push((title, effects));
                        }
                    } else if self.can_do_all(p, &c.effects, card) {
                        opts.push((c.title.clone(), c.effects.clone()));
                    }
                }
                if opts.len() == 1 {
                    let (_, effects) = opts.remove(0);
                    self.run_effects(p, &effects, card)?;
                    return Ok(None);
                }
                return Ok(d(Pending::Options(opts, card)));
            }
            Effect::If(i) => {
                let branch = if self.meets(p, &i.cond, 0, card) {
                    i.then.clone()
                } else {
                    i.otherwise.clone()
                };
                self.run_effects(p, &branch, card)?;
            }
            Effect::ProductionFromBonus(rs) => {
                if let Some(s) = self.last_space {
                    let bonus = self.content.map.spaces[s].bonus.clone();
                    if let Some(r) = bonus
                        .iter()
                        .filter(|b| rs.contains(b))
                        .find_map(|b| Res::from_key(b))
                    {
                        self.players[p].prod[r.index()] += 1;
                    }
                }
            }
            Effect::ConvertProduction(cp) => {
                let most = self.players[p].prod[cp.from.index()] - self.floor(cp.from);
                if most > 0 {
                    return Ok(d(Pending::Amount(cp.from, cp.to, most)));
                }
            }
            Effect::StealFromAdjacent(a) => {
                let Some(s) = self.last_space else {
                    return Ok(None);
                };
                let mut owners: Vec<usize> = self
                    .neighbours(s)
                    .filter_map(|n| self.tiles.get(&n).and_then(|t| t.owner))
                    .filter(|q| *q != p)
                    .collect();
                owners.sort_unstable();
                owners.dedup();
                if owners.is_empty() {
                    return Ok(None);
                }
                let mut opts: Vec<(String, Vec<Effect>)> = owners
                    .iter()
                    .map(|q| {
                        (
                            format!("Remove {} M€ from {}", a.count, self.colors[*q]),
                            vec![Effect::Script(format!("steal:{q}:{}", a.count))],
                        )
                    })
                    .collect();
                opts.push(("Don't remove M€ from adjacent player".into(), Vec::new()));
                return Ok(d(Pending::Options(opts, card)));
            }
            Effect::SellCards(each) => {
                return Ok(d(Pending::Sell(*each)));
            }
            Effect::Reveal(rv) => {
                if let Some(c) = self.draw_top(p) {
                    let hit = self.card(c).tags.contains(&rv.tag);
                    self.discard.push(c);
                    if hit {
                        self.run_effects(p, &rv.then.clone(), card)?;
                    }
                }
            }
            Effect::TrPer(pc) => {
                let n = self.per(p, pc, card);
                self.add_tr(p, n);
            }
            Effect::StealProduction(a) => {
                let i = a.res.index();
                if self.colors.len() == 1 {
                    self.players[p].prod[i] += a.count;
                    return Ok(None);
                }
                let able = |g: &Game| -> Vec<usize> {
                    (0..g.colors.len())
                        .filter(|q| g.players[*q].prod[i] - a.count >= g.floor(a.res))
                        .collect()
                };
                let mut targets = able(self);
                let mut gain = true;
                if targets.is_empty() {
                    // Nobody has it to lose: the player gains it first, then loses it.
                    self.players[p].prod[i] += a.count;
                    gain = false;
                    targets = able(self);
                }
                if targets.len() == 1 && targets[0] != p {
                    self.players[targets[0]].prod[i] -= a.count;
                    self.players[p].prod[i] += a.count;
                    return Ok(None);
                }
                if targets.is_empty() {
                    return Ok(None);
                }
                return Ok(d(Pending::Target {
                    res: a.res,
                    count: a.count,
                    gain,
                }));
            }
            Effect::DrawKeep(dk) => {
                let drawn = self.draw_many(p, dk.draw);
                if !drawn.is_empty() {
                    return Ok(d(Pending::Keep(drawn, r_usize(dk.keep))));
                }
            }
            Effect::DrawBuy(n) => {
                let drawn = self.draw_many(p, *n);
                if !drawn.is_empty() {
                    return Ok(d(Pending::BuyCards(drawn)));
                }
            }
            Effect::Discard(n) => {
                let n = r_usize(*n);
                if n > 0 && self.players[p].hand.len() >= n {
                    return Ok(d(Pending::Discard(n)));
                }
            }
            Effect::AddToHolding(n) => {
                if !self.cards_holding_any(p).is_empty() {
                    return Ok(d(Pending::AddToHolding(*n)));
                }
            }
            Effect::TakeFromAny(t) => {
                let mut opts: Vec<(String, Vec<Effect>)> = Vec::new();
                if self.colors.len() == 1 {
                    opts.extend(t.solo.iter().map(|c| (c.title.clone(), c.effects.clone())));
                } else {
                    for q in (0..self.colors.len()).filter(|q| *q != p) {
                        for tr in &t.res {
                            let have = self.players[q].res[tr.res.index()];
                            if have <= 0 {
                                continue;
                            }
                            let n = have.min(tr.count);
                            let title = t
                                .title
                                .replace("{n}", &n.to_string())
                                .replace("{res}", tr.name.as_deref().unwrap_or(tr.res.key()))
                                .replace("{player}", &self.colors[q]);
                            let script =
                                format!("take:{q}:{}:{n}:{}", tr.res.index(), u8::from(t.steal));
                            opts.push((title, vec![Effect::Script(script)]));
                        }
                    }
                    if !opts.is_empty() {
                        opts.push((t.skip.clone(), Vec::new()));
                    }
                }
                if !opts.is_empty() {
                    return Ok(d(Pending::Options(opts, card)));
                }
            }
            Effect::RemoveAnimalsOrPlants(r) => {
                if self.colors.len() == 1 {
                    return Ok(None);
                }
                let mut opts: Vec<(String, Vec<Effect>)> = Vec::new();
                if !self.cards_with(p, &r.kind, 1).is_empty() {
                    let from = crate::content::CardResources {
                        kind: r.kind.clone(),
                        count: r.count,
                    };
                    opts.push((r.title.clone(), vec![Effect::RemoveFromAny(from)]));
                }
                let targets = self.plant_targets(p);
                for q in &targets {
                    let n = self.players[*q].res[Res::Plants.index()].min(r.plants);
                    opts.push((
                        format!("Remove {n} plants from {}", self.colors[*q]),
                        vec![Effect::Script(format!(
                            "take:{q}:{}:{n}:0",
                            Res::Plants.index()
                        ))],
                    ));
                }
                // The engine's plant removal menu minus its last entry: its own skip entry
                // stays when the player has plants (their own removal was the last one).
                if !targets.is_empty() && self.players[p].res[Res::Plants.index()] > 0 {
                    opts.push((SKIP_REMOVING_PLANTS.to_owned(), Vec::new()));
                }
                if !opts.is_empty() {
                    opts.push((r.skip.clone(), Vec::new()));
                    return Ok(d(Pending::Options(opts, card)));
                }
            }
            Effect::ConvertStock(cv) => {
                let most = self.players[p].res[cv.from.index()];
                if most > 0 {
                    return Ok(d(Pending::StockAmount(cv.from, cv.to, most)));
                }
            }
            Effect::Claim => {
                if !self.claimable_spaces().is_empty() {
                    return Ok(d(Pending::Claim));
                }
            }
            Effect::CopyProduction(tag) => {
                if !self.copyable(p, tag).is_empty() {
                    return Ok(d(Pending::Copy(tag.clone())));
                }
            }
            Effect::ResourceOrPlant(rp) => {
                let Some(played) = self.playing else {
                    return Ok(None);
                };
                let holds = self
                    .card(played)
                    .resource
                    .as_ref()
                    .is_some_and(|k| rp.kinds.contains(k));
                if !holds {
                    self.players[p].res[Res::Plants.index()] += 1;
                    return Ok(None);
                }
                let opts = vec![
                    (
                        rp.title.replace("{card}", &self.card(played).name),
                        vec![Effect::Script(format!("add:{played}:1"))],
                    ),
                    (
                        rp.plant_title.clone(),
                        vec![Effect::Stock([(Res::Plants, 1)].into_iter().collect())],
                    ),
                ];
                return Ok(d(Pending::Options(opts, card)));
            }
            Effect::Script(name) => {
                if let Some(rest) = name.strip_prefix("take:") {
                    let parts: Vec<&str> = rest.split(':').collect();
                    let num = |i: usize| -> Result<i32, Refusal> {
                        parts
                            .get(i)
                            .and_then(|v| v.parse::<i32>().ok())
                            .ok_or_else(|| "bad take".to_owned())
                    };
                    let (q, r, n, steal) =
                        (r_usize(num(0)?), r_usize(num(1)?), num(2)?, num(3)? == 1);
                    let x = self
                        .players
                        .get_mut(q)
                        .and_then(|pl| pl.res.get_mut(r))
                        .ok_or("bad take")?;
                    let took = n.min(*x).max(0);
                    *x -= took;
                    if steal {
                        self.players[p].res[r] += took;
                    }
                } else if let Some(rest) = name.strip_prefix("steal:") {
                    let (q, n) = rest.split_once(':').ok_or("bad steal")?;
                    let q: usize = q.parse().map_err(|_| "bad steal")?;
                    let n: i32 = n.parse().map_err(|_| "bad steal")?;
                    let x = &mut self.players.get_mut(q).ok_or("bad steal")?.res[0];
                    *x -= n.min(*x);
                } else if let Some(rest) = name.strip_prefix("add:") {
                    let (t, n) = rest.split_once(':').ok_or("bad add")?;
                    let t: CardId = t.parse().map_err(|_| "bad add")?;
                    let n: i32 = n.parse().map_err(|_| "bad add")?;
                    *self.players[p].card_res.entry(t).or_insert(0) += n;
                } else {
                    return Ok(d(Pending::Unsupported(name.clone())));
                }
            }
        }
        Ok(None)
    }

    /// Every (owner, card) holding at least `n` resources of a kind that player `p` may
    /// remove (not a protected card, nor another player's shielded kind).
    fn cards_with(&self, p: usize, kind: &str, n: i32) -> Vec<(usize, CardId)> {
        let mut out = Vec::new();
        for (q, pl) in self.players.iter().enumerate() {
            if q != p && self.shielded(q, kind) {
                continue;
            }
            for (c, v) in &pl.card_res {
                let card = self.card(*c);
                if *v >= n && !card.protected && card.resource.as_deref() == Some(kind) {
                    out.push((q, *c));
                }
            }
        }
        out
    }

    /// Whether other players may not remove seat `q`'s plants (`plant`) or card resources of
    /// this kind.
    fn shielded(&self, q: usize, kind: &str) -> bool {
        let pl = &self.players[q];
        pl.corporation
            .iter()
            .chain(pl.played.iter())
            .any(|c| self.card(*c).shields.iter().any(|k| k == kind))
    }

    /// The other players whose plants player `p` may remove.
    fn plant_targets(&self, p: usize) -> Vec<usize> {
        (0..self.colors.len())
            .filter(|q| {
                *q != p
                    && self.players[*q].res[Res::Plants.index()] > 0
                    && !self.shielded(*q, "plant")
            })
            .collect()
    }

    /// Draws up to `n` cards from the top for player `p`.
    fn draw_many(&mut self, p: usize, n: i32) -> Vec<CardId> {
        (0..n).filter_map(|_| self.draw_top(p)).collect()
    }

    /// The cards named, each once and each among `from`.
    fn pick_from(&self, from: &[CardId], names: &[Name]) -> Result<Vec<CardId>, Refusal> {
        let mut out = Vec::new();
        for n in names {
            let c = self.card_id(n)?;
            if !from.contains(&c) || out.contains(&c) {
                return Err(format!("{n} is not among the cards to pick from"));
            }
            out.push(c);
        }
        Ok(out)
    }

    /// The player's cards holding at least one resource.
    fn cards_holding_any(&self, p: usize) -> Vec<CardId> {
        let pl = &self.players[p];
        pl.corporation
            .iter()
            .chain(pl.played.iter())
            .copied()
            .filter(|c| pl.card_res.get(c).is_some_and(|v| *v > 0))
            .collect()
    }

    /// Free land spaces nobody has claimed.
    fn claimable_spaces(&self) -> Vec<usize> {
        let spaces = &self.content.map.spaces;
        (0..spaces.len())
            .filter(|s| {
                spaces[*s].kind == SpaceType::Land
                    && !spaces[*s].reserved
                    && !self.tiles.contains_key(s)
                    && !self.claims.contains_key(s)
            })
            .collect()
    }

    /// The player's played non-event cards with `tag` whose production changes can be done
    /// again now.
    fn copyable(&self, p: usize, tag: &str) -> Vec<CardId> {
        let pl = &self.players[p];
        pl.corporation
            .iter()
            .chain(pl.played.iter())
            .copied()
            .filter(|c| {
                let card = self.card(*c);
                if card.kind == CardType::Event || !card.tags.iter().any(|t| t == tag) {
                    return false;
                }
                let effects = self.production_box(p, *c);
                !effects.is_empty() && self.can_do_all(p, &effects, Some(*c))
            })
            .collect()
    }

    /// The production changes card `c` of player `p` made when played (its production box):
    /// those among its effects, and the production a tile it placed got from its space's
    /// printed bonus (a placement whose follow-up is `ProductionFromBonus`).
    fn production_box(&self, p: usize, c: CardId) -> Vec<Effect> {
        let card = self.card(c);
        let mut effects = production_of(card);
        let from_bonus = card.play.iter().find_map(|e| match e {
            Effect::Place(pl) => pl.then.iter().find_map(|t| match t {
                Effect::ProductionFromBonus(rs) => Some(rs),
                _ => None,
            }),
            _ => None,
        });
        if let (Some(rs), Some(space)) = (from_bonus, self.tile_of_card(p, c)) {
            let bonus = &self.content.map.spaces[space].bonus;
            if let Some(r) = bonus
                .iter()
                .filter(|b| rs.contains(b))
                .find_map(|b| Res::from_key(b))
            {
                effects.push(Effect::Production(BTreeMap::from([(r, 1)])));
            }
        }
        effects
    }

    fn cards_holding_kind_in(&self, p: usize, effects: &[Effect]) -> Vec<CardId> {
        effects
            .iter()
            .find_map(|e| match e {
                Effect::AddToAny(cr) => Some(self.cards_holding(p, &cr.kind)),
                _ => None,
            })
            .unwrap_or_default()
    }

    fn cards_holding(&self, p: usize, kind: &str) -> Vec<CardId> {
        let pl = &self.players[p];
        pl.corporation
            .iter()
            .chain(pl.played.iter())
            .copied()
            .filter(|c| self.card(*c).resource.as_deref() == Some(kind))
            .collect()
    }

    fn per(&self, p: usize, pc: &PerCount, card: Option<CardId>) -> i32 {
        if pc.per <= 0 {
            return 0;
        }
        self.count(p, &pc.of, card) / pc.per
    }

    fn add_tr(&mut self, p: usize, n: i32) {
        self.players[p].tr += n;
        if n > 0 {
            self.players[p].tr_raised = true;
        }
    }

    fn raise(&mut self, p: usize, param: Param, steps: i32) -> Result<(), Refusal> {
        let Some(scale) = self.content.rules.parameters.get(&param).cloned() else {
            return Ok(());
        };
        for _ in 0..steps {
            let i = param_index(param);
            if self.params[i] >= scale.goal {
                break;
            }
            self.params[i] += scale.step;
            self.add_tr(p, 1);
            let v = self.params[i];
            for b in scale.bonuses.iter().filter(|b| b.at == v) {
                self.run_effects(p, &b.effects, None)?;
            }
        }
        Ok(())
    }

    // ---------- tiles ----------

    fn place_tile(&mut self, p: usize, place: &Place, space: usize) -> Result<(), Refusal> {
        if !self.legal_spaces(p, place).contains(&space) {
            return Err(format!(
                "a {} cannot go on space {}",
                place.tile, self.content.map.spaces[space].id
            ));
        }
        let ocean = place.tile == "ocean";
        let city = place.tile == "city" || place.counts_as.as_deref() == Some("city");
        self.tiles.insert(
            space,
            Tile {
                kind: Arc::from(place.tile.as_str()),
                city,
                owner: if ocean { None } else { Some(p) },
                neutral: false,
            },
        );
        self.last_space = Some(space);
        // Placement bonuses.
        let bonus = self.content.map.spaces[space].bonus.clone();
        let mut mineral = false;
        for b in &bonus {
            match b.as_str() {
                "draw_card" => {
                    if let Some(c) = self.draw_top(p) {
                        self.players[p].hand.push(c);
                    }
                }
                "plant" => self.players[p].res[Res::Plants.index()] += 1,
                other => {
                    if let Some(r) = Res::from_key(other) {
                        self.players[p].res[r.index()] += 1;
                        mineral |= matches!(r, Res::Steel | Res::Titanium);
                    }
                }
            }
        }
        let oceans_next = self
            .neighbours(space)
            .filter(|n| {
                self.tiles
                    .get(n)
                    .is_some_and(|t| t.kind.as_ref() == "ocean")
            })
            .count() as i32;
        self.players[p].res[0] += oceans_next * self.content.rules.ocean_adjacency_mc;
        if ocean {
            self.raise(p, Param::Oceans, 1)?;
        } else if place.tile == "greenery" && self.phase != Phase::Production {
            self.raise(p, Param::Oxygen, 1)?;
        }
        // Tile triggers.
        let cards = self.cards.clone();
        let on_mars = self.on_mars(space);
        let n = self.colors.len();
        for q in 0..n {
            let owned: Vec<CardId> = self.players[q].owned_cards().collect();
            for o in owned {
                for t in &cards[o].triggers {
                    if t.by == By::Owner && q != p {
                        continue;
                    }
                    if t.on_mars && !on_mars {
                        continue;
                    }
                    let fires = match &t.when {
                        Event::Tile(kinds) => kinds
                            .iter()
                            .any(|k| *k == place.tile || (k == "city" && city)),
                        Event::MineralBonus => mineral && q == p,
                        _ => false,
                    };
                    if fires {
                        self.defer(q, p, t.then.clone(), Some(o));
                    }
                }
            }
        }
        Ok(())
    }

    /// Queues a card's reaction to what `actor` did: another player's reaction comes first, one's
    /// own after everything else the action asks (as the engine defers them).
    fn defer(&mut self, owner: usize, actor: usize, effects: Vec<Effect>, card: Option<CardId>) {
        let prio = if owner == actor {
            Priority::Gain
        } else {
            Priority::OpponentTrigger
        };
        self.enqueue(Decision {
            player: owner,
            what: Pending::Continue(effects, card),
            prio,
        });
    }

    // ---------- answers to decisions ----------

    fn answer(&mut self, p: usize, what: Pending, step: &Step) -> Result<(), Refusal> {
        match (what, step) {
            (Pending::Research(drawn), Step::Buy(names)) => {
                let mut keep = Vec::new();
                for n in names {
                    let c = self.card_id(n)?;
                    if !drawn.contains(&c) || keep.contains(&c) {
                        return Err(format!("{n} is not among the drawn cards"));
                    }
                    keep.push(c);
                }
                let drop: Vec<CardId> = drawn
                    .iter()
                    .copied()
                    .filter(|c| !keep.contains(c))
                    .collect();
                let cost = self.content.rules.card_cost * keep.len() as i32;
                if !self.can_afford(p, cost, false, false) {
                    return Err("too little M€".into());
                }
                if cost > 0 && self.needs_pay_input(p, false, false) {
                    // Paid later by a `pay` input; asked after every player has chosen.
                    self.queue.push_back(Decision::new(
                        p,
                        Pending::Pay {
                            mc: cost,
                            steel: false,
                            titanium: false,
                            then: Box::new(Then::Research(keep, drop)),
                        },
                    ));
                    return Ok(());
                }
                self.players[p].res[0] -= cost;
                self.after_pay(p, Then::Research(keep, drop))
            }
            (
                Pending::Pay {
                    mc,
                    steel,
                    titanium,
                    then,
                },
                Step::Pay(kvs),
            ) => {
                let kvs = kvs.clone().unwrap_or_default();
                self.pay(p, mc, &kvs, steel, titanium)?;
                self.after_pay(p, *then)
            }
            (Pending::Place { place, card }, Step::Space(id)) => {
                let s = *self
                    .space_index
                    .get(id.as_str())
                    .ok_or_else(|| format!("unknown space {id}"))?;
                self.place_tile(p, &place, s)?;
                self.run_effects(p, &place.then, card)
            }
            (Pending::Target { res, count, gain }, Step::Target(color)) => {
                let q = self.seat(color)?;
                let floor = self.floor(res);
                if self.players[q].prod[res.index()] - count < floor {
                    return Err(format!("{color} has too little {} production", res.key()));
                }
                self.players[q].prod[res.index()] -= count;
                if gain {
                    self.players[p].prod[res.index()] += count;
                }
                Ok(())
            }
            (Pending::Draft, Step::Draft(names)) if names.len() == 1 => {
                let c = self.card_id(&names[0])?;
                let pl = &mut self.players[p];
                let at = pl
                    .draft_hand
                    .iter()
                    .position(|x| *x == c)
                    .ok_or_else(|| format!("{} is not in the draft hand", names[0]))?;
                pl.draft_hand.remove(at);
                pl.drafted.push(c);
                if !self.queue.iter().any(|d| d.what == Pending::Draft) {
                    self.pass_draft_hands();
                }
                Ok(())
            }
            (Pending::Keep(drawn, keep), Step::Cards(names)) => {
                let kept = self.pick_from(&drawn, names)?;
                if kept.len() != keep.min(drawn.len()) {
                    return Err(format!("keep {keep} of the drawn cards"));
                }
                self.players[p].hand.extend(kept.iter().copied());
                self.discard
                    .extend(drawn.iter().copied().filter(|c| !kept.contains(c)));
                Ok(())
            }
            (Pending::BuyCards(drawn), Step::Buy(names)) => {
                let keep = self.pick_from(&drawn, names)?;
                let drop: Vec<CardId> = drawn
                    .iter()
                    .copied()
                    .filter(|c| !keep.contains(c))
                    .collect();
                let cost = self.content.rules.card_cost * keep.len() as i32;
                if !self.can_afford(p, cost, false, false) {
                    return Err("too little M€".into());
                }
                if cost > 0 && self.needs_pay_input(p, false, false) {
                    self.push_front(
                        p,
                        Pending::Pay {
                            mc: cost,
                            steel: false,
                            titanium: false,
                            then: Box::new(Then::Research(keep, drop)),
                        },
                    );
                    return Ok(());
                }
                self.players[p].res[0] -= cost;
                self.after_pay(p, Then::Research(keep, drop))
            }
            (Pending::Discard(n), Step::Cards(names)) => {
                let hand = self.players[p].hand.clone();
                let gone = self.pick_from(&hand, names)?;
                if gone.len() != n {
                    return Err(format!("discard {n} card(s)"));
                }
                self.players[p].hand.retain(|c| !gone.contains(c));
                self.discard.extend(gone);
                Ok(())
            }
            (Pending::AddToHolding(count), Step::Cards(names)) if names.len() == 1 => {
                let c = self.card_id(&names[0])?;
                if !self.cards_holding_any(p).contains(&c) {
                    return Err(format!("{} holds no resources", names[0]));
                }
                *self.players[p].card_res.entry(c).or_insert(0) += count;
                Ok(())
            }
            (Pending::StockAmount(from, to, most), Step::Amount(n)) => {
                let n = i32::try_from(*n).map_err(|_| "absurd amount")?;
                if !(1..=most).contains(&n) {
                    return Err(format!("amount must be 1..={most}"));
                }
                self.players[p].res[from.index()] -= n;
                self.players[p].res[to.index()] += n;
                Ok(())
            }
            (Pending::Claim, Step::Space(id)) => {
                let s = *self
                    .space_index
                    .get(id.as_str())
                    .ok_or_else(|| format!("unknown space {id}"))?;
                if !self.claimable_spaces().contains(&s) {
                    return Err(format!("space {id} cannot be claimed"));
                }
                self.claims.insert(s, p);
                Ok(())
            }
            (Pending::Copy(tag), Step::Cards(names)) if names.len() == 1 => {
                let c = self.card_id(&names[0])?;
                if !self.copyable(p, &tag).contains(&c) {
                    return Err(format!("{} has no production to copy", names[0]));
                }
                let effects = self.production_box(p, c);
                self.run_effects(p, &effects, Some(c))
            }
            (Pending::RemovePlants(n), Step::Option(title, _)) => {
                if title == SKIP_REMOVING_PLANTS {
                    return Ok(());
                }
                for q in 0..self.colors.len() {
                    if q != p && self.shielded(q, "plant") {
                        continue;
                    }
                    let have = self.players[q].res[Res::Plants.index()];
                    let take = have.min(n);
                    if *title == format!("Remove {take} plants from {}", self.colors[q]) && take > 0
                    {
                        self.players[q].res[Res::Plants.index()] -= take;
                        return Ok(());
                    }
                }
                Err(format!("no option {title:?}"))
            }
            (Pending::Options(opts, card), Step::Option(title, _)) => {
                let (_, effects) = opts
                    .into_iter()
                    .find(|(t, _)| t == title)
                    .ok_or_else(|| format!("no option {title:?}"))?;
                self.run_effects(p, &effects, card)
            }
            (Pending::AddTo { kind, count }, Step::Cards(names)) if names.len() == 1 => {
                let c = self.card_id(&names[0])?;
                if !self.cards_holding(p, &kind).contains(&c) {
                    return Err(format!("{} cannot hold {kind}", names[0]));
                }
                *self.players[p].card_res.entry(c).or_insert(0) += count;
                Ok(())
            }
            (Pending::RemoveFrom { kind, count, .. }, Step::Cards(names)) if names.len() == 1 => {
                let c = self.card_id(&names[0])?;
                let owner = (0..self.colors.len())
                    .find(|q| self.players[*q].card_res.get(&c).is_some_and(|v| *v >= 1))
                    .ok_or_else(|| format!("{} holds no {kind}", names[0]))?;
                if self.card(c).resource.as_deref() != Some(kind.as_str())
                    || !self.cards_with(p, &kind, 1).contains(&(owner, c))
                {
                    return Err(format!("{} holds no {kind} that may be removed", names[0]));
                }
                let held = self.players[owner].card_res.entry(c).or_insert(0);
                *held -= count.min(*held);
                Ok(())
            }
            (Pending::FinalGreenery, Step::Option(title, _)) => {
                if title == legal::NO_FINAL_GREENERY {
                    self.skip_final_greenery_offers();
                    return Ok(());
                }
                if title != legal::FINAL_GREENERY {
                    return Err(format!("no option {title:?}"));
                }
                let need = self.plants_per_greenery(p);
                if self.players[p].res[Res::Plants.index()] < need {
                    return Err(format!("a greenery needs {need} plants"));
                }
                self.players[p].res[Res::Plants.index()] -= need;
                self.push_front(p, Pending::FinalGreenery);
                self.push_front(
                    p,
                    Pending::Place {
                        place: greenery_place(),
                        card: None,
                    },
                );
                Ok(())
            }
            (Pending::Amount(from, to, most), Step::Amount(n)) => {
                let n = i32::try_from(*n).map_err(|_| "absurd amount")?;
                if !(0..=most).contains(&n) {
                    return Err(format!("amount must be 0..={most}"));
                }
                self.players[p].prod[from.index()] -= n;
                self.players[p].prod[to.index()] += n;
                Ok(())
            }
            (Pending::Sell(each), Step::Cards(names)) => {
                if names.is_empty() {
                    return Err("sell at least one card".into());
                }
                let mut sold = Vec::new();
                for n in names {
                    let c = self.card_id(n)?;
                    if !self.players[p].hand.contains(&c) || sold.contains(&c) {
                        return Err(format!("{n} is not in hand"));
                    }
                    sold.push(c);
                }
                self.players[p].hand.retain(|c| !sold.contains(c));
                self.players[p].res[0] += each * sold.len() as i32;
                self.discard.extend(sold);
                Ok(())
            }
            (Pending::Unsupported(name), _) => Err(format!("hook {name:?} is not supported yet")),
            (what, step) => Err(format!("`{step}` does not answer {what:?}")),
        }
    }

    // ---------- scoring ----------

    fn metric(&self, p: usize, m: &Metric, final_scoring: bool) -> i32 {
        let pl = &self.players[p];
        match m {
            Metric::Tr => pl.tr,
            Metric::Tiles(kinds) => kinds.iter().map(|k| self.own_tiles(p, k)).sum(),
            Metric::TilesExcept(kinds) => self
                .tiles
                .values()
                .filter(|t| t.owner == Some(p) && !kinds.iter().any(|k| *k == *t.kind))
                .count() as i32,
            Metric::Tags(t) => self.tags_of(p, t),
            Metric::Hand => pl.hand.len() as i32,
            Metric::Production(r) => pl.prod[r.index()],
            Metric::Stock { res, energy_too } => {
                let mut v: i32 = res.iter().map(|r| pl.res[r.index()]).sum();
                if !final_scoring {
                    v += res.iter().map(|r| pl.prod[r.index()]).sum::<i32>();
                    if *energy_too {
                        v += pl.res[Res::Energy.index()];
                    }
                }
                v
            }
        }
    }

    fn card_vp(&self, p: usize, c: CardId) -> Option<i32> {
        let card = self.card(c);
        Some(match card.vp.as_ref()? {
            Vp::Fixed(v) => *v,
            Vp::Per(pc) => self.per(p, pc, Some(c)),
            Vp::Times { of, times } => self.count(p, of, Some(c)) * times,
            Vp::IfResources { if_resources } => {
                if self.players[p].card_res.get(&c).copied().unwrap_or(0) > 0 {
                    *if_resources
                } else {
                    0
                }
            }
        })
    }

    /// The VP each of `seat`'s owned cards (corporation first, then played cards in order)
    /// brings now, as scoring counts it: printed VP, VP per resource on the card, per tag or
    /// per tile. Cards without VP are left out; the numbers add up to the score's `cards`.
    pub fn card_vps(&self, seat: usize) -> Vec<(CardId, i32)> {
        let Some(pl) = self.players.get(seat) else {
            return Vec::new();
        };
        pl.owned_cards()
            .filter_map(|c| self.card_vp(seat, c).map(|v| (c, v)))
            .collect()
    }

    /// The cards `seat` can see as its own to choose from now, each once: the corporations
    /// and project cards dealt to it, its hand and played cards, the cards it drafts from or
    /// drafted, and those offered in a choice waiting for it (research, cards drawn to keep
    /// or buy).
    pub fn cards_before(&self, seat: usize) -> Vec<CardId> {
        let mut out: Vec<CardId> = Vec::new();
        self.each_card_before(seat, |c| out.push(c));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Calls `f` on each of [`Game::cards_before`] without gathering them (a card may come
    /// more than once).
    pub fn each_card_before(&self, seat: usize, mut f: impl FnMut(CardId)) {
        let Some(pl) = self.players.get(seat) else {
            return;
        };
        let lists = [
            self.dealt_corps.get(seat).map_or(&[][..], Vec::as_slice),
            self.dealt_cards.get(seat).map_or(&[][..], Vec::as_slice),
            &pl.played,
            &pl.hand,
            &pl.draft_hand,
            &pl.drafted,
        ];
        lists.iter().flat_map(|l| l.iter()).for_each(|c| f(*c));
        pl.corporation.into_iter().for_each(&mut f);
        if let Some(Some((corp, kept))) = self.initial.get(seat) {
            f(*corp);
            kept.iter().for_each(|c| f(*c));
        }
        for d in self.queue.iter().filter(|d| d.player == seat) {
            match &d.what {
                Pending::Research(cs) | Pending::Keep(cs, _) | Pending::BuyCards(cs) => {
                    cs.iter().for_each(|c| f(*c));
                }
                Pending::Pay { then, .. } => {
                    if let Then::Research(keep, drop) = &**then {
                        keep.iter().chain(drop).for_each(|c| f(*c));
                    }
                }
                _ => {}
            }
        }
    }

    /// The state of `seat`, if there is such a seat.
    pub fn player(&self, seat: usize) -> Option<&Player> {
        self.players.get(seat)
    }

    /// Whether card `c` is a corporation (else a project card).
    pub fn is_corporation(&self, c: CardId) -> bool {
        self.card(c).kind == CardType::Corporation
    }

    /// The VP of player `p` by source, without building the records' JSON ([`Game::score`]).
    pub fn vp_parts(&self, p: usize) -> VpParts {
        // Awards count stock alone once the final production is done (the final greenery
        // placement included); before, they project production into it.
        let final_scoring =
            self.phase == Phase::End || (self.phase == Phase::Production && self.terraformed());
        let pl = &self.players[p];
        let milestones = self.milestones.iter().filter(|(_, q)| *q == p).count() as i32
            * self.content.rules.milestone_vp;
        let n = self.colors.len();
        let mut awards = 0;
        for (a, _) in &self.awards {
            let metric = &self.content.scoring.awards[*a].metric;
            let values: Vec<i32> = (0..n)
                .map(|q| self.metric(q, metric, final_scoring))
                .collect();
            let best = *values.iter().max().unwrap_or(&0);
            let mine = values[p];
            let [first, second] = self.content.rules.award_vp;
            if mine == best {
                awards += first;
            } else if n >= self.content.rules.award_second_min_players
                && values.iter().filter(|v| **v == best).count() == 1
            {
                let second_best = values.iter().filter(|v| **v < best).max().copied();
                if Some(mine) == second_best {
                    awards += second;
                }
            }
        }
        let greenery = self.own_tiles(p, "greenery");
        let mut city = 0;
        for (s, t) in &self.tiles {
            if t.city && t.owner == Some(p) {
                city += self
                    .neighbours(*s)
                    .filter(|n| {
                        self.tiles
                            .get(n)
                            .is_some_and(|t| t.kind.as_ref() == "greenery")
                    })
                    .count() as i32;
            }
        }
        let cards = self.card_vps(p).iter().map(|(_, v)| v).sum();
        VpParts {
            tr: pl.tr,
            milestones,
            awards,
            greenery,
            city,
            cards,
        }
    }

    /// The score of player `p` as the records write it: [`Game::vp_parts`] with the total and
    /// the VP of each card that scores (or may score) VP.
    pub fn score(&self, p: usize) -> Value {
        let v = self.vp_parts(p);
        let mut details = Map::new();
        for (c, vp) in self.card_vps(p) {
            let card = self.card(c);
            if vp != 0
                || matches!(
                    card.vp,
                    Some(Vp::Per(_) | Vp::Times { .. } | Vp::IfResources { .. })
                )
            {
                details.insert(card.name.clone(), json!(vp));
            }
        }
        json!({"tr": v.tr, "milestones": v.milestones, "awards": v.awards, "greenery": v.greenery,
               "city": v.city, "cards": v.cards, "total": v.total(), "cardDetails": details})
    }

    /// The state in the record snapshot format.
    pub fn snapshot(&self) -> Value {
        let names = |ids: &[CardId]| -> Vec<String> {
            ids.iter().map(|c| self.card(*c).name.clone()).collect()
        };
        let res_obj = |a: &[i32; 6]| json!({"mc": a[0], "steel": a[1], "titanium": a[2], "plants": a[3], "energy": a[4], "heat": a[5]});
        let players: Vec<Value> = (0..self.colors.len())
            .map(|p| {
                let pl = &self.players[p];
                let mut hand = names(&pl.hand);
                hand.sort();
                let mut used = names(&pl.actions_used);
                used.sort();
                let mut cr = Map::new();
                for c in pl.corporation.iter().chain(pl.played.iter()) {
                    let v = pl.card_res.get(c).copied().unwrap_or(0);
                    if self.card(*c).resource.is_some() || v != 0 {
                        cr.insert(self.card(*c).name.clone(), json!(v));
                    }
                }
                let mut tiles: BTreeMap<String, i32> = BTreeMap::new();
                for t in self.tiles.values().filter(|t| t.owner == Some(p)) {
                    *tiles.entry(t.kind.to_string()).or_insert(0) += 1;
                }
                let score = self.score(p);
                let mut o = json!({
                    "color": self.colors[p], "tr": pl.tr, "res": res_obj(&pl.res),
                    "prod": res_obj(&pl.prod),
                    "corporation": pl.corporation.map(|c| self.card(c).name.clone()),
                    "hand": hand, "played": names(&pl.played), "cardResources": cr,
                    "actionsUsed": used, "tiles": tiles, "vp": score["total"].clone(),
                });
                if !pl.draft_hand.is_empty() {
                    let mut h = names(&pl.draft_hand);
                    h.sort();
                    o["draftHand"] = json!(h);
                }
                if !pl.drafted.is_empty() {
                    o["drafted"] = json!(names(&pl.drafted));
                }
                if self.phase == Phase::End {
                    o["score"] = score;
                }
                o
            })
            .collect();
        let mut tiles = Map::new();
        for (s, t) in &self.tiles {
            tiles.insert(
                self.content.map.spaces[*s].id.clone(),
                json!([
                    t.kind,
                    if t.neutral {
                        Some("neutral".to_owned())
                    } else {
                        t.owner.map(|o| self.colors[o].clone())
                    }
                ]),
            );
        }
        let passed: Vec<&String> = self.pass_order.iter().map(|p| &self.colors[*p]).collect();
        json!({
            "generation": self.generation, "phase": self.phase.name(),
            "temperature": self.params[1], "oxygen": self.params[0], "oceans": self.params[2],
            "first": self.colors[self.first], "active": self.colors[self.active], "passed": passed,
            "deck": {"draw": self.deck.len(), "discard": self.discard.len()},
            "players": players, "tiles": tiles,
            "milestones": self.milestones.iter().map(|(m, p)| json!({"name": self.content.scoring.milestones[*m].name, "player": self.colors[*p]})).collect::<Vec<_>>(),
            "awards": self.awards.iter().map(|(a, p)| json!({"name": self.content.scoring.awards[*a].name, "player": self.colors[*p]})).collect::<Vec<_>>(),
        })
    }

    /// The names of the cards drawn by the last input, with `true` for the top of the deck.
    pub fn last_draws(&self) -> Vec<(String, bool)> {
        self.draws
            .iter()
            .map(|(c, top)| (self.card(*c).name.clone(), *top))
            .collect()
    }
}

/// The production changes among a card's effects when played.
fn production_of(card: &Card) -> Vec<Effect> {
    card.play
        .iter()
        .filter(|e| matches!(e, Effect::Production(_) | Effect::ProductionPer(_)))
        .cloned()
        .collect()
}

/// The title of declining to remove plants.
pub(crate) const SKIP_REMOVING_PLANTS: &str = "Skip removing plants";

fn neutral_tile(kind: &str, city: bool) -> Tile {
    Tile {
        kind: Arc::from(kind),
        city,
        owner: None,
        neutral: true,
    }
}

fn greenery_place() -> Place {
    Place {
        tile: "greenery".into(),
        counts_as: None,
        on: None,
        title: None,
        then: Vec::new(),
    }
}

fn r_usize(v: i32) -> usize {
    usize::try_from(v).unwrap_or(0)
}
