//! Schemas that know the content's ids (`orrery schema --ids`, `orrery init`): the base game
//! passes them, and a misspelt id is flagged by the schema alone.

mod common;

use orrery_core::diagnostics::{SchemaCheck, SourceDoc};
use orrery_gp::content::{id_schema, ContentFiles};

fn schema(name: &str) -> serde_json::Value {
    let c = common::base();
    id_schema::all_with_ids(&c)
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| s)
        .expect("schema exists")
}

fn doc(rel: &str) -> serde_json::Value {
    let files = common::base_files();
    let text = files.read(rel).expect("file");
    SourceDoc::parse(rel, &text).expect("YAML").value().clone()
}

#[test]
fn the_base_game_passes_its_own_id_schemas() {
    let files = common::base_files();
    for rel in files.list().into_iter().filter(|f| f.ends_with(".yaml")) {
        let name = if rel.starts_with("factions/") {
            "faction.json".to_string()
        } else {
            rel.replace(".yaml", ".json")
        };
        let check = SchemaCheck::new(&schema(&name)).expect("a valid schema");
        let errors = check.errors(&doc(&rel));
        assert!(errors.is_empty(), "{rel}: {errors:?}");
    }
}

#[test]
fn a_misspelt_id_is_flagged_by_the_schema() {
    let check = SchemaCheck::new(&schema("faction.json")).unwrap();
    let mut terrans = doc("factions/terrans.yaml");
    terrans["home"] = serde_json::json!("oxyde");
    let errors = check.errors(&terrans);
    assert!(errors.iter().any(|e| e.pointer == "/home"), "{errors:?}");
    // The plain schema accepts it (only the loader's reference check would catch it).
    let plain = SchemaCheck::new(&orrery_gp::content::schema::schema_of::<
        orrery_gp::content::Faction,
    >())
    .unwrap();
    assert!(plain.errors(&terrans).is_empty());
    // A bundle with an unknown resource code.
    let board_check = SchemaCheck::new(&schema("board.json")).unwrap();
    let mut board = doc("board.yaml");
    board["start"]["cr"] = serde_json::json!(1);
    assert!(!board_check.errors(&board).is_empty());
}

#[test]
fn overlay_set_values_are_typed_by_kind_and_path() {
    let overlay = schema("overlay.json");
    let rules = overlay["definitions"]["SetChange"]["allOf"]
        .as_array()
        .expect("typed sets");
    let home = rules
        .iter()
        .find(|r| {
            r["if"]["properties"]["kind"]["const"] == "faction"
                && r["if"]["properties"]["path"]["const"] == "home"
        })
        .expect("faction home is typed");
    let allowed = home["then"]["properties"]["value"]["enum"]
        .as_array()
        .unwrap();
    assert!(allowed.iter().any(|v| v == "terra"));
    assert!(!allowed.iter().any(|v| v == "oxyde"));
    // Every kind has typed fields.
    for kind in orrery_gp::content::KINDS.addressed() {
        assert!(
            rules
                .iter()
                .any(|r| r["if"]["properties"]["kind"]["const"] == kind.name()),
            "{}",
            kind.name()
        );
    }
}

#[test]
fn overlay_set_values_are_typed_at_nested_paths() {
    // The committed schema and the one knowing ids both type paths below an item's fields.
    for overlay in [
        schema("overlay.json"),
        orrery_gp::content::schema::all()
            .into_iter()
            .find(|(n, _)| *n == "overlay.json")
            .expect("overlay schema")
            .1,
    ] {
        let rules = overlay["definitions"]["SetChange"]["allOf"]
            .as_array()
            .expect("typed sets");
        let rule = |kind: &str, pattern: &str| {
            rules
                .iter()
                .find(|r| {
                    r["if"]["properties"]["kind"]["const"] == kind
                        && r["if"]["properties"]["path"]["pattern"] == pattern
                })
                .unwrap_or_else(|| panic!("{kind} {pattern} is typed"))["then"]["properties"]
                ["value"]
                .clone()
        };
        assert_eq!(
            rule("board", r"^income\.[^.]+$")["$ref"],
            "board.json#/definitions/Effect"
        );
        assert_eq!(rule("map", r"^layouts\.[^.]+\.players$")["type"], "array");
        assert_eq!(rule("faction", r"^board\.start\.[^.]+$")["type"], "integer");
    }
    // The self-contained form checks an overlay on its own.
    let check = SchemaCheck::new(&orrery_gp::content::schema::overlay_checked()).expect("compiles");
    let ov = |value: serde_json::Value| {
        serde_json::json!({"name": "t", "changes": [
            {"set": {"kind": "faction", "id": "terrans", "path": "abilities.0.income", "value": value}}
        ]})
    };
    assert!(check
        .errors(&ov(serde_json::json!([{"gain": {"c": 1}}])))
        .is_empty());
    let errors = check.errors(&ov(serde_json::json!([{"gian": {"c": 1}}])));
    assert!(
        errors
            .iter()
            .any(|e| e.pointer.starts_with("/changes/0/set/value")),
        "{errors:?}"
    );
}
