//! What the command line shows of a game: a seat's public holdings as numbers (`trace`), a
//! seat's status with its hand (`play`), and the common board in one line.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::content::{Counted, Measured, Param, Requirement, Res};

use super::{Game, Part, Phase, SetChoice};

impl Game {
    /// The public holdings of `seat` by name: TR, each resource's stock (`mc`, `steel`, …)
    /// and production (`mc-prod`, …), cards in hand and played, resources on cards, tiles
    /// owned.
    pub fn seat_tally(&self, seat: usize) -> BTreeMap<String, i64> {
        let mut t = BTreeMap::new();
        let Some(pl) = self.players.get(seat) else {
            return t;
        };
        t.insert("tr".to_owned(), i64::from(pl.tr));
        for r in Res::ALL {
            t.insert(r.key().to_owned(), i64::from(pl.res[r.index()]));
            t.insert(format!("{}-prod", r.key()), i64::from(pl.prod[r.index()]));
        }
        t.insert("hand".to_owned(), pl.hand.len() as i64);
        t.insert("played".to_owned(), pl.played.len() as i64);
        let on_cards: i64 = pl.card_res.values().map(|v| i64::from(*v)).sum();
        t.insert("on-cards".to_owned(), on_cards);
        let tiles = self
            .tiles
            .values()
            .filter(|x| x.owner == Some(seat))
            .count();
        t.insert("tiles".to_owned(), tiles as i64);
        t
    }

    /// The public holdings of `seat` in one line: its corporation, TR, and each resource's
    /// stock with its production (`mc 40 (+5)`), cards in hand and played.
    pub fn seat_status(&self, seat: usize) -> String {
        let Some(pl) = self.players.get(seat) else {
            return String::new();
        };
        let corp = self
            .corporation_name(seat)
            .unwrap_or_else(|| "no corporation yet".to_owned());
        let stock: Vec<String> = Res::ALL
            .iter()
            .map(|r| {
                format!(
                    "{} {} ({:+})",
                    r.key(),
                    pl.res[r.index()],
                    pl.prod[r.index()]
                )
            })
            .collect();
        format!(
            "{corp}; TR {}; {}; {} in hand, {} played",
            pl.tr,
            stock.join(", "),
            pl.hand.len(),
            pl.played.len()
        )
    }

    /// The hand of `seat`, one card a line with its cost to the seat and its requirements
    /// (and why it cannot be played now); what only that seat sees.
    pub fn hand_lines(&self, seat: usize) -> Vec<String> {
        let Some(pl) = self.players.get(seat) else {
            return Vec::new();
        };
        if pl.hand.is_empty() {
            return vec!["hand: empty".to_owned()];
        }
        let mut out = vec![format!("hand ({}):", pl.hand.len())];
        for c in &pl.hand {
            let card = self.card(*c);
            let needs: Vec<String> = card.requires.iter().map(requirement_text).collect();
            let playable = match self.playable(seat, *c) {
                Ok(()) => String::new(),
                Err(e) => format!(" — not now: {e}"),
            };
            out.push(format!(
                "  {} ({} M€{}){playable}",
                card.name,
                self.card_cost(seat, *c),
                if needs.is_empty() {
                    String::new()
                } else {
                    format!("; requires {}", needs.join(", "))
                }
            ));
        }
        out
    }

    /// The common board in one line: generation, phase, the global parameters and the tiles
    /// placed.
    pub fn board_status(&self) -> String {
        let params: Vec<String> = [Param::Oxygen, Param::Temperature, Param::Oceans]
            .iter()
            .map(|p| {
                format!(
                    "{} {}/{}",
                    param_name(*p),
                    self.param_value(*p),
                    self.goal(*p)
                )
            })
            .collect();
        format!(
            "generation {}, {}: {}; {} tiles on the map",
            self.generation,
            if self.phase == Phase::End {
                "game over"
            } else {
                self.phase.name()
            },
            params.join(", "),
            self.tiles.len()
        )
    }
}

impl Game {
    /// The cards a started pick picks from (`Part::Start`), with how many.
    pub fn pick_of(&self, part: &Part) -> Option<SetChoice> {
        let Part::Start(l) = part else {
            return None;
        };
        if self.picking.is_some() {
            return None;
        }
        self.choices()
            .into_iter()
            .find(|c| c.player == l.player && c.steps == l.steps)
            .and_then(|c| c.set)
    }

    /// The deciding seat's open decision as data: the seat, what it decides (the queued
    /// decision, else its turn), and a pick in progress; null once the game is over.
    pub fn decision_data(&self) -> Value {
        let Some(seat) = self.to_decide() else {
            return Value::Null;
        };
        let asked = match self.queue.front() {
            Some(d) if d.player == seat => serde_json::to_value(&d.what).unwrap_or(Value::Null),
            _ => json!("turn"),
        };
        let picking = self.picking.as_ref().map(|pk| {
            json!({
                "input": pk.choice.line(Vec::new()).to_string(),
                "from": pk.choice.set.as_ref().map(|s| &s.from),
                "taken": pk.taken,
                "next": pk.next,
            })
        });
        json!({
            "player": self.colors[seat],
            "phase": self.phase.name(),
            "generation": self.generation,
            "asked": asked,
            "picking": picking,
        })
    }
}

fn param_name(p: Param) -> &'static str {
    match p {
        Param::Oxygen => "oxygen",
        Param::Temperature => "temperature",
        Param::Oceans => "oceans",
    }
}

/// A requirement in words: `oxygen ≥ 5`, `temperature ≤ -10`, `science tags ≥ 2`.
pub fn requirement_text(r: &Requirement) -> String {
    let what = match &r.what {
        Measured::Param(p) => param_name(*p).to_owned(),
        Measured::Count(Counted::Tag(t)) => format!("{t} tags"),
        Measured::Count(Counted::Production(res)) => format!("{} production", res.key()),
        Measured::Count(c) => serde_json::to_value(c)
            .ok()
            .and_then(|v| match v {
                serde_json::Value::String(s) => Some(s.replace('_', " ")),
                serde_json::Value::Object(m) => m.keys().next().map(|k| k.replace('_', " ")),
                _ => None,
            })
            .unwrap_or_else(|| "count".to_owned()),
    };
    match (r.min, r.max) {
        (Some(a), Some(b)) => format!("{what} {a} to {b}"),
        (Some(a), None) => format!("{what} ≥ {a}"),
        (None, Some(b)) => format!("{what} ≤ {b}"),
        (None, None) => what,
    }
}
