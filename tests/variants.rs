//! The shipped variants under `content/variants/`: each validates, plays complete random games
//! at every player count, and does what the rulebook's option says.
//!
//! `ORRERY_VARIANT_GAMES=N` plays N games per variant and player count (default 3).

mod common;

use std::sync::Arc;

use orrery::bot::RandomBot;
use orrery::content::{Content, OverlaySource};
use orrery::game::{Game, Setup};
use orrery::map::Map;
use orrery::notation::Command;
use orrery::rng::Rng;

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
    let mut out: Vec<&orrery::content::Faction> = Vec::new();
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
                out.push((std::mem::take(&mut passed), g.state.order.clone()));
            }
            round = g.state.round;
        }
        if !g.state.passed_order.is_empty() {
            passed = g.state.passed_order.clone();
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
