//! Looking into loaded content: an item's fields with where each came from, and what one
//! content set changes relative to another — item by item, field by field.

use serde_json::Value;

use super::kinds::KindSpec;
use super::provenance::Provenance;
use crate::located::{LKind, LNode, Origin};
use crate::script::function_texts;

/// One leaf field of an item.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Dotted path inside the item, as an overlay's `set` writes it (`board.start.c`); a list
    /// element with an `id` is named by it, others by index.
    pub path: String,
    /// The value (a scalar, or an empty list or map).
    pub value: Value,
    /// Where it is written: the overlay's line when a variant set it.
    pub origin: Origin,
}

/// Every leaf field of a located tree, in document order.
pub fn fields(node: &LNode) -> Vec<Field> {
    let mut out = Vec::new();
    walk(node, "", &mut out);
    out
}

fn join(prefix: &str, seg: &str) -> String {
    if prefix.is_empty() {
        seg.to_string()
    } else {
        format!("{prefix}.{seg}")
    }
}

fn walk(node: &LNode, path: &str, out: &mut Vec<Field>) {
    match &node.kind {
        LKind::Map(entries) if !entries.is_empty() => {
            for e in entries {
                walk(&e.value, &join(path, &e.key), out);
            }
        }
        LKind::Seq(items) if !items.is_empty() => {
            // Ids name elements only when they are unique in the list and cannot be read as
            // an index or a path (an overlay reads a number as an index).
            let ids: Vec<Option<&str>> = items.iter().map(|n| n.str_member("id")).collect();
            let unique = ids.iter().all(|id| {
                id.is_some_and(|id| !id.contains('.') && id.parse::<usize>().is_err())
                    && ids.iter().filter(|o| *o == id).count() == 1
            });
            for (i, item) in items.iter().enumerate() {
                let seg = match (unique, ids[i]) {
                    (true, Some(id)) => id.to_string(),
                    _ => i.to_string(),
                };
                walk(item, &join(path, &seg), out);
            }
        }
        _ => out.push(Field {
            path: path.to_string(),
            value: node.to_value(),
            origin: node.origin.clone(),
        }),
    }
}

/// The fields of one item, or `None` when the content has no such item.
pub fn explain(content: &Provenance, kind: &KindSpec, id: Option<&str>) -> Option<Vec<Field>> {
    content.item(kind, id).map(fields)
}

/// How one field differs between two content sets.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldChange {
    /// Dotted path inside the item.
    pub path: String,
    /// The value in the reference set, with its origin (`None`: the field is new).
    pub before: Option<(Value, Origin)>,
    /// The value in the changed set, with its origin (`None`: the field is gone).
    pub after: Option<(Value, Origin)>,
}

/// What happened to an item.
#[derive(Debug, Clone, PartialEq)]
pub enum ItemChange {
    /// Only the changed set has it (where it starts).
    Added(Origin),
    /// Only the reference set has it.
    Removed(Origin),
    /// Both have it, with these field differences.
    Changed(Vec<FieldChange>),
}

/// One item's difference.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemDiff {
    /// Item kind.
    pub kind: &'static KindSpec,
    /// Item id (`None` for single items).
    pub id: Option<String>,
    /// What changed.
    pub change: ItemChange,
}

/// Every item of `changed` that differs from `reference`, in content order (items of the
/// reference that are gone come after those of their kind that remain).
pub fn diff(changed: &Provenance, reference: &Provenance) -> Vec<ItemDiff> {
    let mut out = Vec::new();
    let Some(table) = changed.table().or(reference.table()) else {
        return out;
    };
    for kind in table.addressed() {
        let after_ids = changed.ids(kind);
        let before_ids = reference.ids(kind);
        for id in &after_ids {
            let Some(after) = changed.item(kind, id.as_deref()) else {
                continue;
            };
            let change = match reference.item(kind, id.as_deref()) {
                None => ItemChange::Added(after.origin.clone()),
                Some(before) => {
                    let fields = field_changes(&fields(before), &fields(after));
                    if fields.is_empty() {
                        continue;
                    }
                    ItemChange::Changed(fields)
                }
            };
            out.push(ItemDiff {
                kind,
                id: id.clone(),
                change,
            });
        }
        for id in before_ids.iter().filter(|id| !after_ids.contains(id)) {
            if let Some(before) = reference.item(kind, id.as_deref()) {
                out.push(ItemDiff {
                    kind,
                    id: id.clone(),
                    change: ItemChange::Removed(before.origin.clone()),
                });
            }
        }
    }
    out
}

