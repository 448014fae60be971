//! Tech tiles: taking a standard or an advanced tile, and covering a standard one.

use super::follow::Follow;
use super::{err, Game, MoveError};
use crate::content::ResearchChoice;
use crate::lookup::by_id;

impl Game {
    /// Takes the tile at a position (a follow-up): a standard tile and its research step, or an
    /// advanced tile for a green federation token, with a tile to cover and a step.
    pub(super) fn take_tech(&mut self, seat: usize, pos: &str) -> Result<(), MoveError> {
        let prefix = self.content.advanced_tiles.position_prefix.clone();
        if let Some(track) = pos.strip_prefix(&prefix) {
            let tile = self
                .state
                .adv_left
                .get(pos)
                .cloned()
                .ok_or_else(|| MoveError(format!("no advanced tile at {pos}")))?;
            let level = self.state.players[seat].level(track);
            if level < self.content.advanced_tiles.min_level {
                return err(format!(
                    "{tile} needs level {} on {track}",
                    self.content.advanced_tiles.min_level
                ));
            }
            if !self.state.players[seat].techs.iter().any(|t| !t.covered) {
                return err("no standard tile to cover");
            }
            let tok = self.state.players[seat]
                .tokens
                .iter_mut()
                .find(|t| t.green)
                .ok_or_else(|| {
                    MoveError("an advanced tile needs a green federation token".into())
                })?;
            tok.green = false;
            self.state.adv_left.remove(pos);
            self.state.players[seat].advanced.push(tile.clone());
            self.state.players[seat].log_source(&crate::player::source_key("a:", tile.as_str()));
            self.state
                .turn
                .follows
                .insert(0, Follow::Up(ResearchChoice::Any));
            self.state.turn.follows.insert(0, Follow::Cover);
            let content = self.content.clone();
            return self.tile_immediate(seat, &content.advanced_tiles.tiles, &tile);
        }
        let tile = self.tile_at(pos)?;
        if self.state.tech_left.get(pos).copied().unwrap_or(0) == 0 {
            return err(format!("no {tile} left at {pos}"));
        }
        if self.state.players[seat].techs.iter().any(|t| t.id == tile) {
            return err(format!("you already own {tile}"));
        }
        *self.state.tech_left.entry(pos.into()).or_default() -= 1;
        self.state.players[seat]
            .techs
            .push(crate::player::OwnedTile {
                id: tile.as_str().into(),
                covered: false,
            });
        self.state.players[seat].log_source(&crate::player::source_key("t:", tile.as_str()));
        let choice = by_id(&self.content.tech_tiles.positions, pos)
            .and_then(|p| p.track.clone())
            .map_or(ResearchChoice::Any, ResearchChoice::Track);
        self.state.turn.follows.insert(0, Follow::Up(choice));
        let content = self.content.clone();
        self.tile_immediate(seat, &content.tech_tiles.tiles, &tile)
    }

    /// Applies a newly taken tile's one-time effects.
    fn tile_immediate(
        &mut self,
        seat: usize,
        tiles: &[crate::content::Tile],
        id: &str,
    ) -> Result<(), MoveError> {
        match by_id(tiles, id) {
            Some(def) => self.apply_effects(seat, &def.immediate, "tech tiles"),
            None => Ok(()),
        }
    }

    /// The standard tile at a position.
    fn tile_at(&self, pos: &str) -> Result<String, MoveError> {
        self.state
            .setup
            .techs
            .get(pos)
            .cloned()
            .ok_or_else(|| MoveError(format!("no tech position {pos}")))
    }

    /// Covers one of the seat's standard tiles (a follow-up of an advanced tile).
    pub(super) fn cover(&mut self, seat: usize, pos: &str) -> Result<(), MoveError> {
        let tile = self.tile_at(pos)?;
        let t = self.state.players[seat]
            .techs
            .iter_mut()
            .find(|t| t.id == tile && !t.covered)
            .ok_or_else(|| MoveError(format!("you have no uncovered {tile}")))?;
        t.covered = true;
        self.state.players[seat].unlog_source(&crate::player::source_key("t:", tile.as_str()));
        Ok(())
    }
}
