//! Claims: a toy third game built on the Orrery core alone, to show what a game supplies and
//! what it gets. Its content is two YAML files and one Rhai hook (`content/`); it implements
//! [`Playable`], [`Evaluate`] and [`GameModule`], and so the core's bots play it and its
//! content is checked with `file:line:col` errors. `docs/new-game.md` walks through it.
//!
//! ```text
//! cargo run -p orrery-core --example claims -- validate [DIR]
//! cargo run -p orrery-core --example claims -- play [SEED] [BOT BOT]
//! ```
//! Exit codes: 0 done, 1 the content has problems or a game failed, 2 usage.

mod content;
mod game;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use orrery_core::bot::{self, Bot};
use orrery_core::files::DirFiles;
use orrery_core::game_module::GameModule;
use orrery_core::play_api::Playable;

use game::Claims;

/// The content folder beside this example.
fn default_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/claims/content")
}

/// Loads the content of `dir`, printing every problem.
fn load(dir: Option<&str>) -> Result<content::Content, ExitCode> {
    let dir = dir.map_or_else(default_dir, PathBuf::from);
    Claims::load(&DirFiles::new(&dir), &[]).map_err(|problems| {
        for p in &problems {
            eprintln!("{p}");
        }
        ExitCode::from(1)
    })
}

