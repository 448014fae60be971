//! Interpreting the effect language for one seat: gains, payments, counts, triggers.

use super::conversion_form::PayCode;
use super::follow::Follow;
use super::handles::Handles;
use super::happened::{event_matches, Happened};
use super::{err, Game, MoveError};
use crate::content::{Bundle, Count, Effect, Event, Modifier, PlanetKind, ResearchChoice};
use crate::lookup::by_id;
use crate::power::{Area, Code};
use smallvec::SmallVec;

/// The bit of what happened among the kinds of event triggers react to
/// ([`super::MayHave::event_bit`]).
fn happened_bit(what: &Happened<'_>) -> u8 {
    use super::MayHave;
    match what {
        Happened::Built { .. } => MayHave::BUILT,
        Happened::ResearchStep { .. } => MayHave::RESEARCH_STEP,
        Happened::TerraformStep { .. } => MayHave::TERRAFORM_STEP,
        Happened::FederationToken { .. } => MayHave::FEDERATION_TOKEN,
        Happened::ChargeAccepted { .. } => MayHave::CHARGE_ACCEPTED,
    }
}

/// The effects of the triggers an event reaches, each with the VP source it books to.
type Due<'a> = SmallVec<[(&'static str, &'a [Effect]); 4]>;

impl Game {
    /// Gains one code (negative: loses it), with substitutions for gains.
    pub(crate) fn gain_code(&mut self, seat: usize, code: &str, n: i32, source: &str) {
        if n == 0 {
            return;
        }
        // A gain goes to what the first `substitute` modifier in force names instead (read
        // in place: no list of modifiers is built for each gain).
        let mut substitute: Option<crate::notation::Word> = None;
        if n > 0 && self.may_have(seat).substitute {
            self.each_grant(seat, |g| {
                if substitute.is_none() {
                    substitute = g.modifiers.iter().find_map(|m| match m {
                        Modifier::Substitute(s) if s.from == code => Some(s.to.as_str().into()),
                        _ => None,
                    });
                }
            });
        }
        let code = substitute.as_deref().unwrap_or(code);
        if code == "pw" && n > 0 {
            self.charge_power(seat, n as u32);
            return;
        }
        let Game { content, state, .. } = self;
        state.players[seat].add(content, code, n, source);
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
        if !self.may_have(seat).area3_token_value {
            return 1;
        }
        self.modifier(seat, |m| match m {
            Modifier::Area3TokenValue(v) => Some(*v),
            _ => None,
        })
        .unwrap_or(1)
    }

    /// Whether an accepted charge brings the seat power tokens (a `charge_gains_tokens`
    /// modifier in force).
    pub(crate) fn charge_gains_tokens(&self, seat: usize) -> bool {
        self.may_have(seat).charge_gains_tokens
            && self.has_modifier(seat, |m| matches!(m, Modifier::ChargeGainsTokens(_)))
    }

