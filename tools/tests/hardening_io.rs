//! Records, saved states, studies and outputs read or written by the command line: strict
//! reading (no words ignored, no key repeated, options of their type), errors that print no
//! raw control character, games that replay from any folder, studies that know what made
//! them, outputs that never overwrite an input and are written whole or not at all.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{repo, run_in, run_in_repo, scratch, succeeded};

const LOG: &str = "tests/data/conformance/rich/rich-001.json";

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The record `LOG` as JSON, edited by `edit`, written to `dir/name`.
fn edited_log(dir: &Path, name: &str, edit: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let text = std::fs::read_to_string(repo().join(LOG)).expect("the log");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    edit(&mut v);
    let path = dir.join(name);
    std::fs::write(&path, v.to_string()).expect("written");
    path
}

#[test]
fn words_after_a_part_are_refused_by_replay() {
    let dir = scratch("junk");
    let log = edited_log(&dir, "junk.json", |v| {
        let line = v["moves"][5].as_str().unwrap().to_string();
        v["moves"][5] = format!("{line} please and thank you").into();
    });
    let out = run_in_repo([Path::new("replay"), &log]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("unexpected \"please and thank you\""),
        "{text}"
    );
}

#[test]
fn records_with_wrongly_typed_options_are_refused() {
    let dir = scratch("options");
    for (key, value, says) in [
        (
            "factionVariant",
            serde_json::json!(["beta-0"]),
            "options.factionVariant must be",
        ),
        (
            "factionVariantVersion",
            serde_json::json!("x"),
            "revision number",
        ),
        ("layout", serde_json::json!(5), "options.layout must be"),
        (
            "map",
            serde_json::json!("x"),
            "options.map must be an object",
        ),
    ] {
        let log = edited_log(&dir, &format!("{key}.json"), |v| {
            v["options"][key] = value;
        });
        let out = run_in_repo([Path::new("replay"), &log]);
        assert_eq!(out.status.code(), Some(1), "{key}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{key}: {}", stderr(&out));
    }
    let log = edited_log(&dir, "many.json", |v| {
        v["factions"] = (0..1002).map(|i| format!("f{i}")).collect();
    });
    let out = run_in_repo([Path::new("replay"), &log]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("1002 factions for 2 players"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_saved_state_with_a_repeated_key_is_refused() {
    let dir = scratch("dupkey");
    let state = dir.join("s.json");
    succeeded(&run_in_repo([
        Path::new("replay"),
        Path::new(LOG),
        Path::new("--until"),
        Path::new("30"),
        Path::new("--save-state"),
        &state,
    ]));
    succeeded(&run_in(&dir, ["moves", "s.json"]));
    let text = std::fs::read_to_string(&state).unwrap();
    let edited = text.replacen("\"state\": {", "\"state\": {\n    \"round\": 1,", 1);
    assert_ne!(text, edited);
    std::fs::write(&state, edited).unwrap();
    let out = run_in(&dir, ["moves", "s.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("the key \"round\" appears twice in one object (at /state)"),
        "{}",
        stderr(&out)
    );
}

/// Whether text holds a control or bidi character other than the line ends it is made of.
fn hidden(text: &str) -> Option<char> {
    text.chars().find(|c| {
        (c.is_control() && *c != '\n')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
    })
}

#[test]
fn control_characters_from_a_record_are_escaped_in_every_error() {
    let dir = scratch("controls");
    let nasty = "\u{1b}[2J\u{7}\u{0}\u{202e}\u{2066}";
    let bad_move = edited_log(&dir, "move.json", |v| {
        v["moves"][5] = format!("terrans build m {nasty}").into();
    });
    let bad_faction = edited_log(&dir, "faction.json", |v| {
        v["factions"][0] = format!("x{nasty}").into();
    });
    let bad_option = edited_log(&dir, "option.json", |v| {
        v["options"]["factionVariant"] = format!("x{nasty}").into();
    });
    for args in [
        vec![Path::new("replay"), &bad_move],
        vec![Path::new("replay"), &bad_faction],
        vec![Path::new("replay"), &bad_option],
        vec![Path::new("render"), &bad_move],
        vec![Path::new("conformance"), &bad_move],
        vec![Path::new("conformance"), &bad_faction],
    ] {
        let out = run_in_repo(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(hidden(&all), None, "{args:?}: {all:?}");
        assert!(
            all.contains("\\u{1b}[2J\\u{7}\\u{0}\\u{202e}\\u{2066}"),
            "{args:?}: {all}"
        );
    }
}

#[test]
fn play_reads_a_huge_line_within_a_bound_and_goes_on() {
    use std::io::Write;
    let mut child = common::in_repo()
        .args(["play", "--factions", "terrans,xenos", "--bots", "random"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        // 64 MB without a line end, then a line the session reads.
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..64 {
            stdin.write_all(&chunk).expect("written");
        }
        stdin.write_all(b"\nlist\nquit\n").expect("written");
    });
    let out = child.wait_with_output().expect("ends");
    writer.join().expect("the writer ends");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("# line too long (at most 16384 bytes); ignored"),
        "{text}"
    );
    assert!(text.matches("legal parts:").count() >= 2, "{text}");
}

#[test]
fn no_output_may_overwrite_an_input() {
    let dir = scratch("clobber");
    let log = dir.join("r.json");
    std::fs::copy(repo().join(LOG), &log).unwrap();
    let study = dir.join("s.json");
    std::fs::copy(repo().join("tools/tests/data/study-base.json"), &study).unwrap();
    let before = |p: &Path| std::fs::read(p).unwrap();
    let (log_text, study_text) = (before(&log), before(&study));
    std::fs::create_dir_all(dir.join("logs")).unwrap();
    for (args, says) in [
        (
            vec!["render", "r.json", "-o", "r.json"],
            "-o r.json would overwrite the input r.json",
        ),
        (
            vec!["render", "r.json", "-o", "./logs/../r.json"],
            "would overwrite the input",
        ),
        (
            vec!["view", "r.json", "-o", "r.json"],
            "would overwrite the input",
        ),
        (
            vec!["replay", "r.json", "--save-state", "r.json"],
            "would overwrite the input",
        ),
        (
            vec!["merge", "s.json", "s.json", "--out", "s.json"],
            "would overwrite the input",
        ),
        (
            vec!["chart", "s.json", "-o", "s.json"],
            "would overwrite the input",
        ),
        (
            vec![
                "simulate", "--games", "1", "--out", "x.json", "--chart", "x.json",
            ],
            "--chart x.json is also --out",
        ),
        (
            vec![
                "simulate",
                "--games",
                "1",
                "--logs",
                "logs",
                "--out",
                "logs/x.json",
            ],
            "--out logs/x.json is inside --logs logs",
        ),
    ] {
        let out = run_in(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
    assert_eq!(before(&log), log_text);
    assert_eq!(before(&study), study_text);
    assert!(!dir.join("x.json").exists());
    // Another file is fine, and written whole, with no temporary file left beside it.
    succeeded(&run_in(&dir, ["render", "r.json", "-o", "board.svg"]));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("orrery-tmp")), "{names:?}");
    assert!(std::fs::read_to_string(dir.join("board.svg"))
        .unwrap()
        .ends_with("</svg>\n"));
}

/// Runs `orrery play` in `dir` with `args`, playing the first listed part, then quitting.
fn play_one_part(dir: &Path, args: &[&str]) -> Output {
    use std::io::Write;
    let mut child = orrery_in(dir)
        .arg("play")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"1\nquit\n")
        .expect("written");
    child.wait_with_output().expect("ends")
}

fn orrery_in(dir: &Path) -> std::process::Command {
    let mut c = common::orrery();
    c.current_dir(dir);
    c
}

#[test]
fn a_saved_game_keeps_its_content_and_variants_from_any_folder() {
    let dir = scratch("portable");
    let work = dir.join("work");
    common::copy_dir(&repo().join("content"), &work.join("my-content"));
    // A variant only this folder has: the shipped turn-order variant under another name.
    std::fs::copy(
        repo().join("content/variants/variable-turn-order.yaml"),
        work.join("turns.yaml"),
    )
    .unwrap();
    let out = play_one_part(
        &work,
        &[
            "--content",
            "my-content",
            "--variant",
            "turns.yaml",
            "--factions",
            "terrans,xenos",
            "--bots",
            "random",
            "--save-state",
            "s.json",
        ],
    );
    succeeded(&out);
    // From another folder, `moves` uses the saved content folder and variant.
    let moves = orrery_in(&dir)
        .args(["moves", "work/s.json"])
        .output()
        .unwrap();
    let said = stderr(&moves);
    succeeded(&moves);
    assert!(
        said.contains("my-content") && said.contains("turns.yaml"),
        "{said}"
    );
    // Moved somewhere else as a whole, it finds both beside it.
    let moved = dir.join("moved");
    std::fs::rename(&work, &moved).unwrap();
    let moves = orrery_in(&repo())
        .arg("moves")
        .arg(moved.join("s.json"))
        .output()
        .unwrap();
    succeeded(&moves);
    assert!(
        stderr(&moves).contains(&moved.join("my-content").display().to_string()),
        "{}",
        stderr(&moves)
    );
    // A variant that cannot be found is named, and a --variant of that name replaces it.
    std::fs::rename(moved.join("turns.yaml"), dir.join("turns.yaml")).unwrap();
    let missing = orrery_in(&repo())
        .arg("moves")
        .arg(moved.join("s.json"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("\"turns.yaml\"") && stderr(&missing).contains("--variant FILE"),
        "{}",
        stderr(&missing)
    );
    let replaced = orrery_in(&repo())
        .arg("moves")
        .arg(moved.join("s.json"))
        .arg("--variant")
        .arg(dir.join("turns.yaml"))
        .output()
        .unwrap();
    succeeded(&replaced);
    let said = stderr(&replaced);
    assert_eq!(
        said.matches("turns.yaml").count(),
        2,
        "stacked once: {said}"
    );
}

#[test]
fn simulated_logs_replay_from_any_folder() {
    let dir = scratch("portable-logs");
    std::fs::copy(
        repo().join("content/variants/variable-turn-order.yaml"),
        dir.join("turns.yaml"),
    )
    .unwrap();
    let out = run_in(
        &dir,
        [
            "simulate",
            "--games",
            "1",
            "--bots",
            "random",
            "--variant",
            "turns.yaml",
            "--logs",
            "logs",
            "--jobs",
            "1",
        ],
    );
    succeeded(&out);
    let log = dir.join("logs/game-000000.json");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
    assert_eq!(
        record["content"]["variants"][0]["relative"],
        "../turns.yaml"
    );
    let replay = orrery_in(&repo()).arg("replay").arg(&log).output().unwrap();
    let scores = succeeded(&replay);
    assert!(
        stderr(&replay).contains("turns.yaml"),
        "{}",
        stderr(&replay)
    );
    let finals: Vec<String> = record["final"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{} {}", f["faction"].as_str().unwrap(), f["vp"]))
        .collect();
    assert_eq!(scores.lines().collect::<Vec<_>>(), finals);
}

/// Runs a 2-game study slice in `dir` with `extra` arguments, writing `out`.
fn shard(dir: &Path, out: &str, extra: &[&str]) {
    let mut args = vec![
        "simulate", "--games", "4", "--bots", "random", "--jobs", "1", "--out", out,
    ];
    args.extend(extra);
    succeeded(&run_in(dir, &args));
}

#[test]
fn merge_refuses_shards_of_other_content_and_reports_failed_games() {
    let dir = scratch("merge-identity");
    std::fs::copy(
        repo().join("content/variants/variable-turn-order.yaml"),
        dir.join("v.yaml"),
    )
    .unwrap();
    shard(&dir, "a1.json", &["--shard", "1/2", "--variant", "v.yaml"]);
    shard(&dir, "a2.json", &["--shard", "2/2", "--variant", "v.yaml"]);
    succeeded(&run_in(
        &dir,
        ["merge", "a1.json", "a2.json", "--out", "m.json"],
    ));
    // The same path with other text is other content.
    let text = std::fs::read_to_string(dir.join("v.yaml")).unwrap();
    std::fs::write(dir.join("v.yaml"), format!("{text}\n# edited\n")).unwrap();
    shard(&dir, "b2.json", &["--shard", "2/2", "--variant", "v.yaml"]);
    let out = run_in(&dir, ["merge", "a1.json", "b2.json", "--out", "m2.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("different content"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join("m2.json").exists());
    // A shard whose games failed: the merged study carries them and merge says so (exit 1).
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("a2.json")).unwrap()).unwrap();
    v["config"]["games"] = 5.into();
    v["failed"] =
        serde_json::json!({"count": 1, "games": [{"index": 4, "seed": 7, "reason": "stuck"}]});
    std::fs::write(dir.join("f2.json"), v.to_string()).unwrap();
    let mut a1: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("a1.json")).unwrap()).unwrap();
    a1["config"]["games"] = 5.into();
    // 5 games in 2 slices: the first has 2, the second 3 (2 played, 1 failed).
    std::fs::write(dir.join("f1.json"), a1.to_string()).unwrap();
    let out = run_in(&dir, ["merge", "f1.json", "f2.json", "--out", "fm.json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("4 games of 5 merged from 2 shards; 1 failed"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("1 game failed: game 4 (seed 7): stuck"),
        "{}",
        stderr(&out)
    );
    let merged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("fm.json")).unwrap()).unwrap();
    assert_eq!(merged["failed"]["count"], 1);
    // An inconsistent study is refused by merge and chart alike.
    let mut w = v.clone();
    w["failed"] = serde_json::json!({"count": 0, "games": []});
    w["config"]["games"] = 4.into();
    w["seats"][0]["wins"] = 1000.into();
    std::fs::write(dir.join("w.json"), w.to_string()).unwrap();
    for args in [
        vec!["merge", "a1.json", "w.json", "--out", "wm.json"],
        vec!["chart", "w.json", "-o", "w.svg"],
    ] {
        let out = run_in(&dir, &args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&out).contains("seat 1: 1000 wins in 2 games"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn logs_go_only_into_an_empty_folder_unless_cleared() {
    let dir = scratch("logs-folder");
    let study = |extra: &[&str]| {
        let mut args = vec![
            "simulate", "--games", "2", "--bots", "random", "--jobs", "1", "--logs", "logs",
        ];
        args.extend(extra);
        run_in(&dir, &args)
    };
    succeeded(&study(&["--seed", "1"]));
    let out = study(&["--seed", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not empty") && stderr(&out).contains("--clear-logs"),
        "{}",
        stderr(&out)
    );
    std::fs::write(dir.join("logs/notes.txt"), "mine").unwrap();
    std::fs::write(dir.join("logs/game-000009.json"), "{}").unwrap();
    succeeded(&study(&["--seed", "2", "--clear-logs"]));
    let mut names: Vec<String> = std::fs::read_dir(dir.join("logs"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["game-000000.json", "game-000001.json", "notes.txt"]);
    let log = std::fs::read_to_string(dir.join("logs/game-000000.json")).unwrap();
    assert!(log.contains("s2-0"), "the second study's game: {log}");
}

#[test]
fn a_record_on_its_stored_boards_replays_but_is_not_saved() {
    let dir = scratch("stored-boards");
    // An older engine's record: the first seat's board stored with it (its starting power).
    let log = edited_log(&dir, "stored.json", |v| {
        v["replay_mode"] = "replay".into();
        v["player_variants"] = serde_json::json!([{"power": {"area1": 1, "area2": 5}}, null]);
        v.as_object_mut().unwrap().remove("snapshots");
    });
    // (The stored power differs from the faction's, so a later charge is refused: the first
    // ten moves.)
    let until = [Path::new("--until"), Path::new("10")];
    let out = run_in_repo([Path::new("replay"), &log, until[0], until[1]]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 2, "{}", stdout(&out));
    assert!(
        stderr(&out).contains("stored-boards (<the log's stored-boards>)"),
        "{}",
        stderr(&out)
    );
    // The board played on shows in the trace: the first seat's power differs.
    let trace = |log: &Path| {
        succeeded(&run_in_repo([
            Path::new("trace"),
            log,
            Path::new("--until"),
            Path::new("2"),
        ]))
    };
    assert_ne!(trace(&log), trace(Path::new(LOG)));
    // Its stack could not be found again from a saved game: refused, nothing written.
    let state = dir.join("s.json");
    let out = run_in_repo([
        Path::new("replay"),
        &log,
        until[0],
        until[1],
        Path::new("--save-state"),
        &state,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("(stored-boards) cannot be saved yet"),
        "{}",
        stderr(&out)
    );
    assert!(!state.exists());
}
