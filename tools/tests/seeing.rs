//! Seeing what a change does: `moves --explain`, saved states labelled by resource code (old
//! unlabelled ones still read), and `orrery trace LOG`.

mod common;

use common::{repo, run, scratch, succeeded};

use std::path::{Path, PathBuf};

const RECORD: &str = "tests/data/conformance/dev/dev-001.json";

/// A state saved by `replay --save-state` before resources were labelled (the record above
/// after move 12, on the built-in content).
const UNLABELLED: &str = "tools/tests/data/saved/dev-001-move-12-unlabelled.json";

fn json_of(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("JSON output")
}

fn save(record: &str, until: usize, to: &Path) {
    succeeded(&run(&[
        "replay",
        record,
        "--until",
        &until.to_string(),
        "--save-state",
        to.to_str().expect("utf-8"),
    ]));
}

fn read(path: &Path) -> serde_json::Value {
    json_of(&std::fs::read_to_string(path).expect("read"))
}

#[test]
fn saved_states_label_resources_by_code_and_old_lists_still_load() {
    let dir = scratch("labels");
    let new = dir.join("new.json");
    save(RECORD, 12, &new);
    let saved = read(&new);
    let old = read(&repo().join(UNLABELLED));
    for seat in 0..2 {
        let labelled = &saved["state"]["players"][seat]["resources"];
        let list = old["state"]["players"][seat]["resources"]
            .as_array()
            .expect("the old file lists resources");
        // The codes of rules.resources, in their order in the old list.
        for (i, code) in ["c", "o", "k", "q", "vp"].iter().enumerate() {
            assert_eq!(labelled[*code], list[i], "seat {seat} {code}");
        }
        assert_eq!(labelled.as_object().expect("labelled").len(), 5);
    }
    // Both read, and list the same parts.
    let from_new = succeeded(&run(&["moves", new.to_str().expect("utf-8")]));
    let from_old = succeeded(&run(&["moves", UNLABELLED]));
    assert_eq!(from_new, from_old);
    assert!(
        from_new.starts_with("# ivits to decide; 4 legal parts"),
        "{from_new}"
    );
    // A labelled file naming a code the content lacks is refused (exit 1), saying which.
    let mut bad = saved;
    bad["state"]["players"][1]["resources"]["gold"] = 3.into();
    let bad_file = dir.join("bad.json");
    std::fs::write(&bad_file, bad.to_string()).expect("write");
    let out = run(&["moves", bad_file.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("players[1].resources: `gold` is not a resource"),
        "{err}"
    );
}

#[test]
fn moves_explain_shows_what_each_part_costs_and_gains() {
    let dir = scratch("explain");
    let state = dir.join("s.json");
    // After move 16 of the record the Ivits may build, pass, convert and burn.
    save(RECORD, 16, &state);
    let s = state.to_str().expect("utf-8");
    let plain = succeeded(&run(&["moves", s]));
    let explained = succeeded(&run(&["moves", s, "--explain"]));
    let plain: Vec<&str> = plain.lines().collect();
    let explained: Vec<&str> = explained.lines().collect();
    assert_eq!(plain.len(), explained.len());
    // Each part keeps its line, with its change after `  # `.
    for (p, e) in plain.iter().zip(&explained).skip(1) {
        assert!(e.starts_with(&format!("{p}  # ")), "{p} / {e}");
    }
    assert!(
        explained.contains(&"build ts 1A6  # c -6, o -2, m -1, ts +1"),
        "a trading station's price, the mine it replaces: {explained:?}"
    );
    assert!(
        explained.contains(&"burn 1  # power II -2 III +1"),
        "{explained:?}"
    );
    let v = json_of(&succeeded(&run(&["moves", s, "--explain", "--json"])));
    let parts = v["parts"].as_array().expect("parts");
    // A conversion's change is what its text says it pays and gets: `spend 2o for 2c`.
    let amount = |a: &str| {
        let digits: String = a.chars().take_while(char::is_ascii_digit).collect();
        let n: i64 = digits.parse().expect("a count");
        (n, a[digits.len()..].to_string())
    };
    let mut conversions = 0;
    for p in parts {
        let text = p["text"].as_str().expect("text");
        let words: Vec<&str> = text.split(' ').collect();
        let ["spend", cost, "for", gain] = words[..] else {
            continue;
        };
        let (paid, code) = amount(cost);
        assert_eq!(p["change"]["resources"][&code], -paid, "{p}");
        let (got, code) = amount(gain);
        if code == "t" {
            assert_eq!(
                p["change"]["power"]["I"], got,
                "tokens gained go to area I: {p}"
            );
        } else {
            assert_eq!(p["change"]["resources"][&code], got, "{p}");
        }
        conversions += 1;
    }
    assert_eq!(conversions, 9, "{parts:?}");
    // Without --explain no part carries a change.
    let v = json_of(&succeeded(&run(&["moves", s, "--json"])));
    assert!(v["parts"][0].get("change").is_none());
}

/// A logged study game of the example faction (its hooks: a cost hook, a condition hook, an
/// action's effect hook).
fn hooked_log(dir: &Path) -> PathBuf {
    let logs = dir.join("logs");
    succeeded(&run(&[
        "simulate",
        "--games",
        "1",
        "--players",
        "2",
        "--factions",
        "cartographers,terrans",
        "--variant",
        "content/examples/cartographers",
        "--bots",
        "greedy",
        "--seed",
        "4",
        "--jobs",
        "1",
        "--logs",
        logs.to_str().expect("utf-8"),
    ]));
    logs.join("game-000000.json")
}

#[test]
fn trace_sums_to_the_game_and_names_the_hooks_that_ran() {
    let dir = scratch("trace");
    let log = hooked_log(&dir);
    let l = log.to_str().expect("utf-8");
    let v = json_of(&succeeded(&run(&["trace", l, "--json"])));
    let lines = v["lines"].as_array().expect("lines");
    assert!(v["refused"].is_null());
    // The start and the end, saved; every seat's changes over the lines add up to the end.
    let (start, end) = (dir.join("start.json"), dir.join("end.json"));
    save(l, 0, &start);
    let total = lines.last().expect("lines")["index"]
        .as_u64()
        .expect("index") as usize;
    save(l, total, &end);
    let (start, end) = (read(&start), read(&end));
    for seat in 0..2 {
        for code in ["c", "o", "k", "q", "vp"] {
            let sum: i64 = lines
                .iter()
                .flat_map(|line| line["seats"].as_array().expect("seats"))
                .filter(|s| s["seat"] == seat)
                .filter_map(|s| s["change"]["resources"][code].as_i64())
                .sum();
            let held = |v: &serde_json::Value| {
                v["state"]["players"][seat]["resources"][code]
                    .as_i64()
                    .expect("held")
            };
            assert_eq!(held(&start) + sum, held(&end), "seat {seat} {code}");
        }
    }
    // The hooks that ran, each with what it returned.
    let calls: Vec<&serde_json::Value> = lines
        .iter()
        .flat_map(|line| line["hooks"].as_array().expect("hooks"))
        .collect();
    let of = |f: &str| calls.iter().filter(|c| c["function"] == f).count();
    assert!(
        of("well_travelled") > 0 && of("welcome_discount") > 0,
        "{calls:?}"
    );
    for c in &calls {
        assert_eq!(c["script"], "cartographers.rhai", "{c}");
        assert!(c["times"].as_u64().is_some_and(|n| n >= 1), "{c}");
        if c["function"] == "well_travelled" {
            assert!(c["returned"].is_boolean(), "{c}");
        }
        if c["function"] == "welcome_discount" {
            assert!(c["returned"]["building"].is_object(), "{c}");
            assert_eq!(c["player"], "cartographers", "{c}");
        }
    }
    // The text says the same per line.
    let text = succeeded(&run(&["trace", l]));
    assert!(
        text.contains(
            "hook cartographers.rhai#welcome_discount for cartographers returned {\"building\":"
        ),
        "{text}"
    );
    assert!(
        text.lines().any(|t| t.starts_with("    cartographers: ")),
        "{text}"
    );
    // --until stops the trace; beyond the log it is refused with the range.
    let short = json_of(&succeeded(&run(&["trace", l, "--until", "5", "--json"])));
    assert_eq!(
        short["lines"]
            .as_array()
            .expect("lines")
            .last()
            .expect("a line")["index"],
        5
    );
    let out = run(&["trace", l, "--until", "100000"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is out of range"));
}

#[test]
fn a_trace_ends_at_a_refused_line_saying_why() {
    let dir = scratch("refused");
    let mut record = json_of(&std::fs::read_to_string(repo().join(RECORD)).expect("read"));
    record["moves"][6] = "ivits build PI 0A0".into();
    let log = dir.join("edited.json");
    std::fs::write(&log, record.to_string()).expect("write");
    let out = run(&["trace", log.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\n5 "), "the lines before are traced: {text}");
    assert!(
        text.contains("6 ivits build PI 0A0\n    refused: "),
        "{text}"
    );
    assert!(!text.contains("\n7 "), "{text}");
}

/// The example faction with its cost hook changed to price every mine at 7 credits.
fn dear_mines(dir: &Path) -> PathBuf {
    let variant = dir.join("cartographers");
    common::copy_dir(&repo().join("content/examples/cartographers"), &variant);
    let script = variant.join("cartographers.rhai");
    let text = std::fs::read_to_string(&script).expect("read");
    let changed = text.replacen(
        "    let cost = view.action.cost;\n",
        "    let cost = view.action.cost;\n    if view.action.building == \"m\" {\n        cost.building = #{c: 7};\n        return cost;\n    }\n",
        1,
    );
    assert_ne!(changed, text, "the cost hook is where this test expects it");
    std::fs::write(&script, changed).expect("write");
    variant
}

#[test]
fn explain_and_trace_show_what_a_cost_hook_makes_a_part_cost() {
    let dir = scratch("hooked");
    let variant = dear_mines(&dir);
    let logs = dir.join("logs");
    succeeded(&run(&[
        "simulate",
        "--games",
        "1",
        "--players",
        "2",
        "--factions",
        "cartographers,terrans",
        "--variant",
        variant.to_str().expect("utf-8"),
        "--bots",
        "greedy",
        "--seed",
        "4",
        "--jobs",
        "1",
        "--logs",
        logs.to_str().expect("utf-8"),
    ]));
    let log = logs.join("game-000000.json");
    let l = log.to_str().expect("utf-8");
    let v = json_of(&succeeded(&run(&["trace", l, "--json"])));
    // A mine built in a turn (not a starting one): 7 credits, as the hook said.
    let line = v["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .find(|line| {
            let t = line["line"].as_str().unwrap_or("");
            t.starts_with("cartographers build m ") && t.ends_with(". endturn")
        })
        .expect("the faction builds a mine in a turn");
    let mine = &line["seats"][0];
    assert_eq!(mine["player"], "cartographers", "{line}");
    assert_eq!(mine["change"]["resources"]["c"], -7, "{line}");
    assert_eq!(mine["change"]["buildings"]["m"], 1, "{line}");
    let hook = line["hooks"]
        .as_array()
        .expect("hooks")
        .iter()
        .find(|c| c["function"] == "welcome_discount")
        .expect("the cost hook ran");
    assert_eq!(hook["returned"]["building"], serde_json::json!({"c": 7}));
    // Just before that line, moves --explain prices the same part the same way.
    let index = line["index"].as_u64().expect("index") as usize;
    let state = dir.join("before.json");
    save(l, index - 1, &state);
    let part = line["line"]
        .as_str()
        .expect("text")
        .trim_start_matches("cartographers ")
        .trim_end_matches(". endturn")
        .to_string();
    let moves = json_of(&succeeded(&run(&[
        "moves",
        state.to_str().expect("utf-8"),
        "--explain",
        "--json",
    ])));
    let listed = moves["parts"]
        .as_array()
        .expect("parts")
        .iter()
        .find(|p| p["text"] == part.as_str())
        .unwrap_or_else(|| panic!("{part} is listed: {moves}"));
    assert_eq!(listed["change"]["resources"]["c"], -7, "{listed}");
    // Every mine listed costs 7 credits under the hook.
    for p in moves["parts"].as_array().expect("parts") {
        if p["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("build m "))
        {
            assert_eq!(p["change"]["resources"]["c"], -7, "{p}");
        }
    }
}
