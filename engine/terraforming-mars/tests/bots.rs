//! The bots' evaluation of Terraforming Mars (numbers from the content's `bot:` section) and
//! the bots that use it: production is worth more early than late, a useful card in hand
//! counts and one that can no longer be played does not, a weights file that does not fit the
//! features is refused, `best` beats `random`, and a solo game is won only by terraforming.

mod common;

use std::sync::Arc;

use orrery_core::bot::{self, Bot, Model, RandomBot};
use orrery_core::play_api::{Evaluate, Playable};
use orrery_tm::content::{Card, Content, Effect, Measured};
use orrery_tm::game::{saved, Game};
use serde_json::Value;

/// A 2-player game played by random bots to the first main action of generation `gen`.
fn game_at_generation(content: &Arc<Content>, seed: u64, gen: u64) -> Game {
    let mut g = Game::random(content.clone(), 2, seed).expect("deal");
    let mut bot = RandomBot::new(seed, bot::MAX_FREE);
    for _ in 0..20_000 {
        let snap = g.snapshot();
        if snap["generation"].as_u64() >= Some(gen) && g.legal_parts().len() > 1 {
            let state = saved::to_value(&g).expect("saves");
            if state["phase"] == "Action" && state["queue"].as_array().is_some_and(Vec::is_empty) {
                return g;
            }
        }
        let legal = g.legal();
        let pick = bot.choose(&g, &legal).expect("a choice");
        g.play(&pick).expect("a legal part plays");
    }
    panic!("seed {seed}: generation {gen} not reached");
}

/// `g` with its saved form changed by `edit`.
fn edited(content: &Arc<Content>, g: &Game, edit: impl FnOnce(&mut Value)) -> Game {
    let mut v = saved::to_value(g).expect("saves");
    edit(&mut v);
    saved::from_value(content.clone(), v).expect("loads")
}

/// The index a saved game numbers card `name` by (corporations first, then projects).
fn card_index(content: &Content, name: &str) -> usize {
    content
        .corporations
        .iter()
        .chain(&content.projects)
        .position(|c| c.name == name)
        .expect("a card of the content")
}

#[test]
fn production_is_worth_more_early_than_late() {
    let content = common::content();
    let early = game_at_generation(&content, 3, 1);
    let late = edited(&content, &early, |v| {
        v["generation"] = 9.into();
        // A step from every goal.
        v["params"] = serde_json::json!([13, 6, 8]);
    });
    let gain = |g: &Game| {
        let seat = g.to_decide().expect("a seat");
        let more = edited(&content, g, |v| {
            let prod = &mut v["players"][seat]["prod"][0];
            *prod = (prod.as_i64().expect("a number") + 2).into();
        });
        more.value(seat) - g.value(seat)
    };
    let (e, l) = (gain(&early), gain(&late));
    assert!(e > 0.0, "2 M€ production early is worth {e} VP");
    assert!(
        l >= 0.0 && l < e,
        "2 M€ production late {l} VP, early {e} VP"
    );
}

/// The first project without requirements whose play raises M€ production by 2 or more and
/// lowers nothing.
fn useful_card(content: &Content) -> &Card {
    content
        .projects
        .iter()
        .find(|c| {
            c.requires.is_empty()
                && c.cost.is_some_and(|cost| cost <= 12)
                && c.play.iter().any(|e| match e {
                    Effect::Production(a) => {
                        a.values().all(|n| *n >= 0)
                            && a.iter().any(|(r, n)| r.key() == "mc" && *n >= 2)
                    }
                    _ => false,
                })
                && c.play
                    .iter()
                    .all(|e| matches!(e, Effect::Production(_) | Effect::Stock(_)))
        })
        .expect("such a card in the content")
}

