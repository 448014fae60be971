//! Terraforming Mars' named variants and recorded games through the commands every game
//! shares: `--variant NAME` is looked for in the game's own variants folder (on disk and in
//! the built-in copy), `conformance` replays on the stack it is given, and a gzipped record
//! names its game without `--game`.

mod common;

use common::{run, run_in, scratch, succeeded};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts that the command's stderr contains `text`.
fn says(out: &std::process::Output, text: &str) {
    let err = stderr(out);
    assert!(err.contains(text), "{err}");
}

#[test]
fn a_named_variant_is_found_in_the_games_own_folder() {
    let tm = ["validate", "--game", "terraforming-mars", "--variant"];
    let out = run(&[&tm[..], &["errata"]].concat());
    succeeded(&out);
    says(&out, "terraforming-mars/variants/errata.yaml");
    // Outside the repository the built-in copy holds the same names.
    let elsewhere = scratch("tm-variant-built-in");
    let out = run_in(&elsewhere, [&tm[..], &["corporate-era"]].concat());
    succeeded(&out);
    says(
        &out,
        "<built-in>/terraforming-mars/variants/corporate-era.yaml",
    );
    // A name that is not there is a usage error naming the folder looked in.
    let out = run(&[&tm[..], &["no-such-variant"]].concat());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    says(&out, "terraforming-mars/variants/");
    // Gaia Project's names stay in its own folder.
    let out = run(&[&tm[..], &["beta-2"]].concat());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn conformance_replays_on_the_variants_it_is_given() {
    let records = "tests/data/terraforming-mars";
    let plain = run(&["conformance", "--game", "terraforming-mars", records]);
    let out = succeeded(&plain);
    let total = out.lines().filter(|l| l.starts_with("ok ")).count();
    assert!(total > 0, "{out}");
    // The example errata changes a card's cost and VP and a milestone: games it touches differ.
    let errata = run(&[
        "conformance",
        "--game",
        "terraforming-mars",
        "--variant",
        "errata",
        records,
    ]);
    assert_eq!(errata.status.code(), Some(1), "{}", stderr(&errata));
    says(&errata, "variants: errata");
    let out = String::from_utf8_lossy(&errata.stdout);
    let identical = out.lines().filter(|l| l.starts_with("ok ")).count();
    assert!(identical < total, "{out}");
}

#[test]
fn a_gzipped_record_is_viewed_without_naming_the_game() {
    let dir = scratch("tm-view-unnamed");
    let page = dir.join("game.html");
    let out = run(&[
        "view",
        "tests/data/terraforming-mars/dev-2p-base-01.json.gz",
        "-o",
        page.to_str().unwrap(),
    ]);
    succeeded(&out);
    let html = std::fs::read_to_string(&page).expect("the page is written");
    assert!(html.contains("<svg"), "no picture in the page");
}
