//! Games of the differential test (Orrery's bots on the platform's setups, replayed by the
//! platform's engine) and records of games the platform stopped early; see
//! `tests/data/differential/README.md` for where each record comes from.

mod common;

use orrery_gp::game::Decision;
use orrery_gp::record::{replay, Record};

use common::scenario::platform_content;

fn differential_record(name: &str) -> Record {
    let path = common::root()
        .join("tests/data/differential")
        .join(format!("{name}.json"));
    Record::from_json(&common::read_record(&path)).expect("a record")
}

/// A record of a game stopped before any seat chose a faction (`null` in `factions` and in
/// `final`) loads, replays with its snapshot checked, and waits for seat 1's faction.
#[test]
fn a_record_with_no_faction_chosen_loads_and_replays() {
    let r = differential_record("unchosen-init-only");
    assert_eq!(r.factions, vec![None, None, None]);
    let finals = r.final_scores.as_ref().expect("final scores");
    assert!(finals.iter().all(|f| f.faction.is_none()));
    let game = replay(platform_content(), &r, None, true)
        .map_err(|(m, _)| m.to_string())
        .expect("replays");
    assert_eq!(game.next_decision(), Some(&Decision::Faction(0)));
}

/// A record where one seat chose and two did not replays and compares, and the game goes on
/// from there: the next seat chooses a faction, and a faction already taken is refused.
#[test]
fn a_record_with_some_factions_unchosen_replays_and_goes_on() {
    let r = differential_record("unchosen-one-chosen");
    assert_eq!(r.factions, vec![Some("terrans".to_string()), None, None]);
    let mut game = replay(platform_content(), &r, None, true)
        .map_err(|(m, _)| m.to_string())
        .expect("replays");
    assert_eq!(game.next_decision(), Some(&Decision::Faction(1)));
    assert!(game.apply_text("p2 faction terrans").is_err());
    game.apply_text("p2 faction ivits").expect("a free faction");
    assert_eq!(game.next_decision(), Some(&Decision::Faction(2)));
}

/// A seat with no faction still gets its snapshot compared: an edited VP is found.
#[test]
fn an_unchosen_seat_is_still_compared() {
    let path = common::root().join("tests/data/differential/unchosen-one-chosen.json");
    let mut v = common::read_record(&path);
    v["snapshots"][1]["players"][2]["vp"] = 11.into();
    let r = Record::from_json(&v).expect("a record");
    let err = replay(platform_content(), &r, None, true)
        .map(|_| ())
        .map_err(|(m, _)| m.to_string())
        .expect_err("the edited snapshot differs");
    assert!(err.contains("vp expected 11 got 10"), "{err}");
}

/// A faction the content lacks is still refused, `null`s beside it or not.
#[test]
fn an_unknown_faction_beside_nulls_is_refused() {
    let path = common::root().join("tests/data/differential/unchosen-one-chosen.json");
    let mut v = common::read_record(&path);
    v["factions"][0] = "no-such-faction".into();
    let r = Record::from_json(&v).expect("a record");
    let err = replay(platform_content(), &r, None, true)
        .map(|_| ())
        .map_err(|(m, _)| m.to_string())
        .expect_err("refused");
    assert!(err.contains("no-such-faction"), "{err}");
}

/// Games Orrery's bots played on the platform's setups, accepted line by line by the
/// platform's engine (which recorded the snapshots), replay identically: every snapshot and the
/// final scores.
#[test]
fn bot_games_the_platform_accepted_replay_identically() {
    for name in ["bots-2p-fidt2-1", "bots-3p-fidt3-10", "bots-4p-fidt4-10"] {
        let r = differential_record(name);
        assert!(r.finished, "{name}");
        assert_eq!(
            r.snapshots.len(),
            r.moves.len(),
            "{name}: a snapshot per line"
        );
        if let Err((m, _)) = replay(platform_content(), &r, None, true) {
            panic!("{name}: {m}");
        }
    }
}
