//! Applying overlay changes to located content trees.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::load::{Doc, Kind, OverlaySource};
use super::overlay::{Change, ItemKind, Overlay};
use orrery_core::diagnostics::{Diagnostic, SchemaCheck, SourceDoc};
use orrery_core::located::{pointer_join, LKind, LNode, MapEntry};

/// Finds an item: the index of its document and its JSON pointer there.
pub(crate) fn find_item(
    docs: &[Doc],
    kind: Kind,
    list: &str,
    id: Option<&str>,
) -> Option<(usize, String)> {
    if kind == Kind::Faction {
        let id = id?;
        return docs
            .iter()
            .position(|d| d.kind == kind && d.tree.str_member("id") == Some(id))
            .map(|i| (i, String::new()));
    }
    let di = docs.iter().position(|d| d.kind == kind)?;
    if list.is_empty() {
        return Some((di, String::new()));
    }
    let id = id?;
    let LKind::Seq(items) = &docs[di].tree.at(list)?.kind else {
        return None;
    };
    let i = items.iter().position(|n| n.str_member("id") == Some(id))?;
    Some((di, pointer_join(list, &i.to_string())))
}

/// One step of a dotted path: a map key, a list index, or the id of a list element.
/// Returns the child and the pointer suffix of that step.
pub(crate) fn step<'a>(node: &'a LNode, seg: &str) -> Option<(&'a LNode, String)> {
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

fn item_noun(kind: ItemKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The checks of an overlay file: its structure, and its `set` values typed by kind and path
/// (each compiled once).
fn overlay_checks() -> Result<&'static (SchemaCheck, SchemaCheck), &'static str> {
    static CHECKS: std::sync::OnceLock<Result<(SchemaCheck, SchemaCheck), String>> =
        std::sync::OnceLock::new();
    CHECKS
        .get_or_init(|| {
            Ok((
                SchemaCheck::new(&super::schema::schema_of::<Overlay>())?,
                SchemaCheck::new(&super::schema::overlay_checked())?,
            ))
        })
        .as_ref()
        .map_err(String::as_str)
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
/// overlay is not applied; a `set` whose value does not have the type at its path is reported
/// and left out, the other changes applied.
pub(crate) fn apply_overlay(
    ov: &OverlaySource,
    docs: &mut Vec<Doc>,
    scripts: &mut BTreeMap<String, (String, String)>,
    diags: &mut Vec<Diagnostic>,
) {
    if let Some(problem) = &ov.problem {
        diags.push(Diagnostic::plain(&ov.file, problem));
        return;
    }
    if ov.text.len() as u64 > orrery_core::files::MAX_CONTENT_FILE_BYTES {
        diags.push(Diagnostic::plain(
            &ov.file,
            super::load::too_big(ov.text.len()),
        ));
        return;
    }
    let source = match SourceDoc::parse(&ov.file, &ov.text) {
        Ok(s) => s,
        Err(d) => {
            diags.push(d);
            return;
        }
    };
    let file: Arc<str> = Arc::from(ov.file.as_str());
    let tree = LNode::from_doc(&source, &file);
    let (structure, typed) = match overlay_checks() {
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
    // The changes whose value is mistyped: reported here, not applied.
    let mut mistyped = Vec::new();
    for d in overlay_errors(typed, &tree) {
        let change = d
            .pointer
            .strip_prefix("/changes/")
            .and_then(|rest| rest.split('/').next())
            .and_then(|i| i.parse::<usize>().ok());
        mistyped.extend(change);
        diags.push(d);
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
        let (op, at) = match change {
            Change::Set(_) => ("set", format!("/changes/{i}/set")),
            Change::Replace(_) => ("replace", format!("/changes/{i}/replace")),
            Change::Add(_) => ("add", format!("/changes/{i}/add")),
            Change::Remove(_) => ("remove", format!("/changes/{i}/remove")),
            Change::Script(_) => ("script", format!("/changes/{i}/script")),
        };
        let here = tree.origin_at(&at);
        let value_node = |tree: &LNode| {
            tree.at(&format!("{at}/value"))
                .cloned()
                .unwrap_or_else(|| LNode::from_value(&serde_json::Value::Null, &here))
        };
        let fail = |diags: &mut Vec<Diagnostic>, msg: String| {
            diags.push(Diagnostic {
                file: here.file.to_string(),
                pos: here.pos,
                pointer: at.clone(),
                message: format!("{op}: {msg}"),
            })
        };
        let result: Result<(), String> = match change {
            Change::Set(s) => locate(docs, s.kind, s.id.as_deref()).and_then(|(d, ptr)| {
                let segs: Vec<&str> = s.path.split('.').filter(|x| !x.is_empty()).collect();
                let node = docs[d].tree.at_mut(&ptr).ok_or("item vanished")?;
                set_path(node, &segs, value_node(&tree))
            }),
            Change::Replace(r) => locate(docs, r.kind, r.id.as_deref()).and_then(|(d, ptr)| {
                let value = value_node(&tree);
                if let Some(id) = r.id.as_deref().filter(|_| !r.kind.is_single()) {
                    match value.str_member("id") {
                        Some(new) if new == id => {}
                        Some(new) => {
                            return Err(format!(
                                "the new value's id \"{new}\" differs from the replaced {}'s \
                                 \"{id}\" (a replace keeps the id; remove and add to rename)",
                                item_noun(r.kind)
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
            }),
            Change::Remove(t) => locate(docs, t.kind, t.id.as_deref()).and_then(|(d, ptr)| {
                if ptr.is_empty() {
                    if t.kind == ItemKind::Faction {
                        docs.remove(d);
                        Ok(())
                    } else {
                        Err(format!("a {} cannot be removed", item_noun(t.kind)))
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
            }),
            Change::Add(a) => {
                let value = value_node(&tree);
                let new_id = value.str_member("id").map(str::to_string);
                match new_id {
                    None => Err("the new item has no \"id\"".into()),
                    Some(id) if locate(docs, a.kind, Some(&id)).is_ok() => Err(format!(
                        "a {} with id \"{id}\" exists already; use replace",
                        item_noun(a.kind)
                    )),
                    Some(_) => {
                        let (kind, list) = Kind::of_item(a.kind);
                        if kind == Kind::Faction {
                            docs.push(Doc { kind, tree: value });
                            Ok(())
                        } else if list.is_empty() {
                            Err(format!("a {} cannot be added", item_noun(a.kind)))
                        } else {
                            match docs
                                .iter_mut()
                                .find(|d| d.kind == kind)
                                .and_then(|d| d.tree.at_mut(list))
                                .map(|n| &mut n.kind)
                            {
                                Some(LKind::Seq(items)) => {
                                    items.push(value);
                                    Ok(())
                                }
                                _ => Err("the list to add to is missing".into()),
                            }
                        }
                    }
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
        };
        if let Err(msg) = result {
            fail(diags, msg);
        }
    }
}

fn locate(docs: &[Doc], item: ItemKind, id: Option<&str>) -> Result<(usize, String), String> {
    let (kind, list) = Kind::of_item(item);
    find_item(docs, kind, list, id).ok_or_else(|| match id {
        Some(id) => format!("no {} with id \"{id}\"", item_noun(item)),
        None => format!("{} needs an id", item_noun(item)),
    })
}
