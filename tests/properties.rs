//! Invariants of the kernel as property tests (proptest) over random legal playouts: every
//! faction of the base game plays, under the base content, under every variant overlay in
//! `content/variants/` and with the example faction (`content/examples/cartographers`, whose
//! Rhai hooks run in play), with seeds chosen by proptest.
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
//! `generated_hook_returns_are_checked_like_content` gives the example faction hooks that
//! return proptest-generated effects (hostile ones too: negative, huge and non-integer
//! amounts, unknown codes, wrong shapes) and checks that every listed part applies unless a
//! hook fails on it (a content error: listed, and refused with the hook's error), a refused
//! part leaves the state exactly as it was, what is clearly wrong is refused and reported as
//! a hook error, what is right is listed and pays exactly, and every state keeps the
//! invariants above.
//!
//! Sizes: by default every variant (and the base alone) plays a handful of games covering
//! all factions, fit for CI. `ORRERY_PROPTEST_CASES=N` plays N random seeds per line-up and
//! variant instead of 1 (and `power_keeps_a_ledger` runs 200·N sequences, the generated hooks
//! 32·N games).

mod common;

use std::sync::Arc;

use orrery_core::bot::{PlayError, RandomBot};
use orrery_core::rng::Rng;
use orrery_gp::content::{Content, DirFiles, OverlaySource};
use orrery_gp::game::{Decision, Game, GameState, Setup, Stage, MAX_HOOK_AMOUNT};
use orrery_gp::notation::{Command, MAX_AMOUNT};
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
    let example = example_overlay(|t| t, &example_file("cartographers.rhai"));
    let content = Content::load(&DirFiles::new(common::base_dir()), &[example])
        .unwrap_or_else(|d| panic!("the example faction: {d:?}"));
    assert!(content.faction(EXAMPLE).is_some());
    out.push(("example".to_string(), Arc::new(content)));
    out
}

/// The example faction's id (`content/examples/cartographers`).
const EXAMPLE: &str = "cartographers";

/// A file of the example faction's folder.
fn example_file(name: &str) -> String {
    std::fs::read_to_string(
        common::root()
            .join("content/examples/cartographers")
            .join(name),
    )
    .unwrap_or_else(|e| panic!("example {name}: {e}"))
}

/// The example faction's overlay with `edit` applied to its text and `script` as its script.
fn example_overlay(edit: impl Fn(String) -> String, script: &str) -> OverlaySource {
    OverlaySource {
        file: common::root()
            .join("content/examples/cartographers/overlay.yaml")
            .display()
            .to_string(),
        text: edit(example_file("overlay.yaml")),
        scripts: vec![("cartographers.rhai".into(), script.to_string())],
        problem: None,
    }
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
    check_state_within(game, what, 1000)
}

/// The invariants, with at most `max_tokens` power tokens a seat (hooks may pay many).
fn check_state_within(game: &Game, what: &str, max_tokens: u32) -> Result<(), TestCaseError> {
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
            tokens(&p.power) <= max_tokens,
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

/// What the rules must make of a value a generated hook returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    /// The same effect written in YAML loads: a listed part pays it.
    Valid,
    /// It depends on the state (follow-ups, caps): only the invariants hold.
    Either,
    /// YAML refuses it (a negative or non-integer amount, an unknown code, a wrong shape): the
    /// hook fails, so its part is never listed, is refused, and the failure is reported.
    Invalid,
}

/// A generated hook return: its Rhai text, its verdict and, when it only gains resources,
/// what it pays by code.
#[derive(Debug, Clone)]
struct Returned {
    rhai: String,
    verdict: Verdict,
    pays: Option<Vec<(String, i64)>>,
}

/// An amount: mostly small and right, else the largest allowed, negative, huge or of a wrong
/// type.
fn amount() -> impl Strategy<Value = (String, Verdict, Option<i64>)> {
    let wrong = ["1.5", "-0.5", "2.0", "\"2\"", "true", "()", "[1]", "#{}"];
    // Beyond MAX_HOOK_AMOUNT, the most a hook may return in one effect.
    let huge = [i64::MAX, i64::from(i32::MAX), 1 << 31, 1 << 40, 1001];
    prop_oneof![
        6 => (0i64..=5).prop_map(|n| (n.to_string(), Verdict::Valid, Some(n))),
        1 => (-1000i64..=-1).prop_map(|n| (n.to_string(), Verdict::Invalid, None)),
        1 => Just(("(-9223372036854775807 - 1)".to_string(), Verdict::Invalid, None)),
        1 => proptest::sample::select(huge.to_vec()).prop_map(|n| (n.to_string(), Verdict::Invalid, None)),
        1 => Just((MAX_HOOK_AMOUNT.to_string(), Verdict::Valid, Some(i64::from(MAX_HOOK_AMOUNT)))),
        1 => proptest::sample::select(wrong.to_vec()).prop_map(|w| (w.to_string(), Verdict::Invalid, None)),
    ]
}

