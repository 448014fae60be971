//! One or more tests per faction ability (`factions.md` §4), named `<faction>_<ability>`.
//!
//! Scenarios replay a recorded game in which the faction plays up to a chosen move, then
//! apply hand-written move lines. A few edge cases adjust one number of the replayed state
//! directly (documented where done).

mod common;

use std::collections::BTreeMap;

use orrery_core::hex::Hex;
use orrery_gp::board::FactionBoard;
use orrery_gp::content::Effect;
use orrery_gp::game::{Decision, Game};
use orrery_gp::power::Area;

// ---------------------------------------------------------------------------------------------
// Helpers (shared ones in tests/common/scenario.rs)

use common::scenario::*;

/// The recorded line `i` of `name`.
fn line(name: &str, i: usize) -> String {
    record(name).moves[i].clone()
}

fn brainstone(g: &Game) -> Option<Area> {
    g.state.players[seat(g, "taklons")].power.special_area()
}

fn at_hex(g: &Game, name: &str) -> Vec<(String, String, bool)> {
    let i = g.state.map.space_index(hex(g, name)).expect("on the map");
    g.state
        .structures
        .get(&i)
        .map(|l| {
            l.iter()
                .map(|s| (g.seat_name(s.seat), s.building.to_string(), s.shared))
                .collect()
        })
        .unwrap_or_default()
}

/// Income items (one bundle per income event) a faction would receive now.
fn income_events(g: &Game, faction: &str) -> Vec<BTreeMap<String, i32>> {
    let p = &g.state.players[seat(g, faction)];
    let f = g.content.faction(faction).expect("faction");
    let board = FactionBoard::resolve(&g.content.board, f);
    p.income(&g.content, f, &board)
        .into_iter()
        .filter_map(|e| match e {
            Effect::Gain(b) => Some(b.iter().map(|(c, n)| (c.to_string(), n)).collect()),
            _ => None,
        })
        .collect()
}

/// Income summed by code.
fn income(g: &Game, faction: &str) -> BTreeMap<String, i32> {
    let mut total = BTreeMap::new();
    for e in income_events(g, faction) {
        for (c, n) in e {
            *total.entry(c).or_default() += n;
        }
    }
    total
}

fn get(m: &BTreeMap<String, i32>, code: &str) -> i32 {
    m.get(code).copied().unwrap_or(0)
}

fn federations(g: &Game, faction: &str) -> Vec<Vec<Hex>> {
    g.state.players[seat(g, faction)].federations.to_vec()
}

// ---------------------------------------------------------------------------------------------
// Terrans

#[test]
fn terrans_gaia_tokens_return_to_area_two() {
    // dev-004: Terrans (no PI) start a Gaia project in round 1 (move 10); round 2 begins
    // after move 13 with their booster9 income (charge 4) and then the Gaia phase.
    let g = at("dev/dev-004", 12);
    assert_eq!(pw(&g, "terrans"), [3, 0, 0, 6]);
    let g = at("dev/dev-004", 13);
    // Charge 4: 3/0/0 → 0/2/1; the 6 Gaia tokens then go to area II (not area I: 6/2/1).
    assert_eq!(pw(&g, "terrans"), [0, 8, 1, 0]);
}

#[test]
fn terrans_pi_converts_gaia_tokens_in_the_gaia_phase() {
    // rich-010 after move 40: Terrans (PI) with 6 tokens in the Gaia area decide.
    let g0 = at("rich/rich-010", 40);
    assert_eq!(
        g0.next_decision(),
        Some(&Decision::Gaia(seat(&g0, "terrans")))
    );
    let mut g = g0.clone();
    let before = purse(&g, "terrans");
    ok(&mut g, "terrans spend 4tg for 1q. spend 2tg for 2c");
    let after = purse(&g, "terrans");
    assert_eq!(after[3], before[3] + 1);
    assert_eq!(after[0], before[0] + 2);
    // The tokens still end in area II.
    assert_eq!(pw(&g, "terrans"), [1, 6, 2, 0]);
    // 3 tokens for an ore, 4 for a knowledge.
    let mut g = g0.clone();
    ok(&mut g, "terrans spend 3tg for 1o. spend 3tg for 1o");
    assert_eq!(res(&g, "terrans", "o"), before[1] + 2);
    // Only what the Gaia area holds.
    let mut g = g0.clone();
    refused_with(
        &mut g,
        "terrans spend 8tg for 2q",
        "not enough tokens in the Gaia area",
    );
    // Without a PI there is no such decision (dev-004: Terrans return tokens directly).
    let g = at("dev/dev-004", 12);
    assert_eq!(built(&g, "terrans", "PI"), 0);
    let mut g = g.clone();
    ok(&mut g, &line("dev/dev-004", 13));
    assert!(!matches!(g.next_decision(), Some(Decision::Gaia(_))));
}

// ---------------------------------------------------------------------------------------------
// Lantids

#[test]
fn lantids_mine_on_an_occupied_planet_pays_only_the_mine() {
    // rich-008 after move 14: Lantids build on Gleens' mine 6B3 (a Gaia planet): 2 c + 1 o,
    // no terraforming, no Gaia QIC.
    let mut g = at("rich/rich-008", 14);
    assert_eq!(planet_at(&g, "6B3"), "gaia");
    let before = purse(&g, "lantids");
    ok(&mut g, "lantids build m 6B3");
    let after = purse(&g, "lantids");
    // 6B3 is 2 away from Lantids' nearest planet (range 1): 1 QIC is for range only.
    assert_eq!(hex(&g, "6B1").distance(hex(&g, "6B3")), 2);
    assert_eq!(
        [
            before[0] - after[0],
            before[1] - after[1],
            before[3] - after[3]
        ],
        [2, 1, 1]
    );
    assert_eq!(
        at_hex(&g, "6B3"),
        vec![
            ("gleens".to_string(), "m".to_string(), false),
            ("lantids".to_string(), "m".to_string(), true)
        ]
    );
    // It counts as a mine: Gleens may charge from it.
    assert_eq!(leech_offer(&g).map(|(f, _)| f).as_deref(), Some("gleens"));
}

