//! A deterministic measure of listing legal parts and of random games, for instruction and
//! allocation counts: builds every state of the first `ORRERY_COUNT_GAMES` recorded games
//! (default 4), lists the legal parts of each state once to fill the shared federation memo
//! (as the repeated runs of `orrery bench` do), then lists them again
//! (`Game::legal_parts_into` one buffer, called from `list_all`), counting the heap
//! allocations of that second listing; then plays `ORRERY_COUNT_RANDOM` random four-player
//! games (default 0; `random_games`).
//! Run it under callgrind, counting only the listing:
//! `valgrind --tool=callgrind --toggle-collect='*list_all*' target/release/deps/legal_count-*`,
//! or only the random games: `--toggle-collect='*random_games*'`.

mod shared;

use shared::counting::{allocations, Counting};

use orrery_gp::game::Game;

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    let content = shared::platform_content();
    let states: Vec<Game> =
        shared::decision_points(&content, shared::count_var("ORRERY_COUNT_GAMES", 4))
            .into_iter()
            .map(|(g, _)| g)
            .collect();
    // The first listing of a game's states searches federations and remembers them; it also
    // grows the buffer to the longest listing, so the second counts only listing's own.
    let mut out = Vec::new();
    let warm: usize = states
        .iter()
        .map(|g| {
            g.legal_parts_into(&mut out);
            out.len()
        })
        .sum();
    let mut parts = 0;
    let allocs = allocations(|| parts = shared::list_all(&states, &mut out));
    assert_eq!(warm, parts, "listing twice lists the same parts");
    println!(
        "{} states, {parts} parts listed, {:.2} allocations per listing",
        states.len(),
        allocs as f64 / states.len().max(1) as f64
    );
    let games = shared::count_var("ORRERY_COUNT_RANDOM", 0) as u64;
    if games > 0 {
        let played = shared::random_games(&content, games);
        println!("{games} random games, {played} parts played");
    }
}