/// A code: a resource or power-cycle code of the base game, or one nobody knows.
fn code() -> impl Strategy<Value = (String, Verdict)> {
    let known = ["c", "o", "k", "q", "vp", "pw", "t", "gf"];
    let unknown = ["zz", "gold", "C", "", "c ", "t-a9"];
    prop_oneof![
        8 => proptest::sample::select(known.to_vec()).prop_map(|c| (c.to_string(), Verdict::Valid)),
        1 => proptest::sample::select(&["tg", "t-a3"][..]).prop_map(|c| (c.to_string(), Verdict::Either)),
        1 => proptest::sample::select(unknown.to_vec()).prop_map(|c| (c.to_string(), Verdict::Invalid)),
    ]
}

/// A bundle `#{code: amount, …}` (codes distinct), its verdict and what it pays.
fn bundle() -> impl Strategy<Value = Returned> {
    proptest::collection::vec((code(), amount()), 0..4).prop_map(|entries| {
        let mut seen = Vec::new();
        let mut parts = Vec::new();
        let mut verdict = Verdict::Valid;
        let mut pays = Some(Vec::new());
        for ((code, cv), (amount, av, n)) in entries {
            if seen.contains(&code) {
                continue;
            }
            parts.push(format!("{code:?}: {amount}"));
            verdict = verdict.max(cv).max(av);
            match (&mut pays, n) {
                (Some(p), Some(n)) => p.push((code.clone(), n)),
                _ => pays = None,
            }
            seen.push(code);
        }
        Returned {
            rhai: format!("#{{{}}}", parts.join(", ")),
            verdict,
            pays,
        }
    })
}

/// One effect: mostly a gain, else another kind of effect or a wrong shape.
fn effect() -> impl Strategy<Value = Returned> {
    let other = [
        "#{steps: 1}",
        "#{range: 2}",
        "\"tech_tile\"",
        "\"track_token\"",
        "\"rescore_federation\"",
        "#{research: \"any\"}",
        "#{research: \"lowest\"}",
        "#{script: #{script: \"cartographers.rhai\", function: \"well_travelled\"}}",
    ];
    let wrong = [
        "#{gain: 5}",
        "#{gian: #{c: 1}}",
        "\"nonsense\"",
        "42",
        "#{gain: #{c: 1}, steps: 1}",
        "#{gain_per: #{per: \"moons\", gain: #{c: 1}}}",
        "#{steps: -1}",
        "#{range: 4294967295}",
        "#{steps: 1001}",
        "#{research: #{track: \"nowhere\"}}",
    ];
    prop_oneof![
        6 => bundle().prop_map(|b| Returned { rhai: format!("#{{gain: {}}}", b.rhai), ..b }),
        1 => bundle().prop_map(|b| Returned {
            rhai: format!("#{{gain_per: #{{per: \"planet_types\", gain: {}}}}}", b.rhai),
            pays: None,
            ..b
        }),
        1 => proptest::sample::select(other.to_vec()).prop_map(|e| Returned {
            rhai: e.to_string(),
            verdict: Verdict::Either,
            pays: None,
        }),
        1 => proptest::sample::select(wrong.to_vec()).prop_map(|e| Returned {
            rhai: e.to_string(),
            verdict: Verdict::Invalid,
            pays: None,
        }),
    ]
}

/// What an effect hook returns: a list of effects, one effect, or something else entirely.
fn returned() -> impl Strategy<Value = Returned> {
    prop_oneof![
        4 => proptest::collection::vec(effect(), 0..4).prop_map(|effects| {
            let mut pays = Some(Vec::new());
            let mut verdict = Verdict::Valid;
            for e in &effects {
                verdict = verdict.max(e.verdict);
                match (&mut pays, &e.pays) {
                    (Some(p), Some(q)) => p.extend(q.iter().cloned()),
                    _ => pays = None,
                }
            }
            let items: Vec<&str> = effects.iter().map(|e| e.rhai.as_str()).collect();
            Returned { rhai: format!("[{}]", items.join(", ")), verdict, pays }
        }),
        2 => effect(),
        1 => proptest::sample::select(&["true", "7", "\"gain\"", "[[#{gain: #{c: 1}}]]"][..])
            .prop_map(|e| Returned { rhai: e.to_string(), verdict: Verdict::Invalid, pays: None }),
        1 => Just(Returned { rhai: "()".to_string(), verdict: Verdict::Either, pays: None }),
    ]
}

