//! `orrery render`, `view` and `chart`: golden pictures, what is drawn against the state's
//! counts, determinism, colours from content, and refusals.
//!
//! Golden files live in `tests/golden/`; `ORRERY_BLESS=1 cargo test --release --test pictures`
//! rewrites them from the current output.

mod common;

use common::{repo, run, scratch, succeeded};

use std::path::{Path, PathBuf};

use serde_json::Value;

fn log(name: &str) -> String {
    format!("tests/data/conformance/{name}.json")
}

/// Compares output with a golden file, or rewrites the file under `ORRERY_BLESS=1`.
fn golden(file: &str, got: &str) {
    let path = repo().join("tests/golden").join(file);
    if std::env::var_os("ORRERY_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().expect("has a folder")).expect("dir");
        std::fs::write(&path, got).expect("write golden");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with ORRERY_BLESS=1 to create it",
            path.display()
        )
    });
    if want != got {
        let line = want
            .lines()
            .zip(got.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(want.lines().count().min(got.lines().count()));
        panic!(
            "{} differs from the output at line {}:\n want: {}\n  got: {}\n(ORRERY_BLESS=1 rewrites it)",
            path.display(),
            line + 1,
            want.lines().nth(line).unwrap_or("<end>"),
            got.lines().nth(line).unwrap_or("<end>")
        );
    }
}

/// The saved state of a log after move `n`, as JSON.
fn state_after(log: &str, n: usize, dir: &Path) -> (PathBuf, Value) {
    let file = dir.join(format!("state-{n}.json"));
    let out = run(&[
        "replay",
        log,
        "--until",
        &n.to_string(),
        "--save-state",
        file.to_str().expect("utf-8 path"),
    ]);
    succeeded(&out);
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("saved")).expect("json");
    (file, v)
}

fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

/// What the state holds, counted the way the picture must show it.
struct Counts {
    spaces: usize,
    pieces: usize,
    by_kind: Vec<(String, usize)>,
    satellites: usize,
    federations: usize,
    vp: Vec<i64>,
}

fn counts(saved: &Value) -> Counts {
    let s = &saved["state"];
    let mut by_kind: Vec<(String, usize)> = Vec::new();
    let mut pieces = 0;
    for list in s["structures"].as_object().expect("structures").values() {
        for st in list.as_array().expect("list") {
            let b = st["building"].as_str().expect("id").to_string();
            match by_kind.iter_mut().find(|(k, _)| *k == b) {
                Some((_, n)) => *n += 1,
                None => by_kind.push((b, 1)),
            }
            pieces += 1;
        }
    }
    let gaiaformers = s["gaiaformers"].as_array().expect("gaiaformers").len();
    if gaiaformers > 0 {
        by_kind.push(("gf".into(), gaiaformers));
    }
    let players = s["players"].as_array().expect("players");
    Counts {
        spaces: s["map"]["spaces"].as_array().expect("spaces").len(),
        pieces: pieces + gaiaformers,
        by_kind,
        satellites: players
            .iter()
            .map(|p| p["satellites"].as_array().map_or(0, Vec::len))
            .sum(),
        federations: players
            .iter()
            .map(|p| p["federations"].as_array().map_or(0, Vec::len))
            .sum(),
        // VP by source always sum to the VP held.
        vp: players
            .iter()
            .map(|p| {
                p["vp_sources"]
                    .as_object()
                    .map_or(0, |m| m.values().filter_map(Value::as_i64).sum())
            })
            .collect(),
    }
}

