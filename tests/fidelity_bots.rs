//! Rules that games of Orrery's own bots reached and the recording platform reads otherwise
//! (issue "Fidelity III"): one test or more per rule, on the base content with the platform's
//! variant, from the shipped conformance records.

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use orrery_gp::content::Content;

use orrery_core::hex::Hex;
use orrery_gp::game::{Decision, Game};
use orrery_gp::notation::{parse_line, Command, MoveLine};
use orrery_gp::record::{replay, Record};

use common::scenario::*;

/// The printed base game, without the platform variant.
fn base_content() -> Arc<Content> {
    Arc::new(common::base())
}

/// Line `i` of a recorded game.
fn line(name: &str, i: usize) -> String {
    record(name).moves[i].clone()
}

/// A federation token id still in the supply.
fn token_in_supply(g: &Game) -> String {
    g.state
        .fed_supply
        .iter()
        .find(|(_, n)| **n > 0)
        .map(|(id, _)| id.to_string())
        .expect("a federation token left")
}

/// Plays the record's lines until it is `faction`'s turn.
fn until_turn_of(name: &str, g: &mut Game, faction: &str) {
    let rec = record(name);
    while turn_of(g).as_deref() != Some(faction) {
        let j = g.state.moves + 1;
        ok(g, &rec.moves[j]);
    }
}

fn ivits_federations(g: &Game) -> Vec<Vec<Hex>> {
    g.state.players[seat(g, "ivits")].federations.to_vec()
}

// 1. The Ivits' one federation: every formation raises the threshold --------------------------

/// rich-005, move 92: the Ivits grow their federation (formed at move 28, value 7) to the
/// nine hexes below, their second formation (threshold 14).
const GROWN: &str = "1A0,1A1,1A10,1A11,2A1,3A5,3A7,3B3,3B4";

#[test]
fn ivits_forming_the_same_federation_again_needs_the_next_threshold() {
    // The study's case: the grown federation still counts as one entry, but two formations
    // were made, so a third needs 21, which the same hexes do not reach.
    let name = "rich/rich-005";
    let mut g = at(name, 92);
    let s = seat(&g, "ivits");
    assert_eq!(g.state.players[s].formations, 2);
    assert_eq!(ivits_federations(&g).len(), 1, "one federation");
    until_turn_of(name, &mut g, "ivits");
    let token = token_in_supply(&g);
    refused_with(
        &mut g,
        &format!("ivits federation {GROWN} {token}"),
        "below 21",
    );
    // Listing agrees: no federation is offered on the same buildings.
    let listed: Vec<String> = g
        .legal_parts()
        .iter()
        .map(|p| p.to_string())
        .filter(|p| p.starts_with("federation"))
        .collect();
    assert!(listed.is_empty(), "federations listed: {listed:?}");
}

#[test]
fn ivits_growth_reaching_the_threshold_is_a_formation() {
    let name = "rich/rich-005";
    let mut g = at(name, 91);
    let s = seat(&g, "ivits");
    assert_eq!(g.state.players[s].formations, 1);
    let tokens = g.state.players[s].tokens.len();
    ok(&mut g, &line(name, 92));
    assert_eq!(g.state.players[s].formations, 2);
    assert_eq!(g.state.players[s].tokens.len(), tokens + 1);
    assert_eq!(ivits_federations(&g).len(), 1, "still one federation");
}

#[test]
fn saved_state_without_formations_loads_with_one_per_federation() {
    let mut g = at("rich/rich-005", 92);
    let mut json = serde_json::to_value(&g.state).unwrap();
    let s = seat(&g, "ivits");
    let player = json["players"][s].as_object_mut().unwrap();
    assert!(player.remove("formations").is_some(), "saved when not zero");
    let state = serde_json::from_value(json).expect("an old state decodes");
    let loaded = Game::load(g.content.clone(), state).expect("an old state loads");
    assert_eq!(loaded.state.players[s].formations, 1);
    // A state claiming more formations than federation tokens held is refused.
    g.state.players[s].formations = 9;
    let state = serde_json::from_value(serde_json::to_value(&g.state).unwrap()).unwrap();
    let e = Game::load(g.content.clone(), state)
        .map(|_| ())
        .unwrap_err();
    assert!(e.contains("formations"), "{e}");
}

// 5.1 No free action between the parts of a main action --------------------------------------

/// The words naming a part's kind: `special step`, `action power6`, `build lab`, `tech`.
fn kind(part: &Command) -> String {
    let text = part.to_string();
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        [verb @ ("special" | "action" | "build"), what, ..] => format!("{verb} {what}"),
        [verb, ..] => (*verb).to_string(),
        [] => String::new(),
    }
}

