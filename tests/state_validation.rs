//! Hostile input from outside gets a clean error naming what is wrong and leaves the state as
//! it was: move amounts and lines beyond the parser's bounds, records whose setup names what
//! the content lacks (or a far sector centre, a huge player count), and edited saved states,
//! which `Game::load` refuses field by field.

mod common;

use common::scenario::{at, record, refused};
use orrery_gp::game::{Game, GameState};
use orrery_gp::record::Record;
use serde_json::{json, Value};

const GAME: &str = "rich/rich-001";

/// A game in its action phase, with a seat to decide.
fn mid_game() -> Game {
    at(GAME, 40)
}

#[test]
fn a_burn_beyond_any_amount_is_refused_and_changes_nothing() {
    let mut g = mid_game();
    let actor = g.seat_name(g.deciding_seat().expect("a seat decides"));
    for n in ["2147483648", "4294967295", "1000001"] {
        let message = refused(&mut g, &format!("{actor} burn {n}"));
        assert!(message.contains("burn"), "{message}");
    }
    // An amount within the bound but beyond the seat's tokens is refused by the rules.
    refused(&mut g, &format!("{actor} burn 1000000"));
}

#[test]
fn a_50_mb_line_of_dots_is_refused_quickly_and_changes_nothing() {
    let mut g = mid_game();
    let actor = g.seat_name(g.deciding_seat().expect("a seat decides"));
    let line = format!("{actor} {}", ".".repeat(50 * 1024 * 1024));
    let message = refused(&mut g, &line);
    assert!(message.contains("too long"), "{message}");
    let many = format!("{actor} {}", "endturn.".repeat(1_000));
    let message = refused(&mut g, &many);
    assert!(message.contains("too many parts"), "{message}");
}

/// The record `GAME` with its JSON edited by `edit`.
fn edited_record(edit: impl FnOnce(&mut Value)) -> Record {
    let mut v =
        common::read_record(&common::root().join(format!("tests/data/conformance/{GAME}.json")));
    edit(&mut v);
    Record::from_json(&v).expect("still a record")
}

/// The error starting the edited record's game; it must name `words`.
#[track_caller]
fn record_refused(edit: impl FnOnce(&mut Value), words: &str) {
    let content = common::platform_content();
    let r = edited_record(edit);
    let started = r
        .game_setup(&content)
        .and_then(|s| Game::new(content.clone(), s).map_err(|e| e.to_string()));
    let Err(e) = started else {
        panic!("the edited record starts a game; expected an error naming {words:?}");
    };
    assert!(e.contains(words), "{e:?} does not name {words:?}");
    // The replay (what `conformance` runs) fails too, never reports it identical.
    assert!(orrery_gp::record::replay(content, &r, None, true).is_err());
}

#[test]
fn records_naming_what_the_content_lacks_are_refused() {
    record_refused(|v| v["players"] = json!(1_000_000_000_000u64), "players");
    record_refused(
        |v| v["setup"]["sectors"][1]["center"] = json!({"q": 2_000_000_000, "r": 0}),
        "beyond the map",
    );
    record_refused(
        |v| v["setup"]["sectors"][1]["center"] = json!({"q": -300, "r": 7}),
        "beyond the map",
    );
    let first_key = |v: &Value, field: &str| -> String {
        v["setup"][field]
            .as_object()
            .and_then(|o| o.keys().next().cloned())
            .expect("a key")
    };
    record_refused(
        |v| {
            let k = first_key(v, "techs");
            v["setup"]["techs"][k] = json!("no-such-tech");
        },
        "tech tile \"no-such-tech\"",
    );
    record_refused(
        |v| {
            let k = first_key(v, "adv_techs");
            v["setup"]["adv_techs"][k] = json!("no-such-adv");
        },
        "advanced tech tile \"no-such-adv\"",
    );
    record_refused(
        |v| v["setup"]["terra_fed_token"] = json!("no-such-fed"),
        "federation token \"no-such-fed\"",
    );
    record_refused(
        |v| v["setup"]["round_scoring"][0] = json!("no-such-round"),
        "round scoring tile \"no-such-round\"",
    );
    record_refused(
        |v| v["setup"]["final_scoring"][0] = json!("no-such-final"),
        "final scoring tile \"no-such-final\"",
    );
    record_refused(
        |v| v["setup"]["boosters"][0] = json!("no-such-booster"),
        "booster \"no-such-booster\"",
    );
}

/// The error loading `mid_game`'s state edited by `edit`; it must name `field`. The game
/// the state came from is unchanged and still plays.
#[track_caller]
fn state_refused(edit: impl FnOnce(&mut Value), field: &str) {
    state_refused_in(mid_game(), edit, field);
}

