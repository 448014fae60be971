//! Checks a saved state from outside against the content before a game resumes from it
//! ([`super::Game::load`]): every seat index, id, amount and the map, so that listing and
//! applying parts afterwards never meet a value the engine could not have made. Each error
//! names the field as a path into the saved state (`players[1].resources[0]`).

use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;

use super::{Decision, Game, GameState, SeatList, Stage};
use crate::board::FactionBoard;
use crate::content::Content;
use crate::lookup::by_id;
use crate::map::{within, MAX_SECTORS, MAX_SPACE_COORD};
use crate::notation::{Word, MAX_AMOUNT};
use crate::player::VP;
use orrery_core::hex::Hex;

/// The first problem of a saved state, naming its field.
type Check = Result<(), String>;

/// Fails with `path: message`.
fn fail(path: impl std::fmt::Display, message: impl std::fmt::Display) -> Check {
    Err(format!("{path}: {message}"))
}

/// Whether an id is among `known`.
fn is_known<'a>(id: &str, mut known: impl Iterator<Item = &'a str>) -> bool {
    known.any(|k| k == id)
}

/// Checks an id against the ids content knows for its kind.
fn known<'a>(
    path: impl std::fmt::Display,
    kind: &str,
    id: &str,
    ids: impl Iterator<Item = &'a str>,
) -> Check {
    if is_known(id, ids) {
        Ok(())
    } else {
        fail(path, format!("unknown {kind} \"{id}\""))
    }
}

/// Checks a count against [`MAX_AMOUNT`].
fn amount(path: impl std::fmt::Display, n: u32) -> Check {
    if n > MAX_AMOUNT {
        return fail(path, format!("{n} is beyond {MAX_AMOUNT}"));
    }
    Ok(())
}

/// Checks a list of seat indices: each names a seat, none twice.
fn seats(path: &str, list: &SeatList, n: usize) -> Check {
    let mut seen = HashSet::new();
    for (i, s) in list.iter().enumerate() {
        if s >= n {
            return fail(
                format!("{path}[{i}]"),
                format!("seat {s} does not exist ({n} seats)"),
            );
        }
        if !seen.insert(s) {
            return fail(format!("{path}[{i}]"), format!("seat {s} is listed twice"));
        }
    }
    Ok(())
}

/// Checks one seat index.
fn seat(path: impl std::fmt::Display, s: usize, n: usize) -> Check {
    if s >= n {
        return fail(path, format!("seat {s} does not exist ({n} seats)"));
    }
    Ok(())
}

/// Checks everything in a saved state against the content; the first problem found.
pub(crate) fn check(content: &Content, state: &GameState) -> Check {
    let n = state.players.len();
    if n == 0 || !content.rules.players.iter().any(|&p| usize::from(p) == n) {
        return fail(
            "players",
            format!(
                "{n} seats; the content plays with {:?}",
                content.rules.players
            ),
        );
    }
    if state.setup.players != n {
        return fail(
            "setup.players",
            format!("{} but the state has {n} seats", state.setup.players),
        );
    }
    state
        .setup
        .check(content)
        .map_err(|e| format!("setup: {e}"))?;
    check_map(content, state)?;
    check_players(content, state)?;
    check_board(content, state)?;
    check_flow(content, state)
}

