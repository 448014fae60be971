//! The automatic flow: setup steps, income, Gaia phase, clean-up, final scoring.

use std::collections::BTreeMap;
use std::sync::Arc;

use smallvec::SmallVec;

use super::{err, Decision, Game, IncomeEvent, MoveError, Stage, Structure};
use crate::content::{Auction, Bundle, Effect, Modifier, Phase, PlanetKind};
use crate::lookup::by_id;
use crate::notation::Command;
use crate::notation::Word;
use crate::player::{Player, VP};
use crate::power::Area;

impl Game {
    pub(super) fn choose_faction(&mut self, seat: usize, part: &Command) -> Result<(), MoveError> {
        let auction = self.content.rules.options.auction;
        let id = match part {
            Command::Faction(id) => id,
            Command::Bid { .. } if auction == Auction::BidWhileChoosing => {
                return self.bid(seat, part)
            }
            _ => return err("expected `faction <id>`"),
        };
        let faction = self
            .content
            .faction(id)
            .ok_or_else(|| MoveError(format!("unknown faction \"{id}\"")))?;
        for other in self
            .state
            .chosen
            .iter()
            .filter_map(|f| self.content.faction(f))
        {
            if other.home == faction.home {
                return err(format!("{id} shares its home planet with {}", other.id));
            }
        }
        self.state.chosen.push(id.clone());
        match auction {
            Auction::None => self.state.players[seat].faction = id.clone(),
            Auction::BidWhileChoosing => {
                self.state.players[seat].faction = id.clone();
                self.state.bids.resize(self.state.players.len(), 0);
                self.state.bids[seat] = 0;
                return self.next_bidder(seat);
            }
            Auction::ChooseBid => {
                if self.state.chosen.len() == self.state.players.len() {
                    // Every faction is named: bidding starts with the first seat.
                    self.state.queue.push_front(Decision::Bid(0));
                }
                return Ok(());
            }
        }
        if self.state.players.iter().all(|p| !p.faction.is_empty()) {
            self.lay_out_boards()?;
        }
        Ok(())
    }

    /// A bid (`bid <faction> <n>`): the faction must have been named, and the bid must exceed
    /// its current bid by 1 to 9 (a faction nobody holds yet starts at 0); whoever held it
    /// loses it and bids again.
    pub(super) fn bid(&mut self, seat: usize, part: &Command) -> Result<(), MoveError> {
        let Command::Bid { faction, amount } = part else {
            return err("expected `bid <faction> <amount>`");
        };
        if !self.state.chosen.contains(faction) {
            return err(format!("{faction} has not been chosen"));
        }
        let holder = self
            .state
            .players
            .iter()
            .position(|p| p.faction == *faction);
        let (low, high) = Self::bid_range(holder.map(|h| self.seat_bid(h)));
        if *amount < low || *amount > high {
            return err(format!("a bid for {faction} is {low} to {high}"));
        }
        if let Some(h) = holder {
            self.state.players[h].faction = Word::default();
        }
        self.state.players[seat].faction = faction.clone();
        self.state.bids.resize(self.state.players.len(), 0);
        self.state.bids[seat] = *amount;
        self.next_bidder(seat)
    }

    /// What a seat bid for its faction (0 without an auction).
    pub(crate) fn seat_bid(&self, seat: usize) -> u32 {
        self.state.bids.get(seat).copied().unwrap_or(0)
    }

    /// The bids allowed over a faction's current bid (`None`: nobody holds it).
    pub(crate) fn bid_range(current: Option<u32>) -> (u32, u32) {
        match current {
            Some(b) => (b.saturating_add(1), b.saturating_add(9)),
            None => (0, 8),
        }
    }

