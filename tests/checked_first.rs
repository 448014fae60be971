//! Parts checked first: `Game::apply_part` applies a turn's conversion or burn, an answer to a
//! charge offer and the end of a decision with no undo copy once every check it could fail has
//! passed. In every state of every recorded game and of random games (the base game, where
//! resources pile up, and the example faction's hooks seated), the end of the decision, charges
//! and declines, and conversions and burns listed, recorded, unlisted, too large, wrongly
//! written or mixed are applied both ways: by
//! `apply_part` and by the part's own path with no checks first (`Game::with_part`). Both must
//! accept or refuse alike, with the same words and the same state; a refused part leaves the
//! game exactly as it was.

mod common;

use std::sync::Arc;

use orrery_core::rng::Rng;
use orrery_gp::content::Content;
use orrery_gp::game::{Game, Setup};
use orrery_gp::notation::{Amount, Amounts, Command, MAX_AMOUNT};
use orrery_gp::record::Record;

/// Amounts of one code each.
fn amounts(list: &[(u32, &str)]) -> Amounts {
    list.iter()
        .map(|&(count, code)| Amount::new(count, code))
        .collect()
}

fn spend(cost: &[(u32, &str)], gain: &[(u32, &str)]) -> Command {
    Command::Spend {
        cost: amounts(cost),
        gain: amounts(gain),
    }
}

/// The same amounts with each count scaled by `by` (at least 1), capped at the largest
/// written count.
fn scaled(list: &Amounts, by: u32) -> Amounts {
    list.iter()
        .map(|a| Amount {
            count: a.count.max(1).saturating_mul(by).min(MAX_AMOUNT),
            ..a.clone()
        })
        .collect()
}

/// Free actions to try in `game`: the listed ones (with `extra`), each also too large, with
/// one more or one less gained, with its cost mixed with another code, and fixed conversions
/// and burns, many of which the seat cannot make.
fn candidates(game: &Game, extra: Option<&Command>) -> Vec<Command> {
    let mut free: Vec<Command> = game
        .legal_parts()
        .into_iter()
        .filter(|p| {
            matches!(
                p,
                Command::Spend { .. } | Command::Burn(_) | Command::Charge(_) | Command::Decline(_)
            )
        })
        .take(8)
        .collect();
    free.extend(extra.cloned());
    let mut out = Vec::new();
    for p in &free {
        out.push(p.clone());
        match p {
            Command::Spend { cost, gain } => {
                for by in [2, 1000, MAX_AMOUNT] {
                    out.push(Command::Spend {
                        cost: scaled(cost, by),
                        gain: scaled(gain, by),
                    });
                }
                out.push(Command::Spend {
                    cost: cost.clone(),
                    gain: scaled(gain, 2),
                });
                let mut less = gain.clone();
                if let Some(a) = less.first_mut() {
                    a.count = a.count.saturating_sub(1);
                }
                out.push(Command::Spend {
                    cost: cost.clone(),
                    gain: less,
                });
                let mut mixed = cost.clone();
                mixed.push(Amount::new(1, "c"));
                out.push(Command::Spend {
                    cost: mixed,
                    gain: gain.clone(),
                });
            }
            Command::Burn(n) => {
                out.push(Command::Burn(n + 1));
                out.push(Command::Burn(n.saturating_mul(2)));
            }
            _ => {}
        }
    }
    out.extend([
        Command::EndTurn,
        Command::Decline(None),
        Command::Charge(amounts(&[(1, "pw")])),
        Command::Charge(amounts(&[(2, "pw")])),
        Command::Charge(amounts(&[(3, "pw")])),
        Command::Charge(amounts(&[(1, "pw"), (1, "t")])),
        Command::Charge(amounts(&[(1, "t"), (2, "pw")])),
        Command::Burn(0),
        Command::Burn(1),
        Command::Burn(3),
        Command::Burn(MAX_AMOUNT),
        spend(&[(3, "pw")], &[(1, "o")]),
        spend(&[(4, "pw")], &[(1, "q")]),
        spend(&[(1, "q")], &[(1, "o")]),
        spend(&[(1, "o")], &[(1, "c")]),
        spend(&[(1, "o")], &[(1, "t")]),
        spend(&[(1, "k")], &[(1, "c")]),
        spend(&[(6, "pw")], &[(2, "o")]),
        spend(&[(0, "pw")], &[(0, "o")]),
        spend(&[(1, "vp")], &[(1, "c")]),
        spend(&[(2, "t")], &[(1, "pw")]),
        spend(&[(1, "o"), (1, "pw")], &[(1, "c")]),
        spend(&[(1, "nothing")], &[(1, "c")]),
        spend(&[(MAX_AMOUNT, "c")], &[(MAX_AMOUNT, "vp")]),
    ]);
    out
}

