//! The evaluation's features of what is still to come, on the base game: the green federation
//! tokens and the advanced tiles they open, a booster's pass effect counted for this round only
//! and only until the seat passes, and each round scoring tile weighed by the rounds it still
//! scores in. Tiles and boosters are picked from content by their effects, never by name.

mod common;

use orrery_core::bot;
use orrery_core::play_api::{Evaluate, Playable};
use orrery_gp::content::{Count, Effect};
use orrery_gp::game::{Game, Stage};
use orrery_gp::player::{OwnedTile, OwnedToken};

/// A 2-player base game drawn from `seed`, played by random bots until round 2 has begun.
fn in_round_two(seed: u64) -> Game {
    let mut g = common::two_player_game(seed);
    let mut bot = bot::RandomBot::new(seed, bot::MAX_FREE);
    while !(g.state.round == 2 && g.state.stage == Stage::Actions && g.to_decide() == Some(0)) {
        assert!(!g.is_over(), "the game ended before round 2");
        bot.step(&mut g).expect("a legal part");
    }
    g
}

/// The feature `name` of `seat`.
fn feature(g: &Game, seat: usize, name: &str) -> f64 {
    let names = g.feature_names();
    let i = names
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("no feature `{name}` in {names:?}"));
    g.features(seat)[i]
}

#[test]
fn a_green_token_opens_the_advanced_tiles_of_tracks_at_their_level() {
    let mut g = in_round_two(3);
    let before = feature(&g, 0, "green tokens");
    let adv = g.content.advanced_tiles.clone();
    // A track whose advanced tile no seat holds, raised to the level that opens it.
    let (track, tile) = g
        .state
        .setup
        .adv_techs
        .iter()
        .find_map(|(pos, tile)| {
            let t = pos.strip_prefix(adv.position_prefix.as_str())?;
            let held = g
                .state
                .players
                .iter()
                .any(|p| p.advanced.iter().any(|a| a.as_str() == tile.as_str()));
            (!held).then(|| (t.to_string(), tile.clone()))
        })
        .expect("an advanced tile on a track, on offer");
    let id = g.content.federation_tokens.tokens[0].id.clone();
    g.state.players[0].tokens.push(OwnedToken {
        id: id.as_str().into(),
        green: true,
    });
    g.state.players[0]
        .research
        .insert(track.as_str().into(), adv.min_level);
    assert_eq!(feature(&g, 0, "green tokens"), before + 1.0);
    assert!(feature(&g, 0, "advanced tiles open") >= 1.0);
    assert!(feature(&g, 0, "green tokens x tracks at advanced level") >= 1.0);
    // One level lower it is one level off; the other seat sees none of it.
    g.state.players[0]
        .research
        .insert(track.as_str().into(), adv.min_level - 1);
    let off = feature(&g, 0, "advanced tiles one level off");
    assert!(off >= 1.0, "{off}");
    // Taken by the other seat, it is no longer on offer.
    g.state.players[1].advanced.push(tile.as_str().into());
    assert_eq!(feature(&g, 0, "advanced tiles one level off"), off - 1.0);
    // Every token flipped: nothing is open any more.
    for t in g.state.players[0].tokens.iter_mut() {
        t.green = false;
    }
    assert_eq!(feature(&g, 0, "green tokens"), 0.0);
    assert_eq!(feature(&g, 0, "advanced tiles one level off"), 0.0);
}

#[test]
fn a_boosters_pass_effect_counts_this_round_only_until_the_seat_passes() {
    let mut g = in_round_two(4);
    // A booster whose pass gives VP per building of kinds the seat has built.
    let (id, built, vp) = g
        .content
        .boosters
        .boosters
        .iter()
        .find_map(|b| {
            b.pass.iter().find_map(|e| match e {
                Effect::GainPer(gp) => match &gp.per {
                    Count::Buildings(ids) if gp.gain.get("vp") > 0 => {
                        let built: u32 =
                            ids.iter().map(|i| g.state.players[0].built_count(i)).sum();
                        (built > 0).then(|| (b.id.clone(), built, gp.gain.get("vp")))
                    }
                    _ => None,
                },
                _ => None,
            })
        })
        .expect("a booster paying VP per building the seat has on passing");
    let others = feature(&g, 0, "pass vp x passes left");
    *g.state.players[0].booster = Some(id.as_str().into());
    let now = feature(&g, 0, "booster pass vp now");
    assert_eq!(now, f64::from(vp) * f64::from(built));
    // Held for one round, it adds nothing to the pass effects of the rounds to come.
    assert_eq!(feature(&g, 0, "pass vp x passes left"), others);
    g.state.players[0].passed = true;
    assert_eq!(feature(&g, 0, "booster pass vp now"), 0.0);
}

#[test]
fn each_round_tile_counts_the_rounds_it_still_scores_in() {
    let mut g = in_round_two(5);
    let round = g.state.round as usize;
    let means = feature(&g, 0, "held worth") + feature(&g, 0, "income worth");
    let tiles: Vec<String> = g
        .content
        .round_scoring
        .tiles
        .iter()
        .map(|t| t.id.clone())
        .collect();
    let sum = |g: &Game| -> f64 {
        tiles
            .iter()
            .map(|t| feature(g, 0, &format!("round {t} to come x held and income worth")))
            .sum()
    };
    let rounds = g.state.setup.round_scoring.len();
    // This round (not passed yet) and every later one.
    let to_come = (rounds + 1 - round) as f64;
    assert!((sum(&g) - to_come * means).abs() < 1e-9, "{}", sum(&g));
    // This round's tile is weighed by one round fewer once the seat has passed.
    let this = g.state.setup.round_scoring[round - 1].clone();
    let name = format!("round {this} to come x held and income worth");
    let before = feature(&g, 0, &name);
    g.state.players[0].passed = true;
    let means_after = feature(&g, 0, "held worth") + feature(&g, 0, "income worth");
    assert_eq!(means_after, means);
    assert!((feature(&g, 0, &name) - (before - means)).abs() < 1e-9);
    assert!((sum(&g) - (to_come - 1.0) * means).abs() < 1e-9);
}

