//! Script hooks: what a hook is given (a read-only view of the seat, the event, the action),
//! the call, and the checks on what it returns. A hook is called only where content names
//! one; whatever goes wrong in it refuses the move with the script, function and line.
//! The contract is described for designers in `docs/scripting.md`.

use std::borrow::Cow;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::happened::Happened;
use super::hook_protocol::{
    schema_problem, CostParts, FactKey, HookCall, HookCalls, Site, SiteCost, SiteStart, ViewFacts,
    MAX_HOOK_AMOUNT,
};
use super::{Game, MoveError};
use crate::content::{Bundle, Effect, Modifier, ResearchChoice, ScriptRef};
use crate::lookup::by_id;
use crate::notation::Word;
use crate::player::hook_key;
use orrery_core::hex::Hex;
use orrery_core::script::ScriptError;

impl Game {
    /// The read-only view a hook gets of a seat: resources, power areas, research levels,
    /// buildings by kind and planet type, planet types colonized, the round and the event.
    pub(crate) fn hook_view(&self, seat: usize, event: Value) -> Value {
        self.view_facts(seat).json(self, event)
    }

    /// What [`Game::hook_view`] is made from, without building it: two seats' views are equal
    /// exactly when their facts are (and the events are).
    pub(crate) fn view_facts(&self, seat: usize) -> ViewFacts {
        let p = &self.state.players[seat];
        let buildings = self
            .own_structures(seat)
            .into_iter()
            .map(|(idx, s)| {
                let charts = !s.shared && !self.is_station(seat, &s.building);
                (s.building.clone(), self.state.planets[idx], charts)
            })
            .collect();
        ViewFacts {
            seat,
            faction: p.faction.clone(),
            round: self.state.round,
            resources: p.resources.clone(),
            power: p.power.areas,
            gaiaformers: p.gaiaformers,
            research: (self.content.research.tracks.iter())
                .map(|t| p.level(&t.id))
                .collect(),
            buildings,
        }
    }

    /// The event a hook sees: the trigger being fired, or the place the hook stands.
    fn hook_event(&self, source: &str) -> Value {
        self.event
            .clone()
            .unwrap_or_else(|| json!({"kind": source}))
    }

    /// The event of a trigger, for the hooks it fires: its kind, who acted (`seat`,
    /// `faction`) and its facts — what was built and where, the track and level, the token,
    /// the charge's amount and builder.
    pub(crate) fn event_value(&self, actor: usize, what: &Happened<'_>) -> Value {
        let faction = |s: usize| self.state.players[s].faction.as_str();
        let hex = |idx: usize| self.hex_name(self.state.map.spaces[idx].hex);
        let mut v = match what {
            Happened::Built {
                building,
                planet,
                idx,
                shared,
                upgrade_from,
                ..
            } => json!({
                "kind": "built",
                "building": building,
                "upgrade_from": upgrade_from,
                "planet": planet,
                "hex": hex(*idx),
                "shared": shared,
            }),
            Happened::ResearchStep { track, level } => {
                json!({"kind": "research_step", "track": track, "level": level})
            }
            Happened::TerraformStep { idx } => json!({
                "kind": "terraform_step",
                "hex": hex(*idx),
                "planet": self.planet_id(*idx),
            }),
            Happened::FederationToken { id } => json!({"kind": "federation_token", "token": id}),
            Happened::ChargeAccepted { amount, from } => {
                let builder = from.map(|f| {
                    let building = self
                        .state
                        .structures
                        .get(&f.space)
                        .and_then(|l| l.iter().find(|s| s.seat == f.seat))
                        .map(|s| s.building.to_string());
                    json!({
                        "seat": f.seat,
                        "faction": faction(f.seat),
                        "building": building,
                        "hex": hex(f.space),
                        "planet": self.planet_id(f.space),
                    })
                });
                json!({"kind": "charge_accepted", "amount": amount, "builder": builder})
            }
        };
        v["seat"] = json!(actor);
        v["faction"] = json!(faction(actor));
        v
    }

    /// Sets how many operations the game's hooks may run in all (see
    /// [`DEFAULT_HOOK_BUDGET`]); shared with every clone. Once spent, every hook call fails with
    /// that reason, so the game cannot go on where a hook is needed.
    pub fn set_hook_budget(&self, operations: u64) {
        self.ledger.budget.store(operations, Ordering::Relaxed);
    }

    /// Operations the game's hooks have run so far (clones included).
    pub fn hook_operations(&self) -> u64 {
        self.ledger.used.load(Ordering::Relaxed)
    }

    /// The first hook errors the game met (in play, in listing, in bots' lookahead), each with
    /// how often it occurred, and the count of all hook errors. A part a hook fails on is
    /// listed and refused when played; a candidate hex a cost or placement hook fails on is
    /// left out of listing; this says why.
    pub fn hook_errors(&self) -> (Vec<(String, u64)>, u64) {
        let kept = self
            .ledger
            .errors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        (kept, self.ledger.error_count.load(Ordering::Relaxed))
    }

    /// Starts keeping every hook call (clones included, as they share the ledger) until
    /// [`Game::take_hook_calls`]; for tracing a game line by line.
    pub fn record_hook_calls(&self) {
        *self.ledger.calls.lock().unwrap_or_else(|e| e.into_inner()) = Some(HookCalls::default());
    }

    /// The hook calls made since recording began or the last take, and goes on recording;
    /// empty when not recording.
    pub fn take_hook_calls(&self) -> HookCalls {
        let mut calls = self.ledger.calls.lock().unwrap_or_else(|e| e.into_inner());
        match calls.as_mut() {
            Some(c) => std::mem::take(c),
            None => HookCalls::default(),
        }
    }

    /// [`Game::hook_errors`] as lines for a user: `hook error (3×): …`, then how many more.
    pub fn hook_error_lines(&self) -> Vec<String> {
        let (kept, total) = self.hook_errors();
        let shown: u64 = kept.iter().map(|(_, n)| n).sum();
        let mut lines: Vec<String> = kept
            .iter()
            .map(|(m, n)| format!("hook error ({n}×): {m}"))
            .collect();
        if total > shown {
            lines.push(format!("… and {} more hook errors", total - shown));
        }
        lines
    }

