//! Replays every recorded game under `tests/data/conformance` with the recording platform's
//! variant and compares every snapshot and the final scores.
//!
//! The replay never reads a snapshot before its move is applied. Every mismatch is printed.

mod common;

use orrery_gp::record::{replay, Mismatch, Record};

#[test]
fn recorded_games_replay_identically() {
    let content = common::platform_content();
    let mut ok = 0;
    let mut failures = Vec::new();
    let records = common::records();
    // The shipped records: 60 random-policy, 20 mixed and 24 rich games. An emptied or
    // misplaced data folder must fail here, not pass on nothing.
    for folder in ["dev", "mixed", "rich"] {
        let n = records
            .iter()
            .filter(|p| p.parent().is_some_and(|d| d.ends_with(folder)))
            .count();
        assert!(
            n >= 20,
            "only {n} records in tests/data/conformance/{folder}"
        );
    }
    for path in &records {
        let record = Record::from_json(&common::read_record(path)).expect("a record");
        match replay(content.clone(), &record, None, true) {
            Ok(game) => {
                ok += 1;
                // VP by source always sum to the total.
                for p in &game.state.players {
                    let total: i32 = p.vp_sources.values().sum();
                    assert_eq!(
                        total,
                        p.resource(&content, "vp"),
                        "{}: VP sources of {}",
                        path.display(),
                        p.faction
                    );
                }
            }
            Err((m, _)) => failures.push(format!("{}: {m}", path.display())),
        }
    }
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    assert_eq!(
        ok,
        records.len(),
        "games not identical:\n{}",
        failures.join("\n")
    );
}

#[test]
fn an_illegal_move_leaves_the_state_untouched() {
    let content = common::platform_content();
    let path = &common::records()[0];
    let record = Record::from_json(&common::read_record(path)).expect("a record");
    let game = replay(content, &record, Some(12), false)
        .map_err(|(m, _)| m.to_string())
        .expect("replays");
    let mut g = game.clone();
    let before = serde_json::to_string(&g.state).unwrap();
    let seat = g.next_decision().expect("a decision").seat();
    let actor = g.seat_name(seat);
    for bad in [
        format!("{actor} build m 99Z9"),
        format!("{actor} frobnicate"),
        format!("{actor} build m 1A0. build m 1A1"),
        "nobody pass".to_string(),
        String::new(),
    ] {
        assert!(g.apply_text(&bad).is_err(), "{bad:?} was accepted");
        assert_eq!(
            serde_json::to_string(&g.state).unwrap(),
            before,
            "state changed by {bad:?}"
        );
    }
}

/// Every state of every recorded game (one in `ORRERY_LOAD_EVERY` moves, default 7, and
/// the last) saves to JSON and loads back through the validating `Game::load` unchanged,
/// with the same legal parts: the checks on load refuse nothing the engine makes.
/// A recorded line refused part-way (its own parts applied, then a part that fails) is
/// reported at its index, with the game as it was before the line: the replay applies lines
/// with no undo copy and replays the game before a refused line again for the report.
#[test]
fn a_line_refused_part_way_reports_the_game_before_it() {
    let content = common::platform_content();
    for path in common::records().iter().step_by(17) {
        let record = Record::from_json(&common::read_record(path)).expect("a record");
        for k in (1..record.moves.len()).step_by(37) {
            let mut edited = record.clone();
            edited.moves[k] = format!("{}. build m 99Z9", record.moves[k]);
            let (mismatch, game) = match replay(content.clone(), &edited, None, false) {
                Ok(_) => panic!("{}: line {k} edited yet accepted", path.display()),
                Err(e) => e,
            };
            match &mismatch {
                Mismatch::Refused { index, .. } => assert_eq!(*index, k, "{}", path.display()),
                other => panic!("{}: line {k}: {other}", path.display()),
            }
            let before = replay(content.clone(), &record, Some(k - 1), false)
                .map_err(|(m, _)| m.to_string())
                .expect("the record replays");
            let game = game.expect("the game before the refused line");
            assert!(
                game.state == before.state,
                "{}: the game reported for line {k} is not the game before it",
                path.display()
            );
        }
    }
}

