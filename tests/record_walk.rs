//! `Record::walk_parts`: a record replayed part by part, as listing tests and benches read it.

mod common;

use orrery_gp::record::{replay, seat_snapshot, Record, WalkStop};

fn first_record() -> Record {
    let path = common::records().into_iter().next().expect("a record");
    Record::from_json(&common::read_record(&path)).expect("a record")
}

#[test]
fn walking_a_record_ends_where_replaying_it_ends() {
    let content = common::platform_content();
    let record = first_record();
    let mut last_index = 0;
    let mut visits = 0;
    let walked = record
        .walk_parts(&content, |_, at| {
            assert!(at.index >= last_index && at.index >= 1, "{at:?}");
            assert_eq!(at.line, record.moves[at.index]);
            last_index = at.index;
            visits += 1;
            Ok::<(), String>(())
        })
        .expect("the record walks to its end");
    let replayed = replay(content, &record, None, false).expect("the record replays");
    assert_eq!(walked.scores(), replayed.scores());
    for seat in 0..record.players {
        assert_eq!(seat_snapshot(&walked, seat), seat_snapshot(&replayed, seat));
    }
    assert_eq!(last_index, record.moves.len() - 1);
    assert!(visits > record.moves.len(), "{visits} parts");
}

#[test]
fn a_refused_part_stops_the_walk_at_its_line() {
    let content = common::platform_content();
    let mut record = first_record();
    let at = record.moves.len() / 2;
    let actor = record.moves[at]
        .split(' ')
        .next()
        .expect("an actor")
        .to_string();
    record.moves[at] = format!("{actor} spend 99q for 99c");
    let mut last_seen = 0;
    let stop = record
        .walk_parts(&content, |_, at| {
            last_seen = at.index;
            Ok::<(), String>(())
        })
        .expect_err("the edited line is refused");
    match stop {
        WalkStop::Refused { index, .. } => assert_eq!(index, at),
        other => panic!("{other:?}"),
    }
    assert_eq!(last_seen, at);
}

#[test]
fn the_visitor_and_unparsable_lines_stop_the_walk() {
    let content = common::platform_content();
    let mut record = first_record();
    let mut visits = 0;
    let stop = record
        .walk_parts(&content, |_, _| {
            visits += 1;
            Err("enough")
        })
        .expect_err("the visitor stops it");
    assert_eq!(stop, WalkStop::Visitor("enough"));
    assert_eq!(visits, 1);

    // A line of more parts than the notation accepts.
    record.moves[3] = "p1 spend 1o for 1c. ".repeat(20_000);
    let stop = record
        .walk_parts(&content, |_, _| Ok::<(), String>(()))
        .expect_err("an unparsable line");
    assert!(
        matches!(stop, WalkStop::Unparsable { index: 3, .. }),
        "{stop:?}"
    );
}