    /// Calls a hook with its one argument (validation checks each hook takes
    /// [`crate::content::HOOK_ARITY`] parameters), within what is left of the game's budget.
    /// A call with an argument the hook has returned for before in this game (clones
    /// included) returns that again without running, unless calls are being recorded.
    fn call_hook(&self, s: &ScriptRef, arg: &Value) -> Result<Value, MoveError> {
        let recording = self.ledger.recording();
        if !recording {
            let returns = self
                .ledger
                .returns
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(v) = returns.get(s, arg) {
                return Ok(v.clone());
            }
        }
        let (result, operations) = self.call_hook_counted(s, arg);
        self.ledger.record(|| HookCall {
            seat: arg
                .get("seat")
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok()),
            script: s.script.clone(),
            function: s.function.clone(),
            result: result.clone().map_err(|e| e.0),
            operations,
        });
        if let (false, Ok(v)) = (recording, &result) {
            (self.ledger.returns.lock())
                .unwrap_or_else(|e| e.into_inner())
                .keep(s, arg.clone(), v.clone());
        }
        result
    }

    /// [`Game::call_hook`], with the operations the call ran.
    fn call_hook_counted(&self, s: &ScriptRef, arg: &Value) -> (Result<Value, MoveError>, u64) {
        let ledger = &self.ledger;
        let budget = ledger.budget.load(Ordering::Relaxed);
        let used = ledger.used.load(Ordering::Relaxed);
        let spent = || {
            let e = MoveError(format!(
                "script {}, function {}: the game's hooks have used their budget of {budget} \
                 operations",
                s.script, s.function
            ));
            ledger.note(&e.0);
            e
        };
        if used >= budget {
            return (Err(spent()), 0);
        }
        let (result, ops) = self.content.scripts.call_json_counted(
            &s.script,
            &s.function,
            std::slice::from_ref(arg),
            budget - used,
        );
        let now = ledger
            .used
            .fetch_add(ops, Ordering::Relaxed)
            .saturating_add(ops);
        if now > budget {
            return (Err(spent()), ops);
        }
        (result.map_err(|e| self.hook_error(s, &e)), ops)
    }

    /// A hook's failure as a refusal naming the script, the function and the line.
    fn hook_error(&self, s: &ScriptRef, e: &ScriptError) -> MoveError {
        let line = match e.line {
            Some(l) => format!("line {l}"),
            None => match self.content.scripts.function_line(&s.script, &s.function) {
                Some(l) => format!("line {l} (where the function begins)"),
                None => "line unknown".into(),
            },
        };
        let e = MoveError(format!(
            "script {}, function {}, {line}: {}",
            s.script, s.function, e.message
        ));
        self.ledger.note(&e.0);
        e
    }

    /// A refusal about what a hook returned.
    pub(super) fn hook_refusal(&self, s: &ScriptRef, what: impl std::fmt::Display) -> MoveError {
        let line = self
            .content
            .scripts
            .function_line(&s.script, &s.function)
            .map_or_else(|| "line unknown".into(), |l| format!("line {l}"));
        let e = MoveError(format!(
            "script {}, function {}, {line}: {what}",
            s.script, s.function
        ));
        self.ledger.note(&e.0);
        e
    }

    /// Runs an effect hook and checks what it returns: effects in the content's language.
    pub(crate) fn hook_effects(
        &self,
        seat: usize,
        s: &ScriptRef,
        source: &str,
    ) -> Result<Vec<Effect>, MoveError> {
        // Asked about a view it has answered for in this game (clones included), the hook's
        // checked effects again, without building the view, unless calls are being recorded.
        let key = match self.ledger.recording() {
            true => None,
            false => self.effect_key(seat, s, source),
        };
        let lock = || {
            self.ledger
                .effects
                .lock()
                .unwrap_or_else(|e| e.into_inner())
        };
        if let Some(effects) = key.as_ref().and_then(|k| lock().get(k).cloned()) {
            return Ok(effects);
        }
        let effects = self.ask_effect_hook(seat, s, source)?;
        if let Some(k) = &key {
            lock().keep(k, effects.clone());
        }
        Ok(effects)
    }

    /// [`Game::hook_effects`], the hook asked (or its return by argument remembered).
    fn ask_effect_hook(
        &self,
        seat: usize,
        s: &ScriptRef,
        source: &str,
    ) -> Result<Vec<Effect>, MoveError> {
        let view = self.hook_view(seat, self.hook_event(source));
        let out = self.call_hook(s, &view)?;
        let items = match out {
            Value::Null => Vec::new(),
            Value::Array(items) => items,
            one => vec![one],
        };
        let mut effects = Vec::with_capacity(items.len());
        for item in items {
            if let Some(why) = schema_problem(|c| &c.0, &item) {
                return Err(
                    self.hook_refusal(s, format!("returned {item}, which is not an effect: {why}"))
                );
            }
            let e: Effect = serde_json::from_value(item.clone()).map_err(|e| {
                self.hook_refusal(s, format!("returned {item}, which is not an effect: {e}"))
            })?;
            self.check_hook_effect(seat, &e)
                .map_err(|why| self.hook_refusal(s, format!("returned {item}: {why}")))?;
            effects.push(e);
        }
        Ok(effects)
    }

    /// Runs an effect hook and applies what it returns.
    pub(crate) fn run_effect_hook(
        &mut self,
        seat: usize,
        s: &ScriptRef,
        source: &str,
    ) -> Result<(), MoveError> {
        let effects = self.hook_effects(seat, s, source)?;
        // The effects a hook returns are applied where the hook stands, as plain effects;
        // an event they cause is that event's, not the hook's.
        let saved = self.event.take();
        let r = self.apply_effects(seat, &effects, source);
        self.event = saved;
        r
    }

    /// Runs an effect hook of a trigger watching another seat: it may return only gains
    /// (`gain`, `gain_per`) without a charge (`pw`), paid to the watcher at once.
    pub(crate) fn run_watcher_hook(
        &mut self,
        watcher: usize,
        s: &ScriptRef,
        source: &str,
    ) -> Result<(), MoveError> {
        let effects = self.hook_effects(watcher, s, source)?;
        for e in &effects {
            if let Err(why) = e.pays_watcher() {
                return Err(self.hook_refusal(s, format!("returned {e:?}: {why}")));
            }
        }
        let saved = self.event.take();
        let r = self.apply_effects(watcher, &effects, source);
        self.event = saved;
        r
    }

    /// Whether an effect a hook returned names only what exists, within the amount limit.
    fn check_hook_effect(&self, seat: usize, e: &Effect) -> Result<(), String> {
        let content = &self.content;
        let bundle = |b: &Bundle| -> Result<(), String> {
            // Every code named, zero amounts included, as loading checks YAML's.
            for (code, &n) in &b.0 {
                self.check_code(code)?;
                if n.unsigned_abs() > MAX_HOOK_AMOUNT as u32 {
                    return Err(format!("{n} {code} is more than {MAX_HOOK_AMOUNT}"));
                }
            }
            Ok(())
        };
        let building = |id: &str| {
            if self.board(seat).building(id).is_some() {
                Ok(())
            } else {
                Err(format!("unknown building \"{id}\""))
            }
        };
        let small = |n: u32| {
            if n > MAX_HOOK_AMOUNT as u32 {
                Err(format!("{n} is more than {MAX_HOOK_AMOUNT}"))
            } else {
                Ok(())
            }
        };
        match e {
            Effect::Gain(b) => bundle(b),
            Effect::GainPer(g) => bundle(&g.gain),
            Effect::Steps(n) | Effect::Range(n) => small(*n),
            Effect::Research(ResearchChoice::Track(t)) => {
                if by_id(&content.research.tracks, t).is_some() {
                    Ok(())
                } else {
                    Err(format!("unknown research track \"{t}\""))
                }
            }
            Effect::FederationToken(id) => {
                if by_id(&content.federation_tokens.tokens, id).is_some() {
                    Ok(())
                } else {
                    Err(format!("unknown federation token \"{id}\""))
                }
            }
            Effect::Place(p) => building(&p.building),
            Effect::Downgrade(d) => building(&d.from).and(building(&d.to)),
            Effect::Swap(w) => building(&w.building).and(building(&w.with)),
            Effect::Script(_) => Err("a hook may not return a script effect".into()),
            Effect::Research(_)
            | Effect::TechTile
            | Effect::RescoreFederation
            | Effect::TrackToken => Ok(()),
        }
    }

    /// Whether a code is a resource or a power-cycle code.
    fn check_code(&self, code: &str) -> Result<(), String> {
        if crate::power::Code::of(code).is_some()
            || by_id(&self.content.rules.resources, code).is_some()
        {
            Ok(())
        } else {
            Err(format!("unknown resource code \"{code}\""))
        }
    }

    /// Asks every condition hook of every seat again and keeps the answers; abilities that
    /// become active join the income order. Every seat's hooks are asked after any seat's
    /// move, so a failing hook's error names the seat it belongs to, not only the move.
    /// A seat whose view is one its hooks have answered for in this game (clones included)
    /// gets those answers again without running them, unless calls are being recorded:
    /// hooks are deterministic functions of their view.
    pub(crate) fn refresh_conditions(&mut self) -> Result<(), MoveError> {
        for seat in 0..self.state.players.len() {
            let Some(fixed) = self.seats.get(seat).and_then(Option::as_ref) else {
                continue;
            };
            if fixed.condition_hooks.is_empty() {
                continue;
            }
            let facts = self.view_facts(seat);
            let remembered = match self.ledger.recording() {
                true => None,
                false => (self.ledger.answers.lock())
                    .unwrap_or_else(|e| e.into_inner())
                    .get(&facts)
                    .cloned(),
            };
            let holding = match remembered {
                Some(holding) => holding,
                None => {
                    let holding = self.ask_conditions(seat, &facts)?;
                    (self.ledger.answers.lock())
                        .unwrap_or_else(|e| e.into_inner())
                        .keep(facts, holding.clone());
                    holding
                }
            };
            self.hold(seat, holding);
        }
        Ok(())
    }

    /// Runs a seat's condition hooks on the view `facts` make: the keys of those answering
    /// `true`, sorted, or the first failure, naming the seat.
    fn ask_conditions(&self, seat: usize, facts: &ViewFacts) -> Result<Vec<Word>, MoveError> {
        let Some(fixed) = self.seats.get(seat).and_then(Option::as_ref) else {
            return Ok(Vec::new());
        };
        let view = facts.json(self, json!({"kind": "condition"}));
        let owner = |e: MoveError| {
            let p = &self.state.players[seat];
            MoveError(format!(
                "the condition hook of seat {} ({}): {}",
                seat + 1,
                p.faction,
                e.0
            ))
        };
        let mut holding = Vec::new();
        for s in &fixed.condition_hooks {
            match self.call_hook(s, &view).map_err(owner)? {
                Value::Bool(true) => holding.push(hook_key(s)),
                Value::Bool(false) => {}
                other => {
                    return Err(owner(self.hook_refusal(
                        s,
                        format!("a condition hook returns true or false, not {other}"),
                    )))
                }
            }
        }
        holding.sort_unstable();
        Ok(holding)
    }

    /// Keeps the answers of a seat's condition hooks; abilities that become active join the
    /// income order, those that stop leave it.
    fn hold(&mut self, seat: usize, holding: Vec<Word>) {
        if **self.state.players[seat].hooks_holding == holding {
            return;
        }
        let before = self.active_abilities(seat);
        *self.state.players[seat].hooks_holding = holding.into();
        let after = self.active_abilities(seat);
        let p = &mut self.state.players[seat];
        for i in before.iter().filter(|i| !after.contains(i)) {
            p.unlog_source(&crate::player::source_key("f:", *i));
        }
        for i in after.iter().filter(|i| !before.contains(i)) {
            p.log_source(&crate::player::source_key("f:", *i));
        }
    }

    /// The action part of what a cost or placement hook gets: the building, the hex, its
    /// planet and the neighbouring planets with their owners.
    fn site_value(&self, site: Site<'_>) -> Value {
        let hex = self.state.map.spaces[site.idx].hex;
        let reach = self.content.rules.neighbour_distance;
        let mut neighbours = Vec::new();
        for i in self.spaces_within(hex, reach) {
            let space = &self.state.map.spaces[i];
            let d = space.hex.distance(hex);
            if i == site.idx || self.planet_kind(i) == crate::content::PlanetKind::Empty {
                continue;
            }
            let owners: Vec<Value> = self
                .state
                .structures
                .get(&i)
                .map(|l| {
                    l.iter()
                        .map(|s| {
                            json!({
                                "seat": s.seat,
                                "faction": self.state.players[s.seat].faction.as_str(),
                                "building": s.building.as_str(),
                            })
                        })
                        .collect()
                })
                .unwrap_or_default();
            neighbours.push(json!({
                "hex": self.hex_name(space.hex),
                "distance": d,
                "planet": self.planet_id(i),
                "owners": owners,
            }));
        }
        json!({
            "building": site.building,
            "hex": self.hex_name(hex),
            "planet": self.planet_id(site.idx),
            "upgrade_from": site.upgrade_from,
            "neighbours": neighbours,
        })
    }

    /// The spaces within distance `reach` of `hex`, in space order.
    fn spaces_within(&self, hex: Hex, reach: u32) -> Vec<usize> {
        let mut found = Vec::new();
        self.for_spaces_within(hex, reach, |i| found.push(i));
        found.sort_unstable();
        found
    }

    /// Calls `f` with each space within distance `reach` of `hex`, in an order fixed by the
    /// map and the hex: the hexes around it looked up in the map's index (a few dozen), not
    /// every space measured.
    fn for_spaces_within(&self, hex: Hex, reach: u32, mut f: impl FnMut(usize)) {
        let map = &self.state.map;
        let r = i32::try_from(reach).unwrap_or(i32::MAX);
        if usize::try_from(reach).map_or(true, |n| 3 * n * (n + 1) + 1 >= map.spaces.len()) {
            // As many hexes around it as the map has spaces: measure every space.
            for (i, s) in map.spaces.iter().enumerate() {
                if s.hex.distance(hex) <= reach {
                    f(i);
                }
            }
            return;
        }
        for dq in -r..=r {
            for dr in (-r).max(-dq - r)..=r.min(r - dq) {
                if let Some(i) = map.space_index(hex + Hex { q: dq, r: dr }) {
                    f(i);
                }
            }
        }
    }

    /// Whether a seat's modifiers name a cost or placement hook.
    pub(crate) fn names_site_hooks(mods: &[&Modifier]) -> bool {
        mods.iter()
            .any(|m| matches!(m, Modifier::CostHook(_) | Modifier::PlacementHook(_)))
    }

    /// What a placement or cost hook gets: the seat's view, with the site as `action`.
    fn site_context(&self, seat: usize, site: Site<'_>) -> Value {
        let mut ctx = self.hook_view(seat, json!({"kind": "placement"}));
        ctx["action"] = self.site_value(site);
        ctx
    }

    /// Asks each placement hook in `mods` about a site, with its context.
    fn ask_placement_hooks(
        &self,
        mods: &[&Modifier],
        site: Site<'_>,
        ctx: &Value,
    ) -> Result<(), MoveError> {
        for m in mods {
            let Modifier::PlacementHook(s) = m else {
                continue;
            };
            match self.call_hook(s, ctx)? {
                Value::Bool(true) => {}
                Value::Bool(false) => {
                    return Err(MoveError(format!(
                        "no {} may go on {} ({}, function {})",
                        site.building, ctx["action"]["hex"], s.script, s.function
                    )))
                }
                Value::String(why) => {
                    return Err(MoveError(format!(
                        "{why} ({}, function {})",
                        s.script, s.function
                    )))
                }
                other => {
                    return Err(self.hook_refusal(
                        s,
                        format!("a placement hook returns true, false or a reason, not {other}"),
                    ))
                }
            }
        }
        Ok(())
    }

    /// Runs a seat's placement hooks, then its cost hooks in turn, on an action's cost; the
    /// cost to pay, or why the building may not go there. A site whose facts
    /// ([`SiteFacts`]) the hooks have answered for in this game (clones included) gets that
    /// answer again without building their context, unless calls are being recorded.
    pub(crate) fn hooked_cost(
        &self,
        seat: usize,
        mods: &[&Modifier],
        site: Site<'_>,
        parts: CostParts,
    ) -> Result<SiteCost<'static>, MoveError> {
        if !Self::names_site_hooks(mods) {
            return Ok(SiteCost::Owned(parts.total()));
        }
        if self.ledger.recording() {
            return self
                .ask_site_hooks(seat, mods, site, parts)
                .map(SiteCost::Owned);
        }
        let found;
        let start = match site.key_start {
            Some(start) => start,
            None => {
                found = self.site_start(seat, mods);
                &found
            }
        };
        let lock = || start.answers.lock().unwrap_or_else(|e| e.into_inner());
        let mut rest = FactKey::default();
        self.site_key_rest(site, &parts, &mut rest);
        if let Some(answer) = lock().get(&rest).cloned() {
            return answer.map(SiteCost::Shared).map_err(MoveError);
        }
        let errors = self.hook_error_count();
        let answer = self.ask_site_hooks(seat, mods, site, parts).map(Arc::new);
        // A placement hook's refusal is an answer; a hook's failure is not remembered.
        if answer.is_ok() || self.hook_error_count() == errors {
            lock().keep(&rest, answer.clone().map_err(|e| e.0));
        }
        answer.map(SiteCost::Shared)
    }

    /// The start of the key of every site a seat's hooks are asked about in this state
    /// ([`Game::site_key_start`]), with the table of the answers remembered under it. Never
    /// inline: its key's room stays off the stack of the listings that call it, which mostly
    /// do not.
    #[inline(never)]
    pub(crate) fn site_start(&self, seat: usize, mods: &[&Modifier]) -> SiteStart {
        let mut start = FactKey::default();
        self.site_key_start(seat, mods, &mut start);
        let answers = (self.ledger.sites.lock())
            .unwrap_or_else(|e| e.into_inner())
            .table(&start.0);
        SiteStart { answers }
    }

    /// Writes what the context of a seat's cost and placement hooks about a site is made from:
    /// the hooks asked (by their place in the content, which every game sharing the ledger
    /// shares), the seat's view ([`Game::view_key`]), the map's sector rotations (which fix
    /// every hex's name), the building, the space, its planet, what it replaces, the spaces
    /// within the neighbour distance (index, planet, each owner's seat and building), every
    /// seat's faction and the cost's parts. The context is a function of these alone, and
    /// hooks are deterministic functions of their context, so two askings with equal keys get
    /// the same answer. Answers are remembered by its start ([`Game::site_start`]) and its rest
    /// ([`Game::site_key_rest`]); the whole key is written here for the tests.
    #[cfg(test)]
    pub(crate) fn site_key(
        &self,
        seat: usize,
        mods: &[&Modifier],
        site: Site<'_>,
        parts: &CostParts,
        key: &mut FactKey,
    ) {
        self.site_key_start(seat, mods, key);
        self.site_key_rest(site, parts, key);
    }

    /// Writes the rest of [`Game::site_key`] after its start: what differs from site to site.
    pub(crate) fn site_key_rest(&self, site: Site<'_>, parts: &CostParts, key: &mut FactKey) {
        let map = &self.state.map;
        key.text(site.building);
        key.n(site.idx as u64);
        key.n(u64::from(self.state.planets[site.idx]));
        match site.upgrade_from {
            Some(from) => {
                key.n(1);
                key.text(from);
            }
            None => key.n(0),
        }
        let at = key.0.len();
        key.n(0);
        let mut count = 0;
        let hex = map.spaces[site.idx].hex;
        self.for_spaces_within(hex, self.content.rules.neighbour_distance, |i| {
            count += 1;
            key.n(i as u64);
            key.n(u64::from(self.state.planets[i]));
            let owners = self
                .state
                .structures
                .get(&i)
                .map_or(&[][..], |l| l.as_slice());
            key.n(owners.len() as u64);
            for s in owners {
                // The seat's faction is in the start, with every seat's.
                key.n(s.seat as u64);
                key.text(&s.building);
            }
        });
        key.0[at] = count;
        for b in [
            &parts.building,
            &parts.terraform,
            &parts.range,
            &parts.gaia_fee,
        ] {
            key.bundle(b);
        }
    }

    /// Writes the start of [`Game::site_key`] that is the same for every site of the seat in
    /// this state: the hooks asked, the seat's view, the map's sector rotations and every
    /// seat's faction (so a site's owners are written by seat alone).
    pub(crate) fn site_key_start(&self, seat: usize, mods: &[&Modifier], key: &mut FactKey) {
        let hooks = (mods.iter())
            .filter(|m| matches!(m, Modifier::CostHook(_) | Modifier::PlacementHook(_)));
        key.n(hooks.clone().count() as u64);
        for m in hooks {
            key.n(std::ptr::from_ref::<Modifier>(m) as usize as u64);
        }
        self.view_key(seat, key);
        let map = &self.state.map;
        key.n(map.placements.len() as u64);
        for p in &map.placements {
            key.n(u64::from(p.rotation));
        }
        key.n(self.state.players.len() as u64);
        for p in &self.state.players {
            key.text(&p.faction);
        }
    }

    /// Writes what [`Game::view_facts`] holds, in the same order, without copying it: two
    /// seats' views (with the same event) are equal when their keys are.
    pub(crate) fn view_key(&self, seat: usize, key: &mut FactKey) {
        let p = &self.state.players[seat];
        key.n(seat as u64);
        key.text(&p.faction);
        key.n(u64::from(self.state.round));
        key.n(p.resources.len() as u64);
        for &r in &p.resources {
            key.i(r);
        }
        for a in p.power.areas {
            key.n(u64::from(a));
        }
        key.n(u64::from(p.gaiaformers));
        let tracks = &self.content.research.tracks;
        key.n(tracks.len() as u64);
        for t in tracks {
            key.n(u64::from(p.level(&t.id)));
        }
        let at = key.0.len();
        key.n(0);
        let mut count = 0;
        for (idx, l) in self.state.structures.iter() {
            for s in l.iter().filter(|s| s.seat == seat) {
                count += 1;
                key.text(&s.building);
                key.n(u64::from(self.state.planets[*idx]));
                key.n(u64::from(!s.shared && !self.is_station(seat, &s.building)));
            }
        }
        key.0[at] = count;
    }

    /// Writes what an effect hook's argument is made from when no trigger is being fired:
    /// the hook, the seat's view ([`Game::view_key`]) and the place it stands (`source`, the
    /// event's kind). `None` while a trigger's event is set (its hooks are not remembered
    /// this way).
    pub(crate) fn effect_key(&self, seat: usize, s: &ScriptRef, source: &str) -> Option<FactKey> {
        if self.event.is_some() {
            return None;
        }
        let mut key = FactKey::default();
        key.text(&s.script);
        key.text(&s.function);
        self.view_key(seat, &mut key);
        key.text(source);
        Some(key)
    }

    /// [`Game::hooked_cost`], every hook asked.
    fn ask_site_hooks(
        &self,
        seat: usize,
        mods: &[&Modifier],
        site: Site<'_>,
        mut parts: CostParts,
    ) -> Result<Bundle, MoveError> {
        let mut ctx = self.site_context(seat, site);
        self.ask_placement_hooks(mods, site, &ctx)?;
        ctx["event"] = json!({"kind": "cost"});
        for m in mods {
            let Modifier::CostHook(s) = m else {
                continue;
            };
            ctx["action"]["cost"] = json!({
                "building": parts.building,
                "terraform": parts.terraform,
                "range": parts.range,
                "gaia_fee": parts.gaia_fee,
            });
            let out = self.call_hook(s, &ctx)?;
            let Value::Object(map) = out else {
                return Err(self.hook_refusal(
                    s,
                    format!("a cost hook returns a map of cost parts, not {out}"),
                ));
            };
            for (key, value) in map {
                let slot = match key.as_str() {
                    "building" => &mut parts.building,
                    "terraform" => &mut parts.terraform,
                    "range" => &mut parts.range,
                    "gaia_fee" => &mut parts.gaia_fee,
                    _ => {
                        return Err(self.hook_refusal(
                            s,
                            format!(
                                "unknown cost part \"{key}\" (building, terraform, range, gaia_fee)"
                            ),
                        ))
                    }
                };
                if let Some(why) = schema_problem(|c| &c.1, &value) {
                    return Err(self.hook_refusal(
                        s,
                        format!("cost part {key} = {value} is not amounts: {why}"),
                    ));
                }
                let b: Bundle = serde_json::from_value(value.clone()).map_err(|e| {
                    self.hook_refusal(s, format!("cost part {key} = {value} is not amounts: {e}"))
                })?;
                for (code, &n) in &b.0 {
                    self.check_code(code)
                        .map_err(|why| self.hook_refusal(s, format!("cost part {key}: {why}")))?;
                    if !(0..=MAX_HOOK_AMOUNT).contains(&n) {
                        return Err(self.hook_refusal(
                            s,
                            format!(
                                "cost part {key}: {n} {code} is not within 0..={MAX_HOOK_AMOUNT}"
                            ),
                        ));
                    }
                }
                *slot = Cow::Owned(b);
            }
        }
        Ok(parts.total())
    }
}