/// The map and what lies on it.
fn check_map(content: &Content, state: &GameState) -> Check {
    let map = &state.map;
    if map.placements.len() > MAX_SECTORS {
        return fail(
            "map.placements",
            format!("{} sectors (at most {MAX_SECTORS})", map.placements.len()),
        );
    }
    if map.labels.len() != map.placements.len() {
        return fail(
            "map.labels",
            format!(
                "{} labels for {} sectors",
                map.labels.len(),
                map.placements.len()
            ),
        );
    }
    for (i, label) in map.labels.iter().enumerate() {
        if label.is_empty() || label.len() > 8 {
            return fail(format!("map.labels[{i}]"), format!("bad label \"{label}\""));
        }
    }
    for (i, p) in map.placements.iter().enumerate() {
        let path = format!("map.placements[{i}]");
        known(
            format!("{path}.sector"),
            "sector",
            &p.sector,
            content.sectors.sectors.iter().map(|s| s.id.as_str()),
        )?;
        if !within(p.center, crate::map::MAX_CENTER) {
            return fail(
                format!("{path}.center"),
                format!("{} is beyond the map's extent", p.center),
            );
        }
        if p.rotation > 5 {
            return fail(
                format!("{path}.rotation"),
                format!("{} (0 to 5)", p.rotation),
            );
        }
    }
    let mut hexes = HashSet::new();
    for (i, s) in map.spaces.iter().enumerate() {
        let path = format!("map.spaces[{i}]");
        if !within(s.hex, MAX_SPACE_COORD) {
            return fail(
                format!("{path}.hex"),
                format!("{} is beyond the map's extent", s.hex),
            );
        }
        if !hexes.insert(s.hex) {
            return fail(format!("{path}.hex"), format!("{} is listed twice", s.hex));
        }
        if usize::from(s.sector) >= map.placements.len() {
            return fail(
                format!("{path}.sector"),
                format!("sector {} is not placed", s.sector),
            );
        }
        if usize::from(s.planet) >= content.planets.planets.len() {
            return fail(
                format!("{path}.planet"),
                format!("unknown planet {}", s.planet),
            );
        }
    }
    if map.spaces.len() >= usize::from(u16::MAX) {
        return fail("map.spaces", format!("{} spaces", map.spaces.len()));
    }
    let spaces = map.spaces.len();
    if state.planets.len() != spaces {
        return fail(
            "planets",
            format!("{} planets for {spaces} spaces", state.planets.len()),
        );
    }
    if let Some(i) = state
        .planets
        .iter()
        .position(|p| usize::from(*p) >= content.planets.planets.len())
    {
        return fail(
            format!("planets[{i}]"),
            format!("unknown planet {}", state.planets[i]),
        );
    }
    let n = state.players.len();
    // Each seat's board, resolved the first time one of its structures is checked.
    let mut boards: Vec<Option<FactionBoard>> = (0..n).map(|_| None).collect();
    for (at, list) in state.structures.iter() {
        if *at >= spaces {
            return fail(format!("structures.{at}"), "no such space on the map");
        }
        for (j, s) in list.iter().enumerate() {
            let path = format!("structures.{at}[{j}]");
            seat(format!("{path}.seat"), s.seat, n)?;
            let faction = &state.players[s.seat].faction;
            if let Some(f) = content.faction(faction) {
                let board =
                    boards[s.seat].get_or_insert_with(|| FactionBoard::resolve(&content.board, f));
                known(
                    format!("{path}.building"),
                    "building",
                    &s.building,
                    board.buildings.iter().map(|b| b.id.as_str()),
                )?;
            } else {
                return fail(
                    format!("{path}.seat"),
                    format!("seat {} has no faction", s.seat),
                );
            }
        }
    }
    let on_map = |hex: Hex| hexes.contains(&hex);
    for (i, g) in state.gaiaformers.iter().enumerate() {
        seat(format!("gaiaformers[{i}].seat"), g.seat, n)?;
        if !on_map(g.hex) {
            return fail(
                format!("gaiaformers[{i}].hex"),
                format!("{} is not on the map", g.hex),
            );
        }
    }
    for (s, p) in state.players.iter().enumerate() {
        for (i, h) in p.satellites.iter().enumerate() {
            if !on_map(*h) {
                return fail(
                    format!("players[{s}].satellites[{i}]"),
                    format!("{h} is not on the map"),
                );
            }
        }
        for (i, fed) in p.federations.iter().enumerate() {
            if let Some(j) = fed.iter().position(|h| !on_map(*h)) {
                return fail(
                    format!("players[{s}].federations[{i}][{j}]"),
                    format!("{} is not on the map", fed[j]),
                );
            }
        }
    }
    Ok(())
}

