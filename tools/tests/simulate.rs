//! `orrery simulate`, `merge` and `play`: results identical across job counts and merged
//! shards, records that replay to the same scores, usage errors, and a scripted session.

mod common;

use common::{in_repo, repo, run, scratch, succeeded};

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

/// The summary closes with the games' wall time, the jobs they ran on and what a game cost one
/// core: the wall time times the busy jobs, over the games.
#[test]
fn the_summary_gives_the_time_of_a_game_on_one_core() {
    for (jobs, busy) in [("1", 1.0), ("8", 6.0)] {
        let mut args: Vec<&str> = STUDY.to_vec();
        args.extend_from_slice(&["random", "--jobs", jobs]);
        let out = run(&args);
        let text = succeeded(&out);
        let line = text
            .lines()
            .find(|l| l.starts_with("6 games in "))
            .unwrap_or_else(|| panic!("no timing line in\n{text}"));
        let number = |after: &str| -> f64 {
            let rest = &line[line.find(after).expect(after) + after.len()..];
            rest.split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .expect(line)
        };
        let wall = number("6 games in ");
        let each = number(": ");
        let on = if busy == 1.0 {
            " on 1 job: "
        } else {
            " on 6 jobs: "
        };
        assert!(
            line.contains(on) && line.ends_with(" s a game on one core"),
            "{line}"
        );
        // Both figures are rounded as printed (0.1 s and 0.01 s).
        assert!(
            (each - wall * busy / 6.0).abs() <= 0.05 * busy / 6.0 + 0.006,
            "{line}"
        );
    }
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
    // Two factions of one home planet cannot meet: refused before any game is played.
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
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("xenos and gleens share"));
}

#[test]
fn bench_reports_every_figure_with_its_target() {
    let out = run(&["bench", "--json", "tests/data/conformance/dev/dev-001.json"]);
    let v: serde_json::Value = serde_json::from_str(&succeeded(&out)).expect("json");
    assert_eq!(v["records"], 1);
    assert_eq!(v["failed_records"], 0);
    let figures = v["figures"].as_array().expect("figures");
    // Load, replay, listing, listing on the hooks path (a ratio), listing with a hooked
    // faction seated (a ratio), clone, apply, apply to a copy given up on error, apply in
    // order to a game of its own, random game: each with its target; and listing as a replay
    // reaches each state, with none.
    assert_eq!(figures.len(), 11);
    for f in figures {
        assert!(f["value"].as_f64().expect("a number") > 0.0, "{f}");
        let in_play = f["name"]
            .as_str()
            .is_some_and(|n| n.contains("as a replay reaches"));
        match in_play {
            true => assert!(f["target"].is_null(), "{f}"),
            false => assert!(f["target"].as_f64().is_some_and(|t| t > 0.0), "{f}"),
        }
    }
    assert_eq!(
        figures.iter().filter(|f| f["target"].is_null()).count(),
        1,
        "only the in-play listing has no target"
    );
    assert!(
        figures.iter().any(|f| f["name"]
            .as_str()
            .is_some_and(|n| n.contains("faction seated"))),
        "the seated figure is reported"
    );
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

/// The records of a test setups folder, sorted by file name, as JSON.
fn setup_records(dir: &Path) -> Vec<serde_json::Value> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("setups folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| serde_json::from_str(&std::fs::read_to_string(f).expect("read")).expect("json"))
        .collect()
}

/// The logs a study wrote, sorted, as JSON.
fn logs_of(dir: &Path) -> Vec<(PathBuf, serde_json::Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("logs written")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let v =
                serde_json::from_str(&std::fs::read_to_string(&f).expect("read")).expect("json");
            (f, v)
        })
        .collect()
}

