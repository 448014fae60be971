//! A deterministic measure of listing with a hooked faction seated, for instruction counts:
//! the states of `ORRERY_COUNT_GAMES` random four-player games (default 4, seeds from 0) of the
//! recording platform's content with the example faction `content/examples/cartographers`
//! stacked on it, chosen by seat 1 (`seated`) or by no seat (`unseated`), every other choice
//! drawn from the seed, as `orrery bench` plays them for its figure "list, a hooked faction
//! seated / not seated"; `ORRERY_SEATED=0` for the games without it, `ORRERY_COLD=1` to load
//! each state afresh, remembering no hook's return from the play. Every state is listed once
//! (`list_all`); with `ORRERY_COUNT_TWICE=1` once more before, uncounted (what a listing
//! costs when the state was listed before, as in `orrery bench`'s repeated runs). Run it
//! under callgrind, counting only the listing:
//! `valgrind --tool=callgrind --toggle-collect='*list_all*' target/release/deps/hooks_count-*`.

mod shared;

use std::path::Path;
use std::sync::Arc;

use orrery_core::rng::Rng;
use orrery_gp::content::{Content, DirFiles, OverlaySource};
use orrery_gp::game::{Game, Setup};
use orrery_gp::notation::Command;

const FACTION: &str = "cartographers";

/// The platform's content with the example faction stacked last.
fn hooked_content() -> Arc<Content> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect(p);
    let variant = OverlaySource {
        file: "content/variants/boardgamers.yaml".into(),
        text: read("content/variants/boardgamers.yaml"),
        scripts: Vec::new(),
        problem: None,
    };
    let example = OverlaySource {
        file: "content/examples/cartographers/overlay.yaml".into(),
        text: read("content/examples/cartographers/overlay.yaml"),
        scripts: vec![(
            "cartographers.rhai".into(),
            read("content/examples/cartographers/cartographers.rhai"),
        )],
        problem: None,
    };
    Arc::new(
        Content::load(
            &DirFiles::new(root.join("content/base")),
            &[variant, example],
        )
        .expect("content"),
    )
}

/// Every state of `games` random four-player games (seeds `0..games`), with the example
/// faction in seat 1 when `seated`, in no seat otherwise.
fn random_states(content: &Arc<Content>, seated: bool, games: u64) -> Vec<Game> {
    let mut out = Vec::new();
    let other = |p: &Command| !matches!(p, Command::Faction(f) if f == FACTION);
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let setup = Setup::random(content, 4, &mut rng).expect("setup");
        let mut g = Game::new(content.clone(), setup).expect("game");
        if seated {
            for p in [Command::Faction(FACTION.into()), Command::EndTurn] {
                g.apply_part(&p).expect("seated");
            }
        }
        while !g.finished() && out.len() < 50_000 {
            let mut legal = g.legal_parts();
            legal.retain(other);
            let Some(part) = legal.get(rng.below(legal.len().max(1))) else {
                break;
            };
            out.push(g.clone());
            g.apply_part(part).expect("a listed part applies");
        }
    }
    out
}

fn main() {
    let content = hooked_content();
    let games = shared::count_var("ORRERY_COUNT_GAMES", 4) as u64;
    let seated = shared::count_var("ORRERY_SEATED", 1) == 1;
    let mut states = random_states(&content, seated, games);
    if shared::count_var("ORRERY_COLD", 0) == 1 {
        // Each state loaded afresh: nothing the hooks returned while playing is remembered.
        states = states
            .into_iter()
            .map(|g| Game::load(content.clone(), g.state).expect("loads"))
            .collect();
    }
    let mut out = Vec::new();
    if shared::count_var("ORRERY_COUNT_TWICE", 0) > 0 {
        // Listed once before the listing counted, as `orrery bench` lists them thrice.
        for g in &states {
            g.legal_parts_into(&mut out);
        }
    }
    let parts = shared::list_all(&states, &mut out);
    println!(
        "{} states ({}), {parts} parts listed",
        states.len(),
        if seated { "seated" } else { "not seated" }
    );
}