fn assert_draws(svg: &str, c: &Counts, what: &str) {
    assert_eq!(count(svg, "<g class=\"hex\""), c.spaces, "{what}: spaces");
    assert_eq!(count(svg, "<g class=\"piece "), c.pieces, "{what}: pieces");
    for (kind, n) in &c.by_kind {
        assert_eq!(
            count(svg, &format!("data-kind=\"{kind}\"")),
            *n,
            "{what}: pieces of kind {kind}"
        );
    }
    assert_eq!(
        count(svg, "class=\"satellite\""),
        c.satellites,
        "{what}: satellites"
    );
    assert_eq!(
        count(svg, "<g class=\"federation\""),
        c.federations,
        "{what}: federations"
    );
    for (seat, vp) in c.vp.iter().enumerate() {
        assert!(
            svg.contains(&format!(
                "<g class=\"seat\" data-seat=\"{seat}\" data-vp=\"{vp}\">"
            )),
            "{what}: seat {seat} should show {vp} VP"
        );
        assert!(svg.contains(&format!(">{vp} VP</text>")), "{what}: {vp} VP");
    }
}

/// The golden boards: a 2-player game early on, a 4-player game mid-game and at its end
/// (satellites, federations, a space station, Gaiaformers, the lost planet, a special token).
const BOARDS: [(&str, usize, &str); 3] = [
    ("dev/dev-001", 12, "render/dev-001-move-12.svg"),
    ("rich/rich-019", 150, "render/rich-019-move-150.svg"),
    ("rich/rich-019", 225, "render/rich-019-move-225.svg"),
];

#[test]
fn boards_match_their_golden_files_and_draw_what_the_state_holds() {
    let dir = scratch("golden");
    for (name, n, file) in BOARDS {
        let svg = succeeded(&run(&["render", &log(name), "--move", &n.to_string()]));
        golden(file, &svg);
        let (_, saved) = state_after(&log(name), n, &dir);
        let c = counts(&saved);
        assert_draws(&svg, &c, file);
        assert!(c.pieces > 0, "{file}: the test needs pieces on the map");
    }
    // The final board of the 4-player game has every kind of thing on it.
    let (_, saved) = state_after(&log("rich/rich-019"), 225, &dir);
    let c = counts(&saved);
    assert!(c.satellites > 0 && c.federations > 0);
    for kind in ["m", "ts", "lab", "PI", "ac1", "ac2", "sp"] {
        assert!(c.by_kind.iter().any(|(k, _)| k == kind), "no {kind} drawn");
    }
    let svg = std::fs::read_to_string(repo().join("tests/golden/render/rich-019-move-225.svg"))
        .expect("golden");
    assert!(svg.contains("data-planet=\"lost\""), "the lost planet");
    assert!(svg.contains("brainstone: out"), "the special token");
}

#[test]
fn every_tenth_state_of_a_game_draws_what_it_holds() {
    let dir = scratch("every");
    let name = log("rich/rich-017");
    for n in (0..=214).step_by(30) {
        let (state, saved) = state_after(&name, n, &dir);
        let c = counts(&saved);
        let from_log = succeeded(&run(&["render", &name, "--move", &n.to_string()]));
        assert_draws(&from_log, &c, &format!("move {n}"));
        let from_state = succeeded(&run(&["render", "--state", state.to_str().expect("utf-8")]));
        assert_draws(&from_state, &c, &format!("saved state {n}"));
    }
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    let a = succeeded(&run(&["render", &log("rich/rich-005"), "--move", "60"]));
    let b = succeeded(&run(&["render", &log("rich/rich-005"), "--move", "60"]));
    assert_eq!(a, b);
    let dir = scratch("same");
    let (p, q) = (dir.join("a.html"), dir.join("b.html"));
    for f in [&p, &q] {
        succeeded(&run(&[
            "view",
            &log("dev/dev-001"),
            "-o",
            f.to_str().expect("utf-8"),
        ]));
    }
    assert_eq!(std::fs::read(&p).expect("a"), std::fs::read(&q).expect("b"));
}

