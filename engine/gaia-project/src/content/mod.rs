//! Content: the game's data, loaded from YAML and Rhai files, checked against JSON Schemas and
//! cross-referenced, optionally patched by variant overlays.
//!
//! ```no_run
//! use orrery_gp::content::{Content, DirFiles};
//! let content = Content::load(&DirFiles::new("content/base"), &[]).expect("valid content");
//! println!("{}", content.summary());
//! ```

pub mod bounds;
pub mod describe;
pub mod effect;
#[doc(hidden)]
pub mod fixture;
pub mod id_schema;
pub mod inspect;
pub mod kinds;
mod load;
pub mod overlay;
pub mod reference;
pub mod refs;
pub mod schema;
pub mod table;

use std::sync::Arc;

pub use effect::*;
pub use kinds::*;
pub use load::POWER_CODES;
pub use orrery_core::content::load::OverlaySource;
pub use orrery_core::content::provenance::Provenance;
pub use orrery_core::files::{ContentFiles, DirFiles, MemFiles};
pub use table::{kind, KINDS};

use orrery_core::script::ScriptHost;

/// The loaded, checked content of one game (base plus overlays). Immutable and shareable.
#[derive(Debug, Clone)]
pub struct Content {
    /// Game-wide rules.
    pub rules: Rules,
    /// Planet types and the terraforming wheel.
    pub planets: PlanetsFile,
    /// Sector tiles and layouts.
    pub sectors: SectorsFile,
    /// The standard faction board.
    pub board: Board,
    /// Factions, in file order.
    pub factions: Vec<Faction>,
    /// Research tracks.
    pub research: ResearchFile,
    /// Standard tech tiles and positions.
    pub tech_tiles: TechTilesFile,
    /// Advanced tech tiles.
    pub advanced_tiles: AdvancedTilesFile,
    /// Round boosters.
    pub boosters: BoostersFile,
    /// Round scoring tiles.
    pub round_scoring: RoundScoringFile,
    /// Final scoring tiles.
    pub final_scoring: FinalScoringFile,
    /// Federation tokens.
    pub federation_tokens: FederationTokensFile,
    /// Power and QIC actions.
    pub board_actions: BoardActionsFile,
    /// Compiled scripts.
    pub scripts: Arc<ScriptHost>,
    /// Where every value came from.
    pub provenance: Arc<Provenance>,
}

impl Content {
    /// One line of counts, e.g. `14 factions, 9 tech tiles, …`.
    pub fn summary(&self) -> String {
        format!(
            "{} factions, {} tech tiles, {} advanced tech tiles, {} boosters, {} round scoring tiles, \
             {} final scoring tiles, {} federation tokens, {} board actions, {} research tracks, \
             {} sectors, {} planet types, {} scripts",
            self.factions.len(),
            self.tech_tiles.tiles.len(),
            self.advanced_tiles.tiles.len(),
            self.boosters.boosters.len(),
            self.round_scoring.tiles.len(),
            self.final_scoring.tiles.len(),
            self.federation_tokens.tokens.len(),
            self.board_actions.actions.len(),
            self.research.tracks.len(),
            self.sectors.sectors.len(),
            self.planets.planets.len(),
            self.scripts.script_count(),
        )
    }

    /// Calls `f` with what every granting thing in content grants: the board's buildings,
    /// every faction's abilities and building overrides, research levels, tech and advanced
    /// tiles, boosters and round scoring tiles.
    pub fn each_grants<'a>(&'a self, mut f: impl FnMut(Grants<'a>)) {
        for b in &self.board.buildings {
            f(b.grants.grants());
        }
        for faction in &self.factions {
            for a in &faction.abilities {
                f(a.grants());
            }
            for b in &faction.board.buildings {
                if let Some(g) = &b.grants {
                    f(g.grants());
                }
            }
        }
        for t in &self.research.tracks {
            for l in &t.levels {
                f(l.grants());
            }
        }
        let tiles = self
            .tech_tiles
            .tiles
            .iter()
            .chain(&self.advanced_tiles.tiles);
        for t in tiles
            .chain(&self.boosters.boosters)
            .chain(&self.round_scoring.tiles)
        {
            f(t.grants());
        }
    }

    /// The faction with this id.
    pub fn faction(&self, id: &str) -> Option<&Faction> {
        self.factions.iter().find(|f| f.id == id)
    }
}
