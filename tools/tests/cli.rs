//! The `orrery` command line: exit codes, messages, and where content comes from.

mod common;

use common::{copy_dir, orrery, repo, run_in_repo, scratch, succeeded};

use std::ffi::OsStr;

#[test]
fn validate_prints_counts_for_the_repository_content() {
    let text = succeeded(&run_in_repo(["validate"]));
    assert!(
        text.starts_with("14 factions, 9 tech tiles, 15 advanced tech tiles, 10 boosters"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1);
}

#[test]
fn the_built_in_copy_is_used_outside_the_repository() {
    let dir = scratch("embedded");
    let out = orrery()
        .current_dir(&dir)
        .arg("validate")
        .output()
        .expect("runs");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("14 factions"));
}

#[test]
fn broken_content_exits_one_with_positions() {
    let dir = scratch("broken");
    copy_dir(&repo().join("content"), &dir.join("content"));
    let rules = dir.join("content/base/rules.yaml");
    let text = std::fs::read_to_string(&rules)
        .unwrap()
        .replacen("rounds: 6", "rounds: six", 1);
    std::fs::write(&rules, text).unwrap();
    let out = orrery()
        .args(["validate", "--content"])
        .arg(dir.join("content"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.contains("rules.yaml:"))
        .expect("a rules.yaml problem");
    assert!(
        line.contains("expected integer") && line.ends_with("(at /rounds)"),
        "{line}"
    );
    // The environment variable works too.
    let out = orrery()
        .arg("validate")
        .env("ORRERY_CONTENT", dir.join("content"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn usage_errors_exit_two() {
    let out = orrery()
        .arg("validate")
        .arg("--frobnicate")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let out = run_in_repo(["validate", "--variant", "no-such-variant"]);
    assert_eq!(out.status.code(), Some(2));
    let out = orrery()
        .args(["validate", "--content", "/no/such/dir"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_variant_file_is_stacked_and_checked() {
    let dir = scratch("variant");
    let good = dir.join("good.yaml");
    std::fs::write(
        &good,
        "name: cheaper mines\nchanges:\n  - set: {kind: board, path: buildings.m.cost.c, value: 1}\n",
    )
    .unwrap();
    succeeded(&run_in_repo([
        OsStr::new("validate"),
        OsStr::new("--variant"),
        good.as_os_str(),
    ]));
    let bad = dir.join("bad.yaml");
    std::fs::write(
        &bad,
        "name: broken\nchanges:\n  - set: {kind: board, path: buildings.m.cost, value: cheap}\n",
    )
    .unwrap();
    let out = run_in_repo([
        OsStr::new("validate"),
        OsStr::new("--variant"),
        bad.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("bad.yaml:3:"), "{text}");
}

#[test]
fn schema_writes_every_schema() {
    let dir = scratch("schema");
    let out = orrery()
        .args(["schema", "--out"])
        .arg(&dir)
        .output()
        .expect("runs");
    assert!(out.status.success());
    let n = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(n, 14);
    let committed = std::fs::read_to_string(repo().join("schemas/faction.json")).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join("faction.json")).unwrap(),
        committed
    );
}

#[test]
fn moves_lists_the_legal_parts_of_a_saved_state() {
    let dir = scratch("moves");
    let state = dir.join("state.json");
    let record = repo().join("tests/data/conformance/dev/dev-001.json");
    succeeded(&run_in_repo([
        OsStr::new("replay"),
        record.as_os_str(),
        OsStr::new("--until"),
        OsStr::new("40"),
        OsStr::new("--save-state"),
        state.as_os_str(),
    ]));
    let text = succeeded(&run_in_repo([OsStr::new("moves"), state.as_os_str()]));
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    assert!(
        header.starts_with("# ") && header.contains("legal parts"),
        "{header}"
    );
    let parts: Vec<&str> = lines.collect();
    assert!(!parts.is_empty(), "no parts listed");
    // Every listed part is in the notation (a note on what it names after `  # `).
    for line in &parts {
        let p = line.split("  # ").next().unwrap_or(line);
        orrery_gp::notation::parse_line(&format!("p1 {p}"))
            .unwrap_or_else(|e| panic!("`{p}` is not notation: {e}"));
    }
    let json = succeeded(&run_in_repo([
        OsStr::new("moves"),
        OsStr::new("--json"),
        state.as_os_str(),
    ]));
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let listed = v["parts"].as_array().expect("parts");
    assert_eq!(listed.len(), parts.len());
    assert!(listed
        .iter()
        .all(|p| p["text"].is_string() && !p["command"].is_null()));
    // A file that is not a saved game is refused (exit 1), not a panic.
    std::fs::write(dir.join("bad.json"), "{\"state\": 3}").unwrap();
    let out = orrery()
        .arg("moves")
        .arg(dir.join("bad.json"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
}