    /// After a bid or choice: the next seat (after `seat`, cyclically) without a faction
    /// decides; when every seat has one, the boards are laid out.
    fn next_bidder(&mut self, seat: usize) -> Result<(), MoveError> {
        let n = self.state.players.len();
        let next = (1..=n)
            .map(|i| (seat + i) % n)
            .find(|s| self.state.players[*s].faction.is_empty());
        self.state
            .queue
            .retain(|d| !matches!(d, Decision::Faction(_) | Decision::Bid(_)));
        match next {
            Some(s) if self.content.rules.options.auction == Auction::ChooseBid => {
                self.state.queue.push_front(Decision::Bid(s));
            }
            Some(s) => self.state.queue.push_front(Decision::Faction(s)),
            None => {
                // The table order is the order the factions were first chosen.
                let chosen = self.state.chosen.clone();
                self.state.order = chosen
                    .iter()
                    .filter_map(|f| self.state.players.iter().position(|p| p.faction == *f))
                    .collect();
                self.lay_out_boards()?;
            }
        }
        Ok(())
    }

    /// Every seat has a faction: boards are laid out and the setup placements queued.
    fn lay_out_boards(&mut self) -> Result<(), MoveError> {
        // Each faction's board is resolved once per content and shared (`SeatFixed::of`).
        self.refresh_seats();
        for s in 0..self.state.players.len() {
            let Some(fixed) = self.seats.get(s).and_then(Option::as_ref) else {
                let f = self.state.players[s].faction.to_string();
                return Err(MoveError(
                    crate::player::SetupError::UnknownFaction(f).to_string(),
                ));
            };
            let faction = &self.content.factions[fixed.faction];
            let player = Player::starting(&self.content, faction, &fixed.board);
            self.state.players[s] = player.into();
        }
        if self.hooked {
            self.start_research_hooks()?;
        }
        self.queue_setup();
        Ok(())
    }

    /// Runs the effect hooks of the research levels each seat starts on (their gains are
    /// part of the starting holdings), seat by seat once every board is laid out.
    fn start_research_hooks(&mut self) -> Result<(), MoveError> {
        for seat in 0..self.state.players.len() {
            let mut hooks = Vec::new();
            for (track, level) in &self.board(seat).research {
                let Some(t) = by_id(&self.content.research.tracks, track) else {
                    continue;
                };
                for l in t.levels.iter().take(*level as usize + 1).skip(1) {
                    for e in &l.immediate {
                        if let Effect::Script(s) = e {
                            hooks.push(s.clone());
                        }
                    }
                }
            }
            for s in &hooks {
                self.run_effect_hook(seat, s, "research")?;
            }
        }
        Ok(())
    }

    /// Queues starting placements by pass, then booster choices in reverse seat order.
    fn queue_setup(&mut self) {
        let order = self.state.order;
        // Per pass: the placements that go first, then the others, as (seat, building).
        type Pass = (Vec<(usize, String)>, Vec<(usize, String)>);
        let mut passes: BTreeMap<u32, Pass> = BTreeMap::new();
        for seat in &order {
            for p in &self.board(seat).setup {
                let (first, rest) = passes.entry(p.pass).or_default();
                let list = if p.first_in_pass { first } else { rest };
                list.push((seat, p.building.clone()));
            }
        }
        for (pass, (mut first, mut items)) in passes {
            if pass % 2 == 0 {
                items.reverse();
            }
            first.append(&mut items);
            for (seat, b) in first {
                self.state
                    .queue
                    .push_back(Decision::Place(seat, b.as_str().into()));
            }
        }
        for seat in order.iter().rev() {
            self.state.queue.push_back(Decision::Booster(seat));
        }
    }

    pub(super) fn place_start(
        &mut self,
        seat: usize,
        building: &str,
        part: &Command,
    ) -> Result<(), MoveError> {
        let idx = self.start_space(seat, building, part)?;
        self.put_structure(seat, idx, building, false, false);
        Ok(())
    }

