//! Situations where the recording platform's games needed rules Orrery lacked (issue
//! "Fidelity II"): one test or more per situation, on the base content with the platform's
//! variant. Records under `tests/data/fidelity/` were generated for these tests (see the
//! README there); the others are the shipped conformance records.

mod common;

use orrery_gp::game::{Decision, Game};
use orrery_gp::map::Map;
use orrery_gp::record::{replay, seat_snapshot, Mismatch, Record};

use common::scenario::*;

fn fidelity_record(name: &str) -> Record {
    let path = common::root()
        .join("tests/data/fidelity")
        .join(format!("{name}.json"));
    Record::from_json(&common::read_record(&path)).expect("a record")
}

/// A generated record replayed up to and including move `until`, snapshots checked.
fn fid_at(name: &str, until: usize) -> Game {
    replay(
        platform_content(),
        &fidelity_record(name),
        Some(until),
        true,
    )
    .map_err(|(m, _)| m.to_string())
    .expect("the record replays")
}

/// The whole generated record replays with every snapshot and the final scores identical.
#[track_caller]
fn replays_identically(name: &str) {
    if let Err((m, _)) = replay(platform_content(), &fidelity_record(name), None, true) {
        panic!("{name}: {m}");
    }
}

fn brainstone(g: &Game, faction: &str) -> Option<String> {
    seat_snapshot(g, seat(g, faction))
        .brainstone
        .map(|w| w.to_string())
}

fn answer_waits(g: &Game, faction: &str) -> bool {
    g.next_decision() == Some(&Decision::Answer(seat(g, faction)))
}

// 1. Two special-token questions in one line -------------------------------------------------

#[test]
fn two_brainstone_questions_answered_in_one_line() {
    // Income charges the Taklons twice (area I → II, then II → III): each charge asks.
    let mut g = fid_at("fid-takb-22", 71);
    assert!(answer_waits(&g, "taklons"));
    let mut split = g.clone();
    ok(&mut g, "taklons brainstone area2. brainstone area3");
    assert_eq!(brainstone(&g, "taklons").as_deref(), Some("area3"));
    assert_eq!(pw(&g, "taklons"), [0, 7, 1, 0]);
    // The same answers on two lines give the same state.
    ok(&mut split, "taklons brainstone area2");
    assert!(
        answer_waits(&split, "taklons"),
        "the second charge asks again"
    );
    ok(&mut split, "taklons brainstone area3");
    assert_eq!(seat_snapshot(&split, 0), seat_snapshot(&g, 0));
    // A third answer has no question to answer.
    let mut g = fid_at("fid-takb-22", 71);
    refused_with(
        &mut g,
        "taklons brainstone area2. brainstone area3. brainstone area3",
        "comes after the end of the turn",
    );
    replays_identically("fid-takb-22");
}

// 2. Income interrupted by a special-token question ----------------------------------------------

#[test]
fn income_before_the_charge_is_paid_before_the_question() {
    // Taklons' income: base ore, a mine's ore, an Economy charge, a later mine's ore. The
    // upgrade of the first mine to a trading station dropped the earliest mine income, so
    // two ore come before the charge's question and one after it.
    let g = fid_at("fid-takb-10", 30);
    let before = res(&g, "taklons", "o");
    let g = fid_at("fid-takb-10", 31);
    assert!(answer_waits(&g, "taklons"));
    assert_eq!(res(&g, "taklons", "o"), before + 2);
    let mut g2 = g.clone();
    ok(&mut g2, "taklons brainstone area1");
    assert_eq!(res(&g2, "taklons", "o"), before + 3);
    replays_identically("fid-takb-10");
}

// 3 and 7. A record's listed hexes are the map ---------------------------------------------------

