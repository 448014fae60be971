//! `Record::walk_parts`: a record replayed part by part, as listing tests and benches read it.

mod common;

use std::sync::Arc;

use orrery_core::bot::{Bot, RandomBot};
use orrery_core::game_module::GameModule;
use orrery_core::rng::Rng;
use orrery_gp::game::{Game, Setup};
use orrery_gp::notation::Command;
use orrery_gp::record::{replay, seat_snapshot, Record, WalkStop};
use orrery_gp::scribe::LineWriter;

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

/// A random four-player game with `faction` in the first seat, logged as a study logs it (its
/// line writer, its log); `None` when the game does not finish.
fn study_log(
    content: &Arc<orrery_gp::content::Content>,
    seed: u64,
    faction: &str,
) -> Option<Record> {
    let mut rng = Rng::new(seed);
    let setup = Setup::random(content, 4, &mut rng).expect("a setup");
    let mut game = Game::new(content.clone(), setup).expect("a game");
    let mut scribe = LineWriter::default();
    let mut lines = vec![format!("init 4 s1-{seed}")];
    let mut bot = RandomBot::new(seed, 4);
    for _ in 0..50_000 {
        if game.finished() {
            let log = game.log(
                &lines,
                &serde_json::json!({"source": "built-in", "variants": []}),
            );
            return Some(Record::from_json(&log).expect("a study's log is a record"));
        }
        let legal = game.legal_parts();
        let mine = Command::Faction(faction.into());
        let part = match legal.contains(&mine) {
            true => mine,
            false => bot.choose(&game, &legal).expect("a part"),
        };
        scribe.write(&game, &part, &mut lines);
        game.apply_part(&part).expect("a listed part applies");
    }
    None
}

/// A study's log puts the answers a seat gives about its special token right after its own
/// decision (income, a charge) in that decision's line, as the recording platform writes
/// them: walking such a line ends the decision before the answer, as playing it does.
#[test]
fn a_study_log_answering_after_a_decision_in_its_line_walks_as_it_replays() {
    let content = Arc::new(common::base());
    let holder = content
        .factions
        .iter()
        .find(|f| f.special_token.is_some())
        .expect("a faction with a special token");
    let verb = holder
        .special_token
        .as_ref()
        .expect("its token")
        .id
        .to_string();
    let mut answered_after = 0;
    for seed in 1..=60 {
        let Some(record) = study_log(&content, seed, &holder.id) else {
            continue;
        };
        // The lines holding an answer after the decision's own parts.
        let mut ends_before_answer = 0;
        let mut previous: Option<(usize, Command)> = None;
        let walked = record
            .walk_parts(&content, |_, at| {
                if let (Some((index, Command::EndTurn)), Command::Other { verb: v, .. }) =
                    (&previous, at.part)
                {
                    if *index == at.index && *v == verb {
                        ends_before_answer += 1;
                    }
                }
                previous = Some((at.index, at.part.clone()));
                Ok::<(), String>(())
            })
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let replayed = replay(content.clone(), &record, None, false)
            .unwrap_or_else(|(e, _)| panic!("seed {seed}: {e:?}"));
        assert_eq!(walked.scores(), replayed.scores(), "seed {seed}");
        for seat in 0..record.players {
            assert_eq!(
                seat_snapshot(&walked, seat),
                seat_snapshot(&replayed, seat),
                "seed {seed}"
            );
        }
        answered_after += ends_before_answer;
    }
    assert!(answered_after > 0, "no line answered after its decision");
}
