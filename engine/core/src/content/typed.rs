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
/// per path. The alternatives of a `oneOf`/`anyOf`/`allOf` (an effect's forms) are looked
/// into too, so paths reach the leaves.
fn typed_paths<'a>(
    node: &'a Value,
    file: &'a Value,
    deep: bool,
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
        below(inner, file, deep, path, seen, out);
    }
    if def.is_some() {
        seen.pop();
    }
}

/// The paths below one (resolved) schema: its properties, list items and map values, and
/// those of each of its alternatives.
fn below<'a>(
    inner: &'a Value,
    file: &'a Value,
    deep: bool,
    path: &mut Vec<String>,
    seen: &mut Vec<&'a str>,
    out: &mut Vec<(Vec<String>, &'a Value)>,
) {
    if let Some(Value::Object(props)) = inner.get("properties") {
        for (field, child) in props {
            path.push(field.clone());
            typed_paths(child, file, deep, path, seen, out);
            path.pop();
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child @ Value::Object(_)) = inner.get(key) {
            path.push(ANY_SEGMENT.into());
            typed_paths(child, file, deep, path, seen, out);
            path.pop();
        }
    }
    for key in ["oneOf", "anyOf", "allOf"].into_iter().filter(|_| deep) {
        let Some(Value::Array(alts)) = inner.get(key) else {
            continue;
        };
        for alt in alts {
            let (alt_inner, alt_def) = resolved(alt, file);
            if let Some(d) = alt_def {
                if seen.contains(&d) {
                    continue;
                }
                seen.push(d);
            }
            below(alt_inner, file, deep, path, seen, out);
            if alt_def.is_some() {
                seen.pop();
            }
        }
    }
}

/// A path's segments as a pattern: field names escaped, `ANY_SEGMENT` as it is.
fn path_pattern(segs: &[String]) -> String {
    segs.iter()
        .map(|s| {
            if s == ANY_SEGMENT {
                s.clone()
            } else {
                s.chars()
                    .flat_map(|c| {
                        let special = "\\.+*?()|[]{}^$".contains(c);
                        special
                            .then_some('\\')
                            .into_iter()
                            .chain(std::iter::once(c))
                    })
                    .collect()
            }
        })
        .collect::<Vec<_>>()
        .join("\\.")
}

/// `if kind is this, then …`.
fn when_kind(kind: &str, then: Value) -> Value {
    json!({
        "if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
        "then": then,
    })
}

