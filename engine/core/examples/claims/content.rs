//! The content of Claims: two YAML files checked against schemas generated from these types,
//! and the scripts they name, compiled in the core's sandbox.

use orrery_core::diagnostics::{Diagnostic, SchemaCheck, SourceDoc};
use orrery_core::files::{ContentFiles, OverlaySource};
use orrery_core::schema::of;
use orrery_core::script::{Limits, ScriptHost};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
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
}

/// The schemas of the content files, by file name.
pub fn schemas() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        ("rules.json", of::<Rules>()),
        ("pieces.json", of::<PiecesFile>()),
    ]
}

/// A file read, its schema checked (every problem at `file:line:col`) and decoded.
fn decode<T: DeserializeOwned>(
    files: &dyn ContentFiles,
    rel: &str,
    schema: &serde_json::Value,
) -> Result<(T, SourceDoc), Vec<Diagnostic>> {
    let shown = files.display_name(rel);
    let text = files
        .read(rel)
        .map_err(|e| vec![Diagnostic::plain(&shown, e)])?;
    let doc = SourceDoc::parse(&shown, &text).map_err(|d| vec![d])?;
    let check = SchemaCheck::new(schema).map_err(|e| vec![Diagnostic::plain(&shown, e)])?;
    let problems = check.check(&doc);
    if !problems.is_empty() {
        return Err(problems);
    }
    let value = serde_json::from_value(doc.value().clone())
        .map_err(|e| vec![Diagnostic::plain(&shown, e.to_string())])?;
    Ok((value, doc))
}

/// A problem at a place in a document.
fn at(doc: &SourceDoc, pointer: &str, message: String) -> Diagnostic {
    Diagnostic::new(doc.file(), doc.pos_of(pointer), pointer, message)
}

/// Loads the content. Claims takes no overlays.
pub fn load(
    files: &dyn ContentFiles,
    overlays: &[OverlaySource],
) -> Result<Content, Vec<Diagnostic>> {
    if let Some(o) = overlays.first() {
        return Err(vec![Diagnostic::plain(&o.file, "Claims takes no overlays")]);
    }
    let schemas: std::collections::BTreeMap<_, _> = schemas().into_iter().collect();
    let rules = decode::<Rules>(files, "rules.yaml", &schemas["rules.json"]);
    let pieces = decode::<PiecesFile>(files, "pieces.yaml", &schemas["pieces.json"]);
    let (rules, pieces) = match (rules, pieces) {
        (Ok(r), Ok(p)) => (r, p),
        (r, p) => {
            let mut all = r.err().unwrap_or_default();
            all.extend(p.err().unwrap_or_default());
            return Err(all);
        }
    };
    let ((rules, rules_doc), (pieces, pieces_doc)) = (rules, pieces);
    let mut problems = Vec::new();
    for (i, p) in pieces.pieces.iter().enumerate() {
        if pieces.pieces[..i].iter().any(|q| q.id == p.id) {
            let message = format!("a second piece `{}`", p.id);
            problems.push(at(&pieces_doc, &format!("/pieces/{i}/id"), message));
        }
    }
    let mut scripts = ScriptHost::new(Limits::default());
    let rel = format!("scripts/{}", rules.bonus.script);
    match files.read(&rel) {
        Err(e) => problems.push(at(&rules_doc, "/bonus/script", e)),
        Ok(source) => match scripts.compile(&rules.bonus.script, &source) {
            Err(e) => problems.push(Diagnostic::plain(&files.display_name(&rel), e.to_string())),
            Ok(()) if !scripts.has_function(&rules.bonus.script, &rules.bonus.function) => {
                let message = format!(
                    "{} defines no function `{}`",
                    rules.bonus.script, rules.bonus.function
                );
                problems.push(at(&rules_doc, "/bonus/function", message));
            }
            Ok(()) => {}
        },
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Content {
        rules,
        pieces: pieces.pieces,
        scripts,
    })
}