/// What the income hook returns: as often as not a plain gain, so that most games reach the
/// turns where the special action's hook is tried.
fn income() -> impl Strategy<Value = Returned> {
    prop_oneof![
        returned(),
        (0i64..=3).prop_map(|n| Returned {
            rhai: format!("#{{gain: #{{k: {n}}}}}"),
            verdict: Verdict::Valid,
            pays: Some(vec![("k".into(), n)]),
        }),
    ]
}

/// The example faction with its special action returning `action` and its income hook
/// (which pays from the first round: the overlay's condition asks for a mine instead of the
/// planetary institute) returning `income`.
fn generated_hooks(action: &str, income: &str) -> Arc<Content> {
    let shipped = example_file("cartographers.rhai");
    let mut script = shipped.clone();
    for (head, value) in [
        ("fn chart(view) {", action),
        ("fn survey_income(view) {", income),
    ] {
        assert!(script.contains(head), "the example script has `{head}`");
        // The generated value is returned first; the shipped body stays as dead code.
        script = script.replace(head, &format!("{head}\n    return {value};"));
    }
    let overlay = example_overlay(
        |t| {
            assert!(t.contains("when: {has: PI}"));
            t.replace("when: {has: PI}", "when: {has: m}")
        },
        &script,
    );
    match Content::load(&DirFiles::new(common::base_dir()), &[overlay]) {
        Ok(c) => Arc::new(c),
        Err(d) => panic!("a generated hook does not load: {d:?}\n{script}"),
    }
}

/// The most parts a game with generated hooks plays.
const HOOKED_PARTS: usize = 160;

