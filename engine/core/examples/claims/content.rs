//! The content of Claims: two YAML files declared in a kinds table, loaded by the core's
//! pipeline (schemas generated from these types, overlays with their lines, duplicate ids),
//! and the scripts they name, compiled in the core's sandbox.

use orrery_core::content::kinds::{FileSpec, KindSpec, KindTable, Place};
use orrery_core::content::load::{diag_at, GameContent, Loaded};
use orrery_core::content::provenance::Provenance;
use orrery_core::content::typed;
use orrery_core::diagnostics::Diagnostic;
use orrery_core::files::{ContentFiles, OverlaySource};
use orrery_core::schema::of;
use orrery_core::script::ScriptHost;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A function of a script in `scripts/`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hook {
    /// The script's file name.
    pub script: String,
    /// The function called.
    pub function: String,
}

/// `rules.yaml`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The game's name.
    pub game: String,
    /// Hexes within this distance of the centre make the board.
    #[schemars(range(min = 1, max = 4))]
    pub radius: u8,
    /// Scores a placed piece beside the placer's own: called with `{neighbours: [ids]}`,
    /// returns 0 to 100 points.
    pub bonus: Hook,
}

/// One kind of piece.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    /// Id, as moves name it.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"))]
    pub id: String,
    /// Points for placing one.
    #[schemars(range(min = 0, max = 10))]
    pub points: i32,
    /// How many each seat holds at the start.
    #[schemars(range(min = 1, max = 20))]
    pub count: u8,
}

/// `pieces.yaml`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PiecesFile {
    /// The pieces.
    pub pieces: Vec<Piece>,
}

/// Loaded, checked content.
#[derive(Debug)]
pub struct Content {
    /// The rules.
    pub rules: Rules,
    /// The pieces.
    pub pieces: Vec<Piece>,
    /// The compiled scripts.
    pub scripts: ScriptHost,
    /// Where every value came from (base files or an overlay's lines), for `explain`/`diff`
    /// (the example's own command line does not offer them; its tests do).
    #[cfg_attr(not(test), allow(dead_code))]
    pub provenance: Provenance,
}

static FILES: [FileSpec; 2] = [
    FileSpec {
        path: "rules.yaml",
        schema: "rules.json",
        schema_of: of::<Rules>,
    },
    FileSpec {
        path: "pieces.yaml",
        schema: "pieces.json",
        schema_of: of::<PiecesFile>,
    },
];

static KIND_SPECS: [KindSpec; 2] = [
    KindSpec {
        name: "rules",
        doc: "`rules.yaml` (single item, no id).",
        noun: "rules",
        place: Place::File("rules.yaml"),
        id: None,
        addressed: true,
    },
    KindSpec {
        name: "piece",
        doc: "A kind of piece.",
        noun: "piece",
        place: Place::List {
            file: "pieces.yaml",
            key: "pieces",
        },
        id: Some("id"),
        addressed: true,
    },
];

/// Claims's content kinds, declared once: loading, overlays, the overlay schema, duplicate
/// ids and `explain`/`diff` read this table.
pub static KINDS: KindTable = KindTable::new(&FILES, &KIND_SPECS, Some("scripts/"));

/// The schemas of the content files and of an overlay, by file name.
pub fn schemas() -> Vec<(&'static str, serde_json::Value)> {
    typed::all(&KINDS)
}

/// The decoded files, before the scripts and provenance are attached.
struct Decoded {
    rules: Rules,
    pieces: Vec<Piece>,
}

impl GameContent for Decoded {
    fn table() -> &'static KindTable {
        &KINDS
    }

    fn decode(loaded: &Loaded, diags: &mut Vec<Diagnostic>) -> Option<Decoded> {
        let rules: Option<Rules> = loaded.single("rules.yaml", diags);
        let pieces: Option<PiecesFile> = loaded.single("pieces.yaml", diags);
        if let (Some(rules), Some(doc)) = (&rules, loaded.doc_of("rules.yaml")) {
            let hook = &rules.bonus;
            let at = |pointer: &str, message: String| {
                diag_at(&doc.tree.origin_at(pointer), pointer, message)
            };
            if !loaded.scripts.contains_key(&hook.script) {
                let message = format!("no script {} in scripts/", hook.script);
                diags.push(at("/bonus/script", message));
            } else if !loaded.host.has_function(&hook.script, &hook.function) {
                let message = format!("{} defines no function `{}`", hook.script, hook.function);
                diags.push(at("/bonus/function", message));
            }
        }
        Some(Decoded {
            rules: rules?,
            pieces: pieces?.pieces,
        })
    }
}

/// Loads the content and stacks overlays on it (`set`/`add`/`remove` a piece, `set` a rule),
/// every problem at `file:line:col`.
pub fn load(
    files: &dyn ContentFiles,
    overlays: &[OverlaySource],
) -> Result<Content, Vec<Diagnostic>> {
    let (decoded, loaded) = Decoded::load_with_provenance(files, overlays)?;
    let (scripts, provenance) = loaded.into_parts();
    Ok(Content {
        rules: decoded.rules,
        pieces: decoded.pieces,
        scripts,
        provenance,
    })
}
