//! The example in `content/examples/wanderers/`: an ability that watches the other seats
//! ("whenever another player builds a mine within distance 2 of one of your buildings, gain
//! 1 VP"), written in content alone. It validates, and a study with it ends differently from
//! the same study (same seeds, same factions) with the ability taken out: the VP it books to
//! the faction show in the study's VP by source.

mod common;

use common::{repo, run_in_repo, scratch, succeeded};

const TRIGGER: &str = "        abilities:\n          - triggers:\n";

fn overlay_text() -> String {
    std::fs::read_to_string(repo().join("content/examples/wanderers/overlay.yaml"))
        .expect("the example overlay")
}

/// A study of the given variant folder, as its JSON.
fn study(variant: &str) -> serde_json::Value {
    let dir = scratch(&format!("study-{}", variant.replace(['/', '.'], "_")));
    let out = dir.join("study.json");
    let args = [
        "simulate",
        "--variant",
        variant,
        "--players",
        "4",
        "--factions",
        "wanderers,terrans,xenos,taklons",
        "--bots",
        "random",
        "--games",
        "16",
        "--seed",
        "11",
        "--jobs",
        "1",
        "--out",
        out.to_str().expect("utf-8 path"),
    ];
    succeeded(&run_in_repo(args));
    serde_json::from_str(&std::fs::read_to_string(&out).expect("study written")).expect("json")
}

#[test]
fn the_example_validates_and_names_no_script() {
    let out = succeeded(&run_in_repo([
        "validate",
        "--variant",
        "content/examples/wanderers",
    ]));
    assert!(out.contains("15 factions"), "{out}");
    assert!(out.contains("0 scripts"), "{out}");
    assert!(overlay_text().contains("by: others"));
}

#[test]
fn the_watching_ability_changes_the_outcome_of_a_study() {
    let with = study("content/examples/wanderers");
    // The same faction without its ability: the trigger's ability left out.
    let text = overlay_text();
    assert!(text.contains(TRIGGER), "the overlay lists its trigger");
    let cut = text[..text.find(TRIGGER).expect("trigger")].to_string();
    let dir = scratch("without");
    std::fs::write(dir.join("overlay.yaml"), cut + "        abilities: []\n").expect("write");
    let without = study(dir.to_str().expect("utf-8 path"));
    let booked = |v: &serde_json::Value| {
        v["factions"]["wanderers"]["vp_by_source"]["faction"]
            .as_i64()
            .unwrap_or(0)
    };
    // Every VP the Wanderers book to their faction comes from watching the others.
    assert!(booked(&with) > 0, "{}", with["factions"]["wanderers"]);
    assert_eq!(booked(&without), 0, "{}", without["factions"]["wanderers"]);
    assert_ne!(
        with["factions"]["wanderers"]["vp_sum"], without["factions"]["wanderers"]["vp_sum"],
        "the same seeds end with the same VP"
    );
}