#[test]
fn generated_hook_returns_are_checked_like_content() {
    let mut runner = TestRunner::new(Config {
        cases: 32 * cases(),
        failure_persistence: None,
        ..Config::default()
    });
    let counts = std::cell::Cell::new([0usize; 4]);
    let count = |i: usize| {
        let mut c = counts.get();
        c[i] += 1;
        counts.set(c);
    };
    let result = runner.run(
        &(returned(), income(), any::<u64>()),
        |(action, income, seed)| play_generated(&action, &income, seed, &count),
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    let [played, refused, paid, stuck] = counts.get();
    eprintln!(
        "properties: {played} games with generated hooks ({refused} refused actions, \
         {paid} paid exactly, {stuck} stopped by their income hook)"
    );
}

/// Plays one game whose example faction has the generated hooks `action` and `income` and
/// checks it (see the module's doc). `count` tallies games played (0), refused actions (1),
/// exact payments (2) and games stopped by their income hook (3).
fn play_generated(
    action: &Returned,
    income: &Returned,
    seed: u64,
    count: &dyn Fn(usize),
) -> Result<(), TestCaseError> {
    let chart = Command::Special(orrery_gp::notation::parse_amounts("chart").expect("a key"));
    let content = generated_hooks(&action.rhai, &income.rhai);
    let others: Vec<&str> = content
        .factions
        .iter()
        .filter(|f| f.id != EXAMPLE && f.home != "desert")
        .map(|f| f.id.as_str())
        .collect();
    let other = others[seed as usize % others.len()];
    let factions = if seed.is_multiple_of(2) {
        [EXAMPLE, other]
    } else {
        [other, EXAMPLE]
    };
    let seat = factions.iter().position(|&f| f == EXAMPLE).expect("seated");
    let mut rng = Rng::new(seed);
    let setup = Setup::random(&content, 2, &mut rng).expect("a random setup");
    let mut game = Game::new(content.clone(), setup).expect("a game");
    for f in factions {
        for part in [Command::Faction(f.into()), Command::EndTurn] {
            game.apply_part(&part)
                .map_err(|e| TestCaseError::fail(format!("faction {f}: {e}")))?;
        }
    }
    let mut bot = RandomBot::new(seed, MAX_FREE);
    let mut turns = 0;
    for n in 0..HOOKED_PARTS {
        let what = format!(
            "seed {seed}, action {}, income {}, part {n}",
            action.rhai, income.rhai
        );
        if game.finished() {
            break;
        }
        check_state_within(&game, &what, MAX_AMOUNT)?;
        let turn_starts = game.deciding_seat() == Some(seat)
            && game.state.open.is_none()
            && matches!(game.next_decision(), Some(Decision::Turn(_)));
        if turn_starts {
            turns += 1;
            let listed = game.legal_parts().contains(&chart);
            // The special action is once a round: unused at the example's first turn.
            if turns == 1 && action.verdict == Verdict::Valid {
                prop_assert!(listed, "{what}: a valid action is not listed");
            }
            if listed {
                let mut after = game.clone();
                if let Err(e) = after.apply_part(&chart) {
                    // A failing hook is a content error: listed, and refused when played
                    // with the hook's error, the state as it was.
                    prop_assert!(
                        action.verdict != Verdict::Valid,
                        "{what}: listed, refused: {e}"
                    );
                    prop_assert!(e.0.contains("cartographers.rhai"), "{what}: {e}");
                    prop_assert!(
                        after.state == game.state,
                        "{what}: a refusal changed the state"
                    );
                    count(1);
                } else if let Some(pays) = &action.pays {
                    prop_assert!(action.verdict != Verdict::Invalid, "{what}: applied");
                    for (i, r) in content.rules.resources.iter().enumerate() {
                        let gain: i64 = pays
                            .iter()
                            .filter(|(c, _)| *c == r.id)
                            .map(|(_, n)| n)
                            .sum();
                        let had = i64::from(game.state.players[seat].resources[i]);
                        // Every count stays within MAX_AMOUNT; gains past a cap are lost.
                        let cap = i64::from(
                            r.cap
                                .map_or(MAX_AMOUNT as i32, |c| c.min(MAX_AMOUNT as i32)),
                        );
                        let has = i64::from(after.state.players[seat].resources[i]);
                        prop_assert_eq!(has, (had + gain).min(cap), "{}: {}", what, r.id);
                    }
                    count(2);
                }
            } else {
                // Unlisted: refused, leaving the state as it was, unless it applies as
                // a part whose follow-up cannot be done (listing looks ahead).
                let before = game.state.clone();
                let mut trial = game.clone();
                match trial.apply_part(&chart) {
                    Err(e) => {
                        prop_assert!(trial.state == before, "{what}: a refusal changed the state");
                        if action.verdict == Verdict::Invalid {
                            prop_assert!(e.0.contains("cartographers.rhai"), "{what}: {e}");
                        }
                        count(1);
                    }
                    Ok(()) => prop_assert!(
                        action.verdict == Verdict::Either,
                        "{what}: an unlisted action applied"
                    ),
                }
            }
        }
        match bot.step(&mut game) {
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(e)
                if e.to_string().contains("function chart")
                    && !e.to_string().contains("survey_income") =>
            {
                // The special action whose hook fails: listed, refused, the game goes on.
                prop_assert!(action.verdict != Verdict::Valid, "{what}: {e}");
            }
            Err(PlayError::Refused { part, reason }) if !reason.contains("survey_income") => {
                return Err(TestCaseError::fail(format!(
                    "{what}: listed {part} refused: {reason}"
                )));
            }
            Err(e) => {
                // Only a failing income hook can stop a game; the error says which.
                prop_assert!(income.verdict != Verdict::Valid, "{what}: {e}");
                let (errors, total) = game.hook_errors();
                prop_assert!(total > 0, "{what}: stuck without a hook error: {e}");
                prop_assert!(
                    errors
                        .iter()
                        .any(|(m, _)| m.contains("function survey_income")),
                    "{what}: {errors:?}"
                );
                prop_assert!(e.to_string().contains("survey_income"), "{what}: {e}");
                count(3);
                break;
            }
        }
    }
    if income.verdict == Verdict::Invalid {
        prop_assert!(turns == 0, "a game whose income hook fails reached a turn");
    }
    count(0);
    Ok(())
}

/// Cases the generator found once, kept as fixed games:
/// - an action hook granting terraforming steps twice owes one build with both steps (it
///   owed two builds, the second without steps, and a seat that could afford only one mine
///   was left with no legal part).
#[test]
fn generated_hook_cases_found_before() {
    let returned = |rhai: &str, verdict, pays: Option<Vec<(String, i64)>>| Returned {
        rhai: rhai.into(),
        verdict,
        pays,
    };
    let cases = [(
        returned("[#{steps: 1}, #{steps: 1}]", Verdict::Either, None),
        returned(
            "#{gain: #{k: 2}}",
            Verdict::Valid,
            Some(vec![("k".into(), 2)]),
        ),
        8535706800974675902,
    )];
    for (action, income, seed) in cases {
        if let Err(e) = play_generated(&action, &income, seed, &|_| {}) {
            panic!("{e}");
        }
    }
}
