//! Checks across files that a schema cannot express: card names unique across files (the
//! core refuses a name repeated within one), known spaces, symmetric adjacency. Each problem
//! is placed at the line of the value it is about (an overlay's line when one set it).

use std::collections::{BTreeSet, HashSet};

use orrery_core::content::load::diag_at;
use orrery_core::diagnostics::Diagnostic;

use crate::content::{Card, Content, Effect, Where};
use crate::table::{file, KINDS};

/// A problem at the value `path` of the item `id` of `kind` (`file` alone when the content's
/// provenance cannot place it).
fn at(
    c: &Content,
    (kind, id, path): (&str, Option<&str>, &str),
    file: &str,
    message: String,
) -> Diagnostic {
    match KINDS
        .kind(kind)
        .and_then(|k| c.provenance.origin(k, id, path))
    {
        Some(origin) => diag_at(&origin, "", message),
        None => Diagnostic::plain(file, message),
    }
}

/// Every cross-reference problem of the content.
pub fn references(c: &Content) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let beginner = &c.rules.beginner_corporation;
    if !c.corporations.iter().any(|k| &k.name == beginner) {
        out.push(at(
            c,
            ("rules", None, "beginner_corporation"),
            file::RULES,
            format!("beginner_corporation names {beginner}, which is not a corporation"),
        ));
    }
    let ids: HashSet<&str> = c.map.spaces.iter().map(|s| s.id.as_str()).collect();
    for s in &c.map.spaces {
        for (i, a) in s.adjacent.iter().enumerate() {
            let path = format!("adjacent.{i}");
            let here = ("space", Some(s.id.as_str()), path.as_str());
            match c.map.spaces.iter().find(|t| &t.id == a) {
                None => out.push(at(
                    c,
                    here,
                    file::MAP,
                    format!("space {} lists unknown neighbour {a}", s.id),
                )),
                Some(t) if !t.adjacent.contains(&s.id) => out.push(at(
                    c,
                    here,
                    file::MAP,
                    format!(
                        "space {} lists {a} as neighbour but not the other way",
                        s.id
                    ),
                )),
                Some(_) => {}
            }
        }
    }
    let modules: BTreeSet<&str> = c.rules.modules.iter().map(|m| m.id.as_str()).collect();
    for (i, m) in c.rules.defaults.modules.iter().enumerate() {
        if !modules.contains(m.as_str()) {
            out.push(at(
                c,
                ("rules", None, &format!("defaults.modules.{i}")),
                file::RULES,
                format!("defaults name module {m:?}, which `modules` does not declare"),
            ));
        }
    }
    for (kind, file, cards) in [
        ("corporation", file::CORPORATIONS, &c.corporations),
        ("project", file::PROJECTS, &c.projects),
    ] {
        for card in cards.iter() {
            if let Some(m) = &card.module {
                if !modules.contains(m.as_str()) {
                    out.push(at(
                        c,
                        (kind, Some(&card.name), "module"),
                        file,
                        format!("{}: module {m:?} is not declared in rules.yaml", card.name),
                    ));
                }
            }
        }
    }
    let corporations: BTreeSet<&str> = c.corporations.iter().map(|k| k.name.as_str()).collect();
    for card in &c.projects {
        if corporations.contains(card.name.as_str()) {
            out.push(at(
                c,
                ("project", Some(&card.name), "name"),
                file::PROJECTS,
                format!("card name {:?} is a corporation's too", card.name),
            ));
        }
    }
    for (kind, file, cards) in [
        ("corporation", file::CORPORATIONS, &c.corporations),
        ("project", file::PROJECTS, &c.projects),
    ] {
        for card in cards.iter() {
            let mut problems = Vec::new();
            check_card(card, &ids, &mut problems);
            out.extend(
                problems
                    .into_iter()
                    .map(|m| at(c, (kind, Some(&card.name), ""), file, m)),
            );
        }
    }
    out
}

fn check_card(card: &Card, ids: &HashSet<&str>, out: &mut Vec<String>) {
    let mut effects: Vec<&Effect> = Vec::new();
    fn walk<'a>(list: &'a [Effect], acc: &mut Vec<&'a Effect>) {
        for e in list {
            acc.push(e);
            match e {
                Effect::Choose(cs) => cs.iter().for_each(|c| walk(&c.effects, acc)),
                Effect::If(i) => {
                    walk(&i.then, acc);
                    walk(&i.otherwise, acc);
                }
                _ => {}
            }
        }
    }
    walk(&card.play, &mut effects);
    walk(&card.first_action, &mut effects);
    if let Some(a) = &card.action {
        walk(&a.effects, &mut effects);
    }
    for t in &card.triggers {
        walk(&t.then, &mut effects);
    }
    for e in effects {
        match e {
            Effect::Place(p) => {
                if let Some(Where::Space(s)) = &p.on {
                    if !ids.contains(s.as_str()) {
                        out.push(format!("{}: places a tile on unknown space {s}", card.name));
                    }
                }
            }
            Effect::AddHere(_) | Effect::SpendHere(_) if card.resource.is_none() => {
                out.push(format!(
                    "{}: keeps resources but has no `resource` type",
                    card.name
                ));
            }
            _ => {}
        }
    }
}