#[test]
fn lantids_shared_mine_cannot_be_upgraded() {
    let mut g = at("rich/rich-017", 58);
    assert_eq!(
        at_hex(&g, "6B3")[1],
        ("lantids".to_string(), "m".to_string(), true)
    );
    refused_with(
        &mut g,
        "lantids burn 1. spend 1pw for 1c. build ts 6B3",
        "cannot be upgraded",
    );
}

#[test]
fn lantids_other_factions_may_not_share_a_planet() {
    // rich-008 after move 12: Gleens may not build on Lantids' planet (or anyone's).
    let mut g = at("rich/rich-008", 12);
    assert_eq!(turn_of(&g).as_deref(), Some("gleens"));
    refused_with(&mut g, "gleens build m 6B1", "already colonized");
}

#[test]
fn lantids_pi_gives_two_knowledge_per_shared_mine() {
    // rich-017 after move 58: Lantids (PI) build on Geodens' lab planet 1A5.
    let mut g = at("rich/rich-017", 58);
    assert_eq!(built(&g, "lantids", "PI"), 1);
    assert_eq!(at_hex(&g, "1A5")[0].0, "geodens");
    let k = res(&g, "lantids", "k");
    ok(&mut g, "lantids burn 1. spend 1pw for 1c. build m 1A5");
    assert_eq!(res(&g, "lantids", "k"), k + 2);
    // Without PI nothing (rich-008 move 15).
    let mut g = at("rich/rich-008", 14);
    let k = res(&g, "lantids", "k");
    ok(&mut g, "lantids build m 6B3");
    assert_eq!(res(&g, "lantids", "k"), k);
}

#[test]
fn lantids_pi_income_is_a_charge_of_four_only() {
    let g = at("rich/rich-017", 38);
    assert_eq!(built(&g, "lantids", "PI"), 1);
    let events = income_events(&g, "lantids");
    assert!(events
        .iter()
        .any(|e| e.get("pw") == Some(&4) && e.len() == 1));
    assert_eq!(get(&income(&g, "lantids"), "t"), 0, "no power token");
}

// ---------------------------------------------------------------------------------------------
// Xenos

#[test]
fn xenos_place_a_third_starting_mine() {
    // dev-001 moves 3–5: three Xenos mines before the Ivits PI.
    let g = at("dev/dev-001", 5);
    assert_eq!(built(&g, "xenos", "m"), 3);
    assert_eq!(
        g.next_decision(),
        Some(&Decision::Place(seat(&g, "ivits"), "PI".into()))
    );
}

#[test]
fn xenos_pi_income_gives_a_qic() {
    let g = at("rich/rich-012", 30);
    assert_eq!(built(&g, "xenos", "PI"), 1);
    let inc = income(&g, "xenos");
    assert_eq!(get(&inc, "q"), 1);
    assert_eq!(get(&inc, "pw"), 4);
    assert_eq!(get(&inc, "t"), 0);
}

#[test]
fn xenos_pi_federation_needs_only_six() {
    // rich-012 move 38: PI (3) + three mines = 6.
    let mut g = at("rich/rich-012", 37);
    ok(&mut g, &line("rich/rich-012", 38));
    let fed = &federations(&g, "xenos")[0];
    let value: u32 = ["5B4", "2A7", "5A4", "3A0"]
        .iter()
        .map(|n| {
            assert!(fed.contains(&hex(&g, n)));
            if at_hex(&g, n)[0].1 == "PI" {
                3
            } else {
                1
            }
        })
        .sum();
    assert_eq!(value, 6);
}

// ---------------------------------------------------------------------------------------------
// Gleens

#[test]
fn gleens_gain_ore_instead_of_qic() {
    // mix-alder-nova after move 23: Gleens (no QIC academy); 7 power in area III set by hand.
    let mut g = at("mixed/mix-alder-nova", 23);
    set_res(&mut g, "gleens", "q", 0);
    let s = seat(&g, "gleens");
    g.state.players[s].power.areas = [0, 0, 7, 0];
    let o = res(&g, "gleens", "o");
    // 4 power → "1 QIC" arrives as 1 ore; power6 + 8B5 (one step, free) costs the mine's ore.
    ok(
        &mut g,
        "gleens spend 4pw for 1q. action power6. build m 8B5",
    );
    assert_eq!(res(&g, "gleens", "q"), 0);
    assert_eq!(res(&g, "gleens", "o"), o + 1 - 1);
}

#[test]
fn gleens_gain_qic_normally_after_the_qic_academy() {
    // rich-015 move 99: Gleens build the QIC academy; its tile's reward and later QIC are QIC.
    let name = "rich/rich-015";
    let mut g = at(name, 98);
    assert_eq!(built(&g, "gleens", "ac2"), 0);
    ok(&mut g, &line(name, 99));
    assert_eq!(built(&g, "gleens", "ac2"), 1);
    let q = res(&g, "gleens", "q");
    // Play on to Gleens' next turn and use the academy's action.
    let rec = record(name);
    let mut i = 100;
    while turn_of(&g).as_deref() != Some("gleens") {
        ok(&mut g, &rec.moves[i]);
        i += 1;
    }
    let q2 = res(&g, "gleens", "q");
    assert!(q2 >= q);
    ok(&mut g, "gleens special q");
    assert_eq!(res(&g, "gleens", "q"), q2 + 1);
}

