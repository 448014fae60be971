//! Research: whether a seat may advance a track, and advancing it.

use super::happened::Happened;
use super::{err, Game, MoveError};
use crate::content::Modifier;
use crate::lookup::by_id;

impl Game {
    /// Whether a seat may advance a track now.
    pub(crate) fn can_advance(&self, seat: usize, track: &str) -> Result<(), MoveError> {
        self.can_advance_with(seat, track, &self.modifiers(seat))
    }

    /// [`Game::can_advance`] with the modifiers in force given.
    pub(crate) fn can_advance_with(
        &self,
        seat: usize,
        track: &str,
        mods: &[&Modifier],
    ) -> Result<(), MoveError> {
        let t = by_id(&self.content.research.tracks, track)
            .ok_or_else(|| MoveError(format!("unknown research track {track}")))?;
        let level = self.state.players[seat].level(track);
        let top = t.levels.len() as u32 - 1;
        if level >= top {
            return err(format!("{track} is at its top level"));
        }
        if mods
            .iter()
            .any(|m| matches!(m, Modifier::LockTrack(x) if x == track))
        {
            return err(format!("you may not advance on {track}"));
        }
        if level + 1 == top {
            let tl = &self.content.research.top_level;
            if tl.exclusive
                && self
                    .state
                    .players
                    .iter()
                    .any(|p| p.research.get(track) == Some(&top))
            {
                return err(format!("someone stands on the top of {track}"));
            }
            if tl.flip_token && !self.state.players[seat].tokens.iter().any(|t| t.green) {
                return err("the top level needs a green federation token");
            }
        }
        Ok(())
    }

    /// Advances a track one level: its immediate effects and the research-step event.
    pub(crate) fn advance_research(&mut self, seat: usize, track: &str) -> Result<(), MoveError> {
        self.can_advance(seat, track)?;
        // Content is shared: the track is read in place, not copied.
        let content = self.content.clone();
        let t = by_id(&content.research.tracks, track).expect("checked");
        let level = self.state.players[seat].level(track) + 1;
        if level as usize + 1 == t.levels.len() && self.content.research.top_level.flip_token {
            if let Some(tok) = self.state.players[seat].tokens.iter_mut().find(|t| t.green) {
                tok.green = false;
            }
        }
        self.state.players[seat]
            .research
            .insert(track.into(), level);
        self.state.players[seat].log_source(&crate::player::source_key("r:", track));
        self.apply_effects(seat, &t.levels[level as usize].immediate, "research")?;
        self.fire(seat, &Happened::ResearchStep { track, level })?;
        Ok(())
    }
}
