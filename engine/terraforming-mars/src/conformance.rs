//! Conformance: replaying a recorded game of the public engine move by move and comparing
//! every recorded draw and snapshot with ours, reporting the first difference.

use std::sync::Arc;

use serde_json::Value;

use crate::content::Content;
use crate::game::{Deal, Game};
use crate::notation::Line;
use crate::record::{DeckEvent, Record};

/// The first difference between two JSON values, as `path: ours != recorded`.
pub fn first_difference(path: &str, ours: &Value, theirs: &Value) -> Option<String> {
    let mut steps = Vec::new();
    let what = difference(ours, theirs, &mut steps)?;
    let mut out = path.to_string();
    for step in steps.iter().rev() {
        out.push_str(step);
    }
    out.push_str(&what);
    Some(out)
}

/// What differs first (`: …`), the steps of the path to it (`.key`, `[i]`) pushed innermost
/// first: a path is written only for a difference, not for every value compared.
fn difference(ours: &Value, theirs: &Value, steps: &mut Vec<String>) -> Option<String> {
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let (x, y) = (a.get(k), b.get(k));
                let what = match (x, y) {
                    (Some(x), Some(y)) => difference(x, y, steps),
                    _ => Some(format!(": {x:?} != {y:?}")),
                };
                if let Some(what) = what {
                    steps.push(format!(".{k}"));
                    return Some(what);
                }
            }
            None
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            a.iter().zip(b).enumerate().find_map(|(i, (x, y))| {
                let what = difference(x, y, steps)?;
                steps.push(format!("[{i}]"));
                Some(what)
            })
        }
        _ if ours == theirs => None,
        _ => Some(format!(": ours {ours} != recorded {theirs}")),
    }
}

/// The outcome of replaying one record.
pub struct Replay {
    /// Moves replayed identically before the first difference.
    pub identical: usize,
    /// Total moves.
    pub total: usize,
    /// The first difference, if any.
    pub difference: Option<String>,
}

/// The game as the record deals it.
///
/// # Errors
/// A first player who is not seated, or a deal the content cannot play.
pub fn deal(content: Arc<Content>, r: &Record) -> Result<Game, String> {
    let colors: Vec<String> = r.players.iter().map(|p| p.color.clone()).collect();
    let first = colors
        .iter()
        .position(|c| *c == r.first_player)
        .ok_or_else(|| format!("first player {} is not seated", r.first_player))?;
    let options = r.options.game_options(&content.rules);
    let deal = Deal {
        options,
        colors,
        first,
        beginner: r.players.iter().map(|p| p.beginner).collect(),
        corporations: r.setup.corporation_deck_initial.clone(),
        projects: r.setup.project_deck_initial.clone(),
    };
    Game::new(content, &deal, 1).map_err(|e| format!("the deal is not playable: {e}"))
}

/// Replays a record move by move, comparing draws and every snapshot.
pub fn replay(content: Arc<Content>, r: &Record) -> Replay {
    let total = r.moves.len();
    let done = |identical, d: String| Replay {
        identical,
        total,
        difference: Some(format!("{} move {identical}: {d}", r.id)),
    };
    let mut g = match deal(content, r) {
        Ok(g) => g,
        Err(e) => return done(0, e),
    };
    if let Some(d) = first_difference("setup", &g.snapshot(), &r.setup.snapshot) {
        return done(0, d);
    }
    for (k, m) in r.moves.iter().enumerate() {
        for e in &m.events {
            if let DeckEvent::Reshuffle { order } = e {
                if let Err(e) = g.plan_reshuffle(order) {
                    return done(k, e);
                }
            }
        }
        let line = match Line::parse(&m.line) {
            Ok(l) => l,
            Err(e) => return done(k, format!("{}: {e}", m.line)),
        };
        if let Err(e) = g.apply_line(&line) {
            return done(k, format!("`{}` refused: {e}", m.line));
        }
        let draws: Vec<(String, bool)> = m
            .events
            .iter()
            .filter_map(|e| match e {
                DeckEvent::Draw {
                    card, from, deck, ..
                } if deck.is_none() => Some((card.clone(), from == "top")),
                _ => None,
            })
            .collect();
        if g.last_draws() != draws {
            return done(
                k,
                format!(
                    "`{}` drew {:?}, recorded {:?}",
                    m.line,
                    g.last_draws(),
                    draws
                ),
            );
        }
        if let Some(d) = first_difference("snapshot", &g.snapshot(), &m.snapshot) {
            return done(k, format!("after `{}`: {d}", m.line));
        }
    }
    Replay {
        identical: total,
        total,
        difference: None,
    }
}

#[cfg(test)]
mod difference_tests {
    use super::first_difference;
    use serde_json::json;

    #[test]
    fn names_the_path_to_the_first_difference() {
        let ours = json!({"a": [1, {"b": 2, "c": 3}], "d": 4});
        assert_eq!(first_difference("s", &ours, &ours.clone()), None);
        let theirs = json!({"a": [1, {"b": 2, "c": 5}], "d": 6});
        assert_eq!(
            first_difference("s", &ours, &theirs).as_deref(),
            Some("s.a[1].c: ours 3 != recorded 5")
        );
        let missing = json!({"a": [1, {"b": 2}], "d": 4});
        let d = first_difference("s", &ours, &missing).expect("a key missing");
        assert!(
            d.starts_with("s.a[1].c: Some(") && d.ends_with(") != None"),
            "{d}"
        );
        let shorter = json!({"a": [1], "d": 4});
        assert_eq!(
            first_difference("s", &ours, &shorter).as_deref(),
            Some(r#"s.a: ours [1,{"b":2,"c":3}] != recorded [1]"#)
        );
    }
}
