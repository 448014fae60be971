//! Playing through the bots' interface: random games finish at 1–5 players, a seat's view hides
//! the other hands and the deck order, and bad input is refused leaving the state as it was.

mod common;

use orrery_core::bot::RandomBot;
use orrery_core::play_api::{Evaluate, Playable};
use orrery_tm::content::{GameOptions, Measured, Param};
use orrery_tm::game::{Game, Part};
use orrery_tm::notation::{Line, Step};
use orrery_tm::record::Record;

/// Parts bound for one game (a 5-player game takes some thousands).
const MAX_PARTS: usize = 200_000;

#[test]
fn random_games_finish_at_one_to_five_players() {
    let content = common::content();
    for players in 1..=5 {
        for seed in 0..25u64 {
            let mut g = Game::random(content.clone(), players, seed).expect("deal");
            let mut bot = RandomBot::new(seed * 7 + players as u64, 0);
            let parts = bot
                .play_out(&mut g, MAX_PARTS)
                .unwrap_or_else(|e| panic!("{players} players, seed {seed}: {e}"));
            assert!(g.is_over(), "{players} players, seed {seed}");
            assert!(parts > 50, "{players} players, seed {seed}: {parts} parts");
            assert!(g.legal().is_empty());
            let scores = g.vp_totals();
            assert_eq!(scores.len(), players);
            for (seat, s) in scores.iter().enumerate() {
                assert!(*s > 0, "{players} players, seed {seed}: {scores:?}");
                assert_eq!(
                    g.value(seat),
                    f64::from(*s),
                    "the value is the score at the end"
                );
            }
        }
    }
}

/// Solo: TR 14 at the start, no milestones or awards, and the game lasts 14 generations
/// whether Mars is terraformed or not; final greenery only for a win.
#[test]
fn solo_lasts_fourteen_generations_without_milestones_or_awards() {
    let content = common::content();
    for seed in 0..6 {
        let mut g = Game::random(content.clone(), 1, seed).expect("deal");
        assert_eq!(g.snapshot()["players"][0]["tr"], 14);
        let neutral = g.snapshot()["tiles"]
            .as_object()
            .expect("tiles")
            .values()
            .filter(|t| t[1] == "neutral")
            .count();
        assert_eq!(neutral, 4, "two neutral cities, each with a greenery");
        let mut bot = RandomBot::new(11 + seed, 0);
        while !g.is_over() {
            for p in g.legal() {
                if let Part::Line(l) = &p {
                    assert!(
                        !l.steps
                            .iter()
                            .any(|s| matches!(s, Step::Claim(_) | Step::Fund(_) | Step::End)),
                        "{l}"
                    );
                }
            }
            bot.step(&mut g).expect("plays");
        }
        let snap = g.snapshot();
        assert_eq!(snap["generation"], 14, "seed {seed}");
        assert_eq!(snap["phase"], "end");
    }
}

/// Random games finish with and without the Corporate Era, and with the draft.
#[test]
fn random_games_finish_with_each_module_and_option() {
    let content = common::content();
    let variants = [
        GameOptions::default(),
        GameOptions {
            modules: vec!["corporate_era".into()],
            draft: false,
        },
        GameOptions {
            modules: vec!["corporate_era".into()],
            draft: true,
        },
    ];
    for (v, options) in variants.iter().enumerate() {
        for players in 1..=5 {
            for seed in 0..6u64 {
                let mut g = Game::random_with(content.clone(), players, options.clone(), seed)
                    .expect("deal");
                let start = g.snapshot();
                let prod = &start["players"][0]["prod"]["mc"];
                let era = !options.modules.is_empty();
                assert_eq!(*prod, if era { 0 } else { 1 }, "{options:?}");
                let mut bot = RandomBot::new(seed * 13 + players as u64 + v as u64, 0);
                bot.play_out(&mut g, MAX_PARTS)
                    .unwrap_or_else(|e| panic!("{options:?} {players}p seed {seed}: {e}"));
                assert!(g.is_over(), "{options:?} {players}p seed {seed}");
            }
        }
    }
}