    /// The space a starting `building` of the seat goes on as `part` places it, checked
    /// without changing anything: a free space of the seat's home planet.
    pub(super) fn start_space(
        &self,
        seat: usize,
        building: &str,
        part: &Command,
    ) -> Result<usize, MoveError> {
        let Command::Build { building: b, hex } = part else {
            return err(format!("expected `build {building} <hex>`"));
        };
        if b != building {
            return err(format!("expected to place a {building}, not a {b}"));
        }
        let hex = self.hex(hex)?;
        let idx = self.state.map.space_index(hex).expect("on map");
        if self.state.structures.contains_key(&idx) {
            return err(format!("{} is occupied", self.hex_name(hex)));
        }
        let home = &self.faction(seat).home;
        let planet = &self.content.planets.planets[usize::from(self.state.planets[idx])];
        if &planet.id != home {
            return err(format!(
                "a starting {building} goes on {home}, not {}",
                planet.id
            ));
        }
        Ok(idx)
    }

    pub(super) fn start_booster(&mut self, seat: usize, part: &Command) -> Result<(), MoveError> {
        let Command::Booster(id) = part else {
            return err("expected `booster <id>`");
        };
        self.take_booster(seat, id)
    }

    /// Takes an available booster.
    pub(crate) fn take_booster(&mut self, seat: usize, id: &str) -> Result<(), MoveError> {
        let pos = self
            .state
            .boosters
            .iter()
            .position(|b| b == id)
            .ok_or_else(|| MoveError(format!("booster {id} is not available")))?;
        self.state.boosters.remove(pos);
        *self.state.players[seat].booster = Some(id.into());
        self.state.players[seat].log_source("booster");
        Ok(())
    }

    /// Forgets the income of a building's slot `n` as it leaves the board. Slots with the same
    /// income are alike, so what leaves the income order is the earliest acquired of them
    /// (the others keep their places, renamed to the slots that stay).
    fn unlog_building(&mut self, seat: usize, building: &str, n: u32) {
        // The slots are read through a handle on the seats' fixed facts, not copied.
        let h = self.handles();
        let slots: &[Vec<Effect>] = h
            .board(seat)
            .and_then(|b| b.building(building))
            .map_or(&[], |b| &b.income);
        let key = |k: u32| crate::player::slot_key(building, k);
        let spec = (n as usize)
            .checked_sub(1)
            .and_then(|i| slots.get(i))
            .filter(|e| !e.is_empty());
        let p = &mut self.state.players[seat];
        let Some(spec) = spec else {
            p.unlog_source(&key(n));
            return;
        };
        let alike: smallvec::SmallVec<[u32; 8]> = (1..=n)
            .filter(|k| slots.get(*k as usize - 1) == Some(spec))
            .collect();
        let mut places: smallvec::SmallVec<[usize; 8]> = alike
            .iter()
            .filter_map(|k| {
                let key = key(*k);
                p.income_log.keys().iter().position(|l| *l == key)
            })
            .collect();
        places.sort_unstable();
        if places.len() != alike.len() {
            p.unlog_source(&key(n));
            return;
        }
        let earliest = places.remove(0);
        // The earliest place leaves; the later places are renamed to the slots that stay.
        let renamed = alike.iter().filter(|k| **k != n).zip(&places);
        (p.income_log).remove_and_rename(earliest, renamed.map(|(k, at)| (*at, key(*k))));
    }

    /// Puts a building on a space (no costs, no triggers).
    pub(crate) fn put_structure(
        &mut self,
        seat: usize,
        idx: usize,
        building: &str,
        shared: bool,
        off_board: bool,
    ) {
        let list = self.state.structures.entry_or_default(idx);
        if let Some(s) = list.iter_mut().find(|s| s.seat == seat) {
            let old = std::mem::replace(&mut s.building, building.into());
            if !s.off_board {
                let n = self.state.players[seat].built_count(&old);
                self.unlog_building(seat, &old, n);
                self.state.players[seat]
                    .built
                    .insert(old, n.saturating_sub(1));
            }
        } else {
            list.push(Structure {
                seat,
                building: building.into(),
                shared,
                off_board,
            });
        }
        if !off_board {
            let p = &mut self.state.players[seat];
            let n = p.built.entry(building.into()).or_default();
            *n += 1;
            let key = crate::player::slot_key(building, *n);
            p.log_source(&key);
        }
    }

