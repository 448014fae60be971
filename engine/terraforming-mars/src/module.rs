//! Terraforming Mars as a game the command line runs ([`GameModule`]): `validate`, `schema`
//! and `simulate` come from the commands written once for every game.

use std::collections::BTreeMap;
use std::sync::Arc;

use orrery_core::content::kinds::KindTable;
use orrery_core::content::provenance::Provenance;
use orrery_core::diagnostics::Diagnostic;
use orrery_core::files::{ContentFiles, OverlaySource};
use orrery_core::game_module::{GameModule, Scribe, Start};
use orrery_core::rng::Rng;
use serde_json::{json, Value};

use crate::content::{self, Content};
use crate::game::{Game, Part};

/// Writes one log line per input: a whole line as played, a pick of cards once its last card
/// is decided.
#[derive(Debug, Clone, Copy, Default)]
pub struct LineWriter;

impl Scribe<Game> for LineWriter {
    fn note(&mut self, game: &Game, part: &Part, lines: &mut Vec<String>) {
        if let Some(l) = game.line_of_part(part) {
            lines.push(l.to_string());
        }
    }
}

impl GameModule for Game {
    const ID: &'static str = "terraforming-mars";
    const CONTENT_DIR: &'static str = "terraforming-mars";
    type Content = Content;
    type Setup = ();
    type Scribe = LineWriter;

    /// The core's pipeline by the game's kinds table ([`crate::table`]): overlays apply with
    /// provenance, every problem at its line.
    fn load(
        files: &dyn ContentFiles,
        overlays: &[OverlaySource],
    ) -> Result<Content, Vec<Diagnostic>> {
        crate::table::load(files, overlays)
    }

    fn summary(c: &Content) -> String {
        format!(
            "terraforming-mars: {} map spaces, {} standard projects, {} milestones, {} awards, {} corporations, {} projects",
            c.map.spaces.len(),
            c.standard_projects.len(),
            c.scoring.milestones.len(),
            c.scoring.awards.len(),
            c.corporations.len(),
            c.projects.len()
        )
    }

    fn schemas() -> Vec<(&'static str, Value)> {
        content::schemas()
    }

    /// Map spaces, corporations and standard projects named by id fields; every overlay
    /// target among its kind's ids.
    fn schemas_with_ids(content: &Content) -> Option<Vec<(&'static str, Value)>> {
        Some(crate::table::schemas_with_ids(&[content]))
    }

    fn kinds() -> Option<&'static KindTable> {
        Some(&crate::table::KINDS)
    }

    fn provenance(content: &Content) -> Option<&Provenance> {
        Some(&content.provenance)
    }

    /// The corporations a seat may be dealt.
    fn identities(c: &Content) -> Vec<String> {
        c.corporations
            .iter()
            .filter(|k| k.name != c.rules.beginner_corporation)
            .map(|k| k.name.clone())
            .collect()
    }

    /// A deal drawn from `rng`; each seat chooses its corporation among the two dealt in play
    /// (its bot decides), so given identities are refused.
    fn start(
        content: &Arc<Content>,
        how: Start<'_, ()>,
        rng: &mut Rng,
        _scribe: &mut LineWriter,
        _lines: &mut Vec<String>,
    ) -> Result<Game, String> {
        if how.identities.is_some() {
            return Err(
                "terraforming-mars: each seat chooses its corporation in play; corporations cannot be given"
                    .into(),
            );
        }
        Game::random(content.clone(), how.players, rng.next_u64())
    }

    fn identity(&self, seat: usize) -> String {
        self.corporation_name(seat)
            .unwrap_or_else(|| "-".to_owned())
    }

    fn vp_sources(&self, seat: usize) -> BTreeMap<String, i32> {
        self.vp_by_source(seat)
    }

    fn winners(&self) -> Vec<usize> {
        Game::winners(self)
    }

    fn log(&self, lines: &[String], stack: &Value) -> Value {
        let totals = self.vp_totals();
        json!({
            "source": "orrery simulate",
            "game": Self::ID,
            "players": self.colors().len(),
            "content": stack,
            "moves": lines,
            "finished": self.is_over(),
            "final": (0..totals.len()).map(|s| json!({
                "color": self.colors()[s],
                "corporation": self.identity(s),
                "vp": totals[s],
            })).collect::<Vec<_>>(),
        })
    }
}