/// The overlay schema with its values typed by the kind they change:
/// - `set`: for every kind and every path into its items that the content types know
///   (`home`, `board.income.0`, `levels.1.immediate.0.gain.c`), `if kind and path are these,
///   then value has the schema found there`, and a path no content type knows is refused;
/// - `add` and `replace` (`Refs::Beside` only): the value is an item of the kind (a whole new
///   item completes and is checked like one in its own file).
///
/// The schemas live in the kinds' own files, referenced relatively (`Refs::Beside`, so the
/// schemas must sit together) or copied inside (`Refs::Inside`). Paths through a list or map
/// match any index, element id or key.
pub fn typed_overlay(
    mut overlay: Value,
    schemas: &[(&'static str, Value)],
    table: &KindTable,
    refs: Refs,
) -> Value {
    // Editors get every path to the leaves, unknown paths refused and whole items typed; the
    // self-contained check (compiled on every run that applies an overlay) types the paths
    // that need no look into alternatives, as loading checks every patched file against its
    // schema anyway, at the overlay's lines.
    let deep = refs == Refs::Beside;
    let mut rules = Vec::new();
    let mut known_paths = Vec::new();
    let mut items = Vec::new();
    let mut new_items = Vec::new();
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
        // The item's own schema, for `add` and `replace`, for editors: loading checks an
        // added or replaced item against its file's schema once it is in place (at the
        // overlay's lines), so the self-contained check leaves it out.
        if refs == Refs::Beside {
            let item_ref = match def {
                Some(d) => format!("{file}#/definitions/{d}"),
                None => file.to_string(),
            };
            let value_is_item = json!({"properties": {"value": {"$ref": item_ref}}});
            items.push(when_kind(kind.name, value_is_item.clone()));
            if !kind.is_single() {
                new_items.push(when_kind(kind.name, value_is_item));
            }
        }

        let mut paths = Vec::new();
        let mut seen: Vec<&str> = def.into_iter().collect();
        typed_paths(item, schema, deep, &mut Vec::new(), &mut seen, &mut paths);
        // A path reached through several alternatives takes any of their schemas.
        let mut grouped: Vec<(Vec<String>, Vec<&Value>)> = Vec::new();
        for (segs, field_schema) in paths {
            match grouped.iter_mut().find(|(s, _)| *s == segs) {
                Some((_, found)) if !found.contains(&field_schema) => found.push(field_schema),
                Some(_) => {}
                None => grouped.push((segs, vec![field_schema])),
            }
        }
        // One rule per schema, naming every path that has it.
        let mut patterns = Vec::new();
        let mut by_schema: Vec<(Value, Vec<Vec<String>>)> = Vec::new();
        for (segs, field_schemas) in grouped {
            let typed: Vec<Value> = field_schemas
                .into_iter()
                .map(|field_schema| {
                    let mut typed = field_schema.clone();
                    match refs {
                        Refs::Beside => {
                            relocate(&mut typed, &|d| format!("{file}#/definitions/{d}"))
                        }
                        Refs::Inside => relocate(&mut typed, &|d| inside_ref(file, d)),
                    }
                    if let Some(o) = typed.as_object_mut() {
                        o.remove("description");
                    }
                    typed
                })
                .collect();
            let typed = match <[Value; 1]>::try_from(typed) {
                Ok([one]) => one,
                Err(many) => json!({"anyOf": many}),
            };
            patterns.push(path_pattern(&segs));
            match by_schema.iter_mut().find(|(t, _)| *t == typed) {
                Some((_, paths)) => paths.push(segs),
                None => by_schema.push((typed, vec![segs])),
            }
        }
        for (typed, paths) in by_schema {
            let path = match paths.as_slice() {
                [one] if !one.iter().any(|s| s == ANY_SEGMENT) => json!({"const": one.join(".")}),
                _ => {
                    let alts: Vec<String> = paths.iter().map(|p| path_pattern(p)).collect();
                    json!({"pattern": format!("^(?:{})$", alts.join("|"))})
                }
            };
            rules.push(json!({
                "if": {
                    "properties": {"kind": {"const": kind.name}, "path": path},
                    "required": ["kind", "path"],
                },
                "then": {"properties": {"value": typed}},
            }));
        }
        if deep {
            known_paths.push(when_kind(
                kind.name,
                json!({"properties": {"path": {
                    "pattern": format!("^(?:{})$", patterns.join("|")),
                    "description": format!("A path into a {} that its schema knows.", kind.name),
                }}}),
            ));
        }
    }
    rules.extend(known_paths);
    for (def, list) in [
        ("SetChange", rules),
        ("ReplaceChange", items),
        ("AddChange", new_items),
    ] {
        if list.is_empty() {
            continue;
        }
        if let Some(Value::Object(change)) = overlay.pointer_mut(&format!("/definitions/{def}")) {
            change.insert("allOf".into(), Value::Array(list));
        }
    }
    if let Some(Value::Object(defs)) = overlay.pointer_mut("/definitions") {
        for (name, def) in inside {
            defs.entry(name).or_insert(def);
        }
    }
    overlay
}

/// Restricts the target `id` of each `set` and `replace` to the ids its kind has (`(kind,
/// ids)`; kinds not listed are left open). A `remove` is left open: the content an overlay
/// is checked with no longer has what it removes.
pub fn with_target_ids(mut overlay: Value, ids: &[(&str, Vec<String>)]) -> Value {
    let rules: Vec<Value> = ids
        .iter()
        .map(|(kind, ids)| when_kind(kind, json!({"properties": {"id": {"enum": ids}}})))
        .collect();
    for def in ["SetChange", "ReplaceChange"] {
        let Some(Value::Object(change)) = overlay.pointer_mut(&format!("/definitions/{def}"))
        else {
            continue;
        };
        match change.get_mut("allOf") {
            Some(Value::Array(list)) => list.extend(rules.iter().cloned()),
            _ => {
                change.insert("allOf".into(), Value::Array(rules.clone()));
            }
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
