//! Interpreting the effect language for one seat: gains, payments, counts, triggers.

use super::conversion_form::PayCode;
use super::{err, Game, MoveError};
use crate::content::{Bundle, Count, Effect, Event, Grants, Modifier, PlanetKind, ResearchChoice};
use crate::game::turn::Follow;
use crate::hex::Hex;
use crate::player::substitutions;
use crate::power::Area;

/// Something that happened, for triggers.
#[derive(Debug, Clone)]
pub(crate) enum Happened<'a> {
    /// A building was built.
    Built {
        building: &'a str,
        planet: &'a str,
        /// The space built on.
        idx: usize,
        new_type: bool,
        shared: bool,
    },
    /// A research level was advanced.
    ResearchStep,
    /// Terraforming steps were taken.
    TerraformStep,
    /// A federation token was gained.
    FederationToken,
    /// A neighbour's charge was accepted.
    ChargeAccepted,
}

impl Game {
    /// Everything active for a seat, tagged with the VP source it books to.
    pub(crate) fn sources(&self, seat: usize) -> Vec<(&'static str, Grants<'_>)> {
        self.state.players[seat].active_tagged(&self.content, self.faction(seat), self.board(seat))
    }

    /// Gains one code (negative: loses it), with substitutions for gains.
    pub(crate) fn gain_code(&mut self, seat: usize, code: &str, n: i32, source: &str) {
        if n == 0 {
            return;
        }
        let code = if n > 0 {
            let subs = substitutions(&self.modifiers(seat));
            subs.iter()
                .find(|(from, _)| from == code)
                .map(|(_, to)| to.clone())
                .unwrap_or_else(|| code.to_string())
        } else {
            code.to_string()
        };
        if code == "pw" && n > 0 {
            self.charge_power(seat, n as u32);
            return;
        }
        let content = self.content.clone();
        self.state.players[seat].add(&content, &code, n, source);
    }

    /// Gains a bundle.
    pub(crate) fn gain_bundle(&mut self, seat: usize, b: &Bundle, source: &str) {
        for (code, n) in b.iter() {
            self.gain_code(seat, code, n, source);
        }
    }

    /// The first value a modifier in force gives for a seat.
    pub(crate) fn modifier<T>(&self, seat: usize, f: impl Fn(&Modifier) -> Option<T>) -> Option<T> {
        let mut found = None;
        self.each_grant(seat, |g| {
            if found.is_none() {
                found = g.modifiers.iter().find_map(&f);
            }
        });
        found
    }

    /// Whether a modifier in force matches.
    pub(crate) fn has_modifier(&self, seat: usize, pred: impl Fn(&Modifier) -> bool) -> bool {
        self.modifier(seat, |m| pred(m).then_some(())).is_some()
    }

    /// The power one area-III token is worth for this seat.
    pub(crate) fn token_value(&self, seat: usize) -> u32 {
        self.modifier(seat, |m| match m {
            Modifier::Area3TokenValue(v) => Some(*v),
            _ => None,
        })
        .unwrap_or(1)
    }

    /// Whether burnt tokens go to the Gaia area.
    pub(crate) fn burn_to_gaia(&self, seat: usize) -> bool {
        self.has_modifier(seat, |m| matches!(m, Modifier::BurnToGaia))
    }

    /// Gaiaformers a seat could place or convert now.
    pub(crate) fn free_gaiaformers(&self, seat: usize) -> u32 {
        let p = &self.state.players[seat];
        let on_map = self
            .state
            .gaiaformers
            .iter()
            .filter(|g| g.seat == seat)
            .count() as u32;
        p.gaiaformers.saturating_sub(on_map + p.gaiaformers_in_gaia)
    }

    /// Whether a seat could pay a bundle now, given its area-III token value: exactly what
    /// [`Game::pay`] accepts, checked without changing anything.
    pub(crate) fn can_pay_with(&self, seat: usize, cost: &Bundle, token_value: u32) -> bool {
        self.can_pay_items(seat, cost.iter(), token_value)
    }

    /// [`Game::can_pay_with`] for amounts by code, without a bundle.
    pub(crate) fn can_pay_items<'a>(
        &self,
        seat: usize,
        cost: impl IntoIterator<Item = (&'a str, i32)>,
        token_value: u32,
    ) -> bool {
        self.can_pay_items_from(seat, self.state.players[seat].power, &[], cost, token_value)
    }