#[test]
fn listed_hexes_are_the_map_of_the_spec_game() {
    // The platform's own full-game test: its map was built from sector definitions that
    // differ from the printed ones, and it writes hexes in axial form (`1x-1`).
    let record = fidelity_record("spec-fullGame");
    let content = platform_content();
    let setup = record.game_setup(&content).expect("a setup");
    let listed = Map::with_listed(&content, &setup.sectors, setup.hexes.as_ref().unwrap())
        .expect("the listed map");
    let built = Map::build(&content, &setup.sectors).expect("the built map");
    let differ = listed.planet_differences(&built);
    assert!(differ.iter().any(|h| h == "4B5"), "{differ:?}");
    // The first mine goes on a volcanic planet only the list has.
    let mut g = replay(content.clone(), &record, Some(2), true)
        .map_err(|(m, _)| m.to_string())
        .unwrap();
    assert_eq!(planet_at(&g, "1x-1"), "volcanic");
    ok(&mut g, "geodens build m 1x-1");
    replays_identically("spec-fullGame");
}

/// dev-001 with its setup changed by `edit`.
fn edited_dev_record(edit: impl FnOnce(&mut serde_json::Value)) -> Record {
    let path = common::root().join("tests/data/conformance/dev/dev-001.json");
    let mut v = common::read_record(&path);
    edit(&mut v);
    Record::from_json(&v).expect("a record")
}