#[test]
fn a_useful_card_in_hand_counts_and_one_past_its_requirement_does_not() {
    let content = common::content();
    let g = game_at_generation(&content, 5, 1);
    let seat = g.to_decide().expect("a seat");
    let with_hand = |cards: Vec<usize>| {
        edited(&content, &g, |v| {
            v["players"][seat]["hand"] = cards.into();
        })
    };
    let empty = with_hand(Vec::new());
    assert_eq!(empty.evaluation(seat).hand, 0.0);
    let card = useful_card(&content);
    let one = with_hand(vec![card_index(&content, &card.name)]);
    assert!(
        one.evaluation(seat).hand > 0.0,
        "{} in hand counts: {:?}",
        card.name,
        one.evaluation(seat)
    );
    assert!(one.value(seat) > empty.value(seat));
    // Cards that need a global parameter at most some value: worth something while it is
    // low, nothing once it has passed (parameters only go up).
    let mut checked = 0;
    for c in &content.projects {
        let Some(max) = c.requires.iter().find_map(|r| match r.what {
            Measured::Param(p) => r.max.map(|m| (p, m)),
            Measured::Count(_) => None,
        }) else {
            continue;
        };
        let held = with_hand(vec![card_index(&content, &c.name)]);
        if held.evaluation(seat).hand <= 0.0 {
            continue;
        }
        let param = serde_json::to_value(max.0).expect("a name");
        let slot = ["oxygen", "temperature", "oceans"]
            .iter()
            .position(|n| param == *n)
            .expect("a parameter");
        let scale = &content.rules.parameters[&max.0];
        let passed = edited(&content, &held, |v| {
            // Past the maximum by more than any requirement leeway.
            v["params"][slot] = (max.1 + 3 * scale.step).min(scale.goal).into();
        });
        if max.1 + 3 * scale.step > scale.goal {
            continue;
        }
        assert_eq!(passed.evaluation(seat).hand, 0.0, "{}", c.name);
        checked += 1;
    }
    assert!(checked > 0, "a card with a maximum was checked");
}

#[test]
fn the_features_add_up_to_the_value_and_are_named() {
    let content = common::content();
    let g = game_at_generation(&content, 7, 2);
    let names = g.feature_names();
    for seat in 0..2 {
        let f = g.features(seat);
        assert_eq!(f.len(), names.len());
        let sum: f64 = f.iter().sum();
        assert!(
            (sum - g.value(seat)).abs() < 1e-9,
            "{sum} vs {}",
            g.value(seat)
        );
    }
}

#[test]
fn a_weights_file_that_does_not_fit_the_features_is_refused() {
    let content = common::content();
    let g = Game::random(content, 2, 1).expect("deal");
    let names = g.feature_names();
    let file = |names: &[String]| {
        let mut t = format!(
            "format: {}\ngame: terraforming-mars\nheuristic: 1\nbias: 0\nweights:\n",
            bot::WEIGHTS_FORMAT
        );
        for n in names {
            t.push_str(&format!("  {n}: 0.5\n"));
        }
        t
    };
    let ok = Model::parse(&file(&names), "w.yaml", "terraforming-mars", &names);
    assert!(ok.is_ok(), "{ok:?}");
    let short = file(&names[1..]);
    let err = Model::parse(&short, "w.yaml", "terraforming-mars", &names)
        .expect_err("a missing feature is refused");
    assert!(err.contains(&names[0]), "{err}");
    let mut extra = names.clone();
    extra.push("no_such_feature".into());
    let err = Model::parse(&file(&extra), "w.yaml", "terraforming-mars", &names)
        .expect_err("an unknown feature is refused");
    assert!(err.contains("no_such_feature"), "{err}");
}

/// Plays a 2-player game with the named bots in seat order; the winners.
fn play(content: &Arc<Content>, names: [&str; 2], seed: u64) -> Vec<usize> {
    let mut g = Game::random(content.clone(), 2, seed).expect("deal");
    let mut bots: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(s, n)| bot::by_name::<Game>(n, seed * 10 + s as u64).expect("a bot"))
        .collect();
    bot::play_game(&mut g, &mut bots, 50_000, |_, _, _| {}).expect("the game ends");
    g.winners()
}

#[test]
fn best_beats_random_in_most_seeded_games_with_seats_swapped() {
    let content = common::content();
    let mut wins = 0;
    for seed in 0..3 {
        wins += usize::from(play(&content, ["best", "random"], seed).contains(&0));
        wins += usize::from(play(&content, ["random", "best"], seed).contains(&1));
    }
    assert!(wins >= 5, "best won {wins} of 6");
}

#[test]
fn a_solo_game_is_won_only_with_mars_terraformed() {
    let content = common::content();
    for seed in 0..3 {
        let mut g = Game::random(content.clone(), 1, seed).expect("deal");
        let mut bots: Vec<Box<dyn Bot<Game> + Send>> =
            vec![Box::new(RandomBot::new(seed, bot::MAX_FREE))];
        bot::play_game(&mut g, &mut bots, 50_000, |_, _, _| {}).expect("the game ends");
        let snap = g.snapshot();
        let terraformed = content.rules.parameters.iter().all(|(p, s)| {
            let name = serde_json::to_value(p).expect("a name");
            snap[name.as_str().expect("text")].as_i64() >= Some(i64::from(s.goal))
        });
        assert_eq!(g.winners().is_empty(), !terraformed, "seed {seed}");
    }
}