impl ViewFacts {
    /// The view these facts make, with `event` (see [`Game::hook_view`]).
    fn json(&self, game: &Game, event: Value) -> Value {
        let content = &game.content;
        let planet = |i: u8| content.planets.planets[usize::from(i)].id.as_str();
        let resources: Map<String, Value> = (content.rules.resources.iter())
            .zip(&self.resources)
            .map(|(r, n)| (r.id.clone(), json!(n)))
            .collect();
        let research: Map<String, Value> = (content.research.tracks.iter())
            .zip(&self.research)
            .map(|(t, n)| (t.id.clone(), json!(n)))
            .collect();
        let mut buildings = Map::new();
        let mut types: Vec<&str> = Vec::new();
        for (building, at, charts) in &self.buildings {
            let planet = planet(*at);
            let entry = buildings
                .entry(building.to_string())
                .or_insert_with(|| json!({"total": 0, "on": {}}));
            entry["total"] = json!(entry["total"].as_i64().unwrap_or(0) + 1);
            let on = &mut entry["on"][planet];
            *on = json!(on.as_i64().unwrap_or(0) + 1);
            if *charts && !types.contains(&planet) {
                types.push(planet);
            }
        }
        types.sort_unstable();
        let a = &self.power;
        json!({
            "seat": self.seat,
            "faction": self.faction.as_str(),
            "round": self.round,
            "resources": resources,
            "power": {"area1": a[0], "area2": a[1], "area3": a[2], "gaia": a[3]},
            "gaiaformers": self.gaiaformers,
            "research": research,
            "buildings": buildings,
            "planet_types": types,
            "event": event,
        })
    }
}