/// Without the Corporate Era no card of it is dealt.
#[test]
fn a_base_game_deals_no_corporate_era_card() {
    let content = common::content();
    let g = Game::random_with(content.clone(), 4, GameOptions::default(), 9).expect("deal");
    let era: Vec<&str> = content
        .projects
        .iter()
        .chain(content.corporations.iter())
        .filter(|c| c.module.is_some())
        .map(|c| c.name.as_str())
        .collect();
    let text = g.snapshot().to_string();
    assert!(era.iter().all(|n| !text.contains(&format!("\"{n}\""))));
    for p in g.choices_for(0) {
        assert!(!era
            .iter()
            .any(|n| p.line(Vec::new()).to_string().contains(n)));
        if let Some(set) = &p.set {
            assert!(set.from.iter().all(|c| !era.contains(&c.as_str())));
        }
    }
}

#[test]
fn a_seats_view_hides_other_hands_and_the_deck_order() {
    let content = common::content();
    let mut g = Game::random(content, 3, 5).expect("deal");
    let mut bot = RandomBot::new(2, 0);
    // Into the game a little, so that hands are kept and the deck has been drawn from.
    while g.snapshot()["generation"] == 1 || g.snapshot()["phase"] != "action" {
        bot.step(&mut g).expect("plays");
    }
    let truth = g.snapshot();
    let hand = |s: &serde_json::Value, p: usize| s["players"][p]["hand"].clone();
    let mut differs = false;
    for seed in 0..8 {
        let view = g.for_seat(0, seed);
        let seen = view.snapshot();
        // What seat 0 sees is kept: its hand, every count, the board.
        assert_eq!(hand(&seen, 0), hand(&truth, 0));
        for p in 0..3 {
            assert_eq!(
                seen["players"][p]["hand"].as_array().map(Vec::len),
                truth["players"][p]["hand"].as_array().map(Vec::len)
            );
        }
        assert_eq!(seen["deck"], truth["deck"]);
        assert_eq!(seen["tiles"], truth["tiles"]);
        // Another seat's hand is a sample, never read from the truth (with 8 samples of a
        // hand of several cards among over a hundred unseen, at least one differs).
        differs |= hand(&seen, 1) != hand(&truth, 1) || hand(&seen, 2) != hand(&truth, 2);
        // No card is in two places.
        let mut all: Vec<String> = Vec::new();
        for p in 0..3 {
            for c in seen["players"][p]["hand"].as_array().expect("hand") {
                all.push(c.as_str().expect("name").to_owned());
            }
        }
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
        // The view plays on.
        let mut v = view;
        let mut b = RandomBot::new(seed, 0);
        for _ in 0..20 {
            if b.step(&mut v).expect("the view plays").is_none() {
                break;
            }
        }
    }
    assert!(differs, "other seats' hands are resampled");
}

/// The state after the first `upto` moves of the first 2-player record.
fn replayed(upto: usize) -> Game {
    let content = common::content();
    let r = Record::load(&common::record_paths()[0]).expect("record loads");
    let mut g = orrery_tm::conformance::deal(content, &r).expect("deal");
    for m in &r.moves[..upto] {
        g.apply_line(&Line::parse(&m.line).expect("parses"))
            .expect("applies");
    }
    g
}

/// The first state of the record where `seat` is to act in the action phase with `pred` true.
fn find_state(pred: impl Fn(&Game) -> bool) -> Game {
    let content = common::content();
    for path in common::record_paths() {
        let r = Record::load(&path).expect("record loads");
        let mut g = orrery_tm::conformance::deal(content.clone(), &r).expect("deal");
        for m in &r.moves {
            for e in &m.events {
                if let orrery_tm::record::DeckEvent::Reshuffle { order } = e {
                    g.plan_reshuffle(order).expect("reshuffle");
                }
            }
            if pred(&g) {
                return g;
            }
            g.apply_line(&Line::parse(&m.line).expect("parses"))
                .expect("applies");
        }
    }
    panic!("no recorded state fits");
}

/// Applies `line`, expecting a refusal naming `why`, and the state unchanged.
fn refused(g: &mut Game, line: &str, why: &str) {
    let before = g.snapshot();
    let legal_before = g.choices();
    let line = Line::parse(line).expect("parses");
    assert!(!g.is_listed(&line), "`{line}` is not listed");
    let e = g.apply_line(&line).expect_err("refused");
    assert!(e.contains(why), "`{line}`: {e:?} should say {why:?}");
    assert_eq!(g.snapshot(), before, "`{line}` left the state as it was");
    assert_eq!(g.choices(), legal_before);
}