/// Applies every candidate free action to copies of `game` both ways and checks they agree;
/// how many were accepted and refused.
fn check(game: &Game, extra: Option<&Command>, what: &str) -> (usize, usize) {
    let (mut accepted, mut refused) = (0, 0);
    for p in candidates(game, extra) {
        let plain = game.clone().with_part(&p);
        let mut g = game.clone();
        match (g.apply_part(&p), plain) {
            (Ok(()), Ok(want)) => {
                assert!(g.state == want.state, "{what}: `{p}` applied differently");
                accepted += 1;
            }
            (Err(e), Err(want)) => {
                assert_eq!(e, want, "{what}: `{p}` refused with other words");
                assert!(
                    g.state == game.state,
                    "{what}: refused `{p}` changed the state"
                );
                refused += 1;
            }
            (got, want) => panic!(
                "{what}: `{p}`: apply_part {got:?}, its own path {:?}",
                want.map(|_| ())
            ),
        }
    }
    (accepted, refused)
}

#[test]
fn recorded_states_accept_and_refuse_free_actions_alike() {
    let content = common::platform_content();
    let (mut accepted, mut refused) = (0, 0);
    for path in common::records() {
        let record = Record::from_json(&common::read_record(&path)).expect("a record");
        record
            .walk_parts(&content, |game, at| {
                let (a, r) = check(game, Some(&at.part), &format!("before `{}`", at.part));
                accepted += a;
                refused += r;
                Ok::<(), String>(())
            })
            .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
    }
    assert!(accepted > 20_000, "only {accepted} free actions accepted");
    assert!(refused > 100_000, "only {refused} free actions refused");
}

/// Plays a random game, mostly conversions while there are some, checking every state.
fn random_game(content: &Arc<Content>, setup: Setup, seed: u64, first: Option<&str>) {
    let mut g = common::start_game(content, setup, first);
    let mut rng = Rng::new(seed);
    let (mut accepted, mut parts) = (0, 0);
    while !g.finished() {
        let (a, _) = check(&g, None, &format!("seed {seed}, part {parts}"));
        accepted += a;
        let listed = g.legal_parts();
        let spends: Vec<&Command> = listed
            .iter()
            .filter(|c| matches!(c, Command::Spend { .. }))
            .collect();
        let part = match spends.len() {
            n if n > 0 && rng.below(3) == 0 => spends[rng.below(n)].clone(),
            _ => listed[rng.below(listed.len())].clone(),
        };
        g.apply_part(&part).expect("a listed part applies");
        parts += 1;
        assert!(parts < 20_000, "seed {seed} does not end");
    }
    assert!(accepted > 100, "seed {seed}: only {accepted} accepted");
}

#[test]
fn random_games_accept_and_refuse_free_actions_alike() {
    let content = common::platform_content();
    for seed in 0..3 {
        let setup = Setup::random(&content, 2 + seed as usize, &mut Rng::new(seed)).expect("setup");
        random_game(&content, setup, seed, None);
    }
}

#[test]
fn on_the_hooks_path_too() {
    let base = common::base();
    let content = common::example_content();
    let added: Vec<String> = content
        .factions
        .iter()
        .filter(|f| base.faction(&f.id).is_none())
        .map(|f| f.id.clone())
        .collect();
    assert_eq!(added.len(), 1, "the example adds one faction");
    let setup = Setup::random(&content, 3, &mut Rng::new(5)).expect("setup");
    random_game(&content, setup, 5, Some(&added[0]));
}
