//! Applying overlay changes to located content trees, the items found through the game's
//! [`KindTable`]. A changed value keeps the overlay's own positions, so every later problem
//! and `explain` names the overlay's line.

use std::sync::Arc;

use super::kinds::{KindSpec, KindTable, Place};
use super::load::{too_big, Doc, OverlaySource, Scripts};
use super::overlay::{Change, Overlay};
use crate::diagnostics::{Diagnostic, SchemaCheck, SourceDoc};
use crate::located::{pointer_join, LKind, LNode, MapEntry};

/// Finds an item: the index of its document and its JSON pointer there.
pub fn find_item(
    table: &KindTable,
    docs: &[Doc],
    kind: &KindSpec,
    id: Option<&str>,
) -> Option<(usize, String)> {
    let file = table.file_index(kind.file())?;
    let of_file = |d: &Doc| d.file == file;
    if table.files[file].is_folder() {
        let (id, field) = (id?, kind.id?);
        return docs
            .iter()
            .position(|d| of_file(d) && d.tree.str_member(field) == Some(id))
            .map(|i| (i, String::new()));
    }
    let di = docs.iter().position(of_file)?;
    let Place::List { key, .. } = kind.place else {
        return Some((di, String::new()));
    };
    let (id, field) = (id?, kind.id?);
    let list = format!("/{key}");
    let LKind::Seq(items) = &docs[di].tree.at(&list)?.kind else {
        return None;
    };
    let i = items.iter().position(|n| n.str_member(field) == Some(id))?;
    Some((di, pointer_join(&list, &i.to_string())))
}

/// One step of a dotted path: a map key, a list index, or the id of a list element.
/// Returns the child and the pointer suffix of that step.
pub fn step<'a>(node: &'a LNode, seg: &str) -> Option<(&'a LNode, String)> {
    match &node.kind {
        LKind::Map(entries) => entries
            .iter()
            .find(|e| e.key == seg)
            .map(|e| (&e.value, pointer_join("", seg))),
        LKind::Seq(items) => {
            let i = match seg.parse::<usize>() {
                Ok(i) => i,
                Err(_) => items.iter().position(|n| n.str_member("id") == Some(seg))?,
            };
            items.get(i).map(|n| (n, pointer_join("", &i.to_string())))
        }
        LKind::Scalar(_) => None,
    }
}

/// Sets the value at a dotted path, creating missing map members.
fn set_path(node: &mut LNode, segs: &[&str], value: LNode) -> Result<(), String> {
    let Some((first, rest)) = segs.split_first() else {
        *node = value;
        return Ok(());
    };
    match &mut node.kind {
        LKind::Map(entries) => {
            if let Some(e) = entries.iter_mut().find(|e| e.key == *first) {
                return set_path(&mut e.value, rest, value);
            }
            if !rest.is_empty() {
                return Err(format!("no field \"{first}\" to descend into"));
            }
            entries.push(MapEntry {
                key: first.to_string(),
                key_origin: value.origin.clone(),
                value,
            });
            Ok(())
        }
        LKind::Seq(items) => {
            let i = match first.parse::<usize>() {
                Ok(i) => i,
                Err(_) => items
                    .iter()
                    .position(|n| n.str_member("id") == Some(first))
                    .ok_or_else(|| format!("no list element with id \"{first}\""))?,
            };
            let len = items.len();
            if i == len && rest.is_empty() {
                // One past the end appends.
                items.push(value);
                return Ok(());
            }
            let item = items
                .get_mut(i)
                .ok_or_else(|| format!("index {i} is past the end of a list of {len}"))?;
            set_path(item, rest, value)
        }
        LKind::Scalar(_) => Err(format!("cannot descend into a plain value at \"{first}\"")),
    }
}

/// Schema errors of an overlay tree as diagnostics at the overlay's own positions.
fn overlay_errors(check: &SchemaCheck, tree: &LNode) -> Vec<Diagnostic> {
    check
        .errors(&tree.to_value())
        .into_iter()
        .map(|e| {
            let o = if e.at_key {
                tree.key_origin_at(&e.pointer)
            } else {
                tree.origin_at(&e.pointer)
            };
            Diagnostic {
                file: o.file.to_string(),
                pos: o.pos,
                pointer: e.pointer,
                message: e.message,
            }
        })
        .collect()
}