/// Each seat's holdings.
fn check_players(content: &Content, state: &GameState) -> Check {
    let mut factions = HashSet::new();
    for (s, p) in state.players.iter().enumerate() {
        let path = format!("players[{s}]");
        if !p.faction.is_empty() {
            if content.faction(&p.faction).is_none() {
                return fail(
                    format!("{path}.faction"),
                    format!("unknown faction \"{}\"", p.faction),
                );
            }
            if !factions.insert(p.faction.clone()) {
                return fail(
                    format!("{path}.faction"),
                    format!("faction \"{}\" is played by two seats", p.faction),
                );
            }
        } else if state.stage != Stage::Setup {
            return fail(
                format!("{path}.faction"),
                "a seat has no faction after setup",
            );
        }
        let resources = &content.rules.resources;
        if p.resources.len() != resources.len() {
            return fail(
                format!("{path}.resources"),
                format!(
                    "{} resources; the content has {}",
                    p.resources.len(),
                    resources.len()
                ),
            );
        }
        for (i, (r, &have)) in resources.iter().zip(&p.resources).enumerate() {
            let at = format!("{path}.resources[{i}] ({})", r.id);
            // Victory points may fall below zero (a bid paid); nothing else may.
            if have < 0 && r.id != VP {
                return fail(at, format!("{have} is negative"));
            }
            if have.unsigned_abs() > MAX_AMOUNT {
                return fail(at, format!("{have} is beyond {MAX_AMOUNT}"));
            }
            if let Some(cap) = r.cap {
                if have > cap {
                    return fail(at, format!("{have} is above the cap {cap}"));
                }
            }
        }
        for (i, t) in p.power.areas.iter().enumerate() {
            amount(format!("{path}.power.areas[{i}]"), *t)?;
        }
        if let Some(sp) = &p.power.special {
            amount(format!("{path}.power.special.value"), sp.value)?;
        }
        for (track, level) in &p.research {
            let at = format!("{path}.research.{track}");
            let Some(t) = by_id(&content.research.tracks, track) else {
                return fail(at, format!("unknown research track \"{track}\""));
            };
            let top = t.levels.len().saturating_sub(1);
            if usize::try_from(*level).map_or(true, |l| l > top) {
                return fail(
                    at,
                    format!("level {level} is beyond the track's top ({top})"),
                );
            }
        }
        amount(format!("{path}.gaiaformers"), p.gaiaformers)?;
        amount(format!("{path}.gaiaformers_in_gaia"), p.gaiaformers_in_gaia)?;
        amount(format!("{path}.formations"), p.formations)?;
        // Every formation gained a federation token, and tokens are never given back.
        let formed = (p.formations as usize).max(p.federations.len());
        if formed > p.tokens.len() {
            return fail(
                format!("{path}.formations"),
                format!(
                    "{formed} federations formed but {} federation tokens held",
                    p.tokens.len()
                ),
            );
        }
        for (b, count) in &p.built {
            amount(format!("{path}.built.{b}"), *count)?;
        }
        if let Some(b) = p.booster.as_ref() {
            let boosters = content.boosters.boosters.iter().map(|t| t.id.as_str());
            known(format!("{path}.booster"), "booster", b, boosters)?;
        }
        for (i, t) in p.techs.iter().enumerate() {
            let tiles = content.tech_tiles.tiles.iter().map(|t| t.id.as_str());
            known(format!("{path}.techs[{i}]"), "tech tile", &t.id, tiles)?;
        }
        for (i, t) in p.advanced.iter().enumerate() {
            let tiles = content.advanced_tiles.tiles.iter().map(|t| t.id.as_str());
            known(format!("{path}.advanced[{i}]"), "advanced tile", t, tiles)?;
        }
        for (i, t) in p.tokens.iter().enumerate() {
            let tokens = content
                .federation_tokens
                .tokens
                .iter()
                .map(|t| t.id.as_str());
            known(
                format!("{path}.tokens[{i}]"),
                "federation token",
                &t.id,
                tokens,
            )?;
        }
        for (source, vp) in &p.vp_sources {
            if vp.unsigned_abs() > MAX_AMOUNT {
                return fail(
                    format!("{path}.vp_sources.{source}"),
                    format!("{vp} is beyond {MAX_AMOUNT}"),
                );
            }
        }
    }
    Ok(())
}

/// What lies on the shared board: tiles, boosters, tokens, used actions.
fn check_board(content: &Content, state: &GameState) -> Check {
    let boosters = || content.boosters.boosters.iter().map(|t| t.id.as_str());
    for (i, b) in state.boosters.iter().enumerate() {
        known(format!("boosters[{i}]"), "booster", b, boosters())?;
    }
    let positions = || content.tech_tiles.positions.iter().map(|t| t.id.as_str());
    for (pos, count) in state.tech_left.iter() {
        known(
            format!("tech_left.{pos}"),
            "tech tile position",
            pos,
            positions(),
        )?;
        amount(format!("tech_left.{pos}"), *count)?;
    }
    let adv = || content.advanced_tiles.tiles.iter().map(|t| t.id.as_str());
    for (pos, tile) in state.adv_left.iter() {
        if !state.setup.adv_techs.contains_key(pos.as_str()) {
            return fail(
                format!("adv_left.{pos}"),
                "not an advanced tile position of the setup",
            );
        }
        known(format!("adv_left.{pos}"), "advanced tile", tile, adv())?;
    }
    let tokens = || {
        content
            .federation_tokens
            .tokens
            .iter()
            .map(|t| t.id.as_str())
    };
    for (id, count) in state.fed_supply.iter() {
        known(format!("fed_supply.{id}"), "federation token", id, tokens())?;
        amount(format!("fed_supply.{id}"), *count)?;
    }
    if let Some(t) = &state.track_token {
        known("track_token", "federation token", t, tokens())?;
    }
    let actions = || content.board_actions.actions.iter().map(|a| a.id.as_str());
    for (i, a) in state.actions_used.iter().enumerate() {
        known(format!("actions_used[{i}]"), "board action", a, actions())?;
    }
    for (i, f) in state.chosen.iter().enumerate() {
        if content.faction(f).is_none() {
            return fail(format!("chosen[{i}]"), format!("unknown faction \"{f}\""));
        }
    }
    for (i, b) in state.bids.iter().enumerate() {
        amount(format!("bids[{i}]"), *b)?;
    }
    Ok(())
}