#[test]
fn a_new_faction_of_an_overlay_draws_in_its_own_colour() {
    let dir = scratch("overlay");
    let overlay = dir.join("zorgs.yaml");
    std::fs::write(
        &overlay,
        "name: zorgs\nchanges:\n  - add: {kind: faction, value: {id: zorgs, name: Zorgs, home: terra, colour: \"#ff00ff\"}}\n",
    )
    .expect("write");
    let game = dir.join("log.json");
    std::fs::write(
        &game,
        r#"{"players":2,"moves":["init 2 zorg-seed","p1 faction zorgs","p2 faction xenos"]}"#,
    )
    .expect("write");
    let (o, g) = (
        overlay.to_str().expect("utf-8"),
        game.to_str().expect("utf-8"),
    );
    let svg = succeeded(&run(&["render", g, "--variant", o]));
    assert!(svg.contains(">Zorgs</text>"), "the faction's name");
    assert!(
        svg.contains("fill=\"#ff00ff\""),
        "the faction's colour from the overlay"
    );
    // Without a colour of its own, a faction takes its home planet's.
    std::fs::write(
        &overlay,
        "name: zorgs\nchanges:\n  - add: {kind: faction, value: {id: zorgs, name: Zorgs, home: oxide}}\n  - set: {kind: planet, id: oxide, path: colour, value: \"#00ffee\"}\n",
    )
    .expect("write");
    let svg = succeeded(&run(&["render", g, "--variant", o]));
    assert!(svg.contains("fill=\"#00ffee\""));
    // A colour that is not `#rrggbb` is refused at the overlay's line.
    std::fs::write(
        &overlay,
        "name: zorgs\nchanges:\n  - add: {kind: faction, value: {id: zorgs, name: Zorgs, home: terra, colour: red}}\n",
    )
    .expect("write");
    let out = run(&["validate", "--variant", o]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("zorgs.yaml:3:") && text.contains("/colour"),
        "{text}"
    );
}

#[test]
fn refusals_have_their_exit_codes() {
    let out = run(&["render"]);
    assert_eq!(out.status.code(), Some(2), "neither a log nor a state");
    // A move beyond the log is input found wrong (exit 1), and the valid range is named.
    let out = run(&["render", &log("dev/dev-001"), "--move", "4000"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("has moves 0 to 48; --move 4000 is out of range"));
    let dir = scratch("refusals");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"state\": 3}").expect("write");
    let out = run(&["render", "--state", bad.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1), "not a saved game");
    let broken = dir.join("broken.json");
    std::fs::write(
        &broken,
        r#"{"players":2,"moves":["init 2 s","p1 faction xenos","p2 faction nobody"]}"#,
    )
    .expect("write");
    let out = run(&["view", broken.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1), "a refused move");
    assert!(String::from_utf8_lossy(&out.stderr).contains("move 2"));
    let study = dir.join("s.json");
    std::fs::write(
        &study,
        r#"{"format": "orrery-study/9", "games": 0, "factions": {}}"#,
    )
    .expect("write");
    let out = run(&["chart", study.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("orrery-study/1"));
}

fn study(name: &str) -> String {
    format!("tools/tests/data/{name}")
}

#[test]
fn study_charts_match_their_golden_files_and_show_the_tallies() {
    let one = succeeded(&run(&["chart", &study("study-base.json")]));
    golden("chart/study-base.svg", &one);
    let two = succeeded(&run(&[
        "chart",
        &study("study-base.json"),
        &study("study-variant.json"),
    ]));
    golden("chart/compare.svg", &two);
    let base: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join(study("study-base.json"))).expect("fixture"),
    )
    .expect("json");
    let factions = base["factions"].as_object().expect("factions").len();
    let seats = base["seats"].as_array().expect("seats").len();
    // One win-rate bar per faction and per seat, each with its interval; one box per faction.
    assert_eq!(count(&one, "class=\"bar\""), factions + seats);
    assert_eq!(count(&one, "class=\"interval\""), factions + seats);
    assert_eq!(count(&one, "class=\"box\""), factions);
    assert_eq!(count(&two, "class=\"bar\""), 2 * (factions + seats));
    // Terrans win 10 of 40 in the fixture: 25%, Wilson 95% interval 14.2%–40.2%.
    assert!(one.contains("data-rate=\"0.2500\""));
    assert!(one.contains("data-low=\"0.1419\" data-high=\"0.4019\""));
}
