//! The shipped variants under `content/variants/`: each validates, plays complete random games
//! at every player count, and does what the rulebook's option says.
//!
//! `ORRERY_VARIANT_GAMES=N` plays N games per variant and player count (default 3).

mod common;

use std::sync::Arc;

use orrery_core::bot::RandomBot;
use orrery_core::rng::Rng;
use orrery_gp::content::{Content, OverlaySource};
use orrery_gp::game::{Decision, Game, Setup};
use orrery_gp::map::{standard_placements, Map, Placement};
use orrery_gp::notation::Command;

fn variant_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(common::root().join("content/variants"))
        .expect("variants folder")
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.strip_suffix(".yaml").map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

fn with_variant(name: &str) -> Arc<Content> {
    let path = common::root().join(format!("content/variants/{name}.yaml"));
    let overlay = OverlaySource {
        file: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("variant readable"),
        scripts: Vec::new(),
        problem: None,
    };
    match Content::load(&common::base_files(), &[overlay]) {
        Ok(c) => Arc::new(c),
        Err(d) => panic!(
            "{name} is invalid:\n{}",
            d.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

/// Factions for a game: distinct home planets, rotating through the list with the seed.
fn factions(content: &Content, players: usize, seed: u64) -> Vec<String> {
    let n = content.factions.len();
    let mut out: Vec<&orrery_gp::content::Faction> = Vec::new();
    for i in 0..n {
        let f = &content.factions[(seed as usize * 3 + i) % n];
        if out.len() < players && out.iter().all(|x| x.home != f.home) {
            out.push(f);
        }
    }
    out.iter().map(|f| f.id.clone()).collect()
}

/// Plays a complete random game, calling `watch` before every part.
fn play(content: Arc<Content>, players: usize, seed: u64, mut watch: impl FnMut(&Game)) -> Game {
    let mut rng = Rng::new(seed);
    let setup = Setup::random(&content, players, &mut rng).expect("a random setup");
    let fs = factions(&content, players, seed);
    let mut game = Game::new(content, setup).expect("a game");
    // A sector-rotation step (advanced setup): take one of the listed parts, by the seed.
    while matches!(game.state.queue.front(), Some(Decision::Rotate(_)))
        || matches!(game.state.open, Some(Decision::Rotate(_)))
    {
        let parts = game.legal_parts();
        let part = parts[seed as usize % parts.len()].clone();
        game.apply_part(&part)
            .unwrap_or_else(|e| panic!("seed {seed}: {part}: {e}"));
    }
    for f in &fs {
        game.apply_part(&Command::Faction(f.as_str().into()))
            .unwrap_or_else(|e| panic!("seed {seed}: faction {f}: {e}"));
        game.apply_part(&Command::EndTurn).expect("faction chosen");
    }
    let mut bot = RandomBot::new(seed, 3);
    let mut parts = 0;
    while !game.finished() {
        watch(&game);
        bot.step(&mut game)
            .unwrap_or_else(|e| panic!("seed {seed} {fs:?}: {e}"))
            .expect("a part while the game is on");
        parts += 1;
        assert!(parts < 50_000, "seed {seed}: no end");
    }
    assert!(game.legal_parts().is_empty());
    assert_eq!(game.state.round, game.content.rules.rounds);
    game
}

fn games() -> u64 {
    std::env::var("ORRERY_VARIANT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

#[test]
fn every_shipped_variant_validates_and_plays_complete_games() {
    let names = variant_names();
    for expected in [
        "boardgamers",
        "small-three-player-board",
        "variable-turn-order",
        "variable-board-fixed-core",
        "variable-board-core-shuffled",
        "variable-board-random",
        "advanced-setup",
    ] {
        assert!(names.iter().any(|n| n == expected), "{expected} missing");
    }
    for name in &names {
        let content = with_variant(name);
        for players in [2, 3, 4] {
            for g in 0..games() {
                play(
                    content.clone(),
                    players,
                    7000 + players as u64 * 100 + g,
                    |_| {},
                );
            }
        }
    }
}

#[test]
fn the_small_three_player_board_leaves_out_sectors_9_and_10() {
    let small = with_variant("small-three-player-board");
    let base = Arc::new(common::base());
    for seed in 0..5 {
        let map = Map::random(&small, 3, &mut Rng::new(seed)).expect("a map");
        let mut sectors: Vec<&str> = map.placements.iter().map(|p| p.sector.as_str()).collect();
        sectors.sort();
        assert_eq!(sectors, ["1", "2", "3", "4", "5A", "6A", "7A", "8"]);
        assert!(map.is_valid(&small));
        // Four players keep the full board; the base game gives three players all ten.
        assert_eq!(
            Map::random(&small, 4, &mut Rng::new(seed))
                .unwrap()
                .placements
                .len(),
            10
        );
        assert_eq!(
            Map::random(&base, 3, &mut Rng::new(seed))
                .unwrap()
                .placements
                .len(),
            10
        );
    }
}

/// Every round after the first: (the order players passed in the round before, the new order).
fn round_orders(content: Arc<Content>, seed: u64) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut out = Vec::new();
    let mut round = 0;
    let mut passed = Vec::new();
    play(content, 4, seed, |g| {
        if g.state.round != round {
            if round >= 1 && !passed.is_empty() {
                out.push((std::mem::take(&mut passed), g.state.order.to_vec()));
            }
            round = g.state.round;
        }
        if !g.state.passed_order.is_empty() {
            passed = g.state.passed_order.to_vec();
        }
    });
    out
}

#[test]
fn variable_turn_order_follows_the_order_of_passing() {
    for seed in 0..3 {
        let orders = round_orders(with_variant("variable-turn-order"), seed);
        assert!(orders.len() >= 4, "{orders:?}");
        for (passed, order) in &orders {
            assert_eq!(passed.len(), 4);
            assert_eq!(order, passed);
        }
        // The printed rule: the first to pass starts, then clockwise.
        let orders = round_orders(Arc::new(common::base()), seed);
        for (passed, order) in &orders {
            let first = passed[0];
            let clockwise: Vec<usize> = (0..4).map(|i| (first + i) % 4).collect();
            assert_eq!(order, &clockwise);
        }
    }
}

/// Slots 0, 2, 3, 4: where the standard arrangement puts sectors 1–4 (content/base/sectors.yaml).
const CORE: [usize; 4] = [0, 2, 3, 4];

/// Sector number without its side letter (`5B` → `5`).
fn number(p: &Placement) -> u32 {
    p.sector
        .trim_end_matches(char::is_alphabetic)
        .parse()
        .expect("a sector number")
}

/// Checked here without `Map::is_valid`: no space holds a wheel planet that a neighbour holds.
fn no_alike_neighbours(content: &Content, map: &Map) -> bool {
    map.spaces.iter().all(|s| {
        let planet = &content.planets.planets[usize::from(s.planet)];
        planet.kind != orrery_gp::content::PlanetKind::Wheel
            || s.hex
                .neighbours()
                .iter()
                .all(|n| map.space(*n).is_none_or(|o| o.planet != s.planet))
    })
}

/// Maps of a variant for a player count over some seeds.
fn maps(content: &Content, players: usize, seeds: u64) -> Vec<Map> {
    (0..seeds)
        .map(|seed| Map::random(content, players, &mut Rng::new(seed)).expect("a map"))
        .collect()
}

#[test]
fn the_standard_arrangement_is_valid_and_puts_1_to_4_in_the_centre() {
    for content in [
        common::base(),
        (*with_variant("small-three-player-board")).clone(),
    ] {
        for layout in &content.sectors.layouts {
            let standard = standard_placements(layout);
            let map = Map::build(&content, &standard).expect("builds");
            assert!(no_alike_neighbours(&content, &map), "{:?}", layout.players);
            let core: Vec<u32> = CORE.iter().map(|&i| number(&standard[i])).collect();
            assert_eq!(core, [1, 2, 3, 4]);
        }
    }
}

#[test]
fn variable_board_fixed_core_keeps_1_to_4_exactly_and_deals_the_rest() {
    let content = with_variant("variable-board-fixed-core");
    for players in [2, 3, 4] {
        let layout = content
            .sectors
            .layouts
            .iter()
            .find(|l| l.players.contains(&(players as u8)))
            .unwrap();
        let standard = standard_placements(layout);
        let mut outer = std::collections::BTreeSet::new();
        for map in maps(&content, players, 40) {
            assert!(no_alike_neighbours(&content, &map));
            for &i in &CORE {
                assert_eq!(map.placements[i], standard[i], "slot {i} is fixed");
            }
            for (i, p) in map.placements.iter().enumerate() {
                if !CORE.contains(&i) {
                    assert!(number(p) > 4, "{players}p slot {i}: {}", p.sector);
                    outer.insert((i, p.sector.clone(), p.rotation));
                }
            }
        }
        // The other sectors really move and turn.
        let slot1: Vec<_> = outer.iter().filter(|(i, ..)| *i == 1).collect();
        assert!(slot1.len() > 5, "{players}p: {slot1:?}");
    }
}

#[test]
fn variable_board_core_shuffled_keeps_1_to_4_in_the_centre_slots() {
    let content = with_variant("variable-board-core-shuffled");
    for players in [2, 3, 4] {
        let mut centre = std::collections::BTreeSet::new();
        for map in maps(&content, players, 40) {
            assert!(no_alike_neighbours(&content, &map));
            let mut core: Vec<u32> = CORE.iter().map(|&i| number(&map.placements[i])).collect();
            core.sort_unstable();
            assert_eq!(core, [1, 2, 3, 4], "{players}p");
            centre.insert((map.placements[0].sector.clone(), map.placements[0].rotation));
        }
        assert!(
            centre.len() > 5,
            "{players}p: the centre varies: {centre:?}"
        );
    }
}

#[test]
fn variable_board_random_deals_any_sector_anywhere_like_the_base() {
    let content = with_variant("variable-board-random");
    let base = common::base();
    for players in [2, 3, 4] {
        let maps = maps(&content, players, 40);
        assert!(maps.iter().all(|m| no_alike_neighbours(&content, m)));
        // Sectors beyond 4 reach the centre slots.
        assert!(maps
            .iter()
            .any(|m| CORE.iter().any(|&i| number(&m.placements[i]) > 4)));
        // The base content without groups deals the same way, draw for draw.
        for (seed, m) in maps.iter().enumerate() {
            let b = Map::random(&base, players, &mut Rng::new(seed as u64)).unwrap();
            assert_eq!(&b, m);
        }
    }
}

#[test]
fn a_layout_whose_fixed_sectors_clash_is_refused_by_validate() {
    // Method 1 keeps sectors 1 and 2 fixed; turned like this they put alike planets side by side.
    let text = "name: clash\nchanges:\n  - set: {kind: map, path: layouts.0.rotations, value: [4, 0, 0, 0, 0, 0, 0]}\n";
    let path = common::root().join("content/variants/variable-board-fixed-core.yaml");
    let overlays = [
        OverlaySource {
            file: path.display().to_string(),
            text: std::fs::read_to_string(&path).unwrap(),
            scripts: Vec::new(),
            problem: None,
        },
        OverlaySource {
            file: "clash.yaml".into(),
            text: text.into(),
            scripts: Vec::new(),
            problem: None,
        },
    ];
    let diags = Content::load(&common::base_files(), &overlays).expect_err("refused");
    let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
    assert!(
        shown.iter().any(|d| d.contains("no valid map exists")),
        "{shown:?}"
    );
    // Without the fixed core the same rotations are only a starting point: valid content.
    let random = std::slice::from_ref(&overlays[1]);
    let content = Content::load(&common::base_files(), random).expect("valid");
    assert!(Map::random(&content, 2, &mut Rng::new(3)).is_ok());
    // Built directly (validation bypassed), the kernel still refuses before any draw.
    let mut content = content;
    content.sectors.layouts[0].groups = Some(Vec::new());
    let e = Map::random(&content, 2, &mut Rng::new(3)).unwrap_err();
    assert!(e.to_string().contains("no valid map exists"), "{e}");
}

/// A fresh advanced-setup game: the last seat is to turn sectors.
fn advanced_game(players: usize, seed: u64) -> Game {
    let content = with_variant("advanced-setup");
    let setup = Setup::random(&content, players, &mut Rng::new(seed)).expect("a setup");
    Game::new(content, setup).expect("a game")
}

#[test]
fn advanced_setup_lets_the_last_seat_turn_sectors_before_factions() {
    for players in [2, 3, 4] {
        let mut g = advanced_game(players, 11);
        assert_eq!(g.state.queue.front(), Some(&Decision::Rotate(players - 1)));
        let parts = g.legal_parts();
        assert!(parts.contains(&Command::EndTurn), "{parts:?}");
        let rotations: Vec<&Command> = parts
            .iter()
            .filter(|p| p.to_string().starts_with("rotate "))
            .collect();
        assert!(rotations.len() >= 10, "{players}p: {rotations:?}");
        // Every listed rotation applies and keeps the map valid.
        for part in &rotations {
            let mut t = g.clone();
            t.apply_part(part).unwrap_or_else(|e| panic!("{part}: {e}"));
            assert!(t.state.map.is_valid(&t.content), "{part}");
        }
        // A whole line of the platform's notation: the named sector turns and its planets move.
        let text = rotations[0].to_string();
        let words: Vec<&str> = text.split(' ').collect();
        let centre = orrery_core::hex::Hex::parse_axial(words[1]).unwrap();
        let sixths: i32 = words[2].parse().unwrap();
        let si = g
            .state
            .map
            .placements
            .iter()
            .position(|p| p.center == centre)
            .unwrap();
        let before = g.state.map.clone();
        g.apply_text(&format!("p{players} {text}"))
            .expect("rotation applies");
        assert_eq!(
            i32::from(g.state.map.placements[si].rotation),
            (i32::from(before.placements[si].rotation) + sixths) % 6
        );
        for s in before.spaces.iter().filter(|s| usize::from(s.sector) == si) {
            let moved = centre + (s.hex - centre).rotate(sixths);
            assert_eq!(g.state.map.space(moved).map(|m| m.planet), Some(s.planet));
        }
        // Then factions are chosen in seat order as in the base game.
        assert_eq!(g.state.queue.front(), Some(&Decision::Faction(0)));
        assert_eq!(
            g.state.setup.sectors, before.placements,
            "the setup keeps the dealt map"
        );
    }
}

#[test]
fn advanced_setup_refuses_bad_rotations_and_leaves_the_map_alone() {
    let g0 = advanced_game(4, 5);
    let invalid: Option<String> = g0.state.map.placements.iter().find_map(|p| {
        (1..=5u8).find_map(|k| {
            let mut m = (*g0.state.map).clone();
            m.rotate_sector(p.center, k);
            (!m.is_valid(&g0.content))
                .then(|| format!("p4 rotate {}x{} {k}", p.center.q, p.center.r))
        })
    });
    let invalid = invalid.expect("some turn clashes");
    let first = g0.state.map.placements[0].center;
    let twice = format!("p4 rotate {0}x{1} 1 {0}x{1} 2", first.q, first.r);
    for (line, why) in [
        (invalid.as_str(), "side by side"),
        ("p4 rotate 9x9 1", "not the centre of a sector"),
        ("p4 rotate 0x0 6", "0 to 5"),
        ("p4 rotate 0x0", "pairs"),
        (twice.as_str(), "already turned"),
        ("p4 faction terrans", "rotate"),
    ] {
        let mut g = g0.clone();
        let e = g.apply_text(line).expect_err(line);
        assert!(e.to_string().contains(why), "{line}: {e}");
        assert_eq!(g.state, g0.state, "{line} left the state as it was");
    }
    // Without the option the first decision is the faction and `rotate` is refused.
    let base = Arc::new(common::base());
    let setup = Setup::random(&base, 4, &mut Rng::new(5)).unwrap();
    let mut g = Game::new(base, setup).unwrap();
    assert_eq!(g.state.queue.front(), Some(&Decision::Faction(0)));
    assert!(g.apply_text("p4 rotate 0x0 1").is_err());
    assert!(g
        .legal_parts()
        .iter()
        .all(|p| !p.to_string().starts_with("rotate")));
}