fn bad_record(record: &Record) -> String {
    match replay(platform_content(), record, None, true) {
        Err((Mismatch::BadRecord(e), _)) => e,
        Err((m, _)) => panic!("not a setup error: {m}"),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn listed_hexes_that_do_not_fit_the_sectors_are_errors_naming_the_hex() {
    let off = edited_dev_record(|v| v["setup"]["hexes"][0]["q"] = 40.into());
    let e = bad_record(&off);
    assert!(e.contains("40x2"), "{e}");
    let letter = edited_dev_record(|v| v["setup"]["hexes"][3]["planet"] = "z".into());
    let e = bad_record(&letter);
    assert!(e.contains("-6x1") && e.contains("'z'"), "{e}");
    let missing = edited_dev_record(|v| {
        v["setup"]["hexes"].as_array_mut().unwrap().remove(5);
    });
    let e = bad_record(&missing);
    assert!(e.contains("-6x3") && e.contains("0 times"), "{e}");
}

#[test]
fn a_listed_planet_replaces_the_sectors_planet() {
    // dev-001's first mine hex made titanium in the list: Xenos can no longer start there.
    let record = edited_dev_record(|v| {
        for h in v["setup"]["hexes"].as_array_mut().unwrap() {
            if h["name"] == "3A0" {
                h["planet"] = "t".into();
            }
        }
    });
    let mut g = replay(platform_content(), &record, Some(2), false)
        .map_err(|(m, _)| m.to_string())
        .unwrap();
    assert_eq!(planet_at(&g, "3A0"), "titanium");
    refused_with(&mut g, "xenos build m 3A0", "titanium");
}

// Also: a setup naming what the content lacks -------------------------------------------------

#[test]
fn setups_naming_unknown_ids_are_errors_naming_them() {
    type Edit = Box<dyn FnOnce(&mut serde_json::Value)>;
    let cases: [(&str, Edit); 6] = [
        (
            "booster99",
            Box::new(|v| v["setup"]["boosters"][0] = "booster99".into()),
        ),
        (
            "tech99",
            Box::new(|v| v["setup"]["techs"]["terra"] = "tech99".into()),
        ),
        (
            "fed9",
            Box::new(|v| v["setup"]["terra_fed_token"] = "fed9".into()),
        ),
        (
            "score99",
            Box::new(|v| v["setup"]["round_scoring"][2] = "score99".into()),
        ),
        ("zorgs", Box::new(|v| v["factions"][1] = "zorgs".into())),
        (
            "99Z",
            Box::new(|v| v["setup"]["sectors"][0]["sector"] = "99Z".into()),
        ),
    ];
    for (id, edit) in cases {
        let e = bad_record(&edited_dev_record(edit));
        assert!(e.contains(&format!("\"{id}\"")), "{id}: {e}");
    }
}

// 6. `pN` for a seated player ----------------------------------------------------------------------

#[test]
fn seat_token_names_a_player_with_a_faction() {
    let mut g = at("dev/dev-001", 2);
    refused_with(&mut g, "p2 build m 3A0", "it is xenos's turn");
    let mut by_faction = g.clone();
    ok(&mut g, "p1 build m 3A0");
    ok(&mut by_faction, "xenos build m 3A0");
    assert_eq!(g.state, by_faction.state);
}

// 8. A bare `decline` ends a free research step -----------------------------------------------------

#[test]
fn bare_decline_skips_the_free_research_step() {
    // A lab's tech tile.
    let mut g = at("dev/dev-001", 21);
    ok(&mut g, "xenos build lab 6A2. tech gaia. decline.");
    assert_eq!(level(&g, "xenos", "gaia"), 0);
    assert!(g.state.players[seat(&g, "xenos")]
        .techs
        .iter()
        .any(|t| t.id == g.state.setup.techs["gaia"]));
    // Nothing to decline without a research step.
    let mut g = at("dev/dev-001", 21);
    refused_with(
        &mut g,
        "xenos build lab 6A2. decline",
        "no research step to decline",
    );
    // The Itars' Gaia-phase trade, with a standard and with an advanced tile.
    let mut g = at("rich/rich-015", 39);
    ok(&mut g, "itars spend 4tg for tech. tech int. decline");
    assert_eq!(level(&g, "itars", "int"), 0);
    let mut g = at("rich/rich-001", 80);
    let gaia = level(&g, "itars", "gaia");
    ok(
        &mut g,
        "itars spend 4tg for tech. tech adv-terra. cover free1. decline",
    );
    assert_eq!(level(&g, "itars", "gaia"), gaia);
}

// 9. A special-token question after passing, in the same line ----------------------------------------

#[test]
fn brainstone_question_after_the_last_pass_is_answered_in_the_pass_line() {
    // Taklons pass last; the next round's income charges 2 power with the brainstone in
    // area I. Expected states are the platform's for the same lines.
    let mut g = fid_at("fid-takd-16", 27);
    let mut other = g.clone();
    refused_with(
        &mut g.clone(),
        "taklons pass booster5. brainstone area3",
        "area2",
    );
    ok(&mut g, "taklons pass booster5. brainstone area1");
    assert_eq!(pw(&g, "taklons"), [3, 6, 0, 0]);
    assert_eq!(brainstone(&g, "taklons").as_deref(), Some("area1"));
    assert_eq!(purse(&g, "taklons")[..2], [5, 3]);
    ok(&mut other, "taklons pass booster5. brainstone area2.");
    assert_eq!(pw(&other, "taklons"), [4, 5, 0, 0]);
    assert_eq!(brainstone(&other, "taklons").as_deref(), Some("area2"));
    // Anything else after passing is still refused: here it is no answer, and where no
    // question follows, it comes after the end of the turn.
    let mut g = fid_at("fid-takd-16", 27);
    refused_with(
        &mut g,
        "taklons pass booster5. spend 1o for 1c",
        "is not an answer",
    );
    let mut g = at("dev/dev-001", 11);
    refused_with(
        &mut g,
        "xenos pass booster10. spend 1o for 1c",
        "after the end of the turn",
    );
}

// 10. `pass undefined` ---------------------------------------------------------------------------------

#[test]
fn pass_undefined_is_a_pass_without_booster() {
    let mut g = at("dev/dev-001", 46);
    let mut plain = g.clone();
    ok(&mut g, "ivits pass undefined");
    ok(&mut plain, "ivits pass");
    assert_eq!(g.state, plain.state);
    // Before the last round a pass needs a booster, written or not.
    let mut g = at("dev/dev-001", 11);
    refused_with(&mut g, "xenos pass undefined", "choose a booster");
}

// Answers keep what changed while the question was open -------------------------------------------

#[test]
fn tokens_gained_after_a_spend_question_stay_with_the_answer() {
    // `action power7` spends 3 power (the brainstone could pay it) and gains 2 tokens; the
    // answer comes after the gain and must not undo it.
    let mut g = fid_at("fid-takd-42", 42);
    let before = pw(&g, "taklons");
    ok(&mut g, "taklons action power7. brainstone area3");
    assert_eq!(pw(&g, "taklons"), [before[0] + 5, before[1], 0, 0]);
    replays_identically("fid-takd-42");
    replays_identically("fid-takd-16");
}

// Content with named variants ---------------------------------------------------------------------

/// The variants under content/variants, by name.
fn available_variants() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(common::root().join("content/variants"))
        .expect("variants folder")
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().to_string();
            n.strip_suffix(".yaml").map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

/// The base game with the platform's variant and then `names`.
fn content_with(names: &[String]) -> std::sync::Arc<orrery_gp::content::Content> {
    let mut overlays = Vec::new();
    for n in std::iter::once("boardgamers").chain(names.iter().map(String::as_str)) {
        let file = common::root().join(format!("content/variants/{n}.yaml"));
        overlays.push(orrery_gp::content::OverlaySource {
            file: file.display().to_string(),
            text: std::fs::read_to_string(&file).expect("variant readable"),
            scripts: Vec::new(),
            problem: None,
        });
    }
    let files = orrery_gp::content::DirFiles::new(common::base_dir());
    match orrery_gp::content::Content::load(&files, &overlays) {
        Ok(c) => std::sync::Arc::new(c),
        Err(d) => panic!("{names:?}: {}", d[0]),
    }
}

/// A record of `players` seats carrying only `options` (as JSON).
fn options_record(players: usize, options: serde_json::Value) -> Record {
    Record::from_json(&serde_json::json!({
        "players": players,
        "moves": [format!("init {players} fid-options")],
        "options": options,
    }))
    .expect("a record")
}

// 5. Variant faction boards ------------------------------------------------------------------------

#[test]
fn board_variants_are_chosen_by_family_and_revision() {
    let names = available_variants();
    let pick = |players: usize, options: serde_json::Value| {
        options_record(players, options).board_variants(&names)
    };
    let beta = |v: serde_json::Value| {
        pick(
            4,
            serde_json::json!({"factionVariant": "beta", "factionVariantVersion": v}),
        )
    };
    assert_eq!(beta(0.into()).unwrap(), ["beta-0"]);
    assert_eq!(
        beta(1.into()).unwrap(),
        ["beta-0"],
        "revision 1 falls back to 0"
    );
    assert_eq!(beta(2.into()).unwrap(), ["beta-2"]);
    assert_eq!(beta(7.into()).unwrap(), ["beta-2"]);
    assert_eq!(
        pick(4, serde_json::json!({"factionVariant": "beta"})).unwrap(),
        ["beta-2"],
        "no revision: the newest"
    );
    let balanced =
        serde_json::json!({"factionVariant": "more-balanced", "factionVariantVersion": 0});
    assert_eq!(pick(4, balanced.clone()).unwrap(), ["more-balanced-0"]);
    assert_eq!(
        pick(2, balanced).unwrap(),
        ["more-balanced-0", "more-balanced-0-2p"]
    );
    assert!(pick(4, serde_json::json!({"factionVariant": "standard"}))
        .unwrap()
        .is_empty());
    let e = pick(4, serde_json::json!({"factionVariant": "shiny"})).unwrap_err();
    assert!(e.contains("shiny"), "{e}");
}

#[test]
fn variant_boards_start_as_on_the_platform() {
    // Each seat's state right after the last faction choice, from the reference engine, for
    // beta revisions 0, 1, 2 and none, and more-balanced at 4 and 2 players.
    let path = common::root().join("tests/data/variant-boards.json");
    let data = common::read_record(&path);
    let names = available_variants();
    for case in data["cases"].as_array().unwrap() {
        let players = case["players"].as_u64().unwrap() as usize;
        let record = options_record(players, case["options"].clone());
        let content = content_with(&record.board_variants(&names).unwrap());
        let setup = orrery_gp::game::Setup::random(
            &content,
            players,
            &mut orrery_core::rng::Rng::from_text("fid-boards"),
        )
        .unwrap();
        let mut g = Game::new(content, setup).unwrap();
        for (i, f) in case["factions"].as_array().unwrap().iter().enumerate() {
            ok(
                &mut g,
                &format!("p{} faction {}", i + 1, f.as_str().unwrap()),
            );
        }
        for (s, want) in case["seats"].as_array().unwrap().iter().enumerate() {
            let want: orrery_gp::record::SeatSnapshot =
                serde_json::from_value(want.clone()).unwrap();
            assert_eq!(
                seat_snapshot(&g, s),
                want,
                "{} under {}",
                g.seat_name(s),
                case["options"]
            );
        }
    }
}

// 4. The faction auction ---------------------------------------------------------------------------

#[test]
fn choose_bid_auction_game_replays_identically() {
    // Factions are named first; then p1 bids 1 for Xenos, p2 outbids with 4, … ; the Itars,
    // named first, play first although seat 3 won them; bids are paid at the end.
    let record = fidelity_record("fid-auc-2");
    let content = content_with(&record.board_variants(&available_variants()).unwrap());
    let mut g = replay(content.clone(), &record, Some(4), true)
        .map_err(|(m, _)| m.to_string())
        .unwrap();
    assert_eq!(g.next_decision(), Some(&Decision::Bid(0)));
    let parts: Vec<String> = g.legal_parts().iter().map(|p| p.to_string()).collect();
    assert!(
        parts.contains(&"bid xenos 0".to_string()) && parts.contains(&"bid xenos 8".to_string())
    );
    assert!(!parts.contains(&"bid xenos 9".to_string()), "{parts:?}");
    // Every listed part applies.
    for part in g.legal_parts() {
        let mut h = g.clone();
        if let Err(e) = h.apply_part(&part) {
            panic!("listed {part} refused: {e}");
        }
    }
    refused_with(&mut g, "p1 bid taklons 1", "has not been chosen");
    refused_with(&mut g, "p1 bid xenos 9", "0 to 8");
    if let Err((m, _)) = replay(content, &record, None, true) {
        panic!("{m}");
    }
}

#[test]
fn bid_while_choosing_auction_follows_the_platform() {
    // Lines and outcomes checked on the reference engine: who decides after each line, who
    // holds what, and that the first named faction places first.
    let content = content_with(&["auction-bid-while-choosing".to_string()]);
    let setup =
        orrery_gp::game::Setup::random(&content, 3, &mut orrery_core::rng::Rng::from_text("x"))
            .unwrap();
    let mut g = Game::new(content, setup).unwrap();
    let steps = [
        ("p1 faction terrans", 1),
        ("p2 bid terrans 2", 2),
        ("p3 faction gleens", 0),
        ("p1 bid gleens 1", 2),
        ("p3 faction nevlas", 1),
    ];
    for (line, next) in steps {
        ok(&mut g, line);
        assert_eq!(g.deciding_seat(), Some(next), "after {line}");
        if line == "p2 bid terrans 2" {
            refused_with(&mut g, "p3 bid terrans 2", "3 to 11");
            refused_with(&mut g, "p3 faction lantids", "home planet");
            let parts: Vec<String> = g.legal_parts().iter().map(|p| p.to_string()).collect();
            assert!(parts.contains(&"bid terrans 11".to_string()));
            assert!(parts.contains(&"faction nevlas".to_string()));
        }
    }
    let factions: Vec<String> = (0..3).map(|s| g.seat_name(s)).collect();
    assert_eq!(factions, ["gleens", "terrans", "nevlas"]);
    assert_eq!(g.state.bids, [1, 2, 0]);
    assert_eq!(g.next_decision(), Some(&Decision::Place(1, "m".into())));
}

#[test]
fn more_balanced_two_player_game_places_the_ivits_pi_second() {
    let record = fidelity_record("fid-mb-24");
    let content = content_with(&record.board_variants(&available_variants()).unwrap());
    let g = replay(content.clone(), &record, Some(2), true)
        .map_err(|(m, _)| m.to_string())
        .unwrap();
    let order: Vec<(String, String)> = g
        .state
        .queue
        .iter()
        .filter_map(|d| match d {
            Decision::Place(s, b) => Some((g.seat_name(*s), b.to_string())),
            _ => None,
        })
        .collect();
    let want = [
        ("xenos", "m"),
        ("ivits", "PI"),
        ("xenos", "m"),
        ("xenos", "m"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(f, b)| (f.to_string(), b.to_string()))
        .collect();
    assert_eq!(order, want);
    if let Err((m, _)) = replay(content, &record, None, true) {
        panic!("{m}");
    }
}
