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
//! With `ORRERY_COUNT_TWICE=1` it then lists every state twice in a row, the first time in
//! `list_first` and the second in `list_again` (`--toggle-collect='*list_again*'`): what a
//! listing costs once the state's memory, the branch history and what the memo remembers are
//! all those of the very state (with `--cache-sim=yes --branch-sim=yes` beside
//! `list_first`'s).

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
    if shared::count_var("ORRERY_COUNT_TWICE", 0) > 0 {
        let twice: usize = states
            .iter()
            .map(|g| list_first(g, &mut out) + list_again(g, &mut out))
            .sum();
        assert_eq!(twice, 2 * parts, "listing again lists the same parts");
        println!("every state listed twice in a row");
    }
    let games = shared::count_var("ORRERY_COUNT_RANDOM", 0) as u64;
    if games > 0 {
        let played = shared::random_games(&content, games);
        println!("{games} random games, {played} parts played");
    }
}

/// Lists a state for the first time in [`main`]'s listing twice in a row.
#[inline(never)]
fn list_first(g: &Game, out: &mut Vec<orrery_gp::notation::Command>) -> usize {
    g.legal_parts_into(out);
    std::hint::black_box(&*out).len()
}

/// Lists a state again right after [`list_first`] (its own code, so callgrind can tell the
/// two apart: identical functions may be merged into one).
#[inline(never)]
fn list_again(g: &Game, out: &mut Vec<orrery_gp::notation::Command>) -> usize {
    g.legal_parts_into(out);
    std::hint::black_box(&*out).len() + std::hint::black_box(0)
}