fn active_color(g: &Game) -> String {
    g.colors()[g.to_decide().expect("someone acts")].clone()
}

fn in_action_phase(g: &Game) -> bool {
    g.snapshot()["phase"] == "action" && g.choices().iter().any(|c| c.steps == [Step::Pass])
}

/// A card in the active seat's hand needing oxygen well above the current level.
fn oxygen_card(g: &Game) -> Option<String> {
    let s = g.snapshot();
    let oxygen = s["oxygen"].as_i64()?;
    let p = g.to_decide()?;
    let content = common::content();
    s["players"][p]["hand"].as_array()?.iter().find_map(|n| {
        let card = content.projects.iter().find(|c| c.name == *n)?;
        card.requires
            .iter()
            .any(|r| {
                r.what == Measured::Param(Param::Oxygen)
                    && r.min.is_some_and(|m| i64::from(m) > oxygen + 3)
            })
            .then(|| card.name.clone())
    })
}

#[test]
fn unmet_requirement_is_refused() {
    let mut g = find_state(|g| in_action_phase(g) && oxygen_card(g).is_some());
    let card = oxygen_card(&g).expect("card");
    let c = active_color(&g);
    refused(
        &mut g,
        &format!("{c}: play {card} pay mc=40"),
        "requirements",
    );
}

#[test]
fn too_little_money_is_refused() {
    let mut g = replayed(2);
    let c = active_color(&g);
    refused(&mut g, &format!("{c}: standard city pay mc=2"), "");
    // Paying with more M€ than the player has.
    let mut g = find_state(|g| {
        in_action_phase(g)
            && g.snapshot()["players"][g.to_decide().unwrap_or(0)]["res"]["mc"]
                .as_i64()
                .is_some_and(|m| m < 25)
    });
    let c = active_color(&g);
    refused(
        &mut g,
        &format!("{c}: standard city pay mc=25"),
        "not enough mc",
    );
}

#[test]
fn a_wrong_space_is_refused() {
    // A greenery on an ocean-reserved space; an ocean on land.
    let mut g = find_state(|g| {
        in_action_phase(g)
            && g.choices()
                .iter()
                .any(|c| c.steps.first() == Some(&Step::Greenery))
    });
    let c = active_color(&g);
    refused(
        &mut g,
        &format!("{c}: greenery; space 04"),
        "cannot go on space 04",
    );
    refused(&mut g, &format!("{c}: greenery; space 99"), "unknown space");
}

/// A free land space next to a city on Mars.
fn free_land_next_to_city(g: &Game) -> Option<String> {
    let tiles = g.snapshot()["tiles"].clone();
    let content = common::content();
    content
        .map
        .spaces
        .iter()
        .find(|s| {
            tiles.get(&s.id).is_none()
                && s.kind == orrery_tm::content::SpaceType::Land
                && s.adjacent
                    .iter()
                    .any(|a| tiles.get(a).is_some_and(|t| t[0] == "city"))
        })
        .map(|s| s.id.clone())
}

#[test]
fn a_city_next_to_a_city_is_refused() {
    // A state where a city may be placed and some free land space touches a city.
    let mut g = find_state(|g| {
        in_action_phase(g)
            && g.choices()
                .iter()
                .any(|c| matches!(c.steps.first(), Some(Step::Standard(id, _)) if id == "city"))
            && free_land_next_to_city(g).is_some()
    });
    let c = active_color(&g);
    let pay = g
        .choices()
        .into_iter()
        .find_map(|ch| match ch.steps.first() {
            Some(Step::Standard(id, Some(k))) if id == "city" => Some(k.clone()),
            _ => None,
        })
        .expect("city listed");
    let pay = pay
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ");
    // Find a free land space next to a city via the game's own map adjacency.
    let mut h = g.clone();
    h.apply_line(&Line::parse(&format!("{c}: standard city pay {pay}")).expect("parses"))
        .expect("the city project applies");
    let legal: Vec<String> = h
        .choices()
        .iter()
        .filter_map(|ch| match ch.steps.first() {
            Some(Step::Space(s)) => Some(s.to_string()),
            _ => None,
        })
        .collect();
    let next_to_city = free_land_next_to_city(&g).expect("a free land space next to a city");
    assert!(!legal.contains(&next_to_city));
    refused(
        &mut g,
        &format!("{c}: standard city pay {pay}; space {next_to_city}"),
        "cannot go on space",
    );
}