#[test]
fn saved_states_load_back_identically() {
    let content = common::platform_content();
    let every: usize = std::env::var("ORRERY_LOAD_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7)
        .max(1);
    let mut checked = 0;
    for path in &common::records() {
        let record = Record::from_json(&common::read_record(path)).expect("a record");
        let setup = record.game_setup(&content).expect("a setup");
        let mut game = orrery_gp::game::Game::new(content.clone(), setup).expect("a game");
        let last = record.moves.len() - 1;
        for (i, line) in record.moves.iter().enumerate().skip(1) {
            game.apply_text(line).expect("a recorded line applies");
            if i % every != 0 && i != last {
                continue;
            }
            let text = serde_json::to_string(&game.state).unwrap();
            let state = serde_json::from_str(&text).unwrap();
            let loaded = orrery_gp::game::Game::load(content.clone(), state)
                .unwrap_or_else(|e| panic!("{} move {i}: {e}", path.display()));
            assert_eq!(serde_json::to_string(&loaded.state).unwrap(), text);
            assert_eq!(
                loaded.legal_parts(),
                game.legal_parts(),
                "{} move {i}",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 1_000, "only {checked} states checked");
}

#[test]
fn replaying_moves_alone_gives_the_recorded_final_scores() {
    let content = common::platform_content();
    for path in common::records() {
        let mut json = common::read_record(&path);
        let finals = json["final"].clone();
        let finished = json["finished"].as_bool().unwrap_or(false);
        let obj = json.as_object_mut().expect("object");
        obj.remove("snapshots");
        obj.remove("final");
        let record = Record::from_json(&json).expect("a record");
        let game = replay(content.clone(), &record, None, false)
            .map_err(|(m, _)| format!("{}: {m}", path.display()))
            .expect("replays");
        if finished {
            let want: Vec<i64> = finals
                .as_array()
                .expect("final")
                .iter()
                .map(|f| f["vp"].as_i64().expect("vp"))
                .collect();
            let got: Vec<i64> = game.scores().iter().map(|v| i64::from(*v)).collect();
            assert_eq!(got, want, "{}", path.display());
            assert!(game.finished(), "{}", path.display());
        }
    }
}

#[test]
fn out_of_range_names_the_distance() {
    let content = common::platform_content();
    // Find a turn in a record and try a mine far away from the player's planets.
    for path in common::records() {
        let record = Record::from_json(&common::read_record(&path)).expect("a record");
        let Some(i) = record.moves.iter().enumerate().skip(20).find_map(|(i, m)| {
            (m.contains(" build m ") && !m.contains("special") && !m.contains("action"))
                .then_some(i)
        }) else {
            continue;
        };
        let Ok(mut game) = replay(content.clone(), &record, Some(i - 1), false) else {
            continue;
        };
        if game.state.round == 0 {
            continue;
        }
        let seat = game.next_decision().expect("decision").seat();
        let name = game.seat_name(seat);
        // The farthest space from the player's structures.
        let own: Vec<_> = game
            .state
            .structures
            .iter()
            .filter(|(_, l)| l.iter().any(|s| s.seat == seat))
            .map(|(i, _)| game.state.map.spaces[*i].hex)
            .collect();
        let far = game
            .state
            .map
            .spaces
            .iter()
            .enumerate()
            .filter(|(i, s)| {
                !game.state.structures.contains_key(i)
                    && content.planets.planets[usize::from(s.planet)].kind
                        == orrery_gp::content::PlanetKind::Wheel
            })
            .map(|(_, s)| s)
            .max_by_key(|s| own.iter().map(|h| h.distance(s.hex)).min().unwrap_or(0))
            .expect("spaces")
            .hex;
        let hex = game.hex_name(far);
        let err = game
            .apply_text(&format!("{name} build m {hex}"))
            .expect_err("too far");
        if err.0.contains("out of range") {
            assert!(
                err.0.contains(&format!("{hex} is ")) && err.0.contains("away, range"),
                "{err}"
            );
            return;
        }
    }
    panic!("no out-of-range situation found");
}

#[test]
fn random_setups_are_complete_and_reproducible() {
    let content = common::platform_content();
    for players in [2, 3, 4] {
        let a =
            orrery_gp::game::Setup::random(&content, players, &mut orrery_core::rng::Rng::new(7))
                .expect("setup");
        let b =
            orrery_gp::game::Setup::random(&content, players, &mut orrery_core::rng::Rng::new(7))
                .expect("setup");
        assert_eq!(a, b);
        assert_eq!(a.techs.len(), 9);
        assert_eq!(a.adv_techs.len(), 6);
        assert_eq!(a.round_scoring.len(), 6);
        assert_eq!(a.final_scoring.len(), 2);
        assert_eq!(a.boosters.len(), players + 3);
        let token = a.terra_fed_token.clone().expect("a track token");
        assert_eq!(a.federation_tokens[&token], 2);
        let game = orrery_gp::game::Game::new(content.clone(), a).expect("game");
        assert_eq!(
            game.state.map.spaces.len(),
            if players == 2 { 133 } else { 190 }
        );
    }
}
