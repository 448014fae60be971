//! What a thing does, in words generated from its effects: the one description every command
//! shows for a tile, booster, federation token, board action or faction ability, so that
//! what is printed cannot disagree with what is played. A content `name` is only a name.
//!
//! `stated_numbers` compares numbers a name states ("Income: 1 ore") with the amounts its
//! effects give, for `validate`'s warnings.

use super::effect::{
    Bundle, Condition, Conversion, Count, Effect, Event, Grants, Modifier, ResearchChoice, Scope,
    Trigger,
};
use super::table::kind;
use super::Content;
use crate::power::Code;
use orrery_core::content::kinds::KindSpec;

/// `n` of a word, with the word in the plural unless `n` is 1 (`words` is `(one, many)`).
fn counted(n: i64, words: (&str, &str)) -> String {
    format!("{n} {}", if n.abs() == 1 { words.0 } else { words.1 })
}

/// A resource's word for `n` of it: the content's name in lower case (`ore`, `credits`), kept
/// as written when it is all capitals (`QIC`); `vp` is `VP`.
fn resource_word(content: &Content, code: &str, n: i64) -> String {
    if code == crate::player::VP {
        return "VP".into();
    }
    let Some(r) = content.rules.resources.iter().find(|r| r.id == code) else {
        return code.to_string();
    };
    let name = if r.name.chars().all(|c| !c.is_lowercase()) {
        r.name.clone()
    } else {
        r.name.to_lowercase()
    };
    if n.abs() == 1 && name.ends_with('s') && !name.ends_with("ss") {
        name[..name.len() - 1].to_string()
    } else {
        name
    }
}

/// One amount of a bundle gained (`gaining`) or paid.
fn amount(content: &Content, code: &str, n: i64, gaining: bool) -> String {
    match Code::of(code) {
        Some(Code::Charge) if gaining => format!("charge {n} power"),
        Some(Code::Charge) => format!("{n} power"),
        Some(Code::Tokens) if gaining => counted(n, ("power token", "power tokens")),
        Some(Code::Tokens) => format!("discard {}", counted(n, ("power token", "power tokens"))),
        Some(Code::GaiaTokens) => {
            counted(n, ("token from the Gaia area", "tokens from the Gaia area"))
        }
        Some(Code::Area3Tokens) => format!(
            "{} from area III to the Gaia area",
            counted(n, ("token", "tokens"))
        ),
        Some(Code::Gaiaformers) => counted(n, ("Gaiaformer", "Gaiaformers")),
        None => format!("{n} {}", resource_word(content, code, n)),
    }
}

