//! Replays the recorded games of the public engine and compares every snapshot field (score
//! breakdown included) and every recorded draw, reporting the first difference: base games,
//! Corporate Era (2 and 3 players), draft (3 players), solo and Beginner seats.

mod common;

use std::collections::BTreeMap;

use orrery_tm::record::Record;

struct Outcome {
    id: String,
    replay: orrery_tm::conformance::Replay,
}

fn replays() -> Vec<Outcome> {
    let content = common::content();
    common::record_paths()
        .iter()
        .map(|p| {
            let r = Record::load(p).expect("record loads");
            Outcome {
                id: r.id.clone(),
                replay: orrery_tm::conformance::replay(content.clone(), &r),
            }
        })
        .collect()
}

/// The kind of a record from its id (`dev-3p-draft-02` is `3p-draft`).
fn kind(id: &str) -> String {
    let parts: Vec<&str> = id.split('-').collect();
    match parts.as_slice() {
        [_, "solo", ..] => "solo".to_owned(),
        [_, players, kind, ..] => format!("{players}-{kind}"),
        _ => id.to_owned(),
    }
}

/// Prints each record's outcome and the identical count per kind; returns (identical, total)
/// per kind.
fn report(rs: &[Outcome]) -> BTreeMap<String, (usize, usize)> {
    let mut by_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for o in rs {
        let r = &o.replay;
        let e = by_kind.entry(kind(&o.id)).or_default();
        e.1 += 1;
        if r.difference.is_none() {
            e.0 += 1;
        }
        eprintln!(
            "{}/{}  {}",
            r.identical,
            r.total,
            r.difference.as_deref().unwrap_or("identical")
        );
    }
    for (k, (same, total)) in &by_kind {
        eprintln!("{k}: {same} of {total} identical");
    }
    by_kind
}

/// Every recorded game replays identically: every draw and every snapshot field, the final
/// score breakdown included.
#[test]
fn every_record_replays_identically() {
    let rs = replays();
    let by_kind = report(&rs);
    let expected = [
        ("2p-base", 20),
        ("2p-beginner", 2),
        ("2p-ce", 8),
        ("3p-base", 6),
        ("3p-ce", 4),
        ("3p-draft", 4),
        ("4p-base", 4),
        ("solo", 6),
    ];
    for (k, n) in expected {
        assert_eq!(by_kind.get(k), Some(&(n, n)), "{k}");
    }
    assert_eq!(rs.len(), 54, "every record is present");
}

/// The deal reproduces every record's state after setup (hands, decks, corporations of the
/// Beginner seats, the solo game's neutral tiles) and the initial choices reproduce the
/// recorded draws and discards.
#[test]
fn setup_and_initial_choices_match_every_record() {
    for o in replays() {
        let n = o.replay.identical;
        assert!(n >= 1, "{:?}", o.replay.difference);
    }
}