/// Applies one overlay, reporting problems at the overlay's own positions: a malformed
/// overlay is not applied; a change whose value does not have the type its kind and path
/// give is reported and left out, the other changes applied. With `check` false (a
/// known-good overlay, [`super::known`]) its schema checks are skipped.
pub fn apply_overlay(
    table: &KindTable,
    ov: &OverlaySource,
    check: bool,
    docs: &mut Vec<Doc>,
    scripts: &mut Scripts,
    diags: &mut Vec<Diagnostic>,
) {
    if let Some(problem) = &ov.problem {
        diags.push(Diagnostic::plain(&ov.file, problem));
        return;
    }
    if ov.text.len() as u64 > crate::files::MAX_CONTENT_FILE_BYTES {
        diags.push(Diagnostic::plain(&ov.file, too_big(ov.text.len())));
        return;
    }
    let file: Arc<str> = Arc::from(ov.file.as_str());
    let tree = match SourceDoc::parse_located(&file, &ov.text) {
        Ok(t) => t,
        Err(d) => {
            diags.push(d);
            return;
        }
    };
    // The changes whose value is mistyped: reported here, not applied.
    let mut mistyped = Vec::new();
    if check {
        let (structure, typed) = match table.overlay_checks() {
            Ok(checks) => checks,
            Err(e) => {
                diags.push(Diagnostic::plain(
                    &ov.file,
                    format!("bad overlay schema: {e}"),
                ));
                return;
            }
        };
        let errors = overlay_errors(structure, &tree);
        if !errors.is_empty() {
            diags.extend(errors);
            return;
        }
        for d in overlay_errors(typed, &tree) {
            let change = d
                .pointer
                .strip_prefix("/changes/")
                .and_then(|rest| rest.split('/').next())
                .and_then(|i| i.parse::<usize>().ok());
            mistyped.extend(change);
            diags.push(d);
        }
    }
    let overlay: Overlay = match serde_json::from_value(tree.to_value()) {
        Ok(o) => o,
        Err(e) => {
            diags.push(Diagnostic::plain(&ov.file, e.to_string()));
            return;
        }
    };
    for (i, change) in overlay.changes.iter().enumerate() {
        if mistyped.contains(&i) {
            continue;
        }
        let op = match change {
            Change::Set(_) => "set",
            Change::Replace(_) => "replace",
            Change::Add(_) => "add",
            Change::Remove(_) => "remove",
            Change::Script(_) => "script",
        };
        let at = format!("/changes/{i}/{op}");
        let here = tree.origin_at(&at);
        let value = || {
            tree.at(&format!("{at}/value"))
                .cloned()
                .unwrap_or_else(|| LNode::from_value(&serde_json::Value::Null, &here))
        };
        if let Err(msg) = apply_change(table, ov, change, value, docs, scripts) {
            diags.push(Diagnostic {
                file: here.file.to_string(),
                pos: here.pos,
                pointer: at.clone(),
                message: format!("{op}: {msg}"),
            });
        }
    }
}

