//! Listing's shortcuts list what listing without them lists: in every state of every recorded
//! game and of random games (where resources pile up, so conversions list large multiples),
//! `Game::legal_parts` (and `legal_parts_into` a buffer that held another state's parts)
//! equals `Game::legal_parts_from_scratch`, which finds every multiple by asking use by use;
//! and a part refused leaves the listing as it was.

mod common;

use orrery_core::rng::Rng;
use orrery_gp::game::{Game, Setup};
use orrery_gp::notation::Command;
use orrery_gp::record::Record;

/// Checks one state; `buffer` holds what the previous state listed. Returns a problem.
fn check(game: &Game, buffer: &mut Vec<Command>) -> Option<String> {
    let scratch = game.legal_parts_from_scratch();
    game.legal_parts_into(buffer);
    if *buffer != scratch {
        return Some(format!(
            "listed {:?}\nfrom scratch {:?}",
            buffer.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            scratch.iter().map(|c| c.to_string()).collect::<Vec<_>>()
        ));
    }
    if game.legal_parts() != scratch {
        return Some("legal_parts differs from legal_parts_into".into());
    }
    // A part that cannot apply (more of a conversion than the seat can pay) is refused and
    // leaves the listing as it was.
    let mut tried = game.clone();
    let too_much = Command::Burn(orrery_gp::notation::MAX_AMOUNT);
    if tried.apply_part(&too_much).is_ok() {
        return Some("burning the largest amount applies".into());
    }
    if tried.legal_parts() != scratch {
        return Some("a refused part changed the listing".into());
    }
    None
}

#[test]
fn recorded_games_list_as_from_scratch() {
    let content = common::platform_content();
    let mut states = 0;
    let mut multiples = 0;
    let mut buffer = Vec::new();
    for path in common::records() {
        let record = Record::from_json(&common::read_record(&path)).expect("a record");
        record
            .walk_parts(&content, |game, at| {
                if let Some(problem) = check(game, &mut buffer) {
                    return Err(format!("before `{}` of {:?}: {problem}", at.part, at.line));
                }
                states += 1;
                multiples += buffer
                    .iter()
                    .filter(|c| matches!(c, Command::Spend { cost, .. } if cost.iter().any(|a| a.count > 1)))
                    .count();
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    assert!(states > 20_000, "only {states} states");
    assert!(
        multiples > 1_000,
        "only {multiples} conversions of several uses listed"
    );
}

#[test]
fn random_games_list_as_from_scratch() {
    let content = common::platform_content();
    let mut buffer = Vec::new();
    let mut large = 0;
    for seed in 0..12 {
        let mut rng = Rng::new(seed);
        let setup = Setup::random(&content, 2 + (seed % 3) as usize, &mut rng).expect("setup");
        let mut game = Game::new(content.clone(), setup).expect("game");
        let mut parts = 0;
        while !game.finished() {
            if let Some(problem) = check(&game, &mut buffer) {
                panic!("seed {seed}, part {parts}: {problem}");
            }
            large += buffer
                .iter()
                .filter(|c| matches!(c, Command::Spend { cost, .. } if cost.iter().any(|a| a.count > 8)))
                .count();
            // Mostly conversions while there are some, so resources change often.
            let spends: Vec<&Command> = buffer
                .iter()
                .filter(|c| matches!(c, Command::Spend { .. }))
                .collect();
            let part = match spends.len() {
                n if n > 0 && rng.below(3) == 0 => spends[rng.below(n)].clone(),
                _ => buffer[rng.below(buffer.len())].clone(),
            };
            game.apply_part(&part)
                .unwrap_or_else(|e| panic!("seed {seed}: `{part}` listed but refused: {e}"));
            parts += 1;
            assert!(parts < 20_000, "seed {seed} does not end");
        }
    }
    assert!(large > 0, "no conversion of more than 8 uses was listed");
}

/// What a change to a seat does to the listing of a copy of `game` whose seats' grants were
/// remembered by listing it first: change `change` of the kind `kind`; whether the listing
/// changed (`None`: no such change). Panics naming the change when the listing differs from
/// the one walked afresh.
fn changed_seat_lists_afresh(game: &Game, seat: usize, kind: usize, change: usize) -> Option<bool> {
    use orrery_gp::player::OwnedTile;
    let content = game.content.clone();
    let mut g = game.clone();
    let before = g.legal_parts();
    let p = &mut g.state.players[seat];
    if p.faction.is_empty() {
        return None;
    }
    let what = match kind {
        0 => {
            // One level up on a track that has one more.
            let t = content.research.tracks.get(change)?;
            let level = p.level(&t.id) + 1;
            if level as usize >= t.levels.len() {
                return None;
            }
            p.research.insert(t.id.as_str().into(), level);
            "a research level"
        }
        1 => {
            // A building the seat has none of, taken from its board.
            let b = content.board.buildings.get(change)?;
            if p.built_count(&b.id) > 0 {
                return None;
            }
            p.built.insert(b.id.as_str().into(), 1);
            "a building taken"
        }
        2 => {
            let t = content.tech_tiles.tiles.get(change)?;
            if p.techs.iter().any(|o| o.id == t.id) {
                return None;
            }
            p.techs.push(OwnedTile {
                id: t.id.as_str().into(),
                covered: false,
            });
            "a tech tile"
        }
        _ => {
            let b = content.boosters.boosters.get(change)?;
            if p.booster.as_deref() == Some(b.id.as_str()) {
                return None;
            }
            *p.booster = Some(b.id.as_str().into());
            "a booster"
        }
    };
    let listed = g.legal_parts();
    assert_eq!(
        listed,
        g.legal_parts_from_scratch(),
        "{what} changed for seat {seat}: the listing is stale"
    );
    Some(listed != before)
}

/// Grants are remembered per seat between listings (shared by clones): the deciding seat
/// changed in place (a research level, a building, a tech tile, a booster) lists as listing
/// afresh.
#[test]
fn a_changed_seat_lists_as_from_scratch() {
    let content = common::platform_content();
    let (mut checked, mut changed) = (0, 0);
    for path in common::records().into_iter().take(8) {
        let record = Record::from_json(&common::read_record(&path)).expect("a record");
        let mut n = 0;
        record
            .walk_parts(&content, |game, _| {
                n += 1;
                let Some(seat) = game.deciding_seat().filter(|_| n % 4 == 0) else {
                    return Ok::<_, String>(());
                };
                for kind in 0..4 {
                    for change in 0..16 {
                        if let Some(differs) = changed_seat_lists_afresh(game, seat, kind, change) {
                            checked += 1;
                            changed += usize::from(differs);
                        }
                    }
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    assert!(checked > 1_000, "only {checked} changes checked");
    // The changes matter: a stale answer would show.
    assert!(
        changed >= 100,
        "only {changed} of {checked} changed the listing"
    );
}
