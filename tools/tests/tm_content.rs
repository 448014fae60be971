//! Terraforming Mars content on the core's pipeline, through the command line: the example
//! errata overlay (`content/terraforming-mars/variants/errata.yaml`) validates, `explain` shows
//! its lines as origins, `diff` lists what it changes, a mistyped change is refused at its
//! line, `init` writes a designer's folder, and studies and recorded games still run.

mod common;

use common::{run, scratch, succeeded};
use std::fs;
use std::process::Output;

const ERRATA: &str = "content/terraforming-mars/variants/errata.yaml";
const TM: [&str; 2] = ["--game", "terraforming-mars"];

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `orrery COMMAND --game terraforming-mars REST` in the repository (the game before the
/// rest, which may end with `diff`'s `--against` options).
fn tm(args: &[&str]) -> Output {
    let mut all = args[..1].to_vec();
    all.extend(TM);
    all.extend(&args[1..]);
    run(&all)
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&succeeded(out)).expect("JSON output")
}

/// The 1-based line of the first line of `file` (in the repository) containing `needle`.
fn line_of(file: &str, needle: &str) -> usize {
    let text = fs::read_to_string(common::repo().join(file)).expect("readable");
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle} not in {file}"))
        + 1
}

#[test]
fn the_example_errata_validates() {
    let text = succeeded(&tm(&["validate", "--variant", ERRATA]));
    assert!(
        text.starts_with("terraforming-mars: 63 map spaces") && text.contains("208 projects"),
        "{text}"
    );
}