/// A bundle in words: `1 knowledge, 1 ore`; `nothing` when empty.
pub fn bundle(content: &Content, b: &Bundle, gaining: bool) -> String {
    // Resources in the order `rules.yaml` lists them, then the power-cycle codes.
    let rank = |code: &str| {
        content
            .rules
            .resources
            .iter()
            .position(|r| r.id == code)
            .or_else(|| {
                Code::ALL
                    .iter()
                    .position(|p| p.text() == code)
                    .map(|i| 1000 + i)
            })
            .unwrap_or(usize::MAX)
    };
    let mut items: Vec<(&str, i32)> = b.iter().collect();
    items.sort_by_key(|(code, _)| rank(code));
    let parts: Vec<String> = items
        .into_iter()
        .map(|(code, n)| amount(content, code, i64::from(n), gaining))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

/// A building's name in lower case, by id (the id when the board has no such building).
fn building(content: &Content, id: &str) -> String {
    content
        .board
        .buildings
        .iter()
        .find(|b| b.id == id)
        .map_or_else(|| id.to_string(), |b| lower_first(&b.name))
}

/// A name with its first letter in lower case (`Academy (QIC)` → `academy (QIC)`).
fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn buildings(content: &Content, ids: &[String], joiner: &str) -> String {
    ids.iter()
        .map(|b| building(content, b))
        .collect::<Vec<_>>()
        .join(joiner)
}

fn planet(content: &Content, id: &str) -> String {
    content
        .planets
        .planets
        .iter()
        .find(|p| p.id == id)
        .map_or_else(|| id.to_string(), |p| p.name.clone())
}

fn track(content: &Content, id: &str) -> String {
    content
        .research
        .tracks
        .iter()
        .find(|t| t.id == id)
        .map_or_else(|| id.to_string(), |t| t.name.clone())
}

/// What is counted, in the singular (`mine`, `planet type`).
pub fn count(content: &Content, c: &Count) -> String {
    match c {
        Count::Buildings(ids) => buildings(content, ids, " or "),
        Count::GaiaPlanets => "Gaia planet".into(),
        Count::PlanetTypes => "planet type".into(),
        Count::Sectors => "sector".into(),
        Count::Federations => "federation token".into(),
        Count::Structures => "structure".into(),
        Count::StructuresInFederations => "structure in a federation".into(),
        Count::Satellites => "satellite".into(),
    }
}

/// One effect in words.
pub fn effect(content: &Content, e: &Effect) -> String {
    match e {
        Effect::Gain(b) => bundle(content, b, true),
        Effect::GainPer(g) => format!(
            "{} per {}",
            bundle(content, &g.gain, true),
            count(content, &g.per)
        ),
        Effect::Steps(n) => counted(i64::from(*n), ("terraforming step", "terraforming steps")),
        Effect::Range(n) => format!("+{n} range"),
        Effect::Research(ResearchChoice::Any) => "1 research step".into(),
        Effect::Research(ResearchChoice::Lowest) => "1 research step on a lowest track".into(),
        Effect::Research(ResearchChoice::Track(t)) => format!("1 step on {}", track(content, t)),
        Effect::TechTile => "a tech tile".into(),
        Effect::RescoreFederation => "a federation token's reward again".into(),
        Effect::FederationToken(id) => {
            let name = content
                .federation_tokens
                .tokens
                .iter()
                .find(|t| &t.id == id)
                .map_or_else(
                    || id.clone(),
                    |t| format!("{id} ({})", effects(content, &t.reward)),
                );
            format!("federation token {name}")
        }
        Effect::TrackToken => "the federation token on this track".into(),
        Effect::Place(p) => match &p.creates_planet {
            Some(pl) => format!(
                "place a {} on empty space, making a {} planet",
                building(content, &p.building),
                planet(content, pl)
            ),
            None => format!("place a {}", building(content, &p.building)),
        },
        Effect::Downgrade(d) => format!(
            "turn a {} into a {}",
            building(content, &d.from),
            building(content, &d.to)
        ),
        Effect::Swap(s) => format!(
            "swap your {} with a {}",
            building(content, &s.building),
            building(content, &s.with)
        ),
        Effect::Script(s) => format!("what {} of {} returns", s.function, s.script),
    }
}

/// A list of effects in words, joined by `, `.
pub fn effects(content: &Content, list: &[Effect]) -> String {
    if list.is_empty() {
        return "nothing".into();
    }
    list.iter()
        .map(|e| effect(content, e))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What an event is, for `… per <event>`.
fn event(content: &Content, t: &Trigger) -> String {
    let mut s = match &t.on {
        Event::Built(f) => {
            let mut s = if f.buildings.is_empty() {
                "building built".to_string()
            } else {
                format!("{} built", buildings(content, &f.buildings, " or "))
            };
            if let Some(p) = &f.planet {
                s.push_str(&format!(" on a {} planet", planet(content, p)));
            }
            if f.new_planet_type {
                s.push_str(" on a new planet type");
            }
            match f.shared {
                Some(true) => s.push_str(" on a planet another player colonized"),
                Some(false) => s.push_str(" on a planet no other player colonized"),
                None => {}
            }
            if let Some(d) = f.within {
                s.push_str(&format!(" within {d} of your buildings"));
            }
            s
        }
        Event::ResearchStep => "research step".into(),
        Event::TerraformStep => "terraforming step".into(),
        Event::FederationToken => "federation token gained".into(),
        Event::ChargeAccepted => "charge accepted".into(),
    };
    match t.by {
        Scope::Own => {}
        Scope::Others => s.push_str(" by another player"),
        Scope::Any => s.push_str(" by any player"),
    }
    s
}

/// One trigger in words: `3 VP per mine built on a Gaia planet`.
pub fn trigger(content: &Content, t: &Trigger) -> String {
    format!("{} per {}", effects(content, &t.effects), event(content, t))
}

/// One modifier in words.
pub fn modifier(content: &Content, m: &Modifier) -> String {
    match m {
        Modifier::OrePerStep(n) => format!(
            "terraforming costs {} per step",
            amount(
                content,
                &content.rules.terraform_resource,
                i64::from(*n),
                false
            )
        ),
        Modifier::NavRange(n) => format!("navigation range {n}"),
        Modifier::GaiaProjectTokens(n) => {
            format!(
                "a Gaia project takes {}",
                counted(i64::from(*n), ("token", "tokens"))
            )
        }
        Modifier::PowerValue(p) => format!(
            "{} have power value {}",
            buildings(content, &p.buildings, " and "),
            p.value
        ),
        Modifier::PowerValueOnPlanet(p) => format!(
            "+{} power value on {} planets",
            p.bonus,
            planet(content, &p.planet)
        ),
        Modifier::FederationThreshold(n) => format!("a federation needs power value {n}"),
        Modifier::SatelliteCost(b) => format!("a satellite costs {}", bundle(content, b, false)),
        Modifier::GaiaPlanetFee(b) => format!(
            "building on a Gaia planet costs {}",
            bundle(content, b, false)
        ),
        Modifier::Substitute(s) => format!(
            "{} gained as {}",
            resource_word(content, &s.from, 2),
            resource_word(content, &s.to, 2)
        ),
        Modifier::GaiaReturnArea(a) => format!("tokens leaving the Gaia area go to area {a}"),
        Modifier::BurnToGaia => "tokens burnt go to the Gaia area".into(),
        Modifier::Area3TokenValue(n) => format!("a token spent from area III is worth {n} power"),
        Modifier::LockTrack(t) => format!("may not advance on {}", track(content, t)),
        Modifier::ShareOccupiedPlanets => {
            "may build a mine on a planet another player colonized".into()
        }
        Modifier::SingleFederation => "one federation that grows".into(),
        Modifier::ChargeGainsTokens(n) => format!(
            "a charge taken also gains {}",
            counted(i64::from(*n), ("power token", "power tokens"))
        ),
        Modifier::CostHook(s) => format!("costs adjusted by {} of {}", s.function, s.script),
        Modifier::PlacementHook(s) => {
            format!("placements allowed by {} of {}", s.function, s.script)
        }
    }
}

/// One conversion in words: `4 power → 1 QIC`.
pub fn conversion(content: &Content, c: &Conversion) -> String {
    format!(
        "{} → {}",
        bundle(content, &c.pay, false),
        effects(content, &c.gain)
    )
}

/// A condition in words, for `while …`.
fn condition(content: &Content, c: &Condition) -> String {
    match c {
        Condition::Has(b) => format!("while you have a {}", building(content, b)),
        Condition::Lacks(b) => format!("while you have no {}", building(content, b)),
        Condition::Script(s) => format!("while {} of {} says so", s.function, s.script),
    }
}

/// Everything one thing grants, in words: each part prefixed by when it applies (`income:`,
/// `pass:`, `action:`, `at once:`, `convert`), parts joined by `; `. Empty when it grants
/// nothing.
pub fn grants(content: &Content, g: Grants<'_>, when: Option<&Condition>) -> String {
    let mut parts = Vec::new();
    if !g.immediate.is_empty() {
        parts.push(format!("at once: {}", effects(content, g.immediate)));
    }
    if !g.income.is_empty() {
        parts.push(format!("income: {}", effects(content, g.income)));
    }
    for t in g.triggers {
        parts.push(trigger(content, t));
    }
    if !g.pass.is_empty() {
        parts.push(format!("pass: {}", effects(content, g.pass)));
    }
    if let Some(a) = g.action {
        parts.push(format!("action: {}", effects(content, &a.effects)));
    }
    for c in g.conversions {
        parts.push(format!("convert {}", conversion(content, c)));
    }
    for m in g.modifiers {
        parts.push(modifier(content, m));
    }
    let text = parts.join("; ");
    match when {
        Some(c) if !text.is_empty() => format!("{}: {text}", condition(content, c)),
        _ => text,
    }
}

/// The description of a tile, booster, final scoring tile, federation token or board action
/// by id, from whichever list holds it.
pub fn by_id(content: &Content, id: &str) -> Option<String> {
    let tiles = content
        .tech_tiles
        .tiles
        .iter()
        .chain(&content.advanced_tiles.tiles)
        .chain(&content.boosters.boosters)
        .chain(&content.round_scoring.tiles);
    for t in tiles {
        if t.id == id {
            return Some(grants(content, t.grants(), None));
        }
    }
    if let Some(t) = content.final_scoring.tiles.iter().find(|t| t.id == id) {
        return Some(format!("most {}s", count(content, &t.count)));
    }
    if let Some(t) = content.federation_tokens.tokens.iter().find(|t| t.id == id) {
        return Some(effects(content, &t.reward));
    }
    if let Some(a) = content.board_actions.actions.iter().find(|a| a.id == id) {
        return Some(format!(
            "{} → {}",
            bundle(content, &a.cost, false),
            effects(content, &a.effects)
        ));
    }
    None
}

/// The description of an item as `explain` names it (kind and id), when it does something.
pub fn item(content: &Content, kind: &KindSpec, id: Option<&str>) -> Option<String> {
    match (kind.name, id) {
        ("faction", Some(id)) => {
            let f = content.faction(id)?;
            let parts: Vec<String> = f
                .abilities
                .iter()
                .map(|a| grants(content, a.grants(), a.when.as_ref()))
                .filter(|s| !s.is_empty())
                .collect();
            Some(parts.join("; "))
        }
        (
            "tech_tile" | "advanced_tile" | "booster" | "round_scoring" | "final_scoring"
            | "federation_token" | "board_action",
            Some(id),
        ) => by_id(content, id),
        _ => None,
    }
}

/// Words of a name that name a resource: the resource's code, its name in the singular or
/// the plural (`credit`, `credits`), and the power-cycle words.
fn code_of_word(content: &Content, word: &str) -> Option<String> {
    let w = word.to_lowercase();
    let power = [
        ("power", "pw"),
        ("pw", "pw"),
        ("token", "t"),
        ("tokens", "t"),
        ("gaiaformer", "gf"),
        ("gaiaformers", "gf"),
    ];
    if let Some((_, code)) = power.iter().find(|(n, _)| *n == w) {
        return Some(code.to_string());
    }
    content.rules.resources.iter().find_map(|r| {
        let name = r.name.to_lowercase();
        let first = name.split_whitespace().next().unwrap_or("").to_string();
        let singular = name.strip_suffix('s').unwrap_or(&name).to_string();
        (w == r.id
            || w == name
            || w == singular
            || (r.id == crate::player::VP && w == "vp")
            || (w == first && !first.is_empty() && name.split_whitespace().count() == 1))
            .then(|| r.id.clone())
    })
}

/// Every amount the effects of a thing give or pay, by code (gains, gains per count, paid
/// conversions and the bundles of modifiers).
fn amounts(g: Grants<'_>, out: &mut Vec<(String, i64)>) {
    fn of_effects(list: &[Effect], out: &mut Vec<(String, i64)>) {
        for e in list {
            let b = match e {
                Effect::Gain(b) => b,
                Effect::GainPer(g) => &g.gain,
                _ => continue,
            };
            out.extend(b.iter().map(|(c, n)| (c.to_string(), i64::from(n))));
        }
    }
    of_effects(g.immediate, out);
    of_effects(g.income, out);
    of_effects(g.pass, out);
    for t in g.triggers {
        of_effects(&t.effects, out);
    }
    if let Some(a) = g.action {
        of_effects(&a.effects, out);
    }
    for c in g.conversions {
        out.extend(c.pay.iter().map(|(c, n)| (c.to_string(), i64::from(n))));
        of_effects(&c.gain, out);
    }
}

/// Numbers a name states that its effects contradict: each `N <resource>` in the name (`1 ore`,
/// `2 power tokens`, `7 VP`) whose resource the effects never give or pay in that amount,
/// as messages. Words that name no resource (`3 range`, `1 terraforming step`) are not read.
pub fn stated_numbers(content: &Content, name: &str, g: Grants<'_>) -> Vec<String> {
    let mut have = Vec::new();
    amounts(g, &mut have);
    let words: Vec<&str> = name
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = Vec::new();
    for i in 1..words.len() {
        let Ok(n) = words[i - 1].parse::<i64>() else {
            continue;
        };
        // `2 power tokens`: the word after `power` decides.
        let word = match (words[i].to_lowercase().as_str(), words.get(i + 1)) {
            ("power", Some(next)) if next.to_lowercase().starts_with("token") => *next,
            _ => words[i],
        };
        let Some(code) = code_of_word(content, word) else {
            continue;
        };
        if !have.iter().any(|(c, m)| *c == code && *m == n) {
            let given: Vec<String> = have
                .iter()
                .filter(|(c, _)| *c == code)
                .map(|(_, m)| m.to_string())
                .collect();
            out.push(if given.is_empty() {
                format!("name says \"{n} {word}\" but its effects give no {word}")
            } else {
                format!(
                    "name says \"{n} {word}\" but its effects give {} {word}",
                    given.join(" or ")
                )
            });
        }
    }
    out
}

/// Every name in content stating a number its effects contradict, as `(kind, id, message)`:
/// tiles, boosters and round scoring tiles.
pub fn stale_names(content: &Content) -> Vec<(&'static KindSpec, String, String)> {
    let lists = [
        ("tech_tile", &content.tech_tiles.tiles),
        ("advanced_tile", &content.advanced_tiles.tiles),
        ("booster", &content.boosters.boosters),
        ("round_scoring", &content.round_scoring.tiles),
    ];
    let mut out = Vec::new();
    for (name, tiles) in lists {
        let Some(kind) = kind(name) else { continue };
        for t in tiles {
            for m in stated_numbers(content, &t.name, t.grants()) {
                out.push((kind, t.id.clone(), m));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{fixture, OverlaySource};

    fn content(overlay: Option<&str>) -> Content {
        let ov: Vec<OverlaySource> = overlay
            .map(|text| OverlaySource {
                file: "o.yaml".into(),
                text: text.into(),
                scripts: Vec::new(),
                problem: None,
            })
            .into_iter()
            .collect();
        Content::load(&fixture::files(), &ov).expect("valid")
    }

    #[test]
    fn descriptions_come_from_the_effects() {
        let c = content(None);
        assert_eq!(by_id(&c, "perk1").as_deref(), Some("income: 1 gold"));
        assert_eq!(
            by_id(&c, "widget1").as_deref(),
            Some("income: charge 1 power")
        );
        assert_eq!(by_id(&c, "star").as_deref(), Some("3 VP"));
        assert_eq!(
            by_id(&c, "dig").as_deref(),
            Some("2 power → 1 terraforming step")
        );
        assert_eq!(by_id(&c, "most").as_deref(), Some("most huts"));
        // An errata changes the description with the effects.
        let c = content(Some(
            "name: e\nchanges:\n  - set: {kind: booster, id: perk1, path: income, value: [gain: {gold: 2}]}\n",
        ));
        assert_eq!(by_id(&c, "perk1").as_deref(), Some("income: 2 gold"));
        let zorgs = item(&c, kind("faction").expect("a kind"), Some("zorgs")).expect("a faction");
        assert_eq!(zorgs, "while you have a hall: VP gained as gold");
    }

    #[test]
    fn triggers_say_whose_events_they_watch() {
        let c = content(Some(
            "name: w\nchanges:\n  - set: {kind: booster, id: spare2, path: triggers, value: [{\"on\": {built: {buildings: [hut], within: 2}}, by: others, effects: [gain: {vp: 1}]}]}\n",
        ));
        assert_eq!(
            by_id(&c, "spare2").as_deref(),
            Some("1 VP per hut built within 2 of your buildings by another player")
        );
    }

    #[test]
    fn names_stating_numbers_their_effects_contradict_are_found() {
        let c = content(None);
        assert!(stale_names(&c).is_empty(), "{:?}", stale_names(&c));
        let c = content(Some(
            "name: e\nchanges:\n  - set: {kind: booster, id: perk1, path: name, value: 'Income: 1 gold'}\n  - set: {kind: booster, id: perk1, path: income, value: [gain: {gold: 2}]}\n  - set: {kind: booster, id: spare1, path: name, value: '1 gold and 1 point'}\n",
        ));
        let found = stale_names(&c);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].1, "perk1");
        assert_eq!(
            found[0].2,
            "name says \"1 gold\" but its effects give 2 gold"
        );
        assert_eq!(found[1].1, "spare1");
        assert!(found[1].2.contains("give no gold"), "{found:?}");
    }
}
