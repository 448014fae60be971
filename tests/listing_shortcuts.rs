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
