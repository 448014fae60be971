//! Checks across files that a schema cannot express: unique names, known spaces, symmetric
//! adjacency, tile and tag names that exist.

use std::collections::{BTreeSet, HashSet};

use orrery_core::diagnostics::Diagnostic;

use crate::content::{Card, Content, Effect, Where};

/// Every cross-reference problem of the content.
pub fn references(c: &Content) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let beginner = &c.rules.beginner_corporation;
    if !c.corporations.iter().any(|k| &k.name == beginner) {
        out.push(Diagnostic::plain(
            "rules.yaml",
            format!("beginner_corporation names {beginner}, which is not a corporation"),
        ));
    }
    let ids: HashSet<&str> = c.map.spaces.iter().map(|s| s.id.as_str()).collect();
    for s in &c.map.spaces {
        for a in &s.adjacent {
            match c.map.spaces.iter().find(|t| &t.id == a) {
                None => out.push(Diagnostic::plain(
                    "map.yaml",
                    format!("space {} lists unknown neighbour {a}", s.id),
                )),
                Some(t) if !t.adjacent.contains(&s.id) => out.push(Diagnostic::plain(
                    "map.yaml",
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
    for m in &c.rules.defaults.modules {
        if !modules.contains(m.as_str()) {
            out.push(Diagnostic::plain(
                "rules.yaml",
                format!("defaults name module {m:?}, which `modules` does not declare"),
            ));
        }
    }
    for (file, cards) in [
        ("corporations.yaml", &c.corporations),
        ("projects.yaml", &c.projects),
    ] {
        for card in cards.iter() {
            if let Some(m) = &card.module {
                if !modules.contains(m.as_str()) {
                    out.push(Diagnostic::plain(
                        file,
                        format!("{}: module {m:?} is not declared in rules.yaml", card.name),
                    ));
                }
            }
        }
    }
    let mut names = BTreeSet::new();
    for (file, cards) in [
        ("corporations.yaml", &c.corporations),
        ("projects.yaml", &c.projects),
    ] {
        for card in cards.iter() {
            if !names.insert(card.name.as_str()) {
                out.push(Diagnostic::plain(
                    file,
                    format!("card name {:?} is used twice", card.name),
                ));
            }
            check_card(file, card, &ids, &mut out);
        }
    }
    let mut sp = BTreeSet::new();
    for p in &c.standard_projects {
        if !sp.insert(p.id.as_str()) {
            out.push(Diagnostic::plain(
                "standard-projects.yaml",
                format!("standard project {:?} is listed twice", p.id),
            ));
        }
    }
    out
}

fn check_card(file: &str, card: &Card, ids: &HashSet<&str>, out: &mut Vec<Diagnostic>) {
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
                        out.push(Diagnostic::plain(
                            file,
                            format!("{}: places a tile on unknown space {s}", card.name),
                        ));
                    }
                }
            }
            Effect::AddHere(_) | Effect::SpendHere(_) if card.resource.is_none() => {
                out.push(Diagnostic::plain(
                    file,
                    format!("{}: keeps resources but has no `resource` type", card.name),
                ));
            }
            _ => {}
        }
    }
}
