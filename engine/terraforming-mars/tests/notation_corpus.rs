//! Every line of every copied record parses and prints back to the identical string.

mod common;

use orrery_tm::notation::Line;
use orrery_tm::record::Record;

#[test]
fn every_recorded_line_round_trips() {
    let mut lines = 0;
    for p in common::record_paths() {
        let r = Record::load(&p).expect("record loads");
        for m in &r.moves {
            let parsed = Line::parse(&m.line).unwrap_or_else(|e| panic!("{}: {e}", m.line));
            assert_eq!(parsed.to_string(), m.line);
            lines += 1;
        }
    }
    assert!(lines > 7000, "{lines} lines");
}
