//! Regression tests for what the fuzz targets (`fuzz/`) and the property tests found: each
//! input is refused with a clear error, never a panic. `fuzz/README.md` lists the findings.

mod common;

use orrery_core::hex::Hex;
use orrery_gp::game::{Game, GameState};

/// A saved state of a recorded game, as JSON, for editing.
fn saved_state() -> serde_json::Value {
    let game = common::scenario::at("rich/rich-019", 100);
    serde_json::to_value(&game.state).expect("the state saves")
}

/// `Game::load` on an edited state: the error, or a panic if it was accepted.
fn load_error(state: serde_json::Value) -> String {
    let state: GameState = serde_json::from_value(state).expect("still a state");
    match Game::load(common::platform_content(), state) {
        Ok(_) => panic!("the edited state was accepted"),
        Err(e) => e,
    }
}

#[test]
fn a_space_on_a_sector_that_is_not_placed_is_refused() {
    // load_state: a space naming sector 8 of 7 panicked in `Map::space_name_parts`.
    let mut s = saved_state();
    let placed = s["map"]["placements"].as_array().expect("placements").len();
    s["map"]["spaces"][0]["sector"] = placed.into();
    assert_eq!(
        load_error(s),
        format!("map.spaces[0].sector: sector {placed} is not placed")
    );
}

#[test]
fn a_map_spread_over_the_plane_is_refused() {
    for (q, r) in [(i32::MAX, 0), (0, i32::MIN), (10_001, 0), (9_000, -9_000)] {
        let mut s = saved_state();
        s["map"]["spaces"][0]["hex"] = serde_json::to_value(Hex::new(q, r)).expect("a hex");
        let e = load_error(s);
        assert!(e.starts_with("map.spaces[0].hex: "), "{q}x{r}: {e}");
    }
    let mut s = saved_state();
    s["map"]["placements"][2]["center"] = serde_json::json!({"q": -2147483648i64, "r": 3});
    assert!(load_error(s).starts_with("map.placements[2].center: "));
}

#[test]
fn labels_and_spaces_must_match_the_placed_sectors() {
    let mut s = saved_state();
    s["map"]["labels"][1] = "".into();
    assert!(load_error(s).starts_with("map.labels[1]: bad label"));
    let mut s = saved_state();
    s["map"]["labels"].as_array_mut().expect("labels").pop();
    assert!(load_error(s).starts_with("map.labels: "));
    let mut s = saved_state();
    let first = s["map"]["spaces"][0].clone();
    s["map"]["spaces"][1]["hex"] = first["hex"].clone();
    assert!(load_error(s).ends_with("is listed twice"));
}

#[test]
fn every_listed_seat_must_exist() {
    for field in ["order", "passed_order", "income_todo", "gaia_todo"] {
        let mut s = saved_state();
        s[field] = serde_json::json!([0, 9]);
        let e = load_error(s);
        assert!(
            e.starts_with(&format!("{field}[1]: seat 9 does not exist")),
            "{e}"
        );
    }
    let mut s = saved_state();
    s["turn"]["leech"] = serde_json::json!([100_000]);
    assert!(load_error(s).starts_with("turn.leech"));
}

#[test]
fn negative_or_capped_resources_and_endless_tokens_are_refused() {
    let mut s = saved_state();
    s["players"][0]["resources"][0] = (-1).into();
    assert!(load_error(s).ends_with("-1 is negative"));
    let mut s = saved_state();
    s["players"][1]["power"]["areas"][2] = u32::MAX.into();
    assert!(load_error(s).starts_with("players[1].power.areas[2]"));
    let mut s = saved_state();
    s["players"][1]["satellites"] = serde_json::json!([{"q": 2147483647, "r": 0}]);
    assert!(load_error(s).starts_with("players[1].satellites"));
}

#[test]
fn the_recorded_state_itself_loads() {
    let state: GameState = serde_json::from_value(saved_state()).expect("a state");
    assert!(Game::load(common::platform_content(), state).is_ok());
}
