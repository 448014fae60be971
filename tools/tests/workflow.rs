//! The designer's commands: the content stack stated and saved, `explain` and `diff`.

mod common;

use common::{copy_dir, orrery, repo, run_in, run_in_repo, scratch};

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Output;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn succeeded(out: &Output) -> String {
    assert!(out.status.success(), "{}{}", stdout(out), stderr(out));
    stdout(out)
}

const ERRATA: &str = "name: errata\nchanges:\n  - set: {kind: faction, id: terrans, path: board.power.0, value: 5}\n  - set: {kind: rules, path: rounds, value: 6}\n";

fn errata(dir: &Path) -> PathBuf {
    let f = dir.join("errata.yaml");
    std::fs::write(&f, ERRATA).expect("write");
    f
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&succeeded(out)).expect("JSON output")
}

const RECORD: &str = "tests/data/conformance/dev/dev-001.json";

#[test]
fn every_command_states_its_content_stack() {
    let out = run_in_repo(["validate"]);
    succeeded(&out);
    let repo_content = repo().join("content").canonicalize().unwrap();
    assert!(
        stderr(&out).contains(&format!("content: folder {}", repo_content.display())),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("variants: none"));
    // Outside the repository, validate says it checks the built-in copy.
    let dir = scratch("outside");
    let out = run_in(&dir, ["validate"]);
    succeeded(&out);
    assert!(
        stderr(&out).contains("the built-in copy"),
        "{}",
        stderr(&out)
    );
    // Replaying a platform record names the platform's variant.
    let out = run_in_repo(["replay", RECORD, "--until", "5"]);
    succeeded(&out);
    assert!(
        stderr(&out).contains("variants: boardgamers ("),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_designer_variant_stacks_on_the_platform_variant() {
    let dir = scratch("stacking");
    let e = errata(&dir);
    let plain = succeeded(&run_in_repo(["replay", RECORD]));
    // An errata that changes nothing this game uses leaves the scores exactly as they were:
    // the platform's variant stays under it.
    let out = run_in_repo([
        OsStr::new("replay"),
        OsStr::new(RECORD),
        OsStr::new("--variant"),
        e.as_os_str(),
    ]);
    assert_eq!(succeeded(&out), plain);
    assert!(
        stderr(&out).contains("variants: boardgamers ("),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("errata.yaml"));
    // Dropping the platform's variant is explicit.
    let out = run_in_repo([
        OsStr::new("replay"),
        OsStr::new(RECORD),
        OsStr::new("--until"),
        OsStr::new("5"),
        OsStr::new("--no-platform-variant"),
        OsStr::new("--variant"),
        e.as_os_str(),
    ]);
    succeeded(&out);
    assert!(!stderr(&out).contains("boardgamers"), "{}", stderr(&out));
}

#[test]
fn a_saved_game_finds_its_content_from_any_folder_or_says_what_is_missing() {
    let dir = scratch("saved");
    let e = errata(&dir);
    let state = dir.join("state.json");
    succeeded(&run_in_repo([
        OsStr::new("replay"),
        OsStr::new(RECORD),
        OsStr::new("--until"),
        OsStr::new("40"),
        OsStr::new("--variant"),
        e.as_os_str(),
        OsStr::new("--save-state"),
        state.as_os_str(),
    ]));
    let in_repo = succeeded(&run_in_repo([OsStr::new("moves"), state.as_os_str()]));
    // From a folder without content, the saved stack is found again.
    let out = run_in(&dir, [OsStr::new("moves"), state.as_os_str()]);
    assert_eq!(succeeded(&out), in_repo);
    assert!(stderr(&out).contains("boardgamers") && stderr(&out).contains("errata.yaml"));
    let listed = json(&run_in(
        &dir,
        [OsStr::new("moves"), OsStr::new("--json"), state.as_os_str()],
    ));
    let names: Vec<&str> = listed["content"]["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2);
    assert_eq!(names[0], "boardgamers");
    // A missing variant file is named.
    std::fs::remove_file(&e).unwrap();
    let out = run_in(&dir, [OsStr::new("moves"), state.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("errata.yaml") && stderr(&out).contains("cannot be found"),
        "{}",
        stderr(&out)
    );
    // A missing content folder is named.
    let copy = dir.join("content");
    copy_dir(&repo().join("content"), &copy);
    let state2 = dir.join("state2.json");
    succeeded(&run_in_repo([
        OsStr::new("replay"),
        OsStr::new(RECORD),
        OsStr::new("--until"),
        OsStr::new("40"),
        OsStr::new("--content"),
        copy.as_os_str(),
        OsStr::new("--save-state"),
        state2.as_os_str(),
    ]));
    std::fs::remove_dir_all(&copy).unwrap();
    let out = run_in(&dir, [OsStr::new("moves"), state2.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&copy.display().to_string()) && stderr(&out).contains("--content"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn explain_gives_each_field_its_origin() {
    let dir = scratch("explain");
    let e = errata(&dir);
    let text = succeeded(&run_in_repo(["explain", "faction", "terrans"]));
    let line = text
        .lines()
        .find(|l| l.starts_with("board.power.0 = 4"))
        .expect(&text);
    assert!(
        line.trim_end()
            .ends_with("content/base/factions/terrans.yaml:8:11"),
        "{line}"
    );
    let text = succeeded(&run_in_repo([
        OsStr::new("explain"),
        OsStr::new("faction"),
        OsStr::new("terrans"),
        OsStr::new("--variant"),
        e.as_os_str(),
    ]));
    let line = text
        .lines()
        .find(|l| l.starts_with("board.power.0 = 5"))
        .expect(&text);
    assert!(line.contains("errata.yaml:3:"), "{line}");
    let out = json(&run_in_repo(["explain", "rules", "--json"]));
    let rounds = out["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "rounds")
        .expect("a rounds field");
    assert_eq!(rounds["value"], 6);
    assert!(rounds["origin"]["file"]
        .as_str()
        .unwrap()
        .ends_with("rules.yaml"));
    assert!(rounds["origin"]["line"].as_u64().unwrap() > 0);
    // Unknown ids are refused with the known ones; unknown kinds are usage errors.
    let out = run_in_repo(["explain", "faction", "earthlings"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("terrans"), "{}", stderr(&out));
    assert_eq!(
        run_in_repo(["explain", "rules", "x"]).status.code(),
        Some(1)
    );
    assert_eq!(
        run_in_repo(["explain", "widget", "x"]).status.code(),
        Some(2)
    );
    let help = succeeded(&run_in_repo(["explain", "--help"]));
    assert!(help.contains("tech_tile") && help.contains("federation_token"));
}

#[test]
fn diff_shows_what_a_variant_changes() {
    let dir = scratch("diff");
    let e = errata(&dir);
    let text = succeeded(&run_in_repo([
        OsStr::new("diff"),
        OsStr::new("--variant"),
        e.as_os_str(),
        OsStr::new("--against"),
    ]));
    assert_eq!(text.lines().next(), Some("~ faction terrans"), "{text}");
    assert!(text.contains("board.power.0: 4 -> 5"), "{text}");
    assert!(
        !text.contains("rounds"),
        "an unchanged value is not a difference: {text}"
    );
    let out = json(&run_in_repo([
        OsStr::new("diff"),
        OsStr::new("--json"),
        OsStr::new("--against"),
        OsStr::new("--variant"),
        e.as_os_str(),
    ]));
    let items = out["items"].as_array().unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["fields"][0]["before"]["value"], 5);
    assert_eq!(items[0]["fields"][0]["after"]["value"], 4);
    assert_eq!(
        out["against"]["variants"][0]["file"]
            .as_str()
            .map(|f| f.ends_with("errata.yaml")),
        Some(true)
    );
    let same = succeeded(&run_in_repo(["diff", "--against"]));
    assert_eq!(same.trim(), "# no differences");
    assert_eq!(
        run_in_repo(["diff", "--against", "--frob"]).status.code(),
        Some(2)
    );
    assert_eq!(run_in_repo(["diff"]).status.code(), Some(2));
}

#[test]
fn explain_and_diff_work_on_every_shipped_variant() {
    let mut names: Vec<String> = std::fs::read_dir(repo().join("content/variants"))
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.strip_suffix(".yaml").map(str::to_string)
        })
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for name in &names {
        succeeded(&run_in_repo(["validate", "--variant", name]));
        let text = succeeded(&run_in_repo(["diff", "--variant", name, "--against"]));
        assert!(
            !text.starts_with("# no differences"),
            "{name} changes nothing"
        );
        // Every field the diff names is explained at the variant's own line.
        let out = json(&run_in_repo([
            "diff",
            "--json",
            "--variant",
            name,
            "--against",
        ]));
        for item in out["items"].as_array().unwrap() {
            let kind = item["kind"].as_str().unwrap();
            let mut args = vec!["explain", "--json", "--variant", name, kind];
            if let Some(id) = item["id"].as_str() {
                args.push(id);
            }
            if item["change"] == "removed" {
                assert_eq!(run_in_repo(&args).status.code(), Some(1));
                continue;
            }
            let explained = json(&run_in_repo(&args));
            for f in item["fields"].as_array().unwrap() {
                if f["after"].is_null() {
                    continue;
                }
                let shown = explained["fields"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|g| g["path"] == f["path"])
                    .unwrap_or_else(|| panic!("{name}: {kind} {} not explained", f["path"]));
                assert_eq!(shown["origin"], f["after"]["origin"]);
                assert!(shown["origin"]["file"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("variants/{name}")));
            }
        }
    }
}

#[test]
fn init_sets_up_a_folder_whose_modelines_resolve_inside_it() {
    let dir = scratch("init").join("mine");
    let out = orrery()
        .current_dir(scratch("init-cwd"))
        .arg("init")
        .arg(&dir)
        .arg("--copy-base")
        .output()
        .expect("runs");
    succeeded(&out);
    assert!(stderr(&out).contains("the built-in copy"));
    // Every YAML file's modeline names a schema file that exists, relative to the file.
    let mut yaml = Vec::new();
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            if e.path().is_dir() {
                walk(&e.path(), out);
            } else if e.path().extension().is_some_and(|x| x == "yaml") {
                out.push(e.path());
            }
        }
    }
    walk(&dir, &mut yaml);
    assert!(yaml.len() > 20, "{yaml:?}");
    for f in &yaml {
        let text = std::fs::read_to_string(f).unwrap();
        let target = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# yaml-language-server: $schema="))
            .unwrap_or_else(|| panic!("{} has no modeline", f.display()));
        let schema = f.parent().unwrap().join(target);
        assert!(schema.is_file(), "{} -> {}", f.display(), schema.display());
    }
    let faction: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("schemas/faction.json")).unwrap())
            .unwrap();
    assert!(faction["properties"]["home"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .any(|v| v == "terra"));
    // The copy and the starting overlay validate together, from anywhere.
    let starter = dir.join("variants/my-variant.yaml");
    succeeded(
        &orrery()
            .current_dir(&dir)
            .args([
                OsStr::new("validate"),
                OsStr::new("--content"),
                dir.as_os_str(),
                OsStr::new("--variant"),
                starter.as_os_str(),
            ])
            .output()
            .expect("runs"),
    );
    // A second init refuses to overwrite the designer's files.
    let again = orrery().arg("init").arg(&dir).output().expect("runs");
    assert_eq!(again.status.code(), Some(1));
}

#[test]
fn init_from_copies_an_overlay_folder_whose_modeline_resolves_there() {
    let dir = scratch("init-from").join("my-faction");
    let example = repo().join("content/examples/cartographers");
    let mut init = vec![OsStr::new("init"), dir.as_os_str(), OsStr::new("--from")];
    init.push(OsStr::new("content/examples/cartographers"));
    succeeded(&run_in_repo(&init));
    let overlay = std::fs::read_to_string(dir.join("overlay.yaml")).expect("overlay copied");
    let target = overlay
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# yaml-language-server: $schema="))
        .expect("a modeline");
    assert!(dir.join(target).is_file(), "{target}");
    // The rest of the overlay, and its script, are copied as they are.
    let original = std::fs::read_to_string(example.join("overlay.yaml")).unwrap();
    assert_eq!(
        overlay.split_once('\n').unwrap().1,
        original.split_once('\n').unwrap().1
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("cartographers.rhai")).expect("script copied"),
        std::fs::read_to_string(example.join("cartographers.rhai")).unwrap()
    );
    assert!(!dir.join("variants").exists());
    let mut validate = vec![OsStr::new("validate"), OsStr::new("--variant")];
    validate.push(dir.as_os_str());
    assert!(succeeded(&run_in_repo(&validate)).contains("15 factions"));
    // Again into the same folder: refused, the designer's copy left as it was.
    std::fs::write(dir.join("overlay.yaml"), "edited").unwrap();
    assert_eq!(run_in_repo(&init).status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(dir.join("overlay.yaml")).unwrap(),
        "edited"
    );
    // A missing overlay folder: a clear refusal, nothing written.
    let fresh = scratch("init-from-missing").join("mine");
    let out = run_in_repo([
        OsStr::new("init"),
        fresh.as_os_str(),
        OsStr::new("--from"),
        OsStr::new("content/examples/no-such-faction"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no-such-faction: no such overlay folder"),
        "{}",
        stderr(&out)
    );
    assert!(!fresh.exists());
}

#[test]
fn diff_compares_scripts_function_by_function() {
    let dir = scratch("diff-scripts");
    let example = common::repo().join("content/examples/cartographers");
    let copy = |name: &str, edit: &dyn Fn(String) -> String| {
        let d = dir.join(name);
        std::fs::create_dir_all(&d).expect("dir");
        for f in ["overlay.yaml", "cartographers.rhai"] {
            let text = std::fs::read_to_string(example.join(f)).expect("example file");
            let text = if f.ends_with(".rhai") {
                edit(text)
            } else {
                text
            };
            std::fs::write(d.join(f), text).expect("write");
        }
        d.join("overlay.yaml")
    };
    let before = copy("a", &|t| t);
    let after = copy("b", &|t| {
        let t = t.replacen(
            "fn survey_income(view) {",
            "fn survey_income(view) {\n    // changed",
            1,
        );
        format!("{t}\nfn spare(view) {{ [] }}\n")
    });
    let text = succeeded(&run_in_repo([
        OsStr::new("diff"),
        OsStr::new("--variant"),
        after.as_os_str(),
        OsStr::new("--against"),
        OsStr::new("--variant"),
        before.as_os_str(),
    ]));
    assert!(text.contains("~ script cartographers.rhai"), "{text}");
    assert!(
        text.contains("    ~ fn survey_income  (line 18 -> line 18)"),
        "{text}"
    );
    assert!(text.contains("    + fn spare  (line "), "{text}");
    assert!(!text.contains("fn chart"), "an unchanged function: {text}");
    assert!(!text.contains("# no differences"), "{text}");
    // Against the base game the script is added; JSON says the same.
    let out = json(&run_in_repo([
        OsStr::new("diff"),
        OsStr::new("--json"),
        OsStr::new("--variant"),
        before.as_os_str(),
        OsStr::new("--against"),
    ]));
    let scripts = out["scripts"].as_array().expect("scripts");
    assert_eq!(scripts.len(), 1, "{out}");
    assert_eq!(scripts[0]["script"], "cartographers.rhai");
    assert_eq!(scripts[0]["change"], "added");
    let out = json(&run_in_repo([
        OsStr::new("diff"),
        OsStr::new("--json"),
        OsStr::new("--against"),
        OsStr::new("--variant"),
        after.as_os_str(),
    ]));
    assert_eq!(out["scripts"][0]["change"], "removed", "{out}");
    let out = json(&run_in_repo([
        OsStr::new("diff"),
        OsStr::new("--json"),
        OsStr::new("--variant"),
        after.as_os_str(),
        OsStr::new("--against"),
        OsStr::new("--variant"),
        before.as_os_str(),
    ]));
    let functions = out["scripts"][0]["functions"]
        .as_array()
        .expect("functions");
    let names: Vec<(&str, &str)> = functions
        .iter()
        .map(|f| (f["name"].as_str().unwrap(), f["change"].as_str().unwrap()))
        .collect();
    assert_eq!(names, [("survey_income", "changed"), ("spare", "added")]);
}

#[test]
fn validate_refreshes_the_schemas_init_wrote_when_the_ids_change() {
    let dir = scratch("init-refresh").join("mine");
    succeeded(&orrery().arg("init").arg(&dir).output().expect("runs"));
    assert!(dir.join("schemas/.written-by-orrery-init").is_file());
    let overlay_schema = || std::fs::read_to_string(dir.join("schemas/overlay.json")).unwrap();
    assert!(!overlay_schema().contains("booster11"));
    // The designer adds a booster to the starting overlay and validates it.
    let starter = dir.join("variants/my-variant.yaml");
    let text = std::fs::read_to_string(&starter).unwrap().replace(
        "changes: []",
        "changes:\n  - add: {kind: booster, value: {id: booster11, name: 5 credits, income: [{gain: {c: 5}}]}}",
    );
    std::fs::write(&starter, text).unwrap();
    let validate = || {
        orrery()
            .current_dir(&dir)
            .arg("validate")
            .arg("--variant")
            .arg(&starter)
            .output()
            .expect("runs")
    };
    let first = validate();
    succeeded(&first);
    assert!(stderr(&first).contains("refreshed"), "{}", stderr(&first));
    // The new id is a target the editor now completes (and a misspelt one is flagged).
    assert!(overlay_schema().contains("booster11"));
    // Nothing changed since: nothing is written again.
    let again = validate();
    succeeded(&again);
    assert!(!stderr(&again).contains("refreshed"), "{}", stderr(&again));
    // Schemas `init` did not write (the repository's own) are never touched.
    let committed = std::fs::read_to_string(repo().join("schemas/overlay.json")).unwrap();
    let repo_run = run_in_repo(["validate", "--variant", "content/variants/beta-0.yaml"]);
    succeeded(&repo_run);
    assert!(!stderr(&repo_run).contains("refreshed"));
    assert_eq!(
        std::fs::read_to_string(repo().join("schemas/overlay.json")).unwrap(),
        committed
    );
}
