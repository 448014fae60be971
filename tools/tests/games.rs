//! The game is named by the content (`game:` in its rules file), `--game` overrides it, and a
//! command a game does not offer exits 2 naming the game.

mod common;

use common::{run, run_in, scratch, succeeded};
use std::fs;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A copy of the Terraforming Mars content in a scratch folder.
fn tm_copy(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let src = common::repo().join("content/terraforming-mars");
    // The base files (the `variants/` folder beside them is not needed).
    for e in fs::read_dir(&src).expect("content folder").flatten() {
        if e.path().is_file() {
            fs::copy(e.path(), dir.join(e.file_name())).expect("copy");
        }
    }
    dir
}

#[test]
fn the_content_names_its_game() {
    let out = run(&["validate", "--content", "content/terraforming-mars"]);
    let text = succeeded(&out);
    assert!(
        text.starts_with("terraforming-mars: 63 map spaces"),
        "{text}"
    );
    // Gaia Project's base names its game too, and so does a folder without the key.
    let text = succeeded(&run(&["validate"]));
    assert!(text.contains("14 factions"), "{text}");
    let text = succeeded(&run(&["validate", "--game", "gaia-project"]));
    assert!(text.contains("14 factions"), "{text}");
}

#[test]
fn the_built_in_copy_serves_a_game_named_by_flag() {
    let dir = scratch("tm-built-in");
    let out = run_in(&dir, ["validate", "--game", "terraforming-mars"]);
    let text = succeeded(&out);
    assert!(text.contains("208 projects"), "{text}");
    assert!(
        stderr(&out).contains(
            "the built-in copy (no --content DIR, $ORRERY_CONTENT or ./content/terraforming-mars)"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_command_the_game_does_not_offer_exits_2_naming_the_game() {
    let out = run(&["train", "--content", "content/terraforming-mars"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains("terraforming-mars does not offer `train`")
            && e.contains(
                "it offers: validate, schema, simulate, merge, chart, explain, diff, init, conformance, replay, moves, trace, play, bench, render, view"
            ),
        "{e}"
    );
}

#[test]
fn an_unknown_game_is_a_usage_error_naming_who_said_it() {
    let out = run(&["validate", "--game", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown game \"chess\" named by --game"));
    let dir = tm_copy("tm-unknown-game");
    let rules = dir.join("rules.yaml");
    let text = fs::read_to_string(&rules).unwrap();
    fs::write(
        &rules,
        text.replace("game: terraforming-mars", "game: chess"),
    )
    .unwrap();
    let out = run(&["validate", "--content", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("unknown game \"chess\" named by `game:` in") && e.contains("rules.yaml"),
        "{e}"
    );
}

#[test]
fn broken_content_of_the_second_game_names_file_and_line() {
    let dir = tm_copy("tm-broken");
    let file = dir.join("standard-projects.yaml");
    let text = fs::read_to_string(&file).unwrap();
    // The first `cost:` line gets a word where a number belongs.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("cost:"))
        .expect("a cost");
    let indent = &lines[at][..lines[at].len() - lines[at].trim_start().len()];
    let broken: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i == at {
                format!("{indent}cost: lots")
            } else {
                l.to_string()
            }
        })
        .collect();
    fs::write(&file, broken.join("\n") + "\n").unwrap();
    let line = at + 1;
    let out = run(&["validate", "--content", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("standard-projects.yaml:{line}:")),
        "line {line}: {text}"
    );
}

#[test]
fn conformance_replays_the_second_games_records() {
    let out = run(&[
        "conformance",
        "--content",
        "content/terraforming-mars",
        "tests/data/terraforming-mars",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let ok = text.lines().filter(|l| l.starts_with("ok ")).count();
    let failed = text.lines().filter(|l| l.starts_with("FAIL ")).count();
    let records = common::tm_record_count();
    assert_eq!(ok + failed, records, "{text}");
    assert_eq!(ok, records, "every record replays identically: {text}");
    assert!(
        text.ends_with(&format!("{ok}/{records} games identical\n")),
        "{text}"
    );
    // Exit 0 exactly when every record replays identically.
    assert_eq!(out.status.code(), Some(if failed == 0 { 0 } else { 1 }));
    let missing = run(&[
        "conformance",
        "--game",
        "terraforming-mars",
        "no/such/folder",
    ]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn a_saved_game_names_its_game_and_another_games_state_exits_2() {
    let dir = scratch("saved-game");
    let state = dir.join("state.json");
    let record = common::repo().join("tests/data/conformance/dev/dev-001.json");
    succeeded(&run(&[
        "replay",
        record.to_str().unwrap(),
        "--until",
        "20",
        "--save-state",
        state.to_str().unwrap(),
    ]));
    let text = fs::read_to_string(&state).unwrap();
    let mut saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved["game"], "gaia-project");
    succeeded(&run(&["moves", state.to_str().unwrap()]));
    // A save from before there were two games (no `game`) still loads.
    saved.as_object_mut().unwrap().remove("game");
    fs::write(&state, saved.to_string()).unwrap();
    succeeded(&run(&["moves", state.to_str().unwrap()]));
    saved["game"] = "terraforming-mars".into();
    fs::write(&state, saved.to_string()).unwrap();
    // The file names its game: Terraforming Mars reads it, and refuses it (exit 1): here
    // its content stack, whose variant is Gaia Project's and fits no Terraforming Mars kind.
    let out = run(&["moves", state.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("boardgamers.yaml") && stderr(&out).contains("no field"),
        "{}",
        stderr(&out)
    );
    // Read as Gaia Project's, it is another game's state: exit 2.
    let out = run(&["moves", "--game", "gaia-project", state.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("a saved game of terraforming-mars"),
        "{}",
        stderr(&out)
    );
}

#[cfg(unix)]
#[test]
fn a_record_that_is_not_a_plain_file_is_refused_without_blocking() {
    let dir = scratch("tm-fifo");
    let fifo = dir.join("game.json.gz");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let out = run(&[
        "conformance",
        "--game",
        "terraforming-mars",
        fifo.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("not a plain file") && text.ends_with("0/1 games identical\n"),
        "{text}"
    );
}

#[test]
fn simulate_plays_complete_terraforming_mars_games() {
    let out = run(&[
        "simulate",
        "--game",
        "terraforming-mars",
        "--players",
        "3",
        "--bots",
        "random",
        "--games",
        "3",
    ]);
    let text = succeeded(&out);
    assert!(
        text.contains("random") && text.contains("mean VP by source"),
        "{text}"
    );
    // Recorded setups and given corporations are not offered: usage errors.
    let out = run(&[
        "simulate",
        "--game",
        "terraforming-mars",
        "--setups",
        "tests/data/terraforming-mars",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no recorded setups"),
        "{}",
        stderr(&out)
    );
}
