//! The core names no game. Cargo already keeps a game's code out of this crate (it depends on
//! none); this test keeps the words out too, so that no game's concept creeps into the core's
//! types, docs or tests under a generic name's cover.

use std::fs;
use std::path::{Path, PathBuf};

/// Words of the games built on Orrery; a word matches alone or with a plural ending.
const WORDS: &[&str] = &[
    // Gaia Project
    "faction",
    "federation",
    "booster",
    "satellite",
    "research",
    "tile",
    "planet",
    "brainstone",
    "qic",
    "leech",
    "sector",
    "gaiaformer",
    // Terraforming Mars
    "mars",
    "oxygen",
    "corporation",
    "milestone",
    "tharsis",
];

/// Stems that match as the start of a word.
const STEMS: &[&str] = &["gaia", "terraform"];

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("readable entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The words of a text, identifiers split at underscores and at humps (`FactionId` gives
/// `faction` and `id`), in lower case.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut word = String::new();
        let mut prev_lower = false;
        for c in token.chars() {
            if c.is_ascii_uppercase() && prev_lower {
                out.push(std::mem::take(&mut word));
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            word.push(c.to_ascii_lowercase());
        }
        if !word.is_empty() {
            out.push(word);
        }
    }
    out
}

/// Whether a word names something of a game.
fn names_a_game(word: &str) -> bool {
    WORDS.iter().any(|w| {
        word == *w
            || word
                .strip_prefix(w)
                .is_some_and(|rest| rest == "s" || rest == "es")
    }) || STEMS.iter().any(|s| word.starts_with(s))
}

#[test]
fn the_core_sources_name_no_game() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&src.join("src"), &mut files);
    sources(&src.join("tests"), &mut files);
    sources(&src.join("examples"), &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in &files {
        if file.ends_with("names_no_game.rs") {
            continue;
        }
        let text = fs::read_to_string(file).expect("UTF-8 source");
        for (n, line) in text.lines().enumerate() {
            for w in words(line) {
                if names_a_game(&w) {
                    found.push(format!("{}:{}: `{w}`", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the core names a game:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_word_check_finds_game_words_in_identifiers_and_text() {
    for text in [
        "FactionId",
        "booster_income",
        "two sectors",
        "Gaiaformers",
        "TERRAFORMING",
    ] {
        assert!(words(text).iter().any(|w| names_a_game(w)), "{text}");
    }
    for text in ["schemars marshal", "title tiled", "sectoral", "research_er"] {
        let hits: Vec<_> = words(text)
            .into_iter()
            .filter(|w| names_a_game(w))
            .collect();
        assert!(hits.iter().all(|w| w == "research"), "{text}: {hits:?}");
    }
}
