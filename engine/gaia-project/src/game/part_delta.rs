//! What a part costs and gains a seat: the seat's holdings before and after, compared.
//! The part is applied to a copy of the game, so its hooks (costs, triggers, conditions) run
//! exactly as in play.

use std::fmt;

use serde_json::{json, Map, Value};

use super::{Game, MoveError};
use crate::content::Content;
use crate::notation::Command;
use crate::player::Player;
use crate::power::Area;

/// The power areas in the order they are shown, with their names.
const AREAS: [(Area, &str); 4] = [
    (Area::I, "I"),
    (Area::II, "II"),
    (Area::III, "III"),
    (Area::Gaia, "gaia"),
];

/// How one seat's holdings changed; every list holds the changed entries only, in content
/// order (buildings: by id; items: those given up, then those taken).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatDelta {
    /// Resources by code (`c`, `o`, `vp`, …).
    pub resources: Vec<(String, i64)>,
    /// Power tokens by area (`I`, `II`, `III`, `gaia`), a special token counted where it lies.
    pub power: Vec<(&'static str, i64)>,
    /// Research levels by track id.
    pub research: Vec<(String, i64)>,
    /// Buildings on the map by building id.
    pub buildings: Vec<(String, i64)>,
    /// Gaiaformers owned.
    pub gaiaformers: i64,
    /// Boosters, tech tiles, advanced tiles and federation tokens taken (+1) or given up (−1).
    pub items: Vec<(String, i64)>,
}

/// The changed entries of two equally keyed lists of counts.
fn changes<K: Clone>(keys: &[K], before: &[i64], after: &[i64]) -> Vec<(K, i64)> {
    keys.iter()
        .zip(before.iter().zip(after))
        .filter(|(_, (b, a))| a != b)
        .map(|(k, (b, a))| (k.clone(), a - b))
        .collect()
}

/// The ids a player holds as items: booster, tech tiles, advanced tiles, federation tokens.
fn items(p: &Player) -> Vec<String> {
    let mut out: Vec<String> = p.booster.iter().map(|b| b.to_string()).collect();
    out.extend(p.techs.iter().map(|t| t.id.to_string()));
    out.extend(p.advanced.iter().map(|t| t.to_string()));
    out.extend(p.tokens.iter().map(|t| t.id.to_string()));
    out
}

impl SeatDelta {
    /// The change from `before` to `after`, two states of one seat.
    pub fn between(content: &Content, before: &Player, after: &Player) -> SeatDelta {
        let wide = |v: &[i32]| v.iter().map(|n| i64::from(*n)).collect::<Vec<i64>>();
        let codes: Vec<String> = content
            .rules
            .resources
            .iter()
            .map(|r| r.id.clone())
            .collect();
        let resources = changes(&codes, &wide(&before.resources), &wide(&after.resources));
        let bowls = |p: &Player| {
            AREAS
                .iter()
                .map(|(a, _)| i64::from(p.power.tokens(*a)))
                .collect::<Vec<i64>>()
        };
        let names: Vec<&'static str> = AREAS.iter().map(|(_, n)| *n).collect();
        let power = changes(&names, &bowls(before), &bowls(after));
        let tracks: Vec<String> = content
            .research
            .tracks
            .iter()
            .map(|t| t.id.clone())
            .collect();
        let levels = |p: &Player| {
            tracks
                .iter()
                .map(|t| i64::from(p.level(t)))
                .collect::<Vec<i64>>()
        };
        let research = changes(&tracks, &levels(before), &levels(after));
        let mut kinds: Vec<String> = before.built.keys().map(|b| b.to_string()).collect();
        kinds.extend(
            after
                .built
                .keys()
                .filter(|b| !before.built.contains_key(b))
                .map(|b| b.to_string()),
        );
        let built = |p: &Player| {
            kinds
                .iter()
                .map(|b| i64::from(p.built_count(b)))
                .collect::<Vec<i64>>()
        };
        let buildings = changes(&kinds, &built(before), &built(after));
        let gaiaformers = i64::from(after.gaiaformers) - i64::from(before.gaiaformers);
        // Items as multisets: given up first, then taken, each in the order held.
        let (had, has) = (items(before), items(after));
        let mut left = has.clone();
        let mut gone = Vec::new();
        for id in &had {
            match left.iter().position(|x| x == id) {
                Some(i) => {
                    left.remove(i);
                }
                None => gone.push((id.clone(), -1)),
            }
        }
        let mut items = gone;
        items.extend(left.into_iter().map(|id| (id, 1)));
        SeatDelta {
            resources,
            power,
            research,
            buildings,
            gaiaformers,
            items,
        }
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        *self == SeatDelta::default()
    }

