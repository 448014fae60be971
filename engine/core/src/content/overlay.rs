//! Variant overlays: files that patch content items by kind and id, applied in order. The
//! kinds they may name come from the game's [`KindTable`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::kinds::KindTable;
use crate::diagnostics::SourceDoc;

/// The overlay schema's file name.
pub const SCHEMA_FILE: &str = "overlay.json";

/// A variant or errata file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Overlay {
    /// Name of the variant.
    pub name: String,
    /// What it changes and why.
    #[serde(default)]
    pub description: String,
    /// The changes, applied in order.
    pub changes: Vec<Change>,
}

/// One change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Change {
    /// Set one field of an item (created if missing).
    Set(SetChange),
    /// Replace a whole item.
    Replace(ReplaceChange),
    /// Add a new item.
    Add(AddChange),
    /// Remove an item.
    Remove(Target),
    /// Add or replace a script file.
    Script(ScriptChange),
}

/// The name of an item kind, as the game's [`KindTable`] declares it; its schema (the
/// definition `ItemKind`) lists the table's names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct KindName(pub String);

impl JsonSchema for KindName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ItemKind".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string"})
    }
}

/// Which item a change addresses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// Item kind.
    pub kind: KindName,
    /// Item id (none for single items such as `rules`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// `set`: one field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetChange {
    /// Item kind.
    pub kind: KindName,
    /// Item id (none for single items).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Dotted path inside the item (`board.start.c`); a segment on a list is an index or the
    /// `id` of an element; the index one past the end, as the last segment, appends.
    pub path: String,
    /// The new value.
    pub value: serde_json::Value,
}

/// `replace`: a whole item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplaceChange {
    /// Item kind.
    pub kind: KindName,
    /// Item id (none for single items).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The new item.
    pub value: serde_json::Value,
}

/// `add`: a new item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddChange {
    /// Item kind.
    pub kind: KindName,
    /// The item (with its `id`).
    pub value: serde_json::Value,
}

/// `script`: add or replace a script file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScriptChange {
    /// Script file name (as content names it, e.g. `shared.rhai`).
    pub file: String,
    /// The script source; when absent, the file of that name beside the overlay is used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// The overlay schema of a game: the overlay's structure, its kinds those of the table.
pub fn schema(table: &KindTable) -> Value {
    let mut s = crate::schema::of::<Overlay>();
    let names: Vec<Value> = table
        .addressed()
        .map(|k| json!({"const": k.name, "description": k.doc, "type": "string"}))
        .collect();
    if let Some(defs) = s.get_mut("definitions").and_then(Value::as_object_mut) {
        defs.insert(
            "ItemKind".into(),
            json!({"description": "The item kinds an overlay can address.", "oneOf": names}),
        );
    }
    s
}

/// The script files an overlay's text asks to be read from beside it: the `file` of each
/// `script` change without a `source`, when it is a plain file name (no folder, not hidden).
/// Tolerant: text that does not parse names none (loading reports why). The text is parsed
/// the way loading parses it ([`SourceDoc::parse`]: bounded nesting and alias expansion).
pub fn scripts_beside(text: &str) -> Vec<String> {
    let Ok(doc) = SourceDoc::parse("overlay", text) else {
        return Vec::new();
    };
    let mut names: Vec<String> = doc
        .value()
        .get("changes")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.get("script"))
        .filter(|s| s.get("source").is_none())
        .filter_map(|s| s.get("file").and_then(serde_json::Value::as_str))
        .filter(|f| is_plain_name(f))
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// A file name without folders that is not hidden (`shared.rhai`, not `../x` or `.x`).
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('.') && !name.contains(['/', '\\', '\0'])
}
