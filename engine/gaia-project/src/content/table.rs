//! Gaia Project's content kinds, declared once: its files with their schemas, and the items
//! overlays, `explain` and `diff` address in them. Loading, the overlay and id schemas,
//! duplicate-id checks and the content reference all read this table.

use orrery_core::content::kinds::{FileSpec, KindSpec, KindTable, Place};
use orrery_core::schema::of;

use super::kinds::*;

/// The content files, by path.
pub mod file {
    /// Game-wide rules.
    pub const RULES: &str = "rules.yaml";
    /// Planet types and the terraforming wheel.
    pub const PLANETS: &str = "planets.yaml";
    /// Sector tiles and map layouts.
    pub const SECTORS: &str = "sectors.yaml";
    /// The standard faction board.
    pub const BOARD: &str = "board.yaml";
    /// One file per faction.
    pub const FACTIONS: &str = "factions/";
    /// Research tracks.
    pub const RESEARCH: &str = "research.yaml";
    /// Standard tech tiles.
    pub const TECH_TILES: &str = "tech-tiles.yaml";
    /// Advanced tech tiles.
    pub const ADVANCED_TILES: &str = "advanced-tech-tiles.yaml";
    /// Round boosters.
    pub const BOOSTERS: &str = "boosters.yaml";
    /// Round scoring tiles.
    pub const ROUND_SCORING: &str = "round-scoring.yaml";
    /// Final scoring tiles.
    pub const FINAL_SCORING: &str = "final-scoring.yaml";
    /// Federation tokens.
    pub const FEDERATION_TOKENS: &str = "federation-tokens.yaml";
    /// Power and QIC actions.
    pub const BOARD_ACTIONS: &str = "board-actions.yaml";
}

/// The folder holding one file per faction.
pub const FACTIONS_DIR: &str = file::FACTIONS;
/// The folder holding scripts.
pub const SCRIPTS_DIR: &str = "scripts/";

static FILES: [FileSpec; 13] = [
    FileSpec {
        path: file::RULES,
        schema: "rules.json",
        schema_of: of::<Rules>,
    },
    FileSpec {
        path: file::PLANETS,
        schema: "planets.json",
        schema_of: of::<PlanetsFile>,
    },
    FileSpec {
        path: file::SECTORS,
        schema: "sectors.json",
        schema_of: of::<SectorsFile>,
    },
    FileSpec {
        path: file::BOARD,
        schema: "board.json",
        schema_of: of::<Board>,
    },
    FileSpec {
        path: file::FACTIONS,
        schema: "faction.json",
        schema_of: of::<Faction>,
    },
    FileSpec {
        path: file::RESEARCH,
        schema: "research.json",
        schema_of: of::<ResearchFile>,
    },
    FileSpec {
        path: file::TECH_TILES,
        schema: "tech-tiles.json",
        schema_of: of::<TechTilesFile>,
    },
    FileSpec {
        path: file::ADVANCED_TILES,
        schema: "advanced-tech-tiles.json",
        schema_of: of::<AdvancedTilesFile>,
    },
    FileSpec {
        path: file::BOOSTERS,
        schema: "boosters.json",
        schema_of: of::<BoostersFile>,
    },
    FileSpec {
        path: file::ROUND_SCORING,
        schema: "round-scoring.json",
        schema_of: of::<RoundScoringFile>,
    },
    FileSpec {
        path: file::FINAL_SCORING,
        schema: "final-scoring.json",
        schema_of: of::<FinalScoringFile>,
    },
    FileSpec {
        path: file::FEDERATION_TOKENS,
        schema: "federation-tokens.json",
        schema_of: of::<FederationTokensFile>,
    },
    FileSpec {
        path: file::BOARD_ACTIONS,
        schema: "board-actions.json",
        schema_of: of::<BoardActionsFile>,
    },
];

/// A kind whose items are the elements of `key` in `file`, named by their `id`.
const fn list(
    name: &'static str,
    doc: &'static str,
    noun: &'static str,
    file: &'static str,
    key: &'static str,
) -> KindSpec {
    KindSpec {
        name,
        doc,
        noun,
        place: Place::List { file, key },
        id: Some("id"),
        addressed: true,
    }
}

/// A kind that is a whole file, one item without an id.
const fn whole(name: &'static str, doc: &'static str, file: &'static str) -> KindSpec {
    KindSpec {
        name,
        doc,
        noun: name,
        place: Place::File(file),
        id: None,
        addressed: true,
    }
}

static KIND_SPECS: [KindSpec; 16] = [
    whole("rules", "`rules.yaml` (single item, no id).", file::RULES),
    list(
        "planet",
        "A planet type.",
        "planet type",
        file::PLANETS,
        "planets",
    ),
    whole(
        "map",
        "`sectors.yaml` as a whole: sector sides and the map layouts (single item, no id).",
        file::SECTORS,
    ),
    list(
        "sector",
        "A sector tile side.",
        "sector",
        file::SECTORS,
        "sectors",
    ),
    whole(
        "board",
        "`board.yaml`, the standard faction board (single item, no id).",
        file::BOARD,
    ),
    KindSpec {
        name: "faction",
        doc: "A faction.",
        noun: "faction",
        place: Place::File(file::FACTIONS),
        id: Some("id"),
        addressed: true,
    },
    whole(
        "research",
        "`research.yaml` as a whole (single item, no id).",
        file::RESEARCH,
    ),
    list(
        "track",
        "A research track.",
        "research track",
        file::RESEARCH,
        "tracks",
    ),
    list(
        "tech_tile",
        "A standard tech tile.",
        "tech tile",
        file::TECH_TILES,
        "tiles",
    ),
    list(
        "advanced_tile",
        "An advanced tech tile.",
        "advanced tech tile",
        file::ADVANCED_TILES,
        "tiles",
    ),
    list(
        "booster",
        "A round booster.",
        "booster",
        file::BOOSTERS,
        "boosters",
    ),
    list(
        "round_scoring",
        "A round scoring tile.",
        "round scoring tile",
        file::ROUND_SCORING,
        "tiles",
    ),
    list(
        "final_scoring",
        "A final scoring tile.",
        "final scoring tile",
        file::FINAL_SCORING,
        "tiles",
    ),
    list(
        "federation_token",
        "A federation token.",
        "federation token",
        file::FEDERATION_TOKENS,
        "tokens",
    ),
    list(
        "board_action",
        "A power or QIC action.",
        "board action",
        file::BOARD_ACTIONS,
        "actions",
    ),
    // The standard board's buildings: ids checked for duplicates, not addressed on their own.
    KindSpec {
        name: "building",
        doc: "A building of the standard board.",
        noun: "building",
        place: Place::List {
            file: file::BOARD,
            key: "buildings",
        },
        id: Some("id"),
        addressed: false,
    },
];

/// Gaia Project's content kinds.
pub static KINDS: KindTable = KindTable::new(&FILES, &KIND_SPECS, Some(SCRIPTS_DIR));

/// The addressed kind of this name (`faction`, `booster`), as overlays write it.
pub fn kind(name: &str) -> Option<&'static KindSpec> {
    KINDS.addressed().find(|k| k.name == name)
}