    /// Runs automatic steps until a decision is needed or the game ends.
    /// A hook failing in an automatic step (income) refuses the move that led to it.
    pub(super) fn advance(&mut self) -> Result<(), MoveError> {
        for _ in 0..256 {
            // An offer that can no longer be taken lapses.
            if let Some(Decision::Leech { seat, value, .. }) = self.state.queue.front().cloned() {
                if self.offer_amount(seat, value) == 0 && !self.charge_gains_tokens(seat) {
                    self.state.queue.pop_front();
                    continue;
                }
            }
            if !self.state.queue.is_empty() || self.state.stage == Stage::Finished {
                return Ok(());
            }
            match self.state.stage {
                Stage::Setup => {
                    if self.state.players.iter().any(|p| p.faction.is_empty()) {
                        return Ok(());
                    }
                    self.start_round();
                }
                Stage::Income => self.continue_income()?,
                Stage::Gaia => {
                    if let Some(seat) = super::pop_front(&mut self.state.gaia_todo) {
                        if self.has_gaia_choice(seat) {
                            self.state.queue.push_back(Decision::Gaia(seat));
                        } else {
                            self.return_gaia(seat);
                        }
                        continue;
                    }
                    self.state.stage = Stage::Actions;
                    if let Some(first) = self.state.order.first() {
                        self.state.queue.push_back(Decision::Turn(first));
                    }
                }
                Stage::Actions => self.next_turn(),
                Stage::Finished => return Ok(()),
            }
        }
        Ok(())
    }

    fn start_round(&mut self) {
        self.state.round += 1;
        self.state.stage = Stage::Income;
        self.state.income_todo = self.state.order;
    }
    /// Lays out a seat's income as events (one per income effect, in order) and pays what
    /// needs no choice.
    /// An income hook returns gains (or gains per counted thing), laid out in its place.
    fn income(&mut self, seat: usize) -> Result<(), MoveError> {
        // The income's effects are borrowed through handles, not copied.
        let h = self.handles();
        let effects = h.income(self, seat);
        if effects.iter().all(|e| matches!(e, Effect::Gain(_))) {
            let events: SmallVec<[&Bundle; 24]> = effects
                .iter()
                .filter_map(|e| match e {
                    Effect::Gain(b) => Some(b),
                    _ => None,
                })
                .collect();
            if !Self::mixed_in(events.iter().copied()) {
                self.pay_income_in_place(seat, &events);
                return Ok(());
            }
        }
        let mut events: Vec<IncomeEvent> = Vec::with_capacity(effects.len());
        for &e in &effects {
            match e {
                Effect::Script(s) => {
                    for got in self.hook_effects(seat, s, "income")? {
                        let event = self.income_event(seat, &got).ok_or_else(|| {
                            let why = got.pays_without_choice("income").err().unwrap_or_default();
                            self.hook_refusal(s, format!("returned {got:?}: {why}"))
                        })?;
                        events.push(event);
                    }
                }
                other => match self.income_event(seat, other) {
                    Some(event) => events.push(event),
                    None => return err(format!("income may only gain, not {other:?}")),
                },
            }
        }
        self.state.income_pending.insert(seat, events);
        self.settle_income(seat);
        Ok(())
    }

    /// What an income effect pays, as one income event: a gain, or a gain per counted thing;
    /// `None` for an effect income cannot hold.
    fn income_event(&self, seat: usize, e: &Effect) -> Option<IncomeEvent> {
        match e {
            Effect::Gain(b) => Some(IncomeEvent::of(b)),
            Effect::GainPer(g) => Some(IncomeEvent::scaled(
                &g.gain,
                self.count(seat, &g.per) as i32,
            )),
            _ => None,
        }
    }

    /// Whether pending income mixes token gains and charges (so the player orders them).
    pub(crate) fn mixed(events: &[IncomeEvent]) -> bool {
        events.iter().any(|e| e.get("t") > 0) && events.iter().any(|e| e.get("pw") > 0)
    }

