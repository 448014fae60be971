//! What the benchmarks share: the recording platform's content and the recorded games.
#![allow(dead_code)]

pub mod counting;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use orrery_core::bot::{self, RandomBot};
use orrery_core::play_api::Playable;
use orrery_core::rng::Rng;
use orrery_gp::content::{Content, DirFiles, OverlaySource};
use orrery_gp::game::{Game, Setup};
use orrery_gp::notation::Command;
use orrery_gp::record::Record;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("records").flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

/// The base content with the recording platform's variant.
pub fn platform_content() -> Arc<Content> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let variant = root.join("content/variants/boardgamers.yaml");
    let overlay = OverlaySource {
        file: variant.display().to_string(),
        text: std::fs::read_to_string(&variant).expect("variant"),
        scripts: Vec::new(),
        problem: None,
    };
    Arc::new(Content::load(&DirFiles::new(root.join("content/base")), &[overlay]).expect("content"))
}

/// The text of every recorded game under `tests/data/conformance`, in path order.
pub fn record_texts() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    collect(&root.join("tests/data/conformance"), &mut files);
    files.sort();
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("read"))
        .collect()
}

/// Every recorded game under `tests/data/conformance`, in path order.
pub fn records() -> Vec<Record> {
    record_texts()
        .iter()
        .map(|text| {
            let json: serde_json::Value = serde_json::from_str(text).expect("json");
            Record::from_json(&json).expect("record")
        })
        .collect()
}

/// Every state of the first `games` records where a part is chosen, with the part recorded
/// there.
pub fn decision_points(content: &Arc<Content>, games: usize) -> Vec<(Game, Command)> {
    let mut out = Vec::new();
    for record in records().into_iter().take(games) {
        record
            .walk_parts(content, |game, at| {
                out.push((game.clone(), at.part.clone()));
                Ok::<(), String>(())
            })
            .expect("recorded parts apply");
    }
    out
}

/// Plays random four-player games from seeds `1..=games` as `orrery bench` does (setup, seats
/// and every choice drawn from the seed); the number of parts played. Not inlined, so that
/// callgrind can count it alone (`--toggle-collect='*random_games*'`).
#[inline(never)]
pub fn random_games(content: &Arc<Content>, games: u64) -> usize {
    let mut parts = 0;
    for seed in 1..=games {
        let mut rng = Rng::new(seed);
        let setup = Setup::random(content, 4, &mut rng).expect("setup");
        let mut game = Game::new(content.clone(), setup).expect("game");
        parts += RandomBot::new(seed, bot::MAX_FREE)
            .play_out(&mut game, 50_000)
            .expect("ends");
        assert!(game.is_over());
    }
    parts
}

/// A counting bench's setting from the environment variable `name`, or `default`.
pub fn count_var(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Lists the legal parts of every state once, into one buffer as `orrery bench` and the bots
/// list; the number of parts listed (kept out of line, so callgrind can count it alone).
#[inline(never)]
pub fn list_all(states: &[Game], out: &mut Vec<Command>) -> usize {
    states
        .iter()
        .map(|g| {
            g.legal_parts_into(out);
            std::hint::black_box(&*out).len()
        })
        .sum()
}
