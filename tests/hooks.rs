//! Listing with hooks remembers what hooks returned (`docs/scripting.md`, "How hook calls are
//! counted"): these tests play the same games twice in lockstep, once as usual and once
//! recording every hook call (which runs every call, nothing remembered, as listing did
//! before answers were remembered), and require the same listed parts in the same order and
//! the same state after every part; with the example faction's hooks as shipped and with
//! condition hooks that fail, return something other than true or false, or flip.
//! Listing tries on a copy only the parts a hook's answer can decide: with sound hooks it
//! lists what trying every part on a copy lists (`Game::legal_parts_tried`), and every listed
//! part applies; a part a failing hook refuses is listed, and playing it fails naming the
//! hook and its seat, the state as it was.

mod common;

use std::sync::Arc;

use orrery_core::rng::Rng;
use orrery_gp::content::{Content, DirFiles, OverlaySource};
use orrery_gp::game::{Game, Setup};
use orrery_gp::notation::Command;

const FACTION: &str = "cartographers";

/// The example faction's overlay with `script` as its script (the shipped one when `None`).
fn content(script: Option<&str>) -> Arc<Content> {
    let dir = common::root().join("content/examples/cartographers");
    let text = std::fs::read_to_string(dir.join("overlay.yaml")).expect("overlay");
    let shipped = std::fs::read_to_string(dir.join("cartographers.rhai")).expect("script");
    let overlay = OverlaySource {
        file: dir.join("overlay.yaml").display().to_string(),
        text,
        scripts: vec![(
            "cartographers.rhai".into(),
            script.map_or(shipped, str::to_string),
        )],
        problem: None,
    };
    match Content::load(&DirFiles::new(common::base_dir()), &[overlay]) {
        Ok(c) => Arc::new(c),
        Err(d) => panic!("{d:?}"),
    }
}

/// The shipped script with `well_travelled` replaced by `condition`.
fn with_condition(condition: &str) -> String {
    let dir = common::root().join("content/examples/cartographers");
    let shipped = std::fs::read_to_string(dir.join("cartographers.rhai")).expect("script");
    let from = shipped
        .find("fn well_travelled")
        .expect("the condition hook");
    let to = from + shipped[from..].find("\n}\n").expect("its end") + 3;
    format!("{}{condition}\n{}", &shipped[..from], &shipped[to..])
}

/// Plays `seed`'s random four-player game with the example faction in seat 1, in lockstep
/// with a copy that records every hook call; every listing and every state must agree.
/// With `sound` hooks, each listing is the one trying every part on a copy, and every listed
/// part applies; otherwise a listed part may be refused, naming the seat's condition hook,
/// with both games left as they were (another part is then played).
/// The number of parts played, the hook errors met, and the listed parts refused.
fn lockstep(
    content: &Arc<Content>,
    seed: u64,
    max_parts: usize,
    sound: bool,
) -> (usize, u64, usize) {
    let mut rng = Rng::new(seed);
    let setup = Setup::random(content, 4, &mut rng).expect("setup");
    let mut fast = Game::new(content.clone(), setup.clone()).expect("game");
    let mut every = Game::new(content.clone(), setup).expect("game");
    every.record_hook_calls();
    let other = |p: &Command| !matches!(p, Command::Faction(f) if f == FACTION);
    let mut parts = 0;
    let mut refused = 0;
    for g in [&mut fast, &mut every] {
        for p in [Command::Faction(FACTION.into()), Command::EndTurn] {
            g.apply_part(&p).expect("seated");
        }
    }
    while !fast.finished() && parts < max_parts {
        let listed = fast.legal_parts();
        let expected = every.legal_parts();
        every.take_hook_calls();
        assert_eq!(listed, expected, "seed {seed}, part {parts}");
        if sound {
            assert_eq!(
                listed,
                fast.legal_parts_tried(),
                "seed {seed}, part {parts}"
            );
        }
        let state = |g: &Game| serde_json::to_string(&g.state).expect("state");
        let mut choices = listed;
        choices.retain(other);
        let played = loop {
            let Some(part) = choices.get(rng.below(choices.len().max(1))).cloned() else {
                break false;
            };
            let before = state(&fast);
            let a = fast.apply_part(&part);
            let b = every.apply_part(&part);
            assert_eq!(a, b, "seed {seed}, part {parts}: {part}");
            let Err(e) = a else {
                break true;
            };
            assert!(!sound, "seed {seed}: listed {part} refused: {e}");
            assert!(
                e.0.contains("the condition hook of seat 1 (cartographers): script cartographers.rhai, function well_travelled"),
                "seed {seed}: {part}: {e}"
            );
            assert_eq!(state(&fast), before, "seed {seed}: {part}");
            refused += 1;
            choices.retain(|c| *c != part);
        };
        if !played {
            break;
        }
        assert_eq!(state(&fast), state(&every), "seed {seed}, part {parts}");
        parts += 1;
    }
    (parts, fast.hook_errors().1, refused)
}

