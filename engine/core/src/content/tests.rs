//! The content pipeline on a small made-up game: a rules file, a folder of one-item files and
//! a list inside a file, declared once in a table.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::inspect::{self, ItemChange};
use super::kinds::{FileSpec, KindSpec, KindTable, Place};
use super::load::{GameContent, Loaded, OverlaySource};
use super::provenance::Provenance;
use super::typed;
use crate::diagnostics::{Diagnostic, SchemaCheck};
use crate::files::MemFiles;
use crate::schema::of;

/// Game-wide rules.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Rules {
    /// How many rounds.
    rounds: u32,
}

/// One piece, in a file of its own.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Piece {
    /// Its id.
    id: String,
    /// What it costs.
    cost: u32,
}

/// A deck of cards.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Deck {
    /// The cards.
    cards: Vec<Card>,
}

/// One card.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Card {
    /// Its id.
    id: String,
    /// What it is worth.
    value: u32,
}

static FILES: [FileSpec; 3] = [
    FileSpec {
        path: "rules.yaml",
        schema: "rules.json",
        schema_of: of::<Rules>,
    },
    FileSpec {
        path: "pieces/",
        schema: "piece.json",
        schema_of: of::<Piece>,
    },
    FileSpec {
        path: "deck.yaml",
        schema: "deck.json",
        schema_of: of::<Deck>,
    },
];

static KIND_SPECS: [KindSpec; 3] = [
    KindSpec {
        name: "rules",
        doc: "`rules.yaml`.",
        noun: "rules",
        place: Place::File("rules.yaml"),
        id: None,
        addressed: true,
    },
    KindSpec {
        name: "piece",
        doc: "A piece.",
        noun: "piece",
        place: Place::File("pieces/"),
        id: Some("id"),
        addressed: true,
    },
    KindSpec {
        name: "card",
        doc: "A card.",
        noun: "card",
        place: Place::List {
            file: "deck.yaml",
            key: "cards",
        },
        id: Some("id"),
        addressed: true,
    },
];

static TABLE: KindTable = KindTable::new(&FILES, &KIND_SPECS, Some("scripts/"));

/// The made-up game's content.
#[derive(Debug)]
struct Toy {
    rules: Rules,
    pieces: Vec<Piece>,
    deck: Deck,
}

impl GameContent for Toy {
    fn table() -> &'static KindTable {
        &TABLE
    }

    fn decode(loaded: &Loaded, diags: &mut Vec<Diagnostic>) -> Option<Toy> {
        let pieces = loaded.each::<Piece>("pieces/", diags);
        let rules = loaded.single::<Rules>("rules.yaml", diags);
        let deck = loaded.single::<Deck>("deck.yaml", diags);
        Some(Toy {
            rules: rules?,
            pieces: pieces?.into_iter().map(|(_, p)| p).collect(),
            deck: deck?,
        })
    }
}

const BASE: [(&str, &str); 4] = [
    ("rules.yaml", "rounds: 3\n"),
    ("pieces/a.yaml", "id: a\ncost: 1\n"),
    ("pieces/b.yaml", "id: b\ncost: 2\n"),
    (
        "deck.yaml",
        "cards:\n  - {id: c1, value: 1}\n  - {id: c2, value: 2}\n",
    ),
];

fn overlay(text: &str) -> OverlaySource {
    OverlaySource {
        file: "v.yaml".into(),
        text: text.into(),
        scripts: Vec::new(),
        problem: None,
    }
}

fn load(
    files: &[(&str, &str)],
    overlays: &[OverlaySource],
) -> Result<(Toy, Provenance), Vec<String>> {
    Toy::load_with_provenance(&MemFiles::new("", files), overlays)
        .map(|(t, l)| (t, l.into_parts().1))
        .map_err(|ds| ds.iter().map(ToString::to_string).collect())
}

fn kind(name: &str) -> &'static KindSpec {
    TABLE.kind(name).expect("a kind")
}