#[test]
fn gleens_gaia_planet_costs_ore_and_scores_two_vp() {
    // rich-008 move 13: Gleens mine the Gaia planet 6B3 for 2 c + 1 o + 1 o (no QIC).
    let mut g = at("rich/rich-008", 12);
    assert_eq!(planet_at(&g, "6B3"), "gaia");
    let before = purse(&g, "gleens");
    ok(&mut g, "gleens build m 6B3");
    let after = purse(&g, "gleens");
    assert_eq!(
        [
            before[0] - after[0],
            before[1] - after[1],
            before[3] - after[3]
        ],
        [2, 2, 0]
    );
    let faction_vp = g.state.players[seat(&g, "gleens")]
        .vp_sources
        .get("faction")
        .copied()
        .unwrap_or(0);
    assert_eq!(faction_vp, 2);
}

#[test]
fn gleens_pi_gives_their_federation_token_and_ore_income() {
    // rich-007 move 13: Gleens build their PI.
    let name = "rich/rich-007";
    let mut g = at(name, 12);
    let before = purse(&g, "gleens");
    ok(&mut g, &line(name, 13));
    let after = purse(&g, "gleens");
    let p = &g.state.players[seat(&g, "gleens")];
    assert_eq!(p.tokens.len(), 1);
    assert_eq!(p.tokens[0].id, "gleens");
    assert!(p.tokens[0].green);
    // PI: 6 c + 4 o; token: 2 c, 1 o, 1 k.
    assert_eq!(after[0] - before[0], -6 + 2);
    assert_eq!(after[1] - before[1], -4 + 1);
    assert_eq!(after[2] - before[2], 1);
    // PI income: charge 4 and 1 ore, no token.
    let events = income_events(&g, "gleens");
    assert!(events
        .iter()
        .any(|e| e.get("o") == Some(&1) && e.len() == 1));
    assert_eq!(get(&income(&g, "gleens"), "t"), 0);
}

// ---------------------------------------------------------------------------------------------
// Taklons

#[test]
fn taklons_brainstone_charge_asks_where_it_goes() {
    // dev-006 after move 9: Taklons (power 2/4/0, Brainstone in area I) are offered 1.
    let g0 = at("dev/dev-006", 9);
    assert_eq!(leech_offer(&g0), Some(("taklons".to_string(), 1)));
    assert_eq!(brainstone(&g0), Some(Area::I));
    let mut g = g0.clone();
    refused_with(&mut g, "taklons charge 1pw", "brainstone");
    // The Brainstone moves.
    let mut g = g0.clone();
    ok(&mut g, "taklons charge 1pw. brainstone area2");
    assert_eq!(brainstone(&g), Some(Area::II));
    assert_eq!(pw(&g, "taklons"), [2, 4, 0, 0]);
    // A normal token moves.
    let mut g = g0.clone();
    ok(&mut g, "taklons charge 1pw. brainstone area1");
    assert_eq!(brainstone(&g), Some(Area::I));
    assert_eq!(pw(&g, "taklons"), [1, 5, 0, 0]);
}

#[test]
fn taklons_brainstone_spends_for_three() {
    // dev-006: at a Taklons turn put the Brainstone alone in area III (by hand): 3 power for
    // 3 credits are paid by the Brainstone, which returns to area I.
    let name = "dev/dev-006";
    let mut g = at(name, 9);
    ok(&mut g, "taklons charge 1pw. brainstone area2");
    let rec = record(name);
    while turn_of(&g).as_deref() != Some("taklons") {
        let j = g.state.moves + 1;
        ok(&mut g, &rec.moves[j]);
    }
    let s = seat(&g, "taklons");
    if let Some(sp) = &mut g.state.players[s].power.special {
        sp.area = Some(Area::III);
    }
    g.state.players[s].power.areas[2] = 0;
    set_res(&mut g, "taklons", "k", 4);
    let c = res(&g, "taklons", "c");
    let before = pw(&g, "taklons");
    ok(&mut g, "taklons spend 3pw for 3c. up int");
    assert_eq!(res(&g, "taklons", "c"), c + 3);
    assert_eq!(brainstone(&g), Some(Area::I));
    assert_eq!(pw(&g, "taklons")[..3], before[..3]);
}

#[test]
fn taklons_brainstone_spend_question() {
    // dev-006: at a Taklons turn, the Brainstone and 3 normal tokens in area III (set by
    // hand). Paying 3 power may use either; the player answers with `brainstone areaN`.
    let name = "dev/dev-006";
    let mut g = at(name, 9);
    ok(&mut g, "taklons charge 1pw. brainstone area2");
    let rec = record(name);
    while turn_of(&g).as_deref() != Some("taklons") {
        let j = g.state.moves + 1;
        ok(&mut g, &rec.moves[j]);
    }
    let s = seat(&g, "taklons");
    g.state.players[s].power.areas = [0, 0, 3, 0];
    if let Some(sp) = &mut g.state.players[s].power.special {
        sp.area = Some(Area::III);
    }
    set_res(&mut g, "taklons", "k", 4);
    let g0 = g.clone();
    refused_with(&mut g, "taklons spend 3pw for 3c. up int", "brainstone");
    // Spend the Brainstone: it goes to area I, the normal tokens stay.
    let mut g = g0.clone();
    ok(&mut g, "taklons spend 3pw for 3c. brainstone area1. up int");
    assert_eq!(brainstone(&g), Some(Area::I));
    assert_eq!(pw(&g, "taklons"), [0, 0, 3, 0]);
    // Keep it in area III: three normal tokens pay.
    let mut g = g0.clone();
    ok(&mut g, "taklons spend 3pw for 3c. brainstone area3. up int");
    assert_eq!(brainstone(&g), Some(Area::III));
    assert_eq!(pw(&g, "taklons"), [3, 0, 0, 0]);
    // One power is never paid with the Brainstone: no question.
    let mut g = g0.clone();
    ok(&mut g, "taklons spend 1pw for 1c. up int");
    assert_eq!(brainstone(&g), Some(Area::III));
}

