//! The learned evaluation on the base game: its features are named from content and described
//! for every seat in every state; the committed weights file (`content/bots/gaia-project.yaml`)
//! fits those features, a broken copy is refused at its line, a charge never lowers the value
//! it gives a position, and `best` playing with it beats `random` on fixed seeds.

mod common;

use std::sync::Arc;

use orrery_core::bot::{self, Model};
use orrery_core::play_api::{Evaluate, Playable};
use orrery_gp::game::Game;

/// A 2-player game of the base content drawn from `seed`, started as a study starts one.
fn game(seed: u64) -> Game {
    common::two_player_game(seed)
}

fn weights_text() -> String {
    std::fs::read_to_string(common::root().join("content/bots/gaia-project.yaml"))
        .expect("the committed weights file")
}

fn committed_model(g: &Game) -> Arc<Model> {
    let m = Model::parse(
        &weights_text(),
        "gaia-project.yaml",
        "gaia-project",
        &g.feature_names(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    Arc::new(m)
}

#[test]
fn every_seat_is_described_by_one_finite_number_per_feature_name() {
    let mut g = game(3);
    let names = g.feature_names();
    assert!(names.len() > 40, "{names:?}");
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "names are unique");
    let mut bot = bot::RandomBot::new(9, bot::MAX_FREE);
    let mut checked = 0;
    while !g.is_over() {
        for s in 0..g.seat_count() {
            let f = g.features(s);
            assert_eq!(f.len(), names.len(), "at decision {}", g.decisions_done());
            assert!(f.iter().all(|x| x.is_finite()), "{f:?}");
            // The VP feature is the seat's VP, the heuristic one its heuristic value.
            assert_eq!(f[0], f64::from(g.score()[s]));
            assert_eq!(f[3], g.value(s));
            checked += 1;
        }
        bot.step(&mut g).expect("a legal part");
        // The names depend on content only.
        assert_eq!(g.feature_names(), names);
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn the_committed_weights_fit_the_features_and_a_broken_copy_is_refused_at_its_line() {
    let g = game(1);
    let m = committed_model(&g);
    assert_eq!(m.weights.len(), g.feature_names().len());
    let text = weights_text();
    // A weight for a feature the content does not have is refused at its line.
    let (line, first) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("  \""))
        .expect("a weight line");
    let broken = text.replacen(first, "  \"held unobtainium\": 1.0", 1);
    let e = Model::parse(&broken, "w.yaml", "gaia-project", &g.feature_names())
        .expect_err("an unknown feature");
    assert!(
        e.starts_with(&format!("w.yaml:{}:", line + 1)) && e.contains("held unobtainium"),
        "{e}"
    );
}

#[test]
fn a_charge_never_lowers_what_the_committed_weights_value_a_position_at() {
    let mut g = game(4);
    let model = committed_model(&g);
    let mut bot = bot::RandomBot::new(4, bot::MAX_FREE);
    let mut checked = 0;
    while !g.is_over() {
        for seat in 0..g.seat_count() {
            if g.state.players[seat].faction.is_empty() {
                continue;
            }
            // Every charge of 1 until nothing is left to charge: I to II, then II to III.
            let mut charged = g.clone();
            let mut before = model.value(&charged, seat);
            while charged.state.players[seat].power.charge(1, false) == 1 {
                let after = model.value(&charged, seat);
                assert!(
                    after >= before,
                    "seat {seat} at decision {}: {before} then {after} after a charge",
                    g.decisions_done()
                );
                before = after;
                checked += 1;
            }
        }
        bot.step(&mut g).expect("a legal part");
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn best_with_the_committed_weights_beats_random() {
    for seed in [1, 2] {
        let mut g = game(seed);
        let model = committed_model(&g);
        // `best` sits in seat 0 on one seed and seat 1 on the other.
        let best_seat = (seed % 2) as usize;
        let mut bots: Vec<_> = (0..2)
            .map(|s| {
                let name = if s == best_seat { "best" } else { "random" };
                bot::by_name_with::<Game>(name, seed * 10 + s as u64, Some(&model)).expect("bot")
            })
            .collect();
        bot::play_game(&mut g, &mut bots, 50_000, |_, _, _| {}).expect("the game ends");
        let sc = g.score();
        assert!(
            sc[best_seat] > sc[1 - best_seat] + 30,
            "seed {seed}: best {} against random {}",
            sc[best_seat],
            sc[1 - best_seat]
        );
    }
}

/// A conformance record read as the engine reads it.
fn record(name: &str) -> orrery_gp::record::Record {
    let path = common::root().join("tests/data/conformance").join(name);
    let text = std::fs::read_to_string(&path).expect("record readable");
    orrery_gp::record::Record::from_json_text(&text).expect("a record")
}

#[test]
fn a_recorded_game_gives_a_sample_per_seat_and_decision_labelled_with_its_final_score() {
    let content = common::platform_content();
    let rec = record("rich/rich-001.json");
    let finals: Vec<f64> = rec
        .final_scores
        .as_ref()
        .expect("the record's final scores")
        .iter()
        .map(|f| f64::from(f.vp))
        .collect();
    let seats = rec.players;
    let samples = Game::record_samples(&content, &rec).unwrap_or_else(|e| panic!("{e}"));
    // Count the decisions the replay starts once every seat has its faction, as self-play
    // notes them: before each part, whenever the number of decisions done has changed.
    let mut decisions = 0;
    let mut last = usize::MAX;
    let mut names = Vec::new();
    rec.walk_parts(&content, |g, _| {
        let chosen =
            g.state.players.len() == seats && g.state.players.iter().all(|p| !p.faction.is_empty());
        if chosen && g.decisions_done() != last {
            last = g.decisions_done();
            decisions += 1;
            if names.is_empty() {
                names = g.feature_names();
            }
        }
        Ok::<(), String>(())
    })
    .expect("the record replays");
    assert!(decisions > 50, "{decisions} decisions");
    assert_eq!(samples.len(), decisions * seats);
    for (i, s) in samples.iter().enumerate() {
        assert_eq!(
            s.target,
            finals[i % seats],
            "sample {i}: seat {}",
            i % seats
        );
        assert_eq!(s.features.len(), names.len());
        assert!(s.features.iter().all(|v| v.is_finite()), "sample {i}");
    }
    // Samples change along the game: the first and last of a seat differ.
    assert_ne!(samples[0].features, samples[samples.len() - seats].features);
}

#[test]
fn a_record_that_cannot_be_replayed_or_ends_early_is_refused_with_the_reason() {
    let content = common::platform_content();
    let good = record("rich/rich-001.json");
    // A move the game refuses: the error names it.
    let mut broken = good.clone();
    let at = broken.moves.len() / 2;
    broken.moves[at] = format!(
        "{} build m 99Z99",
        broken.moves[at].split(' ').next().unwrap()
    );
    let e = Game::record_samples(&content, &broken).expect_err("a refused move");
    assert!(e.contains(&format!("move {at}")), "{e}");
    // A record cut short and marked unfinished: no final score to learn.
    let mut cut = good.clone();
    cut.moves.truncate(at);
    cut.finished = false;
    let e = Game::record_samples(&content, &cut).expect_err("unfinished");
    assert!(e.contains("before final scoring"), "{e}");
    // Cut short but claiming to be finished: the game is not over.
    cut.finished = true;
    let e = Game::record_samples(&content, &cut).expect_err("not over");
    assert!(e.contains("not over"), "{e}");
    // Final scores that the replay does not reach.
    let mut wrong = good.clone();
    if let Some(f) = wrong.final_scores.as_mut() {
        f[0].vp += 1;
    }
    let e = Game::record_samples(&content, &wrong).expect_err("other final scores");
    assert!(e.contains("the record"), "{e}");
}