#[cfg(test)]
mod tests {
    //! Hooks on the made-up game of `content/fixture.rs`: a second faction, `blips`, is added by
    //! an overlay with a script `t.rhai`; each test gives the script its own source.

    use std::sync::Arc;

    use crate::content::{fixture, Content, OverlaySource};
    use crate::game::hook_protocol::{content_names_hooks, KEPT_HOOK_ERRORS};
    use crate::game::{Decision, Game, Setup};
    use crate::notation::{Command, HexRef};
    use orrery_core::bot::RandomBot;
    use orrery_core::rng::Rng;

    /// The `blips` faction: every kind of hook, each naming a function of `t.rhai`.
    const BLIPS: &str = r#"
name: hooks
changes:
  - script: {file: t.rhai}
  - set: {kind: sector, id: s1, path: spaces, value: brbrbrbrbrbreeeeeer}
  - add: {kind: booster, value: {id: perk2, name: Perk 2, income: [gain: {vp: 1}]}}
  - add: {kind: booster, value: {id: perk3, name: Perk 3, pass: [gain: {vp: 1}]}}
  - add:
      kind: faction
      value:
        id: blips
        name: Blips
        home: blue
        abilities:
          - income: [script: {script: t.rhai, function: income}]
            action: {key: 1gold, effects: [script: {script: t.rhai, function: act}]}
            triggers:
              - {"on": {built: {buildings: [hut]}}, effects: [script: {script: t.rhai, function: built}]}
            modifiers:
              - cost_hook: {script: t.rhai, function: cost}
              - placement_hook: {script: t.rhai, function: place}
          - when: {script: {script: t.rhai, function: rich}}
            modifiers: [nav_range: 9]
          - action:
              key: 1vp
              effects: [place: {building: hut, verb: drop, creates_planet: blue, on_empty_space: true}]
  - set:
      kind: track
      id: lore
      path: levels.1.immediate
      value: [gain: {gold: 2}, script: {script: t.rhai, function: start}]
"#;