/// [`state_refused`] on the state of game `g`.
#[track_caller]
fn state_refused_in(g: Game, edit: impl FnOnce(&mut Value), field: &str) {
    let mut v = serde_json::to_value(&g.state).expect("serializes");
    edit(&mut v);
    let state: GameState = match serde_json::from_value(v) {
        Ok(s) => s,
        Err(e) => panic!("the edit is not a state any more ({e}); test a loadable edit"),
    };
    let e = Game::load(g.content.clone(), state)
        .err()
        .unwrap_or_else(|| panic!("the edited state loads; expected an error naming {field:?}"));
    assert!(e.starts_with(field), "{e:?} does not start with {field:?}");
    assert!(!g.legal_parts().is_empty());
}

#[test]
fn edited_saved_states_are_refused_naming_the_field() {
    state_refused(|v| v["map"]["labels"][0] = json!(""), "map.labels[0]");
    state_refused(
        |v| v["map"]["spaces"][3]["hex"] = json!({"q": i32::MAX, "r": 0}),
        "map.spaces[3].hex",
    );
    state_refused(
        |v| {
            let h = v["map"]["spaces"][0]["hex"].clone();
            v["map"]["spaces"][1]["hex"] = h;
        },
        "map.spaces[1].hex",
    );
    state_refused(|v| v["order"][0] = json!(7), "order[0]");
    state_refused(|v| v["order"] = json!([0, 0]), "order[1]");
    state_refused(|v| v["passed_order"] = json!([99]), "passed_order[0]");
    state_refused(|v| v["income_todo"] = json!([5]), "income_todo[0]");
    state_refused(|v| v["queue"] = json!([{"Turn": 9}]), "queue[0]");
    state_refused(|v| v["open"] = json!({"Turn": 9}), "open");
    state_refused(
        |v| v["turn"]["leech"] = json!([0, 100_000]),
        "turn.leech[1]",
    );
    state_refused(
        |v| v["question"] = json!({"seat": 6, "options": [], "base": null}),
        "question.seat",
    );
    // An open turn for a seat that has no faction (before any faction is chosen).
    let content = common::platform_content();
    let fresh = Game::new(
        content.clone(),
        record(GAME).game_setup(&content).expect("setup"),
    )
    .expect("a game");
    state_refused_in(fresh, |v| v["open"] = json!({"Turn": 1}), "open");
    state_refused(
        |v| v["players"][0]["resources"][0] = json!(-5),
        "players[0].resources[0]",
    );
    state_refused(
        |v| v["players"][0]["resources"][1] = json!(2_000_000_000),
        "players[0].resources[1]",
    );
    state_refused(
        |v| v["players"][0]["power"]["areas"][1] = json!(2_147_483_648u64),
        "players[0].power.areas[1]",
    );
    state_refused(
        |v| {
            let track = v["players"][0]["research"]
                .as_object()
                .and_then(|o| o.keys().next().cloned())
                .expect("a track");
            v["players"][0]["research"][&track] = json!(99);
        },
        "players[0].research.",
    );
    state_refused(
        |v| v["players"][0]["techs"] = json!([{"id": "no-such-tech", "covered": false}]),
        "players[0].techs[0]",
    );
    state_refused(
        |v| v["players"][0]["advanced"] = json!(["no-such-adv"]),
        "players[0].advanced[0]",
    );
    state_refused(
        |v| v["players"][0]["tokens"] = json!([{"id": "no-such-fed", "green": false}]),
        "players[0].tokens[0]",
    );
    state_refused(
        |v| v["players"][0]["booster"] = json!("no-such-booster"),
        "players[0].booster",
    );
    state_refused(
        |v| {
            let f = v["players"][0]["faction"].clone();
            v["players"][1]["faction"] = f;
        },
        "players[1].faction",
    );
    state_refused(
        |v| v["boosters"] = json!(["no-such-booster"]),
        "boosters[0]",
    );
    state_refused(
        |v| v["gaiaformers"] = json!([{"seat": 0, "hex": {"q": 999, "r": 0}, "round": 1}]),
        "gaiaformers[0].hex",
    );
}

#[test]
fn the_recorded_state_itself_loads() {
    let g = mid_game();
    let state = serde_json::from_value(serde_json::to_value(&g.state).unwrap()).unwrap();
    let loaded = Game::load(g.content.clone(), state).expect("loads");
    assert_eq!(loaded.state, g.state);
    assert!(record(GAME).moves.len() > 40);
}