/// Game i of a study with `--setups` is played on the i-th record (cycled): its log starts with
/// that record's `init` line and keeps its seed, options and tiles, stores the platform's
/// variant in its stack, and replays to its own final scores (with the board variant its options name).
#[test]
fn a_study_on_recorded_setups_plays_each_record_in_turn() {
    let dir = scratch("setups");
    let setups = repo().join("tools/tests/data/setups/3p");
    let records = setup_records(&setups);
    assert_eq!(records.len(), 3);
    let logs = dir.join("logs");
    let out = run(&[
        "simulate",
        "--setups",
        setups.to_str().expect("path"),
        "--games",
        "4",
        "--bots",
        "random,greedy",
        "--jobs",
        "1",
        "--logs",
        logs.to_str().expect("path"),
    ]);
    let text = succeeded(&out);
    assert!(text.contains("4 games"), "{text}");
    let logs = logs_of(&logs);
    assert_eq!(logs.len(), 4);
    for (i, (path, log)) in logs.iter().enumerate() {
        let rec = &records[i % records.len()];
        assert_eq!(log["moves"][0], rec["moves"][0], "{}", path.display());
        assert_eq!(log["seed"], rec["seed"]);
        assert_eq!(log["options"], rec["options"]);
        assert_eq!(log["players"], 3);
        for key in ["boosters", "round_scoring", "final_scoring", "techs"] {
            assert_eq!(log["setup"][key], rec["setup"][key], "{key}");
        }
        let stored: Vec<&str> = log["content"]["variants"]
            .as_array()
            .expect("the log stores its stack")
            .iter()
            .map(|v| v["name"].as_str().expect("a variant's name"))
            .collect();
        assert_eq!(stored, ["boardgamers"], "{}", path.display());
        let want: String = log["final"]
            .as_array()
            .expect("final scores")
            .iter()
            .map(|s| format!("{} {}\n", s["faction"].as_str().expect("id"), s["vp"]))
            .collect();
        let replayed = run(&["replay", path.to_str().expect("path")]);
        assert_eq!(succeeded(&replayed), want, "{}", path.display());
        // The beta record's options bring its boards, as `replay` finds them.
        let stack = String::from_utf8_lossy(&replayed.stderr).into_owned();
        let beta = rec["options"]["factionVariant"] == "beta";
        assert_eq!(stack.contains("beta-2"), beta, "{stack}");
    }
}

