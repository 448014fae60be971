//! Shared helpers: the content, the copied records, and replaying one.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;

use orrery_tm::content::{self, Content};
use orrery_tm::game::{Deal, Game};
use orrery_tm::notation::Line;
use orrery_tm::record::{DeckEvent, Record};
use serde_json::Value;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The game's content, loaded and checked.
pub fn content() -> Arc<Content> {
    match content::load(&content::default_dir()) {
        Ok(c) => Arc::new(c),
        Err(e) => panic!(
            "content does not load:\n{}",
            e.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

/// Every copied record file, sorted.
pub fn record_paths() -> Vec<PathBuf> {
    let dir = root().join("tests/data/terraforming-mars");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("records folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".json.gz"))
        .collect();
    v.sort();
    v
}

/// The first difference between two JSON values, as `path: ours != recorded`.
pub fn first_difference(path: &str, ours: &Value, theirs: &Value) -> Option<String> {
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let (x, y) = (a.get(k), b.get(k));
                match (x, y) {
                    (Some(x), Some(y)) => {
                        if let Some(d) = first_difference(&format!("{path}.{k}"), x, y) {
                            return Some(d);
                        }
                    }
                    _ => return Some(format!("{path}.{k}: {x:?} != {y:?}")),
                }
            }
            None
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (x, y))| first_difference(&format!("{path}[{i}]"), x, y)),
        _ if ours == theirs => None,
        _ => Some(format!("{path}: ours {ours} != recorded {theirs}")),
    }
}

/// The outcome of replaying one record.
pub struct Replay {
    /// Moves replayed identically before the first difference.
    pub identical: usize,
    /// Total moves.
    pub total: usize,
    /// The first difference, if any.
    pub difference: Option<String>,
}

/// The game as the record deals it.
pub fn deal(content: Arc<Content>, r: &Record) -> Game {
    let colors: Vec<String> = r.players.iter().map(|p| p.color.clone()).collect();
    let first = colors
        .iter()
        .position(|c| *c == r.first_player)
        .expect("first player seated");
    let deal = Deal {
        colors,
        first,
        beginner: r.players.iter().map(|p| p.beginner).collect(),
        corporations: r.setup.corporation_deck_initial.clone(),
        projects: r.setup.project_deck_initial.clone(),
    };
    Game::new(content, &deal, 1).expect("the deal is playable")
}

/// Replays a record move by move, comparing draws and every snapshot.
pub fn replay(content: Arc<Content>, r: &Record) -> Replay {
    let mut g = deal(content, r);
    let total = r.moves.len();
    let done = |identical, d: String| Replay {
        identical,
        total,
        difference: Some(format!("{} move {identical}: {d}", r.id)),
    };
    if let Some(d) = first_difference("setup", &g.snapshot(), &r.setup.snapshot) {
        return done(0, d);
    }
    for (k, m) in r.moves.iter().enumerate() {
        for e in &m.events {
            if let DeckEvent::Reshuffle { order } = e {
                if let Err(e) = g.plan_reshuffle(order) {
                    return done(k, e);
                }
            }
        }
        let line = match Line::parse(&m.line) {
            Ok(l) => l,
            Err(e) => return done(k, format!("{}: {e}", m.line)),
        };
        if let Err(e) = g.apply_line(&line) {
            return done(k, format!("`{}` refused: {e}", m.line));
        }
        let draws: Vec<(String, bool)> = m
            .events
            .iter()
            .filter_map(|e| match e {
                DeckEvent::Draw {
                    card, from, deck, ..
                } if deck.is_none() => Some((card.clone(), from == "top")),
                _ => None,
            })
            .collect();
        if g.last_draws() != draws {
            return done(
                k,
                format!(
                    "`{}` drew {:?}, recorded {:?}",
                    m.line,
                    g.last_draws(),
                    draws
                ),
            );
        }
        if let Some(d) = first_difference("snapshot", &g.snapshot(), &m.snapshot) {
            return done(k, format!("after `{}`: {d}", m.line));
        }
    }
    Replay {
        identical: total,
        total,
        difference: None,
    }
}
