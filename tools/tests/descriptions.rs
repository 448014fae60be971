//! Text that cannot be stale: `validate` warns when a name states a number its effects
//! contradict, and `explain` and `render` show what a booster does from its effects, so an
//! errata that changes what boosters pay changes what is shown.

mod common;

use common::{run, scratch, succeeded};

/// An errata paying 7 ore as the income of every booster, without touching their names.
fn errata() -> String {
    let dir = scratch("errata");
    let path = dir.join("errata.yaml");
    let mut text = String::from("name: errata\nchanges:\n");
    for i in 1..=10 {
        text.push_str(&format!(
            "  - set: {{kind: booster, id: booster{i}, path: income, value: [gain: {{o: 7}}]}}\n"
        ));
    }
    std::fs::write(&path, text).expect("write");
    path.to_str().expect("utf-8").to_string()
}

#[test]
fn validate_warns_of_names_their_effects_contradict() {
    let out = succeeded(&run(&["validate"]));
    assert!(!out.contains("warning"), "{out}");
    let overlay = errata();
    let out = succeeded(&run(&["validate", "--variant", &overlay]));
    assert!(
        out.lines()
            .any(|l| l.starts_with("content/base/boosters.yaml:")
                && l.ends_with(
                    "warning: booster booster1: name says \"1 ore\" but its effects give 7 ore"
                )),
        "{out}"
    );
    assert!(
        out.contains("warning: booster booster3: name says \"1 QIC\" but its effects give no QIC"),
        "{out}"
    );
}

#[test]
fn explain_and_render_show_what_the_effects_do() {
    let overlay = errata();
    let out = succeeded(&run(&[
        "explain",
        "booster",
        "booster6",
        "--variant",
        &overlay,
    ]));
    assert!(
        out.contains("does: income: 7 ore; pass: 1 VP per mine  (generated from its effects)"),
        "{out}"
    );
    let out = succeeded(&run(&["explain", "booster", "booster6"]));
    assert!(
        out.contains("does: income: 1 ore; pass: 1 VP per mine"),
        "{out}"
    );
    let dir = scratch("render");
    let game = dir.join("log.json");
    std::fs::write(
        &game,
        r#"{"players":2,"moves":["init 2 seed7","p1 faction terrans","p2 faction xenos"]}"#,
    )
    .expect("write");
    let g = game.to_str().expect("utf-8");
    let base = succeeded(&run(&["render", g]));
    let changed = succeeded(&run(&["render", g, "--variant", &overlay]));
    assert!(!base.contains("income: 7 ore"));
    assert!(
        changed.contains("income: 7 ore"),
        "the errata's income is drawn"
    );
}
