//! Every move line of every recorded game parses, and prints back to a line that parses to
//! the same move.

mod common;

use orrery_gp::notation::{parse_line, strip_annotations};

#[test]
fn every_recorded_line_parses_and_round_trips() {
    let mut lines = 0;
    for path in common::records() {
        let rec = common::read_record(&path);
        for (i, m) in rec["moves"].as_array().expect("moves").iter().enumerate() {
            let text = m.as_str().expect("line is text");
            let parsed = parse_line(text)
                .unwrap_or_else(|e| panic!("{} move {i} {text:?}: {e}", path.display()));
            let printed = parsed.to_string();
            let again = parse_line(&printed).expect("printed line parses");
            assert_eq!(parsed, again, "{} move {i}", path.display());
            assert!(!strip_annotations(text).contains('⇒'));
            lines += 1;
        }
    }
    assert!(lines > 9000, "parsed {lines} lines");
}
