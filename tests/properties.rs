//! Invariants of the kernel as property tests (proptest) over random legal playouts: every
//! faction of the base game plays, under the base content and under every variant overlay in
//! `content/variants/`, with seeds chosen by proptest.
//!
//! Checked after every part of every playout:
//! - **power tokens**: a seat's tokens (areas I, II, III, the Gaia area and a special token in
//!   play) change only through the rules that add or remove them: a `burn n` removes exactly
//!   `n` (none when burned tokens go to the Gaia area) and changes no other seat's tokens;
//!   between the income and Gaia phases, one seat's part never changes another seat's tokens
//!   (gains, discards for satellites and Gaia projects are the deciding seat's own); moving
//!   tokens to and from the Gaia area keeps them. The power cycle's own accounting (every way
//!   `Power` adds, moves and removes tokens) is checked exactly by `power_keeps_a_ledger`.
//! - **resources** are never negative and never above their content cap;
//! - **VP by source** sum to the `vp` resource;
//! - **save/load**: the state saved as JSON loads back through `Game::load` (the validating
//!   way in) to the same state with the same legal parts;
//! - **determinism**: the same seed and the same parts give the same state.
//!
//! Sizes: by default every variant (and the base alone) plays a handful of games covering
//! all factions, fit for CI. `ORRERY_PROPTEST_CASES=N` plays N random seeds per line-up and
//! variant instead of 1 (and `power_keeps_a_ledger` runs 200·N sequences).

mod common;

use std::sync::Arc;

use orrery_core::bot::RandomBot;
use orrery_core::rng::Rng;
use orrery_gp::content::{Content, DirFiles, OverlaySource};
use orrery_gp::game::{Decision, Game, GameState, Setup, Stage};
use orrery_gp::notation::Command;
use orrery_gp::power::{Area, Power, Special};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// The most free actions the bot takes in one decision.
const MAX_FREE: u32 = 3;

