//! Broken copies of base content files are reported with the right `file:line:col`, every
//! problem in one run, overlays included.

mod common;

use orrery_core::diagnostics::Diagnostic;
use orrery_gp::content::{Content, MemFiles, OverlaySource};

/// 1-based line and column of the first occurrence of `needle` in `text`.
fn line_col(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

fn load_err(files: &MemFiles, overlays: &[OverlaySource]) -> Vec<Diagnostic> {
    match Content::load(files, overlays) {
        Ok(_) => panic!("broken content was accepted"),
        Err(d) => d,
    }
}

fn edit(files: &mut MemFiles, file: &str, from: &str, to: &str) -> String {
    let text = files
        .files
        .get_mut(file)
        .unwrap_or_else(|| panic!("{file} exists"));
    assert!(text.contains(from), "{file} contains {from:?}");
    *text = text.replacen(from, to, 1);
    text.clone()
}

fn has(diags: &[Diagnostic], file: &str, pos: (usize, usize), words: &str) -> bool {
    diags.iter().any(|d| {
        d.file.ends_with(file)
            && d.pos.map(|p| (p.line, p.col)) == Some(pos)
            && d.message.contains(words)
    })
}

fn show(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_base_content_is_valid() {
    let c = common::base();
    assert!(c
        .summary()
        .starts_with("14 factions, 9 tech tiles, 15 advanced tech tiles, 10 boosters"));
}

#[test]
fn wrong_type_is_reported_at_the_value() {
    let mut files = common::base_files();
    let text = edit(&mut files, "rules.yaml", "rounds: 6", "rounds: six");
    let diags = load_err(&files, &[]);
    let (l, c) = line_col(&text, "six");
    assert!(
        has(&diags, "rules.yaml", (l, c), "integer"),
        "{}",
        show(&diags)
    );
}

#[test]
fn unknown_key_is_reported_at_the_key() {
    let mut files = common::base_files();
    let text = edit(
        &mut files,
        "factions/terrans.yaml",
        "\nhome:",
        "\nflavour: blue\nhome:",
    );
    let diags = load_err(&files, &[]);
    let (l, c) = line_col(&text, "flavour");
    assert!(
        has(&diags, "factions/terrans.yaml", (l, c), "flavour"),
        "{}",
        show(&diags)
    );
}

#[test]
fn missing_field_bad_reference_duplicate_id_and_script_error_all_reported_together() {
    let mut files = common::base_files();
    // A missing required field.
    edit(&mut files, "rules.yaml", "\nrounds: 6", "\n");
    // A reference to a planet type that does not exist.
    let terrans = edit(
        &mut files,
        "factions/terrans.yaml",
        "home: terra",
        "home: plutonium",
    );
    // A duplicate id.
    let boosters = edit(&mut files, "boosters.yaml", "id: booster2", "id: booster1");
    // A script that does not compile.
    files.files.insert(
        "scripts/broken.rhai".into(),
        "fn ok() { 1 }\n\nfn bad( {\n".into(),
    );
    let diags = load_err(&files, &[]);
    let text = show(&diags);
    assert!(
        diags
            .iter()
            .any(|d| d.file.ends_with("rules.yaml") && d.message.contains("rounds")),
        "missing field: {text}"
    );
    let (l, c) = line_col(&terrans, "plutonium");
    assert!(
        has(
            &diags,
            "factions/terrans.yaml",
            (l, c),
            "unknown planet type \"plutonium\""
        ),
        "{text}"
    );
    let second = boosters
        .match_indices("id: booster1")
        .nth(1)
        .expect("two")
        .0;
    let line = boosters[..second].matches('\n').count() + 1;
    assert!(
        diags.iter().any(|d| d.file.ends_with("boosters.yaml")
            && d.pos.map(|p| p.line) == Some(line)
            && d.message.contains("duplicate booster id")),
        "{text}"
    );
    assert!(
        diags
            .iter()
            .any(|d| d.file.ends_with("scripts/broken.rhai") && d.pos.map(|p| p.line) == Some(3)),
        "{text}"
    );
}

#[test]
fn yaml_syntax_error_has_a_position() {
    let mut files = common::base_files();
    edit(
        &mut files,
        "planets.yaml",
        "wheel:",
        "wheel: [terra,\n  oops: : :",
    );
    let diags = load_err(&files, &[]);
    assert!(
        diags
            .iter()
            .any(|d| d.file.ends_with("planets.yaml") && d.pos.is_some()),
        "{}",
        show(&diags)
    );
}

fn overlay(text: &str) -> OverlaySource {
    OverlaySource {
        file: "variants/test.yaml".into(),
        text: text.into(),
        scripts: Vec::new(),
        problem: None,
    }
}

#[test]
fn a_valid_overlay_changes_content_and_remembers_where() {
    let files = common::base_files();
    let ov = overlay(
        "name: test\nchanges:\n  - set: {kind: faction, id: terrans, path: name, value: Earthlings}\n  - remove: {kind: booster, id: booster10}\n",
    );
    let c = Content::load(&files, &[ov]).expect("valid overlay");
    assert_eq!(c.faction("terrans").unwrap().name, "Earthlings");
    assert_eq!(c.boosters.boosters.len(), 9);
    let origin = c
        .provenance
        .origin(
            orrery_gp::content::kind("faction").expect("a kind"),
            Some("terrans"),
            "name",
        )
        .expect("origin");
    assert_eq!(origin.file.as_ref(), "variants/test.yaml");
    assert_eq!(origin.pos.map(|p| p.line), Some(3));
    let home = c
        .provenance
        .origin(
            orrery_gp::content::kind("faction").expect("a kind"),
            Some("terrans"),
            "home",
        )
        .expect("origin");
    assert!(home.file.ends_with("factions/terrans.yaml"));
}

#[test]
fn a_broken_overlay_is_reported_at_its_own_lines() {
    let files = common::base_files();
    let text = "name: broken\nchanges:\n  - set: {kind: faction, id: nobody, path: name, value: X}\n  - set: {kind: faction, id: terrans, path: home, value: 7}\n  - frobnicate: {}\n";
    let diags = load_err(&files, &[overlay(text)]);
    assert!(
        diags
            .iter()
            .any(|d| d.file == "variants/test.yaml" && d.pos.map(|p| p.line) == Some(5)),
        "unknown change kind: {}",
        show(&diags)
    );
    // Fix the unknown change; the others surface.
    let text = "name: broken\nchanges:\n  - set: {kind: faction, id: nobody, path: name, value: X}\n  - set: {kind: faction, id: terrans, path: home, value: 7}\n";
    let diags = load_err(&files, &[overlay(text)]);
    assert!(
        diags.iter().any(|d| d.file == "variants/test.yaml"
            && d.pos.map(|p| p.line) == Some(3)
            && d.message.contains("no faction with id \"nobody\"")),
        "{}",
        show(&diags)
    );
    assert!(
        diags
            .iter()
            .any(|d| d.file == "variants/test.yaml" && d.pos.map(|p| p.line) == Some(4)),
        "type error of the patched value at the overlay line: {}",
        show(&diags)
    );
}

#[test]
fn an_overlay_set_value_is_typed_at_its_nested_path() {
    let files = common::base_files();
    // Each mistyped value is reported at its own line, named by the overlay's change, even
    // where a later change replaces the item it was set in.
    let text = "name: typed\nchanges:\n  - set: {kind: board, path: income.0, value: 7}\n  - set: {kind: map, path: layouts.1.players, value: three}\n  - set: {kind: faction, id: terrans, path: board.start.c, value: lots}\n  - set: {kind: booster, id: booster1, path: income, value: [1]}\n  - replace: {kind: booster, id: booster1, value: {id: booster1, name: B, income: [gain: {o: 1}]}}\n";
    let diags = load_err(&files, &[overlay(text)]);
    for (needle, words) in [
        ("7}", "not a valid Effect"),
        ("three", "expected sequence"),
        ("lots", "expected integer"),
        ("1]}", "not a valid Effect"),
    ] {
        let pos = line_col(text, needle);
        assert!(
            diags.iter().any(|d| d.file == "variants/test.yaml"
                && d.pos.map(|p| (p.line, p.col)) == Some(pos)
                && d.pointer.starts_with("/changes/")
                && d.message.contains(words)),
            "{needle}: {}",
            show(&diags)
        );
    }
    assert_eq!(diags.len(), 4, "one error each: {}", show(&diags));
    // Well-typed values at the same paths load.
    let text = "name: typed\nchanges:\n  - set: {kind: board, path: income.0, value: {gain: {c: 2}}}\n  - set: {kind: board, path: start.c, value: 9}\n";
    let c = Content::load(&files, &[overlay(text)]).expect("well-typed sets");
    assert_eq!(c.board.start.get("c"), 9);
}

/// The alias bomb of issue 24: one 200 KB string aliased through levels of ten. Refused at
/// the alias that passes the byte budget, in an overlay and in a base file alike.
fn alias_bomb(head: &str) -> String {
    let mut text = format!("{head}\nx-long: &s {}\n", "y".repeat(200_000));
    let mut prev = "s".to_string();
    for level in 1..=4 {
        let name = format!("l{level}");
        let items = vec![format!("*{prev}"); 10].join(", ");
        text.push_str(&format!("x-{name}: &{name} [{items}]\n"));
        prev = name;
    }
    text
}

#[test]
fn aliases_are_counted_in_bytes_in_overlays_and_base_files() {
    let files = common::base_files();
    let diags = load_err(&files, &[overlay(&alias_bomb("name: bomb\nchanges: []"))]);
    assert!(
        diags.len() == 1
            && diags[0].file == "variants/test.yaml"
            && diags[0].pos.map(|p| p.line) == Some(4)
            && diags[0].message.contains("aliases expand to more than"),
        "{}",
        show(&diags)
    );
    let mut files = common::base_files();
    let text = files.files["factions/lantids.yaml"].clone();
    files
        .files
        .insert("factions/lantids.yaml".into(), alias_bomb(&text));
    let diags = load_err(&files, &[]);
    assert!(
        diags
            .iter()
            .any(|d| d.file.ends_with("factions/lantids.yaml")
                && d.message.contains("aliases expand to more than")),
        "{}",
        show(&diags)
    );
}

#[test]
fn deep_flow_nesting_in_an_overlay_is_refused_like_in_a_base_file() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let text = format!("name: deep\nchanges: {deep}\n");
    // The scripts an overlay names are found by the same bounded parser (it used to take
    // serde_yaml minutes to give up on this).
    assert!(orrery_gp::content::overlay::scripts_beside(&text).is_empty());
    let diags = load_err(&common::base_files(), &[overlay(&text)]);
    assert_eq!(diags.len(), 1, "{}", show(&diags));
    assert!(
        diags[0].message.contains("nesting is too deep"),
        "{}",
        show(&diags)
    );
    assert_eq!(diags[0].file, "variants/test.yaml");
}

#[test]
fn floats_are_one_error_at_the_overlays_line_naming_the_integer_expected() {
    for value in ["15.0", ".inf", "-.inf", ".nan", "1e3"] {
        let text = format!(
            "name: t\nchanges:\n  - set: {{kind: faction, id: lantids, path: board.start.c, value: {value}}}\n"
        );
        let diags = load_err(&common::base_files(), &[overlay(&text)]);
        assert_eq!(diags.len(), 1, "{value}: {}", show(&diags));
        let d = &diags[0];
        assert_eq!(d.file, "variants/test.yaml", "{value}: {d}");
        assert_eq!(d.pos.map(|p| p.line), Some(3), "{value}: {d}");
        assert!(
            d.message
                .starts_with(&format!("expected an integer, got float {value}")),
            "{d}"
        );
    }
    // In a base file: at its own line.
    let mut files = common::base_files();
    let text = edit(&mut files, "rules.yaml", "rounds: 6", "rounds: 6.0");
    let diags = load_err(&files, &[]);
    assert_eq!(diags.len(), 1, "{}", show(&diags));
    assert!(
        has(
            &diags,
            "rules.yaml",
            line_col(&text, "6.0"),
            "expected an integer, got float 6.0"
        ),
        "{}",
        show(&diags)
    );
}

#[test]
fn ids_the_notation_cannot_write_are_refused_where_they_are_written() {
    for bad in [
        "dot.ted",
        "\"two words\"",
        "\"1\"",
        "p3",
        "init",
        "\"\"",
        "undefined",
    ] {
        let mut files = common::base_files();
        let text = edit(
            &mut files,
            "factions/lantids.yaml",
            "id: lantids",
            &format!("id: {bad}"),
        );
        let diags = load_err(&files, &[]);
        assert!(
            has(
                &diags,
                "factions/lantids.yaml",
                line_col(&text, &format!("{bad}\n")),
                "cannot be written in the move notation"
            ),
            "{bad}: {}",
            show(&diags)
        );
    }
    // Every id kind: a building, a booster, a verb; in an overlay at the overlay's line.
    let ov = overlay(
        "name: t\nchanges:\n  - set: {kind: booster, id: booster1, path: id, value: boost.er}\n  - set: {kind: faction, id: ambas, path: board.buildings.PI.id, value: P I}\n",
    );
    let diags = load_err(&common::base_files(), &[ov]);
    for line in [3, 4] {
        assert!(
            diags.iter().any(|d| d.file == "variants/test.yaml"
                && d.pos.map(|p| p.line) == Some(line)
                && d.message.contains("cannot be written in the move notation")),
            "line {line}: {}",
            show(&diags)
        );
    }
    // Sector labels start hex names: digits only.
    let mut files = common::base_files();
    let text = edit(&mut files, "sectors.yaml", "label: \"5\"", "label: \"5x\"");
    let diags = load_err(&files, &[]);
    assert!(
        has(
            &diags,
            "sectors.yaml",
            line_col(&text, "\"5x\""),
            "cannot start a hex name"
        ),
        "{}",
        show(&diags)
    );
}

#[test]
fn negative_amounts_are_refused_at_their_line() {
    // A booster income of -1000 credits used to validate and drive credits to -958.
    let mut files = common::base_files();
    let text = edit(
        &mut files,
        "boosters.yaml",
        "income: [{gain: {k: 1, o: 1}}]",
        "income: [{gain: {k: 1, c: -1000}}]",
    );
    let diags = load_err(&files, &[]);
    assert_eq!(diags.len(), 1, "{}", show(&diags));
    assert!(
        has(
            &diags,
            "boosters.yaml",
            line_col(&text, "-1000"),
            "-1000 is less than the minimum of 0"
        ),
        "{}",
        show(&diags)
    );
    // The same in an overlay, at the overlay's line.
    let ov = overlay(
        "name: t\nchanges:\n  - set: {kind: booster, id: booster1, path: income, value: [gain: {pw: -3}]}\n",
    );
    let diags = load_err(&common::base_files(), &[ov]);
    assert!(
        diags.len() == 1
            && diags[0].file == "variants/test.yaml"
            && diags[0].pos.map(|p| p.line) == Some(3)
            && diags[0].message.contains("less than the minimum of 0"),
        "{}",
        show(&diags)
    );
}

#[test]
fn income_and_pass_hold_only_gains() {
    // An income of `steps: 1` used to validate; every game then stopped at its first income
    // with "listed part `endturn` was refused: income may only gain".
    let mut files = common::base_files();
    let text = edit(
        &mut files,
        "boosters.yaml",
        "income: [{gain: {k: 1, o: 1}}]",
        "income: [{gain: {k: 1, o: 1}}, {steps: 1}]",
    );
    let diags = load_err(&files, &[]);
    assert!(
        diags.len() == 1
            && diags[0].pos.map(|p| p.line) == Some(line_col(&text, "{steps: 1}").0)
            && diags[0].message.contains("income pays without a choice"),
        "{}",
        show(&diags)
    );
    // A pass likewise: nothing can follow it (a tech tile there made every game fail with
    // "the action is not finished").
    let mut files = common::base_files();
    let text = edit(
        &mut files,
        "boosters.yaml",
        "income: [{gain: {k: 1, o: 1}}]",
        "income: [{gain: {k: 1, o: 1}}]\n    pass: [tech_tile]",
    );
    let diags = load_err(&files, &[]);
    assert!(
        diags.len() == 1
            && diags[0].pos.map(|p| p.line) == Some(line_col(&text, "[tech_tile]").0)
            && diags[0].message.contains("a pass pays without a choice"),
        "{}",
        show(&diags)
    );
    // The same in an overlay, at the overlay's line.
    let ov = overlay(
        "name: t\nchanges:\n  - set: {kind: faction, id: terrans, path: board.income, value: [gain: {c: 1}, tech_tile]}\n",
    );
    let diags = load_err(&common::base_files(), &[ov]);
    assert!(
        diags.len() == 1
            && diags[0].file == "variants/test.yaml"
            && diags[0].pos.map(|p| p.line) == Some(3)
            && diags[0].message.contains("income pays without a choice"),
        "{}",
        show(&diags)
    );
}

#[test]
fn numbers_the_kernel_would_change_are_refused() {
    // `leftover_per_vp: 0` used to be read as 1 (every leftover scored); `range_per_qic: 0`
    // likewise; and a token worth 0 power.
    for (file, from, to) in [
        ("rules.yaml", "leftover_per_vp: 3", "leftover_per_vp: 0"),
        ("rules.yaml", "range_per_qic: 2", "range_per_qic: 0"),
        (
            "factions/nevlas.yaml",
            "{area3_token_value: 2}",
            "{area3_token_value: 0}",
        ),
    ] {
        let mut files = common::base_files();
        let text = edit(&mut files, file, from, to);
        let diags = load_err(&files, &[]);
        let (line, _) = line_col(&text, to);
        assert!(
            diags.len() == 1
                && diags[0].pos.map(|p| p.line) == Some(line)
                && diags[0].message.contains("0 is less than the minimum of 1"),
            "{to}: {}",
            show(&diags)
        );
    }
}