#[test]
fn taklons_pi_gain_a_token_with_each_charge() {
    // rich-006 after move 22: Taklons (PI) are offered 3 and take the token first.
    let g0 = at("rich/rich-006", 22);
    assert_eq!(built(&g0, "taklons", "PI"), 1);
    assert_eq!(leech_offer(&g0).map(|(f, _)| f).as_deref(), Some("taklons"));
    let total =
        |g: &Game| pw(g, "taklons").iter().sum::<u32>() + u32::from(brainstone(g).is_some());
    let mut g = g0.clone();
    assert!(line("rich/rich-006", 23).starts_with("taklons charge 1t,"));
    ok(&mut g, &line("rich/rich-006", 23));
    assert_eq!(total(&g), total(&g0) + 1);
    // Taklons without PI: a plain charge, no token (dev-006 move 10).
    let mut g = at("dev/dev-006", 9);
    let before = pw(&g, "taklons").iter().sum::<u32>();
    ok(&mut g, "taklons charge 1pw. brainstone area2");
    assert_eq!(pw(&g, "taklons").iter().sum::<u32>(), before);
}

#[test]
fn taklons_only_with_pi_gain_exactly_one_token_with_a_charge() {
    // Taklons without PI (dev-006 after move 9).
    let mut g = at("dev/dev-006", 9);
    refused(&mut g, "taklons charge 1t,1pw. brainstone area2");
    // Another faction (dev-023 after move 51: Xenos offered 2).
    let mut g = at("dev/dev-023", 51);
    refused(&mut g, "xenos charge 2pw,1t");
    // Taklons with PI: one token, not more (rich-006 after move 22).
    let mut g = at("rich/rich-006", 22);
    let l = line("rich/rich-006", 23).replace("charge 1t,", "charge 5t,");
    refused(&mut g, &l);
}

// ---------------------------------------------------------------------------------------------
// Ambas

#[test]
fn ambas_base_income_two_ore_and_pi_two_tokens() {
    let g = at("rich/rich-003", 18);
    assert_eq!(built(&g, "ambas", "PI"), 1);
    let events = income_events(&g, "ambas");
    assert!(events
        .iter()
        .any(|e| e.get("o") == Some(&2) && e.get("k") == Some(&1)));
    assert!(events.iter().any(|e| e.get("t") == Some(&2)));
    assert!(events.iter().any(|e| e.get("pw") == Some(&4)));
}

#[test]
fn ambas_swap_pi_with_a_mine() {
    // rich-003 move 19: PI 7B0 ↔ mine 2B1. Not a build: no VP, no charge offered.
    let name = "rich/rich-003";
    let mut g = at(name, 18);
    assert_eq!(at_hex(&g, "7B0")[0].1, "PI");
    assert_eq!(at_hex(&g, "2B1")[0].1, "m");
    let before = purse(&g, "ambas");
    let income_before = income(&g, "ambas");
    ok(&mut g, "ambas special swap-PI. swap-PI 2B1");
    assert_eq!(at_hex(&g, "7B0")[0].1, "m");
    assert_eq!(at_hex(&g, "2B1")[0].1, "PI");
    assert_eq!(purse(&g, "ambas"), before);
    assert_eq!(income(&g, "ambas"), income_before);
    assert_eq!(leech_offer(&g), None);
    assert_eq!(turn_of(&g).as_deref(), Some("geodens"));
    // Once per round (after move 20 it is Ambas' turn again, still round 1).
    let mut g = at(name, 20);
    assert_eq!((g.state.round, turn_of(&g).as_deref()), (1, Some("ambas")));
    refused_with(
        &mut g,
        "ambas special swap-PI. swap-PI 7B0",
        "used this round",
    );
    // Only with one of their own mines (1A1 is Geodens').
    let mut g = at(name, 18);
    refused(&mut g, "ambas special swap-PI. swap-PI 1A1");
}

#[test]
fn ambas_swap_keeps_existing_federations() {
    // rich-017 move 118: Ambas swap their federated PI (10B2) with a mine outside it (3A8).
    let name = "rich/rich-017";
    let mut g = at(name, 117);
    let feds = federations(&g, "ambas");
    assert!(feds[0].contains(&hex(&g, "10B2")));
    assert!(!feds[0].contains(&hex(&g, "3A8")));
    let tokens = g.state.players[seat(&g, "ambas")].tokens.clone();
    ok(&mut g, "ambas special swap-PI. swap-PI 3A8");
    assert_eq!(at_hex(&g, "10B2")[0].1, "m");
    assert_eq!(at_hex(&g, "3A8")[0].1, "PI");
    assert_eq!(federations(&g, "ambas"), feds);
    assert_eq!(g.state.players[seat(&g, "ambas")].tokens, tokens);
}

// ---------------------------------------------------------------------------------------------
// Hadsch Hallas