/// Turn order, the decisions waited for and the open one.
fn check_flow(content: &Content, state: &GameState) -> Check {
    let n = state.players.len();
    if state.round > content.rules.rounds.saturating_add(1) {
        return fail(
            "round",
            format!("{} (the game has {})", state.round, content.rules.rounds),
        );
    }
    seats("order", &state.order, n)?;
    seats("passed_order", &state.passed_order, n)?;
    seats("gaia_todo", &state.gaia_todo, n)?;
    seats("income_todo", &state.income_todo, n)?;
    if let Some(c) = state.current {
        seat("current", c, n)?;
    }
    if state.bids.len() > n {
        return fail("bids", format!("{} bids for {n} seats", state.bids.len()));
    }
    for s in state.income_pending.keys() {
        seat(format!("income_pending.{s}"), *s, n)?;
    }
    let decisions = state
        .queue
        .iter()
        .enumerate()
        .map(|(i, d)| (format!("queue[{i}]"), d))
        .chain(state.open.iter().map(|d| ("open".to_string(), d)));
    for (path, d) in decisions {
        let s = d.seat();
        seat(&path, s, n)?;
        let before_faction = matches!(d, Decision::Faction(_) | Decision::Bid(_));
        if !before_faction && state.players[s].faction.is_empty() {
            return fail(&path, format!("seat {s} has no faction yet"));
        }
        if let Decision::Leech { value, from, .. } = d {
            amount(format!("{path}.value"), *value)?;
            if let Some(f) = from {
                seat(format!("{path}.from.seat"), f.seat, n)?;
                if f.space >= state.map.spaces.len() {
                    return fail(
                        format!("{path}.from.space"),
                        format!("space {} is not on the map", f.space),
                    );
                }
            }
        }
    }
    if let Some(q) = &state.question {
        seat("question.seat", q.seat, n)?;
        if state.players[q.seat].faction.is_empty() {
            return fail(
                "question.seat",
                format!("seat {} has no faction yet", q.seat),
            );
        }
    }
    let t = &state.turn;
    // Leech sources are spaces of the map.
    let spaces = state.map.spaces.len();
    if let Some(i) = t.leech.iter().position(|s| *s >= spaces) {
        return fail(
            format!("turn.leech[{i}]"),
            format!("space {} is not on the map", t.leech[i]),
        );
    }
    if let Some(s) = t.deferred_leech.filter(|s| *s >= spaces) {
        return fail(
            "turn.deferred_leech",
            format!("space {s} is not on the map"),
        );
    }
    amount("turn.steps", t.steps)?;
    amount("turn.range", t.range)?;
    let seen: BTreeSet<&Word> = state.actions_used.iter().collect();
    if seen.len() != state.actions_used.len() {
        return fail("actions_used", "an action is listed twice");
    }
    Ok(())
}

impl Game {
    /// A game resumed from a saved state that may come from anywhere (the only way in from
    /// outside): the whole state is checked against the content first (see
    /// this module: every seat index, id and amount, the map), so listing and applying
    /// parts afterwards cannot meet a value the engine could not have made.
    ///
    /// # Errors
    ///
    /// The first problem found, naming its field as a path into the state
    /// (`players[1].resources[0] (c): -5 is negative`).
    pub fn load(content: Arc<Content>, mut state: GameState) -> Result<Game, String> {
        check(&content, &state)?;
        // A state saved before formations were counted: each federation is one at least.
        for p in &mut state.players {
            let feds = u32::try_from(p.federations.len()).unwrap_or(u32::MAX);
            p.formations = p.formations.max(feds);
        }
        Ok(Game::from_state(content, state))
    }
}