    /// [`Game::can_pay_items`] paying power from the given tokens, with plain resources in
    /// `spent` taken as already spent.
    pub(crate) fn can_pay_items_from<'a>(
        &self,
        seat: usize,
        power: crate::power::Power,
        spent: &[(crate::notation::Word, i32)],
        cost: impl IntoIterator<Item = (&'a str, i32)>,
        token_value: u32,
    ) -> bool {
        let content = &self.content;
        let coded = cost
            .into_iter()
            .map(|(code, n)| (PayCode::of(content, code), n));
        self.can_pay_coded(seat, power, spent, coded, token_value)
    }

    /// [`Game::can_pay_items_from`] with the codes resolved.
    pub(crate) fn can_pay_coded(
        &self,
        seat: usize,
        mut power: crate::power::Power,
        spent: &[(crate::notation::Word, i32)],
        cost: impl IntoIterator<Item = (PayCode, i32)>,
        token_value: u32,
    ) -> bool {
        let p = &self.state.players[seat];
        for (code, n) in cost {
            if n < 0 {
                return false;
            }
            let n = n as u32;
            let ok = match code {
                PayCode::Power => {
                    let special = power.special_in(Area::III);
                    power.spend(n, token_value, special).is_ok()
                }
                PayCode::Tokens => {
                    let normal: u32 = power.areas[..3].iter().sum();
                    let mut with = power;
                    let mut without = power;
                    match power.special_area().filter(|a| *a != Area::Gaia) {
                        None => power.remove_tokens(n, false).is_ok(),
                        Some(_) => {
                            with.remove_with_special(n, false, true).is_ok()
                                || (n <= normal
                                    && without.remove_with_special(n, false, false).is_ok())
                        }
                    }
                }
                PayCode::GaiaTokens => power.areas[Area::Gaia.index()] >= n,
                PayCode::Area3Tokens => power.areas[Area::III.index()] >= n,
                PayCode::Gaiaformers => self.free_gaiaformers(seat) >= n,
                PayCode::Resource(i) => {
                    let code = self.content.rules.resources[i].id.as_str();
                    let less: i32 = spent
                        .iter()
                        .filter(|(c, _)| c == code)
                        .map(|(_, m)| m)
                        .sum();
                    p.resources[i] - less >= n as i32
                }
                PayCode::Unknown => n == 0,
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// Pays a bundle, or fails without changing anything.
    /// Pays a bundle. A failure leaves partial changes; callers are inside a line, which is
    /// undone as a whole on error.
    pub(crate) fn pay(&mut self, seat: usize, cost: &Bundle) -> Result<(), MoveError> {
        let value = self.token_value(seat);
        let area = self.return_area(seat);
        let free_gf = self.free_gaiaformers(seat);
        let content = self.content.clone();
        // Resources first, so the power parts (which may ask about a special token) come last.
        let mut parts: Vec<(&str, i32)> = cost.iter().collect();
        parts.sort_by_key(|(c, _)| matches!(*c, "pw" | "t"));
        for (code, n) in parts {
            if n < 0 {
                return err(format!("negative cost {n}{code}"));
            }
            let n = n as u32;
            let p = &mut self.state.players[seat];
            match code {
                "pw" => self.spend_power(seat, n, value)?,
                "t" => self.move_tokens(seat, n, false)?,
                "tg" => {
                    let have = p.power.areas[Area::Gaia.index()];
                    if have < n {
                        return err(format!(
                            "not enough tokens in the Gaia area: need {n}, have {have}"
                        ));
                    }
                    p.power.areas[Area::Gaia.index()] -= n;
                    // Tokens paid from the Gaia area follow a faction's own return area.
                    if area != Area::I {
                        p.power.areas[area.index()] += n;
                    }
                }
                "t-a3" => {
                    let have = p.power.areas[Area::III.index()];
                    if have < n {
                        return err(format!(
                            "not enough tokens in area III: need {n}, have {have}"
                        ));
                    }
                    p.power.areas[Area::III.index()] -= n;
                    p.power.areas[Area::Gaia.index()] += n;
                }
                "gf" => {
                    if free_gf < n {
                        return err(format!("not enough Gaiaformers: need {n}, have {free_gf}"));
                    }
                    p.gaiaformers_in_gaia += n;
                }
                _ => {
                    let have = p.resource(&content, code);
                    if have < n as i32 {
                        return err(format!("not enough {code}: need {n}, have {have}"));
                    }
                    p.add(&content, code, -(n as i32), "spent");
                }
            }
        }
        Ok(())
    }

    /// Applies one effect; follow-up choices are queued on the turn.
    pub(crate) fn apply_effect(
        &mut self,
        seat: usize,
        e: &Effect,
        source: &str,
    ) -> Result<(), MoveError> {
        match e {
            Effect::Gain(b) => self.gain_bundle(seat, b, source),
            Effect::GainPer(g) => {
                let n = self.count(seat, &g.per) as i32;
                for (code, k) in g.gain.iter() {
                    self.gain_code(seat, code, k * n, source);
                }
            }
            Effect::Steps(n) => {
                self.state.turn.steps += n;
                self.state.turn.follows.push(Follow::Build {
                    gaia_project: false,
                });
            }
            Effect::Range(n) => {
                self.state.turn.range += n;
                self.state
                    .turn
                    .follows
                    .push(Follow::Build { gaia_project: true });
            }
            Effect::Research(choice) => self.state.turn.follows.push(Follow::Up(choice.clone())),
            Effect::TechTile => self.state.turn.follows.push(Follow::Tech),
            Effect::RescoreFederation => self.state.turn.follows.push(Follow::FedTile),
            Effect::FederationToken(id) => self.gain_token(seat, id, source)?,
            Effect::TrackToken => {
                if let Some(id) = self.state.track_token.take() {
                    self.gain_token(seat, &id, source)?;
                }
            }
            Effect::Place(p) => self.state.turn.follows.push(Follow::Place(p.clone())),
            Effect::Downgrade(d) => self.state.turn.follows.push(Follow::Downgrade(d.clone())),
            Effect::Swap(s) => self.state.turn.follows.push(Follow::Swap(s.clone())),
            Effect::Script(s) => self.run_effect_hook(seat, s, source)?,
        }
        Ok(())
    }

    /// Applies a list of effects.
    pub(crate) fn apply_effects(
        &mut self,
        seat: usize,
        effects: &[Effect],
        source: &str,
    ) -> Result<(), MoveError> {
        for e in effects {
            self.apply_effect(seat, e, source)?;
        }
        Ok(())
    }

    /// Gains a federation token (its reward, then the token event).
    pub(crate) fn gain_token(
        &mut self,
        seat: usize,
        id: &str,
        source: &str,
    ) -> Result<(), MoveError> {
        let token = self
            .content
            .federation_tokens
            .tokens
            .iter()
            .find(|t| t.id == id)
            .cloned()
            .ok_or_else(|| MoveError(format!("unknown federation token {id}")))?;
        self.state.players[seat]
            .tokens
            .push(crate::player::OwnedToken {
                id: id.into(),
                green: token.green,
            });
        self.apply_effects(seat, &token.reward, source)?;
        self.fire(seat, &Happened::FederationToken)
    }

    /// Fires the triggers of a seat (and of the current round's scoring tile). A trigger that
    /// fails (a hook) refuses the move.
    pub(crate) fn fire(&mut self, seat: usize, what: &Happened<'_>) -> Result<(), MoveError> {
        let mut due: Vec<(&'static str, Vec<Effect>)> = Vec::new();
        let matches = |ev: &Event| -> bool {
            match (ev, what) {
                (
                    Event::Built(f),
                    Happened::Built {
                        building,
                        planet,
                        new_type,
                        shared,
                        ..
                    },
                ) => {
                    f.buildings.iter().any(|b| b == building)
                        && f.planet.as_deref().is_none_or(|p| p == *planet && !*shared)
                        && (!f.new_planet_type || *new_type)
                        && f.shared.is_none_or(|s| s == *shared)
                }
                (Event::ResearchStep, Happened::ResearchStep)
                | (Event::TerraformStep, Happened::TerraformStep)
                | (Event::FederationToken, Happened::FederationToken)
                | (Event::ChargeAccepted, Happened::ChargeAccepted) => true,
                _ => false,
            }
        };
        for (src, g) in self.sources(seat) {
            for t in g.triggers {
                if matches(&t.on) {
                    due.push((src, t.effects.clone()));
                }
            }
        }
        let round = self.state.round as usize;
        if let Some(tile_id) = round
            .checked_sub(1)
            .and_then(|r| self.state.setup.round_scoring.get(r))
        {
            if let Some(tile) = self
                .content
                .round_scoring
                .tiles
                .iter()
                .find(|t| &t.id == tile_id)
            {
                for t in &tile.triggers {
                    if matches(&t.on) {
                        due.push(("round scoring", t.effects.clone()));
                    }
                }
            }
        }
        if due.is_empty() {
            return Ok(());
        }
        let hooked = due
            .iter()
            .any(|(_, effects)| effects.iter().any(|e| matches!(e, Effect::Script(_))));
        let event = hooked.then(|| self.event_value(what));
        let saved = std::mem::replace(&mut self.event, event);
        let mut result = Ok(());
        for (src, effects) in due {
            result = self.apply_effects(seat, &effects, src);
            if result.is_err() {
                break;
            }
        }
        self.event = saved;
        result
    }

    /// Space indices holding a seat's structures (not Gaiaformers), with the structure.
    pub(crate) fn own_structures(&self, seat: usize) -> Vec<(usize, &super::Structure)> {
        self.state
            .structures
            .iter()
            .flat_map(|(i, l)| {
                l.iter()
                    .filter(move |s| s.seat == seat)
                    .map(move |s| (*i, s))
            })
            .collect()
    }

    pub(crate) fn is_station(&self, seat: usize, building: &str) -> bool {
        self.board(seat)
            .building(building)
            .is_some_and(|b| b.role == crate::content::BuildingRole::Station)
    }

    pub(crate) fn planet_kind(&self, idx: usize) -> PlanetKind {
        self.content.planets.planets[usize::from(self.state.planets[idx])].kind
    }

    pub(crate) fn planet_id(&self, idx: usize) -> &str {
        &self.content.planets.planets[usize::from(self.state.planets[idx])].id
    }

    /// Counts something for a seat.
    pub(crate) fn count(&self, seat: usize, c: &Count) -> u32 {
        let own = self.own_structures(seat);
        let colonies = || {
            own.iter()
                .filter(|(_, s)| !self.is_station(seat, &s.building))
                .collect::<Vec<_>>()
        };
        match c {
            Count::Buildings(ids) => own
                .iter()
                .filter(|(_, s)| ids.iter().any(|i| *i == s.building))
                .count() as u32,
            Count::GaiaPlanets => colonies()
                .iter()
                .filter(|(i, s)| !s.shared && self.planet_kind(*i) == PlanetKind::Gaia)
                .count() as u32,
            Count::PlanetTypes => {
                let mut types: Vec<&str> = colonies()
                    .iter()
                    .filter(|(_, s)| !s.shared)
                    .map(|(i, _)| self.planet_id(*i))
                    .collect();
                types.sort_unstable();
                types.dedup();
                types.len() as u32
            }
            Count::Sectors => {
                let mut sectors: Vec<u8> = colonies()
                    .iter()
                    .map(|(i, _)| self.state.map.spaces[*i].sector)
                    .collect();
                sectors.sort_unstable();
                sectors.dedup();
                sectors.len() as u32
            }
            Count::Federations => self.state.players[seat].tokens.len() as u32,
            Count::Structures => colonies().len() as u32,
            Count::StructuresInFederations => {
                let feds: Vec<Hex> = self.state.players[seat]
                    .federations
                    .iter()
                    .flatten()
                    .copied()
                    .collect();
                colonies()
                    .iter()
                    .filter(|(i, _)| feds.contains(&self.state.map.spaces[*i].hex))
                    .count() as u32
            }
            Count::Satellites => {
                self.state.players[seat].satellites.len() as u32
                    + own
                        .iter()
                        .filter(|(_, s)| self.is_station(seat, &s.building))
                        .count() as u32
            }
        }
    }

    /// The power value of a seat's building on a space.
    pub(crate) fn power_value(&self, seat: usize, idx: usize, building: &str) -> u32 {
        self.power_value_with(seat, idx, building, &self.modifiers(seat))
    }

    /// [`Game::power_value`] with the modifiers in force given.
    pub(crate) fn power_value_with(
        &self,
        seat: usize,
        idx: usize,
        building: &str,
        mods: &[&Modifier],
    ) -> u32 {
        let mut v = self
            .board(seat)
            .building(building)
            .map_or(0, |b| b.power_value);
        let planet = self.planet_id(idx);
        // Values set for a building first, then bonuses on top.
        for m in mods {
            if let Modifier::PowerValue(pv) = m {
                if pv.buildings.iter().any(|b| b == building) {
                    v = v.max(pv.value);
                }
            }
        }
        for m in mods {
            if let Modifier::PowerValueOnPlanet(p) = m {
                if p.planet == planet {
                    v += p.bonus;
                }
            }
        }
        v
    }

    /// Research choice check.
    pub(crate) fn research_allowed(
        &self,
        seat: usize,
        choice: &ResearchChoice,
        track: &str,
    ) -> bool {
        match choice {
            ResearchChoice::Any => true,
            ResearchChoice::Track(t) => t == track,
            ResearchChoice::Lowest => {
                let p = &self.state.players[seat];
                let min = p.research.values().copied().min().unwrap_or(0);
                p.research.get(track).copied() == Some(min)
            }
        }
    }
}