#[test]
fn hadsch_hallas_pi_credit_conversions() {
    // mix-echo-garnet after move 40: Hadsch Hallas have their PI (move 31). Credits and
    // knowledge set by hand; the main action is a research step (4 k).
    let name = "mixed/mix-echo-garnet";
    let g0 = at(name, 40);
    assert_eq!(turn_of(&g0).as_deref(), Some("hadsch-hallas"));
    assert_eq!(built(&g0, "hadsch-hallas", "PI"), 1);
    for (conv, cost, code) in [
        ("3c for 1o", 3, "o"),
        ("4c for 1q", 4, "q"),
        ("4c for 1k", 4, "k"),
    ] {
        let mut g = g0.clone();
        set_res(&mut g, "hadsch-hallas", "c", 20);
        set_res(&mut g, "hadsch-hallas", "k", 4);
        let before = res(&g, "hadsch-hallas", code);
        ok(&mut g, &format!("hadsch-hallas spend {conv}. up sci"));
        let research = if code == "k" { 4 } else { 0 };
        assert_eq!(
            res(&g, "hadsch-hallas", code),
            before + 1 - research,
            "{conv}"
        );
        assert_eq!(res(&g, "hadsch-hallas", "c"), 20 - cost, "{conv}");
    }
    // Before the PI (rich-011: Hadsch Hallas' first turn) no such conversion exists.
    let mut g = at("rich/rich-011", 12);
    let rec = record("rich/rich-011");
    while turn_of(&g).as_deref() != Some("hadsch-hallas") {
        let j = g.state.moves + 1;
        ok(&mut g, &rec.moves[j]);
    }
    assert_eq!(built(&g, "hadsch-hallas", "PI"), 0);
    set_res(&mut g, "hadsch-hallas", "k", 4);
    refused_with(
        &mut g,
        "hadsch-hallas spend 3c for 1o. up terra",
        "no conversion",
    );
}

// ---------------------------------------------------------------------------------------------
// Ivits

#[test]
fn ivits_place_their_pi_last_and_no_mines() {
    let g = at("dev/dev-001", 6);
    assert_eq!(built(&g, "ivits", "PI"), 1);
    assert_eq!(built(&g, "ivits", "m"), 0);
    assert_eq!(at_hex(&g, "2A11")[0].1, "PI");
}

#[test]
fn ivits_space_station() {
    // dev-001 move 13: `special space-station. build sp 7A6`.
    let name = "dev/dev-001";
    let g0 = at(name, 12);
    let mut g = g0.clone();
    let before = purse(&g, "ivits");
    ok(&mut g, "ivits special space-station. build sp 7A6");
    assert_eq!(
        at_hex(&g, "7A6"),
        vec![("ivits".into(), "sp".into(), false)]
    );
    assert_eq!(purse(&g, "ivits"), before, "free within range");
    // Not a structure: nobody is offered a charge.
    assert_eq!(leech_offer(&g), None);
    // Only on empty space.
    let mut g = g0.clone();
    refused_with(
        &mut g,
        "ivits special space-station. build sp 2A11",
        "not empty space",
    );
    // Without the follow-up build the action is unfinished.
    let mut g = g0.clone();
    refused(&mut g, "ivits special space-station");
}

#[test]
fn ivits_space_station_is_a_range_start_point() {
    // dev-001: Ivits' stations (moves 13, 23, 32). Find an empty planet that the newest
    // station brings closer than any other Ivits building, then build there with only the
    // QIC the distance from the station requires.
    let name = "dev/dev-001";
    let (g, station) = [(13, "7A6"), (23, "6A10"), (32, "6C")]
        .iter()
        .map(|(i, h)| {
            let g = at(name, *i);
            let station = hex(&g, h);
            (g, station)
        })
        .find(|(g, station)| station_helps(g, *station))
        .expect("a station that brings a planet closer");
    let s = seat(&g, "ivits");
    let others: Vec<Hex> = g
        .state
        .structures
        .iter()
        .filter(|(_, l)| l.iter().any(|x| x.seat == s && x.building != "sp"))
        .map(|(i, _)| g.state.map.spaces[*i].hex)
        .collect();
    let qic = |d: u32| d.saturating_sub(1).div_ceil(2);
    let (target, need) = g
        .state
        .map
        .spaces
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            g.content.planets.planets[usize::from(g.state.planets[*i])].kind
                == orrery_gp::content::PlanetKind::Wheel
                && !g.state.structures.contains_key(i)
        })
        .map(|(_, sp)| {
            let d_other = others.iter().map(|o| o.distance(sp.hex)).min().unwrap();
            (sp.hex, qic(sp.hex.distance(station)), qic(d_other))
        })
        .filter(|(_, from_station, from_others)| from_station < from_others)
        .min_by_key(|(_, from_station, _)| *from_station)
        .map(|(h, q, _)| (g.hex_name(h), q))
        .expect("a planet the station brings closer");
    let mut g = g.clone();
    let rec = record(name);
    while turn_of(&g).as_deref() != Some("ivits") {
        let j = g.state.moves + 1;
        ok(&mut g, &rec.moves[j]);
    }
    set_res(&mut g, "ivits", "q", need as i32);
    set_res(&mut g, "ivits", "o", 15);
    set_res(&mut g, "ivits", "c", 20);
    ok(&mut g, &format!("ivits build m {target}"));
    assert_eq!(res(&g, "ivits", "q"), 0);
}

/// Whether some empty wheel planet is cheaper to reach from `station` than from Ivits' other
/// buildings.
fn station_helps(g: &Game, station: Hex) -> bool {
    let s = seat(g, "ivits");
    let others: Vec<Hex> = g
        .state
        .structures
        .iter()
        .filter(|(_, l)| l.iter().any(|x| x.seat == s && x.building != "sp"))
        .map(|(i, _)| g.state.map.spaces[*i].hex)
        .collect();
    let qic = |d: u32| d.saturating_sub(1).div_ceil(2);
    g.state.map.spaces.iter().enumerate().any(|(i, sp)| {
        g.content.planets.planets[usize::from(g.state.planets[i])].kind
            == orrery_gp::content::PlanetKind::Wheel
            && !g.state.structures.contains_key(&i)
            && qic(sp.hex.distance(station))
                < qic(others.iter().map(|o| o.distance(sp.hex)).min().unwrap())
    })
}

