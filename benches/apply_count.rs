//! A deterministic measure of applying parts, for instruction and allocation counts: builds
//! every recorded state where a part is chosen (the first `ORRERY_COUNT_GAMES` records, default
//! all) and lists each (as `orrery bench` does before it applies), then clones each state
//! (`clone_all`) and clones each and applies its recorded part (`apply_all`), as `orrery
//! bench` does, and clones each and applies its part to the clone
//! given up on error (`with_part_all`, a bot's trial), counting the heap allocations of each;
//! then plays `ORRERY_COUNT_RANDOM` random four-player games (default 0; `random_games`).
//! With `ORRERY_COUNT_KINDS=1` it also prints the allocations a part by kind of part: applied
//! to a clone of the recorded state (which shares every collection with it, so the first
//! write to one copies it), applied in order to one game a record (which owns what it has
//! changed before), and in order to one game a record that shares nothing (the first state
//! saved and loaded back) with and without the undo copy: the allocations of applying itself.
//! Run it under callgrind, counting only the applying:
//! `valgrind --tool=callgrind --toggle-collect='*apply_all*' target/release/deps/apply_count-*`
//! (or `'*with_part_all*'`, or `'*clone_all*'` for the clones alone).

mod shared;

use shared::counting::{allocations, Counting};

use orrery_core::game_module::GameModule;
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

/// The kind of a part, for the allocation breakdown.
fn kind(part: &Command) -> &'static str {
    match part {
        Command::Faction(_) => "faction",
        Command::Build { .. } => "build",
        Command::Booster(_) => "booster",
        Command::Bid { .. } => "bid",
        Command::Pass(_) => "pass",
        Command::Up(_) => "up",
        Command::Tech(_) => "tech",
        Command::Cover(_) => "cover",
        Command::Decline(_) => "decline",
        Command::Charge(_) => "charge",
        Command::Income(_) => "income",
        Command::Action(_) => "action",
        Command::Special(_) => "special",
        Command::Federation { .. } => "federation",
        Command::FedTile(_) => "fedtile",
        Command::Spend { .. } => "spend",
        Command::Burn(_) => "burn",
        Command::EndTurn => "endturn",
        Command::Other { .. } => "other",
    }
}

/// A game holding `g`'s state with nothing shared with `g` or any other copy: saved and
/// loaded back, as a game read from a file is.
fn owned(g: &Game) -> Game {
    let saved = g.save_state().expect("saves");
    Game::restore(g.content.clone(), saved).expect("a saved state loads")
}

/// Allocations of one part, and whether it made none.
#[derive(Default, Clone, Copy)]
struct Tally {
    allocations: u64,
    none: u64,
}

impl Tally {
    fn add(&mut self, allocations: u64) {
        self.allocations += allocations;
        self.none += u64::from(allocations == 0);
    }

    fn sum(self, other: Tally) -> Tally {
        Tally {
            allocations: self.allocations + other.allocations,
            none: self.none + other.none,
        }
    }
}

/// Prints the allocations a part by kind: applied to a clone of the recorded state, to a
/// clone given up on error, in order to one game a record that starts as a clone of the
/// record's first state (so it shares that state's lists until it changes them), and in order
/// to one game a record that owns all it holds (the first state saved and loaded back), with
/// the undo copy (`apply_part`) and without (`apply_part_unguarded`, as replays and games
/// played to their end apply); with, for each column, the share of parts that allocate
/// nothing.
fn kinds(states: &[(Game, Command)]) {
    // kind -> (parts, on a clone, with_part on a clone, in order, owned in order guarded,
    // owned in order unguarded)
    let mut by: std::collections::BTreeMap<&str, (u64, [Tally; 5])> = Default::default();
    let mut played: Option<[Game; 3]> = None;
    for (g, p) in states {
        if played.as_ref().is_none_or(|[c, ..]| c.state != g.state) {
            played = Some([g.clone(), owned(g), owned(g)]);
        }
        let (n, t) = by.entry(kind(p)).or_default();
        *n += 1;
        let mut c = g.clone();
        t[0].add(allocations(|| assert!(c.apply_part(p).is_ok())));
        drop(c);
        let c = g.clone();
        t[1].add(allocations(|| assert!(c.with_part(p).is_ok())));
        if let Some([game, own, own_unguarded]) = played.as_mut() {
            t[2].add(allocations(|| assert!(game.apply_part(p).is_ok())));
            t[3].add(allocations(|| assert!(own.apply_part(p).is_ok())));
            t[4].add(allocations(|| {
                assert!(own_unguarded.apply_part_unguarded(p).is_ok())
            }));
        }
    }
    println!(
        "kind: parts, allocations a part applied to a clone / with_part / in order / owned in \
         order / owned in order without the undo copy"
    );
    let mut all = (0, [Tally::default(); 5]);
    for (k, (n, t)) in &by {
        print_row(k, *n, t);
        all.0 += n;
        for (a, b) in all.1.iter_mut().zip(t) {
            *a = a.sum(*b);
        }
    }
    print_row("all", all.0, &all.1);
    let none = all
        .1
        .map(|x| format!("{:.1}%", 100.0 * x.none as f64 / all.0.max(1) as f64));
    println!("parts that allocate nothing: {}", none.join(" / "));
}

/// One line of [`kinds`]: a kind, its parts, and its allocations a part in each column.
fn print_row(kind: &str, parts: u64, t: &[Tally; 5]) {
    let columns = t.map(|x| format!("{:6.2}", x.allocations as f64 / parts.max(1) as f64));
    println!("{kind:>10}: {parts:6} {}", columns.join(" "));
}

fn main() {
    let content = shared::platform_content();
    let states = shared::decision_points(
        &content,
        shared::count_var("ORRERY_COUNT_GAMES", usize::MAX),
    );
    // Listed first, as `orrery bench` lists the states before it applies their parts (and a
    // bot lists before it plays): a federation part is then found in the search the listing
    // remembered, not checked again.
    let mut out = Vec::new();
    for (g, _) in &states {
        g.legal_parts_into(&mut out);
    }
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
    if shared::count_var("ORRERY_COUNT_KINDS", 0) > 0 {
        kinds(&states);
    }
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
