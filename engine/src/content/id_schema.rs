//! Schemas that know a content set's ids: every field that names a planet type, building,
//! research track, federation token, sector or resource code gets an `enum` of the ids the
//! content defines (base plus variants), so an editor completes them and flags a typo; and an
//! overlay's `set` gets its `value` typed wherever its `kind` and `path` name a known field.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::load::POWER_CODES;
use super::overlay::ItemKind;
use super::Content;

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

fn ids(content: &Content, set: IdSet) -> Vec<String> {
    let mut out: BTreeSet<String> = BTreeSet::new();
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
    out.into_iter().collect()
}

/// Adds the enum to a string, optional string, or list of strings schema; leaves others.
fn restrict(schema: &mut Value, values: &[String]) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    let types: Vec<String> = match obj.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(|t| t.as_str().map(String::from))
            .collect(),
        _ => return,
    };
    let mut allowed: Vec<Value> = values.iter().cloned().map(Value::String).collect();
    if types.iter().any(|t| t == "string") {
        if types.iter().any(|t| t == "null") {
            allowed.push(Value::Null);
        }
        obj.insert("enum".into(), Value::Array(allowed));
    } else if types.iter().any(|t| t == "array") {
        if let Some(items) = obj.get_mut("items") {
            restrict(items, values);
        }
    }
}

fn walk(node: &mut Value, content: &Content) {
    match node {
        Value::Object(obj) => {
            if let Some(Value::Object(props)) = obj.get_mut("properties") {
                for (name, set) in ID_FIELDS {
                    if let Some(p) = props.get_mut(name) {
                        restrict(p, &ids(content, set));
                    }
                }
            }
            for v in obj.values_mut() {
                walk(v, content);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| walk(v, content)),
        _ => {}
    }
}

/// A schema with the content's ids as enums. Bundles (`definitions.Bundle`) accept only the
/// content's resource and power-cycle codes as keys.
pub fn with_ids(mut schema: Value, content: &Content) -> Value {
    walk(&mut schema, content);
    let codes: Vec<Value> = ids(content, IdSet::Code)
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

/// The schema file (as `schema::all` names it) and definition of one item of a kind.
fn item_schema(kind: ItemKind) -> (&'static str, Option<&'static str>) {
    match kind {
        ItemKind::Rules => ("rules.json", None),
        ItemKind::Board => ("board.json", None),
        ItemKind::Research => ("research.json", None),
        ItemKind::Map => ("sectors.json", None),
        ItemKind::Faction => ("faction.json", None),
        ItemKind::Track => ("research.json", Some("Track")),
        ItemKind::Planet => ("planets.json", Some("Planet")),
        ItemKind::Sector => ("sectors.json", Some("Sector")),
        ItemKind::TechTile => ("tech-tiles.json", Some("Tile")),
        ItemKind::AdvancedTile => ("advanced-tech-tiles.json", Some("Tile")),
        ItemKind::Booster => ("boosters.json", Some("Tile")),
        ItemKind::RoundScoring => ("round-scoring.json", Some("Tile")),
        ItemKind::FinalScoring => ("final-scoring.json", Some("FinalTile")),
        ItemKind::FederationToken => ("federation-tokens.json", Some("FederationToken")),
        ItemKind::BoardAction => ("board-actions.json", Some("BoardAction")),
    }
}

/// Rewrites `#/definitions/X` references to point into another schema file.
fn relocate(node: &mut Value, file: &str) {
    match node {
        Value::Object(obj) => {
            if let Some(Value::String(r)) = obj.get_mut("$ref") {
                if r.starts_with("#/") {
                    *r = format!("{file}{r}");
                }
            }
            obj.values_mut().for_each(|v| relocate(v, file));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| relocate(v, file)),
        _ => {}
    }
}

/// The overlay schema with `set` values typed: for every kind and every top-level field of
/// its items, `if kind and path are these, then value has the field's schema` (the schema
/// lives in the kind's own file, referenced relatively, so the schemas must sit together).
pub fn typed_overlay(mut overlay: Value, schemas: &[(&'static str, Value)]) -> Value {
    let mut rules = Vec::new();
    for kind in ItemKind::ALL {
        let (file, def) = item_schema(kind);
        let Some((_, schema)) = schemas.iter().find(|(n, _)| *n == file) else {
            continue;
        };
        let item = match def {
            None => Some(schema),
            Some(d) => schema.pointer(&format!("/definitions/{d}")),
        };
        let Some(Value::Object(props)) = item.and_then(|i| i.get("properties")) else {
            continue;
        };
        for (field, field_schema) in props {
            let mut typed = field_schema.clone();
            relocate(&mut typed, file);
            if let Some(o) = typed.as_object_mut() {
                o.remove("description");
            }
            rules.push(json!({
                "if": {
                    "properties": {"kind": {"const": kind.name()}, "path": {"const": field}},
                    "required": ["kind", "path"],
                },
                "then": {"properties": {"value": typed}},
            }));
        }
    }
    if let Some(Value::Object(set)) = overlay.pointer_mut("/definitions/SetChange") {
        set.insert("allOf".into(), Value::Array(rules));
    }
    overlay
}

/// Every schema of `schema::all`, knowing the content's ids, with the overlay's values typed.
pub fn all_with_ids(content: &Content) -> Vec<(&'static str, Value)> {
    let schemas: Vec<(&'static str, Value)> = super::schema::all()
        .into_iter()
        .map(|(n, s)| (n, with_ids(s, content)))
        .collect();
    let mut out = Vec::new();
    for (name, s) in &schemas {
        if *name == "overlay.json" {
            out.push((*name, typed_overlay(s.clone(), &schemas)));
        } else {
            out.push((*name, s.clone()));
        }
    }
    out
}
