//! `orrery train`: the committed weights are what the README's training command writes, and a
//! weights file names the command that made it, without the options that changed nothing.

mod common;

use common::{repo, run_in_repo, scratch, succeeded};

/// The README's `orrery train` command (the one that writes the committed weights), as its
/// arguments after `orrery`, read from the README's shell block; single quotes group words.
fn readme_training_arguments() -> Vec<String> {
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README");
    let line = readme
        .lines()
        .find(|l| l.starts_with("orrery train ") && l.contains("--out content/bots/"))
        .expect("the README gives the command that writes the committed weights");
    let command = line.split(" # ").next().unwrap_or(line).trim();
    let mut words = Vec::new();
    let (mut word, mut quoted) = (String::new(), false);
    for c in command.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    assert!(!quoted, "an unclosed quote in: {command}");
    if !word.is_empty() {
        words.push(word);
    }
    assert_eq!(words.first().map(String::as_str), Some("orrery"));
    words.remove(0);
    words
}

/// The value of `name:` in a weights file.
fn field<'a>(weights: &'a str, name: &str) -> &'a str {
    weights
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
        .unwrap_or_else(|| panic!("no `{name}:` in\n{weights}"))
}

#[test]
fn the_committed_weights_are_what_the_readme_training_command_writes() {
    let dir = scratch("train-readme");
    let out_path = dir.join("weights.yaml");
    let mut args = readme_training_arguments();
    let at = args
        .iter()
        .position(|a| a == "--out")
        .expect("the command names its output");
    let committed_path = repo().join(&args[at + 1]);
    args[at + 1] = out_path.display().to_string();
    succeeded(&run_in_repo(&args));
    let written = std::fs::read(&out_path).expect("the weights written");
    let committed = std::fs::read(&committed_path).expect("the committed weights");
    assert!(
        written == committed,
        "{} is not what the README's command writes: train again with it (and pin the content)",
        committed_path.display()
    );
    let text = String::from_utf8(written).expect("text");
    let trained = field(&text, "trained");
    assert!(
        trained.starts_with("\"orrery train --games 0 --ridge "),
        "records only: no self-play options named: {trained}"
    );
    for self_play_only in ["--players", "--bot ", "--seed", "--explore"] {
        assert!(!trained.contains(self_play_only), "{trained}");
    }
    std::fs::remove_dir_all(&dir).expect("scratch removed");
}

#[test]
fn self_play_training_names_its_players_bot_and_seed() {
    let dir = scratch("train-self-play");
    let out_path = dir.join("weights.yaml");
    let out = run_in_repo([
        "train",
        "--games",
        "4",
        "--players",
        "2",
        "--bot",
        "random",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--out",
        &out_path.display().to_string(),
    ]);
    succeeded(&out);
    let text = std::fs::read_to_string(&out_path).expect("the weights written");
    let trained = field(&text, "trained");
    assert!(
        trained.starts_with("\"orrery train --games 4 --players 2 --bot random --ridge ")
            && trained.ends_with(" --seed 5\""),
        "{trained}"
    );
    std::fs::remove_dir_all(&dir).expect("scratch removed");
}

/// A study's logs are records `train` learns from, whatever their lines hold: here a line
/// where a seat answers about its special token after its decision (the study writes the
/// answer into the decision's line, as the recording platform does), which is walked as
/// replaying it plays it.
#[test]
fn training_learns_from_a_studys_logs_with_answers_after_a_decision() {
    let dir = scratch("train-study-logs");
    let logs = dir.join("logs");
    succeeded(&run_in_repo([
        "simulate",
        "--games",
        "8",
        "--players",
        "4",
        "--bots",
        "greedy",
        "--factions",
        "taklons,terrans,hadsch-hallas,itars",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--logs",
        &logs.display().to_string(),
    ]));
    // The logs hold such a line (a brainstone placed twice in one line), so the case is met.
    let answered_twice = std::fs::read_dir(&logs)
        .expect("the logs")
        .map(|e| std::fs::read_to_string(e.expect("a log").path()).expect("readable"))
        .any(|text| {
            text.lines()
                .any(|l| l.matches("brainstone ").count() >= 2 && l.contains(". brainstone"))
        });
    assert!(answered_twice, "no log answers twice in one line");
    let out_path = dir.join("weights.yaml");
    let out = run_in_repo([
        "train",
        "--games",
        "0",
        "--records",
        &logs.display().to_string(),
        "--out",
        &out_path.display().to_string(),
    ]);
    let text = succeeded(&out);
    assert!(text.contains("8 records (0 skipped)"), "{text}");
    assert!(out_path.exists());
    std::fs::remove_dir_all(&dir).expect("scratch removed");
}
