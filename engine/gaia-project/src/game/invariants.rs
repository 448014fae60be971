//! Invariants a rules bug would break, watched over a whole game (a study checks every game it
//! plays with them, so a bug cannot skew its tables silently):
//!
//! * every resource of every seat within 0 and its cap;
//! * each seat's VP by source summing to its VP;
//! * every federation formed reaching its threshold: the rules' threshold (or the seat's own),
//!   times the number of formations so far plus one under the single-federation rule — the
//!   formations counted here, by the watch, not by the engine.

use crate::content::Modifier;
use crate::notation::Command;

use super::Game;

/// Watches one game part by part: [`Watch::before`] each part, [`Watch::after`] it.
#[derive(Debug, Clone, Default)]
pub struct Watch {
    /// Federations each seat formed so far, counted by the watch.
    formations: Vec<u32>,
}

impl Watch {
    /// A watch for a game of `seats` seats.
    pub fn new(seats: usize) -> Watch {
        Watch {
            formations: vec![0; seats],
        }
    }

    /// Checks a part about to be applied by `seat`: a federation must reach its threshold.
    ///
    /// # Errors
    ///
    /// The broken invariant, in words.
    pub fn before(&mut self, game: &Game, seat: usize, part: &Command) -> Result<(), String> {
        let Command::Federation { hexes, .. } = part else {
            return Ok(());
        };
        if game
            .state
            .players
            .get(seat)
            .is_none_or(|p| p.faction.is_empty())
        {
            return Err(format!(
                "seat {} forms a federation without a faction",
                seat + 1
            ));
        }
        let mods = game.modifiers(seat);
        let single = mods.iter().any(|m| matches!(m, Modifier::SingleFederation));
        let base = mods
            .iter()
            .find_map(|m| match m {
                Modifier::FederationThreshold(t) => Some(*t),
                _ => None,
            })
            .unwrap_or(game.content.rules.federation_threshold);
        let Some(formed) = self.formations.get_mut(seat) else {
            return Err(format!("seat {} is not in the game", seat + 1));
        };
        let threshold = if single {
            base.saturating_mul(formed.saturating_add(1))
        } else {
            base
        };
        // The hexes formed, and under the single-federation rule the federation they grow.
        let mut spaces: Vec<usize> = hexes
            .iter()
            .filter_map(|h| game.hex(h).ok())
            .chain(
                game.state.players[seat]
                    .federations
                    .iter()
                    .filter(|_| single)
                    .flatten()
                    .copied(),
            )
            .filter_map(|h| game.state.map.space_index(h))
            .collect();
        spaces.sort_unstable();
        spaces.dedup();
        let value: u32 = spaces
            .iter()
            .filter_map(|idx| game.state.structures.get(idx).map(|l| (idx, l)))
            .flat_map(|(idx, list)| list.iter().map(move |s| (*idx, s)))
            .filter(|(_, s)| s.seat == seat)
            .map(|(idx, s)| {
                if s.shared {
                    1
                } else {
                    game.power_value_with(seat, idx, &s.building, &mods)
                }
            })
            .sum();
        *formed += 1;
        if value < threshold {
            return Err(format!(
                "{} formed federation {} of the game with power value {value}, below its \
                 threshold {threshold} (`{part}`)",
                game.seat_name(seat),
                *formed
            ));
        }
        Ok(())
    }

    /// Checks every seat's holdings after a part.
    ///
    /// # Errors
    ///
    /// The broken invariant, in words.
    pub fn after(&self, game: &Game) -> Result<(), String> {
        holdings(game)
    }
}

