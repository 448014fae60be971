//! `orrery simulate`, `merge` and `play`: results identical across job counts and merged
//! shards, records that replay to the same scores, usage errors, and a scripted session.

mod common;

use common::{in_repo, run, scratch, succeeded};

use std::path::{Path, PathBuf};
use std::process::Stdio;

/// A study file's text without its timing (the one field that may differ).
fn without_timing(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("study written");
    assert!(text.contains("\"format\": \"orrery-study/1\""), "{text}");
    text.lines()
        .filter(|l| !l.trim_start().starts_with("\"seconds\""))
        .collect::<Vec<_>>()
        .join("\n")
}

const STUDY: [&str; 10] = [
    "simulate",
    "--games",
    "6",
    "--players",
    "2",
    "--bots",
    "random,greedy",
    "--seed",
    "5",
    "--factions",
];

fn study(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let out = dir.join(name);
    let mut args: Vec<&str> = STUDY.to_vec();
    args.push("random");
    args.extend_from_slice(extra);
    let out_s = out.to_str().expect("utf-8 path").to_string();
    args.extend_from_slice(&["--out", &out_s]);
    succeeded(&run(&args));
    out
}

#[test]
fn results_do_not_depend_on_the_number_of_jobs() {
    let dir = scratch("jobs");
    let one = study(&dir, "one.json", &["--jobs", "1"]);
    let two = study(&dir, "two.json", &["--jobs", "2"]);
    assert_eq!(without_timing(&one), without_timing(&two));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&one).expect("read")).expect("json");
    assert_eq!(v["games"], 6);
    // Two bots rotated over two seats: each plays every game, each seat half the time.
    assert_eq!(v["bots"]["random"]["games"], 6);
    assert_eq!(v["bots"]["greedy"]["games"], 6);
    assert_eq!(v["seats"].as_array().map(Vec::len), Some(2));
    let wins: u64 = ["random", "greedy"]
        .iter()
        .map(|b| v["bots"][b]["wins"].as_u64().expect("wins"))
        .sum();
    assert!(wins >= 6, "every game has a winner");
}

#[test]
fn merged_shards_equal_the_whole_study() {
    let dir = scratch("shards");
    let whole = study(&dir, "whole.json", &[]);
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| study(&dir, &format!("s{k}.json"), &["--shard", &format!("{k}/3")]))
        .collect();
    let merged = dir.join("merged.json");
    let mut args = vec!["merge".to_string()];
    // Given out of order on purpose.
    for s in [&shards[2], &shards[0], &shards[1]] {
        args.push(s.display().to_string());
    }
    args.extend(["--out".to_string(), merged.display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    succeeded(&run(&args));
    assert_eq!(without_timing(&whole), without_timing(&merged));
    // A missing shard is refused.
    let s1 = shards[0].display().to_string();
    let out = run(&["merge", &s1, "--out", merged.to_str().expect("path")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing"));
}

#[test]
fn every_logged_game_replays_to_its_scores() {
    let dir = scratch("logs");
    let logs = dir.join("logs");
    let logs_s = logs.display().to_string();
    study(&dir, "s.json", &["--logs", &logs_s]);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&logs)
        .expect("logs written")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 6);
    for f in &files {
        let rec: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(f).expect("read")).expect("json");
        let want: String = rec["final"]
            .as_array()
            .expect("final scores")
            .iter()
            .map(|s| format!("{} {}\n", s["faction"].as_str().expect("id"), s["vp"]))
            .collect();
        let got = succeeded(&run(&["replay", f.to_str().expect("path")]));
        assert_eq!(got, want, "{}", f.display());
    }
}

#[test]
fn bad_options_are_usage_errors() {
    for args in [
        &["simulate", "--games", "2", "--bots", "nobody"][..],
        &["simulate", "--games", "2", "--shard", "0/2"],
        &["simulate", "--games", "2", "--shard", "3/2"],
        &["simulate", "--games", "2", "--factions", "terrans"],
        &["play", "--factions", "terrans,nobody"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("error:"));
    }
}

