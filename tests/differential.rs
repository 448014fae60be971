//! Games of the differential test (Orrery's bots on the platform's setups, replayed by the
//! platform's engine) and records of games the platform stopped early; see
//! `tests/data/differential/README.md` for where each record comes from.

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use orrery_core::hex::Hex;
use orrery_gp::content::{Content, RuleOptions};
use orrery_gp::game::{Decision, Game};
use orrery_gp::record::{replay, Record};

use common::scenario::{
    at, at_with, hex, listed, ok, parse_part, platform_content, pw, refused_with, res, seat,
};

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
    for name in [
        "bots-2p-fidt2-1",
        "bots-3p-fidt3-10",
        "bots-4p-fidt4-10",
        "bots-2p-fid3x2-169",
        "bots-3p-fidt3-26",
    ] {
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

/// A differential record replayed (snapshots checked) up to and including move `until`, or
/// whole.
fn differential_at(content: Arc<Content>, name: &str, until: Option<usize>) -> Game {
    replay(content, &differential_record(name), until, true)
        .map_err(|(m, _)| m.to_string())
        .expect("the record replays")
}

/// The platform's variant with one of its rule options changed.
fn platform_with(change: impl FnOnce(&mut RuleOptions)) -> Arc<Content> {
    let mut c = (*platform_content()).clone();
    change(&mut c.rules.options);
    Arc::new(c)
}

/// The `build …` parts listed.
fn builds(g: &Game) -> BTreeSet<String> {
    listed(g)
        .into_iter()
        .filter(|p| p.starts_with("build "))
        .collect()
}

/// Every hex of the seat's federations.
fn federated(g: &Game, faction: &str) -> BTreeSet<Hex> {
    g.state.players[seat(g, faction)]
        .federations
        .iter()
        .flatten()
        .copied()
        .collect()
}

// A structure built next to a federation joins it with its connected group ---------------------

#[test]
fn a_structure_next_to_a_federation_joins_it_with_its_connected_group() {
    // Move 40: `ivits burn 2. special space-station. build sp 5A4. endturn`. The station is
    // next to the federation (5A3) and to the Ivits' lab 1A8, which touches no federation
    // space: the platform counts the lab in the federation from then on.
    let name = "bots-2p-fid3x2-169";
    let mut g = differential_at(platform_content(), name, Some(39));
    let (lab, station) = (hex(&g, "1A8"), hex(&g, "5A4"));
    let before = federated(&g, "ivits");
    assert!(!before.contains(&lab) && !before.contains(&station));
    assert!(
        before.iter().all(|h| h.distance(lab) > 1),
        "the lab touches no federation space"
    );
    let tokens = g.state.players[seat(&g, "ivits")].tokens.len();
    ok(&mut g, &differential_record(name).moves[40]);
    let after = federated(&g, "ivits");
    assert!(after.contains(&station), "the station joins");
    assert!(after.contains(&lab), "the lab joins with the station");
    assert_eq!(after.len(), before.len() + 2);
    assert_eq!(g.state.players[seat(&g, "ivits")].tokens.len(), tokens);
}

#[test]
fn a_space_station_next_to_a_federation_joins_it() {
    // Move 37: `ivits spend 1pw for 1c. special space-station. build sp 5B1. endturn`, next to
    // the trading station 5A3 of the federation formed at move 35. The platform counts it (and
    // the buildings it later connects) for the final "structures in federations" tile: the
    // whole record's final scores agree only so.
    let name = "bots-3p-fidt3-26";
    let mut g = differential_at(platform_content(), name, Some(36));
    let station = hex(&g, "5B1");
    assert!(!federated(&g, "ivits").contains(&station));
    ok(&mut g, &differential_record(name).moves[37]);
    assert!(federated(&g, "ivits").contains(&station));
}

// Boosted builds the platform refuses -------------------------------------------------------------

#[test]
fn extra_range_is_refused_for_a_mine_on_ones_own_gaiaformer() {
    // The platform refused `taklons spend 5o for 5t. special range+3. build m 2A1. …`: 2A1
    // holds the Taklons' Gaiaformer, and a mine there needs no range, so the extra range saves
    // nothing. After the range action it listed only `build m 7B3`.
    let name = "refused-2p-fidt2-31";
    let refused_line = "taklons spend 5o for 5t. special range+3. build m 2A1. burn 1. burn 1";
    let mut g = differential_at(platform_content(), name, None);
    let s = seat(&g, "taklons");
    let gf = hex(&g, "2A1");
    assert!(g
        .state
        .gaiaformers
        .iter()
        .any(|x| x.hex == gf && x.seat == s));
    refused_with(&mut g, refused_line, "extra range would not be used");
    let mut h = g.clone();
    for part in ["spend 5o for 5t", "special range+3"] {
        h.apply_part(&parse_part(part)).expect("recorded part");
    }
    assert_eq!(builds(&h), BTreeSet::from(["build m 7B3".to_string()]));
    ok(
        &mut g,
        "taklons spend 5o for 5t. special range+3. build m 7B3",
    );
    // Without the range action the mine on the Gaiaformer is built for no QIC.
    let mut g = differential_at(platform_content(), name, None);
    let q = res(&g, "taklons", "q");
    ok(&mut g, "taklons build m 2A1");
    assert_eq!(res(&g, "taklons", "q"), q);
    // The printed rules let the range action go unused.
    let lenient = platform_with(|o| o.refuse_useless_actions = false);
    let mut g = differential_at(lenient, name, None);
    ok(&mut g, refused_line);
}

#[test]
fn a_free_step_is_refused_for_a_mine_shared_on_a_rivals_planet() {
    // The platform refused `lantids special step. build m 8B5. …`: 8B5 holds another
    // player's academy, so the Lantids' mine there needs no terraforming and the step saves
    // nothing (the platform then listed no build at all).
    let name = "refused-4p-fidt4-53";
    let refused_line = "lantids special step. build m 8B5";
    let mut g = differential_at(platform_content(), name, None);
    let idx = g.state.map.space_index(hex(&g, "8B5")).expect("on the map");
    let s = seat(&g, "lantids");
    let on = g.state.structures.get(&idx).expect("8B5 is built on");
    assert!(!on.is_empty() && on.iter().all(|x| x.seat != s));
    refused_with(
        &mut g,
        refused_line,
        "free terraforming steps would not be used",
    );
    let mut h = g.clone();
    h.apply_part(&parse_part("special step"))
        .expect("the action is listed");
    assert!(!builds(&h).contains("build m 8B5"), "{:?}", builds(&h));
    // The mine is shared there as a plain build.
    ok(&mut g, "lantids build m 8B5");
    let lenient = platform_with(|o| o.refuse_useless_actions = false);
    let mut g = differential_at(lenient, name, None);
    ok(&mut g, refused_line);
}

// One-line decisions (issue 5.3) ------------------------------------------------------------------

#[test]
fn gaia_phase_conversions_go_on_while_a_token_can_be_used() {
    // Gaia phase: the Terrans (PI) have 6 tokens in their Gaia area and 30 credits. The
    // platform refused `terrans spend 4tg for 1q` alone ("not complete") and listed only
    // `spend 1tg for 1c` (once or twice) after it.
    let name = "refused-2p-fid3x2-20";
    let mut g = differential_at(platform_content(), name, None);
    assert_eq!(
        g.next_decision(),
        Some(&Decision::Gaia(seat(&g, "terrans")))
    );
    assert_eq!(pw(&g, "terrans")[3], 6);
    assert_eq!(res(&g, "terrans", "c"), 30);
    refused_with(
        &mut g,
        "terrans spend 4tg for 1q",
        "Gaia-area tokens are left",
    );
    let mut h = g.clone();
    h.apply_part(&parse_part("spend 4tg for 1q"))
        .expect("the first trade");
    let parts = listed(&h);
    assert!(!parts.contains(&"endturn".to_string()), "{parts:?}");
    assert!(parts.iter().any(|p| p.starts_with("spend")), "{parts:?}");
    let q = res(&g, "terrans", "q");
    let area2 = pw(&g, "terrans")[1];
    ok(&mut g, "terrans spend 4tg for 1q. spend 2tg for 2c");
    assert_eq!(res(&g, "terrans", "q"), q + 1);
    assert_eq!(res(&g, "terrans", "c"), 30, "credits stay at the cap");
    assert_eq!(pw(&g, "terrans")[3], 0);
    assert_eq!(pw(&g, "terrans")[1], area2 + 6, "the tokens end in area II");
    // The printed rules leave the trades optional: the tokens return unused.
    let printed = platform_with(|o| o.gaia_tokens_used_up = false);
    let mut g = differential_at(printed, name, None);
    ok(&mut g, "terrans spend 4tg for 1q");
    assert_eq!(pw(&g, "terrans")[3], 0);
    assert_eq!(pw(&g, "terrans")[1], area2 + 6);
}

#[test]
fn a_seats_income_order_is_one_decision() {
    // rich-003 move 38: `ambas income 4pw. income 2t`. The platform takes a seat's income
    // order whole: `ivits income 4pw` alone was "not complete" there.
    let name = "rich/rich-003";
    let mut g = at(name, 37);
    let s = seat(&g, "ambas");
    assert_eq!(g.next_decision(), Some(&Decision::Income(s)));
    refused_with(&mut g, "ambas income 4pw", "income is not complete");
    let mut h = g.clone();
    h.apply_part(&parse_part("income 4pw"))
        .expect("the first choice");
    let parts = listed(&h);
    assert!(!parts.contains(&"endturn".to_string()), "{parts:?}");
    assert!(parts.contains(&"income 2t".to_string()), "{parts:?}");
    ok(&mut g, "ambas income 4pw. income 2t");
    // Without the reading each choice may be its own line, to the same state.
    let split_content = platform_with(|o| o.income_order_in_one_decision = false);
    let mut split = at_with(split_content, name, 37);
    ok(&mut split, "ambas income 4pw");
    assert_eq!(split.next_decision(), Some(&Decision::Income(s)));
    ok(&mut split, "ambas income 2t");
    assert_eq!(pw(&split, "ambas"), pw(&g, "ambas"));
    assert_eq!(pw(&g, "ambas"), [0, 0, 2, 0]);
}

// A federation paid with every power token --------------------------------------------------------

#[test]
fn a_federation_paid_with_every_power_token_is_listed_and_formed() {
    // The platform refused move 88, `firaks federation 3A2,…,7C fed1. endturn` ("federation
    // is not in the list of available commands"). Its listing searches federations by a
    // heuristic that, allowed exactly as many satellites as the Firaks have tokens (6), finds
    // none here; given one token more it lists this very federation, and its own check of the
    // hexes accepts them (6 satellites, power value 8 of the 7 needed). By the printed rules
    // each satellite costs one power token from any area: with 6 tokens, 6 satellites are
    // affordable. Orrery lists the federation and forms it.
    let name = "refused-4p-s8m4-123";
    let part = "federation 3A2,3A7,3B1,3B4,3C,7A2,7A7,7B1,7B3,7C fed1";
    let line = format!("firaks {part}. endturn");
    let g = differential_at(platform_content(), name, None);
    let s = seat(&g, "firaks");
    assert_eq!(pw(&g, "firaks"), [3, 3, 0, 0]);
    assert!(g.state.players[s].satellites.is_empty());
    let feds: Vec<String> = listed(&g)
        .into_iter()
        .filter(|p| p.starts_with("federation "))
        .collect();
    assert!(feds.contains(&part.to_string()), "{feds:?}");
    // Listing and forming agree: every listed federation forms, with 6 satellites.
    for p in &feds {
        let mut h = g.clone();
        h.apply_part(&parse_part(p))
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(h.state.players[s].satellites.len(), 6, "{p}");
    }
    let mut formed = g.clone();
    ok(&mut formed, &line);
    assert_eq!(pw(&formed, "firaks"), [0, 0, 0, 0]);
    assert_eq!(formed.state.players[s].satellites.len(), 6);
    // One token fewer: no federation is listed, and the line is refused saying why.
    let mut poorer = g.clone();
    poorer.state.players[s].power.areas[0] -= 1;
    let parts = listed(&poorer);
    assert!(
        !parts.iter().any(|p| p.starts_with("federation ")),
        "{parts:?}"
    );
    refused_with(
        &mut poorer,
        &line,
        "not enough power tokens: need 6, have 5",
    );
}
