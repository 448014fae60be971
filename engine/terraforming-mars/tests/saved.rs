//! Saved games: a state saved and restored is the same game (over the states of every
//! recorded game and of random games played on from the restored copy), a state that does not
//! fit the content or is no state is refused saying why, and the listing of the seat to decide
//! shows nothing that seat may not see.

mod common;

use std::sync::Arc;

use orrery_core::game_module::GameModule;
use orrery_core::play_api::Playable;
use orrery_core::rng::Rng;
use orrery_tm::conformance::deal;
use orrery_tm::content::Content;
use orrery_tm::game::Game;
use orrery_tm::notation::Line;
use orrery_tm::record::{DeckEvent, Record};
use serde_json::Value;

fn saved(g: &Game) -> Value {
    g.save_state().expect("a game in play saves")
}

fn restored(content: &Arc<Content>, g: &Game) -> Game {
    Game::restore(content.clone(), saved(g)).expect("a saved state restores")
}

/// The restored game is the saved one: the same saved form, snapshot and listing.
fn assert_same(a: &Game, b: &Game, at: &str) {
    assert_eq!(saved(a), saved(b), "{at}: saved forms differ");
    assert_eq!(a.snapshot(), b.snapshot(), "{at}: snapshots differ");
    assert_eq!(a.legal_parts(), b.legal_parts(), "{at}: listings differ");
}

/// Replays a record, calling `at` with the game after each move it accepts.
fn replay(content: &Arc<Content>, r: &Record, mut at: impl FnMut(usize, &Game, Option<&Line>)) {
    let mut g = deal(content.clone(), r).expect("deal");
    let lines: Vec<Option<Line>> = r.moves.iter().map(|m| Line::parse(&m.line).ok()).collect();
    for (k, m) in r.moves.iter().enumerate() {
        at(k, &g, lines[k].as_ref());
        for e in &m.events {
            if let DeckEvent::Reshuffle { order } = e {
                g.plan_reshuffle(order).expect("reshuffle");
            }
        }
        let Some(line) = &lines[k] else { return };
        if g.apply_line(line).is_err() {
            return;
        }
    }
    at(r.moves.len(), &g, None);
}

#[test]
fn states_of_every_recorded_game_round_trip() {
    let content = common::content();
    let mut checked = 0;
    for path in common::record_paths() {
        let r = Record::load(&path).expect("record");
        replay(&content, &r, |k, g, next| {
            if k % 4 != 0 && next.is_some() {
                return;
            }
            let at = format!("{} move {k}", r.id);
            let back = restored(&content, g);
            assert_same(g, &back, &at);
            // Played on, the two stay the same game (deck order, generator, queue).
            if let Some(line) = next {
                let (mut a, mut b) = (g.clone(), back);
                let ra = a.apply_line(line);
                let rb = b.apply_line(line);
                assert_eq!(ra, rb, "{at}: `{line}`");
                assert_eq!(a.snapshot(), b.snapshot(), "{at}: after `{line}`");
            }
            checked += 1;
        });
    }
    assert!(checked > 500, "only {checked} states checked");
}

#[test]
fn random_games_restored_mid_way_play_on_identically() {
    let content = common::content();
    for (players, seed) in [(1, 3), (2, 11), (4, 29), (5, 7)] {
        let mut g = Game::random(content.clone(), players, seed).expect("deal");
        let mut rng = Rng::new(seed);
        let mut copy: Option<Game> = None;
        let mut steps = 0;
        while !g.is_over() && steps < 3000 {
            let legal = g.legal_parts();
            assert!(!legal.is_empty(), "seed {seed}: stuck");
            let part = &legal[rng.below(legal.len())];
            g.play(part).expect("a listed part plays");
            if let Some(c) = copy.as_mut() {
                c.play(part).expect("the restored game plays it too");
            }
            steps += 1;
            // Save mid-way, in a pick of cards as often as not.
            if steps == 40 {
                copy = Some(restored(&content, &g));
            }
        }
        let copy = copy.expect("the game lasted 40 parts");
        assert_same(&g, &copy, &format!("seed {seed} at the end"));
        assert_eq!(g.winners(), GameModule::winners(&copy));
    }
}

/// A game part-way through a pick of cards (the initial choice).
fn picking() -> (Arc<Content>, Game) {
    let content = common::content();
    let mut g = Game::random(content.clone(), 2, 5).expect("deal");
    let start = g
        .legal_parts()
        .into_iter()
        .find(|p| matches!(p, orrery_tm::game::Part::Start(_)))
        .expect("the initial choice picks cards");
    g.play(&start).expect("start");
    let first = g.legal_parts()[0].clone();
    g.play(&first).expect("take or leave");
    (content, g)
}