    /// The change in one resource by code (0 when unchanged).
    pub fn resource(&self, code: &str) -> i64 {
        self.resources
            .iter()
            .find(|(c, _)| c == code)
            .map_or(0, |(_, n)| *n)
    }

    /// As JSON, here in the made-up test game's terms: `{"resources": {"gold": -2}, "power":
    /// {"I": -1, "II": 1}, "research": {}, "buildings": {"hut": 1}, "gaiaformers": 0,
    /// "items": {"perk1": 1}}`.
    pub fn to_json(&self) -> Value {
        fn object<K: AsRef<str>>(list: &[(K, i64)]) -> Value {
            Value::Object(
                list.iter()
                    .map(|(k, n)| (k.as_ref().to_string(), json!(n)))
                    .collect::<Map<String, Value>>(),
            )
        }
        json!({
            "resources": object(&self.resources),
            "power": object(&self.power),
            "research": object(&self.research),
            "buildings": object(&self.buildings),
            "gaiaformers": self.gaiaformers,
            "items": object(&self.items),
        })
    }
}

/// A signed count: `+2`, `-1`.
fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

impl fmt::Display for SeatDelta {
    /// In the made-up test game's terms: `gold -2, vp +3, power I -2 II +2, hut +1, research
    /// lore +1, gaiaformers +1, spare1 -1, perk1 +1`; `no change` when nothing changed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = self
            .resources
            .iter()
            .map(|(c, n)| format!("{c} {}", signed(*n)))
            .collect();
        if !self.power.is_empty() {
            let bowls: Vec<String> = self
                .power
                .iter()
                .map(|(a, n)| format!("{a} {}", signed(*n)))
                .collect();
            parts.push(format!("power {}", bowls.join(" ")));
        }
        parts.extend(
            self.buildings
                .iter()
                .map(|(b, n)| format!("{b} {}", signed(*n))),
        );
        parts.extend(
            self.research
                .iter()
                .map(|(t, n)| format!("research {t} {}", signed(*n))),
        );
        if self.gaiaformers != 0 {
            parts.push(format!("gaiaformers {}", signed(self.gaiaformers)));
        }
        parts.extend(
            self.items
                .iter()
                .map(|(id, n)| format!("{id} {}", signed(*n))),
        );
        if parts.is_empty() {
            f.write_str("no change")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

impl Game {
    /// What `part` costs and gains the seat that decides now: the part applied to a copy of
    /// the game (hooks run as in play), that seat's holdings compared. The game itself is
    /// untouched; a part the game refuses is that refusal.
    pub fn part_delta(&self, part: &Command) -> Result<SeatDelta, MoveError> {
        let seat = self
            .deciding_seat()
            .ok_or_else(|| MoveError("the game is over: no seat decides".into()))?;
        let copy = self.clone().with_part(part)?;
        Ok(SeatDelta::between(
            &self.content,
            &self.state.players[seat],
            &copy.state.players[seat],
        ))
    }

    /// [`Game::part_delta`] as JSON for `moves --explain`: `{"change": …}` ([`SeatDelta::to_json`])
    /// or `{"refused": why}`.
    pub fn explain_part(&self, part: &Command) -> Value {
        match self.part_delta(part) {
            Ok(d) => json!({"change": d.to_json()}),
            Err(e) => json!({"refused": e.0}),
        }
    }

    /// How every seat's holdings differ from those of `before` (an earlier state of this
    /// game), by seat.
    pub fn seat_deltas(&self, before: &[Player]) -> Vec<SeatDelta> {
        before
            .iter()
            .zip(&self.state.players)
            .map(|(b, a)| SeatDelta::between(&self.content, b, a))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::SeatDelta;
    use crate::content::fixture;
    use crate::game::{Game, Setup};
    use crate::notation::Command;

    fn started() -> Game {
        let content = fixture::two_factions();
        let setup = Setup::random(&content, 2, &mut orrery_core::rng::Rng::new(3)).expect("setup");
        let mut g = Game::new(content, setup).expect("game");
        for f in ["zorgs", "blues"] {
            g.apply_part(&Command::Faction(f.into())).expect("faction");
            g.apply_part(&Command::EndTurn).expect("end");
        }
        // The starting buildings, then the first turn of round 1.
        while !matches!(g.next_decision(), Some(crate::game::Decision::Turn(_))) {
            let part = g.legal_parts().into_iter().next().expect("a part");
            g.apply_part(&part).expect("setup part");
        }
        g
    }

    #[test]
    fn a_delta_lists_what_changed_and_nothing_else() {
        let g = started();
        let seat = g.deciding_seat().expect("a seat decides");
        let before = g.state.players[seat].clone();
        let mut after = before.clone();
        after.resources[0] += 3;
        after.resources[1] -= 2;
        after.power.areas[0] -= 1;
        after.power.areas[1] += 1;
        after.gaiaformers += 1;
        let d = SeatDelta::between(&g.content, &before, &after);
        let codes: Vec<&str> = g
            .content
            .rules
            .resources
            .iter()
            .map(|r| r.id.as_str())
            .collect();
        assert_eq!(d.resource(codes[0]), 3);
        assert_eq!(d.resource(codes[1]), -2);
        assert_eq!(d.resources.len(), 2);
        assert_eq!(d.power, vec![("I", -1), ("II", 1)]);
        assert_eq!(d.gaiaformers, 1);
        let text = d.to_string();
        assert!(
            text.starts_with(&format!(
                "{} +3, {} -2, power I -1 II +1",
                codes[0], codes[1]
            )),
            "{text}"
        );
        assert_eq!(d.to_json()["resources"][codes[0]], 3);
        assert!(SeatDelta::between(&g.content, &before, &before).is_empty());
        assert_eq!(
            SeatDelta::between(&g.content, &before, &before).to_string(),
            "no change"
        );
    }

    #[test]
    fn a_parts_delta_is_what_applying_it_costs_and_gains_and_leaves_the_game_alone() {
        let g = started();
        let saved = serde_json::to_string(&g.state).expect("saves");
        let mut seen = 0;
        for part in g.legal_parts() {
            let d = g.part_delta(&part).expect("a listed part applies");
            let text = d.to_string();
            match &part {
                // A hall upgrades a hut for 3 gold.
                Command::Build { building, .. } if building.as_str() == "hall" => {
                    assert_eq!(text, "gold -3, hut -1, hall +1", "{part}");
                }
                // Passing returns the booster held and takes the one named.
                Command::Pass(Some(b)) => {
                    let held = (*g.state.players[g.deciding_seat().unwrap_or(0)].booster).clone();
                    let returned = held.map(|h| format!("{h} -1, ")).unwrap_or_default();
                    assert_eq!(text, format!("{returned}{b} +1"), "{part}");
                }
                // Burning one moves two tokens out of area II and one of them into III.
                Command::Burn(1) => assert_eq!(text, "power II -2 III +1", "{part}"),
                _ => continue,
            }
            seen += 1;
        }
        assert_eq!(seen, 3, "{:?}", g.legal_parts());
        assert_eq!(serde_json::to_string(&g.state).expect("saves"), saved);
        let nonsense = Command::Other {
            verb: "nonsense".into(),
            args: vec![],
        };
        assert!(g.part_delta(&nonsense).is_err());
    }
}