#[test]
fn an_action_used_twice_is_refused() {
    let mut g = find_state(|g| {
        in_action_phase(g)
            && g.snapshot()["players"][g.to_decide().unwrap_or(0)]["actionsUsed"]
                .as_array()
                .is_some_and(|a| !a.is_empty())
    });
    let p = g.to_decide().expect("acts");
    let used = g.snapshot()["players"][p]["actionsUsed"][0]
        .as_str()
        .expect("name")
        .to_owned();
    let c = active_color(&g);
    refused(
        &mut g,
        &format!("{c}: action {used}"),
        "already used this generation",
    );
}

#[test]
fn an_unknown_card_is_refused() {
    let mut g = find_state(in_action_phase);
    let c = active_color(&g);
    refused(
        &mut g,
        &format!("{c}: play Flying Saucer pay mc=3"),
        "unknown card",
    );
    refused(
        &mut g,
        &format!("{c}: action Flying Saucer"),
        "unknown card",
    );
    // A card that exists but is not in the hand.
    let p = g.to_decide().expect("acts");
    let hand = g.snapshot()["players"][p]["hand"].clone();
    let other = common::content()
        .projects
        .iter()
        .find(|c| {
            !hand
                .as_array()
                .is_some_and(|h| h.iter().any(|x| x == &c.name))
        })
        .expect("a card not in hand")
        .name
        .clone();
    refused(&mut g, &format!("{c}: play {other} pay mc=99"), "not in");
}

#[test]
fn out_of_turn_and_malformed_picks_are_refused() {
    let mut g = find_state(in_action_phase);
    let p = g.to_decide().expect("acts");
    let other = g.colors()[(p + 1) % g.colors().len()].clone();
    refused(&mut g, &format!("{other}: pass"), "turn");
    // Parts out of place: a take with no pick in progress.
    let before = g.snapshot();
    assert!(g.apply_part(&Part::Take("Moss".into())).is_err());
    assert_eq!(g.snapshot(), before);
}

/// The draft: in generation 2 each seat picks one of 4 cards and the rest pass to the next
/// seat; a seat's view keeps its own draft hand and resamples the others'.
#[test]
fn draft_hands_pass_to_the_next_seat_in_even_generations() {
    let content = common::content();
    let options = GameOptions {
        modules: vec!["corporate_era".into()],
        draft: true,
    };
    let mut g = Game::random_with(content, 3, options, 4).expect("deal");
    let mut bot = RandomBot::new(5, 0);
    while g.snapshot()["phase"] != "drafting" {
        bot.step(&mut g).expect("plays");
    }
    let snap = g.snapshot();
    assert_eq!(snap["generation"], 2);
    let hand = |s: &serde_json::Value, p: usize| -> Vec<String> {
        s["players"][p]["draftHand"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|c| c.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let before: Vec<Vec<String>> = (0..3).map(|p| hand(&snap, p)).collect();
    assert!(before.iter().all(|h| h.len() == 4), "{before:?}");
    let view = g.for_seat(0, 3).snapshot();
    assert_eq!(hand(&view, 0), before[0]);
    assert_eq!(hand(&view, 1).len(), 4);
    // Every seat picks the first card it is offered.
    let mut picked = Vec::new();
    for (p, h) in before.iter().enumerate() {
        let name = h[0].clone();
        let color = g.colors()[p].clone();
        g.apply_line(&Line {
            player: color.into(),
            steps: vec![Step::Draft(vec![name.as_str().into()])],
        })
        .expect("a pick from the draft hand");
        picked.push(name);
    }
    let after = g.snapshot();
    for p in 0..3 {
        let mut expected: Vec<String> = before[p].iter().skip(1).cloned().collect();
        expected.sort();
        assert_eq!(
            hand(&after, (p + 1) % 3),
            expected,
            "seat {p}'s hand went on"
        );
        assert_eq!(after["players"][p]["drafted"][0], picked[p].as_str());
    }
    // A card not in the hand is refused, and the game is unchanged.
    let color = g.colors()[0].clone();
    let bad = Line {
        player: color.into(),
        steps: vec![Step::Draft(vec![picked[1].as_str().into()])],
    };
    assert!(g.apply_line(&bad).is_err());
    assert_eq!(g.snapshot(), after);
}