/// Every seat's resources within 0 and their caps, and its VP by source summing to its VP.
///
/// # Errors
///
/// The first broken invariant, in words.
pub fn holdings(game: &Game) -> Result<(), String> {
    let content = &game.content;
    for (seat, p) in game.state.players.iter().enumerate() {
        for (r, &have) in content.rules.resources.iter().zip(&p.resources) {
            // Victory points may fall below zero (a faction auction's bid is paid in VP), as a
            // saved state may hold them; nothing else may.
            if have < 0 && r.id != "vp" {
                return Err(format!(
                    "{} holds {have} {}, below 0",
                    game.seat_name(seat),
                    r.id
                ));
            }
            if let Some(cap) = r.cap.filter(|cap| have > *cap) {
                return Err(format!(
                    "{} holds {have} {}, above its cap {cap}",
                    game.seat_name(seat),
                    r.id
                ));
            }
        }
        let sources = p
            .vp_sources
            .values()
            .fold(0i64, |sum, v| sum + i64::from(*v));
        let vp = i64::from(p.resource(content, "vp"));
        if sources != vp {
            return Err(format!(
                "{} has {vp} VP but its VP by source sum to {sources}",
                game.seat_name(seat)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{fixture, Content};
    use crate::game::Setup;
    use orrery_core::rng::Rng;
    use std::sync::Arc;

    fn game() -> Game {
        game_with(fixture::files())
    }

    fn game_with(mut files: crate::content::MemFiles) -> Game {
        files.files.insert(
            "factions/blips.yaml".into(),
            "id: blips\nname: Blips\nhome: blue\n".into(),
        );
        let content = Arc::new(Content::load(&files, &[]).expect("fixture loads"));
        let setup = Setup::random(&content, 2, &mut Rng::new(3)).expect("setup");
        Game::new(content, setup).expect("game")
    }

    /// Seat 1 takes the Zorgs, seat 2 the Blips.
    fn choose(g: &mut Game) {
        g.apply_text("p1 faction zorgs").expect("zorgs");
        g.apply_text("p2 faction blips").expect("blips");
    }

    /// Seat 1 owns a hut on each of the first `n` spaces; the part forming them.
    fn huts(g: &mut Game, n: usize) -> Command {
        let mut hexes = Vec::new();
        for idx in 0..n {
            let hex = g.state.map.spaces[idx].hex;
            g.state.structures.insert(
                idx,
                smallvec::smallvec![crate::game::Structure {
                    seat: 0,
                    building: "hut".into(),
                    shared: false,
                    off_board: false,
                }],
            );
            hexes.push(crate::notation::HexRef::Axial { q: hex.q, r: hex.r });
        }
        Command::Federation {
            hexes: hexes.into(),
            token: "star".into(),
        }
    }

    #[test]
    fn a_fresh_game_keeps_every_invariant() {
        let g = game();
        assert_eq!(holdings(&g), Ok(()));
        assert_eq!(Watch::new(2).after(&g), Ok(()));
    }

    #[test]
    fn a_negative_resource_is_found() {
        let mut g = game();
        g.state.players[1].resources[0] = -1;
        let e = holdings(&g).expect_err("negative");
        assert!(e.contains("below 0"), "{e}");
    }

    #[test]
    fn a_resource_above_its_cap_is_found() {
        let mut g = game();
        let (i, cap) = g
            .content
            .rules
            .resources
            .iter()
            .enumerate()
            .find_map(|(i, r)| r.cap.map(|c| (i, c)))
            .expect("the fixture caps a resource");
        g.state.players[0].resources[i] = cap + 1;
        let e = holdings(&g).expect_err("above the cap");
        assert!(e.contains("above its cap"), "{e}");
    }

    #[test]
    fn vp_not_matching_their_sources_are_found() {
        let mut g = game();
        let vp = g
            .content
            .rules
            .resources
            .iter()
            .position(|r| r.id == "vp")
            .expect("vp");
        g.state.players[0].resources[vp] += 3;
        let e = holdings(&g).expect_err("sources");
        assert!(e.contains("by source"), "{e}");
    }

    /// Three huts (value 3) reach the fixture's threshold 3 every time; under the
    /// single-federation rule the second formation needs 6, counted by the watch itself.
    #[test]
    fn the_single_federation_threshold_grows_with_each_formation() {
        let mut g = game();
        choose(&mut g);
        let part = huts(&mut g, 3);
        let mut w = Watch::new(2);
        for _ in 0..3 {
            assert_eq!(w.before(&g, 0, &part), Ok(()));
        }
        let mut files = fixture::files();
        let zorgs = files.files.get_mut("factions/zorgs.yaml").expect("zorgs");
        zorgs.push_str("  - modifiers: [single_federation]\n");
        let mut g = game_with(files);
        choose(&mut g);
        let part = huts(&mut g, 3);
        let mut w = Watch::new(2);
        assert_eq!(w.before(&g, 0, &part), Ok(()));
        let e = w
            .before(&g, 0, &part)
            .expect_err("the second formation needs 6");
        assert!(e.contains("power value 3, below its threshold 6"), "{e}");
    }

    #[test]
    fn a_federation_of_no_value_is_below_its_threshold() {
        let mut g = game();
        choose(&mut g);
        let mut w = Watch::new(2);
        let hex = g.state.map.spaces[0].hex;
        let part = Command::Federation {
            hexes: vec![crate::notation::HexRef::Axial { q: hex.q, r: hex.r }].into(),
            token: "fedx".into(),
        };
        let e = w.before(&g, 0, &part).expect_err("nothing built there");
        assert!(e.contains("below its threshold"), "{e}");
        let e = w
            .before(&game(), 0, &part)
            .expect_err("no faction chosen yet");
        assert!(e.contains("without a faction"), "{e}");
        // Other parts are not checked here.
        assert_eq!(w.before(&g, 0, &Command::EndTurn), Ok(()));
    }
}
