//! Where listing's time goes, by the kind of decision listed: builds every state of the
//! recorded games, lists each once (so the shared memo holds what the runs of `orrery bench`
//! find remembered), then lists them again in record order, timing each state's listing
//! (`first`: its memory, the branch history and the instruction cache as the state before
//! left them) and the same state listed five times more right after (`again`). Prints, per
//! kind, the states, the mean parts listed, the two mean times and the kind's share of all
//! first listings' time; then the mean listing of every state in a shuffled order (each state's
//! memory then far from the last one's). Wall time on a shared machine: compare within one run.
//! Run with `cargo bench --bench legal_kinds`.

mod shared;

use std::collections::BTreeMap;
use std::time::Instant;

use orrery_core::rng::Rng;
use orrery_gp::game::{Decision, Game};

/// The kind of decision a state asks for, as its listing tells them apart.
fn kind(g: &Game) -> &'static str {
    let s = &g.state;
    match s.open.as_ref().or(s.queue.front()) {
        Some(Decision::Turn(_)) if s.turn.passed => "turn, passed",
        Some(Decision::Turn(_)) if !s.turn.follows.is_empty() => "turn, follow-ups owed",
        Some(Decision::Turn(_)) if s.turn.main => "turn, main action taken",
        Some(Decision::Turn(_)) => "turn, main action",
        Some(Decision::Leech { .. }) => "charge offer",
        Some(Decision::Income(_)) => "income order",
        Some(Decision::Gaia(_)) => "Gaia phase",
        Some(_) => "setup and rotation",
        None => "game over",
    }
}

/// Per kind: states, parts listed, seconds of first listings, seconds of listings again.
#[derive(Default)]
struct Tally {
    states: usize,
    parts: usize,
    first: f64,
    again: f64,
}

const AGAIN: u32 = 5;

fn main() {
    let content = shared::platform_content();
    let states: Vec<Game> = shared::decision_points(&content, usize::MAX)
        .into_iter()
        .map(|(g, _)| g)
        .collect();
    let mut out = Vec::new();
    for g in &states {
        g.legal_parts_into(&mut out);
    }
    let mut by: BTreeMap<&str, Tally> = BTreeMap::new();
    for g in &states {
        let t = Instant::now();
        g.legal_parts_into(&mut out);
        let first = t.elapsed().as_secs_f64();
        let t = Instant::now();
        for _ in 0..AGAIN {
            g.legal_parts_into(&mut out);
        }
        let again = t.elapsed().as_secs_f64() / f64::from(AGAIN);
        let e = by.entry(kind(g)).or_default();
        e.states += 1;
        e.parts += out.len();
        e.first += first;
        e.again += again;
    }
    let total: f64 = by.values().map(|t| t.first).sum();
    let n = states.len().max(1) as f64;
    println!(
        "{} states; mean first listing {:.2} µs",
        states.len(),
        total / n * 1e6
    );
    println!("kind                     states  share  parts   first µs  again µs  time share");
    for (k, t) in &by {
        let s = t.states.max(1) as f64;
        println!(
            "{k:24} {:6}  {:4.1}%  {:5.1}   {:8.2}  {:8.2}  {:5.1}%",
            t.states,
            100.0 * t.states as f64 / n,
            t.parts as f64 / s,
            t.first / s * 1e6,
            t.again / s * 1e6,
            100.0 * t.first / total.max(f64::MIN_POSITIVE),
        );
    }
    // A seeded shuffle, so every run lists in the same order.
    let mut order: Vec<usize> = (0..states.len()).collect();
    Rng::new(1).shuffle(&mut order);
    let t = Instant::now();
    for &i in &order {
        states[i].legal_parts_into(&mut out);
    }
    println!(
        "the same states in a shuffled order: {:.2} µs a listing",
        t.elapsed().as_secs_f64() / n * 1e6
    );
}
