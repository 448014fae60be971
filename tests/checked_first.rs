//! Parts checked first: `Game::apply_part` applies a turn's conversion or burn, an answer to a
//! charge offer, the end of a decision, and a pass, research step, build, board or special
//! action, owed follow-up, starting building or setup booster with no undo copy once every
//! check it could fail has passed. In every state of every recorded game and of random games
//! (the base game, where resources pile up, and the example faction's hooks seated), the end
//! of the decision, charges and declines, conversions and burns listed, recorded, unlisted,
//! too large, wrongly written or mixed, and at a turn, a starting building or a booster choice
//! the listed main actions with every building on their spaces, every track, booster, board
//! action and tile position, and names that are none, are applied both ways: by `apply_part`
//! and by the part's own path with no checks first (`Game::with_part`). Both must accept or
//! refuse alike, with the same words and the same state; a refused part leaves the game
//! exactly as it was.

mod common;

use std::sync::Arc;

use orrery_core::rng::Rng;
use orrery_gp::content::Content;
use orrery_gp::game::{Decision, Game, Setup};
use orrery_gp::notation::{Amount, Amounts, Command, HexRef, MAX_AMOUNT};
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
    main_candidates(game, &mut out);
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

/// Buildings written in `build` parts to try on every listed build's space, the last none.
const BUILDINGS: [&str; 9] = ["m", "ts", "lab", "PI", "ac1", "ac2", "gf", "sp", "tower"];

/// At a turn, a starting building or a booster choice (open or next), main actions to try:
/// the listed passes, research steps, builds, boosters, board and special actions, every
/// building on each listed build's space and on a few spaces of the map (the listed buildings
/// on every space when a follow-up is owed), every track, booster, board action and tile
/// position (to take or to cover), and names content does not have.
fn main_candidates(game: &Game, out: &mut Vec<Command>) {
    let s = &game.state;
    if !matches!(
        s.open.as_ref().or(s.queue.front()),
        Some(Decision::Turn(_) | Decision::Booster(_) | Decision::Place(..))
    ) {
        return;
    }
    let listed = game.legal_parts();
    let mut hexes = Vec::new();
    for p in &listed {
        match p {
            Command::Build { hex, .. } => {
                hexes.push(hex.clone());
                out.push(p.clone());
            }
            Command::Pass(_)
            | Command::Up(_)
            | Command::Booster(_)
            | Command::Action(_)
            | Command::Special(_)
            | Command::Tech(_)
            | Command::Cover(_)
            | Command::Decline(_) => out.push(p.clone()),
            _ => {}
        }
    }
    hexes.sort_by_key(|h| h.to_string());
    hexes.dedup();
    let spaces = s.map.spaces.iter().step_by(17).map(|sp| HexRef::Axial {
        q: sp.hex.q,
        r: sp.hex.r,
    });
    hexes.extend(spaces);
    hexes.push(HexRef::Axial { q: 99, r: -99 });
    for hex in &hexes {
        for b in BUILDINGS {
            out.push(Command::Build {
                building: b.into(),
                hex: hex.clone(),
            });
        }
    }
    // With a follow-up owed (a placement, a downgrade, …), the listed buildings on every
    // space: taken, out of range, too dear, under a satellite.
    if s.open.is_some() && !s.turn.follows.is_empty() {
        let mut codes: Vec<&str> = (listed.iter())
            .filter_map(|p| match p {
                Command::Build { building, .. } => Some(building.as_str()),
                _ => None,
            })
            .collect();
        codes.sort_unstable();
        codes.dedup();
        for sp in &s.map.spaces {
            for b in &codes {
                out.push(Command::Build {
                    building: (*b).into(),
                    hex: HexRef::Axial {
                        q: sp.hex.q,
                        r: sp.hex.r,
                    },
                });
            }
        }
    }
    let content = &game.content;
    let tracks = content.research.tracks.iter().map(|t| t.id.as_str());
    for t in tracks.chain(["nowhere"]) {
        out.push(Command::Up(t.into()));
    }
    let boosters = content.boosters.boosters.iter().map(|b| b.id.as_str());
    for b in boosters.chain(["nobooster"]) {
        out.push(Command::Pass(Some(b.into())));
        out.push(Command::Booster(b.into()));
    }
    out.push(Command::Pass(None));
    let actions = content.board_actions.actions.iter().map(|a| a.id.as_str());
    for a in actions.chain(["noaction"]) {
        out.push(Command::Action(a.into()));
    }
    // Every tile position, standard and advanced (taken, owned, out of reach), to take or
    // to cover, and declining a step.
    let positions = (s.setup.techs.keys().map(|k| k.as_str()))
        .chain(s.adv_left.keys().map(|k| k.as_str()))
        .chain(["nowhere"]);
    for pos in positions {
        out.push(Command::Tech(pos.into()));
        out.push(Command::Cover(pos.into()));
    }
    out.push(Command::Decline(Some("up".into())));
    out.push(Command::Special(amounts(&[(4, "pw")])));
    out.push(Command::Special(amounts(&[(1, "q"), (5, "c")])));
    out.push(Command::Special(amounts(&[(1, "nothing")])));
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
                let (a, r) = check(game, Some(at.part), &format!("before `{}`", at.part));
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
