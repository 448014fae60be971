//! Every faction's starting state and round-1 income, as set up from content, agree with the
//! faction reference (`factions.md` §3 and §3.1).

mod common;

use std::collections::BTreeMap;

use orrery_gp::content::Effect;
use orrery_gp::player::Player;
use orrery_gp::power::Area;
use pretty_assertions::assert_eq;

/// Faction, credits, ore, knowledge, QIC, power I/II/III, starting research, Gaiaformers,
/// special token in area I.
type Start = (
    &'static str,
    i32,
    i32,
    i32,
    i32,
    [u32; 3],
    &'static [(&'static str, u32)],
    u32,
    bool,
);

const STARTS: [Start; 14] = [
    ("terrans", 15, 4, 3, 1, [4, 4, 0], &[("gaia", 1)], 1, false),
    ("lantids", 13, 4, 3, 1, [4, 0, 0], &[], 0, false),
    ("xenos", 15, 4, 3, 2, [2, 4, 0], &[("int", 1)], 0, false),
    ("gleens", 15, 5, 3, 0, [2, 4, 0], &[("nav", 1)], 0, false),
    ("taklons", 15, 4, 3, 1, [2, 4, 0], &[], 0, true),
    ("ambas", 15, 4, 3, 2, [2, 4, 0], &[("nav", 1)], 0, false),
    (
        "hadsch-hallas",
        15,
        4,
        3,
        1,
        [2, 4, 0],
        &[("eco", 1)],
        0,
        false,
    ),
    ("ivits", 15, 4, 3, 1, [2, 4, 0], &[], 0, false),
    ("geodens", 15, 6, 3, 1, [2, 4, 0], &[("terra", 1)], 0, false),
    ("baltaks", 15, 4, 3, 0, [2, 2, 0], &[("gaia", 1)], 1, false),
    ("firaks", 15, 3, 2, 1, [2, 4, 0], &[], 0, false),
    ("bescods", 15, 4, 1, 1, [2, 4, 0], &[], 0, false),
    ("nevlas", 15, 4, 2, 1, [2, 4, 0], &[("sci", 1)], 0, false),
    ("itars", 15, 5, 3, 1, [4, 4, 0], &[], 0, false),
];

/// Round-1 income from board and research (no booster), as code → amount.
const INCOME: [(&str, &[(&str, i32)]); 14] = [
    ("terrans", &[("o", 3), ("k", 1)]),
    ("lantids", &[("o", 3), ("k", 1)]),
    ("xenos", &[("o", 3), ("k", 1)]),
    ("gleens", &[("o", 3), ("k", 1)]),
    ("taklons", &[("o", 3), ("k", 1)]),
    ("ambas", &[("o", 4), ("k", 1)]),
    ("hadsch-hallas", &[("o", 3), ("k", 1), ("c", 5), ("pw", 1)]),
    (
        "ivits",
        &[("o", 1), ("k", 1), ("q", 1), ("pw", 4), ("t", 1)],
    ),
    ("geodens", &[("o", 3), ("k", 1)]),
    ("baltaks", &[("o", 3), ("k", 1)]),
    ("firaks", &[("o", 3), ("k", 2)]),
    ("bescods", &[("o", 3)]),
    ("nevlas", &[("o", 3), ("k", 2)]),
    ("itars", &[("o", 3), ("k", 1), ("t", 1)]),
];

#[test]
fn the_base_game_has_fourteen_factions() {
    let content = common::base();
    let mut ids: Vec<&str> = content.factions.iter().map(|f| f.id.as_str()).collect();
    ids.sort();
    let mut expected: Vec<&str> = STARTS.iter().map(|s| s.0).collect();
    expected.sort();
    assert_eq!(ids, expected);
}

#[test]
fn starting_state_of_every_faction() {
    let content = common::base();
    for (id, c, o, k, q, power, research, gf, special) in STARTS {
        let (p, _) = Player::new(&content, id).expect("faction exists");
        let got = (
            p.resource(&content, "c"),
            p.resource(&content, "o"),
            p.resource(&content, "k"),
            p.resource(&content, "q"),
            p.resource(&content, "vp"),
            [p.power.areas[0], p.power.areas[1], p.power.areas[2]],
            p.gaiaformers,
            p.power.special_in(Area::I),
        );
        assert_eq!(
            got,
            (c, o, k, q, 10, power, gf, special),
            "starting state of {id}"
        );
        let levels: Vec<(&str, u32)> = p
            .research
            .iter()
            .filter(|(_, l)| **l > 0)
            .map(|(t, l)| (t.as_str(), *l))
            .collect();
        assert_eq!(levels, research.to_vec(), "starting research of {id}");
    }
}

#[test]
fn round_one_income_of_every_faction() {
    let content = common::base();
    for (id, expected) in INCOME {
        let faction = content.faction(id).expect("faction exists");
        let (mut p, board) = Player::new(&content, id).expect("faction exists");
        for s in &board.setup {
            *p.built.entry(s.building.as_str().into()).or_default() += 1;
        }
        let mut total: BTreeMap<String, i32> = BTreeMap::new();
        for e in p.income(&content, faction, &board) {
            match e {
                Effect::Gain(b) => {
                    for (code, n) in b.iter() {
                        *total.entry(code.to_string()).or_default() += n;
                    }
                }
                other => panic!("{id}: unexpected income effect {other:?}"),
            }
        }
        let expected: BTreeMap<String, i32> =
            expected.iter().map(|(c, n)| (c.to_string(), *n)).collect();
        assert_eq!(total, expected, "round-1 income of {id}");
    }
}
