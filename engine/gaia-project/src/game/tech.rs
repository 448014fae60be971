//! Tech tiles: taking a standard or an advanced tile, and covering a standard one.

use super::follow::Follow;
use super::{err, Game, MoveError};
use crate::content::ResearchChoice;
use crate::lookup::by_id;
use crate::notation::Word;

impl Game {
    /// Takes the tile at a position (a follow-up): a standard tile and its research step, or an
    /// advanced tile for a green federation token, with a tile to cover and a step.
    pub(super) fn take_tech(&mut self, seat: usize, pos: &str) -> Result<(), MoveError> {
        match self.tech_at(seat, pos)? {
            TileAt::Advanced(tile) => {
                if let Some(tok) = (self.state.players[seat].tokens.iter_mut()).find(|t| t.green) {
                    tok.green = false;
                }
                self.state.adv_left.remove(pos);
                self.state.players[seat].advanced.push(tile.clone());
                self.state.players[seat]
                    .log_source(&crate::player::source_key("a:", tile.as_str()));
                self.state
                    .turn
                    .follows
                    .insert(0, Follow::Up(ResearchChoice::Any));
                self.state.turn.follows.insert(0, Follow::Cover);
                let content = self.content.clone();
                self.tile_immediate(seat, &content.advanced_tiles.tiles, &tile)
            }
            TileAt::Standard(tile) => {
                let tile = Word::from(tile);
                *self.state.tech_left.entry(pos.into()).or_default() -= 1;
                self.state.players[seat]
                    .techs
                    .push(crate::player::OwnedTile {
                        id: tile.as_str().into(),
                        covered: false,
                    });
                self.state.players[seat]
                    .log_source(&crate::player::source_key("t:", tile.as_str()));
                let choice = by_id(&self.content.tech_tiles.positions, pos)
                    .and_then(|p| p.track.clone())
                    .map_or(ResearchChoice::Any, ResearchChoice::Track);
                self.state.turn.follows.insert(0, Follow::Up(choice));
                let content = self.content.clone();
                self.tile_immediate(seat, &content.tech_tiles.tiles, &tile)
            }
        }
    }

    /// The tile at a position the seat may take now, checked without changing anything: an
    /// advanced tile still there, with the level it asks on its track, a standard tile of the
    /// seat's to cover and a green federation token; or a standard tile left there that the
    /// seat does not own.
    pub(super) fn tech_at(&self, seat: usize, pos: &str) -> Result<TileAt<'_>, MoveError> {
        let p = &self.state.players[seat];
        let advanced = &self.content.advanced_tiles;
        if let Some(track) = pos.strip_prefix(advanced.position_prefix.as_str()) {
            let tile = (self.state.adv_left.get(pos).cloned())
                .ok_or_else(|| MoveError(format!("no advanced tile at {pos}")))?;
            if p.level(track) < advanced.min_level {
                return err(format!(
                    "{tile} needs level {} on {track}",
                    advanced.min_level
                ));
            }
            if !p.techs.iter().any(|t| !t.covered) {
                return err("no standard tile to cover");
            }
            if !p.tokens.iter().any(|t| t.green) {
                return err("an advanced tile needs a green federation token");
            }
            return Ok(TileAt::Advanced(tile));
        }
        let tile = self.tile_at(pos)?;
        if self.state.tech_left.get(pos).copied().unwrap_or(0) == 0 {
            return err(format!("no {tile} left at {pos}"));
        }
        if p.techs.iter().any(|t| t.id == tile) {
            return err(format!("you already own {tile}"));
        }
        Ok(TileAt::Standard(tile))
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
    fn tile_at(&self, pos: &str) -> Result<&str, MoveError> {
        self.state
            .setup
            .techs
            .get(pos)
            .map(String::as_str)
            .ok_or_else(|| MoveError(format!("no tech position {pos}")))
    }

    /// Covers one of the seat's standard tiles (a follow-up of an advanced tile).
    pub(super) fn cover(&mut self, seat: usize, pos: &str) -> Result<(), MoveError> {
        let (tile, i) = self.coverable(seat, pos)?;
        let tile = Word::from(tile);
        self.state.players[seat].techs[i].covered = true;
        self.state.players[seat].unlog_source(&crate::player::source_key("t:", tile.as_str()));
        Ok(())
    }

    /// The standard tile at a position, and where the seat holds it uncovered, checked
    /// without changing anything.
    pub(super) fn coverable(&self, seat: usize, pos: &str) -> Result<(&str, usize), MoveError> {
        let tile = self.tile_at(pos)?;
        let i = (self.state.players[seat].techs.iter())
            .position(|t| t.id == tile && !t.covered)
            .ok_or_else(|| MoveError(format!("you have no uncovered {tile}")))?;
        Ok((tile, i))
    }
}

/// A tile a seat may take at a position ([`Game::tech_at`]).
pub(super) enum TileAt<'a> {
    /// An advanced tile, by id.
    Advanced(Word),
    /// A standard tile, by id.
    Standard(&'a str),
}
