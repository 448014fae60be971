//! A deterministic measure of listing legal parts, for instruction counts: builds every state
//! of the first `ORRERY_COUNT_GAMES` recorded games (default 4), then lists the legal parts of
//! each state once (`Game::legal_parts`, called from `list_all`). Run it under callgrind,
//! counting only the listing:
//! `valgrind --tool=callgrind --toggle-collect='*list_all*' target/release/deps/legal_count-*`.

mod shared;

use orrery::game::Game;
use orrery::notation::{parse_line, Command, MoveLine};

/// Every state of the first `games` records where a part is chosen.
fn states(games: usize) -> Vec<Game> {
    let content = shared::platform_content();
    let mut out = Vec::new();
    for record in shared::records().into_iter().take(games) {
        let setup = record.game_setup(&content).expect("setup");
        let mut game = Game::new(content.clone(), setup).expect("game");
        for line in record.moves.iter().skip(1) {
            let Ok(MoveLine::Turn { mut parts, .. }) = parse_line(line) else {
                continue;
            };
            parts.push(Command::EndTurn);
            for part in &parts {
                if *part == Command::EndTurn && game.state.open.is_none() {
                    break;
                }
                out.push(game.clone());
                game.apply_part(part).expect("recorded part applies");
            }
        }
    }
    out
}

/// Lists the legal parts of every state once; the number of parts listed.
#[inline(never)]
fn list_all(states: &[Game]) -> usize {
    states
        .iter()
        .map(|g| std::hint::black_box(g.legal_parts()).len())
        .sum()
}

fn main() {
    let games = std::env::var("ORRERY_COUNT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let states = states(games);
    let parts = list_all(&states);
    println!("{} states, {parts} parts listed", states.len());
}
