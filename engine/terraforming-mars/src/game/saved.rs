//! The saved form of a game (`replay --save-state`, `play --save-state`): the whole state,
//! hidden information included (the deck's order, every hand, the generator), like a save
//! file. It names the content's cards and spaces in the order its numbers refer to them, so a
//! state saved on other content is refused, saying where they differ; every number that points
//! into the content or at a seat is checked, and amounts are bounded, before a game is built.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use orrery_core::rng::Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::playable::Picking;
use super::{CardId, Decision, Game, Pending, Phase, Player, Tables, Then, Tile};
use crate::content::{Content, GameOptions};

/// The version of the saved form this build writes and reads.
pub const FORMAT: u32 = 1;

/// The largest amount (resources, production, TR, parameters, costs, and the generation and
/// input counters) a saved state may hold, either sign, so that play from it cannot overflow.
pub const MAX_SAVED_AMOUNT: i32 = 1_000_000;

/// The state as saved: [`Game`]'s fields, less what the content gives (the card and space
/// tables), plus the card and space names its numbers index.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    format: u32,
    cards: Vec<String>,
    spaces: Vec<String>,
    colors: Vec<String>,
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
    inputs: usize,
    picking: Option<Picking>,
    options: GameOptions,
    claims: BTreeMap<usize, usize>,
    playing: Option<CardId>,
}

/// Every card of the content in the order a game numbers them: corporations, then projects.
fn card_names(content: &Content) -> impl Iterator<Item = &str> {
    content
        .corporations
        .iter()
        .chain(&content.projects)
        .map(|c| c.name.as_str())
}

/// The game's saved form.
///
/// # Errors
/// A state that does not write as JSON (not expected of a game in play).
pub fn to_value(game: &Game) -> Result<Value, String> {
    let saved = Saved {
        format: FORMAT,
        cards: game.cards.iter().map(|c| c.name.clone()).collect(),
        spaces: game
            .content
            .map
            .spaces
            .iter()
            .map(|s| s.id.clone())
            .collect(),
        colors: game.colors.to_vec(),
        players: game.players.clone(),
        generation: game.generation,
        phase: game.phase,
        first: game.first,
        active: game.active,
        passed: game.passed.clone(),
        pass_order: game.pass_order.clone(),
        actions_taken: game.actions_taken,
        params: game.params,
        deck: game.deck.clone(),
        discard: game.discard.clone(),
        tiles: game.tiles.clone(),
        milestones: game.milestones.clone(),
        awards: game.awards.clone(),
        queue: game.queue.clone(),
        initial: game.initial.clone(),
        dealt_corps: game.dealt_corps.clone(),
        dealt_cards: game.dealt_cards.clone(),
        planned_shuffles: game.planned_shuffles.clone(),
        rng: game.rng.clone(),
        last_space: game.last_space,
        inputs: game.inputs,
        picking: game.picking.clone(),
        options: (*game.options).clone(),
        claims: game.claims.clone(),
        playing: game.playing,
    };
    serde_json::to_value(&saved).map_err(|e| format!("the state does not write: {e}"))
}

/// A game from its saved form on `content`.
///
/// # Errors
/// Not a saved state (a missing or unknown field, a wrong type), a state saved on other
/// content (its cards or spaces differ), or one whose numbers point outside the content or
/// the seats, or exceed [`MAX_SAVED_AMOUNT`]; the message says which.
pub fn from_value(content: Arc<Content>, value: Value) -> Result<Game, String> {
    let format = value.get("format").and_then(Value::as_u64);
    if format != Some(u64::from(FORMAT)) {
        return Err(match value.get("format") {
            Some(f) => format!("saved form {f} is not the one this build reads ({FORMAT})"),
            None => "not a saved Terraforming Mars state (no `format`)".into(),
        });
    }
    let saved: Saved = serde_json::from_value(value).map_err(|e| e.to_string())?;
    fits(&saved, &content)?;
    let Tables {
        cards,
        by_name,
        space_index,
        adjacent,
    } = Tables::of(&content);
    Ok(Game {
        content,
        cards: Arc::new(cards),
        by_name: Arc::new(by_name),
        space_index: Arc::new(space_index),
        adjacent: Arc::new(adjacent),
        colors: Arc::new(saved.colors),
        players: saved.players,
        generation: saved.generation,
        phase: saved.phase,
        first: saved.first,
        active: saved.active,
        passed: saved.passed,
        pass_order: saved.pass_order,
        actions_taken: saved.actions_taken,
        params: saved.params,
        deck: saved.deck,
        discard: saved.discard,
        tiles: saved.tiles,
        milestones: saved.milestones,
        awards: saved.awards,
        queue: saved.queue,
        initial: saved.initial,
        dealt_corps: saved.dealt_corps,
        dealt_cards: saved.dealt_cards,
        planned_shuffles: saved.planned_shuffles,
        rng: saved.rng,
        last_space: saved.last_space,
        inputs: saved.inputs,
        picking: saved.picking,
        options: Arc::new(saved.options),
        claims: saved.claims,
        playing: saved.playing,
        draws: Vec::new(),
    })
}

