//! Typed overlays: the overlay schema with every `set` value typed by the kind and path it
//! names — `if kind and path are these, then value has the schema found there` — read from
//! the game's file schemas through its [`KindTable`]; and id restriction, the fields that
//! name ids given the ids a content set defines.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::kinds::{KindSpec, KindTable, Place};

/// The file schema (its name and schema) of one item of a kind, and the definition of the
/// item inside it (`None`: the whole file): a list's item is the definition its elements
/// refer to.
fn item_schema<'s>(
    table: &KindTable,
    kind: &KindSpec,
    schemas: &'s [(&'static str, Value)],
) -> Option<(&'static str, &'s Value, Option<&'s str>)> {
    let spec = table.files.iter().find(|f| f.path == kind.file())?;
    let (file, schema) = schemas.iter().find(|(n, _)| *n == spec.schema)?;
    let def = match kind.place {
        Place::File(_) => None,
        Place::List { key, .. } => Some(
            schema
                .pointer(&format!("/properties/{key}/items/$ref"))?
                .as_str()?
                .strip_prefix("#/definitions/")?,
        ),
    };
    Some((file, schema, def))
}

/// Rewrites `#/definitions/X` references with `to` (`X` to the new reference).
fn relocate(node: &mut Value, to: &dyn Fn(&str) -> String) {
    match node {
        Value::Object(obj) => {
            if let Some(Value::String(r)) = obj.get_mut("$ref") {
                if let Some(name) = r.strip_prefix("#/definitions/") {
                    *r = to(name);
                }
            }
            obj.values_mut().for_each(|v| relocate(v, to));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| relocate(v, to)),
        _ => {}
    }
}

/// Where a `set` value's schema points to definitions of another schema file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refs {
    /// Into the file beside the overlay schema (`card.json#/definitions/X`), for editors.
    Beside,
    /// Into copies of the definitions inside the overlay schema itself, for a check that
    /// reads no other file.
    Inside,
}

/// The names definitions of other schema files have when copied inside the overlay schema:
/// their own name, unless another file (or the overlay) defines it otherwise, then
/// `file__Name`.
fn inside_names(
    overlay: &Value,
    schemas: &[(&'static str, Value)],
) -> BTreeMap<(String, String), String> {
    let mut first: BTreeMap<String, &Value> = BTreeMap::new();
    if let Some(Value::Object(defs)) = overlay.get("definitions") {
        first.extend(defs.iter().map(|(d, v)| (d.clone(), v)));
    }
    let mut out = BTreeMap::new();
    for (file, schema) in schemas {
        let Some(Value::Object(defs)) = schema.get("definitions") else {
            continue;
        };
        for (d, v) in defs {
            let name = match first.get(d) {
                Some(seen) if *seen != v => format!("{}__{d}", file.trim_end_matches(".json")),
                _ => {
                    first.insert(d.clone(), v);
                    d.clone()
                }
            };
            out.insert((file.to_string(), d.clone()), name);
        }
    }
    out
}

/// How deep below an item `set` paths are typed (the deepest content path is shallower).
const MAX_TYPED_DEPTH: usize = 8;

/// A path segment that stands for any list index, list element id or map key.
const ANY_SEGMENT: &str = "[^.]+";

/// The schema a `$ref` (`#/definitions/X`) in `file` points to, if it is one.
fn deref<'a>(node: &'a Value, file: &'a Value) -> Option<(&'a Value, Option<&'a str>)> {
    let r = node.get("$ref").and_then(Value::as_str)?;
    let name = r.strip_prefix("#/definitions/")?;
    Some((file.pointer(&format!("/definitions/{name}"))?, Some(name)))
}

/// What a field's schema stands for, looking through a `$ref`, an `allOf` of one and an
/// optional value (`anyOf` of one schema and `null`), with the definition it names.
fn resolved<'a>(node: &'a Value, file: &'a Value) -> (&'a Value, Option<&'a str>) {
    if let Some(hit) = deref(node, file) {
        return hit;
    }
    for key in ["allOf", "anyOf"] {
        if let Some(Value::Array(list)) = node.get(key) {
            let real: Vec<&Value> = list
                .iter()
                .filter(|v| v.get("type") != Some(&json!("null")))
                .collect();
            if real.len() == 1 && (key == "allOf" || list.len() == 2) {
                return resolved(real[0], file);
            }
        }
    }
    (node, None)
}

