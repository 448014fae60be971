//! Legal inputs, complete and sound: at every state of every recorded base game the recorded
//! input is listed and every listed input applies.

mod common;

use orrery_tm::game::{Choice, Game};
use orrery_tm::notation::{Line, Name};
use orrery_tm::record::Record;

/// The picks of a choice worth applying: the recorded one is checked separately; here the
/// smallest and largest allowed picks from the front of the list and from its back.
fn sample_picks(c: &Choice) -> Vec<Vec<Name>> {
    let Some(s) = &c.set else {
        return vec![Vec::new()];
    };
    let front = |k: usize| s.from.iter().take(k).cloned().collect::<Vec<_>>();
    let back = |k: usize| s.from.iter().rev().take(k).cloned().collect::<Vec<_>>();
    let max = s.max.min(s.from.len());
    let mut out = vec![front(s.min), back(s.min), front(max), back(max)];
    out.sort();
    out.dedup();
    out
}

#[test]
fn every_recorded_input_is_listed_and_every_listed_input_applies() {
    let content = common::content();
    let (mut states, mut applied) = (0, 0);
    for path in common::record_paths() {
        let r = Record::load(&path).expect("record loads");
        let mut g = orrery_tm::conformance::deal(content.clone(), &r).expect("deal");
        for (k, m) in r.moves.iter().enumerate() {
            for e in &m.events {
                if let orrery_tm::record::DeckEvent::Reshuffle { order } = e {
                    g.plan_reshuffle(order).expect("reshuffle");
                }
            }
            let line = Line::parse(&m.line).expect("line parses");
            let seat = g
                .colors()
                .iter()
                .position(|c| *c == line.player)
                .expect("seated");
            assert!(g.deciding_seats().contains(&seat), "{} move {k}", r.id);
            let choices = g.choices_for(seat);
            assert!(
                choices.iter().any(|c| c.matches(&line)),
                "{} move {k}: `{}` is not listed; listed: {:?}",
                r.id,
                m.line,
                choices
                    .iter()
                    .map(|c| c.line(Vec::new()).to_string())
                    .collect::<Vec<_>>()
            );
            for c in &choices {
                for pick in sample_picks(c) {
                    let l = c.line(pick);
                    let mut h = g.clone();
                    if let Err(e) = h.apply_line(&l) {
                        panic!("{} move {k}: listed `{l}` is refused: {e}", r.id);
                    }
                    applied += 1;
                }
            }
            states += 1;
            g.apply_line(&line).expect("recorded input applies");
        }
        assert!(g.is_over(), "{} ends", r.id);
        assert!(
            g.choices().is_empty(),
            "nothing is listed once the game is over"
        );
    }
    eprintln!("{states} states, {applied} listed inputs applied");
    assert!(states > 7000, "{states}");
}

/// Small sets expand into every subset, each listed line matching its choice.
#[test]
fn legal_lines_expand_small_picks() {
    let content = common::content();
    let r = Record::load(&common::record_paths()[0]).expect("record loads");
    let g = orrery_tm::conformance::deal(content, &r).expect("deal");
    let lines = g.legal_lines().expect("ten dealt cards expand");
    // Two corporations, each with every affordable subset of the ten cards.
    assert!(
        lines.len() > 1000 && lines.len() <= 2 * 1024,
        "{}",
        lines.len()
    );
    assert!(lines.iter().all(|l| g.is_listed(l)));
}

/// The game after the moves of a record up to `upto` (exclusive).
pub fn replayed(upto: usize, record: usize) -> (Game, Record) {
    let content = common::content();
    let r = Record::load(&common::record_paths()[record]).expect("record loads");
    let mut g = orrery_tm::conformance::deal(content, &r).expect("deal");
    for m in &r.moves[..upto] {
        for e in &m.events {
            if let orrery_tm::record::DeckEvent::Reshuffle { order } = e {
                g.plan_reshuffle(order).expect("reshuffle");
            }
        }
        g.apply_line(&Line::parse(&m.line).expect("parses"))
            .expect("applies");
    }
    (g, r)
}
