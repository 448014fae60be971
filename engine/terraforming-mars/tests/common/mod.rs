//! Shared helpers: the content, the copied records, and replaying one.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;

use orrery_tm::content::{self, Content};

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