#[test]
fn ivits_single_federation_grows_to_fourteen() {
    // rich-005: Ivits' first federation (move 28) is worth 7. At their next turn the same
    // buildings cannot form another one: the total must reach 14.
    let name = "rich/rich-005";
    let rec = record(name);
    let mut g = at(name, 28);
    assert_eq!(federations(&g, "ivits").len(), 1);
    while turn_of(&g).as_deref() != Some("ivits") {
        let j = g.state.moves + 1;
        ok(&mut g, &rec.moves[j]);
    }
    refused_with(&mut g, "ivits federation 1A0,1A10,1A11 fed6", "below 14");
    // Move 92: the extension reaching 14 adds a token and keeps one federation.
    let mut g = at(name, 91);
    ok(&mut g, &line(name, 92));
    let feds = federations(&g, "ivits");
    assert_eq!(feds.len(), 1, "still one federation");
    assert!(feds[0].contains(&hex(&g, "2A1")));
    assert_eq!(g.state.players[seat(&g, "ivits")].tokens.len(), 2);
}

#[test]
fn ivits_satellites_cost_qic() {
    let name = "rich/rich-017";
    let mut g = at(name, 56);
    let tokens = pw(&g, "ivits");
    let q = res(&g, "ivits", "q");
    ok(&mut g, &line(name, 57));
    assert_eq!(pw(&g, "ivits"), tokens);
    assert_eq!(res(&g, "ivits", "q"), q - 1);
    // With no QIC the same federation is refused.
    let mut g = at(name, 56);
    set_res(&mut g, "ivits", "q", 0);
    refused_with(&mut g, &line(name, 57), "not enough q");
}

// ---------------------------------------------------------------------------------------------
// Geodens

#[test]
fn geodens_pi_three_knowledge_for_a_new_planet_type() {
    // rich-003 after move 15 with the PI built (move 16 alternative), Geodens (Volcanic,
    // Oxide 1A2 not yet colonized).
    let mut g = at("rich/rich-003", 15);
    ok(&mut g, "geodens build PI 1A1");
    ok(&mut g, "ambas pass booster5");
    set_res(&mut g, "geodens", "o", 15);
    set_res(&mut g, "geodens", "c", 20);
    let k = res(&g, "geodens", "k");
    ok(&mut g, "geodens build m 1A2");
    assert_eq!(res(&g, "geodens", "k"), k + 3);
    // A second Oxide later gives nothing; without PI nothing (faction start state).
    let mut g = at("rich/rich-003", 13);
    let k = res(&g, "geodens", "k");
    ok(&mut g, "geodens build m 1A2");
    assert_eq!(res(&g, "geodens", "k"), k);
}

#[test]
fn geodens_pi_nothing_for_types_colonized_before() {
    // Oxide first gives 3 k; a second Oxide mine gives nothing.
    let mut g = at("rich/rich-003", 15);
    ok(&mut g, "geodens build PI 1A1");
    ok(&mut g, "ambas pass booster5");
    set_res(&mut g, "geodens", "o", 15);
    set_res(&mut g, "geodens", "c", 20);
    set_res(&mut g, "geodens", "q", 5);
    ok(&mut g, "geodens build m 1A2");
    assert_eq!(planet_at(&g, "5A1"), "oxide");
    let k = res(&g, "geodens", "k");
    ok(&mut g, "geodens build m 5A1");
    assert_eq!(res(&g, "geodens", "k"), k);
}

// ---------------------------------------------------------------------------------------------
// Bal T'aks

#[test]
fn baltaks_gaiaformer_to_qic_until_the_next_gaia_phase() {
    // dev-006 after move 13 (round 2): Bal T'aks hold one available Gaiaformer.
    let name = "dev/dev-006";
    let g0 = at(name, 13);
    let s = seat(&g0, "baltaks");
    assert_eq!(g0.state.players[s].gaiaformers, 1);
    let mut g = g0.clone();
    let q = res(&g, "baltaks", "q");
    ok(&mut g, "baltaks spend 1gf for 1q. build ts 2A5");
    assert_eq!(res(&g, "baltaks", "q"), q + 1);
    assert_eq!(g.state.players[s].gaiaformers_in_gaia, 1);
    // It is gone for this round: no second QIC.
    let mut g = g0.clone();
    refused_with(
        &mut g,
        "baltaks spend 2gf for 2q. build ts 2A5",
        "not enough Gaiaformers",
    );
    // The record converts it at move 14; it is back after round 3's Gaia phase and is used
    // for a Gaia project at move 19.
    let g = at(name, 18);
    assert_eq!(g.state.round, 3);
    assert_eq!(g.state.players[s].gaiaformers_in_gaia, 0);
    let mut g = g.clone();
    ok(&mut g, &line(name, 19));
    assert_eq!(
        g.state.gaiaformers.iter().filter(|x| x.seat == s).count(),
        1
    );
}

#[test]
fn baltaks_navigation_locked_until_pi() {
    // mix-bellow-crag: Bal T'aks build their PI at move 13.
    let name = "mixed/mix-bellow-crag";
    let rec = record(name);
    let mut g = at(name, 12);
    assert_eq!(turn_of(&g).as_deref(), Some("baltaks"));
    assert_eq!(built(&g, "baltaks", "PI"), 0);
    set_res(&mut g, "baltaks", "k", 4);
    refused_with(&mut g, "baltaks up nav", "may not advance on nav");
    let mut g = at(name, 13);
    assert_eq!(built(&g, "baltaks", "PI"), 1);
    while turn_of(&g).as_deref() != Some("baltaks") {
        let j = g.state.moves + 1;
        ok(&mut g, &rec.moves[j]);
    }
    set_res(&mut g, "baltaks", "k", 4);
    let nav = level(&g, "baltaks", "nav");
    ok(&mut g, "baltaks up nav");
    assert_eq!(level(&g, "baltaks", "nav"), nav + 1);
}