/// A 3-player base game right after setup, before any seat has chosen its faction.
fn before_factions() -> Game {
    let content = std::sync::Arc::new(common::base());
    let setup = orrery_gp::game::Setup::random(&content, 3, &mut orrery_core::rng::Rng::new(11))
        .expect("setup");
    Game::new(content, setup).expect("game")
}

#[test]
fn features_are_defined_before_every_seat_has_its_faction() {
    let mut g = before_factions();
    let names = g.feature_names();
    let mut bot = bot::RandomBot::new(4, bot::MAX_FREE);
    // Right after setup, then after each faction chosen, until every seat has one.
    let mut checked = 0;
    while g.state.players.iter().any(|p| p.faction.is_empty()) {
        for seat in 0..3 {
            let f = g.features(seat);
            assert_eq!(f.len(), names.len());
            let vp = f64::from(g.state.players[seat].resource(&g.content, "vp"));
            assert_eq!(f[0], vp, "the seat's VP");
            assert_eq!(f[2], 3.0, "the number of seats");
            // Before its faction is seated, only the VP, the rounds left, the seats and the
            // heuristic value are given.
            if g.state.players[seat].faction.is_empty() {
                assert!(f[4..].iter().all(|x| *x == 0.0), "seat {seat}: {f:?}");
            }
            assert_eq!(g.value_and_features(seat).1, f);
        }
        checked += 1;
        bot.step(&mut g).expect("a legal part");
    }
    assert!(
        checked >= 3,
        "a faction is chosen per seat: {checked} positions"
    );
    // Once every seat is seated, the features describe the position.
    let f = g.features(0);
    assert!(f[4..].iter().any(|x| *x != 0.0), "{f:?}");
}

/// The advanced tile on offer whose only effect is VP per own building of some kinds when
/// taken, with those kinds and the VP each gives.
fn advanced_tile_paying_per_building(g: &Game) -> (String, Vec<String>, f64) {
    g.content
        .advanced_tiles
        .tiles
        .iter()
        .find_map(|t| {
            let only = t.pass.is_empty() && t.triggers.is_empty() && t.action.is_none();
            match t.immediate.as_slice() {
                [Effect::GainPer(per)] if only => match &per.per {
                    Count::Buildings(b) if per.gain.get("vp") > 0 => {
                        Some((t.id.clone(), b.clone(), f64::from(per.gain.get("vp"))))
                    }
                    _ => None,
                },
                _ => None,
            }
        })
        .expect("an advanced tile paying VP per building when taken")
}

#[test]
fn the_worth_of_the_advanced_tile_a_green_token_opens_is_what_it_would_still_bring() {
    let mut g = in_round_two(5);
    let (tile, buildings, vp) = advanced_tile_paying_per_building(&g);
    let adv = g.content.advanced_tiles.clone();
    let track = g.content.research.tracks[0].id.clone();
    // That tile alone on offer, above the first track.
    let pos = format!("{}{track}", adv.position_prefix);
    g.state.adv_left.clear();
    g.state
        .adv_left
        .insert(pos.as_str().into(), tile.as_str().into());
    let id = g
        .content
        .federation_tokens
        .tokens
        .iter()
        .find(|t| t.green)
        .expect("a token with a green side")
        .id
        .clone();
    g.state.players[0].tokens.push(OwnedToken {
        id: id.as_str().into(),
        green: true,
    });
    let built: u32 = buildings
        .iter()
        .map(|b| g.state.players[0].built_count(b))
        .sum();
    assert!(built > 0, "seat 0 holds none of {buildings:?}");
    let worth = vp * f64::from(built);
    let standard = g.content.tech_tiles.tiles[0].id.clone();
    g.state.players[0].techs.push(OwnedTile {
        id: standard.as_str().into(),
        covered: false,
    });
    g.state.players[0]
        .research
        .insert(track.as_str().into(), adv.min_level);
    assert_eq!(feature(&g, 0, "advanced worth open"), worth);
    assert_eq!(feature(&g, 0, "advanced worth one level off"), 0.0);
    // One level lower, the same worth is one level off.
    g.state.players[0]
        .research
        .insert(track.as_str().into(), adv.min_level - 1);
    assert_eq!(feature(&g, 0, "advanced worth open"), 0.0);
    assert_eq!(feature(&g, 0, "advanced worth one level off"), worth);
    // Two levels lower, nothing.
    g.state.players[0]
        .research
        .insert(track.as_str().into(), adv.min_level - 2);
    assert_eq!(feature(&g, 0, "advanced worth one level off"), 0.0);
    g.state.players[0]
        .research
        .insert(track.as_str().into(), adv.min_level);
    // Without a green token, or without a standard tile to cover, or taken: nothing.
    let mut flipped = g.clone();
    for t in flipped.state.players[0].tokens.iter_mut() {
        t.green = false;
    }
    assert_eq!(feature(&flipped, 0, "advanced worth open"), 0.0);
    let mut covered = g.clone();
    for t in covered.state.players[0].techs.iter_mut() {
        t.covered = true;
    }
    assert_eq!(feature(&covered, 0, "advanced worth open"), 0.0);
    g.state.adv_left.clear();
    assert_eq!(feature(&g, 0, "advanced worth open"), 0.0);
}