/// Applies one change whose value (a located tree) `value` gives.
fn apply_change(
    table: &KindTable,
    ov: &OverlaySource,
    change: &Change,
    value: impl Fn() -> LNode,
    docs: &mut Vec<Doc>,
    scripts: &mut Scripts,
) -> Result<(), String> {
    match change {
        Change::Set(s) => {
            let kind = kind_of(table, &s.kind.0)?;
            let (d, ptr) = locate(table, docs, kind, s.id.as_deref())?;
            let segs: Vec<&str> = s.path.split('.').filter(|x| !x.is_empty()).collect();
            let node = docs[d].tree.at_mut(&ptr).ok_or("item vanished")?;
            set_path(node, &segs, value())
        }
        Change::Replace(r) => {
            let kind = kind_of(table, &r.kind.0)?;
            let (d, ptr) = locate(table, docs, kind, r.id.as_deref())?;
            let value = value();
            if let (Some(id), Some(field)) = (r.id.as_deref(), kind.id) {
                match value.str_member(field) {
                    Some(new) if new == id => {}
                    Some(new) => {
                        return Err(format!(
                            "the new value's id \"{new}\" differs from the replaced {}'s \
                             \"{id}\" (a replace keeps the id; remove and add to rename)",
                            kind.name
                        ))
                    }
                    None => {
                        return Err(format!(
                            "the new value has no id; write `id: {id}` in it (a replace \
                             keeps the id)"
                        ))
                    }
                }
            }
            let node = docs[d].tree.at_mut(&ptr).ok_or("item vanished")?;
            *node = value;
            Ok(())
        }
        Change::Remove(t) => {
            let kind = kind_of(table, &t.kind.0)?;
            let (d, ptr) = locate(table, docs, kind, t.id.as_deref())?;
            if ptr.is_empty() {
                if kind.is_single() {
                    Err(format!("a {} cannot be removed", kind.name))
                } else {
                    docs.remove(d);
                    Ok(())
                }
            } else {
                let (parent, idx) = ptr.rsplit_once('/').ok_or("bad pointer")?;
                let idx: usize = idx.parse().map_err(|_| "bad pointer")?;
                match docs[d].tree.at_mut(parent).map(|n| &mut n.kind) {
                    Some(LKind::Seq(items)) => {
                        items.remove(idx);
                        Ok(())
                    }
                    _ => Err("item vanished".into()),
                }
            }
        }
        Change::Add(a) => {
            let kind = kind_of(table, &a.kind.0)?;
            let value = value();
            let Some(field) = kind.id else {
                return Err(format!("a {} cannot be added", kind.name));
            };
            let Some(id) = value.str_member(field).map(str::to_string) else {
                return Err(format!("the new item has no \"{field}\""));
            };
            if locate(table, docs, kind, Some(&id)).is_ok() {
                return Err(format!(
                    "a {} with id \"{id}\" exists already; use replace",
                    kind.name
                ));
            }
            let file = table
                .file_index(kind.file())
                .ok_or("the file to add to is unknown")?;
            match kind.place {
                Place::File(_) => {
                    docs.push(Doc { file, tree: value });
                    Ok(())
                }
                Place::List { key, .. } => match docs
                    .iter_mut()
                    .find(|d| d.file == file)
                    .and_then(|d| d.tree.at_mut(&format!("/{key}")))
                    .map(|n| &mut n.kind)
                {
                    Some(LKind::Seq(items)) => {
                        items.push(value);
                        Ok(())
                    }
                    _ => Err("the list to add to is missing".into()),
                },
            }
        }
        Change::Script(s) => {
            // A script beside the overlay is shown by its own path, so that its problems
            // name it; an inline source by the overlay's.
            let src = match &s.source {
                Some(src) => Some((ov.file.clone(), src.clone())),
                None => ov
                    .scripts
                    .iter()
                    .find(|(n, _)| n == &s.file)
                    .map(|(_, src)| {
                        let beside = std::path::Path::new(&ov.file).with_file_name(&s.file);
                        (beside.to_string_lossy().into_owned(), src.clone())
                    }),
            };
            match src {
                Some((shown, src)) => {
                    scripts.insert(s.file.clone(), (shown, src));
                    Ok(())
                }
                None => Err(format!(
                    "no source given and no script \"{}\" beside the overlay",
                    s.file
                )),
            }
        }
    }
}

fn kind_of<'t>(table: &'t KindTable, name: &str) -> Result<&'t KindSpec, String> {
    table
        .addressed()
        .find(|k| k.name == name)
        .ok_or_else(|| format!("unknown kind \"{name}\""))
}

fn locate(
    table: &KindTable,
    docs: &[Doc],
    kind: &KindSpec,
    id: Option<&str>,
) -> Result<(usize, String), String> {
    find_item(table, docs, kind, id).ok_or_else(|| match id {
        Some(id) => format!("no {} with id \"{id}\"", kind.name),
        None => format!("{} needs an id", kind.name),
    })
}
