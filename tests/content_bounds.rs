//! Content that decodes but could not be played is refused at load (`orrery validate`), each
//! problem at the file and line that causes it — an overlay's own line when it set the value.

mod common;

use orrery_core::diagnostics::Diagnostic;
use orrery_gp::content::bounds::{MAX_CONTENT_NUMBER, MAX_ROUNDS};
use orrery_gp::content::{Content, OverlaySource};

fn overlay(text: &str) -> OverlaySource {
    OverlaySource {
        file: "errata.yaml".into(),
        text: format!("name: errata\nchanges:\n{text}"),
        scripts: Vec::new(),
        problem: None,
    }
}

fn refused(overlays: &[OverlaySource]) -> Vec<Diagnostic> {
    match Content::load(&common::base_files(), overlays) {
        Ok(_) => panic!("content that cannot be played was accepted"),
        Err(d) => d,
    }
}

/// The diagnostic at `file:line` whose message has every one of `words`.
fn at<'a>(diags: &'a [Diagnostic], file: &str, line: usize, words: &[&str]) -> &'a Diagnostic {
    diags
        .iter()
        .find(|d| {
            d.file.ends_with(file)
                && d.pos.map(|p| p.line) == Some(line)
                && words.iter().all(|w| d.message.contains(w))
        })
        .unwrap_or_else(|| {
            let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
            panic!("no {file}:{line} with {words:?} in\n{}", shown.join("\n"))
        })
}

#[test]
fn the_base_game_and_its_variants_pass_the_checks() {
    let c = common::base();
    assert_eq!(c.boosters.boosters.len(), 10);
    for v in std::fs::read_dir(common::root().join("content/variants")).expect("variants") {
        let path = v.expect("entry").path();
        let ov = OverlaySource {
            file: path.display().to_string(),
            text: std::fs::read_to_string(&path).expect("read"),
            scripts: Vec::new(),
            problem: None,
        };
        if let Err(d) = Content::load(&common::base_files(), &[ov]) {
            panic!("{}: {:?}", path.display(), d);
        }
    }
}

#[test]
fn too_few_boosters_for_the_largest_player_count() {
    // Removing every booster used to leave games stuck at the first booster choice.
    let removes: String = (1..=10)
        .map(|i| format!("  - remove: {{kind: booster, id: booster{i}}}\n"))
        .collect();
    let diags = refused(&[overlay(&removes)]);
    let d = diags
        .iter()
        .find(|d| d.file.ends_with("boosters.yaml") && d.message.contains("0 boosters"))
        .expect("the boosters file is named");
    assert!(d.pos.is_some(), "{d}");
    assert!(
        d.message.contains("4 players uses 7"),
        "names what is needed: {d}"
    );
    // Four removed leave 6, one short of 4 players + 3.
    let removes: String = (1..=4)
        .map(|i| format!("  - remove: {{kind: booster, id: booster{i}}}\n"))
        .collect();
    let diags = refused(&[overlay(&removes)]);
    assert!(diags.iter().any(|d| d.message.contains("6 boosters")));
    // Three removed leave exactly enough.
    let removes: String = (1..=3)
        .map(|i| format!("  - remove: {{kind: booster, id: booster{i}}}\n"))
        .collect();
    Content::load(&common::base_files(), &[overlay(&removes)]).expect("7 boosters are enough");
}

#[test]
fn board_power_out_of_range_is_refused_at_the_overlay_line() {
    let diags = refused(&[overlay(
        "  - set: {kind: board, path: power.0, value: 3}\n  - set: {kind: board, path: power.1, value: 4294967295}\n",
    )]);
    let d = at(&diags, "errata.yaml", 4, &["4294967295", "out of range"]);
    assert!(
        d.message.contains(&MAX_CONTENT_NUMBER.to_string()),
        "gives the limit: {d}"
    );
}

#[test]
fn a_billion_rounds_are_refused() {
    let diags = refused(&[overlay(
        "  - set: {kind: rules, path: rounds, value: 1000000000}\n",
    )]);
    at(
        &diags,
        "errata.yaml",
        3,
        &["1000000000 rounds", &MAX_ROUNDS.to_string()],
    );
    // Within the bound, there must still be a round scoring tile for every round.
    let diags = refused(&[overlay("  - set: {kind: rules, path: rounds, value: 12}\n")]);
    let d = diags
        .iter()
        .find(|d| d.file.ends_with("round-scoring.yaml"))
        .expect("names the round scoring file");
    assert!(
        d.message.contains("10 round scoring tiles for 12 rounds"),
        "{d}"
    );
}

#[test]
fn negative_caps_and_player_counts_out_of_range_are_refused() {
    let diags = refused(&[overlay(
        "  - set: {kind: rules, path: resources.c.cap, value: -1}\n  - set: {kind: rules, path: players, value: [2, 0, 40]}\n",
    )]);
    at(&diags, "errata.yaml", 3, &["cap of -1"]);
    at(&diags, "errata.yaml", 4, &["player count 0"]);
    at(&diags, "errata.yaml", 4, &["player count 40"]);
}

#[test]
fn a_layout_slot_far_out_is_refused() {
    let diags = refused(&[overlay(
        "  - set: {kind: map, path: layouts.0.slots.1, value: [90000, 0]}\n",
    )]);
    at(&diags, "errata.yaml", 3, &["90000"]);
    let diags = refused(&[overlay(
        "  - set: {kind: map, path: layouts.0.slots.1, value: [500, 0]}\n",
    )]);
    at(&diags, "errata.yaml", 3, &["slot centre [500, 0]"]);
}

#[test]
fn a_replace_that_changes_the_id_is_refused() {
    let tile = "{id: renamed, name: Renamed, income: [{gain: {c: 2}}]}";
    let diags = refused(&[overlay(&format!(
        "  - replace: {{kind: booster, id: booster1, value: {tile}}}\n"
    ))]);
    at(
        &diags,
        "errata.yaml",
        3,
        &["\"renamed\"", "\"booster1\"", "keeps the id"],
    );
    // Without an id at all, too.
    let diags = refused(&[overlay(
        "  - replace: {kind: booster, id: booster1, value: {name: Nameless, income: [{gain: {c: 2}}]}}\n",
    )]);
    at(&diags, "errata.yaml", 3, &["no id"]);
}

#[test]
fn a_script_over_the_function_limit_names_the_script() {
    let source: String = (0..=orrery_core::script::MAX_SCRIPT_FUNCTIONS)
        .map(|i| format!("fn f{i}() {{ {i} }}\n"))
        .collect();
    let ov = OverlaySource {
        file: "errata.yaml".into(),
        text: "name: errata\nchanges:\n  - script: {file: many.rhai}\n".into(),
        scripts: vec![("many.rhai".into(), source)],
        problem: None,
    };
    let diags = refused(&[ov]);
    let d = diags
        .iter()
        .find(|d| d.message.contains("functions, the limit per script"))
        .expect("the function limit is reported");
    // Reported on the line of the first function over the limit.
    assert_eq!(
        d.pos.map(|p| p.line),
        Some(orrery_core::script::MAX_SCRIPT_FUNCTIONS + 1),
        "{d}"
    );
}
