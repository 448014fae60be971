//! Cross-reference checks: every id content names must exist.

use super::effect::{
    Bundle, Condition, Conversion, Count, Effect, Event, Grants, Modifier, ResearchChoice,
    ScriptRef, Trigger,
};

/// The kinds of ids content can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefKind {
    /// A resource or power-cycle code in a bundle.
    Code,
    /// A building id.
    Building,
    /// A research track id.
    Track,
    /// A planet type id.
    Planet,
    /// A federation token id.
    FederationToken,
    /// A script file.
    Script,
}

impl RefKind {
    /// How the kind is named in messages.
    pub fn noun(self) -> &'static str {
        match self {
            RefKind::Code => "resource code",
            RefKind::Building => "building",
            RefKind::Track => "research track",
            RefKind::Planet => "planet type",
            RefKind::FederationToken => "federation token",
            RefKind::Script => "script",
        }
    }
}

/// One reference found in content: what it names and where (a JSON pointer in its document).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ref {
    /// Kind of id.
    pub kind: RefKind,
    /// The id.
    pub id: String,
    /// For script references: the function name.
    pub function: Option<String>,
    /// JSON pointer of the value that names it.
    pub pointer: String,
}

/// Collects references with their JSON pointers.
#[derive(Debug, Default)]
pub struct Refs {
    /// Everything collected.
    pub found: Vec<Ref>,
    /// Problems found on the way, as (JSON pointer, message): effects a trigger watching
    /// other seats, an income or a pass cannot pay automatically.
    pub problems: Vec<(String, String)>,
}

impl Refs {
    /// Records one reference.
    pub fn add(&mut self, kind: RefKind, id: &str, pointer: String) {
        self.found.push(Ref {
            kind,
            id: id.to_string(),
            function: None,
            pointer,
        });
    }

    /// Records every code of a bundle (pointing at each key).
    pub fn bundle(&mut self, b: &Bundle, at: &str) {
        for code in b.0.keys() {
            self.add(
                RefKind::Code,
                code,
                format!("{at}/{}", code.replace('~', "~0").replace('/', "~1")),
            );
        }
    }

    /// Records the references of a list of effects.
    pub fn effects(&mut self, effects: &[Effect], at: &str) {
        for (i, e) in effects.iter().enumerate() {
            self.effect(e, &format!("{at}/{i}"));
        }
    }

    /// Records the references of income effects, and a problem for each effect income
    /// cannot pay ([`Effect::pays_without_choice`]).
    pub fn income(&mut self, effects: &[Effect], at: &str) {
        self.without_choice(effects, at, "income");
    }

    /// Records the references of effects paid where nothing can follow them (`what`: income,
    /// a pass), and a problem for each effect that would need a choice.
    fn without_choice(&mut self, effects: &[Effect], at: &str, what: &str) {
        self.effects(effects, at);
        for (i, e) in effects.iter().enumerate() {
            if let Err(why) = e.pays_without_choice(what) {
                self.problems.push((format!("{at}/{i}"), why));
            }
        }
    }

    /// Records the references of one effect.
    pub fn effect(&mut self, e: &Effect, at: &str) {
        match e {
            Effect::Gain(b) => self.bundle(b, &format!("{at}/gain")),
            Effect::GainPer(g) => {
                self.count(&g.per, &format!("{at}/gain_per/per"));
                self.bundle(&g.gain, &format!("{at}/gain_per/gain"));
            }
            Effect::Research(ResearchChoice::Track(t)) => {
                self.add(RefKind::Track, t, format!("{at}/research/track"))
            }
            Effect::FederationToken(t) => self.add(
                RefKind::FederationToken,
                t,
                format!("{at}/federation_token"),
            ),
            Effect::Place(p) => {
                self.add(
                    RefKind::Building,
                    &p.building,
                    format!("{at}/place/building"),
                );
                if let Some(pl) = &p.creates_planet {
                    self.add(RefKind::Planet, pl, format!("{at}/place/creates_planet"));
                }
            }
            Effect::Downgrade(d) => {
                self.add(RefKind::Building, &d.from, format!("{at}/downgrade/from"));
                self.add(RefKind::Building, &d.to, format!("{at}/downgrade/to"));
            }
            Effect::Swap(s) => {
                self.add(
                    RefKind::Building,
                    &s.building,
                    format!("{at}/swap/building"),
                );
                self.add(RefKind::Building, &s.with, format!("{at}/swap/with"));
            }
            Effect::Script(s) => self.script(s, &format!("{at}/script")),
            Effect::Steps(_)
            | Effect::Range(_)
            | Effect::Research(_)
            | Effect::TechTile
            | Effect::RescoreFederation
            | Effect::TrackToken => {}
        }
    }

