//! A recorded game opened as a log (`module::open_record`, what `render` and `view` read):
//! every reshuffle planned at the start, the inputs played as lines, reach each state the
//! public engine recorded, in every record.

mod common;

use orrery_tm::conformance::first_difference;
use orrery_tm::game::Game;
use orrery_tm::module::open_record;
use orrery_tm::notation::Line;
use orrery_tm::record::Record;

#[test]
fn every_record_opened_as_a_log_reaches_each_recorded_state() {
    let content = common::content();
    let paths = common::record_paths();
    assert!(paths.len() >= 50);
    for p in paths {
        let r = Record::load(&p).expect("record loads");
        let (mut game, lines): (Game, Vec<String>) = open_record(&content, &r).expect("opens");
        assert_eq!(lines.len(), r.moves.len(), "{}", r.id);
        for (k, (line, m)) in lines.iter().zip(&r.moves).enumerate() {
            assert_eq!(*line, m.line);
            let parsed = Line::parse(line).expect("a line of the notation");
            game.apply_line(&parsed)
                .unwrap_or_else(|e| panic!("{} move {k}: `{line}` refused: {e}", r.id));
            // Every state is compared on a sample; the last of every record always.
            if k % 25 == 0 || k + 1 == lines.len() {
                let d = first_difference("state", &game.snapshot(), &m.snapshot);
                assert_eq!(d, None, "{} move {k}", r.id);
            }
        }
    }
}

#[test]
fn a_reshuffle_naming_an_unknown_card_is_refused() {
    let content = common::content();
    let mut r = Record::load(&common::record_paths()[0]).expect("record loads");
    let m = r.moves.first_mut().expect("a move");
    m.events.push(orrery_tm::record::DeckEvent::Reshuffle {
        order: vec!["No Such Card".to_owned()],
    });
    let Err(e) = open_record(&content, &r) else {
        panic!("a reshuffle of an unknown card opens");
    };
    assert!(e.contains("No Such Card"), "{e}");
}