fn field_changes(before: &[Field], after: &[Field]) -> Vec<FieldChange> {
    let mut out = Vec::new();
    for a in after {
        match before.iter().find(|b| b.path == a.path) {
            Some(b) if b.value == a.value => {}
            b => out.push(FieldChange {
                path: a.path.clone(),
                before: b.map(|b| (b.value.clone(), b.origin.clone())),
                after: Some((a.value.clone(), a.origin.clone())),
            }),
        }
    }
    for b in before {
        if !after.iter().any(|a| a.path == b.path) {
            out.push(FieldChange {
                path: b.path.clone(),
                before: Some((b.value.clone(), b.origin.clone())),
                after: None,
            });
        }
    }
    out
}

/// What changed in one function of a script: its line before and after (`None` on the side
/// where it does not exist).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionChange {
    /// Function name.
    pub name: String,
    /// Its line in the reference's script.
    pub before: Option<usize>,
    /// Its line in the changed script.
    pub after: Option<usize>,
}

/// How one script differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScriptChange {
    /// Only in the changed content, from this file.
    Added(String),
    /// Only in the reference, from this file.
    Removed(String),
    /// In both with different text (files before and after); the functions added, removed or
    /// changed (empty when only comments or spacing between functions changed).
    Changed {
        /// The reference's file.
        before: String,
        /// The changed content's file.
        after: String,
        /// The functions that differ.
        functions: Vec<FunctionChange>,
    },
}

/// One script's difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptDiff {
    /// The script's name (`x.rhai`), as content refers to it.
    pub script: String,
    /// What changed.
    pub change: ScriptChange,
}

/// Every script of `changed` that differs from `reference`, by name (scripts gone after
/// those that remain).
pub fn diff_scripts(changed: &Provenance, reference: &Provenance) -> Vec<ScriptDiff> {
    let after = changed.scripts();
    let before = reference.scripts();
    let mut out = Vec::new();
    for (name, (file, text)) in after {
        let change = match before.get(name) {
            None => ScriptChange::Added(file.clone()),
            Some((_, old)) if old == text => continue,
            Some((old_file, old)) => ScriptChange::Changed {
                before: old_file.clone(),
                after: file.clone(),
                functions: function_changes(old, text),
            },
        };
        out.push(ScriptDiff {
            script: name.clone(),
            change,
        });
    }
    for (name, (file, _)) in before {
        if !after.contains_key(name) {
            out.push(ScriptDiff {
                script: name.clone(),
                change: ScriptChange::Removed(file.clone()),
            });
        }
    }
    out
}

/// The functions whose text differs between two versions of a script, in the changed
/// version's order, then those removed.
fn function_changes(before: &str, after: &str) -> Vec<FunctionChange> {
    let old = function_texts(before);
    let new = function_texts(after);
    let mut out = Vec::new();
    for (name, line, text) in &new {
        match old.iter().find(|(n, ..)| n == name) {
            Some((_, _, t)) if t == text => {}
            found => out.push(FunctionChange {
                name: name.clone(),
                before: found.map(|(_, l, _)| *l),
                after: Some(*line),
            }),
        }
    }
    for (name, line, _) in &old {
        if !new.iter().any(|(n, ..)| n == name) {
            out.push(FunctionChange {
                name: name.clone(),
                before: Some(*line),
                after: None,
            });
        }
    }
    out
}
