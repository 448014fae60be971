//! Random setups: map, tiles and scoring drawn from content with the seeded generator.

use std::collections::BTreeMap;

use super::Setup;
use crate::content::Content;
use crate::map::{Map, MapError};
use crate::rng::Rng;

fn draw<T: Clone>(rng: &mut Rng, items: &[T], n: usize) -> Vec<T> {
    let mut v = items.to_vec();
    rng.shuffle(&mut v);
    v.truncate(n);
    v
}

impl Setup {
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
        })
    }
}
