//! `inspect`: an item's effective fields with their origins, and differences between content
//! sets, against the base game.

mod common;

use orrery_gp::content::inspect::{self, ItemChange};
use orrery_gp::content::{kind, KINDS};
use orrery_gp::content::{Content, OverlaySource};

fn overlay(text: &str) -> OverlaySource {
    OverlaySource {
        file: "variants/test.yaml".into(),
        text: text.into(),
        scripts: Vec::new(),
        problem: None,
    }
}

fn with(text: &str) -> Content {
    Content::load(&common::base_files(), &[overlay(text)]).expect("valid overlay")
}

#[test]
fn every_field_path_is_an_overlay_path_with_the_same_origin() {
    // The paths `explain` prints are the paths a `set` takes: looking each one up the way an
    // overlay does finds the same node.
    let c = common::base();
    let mut checked = 0;
    for kind in KINDS.addressed() {
        let ids = c.provenance.ids(kind);
        assert!(!ids.is_empty(), "no {} items", kind.name());
        for id in ids {
            let fields = inspect::explain(&c, kind, id.as_deref()).expect("the item exists");
            assert!(!fields.is_empty());
            for f in fields {
                let origin = c.provenance.origin(kind, id.as_deref(), &f.path);
                assert_eq!(
                    origin.as_ref(),
                    Some(&f.origin),
                    "{} {id:?} {}",
                    kind.name(),
                    f.path
                );
                assert!(f.origin.pos.is_some(), "{} has no position", f.path);
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "only {checked} fields");
}

#[test]
fn a_field_set_by_a_variant_is_explained_at_the_variant_line() {
    let c = with(
        "name: t\nchanges:\n  - set: {kind: faction, id: terrans, path: board.power.0, value: 5}\n",
    );
    let fields = inspect::explain(&c, kind("faction").expect("a kind"), Some("terrans")).unwrap();
    let power = fields.iter().find(|f| f.path == "board.power.0").unwrap();
    assert_eq!(power.value, serde_json::json!(5));
    assert_eq!(power.origin.file.as_ref(), "variants/test.yaml");
    assert_eq!(power.origin.pos.map(|p| p.line), Some(3));
    let home = fields.iter().find(|f| f.path == "home").unwrap();
    assert!(home.origin.file.ends_with("factions/terrans.yaml"));
}

#[test]
fn content_does_not_differ_from_itself() {
    assert!(inspect::diff(&common::base(), &common::base()).is_empty());
}

#[test]
fn a_diff_lists_changed_added_and_removed_items_with_both_origins() {
    let changed = with(
        "name: t\nchanges:\n  - set: {kind: faction, id: terrans, path: board.power.0, value: 5}\n  - remove: {kind: booster, id: booster10}\n  - add: {kind: booster, value: {id: booster11, name: Nine credits, income: [{gain: {c: 9}}]}}\n",
    );
    let base = common::base();
    let diffs = inspect::diff(&changed, &base);
    assert_eq!(diffs.len(), 3, "{diffs:#?}");
    let terrans = &diffs[0];
    assert_eq!(
        (terrans.kind, terrans.id.as_deref()),
        (kind("faction").expect("a kind"), Some("terrans"))
    );
    let ItemChange::Changed(fields) = &terrans.change else {
        panic!("{terrans:?}");
    };
    assert_eq!(fields.len(), 1);
    let (before, bo) = fields[0].before.clone().unwrap();
    let (after, ao) = fields[0].after.clone().unwrap();
    assert_eq!(
        (before, after),
        (serde_json::json!(4), serde_json::json!(5))
    );
    assert!(bo.file.ends_with("terrans.yaml"));
    assert_eq!(ao.pos.map(|p| p.line), Some(3));
    assert!(diffs.iter().any(|d| d.id.as_deref() == Some("booster11")
        && matches!(&d.change, ItemChange::Added(o) if o.pos.map(|p| p.line) == Some(5))));
    assert!(diffs.iter().any(
        |d| d.id.as_deref() == Some("booster10") && matches!(d.change, ItemChange::Removed(_))
    ));
    // The other way round, additions and removals swap.
    let back = inspect::diff(&base, &changed);
    assert!(back
        .iter()
        .any(|d| d.id.as_deref() == Some("booster10") && matches!(d.change, ItemChange::Added(_))));
}
