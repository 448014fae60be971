//! Looking into loaded content: an item's fields with where each came from, and what one
//! content set changes relative to another — the core's walks
//! ([`orrery_core::content::inspect`]) over Gaia Project's content.

use super::Content;
use orrery_core::content::kinds::KindSpec;

pub use orrery_core::content::inspect::{
    fields, Field, FieldChange, FunctionChange, ItemChange, ItemDiff, ScriptChange, ScriptDiff,
};

/// The fields of one item, or `None` when the content has no such item.
pub fn explain(content: &Content, kind: &KindSpec, id: Option<&str>) -> Option<Vec<Field>> {
    orrery_core::content::inspect::explain(&content.provenance, kind, id)
}

/// Every item of `changed` that differs from `reference`, in content order (items of the
/// reference that are gone come after those of their kind that remain).
pub fn diff(changed: &Content, reference: &Content) -> Vec<ItemDiff> {
    orrery_core::content::inspect::diff(&changed.provenance, &reference.provenance)
}

/// Every script of `changed` that differs from `reference`, by name (scripts gone after
/// those that remain).
pub fn diff_scripts(changed: &Content, reference: &Content) -> Vec<ScriptDiff> {
    orrery_core::content::inspect::diff_scripts(&changed.provenance, &reference.provenance)
}