#[test]
fn a_pick_in_progress_is_saved_with_the_game() {
    let (content, g) = picking();
    let back = restored(&content, &g);
    assert_same(&g, &back, "mid-pick");
    assert!(saved(&g)["picking"].is_object());
}

fn refusal(content: &Arc<Content>, state: Value) -> String {
    match Game::restore(content.clone(), state) {
        Ok(_) => panic!("a broken state was restored"),
        Err(e) => e,
    }
}

#[test]
fn a_state_that_is_no_state_or_does_not_fit_is_refused_saying_why() {
    let (content, g) = picking();
    let good = saved(&g);
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        f(&mut v);
        v
    };
    let cards = good["cards"].as_array().unwrap().len();
    let spaces = good["spaces"].as_array().unwrap().len();
    let hand_out_of_range = format!("players[0].hand: card {cards} of {cards}");
    let cases: Vec<(Value, &str)> = vec![
        (Value::Null, "no `format`"),
        (serde_json::json!([1, 2]), "no `format`"),
        (with(&|v| v["format"] = 2.into()), "saved form 2"),
        (with(&|v| v["extra"] = 1.into()), "unknown field `extra`"),
        (
            with(&|v| v.as_object_mut().unwrap().remove("deck").map(drop).unwrap()),
            "missing field `deck`",
        ),
        (with(&|v| v["generation"] = "one".into()), "invalid type"),
        (
            with(&|v| v["cards"][3] = "Not A Card".into()),
            "saved on other content: card 3 is \"Not A Card\"",
        ),
        (
            with(&|v| {
                v["spaces"].as_array_mut().unwrap().pop();
            }),
            "saved on other content: the state has",
        ),
        (
            with(&|v| v["players"][0]["hand"] = serde_json::json!([cards])),
            hand_out_of_range.as_str(),
        ),
        (with(&|v| v["active"] = 7.into()), "active: seat 7 of 2"),
        (
            with(
                &|v| v["tiles"] = serde_json::json!({ spaces.to_string(): {"kind": "city", "city": true, "owner": 0, "neutral": false} }),
            ),
            "tiles: space",
        ),
        (
            with(&|v| v["players"][1]["res"][0] = i32::MAX.into()),
            "players[1].res: 2147483647 is beyond",
        ),
        (
            with(&|v| v["params"][2] = i32::MIN.into()),
            "params: -2147483648",
        ),
        (
            with(&|v| v["generation"] = u32::MAX.into()),
            "generation: 4294967295 is beyond",
        ),
        (
            with(&|v| v["picking"]["next"] = 999.into()),
            "picking: card 999",
        ),
        (
            with(&|v| v["picking"]["choice"]["steps"][0] = "fly to Venus".into()),
            "unknown verb",
        ),
        (with(&|v| v["colors"][1] = "red".into()), "seats twice"),
        (
            with(&|v| v["passed"] = serde_json::json!([false])),
            "passed has 1 entries for 2 seats",
        ),
        (
            with(&|v| v["milestones"] = serde_json::json!([[99, 0]])),
            "milestones: milestone 99",
        ),
    ];
    for (state, want) in cases {
        let e = refusal(&content, state);
        assert!(e.contains(want), "want {want:?} in: {e}");
    }
}

#[test]
fn a_state_saved_on_other_content_names_the_difference() {
    let (content, g) = picking();
    let mut other = (*content).clone();
    let gone = other.projects.remove(0).name;
    let e = refusal(&Arc::new(other), saved(&g));
    assert!(
        e.contains("saved on other content") && e.contains(&gone),
        "{e}"
    );
}

#[test]
fn the_listing_of_the_seat_to_decide_shows_nothing_hidden() {
    // What the seat to decide is offered, and what it is asked, are the same whatever the
    // hidden cards are (others' hands, the draw pile): dealt again, the listing does not change.
    let content = common::content();
    let mut g = Game::random(content, 3, 17).expect("deal");
    let mut rng = Rng::new(17);
    let mut checked = 0;
    while !g.is_over() && checked < 300 {
        let seat = g.to_decide().expect("someone decides");
        for seed in [1, 2] {
            let seen = Playable::for_seat(&g, seat, seed);
            assert_eq!(g.legal_parts(), seen.legal_parts(), "part {checked}");
            assert_eq!(g.decision(), seen.decision(), "part {checked}");
        }
        let legal = g.legal_parts();
        g.play(&legal[rng.below(legal.len())]).expect("plays");
        checked += 1;
    }
}