#[test]
fn baltaks_qic_academy_gives_four_credits() {
    let c = platform_content();
    let f = c.faction("baltaks").unwrap();
    let board = FactionBoard::resolve(&c.board, f);
    let ac2 = board.building("ac2").unwrap();
    let action = ac2.grants.action.as_ref().expect("an action");
    assert_eq!(action.key, "4c");
}

// ---------------------------------------------------------------------------------------------
// Firaks

#[test]
fn firaks_downgrade_lab_to_trading_station() {
    // rich-004 move 65: `special down-lab. build ts 7A4. up sci`.
    let name = "rich/rich-004";
    let mut g = at(name, 64);
    assert_eq!(at_hex(&g, "7A4")[0].1, "lab");
    let labs = built(&g, "firaks", "lab");
    let ts = built(&g, "firaks", "ts");
    let sci = level(&g, "firaks", "sci");
    ok(&mut g, "firaks special down-lab. build ts 7A4. up sci");
    // It counts as building a TS: Ambas' labs within 2 may charge.
    assert_eq!(leech_offer(&g), Some(("ambas".to_string(), 2)));
    assert_eq!(at_hex(&g, "7A4")[0].1, "ts");
    assert_eq!(built(&g, "firaks", "lab"), labs - 1);
    assert_eq!(built(&g, "firaks", "ts"), ts + 1);
    assert_eq!(level(&g, "firaks", "sci"), sci + 1);
    // The free advance may be declined.
    let mut g = at(name, 64);
    ok(&mut g, "firaks special down-lab. build ts 7A4. decline up");
    assert_eq!(level(&g, "firaks", "sci"), sci);
    assert_eq!(at_hex(&g, "7A4")[0].1, "ts");
    // Without the PI there is no such action (rich-004 after move 18; PI at move 19).
    let mut g = at(name, 18);
    assert_eq!(turn_of(&g).as_deref(), Some("firaks"));
    assert_eq!(built(&g, "firaks", "PI"), 0);
    refused_with(
        &mut g,
        "firaks special down-lab. build ts 7A4. up sci",
        "no special action",
    );
}

#[test]
fn firaks_downgrade_needs_a_lab() {
    let name = "rich/rich-004";
    let mut g = at(name, 64);
    let not_lab = g
        .state
        .structures
        .iter()
        .flat_map(|(i, l)| l.iter().map(move |s| (*i, s)))
        .find(|(_, s)| s.seat == seat(&g, "firaks") && s.building != "lab")
        .map(|(i, _)| g.hex_name(g.state.map.spaces[i].hex))
        .expect("a non-lab building");
    refused(
        &mut g,
        &format!("firaks special down-lab. build ts {not_lab}. up sci"),
    );
}

// ---------------------------------------------------------------------------------------------
// Bescods

#[test]
fn bescods_up_lowest() {
    // rich-010 move 13: all tracks at 0 → any.
    let name = "rich/rich-010";
    let mut g = at(name, 12);
    ok(&mut g, "bescods special up-lowest. up terra");
    assert_eq!(level(&g, "bescods", "terra"), 1);
    // Move 49: Terraforming is 2 (not lowest): refused; a lowest one is fine.
    let mut g = at(name, 48);
    assert!(level(&g, "bescods", "terra") > 0);
    refused(&mut g, "bescods special up-lowest. up terra");
    ok(&mut g, "bescods special up-lowest. up int");
}

#[test]
fn bescods_titanium_bonus_with_pi() {
    // A mine on 2A1 is within 2 of Bescods' lab on Titanium 3A9 only: charge value 2
    // before their PI (rich-010 after move 121), 3 after (after move 131).
    let name = "rich/rich-010";
    let mut offers = Vec::new();
    for i in [121, 131] {
        let mut g = at(name, i);
        assert_eq!(turn_of(&g).as_deref(), Some("terrans"));
        assert_eq!(planet_at(&g, "3A9"), "titanium");
        let s = seat(&g, "bescods");
        let near: Vec<String> = g
            .state
            .structures
            .iter()
            .filter(|(ix, l)| {
                l.iter().any(|x| x.seat == s)
                    && g.state.map.spaces[**ix].hex.distance(hex(&g, "2A1")) <= 2
            })
            .map(|(ix, _)| g.hex_name(g.state.map.spaces[*ix].hex))
            .collect();
        assert_eq!(near, vec!["3A9".to_string()]);
        set_res(&mut g, "terrans", "q", 2);
        set_res(&mut g, "terrans", "o", 15);
        set_res(&mut g, "terrans", "c", 20);
        ok(&mut g, "terrans build m 2A1");
        offers.push(leech_offer(&g));
    }
    assert_eq!(
        offers,
        vec![
            Some(("bescods".to_string(), 2)),
            Some(("bescods".to_string(), 3))
        ]
    );
}