/// Random seeds per line-up and variant (`ORRERY_PROPTEST_CASES`, default 1).
fn cases() -> u32 {
    std::env::var("ORRERY_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

/// The base game alone, then the base game with each overlay of `content/variants/`.
fn contents() -> Vec<(String, Arc<Content>)> {
    let mut out = vec![("base".to_string(), Arc::new(common::base()))];
    let mut paths: Vec<_> = std::fs::read_dir(common::root().join("content/variants"))
        .expect("variants folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 9, "only {} variants", paths.len());
    for path in paths {
        let overlay = OverlaySource {
            file: path.display().to_string(),
            text: std::fs::read_to_string(&path).expect("variant readable"),
            scripts: Vec::new(),
            problem: None,
        };
        let content = Content::load(&DirFiles::new(common::base_dir()), &[overlay])
            .unwrap_or_else(|d| panic!("{}: {:?}", path.display(), d));
        let name = path
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        out.push((name, Arc::new(content)));
    }
    out
}

/// Line-ups of `players` seats (no two sharing a home planet) that together seat every
/// faction at least once.
fn lineups(content: &Content, players: usize) -> Vec<Vec<String>> {
    let mut unplayed: Vec<&orrery_gp::content::Faction> = content.factions.iter().collect();
    let mut out = Vec::new();
    while !unplayed.is_empty() {
        let mut game: Vec<&orrery_gp::content::Faction> = Vec::new();
        for f in unplayed
            .iter()
            .chain(&content.factions.iter().collect::<Vec<_>>())
        {
            if game.len() < players && game.iter().all(|x| x.home != f.home) {
                game.push(f);
            }
        }
        unplayed.retain(|f| !game.iter().any(|x| x.id == f.id));
        out.push(game.iter().map(|f| f.id.clone()).collect());
    }
    out
}

/// The player counts a variant is made for: the 2-player board variant plays 2, the small
/// three-player board 3, the others 4 (fewest games covering every faction) and 2.
fn player_counts(variant: &str) -> &'static [usize] {
    if variant.ends_with("-2p") {
        &[2]
    } else if variant.contains("three-player") {
        &[3]
    } else {
        &[4]
    }
}

/// Tokens a seat holds in play: areas I, II, III, the Gaia area and its special token.
fn tokens(p: &Power) -> u32 {
    p.areas.iter().sum::<u32>() + u32::from(p.special.is_some_and(|s| s.area.is_some()))
}

/// The invariants that hold in every state.
fn check_state(game: &Game, what: &str) -> Result<(), TestCaseError> {
    let content = &game.content;
    for p in &game.state.players {
        for (r, &have) in content.rules.resources.iter().zip(&p.resources) {
            // Victory points may fall below zero (a faction auction's bid is paid in VP).
            prop_assert!(
                have >= 0 || r.id == "vp",
                "{what}: {} holds {have} {}",
                p.faction,
                r.id
            );
            if let Some(cap) = r.cap {
                prop_assert!(
                    have <= cap,
                    "{what}: {} holds {have} {} > cap {cap}",
                    p.faction,
                    r.id
                );
            }
        }
        let sources: i32 = p.vp_sources.values().sum();
        prop_assert_eq!(
            sources,
            p.resource(content, "vp"),
            "{}: VP sources of {}",
            what,
            p.faction
        );
        prop_assert!(
            tokens(&p.power) < 1000,
            "{what}: {} tokens",
            tokens(&p.power)
        );
    }
    let json = serde_json::to_string(&game.state).expect("the state saves");
    let state: GameState = serde_json::from_str(&json).expect("the saved state reads");
    let loaded = Game::load(game.content.clone(), state).map_err(|e| {
        TestCaseError::fail(format!("{what}: Game::load refused a saved state: {e}"))
    })?;
    prop_assert!(
        loaded.state == game.state,
        "{what}: save/load changed the state"
    );
    prop_assert_eq!(
        loaded.legal_parts(),
        game.legal_parts(),
        "{}: legal parts changed by save/load",
        what
    );
    Ok(())
}

/// How one part may change the seats' power tokens.
fn check_tokens(
    before: &GameState,
    after: &GameState,
    seat: usize,
    part: &Command,
    what: &str,
) -> Result<(), TestCaseError> {
    let t = |s: &GameState, i: usize| tokens(&s.players[i].power);
    let same_phase = before.round == after.round
        && before.stage == Stage::Actions
        && after.stage == Stage::Actions;
    if let Command::Burn(n) = part {
        let delta = i64::from(t(after, seat)) - i64::from(t(before, seat));
        prop_assert!(
            delta == -i64::from(*n) || delta == 0,
            "{what}: burn {n} changed tokens by {delta}"
        );
    }
    if same_phase || matches!(part, Command::Burn(_)) {
        for other in (0..before.players.len()).filter(|&o| o != seat) {
            prop_assert_eq!(
                t(before, other),
                t(after, other),
                "{}: {} changed seat {}'s tokens",
                what,
                part,
                other
            );
        }
    }
    Ok(())
}

/// Plays one game with every invariant checked after each part; returns the parts played.
fn playout(
    content: &Arc<Content>,
    factions: &[String],
    seed: u64,
) -> Result<(Game, Vec<Command>), TestCaseError> {
    let mut rng = Rng::new(seed);
    let setup = Setup::random(content, factions.len(), &mut rng).expect("a random setup");
    let mut game = Game::new(content.clone(), setup).expect("a game");
    let mut played = Vec::new();
    // A sector-rotation step before factions (advanced setup): one listed part, by the seed.
    while matches!(game.state.queue.front(), Some(Decision::Rotate(_)))
        || matches!(game.state.open, Some(Decision::Rotate(_)))
    {
        let parts = game.legal_parts();
        let part = parts[seed as usize % parts.len()].clone();
        game.apply_part(&part)
            .map_err(|e| TestCaseError::fail(format!("{part}: {e}")))?;
        played.push(part);
    }
    for f in factions {
        for part in [Command::Faction(f.as_str().into()), Command::EndTurn] {
            game.apply_part(&part)
                .map_err(|e| TestCaseError::fail(format!("faction {f}: {e}")))?;
            played.push(part);
        }
    }
    let mut bot = RandomBot::new(seed, MAX_FREE);
    while !game.finished() {
        let what = format!("seed {seed} {factions:?} part {}", played.len());
        check_state(&game, &what)?;
        let before = game.state.clone();
        let seat = game
            .deciding_seat()
            .expect("a seat decides while the game is on");
        let part = bot
            .step(&mut game)
            .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?
            .expect("a part while the game is on");
        check_tokens(&before, &game.state, seat, &part, &what)?;
        played.push(part);
        prop_assert!(played.len() < 50_000, "{what}: no end");
    }
    check_state(&game, &format!("seed {seed} {factions:?}: the end"))?;
    Ok((game, played))
}

/// Replays `parts` on a fresh game of the same seed.
fn replay_parts(content: &Arc<Content>, players: usize, seed: u64, parts: &[Command]) -> Game {
    let mut rng = Rng::new(seed);
    let setup = Setup::random(content, players, &mut rng).expect("a random setup");
    let mut game = Game::new(content.clone(), setup).expect("a game");
    for p in parts {
        game.apply_part(p)
            .unwrap_or_else(|e| panic!("seed {seed}: {p} refused on replay: {e}"));
    }
    game
}

#[test]
fn random_playouts_keep_the_invariants() {
    let mut games = 0;
    for (variant, content) in contents() {
        for &players in player_counts(&variant) {
            for lineup in lineups(&content, players) {
                let mut runner = TestRunner::new(Config {
                    cases: cases(),
                    failure_persistence: None,
                    ..Config::default()
                });
                let result = runner.run(&any::<u64>(), |seed| {
                    let (game, parts) = playout(&content, &lineup, seed)?;
                    let again = replay_parts(&content, lineup.len(), seed, &parts);
                    prop_assert!(
                        again.state == game.state,
                        "seed {seed}: the same parts gave another state"
                    );
                    Ok(())
                });
                if let Err(e) = result {
                    panic!("{variant}, {players} players, {lineup:?}: {e}");
                }
                games += cases();
            }
        }
    }
    eprintln!("properties: {games} random playouts checked");
}

/// One operation of the power cycle.
#[derive(Debug, Clone)]
enum Op {
    Gain(u32),
    Charge(u32),
    Spend(u32),
    Burn(u32, bool),
    Remove(u32, bool),
    RemoveSpecial(u32, bool, bool),
    Return(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0u32..6).prop_map(Op::Gain),
        (0u32..12).prop_map(Op::Charge),
        (0u32..12).prop_map(Op::Spend),
        (0u32..6, any::<bool>()).prop_map(|(n, g)| Op::Burn(n, g)),
        (0u32..6, any::<bool>()).prop_map(|(n, g)| Op::Remove(n, g)),
        (0u32..6, any::<bool>(), any::<bool>()).prop_map(|(n, g, s)| Op::RemoveSpecial(n, g, s)),
        (1u8..4).prop_map(Op::Return),
    ]
}

proptest! {
    #![proptest_config(Config { cases: 200 * cases(), failure_persistence: None, ..Config::default() })]

    /// `Power` keeps a ledger: tokens in play change by exactly what is gained and what is
    /// removed to the supply; charging, spending, returning from the Gaia area and removing
    /// into the Gaia area keep them; a refused operation changes nothing.
    #[test]
    fn power_keeps_a_ledger(
        areas in [0u32..8, 0u32..8, 0u32..8, 0u32..4],
        special in proptest::option::of((0u8..4, 1u32..4)),
        ops in proptest::collection::vec(op(), 0..40),
    ) {
        let mut power = Power {
            areas,
            special: special.map(|(a, value)| Special { area: Some(Area::from_number(a + 1)), value }),
        };
        let mut expected = i64::from(tokens(&power));
        for op in ops {
            let before = power;
            let (ok, change) = match op {
                Op::Gain(n) => { power.gain_tokens(n); (true, i64::from(n)) }
                Op::Charge(n) => { power.charge(n, false); (true, 0) }
                Op::Spend(n) => (power.spend(n, 1, true).is_ok(), 0),
                Op::Burn(n, g) => (power.burn(n, g).is_ok(), if g { 0 } else { -i64::from(n) }),
                Op::Remove(n, g) => (power.remove_tokens(n, g).is_ok(), if g { 0 } else { -i64::from(n) }),
                Op::RemoveSpecial(n, g, s) => (power.remove_with_special(n, g, s).is_ok(), if g { 0 } else { -i64::from(n) }),
                Op::Return(a) => { power.return_from_gaia(Area::from_number(a)); (true, 0) }
            };
            if ok {
                expected += change;
            } else {
                prop_assert_eq!(&power, &before, "refused {:?} changed the power", op);
            }
            prop_assert_eq!(i64::from(tokens(&power)), expected, "after {:?}: {:?}", op, power);
        }
    }
}
