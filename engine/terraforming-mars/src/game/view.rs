//! What the command line shows of a game: a seat's public holdings as numbers (`trace`), a
//! seat's status with its hand (`play`), the common board in one line, and the board as a
//! neutral picture (`render`).

use std::collections::BTreeMap;

use orrery_core::board_view::{BoardPicture, Panel, PieceMark, SpaceMark, Track};
use orrery_core::hex::Hex;
use serde_json::{json, Value};

use crate::content::{CardType, Counted, Measured, Param, Requirement, Res, SpaceType};

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
            Some(d) if d.player == seat => {
                let mut v = serde_json::to_value(&d.what).unwrap_or(Value::Null);
                self.name_cards(&mut v);
                v
            }
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

impl Game {
    /// Card numbers in a decision's data as names: `card` and `to` fields, and the cards
    /// drawn in research.
    fn name_cards(&self, v: &mut Value) {
        let name = |n: &Value| {
            n.as_u64()
                .and_then(|i| usize::try_from(i).ok())
                .filter(|i| *i < self.cards.len())
                .map(|i| Value::String(self.card(i).name.clone()))
        };
        match v {
            Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    match (k.as_str(), &*x) {
                        ("card" | "to", n) if n.is_u64() => {
                            if let Some(named) = name(n) {
                                *x = named;
                            }
                        }
                        ("Research", Value::Array(list)) => {
                            let names: Vec<Value> = list.iter().filter_map(name).collect();
                            *x = Value::Array(names);
                        }
                        _ => self.name_cards(x),
                    }
                }
            }
            Value::Array(list) => list.iter_mut().for_each(|x| self.name_cards(x)),
            _ => {}
        }
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

/// A seat colour's drawing colour; a colour the table does not know is grey.
fn seat_rgb(color: &str) -> &'static str {
    match color {
        "red" => "#d1352b",
        "green" => "#2e9e44",
        "yellow" => "#e5b81a",
        "blue" => "#2f6fd0",
        "black" => "#333333",
        _ => "#9aa0a8",
    }
}

/// The axial places of `n` spaces listed row by row when they make a regular hexagon
/// (`3R(R+1)+1` spaces: rows of R+1 up to 2R+1 and back), else rows of nine.
fn rows_of(n: usize) -> Vec<Hex> {
    let radius = (0..=20).find(|r: &i32| {
        let r = *r as usize;
        3 * r * (r + 1) + 1 == n
    });
    match radius {
        Some(rad) => (-rad..=rad)
            .flat_map(|r| ((-rad).max(-r - rad)..=rad.min(-r + rad)).map(move |q| Hex { q, r }))
            .collect(),
        None => (0..n)
            .map(|i| {
                let r = i32::try_from(i / 9).unwrap_or(i32::MAX);
                let q = i32::try_from(i % 9).unwrap_or(0) - r / 2;
                Hex { q, r }
            })
            .collect(),
    }
}

