//! Undo: a move line whose last part fails leaves the game exactly as it was, however much its
//! earlier parts changed (resources, power, the open decision, the condition hooks' answers),
//! in the base game and on the hooks path (the example faction of `content/examples/`, whose
//! hooks run after every part, seated). And hooks that only a faction nobody plays names change
//! nothing: such a game lists and plays exactly as the same game without them. A part applied
//! to a copy given up on error (`Game::with_part`, no undo copy) ends as `apply_part` ends.

mod common;

use std::sync::Arc;

use orrery_core::rng::Rng;
use orrery_gp::content::Content;
use orrery_gp::game::{Decision, Game, Setup};
use orrery_gp::notation::{Actor, Command, HexRef, MoveLine};

/// The factions `with` has that `base` lacks: the example's.
fn added_factions(with: &Content, base: &Content) -> Vec<String> {
    with.factions
        .iter()
        .filter(|f| base.faction(&f.id).is_none())
        .map(|f| f.id.clone())
        .collect()
}

/// Plays a random game; at the start of every turn with free actions listed, applies a line
/// of up to three of them followed by a part that fails, and checks the game is unchanged.
/// Returns how many such lines were checked.
fn fail_after_writes(mut g: Game, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    let mut steps = 0;
    while !g.finished() && steps < 20_000 {
        steps += 1;
        let listed = g.legal_parts();
        if let (Some(Decision::Turn(seat)), None) = (g.next_decision(), &g.state.open) {
            let seat = *seat;
            // Free actions that change something, applied one after another on a copy.
            let mut trial = g.clone();
            let mut parts = Vec::new();
            while parts.len() < 3 {
                let free: Vec<Command> = trial
                    .legal_parts()
                    .into_iter()
                    .filter(|p| matches!(p, Command::Spend { .. } | Command::Burn(_)))
                    .collect();
                let Some(p) = free.first().cloned() else {
                    break;
                };
                trial.apply_part(&p).expect("a listed free action applies");
                parts.push(p);
            }
            if !parts.is_empty() {
                assert_ne!(trial.state, g.state, "the free actions changed nothing");
                // Off the map: refused when reached, after the free actions wrote.
                parts.push(Command::Build {
                    building: "m".into(),
                    hex: HexRef::Axial { q: 99, r: 99 },
                });
                let before = g.state.clone();
                let line = MoveLine::Turn {
                    actor: Actor::Seat(seat as u8 + 1),
                    parts,
                };
                let e = g.apply(&line).expect_err("a build off the map is refused");
                assert!(e.0.contains("not on the map"), "{e}");
                assert!(g.state == before, "the failed line changed the state");
                assert_eq!(
                    g.legal_parts(),
                    listed,
                    "the failed line changed the listing"
                );
                checked += 1;
            }
        }
        let part = &listed[rng.below(listed.len())];
        g.apply_part(part).expect("a listed part applies");
    }
    assert!(g.finished(), "the game did not finish");
    checked
}

#[test]
fn a_line_failing_after_several_writes_leaves_the_game_as_it_was() {
    let content = common::platform_content();
    let setup = Setup::random(&content, 3, &mut Rng::new(7)).expect("setup");
    let checked = fail_after_writes(common::start_game(&content, setup, None), 7);
    assert!(checked >= 20, "only {checked} lines checked");
}

#[test]
fn on_the_hooks_path_too() {
    let base = common::base();
    let content = common::example_content();
    let added = added_factions(&content, &base);
    assert_eq!(added.len(), 1, "the example adds one faction");
    let setup = Setup::random(&content, 3, &mut Rng::new(8)).expect("setup");
    let g = common::start_game(&content, setup, Some(&added[0]));
    let checked = fail_after_writes(g, 8);
    assert!(checked >= 20, "only {checked} lines checked");
}

#[test]
fn hooks_only_an_absent_faction_names_change_nothing() {
    let base = Arc::new(common::base());
    let content = common::example_content();
    let added = added_factions(&content, &base);
    for seed in 0..3 {
        let setup = Setup::random(&base, 4, &mut Rng::new(seed)).expect("setup");
        let mut plain = common::start_game(&base, setup.clone(), None);
        let mut hooked = common::start_game(&content, setup, None);
        assert!(
            hooked
                .state
                .players
                .iter()
                .all(|p| !added.iter().any(|a| *a == p.faction)),
            "the example faction is seated"
        );
        let mut rng = Rng::new(seed);
        while !plain.finished() {
            let listed = plain.legal_parts();
            assert_eq!(hooked.legal_parts(), listed, "seed {seed}: listings differ");
            let part = &listed[rng.below(listed.len())];
            plain.apply_part(part).expect("applies");
            hooked.apply_part(part).expect("applies with the hooks");
            assert!(hooked.state == plain.state, "seed {seed}: states differ");
        }
        assert!(hooked.finished());
    }
}

/// Plays a random game; before every part, applies it to a copy given up on error
/// ([`Game::with_part`], a bot's trial, which keeps no undo copy) and checks the copy ends as
/// [`Game::apply_part`] leaves the game and the game copied from is untouched; a part off
/// the map is refused by both with the same words. Returns how many parts were compared.
fn copies_match_apply_part(mut g: Game, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let off_map = Command::Build {
        building: "m".into(),
        hex: HexRef::Axial { q: 99, r: 99 },
    };
    let mut compared = 0;
    while !g.finished() && compared < 20_000 {
        let listed = g.legal_parts();
        let part = listed[rng.below(listed.len())].clone();
        let before = g.state.clone();
        let want = g.clone().apply_part(&off_map).expect_err("off the map");
        let got = g.clone().with_part(&off_map).expect_err("off the map");
        assert_eq!(got, want, "the copy's refusal differs");
        let copy = g
            .clone()
            .with_part(&part)
            .expect("a listed part applies to a copy");
        assert!(g.state == before, "applying to a copy changed the game");
        g.apply_part(&part).expect("a listed part applies");
        assert!(copy.state == g.state, "the copy differs after {part}");
        assert_eq!(
            copy.legal_parts(),
            g.legal_parts(),
            "listings differ after {part}"
        );
        compared += 1;
    }
    assert!(g.finished(), "the game did not finish");
    compared
}

#[test]
fn a_part_applied_to_a_copy_given_up_on_error_matches_apply_part() {
    let content = common::platform_content();
    let setup = Setup::random(&content, 3, &mut Rng::new(11)).expect("setup");
    let compared = copies_match_apply_part(common::start_game(&content, setup, None), 11);
    assert!(compared >= 100, "only {compared} parts compared");
}

#[test]
fn a_part_applied_to_a_copy_matches_on_the_hooks_path_too() {
    let base = common::base();
    let content = common::example_content();
    let added = added_factions(&content, &base);
    let setup = Setup::random(&content, 3, &mut Rng::new(12)).expect("setup");
    let g = common::start_game(&content, setup, Some(&added[0]));
    let compared = copies_match_apply_part(g, 12);
    assert!(compared >= 100, "only {compared} parts compared");
}
