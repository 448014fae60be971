//! Variant overlays: files that patch content items by id, applied in order.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use orrery_core::diagnostics::SourceDoc;

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

/// The item kinds an overlay can address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// `rules.yaml` (single item, no id).
    Rules,
    /// `board.yaml`, the standard faction board (single item, no id).
    Board,
    /// `research.yaml` as a whole (single item, no id).
    Research,
    /// A research track.
    Track,
    /// A planet type.
    Planet,
    /// A sector tile side.
    Sector,
    /// `sectors.yaml` as a whole: sector sides and the map layouts (single item, no id).
    Map,
    /// A faction.
    Faction,
    /// A standard tech tile.
    TechTile,
    /// An advanced tech tile.
    AdvancedTile,
    /// A round booster.
    Booster,
    /// A round scoring tile.
    RoundScoring,
    /// A final scoring tile.
    FinalScoring,
    /// A federation token.
    FederationToken,
    /// A power or QIC action.
    BoardAction,
}

impl ItemKind {
    /// Every kind, in the order of the content files.
    pub const ALL: [ItemKind; 15] = [
        ItemKind::Rules,
        ItemKind::Planet,
        ItemKind::Map,
        ItemKind::Sector,
        ItemKind::Board,
        ItemKind::Faction,
        ItemKind::Research,
        ItemKind::Track,
        ItemKind::TechTile,
        ItemKind::AdvancedTile,
        ItemKind::Booster,
        ItemKind::RoundScoring,
        ItemKind::FinalScoring,
        ItemKind::FederationToken,
        ItemKind::BoardAction,
    ];

    /// The kind's name as overlays and the schemas write it (`tech_tile`).
    pub fn name(self) -> &'static str {
        match self {
            ItemKind::Rules => "rules",
            ItemKind::Board => "board",
            ItemKind::Research => "research",
            ItemKind::Track => "track",
            ItemKind::Planet => "planet",
            ItemKind::Sector => "sector",
            ItemKind::Map => "map",
            ItemKind::Faction => "faction",
            ItemKind::TechTile => "tech_tile",
            ItemKind::AdvancedTile => "advanced_tile",
            ItemKind::Booster => "booster",
            ItemKind::RoundScoring => "round_scoring",
            ItemKind::FinalScoring => "final_scoring",
            ItemKind::FederationToken => "federation_token",
            ItemKind::BoardAction => "board_action",
        }
    }

    /// The kind of this name.
    pub fn from_name(name: &str) -> Option<ItemKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the kind is one item without an id (`rules`, `board`, `research`).
    pub fn is_single(self) -> bool {
        matches!(
            self,
            ItemKind::Rules | ItemKind::Board | ItemKind::Research | ItemKind::Map
        )
    }
}

/// Which item a change addresses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// Item kind.
    pub kind: ItemKind,
    /// Item id (none for single items such as `rules`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// `set`: one field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetChange {
    /// Item kind.
    pub kind: ItemKind,
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
    pub kind: ItemKind,
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
    pub kind: ItemKind,
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