#[test]
fn explain_names_the_line_each_field_comes_from() {
    let comet = line_of(ERRATA, "id: Comet");
    let base = succeeded(&tm(&["explain", "project", "Comet"]));
    let cost = base
        .lines()
        .find(|l| l.starts_with("cost = 21"))
        .unwrap_or_else(|| panic!("{base}"));
    let at = format!(
        "content/terraforming-mars/projects.yaml:{}:",
        line_of("content/terraforming-mars/projects.yaml", "name: Comet") + 2
    );
    assert!(cost.contains(&at), "{cost} (expected {at})");
    let changed = succeeded(&tm(&["explain", "project", "Comet", "--variant", ERRATA]));
    let cost = changed
        .lines()
        .find(|l| l.starts_with("cost = 23"))
        .unwrap_or_else(|| panic!("{changed}"));
    assert!(cost.contains(&format!("errata.yaml:{comet}:")), "{cost}");
    // Fields the errata leaves alone keep their base line.
    assert!(changed
        .lines()
        .any(|l| l.starts_with("type = event") && l.contains("projects.yaml:")));
    // JSON: the milestone's threshold, at the errata's line.
    let out = json(&tm(&[
        "explain",
        "milestone",
        "Gardener",
        "--json",
        "--variant",
        ERRATA,
    ]));
    let field = out["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .find(|f| f["path"] == "at_least")
        .expect("at_least");
    assert_eq!(field["value"], 4);
    assert_eq!(
        field["origin"]["line"].as_u64(),
        Some(line_of(ERRATA, "id: Gardener") as u64)
    );
    assert_eq!(out["kind"], "milestone");
}

#[test]
fn explain_refuses_unknown_kinds_and_ids() {
    // A kind of the other game: a usage error naming this game's kinds.
    let out = tm(&["explain", "faction", "terrans"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("unknown kind \"faction\" for terraforming-mars")
            && stderr(&out).contains("corporation, project"),
        "{}",
        stderr(&out)
    );
    // An unknown card: exit 1 with the known ones.
    let out = tm(&["explain", "project", "Comett"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no project with id \"Comett\"; known: "));
    assert!(stderr(&out).contains("Comet,"), "{}", stderr(&out));
    // A single item takes no id.
    assert_eq!(tm(&["explain", "rules", "x"]).status.code(), Some(1));
    let rules = succeeded(&tm(&["explain", "rules"]));
    assert!(rules.starts_with("# rules\n"), "{rules}");
}

#[test]
fn diff_lists_what_the_errata_changes() {
    let text = succeeded(&tm(&["diff", "--variant", ERRATA, "--against"]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with('~')).count(),
        3,
        "{text}"
    );
    assert!(text.contains(
        "~ project Comet\n    cost: 21 -> 23  (content/terraforming-mars/projects.yaml:"
    ));
    assert!(text.contains("~ project Colonizer Training Camp\n    vp: 2 -> 1"));
    assert!(text.contains("~ milestone Gardener\n    at_least: 3 -> 4"));
    // The other way round, in JSON: the base's values after the errata's.
    let out = json(&tm(&["diff", "--json", "--against", "--variant", ERRATA]));
    let items = out["items"].as_array().expect("items");
    assert_eq!(items.len(), 3, "{out}");
    let comet = items
        .iter()
        .find(|i| i["id"] == "Comet")
        .expect("Comet changed");
    assert_eq!(comet["kind"], "project");
    assert_eq!(comet["fields"][0]["before"]["value"], 23);
    assert_eq!(comet["fields"][0]["after"]["value"], 21);
    // A stack against itself: no differences.
    let same = succeeded(&tm(&["diff", "--against"]));
    assert_eq!(same.trim(), "# no differences");
}

#[test]
fn a_mistyped_change_is_refused_at_its_line() {
    let dir = scratch("tm-mistyped");
    let overlay = dir.join("broken.yaml");
    fs::write(
        &overlay,
        "name: broken\nchanges:\n  - set: {kind: project, id: Comet, path: cost, value: cheap}\n  - set: {kind: project, id: Comet, path: coast, value: 3}\n  - remove: {kind: award, id: Nobody}\n",
    )
    .expect("write");
    let shown = overlay.display().to_string();
    let out = tm(&["validate", "--variant", &shown]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    for line in [3, 4, 5] {
        assert!(
            text.contains(&format!("broken.yaml:{line}:")),
            "line {line}: {text}"
        );
    }
    assert!(text.contains("no award with id \"Nobody\""), "{text}");
    // Nothing else: the base files have no problem.
    assert!(!text.contains("projects.yaml:"), "{text}");
}

#[test]
fn init_writes_a_designer_folder_whose_schemas_know_the_ids() {
    let dir = scratch("tm-init").join("mine");
    let out = succeeded(&tm(&["init", dir.to_str().expect("utf-8")]));
    assert!(
        out.contains("orrery validate --game terraforming-mars --variant"),
        "{out}"
    );
    let overlay_schema = || fs::read_to_string(dir.join("schemas/overlay.json")).unwrap();
    assert!(overlay_schema().contains("\"Comet\""));
    assert!(!overlay_schema().contains("Space Elevator Two"));
    for f in ["cards.json", "map.json", "rules.json", "scoring.json"] {
        assert!(dir.join("schemas").join(f).is_file(), "{f}");
    }
    // The starter's modeline resolves, and its examples name real items.
    let starter = dir.join("variants/my-variant.yaml");
    let text = fs::read_to_string(&starter).expect("a starter");
    let target = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# yaml-language-server: $schema="))
        .expect("a modeline");
    assert!(starter.parent().unwrap().join(target).is_file());
    assert!(text.contains("#   - set: {kind: project, id: "), "{text}");
    // A project the designer adds becomes a target the schemas know once validated.
    let added = text.replace(
        "changes: []",
        "changes:\n  - add: {kind: project, value: {name: Space Elevator Two, type: automated, cost: 30, tags: [space], vp: 2}}\n  - set: {kind: project, id: Comet, path: cost, value: 19}",
    );
    fs::write(&starter, added).expect("write");
    let out = common::orrery()
        .current_dir(&dir)
        .args(["validate", "--game", "terraforming-mars", "--variant"])
        .arg(&starter)
        .output()
        .expect("runs");
    succeeded(&out);
    assert!(stderr(&out).contains("refreshed"), "{}", stderr(&out));
    assert!(overlay_schema().contains("Space Elevator Two"));
    // A second init refuses to overwrite the designer's overlay.
    assert_eq!(
        tm(&["init", dir.to_str().expect("utf-8")]).status.code(),
        Some(1)
    );
}

#[test]
fn init_copy_base_validates_as_a_content_folder() {
    let dir = scratch("tm-init-base").join("mine");
    let d = dir.to_str().expect("utf-8");
    succeeded(&tm(&["init", d, "--copy-base"]));
    let rules = fs::read_to_string(dir.join("terraforming-mars/rules.yaml")).expect("copied");
    assert!(rules.starts_with("# yaml-language-server: $schema=../schemas/rules.json\n"));
    let text = succeeded(&tm(&["validate", "--content", d, "--variant", ERRATA]));
    assert!(text.contains("208 projects"), "{text}");
}

#[test]
fn studies_and_records_still_run_on_the_pipeline() {
    let dir = scratch("tm-study");
    let base = dir.join("base.json");
    let errata = dir.join("errata.json");
    for (out, variant) in [(&base, None), (&errata, Some(ERRATA))] {
        let mut args = vec![
            "simulate",
            "--players",
            "2",
            "--bots",
            "random",
            "--games",
            "2",
            "--seed",
            "3",
            "--out",
            out.to_str().expect("utf-8"),
        ];
        args.extend(variant.map(|v| ["--variant", v]).into_iter().flatten());
        succeeded(&tm(&args));
    }
    let read = |p: &std::path::Path| -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(p).expect("a study")).expect("JSON")
    };
    // The errata is part of the study's content identity.
    assert_ne!(
        read(&base)["config"]["content"],
        read(&errata)["config"]["content"]
    );
    let out = run(&[
        "conformance",
        "--content",
        "content/terraforming-mars",
        "tests/data/terraforming-mars/dev-2p-base-01.json.gz",
    ]);
    assert_eq!(succeeded(&out).lines().last(), Some("1/1 games identical"));
}
