//! Bad input never panics and never changes the state: corrupted versions of recorded lines
//! are applied at every point of every recorded game.
//!
//! `extreme_values_in_every_record` puts extreme values (0, huge, negative, the bounds of
//! `i32`/`u32`/`i64`/`u64`, other ids, other seats, other hexes) into every recorded line of
//! every record and prints how many mutations it tried. By default it tries 40 mutations per
//! line (about a minute on two cores in release); `ORRERY_MUTATIONS=N` tries N per line, and
//! `ORRERY_MUTATIONS=all` every mutation of every line.

mod common;

use orrery_core::rng::Rng;
use orrery_gp::game::Game;
use orrery_gp::record::{replay, Record};

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
    assert!(records.len() >= 100, "only {} records", records.len());
    for path in &records {
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
            for _ in 0..2 {
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
    eprintln!("robustness: {refused} corrupted lines refused");
    assert!(
        refused > 10_000,
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

/// Numbers a mutation writes in place of a number: zero, small, the bounds of the integer
/// types the kernel uses and one past them, negative ones, beyond `u128`.
const EXTREME_NUMBERS: &[&str] = &[
    "0",
    "00",
    "1",
    "9",
    "99",
    "255",
    "256",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "-0",
    "-1",
    "-2147483648",
    "-2147483649",
    "-9223372036854775808",
];

/// Hexes a mutation writes in place of a hex: far off the map, at the bounds of `i32`, ones
/// that alias a real hex when an index wraps, names of sectors and positions that do not exist.
const EXTREME_HEXES: &[&str] = &[
    "0x0",
    "-1x-1",
    "0x268435458",
    "2147483647x2147483647",
    "-2147483648x-2147483648",
    "4294967296x0",
    "99Z9",
    "0A0",
    "99A99",
    "1A999999999999",
    "4294967297A1",
];

/// Every mutation of `line` (annotations stripped): each number in each word replaced by each
/// extreme number, the actor by other seats, each word by other words of the records, each
/// hex by other hexes.
fn mutations(line: &str, game: &Game, words: &[String], hexes: &[String]) -> Vec<String> {
    let line = orrery_gp::notation::strip_annotations(line);
    let tokens: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::new();
    let with = |i: usize, w: &str| {
        let mut t = tokens.clone();
        t[i] = w;
        t.join(" ")
    };
    let mut actors: Vec<String> = (0..game.state.players.len())
        .map(|s| game.seat_name(s))
        .collect();
    actors.extend(
        [
            "p0",
            "p1",
            "p2",
            "p5",
            "p255",
            "p256",
            "p4294967297",
            "nobody",
        ]
        .map(String::from),
    );
    for a in &actors {
        out.push(with(0, a));
    }
    for (i, token) in tokens.iter().enumerate().skip(1) {
        let (word, dot) = match token.strip_suffix('.') {
            Some(w) => (w, "."),
            None => (*token, ""),
        };
        // Each run of digits, with the extremes (a sign before it is replaced too).
        let bytes = word.as_bytes();
        let mut j = 0;
        while j < bytes.len() {
            if bytes[j].is_ascii_digit() {
                let start = if j > 0 && bytes[j - 1] == b'-' {
                    j - 1
                } else {
                    j
                };
                let mut end = j;
                while end < bytes.len() && bytes[end].is_ascii_digit() {
                    end += 1;
                }
                for n in EXTREME_NUMBERS {
                    out.push(with(
                        i,
                        &format!("{}{n}{}{dot}", &word[..start], &word[end..]),
                    ));
                }
                j = end;
            } else {
                j += 1;
            }
        }
        if orrery_gp::notation::parse_hex_ref(word).is_ok() {
            for h in EXTREME_HEXES
                .iter()
                .copied()
                .chain(hexes.iter().map(String::as_str))
            {
                out.push(with(i, &format!("{h}{dot}")));
            }
        }
        for w in words {
            out.push(with(i, &format!("{w}{dot}")));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// What every state must satisfy, accepted line or not.
fn check_state(game: &Game, what: &str) {
    let content = &game.content;
    for p in &game.state.players {
        for (r, &have) in content.rules.resources.iter().zip(&p.resources) {
            assert!(have >= 0, "{what}: {} holds {have} {}", p.faction, r.id);
            if let Some(cap) = r.cap {
                assert!(have <= cap, "{what}: {} holds {have} {}", p.faction, r.id);
            }
        }
        let tokens: u32 = p.power.areas.iter().sum();
        assert!(
            tokens < 1000,
            "{what}: {} holds {tokens} power tokens",
            p.faction
        );
        let sources: i32 = p.vp_sources.values().sum();
        assert_eq!(sources, p.resource(content, "vp"), "{what}: VP sources");
    }
}

/// How many mutations to try per line: `ORRERY_MUTATIONS` (a number, or `all`), default 40.
fn mutations_per_line() -> usize {
    match std::env::var("ORRERY_MUTATIONS").as_deref() {
        Ok("all") => usize::MAX,
        Ok(n) => n.parse().unwrap_or(40),
        Err(_) => 40,
    }
}

/// Extreme values in every recorded line of every record, at the point it was played: each
/// mutated line is refused with the state byte-identical, or accepted consistently (the same
/// state twice, every invariant kept, saved and loaded back through `Game::load` unchanged, a
/// listing of bounded size); nothing panics.
#[test]
fn extreme_values_in_every_record() {
    let content = common::platform_content();
    let per_line = mutations_per_line();
    let mut rng = Rng::new(14);
    let records = common::records();
    assert!(records.len() >= 100, "only {} records", records.len());
    let (mut tried, mut refused, mut accepted) = (0usize, 0usize, 0usize);
    // Ids from every record and from content: factions, tiles, boosters, buildings, tracks.
    let mut words: Vec<String> = Vec::new();
    let mut hexes: Vec<String> = Vec::new();
    for path in &records {
        let record = Record::from_json(&common::read_record(path)).expect("a record");
        for m in &record.moves {
            for w in orrery_gp::notation::strip_annotations(m).split(' ').skip(1) {
                let w = w.trim_end_matches('.');
                if orrery_gp::notation::parse_hex_ref(w).is_ok() {
                    hexes.push(w.to_string());
                } else if w.chars().any(|c| c.is_ascii_alphabetic()) {
                    words.push(w.to_string());
                }
            }
        }
    }
    words.sort();
    words.dedup();
    hexes.sort();
    hexes.dedup();
    // A few of each, so a line's mutations stay in the hundreds.
    let words: Vec<String> = words
        .iter()
        .step_by(words.len() / 40 + 1)
        .cloned()
        .collect();
    let hexes: Vec<String> = hexes.iter().step_by(hexes.len() / 8 + 1).cloned().collect();
    for path in &records {
        let record = Record::from_json(&common::read_record(path)).expect("a record");
        let mut game: Game = replay(content.clone(), &record, Some(0), false)
            .map_err(|(m, _)| m.to_string())
            .expect("init");
        for (index, line) in record.moves.iter().enumerate().skip(1) {
            let mut all = mutations(line, &game, &words, &hexes);
            if per_line < all.len() {
                for k in 0..per_line {
                    let pick = k + rng.below(all.len() - k);
                    all.swap(k, pick);
                }
                all.truncate(per_line);
            }
            let before = serde_json::to_string(&game.state).expect("serialise");
            for bad in &all {
                let what = format!("{} move {index}: {bad:?}", path.display());
                tried += 1;
                let mut probe = game.clone();
                if probe.apply_text(bad).is_err() {
                    refused += 1;
                    assert!(probe.state == game.state, "{what}: refused, state changed");
                    assert_eq!(
                        serde_json::to_string(&probe.state).expect("serialise"),
                        before,
                        "{what}: refused, state not byte-identical"
                    );
                    continue;
                }
                accepted += 1;
                let mut twice = game.clone();
                twice
                    .apply_text(bad)
                    .unwrap_or_else(|e| panic!("{what}: accepted once, refused once: {e}"));
                assert!(
                    twice.state == probe.state,
                    "{what}: two states from one line"
                );
                check_state(&probe, &what);
                let json = serde_json::to_string(&probe.state).expect("serialise");
                let state = serde_json::from_str(&json).expect("the saved state reads");
                let loaded = Game::load(content.clone(), state)
                    .unwrap_or_else(|e| panic!("{what}: Game::load refuses the state: {e}"));
                assert!(
                    loaded.state == probe.state,
                    "{what}: save/load changed the state"
                );
                let listed = probe.legal_parts().len();
                assert!(listed < 100_000, "{what}: {listed} legal parts");
            }
            game.apply_text(line).expect("recorded line applies");
        }
    }
    eprintln!(
        "robustness: {tried} mutations of recorded lines tried in {} records: {refused} refused with the state byte-identical, {accepted} accepted consistently",
        records.len()
    );
    assert!(
        tried > 300_000 || per_line < 40,
        "only {tried} mutations tried"
    );
    assert!(refused > tried / 2, "only {refused} of {tried} refused");
}