/// Refuses a saved state that does not fit `content`, saying why.
fn fits(s: &Saved, content: &Content) -> Result<(), String> {
    same_names("card", &s.cards, card_names(content))?;
    same_names(
        "space",
        &s.spaces,
        content.map.spaces.iter().map(|x| x.id.as_str()),
    )?;
    let n = s.colors.len();
    if !(1..=5).contains(&n) {
        return Err(format!("{n} seats: Terraforming Mars seats 1 to 5"));
    }
    for (i, c) in s.colors.iter().enumerate() {
        if c.is_empty() || !c.bytes().all(|b| b.is_ascii_lowercase()) {
            return Err(format!(
                "colors[{i}]: {c:?} is not a color (lowercase letters)"
            ));
        }
        if s.colors[..i].contains(c) {
            return Err(format!("colors[{i}]: {c:?} seats twice"));
        }
    }
    for (field, len) in [
        ("players", s.players.len()),
        ("passed", s.passed.len()),
        ("initial", s.initial.len()),
        ("dealt_corps", s.dealt_corps.len()),
        ("dealt_cards", s.dealt_cards.len()),
    ] {
        if len != n {
            return Err(format!("{field} has {len} entries for {n} seats"));
        }
    }
    let seat = |what: &str, p: usize| {
        if p < n {
            Ok(())
        } else {
            Err(format!("{what}: seat {p} of {n}"))
        }
    };
    seat("first", s.first)?;
    seat("active", s.active)?;
    for p in &s.pass_order {
        seat("pass_order", *p)?;
    }
    let card_count = s.cards.len();
    let card = |what: &str, c: CardId| {
        if c < card_count {
            Ok(())
        } else {
            Err(format!("{what}: card {c} of {card_count}"))
        }
    };
    let cards = |what: &str, list: &[CardId]| list.iter().try_for_each(|c| card(what, *c));
    let amount = |what: &str, v: i32| {
        if v.checked_abs().is_some_and(|a| a <= MAX_SAVED_AMOUNT) {
            Ok(())
        } else {
            Err(format!("{what}: {v} is beyond ±{MAX_SAVED_AMOUNT}"))
        }
    };
    for (p, pl) in s.players.iter().enumerate() {
        let at = |f: &str| format!("players[{p}].{f}");
        amount(&at("tr"), pl.tr)?;
        for v in pl.res {
            amount(&at("res"), v)?;
        }
        for v in pl.prod {
            amount(&at("prod"), v)?;
        }
        amount(&at("next_card_bonus"), pl.next_card_bonus)?;
        amount(&at("next_card_discount"), pl.next_card_discount)?;
        cards(&at("draft_hand"), &pl.draft_hand)?;
        cards(&at("drafted"), &pl.drafted)?;
        if let Some(c) = pl.corporation {
            card(&at("corporation"), c)?;
        }
        cards(&at("hand"), &pl.hand)?;
        cards(&at("played"), &pl.played)?;
        cards(&at("actions_used"), &pl.actions_used)?;
        for (c, v) in &pl.card_res {
            card(&at("card_res"), *c)?;
            amount(&at("card_res"), *v)?;
        }
    }
    for v in s.params {
        amount("params", v)?;
    }
    // Counters that play adds to.
    for (what, v) in [
        ("generation", u64::from(s.generation)),
        ("actions_taken", u64::from(s.actions_taken)),
        ("inputs", s.inputs as u64),
    ] {
        if v > MAX_SAVED_AMOUNT as u64 {
            return Err(format!("{what}: {v} is beyond {MAX_SAVED_AMOUNT}"));
        }
    }
    s.deck.iter().try_for_each(|c| card("deck", *c))?;
    cards("discard", &s.discard)?;
    for shuffle in &s.planned_shuffles {
        cards("planned_shuffles", shuffle)?;
    }
    for (p, dealt) in s.dealt_corps.iter().enumerate() {
        cards(&format!("dealt_corps[{p}]"), dealt)?;
    }
    for (p, dealt) in s.dealt_cards.iter().enumerate() {
        cards(&format!("dealt_cards[{p}]"), dealt)?;
    }
    for (c, kept) in s.initial.iter().flatten() {
        card("initial", *c)?;
        cards("initial", kept)?;
    }
    let spaces = s.spaces.len();
    let space = |what: &str, i: usize| {
        if i < spaces {
            Ok(())
        } else {
            Err(format!("{what}: space {i} of {spaces}"))
        }
    };
    for (i, t) in &s.tiles {
        space("tiles", *i)?;
        if let Some(o) = t.owner {
            seat("tiles", o)?;
        }
    }
    if let Some(i) = s.last_space {
        space("last_space", i)?;
    }
    for (i, p) in &s.claims {
        space("claims", *i)?;
        seat("claims", *p)?;
    }
    if let Some(c) = s.playing {
        card("playing", c)?;
    }
    for m in &s.options.modules {
        if !content.rules.modules.iter().any(|k| &k.id == m) {
            return Err(format!("options: no module {m:?} in the content"));
        }
    }
    let milestones = content.scoring.milestones.len();
    for (m, p) in &s.milestones {
        if *m >= milestones {
            return Err(format!("milestones: milestone {m} of {milestones}"));
        }
        seat("milestones", *p)?;
    }
    let awards = content.scoring.awards.len();
    for (a, p) in &s.awards {
        if *a >= awards {
            return Err(format!("awards: award {a} of {awards}"));
        }
        seat("awards", *p)?;
    }
    for (i, d) in s.queue.iter().enumerate() {
        let at = format!("queue[{i}]");
        seat(&at, d.player)?;
        pending_fits(&d.what, &at, &card, &amount, milestones)?;
    }
    if let Some(pk) = &s.picking {
        if !s.colors.iter().any(|c| *c == pk.choice.player) {
            return Err(format!("picking: no seat {:?}", pk.choice.player));
        }
        let Some(set) = &pk.choice.set else {
            return Err("picking: the input picks no cards".into());
        };
        if pk.next >= set.from.len() || pk.taken.len() > set.max || set.min > set.max {
            return Err(format!(
                "picking: card {} of {} with {} taken (at most {})",
                pk.next,
                set.from.len(),
                pk.taken.len(),
                set.max
            ));
        }
    }
    Ok(())
}

