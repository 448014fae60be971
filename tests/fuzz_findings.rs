//! Regression tests for what the fuzz targets (`fuzz/`) and the property tests found: each
//! input is refused with a clear error, never a panic. `fuzz/README.md` lists the findings.

mod common;

use orrery::game::{Game, GameState};
use orrery::hex::Hex;

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
    assert!(load_error(s).contains(&format!("sector {placed} of {placed}")));
}

#[test]
fn a_map_spread_over_the_plane_is_refused() {
    for (q, r) in [(i32::MAX, 0), (0, i32::MIN), (10_001, 0), (9_000, -9_000)] {
        let mut s = saved_state();
        s["map"]["spaces"][0]["hex"] = serde_json::to_value(Hex::new(q, r)).expect("a hex");
        let e = load_error(s);
        assert!(e.starts_with("map: "), "{q}x{r}: {e}");
    }
    let mut s = saved_state();
    s["map"]["placements"][2]["center"] = serde_json::json!({"q": -2147483648i64, "r": 3});
    assert!(load_error(s).contains("off any map"));
}

#[test]
fn labels_and_spaces_must_match_the_placed_sectors() {
    let mut s = saved_state();
    s["map"]["labels"][1] = "".into();
    assert!(load_error(s).contains("label is empty"));
    let mut s = saved_state();
    s["map"]["labels"].as_array_mut().expect("labels").pop();
    assert!(load_error(s).contains("labels do not match"));
    let mut s = saved_state();
    let first = s["map"]["spaces"][0].clone();
    s["map"]["spaces"][1]["hex"] = first["hex"].clone();
    assert!(load_error(s).contains("two spaces"));
}

#[test]
fn every_listed_seat_must_exist() {
    for field in ["order", "passed_order", "income_todo", "gaia_todo"] {
        let mut s = saved_state();
        s[field] = serde_json::json!([0, 9]);
        assert_eq!(
            load_error(s),
            format!("{field} names a seat that does not exist")
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
    assert!(load_error(s).contains("holds -1"));
    let mut s = saved_state();
    s["players"][1]["power"]["areas"][2] = u32::MAX.into();
    assert!(load_error(s).contains("power tokens"));
    let mut s = saved_state();
    s["players"][1]["satellites"] = serde_json::json!([{"q": 2147483647, "r": 0}]);
    assert!(load_error(s).contains("off any map"));
}

#[test]
fn the_recorded_state_itself_loads() {
    let state: GameState = serde_json::from_value(saved_state()).expect("a state");
    assert!(Game::load(common::platform_content(), state).is_ok());
}
