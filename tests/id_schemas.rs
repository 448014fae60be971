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

/// The overlay schema of a set of schemas, compiled with its siblings beside it, the way an
/// editor (yaml-language-server) resolves `faction.json#/definitions/X`.
fn overlay_check(schemas: &[(&'static str, serde_json::Value)]) -> SchemaCheck {
    let overlay = &schemas
        .iter()
        .find(|(n, _)| *n == "overlay.json")
        .expect("overlay schema")
        .1;
    SchemaCheck::with_siblings(overlay, "overlay.json", schemas).expect("compiles")
}

/// The errors of an overlay of these changes.
fn overlay_errors(check: &SchemaCheck, changes: serde_json::Value) -> Vec<String> {
    check
        .errors(&serde_json::json!({"name": "t", "changes": changes}))
        .into_iter()
        .map(|e| format!("{} {}", e.pointer, e.message))
        .collect()
}

fn with_ids() -> Vec<(&'static str, serde_json::Value)> {
    id_schema::all_with_ids(&common::base())
}

#[test]
fn every_overlay_of_the_repository_passes_the_overlay_schemas() {
    let plain = overlay_check(&orrery_gp::content::schema::all());
    let known = overlay_check(&with_ids());
    let mut overlays: Vec<std::path::PathBuf> =
        std::fs::read_dir(common::root().join("content/variants"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
    overlays.push(common::root().join("content/examples/wanderers/overlay.yaml"));
    overlays.push(common::root().join("content/examples/cartographers/overlay.yaml"));
    for path in overlays {
        let text = std::fs::read_to_string(&path).unwrap();
        let value = SourceDoc::parse("o", &text).expect("YAML").value().clone();
        assert!(
            plain.errors(&value).is_empty(),
            "{}: {:?}",
            path.display(),
            plain.errors(&value)
        );
        assert!(
            known.errors(&value).is_empty(),
            "{}: {:?}",
            path.display(),
            known.errors(&value)
        );
    }
}

#[test]
fn overlay_set_values_are_typed_to_the_leaf_and_unknown_paths_refused() {
    for schemas in [orrery_gp::content::schema::all(), with_ids()] {
        let check = overlay_check(&schemas);
        let set = |path: &str, value: serde_json::Value| {
            overlay_errors(
                &check,
                serde_json::json!([{"set": {"kind": "faction", "id": "terrans", "path": path, "value": value}}]),
            )
        };
        // Fields, list elements, effects and the amounts inside them are typed.
        assert_eq!(
            set("board.start.c", serde_json::json!(3)),
            Vec::<String>::new()
        );
        assert!(!set("board.start.c", serde_json::json!("three")).is_empty());
        assert_eq!(
            set("abilities.0.income.0.gain.c", serde_json::json!(1)),
            Vec::<String>::new()
        );
        let wrong = set("abilities.0.income.0.gain.c", serde_json::json!(-1));
        assert!(
            wrong.iter().any(|e| e.starts_with("/changes/0/set/value")),
            "{wrong:?}"
        );
        assert!(!set(
            "abilities.0.income",
            serde_json::json!([{"gian": {"c": 1}}])
        )
        .is_empty());
        // A path no faction has is refused; so is one into another kind's fields.
        let unknown = set("abilities.0.incme", serde_json::json!(1));
        assert!(
            unknown.iter().any(|e| e.starts_with("/changes/0/set/path")),
            "{unknown:?}"
        );
        assert!(!set("charge_distance", serde_json::json!(1)).is_empty());
        let rules = overlay_errors(
            &check,
            serde_json::json!([{"set": {"kind": "rules", "path": "charge_distance", "value": 3}}]),
        );
        assert_eq!(rules, Vec::<String>::new());
    }
}

#[test]
fn added_and_replaced_items_are_checked_like_their_files() {
    let mut newcomers = doc("factions/terrans.yaml");
    newcomers["id"] = serde_json::json!("newcomers");
    for schemas in [orrery_gp::content::schema::all(), with_ids()] {
        let check = overlay_check(&schemas);
        let add = |value: &serde_json::Value| {
            overlay_errors(
                &check,
                serde_json::json!([{"add": {"kind": "faction", "value": value}}]),
            )
        };
        assert_eq!(add(&newcomers), Vec::<String>::new());
        let mut wrong = newcomers.clone();
        wrong["home"] = serde_json::json!(5);
        let errors = add(&wrong);
        assert!(
            errors
                .iter()
                .any(|e| e.starts_with("/changes/0/add/value/home")),
            "{errors:?}"
        );
        let mut misspelt = newcomers.clone();
        misspelt["abilitees"] = serde_json::json!([]);
        assert!(!add(&misspelt).is_empty());
        // A booster replaced by something that is no booster.
        let replace = |value: serde_json::Value| {
            overlay_errors(
                &check,
                serde_json::json!([{"replace": {"kind": "booster", "id": "booster1", "value": value}}]),
            )
        };
        assert_eq!(
            replace(
                serde_json::json!({"id": "booster1", "name": "x", "income": [{"gain": {"c": 2}}]})
            ),
            Vec::<String>::new()
        );
        assert!(
            !replace(serde_json::json!({"id": "booster1", "name": "x", "income": 2})).is_empty()
        );
    }
}

#[test]
fn unknown_ids_in_an_overlay_are_refused_by_the_schemas_knowing_ids() {
    let check = overlay_check(&with_ids());
    let errors = |changes: serde_json::Value| overlay_errors(&check, changes);
    let unknown_target = errors(serde_json::json!([
        {"set": {"kind": "faction", "id": "terans", "path": "name", "value": "x"}}
    ]));
    assert!(
        unknown_target
            .iter()
            .any(|e| e.starts_with("/changes/0/set/id")),
        "{unknown_target:?}"
    );
    let unknown_booster = errors(serde_json::json!([
        {"replace": {"kind": "booster", "id": "booster99", "value": {"id": "booster99", "name": "x"}}}
    ]));
    assert!(
        unknown_booster
            .iter()
            .any(|e| e.starts_with("/changes/0/replace/id")),
        "{unknown_booster:?}"
    );
    assert!(!errors(serde_json::json!([
        {"set": {"kind": "faction", "id": "terrans", "path": "home", "value": "oxyde"}}
    ]))
    .is_empty());
    assert_eq!(
        errors(serde_json::json!([
            {"set": {"kind": "faction", "id": "terrans", "path": "home", "value": "terra"}},
            {"remove": {"kind": "booster", "id": "booster10"}}
        ])),
        Vec::<String>::new()
    );
    // The committed schema knows no content's ids: it leaves ids open.
    let plain = overlay_check(&orrery_gp::content::schema::all());
    assert!(overlay_errors(
        &plain,
        serde_json::json!([{"set": {"kind": "faction", "id": "terans", "path": "name", "value": "x"}}])
    )
    .is_empty());
}

#[test]
fn the_self_contained_overlay_check_types_values() {
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
