//! Random setups: map, tiles and scoring drawn from content with the seeded generator.

use std::collections::BTreeMap;

use super::{Setup, SetupError};
use crate::content::Content;
use crate::map::{Map, MapError};
use orrery_core::rng::Rng;

fn draw<T: Clone>(rng: &mut Rng, items: &[T], n: usize) -> Vec<T> {
    let mut v = items.to_vec();
    rng.shuffle(&mut v);
    v.truncate(n);
    v
}

/// `Ok` when `id` is among `known`, else the error naming it.
fn known<'a>(
    kind: &'static str,
    id: &str,
    mut known: impl Iterator<Item = &'a str>,
) -> Result<(), SetupError> {
    if known.any(|k| k == id) {
        Ok(())
    } else {
        Err(SetupError::Unknown {
            kind,
            id: id.to_string(),
        })
    }
}

impl Setup {
    /// Checks that every tile, token, position and sector the setup names exists in the
    /// content; the error names the first that does not.
    pub fn check(&self, content: &Content) -> Result<(), SetupError> {
        if !content
            .rules
            .players
            .iter()
            .any(|&p| usize::from(p) == self.players)
        {
            return Err(SetupError::Players {
                players: self.players,
                allowed: content.rules.players.clone(),
            });
        }
        let techs = || content.tech_tiles.tiles.iter().map(|t| t.id.as_str());
        let positions = || content.tech_tiles.positions.iter().map(|t| t.id.as_str());
        for (pos, tile) in &self.techs {
            known("tech tile position", pos, positions())?;
            known("tech tile", tile, techs())?;
        }
        for pos in self.tech_counts.keys() {
            known("tech tile position", pos, positions())?;
        }
        let prefix = &content.advanced_tiles.position_prefix;
        let adv_positions: Vec<String> = content
            .research
            .tracks
            .iter()
            .map(|t| format!("{prefix}{}", t.id))
            .collect();
        for (pos, tile) in &self.adv_techs {
            known(
                "advanced tile position",
                pos,
                adv_positions.iter().map(String::as_str),
            )?;
            let tiles = content.advanced_tiles.tiles.iter().map(|t| t.id.as_str());
            known("advanced tech tile", tile, tiles)?;
        }
        let tokens = || {
            content
                .federation_tokens
                .tokens
                .iter()
                .map(|t| t.id.as_str())
        };
        for id in self
            .terra_fed_token
            .iter()
            .chain(self.federation_tokens.keys())
        {
            known("federation token", id, tokens())?;
        }
        for id in &self.round_scoring {
            let tiles = content.round_scoring.tiles.iter().map(|t| t.id.as_str());
            known("round scoring tile", id, tiles)?;
        }
        for id in &self.final_scoring {
            let tiles = content.final_scoring.tiles.iter().map(|t| t.id.as_str());
            known("final scoring tile", id, tiles)?;
        }
        for id in &self.boosters {
            let tiles = content.boosters.boosters.iter().map(|t| t.id.as_str());
            known("booster", id, tiles)?;
        }
        for p in &self.sectors {
            let sectors = content.sectors.sectors.iter().map(|s| s.id.as_str());
            known("sector", &p.sector, sectors)?;
        }
        Ok(())
    }

    /// A random setup for a player count: a valid random map, standard tiles shuffled onto
    /// their positions, one advanced tile per track, the track federation token, round and
    /// final scoring tiles and `players + extra` boosters.
    pub fn random(content: &Content, players: usize, rng: &mut Rng) -> Result<Setup, MapError> {
        let map = Map::random(content, players, rng)?;
        let tiles: Vec<String> = content
            .tech_tiles
            .tiles
            .iter()
            .map(|t| t.id.clone())
            .collect();
        let tiles = draw(rng, &tiles, tiles.len());
        let positions = &content.tech_tiles.positions;
        let techs: BTreeMap<String, String> = positions
            .iter()
            .zip(tiles)
            .map(|(p, t)| (p.id.clone(), t))
            .collect();
        let tech_counts = positions
            .iter()
            .map(|p| (p.id.clone(), players as u32))
            .collect();
        let adv: Vec<String> = content
            .advanced_tiles
            .tiles
            .iter()
            .map(|t| t.id.clone())
            .collect();
        let tracks = &content.research.tracks;
        let adv_techs = tracks
            .iter()
            .zip(draw(rng, &adv, tracks.len()))
            .map(|(t, a)| {
                (
                    format!("{}{}", content.advanced_tiles.position_prefix, t.id),
                    a,
                )
            })
            .collect();
        let track_tokens: Vec<String> = content
            .federation_tokens
            .tokens
            .iter()
            .filter(|t| t.track_token)
            .map(|t| t.id.clone())
            .collect();
        let terra_fed_token = draw(rng, &track_tokens, 1).into_iter().next();
        let federation_tokens = content
            .federation_tokens
            .tokens
            .iter()
            .filter(|t| t.copies > 0)
            .map(|t| {
                let taken = u32::from(terra_fed_token.as_deref() == Some(t.id.as_str()));
                (t.id.clone(), t.copies - taken)
            })
            .collect();
        let rounds: Vec<String> = content
            .round_scoring
            .tiles
            .iter()
            .map(|t| t.id.clone())
            .collect();
        let finals: Vec<String> = content
            .final_scoring
            .tiles
            .iter()
            .map(|t| t.id.clone())
            .collect();
        let boosters: Vec<String> = content
            .boosters
            .boosters
            .iter()
            .map(|t| t.id.clone())
            .collect();
        Ok(Setup {
            players,
            sectors: map.placements,
            techs,
            tech_counts,
            adv_techs,
            terra_fed_token,
            federation_tokens,
            round_scoring: draw(rng, &rounds, content.rules.rounds as usize),
            final_scoring: draw(rng, &finals, content.final_scoring.per_game as usize),
            boosters: draw(
                rng,
                &boosters,
                players + content.rules.extra_boosters as usize,
            ),
            hexes: None,
        })
    }
}
