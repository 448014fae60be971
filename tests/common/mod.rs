//! Shared helpers for the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use orrery_gp::content::{Content, ContentFiles, DirFiles, MemFiles};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The base game's content folder.
pub fn base_dir() -> PathBuf {
    root().join("content").join("base")
}

/// The base game's files, in memory, so tests can break copies of them.
pub fn base_files() -> MemFiles {
    let dir = DirFiles::new(base_dir());
    let mut m = MemFiles {
        prefix: "content/base".into(),
        ..Default::default()
    };
    for f in dir.list() {
        m.files
            .insert(f.clone(), dir.read(&f).expect("readable content file"));
    }
    m
}

/// The base game, loaded and checked.
pub fn base() -> Content {
    match Content::load(&base_files(), &[]) {
        Ok(c) => c,
        Err(diags) => {
            let text: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
            panic!("base content is invalid:\n{}", text.join("\n"));
        }
    }
}

/// Every conformance record under `tests/data/conformance`, sorted.
pub fn records() -> Vec<PathBuf> {
    let mut out = Vec::new();
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir)
            .expect("conformance folder")
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    walk(&root().join("tests/data/conformance"), &mut out);
    out.sort();
    out
}

/// A record as JSON.
pub fn read_record(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("record readable");
    serde_json::from_str(&text).expect("record is JSON")
}

/// The base game with the recording platform's variant, as the conformance records need.
pub fn platform_content() -> std::sync::Arc<Content> {
    let variant = root().join("content/variants/boardgamers.yaml");
    let overlay = orrery_gp::content::OverlaySource {
        file: variant.display().to_string(),
        text: std::fs::read_to_string(&variant).expect("variant readable"),
        scripts: Vec::new(),
        problem: None,
    };
    std::sync::Arc::new(
        Content::load(&DirFiles::new(base_dir()), &[overlay]).expect("valid content"),
    )
}
pub mod scenario;

/// A 2-player game of the base content drawn from `seed`, started as a study starts one.
pub fn two_player_game(seed: u64) -> orrery_gp::game::Game {
    use orrery_core::game_module::{GameModule, Start};
    use orrery_gp::game::Game;
    let content = std::sync::Arc::new(base());
    let how = Start {
        players: 2,
        setup: None,
        identities: None,
        hook_budget: orrery_core::script::DEFAULT_HOOK_BUDGET,
    };
    let mut scribe = <Game as GameModule>::Scribe::default();
    Game::start(
        &content,
        how,
        &mut orrery_core::rng::Rng::new(seed),
        &mut scribe,
        &mut Vec::new(),
    )
    .expect("game")
}

/// The base game with the example faction's overlay (and its script) stacked on it.
pub fn example_content() -> std::sync::Arc<Content> {
    let dir = root().join("content/examples/cartographers");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect("example file");
    let ov = orrery_gp::content::OverlaySource {
        file: dir.join("overlay.yaml").display().to_string(),
        text: read("overlay.yaml"),
        scripts: vec![("cartographers.rhai".into(), read("cartographers.rhai"))],
        problem: None,
    };
    std::sync::Arc::new(Content::load(&DirFiles::new(base_dir()), &[ov]).expect("example loads"))
}

/// A new game on `setup`, every seat's faction chosen: seat 0 takes `first` when given, the
/// others (and seat 0 otherwise) the first faction listed.
pub fn start_game(
    content: &std::sync::Arc<Content>,
    setup: orrery_gp::game::Setup,
    first: Option<&str>,
) -> orrery_gp::game::Game {
    use orrery_gp::notation::Command;
    let mut g = orrery_gp::game::Game::new(content.clone(), setup).expect("game");
    for seat in 0..g.state.players.len() {
        let pick = match (seat, first) {
            (0, Some(f)) => Command::Faction(f.into()),
            _ => g.legal_parts().into_iter().next().expect("a faction"),
        };
        g.apply_part(&pick).expect("faction");
        g.apply_part(&Command::EndTurn).expect("chosen");
    }
    g
}
