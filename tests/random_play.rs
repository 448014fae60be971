//! Random play: complete seeded games with every faction at 2, 3 and 4 players, the bot
//! picking uniformly among the legal parts. Every game must reach final scoring, every listed
//! part the bot picks must apply, and every state along the way must survive a save/load round
//! trip unchanged (same state, same legal parts).
//!
//! By default each player count plays 100 games (every faction takes part many times);
//! `ORRERY_RANDOM_GAMES=N` plays N games per player count instead.

mod common;

use std::sync::Arc;

use orrery_core::bot::RandomBot;
use orrery_core::rng::Rng;
use orrery_gp::content::Content;
use orrery_gp::game::{Game, GameState, Setup};
use orrery_gp::notation::Command;

/// Games per player count by default: every faction plays many times (a game takes a few
/// milliseconds).
const DEFAULT_GAMES: usize = 100;

/// The most free actions the bot takes in one decision.
const MAX_FREE: u32 = 3;

/// Faction line-ups for `games` games of `players` seats: factions that have not played yet
/// come first, and no two factions of one game share a home planet.
fn lineups(content: &Content, players: usize, games: usize) -> Vec<Vec<String>> {
    let all: Vec<&orrery_gp::content::Faction> = content.factions.iter().collect();
    let mut unplayed = all.clone();
    let mut out = Vec::new();
    for g in 0..games {
        let mut game: Vec<&orrery_gp::content::Faction> = Vec::new();
        let rest = all.iter().cycle().skip(g * players).take(all.len());
        for f in unplayed.iter().chain(rest) {
            if game.len() < players && game.iter().all(|x| x.home != f.home) {
                game.push(f);
            }
        }
        unplayed.retain(|f| !game.iter().any(|x| x.id == f.id));
        out.push(game.iter().map(|f| f.id.clone()).collect());
    }
    out
}

fn round_trip(game: &Game) {
    let json = serde_json::to_string(&game.state).expect("state serializes");
    let state: GameState = serde_json::from_str(&json).expect("state deserializes");
    let loaded = Game::load(game.content.clone(), state).expect("a saved state loads");
    assert_eq!(loaded.state, game.state, "state changed by save/load");
    assert_eq!(
        loaded.legal_parts(),
        game.legal_parts(),
        "legal parts changed by save/load"
    );
}

/// Plays one random game; returns the number of parts played.
fn play(content: Arc<Content>, factions: &[String], seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let setup = Setup::random(&content, factions.len(), &mut rng).expect("a random setup");
    let mut game = Game::new(content, setup).expect("a game");
    for f in factions {
        game.apply_part(&Command::Faction(f.as_str().into()))
            .unwrap_or_else(|e| panic!("seed {seed}: faction {f}: {e}"));
        game.apply_part(&Command::EndTurn).expect("faction chosen");
    }
    let mut bot = RandomBot::new(seed, MAX_FREE);
    let mut parts = 0;
    let mut last: Vec<String> = Vec::new();
    while !game.finished() {
        round_trip(&game);
        let seat = game.deciding_seat().map(|s| game.seat_name(s));
        let part = bot.step(&mut game).unwrap_or_else(|e| {
            panic!(
                "seed {seed} {factions:?}: {e}\nlast parts: {}\nopen {:?} queue {:?}\nturn {:?}\nquestion {:?}",
                last.join(" | "),
                game.state.open,
                game.state.queue.front(),
                game.state.turn,
                game.state.question
            )
        });
        let part = part.expect("a part while the game is on");
        last.push(format!("{}: {part}", seat.unwrap_or_default()));
        if last.len() > 12 {
            last.remove(0);
        }
        parts += 1;
        assert!(parts < 50_000, "seed {seed} {factions:?}: no end");
    }
    round_trip(&game);
    assert!(game.legal_parts().is_empty());
    assert_eq!(game.state.round, game.content.rules.rounds);
    parts
}

/// Games per player count.
fn games_per_count() -> usize {
    std::env::var("ORRERY_RANDOM_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_GAMES)
}

fn play_many(players: usize) {
    let base = Arc::new(common::base());
    let platform = common::platform_content();
    let lineups = lineups(&base, players, games_per_count());
    let mut seen: Vec<String> = Vec::new();
    for (i, factions) in lineups.iter().enumerate() {
        // Alternate the printed rules and the recording platform's variant.
        let content = if i % 2 == 0 {
            base.clone()
        } else {
            platform.clone()
        };
        let seed = (players as u64) * 1000 + i as u64;
        play(content, factions, seed);
        seen.extend(factions.iter().cloned());
    }
    if games_per_count() * players >= base.factions.len() {
        for f in &base.factions {
            assert!(seen.contains(&f.id), "{} never played", f.id);
        }
    }
}

#[test]
fn random_games_with_two_players_finish() {
    play_many(2);
}

#[test]
fn random_games_with_three_players_finish() {
    play_many(3);
}

#[test]
fn random_games_with_four_players_finish() {
    play_many(4);
}