    /// [`Game::mixed`] over income bundles of content.
    fn mixed_in<'a>(mut events: impl Iterator<Item = &'a Bundle> + Clone) -> bool {
        events.clone().any(|e| e.get("t") > 0) && events.any(|e| e.get("pw") > 0)
    }

    /// Pays income events that need no ordering as [`Game::income`] then
    /// [`Game::settle_income`] would from the pending income, but from content in place:
    /// an event is copied into the pending income only when a question stops the payment
    /// before it is paid (the rest of the event the question stopped comes first).
    fn pay_income_in_place(&mut self, seat: usize, events: &[&Bundle]) {
        if self.state.question.is_some() {
            // Nothing is paid while a question is open: all of it waits, even none.
            self.keep_income_pending(seat, None, events);
            return;
        }
        for (i, event) in events.iter().enumerate() {
            if self.state.question.is_some() {
                self.keep_income_pending(seat, None, &events[i..]);
                return;
            }
            if let Some(&pw) = event.0.get("pw") {
                self.gain_code(seat, "pw", pw, "income");
                if self.state.question.is_some() {
                    let mut rest = IncomeEvent::of(event);
                    rest.remove("pw");
                    let rest = (!rest.is_empty()).then_some(rest);
                    self.keep_income_pending(seat, rest, &events[i + 1..]);
                    return;
                }
            }
            for (code, n) in event.iter() {
                if code != "pw" {
                    self.gain_code(seat, code, n, "income");
                }
            }
        }
        // All paid: nothing of the seat's is left pending (as when the last event is taken).
        if self.state.income_pending.contains_key(&seat) {
            self.state.income_pending.remove(&seat);
        }
        self.queue_open_question();
    }

    /// Leaves the events not yet paid pending, `first` before them, and queues the question
    /// that stopped the payment.
    fn keep_income_pending(&mut self, seat: usize, first: Option<IncomeEvent>, rest: &[&Bundle]) {
        let pending: Vec<IncomeEvent> = first
            .into_iter()
            .chain(rest.iter().map(|e| IncomeEvent::of(e)))
            .collect();
        self.state.income_pending.insert(seat, pending);
        self.queue_open_question();
    }

    /// Pays what needs no choice, then queues the ordering decision or the open question.
    pub(crate) fn settle_income(&mut self, seat: usize) {
        self.run_income(seat);
        let mixed = self
            .state
            .income_pending
            .get(&seat)
            .is_some_and(|e| Self::mixed(e));
        if mixed && self.state.question.is_none() {
            self.state.queue.push_front(Decision::Income(seat));
        }
        self.queue_open_question();
    }

    /// Pays pending income events in order until the player must order token gains and
    /// charges, or answer a question, or nothing is left.
    pub(crate) fn run_income(&mut self, seat: usize) {
        while self.state.question.is_none() {
            // Read first: the pending income (shared by clones) is copied only to change it.
            let Some(events) = self.state.income_pending.get(&seat) else {
                return;
            };
            if Self::mixed(events) {
                return;
            }
            if events.is_empty() {
                self.state.income_pending.remove(&seat);
                return;
            }
            let Some(events) = self.state.income_pending.get_mut(&seat) else {
                return;
            };
            let event = events.remove(0);
            self.pay_income_event(seat, event);
        }
    }

    /// Pays one income event, its charge first: when the charge opens a question, the rest of
    /// the event waits at the front of the pending income.
    fn pay_income_event(&mut self, seat: usize, mut event: IncomeEvent) {
        if let Some(pw) = event.remove("pw") {
            self.gain_code(seat, "pw", pw, "income");
            if self.state.question.is_some() {
                if !event.is_empty() {
                    self.state
                        .income_pending
                        .entry(seat)
                        .or_default()
                        .insert(0, event);
                }
                return;
            }
        }
        for (code, n) in event.iter() {
            self.gain_code(seat, code, n, "income");
        }
    }

    /// Pays income seat by seat in turn order, stopping at a seat that must decide.
    fn continue_income(&mut self) -> Result<(), MoveError> {
        while self.state.queue.is_empty() {
            let Some(seat) = super::pop_front(&mut self.state.income_todo) else {
                self.start_gaia_phase();
                return Ok(());
            };
            self.income(seat)?;
        }
        Ok(())
    }

    /// An `income` part: each item names a pending event by its token gain or charge.
    pub(super) fn income_part(&mut self, seat: usize, part: &Command) -> Result<(), MoveError> {
        match part {
            Command::Income(items) => {
                self.require_no_question()?;
                for item in items {
                    let pending = self.state.income_pending.entry(seat).or_default();
                    let pos = pending
                        .iter()
                        .position(|e| e.get(&item.code) == item.count as i32)
                        .ok_or_else(|| MoveError(format!("no pending income {item}")))?;
                    let event = pending.remove(pos);
                    self.pay_income_event(seat, event);
                    self.state.turn.decided = true;
                    if self.state.question.is_some() {
                        break;
                    }
                }
                self.run_income(seat);
                Ok(())
            }
            Command::Other { verb, args } => {
                if !self.try_answer(seat, verb, args)? {
                    return err(format!("`{verb}` is not possible here"));
                }
                self.run_income(seat);
                Ok(())
            }
            _ => err("expected `income <reward>,…`"),
        }
    }

    fn start_gaia_phase(&mut self) {
        self.state.stage = Stage::Gaia;
        let round = self.state.round;
        let gaia_ix = self
            .content
            .planets
            .planets
            .iter()
            .position(|p| p.kind == PlanetKind::Gaia)
            .map(|i| i as u8);
        for gf in &self.state.gaiaformers {
            if gf.round < round {
                if let (Some(idx), Some(g)) = (self.state.map.space_index(gf.hex), gaia_ix) {
                    self.state.planets[idx] = g;
                }
            }
        }
        // Seat by seat in turn order: a seat with a choice decides, then its tokens return.
        self.state.gaia_todo = self.state.order;
    }

    fn has_gaia_choice(&self, seat: usize) -> bool {
        if !self.may_have(seat).gaia_conversion {
            return false;
        }
        let tokens = self.state.players[seat].power.areas[Area::Gaia.index()] as i32;
        // The grants are walked in place, not gathered into a list.
        let mut choice = false;
        self.each_grant(seat, |g| {
            choice = choice
                || g.conversions.iter().any(|c| {
                    c.phase == Phase::Gaia && c.pay.get("tg") > 0 && c.pay.get("tg") <= tokens
                });
        });
        choice
    }

    /// Ends a Gaia-phase decision: its follow-ups done, the seat's tokens return.
    pub(super) fn end_gaia(&mut self, seat: usize) -> Result<(), MoveError> {
        self.drop_optional_follows(seat);
        if let Some(f) = self.state.turn.follows.first() {
            return err(format!("not finished: expected {f:?}"));
        }
        if self.gaia_tokens_owed(&self.view(seat)) {
            return err("Gaia-area tokens are left that a conversion can use: convert them");
        }
        self.return_gaia(seat);
        Ok(())
    }

    /// Tokens (and Gaiaformers) leave the Gaia area.
    fn return_gaia(&mut self, seat: usize) {
        let area = self.return_area(seat);
        let p = &mut self.state.players[seat];
        p.power.return_from_gaia(area);
        p.gaiaformers_in_gaia = 0;
    }

    pub(crate) fn return_area(&self, seat: usize) -> Area {
        if !self.may_have(seat).gaia_return_area {
            return Area::I;
        }
        self.modifier(seat, |m| match m {
            Modifier::GaiaReturnArea(a) => Some(Area::from_number(*a)),
            _ => None,
        })
        .unwrap_or(Area::I)
    }

    fn next_turn(&mut self) {
        let order = self.state.order;
        if order.iter().all(|s| self.state.players[s].passed) {
            self.end_round();
            return;
        }
        let current = self.state.current;
        let start = current
            .and_then(|c| order.iter().position(|s| s == c))
            .map_or(0, |i| i + 1);
        for k in 0..order.len() {
            let Some(s) = order.get((start + k) % order.len()) else {
                continue;
            };
            if !self.state.players[s].passed {
                self.state.queue.push_back(Decision::Turn(s));
                return;
            }
        }
    }

    fn end_round(&mut self) {
        self.state.current = None;
        if self.state.round >= self.content.rules.rounds {
            self.final_scoring();
            self.state.stage = Stage::Finished;
            return;
        }
        let passed = std::mem::take(&mut self.state.passed_order);
        self.state.order = match self.content.rules.options.turn_order {
            crate::content::TurnOrder::PassOrder => passed,
            crate::content::TurnOrder::FirstPasserClockwise => {
                let n = self.state.players.len();
                let first = passed.first().unwrap_or(0);
                (0..n).map(|i| (first + i) % n).collect()
            }
        };
        // An empty list is left alone: clearing it would first copy it while the state's
        // copy for undo shares it.
        if !self.state.actions_used.is_empty() {
            self.state.actions_used.clear();
        }
        for p in &mut self.state.players {
            p.passed = false;
            if !p.specials_used.is_empty() {
                p.specials_used.clear();
            }
        }
        self.start_round();
    }

    fn final_scoring(&mut self) {
        let n = self.state.players.len();
        // Read through a handle of its own, so that scoring borrows content instead of
        // copying the tiles and rules it reads.
        let content = Arc::clone(&self.content);
        let rules = &content.rules;
        let setup = Arc::clone(&self.state.setup);
        for tile_id in &setup.final_scoring {
            let Some(tile) = by_id(&content.final_scoring.tiles, tile_id) else {
                continue;
            };
            let mut field: SmallVec<[(i64, Option<usize>); 8]> = self
                .count_each(&tile.count)
                .into_iter()
                .enumerate()
                .map(|(s, c)| (i64::from(c), Some(s)))
                .collect();
            if n == 2 {
                field.push((i64::from(tile.neutral), None));
            }
            for s in 0..n {
                let c = field[s].0;
                if c == 0 && rules.options.zero_count_scores_nothing {
                    continue;
                }
                let better = field.iter().filter(|(x, _)| *x > c).count();
                let tied = field.iter().filter(|(x, _)| *x == c).count();
                let sum: i32 = (better..better + tied)
                    .map(|i| rules.final_places.get(i).copied().unwrap_or(0))
                    .sum();
                let vp = sum / tied as i32;
                self.gain_code(s, VP, vp, "final scoring");
            }
        }
        let rs = &rules.research_scoring;
        for s in 0..n {
            let vp: i32 = self.state.players[s]
                .research
                .values()
                .map(|&l| (l as i32 - rs.from as i32 + 1).max(0) * rs.vp)
                .sum();
            self.gain_code(s, VP, vp, "research");
        }
        for s in 0..n {
            if let Some(fc) = &rules.options.final_conversion {
                self.final_conversion(s, fc);
            }
            let total: i32 = rules
                .leftover_resources
                .iter()
                .map(|r| self.state.players[s].resource(&content, r))
                .sum();
            // Loading refuses a `leftover_per_vp` of 0, so the division always happens.
            let per = i32::try_from(rules.leftover_per_vp).unwrap_or(i32::MAX);
            self.gain_code(s, VP, total.checked_div(per).unwrap_or(0), "resources");
            // A won faction auction bid is paid last.
            let bid = self.state.bids.get(s).copied().unwrap_or(0);
            self.gain_code(s, VP, -i32::try_from(bid).unwrap_or(i32::MAX), "bid");
        }
    }

    /// The recording platform's end-game conversion: burn all power possible, spend area III
    /// for credits, QIC to ore.
    fn final_conversion(&mut self, seat: usize, fc: &crate::content::FinalConversion) {
        let to_gaia = self.burn_to_gaia(seat);
        let value = self.token_value(seat).max(1);
        let p = &mut self.state.players[seat];
        p.power.burn_all(to_gaia);
        // The recording platform pays `power ÷ token value` power for `power` credits, so a
        // token worth more than 1 moves fewer tokens than it is worth (its quirk, kept here).
        let special = p.power.special_in(Area::III);
        let special_value = if special {
            p.power.special.map_or(0, |s| s.value)
        } else {
            0
        };
        let normal = p.power.areas[Area::III.index()];
        let credits = normal.saturating_mul(value).saturating_add(special_value);
        let payment = (credits / value).saturating_sub(special_value);
        let moved = payment.div_ceil(value).min(normal);
        p.power.areas[Area::III.index()] -= moved;
        p.power.areas[Area::I.index()] = p.power.areas[Area::I.index()].saturating_add(moved);
        if special {
            if let Some(s) = &mut p.power.special {
                s.area = Some(Area::I);
            }
        }
        let credits = i32::try_from(credits).unwrap_or(i32::MAX);
        self.gain_code(seat, &fc.power_to, credits, "resources");
        for x in &fc.exchanges {
            let n = self.state.players[seat]
                .resource(&self.content, &x.from)
                .max(0);
            self.gain_code(seat, &x.from, -n, "resources");
            self.gain_code(seat, &x.to, n, "resources");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::content::{fixture, Bundle};
    use crate::game::{Game, IncomeEvent};

    /// Income paid in place leaves the state exactly as laying it out as pending events and
    /// settling them does: charges, tokens and resources in order, a seat's stale pending
    /// events dropped, nothing pending after.
    #[test]
    fn income_paid_in_place_equals_income_settled_from_pending_events() {
        let lists: [&[&[(&str, i32)]]; 5] = [
            &[],
            &[&[("gold", 2)]],
            &[
                &[("pw", 3)],
                &[("gold", 1), ("vp", 2)],
                &[("pw", 1), ("gold", 1)],
            ],
            &[&[("t", 2)], &[("gold", 1), ("t", 1)], &[("vp", 0)]],
            &[&[("pw", 9)], &[("pw", 9)], &[("pw", 0), ("gold", 30)]],
        ];
        for seed in [1, 2, 3] {
            let g = fixture::blips_game(seed);
            for seat in 0..2 {
                for (n, list) in lists.iter().enumerate() {
                    let bundles: Vec<Bundle> = list.iter().map(|e| Bundle::of(e)).collect();
                    let events: Vec<IncomeEvent> = bundles.iter().map(IncomeEvent::of).collect();
                    assert!(!Game::mixed(&events), "list {n} needs no ordering");
                    for stale in [false, true] {
                        let mut laid_out = g.clone();
                        if stale {
                            laid_out
                                .state
                                .income_pending
                                .insert(seat, vec![IncomeEvent::of(&Bundle::of(&[("gold", 5)]))]);
                        }
                        let mut in_place = laid_out.clone();
                        laid_out.state.income_pending.insert(seat, events.clone());
                        laid_out.settle_income(seat);
                        let refs: Vec<&Bundle> = bundles.iter().collect();
                        in_place.pay_income_in_place(seat, &refs);
                        assert_eq!(
                            in_place.state, laid_out.state,
                            "seed {seed}, seat {seat}, list {n}, stale {stale}"
                        );
                        assert!(!in_place.state.income_pending.contains_key(&seat));
                    }
                }
            }
        }
    }

    /// Pending income saves as the bundles it was laid out from (a JSON object per event,
    /// codes in order, zero amounts kept) and loads back equal.
    #[test]
    fn pending_income_saves_as_bundles_and_loads_back() {
        let mut g = fixture::blips_game(1);
        let events = [
            Bundle::of(&[("t", 2), ("gold", 1)]),
            Bundle::of(&[("pw", 3), ("vp", 0)]),
        ];
        let pending: Vec<IncomeEvent> = events.iter().map(IncomeEvent::of).collect();
        g.state.income_pending.insert(1, pending);
        let saved = serde_json::to_value(&g.state).expect("saves");
        assert_eq!(
            saved["income_pending"],
            serde_json::json!({ "1": [{ "gold": 1, "t": 2 }, { "pw": 3, "vp": 0 }] })
        );
        let back: crate::game::GameState = serde_json::from_value(saved).expect("loads");
        assert_eq!(back.income_pending, g.state.income_pending);
        assert!(Game::mixed(&back.income_pending[&1]));
    }
}
