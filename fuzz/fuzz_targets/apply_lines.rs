//! Arbitrary lines and parts applied to states of the recorded games.
//!
//! Input: a first line `NAME AT` (a record such as `rich/rich-019`, or a number picking one,
//! and the move after which to start), then up to 16 lines, each
//! - `#N`: the N-th legal part (modulo their number), which must be accepted;
//! - `!LINE`: the line's parts applied one by one with `apply_part`;
//! - anything else: applied as a move line.
//!
//! A refused line or part must leave the state exactly as it was; every state reached is
//! listed (`legal_parts`), so a listing that blows up counts too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use orrery_gp::game::Game;
use orrery_gp::notation::{self, MoveLine};
use orrery_fuzz::{recorded_state, records};

fn start(header: &str) -> Option<Game> {
    let mut words = header.split_whitespace();
    let name = words.next()?;
    let at: usize = words.next()?.parse().ok()?;
    let records = records();
    let index = match records.iter().position(|(n, _)| n == name) {
        Some(i) => i,
        None => name.parse::<usize>().ok()? % records.len(),
    };
    Some(recorded_state(index, at.min(1000)))
}

/// Applies `step`, checking a refusal leaves the state untouched.
fn checked(game: &mut Game, what: &str, step: impl FnOnce(&mut Game) -> bool) -> bool {
    let before = game.state.clone();
    let accepted = step(game);
    if !accepted {
        assert!(game.state == before, "refused {what:?} changed the state");
    }
    accepted
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.lines();
    let Some(mut game) = lines.next().and_then(start) else {
        return;
    };
    for line in lines.take(16) {
        if let Some(n) = line.strip_prefix('#') {
            let parts = game.legal_parts();
            if parts.is_empty() {
                continue;
            }
            let n: usize = n.trim().parse().unwrap_or(0);
            let part = &parts[n % parts.len()];
            if let Err(e) = game.apply_part(part) {
                panic!("listed part {part} refused: {e}");
            }
        } else if let Some(rest) = line.strip_prefix('!') {
            let Ok(MoveLine::Turn { parts, .. }) = notation::parse_line(rest) else {
                continue;
            };
            for part in &parts {
                if !checked(&mut game, &part.to_string(), |g| g.apply_part(part).is_ok()) {
                    break;
                }
            }
        } else {
            checked(&mut game, line, |g| g.apply_text(line).is_ok());
        }
        let listed = game.legal_parts();
        assert!(listed.len() < 1_000_000, "{} parts listed", listed.len());
    }
});
