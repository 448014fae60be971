//! Replays the recorded base games of the public engine and compares every snapshot field
//! (score breakdown included) and every recorded draw, reporting the first difference.

mod common;

use orrery_tm::record::Record;

fn replays() -> Vec<orrery_tm::conformance::Replay> {
    let content = common::content();
    common::record_paths()
        .iter()
        .map(|p| {
            let r = Record::load(p).expect("record loads");
            orrery_tm::conformance::replay(content.clone(), &r)
        })
        .collect()
}

fn report(rs: &[orrery_tm::conformance::Replay]) -> usize {
    let mut identical = 0;
    for r in rs {
        if r.difference.is_none() {
            identical += 1;
        }
        eprintln!(
            "{}/{}  {}",
            r.identical,
            r.total,
            r.difference.as_deref().unwrap_or("identical")
        );
    }
    eprintln!("{identical} of {} records replay identically", rs.len());
    identical
}

/// Every recorded base game (2–4 players, Beginner seats included) replays identically: every
/// draw and every snapshot field, the final score breakdown included.
#[test]
fn every_base_record_replays_identically() {
    let rs = replays();
    assert_eq!(rs.len(), 32, "the 32 base records are present");
    assert_eq!(report(&rs), rs.len());
}

/// The deal reproduces every record's state after setup (hands, decks, corporations of the
/// Beginner seats) and the initial choices reproduce the recorded draws and discards.
#[test]
fn setup_and_initial_choices_match_every_record() {
    for r in replays() {
        let n = r.identical;
        assert!(n >= 1, "{:?}", r.difference);
    }
}