#[test]
fn listing_with_remembered_hook_returns_is_listing_with_every_call() {
    let shipped = content(None);
    let mut played = 0;
    for seed in 0..3 {
        played += lockstep(&shipped, seed, 2_000, true).0;
    }
    assert!(played > 300, "{played}");
}

#[test]
fn condition_hooks_that_fail_or_flip_list_the_same() {
    let cases = [
        // Fails on some views: the parts leading there are listed and refused.
        (
            "fails",
            "fn well_travelled(view) { if view.resources.c % 5 == 4 { throw \"seven\" } view.planet_types.len() >= 2 }",
            true,
        ),
        // Returns something other than true or false on some views.
        (
            "not a boolean",
            "fn well_travelled(view) { if view.resources.o % 4 == 3 { 3 } else { false } }",
            true,
        ),
        // Flips with the credits' parity: abilities come and go part by part.
        (
            "flips",
            "fn well_travelled(view) { view.resources.c % 2 == 0 }",
            false,
        ),
    ];
    for (name, hook, fails) in cases {
        let content = content(Some(&with_condition(hook)));
        let (mut errors, mut played, mut refused) = (0, 0, 0);
        for seed in 0..3 {
            let (parts, e, r) = lockstep(&content, seed, 400, !fails);
            played += parts;
            errors += e;
            refused += r;
        }
        assert!(played > 100, "{name}: {played}");
        assert_eq!(errors > 0, fails, "{name}: {errors} hook errors");
        assert_eq!(refused > 0, fails, "{name}: {refused} listed parts refused");
    }
}

#[test]
fn a_remembered_return_is_free_and_a_looping_hook_still_meets_the_budget() {
    // The same listing twice: the second asks no hook again and spends nothing.
    let content = content(None);
    let setup = Setup::random(&content, 2, &mut Rng::new(3)).expect("setup");
    let mut g = Game::new(content.clone(), setup).expect("game");
    for p in [
        Command::Faction(FACTION.into()),
        Command::EndTurn,
        Command::Faction("terrans".into()),
        Command::EndTurn,
    ] {
        g.apply_part(&p).expect("factions");
    }
    let first = g.legal_parts();
    let spent = g.hook_operations();
    assert!(spent > 0);
    assert_eq!(g.legal_parts(), first);
    assert_eq!(g.hook_operations(), spent);
    // A condition hook that loops: failures are never remembered, so every part that asks
    // it fails with the script's error (the part is listed all the same), and a small budget
    // is spent and then named.
    let looping = content_looping();
    let setup = Setup::random(&looping, 2, &mut Rng::new(3)).expect("setup");
    let mut g = Game::new(looping.clone(), setup).expect("game");
    g.set_hook_budget(1_000_000);
    // The hook is first asked once every seat has its faction.
    let choices = [
        Command::Faction(FACTION.into()),
        Command::EndTurn,
        Command::Faction("terrans".into()),
        Command::EndTurn,
    ];
    let mut refused = None;
    for p in &choices {
        let before = serde_json::to_string(&g.state).expect("state");
        if let Err(e) = g.apply_part(p) {
            assert_eq!(serde_json::to_string(&g.state).expect("state"), before);
            refused = Some((p.clone(), e, before));
            break;
        }
    }
    let (part, e, before) = refused.expect("the condition hook loops");
    assert!(
        e.0.starts_with("the condition hook of seat 1 (cartographers): ")
            && e.0.contains("too many operations"),
        "{e}"
    );
    let mut e = e;
    for _ in 0..20 {
        assert!(g.legal_parts().contains(&part));
        e = g.apply_part(&part).expect_err("still looping");
        assert!(
            e.0.starts_with("the condition hook of seat 1 (cartographers): "),
            "{e}"
        );
        assert_eq!(serde_json::to_string(&g.state).expect("state"), before);
    }
    assert!(
        e.0.contains("used their budget of 1000000 operations"),
        "{e}"
    );
    assert!(g.hook_operations() <= 1_000_000 + 100_000);
}

fn content_looping() -> Arc<Content> {
    content(Some(&with_condition(
        "fn well_travelled(view) { loop { } }",
    )))
}