/// Plays one game with the named bots; returns the moves and the scores.
fn play(
    content: Arc<content::Content>,
    seed: u64,
    names: [&str; 2],
) -> Result<(Vec<String>, Vec<i32>), String> {
    let mut game = Claims::new(content);
    let mut bots = Vec::new();
    for (s, name) in names.iter().enumerate() {
        let bot: Box<dyn Bot<Claims> + Send> = bot::by_name::<Claims>(name, seed + s as u64)
            .ok_or_else(|| format!("unknown bot `{name}`"))?;
        bots.push(bot);
    }
    let mut moves = Vec::new();
    bot::play_game(&mut game, &mut bots, 1000, |_, _, a| {
        moves.push(a.to_string())
    })
    .map_err(|e| e.to_string())?;
    Ok((moves, game.score()))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("validate") => match load(args.get(1).map(String::as_str)) {
            Ok(c) => {
                println!("{}", Claims::summary(&c));
                ExitCode::SUCCESS
            }
            Err(code) => code,
        },
        Some("play") => {
            let Ok(seed) = args.get(1).map_or(Ok(1), |s| s.parse::<u64>()) else {
                eprintln!("error: the seed is a whole number");
                return ExitCode::from(2);
            };
            let names = [
                args.get(2).map_or("greedy", String::as_str),
                args.get(3).map_or("random", String::as_str),
            ];
            let content = match load(None) {
                Ok(c) => Arc::new(c),
                Err(code) => return code,
            };
            match play(content, seed, names) {
                Ok((moves, scores)) => {
                    for m in &moves {
                        println!("{m}");
                    }
                    println!("scores: {scores:?}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        _ => {
            eprintln!("usage: claims validate [DIR] | claims play [SEED] [BOT BOT]");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use orrery_core::files::MemFiles;

    fn file(name: &str) -> String {
        std::fs::read_to_string(default_dir().join(name)).expect("the example's content")
    }

    /// The built-in content with `name` replaced by `text`.
    fn files_with(name: &str, text: &str) -> MemFiles {
        let mut files = vec![
            ("rules.yaml".to_string(), file("rules.yaml")),
            ("pieces.yaml".to_string(), file("pieces.yaml")),
            ("scripts/bonus.rhai".to_string(), file("scripts/bonus.rhai")),
        ];
        for f in &mut files {
            if f.0 == name {
                f.1 = text.to_string();
            }
        }
        let pairs: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        MemFiles::new("claims", &pairs)
    }

    fn problems(name: &str, text: &str) -> Vec<String> {
        match Claims::load(&files_with(name, text), &[]) {
            Ok(_) => Vec::new(),
            Err(p) => p.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn bots_play_games_to_the_end_and_points_add_up() {
        let content = Arc::new(load(None).expect("the content loads"));
        for seed in 0..6 {
            for names in [["random", "random"], ["greedy", "search:200"]] {
                let (moves, scores) = play(content.clone(), seed, names).expect("a whole game");
                assert!(!moves.is_empty());
                assert_eq!(
                    moves,
                    play(content.clone(), seed, names).unwrap().0,
                    "seeded"
                );
                assert!(
                    scores.iter().all(|&s| s >= 8),
                    "{scores:?}: 8 stones score 8"
                );
            }
        }
        let mut g = Claims::new(content);
        while let Some(a) = g.legal().first().cloned() {
            g.play(&a).unwrap();
        }
        for seat in 0..2 {
            assert_eq!(g.vp_sources(seat).values().sum::<i32>(), g.score()[seat]);
        }
        assert!(!g.winners().is_empty());
    }

    #[test]
    fn the_hook_scores_beside_own_pieces() {
        let content = Arc::new(load(None).expect("the content loads"));
        let mut g = Claims::new(content);
        let place = |piece: &str, q, r| game::Place {
            piece: piece.into(),
            at: orrery_core::hex::Hex::new(q, r),
        };
        g.play(&place("tower", 0, 0)).unwrap();
        g.play(&place("stone", 2, -2)).unwrap();
        // Beside seat 1's tower: 1 point, 1 for the neighbour, 2 for a tower among them.
        g.play(&place("stone", 1, 0)).unwrap();
        assert_eq!(g.vp_sources(0)["bonus"], 3);
        assert_eq!(g.score(), vec![3 + 1 + 3, 1]);
    }

    #[test]
    fn content_errors_name_file_line_and_column() {
        let p = problems(
            "pieces.yaml",
            "pieces:\n  - id: stone\n    points: many\n    count: 6\n",
        );
        assert!(
            p.iter().any(|m| m.starts_with("claims/pieces.yaml:3:")),
            "{p:?}"
        );
        let twice =
            "pieces:\n  - {id: stone, points: 1, count: 2}\n  - {id: stone, points: 2, count: 2}\n";
        let p = problems("pieces.yaml", twice);
        assert!(
            p.iter()
                .any(|m| m.contains("pieces.yaml:3:") && m.contains("duplicate piece id")),
            "{p:?}"
        );
        let rules = file("rules.yaml").replace("function: bonus", "function: nothing");
        let p = problems("rules.yaml", &rules);
        assert!(
            p.iter()
                .any(|m| m.contains("rules.yaml:") && m.contains("no function `nothing`")),
            "{p:?}"
        );
    }

    #[test]
    fn a_hook_that_loops_or_misbehaves_is_refused_and_changes_nothing() {
        for script in [
            "fn bonus(placed) { loop {} }",
            "fn bonus(placed) { 1000 }",
            "fn bonus(placed) { \"lots\" }",
        ] {
            let content = Claims::load(&files_with("scripts/bonus.rhai", script), &[])
                .expect("the content loads; the hook fails when called");
            let mut g = Claims::new(Arc::new(content));
            let a = g.legal()[0].clone();
            let before = g.save_state();
            let e = g.play(&a).expect_err("the hook's answer is refused");
            assert!(e.contains("bonus hook"), "{e}");
            assert_eq!(g.save_state(), before, "{script}");
        }
    }

    #[test]
    fn a_saved_game_restores_and_a_wrong_one_is_refused() {
        let content = Arc::new(load(None).expect("the content loads"));
        let mut g = Claims::new(content.clone());
        for _ in 0..5 {
            let a = g.legal()[3].clone();
            g.play(&a).unwrap();
        }
        let saved = g.save_state().expect("Claims saves its games");
        let back = Claims::restore(content.clone(), saved.clone()).expect("restores");
        assert_eq!(back.save_state(), g.save_state());
        assert_eq!(
            back.parse_action(&g.legal()[0].to_string()),
            Ok(g.legal()[0].clone())
        );
        let mut wrong = saved.clone();
        wrong["taken"] = serde_json::json!([null]);
        assert!(Claims::restore(content.clone(), wrong).is_err());
        let mut absurd = saved;
        absurd["points"][0][0] = serde_json::json!(i32::MAX);
        assert!(
            Claims::restore(content, absurd).is_err(),
            "points no game reaches"
        );
    }

    #[test]
    fn bad_moves_are_refused_and_change_nothing() {
        let content = Arc::new(load(None).expect("the content loads"));
        let mut g = Claims::new(content);
        let tower = |q, r| game::Place {
            piece: "tower".into(),
            at: orrery_core::hex::Hex::new(q, r),
        };
        g.play(&tower(0, 0)).unwrap();
        let before = g.save_state();
        for bad in [
            tower(0, 0),
            tower(9, 9),
            game::Place {
                piece: "castle".into(),
                at: orrery_core::hex::Hex::new(1, 0),
            },
        ] {
            assert!(g.play(&bad).is_err(), "{bad}");
            assert_eq!(g.save_state(), before);
        }
    }

    #[test]
    fn an_overlay_changes_a_piece_and_explain_and_diff_show_where() {
        use orrery_core::content::inspect::{self, ItemChange};
        use orrery_core::files::OverlaySource;
        let overlay = OverlaySource {
            file: "heavier.yaml".into(),
            text: "name: heavier\nchanges:\n  - set: {kind: piece, id: tower, path: points, value: 5}\n".into(),
            scripts: Vec::new(),
            problem: None,
        };
        let files = files_with("", "");
        let changed = Claims::load(&files, &[overlay]).expect("the overlay applies");
        assert_eq!(changed.pieces[1].points, 5);
        let piece = content::KINDS.kind("piece").expect("a kind");
        let fields = inspect::explain(&changed.provenance, piece, Some("tower")).expect("tower");
        let points = fields.iter().find(|f| f.path == "points").expect("points");
        assert_eq!(points.origin.to_string(), "heavier.yaml:3:56");
        let base = Claims::load(&files, &[]).expect("the base loads");
        let diffs = inspect::diff(&changed.provenance, &base.provenance);
        assert_eq!(diffs.len(), 1, "{diffs:?}");
        assert_eq!(
            (diffs[0].kind.name, diffs[0].id.as_deref()),
            ("piece", Some("tower"))
        );
        let ItemChange::Changed(fields) = &diffs[0].change else {
            panic!("{diffs:?}");
        };
        assert_eq!(fields.len(), 1);
        assert_eq!(fields[0].path, "points");
        // A mistyped change is refused at the overlay's line, the content unchanged.
        let bad = OverlaySource {
            file: "bad.yaml".into(),
            text: "name: bad\nchanges:\n  - set: {kind: piece, id: tower, path: points, value: lots}\n".into(),
            scripts: Vec::new(),
            problem: None,
        };
        let problems: Vec<String> = Claims::load(&files, &[bad])
            .expect_err("refused")
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(
            problems.iter().any(|p| p.starts_with("bad.yaml:3:")),
            "{problems:?}"
        );
    }
}
