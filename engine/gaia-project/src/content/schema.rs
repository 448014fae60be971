//! JSON Schemas (draft-07) generated from the content types, one per file of the kinds table.

use serde_json::Value;

use super::table::KINDS;
use orrery_core::content::typed;

pub use orrery_core::schema::{of as schema_of, render};

/// Every schema file: `(file name, schema)`, in a stable order; the overlay's `set` values
/// are typed by kind and path, against the other files (which must sit beside it).
pub fn all() -> Vec<(&'static str, Value)> {
    typed::all(&KINDS)
}

/// The overlay schema with `set` values typed, checkable on its own (no other file read).
pub fn overlay_checked() -> Value {
    typed::overlay_checked(&KINDS)
}

/// Every schema file as the types generate it, the overlay's values untyped.
pub fn plain() -> Vec<(&'static str, Value)> {
    KINDS.plain_schemas()
}
