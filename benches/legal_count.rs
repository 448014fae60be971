//! A deterministic measure of listing legal parts, for instruction counts: builds every state
//! of the first `ORRERY_COUNT_GAMES` recorded games (default 4), then lists the legal parts of
//! each state once (`Game::legal_parts`, called from `list_all`). Run it under callgrind,
//! counting only the listing:
//! `valgrind --tool=callgrind --toggle-collect='*list_all*' target/release/deps/legal_count-*`.

mod shared;

use orrery_gp::game::Game;

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
    let content = shared::platform_content();
    let states: Vec<Game> = shared::decision_points(&content, games)
        .into_iter()
        .map(|(g, _)| g)
        .collect();
    let parts = list_all(&states);
    println!("{} states, {parts} parts listed", states.len());
}
