//! The committed `schemas/` are exactly what the content types generate, and every content
//! file points its editor at the right one.

mod common;

use orrery_gp::content::schema;
use pretty_assertions::assert_eq;

#[test]
fn committed_schemas_match_the_code() {
    let dir = common::root().join("schemas");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("schemas/ exists")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    let mut expected: Vec<String> = schema::all().iter().map(|(n, _)| n.to_string()).collect();
    expected.sort();
    assert_eq!(
        names, expected,
        "schemas/ holds exactly the generated files; run `cargo run -- schema --out schemas`"
    );
    for (name, s) in schema::all() {
        let committed = std::fs::read_to_string(dir.join(name)).expect("schema readable");
        assert_eq!(
            committed,
            schema::render(&s),
            "schemas/{name} is stale; run `cargo run -- schema --out schemas`"
        );
    }
}

#[test]
fn every_content_file_names_its_schema() {
    let files = common::base_files();
    for (rel, text) in &files.files {
        if !rel.ends_with(".yaml") {
            continue;
        }
        let first = text.lines().next().unwrap_or_default();
        let depth = rel.matches('/').count() + 2;
        let schema_name = if rel.starts_with("factions/") {
            "faction".to_string()
        } else {
            rel.trim_end_matches(".yaml").to_string()
        };
        let expected = format!(
            "# yaml-language-server: $schema={}schemas/{schema_name}.json",
            "../".repeat(depth)
        );
        assert_eq!(first, expected, "first line of content/base/{rel}");
    }
}

#[test]
fn vscode_settings_map_every_schema() {
    let text = std::fs::read_to_string(common::root().join(".vscode/settings.json"))
        .expect(".vscode/settings.json exists");
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let map = v["yaml.schemas"].as_object().expect("yaml.schemas mapping");
    for (name, _) in schema::all() {
        assert!(
            map.keys().any(|k| k.ends_with(&format!("schemas/{name}"))),
            "{name} is mapped in .vscode/settings.json"
        );
    }
}
