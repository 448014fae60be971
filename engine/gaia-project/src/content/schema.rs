//! JSON Schemas (draft-07) generated from the content types.

use serde_json::Value;

use super::id_schema::{typed_overlay, Refs};
use super::kinds::*;
use super::overlay::Overlay;

pub use orrery_core::schema::{of as schema_of, render};

/// Every schema file: `(file name, schema)`, in a stable order; the overlay's `set` values
/// are typed by kind and path, against the other files (which must sit beside it).
pub fn all() -> Vec<(&'static str, Value)> {
    with_typed_overlay(plain())
}

/// The overlay schema with `set` values typed, checkable on its own (no other file read).
pub fn overlay_checked() -> Value {
    let schemas = plain();
    typed_overlay(schema_of::<Overlay>(), &schemas, Refs::Inside)
}

/// `schemas` with the overlay's `set` values typed against the others.
pub(crate) fn with_typed_overlay(
    schemas: Vec<(&'static str, Value)>,
) -> Vec<(&'static str, Value)> {
    let typed = schemas
        .iter()
        .find(|(n, _)| *n == "overlay.json")
        .map(|(_, o)| typed_overlay(o.clone(), &schemas, Refs::Beside));
    schemas
        .into_iter()
        .map(|(n, s)| match (&typed, n) {
            (Some(t), "overlay.json") => (n, t.clone()),
            _ => (n, s),
        })
        .collect()
}

/// Every schema file as the types generate it, the overlay's values untyped.
pub fn plain() -> Vec<(&'static str, Value)> {
    vec![
        ("rules.json", schema_of::<Rules>()),
        ("planets.json", schema_of::<PlanetsFile>()),
        ("sectors.json", schema_of::<SectorsFile>()),
        ("board.json", schema_of::<Board>()),
        ("faction.json", schema_of::<Faction>()),
        ("research.json", schema_of::<ResearchFile>()),
        ("tech-tiles.json", schema_of::<TechTilesFile>()),
        ("advanced-tech-tiles.json", schema_of::<AdvancedTilesFile>()),
        ("boosters.json", schema_of::<BoostersFile>()),
        ("round-scoring.json", schema_of::<RoundScoringFile>()),
        ("final-scoring.json", schema_of::<FinalScoringFile>()),
        (
            "federation-tokens.json",
            schema_of::<FederationTokensFile>(),
        ),
        ("board-actions.json", schema_of::<BoardActionsFile>()),
        ("overlay.json", schema_of::<Overlay>()),
    ]
}