/// Every path below an item schema, as segments (`ANY_SEGMENT` for a list element or map
/// key), with the schema of the value found there; recursive definitions are entered once
/// per path.
fn typed_paths<'a>(
    node: &'a Value,
    file: &'a Value,
    path: &mut Vec<String>,
    seen: &mut Vec<&'a str>,
    out: &mut Vec<(Vec<String>, &'a Value)>,
) {
    let (inner, def) = resolved(node, file);
    if let Some(d) = def {
        if seen.contains(&d) {
            return;
        }
        seen.push(d);
    }
    if !path.is_empty() {
        out.push((path.clone(), node));
    }
    if path.len() < MAX_TYPED_DEPTH {
        let mut below =
            |seg: String, child: &'a Value, path: &mut Vec<String>, seen: &mut Vec<&'a str>| {
                path.push(seg);
                typed_paths(child, file, path, seen, out);
                path.pop();
            };
        if let Some(Value::Object(props)) = inner.get("properties") {
            for (field, child) in props {
                below(field.clone(), child, path, seen);
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(child @ Value::Object(_)) = inner.get(key) {
                below(ANY_SEGMENT.into(), child, path, seen);
            }
        }
    }
    if def.is_some() {
        seen.pop();
    }
}

/// The overlay schema with `set` values typed: for every kind and every path into its items
/// that the content types know (`home`, `board.income.0`, `levels.1.immediate`, a bundle's
/// code), `if kind and path are these, then value has the schema found there` (the schema lives
/// in the kind's own file, referenced relatively, so the schemas must sit together). Paths
/// through a list or map match any index, element id or key.
pub fn typed_overlay(
    mut overlay: Value,
    schemas: &[(&'static str, Value)],
    table: &KindTable,
    refs: Refs,
) -> Value {
    let mut rules = Vec::new();
    let mut inside = serde_json::Map::new();
    let names = match refs {
        Refs::Inside => inside_names(&overlay, schemas),
        Refs::Beside => BTreeMap::new(),
    };
    let inside_ref = |file: &str, d: &str| {
        let name = names
            .get(&(file.to_string(), d.to_string()))
            .map_or(d, String::as_str);
        format!("#/definitions/{name}")
    };
    for kind in table.addressed() {
        let Some((file, schema, def)) = item_schema(table, kind, schemas) else {
            continue;
        };
        let item = match def {
            None => Some(schema),
            Some(d) => schema.pointer(&format!("/definitions/{d}")),
        };
        let Some(item) = item else {
            continue;
        };
        if refs == Refs::Inside {
            if let Some(Value::Object(defs)) = schema.get("definitions") {
                for (d, def_schema) in defs {
                    let mut copy = def_schema.clone();
                    relocate(&mut copy, &|x| inside_ref(file, x));
                    let name = inside_ref(file, d).replace("#/definitions/", "");
                    inside.entry(name).or_insert(copy);
                }
            }
        }
        let mut paths = Vec::new();
        let mut seen: Vec<&str> = def.into_iter().collect();
        typed_paths(item, schema, &mut Vec::new(), &mut seen, &mut paths);
        for (segs, field_schema) in paths {
            let mut typed = field_schema.clone();
            match refs {
                Refs::Beside => relocate(&mut typed, &|d| format!("{file}#/definitions/{d}")),
                Refs::Inside => relocate(&mut typed, &|d| inside_ref(file, d)),
            }
            if let Some(o) = typed.as_object_mut() {
                o.remove("description");
            }
            // Field names are plain words: only the separators need escaping in a pattern.
            let path = if segs.iter().any(|s| s == ANY_SEGMENT) {
                json!({"pattern": format!("^{}$", segs.join("\\."))})
            } else {
                json!({"const": segs.join(".")})
            };
            rules.push(json!({
                "if": {
                    "properties": {"kind": {"const": kind.name}, "path": path},
                    "required": ["kind", "path"],
                },
                "then": {"properties": {"value": typed}},
            }));
        }
    }
    if let Some(Value::Object(set)) = overlay.pointer_mut("/definitions/SetChange") {
        set.insert("allOf".into(), Value::Array(rules));
    }
    if let Some(Value::Object(defs)) = overlay.pointer_mut("/definitions") {
        for (name, def) in inside {
            defs.entry(name).or_insert(def);
        }
    }
    overlay
}

/// Every schema file: the file schemas and the overlay's, its `set` values typed against
/// the others (which must sit beside it).
pub fn all(table: &KindTable) -> Vec<(&'static str, Value)> {
    with_typed_overlay(table.plain_schemas(), table)
}

/// The overlay schema with its values typed, checkable on its own (no other file read).
pub fn overlay_checked(table: &KindTable) -> Value {
    let schemas = table.plain_schemas();
    typed_overlay(super::overlay::schema(table), &schemas, table, Refs::Inside)
}

/// `schemas` with the overlay's values typed against the others.
pub fn with_typed_overlay(
    schemas: Vec<(&'static str, Value)>,
    table: &KindTable,
) -> Vec<(&'static str, Value)> {
    let file = super::overlay::SCHEMA_FILE;
    let typed = schemas
        .iter()
        .find(|(n, _)| *n == file)
        .map(|(_, o)| typed_overlay(o.clone(), &schemas, table, Refs::Beside));
    schemas
        .into_iter()
        .map(|(n, s)| match &typed {
            Some(t) if n == file => (n, t.clone()),
            _ => (n, s),
        })
        .collect()
}

/// Adds the enum to a string, optional string, or list of strings schema; leaves others.
pub fn restrict(schema: &mut Value, values: &[String]) {
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

/// Restricts, everywhere in a schema, every property named in `fields` to its ids.
pub fn restrict_fields(node: &mut Value, fields: &[(&str, Vec<String>)]) {
    match node {
        Value::Object(obj) => {
            if let Some(Value::Object(props)) = obj.get_mut("properties") {
                for (name, ids) in fields {
                    if let Some(p) = props.get_mut(*name) {
                        restrict(p, ids);
                    }
                }
            }
            for v in obj.values_mut() {
                restrict_fields(v, fields);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| restrict_fields(v, fields)),
        _ => {}
    }
}