/// A bonus in a few letters for a small hex: `2 ste`, `car`.
fn bonus_note(bonus: &[String]) -> String {
    let mut counted: Vec<(String, usize)> = Vec::new();
    for b in bonus {
        let word = b.rsplit('_').next().unwrap_or(b);
        let short: String = word.chars().take(3).collect();
        match counted.iter_mut().find(|(w, _)| *w == short) {
            Some((_, n)) => *n += 1,
            None => counted.push((short, 1)),
        }
    }
    counted
        .into_iter()
        .map(|(w, n)| if n > 1 { format!("{n} {w}") } else { w })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Game {
    /// The board as a neutral picture: Mars' spaces (laid out row by row, ids in order) with
    /// their bonuses, ocean spaces blue, reserved and off-board spaces dashed (the off-board
    /// ones to the left); tiles in their owners' colours; the global parameters and each
    /// seat's TR as tracks; a panel per seat and one for milestones and awards.
    pub fn picture(&self, caption: &str) -> BoardPicture {
        let spaces = &self.content.map.spaces;
        let on_mars: Vec<usize> = (0..spaces.len()).filter(|s| self.on_mars(*s)).collect();
        let mut place = vec![Hex { q: 0, r: 0 }; spaces.len()];
        for (s, h) in on_mars.iter().zip(rows_of(on_mars.len())) {
            place[*s] = h;
        }
        let least_r = place.iter().map(|h| h.r).min().unwrap_or(0);
        let least_q = place.iter().map(|h| h.q + h.r / 2).min().unwrap_or(0);
        let off_board = (0..spaces.len()).filter(|s| !self.on_mars(*s));
        for (off, s) in (0_i32..).zip(off_board) {
            let r = least_r + 2 * off;
            place[s] = Hex {
                q: least_q - 2 - r / 2,
                r,
            };
        }
        let marks = spaces
            .iter()
            .enumerate()
            .map(|(i, sp)| SpaceMark {
                hex: place[i],
                fill: match sp.kind {
                    SpaceType::Land => "#d9a27a",
                    SpaceType::Ocean => "#9cc3e6",
                    SpaceType::Colony => "#c8c8c8",
                }
                .to_owned(),
                label: sp.id.clone(),
                note: bonus_note(&sp.bonus),
                dashed: sp.reserved || sp.kind == SpaceType::Colony,
            })
            .collect();
        let pieces = self
            .tiles
            .iter()
            .map(|(s, t)| {
                let kind: &str = &t.kind;
                let (fill, label) = match kind {
                    "ocean" => ("#1f5fa8", "O".to_owned()),
                    "greenery" => ("#3c8f3c", "G".to_owned()),
                    "city" => ("#7a7a7a", "C".to_owned()),
                    other => (
                        "#8a5a2b",
                        other.chars().take(3).collect::<String>().to_uppercase(),
                    ),
                };
                PieceMark {
                    hex: place.get(*s).copied().unwrap_or(Hex { q: 0, r: 0 }),
                    fill: fill.to_owned(),
                    seat: t.owner,
                    label,
                }
            })
            .collect();
        let mut tracks: Vec<Track> = [Param::Oxygen, Param::Temperature, Param::Oceans]
            .iter()
            .map(|p| Track {
                name: param_name(*p).to_owned(),
                value: i64::from(self.param_value(*p)),
                least: i64::from(self.content.rules.parameters.get(p).map_or(0, |s| s.start)),
                greatest: i64::from(self.goal(*p)),
            })
            .collect();
        for (s, pl) in self.players.iter().enumerate() {
            tracks.push(Track {
                name: format!("TR {}", self.colors[s]),
                value: i64::from(pl.tr),
                least: 0,
                greatest: i64::from(pl.tr.max(100)),
            });
        }
        let vp = self.vp_totals();
        let mut panels: Vec<Panel> = (0..self.colors.len())
            .map(|s| {
                let pl = &self.players[s];
                let mut lines = vec![format!(
                    "TR {}, {} VP, {} in hand, {} played",
                    pl.tr,
                    vp.get(s).copied().unwrap_or(0),
                    pl.hand.len(),
                    pl.played.len()
                )];
                lines.extend(Res::ALL.iter().map(|r| {
                    format!(
                        "{} {} (production {:+})",
                        r.key(),
                        pl.res[r.index()],
                        pl.prod[r.index()]
                    )
                }));
                lines.push(self.tags_line(s));
                lines.push(self.in_play_line(s));
                Panel {
                    title: format!(
                        "{}{}",
                        self.colors[s],
                        self.corporation_name(s)
                            .map_or_else(String::new, |c| format!(" · {c}"))
                    ),
                    seat: Some(s),
                    lines,
                }
            })
            .collect();
        let owner = |list: &[(usize, usize)], i: usize| {
            list.iter()
                .find(|(x, _)| *x == i)
                .map(|(_, p)| self.colors[*p].clone())
        };
        let scoring = &self.content.scoring;
        let mut lines: Vec<String> = scoring
            .milestones
            .iter()
            .enumerate()
            .map(|(i, m)| match owner(&self.milestones, i) {
                Some(c) => format!("milestone {}: claimed by {c}", m.name),
                None => format!("milestone {}: open", m.name),
            })
            .collect();
        lines.extend(scoring.awards.iter().enumerate().map(|(i, a)| {
            match owner(&self.awards, i) {
                Some(c) => format!("award {}: funded by {c}", a.name),
                None => format!("award {}: not funded", a.name),
            }
        }));
        panels.push(Panel {
            title: "milestones and awards".to_owned(),
            seat: None,
            lines,
        });
        BoardPicture {
            caption: format!("{caption} · {}", self.board_status()),
            seat_colours: self.colors.iter().map(|c| seat_rgb(c).to_owned()).collect(),
            seat_names: self.colors.to_vec(),
            spaces: marks,
            pieces,
            tracks,
            panels,
        }
    }
}

impl Game {
    /// The tags of the seat's corporation and of its cards in play that are not events, by
    /// tag: `tags: building 3, space 1`.
    fn tags_line(&self, seat: usize) -> String {
        let pl = &self.players[seat];
        let mut tags: BTreeMap<&str, usize> = BTreeMap::new();
        for c in pl.owned_cards() {
            let card = self.card(c);
            if card.kind == CardType::Event {
                continue;
            }
            for t in &card.tags {
                *tags.entry(t.as_str()).or_default() += 1;
            }
        }
        if tags.is_empty() {
            return "tags: none".to_owned();
        }
        let each: Vec<String> = tags.iter().map(|(t, n)| format!("{t} {n}")).collect();
        format!("tags: {}", each.join(", "))
    }

    /// The seat's cards in play (events included), in the order played, each with the
    /// resources on it: `in play: Birds (2 animal), Comet`.
    fn in_play_line(&self, seat: usize) -> String {
        let pl = &self.players[seat];
        if pl.played.is_empty() {
            return "in play: none".to_owned();
        }
        let cards: Vec<String> = pl
            .played
            .iter()
            .map(|c| {
                let card = self.card(*c);
                match (pl.card_res.get(c), &card.resource) {
                    (Some(n), Some(r)) if *n > 0 => format!("{} ({n} {r})", card.name),
                    (Some(n), None) if *n > 0 => format!("{} ({n})", card.name),
                    _ => card.name.clone(),
                }
            })
            .collect();
        format!("in play: {}", cards.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_listed_row_by_row_make_a_hexagon_or_rows_of_nine() {
        let hexes = rows_of(61);
        assert_eq!(hexes.len(), 61);
        let mut rows: Vec<(i32, usize)> = Vec::new();
        for h in &hexes {
            match rows.last_mut() {
                Some((r, n)) if *r == h.r => *n += 1,
                _ => rows.push((h.r, 1)),
            }
        }
        let lengths: Vec<usize> = rows.iter().map(|(_, n)| *n).collect();
        assert_eq!(lengths, [5, 6, 7, 8, 9, 8, 7, 6, 5]);
        // Each row continues the one above: neighbours on the board are neighbours here.
        assert!(hexes
            .iter()
            .all(|h| h.q.abs() <= 4 && (h.q + h.r).abs() <= 4));
        let odd = rows_of(10);
        assert_eq!(odd.len(), 10);
        assert!(odd.iter().enumerate().all(|(i, h)| !odd[..i].contains(h)));
    }

    #[test]
    fn bonuses_and_requirements_read_in_words() {
        let b: Vec<String> = ["steel", "steel", "draw_card"].map(String::from).to_vec();
        assert_eq!(bonus_note(&b), "2 ste car");
        let r = Requirement {
            what: Measured::Param(Param::Oxygen),
            min: Some(5),
            max: None,
        };
        assert_eq!(requirement_text(&r), "oxygen ≥ 5");
        let r = Requirement {
            what: Measured::Count(Counted::Tag("science".into())),
            min: Some(2),
            max: Some(4),
        };
        assert_eq!(requirement_text(&r), "science tags 2 to 4");
    }
}