    /// Whether burnt tokens go to the Gaia area.
    pub(crate) fn burn_to_gaia(&self, seat: usize) -> bool {
        self.may_have(seat).burn_to_gaia
            && self.has_modifier(seat, |m| matches!(m, Modifier::BurnToGaia))
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
                // Without a special token in play, later codes see the tokens gone.
                PayCode::Tokens => match power.special_area().filter(|a| *a != Area::Gaia) {
                    None => power.remove_tokens(n, false).is_ok(),
                    Some(_) => power.can_remove(n),
                },
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

    /// Pays a bundle. A failure leaves partial changes; callers are inside a line, which is
    /// undone as a whole on error.
    pub(crate) fn pay(&mut self, seat: usize, cost: &Bundle) -> Result<(), MoveError> {
        self.pay_amounts(seat, cost.iter().collect())
    }

    /// [`Game::pay`] of a bundle's amounts, in the bundle's order (by code).
    pub(crate) fn pay_amounts(
        &mut self,
        seat: usize,
        mut parts: SmallVec<[(&str, i32); 8]>,
    ) -> Result<(), MoveError> {
        // What a code's payment reads (the token value, the return area, free Gaiaformers)
        // is worked out only for a code that reads it; paying other codes changes none of it.
        let content = self.content.clone();
        // Resources first, so the power parts (which may ask about a special token) come last.
        parts.sort_by_key(|(c, _)| matches!(Code::of(c), Some(Code::Charge | Code::Tokens)));
        for (code, n) in parts {
            if n < 0 {
                return err(format!("negative cost {n}{code}"));
            }
            let n = n as u32;
            match Code::of(code) {
                Some(Code::Charge) => {
                    let value = self.token_value(seat);
                    self.spend_power(seat, n, value)?
                }
                Some(Code::Tokens) => self.move_tokens(seat, n, false)?,
                Some(Code::GaiaTokens) => {
                    let area = self.return_area(seat);
                    let p = &mut self.state.players[seat];
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
                Some(Code::Area3Tokens) => {
                    let p = &mut self.state.players[seat];
                    let have = p.power.areas[Area::III.index()];
                    if have < n {
                        return err(format!(
                            "not enough tokens in area III: need {n}, have {have}"
                        ));
                    }
                    p.power.areas[Area::III.index()] -= n;
                    p.power.areas[Area::Gaia.index()] += n;
                }
                Some(Code::Gaiaformers) => {
                    let free_gf = self.free_gaiaformers(seat);
                    if free_gf < n {
                        return err(format!("not enough Gaiaformers: need {n}, have {free_gf}"));
                    }
                    self.state.players[seat].gaiaformers_in_gaia += n;
                }
                None => {
                    let p = &mut self.state.players[seat];
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
                self.owe_build(false);
            }
            Effect::Range(n) => {
                self.state.turn.range += n;
                self.owe_build(true);
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
            Effect::Place(_) | Effect::Downgrade(_) | Effect::Swap(_) => {
                self.state.turn.follows.extend(Follow::of(e));
            }
            Effect::Script(s) => self.run_effect_hook(seat, s, source)?,
        }
        Ok(())
    }

    /// Owes the placement that granted terraforming steps or range are for. Steps and range
    /// are for the turn's next placement, so grants within one decision add up to one owed
    /// build (which may be a Gaia project once range was granted), never one build per grant.
    fn owe_build(&mut self, gaia_project: bool) {
        let follows = &mut self.state.turn.follows;
        match follows.iter_mut().find_map(|f| match f {
            Follow::Build { gaia_project } => Some(gaia_project),
            _ => None,
        }) {
            Some(owed) => *owed |= gaia_project,
            None => follows.push(Follow::Build { gaia_project }),
        }
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
        // Content is shared: the token (and its reward) is read in place, not copied.
        let content = self.content.clone();
        let token = by_id(&content.federation_tokens.tokens, id)
            .ok_or_else(|| MoveError(format!("unknown federation token {id}")))?;
        self.state.players[seat]
            .tokens
            .push(crate::player::OwnedToken {
                id: id.into(),
                green: token.green,
            });
        self.apply_effects(seat, &token.reward, source)?;
        self.fire(seat, &Happened::FederationToken { id })
    }

    /// Fires the triggers an event reaches: the acting seat's own (and the current round's
    /// scoring tile's), then, when content has triggers that watch other seats, those of every
    /// other seat in seat order after the actor. A watcher's trigger pays it automatically
    /// (gains only, checked at load and on what a hook returns). A trigger that fails (a
    /// hook) refuses the move.
    pub(crate) fn fire(&mut self, actor: usize, what: &Happened<'_>) -> Result<(), MoveError> {
        let n = self.state.players.len();
        let watchers = if self.watching { n } else { 1 };
        let mut event = None;
        for k in 0..watchers {
            let watcher = (actor + k) % n;
            // The due effects are applied from handles held here, not copied out of them.
            let h = self.handles();
            let due = self.due_triggers(&h, watcher, actor, what);
            if due.is_empty() {
                continue;
            }
            let hooked = due
                .iter()
                .any(|(_, effects)| effects.iter().any(|e| matches!(e, Effect::Script(_))));
            if hooked && event.is_none() {
                event = Some(self.event_value(actor, what));
            }
            let saved = std::mem::replace(&mut self.event, event.clone().filter(|_| hooked));
            let mut result = Ok(());
            for (src, effects) in due {
                result = if watcher == actor {
                    self.apply_effects(watcher, effects, src)
                } else {
                    self.apply_watcher_effects(watcher, effects, src)
                };
                if result.is_err() {
                    break;
                }
            }
            self.event = saved;
            result?;
        }
        Ok(())
    }

    /// The triggers of `watcher` (and of the round's scoring tile) that an event by `actor`
    /// reaches, with the VP source each books to; read through handles on the game's content
    /// and seats, walked in place.
    pub(super) fn due_triggers<'a>(
        &self,
        h: &'a Handles,
        watcher: usize,
        actor: usize,
        what: &Happened<'_>,
    ) -> Due<'a> {
        let mut due = Due::new();
        let reaches = |t: &crate::content::Trigger| {
            t.by.reaches(watcher, actor)
                && event_matches(&t.on, what)
                && self.within_matches(&t.on, watcher, actor, what)
        };
        // A seat none of whose possible grants has a trigger on this kind of event is not
        // walked.
        if self.may_have(watcher).may_trigger(happened_bit(what)) {
            h.each_tagged(self, watcher, |src, g| {
                for t in g.triggers {
                    if reaches(t) {
                        due.push((src, &t.effects[..]));
                    }
                }
            });
        }
        let round = self.state.round as usize;
        if let Some(tile_id) = round
            .checked_sub(1)
            .and_then(|r| self.state.setup.round_scoring.get(r))
        {
            if let Some(tile) = by_id(&h.content().round_scoring.tiles, tile_id) {
                for t in &tile.triggers {
                    if reaches(t) {
                        due.push(("round scoring", &t.effects[..]));
                    }
                }
            }
        }
        due
    }

    /// A `built` filter's `within`: the event's space lies within that distance of one of
    /// the watcher's buildings (not counting the one the watcher itself just built).
    fn within_matches(&self, ev: &Event, watcher: usize, actor: usize, what: &Happened) -> bool {
        let Event::Built(f) = ev else { return true };
        let Some(d) = f.within else { return true };
        let Some(idx) = what.space() else {
            return false;
        };
        let hex = self.state.map.spaces[idx].hex;
        self.own_structures(watcher).iter().any(|(i, _)| {
            !(watcher == actor && *i == idx) && self.state.map.spaces[*i].hex.distance(hex) <= d
        })
    }

    /// Applies a watcher's trigger effects: gains, and effect hooks that return gains.
    fn apply_watcher_effects(
        &mut self,
        watcher: usize,
        effects: &[Effect],
        source: &str,
    ) -> Result<(), MoveError> {
        for e in effects {
            match e {
                Effect::Gain(_) | Effect::GainPer(_) => self.apply_effect(watcher, e, source)?,
                Effect::Script(s) => self.run_watcher_hook(watcher, s, source)?,
                other => {
                    return err(format!(
                        "a trigger on another seat's move only gains, not {other:?}"
                    ))
                }
            }
        }
        Ok(())
    }

    /// Space indices holding a seat's structures (not Gaiaformers), with the structure, in
    /// space order; held inline (a seat rarely has more than 24), so listing and hooks gather
    /// them without a heap list.
    pub(crate) fn own_structures(&self, seat: usize) -> SmallVec<[(usize, &super::Structure); 24]> {
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
        self.board(seat).is_station(building)
    }

    pub(crate) fn planet_kind(&self, idx: usize) -> PlanetKind {
        self.content.planets.planets[usize::from(self.state.planets[idx])].kind
    }

    pub(crate) fn planet_id(&self, idx: usize) -> &str {
        &self.content.planets.planets[usize::from(self.state.planets[idx])].id
    }

    /// Counts something for a seat.
    pub(crate) fn count(&self, seat: usize, c: &Count) -> u32 {
        self.tally(c, Some(seat)).get(seat).copied().unwrap_or(0)
    }

    /// [`Game::count`] for every seat at once, in one walk over the structures (a final
    /// tile's standing, which the bots' evaluation reads for every position it values).
    pub(crate) fn count_each(&self, c: &Count) -> SmallVec<[u32; 8]> {
        self.tally(c, None)
    }

    /// Counts something for every seat (`only`: for that seat alone, the others left at 0),
    /// without allocating, in one walk over the structures.
    fn tally(&self, c: &Count, only: Option<usize>) -> SmallVec<[u32; 8]> {
        let n = self.state.players.len();
        let wanted = |s: usize| only.is_none_or(|o| o == s);
        let mut out: SmallVec<[u32; 8]> = smallvec::smallvec![0; n];
        let clamp = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        if let Count::Federations = c {
            for s in (0..n).filter(|s| wanted(*s)) {
                out[s] = clamp(self.state.players[s].tokens.len());
            }
            return out;
        }
        // Each board's station kinds, found once instead of once a structure (none for a
        // seat without its faction yet, which has no structures either).
        let stations: SmallVec<[SmallVec<[&str; 2]>; 8]> = (0..n)
            .map(|s| match self.seats.get(s).and_then(Option::as_ref) {
                Some(fixed) if wanted(s) => fixed.board.station_ids().collect(),
                _ => SmallVec::new(),
            })
            .collect();
        // Planet types and sectors, by seat (planets of one type share their index among
        // content's planets).
        let mut sets: SmallVec<[ByteSet; 8]> = (0..n).map(|_| ByteSet::default()).collect();
        for (i, list) in self.state.structures.iter() {
            for st in list.iter().filter(|st| st.seat < n && wanted(st.seat)) {
                let s = st.seat;
                let station = stations[s].iter().any(|id| st.building == *id);
                let counted = match c {
                    Count::Buildings(ids) => ids.iter().any(|id| *id == st.building),
                    Count::GaiaPlanets => {
                        !station && !st.shared && self.planet_kind(*i) == PlanetKind::Gaia
                    }
                    Count::PlanetTypes => {
                        if !station && !st.shared {
                            sets[s].insert(self.state.planets[*i]);
                        }
                        false
                    }
                    Count::Sectors => {
                        if !station {
                            sets[s].insert(self.state.map.spaces[*i].sector);
                        }
                        false
                    }
                    Count::Structures => !station,
                    Count::StructuresInFederations => {
                        let hex = self.state.map.spaces[*i].hex;
                        !station
                            && self.state.players[s]
                                .federations
                                .iter()
                                .any(|f| f.contains(&hex))
                    }
                    Count::Satellites => station,
                    Count::Federations => false,
                };
                if counted {
                    out[s] = out[s].saturating_add(1);
                }
            }
        }
        for s in (0..n).filter(|s| wanted(*s)) {
            match c {
                Count::PlanetTypes | Count::Sectors => out[s] = sets[s].len(),
                Count::Satellites => {
                    out[s] = out[s].saturating_add(clamp(self.state.players[s].satellites.len()));
                }
                _ => {}
            }
        }
        out
    }

    /// The power value of a seat's building on a space, with the modifiers in force given.
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

/// A set of bytes (planet indices, sectors), counted without allocating.
#[derive(Default)]
struct ByteSet([u64; 4]);

impl ByteSet {
    /// Adds a byte.
    fn insert(&mut self, b: u8) {
        self.0[usize::from(b >> 6)] |= 1 << (b & 63);
    }

    /// How many bytes are in the set.
    fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
}

#[cfg(test)]
mod tests {
    //! Triggers that watch other seats, on the made-up game of `content/fixture.rs`: an overlay
    //! adds `watchers`, whose triggers react to what `zorgs` does.

    use std::sync::Arc;

    use crate::content::{fixture, Content, OverlaySource};
    use crate::game::{Decision, Game, Setup};
    use crate::notation::Command;
    use orrery_core::rng::Rng;

    const WATCHERS: &str = r#"
name: watchers
changes:
  - script: {file: w.rhai}
  - set: {kind: sector, id: s1, path: spaces, value: brbrbrbrbrbreeeeeer}
  - add:
      kind: faction
      value:
        id: watchers
        name: Watchers
        home: blue
        abilities:
          - triggers:
              - {"on": {built: {buildings: [hut], within: 1}}, by: others, effects: [gain: {vp: 1}]}
              - {"on": {built: {}}, by: any, effects: [script: {script: w.rhai, function: seen}]}
              - {"on": charge_accepted, by: any, effects: [script: {script: w.rhai, function: charged}]}
"#;

    /// `seen`: 10 VP for a hut another seat built on a red planet (12 on a blue one), 20 for a hall upgraded from a hut, each only
    /// when the event carries the facts. `charged`: 100 VP when the watcher took a charge of 1
    /// from a hut of `zorgs`.
    const SCRIPT: &str = r#"
fn seen(v) {
    let e = v.event;
    if e.seat == v.seat || e.faction != "zorgs" || type_of(e.hex) != "string" { return []; }
    if e.building == "hut" && e.upgrade_from == () && e.planet == "red" { return #{gain: #{vp: 10}}; }
    if e.building == "hut" && e.upgrade_from == () && e.planet == "blue" { return #{gain: #{vp: 12}}; }
    if e.building == "hall" && e.upgrade_from == "hut" { return #{gain: #{vp: 20}}; }
    []
}
fn charged(v) {
    let e = v.event;
    if e.seat == v.seat && e.faction == "watchers" && e.amount == 1 && e.builder.seat != v.seat
        && e.builder.faction == "zorgs" && e.builder.building == "hut" && e.builder.hex != () {
        #{gain: #{vp: 100}}
    } else { [] }
}
"#;

    fn content(overlay: &str) -> Result<Arc<Content>, Vec<orrery_core::diagnostics::Diagnostic>> {
        let overlay = OverlaySource {
            file: "watchers.yaml".into(),
            text: overlay.into(),
            scripts: vec![("w.rhai".into(), SCRIPT.into())],
            problem: None,
        };
        Content::load(&fixture::files(), &[overlay]).map(Arc::new)
    }

    /// A game past setup, `zorgs` (seat 0) to take its first turn, `watchers` seat 1.
    fn game() -> Game {
        let content = content(WATCHERS).expect("valid");
        let setup = Setup::random(&content, 2, &mut Rng::new(3)).expect("setup");
        let mut g = Game::new(content, setup).expect("game");
        for f in ["zorgs", "watchers"] {
            g.apply_part(&Command::Faction(f.into())).expect("faction");
            g.apply_part(&Command::EndTurn).expect("end");
        }
        while !matches!(g.next_decision(), Some(Decision::Turn(0))) {
            let part = g.legal_parts().into_iter().next().expect("a part");
            g.apply_part(&part).expect("setup part");
        }
        g
    }

    fn space_of(g: &Game, hex: &crate::notation::HexRef) -> usize {
        let hex = g.hex(hex).expect("a hex");
        g.state.map.space_index(hex).expect("a space")
    }

    fn vp(g: &Game, seat: usize) -> i32 {
        g.state.players[seat].resource(&g.content, "vp")
    }

    /// Whether a space lies within `d` of one of a seat's structures.
    fn near(g: &Game, seat: usize, idx: usize, d: u32) -> bool {
        let hex = g.state.map.spaces[idx].hex;
        g.own_structures(seat)
            .iter()
            .any(|(i, _)| g.state.map.spaces[*i].hex.distance(hex) <= d)
    }

    /// Every count, for all seats in one walk and for one seat, is what a plain walk over the
    /// seat's structures gives, at every step of random games of the made-up game.
    #[test]
    fn counts_for_every_seat_at_once_are_each_seats_count() {
        use crate::content::{Count, PlanetKind};
        use orrery_core::bot::RandomBot;
        use std::collections::BTreeSet;
        let plain = |g: &Game, seat: usize, c: &Count| -> u32 {
            let station = |b: &str| g.is_station(seat, b);
            let own = g.own_structures(seat);
            let colonies: Vec<_> = own.iter().filter(|(_, s)| !station(&s.building)).collect();
            let n = match c {
                Count::Buildings(ids) => own
                    .iter()
                    .filter(|(_, s)| ids.iter().any(|i| *i == s.building))
                    .count(),
                Count::GaiaPlanets => colonies
                    .iter()
                    .filter(|(i, s)| !s.shared && g.planet_kind(*i) == PlanetKind::Gaia)
                    .count(),
                Count::PlanetTypes => colonies
                    .iter()
                    .filter(|(_, s)| !s.shared)
                    .map(|(i, _)| g.planet_id(*i))
                    .collect::<BTreeSet<_>>()
                    .len(),
                Count::Sectors => colonies
                    .iter()
                    .map(|(i, _)| g.state.map.spaces[*i].sector)
                    .collect::<BTreeSet<_>>()
                    .len(),
                Count::Federations => g.state.players[seat].tokens.len(),
                Count::Structures => colonies.len(),
                Count::StructuresInFederations => colonies
                    .iter()
                    .filter(|(i, _)| {
                        let hex = g.state.map.spaces[*i].hex;
                        g.state.players[seat]
                            .federations
                            .iter()
                            .flatten()
                            .any(|h| *h == hex)
                    })
                    .count(),
                Count::Satellites => {
                    g.state.players[seat].satellites.len()
                        + own.iter().filter(|(_, s)| station(&s.building)).count()
                }
            };
            u32::try_from(n).expect("small")
        };
        let (mut checked, mut steps) = (0, 0);
        for seed in 0..12 {
            let mut g = fixture::blips_game(seed);
            let mut kinds = vec![
                Count::GaiaPlanets,
                Count::PlanetTypes,
                Count::Sectors,
                Count::Federations,
                Count::Structures,
                Count::StructuresInFederations,
                Count::Satellites,
            ];
            for b in &g.board(0).buildings {
                kinds.push(Count::Buildings(vec![b.id.clone()]));
            }
            let mut bot = RandomBot::new(seed, 2);
            while !g.finished() && steps < 6000 {
                for c in &kinds {
                    let each = g.count_each(c);
                    for seat in 0..2 {
                        let want = plain(&g, seat, c);
                        assert_eq!(each[seat], want, "seed {seed}, {c:?}, seat {seat}");
                        assert_eq!(g.count(seat, c), want, "seed {seed}, {c:?}, seat {seat}");
                        checked += u64::from(want);
                    }
                }
                bot.step(&mut g).expect("a random part applies");
                steps += 1;
            }
        }
        assert!(checked > 0, "the games built something to count");
        assert!(steps > 100, "the games went on: {steps} steps");
    }

    #[test]
    fn a_byte_set_counts_each_byte_once_across_its_words() {
        let mut set = super::ByteSet::default();
        for b in [0u8, 63, 64, 255, 0, 64, 127, 128] {
            set.insert(b);
        }
        assert_eq!(set.len(), 6);
        assert_eq!(super::ByteSet::default().len(), 0);
    }

    /// A seat's possible triggers are known by kind of event: the watchers may react to
    /// builds and accepted charges and nothing else, `zorgs` to nothing, so a build fires
    /// the watchers' triggers (above) without walking `zorgs`'s grants.
    #[test]
    fn the_kinds_of_event_a_seat_may_react_to_are_known() {
        use crate::game::MayHave;
        let g = game();
        let (zorgs, watchers) = (g.may_have(0), g.may_have(1));
        assert_eq!(zorgs.triggers, 0);
        assert_eq!(watchers.triggers, MayHave::BUILT | MayHave::CHARGE_ACCEPTED);
        assert!(watchers.may_trigger(MayHave::BUILT));
        assert!(!watchers.may_trigger(MayHave::RESEARCH_STEP | MayHave::FEDERATION_TOKEN));
        assert!(!watchers.may_trigger(MayHave::TERRAFORM_STEP));
        assert!(!zorgs.charge_gains_tokens && !zorgs.gaia_conversion);
    }

    #[test]
    fn another_seats_builds_reach_the_watcher_with_their_facts() {
        let g = game();
        let (mut close, mut far, mut halls) = (0, 0, 0);
        for part in g.legal_parts() {
            let Command::Build { building, hex } = &part else {
                continue;
            };
            let idx = space_of(&g, hex);
            let before = (vp(&g, 0), vp(&g, 1));
            let is_near = near(&g, 1, idx, 1);
            let mut after = g.clone();
            after.apply_part(&part).expect("build");
            let on_red = if g.planet_id(idx) == "red" { 10 } else { 12 };
            let expected = match building.as_str() {
                "hut" if is_near => on_red + 1,
                "hut" => on_red,
                "hall" => 20,
                other => panic!("unexpected build {other}"),
            };
            match (building.as_str(), is_near) {
                ("hut", true) => close += 1,
                ("hut", false) => far += 1,
                _ => halls += 1,
            }
            assert_eq!(vp(&after, 1) - before.1, expected, "{part}");
            assert_eq!(vp(&after, 0), before.0, "the builder gains nothing: {part}");
            assert_eq!(
                after.state.players[1].vp_sources.get("faction").copied(),
                Some(expected)
            );
        }
        assert!(close > 0 && far > 0 && halls > 0, "{close} {far} {halls}");
    }

    #[test]
    fn the_watchers_own_builds_do_not_reach_its_others_triggers() {
        let mut g = game();
        let pass = g
            .legal_parts()
            .into_iter()
            .find(|p| matches!(p, Command::Pass(_)))
            .expect("a pass");
        g.apply_part(&pass).expect("pass");
        g.apply_part(&Command::EndTurn).expect("end");
        assert!(matches!(g.next_decision(), Some(Decision::Turn(1))));
        let before = vp(&g, 1);
        let mut built = 0;
        for part in g.legal_parts() {
            if !matches!(&part, Command::Build { .. }) {
                continue;
            }
            let mut after = g.clone();
            after.apply_part(&part).expect("build");
            assert_eq!(vp(&after, 1), before, "{part}");
            built += 1;
        }
        assert!(built > 0);
    }

    #[test]
    fn a_charge_carries_its_amount_and_builder() {
        let mut g = game();
        let part = g
            .legal_parts()
            .into_iter()
            .find(|p| match p {
                Command::Build { building, hex } => {
                    building == "hut" && near(&g, 1, space_of(&g, hex), 1)
                }
                _ => false,
            })
            .expect("a hut next to the watcher");
        g.apply_part(&part).expect("build");
        g.apply_part(&Command::EndTurn).expect("end");
        let Some(Decision::Leech { seat: 1, from, .. }) = g.next_decision().cloned() else {
            panic!("no charge offer: {:?}", g.next_decision());
        };
        assert_eq!(from.map(|f| f.seat), Some(0));
        let charge = g
            .legal_parts()
            .into_iter()
            .find(|p| matches!(p, Command::Charge(_)))
            .expect("a charge");
        let before = vp(&g, 1);
        g.apply_part(&charge).expect("charge");
        assert_eq!(vp(&g, 1), before + 100);
    }

    #[test]
    fn a_trigger_watching_others_may_only_gain() {
        let bad = WATCHERS.replace("effects: [gain: {vp: 1}]", "effects: [tech_tile]");
        let diags = content(&bad).expect_err("refused");
        let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        assert!(
            shown.iter().any(|s| s.starts_with("watchers.yaml:14:")
                && s.contains("pays automatically: only gain and gain_per")),
            "{shown:?}"
        );
        let charge = WATCHERS.replace("gain: {vp: 1}", "gain: {pw: 1}");
        let diags = content(&charge).expect_err("refused");
        assert!(
            diags
                .iter()
                .any(|d| d.message.contains("may not charge power")),
            "{diags:?}"
        );
    }

    /// A seat whose faction, tiles and boosters name no `substitute` skips the walk for one
    /// and gains what was named; a seat whose faction names one still substitutes.
    #[test]
    fn a_seat_that_can_never_hold_a_modifier_skips_looking_for_it() {
        let content = fixture::two_factions();
        let setup = Setup::random(&content, 2, &mut Rng::new(5)).expect("setup");
        let mut g = Game::new(content.clone(), setup).expect("game");
        g.apply_text("p1 faction zorgs").expect("zorgs");
        g.apply_text("p2 faction blues").expect("blues");
        let (zorgs, blues) = (g.may_have(0), g.may_have(1));
        assert!(zorgs.substitute, "zorgs's ability names a substitute");
        assert!(!blues.substitute && !blues.area3_token_value && !blues.burn_to_gaia);
        assert!(!blues.gaia_return_area);
        assert_eq!(g.token_value(1), 1);
        assert_eq!(g.return_area(1), crate::power::Area::I);
        assert!(!g.burn_to_gaia(1));
        let vp = |g: &Game, s: usize| g.state.players[s].resource(&content, "vp");
        let before = vp(&g, 1);
        g.gain_code(1, "vp", 3, "test");
        assert_eq!(vp(&g, 1), before + 3);
        // With a hall on the map, zorgs's VP arrive as gold.
        *g.state.players[0].built.entry("hall".into()).or_default() += 1;
        let (vp0, gold0) = (vp(&g, 0), g.state.players[0].resource(&content, "gold"));
        g.gain_code(0, "vp", 2, "test");
        assert_eq!(vp(&g, 0), vp0);
        assert!(g.state.players[0].resource(&content, "gold") > gold0);
    }
}