#[test]
fn bescods_trading_stations_give_knowledge_labs_credits() {
    let g = at("rich/rich-010", 37);
    // 1 TS, ac2: base 1 o, TS 1 k.
    let inc = income(&g, "bescods");
    assert_eq!(get(&inc, "k"), 1);
    assert_eq!(get(&inc, "c"), 0);
    let g = at("rich/rich-010", 97);
    // 2 labs: 3 c and 4 c (the other credits come from booster10).
    assert_eq!(built(&g, "bescods", "lab"), 2);
    let events = income_events(&g, "bescods");
    for c in [3, 4] {
        assert!(
            events
                .iter()
                .any(|e| e.get("c") == Some(&c) && e.len() == 1),
            "{c} c"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Nevlas

#[test]
fn nevlas_move_a_token_from_area_three_to_gaia_for_knowledge() {
    // rich-005 move 22: `spend 3t-a3 for 3k`.
    let name = "rich/rich-005";
    let mut g = at(name, 21);
    assert_eq!(pw(&g, "nevlas"), [0, 3, 3, 0]);
    let k = res(&g, "nevlas", "k");
    assert!(line(name, 22).starts_with("nevlas spend 3t-a3 for 3k. up nav"));
    ok(&mut g, &line(name, 22));
    assert_eq!(pw(&g, "nevlas"), [0, 3, 0, 3]);
    assert_eq!(
        res(&g, "nevlas", "k"),
        k + 3 - 4,
        "3 k gained, 4 k paid for the research"
    );
    // Only from area III.
    let mut g = at(name, 21);
    refused(&mut g, "nevlas spend 4t-a3 for 4k. up nav");
}

#[test]
fn nevlas_pi_area_three_tokens_count_double() {
    // rich-005 move 32: with PI, `spend 8pw for 2k` takes 4 tokens from area III.
    let name = "rich/rich-005";
    let mut g = at(name, 31);
    assert_eq!(built(&g, "nevlas", "PI"), 1);
    ok(&mut g, "nevlas burn 1. spend 8pw for 2k. up nav");
    assert_eq!(pw(&g, "nevlas")[2], 1);
    // 2 power for 2 credits is one token.
    let mut g = at(name, 31);
    set_res(&mut g, "nevlas", "k", 4);
    let before = pw(&g, "nevlas");
    ok(&mut g, "nevlas spend 2pw for 2c. up nav");
    assert_eq!(pw(&g, "nevlas")[2], before[2] - 1);
    // An odd cost wastes the remainder: 3 power (for an ore) costs 2 tokens.
    let mut g = at(name, 31);
    set_res(&mut g, "nevlas", "k", 4);
    ok(&mut g, "nevlas spend 3pw for 1o. up nav");
    assert_eq!(pw(&g, "nevlas")[2], before[2] - 2);
}

#[test]
fn nevlas_labs_give_a_charge_of_two() {
    let c = platform_content();
    let f = c.faction("nevlas").unwrap();
    let board = FactionBoard::resolve(&c.board, f);
    let lab = board.building("lab").unwrap();
    assert!(lab.income.iter().all(|slot| {
        matches!(slot.as_slice(), [Effect::Gain(b)] if b.get("pw") == 2 && b.get("k") == 0)
    }));
}

// ---------------------------------------------------------------------------------------------
// Itars

#[test]
fn itars_burnt_tokens_go_to_the_gaia_area() {
    // rich-001: at an Itars turn, power set to 0/4/0 by hand; burning 2 moves 2 tokens to
    // area III and puts the 2 discarded ones into the Gaia area.
    let name = "rich/rich-001";
    let rec = record(name);
    let mut g = at(name, 8);
    while turn_of(&g).as_deref() != Some("itars") {
        let j = g.state.moves + 1;
        ok(&mut g, &rec.moves[j]);
    }
    let s = seat(&g, "itars");
    g.state.players[s].power.areas = [0, 4, 0, 0];
    set_res(&mut g, "itars", "k", 4);
    ok(&mut g, "itars burn 2. up int");
    assert_eq!(pw(&g, "itars"), [0, 0, 2, 2]);
    // Anyone else discards them (faq 65).
}

#[test]
fn itars_pi_trade_four_gaia_tokens_for_a_tile() {
    // rich-015 move 40: `spend 4tg for tech. tech int. up int`.
    let name = "rich/rich-015";
    let g0 = at(name, 39);
    assert_eq!(
        g0.next_decision(),
        Some(&Decision::Gaia(seat(&g0, "itars")))
    );
    let mut g = g0.clone();
    let tiles = g.state.players[seat(&g, "itars")].techs.len();
    assert!(
        pw(&g, "itars")[3] >= 4,
        "the trade needs 4 tokens in the Gaia area"
    );
    ok(&mut g, "itars spend 4tg for tech. tech int. up int");
    assert_eq!(g.state.players[seat(&g, "itars")].techs.len(), tiles + 1);
    assert_eq!(pw(&g, "itars")[3], 0);
    assert_eq!(
        pw(&g, "itars").iter().sum::<u32>(),
        pw(&g0, "itars").iter().sum::<u32>() - 4,
        "the 4 tokens leave the game, the rest return"
    );
    // Declining returns all of them.
    let mut g = g0.clone();
    ok(&mut g, "itars decline tech");
    assert_eq!(
        pw(&g, "itars").iter().sum::<u32>(),
        pw(&g0, "itars").iter().sum::<u32>()
    );
}

#[test]
fn itars_income_token_and_knowledge_academy_three() {
    let c = platform_content();
    let f = c.faction("itars").unwrap();
    let board = FactionBoard::resolve(&c.board, f);
    let ac1 = board.building("ac1").unwrap();
    assert!(matches!(ac1.income[0].as_slice(), [Effect::Gain(b)] if b.get("k") == 3));
    let g = at("rich/rich-001", 8);
    let events = income_events(&g, "itars");
    assert!(events
        .iter()
        .any(|e| e.get("t") == Some(&1) && e.len() == 1));
}

#[test]
fn a_declined_gaia_phase_trade_leaves_only_the_end() {
    // rich-015 move 40: the Itars may trade 4 Gaia-area tokens for a tile, or decline.
    let g0 = at("rich/rich-015", 39);
    let decline = orrery_gp::notation::Command::Decline(Some("tech".into()));
    assert!(g0.legal_parts().contains(&decline));
    let mut g = g0.clone();
    g.apply_part(&decline).expect("declining applies");
    assert_eq!(
        g.legal_parts(),
        vec![orrery_gp::notation::Command::EndTurn],
        "after declining, only the end is listed"
    );
    let before = serde_json::to_string(&g.state).expect("serialise");
    assert!(
        g.apply_part(&decline).is_err(),
        "declining twice is refused"
    );
    assert_eq!(serde_json::to_string(&g.state).expect("serialise"), before);
}
