//! Schemas that know a content set's ids: every field that names a planet type, building,
//! research track, federation token, sector or resource code gets an `enum` of the ids the
//! content defines (base plus variants), so an editor completes them and flags a typo; and an
//! overlay's `set` gets its `value` typed wherever its `kind` and `path` name a known field.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::load::POWER_CODES;
use super::table::KINDS;
use super::Content;
use orrery_core::content::typed;

pub use orrery_core::content::typed::Refs;

/// The id sets a field can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum IdSet {
    Planet,
    Building,
    Track,
    FederationToken,
    Sector,
    Code,
}

/// Fields that name ids, by property name (the names mean one thing in every content schema).
const ID_FIELDS: [(&str, IdSet); 16] = [
    ("home", IdSet::Planet),
    ("wheel", IdSet::Planet),
    ("planet", IdSet::Planet),
    ("creates_planet", IdSet::Planet),
    ("building", IdSet::Building),
    ("buildings", IdSet::Building),
    ("upgrades_from", IdSet::Building),
    ("has", IdSet::Building),
    ("lacks", IdSet::Building),
    ("track", IdSet::Track),
    ("lock_track", IdSet::Track),
    ("federation_token", IdSet::FederationToken),
    ("sectors", IdSet::Sector),
    ("leftover_resources", IdSet::Code),
    ("range_resource", IdSet::Code),
    ("terraform_resource", IdSet::Code),
];

fn ids(contents: &[&Content], set: IdSet) -> Vec<String> {
    let mut out: BTreeSet<String> = BTreeSet::new();
    for content in contents {
        add_ids(content, set, &mut out);
    }
    out.into_iter().collect()
}

fn add_ids(content: &Content, set: IdSet, out: &mut BTreeSet<String>) {
    match set {
        IdSet::Planet => out.extend(content.planets.planets.iter().map(|p| p.id.clone())),
        IdSet::Building => {
            out.extend(content.board.buildings.iter().map(|b| b.id.clone()));
            for f in &content.factions {
                out.extend(f.board.buildings.iter().map(|b| b.id.clone()));
            }
        }
        IdSet::Track => out.extend(content.research.tracks.iter().map(|t| t.id.clone())),
        IdSet::FederationToken => out.extend(
            content
                .federation_tokens
                .tokens
                .iter()
                .map(|t| t.id.clone()),
        ),
        IdSet::Sector => out.extend(content.sectors.sectors.iter().map(|s| s.id.clone())),
        IdSet::Code => {
            out.extend(content.rules.resources.iter().map(|r| r.id.clone()));
            out.extend(POWER_CODES.iter().map(|c| c.to_string()));
        }
    }
}

/// A schema with the content's ids as enums. Bundles (`definitions.Bundle`) accept only the
/// content's resource and power-cycle codes as keys.
pub fn with_ids(schema: Value, content: &Content) -> Value {
    with_ids_of(schema, &[content])
}

/// A schema with the ids of every one of `contents` as enums.
fn with_ids_of(mut schema: Value, contents: &[&Content]) -> Value {
    let fields: Vec<(&str, Vec<String>)> = ID_FIELDS
        .iter()
        .map(|(name, set)| (*name, ids(contents, *set)))
        .collect();
    typed::restrict_fields(&mut schema, &fields);
    let codes: Vec<Value> = ids(contents, IdSet::Code)
        .into_iter()
        .map(Value::String)
        .collect();
    if let Some(bundle) = schema.pointer_mut("/definitions/Bundle") {
        if let Some(obj) = bundle.as_object_mut() {
            obj.insert("propertyNames".into(), json!({ "enum": codes }));
        }
    }
    schema
}

/// Every schema of `schema::all`, knowing the content's ids, with the overlay's values typed
/// and each change's target id one of its kind's.
pub fn all_with_ids(content: &Content) -> Vec<(&'static str, Value)> {
    all_with_ids_of(&[content])
}

/// [`all_with_ids`] knowing the ids of every one of `contents` (a designer's stack and the
/// base under it: an overlay may name an item it removes).
pub fn all_with_ids_of(contents: &[&Content]) -> Vec<(&'static str, Value)> {
    let schemas: Vec<(&'static str, Value)> = super::schema::plain()
        .into_iter()
        .map(|(n, s)| (n, with_ids_of(s, contents)))
        .collect();
    let targets: Vec<(&str, Vec<String>)> = KINDS
        .addressed()
        .filter(|k| !k.is_single())
        .map(|k| {
            let ids: BTreeSet<String> = contents
                .iter()
                .flat_map(|c| c.provenance.ids(k))
                .flatten()
                .collect();
            (k.name, ids.into_iter().collect())
        })
        .collect();
    typed::with_typed_overlay(schemas, &KINDS)
        .into_iter()
        .map(|(n, s)| match n {
            "overlay.json" => (n, typed::with_target_ids(s, &targets)),
            _ => (n, s),
        })
        .collect()
}