#[test]
fn content_loads_by_the_table_and_unknown_or_missing_files_are_named() {
    let (toy, _) = load(&BASE, &[]).expect("valid");
    assert_eq!(toy.rules.rounds, 3);
    assert_eq!(toy.pieces.len(), 2);
    assert_eq!(toy.deck.cards[1].value, 2);
    let errors = load(&[BASE[0], BASE[1], ("extra.yaml", "x: 1\n")], &[]).unwrap_err();
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("extra.yaml: not a known content file")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e == "deck.yaml: missing content file"),
        "{errors:?}"
    );
}

#[test]
fn duplicate_ids_are_found_in_lists_and_folders_at_their_line() {
    let files = [
        BASE[0],
        BASE[1],
        ("pieces/again.yaml", "id: a\ncost: 5\n"),
        (
            "deck.yaml",
            "cards:\n  - {id: c1, value: 1}\n  - {id: c1, value: 2}\n",
        ),
    ];
    let errors = load(&files, &[]).unwrap_err();
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("deck.yaml:3:") && e.contains("duplicate card id \"c1\"")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("duplicate piece id \"a\"")),
        "{errors:?}"
    );
}

#[test]
fn overlays_patch_items_of_every_place_and_keep_their_lines() {
    let ov = overlay(
        "name: v\nchanges:\n  - set: {kind: card, id: c2, path: value, value: 7}\n  - add: {kind: piece, value: {id: z, cost: 9}}\n  - remove: {kind: card, id: c1}\n  - set: {kind: rules, path: rounds, value: 5}\n",
    );
    let (toy, prov) = load(&BASE, &[ov]).expect("valid");
    assert_eq!(toy.rules.rounds, 5);
    assert_eq!(toy.deck.cards.len(), 1);
    assert_eq!(
        (toy.deck.cards[0].id.as_str(), toy.deck.cards[0].value),
        ("c2", 7)
    );
    assert_eq!((toy.pieces[2].id.as_str(), toy.pieces[2].cost), ("z", 9));
    let origin = prov
        .origin(kind("card"), Some("c2"), "value")
        .expect("origin");
    assert_eq!(origin.to_string(), "v.yaml:3:51");
    assert_eq!(
        prov.ids(kind("piece")),
        vec![
            Some("a".to_string()),
            Some("b".to_string()),
            Some("z".to_string())
        ]
    );
    // explain and diff read the same trees.
    let fields = inspect::explain(&prov, kind("card"), Some("c2")).expect("an item");
    assert_eq!(
        fields.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(),
        ["id", "value"]
    );
    let (_, base) = load(&BASE, &[]).expect("valid");
    let diffs = inspect::diff(&prov, &base);
    let names: Vec<(&str, Option<&str>)> = diffs
        .iter()
        .map(|d| (d.kind.name, d.id.as_deref()))
        .collect();
    assert_eq!(
        names,
        [
            ("rules", None),
            ("piece", Some("z")),
            ("card", Some("c2")),
            ("card", Some("c1"))
        ]
    );
    assert!(matches!(diffs[3].change, ItemChange::Removed(_)));
}

#[test]
fn bad_changes_are_refused_at_the_overlay_line_and_the_rest_applied() {
    let ov = overlay(
        "name: v\nchanges:\n  - set: {kind: card, id: c2, path: value, value: many}\n  - replace: {kind: card, id: c1, value: {id: c9, value: 1}}\n  - add: {kind: rules, value: {rounds: 1}}\n  - set: {kind: card, id: c1, path: value, value: 4}\n",
    );
    let errors = load(&BASE, &[ov]).unwrap_err();
    assert!(
        errors.iter().any(|e| e.starts_with("v.yaml:3:")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("v.yaml:4:") && e.contains("differs from the replaced card's")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("a rules cannot be added")),
        "{errors:?}"
    );
    assert_eq!(errors.len(), 3, "{errors:?}");
    // A kind the table does not have is refused by the overlay schema.
    let unknown = load(
        &BASE,
        &[overlay(
            "name: v\nchanges:\n  - remove: {kind: spell, id: x}\n",
        )],
    )
    .unwrap_err();
    assert!(
        unknown.iter().any(|e| e.starts_with("v.yaml:3:")),
        "{unknown:?}"
    );
}

