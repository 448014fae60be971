//! Replays the recorded base games of the public engine and compares every snapshot.

mod common;

use orrery_tm::record::Record;

fn replays() -> Vec<common::Replay> {
    let content = common::content();
    common::record_paths()
        .iter()
        .map(|p| {
            let r = Record::load(p).expect("record loads");
            common::replay(content.clone(), &r)
        })
        .collect()
}

/// Prints how far each record replays (run with `--nocapture` to see it).
#[test]
fn progress_report() {
    let rs = replays();
    assert_eq!(rs.len(), 32, "the 32 base records are present");
    let mut identical = 0;
    for r in &rs {
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
}