/// Logs are written as the recording platform writes them: `endturn` closes a turn that took
/// an action, and no other line (a faction, a starting placement or booster, income, a charge
/// or its refusal, a pass).
#[test]
fn logs_write_endturn_only_after_an_action() {
    let dir = scratch("endturn");
    let setups = repo().join("tools/tests/data/setups/3p");
    let logs = dir.join("logs");
    succeeded(&run(&[
        "simulate",
        "--setups",
        setups.to_str().expect("path"),
        "--games",
        "3",
        "--bots",
        "random,greedy,best",
        "--factions",
        "terrans,taklons,nevlas,hadsch-hallas",
        "--jobs",
        "1",
        "--logs",
        logs.to_str().expect("path"),
    ]));
    let (mut with, mut without) = (0, 0);
    let mut verbs = std::collections::BTreeSet::new();
    for (path, log) in logs_of(&logs) {
        for line in log["moves"].as_array().expect("moves").iter().skip(1) {
            let line = line.as_str().expect("text");
            let parts: Vec<&str> = line.split(". ").collect();
            let first = parts[0].split_whitespace().nth(1).unwrap_or_default();
            let verbs_of: Vec<&str> = parts
                .iter()
                .enumerate()
                .map(|(i, p)| p.split_whitespace().nth(usize::from(i == 0)).unwrap_or(""))
                .collect();
            let ends = line.ends_with(". endturn");
            let no_end = ["faction", "booster", "income", "charge", "decline"].contains(&first)
                || verbs_of.contains(&"pass");
            let action = verbs_of
                .iter()
                .any(|v| ["action", "special", "federation", "up", "upgrade"].contains(v));
            if no_end {
                assert!(!ends, "{}: {line}", path.display());
            }
            if action && !verbs_of.contains(&"pass") {
                assert!(ends, "{}: {line}", path.display());
            }
            assert!(!line.contains("endturn. "), "{line}");
            verbs.insert(first.to_string());
            if ends {
                with += 1;
            } else {
                without += 1;
            }
        }
    }
    assert!(with > 20 && without > 20, "{with} with, {without} without");
    // A seat's income (and an answer within it or after a charge) is one line: the same seat
    // never writes two income lines in a row, nor an answer alone after its income or charge.
    for (path, log) in logs_of(&logs) {
        let moves: Vec<&str> = log["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .filter_map(|m| m.as_str())
            .collect();
        for pair in moves.windows(2) {
            let words = |l: &str| -> (String, String) {
                let mut w = l.split_whitespace();
                let actor = w.next().unwrap_or_default().to_string();
                (actor, w.next().unwrap_or_default().to_string())
            };
            let ((a1, v1), (a2, v2)) = (words(pair[0]), words(pair[1]));
            if a1 != a2 {
                continue;
            }
            let split_income = v1 == "income" && v2 == "income";
            let lone_answer = ["income", "charge"].contains(&v1.as_str()) && v2 == "brainstone";
            assert!(
                !split_income && !lone_answer,
                "{}: {pair:?}",
                path.display()
            );
        }
    }
    for v in ["faction", "booster", "pass", "charge", "build"] {
        assert!(verbs.contains(v), "no `{v}` line in {verbs:?}");
    }
}

/// `--setups` problems: a missing folder, records of two player counts, or `--players` that
/// contradicts the records are usage errors (exit 2); a record that cannot be read exits 1.
#[test]
fn bad_setups_are_refused_before_the_study() {
    let data = repo().join("tools/tests/data/setups");
    let mixed = data.join("mixed").display().to_string();
    let three = data.join("3p").display().to_string();
    for args in [
        &["simulate", "--games", "1", "--setups", "/no/such/folder"][..],
        &["simulate", "--games", "1", "--setups", &mixed],
        &[
            "simulate",
            "--games",
            "1",
            "--setups",
            &three,
            "--players",
            "2",
        ],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("error:"));
    }
    let dir = scratch("bad-setups");
    std::fs::write(dir.join("broken.json"), "{\"players\": 3, \"moves\": 5}").expect("write");
    let out = run(&[
        "simulate",
        "--games",
        "1",
        "--setups",
        dir.to_str().expect("path"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("broken.json") && err.contains("not a record"),
        "{err}"
    );
}

/// Factions that would meet in one game with the same home planet (or one faction twice) are
/// refused before the study plays: exit 2, nothing played.
#[test]
fn factions_sharing_a_home_planet_are_refused_before_the_study() {
    // Terrans and Lantids share a home planet; with three factions over two seats the
    // rotation seats them together in the third game only.
    for list in ["terrans,lantids", "terrans,ivits,lantids", "ivits,ivits"] {
        let out = run(&["simulate", "--games", "3", "--factions", list]);
        assert_eq!(out.status.code(), Some(2), "{list}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("error: --factions"), "{err}");
        assert!(out.stdout.is_empty(), "nothing is played for {list}");
    }
    // Two of the same home planet in a list whose rotation never seats them together
    // (terrans-ivits, ivits-lantids, lantids-gleens, gleens-terrans) are played.
    let out = run(&[
        "simulate",
        "--games",
        "4",
        "--factions",
        "terrans,ivits,lantids,gleens",
        "--players",
        "2",
        "--jobs",
        "1",
    ]);
    succeeded(&out);
    succeeded(&run(&[
        "simulate",
        "--games",
        "2",
        "--factions",
        "terrans,ivits",
        "--jobs",
        "1",
    ]));
}

/// A two-player study of `games` games of the example faction (its hooks) against the Terrans.
fn example_study<'a>(games: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "simulate",
        "--games",
        games,
        "--players",
        "2",
        "--factions",
        "cartographers,terrans",
        "--variant",
        "content/examples/cartographers",
        "--jobs",
        "1",
    ];
    args.extend_from_slice(more);
    args
}

/// A study whose games fail says how many failed and why, exits 1, and prints no empty tables.
/// (Valid content can no longer break an invariant — negative amounts and numbers beyond the
/// caps are refused when content loads — so the invariants themselves are tested on the
/// made-up game in `orrery_gp::game::invariants`; here every game fails on its hook budget.)
#[test]
fn a_study_of_failed_games_says_how_many_failed_and_why() {
    let out = run(&example_study("3", &["--hook-budget", "10"]));
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("0 games in"), "{text}");
    assert!(
        text.contains("3 of 3 games failed (not counted above)"),
        "{text}"
    );
    assert!(text.contains("  game 0: "), "{text}");
    assert!(
        !text.contains("mean VP by source"),
        "no empty tables: {text}"
    );
    assert!(
        !text.contains("0.0–100.0%"),
        "no meaningless intervals: {text}"
    );
}

#[test]
fn a_game_over_its_hook_budget_fails_with_that_reason() {
    // Within the default budget the example's games end.
    succeeded(&run(&example_study("2", &[])));
    // With a budget of 10 operations the hooks stop at once and every game fails, saying so.
    let out = run(&example_study("2", &["--hook-budget", "10"]));
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("game 0: ") && text.contains("used their budget of 10 operations"),
        "{text}"
    );
}