/// Refuses a pending decision pointing outside the content or with an amount out of bounds.
fn pending_fits(
    what: &Pending,
    at: &str,
    card: &dyn Fn(&str, CardId) -> Result<(), String>,
    amount: &dyn Fn(&str, i32) -> Result<(), String>,
    milestones: usize,
) -> Result<(), String> {
    let maybe = |c: &Option<CardId>| c.map_or(Ok(()), |c| card(at, c));
    match what {
        Pending::Initial
        | Pending::FinalGreenery
        | Pending::Unsupported(_)
        | Pending::Options(_, None)
        | Pending::Continue(_, None)
        | Pending::Draft
        | Pending::Claim
        | Pending::Copy(_) => Ok(()),
        Pending::Keep(list, keep) => {
            list.iter().try_for_each(|c| card(at, *c))?;
            amount(at, i32::try_from(*keep).unwrap_or(i32::MAX))
        }
        Pending::BuyCards(list) => list.iter().try_for_each(|c| card(at, *c)),
        Pending::Discard(count) => amount(at, i32::try_from(*count).unwrap_or(i32::MAX)),
        Pending::AddToHolding(count) | Pending::StockAmount(_, _, count) => amount(at, *count),
        Pending::Research(list) => list.iter().try_for_each(|c| card(at, *c)),
        Pending::Pay { mc, then, .. } => {
            amount(at, *mc)?;
            match &**then {
                Then::Research(a, b) => a.iter().chain(b).try_for_each(|c| card(at, *c)),
                Then::Milestone(m) if *m >= milestones => {
                    Err(format!("{at}: milestone {m} of {milestones}"))
                }
                Then::Milestone(_) => Ok(()),
                Then::Effects(_, c) => maybe(c),
            }
        }
        Pending::Place { card: c, .. } | Pending::Options(_, c) | Pending::Continue(_, c) => {
            maybe(c)
        }
        Pending::Target { count, .. }
        | Pending::RemovePlants(count)
        | Pending::AddTo { count, .. }
        | Pending::Amount(_, _, count)
        | Pending::Sell(count) => amount(at, *count),
        Pending::RemoveFrom { count, to, .. } => {
            amount(at, *count)?;
            maybe(to)
        }
    }
}

/// Refuses a state whose list of `kind` names differs from the content's, naming the first
/// difference.
fn same_names<'a>(
    kind: &str,
    saved: &[String],
    content: impl Iterator<Item = &'a str>,
) -> Result<(), String> {
    let content: Vec<&str> = content.collect();
    if let Some(i) = (0..saved.len().min(content.len())).find(|i| saved[*i] != content[*i]) {
        return Err(format!(
            "saved on other content: {kind} {i} is {:?} in the state but {:?} in the content",
            saved[i], content[i]
        ));
    }
    if saved.len() != content.len() {
        return Err(format!(
            "saved on other content: the state has {} {kind}s, the content {}",
            saved.len(),
            content.len()
        ));
    }
    Ok(())
}

/// A pick's input saved with its steps in the line notation.
pub(super) mod choice_form {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::game::{Choice, SetChoice};
    use crate::notation::Step;

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Form {
        player: crate::notation::Name,
        steps: Vec<String>,
        set: Option<SetChoice>,
    }

    pub fn serialize<S: Serializer>(c: &Choice, s: S) -> Result<S::Ok, S::Error> {
        Form {
            player: c.player.clone(),
            steps: c.steps.iter().map(ToString::to_string).collect(),
            set: c.set.clone(),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Choice, D::Error> {
        let f = Form::deserialize(d)?;
        let steps = f
            .steps
            .iter()
            .map(|t| Step::parse(t).map_err(|e| serde::de::Error::custom(e.0)))
            .collect::<Result<_, _>>()?;
        Ok(Choice {
            player: f.player,
            steps,
            set: f.set,
        })
    }
}
