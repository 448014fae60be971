//! A deterministic measure of applying parts, for instruction and allocation counts: builds
//! every recorded state where a part is chosen (the first `ORRERY_COUNT_GAMES` records, default
//! all), then clones each state (`clone_all`) and clones each and applies its recorded part
//! (`apply_all`), as `orrery bench` does, and clones each and applies its part to the clone
//! given up on error (`with_part_all`, a bot's trial), counting the heap allocations of each;
//! then plays `ORRERY_COUNT_RANDOM` random four-player games (default 0; `random_games`).
//! Run it under callgrind, counting only the applying:
//! `valgrind --tool=callgrind --toggle-collect='*apply_all*' target/release/deps/apply_count-*`
//! (or `'*with_part_all*'`, or `'*clone_all*'` for the clones alone).

mod shared;

use shared::counting::{allocations, Counting};

use orrery_gp::game::Game;
use orrery_gp::notation::Command;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Clones every state and drops the clone.
#[inline(never)]
fn clone_all(states: &[(Game, Command)]) {
    for (g, _) in states {
        std::hint::black_box(g.clone());
    }
}

/// Clones every state and applies its recorded part; how many applied.
#[inline(never)]
fn apply_all(states: &[(Game, Command)]) -> usize {
    states
        .iter()
        .filter(|(g, p)| {
            let mut g = g.clone();
            std::hint::black_box(g.apply_part(p).is_ok())
        })
        .count()
}

/// Clones every state and applies its recorded part to the clone given up on error
/// ([`Game::with_part`], a bot's trial: no undo copy); how many applied.
#[inline(never)]
fn with_part_all(states: &[(Game, Command)]) -> usize {
    states
        .iter()
        .filter(|(g, p)| std::hint::black_box(g.clone().with_part(p).is_ok()))
        .count()
}

fn main() {
    let content = shared::platform_content();
    let states = shared::decision_points(
        &content,
        shared::count_var("ORRERY_COUNT_GAMES", usize::MAX),
    );
    let n = states.len().max(1) as f64;
    let cloned = allocations(|| clone_all(&states));
    let mut applied = 0;
    let both = allocations(|| applied = apply_all(&states));
    assert_eq!(applied, states.len(), "every recorded part applies");
    println!(
        "{} states: allocations per clone {:.2}, per clone and apply {:.2} (apply {:.2})",
        states.len(),
        cloned as f64 / n,
        both as f64 / n,
        (both as f64 - cloned as f64) / n
    );
    let mut trials = 0;
    let tried = allocations(|| trials = with_part_all(&states));
    assert_eq!(
        trials,
        states.len(),
        "every recorded part applies to a copy"
    );
    println!(
        "allocations per clone and apply to the copy given up on error {:.2} (apply {:.2})",
        tried as f64 / n,
        (tried as f64 - cloned as f64) / n
    );
    let games = shared::count_var("ORRERY_COUNT_RANDOM", 0) as u64;
    if games > 0 {
        let mut played = 0;
        let allocs = allocations(|| played = shared::random_games(&content, games));
        println!(
            "{games} random games, {played} parts played, {:.1} allocations a part",
            allocs as f64 / played.max(1) as f64
        );
    }
}
