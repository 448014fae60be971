//! Legal next parts against every recorded game: at every point of every record, the part the
//! record uses next is listed (complete), and every listed part applies and leaves something
//! to do (sound, no dead ends; a free action taken inside an action leaves the action
//! possible to finish).
//!
//! The list offers one income event per `income` part; a recorded `income a,b,…` part (several
//! events named at once, the later ones possibly no longer a choice) must have its first item
//! listed.

mod common;

use std::sync::Arc;

use orrery_gp::content::Content;
use orrery_gp::notation::Command;
use orrery_gp::record::{Record, WalkStop};

/// What must be listed for a recorded part: the part itself, or the first item of an income
/// part naming several events.
fn expected(part: &Command) -> Command {
    match part {
        Command::Income(items) if items.len() > 1 => {
            Command::Income(items[..1].iter().cloned().collect())
        }
        other => other.clone(),
    }
    .canonical()
}

/// Checks one record; returns the problems found and the number of points checked.
fn check_record(content: Arc<Content>, record: &Record, sound: bool) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let mut points = 0;
    let walked = record.walk_parts(&content, |game, at| {
        let (i, line, part) = (at.index, at.line, at.part);
        points += 1;
        let listed = game.legal_parts();
        let canon: Vec<Command> = listed.iter().map(Command::canonical).collect();
        if !canon.contains(&expected(part)) {
            problems.push(format!(
                "move {i} {line:?}: `{part}` is not listed; listed: {}",
                listed
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
        }
        if sound {
            let inside_action = !game.state.turn.follows.is_empty();
            for c in &listed {
                let mut g = game.clone();
                if let Err(e) = g.apply_part(c) {
                    problems.push(format!("move {i} {line:?}: listed `{c}` fails: {e}"));
                } else if !g.finished() && g.legal_parts().is_empty() {
                    problems.push(format!("move {i} {line:?}: listed `{c}` leads nowhere"));
                } else if inside_action && matches!(c, Command::Spend { .. } | Command::Burn(_)) {
                    // A free action inside an action leaves the action's follow-ups
                    // possible: something other than another free action is listed.
                    let after = g.legal_parts();
                    if after
                        .iter()
                        .all(|p| matches!(p, Command::Spend { .. } | Command::Burn(_)))
                    {
                        problems.push(format!(
                            "move {i} {line:?}: listed `{c}` leaves the action unfinishable"
                        ));
                    }
                }
            }
        }
        // Enough problems to act on: stop here.
        if problems.len() > 20 {
            Err("too many problems".to_string())
        } else {
            Ok(())
        }
    });
    match walked {
        Ok(_) | Err(WalkStop::Visitor(_)) => {}
        Err(stop) => problems.push(stop.to_string()),
    }
    (problems, points)
}

fn check_all(sound: bool) {
    let content = common::platform_content();
    let records: Vec<Record> = common::records()
        .iter()
        .map(|p| Record::from_json(&common::read_record(p)).expect("a record"))
        .collect();
    let chunks: Vec<&[Record]> = records.chunks(records.len().div_ceil(2)).collect();
    let results: Vec<(Vec<String>, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                let content = content.clone();
                s.spawn(move || {
                    let mut problems = Vec::new();
                    let mut points = 0;
                    for r in chunk.iter() {
                        let (p, n) = check_record(content.clone(), r, sound);
                        problems.extend(p.into_iter().map(|p| format!("{}: {p}", r.moves[0])));
                        points += n;
                    }
                    (problems, points)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("joins"))
            .collect()
    });
    let points: usize = results.iter().map(|r| r.1).sum();
    let problems: Vec<String> = results.into_iter().flat_map(|r| r.0).collect();
    assert!(points > 10_000, "only {points} points checked");
    assert!(
        problems.is_empty(),
        "{} problems, first ones:\n{}",
        problems.len(),
        problems
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn every_recorded_part_is_listed() {
    check_all(false);
}

#[test]
fn every_listed_part_applies() {
    check_all(true);
}
