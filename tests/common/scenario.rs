//! Helpers for scenario tests: replay a recorded game to a point, then try lines.
#![allow(dead_code)]

use std::sync::Arc;

use orrery_core::hex::Hex;
use orrery_gp::content::Content;
use orrery_gp::game::{Decision, Game};
use orrery_gp::notation::{parse_hex_ref, parse_line, Command, MoveLine};
use orrery_gp::record::{replay, Record};

pub fn record(name: &str) -> Record {
    let path = super::root()
        .join("tests/data/conformance")
        .join(format!("{name}.json"));
    Record::from_json(&super::read_record(&path)).expect("a record")
}

/// The recorded game `name` (e.g. `rich/rich-003`) replayed up to and including move `until`.
pub fn at(name: &str, until: usize) -> Game {
    at_with(super::platform_content(), name, until)
}

pub fn at_with(content: Arc<Content>, name: &str, until: usize) -> Game {
    replay(content, &record(name), Some(until), false)
        .map_err(|(m, _)| m.to_string())
        .expect("the record replays")
}

/// Applies a line that must be accepted.
#[track_caller]
pub fn ok(g: &mut Game, line: &str) {
    if let Err(e) = g.apply_text(line) {
        panic!("{line:?} refused: {e}");
    }
}

/// Applies a line that must be refused; checks the state is untouched; returns the message.
#[track_caller]
pub fn refused(g: &mut Game, line: &str) -> String {
    let before = serde_json::to_string(&g.state).unwrap();
    let e = match g.apply_text(line) {
        Ok(()) => panic!("{line:?} was accepted"),
        Err(e) => e.0,
    };
    assert_eq!(
        serde_json::to_string(&g.state).unwrap(),
        before,
        "state changed by refused {line:?}"
    );
    e
}

#[track_caller]
pub fn refused_with(g: &mut Game, line: &str, words: &str) {
    let e = refused(g, line);
    assert!(e.contains(words), "{line:?}: expected {words:?} in {e:?}");
}

pub fn seat(g: &Game, faction: &str) -> usize {
    g.state
        .players
        .iter()
        .position(|p| p.faction == faction)
        .unwrap_or_else(|| panic!("no {faction} in this game"))
}

/// A resource (`c o k q vp`) of a faction.
pub fn res(g: &Game, faction: &str, code: &str) -> i32 {
    g.state.players[seat(g, faction)].resource(&g.content, code)
}

/// Several resources at once, for compact before/after comparisons.
pub fn purse(g: &Game, faction: &str) -> [i32; 5] {
    ["c", "o", "k", "q", "vp"].map(|c| res(g, faction, c))
}

/// Sets a resource directly (used only to build edge cases).
pub fn set_res(g: &mut Game, faction: &str, code: &str, n: i32) {
    let i = g
        .content
        .rules
        .resources
        .iter()
        .position(|r| r.id == code)
        .expect("a resource");
    let s = seat(g, faction);
    g.state.players[s].resources[i] = n;
}

pub fn platform_content() -> Arc<Content> {
    super::platform_content()
}

pub fn pw(g: &Game, faction: &str) -> [u32; 4] {
    g.state.players[seat(g, faction)].power.areas
}

pub fn level(g: &Game, faction: &str, track: &str) -> u32 {
    g.state.players[seat(g, faction)]
        .research
        .get(track)
        .copied()
        .unwrap_or(0)
}

pub fn hex(g: &Game, name: &str) -> Hex {
    g.hex(&parse_hex_ref(name).expect("a hex name"))
        .expect("on the map")
}

pub fn planet_at(g: &Game, name: &str) -> String {
    let i = g.state.map.space_index(hex(g, name)).expect("on the map");
    g.content.planets.planets[usize::from(g.state.planets[i])]
        .id
        .clone()
}

pub fn built(g: &Game, faction: &str, building: &str) -> u32 {
    g.state.players[seat(g, faction)]
        .built
        .get(building)
        .copied()
        .unwrap_or(0)
}

pub fn leech_offer(g: &Game) -> Option<(String, u32)> {
    match g.next_decision() {
        Some(Decision::Leech { seat, value, .. }) => Some((g.seat_name(*seat), *value)),
        _ => None,
    }
}

pub fn turn_of(g: &Game) -> Option<String> {
    match g.next_decision() {
        Some(Decision::Turn(s)) => Some(g.seat_name(*s)),
        _ => None,
    }
}

/// One part in the notation.
pub fn parse_part(text: &str) -> Command {
    match parse_line(&format!("p1 {text}")).expect("a part") {
        MoveLine::Turn { mut parts, .. } => parts.remove(0),
        MoveLine::Init { .. } => unreachable!("a turn line"),
    }
}

/// The listed parts as text.
pub fn listed(g: &Game) -> Vec<String> {
    g.legal_parts().iter().map(|c| c.to_string()).collect()
}