#[test]
fn the_overlay_schema_types_values_by_kind_and_refuses_unknown_paths() {
    let schemas = typed::all(&TABLE);
    let names: Vec<&str> = schemas.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        ["rules.json", "piece.json", "deck.json", "overlay.json"]
    );
    let check =
        SchemaCheck::with_siblings(&schemas[3].1, "overlay.json", &schemas).expect("compiles");
    let errors =
        |changes: serde_json::Value| check.errors(&json!({"name": "t", "changes": changes}));
    assert!(
        errors(json!([{"set": {"kind": "card", "id": "c1", "path": "value", "value": 3}}]))
            .is_empty()
    );
    assert!(
        !errors(json!([{"set": {"kind": "card", "id": "c1", "path": "value", "value": "x"}}]))
            .is_empty()
    );
    assert!(
        !errors(json!([{"set": {"kind": "card", "id": "c1", "path": "valeu", "value": 3}}]))
            .is_empty()
    );
    assert!(
        !errors(json!([{"set": {"kind": "piece", "id": "a", "path": "rounds", "value": 3}}]))
            .is_empty()
    );
    assert!(
        errors(json!([{"add": {"kind": "piece", "value": {"id": "n", "cost": 1}}}])).is_empty()
    );
    assert!(
        !errors(json!([{"add": {"kind": "piece", "value": {"id": "n", "cost": -1}}}])).is_empty()
    );
    assert!(
        !errors(json!([{"replace": {"kind": "card", "id": "c1", "value": {"id": "c1"}}}]))
            .is_empty()
    );
    // Target ids, when known.
    let known = typed::with_target_ids(schemas[3].1.clone(), &[("card", vec!["c1".into()])]);
    let check = SchemaCheck::with_siblings(&known, "overlay.json", &schemas).expect("compiles");
    let set = |id: &str| {
        check.errors(&json!({"name": "t", "changes": [{"set": {"kind": "card", "id": id, "path": "value", "value": 1}}]}))
    };
    assert!(set("c1").is_empty());
    assert!(!set("c7").is_empty());
}

#[test]
fn numbers_beyond_a_games_limit_or_fractional_are_refused_at_their_line() {
    use crate::diagnostics::SourceDoc;
    use crate::located::LNode;
    let text = "rounds: 3\nlist:\n  - 5\n  - -101\nnested: {a/b: 100, c/d: 101}\n";
    let doc = SourceDoc::parse("rules.yaml", text).expect("parses");
    let tree = LNode::from_doc(&doc, &"rules.yaml".into());
    let mut diags = Vec::new();
    super::load::numbers_within(&tree, "", 100, &mut diags);
    let shown: Vec<String> = diags.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert!(
        shown[0].starts_with("rules.yaml:4:")
            && shown[0].contains("-101 is out of range")
            && shown[0].contains("/list/1"),
        "{shown:?}"
    );
    assert!(
        shown[1].starts_with("rules.yaml:5:") && shown[1].contains("/nested/c~1d"),
        "{shown:?}"
    );
}

/// Loads `files` compared with the known-good copy `known` (base files and overlay texts):
/// whether the content was taken as known good, or every problem.
fn load_trusting(
    files: &[(&str, &str)],
    known: &[(&str, &str)],
    known_overlays: &[&str],
    overlays: &[OverlaySource],
) -> Result<bool, Vec<String>> {
    use super::known::{KnownGood, Trusting};
    use std::sync::Arc;
    let known = KnownGood {
        files: known
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect(),
        overlays: known_overlays
            .iter()
            .map(|t| (t.to_string(), Vec::new()))
            .collect(),
    };
    let trusting = Trusting::new(Box::new(MemFiles::new("", files)), Arc::new(known));
    Toy::load_with_provenance(&trusting, overlays)
        .map(|(_, loaded)| {
            let flag = loaded.known_good;
            assert_eq!(loaded.into_parts().1.known_good(), flag);
            flag
        })
        .map_err(|ds| ds.iter().map(ToString::to_string).collect())
}

