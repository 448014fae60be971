//! The greedy bot (one step of lookahead on TM's heuristic value) finishes 2-player games: its
//! choices terraform Mars to the end rather than hoarding M€ generation after generation.

mod common;

use orrery_core::bot::{Bot, GreedyBot};
use orrery_core::play_api::Playable;
use orrery_tm::game::Game;

/// Parts bound for one game; a finished greedy 2-player game takes some hundreds.
const MAX_PARTS: usize = 20_000;

#[test]
fn greedy_two_player_games_finish_with_mars_terraformed() {
    let content = common::content();
    for seed in 0..8u64 {
        let mut g = Game::random(content.clone(), 2, seed).expect("deal");
        let mut bots = [GreedyBot::new(seed * 2 + 1), GreedyBot::new(seed * 2 + 2)];
        let mut parts = 0;
        while !g.is_over() {
            assert!(
                parts < MAX_PARTS,
                "seed {seed}: no end after {MAX_PARTS} parts: {}",
                g.snapshot()
            );
            let seat = g.to_decide().expect("someone decides");
            let legal = g.legal();
            let pick = bots[seat].choose(&g, &legal).expect("a choice");
            g.play(&pick).expect("a legal part plays");
            parts += 1;
        }
        let snap = g.snapshot();
        assert_eq!(snap["phase"], "end", "seed {seed}");
        let gen = snap["generation"].as_u64().expect("generation");
        assert!(gen <= 20, "seed {seed}: {gen} generations");
        for (param, scale) in &content.rules.parameters {
            let name = serde_json::to_value(param).expect("name");
            let name = name.as_str().expect("a string");
            assert_eq!(
                snap[name].as_i64(),
                Some(i64::from(scale.goal)),
                "seed {seed}: {name} at its goal in {}",
                snap
            );
        }
    }
}
