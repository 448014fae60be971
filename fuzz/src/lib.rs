//! What the fuzz targets share: the repository's content and recorded games, read once.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use orrery_gp::content::{Content, ContentFiles, DirFiles, MemFiles, OverlaySource};
use orrery_gp::game::Game;
use orrery_gp::record::Record;

/// The repository root (the fuzz crate lives in `fuzz/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the fuzz crate has a parent")
        .to_path_buf()
}

/// The base game's files in memory, in listing order.
pub fn base_files() -> &'static MemFiles {
    static FILES: OnceLock<MemFiles> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = DirFiles::new(root().join("content/base"));
        let mut m = MemFiles {
            prefix: "content/base".into(),
            ..Default::default()
        };
        for f in dir.list() {
            let text = dir.read(&f).expect("readable content file");
            m.files.insert(f, text);
        }
        m
    })
}

/// The recording platform's overlay (`content/variants/boardgamers.yaml`).
pub fn platform_overlay() -> OverlaySource {
    let path = root().join("content/variants/boardgamers.yaml");
    OverlaySource {
        file: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("variant readable"),
        scripts: Vec::new(),
        problem: None,
    }
}

/// The base game with the platform's overlay, as the recorded games need.
pub fn platform_content() -> Arc<Content> {
    static CONTENT: OnceLock<Arc<Content>> = OnceLock::new();
    CONTENT
        .get_or_init(|| {
            Arc::new(Content::load(base_files(), &[platform_overlay()]).expect("valid content"))
        })
        .clone()
}

/// Every recorded game under `tests/data/conformance`, by its name (`rich/rich-019`), sorted.
pub fn records() -> &'static [(String, Record)] {
    static RECORDS: OnceLock<Vec<(String, Record)>> = OnceLock::new();
    RECORDS.get_or_init(|| {
        let dir = root().join("tests/data/conformance");
        let mut out = Vec::new();
        for folder in ["dev", "mixed", "rich"] {
            let mut paths: Vec<PathBuf> = std::fs::read_dir(dir.join(folder))
                .expect("conformance folder")
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect();
            paths.sort();
            for p in paths {
                let text = std::fs::read_to_string(&p).expect("record readable");
                let json: serde_json::Value = serde_json::from_str(&text).expect("record JSON");
                let record = Record::from_json(&json).expect("a record");
                let stem = p.file_stem().expect("a name").to_string_lossy();
                out.push((format!("{folder}/{stem}"), record));
            }
        }
        out
    })
}

/// Every `EVERY`-th state of a recorded game, replayed once and kept: `states[k]` is the
/// game after move `k * EVERY`.
pub const EVERY: usize = 8;

/// The recorded game `index` after move `at` (clamped to the game's end): a kept state and
/// the recorded lines after it.
pub fn recorded_state(index: usize, at: usize) -> Game {
    static KEPT: OnceLock<Vec<OnceLock<Vec<Game>>>> = OnceLock::new();
    let records = records();
    let kept = KEPT.get_or_init(|| (0..records.len()).map(|_| OnceLock::new()).collect());
    let (_, record) = &records[index % records.len()];
    let states = kept[index % records.len()].get_or_init(|| {
        let mut game = orrery_gp::record::replay(platform_content(), record, Some(0), false)
            .map_err(|(m, _)| m.to_string())
            .expect("a recorded game sets up");
        let mut states = vec![game.clone()];
        for (i, line) in record.moves.iter().enumerate().skip(1) {
            game.apply_text(line).expect("a recorded line applies");
            if i % EVERY == 0 {
                states.push(game.clone());
            }
        }
        states
    });
    let k = (at / EVERY).min(states.len() - 1);
    let mut game = states[k].clone();
    let last = at.min(record.moves.len().saturating_sub(1));
    for line in record.moves.iter().take(last + 1).skip(k * EVERY + 1) {
        game.apply_text(line).expect("a recorded line applies");
    }
    game
}

/// The example faction's overlay (`content/examples/cartographers`) with its script replaced
/// by `script` (the overlay names `cartographers.rhai`).
pub fn example_overlay(script: String) -> OverlaySource {
    let dir = root().join("content/examples/cartographers");
    OverlaySource {
        file: dir.join("overlay.yaml").display().to_string(),
        text: std::fs::read_to_string(dir.join("overlay.yaml")).expect("example readable"),
        scripts: vec![("cartographers.rhai".into(), script)],
        problem: None,
    }
}

/// The example faction's own script.
pub fn example_script() -> &'static str {
    static SCRIPT: OnceLock<String> = OnceLock::new();
    SCRIPT.get_or_init(|| {
        std::fs::read_to_string(root().join("content/examples/cartographers/cartographers.rhai"))
            .expect("example script readable")
    })
}

/// Plays up to `parts` random listed parts of a two-seat game of `factions`, checking that
/// every listed part applies and that the state saves and loads back unchanged every few
/// parts (so no hook or overlay can leave a state `moves` would refuse).
pub fn play_checked(content: Arc<Content>, factions: [&str; 2], seed: u64, parts: usize) {
    use orrery_gp::game::{GameState, Setup};
    use orrery_gp::notation::Command;
    use orrery_core::rng::Rng;
    let mut rng = Rng::new(seed);
    let Ok(setup) = Setup::random(&content, 2, &mut rng) else {
        return;
    };
    let Ok(mut game) = Game::new(content.clone(), setup) else {
        return;
    };
    for f in factions {
        if game.apply_part(&Command::Faction(f.into())).is_err()
            || game.apply_part(&Command::EndTurn).is_err()
        {
            return;
        }
    }
    for n in 0..parts {
        let legal = game.legal_parts();
        if legal.is_empty() {
            return;
        }
        let part = legal[rng.below(legal.len())].clone();
        let before = serde_json::to_string(&game.state).expect("the state saves");
        if let Err(e) = game.apply_part(&part) {
            panic!("listed part `{part}` was refused: {e}");
        }
        if n % 8 == 0 {
            let saved = serde_json::to_string(&game.state).expect("the state saves");
            let again: GameState = serde_json::from_str(&saved).expect("reads back");
            if let Err(e) = Game::load(content.clone(), again) {
                panic!("a state reached in play is refused once saved: {e}\nbefore: {before}");
            }
        }
    }
}