#[test]
fn no_free_action_while_a_follow_up_is_owed() {
    // Every recorded line is applied part by part; wherever a part of a turn leaves a
    // follow-up owed, no conversion or burn is listed and one is refused, as the platform
    // refuses it (it takes a main action's follow-ups right after it). Under the printed rules
    // and the platform's variant alike.
    let content = platform_content();
    let mut kinds = BTreeSet::new();
    let mut checked = 0;
    for path in common::records() {
        let rec = Record::from_json(&common::read_record(&path)).expect("a record");
        let mut g = replay(content.clone(), &rec, Some(0), false).expect("set up");
        for line in rec.moves.iter().skip(1) {
            let parsed = parse_line(line).expect("a recorded line parses");
            if let MoveLine::Turn { parts, .. } = &parsed {
                let mut h = g.clone();
                for part in &parts[..parts.len().saturating_sub(1)] {
                    if *part == Command::EndTurn || h.apply_part(part).is_err() {
                        break;
                    }
                    let in_turn = matches!(h.state.open, Some(Decision::Turn(_)));
                    if !in_turn || h.state.turn.follows.is_empty() {
                        continue;
                    }
                    checked += 1;
                    kinds.insert(kind(part));
                    let free: Vec<String> = h
                        .legal_parts()
                        .iter()
                        .filter(|c| matches!(c, Command::Spend { .. } | Command::Burn(_)))
                        .map(|c| c.to_string())
                        .collect();
                    assert!(free.is_empty(), "{line:?} after {part}: listed {free:?}");
                    for bad in ["burn 1", "spend 1pw for 1c", "spend 1o for 1c"] {
                        let e = h.apply_part(&parse_part(bad)).unwrap_err();
                        assert!(e.0.contains("cannot interrupt"), "{line:?}: {bad}: {e}");
                    }
                }
            }
            ok(&mut g, line);
        }
    }
    for k in [
        "special step",
        "special range+3",
        "action power6",
        "tech",
        "special up-lowest",
        "build lab",
    ] {
        assert!(
            kinds.contains(k),
            "no recorded {k} owes a follow-up: {kinds:?}"
        );
    }
    assert!(checked > 500, "{checked} points checked");
}

// 5.4 Follow-ups in the order they are owed --------------------------------------------------

#[test]
fn advanced_tile_cover_comes_before_its_research_step() {
    // rich-003 move 52: `ambas spend 3pw for 3c. build ac2 7B0. tech adv-nav. cover nav. up gaia`.
    let name = "rich/rich-003";
    let swapped = "ambas spend 3pw for 3c. build ac2 7B0. tech adv-nav. up gaia. cover nav";
    let mut g = at(name, 51);
    refused(&mut g, swapped);
    let mut h = g.clone();
    for part in ["spend 3pw for 3c", "build ac2 7B0", "tech adv-nav"] {
        h.apply_part(&parse_part(part)).expect("recorded part");
    }
    let parts = listed(&h);
    assert!(parts.iter().any(|p| p.starts_with("cover")), "{parts:?}");
    assert!(!parts.iter().any(|p| p.starts_with("up")), "{parts:?}");
    ok(&mut g, &line(name, 52));
    // The printed rules leave the order open.
    let mut g = at_with(base_content(), name, 51);
    ok(&mut g, swapped);
}

#[test]
fn downgrade_comes_before_its_research_step() {
    // dev-030 move 66: `firaks special down-lab. build ts 3B1. up terra`.
    let name = "dev/dev-030";
    let swapped = "firaks special down-lab. up terra. build ts 3B1";
    let mut g = at(name, 65);
    refused(&mut g, swapped);
    let mut h = g.clone();
    h.apply_part(&parse_part("special down-lab"))
        .expect("recorded part");
    assert_eq!(listed(&h), ["build ts 3B1"]);
    let mut g = at_with(base_content(), name, 65);
    ok(&mut g, swapped);
}

// 5.3 A free research step no track can take is declined ---------------------------------------

#[test]
fn unusable_research_step_is_declined_explicitly() {
    // rich-004 move 50: `ambas build lab 7B1. tech eco. up eco`; with Economy at its top the
    // tile's step cannot be taken.
    let name = "rich/rich-004";
    let top = |g: &mut Game| {
        let s = seat(g, "ambas");
        g.state.players[s].research.insert("eco".into(), 5);
    };
    let mut g = at(name, 49);
    top(&mut g);
    refused_with(&mut g, "ambas build lab 7B1. tech eco", "not finished");
    let mut h = g.clone();
    for part in ["build lab 7B1", "tech eco"] {
        h.apply_part(&parse_part(part)).expect("recorded part");
    }
    assert_eq!(listed(&h), ["decline up"]);
    ok(&mut g, "ambas build lab 7B1. tech eco. decline up");
    // The printed rules: it lapses.
    let mut g = at_with(base_content(), name, 49);
    top(&mut g);
    ok(&mut g, "ambas build lab 7B1. tech eco");
}

