//! Bad input never panics and never changes the state: corrupted versions of recorded lines
//! are applied at every point of several recorded games.

mod common;

use orrery::game::Game;
use orrery::record::{replay, Record};
use orrery::rng::Rng;

/// A corrupted copy of a line: a word dropped, duplicated, swapped with another word of the
/// game, or a number changed.
fn corrupt(line: &str, words: &[String], rng: &mut Rng) -> String {
    let mut parts: Vec<String> = line.split(' ').map(str::to_string).collect();
    if parts.len() < 2 {
        return format!("{line} x");
    }
    let i = 1 + rng.below(parts.len() - 1);
    match rng.below(5) {
        0 => {
            parts.remove(i);
        }
        1 => {
            let w = parts[i].clone();
            parts.insert(i, w);
        }
        2 => parts[i] = words[rng.below(words.len())].clone(),
        3 => parts[i] = format!("{}", rng.below(40)),
        _ => parts[i] = parts[i].chars().rev().collect(),
    }
    parts.join(" ")
}

#[test]
fn corrupted_lines_are_refused_cleanly() {
    let content = common::platform_content();
    let mut rng = Rng::new(2026);
    let records = common::records();
    let mut refused = 0;
    for path in records.iter().step_by(9) {
        let record = Record::from_json(&common::read_record(path)).expect("a record");
        let words: Vec<String> = record
            .moves
            .iter()
            .flat_map(|m| m.split(' ').map(str::to_string).collect::<Vec<_>>())
            .collect();
        let mut game: Game = replay(content.clone(), &record, Some(0), false)
            .map_err(|(m, _)| m.to_string())
            .expect("init");
        for line in record.moves.iter().skip(1) {
            for _ in 0..3 {
                let bad = corrupt(line, &words, &mut rng);
                let before = serde_json::to_string(&game.state).expect("serialise");
                let mut probe = game.clone();
                if probe.apply_text(&bad).is_err() {
                    refused += 1;
                    assert_eq!(
                        serde_json::to_string(&probe.state).expect("serialise"),
                        before,
                        "{bad:?}"
                    );
                }
            }
            game.apply_text(line).expect("recorded line applies");
        }
    }
    assert!(
        refused > 1000,
        "only {refused} corrupted lines were refused"
    );
}

/// Numbers beyond any real game — half of `u32` and more, hexes far off the map — are refused
/// with the state unchanged at every point of a recorded game, never wrapped into a legal value.
#[test]
fn huge_numbers_are_refused_not_wrapped() {
    let content = common::platform_content();
    let path = &common::records()[0];
    let record = Record::from_json(&common::read_record(path)).expect("a record");
    let mut game: Game = replay(content, &record, Some(0), false)
        .map_err(|(m, _)| m.to_string())
        .expect("init");
    let mut tried = 0;
    for line in record.moves.iter().skip(1) {
        if let Some(seat) = game.deciding_seat() {
            let who = game.seat_name(seat);
            for tail in [
                "burn 2147483648",
                "burn 4294967295",
                "build m 0x268435458",
                "build m 2147483647x2147483647",
                "build m -2147483648x2",
            ] {
                let bad = format!("{who} {tail}");
                let before = serde_json::to_string(&game.state).expect("serialise");
                let mut probe = game.clone();
                assert!(probe.apply_text(&bad).is_err(), "{bad:?} was accepted");
                assert_eq!(
                    serde_json::to_string(&probe.state).expect("serialise"),
                    before,
                    "{bad:?}"
                );
                tried += 1;
            }
        }
        game.apply_text(line).expect("recorded line applies");
    }
    assert!(tried > 100, "only {tried} lines tried");
}