    /// Records the references of a count.
    pub fn count(&mut self, c: &Count, at: &str) {
        if let Count::Buildings(ids) = c {
            for (i, id) in ids.iter().enumerate() {
                self.add(RefKind::Building, id, format!("{at}/buildings/{i}"));
            }
        }
    }

    fn trigger(&mut self, t: &Trigger, at: &str) {
        if let Event::Built(f) = &t.on {
            for (i, id) in f.buildings.iter().enumerate() {
                self.add(
                    RefKind::Building,
                    id,
                    format!("{at}/on/built/buildings/{i}"),
                );
            }
            if let Some(p) = &f.planet {
                self.add(RefKind::Planet, p, format!("{at}/on/built/planet"));
            }
        }
        self.effects(&t.effects, &format!("{at}/effects"));
        if t.by != super::effect::Scope::Own {
            for (i, e) in t.effects.iter().enumerate() {
                if let Err(why) = e.pays_watcher() {
                    self.problems.push((format!("{at}/effects/{i}"), why));
                }
            }
        }
    }

    /// Records a script function a hook names (`at`: the hook's pointer).
    fn script(&mut self, s: &ScriptRef, at: &str) {
        self.found.push(Ref {
            kind: RefKind::Script,
            id: s.script.clone(),
            function: Some(s.function.clone()),
            pointer: format!("{at}/function"),
        });
    }

    fn conversion(&mut self, c: &Conversion, at: &str) {
        self.bundle(&c.pay, &format!("{at}/pay"));
        self.effects(&c.gain, &format!("{at}/gain"));
    }

    fn modifier(&mut self, m: &Modifier, at: &str) {
        match m {
            Modifier::PowerValue(p) => {
                for (i, id) in p.buildings.iter().enumerate() {
                    self.add(
                        RefKind::Building,
                        id,
                        format!("{at}/power_value/buildings/{i}"),
                    );
                }
            }
            Modifier::PowerValueOnPlanet(p) => self.add(
                RefKind::Planet,
                &p.planet,
                format!("{at}/power_value_on_planet/planet"),
            ),
            Modifier::SatelliteCost(b) => self.bundle(b, &format!("{at}/satellite_cost")),
            Modifier::GaiaPlanetFee(b) => self.bundle(b, &format!("{at}/gaia_planet_fee")),
            Modifier::Substitute(s) => {
                self.add(RefKind::Code, &s.from, format!("{at}/substitute/from"));
                self.add(RefKind::Code, &s.to, format!("{at}/substitute/to"));
            }
            Modifier::LockTrack(t) => self.add(RefKind::Track, t, format!("{at}/lock_track")),
            Modifier::CostHook(s) => self.script(s, &format!("{at}/cost_hook")),
            Modifier::PlacementHook(s) => self.script(s, &format!("{at}/placement_hook")),
            _ => {}
        }
    }

    /// Records the references of everything a granting thing grants, and of its condition.
    pub fn grants(&mut self, g: Grants<'_>, when: Option<&Condition>, at: &str) {
        if let Some(Condition::Has(b) | Condition::Lacks(b)) = when {
            let key = if matches!(when, Some(Condition::Has(_))) {
                "has"
            } else {
                "lacks"
            };
            self.add(RefKind::Building, b, format!("{at}/when/{key}"));
        }
        if let Some(Condition::Script(s)) = when {
            self.script(s, &format!("{at}/when/script"));
        }
        self.effects(g.immediate, &format!("{at}/immediate"));
        self.income(g.income, &format!("{at}/income"));
        for (i, t) in g.triggers.iter().enumerate() {
            self.trigger(t, &format!("{at}/triggers/{i}"));
        }
        self.without_choice(g.pass, &format!("{at}/pass"), "a pass");
        if let Some(a) = g.action {
            self.effects(&a.effects, &format!("{at}/action/effects"));
        }
        for (i, c) in g.conversions.iter().enumerate() {
            self.conversion(c, &format!("{at}/conversions/{i}"));
        }
        for (i, m) in g.modifiers.iter().enumerate() {
            self.modifier(m, &format!("{at}/modifiers/{i}"));
        }
    }

    /// Records the references of free-action conversions.
    pub fn conversions(&mut self, cs: &[Conversion], at: &str) {
        for (i, c) in cs.iter().enumerate() {
            self.conversion(c, &format!("{at}/{i}"));
        }
    }
}