// 5.5 A board action whose whole gain a cap would waste ----------------------------------------

#[test]
fn board_action_gaining_only_a_capped_resource_at_its_cap_is_refused() {
    // mix-aurora-mint move 39: `baltaks action power4` (7 credits).
    let name = "mixed/mix-aurora-mint";
    let recorded = line(name, 39);
    let at_cap = |content: Arc<Content>, credits: i32| {
        let mut g = at_with(content, name, 38);
        set_res(&mut g, "baltaks", "c", credits);
        g
    };
    let mut g = at_cap(platform_content(), 30);
    assert!(!listed(&g).contains(&"action power4".to_string()));
    refused_with(&mut g, &recorded, "at the cap");
    // One credit below the cap it is offered and taken (the rest of the gain is lost).
    let mut g = at_cap(platform_content(), 29);
    assert!(listed(&g).contains(&"action power4".to_string()));
    ok(&mut g, &recorded);
    assert_eq!(res(&g, "baltaks", "c"), 30);
    // The printed rules allow it (the gain is lost).
    let mut g = at_cap(base_content(), 30);
    ok(&mut g, &recorded);
}

// 5.6 Extra range must save QIC ------------------------------------------------------------------

/// The `build m …` and `build gf …` parts listed.
fn placements(g: &Game) -> BTreeSet<String> {
    listed(g)
        .into_iter()
        .filter(|p| p.starts_with("build gf") || p.starts_with("build m "))
        .collect()
}

/// At move `at` of `name` the seat takes `action` (extra range): the placements listed after it
/// are those the range brings nearer by a QIC or more; the others are refused. Returns how
/// many listed placements the reading removed.
fn range_must_save_qic(name: &str, at_move: usize, action: &str, built: &str) -> usize {
    // Ore and credits to spare, so that every planet in reach can be listed.
    let before = |content: Arc<Content>| {
        let mut g = at_with(content, name, at_move - 1);
        let faction = turn_of(&g).expect("a turn");
        set_res(&mut g, &faction, "o", 15);
        set_res(&mut g, &faction, "c", 30);
        g
    };
    let with_range = |content: Arc<Content>| {
        let mut g = before(content);
        g.apply_part(&parse_part(action)).expect("recorded part");
        g
    };
    // The platform's variant without this reading (the base game's turn order differs, so
    // the record does not replay on the base alone).
    let lenient = {
        let mut c = (*platform_content()).clone();
        c.rules.options.refuse_useless_actions = false;
        Arc::new(c)
    };
    let platform = with_range(platform_content());
    let printed = with_range(lenient);
    let (pf, pr) = (placements(&platform), placements(&printed));
    assert!(pf.contains(built), "{pf:?}");
    assert!(pf.is_subset(&pr), "{pf:?} / {pr:?}");
    // Without the action, the others are in reach for the same QIC: listed as a main action.
    let plain = placements(&before(platform_content()));
    let useless: Vec<&String> = pr.difference(&pf).collect();
    for part in &useless {
        assert!(plain.contains(*part), "{part} needs the range");
        let mut g = platform.clone();
        let e = g.apply_part(&parse_part(part)).unwrap_err();
        assert!(e.0.contains("extra range would not be used"), "{part}: {e}");
    }
    let mut g = at(name, at_move - 1);
    ok(&mut g, &line(name, at_move));
    useless.len()
}

#[test]
fn extra_range_must_lower_the_qic_a_placement_needs() {
    // Every recorded `special range+3. build …` (Gaia projects included, the case):
    // the platform lists after the range action only the planets it brings nearer by a QIC.
    let root = common::root().join("tests/data/conformance");
    let (mut cases, mut removed) = (0, 0);
    for path in common::records() {
        let name = path.strip_prefix(&root).unwrap().with_extension("");
        let name = name.to_str().unwrap();
        for (i, m) in record(name).moves.iter().enumerate() {
            let Some((_, rest)) = m.split_once(" special range+3. ") else {
                continue;
            };
            let built: Vec<&str> = rest.split(['.', ' ']).take(3).collect();
            if built[0] == "build" {
                cases += 1;
                removed += range_must_save_qic(name, i, "special range+3", &built.join(" "));
            }
        }
    }
    assert!(cases > 10, "{cases} recorded range actions");
    assert!(removed > 0, "some placement is as near without the range");
}