fn play(input: &str, extra: &[&str]) -> String {
    let mut child = in_repo()
        .args(["play", "--factions", "terrans,xenos", "--bots", "greedy"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("starts");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    let out = child.wait_with_output().expect("ends");
    succeeded(&out)
}

/// The numbered listing shown last before the end of `text`.
fn last_listing(text: &str) -> Vec<String> {
    let start = text.rfind("legal parts:").expect("a listing");
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn a_person_plays_by_number_prefix_and_undo() {
    let first = play("", &[]);
    let parts = last_listing(&first);
    assert!(parts.len() > 1, "{first}");
    // The text after the number, e.g. `build m 4A0`.
    let second = parts[1].split_once("  ").expect("numbered").1.to_string();
    // An ambiguous prefix lists its matches; undo returns to the same listing; a unique
    // prefix (here the whole text) plays that part.
    let dir = scratch("play");
    let saved = dir.join("state.json");
    let text = play(
        &format!("build\n1\nundo\n{second}\nendturn\n"),
        &["--save-state", saved.to_str().expect("path")],
    );
    assert!(text.contains("starts "), "{text}");
    assert!(text.contains("# undone"), "{text}");
    assert!(text.contains(&format!("terrans: {second}")), "{text}");
    assert!(text.contains("terrans: endturn"), "{text}");
    // The saved state is the person's next decision, readable by `moves`.
    let moves = succeeded(&run(&["moves", saved.to_str().expect("path")]));
    assert!(
        moves.starts_with("# terrans to decide") || moves.starts_with("# xenos"),
        "{moves}"
    );
    // A bot answered in between.
    assert!(text.contains("xenos: "), "{text}");
}

#[test]
fn given_factions_rotate_over_seats() {
    let dir = scratch("factions");
    let out = dir.join("f.json");
    succeeded(&run(&[
        "simulate",
        "--games",
        "3",
        "--players",
        "2",
        "--bots",
        "random",
        "--factions",
        "terrans,xenos,taklons",
        "--out",
        out.to_str().expect("path"),
    ]));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("read")).expect("json");
    // Windows of two over three factions, one per game: each faction plays twice.
    for f in ["terrans", "xenos", "taklons"] {
        assert_eq!(v["factions"][f]["games"], 2, "{f}");
    }
    assert_eq!(v["config"]["factions"][0], "terrans");
    // Two factions of one home planet cannot meet: that game is reported, the others played.
    let out = run(&[
        "simulate",
        "--games",
        "3",
        "--players",
        "2",
        "--bots",
        "random",
        "--factions",
        "terrans,xenos,gleens",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("game 1: "));
    assert!(String::from_utf8_lossy(&out.stdout).contains("2 games in"));
}

#[test]
fn bench_reports_every_figure_with_its_target() {
    let out = run(&["bench", "--json", "tests/data/conformance/dev/dev-001.json"]);
    let v: serde_json::Value = serde_json::from_str(&succeeded(&out)).expect("json");
    assert_eq!(v["records"], 1);
    assert_eq!(v["failed_records"], 0);
    let figures = v["figures"].as_array().expect("figures");
    assert_eq!(figures.len(), 6);
    for f in figures {
        assert!(f["value"].as_f64().expect("a number") > 0.0, "{f}");
        assert!(f["target"].as_f64().is_some(), "{f}");
    }
}

#[test]
fn a_study_draws_its_charts() {
    let dir = scratch("chart");
    // Named like the study, so both charts call it `s`.
    let chart = dir.join("s.svg");
    let chart_s = chart.to_str().expect("utf-8 path").to_string();
    let json = study(&dir, "s.json", &["--chart", &chart_s]);
    let svg = std::fs::read_to_string(&chart).expect("the chart is written");
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{}",
        &svg[..80.min(svg.len())]
    );
    assert!(svg.contains("Win rate per faction"), "no win-rate chart");
    // The same charts as `orrery chart` draws from the written study.
    let again = dir.join("again").join("s.svg");
    std::fs::create_dir_all(again.parent().expect("parent")).expect("folder");
    succeeded(&run(&[
        "chart",
        json.to_str().expect("path"),
        "-o",
        again.to_str().expect("path"),
    ]));
    let again = std::fs::read_to_string(&again).expect("chart");
    assert_eq!(
        svg, again,
        "simulate --chart and chart draw the same study alike"
    );
}

#[test]
fn a_game_over_its_hook_budget_fails_with_that_reason() {
    let base = [
        "simulate",
        "--games",
        "2",
        "--players",
        "2",
        "--factions",
        "cartographers,terrans",
        "--variant",
        "content/examples/cartographers",
        "--jobs",
        "1",
    ];
    // Within the default budget the example's games end.
    succeeded(&run(&base));
    // With a budget of 10 operations the hooks stop at once and every game fails, saying so.
    let mut args = base.to_vec();
    args.extend_from_slice(&["--hook-budget", "10"]);
    let out = run(&args);
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("game 0: ") && text.contains("used their budget of 10 operations"),
        "{text}"
    );
}