#[test]
fn a_known_good_copy_skips_its_schema_checks_and_anything_else_is_checked_in_full() {
    const OV: &str = "name: v\nchanges:\n  - set: {kind: rules, path: rounds, value: 5}\n";
    const OTHER: &str = "name: w\nchanges:\n  - set: {kind: card, id: c1, path: value, value: 4}\n";
    // The copy itself, alone or under one of its overlays: known good.
    assert_eq!(load_trusting(&BASE, &BASE, &[OV], &[]), Ok(true));
    assert_eq!(load_trusting(&BASE, &BASE, &[OV], &[overlay(OV)]), Ok(true));
    // Without a copy, under an overlay it does not have, under two overlays (a combination
    // no test loaded), or with a file changed, added or missing: every check.
    let plain = Toy::load_with_provenance(&MemFiles::new("", &BASE), &[]).expect("valid");
    assert!(!plain.1.known_good);
    assert_eq!(
        load_trusting(&BASE, &BASE, &[OV], &[overlay(OTHER)]),
        Ok(false)
    );
    assert_eq!(
        load_trusting(&BASE, &BASE, &[OV, OTHER], &[overlay(OV), overlay(OTHER)]),
        Ok(false)
    );
    let changed = [("rules.yaml", "rounds: 4\n"), BASE[1], BASE[2], BASE[3]];
    assert_eq!(load_trusting(&changed, &BASE, &[], &[]), Ok(false));
    let added = [
        BASE[0],
        BASE[1],
        BASE[2],
        BASE[3],
        ("pieces/c.yaml", "id: c\ncost: 3\n"),
    ];
    assert_eq!(load_trusting(&added, &BASE, &[], &[]), Ok(false));
    let missing = [BASE[0], BASE[1], BASE[3]];
    assert_eq!(load_trusting(&missing, &BASE, &[], &[]), Ok(false));
    // An edited copy is still checked in full: a schema error at its file, line and field.
    let bad = [
        ("rules.yaml", "rounds: 3\ncolour: red\n"),
        BASE[1],
        BASE[2],
        BASE[3],
    ];
    let full = load_trusting(&bad, &BASE, &[], &[]).unwrap_err();
    assert!(
        full.iter().any(
            |e| e.starts_with("rules.yaml:2:1: unknown field \"colour\"")
                && e.ends_with("(at /colour)")
        ),
        "{full:?}"
    );
    // The checks really are skipped on a known-good copy: the same file taken as known good
    // is refused only by decoding, without the schema's position and field.
    let skipped = load_trusting(&bad, &bad, &[], &[]).unwrap_err();
    assert!(
        !skipped.iter().any(|e| e.contains("(at /colour)")),
        "{skipped:?}"
    );
    assert!(skipped.iter().any(|e| e.contains("colour")), "{skipped:?}");
    // An overlay's own checks are skipped when it is known: a mistyped value it sets is then
    // left to decoding too.
    const MISTYPED: &str = "name: v\nchanges:\n  - set: {kind: rules, path: rounds, value: many}\n";
    let checked = load_trusting(&BASE, &BASE, &[], &[overlay(MISTYPED)]).unwrap_err();
    assert!(
        checked.iter().any(|e| e.starts_with("v.yaml:3:")),
        "{checked:?}"
    );
    let trusted = load_trusting(&BASE, &BASE, &[MISTYPED], &[overlay(MISTYPED)]).unwrap_err();
    assert!(
        !trusted.iter().any(|e| e.starts_with("v.yaml:3:")),
        "{trusted:?}"
    );
}