    /// Harmless versions of every function the faction names.
    const QUIET: &str = r#"
fn income(v) { [] }
fn act(v) { [] }
fn built(v) { [] }
fn cost(v) { #{} }
fn place(v) { true }
fn rich(v) { false }
fn start(v) { [] }
"#;

    /// The made-up game with `blips` and the given functions (replacing the quiet ones of the
    /// same name).
    fn content(script: &str) -> Arc<Content> {
        // The given functions first, so that their lines are the script's.
        let mut src = format!("{script}\n");
        for line in QUIET.lines() {
            let name = line.split(['(', ' ']).nth(1).unwrap_or("");
            if name.is_empty() || !script.contains(&format!("fn {name}(")) {
                src.push_str(line);
                src.push('\n');
            }
        }
        let overlay = OverlaySource {
            file: "hooks.yaml".into(),
            text: BLIPS.into(),
            scripts: vec![("t.rhai".into(), src)],
            problem: None,
        };
        match Content::load(&fixture::files(), &[overlay]) {
            Ok(c) => Arc::new(c),
            Err(d) => panic!("{d:?}"),
        }
    }

    /// A game past setup, `blips` (seat 0) to take its first turn.
    fn game(script: &str) -> Game {
        let content = content(script);
        let setup = Setup::random(&content, 2, &mut Rng::new(7)).expect("setup");
        let mut g = Game::new(content, setup).expect("game");
        for f in ["blips", "zorgs"] {
            g.apply_part(&Command::Faction(f.into())).expect("faction");
            g.apply_part(&Command::EndTurn).expect("end");
        }
        while !matches!(g.deciding_seat(), Some(0))
            || !matches!(g.next_decision(), Some(Decision::Turn(_)))
        {
            let part = g.legal_parts().into_iter().next().expect("a part");
            g.apply_part(&part).expect("setup part");
        }
        g
    }

    fn saved(g: &Game) -> String {
        serde_json::to_string(&g.state).expect("state")
    }

    fn gold(g: &Game, seat: usize) -> i32 {
        g.state.players[seat].resource(&g.content, "gold")
    }

    fn special() -> Command {
        Command::Special(crate::notation::parse_amounts("1gold").expect("key"))
    }

    #[test]
    fn base_content_names_no_hooks() {
        let c = Content::load(&fixture::files(), &[]).expect("valid");
        assert!(!content_names_hooks(&c));
        assert!(content_names_hooks(&content("")));
    }

    #[test]
    fn an_effect_hook_reads_the_view_and_its_effects_apply() {
        let mut g = game(
            "fn act(v) { [#{gain: #{gold: v.buildings.hut.total * 2}}, #{gain: #{vp: v.round}}] }",
        );
        let before = gold(&g, 0);
        let vp = g.state.players[0].resource(&g.content, "vp");
        assert!(g.legal_parts().contains(&special()));
        g.apply_part(&special()).expect("special action");
        assert_eq!(gold(&g, 0), (before + 2).min(9));
        assert_eq!(g.state.players[0].resource(&g.content, "vp"), vp + 1);
    }

    #[test]
    fn recorded_hook_calls_say_whose_hook_ran_and_what_it_returned() {
        let mut g = game("fn act(v) { #{gain: #{vp: v.round}} }");
        assert!(
            g.take_hook_calls().kept.is_empty(),
            "nothing kept unless asked"
        );
        g.record_hook_calls();
        g.apply_part(&special()).expect("special action");
        let calls = g.take_hook_calls();
        let act: Vec<_> = calls.kept.iter().filter(|c| c.function == "act").collect();
        assert_eq!(act.len(), 1, "{calls:?}");
        assert_eq!(act[0].seat, Some(0));
        assert_eq!(act[0].script, "t.rhai");
        assert_eq!(act[0].result, Ok(serde_json::json!({"gain": {"vp": 1}})));
        assert!(act[0].operations > 0);
        // A take empties the record; a failing hook is kept with its refusal.
        assert!(g.take_hook_calls().kept.is_empty());
        let mut g = game("fn act(v) {\n  throw \"no\";\n}");
        g.record_hook_calls();
        assert!(g.apply_part(&special()).is_err());
        let calls = g.take_hook_calls();
        let failed = calls
            .kept
            .iter()
            .find(|c| c.function == "act")
            .expect("kept");
        assert!(
            failed
                .result
                .as_ref()
                .is_err_and(|e| e.contains("line 2") && e.contains("no")),
            "{failed:?}"
        );
    }

    #[test]
    fn what_a_hook_returns_is_checked() {
        for (src, says) in [
            (
                "fn act(v) { #{gain: #{silver: 1}} }",
                "unknown resource code \"silver\"",
            ),
            ("fn act(v) { #{gian: #{gold: 1}} }", "not an effect"),
            ("fn act(v) { #{gain: #{gold: 5000}} }", "more than 1000"),
            // The checks YAML gets: amounts of 0 or more, every code known (zero or not).
            (
                "fn act(v) { #{gain: #{gold: -1000}} }",
                "-1000 is less than the minimum of 0 (at /gain/gold)",
            ),
            (
                "fn act(v) { #{gain: #{t: -1000}} }",
                "less than the minimum of 0",
            ),
            (
                "fn act(v) { #{gain: #{pw: -1000}} }",
                "less than the minimum of 0",
            ),
            (
                "fn act(v) { #{gain: #{zz: 0}} }",
                "unknown resource code \"zz\"",
            ),
            (
                "fn act(v) { #{gain_per: #{per: \"planet_types\", gain: #{vp: -1}}} }",
                "less than the minimum of 0",
            ),
            (
                "fn act(v) { #{script: #{script: \"t.rhai\", function: \"act\"}} }",
                "may not return a script",
            ),
        ] {
            let mut g = game(src);
            let before = saved(&g);
            // A failing hook is a content error: the part is listed, and playing it fails.
            assert!(g.legal_parts().contains(&special()), "{src}");
            let e = g.apply_part(&special()).unwrap_err();
            assert!(e.0.contains(says), "{src}: {e}");
            assert!(e.0.starts_with("script t.rhai, function act, line "), "{e}");
            assert_eq!(saved(&g), before);
        }
    }

    #[test]
    fn hostile_hooks_are_stopped_and_leave_the_state_as_it_was() {
        for (src, says) in [
            ("fn act(v) {\n  loop { }\n}", "too many operations"),
            (
                "fn act(v) { deep(0) }\nfn deep(n) {\n  deep(n + 1) + 1\n}",
                "nested too deeply",
            ),
            (
                "fn act(v) {\n  let s = \"ab\";\n  loop { s += s; }\n}",
                "too large",
            ),
            (
                "fn act(v) {\n  let a = [];\n  loop { a.push(1); }\n}",
                "too large",
            ),
            ("fn act(v) {\n  let x = 1;\n  x / 0\n}", "Division by zero"),
        ] {
            let mut g = game(src);
            let before = saved(&g);
            let e = g.apply_part(&special()).unwrap_err();
            assert!(e.0.contains(says), "{src}: {e}");
            assert!(e.0.contains("script t.rhai, function act, line "), "{e}");
            assert_eq!(saved(&g), before, "{src}");
            assert!(g.legal_parts().contains(&special()), "{src}");
        }
        // The line is where the error arose when the script knows it.
        let mut g = game("fn act(v) {\n  let x = 1;\n  x / 0\n}");
        let e = g.apply_part(&special()).unwrap_err();
        assert!(e.0.contains("line 3"), "{e}");
    }

    /// Every hut build on every hex of the map.
    fn every_build(g: &Game, building: &str) -> Vec<Command> {
        g.state
            .map
            .spaces
            .iter()
            .map(|s| Command::Build {
                building: building.into(),
                hex: HexRef::Axial {
                    q: s.hex.q,
                    r: s.hex.r,
                },
            })
            .collect()
    }

    /// Listing matches application: a build is listed exactly when it applies.
    fn builds_listed_exactly(g: &Game) -> usize {
        let listed = g.legal_parts();
        let mut applied = 0;
        for part in every_build(g, "hut") {
            let ok = g.clone().apply_part(&part).is_ok();
            let shown = listed.iter().any(|c| match (c, &part) {
                (
                    Command::Build { building, hex },
                    Command::Build {
                        building: b,
                        hex: h,
                    },
                ) => building == b && g.hex(hex).ok() == g.hex(h).ok(),
                _ => false,
            });
            assert_eq!(ok, shown, "{part}");
            applied += usize::from(ok);
        }
        applied
    }

    #[test]
    fn placement_and_cost_hooks_decide_builds_and_listing_agrees() {
        // Without hooks that matter, the seat can build somewhere.
        let g = game("");
        let free = builds_listed_exactly(&g);
        assert!(free > 0);
        // No hut on blue planets: fewer (or no) builds.
        let g = game(
            "fn place(v) { if v.action.planet == \"blue\" { \"no huts on blue\" } else { true } }",
        );
        let fewer = builds_listed_exactly(&g);
        assert!(fewer < free, "{fewer} vs {free}");
        // A cost hook making huts cost 9 gold: nothing affordable.
        let g = game("fn cost(v) { #{building: #{gold: 9}, range: #{}} }");
        assert_eq!(builds_listed_exactly(&g), 0);
        // A cost part below 0 (a gain in disguise) or naming an unknown code: refused, as
        // in YAML, so no build is listed.
        for src in [
            "fn cost(v) { #{building: #{gold: -5}} }",
            "fn cost(v) { #{building: #{zz: 0}} }",
        ] {
            let g = game(src);
            assert_eq!(builds_listed_exactly(&g), 0, "{src}");
        }
        // A cost hook making huts free: at least as many as before.
        let g = game("fn cost(v) { #{building: #{}, terraform: #{}, range: #{}} }");
        assert!(builds_listed_exactly(&g) >= free);
    }

    #[test]
    fn a_cost_hook_sees_the_site_and_changes_what_is_paid() {
        let script = "fn cost(v) {\n  let c = v.action.cost;\n  if v.action.neighbours.len() >= 0 { c.building = #{gold: 0}; }\n  c\n}";
        let mut g = game(script);
        let part = g
            .legal_parts()
            .into_iter()
            .find(|c| matches!(c, Command::Build { .. }))
            .expect("a build");
        let before = gold(&g, 0);
        let mut plain = game("");
        plain.apply_part(&part).expect("plain build");
        g.apply_part(&part).expect("hooked build");
        // The hut's own gold is not paid with the hook.
        assert_eq!(gold(&g, 0) - gold(&plain, 0), 1, "{before}");
    }

    #[test]
    fn a_failing_placement_hook_names_its_line_and_refuses() {
        let mut g = game("fn place(v) {\n  v.nothing.here()\n}");
        let before = saved(&g);
        assert!(!g
            .legal_parts()
            .iter()
            .any(|c| matches!(c, Command::Build { .. })));
        for part in every_build(&g, "hut") {
            if let Err(e) = g.apply_part(&part) {
                if e.0.contains("function place") {
                    assert!(e.0.contains("line 2"), "{e}");
                }
            }
            assert_eq!(saved(&g), before);
        }
    }

    #[test]
    fn trigger_hooks_run_and_their_errors_refuse_the_build() {
        let mut g = game("fn built(v) { #{gain: #{vp: if v.event.kind == \"built\" && v.event.building == \"hut\" { 4 } else { 0 }}} }");
        let part = g
            .legal_parts()
            .into_iter()
            .find(|c| matches!(c, Command::Build { .. }))
            .expect("a build");
        let vp = g.state.players[0].resource(&g.content, "vp");
        g.apply_part(&part).expect("build");
        assert_eq!(g.state.players[0].resource(&g.content, "vp"), vp + 4);

        let mut g = game("fn built(v) {\n  throw \"no\";\n}");
        let before = saved(&g);
        let hut = |c: &Command| matches!(c, Command::Build { building, .. } if building == "hut");
        assert!(g.legal_parts().iter().any(hut));
        let e = g.apply_part(&part).unwrap_err();
        assert!(e.0.contains("script t.rhai, function built, line 2"), "{e}");
        assert_eq!(saved(&g), before);
    }

    /// The special action whose follow-up places a hut on empty space (`drop <hex>`).
    fn drop_action() -> Command {
        Command::Special(crate::notation::parse_amounts("1vp").expect("key"))
    }

    /// `drop` on every space of the map.
    fn every_drop(g: &Game) -> Vec<Command> {
        g.state
            .map
            .spaces
            .iter()
            .map(|s| Command::Other {
                verb: "drop".into(),
                args: vec![g.hex_word(s.hex)],
            })
            .collect()
    }

    /// A game whose seat 0 has just taken the `drop` action; the drops listed, each checked
    /// to apply exactly when listed.
    fn drops_listed_exactly(script: &str) -> (Game, Vec<Command>) {
        let mut g = game(script);
        assert!(g.legal_parts().contains(&drop_action()), "{script}");
        g.apply_part(&drop_action()).expect("drop action");
        let listed = g.legal_parts();
        let mut drops = Vec::new();
        for part in every_drop(&g) {
            let ok = g.clone().apply_part(&part).is_ok();
            assert_eq!(ok, listed.contains(&part), "{script}: {part}");
            if ok {
                drops.push(part);
            }
        }
        (g, drops)
    }

    #[test]
    fn placement_hooks_decide_place_follow_ups_and_listing_agrees() {
        let (g, free) = drops_listed_exactly("");
        let first = free.first().expect("a drop").clone();
        let Command::Other { args, .. } = &first else {
            unreachable!()
        };
        let hex = g.hex(&crate::notation::parse_hex_ref(&args[0]).expect("hex"));
        let name = g.hex_name(hex.expect("on the map"));
        let script = format!(
            "fn place(v) {{ if v.action.planet == \"void\" && v.action.hex == \"{name}\" {{ \"not there\" }} else {{ true }} }}"
        );
        let (mut g, hooked) = drops_listed_exactly(&script);
        assert_eq!(hooked.len() + 1, free.len());
        assert!(!hooked.contains(&first));
        let before = saved(&g);
        let e = g.apply_part(&first).unwrap_err();
        assert!(e.0.contains("not there (t.rhai, function place)"), "{e}");
        assert_eq!(saved(&g), before);
        // A hook refusing every placement on empty space: the action is not listed, as its
        // follow-up could not be done.
        let g = game("fn place(v) { v.action.planet != \"void\" }");
        assert!(!g.legal_parts().contains(&drop_action()));
        // A cost hook on the placement's range: making it cost 9 gold leaves nothing payable.
        let g = game("fn cost(v) { #{range: #{gold: 9}} }");
        assert!(!g.legal_parts().contains(&drop_action()));
    }

    #[test]
    fn starting_research_levels_run_their_effect_hooks() {
        // Zorgs (seat 1) start on lore 1, whose immediate effects name `start`.
        let vp = |g: &Game, seat: usize| g.state.players[seat].resource(&g.content, "vp");
        let quiet = game("");
        let hooked = game("fn start(v) { #{gain: #{vp: v.research.lore * 7}} }");
        assert_eq!(vp(&hooked, 1), vp(&quiet, 1) + 7);
        assert_eq!(vp(&hooked, 0), vp(&quiet, 0));
        // A failing one refuses the part that lays out the boards, leaving the state as it was.
        let content = content("fn start(v) {\n  throw \"no start\"\n}");
        let setup = Setup::random(&content, 2, &mut Rng::new(7)).expect("setup");
        let mut g = Game::new(content, setup).expect("game");
        g.apply_part(&Command::Faction("blips".into()))
            .expect("faction");
        g.apply_part(&Command::EndTurn).expect("end");
        let before = saved(&g);
        let zorgs = Command::Faction("zorgs".into());
        let e = g.apply_part(&zorgs).unwrap_err();
        assert!(e.0.contains("script t.rhai, function start, line 2"), "{e}");
        assert_eq!(saved(&g), before);
        assert!(g.legal_parts().contains(&zorgs));
    }

    #[test]
    fn validate_checks_each_hook_function_exists_and_takes_the_view() {
        // The load errors of the faction with the given script in full.
        let errors = |script: String| -> Vec<String> {
            let overlay = OverlaySource {
                file: "hooks.yaml".into(),
                text: BLIPS.into(),
                scripts: vec![("t.rhai".into(), script)],
                problem: None,
            };
            match Content::load(&fixture::files(), &[overlay]) {
                Ok(_) => Vec::new(),
                Err(d) => d.iter().map(ToString::to_string).collect(),
            }
        };
        assert_eq!(errors(QUIET.into()), Vec::<String>::new());
        let line = 1 + BLIPS
            .lines()
            .position(|l| l.contains("function: act"))
            .expect("act is named");
        let e = errors(QUIET.replace("fn act(v) { [] }", "fn act(v, w) { [] }"));
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].starts_with(&format!("hooks.yaml:{line}:")), "{e:?}");
        assert!(
            e[0].contains("function \"act\" of script \"t.rhai\" takes 2 parameter(s)"),
            "{e:?}"
        );
        let e = errors(QUIET.replace("fn rich(v) { false }", "fn rich() { false }"));
        assert!(
            e.len() == 1 && e[0].contains("takes 0 parameter(s)"),
            "{e:?}"
        );
        let e = errors(QUIET.replace("fn rich(v) { false }", ""));
        assert!(
            e.len() == 1 && e[0].contains("script \"t.rhai\" has no function \"rich\""),
            "{e:?}"
        );
    }

    #[test]
    fn condition_hooks_switch_abilities() {
        // Rich with at least 3 gold: range 9 reaches every planet.
        let poor = game("");
        let rich = game("fn rich(v) { v.resources.gold >= 0 }");
        assert!(rich.state.players[0].hooks_holding.len() == 1);
        assert!(poor.state.players[0].hooks_holding.is_empty());
        assert!(builds_listed_exactly(&rich) >= builds_listed_exactly(&poor));
        // A condition hook answering something else refuses the move that asks it.
        let content = content("fn rich(v) { 7 }");
        let setup = Setup::random(&content, 2, &mut Rng::new(7)).expect("setup");
        let mut g2 = Game::new(content, setup).expect("game");
        let e = ["blips", "zorgs"]
            .into_iter()
            .find_map(|f| {
                let before = saved(&g2);
                let r = g2.apply_part(&Command::Faction(f.into()));
                if r.is_err() {
                    assert_eq!(saved(&g2), before);
                }
                r.err().or_else(|| g2.apply_part(&Command::EndTurn).err())
            })
            .expect("refused");
        assert!(
            e.0.contains("function rich") && e.0.contains("true or false"),
            "{e}"
        );
        // The error names the seat whose hook failed: every seat's conditions are asked
        // after any seat's move, so the move alone would blame the wrong player.
        let owner = g2
            .state
            .players
            .iter()
            .position(|p| p.faction == "blips")
            .map(|s| format!("the condition hook of seat {} (blips): ", s + 1));
        assert!(owner.is_some_and(|o| e.0.starts_with(&o)), "{e}");
    }

    #[test]
    fn failing_hooks_met_in_listing_are_kept_and_counted_and_their_parts_listed() {
        // An action hook failing on every call: listing tries the special action (its hook
        // could return a follow-up), meets the failure, and lists the action all the same;
        // the game says why, counted, without repeating one error.
        let g = game("fn act(v) {\n  throw \"broken map\"\n}");
        assert!(g.hook_errors().0.is_empty());
        for _ in 0..3 {
            assert!(g.legal_parts().contains(&special()));
        }
        let (kept, total) = g.hook_errors();
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert!(
            kept[0]
                .0
                .starts_with("script t.rhai, function act, line 2: ")
                && kept[0].0.contains("broken map"),
            "{kept:?}"
        );
        assert_eq!((kept[0].1, total), (3, 3));
        assert_eq!(
            g.hook_error_lines(),
            [format!("hook error (3×): {}", kept[0].0)]
        );
        // Clones (listing's copies, bots' lookahead) report into the same account.
        let copy = g.clone();
        assert!(copy.legal_parts().contains(&special()));
        assert_eq!(g.hook_errors().1, 4);
        // Only the first few distinct errors are kept; the rest are counted.
        let g = game("fn act(v) { throw `broken ${v.round}${g_salt()}` }\nfn g_salt() { 0 }");
        g.legal_parts();
        assert!(g.hook_errors().0.len() <= KEPT_HOOK_ERRORS);
    }

    #[test]
    fn a_games_hooks_share_one_operation_budget() {
        let spin = "fn act(v) { let n = 0; for i in 0..2000 { n += i; } [] }";
        let g = game(spin);
        assert!(g.legal_parts().contains(&special()));
        let per_listing = g.hook_operations();
        assert!(per_listing > 2000, "{per_listing}");
        // A budget smaller than one call: the hook is stopped, and says so.
        let mut g = game(spin);
        g.set_hook_budget(100);
        let before = saved(&g);
        assert!(g.legal_parts().contains(&special()));
        let e = g.apply_part(&special()).unwrap_err();
        assert!(e.0.contains("used their budget of 100 operations"), "{e}");
        assert_eq!(saved(&g), before);
        assert!(g.hook_error_lines()[0].contains("budget of 100 operations"));
        // A budget for a few calls: listing on copies spends it; asked again about the same
        // view, the hook's return is remembered and costs nothing.
        let g = game(spin);
        g.set_hook_budget(per_listing * 3);
        assert!(g.legal_parts().contains(&special()));
        assert_eq!(g.hook_operations(), per_listing);
        assert!((0..10).all(|_| g.legal_parts().contains(&special())));
        assert_eq!(g.hook_operations(), per_listing);
        // While calls are recorded every call runs: the budget is spent, and the action,
        // still listed, is refused with the budget's error.
        g.record_hook_calls();
        assert!((0..10).all(|_| g.legal_parts().contains(&special())));
        assert!(g.hook_operations() <= per_listing * 3 + 1);
        assert!(g.hook_error_lines()[0].contains("budget of"));
        let e = g.clone().apply_part(&special()).unwrap_err();
        assert!(e.0.contains("used their budget of"), "{e}");
    }

    #[test]
    fn a_bot_meeting_a_failing_hook_says_which_hook_failed() {
        // An income hook that loops: the game cannot start round 1, and the failure is the
        // listed part refused with the script's error.
        let content = content("fn income(v) {\n  loop { }\n}");
        let mut g = Game::new(
            content.clone(),
            Setup::random(&content, 2, &mut Rng::new(7)).expect("setup"),
        )
        .expect("game");
        let mut bots: Vec<Box<dyn orrery_core::bot::Bot<Game> + Send>> = (0..2)
            .map(|s| orrery_core::bot::by_name::<Game>("random", s).expect("bot"))
            .collect();
        let e = orrery_core::bot::play_game(&mut g, &mut bots, 1000, |_, _, _| {}).unwrap_err();
        let shown = e.to_string();
        assert!(
            shown.contains("refused")
                && shown.contains("hook error (")
                && shown.contains(
                    "function income, line 1 (where the function begins): too many operations"
                ),
            "{shown}"
        );
    }

    #[test]
    fn a_listed_pass_whose_income_hook_fails_is_refused_with_the_hook_error() {
        // The income hook fails from round 2 on: passing last in round 1 ends the round, and
        // a listed pass whose line (with its implied end) does not apply is refused with the
        // hook's error, the state as it was.
        let mut g = game("fn income(v) { if v.round >= 2 { throw \"no income\" } [] }");
        let (mut checked, mut refused) = (0, 0);
        for _ in 0..200 {
            if g.state.round > 1 || g.deciding_seat().is_none() {
                break;
            }
            let parts = g.legal_parts();
            for p in parts.iter().filter(|p| matches!(p, Command::Pass(_))) {
                let mut line = g.clone();
                let applied = line.apply(&crate::notation::MoveLine::Turn {
                    actor: crate::notation::Actor::Seat(g.deciding_seat().unwrap_or(0) as u8 + 1),
                    parts: vec![p.clone()],
                });
                if let Err(e) = applied {
                    assert!(
                        e.0.contains("function income") && e.0.contains("no income"),
                        "{e}"
                    );
                    assert_eq!(saved(&line), saved(&g));
                    refused += 1;
                }
                checked += 1;
            }
            let Some(next) = parts.into_iter().next() else {
                break;
            };
            if g.apply_part(&next).is_err() {
                break;
            }
        }
        assert!(checked > 0 && refused > 0, "{checked} {refused}");
    }

    #[test]
    fn income_hooks_pay_their_gains() {
        // The same game with and without the hook's 5 points of income.
        let hooked = game("fn income(v) { #{gain: #{vp: v.round * 5}} }");
        let quiet = game("");
        let vp = |g: &Game| g.state.players[0].resource(&g.content, "vp");
        assert_eq!(vp(&hooked), vp(&quiet) + 5);
        let income = |g: &Game| g.state.players[0].vp_sources.get("income").copied();
        assert_eq!(income(&hooked), Some(income(&quiet).unwrap_or(0) + 5));
        // A failing income hook refuses the move that ends the setup.
        let content = content("fn income(v) {\n  throw \"broke\"\n}");
        let mut g = Game::new(
            content.clone(),
            Setup::random(&content, 2, &mut Rng::new(7)).expect("setup"),
        )
        .expect("game");
        for f in ["blips", "zorgs"] {
            g.apply_part(&Command::Faction(f.into())).expect("faction");
            g.apply_part(&Command::EndTurn).expect("end");
        }
        // The first listed part that runs the hook is refused with its error: the end of the
        // last booster choice, which starts round 1 and its income; a line choosing any
        // booster there is refused the same way.
        let e = first_refusal(&mut g);
        assert!(
            e.contains("script t.rhai, function income, line 2: ") && e.contains("broke"),
            "{e}"
        );
        assert_eq!(g.state.round, 0);
        // It stays refused, with the same error, the state as it was.
        let before = saved(&g);
        let part = g
            .legal_parts()
            .into_iter()
            .next()
            .expect("the refused part");
        let again = g.apply_part(&part).unwrap_err();
        assert_eq!(again.0, e);
        assert_eq!(saved(&g), before);
    }

    /// Plays the first listed part until one is refused: its reason, the state left as it was.
    fn first_refusal(g: &mut Game) -> String {
        while let Some(part) = g.legal_parts().into_iter().next() {
            let before = saved(g);
            if let Err(e) = g.apply_part(&part) {
                assert_eq!(saved(g), before);
                return e.0;
            }
        }
        panic!("no part was refused");
    }

    #[test]
    fn an_income_hook_returning_more_than_gains_is_a_kept_hook_error() {
        // Found by the property tests: an income hook returning `steps` stopped the game at
        // its first income with "no legal part", the hook's error nowhere.
        let content = content("fn income(v) { #{steps: 1} }");
        let mut g = Game::new(
            content.clone(),
            Setup::random(&content, 2, &mut Rng::new(7)).expect("setup"),
        )
        .expect("game");
        for f in ["blips", "zorgs"] {
            g.apply_part(&Command::Faction(f.into())).expect("faction");
            g.apply_part(&Command::EndTurn).expect("end");
        }
        let e = first_refusal(&mut g);
        assert!(e.contains("income pays without a choice"), "{e}");
        assert_eq!(
            g.state.round, 0,
            "setup stops before the income that would fail"
        );
        let (kept, total) = g.hook_errors();
        assert!(total > 0);
        assert!(
            kept.iter().any(
                |(m, _)| m.contains("script t.rhai, function income, line 1")
                    && m.contains("income pays without a choice")
            ),
            "{kept:?}"
        );
    }

    #[test]
    fn a_pass_hook_returning_more_than_gains_is_refused_and_kept() {
        let pass_game = |leave: &str| {
            let mut src = format!("{leave}\n");
            src.push_str(QUIET);
            let overlay = OverlaySource {
                file: "hooks.yaml".into(),
                text: BLIPS.replace(
                    "          - when: {script:",
                    "          - pass: [script: {script: t.rhai, function: leave}]\n          - when: {script:",
                ),
                scripts: vec![("t.rhai".into(), src)],
                problem: None,
            };
            let content = Arc::new(Content::load(&fixture::files(), &[overlay]).expect("loads"));
            let setup = Setup::random(&content, 2, &mut Rng::new(7)).expect("setup");
            let mut g = Game::new(content, setup).expect("game");
            for f in ["blips", "zorgs"] {
                g.apply_part(&Command::Faction(f.into())).expect("faction");
                g.apply_part(&Command::EndTurn).expect("end");
            }
            while !matches!(g.deciding_seat(), Some(0))
                || !matches!(g.next_decision(), Some(Decision::Turn(_)))
            {
                let part = g.legal_parts().into_iter().next().expect("a part");
                g.apply_part(&part).expect("setup part");
            }
            g
        };
        let is_pass = |p: &Command| matches!(p, Command::Pass(_));
        // A pass hook paying points: the pass is listed and pays.
        let g = pass_game("fn leave(v) { #{gain: #{vp: 2}} }");
        let pass = g
            .legal_parts()
            .into_iter()
            .find(is_pass)
            .expect("pass listed");
        let mut after = g.clone();
        after.apply_part(&pass).expect("pass applies");
        let vp = |g: &Game| g.state.players[0].resource(&g.content, "vp");
        assert!(vp(&after) >= vp(&g) + 2);
        // A pass hook returning a follow-up (nothing can follow a pass): refused, kept.
        let mut g = pass_game("fn leave(v) { \"tech_tile\" }");
        assert!(g.legal_parts().iter().any(is_pass));
        let before = saved(&g);
        let e = g.apply_part(&pass).unwrap_err();
        assert!(
            e.0.starts_with("script t.rhai, function leave, line 1: ")
                && e.0.contains("a pass pays without a choice"),
            "{e}"
        );
        assert_eq!(saved(&g), before);
        assert!(g.hook_errors().1 > 0);
    }

    #[test]
    fn random_games_with_every_hook_finish_and_every_listed_part_applies() {
        let script = r#"
fn income(v) { #{gain: #{gold: v.planet_types.len()}} }
fn act(v) { [#{gain: #{vp: v.research.lore}}, "tech_tile"] }
fn built(v) { if v.event.planet == "blue" { #{gain: #{vp: 1}} } else { [] } }
fn cost(v) { let c = v.action.cost; if v.action.neighbours.len() > 2 { c.building = #{}; } c }
fn place(v) { v.action.hex != "" }
fn rich(v) { v.resources.gold > 4 }
"#;
        let content = content(script);
        for seed in 0..4 {
            let setup = Setup::random(&content, 2, &mut Rng::new(seed)).expect("setup");
            let mut g = Game::new(content.clone(), setup).expect("game");
            for f in ["blips", "zorgs"] {
                g.apply_part(&Command::Faction(f.into())).expect("faction");
                g.apply_part(&Command::EndTurn).expect("end");
            }
            let mut bot = RandomBot::new(seed, 2);
            let mut n = 0;
            while !g.finished() {
                for part in g.legal_parts() {
                    let mut copy = g.clone();
                    copy.apply_part(&part)
                        .unwrap_or_else(|e| panic!("seed {seed}: listed {part} refused: {e}"));
                }
                bot.step(&mut g)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                n += 1;
                assert!(n < 5000, "no end");
            }
        }
    }

    #[test]
    fn remembered_site_and_effect_answers_are_the_afresh_answers_and_follow_the_facts() {
        use crate::content::{Bundle, ScriptRef};
        use crate::game::hook_protocol::{CostParts, FactKey, Site, SiteCost};
        use std::collections::HashMap;
        use std::sync::Arc;
        let script = "fn cost(v) { let c = v.action.cost; if v.action.neighbours.len() > 3 { c.building = #{gold: v.resources.gold % 3}; } c }\n\
                      fn place(v) { if v.action.planet == \"red\" && v.round < 3 { \"not yet\" } else { true } }\n\
                      fn act(v) { #{gain: #{vp: v.resources.gold + v.buildings.len()}} }";
        let mut g = game(script);
        let act = ScriptRef {
            script: "t.rhai".into(),
            function: "act".into(),
        };
        let mut bot = RandomBot::new(5, 2);
        // Every key met, with the context (or view) it stands for: equal keys, equal contexts.
        let mut sites: HashMap<Box<[u64]>, (serde_json::Value, CostParts)> = HashMap::new();
        let mut views: HashMap<Box<[u64]>, super::ViewFacts> = HashMap::new();
        let (mut hits, mut steps) = (0, 0);
        while !g.finished() && steps < 120 {
            steps += 1;
            for seat in 0..2 {
                let mut key = FactKey::default();
                g.view_key(seat, &mut key);
                let facts = g.view_facts(seat);
                let known = views.entry(key.boxed()).or_insert_with(|| facts.clone());
                assert_eq!(*known, facts, "one key, two views");
            }
            if steps % 4 == 0 {
                let mods = g.modifiers(0);
                for idx in 0..g.state.map.spaces.len() {
                    let site = Site {
                        building: "hut",
                        idx,
                        upgrade_from: None,
                        key_start: None,
                    };
                    let parts = CostParts {
                        building: std::borrow::Cow::Owned(Bundle::of(&[("gold", 2)])),
                        range: std::borrow::Cow::Owned(Bundle::of(&[("gold", (idx % 2) as i32)])),
                        ..Default::default()
                    };
                    let first = g.hooked_cost(0, &mods, site, parts.clone());
                    let remembered = g.hooked_cost(0, &mods, site, parts.clone());
                    let afresh = g.ask_site_hooks(0, &mods, site, parts.clone());
                    let text = |r: Result<Bundle, crate::game::MoveError>| r.map_err(|e| e.0);
                    let hooked =
                        |r: Result<SiteCost, crate::game::MoveError>| text(r.map(|c| (*c).clone()));
                    // Asked again, the answer remembered is shared, not copied.
                    match (&first, &remembered) {
                        (Ok(SiteCost::Shared(a)), Ok(SiteCost::Shared(b))) => {
                            assert!(Arc::ptr_eq(a, b))
                        }
                        (Err(_), Err(_)) => {}
                        other => panic!("a cost the hooks answered, not shared: {other:?}"),
                    }
                    assert_eq!(hooked(first), text(afresh.clone()));
                    assert_eq!(hooked(remembered), text(afresh));
                    let mut key = FactKey::default();
                    g.site_key(0, &mods, site, &parts, &mut key);
                    // Its start found once for every site: the same table, the same answer.
                    let start = g.site_start(0, &mods);
                    let started = Site {
                        key_start: Some(&start),
                        ..site
                    };
                    assert_eq!(
                        hooked(g.hooked_cost(0, &mods, started, parts.clone())),
                        text(g.ask_site_hooks(0, &mods, site, parts.clone()))
                    );
                    let ctx = (g.site_context(0, site), parts);
                    match sites.get(&key.boxed()) {
                        Some(known) => {
                            assert_eq!(*known, ctx, "one key, two contexts");
                            hits += 1;
                        }
                        None => {
                            sites.insert(key.boxed(), ctx);
                        }
                    }
                }
                let first = g.hook_effects(0, &act, "action").expect("effects");
                let remembered = g.hook_effects(0, &act, "action").expect("effects");
                let afresh = g.ask_effect_hook(0, &act, "action").expect("effects");
                assert_eq!((&first, &remembered), (&afresh, &afresh));
            }
            bot.step(&mut g).expect("a step");
        }
        // The state moved on (new keys) and came back to facts met before (the same keys).
        assert!(
            views.len() > 10 && sites.len() > 100 && hits > 0,
            "{} {} {hits}",
            views.len(),
            sites.len()
        );
    }
}
