//! Legal next parts: everything the deciding seat may do next, one part of a move line at a
//! time. Every check here is the one the part's application makes, run without changing the
//! state, so whatever is listed applies, and a chain of free actions stays a finite list.

use std::collections::HashSet;
use std::sync::Arc;

use smallvec::SmallVec;

use super::coded_costs::Coded;
use super::colonize::ColonySite;
use super::conversion_form::{ConversionForm, PayCode};
use super::follow::Follow;
use super::hook_protocol::{Site, SiteStart};
use super::memo::FedNames;
use super::placement::{RangeOrigins, Reach, SeatRules};
use super::prefetch::prefetch;
use super::seat_grants::SeatGrants;
use super::seat_map::LazySeatMap;
use super::{Decision, Game};
use crate::content::{BuildingRole, Effect, Modifier, Phase, PlanetKind};
use crate::lookup::{by_id, same_id};
use crate::notation::{Amount, Command, HexRef, Word};
use crate::power::{Area, Power};
use orrery_core::hex::Hex;

/// What listing needs to know about the deciding seat, looked up once per listing: what it
/// owns that grants something, the modifiers in force, and its placement values.
pub(crate) struct SeatView<'a> {
    /// The seat.
    pub seat: usize,
    /// Conversions granted by what the seat owns (of every phase; not the board's own),
    /// when walked afresh (read from the remembered grants otherwise: [`SeatView::conversions`]).
    walked_conversions: SmallVec<[&'a crate::content::Conversion; 8]>,
    /// Special actions granted by what the seat owns, when walked afresh
    /// ([`SeatView::actions`]).
    walked_actions: SmallVec<[&'a crate::content::SpecialAction; 4]>,
    /// Modifiers in force: gathered from the remembered grants when first read
    /// ([`SeatView::mods`]), or when walked afresh.
    mods: std::cell::OnceCell<SmallVec<[&'a Modifier; 24]>>,
    /// Where the remembered grants are read (none when walked afresh).
    source: Option<GrantSource<'a>>,
    /// Placement values.
    pub rules: SeatRules<'a>,
    /// Plain resources taken as already spent (to ask what a free action would leave).
    pub spent: Vec<(Word, i32)>,
    /// The seat's power tokens (as a free action would leave them, when asking ahead).
    pub power: Power,
    /// Every shortcut off: multiples found by asking use by use
    /// ([`Game::legal_parts_from_scratch`]).
    pub from_scratch: bool,
    /// The seat's remembered grants the view was made from (none when walked afresh).
    pub grants: Option<Arc<SeatGrants>>,
    /// The seat's remembered place on the map, worked out when a placement listing first
    /// walks it (none when every space is measured afresh).
    pub map: Option<LazySeatMap<'a>>,
}

/// What a seat's remembered grants are read from: the content, and the seat's faction and
/// board.
#[derive(Clone, Copy)]
struct GrantSource<'a> {
    content: &'a crate::content::Content,
    faction: &'a crate::content::Faction,
    board: &'a crate::board::FactionBoard,
}

impl<'a> SeatView<'a> {
    /// The modifiers in force, in income order.
    pub fn mods(&self) -> &[&'a Modifier] {
        self.mods.get_or_init(|| {
            let mut mods = SmallVec::new();
            if let (Some(g), Some(s)) = (&self.grants, self.source) {
                g.mods_into(s.content, s.faction, s.board, &mut mods);
            }
            mods
        })
    }

    /// The special actions granted by what the seat owns, in income order.
    pub fn actions(&self) -> SmallVec<[&'a crate::content::SpecialAction; 4]> {
        match (&self.grants, self.source) {
            (Some(g), Some(s)) => g.actions(s.content, s.faction, s.board).collect(),
            _ => self.walked_actions.clone(),
        }
    }

    /// Whether a granted conversion of a phase satisfies `f`.
    pub fn any_conversion(
        &self,
        mut f: impl FnMut(&'a crate::content::Conversion) -> bool,
    ) -> bool {
        match (&self.grants, self.source) {
            (Some(g), Some(s)) => g.conversions(s.content, s.faction, s.board).any(f),
            _ => self.walked_conversions.iter().any(|c| f(c)),
        }
    }

    /// The granted conversions (of every phase), in income order.
    pub fn conversions(&self) -> SmallVec<[&'a crate::content::Conversion; 8]> {
        match (&self.grants, self.source) {
            (Some(g), Some(s)) => g.conversions(s.content, s.faction, s.board).collect(),
            _ => self.walked_conversions.clone(),
        }
    }

    /// The spaces a placement listing walks, in space order: the planets of the seat's
    /// remembered place with their distance (`Some`), those beyond `within` (the farthest
    /// distance in reach, [`SeatRules::farthest`]) left out when it is given; or else every
    /// one of the map's `all` spaces, to be measured (`None`).
    fn placement_spaces(
        &self,
        all: usize,
        within: Option<u64>,
    ) -> impl Iterator<Item = (usize, Option<Option<u32>>)> + '_ {
        let map = self.map.as_ref().map(LazySeatMap::get);
        let near = map.map_or(&[][..], |m| &m.near[..]);
        let afresh = if self.map.is_some() { 0 } else { all };
        // Most planets are out of reach: passed over here, a compare each, before anything
        // else is read of them.
        near.iter()
            .filter(move |n| within.is_none_or(|f| !SeatRules::beyond(n.distance, f)))
            .map(|n| (n.idx, Some(n.distance)))
            .chain((0..afresh).map(|i| (i, None)))
    }

    /// Takes a plain resource as spent (a negative amount as gained); `range`: the code
    /// that pays for range.
    fn take(&mut self, range: &str, code: &str, n: i32) {
        if code == range {
            self.rules.range_have -= n;
        }
        match self.spent.iter_mut().find(|(c, _)| c == code) {
            Some((_, m)) => *m += n,
            None => self.spent.push((Word::from(code), n)),
        }
    }

    /// How much of a plain resource is taken as spent.
    fn spent_of(&self, code: &str) -> i32 {
        self.spent
            .iter()
            .find(|(c, _)| c == code)
            .map_or(0, |(_, n)| *n)
    }
}

impl Game {
    /// The view of a seat, its grants remembered while they stay the same
    /// ([`Game::seat_grants`]), its place on the map worked out only if a placement listing
    /// walks it (the views applying a part makes mostly do not).
    pub(crate) fn view(&self, seat: usize) -> SeatView<'_> {
        self.view_with(seat, Some(LazySeatMap::new(self, seat)))
    }

    /// [`Game::view`] with the seat's place on the map `map`; with none, the view knows no
    /// range origins and must not be asked to place anything (see [`Game::turn_parts`]).
    #[inline(always)]
    fn view_with<'a>(&'a self, seat: usize, map: Option<LazySeatMap<'a>>) -> SeatView<'a> {
        let grants = self.seat_grants(seat);
        let (content, faction, board) = (&*self.content, self.faction(seat), self.board(seat));
        let values = grants.rules;
        let from_box = map.as_ref().and_then(|m| match m.known() {
            Some(known) => known.from_box,
            None => orrery_core::hex::HexBox::around(m.from()),
        });
        // Made in place, the lists filled where they stay: a view is made for every
        // listing, and moving it is a good part of making it.
        let mut view = SeatView {
            seat,
            walked_conversions: SmallVec::new(),
            walked_actions: SmallVec::new(),
            mods: std::cell::OnceCell::new(),
            source: Some(GrantSource {
                content,
                faction,
                board,
            }),
            rules: SeatRules {
                // Filled in place below, as one block (a clone copies hex by hex).
                from: RangeOrigins::new(),
                nav_range: values.nav_range,
                ore_per_step: values.ore_per_step,
                gaia_fee: &content.rules.gaia_planet_fee,
                may_share: values.may_share,
                // As `Player::resource` reads it, the code's place resolved with the grants.
                range_have: grants
                    .range_at
                    .map_or(0, |i| self.state.players[seat].resources[i]),
                token_value: values.token_value,
                from_box,
                range_per_qic: content.rules.range_per_qic,
            },
            spent: Vec::new(),
            power: self.state.players[seat].power,
            from_scratch: false,
            grants: None,
            map,
        };
        if let Some(m) = &view.map {
            view.rules.from.extend_from_slice(m.from());
        }
        // The modifiers, conversions and special actions are read from the grants when
        // asked; the fee's modifier was found with them.
        if let Some(Modifier::GaiaPlanetFee(fee)) = grants.fee(content, faction, board) {
            view.rules.gaia_fee = fee;
        }
        view.grants = Some(grants);
        view
    }

    /// [`Game::view`], or with every shortcut off and the grants walked afresh when
    /// `from_scratch`.
    #[inline(always)]
    fn view_as(&self, seat: usize, from_scratch: bool) -> SeatView<'_> {
        match from_scratch {
            // A listing mostly walks placements: the place is worked out at once.
            false => self.view_with(seat, Some(LazySeatMap::made(self, seat))),
            true => SeatView {
                from_scratch,
                ..self.view_afresh(seat)
            },
        }
    }

    /// The view of a seat with its grants walked afresh, as the tests compare with.
    pub(crate) fn view_afresh(&self, seat: usize) -> SeatView<'_> {
        self.view_from(seat, |f| {
            self.state.players[seat].each_active(
                &self.content,
                self.faction(seat),
                self.board(seat),
                f,
            )
        })
    }

    /// The view of a seat whose grants `walk` calls its argument with, in income order, its
    /// place on the map worked out afresh.
    fn view_from<'a>(
        &'a self,
        seat: usize,
        walk: impl FnOnce(&mut dyn FnMut(crate::content::Grants<'a>)),
    ) -> SeatView<'a> {
        // Small lists of references, gathered in one walk over the seat's grants.
        // Inline lists: a view is made for every listing, and a heap allocation costs more
        // than the walk.
        let (mut mods, mut conversions, mut actions) =
            (SmallVec::new(), SmallVec::new(), SmallVec::new());
        walk(&mut |g| {
            // Most grants bring none of these: pushed one by one, skipped cheaply.
            for m in g.modifiers {
                mods.push(m);
            }
            for c in g.conversions {
                conversions.push(c);
            }
            if let Some(a) = g.action {
                actions.push(a);
            }
        });
        let rules = self.seat_rules_from(seat, &mods);
        SeatView {
            seat,
            walked_conversions: conversions,
            walked_actions: actions,
            mods: std::cell::OnceCell::from(mods),
            source: None,
            rules,
            spent: Vec::new(),
            power: self.state.players[seat].power,
            from_scratch: false,
            grants: None,
            map: None,
        }
    }

    /// Every legal next part for the seat that decides, in a stable order; empty once the
    /// game is over. `endturn` is listed when the decision can end now.
    pub fn legal_parts(&self) -> Vec<Command> {
        let mut out = Vec::new();
        self.legal_parts_into(&mut out);
        out
    }

    /// [`Game::legal_parts`] into `out` (cleared first), reusing its room.
    pub fn legal_parts_into(&self, out: &mut Vec<Command>) {
        crate::notation::clear_parts(out);
        self.list_into(out, false)
    }

    /// [`Game::legal_parts`] with every shortcut of listing off (the largest multiple of a
    /// conversion found by asking use by use rather than by arithmetic): what tests compare
    /// the listing with.
    pub fn legal_parts_from_scratch(&self) -> Vec<Command> {
        let mut out = Vec::new();
        self.list_into(&mut out, true);
        out
    }

    /// Lists into `out`, with every shortcut off when `from_scratch`.
    fn list_into(&self, out: &mut Vec<Command>, from_scratch: bool) {
        out.clear();
        // The game's handles and the seat's player are read throughout: asked for at once.
        prefetch(self);
        let Some(d) = self.state.open.as_ref().or(self.state.queue.front()) else {
            return;
        };
        let seat = d.seat();
        if let Some(p) = self.state.players.get(seat) {
            prefetch(&**p);
        }
        if let Some(q) = self.state.question.as_ref().filter(|q| q.seat == seat) {
            if let Some(t) = &self.faction(seat).special_token {
                for (answer, _) in &q.options {
                    out.push(Command::Other {
                        verb: word(&t.id),
                        args: vec![word(answer)],
                    });
                }
            }
            return;
        }
        let decided = self.state.turn.decided;
        match d {
            Decision::Rotate(_) => {
                out.push(Command::EndTurn);
                self.rotate_parts(out);
            }
            Decision::Faction(_) if !decided => {
                self.faction_parts(out);
                if self.content.rules.options.auction == crate::content::Auction::BidWhileChoosing {
                    self.bid_parts(out);
                }
            }
            Decision::Bid(_) if !decided => self.bid_parts(out),
            Decision::Place(s, b) if !decided => self.start_place_parts(*s, b, out),
            Decision::Booster(_) if !decided => {
                for b in &self.state.boosters {
                    out.push(Command::Booster(word(b)));
                }
            }
            Decision::Faction(_)
            | Decision::Bid(_)
            | Decision::Place(..)
            | Decision::Booster(_) => out.push(Command::EndTurn),
            Decision::Leech { seat, value, .. } => self.charge_parts(*seat, *value, out),
            Decision::Income(s) => self.income_parts(*s, out),
            Decision::Answer(_) => {
                if decided {
                    out.push(Command::EndTurn);
                }
            }
            Decision::Gaia(s) => self.gaia_phase_parts(&self.view_as(*s, from_scratch), out),
            Decision::Turn(s) => self.turn_parts(*s, from_scratch, out),
        }
        if self.hooked {
            // Only a part whose legality can hang on a hook's answer is tried on a copy
            // (`hook_trials`); a part a hook would fail on is listed, and playing it fails
            // with the hook's error (a game where no hook can run never gets here).
            out.retain(|part| !self.needs_trial(part) || self.trial(part, true));
        }
    }

    /// [`Game::legal_parts`] with every listed part tried on a copy and left out if it fails
    /// for any reason, a hook's failure included: how listing was done before it tried only
    /// the parts a hook's answer can decide. What tests compare the listing with.
    #[doc(hidden)]
    pub fn legal_parts_tried(&self) -> Vec<Command> {
        let mut out = self.legal_parts();
        if self.hooked {
            out.retain(|part| self.trial(part, false));
        }
        out
    }

    /// Every legal bid: each chosen faction, from just above its current bid to 9 more.
    fn bid_parts(&self, out: &mut Vec<Command>) {
        for f in &self.state.chosen {
            let holder = self.state.players.iter().position(|p| p.faction == *f);
            let (low, high) = Self::bid_range(holder.map(|h| self.seat_bid(h)));
            for amount in low..=high {
                out.push(Command::Bid {
                    faction: f.clone(),
                    amount,
                });
            }
        }
    }

    /// Whether a part applies to a copy of the game, with the follow-ups it leaves possible;
    /// when `failing_hooks_list`, also when a hook fails on the way (a content error: the part
    /// is listed, and playing it fails with the hook's error).
    fn trial(&self, part: &Command, failing_hooks_list: bool) -> bool {
        let errors = self.hook_error_count();
        let hook_failed = || failing_hooks_list && self.hook_error_count() > errors;
        let mut g = self.clone();
        if g.part(part).is_err() {
            return hook_failed();
        }
        if g.decision_done() {
            // Nothing but the decision's end can follow (a pass): a line ending with this part
            // ends it, and what that runs (the next income's hooks) must let it, as applying
            // the line would.
            return g.part(&Command::EndTurn).is_ok() || hook_failed();
        }
        let Some(Decision::Turn(seat)) = g.state.open.clone() else {
            return true;
        };
        let gv = g.view(seat);
        let reach = g.reach();
        let mut scratch = Vec::new();
        let possible = g.state.turn.follows.iter().all(|f| {
            scratch.clear();
            g.follow_parts_of(&gv, f, reach, true, &mut scratch);
            g.lapses_in(&gv, f) || !scratch.is_empty()
        });
        possible || hook_failed()
    }

    fn faction_parts(&self, out: &mut Vec<Command>) {
        let taken: Vec<&str> = self
            .state
            .chosen
            .iter()
            .filter_map(|f| self.content.faction(f))
            .map(|f| f.home.as_str())
            .collect();
        for f in &self.content.factions {
            if !taken.contains(&f.home.as_str()) {
                out.push(Command::Faction(word(&f.id)));
            }
        }
    }

    fn start_place_parts(&self, seat: usize, building: &str, out: &mut Vec<Command>) {
        let home = &self.faction(seat).home;
        // The home planet by its index, as the spaces hold planets: one compare a space.
        let Some(home) = crate::lookup::index_of(&self.content.planets.planets, home)
            .and_then(|i| u8::try_from(i).ok())
        else {
            return;
        };
        for (idx, planet) in self.state.planets.iter().enumerate() {
            if *planet == home && !self.state.structures.contains_key(&idx) {
                out.push(Command::Build {
                    building: word(building),
                    hex: self.space_hex_ref(idx),
                });
            }
        }
    }

    fn charge_parts(&self, seat: usize, value: u32, out: &mut Vec<Command>) {
        if self.state.turn.decided {
            out.push(Command::EndTurn);
            return;
        }
        let amount = self.offer_amount(seat, value);
        let tokens = self.charge_tokens(seat);
        let pw = |n: u32| Amount::new(n, "pw");
        if tokens == 0 {
            out.push(Command::Charge(smallvec::smallvec![pw(amount)]));
        } else {
            let t = Amount::new(tokens, "t");
            out.push(Command::Charge(smallvec::smallvec![pw(amount), t.clone()]));
            // Tokens first: the new tokens can take part of the charge.
            let mut power = self.state.players[seat].power;
            power.gain_tokens(tokens);
            let vp = self.state.players[seat]
                .resource(&self.content, crate::player::VP)
                .max(0) as u32;
            let after = value.min(power.chargeable()).min(vp + 1);
            out.push(Command::Charge(smallvec::smallvec![t, pw(after)]));
        }
        // An integer's own conversion, not the formatting machinery, which costs more than
        // the rest of a charge decision's listing.
        let mut decline = compact_str::ToCompactString::to_compact_string(&amount);
        decline.push_str("pw");
        out.push(Command::Decline(Some(decline)));
    }

    fn income_parts(&self, seat: usize, out: &mut Vec<Command>) {
        // The gains listed so far: a handful, looked through in a plain loop.
        let mut seen: SmallVec<[(&str, i32); 8]> = SmallVec::new();
        let pending = self.state.income_pending.get(&seat);
        let mixed = pending.is_some_and(|e| Game::mixed(e));
        if mixed {
            for event in pending.into_iter().flatten() {
                for code in ["t", "pw"] {
                    let n = event.get(code);
                    if n > 0 && !seen.contains(&(code, n)) {
                        seen.push((code, n));
                        let item = if n == 1 {
                            Amount::single(code)
                        } else {
                            Amount::new(n as u32, code)
                        };
                        out.push(Command::Income(smallvec::smallvec![item]));
                    }
                }
            }
        }
        if self.state.turn.decided && !self.income_order_owed(seat) {
            out.push(Command::EndTurn);
        }
    }

    /// Under the rule option `income_order_in_one_decision`: whether the seat's open income
    /// decision must still order token gains and charges (no question interrupts it).
    pub(crate) fn income_order_owed(&self, seat: usize) -> bool {
        self.content.rules.options.income_order_in_one_decision
            && self.state.question.is_none()
            && self
                .state
                .income_pending
                .get(&seat)
                .is_some_and(|e| Game::mixed(e))
    }

    fn gaia_phase_parts(&self, v: &SeatView<'_>, out: &mut Vec<Command>) {
        let reach = self.reach();
        if !self.state.turn.follows.is_empty() {
            for f in &self.state.turn.follows[self.answerable_follows(v)] {
                self.follow_parts(v, f, reach, out);
            }
        } else if !self.state.turn.decided {
            self.conversion_parts(v, Phase::Gaia, out);
            let tech_offer =
                v.any_conversion(|c| c.phase == Phase::Gaia && c.gain.contains(&Effect::TechTile));
            if tech_offer {
                out.push(Command::Decline(Some("tech".into())));
            }
        }
        if self.can_end(v) && !self.gaia_tokens_owed(v) {
            out.push(Command::EndTurn);
        }
    }

    /// Under the rule option `gaia_tokens_used_up`: whether the open Gaia-phase decision must
    /// still convert Gaia-area tokens (a conversion is listed and none was declined).
    pub(crate) fn gaia_tokens_owed(&self, v: &SeatView<'_>) -> bool {
        if !self.content.rules.options.gaia_tokens_used_up
            || self.state.turn.decided
            || !self.state.turn.follows.is_empty()
        {
            return false;
        }
        let mut parts = Vec::new();
        self.conversion_parts(v, Phase::Gaia, &mut parts);
        parts.iter().any(|p| matches!(p, Command::Spend { .. }))
    }

    /// The parts of a seat's turn, its view made with every shortcut off when `from_scratch`.
    fn turn_parts(&self, seat: usize, from_scratch: bool, out: &mut Vec<Command>) {
        let t = &self.state.turn;
        if t.passed {
            // Only the turn's end: no view is made.
            out.push(Command::EndTurn);
            return;
        }
        // One allocation, not a chain of regrowths: a main action lists dozens of parts, what
        // may follow it about ten (under a kilobyte, which allocators keep at hand).
        out.reserve(if t.main { 11 } else { 64 });
        // After the main action, with nothing owed, only free actions and the turn's end are
        // listed, which never place anything: the seat's place on the map is not looked for
        // (most listings a game makes are these).
        let v = match !from_scratch && t.main && t.follows.is_empty() {
            true => self.view_with(seat, None),
            false => self.view_as(seat, from_scratch),
        };
        let v = &v;
        let reach = self.reach();
        for f in &t.follows[self.answerable_follows(v)] {
            self.follow_parts(v, f, reach, out);
        }
        if t.follows.is_empty() && !t.main {
            self.main_parts(v, out);
        }
        if t.follows.is_empty() {
            self.conversion_parts(v, Phase::Actions, out);
            self.burn_parts(v, out);
        } else if self.content.rules.options.free_actions_within_actions {
            // Within an action, a free action must not make the action impossible to finish.
            let mut free = Vec::new();
            self.conversion_parts(v, Phase::Actions, &mut free);
            self.burn_parts(v, &mut free);
            out.extend(
                free.into_iter()
                    .filter(|c| self.follows_stay_possible(v, c)),
            );
        }
        if t.main && self.can_end(v) {
            out.push(Command::EndTurn);
        }
        if t.follows.len() > 1 {
            // Two follow-ups may accept the same part.
            dedup(out);
        }
    }

    /// [`Game::own_structures`], gathered in a plain loop (a listing of main actions asks
    /// it; collecting through nested iterators costs about twice as much).
    fn seat_structures(&self, seat: usize) -> SmallVec<[(usize, &super::Structure); 24]> {
        let mut own = SmallVec::new();
        for (i, l) in self.state.structures.iter() {
            for s in l {
                if s.seat == seat {
                    own.push((*i, s));
                }
            }
        }
        own
    }

    /// Whether the seat still has one of a building on its board.
    fn left_on_board(&self, seat: usize, def: &crate::content::Building) -> bool {
        self.state.players[seat].built_count(&def.id) < def.count
    }

    /// Whether the open turn's follow-ups can still be done after a free action. Only
    /// placements cost resources a free action could spend.
    fn follows_stay_possible(&self, v: &SeatView<'_>, part: &Command) -> bool {
        // Only placements cost what a free action could spend.
        let costly = |f: &Follow| matches!(f, Follow::Build { .. } | Follow::Place(_));
        if !self.state.turn.follows.iter().any(costly) {
            return true;
        }
        // Ask the follow-ups with what the free action pays taken away and, where it is as
        // plain, what it gains added. An answer without the whole gain is only sure when it
        // is yes (a gain can only help); otherwise apply the free action on a copy.
        if let Some((hv, exact)) = self.view_after_free_action(v, part) {
            let reach = self.reach();
            let mut scratch = Vec::new();
            let still = self.state.turn.follows.iter().all(|f| {
                scratch.clear();
                self.follow_parts_of(&hv, f, reach, true, &mut scratch);
                self.lapses_in(&hv, f) || !scratch.is_empty()
            });
            if still || exact {
                return still;
            }
        }
        let mut g = self.clone();
        if g.part(part).is_err() {
            return false;
        }
        let gv = g.view_as(v.seat, v.from_scratch);
        let reach = g.reach();
        let mut scratch = Vec::new();
        g.state.turn.follows.iter().all(|f| {
            scratch.clear();
            g.follow_parts_of(&gv, f, reach, true, &mut scratch);
            g.lapses_in(&gv, f) || !scratch.is_empty()
        })
    }

    /// The view after a free action that pays plain resources, spends power with no special
    /// token to place, or burns power; with whether its whole gain is counted too (the gain
    /// counts when it is plain resources or power tokens).
    fn view_after_free_action<'a>(
        &self,
        v: &SeatView<'a>,
        part: &Command,
    ) -> Option<(SeatView<'a>, bool)> {
        if self.hooked && self.seat_names_hooks(v.seat) {
            // A hook sees the state itself, not a view of it: ask on a copy.
            return None;
        }
        let mut hv = SeatView {
            seat: v.seat,
            walked_conversions: v.walked_conversions.clone(),
            walked_actions: v.walked_actions.clone(),
            mods: v.mods.clone(),
            source: v.source,
            rules: v.rules.clone(),
            spent: Vec::new(),
            power: v.power,
            from_scratch: v.from_scratch,
            grants: v.grants.clone(),
            map: v.map.clone(),
        };
        match part {
            Command::Spend { cost, gain } => {
                let range = self.content.rules.range_resource.as_str();
                for a in cost {
                    match PayCode::of(&self.content, &a.code) {
                        PayCode::Power if !hv.power.special_in(Area::III) => {
                            hv.power.spend(a.count, v.rules.token_value, false).ok()?
                        }
                        PayCode::Resource(_) | PayCode::Unknown => {
                            hv.take(range, &a.code, a.count as i32)
                        }
                        _ => return None,
                    }
                }
                let p = &self.state.players[v.seat];
                let resources = &self.content.rules.resources;
                let mut exact = true;
                for a in gain {
                    let code = v
                        .mods()
                        .iter()
                        .find_map(|m| match m {
                            Modifier::Substitute(s) if s.from == a.code => Some(s.to.as_str()),
                            _ => None,
                        })
                        .unwrap_or(&a.code);
                    let n = a.count as i32;
                    match PayCode::of(&self.content, code) {
                        PayCode::Tokens => hv.power.gain_tokens(a.count),
                        PayCode::Resource(i) => {
                            // As a gain is booked: never past the cap.
                            let old = p.resources[i] - hv.spent_of(code);
                            let cap = resources[i].cap.unwrap_or(i32::MAX).max(old);
                            hv.take(range, code, old - old.saturating_add(n).min(cap));
                        }
                        _ => exact = false,
                    }
                }
                return Some((hv, exact));
            }
            Command::Burn(n) => {
                let to_gaia = v.mods().iter().any(|m| matches!(m, Modifier::BurnToGaia));
                hv.power.burn(*n, to_gaia).ok()?;
            }
            _ => return None,
        }
        Some((hv, true))
    }

    /// Whether the open decision's follow-ups allow ending it.
    fn can_end(&self, v: &SeatView<'_>) -> bool {
        self.state.turn.follows.iter().all(|f| self.lapses_in(v, f))
    }

    /// A follow-up that cannot be done lapses: a research step with no track to advance, a
    /// tech tile with none left to take.
    pub(crate) fn lapses(&self, seat: usize, f: &Follow) -> bool {
        self.lapses_in(&self.view(seat), f)
    }

    /// The owed follow-ups a part may answer now: all of them, or under the rule option
    /// `follow_ups_in_order` the first one that does not lapse.
    pub(crate) fn answerable_follows(&self, v: &SeatView<'_>) -> std::ops::Range<usize> {
        let follows = &self.state.turn.follows;
        if !self.content.rules.options.follow_ups_in_order {
            return 0..follows.len();
        }
        match follows.iter().position(|f| !self.lapses_in(v, f)) {
            Some(i) => i..i + 1,
            None => 0..0,
        }
    }

    /// Whether every effect of an action is a plain gain of capped resources the seat already
    /// holds at their caps, so the action would gain nothing (refused under the rule option
    /// `refuse_useless_actions`, as the recording platform refuses such board actions).
    pub(crate) fn gain_wholly_capped(&self, seat: usize, effects: &[Effect]) -> bool {
        if !self.content.rules.options.refuse_useless_actions || effects.is_empty() {
            return false;
        }
        let p = &self.state.players[seat];
        effects.iter().all(|e| match e {
            Effect::Gain(b) => b.iter().all(|(code, n)| {
                n <= 0
                    || by_id(&self.content.rules.resources, code)
                        .and_then(|r| r.cap)
                        .is_some_and(|cap| p.resource(&self.content, code) >= cap)
            }),
            _ => false,
        })
    }

    /// Whether a follow-up can lapse at all: [`Game::lapses_in`] is false for every other
    /// (so telling which follow-ups a part may answer needs the seat's view only for these).
    pub(crate) fn may_lapse(&self, f: &Follow) -> bool {
        match f {
            Follow::Up(_) => !self.content.rules.options.decline_unusable_research_step,
            Follow::Tech => true,
            _ => false,
        }
    }

    /// [`Game::lapses`] with the seat's view given.
    fn lapses_in(&self, v: &SeatView<'_>, f: &Follow) -> bool {
        if !self.may_lapse(f) {
            return false;
        }
        match f {
            Follow::Up(_) if self.content.rules.options.decline_unusable_research_step => false,
            Follow::Up(choice) => !self.content.research.tracks.iter().any(|t| {
                self.research_allowed(v.seat, choice, &t.id)
                    && self.can_advance_with(v.seat, &t.id, v.mods()).is_ok()
            }),
            Follow::Tech => self.tech_positions(v.seat).next().is_none(),
            _ => false,
        }
    }

    /// The open turn's free steps and extra range.
    pub(crate) fn reach(&self) -> Reach {
        Reach {
            steps: self.state.turn.steps,
            range: self.state.turn.range,
        }
    }

    /// Main actions: builds, upgrades, Gaia projects, research, board and special actions,
    /// federations and passing.
    fn main_parts(&self, v: &SeatView<'_>, out: &mut Vec<Command>) {
        let reach = self.reach();
        let board = self.board(v.seat);
        let costs = self.fixed_costs(v.seat);
        let mut own = None;
        for (def, def_costs) in board.buildings.iter().zip(&costs.buildings) {
            // Only structures are counted on the board.
            let left = || self.left_on_board(v.seat, def);
            match def.role {
                BuildingRole::Structure if def.founds_colony() => {
                    if left() {
                        self.colonize_parts(v, &def.id, reach, false, out);
                    }
                }
                BuildingRole::Structure => {
                    if left() {
                        let own = own.get_or_insert_with(|| self.seat_structures(v.seat));
                        self.upgrade_parts(v, def, def_costs, own, out);
                    }
                }
                BuildingRole::Gaiaformer => self.gaia_project_parts(v, &def.id, reach, out),
                BuildingRole::Station => {}
            }
        }
        if self.can_pay_fixed(v.seat, &costs.research, v.rules.token_value) {
            for t in &self.content.research.tracks {
                if self.can_advance_with(v.seat, &t.id, v.mods()).is_ok() {
                    out.push(Command::Up(word(&t.id)));
                }
            }
        }
        // Most board actions cost power, a few amounts between them: each amount asked once.
        let mut power_answers = PowerAnswers::default();
        for (a, cost) in self
            .content
            .board_actions
            .actions
            .iter()
            .zip(&costs.actions)
        {
            // Ids compared by length and last byte first, inline: most differ there.
            if !self.state.actions_used.iter().any(|u| same_id(u, &a.id))
                && self.can_pay_fixed_remembered(
                    v.seat,
                    cost,
                    v.rules.token_value,
                    &mut power_answers,
                )
                && !self.gain_wholly_capped(v.seat, &a.effects)
                && self.effects_possible(v, &a.effects, out)
            {
                out.push(Command::Action(word(&a.id)));
            }
        }
        let used = &self.state.players[v.seat].specials_used;
        for a in v.actions() {
            if !used.iter().any(|u| same_id(u, &a.key)) && self.effects_possible(v, &a.effects, out)
            {
                if let Ok(amounts) = crate::notation::parse_amounts(&a.key) {
                    out.push(Command::Special(amounts));
                }
            }
        }
        if !self.state.fed_supply.values().all(|n| *n == 0) {
            let found = self.federation_layouts_with(v.seat, v.mods());
            // Mostly none: the tokens left are gathered only for some.
            let tokens: SmallVec<[&Word; 8]> = match found.is_empty() {
                true => SmallVec::new(),
                false => self
                    .state
                    .fed_supply
                    .iter()
                    .filter(|(_, n)| **n > 0)
                    .map(|(id, _)| id)
                    .collect(),
            };
            if !found.is_empty() && !tokens.is_empty() {
                // Named once per search result, remembered with it.
                let names = self
                    .memo
                    .federation_names(&found, || self.federation_names(&found));
                for hexes in names.iter() {
                    for token in &tokens {
                        out.push(Command::Federation {
                            hexes: hexes.clone(),
                            token: word(token),
                        });
                    }
                }
            }
        }
        if self.state.round >= self.content.rules.rounds {
            out.push(Command::Pass(None));
        } else {
            for b in &self.state.boosters {
                out.push(Command::Pass(Some(word(b))));
            }
        }
    }

    /// The hex names of each federation, in the order a `federation` part writes them (by
    /// their names as written).
    fn federation_names(&self, found: &[crate::federation::Federation]) -> FedNames {
        let mut named: Vec<(Word, HexRef)> = Vec::new();
        found
            .iter()
            .map(|fed| {
                named.clear();
                named.extend(fed.hexes().into_iter().map(|h| self.hex_names(h)));
                named.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                named.iter().map(|(_, h)| h.clone()).collect()
            })
            .collect()
    }

    /// New colonies: every space where `building` can be built, with its cost payable.
    fn colonize_parts(
        &self,
        v: &SeatView<'_>,
        building: &str,
        reach: Reach,
        first_only: bool,
        out: &mut Vec<Command>,
    ) {
        let Some(def) = self.board(v.seat).building(building) else {
            return;
        };
        let rules = &v.rules;
        let budget = self.colony_budget(v.seat, def, rules, &v.spent, v.power);
        // A cost or placement hook decides each hex itself: no shortcut on the cost.
        let hooks = self.hooked && Self::names_site_hooks(v.mods());
        if !hooks && budget.surely_short() {
            return;
        }
        // The start of every site's key, the same for all, with its answers: found once,
        // when first asked.
        let mut key_start: Option<SiteStart> = None;
        // Structures are kept by space index, as the planets are walked: one pass over both.
        let mut structures = self.state.structures.iter().peekable();
        let farthest = rules.farthest(reach.range);
        // Range is not measured to one's own Gaiaformer: with one on the map, every planet is
        // walked, else only those in reach.
        let own_gaiaformers = self.state.gaiaformers.iter().any(|g| g.seat == v.seat);
        let within = (!own_gaiaformers).then_some(farthest);
        // The planets with their distances, remembered; afresh, every space, measured.
        for (idx, distance) in v.placement_spaces(self.state.map.spaces.len(), within) {
            let space = &self.state.map.spaces[idx];
            if distance.is_none() && self.planet_kind(idx) == PlanetKind::Empty {
                continue;
            }
            // Range is not measured to one's own Gaiaformer.
            let own_gaiaformer = || {
                self.state
                    .gaiaformers
                    .iter()
                    .any(|g| g.hex == space.hex && g.seat == v.seat)
            };
            let far = match distance {
                Some(d) => SeatRules::beyond(d, farthest),
                None => rules.surely_out_of_reach(space.hex, reach.range),
            };
            if far && !own_gaiaformer() {
                continue;
            }
            while structures.next_if(|(i, _)| **i < idx).is_some() {}
            let here = structures
                .peek()
                .filter(|(i, l)| **i == idx && !l.is_empty())
                .map(|(_, l)| l.as_slice());
            if here.is_some_and(|l| !rules.may_share || l.iter().any(|s| s.seat == v.seat)) {
                // Colonized already, and not to be shared.
                continue;
            }
            let site = ColonySite {
                idx,
                hex: space.hex,
                here,
                distance: distance.flatten(),
            };
            if let Ok(plan) = self.colonize_plan_at(v.seat, site, rules, reach) {
                let affordable = match hooks {
                    false => self.colonize_affordable(v.seat, def, &plan, rules, &budget),
                    true => {
                        let start =
                            key_start.get_or_insert_with(|| self.site_start(v.seat, v.mods()));
                        let site = Site::new(building, idx, Some(start));
                        let cost =
                            self.hooked_colonize_cost(v.seat, def, site, &plan, rules, v.mods());
                        cost.is_ok_and(|cost| {
                            self.can_pay_items_from(
                                v.seat,
                                v.power,
                                &v.spent,
                                cost.iter(),
                                rules.token_value,
                            )
                        })
                    }
                };
                if affordable {
                    out.push(Command::Build {
                        building: word(building),
                        hex: self.space_hex_ref(idx),
                    });
                    if first_only {
                        return;
                    }
                }
            }
        }
    }

    /// Upgrades to `def` of the seat's structures `own`; `costs`: its cost and its cost near
    /// a rival, resolved.
    fn upgrade_parts(
        &self,
        v: &SeatView<'_>,
        def: &crate::content::Building,
        costs: &(Coded, Option<Coded>),
        own: &[(usize, &super::Structure)],
        out: &mut Vec<Command>,
    ) {
        // Whether the follow-ups the new building brings (a tech tile, …) can be done does not
        // depend on where it stands: asked once. So is each of the two costs.
        let mut follows_ok = None;
        let hooks = self.hooked && Self::names_site_hooks(v.mods());
        // Asked when a structure to upgrade is found (often none is).
        let mut costs_payable = None;
        // The start of every site's key, the same for all, with its answers: found once,
        // when first asked.
        let mut key_start: Option<SiteStart> = None;
        for &(idx, s) in own {
            if s.shared || s.off_board || !def.upgrades_from.iter().any(|u| same_id(u, &s.building))
            {
                continue;
            }
            let &mut (payable, near_payable) = costs_payable.get_or_insert_with(|| {
                let token_value = v.rules.token_value;
                let payable = self.can_pay_fixed(v.seat, &costs.0, token_value);
                let near = costs.1.as_ref();
                (
                    payable,
                    near.map(|c| self.can_pay_fixed(v.seat, c, token_value)),
                )
            });
            let hex = self.state.map.spaces[idx].hex;
            let can_pay = match near_payable {
                _ if hooks => {
                    let start = key_start.get_or_insert_with(|| self.site_start(v.seat, v.mods()));
                    self.upgrade_cost(v.seat, def, idx, &s.building, v.mods(), Some(start))
                        .is_ok_and(|cost| self.can_pay_with(v.seat, &cost, v.rules.token_value))
                }
                Some(near) if near != payable && self.rival_near(v.seat, hex) => near,
                _ => payable,
            };
            if can_pay
                && *follows_ok
                    .get_or_insert_with(|| self.effects_possible(v, &def.grants.immediate, out))
            {
                out.push(Command::Build {
                    building: word(&def.id),
                    hex: self.space_hex_ref(idx),
                });
            }
        }
    }

    /// Whether the seat could pay a fixed cost now, as [`Game::can_pay_with`] answers for
    /// the bundle it was resolved from.
    fn can_pay_fixed(&self, seat: usize, cost: &Coded, token_value: u32) -> bool {
        let power = self.state.players[seat].power;
        self.can_pay_coded(seat, power, &[], cost.iter().copied(), token_value)
    }

    /// [`Game::can_pay_fixed`], its answers for costs of power alone remembered by amount in
    /// `known` (which must have been filled for the same seat, power and `token_value`).
    fn can_pay_fixed_remembered(
        &self,
        seat: usize,
        cost: &Coded,
        token_value: u32,
        known: &mut PowerAnswers,
    ) -> bool {
        let &[(PayCode::Power, n)] = cost.as_slice() else {
            return self.can_pay_fixed(seat, cost, token_value);
        };
        if let Some(&(_, ok)) = known.0.iter().find(|(m, _)| *m == n) {
            return ok;
        }
        let ok = self.can_pay_fixed(seat, cost, token_value);
        known.0.push((n, ok));
        ok
    }

    /// Whether another player's building (not a station) is within neighbour distance.
    pub(crate) fn rival_near(&self, seat: usize, hex: Hex) -> bool {
        self.state.structures.iter().any(|(i, l)| {
            l.iter()
                .any(|s| s.seat != seat && !self.is_station(s.seat, &s.building))
                && self.state.map.spaces[*i].hex.distance(hex)
                    <= self.content.rules.neighbour_distance
        })
    }

    fn gaia_project_parts(&self, v: &SeatView<'_>, id: &str, reach: Reach, out: &mut Vec<Command>) {
        if self.free_gaiaformers(v.seat) == 0 {
            return;
        }
        let Some(tokens) = v.mods().iter().find_map(|m| match m {
            Modifier::GaiaProjectTokens(n) => Some(*n),
            _ => None,
        }) else {
            return;
        };
        let mut power = v.power;
        let mut without = power;
        let can_move = power.remove_with_special(tokens, true, true).is_ok()
            || without.remove_with_special(tokens, true, false).is_ok()
            || power.remove_tokens(tokens, true).is_ok();
        if !can_move {
            return;
        }
        let rules = &v.rules;
        let farthest = rules.farthest(reach.range);
        // The planets in reach with their distances, remembered; afresh, every space,
        // measured.
        for (idx, distance) in v.placement_spaces(self.state.map.spaces.len(), Some(farthest)) {
            let space = &self.state.map.spaces[idx];
            if self.planet_kind(idx) != PlanetKind::Transdim
                || self.state.structures.contains_key(&idx)
                || self.state.gaiaformers.iter().any(|x| x.hex == space.hex)
            {
                continue;
            }
            let reachable = match distance {
                Some(d) => {
                    !SeatRules::beyond(d, farthest)
                        && d.is_some_and(|d| self.qic_for_distance(d, rules, reach.range).is_ok())
                }
                None => {
                    !rules.surely_out_of_reach(space.hex, reach.range)
                        && self
                            .qic_for_range_from(space.hex, rules, reach.range)
                            .is_ok()
                }
            };
            if reachable {
                out.push(Command::Build {
                    building: word(id),
                    hex: self.space_hex_ref(idx),
                });
            }
        }
    }

    /// Whether effects that bring follow-ups could all be followed up now.
    fn effects_possible(
        &self,
        v: &SeatView<'_>,
        effects: &[Effect],
        scratch: &mut Vec<Command>,
    ) -> bool {
        let mut reach = self.reach();
        for e in effects {
            match e {
                Effect::Steps(n) => reach.steps += n,
                Effect::Range(n) => reach.range += n,
                // What a hook brings is known only by running it: listing tries the part.
                Effect::Script(_) => {}
                _ => {}
            }
        }
        // Parts are looked for past the end of `scratch`, which is then restored.
        let mark = scratch.len();
        let possible = effects.iter().all(|e| {
            let Some(f) = Follow::of(e) else {
                return true;
            };
            self.follow_parts_of(v, &f, reach, true, scratch);
            let found = scratch.len() > mark;
            scratch.truncate(mark);
            found
        });
        possible
    }

    /// The parts that satisfy one follow-up.
    fn follow_parts(&self, v: &SeatView<'_>, f: &Follow, reach: Reach, out: &mut Vec<Command>) {
        self.follow_parts_of(v, f, reach, false, out)
    }

    /// [`Game::follow_parts`], or just the first one found when `first_only`.
    fn follow_parts_of(
        &self,
        v: &SeatView<'_>,
        f: &Follow,
        reach: Reach,
        first_only: bool,
        out: &mut Vec<Command>,
    ) {
        let mark = out.len();
        match f {
            Follow::Build { gaia_project } => {
                for def in &self.board(v.seat).buildings {
                    if def.founds_colony() && self.left_on_board(v.seat, def) {
                        self.colonize_parts(v, &def.id, reach, first_only, out);
                    } else if *gaia_project && def.role == BuildingRole::Gaiaformer {
                        self.gaia_project_parts(v, &def.id, reach, out);
                    }
                    if first_only && out.len() > mark {
                        return;
                    }
                }
            }
            Follow::Up(choice) => {
                for t in &self.content.research.tracks {
                    if self.research_allowed(v.seat, choice, &t.id)
                        && self.can_advance_with(v.seat, &t.id, v.mods()).is_ok()
                    {
                        out.push(Command::Up(word(&t.id)));
                    }
                }
                out.push(Command::Decline(Some("up".into())));
            }
            Follow::Tech => self.tech_parts(v.seat, first_only, out),
            Follow::Cover => {
                let p = &self.state.players[v.seat];
                for (pos, tile) in &self.state.setup.techs {
                    if p.techs.iter().any(|t| t.id == tile && !t.covered) {
                        out.push(Command::Cover(word(pos)));
                    }
                }
            }
            Follow::FedTile => {
                let mut seen = HashSet::new();
                for t in &self.state.players[v.seat].tokens {
                    if seen.insert(&t.id) {
                        out.push(Command::FedTile(word(&t.id)));
                    }
                }
            }
            Follow::Place(p) => self.place_parts(v, p, reach, first_only, out),
            Follow::Downgrade(d) => {
                for (idx, s) in self.own_structures(v.seat) {
                    if s.building == d.from {
                        out.push(Command::Build {
                            building: word(&d.to),
                            hex: self.space_hex_ref(idx),
                        });
                    }
                }
            }
            Follow::Swap(s) => {
                let own = self.own_structures(v.seat);
                if own.iter().any(|(_, x)| x.building == s.building) {
                    for (idx, x) in &own {
                        if x.building == s.with && !x.off_board {
                            out.push(Command::Other {
                                verb: word(&s.verb),
                                args: vec![self.hex_word(self.state.map.spaces[*idx].hex)],
                            });
                        }
                    }
                }
            }
        }
    }

    /// The positions of the tech tiles the seat may take now, the standard ones then the
    /// advanced ones, each in position order.
    fn tech_positions(&self, seat: usize) -> impl Iterator<Item = &str> + '_ {
        let p = &self.state.players[seat];
        // The setup's tiles and the counts left are both kept in position order: one pass
        // over both instead of a lookup for each position.
        let mut left = self.state.tech_left.iter().peekable();
        let standard = self
            .state
            .setup
            .techs
            .iter()
            .filter_map(move |(pos, tile)| {
                while left.next_if(|(k, _)| k.as_str() < pos.as_str()).is_some() {}
                let n = left
                    .peek()
                    .filter(|(k, _)| k.as_str() == pos)
                    .map_or(0, |(_, n)| **n);
                (n > 0 && !p.techs.iter().any(|t| t.id == tile)).then_some(pos.as_str())
            });
        let adv = &self.content.advanced_tiles;
        let eligible = p.tokens.iter().any(|t| t.green) && p.techs.iter().any(|t| !t.covered);
        let advanced = self
            .state
            .adv_left
            .keys()
            .filter(move |pos| {
                eligible
                    && pos
                        .strip_prefix(&adv.position_prefix)
                        .is_some_and(|track| p.level(track) >= adv.min_level)
            })
            .map(|pos| pos.as_str());
        standard.chain(advanced)
    }

    /// The tech tiles the seat may take now; only the first one when `first_only`.
    fn tech_parts(&self, seat: usize, first_only: bool, out: &mut Vec<Command>) {
        let most = if first_only { 1 } else { usize::MAX };
        out.extend(
            self.tech_positions(seat)
                .take(most)
                .map(|pos| Command::Tech(word(pos))),
        );
    }

    fn place_parts(
        &self,
        v: &SeatView<'_>,
        p: &crate::content::Place,
        reach: Reach,
        first_only: bool,
        out: &mut Vec<Command>,
    ) {
        let station = self.is_station(v.seat, &p.building);
        if let Some(def) = self.board(v.seat).building(&p.building) {
            let built = self.state.players[v.seat].built_count(&p.building);
            if station && built >= def.count {
                return;
            }
        }
        let rules = &v.rules;
        // A placement or cost hook decides each space itself.
        let hooks = self.hooked && Self::names_site_hooks(v.mods());
        for (idx, space) in self.state.map.spaces.iter().enumerate() {
            let hex = space.hex;
            if p.on_empty_space && self.planet_kind(idx) != PlanetKind::Empty {
                continue;
            }
            let occupied = self
                .state
                .structures
                .get(&idx)
                .is_some_and(|l| !l.is_empty());
            let satellite = self
                .state
                .players
                .iter()
                .enumerate()
                .any(|(s, pl)| (!station || s == v.seat) && pl.satellites.contains(&hex));
            if occupied || satellite || rules.surely_out_of_reach(hex, reach.range) {
                continue;
            }
            let Ok(q) = self.qic_for_range_from(hex, rules, reach.range) else {
                continue;
            };
            if hooks && !self.placement_payable(v, &p.building, idx, q) {
                continue;
            }
            out.push(match &p.verb {
                Some(verb) => Command::Other {
                    verb: word(verb),
                    args: vec![self.hex_word(hex)],
                },
                None => Command::Build {
                    building: word(&p.building),
                    hex: self.space_hex_ref(idx),
                },
            });
            if first_only {
                return;
            }
        }
    }

    /// Whether the seat's hooks let a building be placed (a `place` follow-up) on a space
    /// whose range costs `q`, and the seat can pay what they make it cost.
    fn placement_payable(&self, v: &SeatView<'_>, building: &str, idx: usize, q: u32) -> bool {
        self.placement_cost(v.seat, v.mods(), building, idx, q)
            .is_ok_and(|cost| {
                self.can_pay_items_from(v.seat, v.power, &v.spent, cost.iter(), v.rules.token_value)
            })
    }

    /// Conversions of a phase, each in every multiple the seat can pay.
    fn conversion_parts(&self, v: &SeatView<'_>, phase: Phase, out: &mut Vec<Command>) {
        // The board's own conversions are in form for the whole game; granted ones (few)
        // are put in form here.
        let board: &[ConversionForm] = match phase {
            Phase::Actions => self.board_conversions(v.seat),
            _ => &[],
        };
        // Remembered with the seat's grants; worked out here when the view was walked afresh.
        let mut afresh = Vec::new();
        let granted: &[ConversionForm] = match &v.grants {
            Some(g) => g.forms(phase),
            None => {
                let conversions = v.conversions();
                if conversions.iter().any(|c| c.phase == phase) {
                    afresh = ConversionForm::list(
                        &self.content,
                        conversions.iter().copied().filter(|c| c.phase == phase),
                    );
                    for g in &mut afresh {
                        g.may_repeat |= board.iter().any(|f| f.key == g.key);
                    }
                }
                &afresh
            }
        };
        let power = self.state.players[v.seat].power;
        let token_value = v.rules.token_value;
        // What the seat holds of each code, read once for all the forms.
        let have = Holdings::of(&self.state.players[v.seat], power, token_value);
        // Where each form's parts start in `out`, with its key: a form that may repeat a part
        // compares its parts only with those of the forms with its key (no other can equal
        // them).
        let mut made: SmallVec<[(u64, usize); 16]> = SmallVec::new();
        // Two plain loops rather than one over a chain: most forms are passed over, and a
        // chain's step costs more than what passing one over does.
        for forms in [board, granted] {
            for form in forms {
                if !form.listable() {
                    continue;
                }
                // Most forms cannot be paid even once: passed over before anything else.
                let most = match v.from_scratch {
                    false => self.most_uses(v.seat, &have, &form.pay),
                    true => None,
                };
                if most == Some(0) {
                    continue;
                }
                if form.tech && !self.effects_possible(v, &[Effect::TechTile], out) {
                    continue;
                }
                made.push((form.key, out.len()));
                if let (Some(most), false) = (most, form.may_repeat) {
                    // The common case, in one plain loop: each part made where it is pushed.
                    each_listed_up_to(most, |k| form.push_part(k, out));
                    continue;
                }
                let mut list = |k: u32| {
                    if !form.may_repeat {
                        out.push(form.part(k as i32));
                        return;
                    }
                    let cmd = form.part(k as i32);
                    if !listed_by(out, &made, form.key, &cmd) {
                        out.push(cmd);
                    }
                };
                // Plain loops (not one behind a trait object): most forms list a few parts.
                match most {
                    Some(most) => each_listed_up_to(most, list),
                    None => {
                        let payable = |k: u32| {
                            let Ok(k) = i32::try_from(k) else {
                                return false;
                            };
                            let mut cost = SmallVec::<[(PayCode, i32); 2]>::new();
                            for &(c, n) in &form.pay {
                                match n.checked_mul(k) {
                                    Some(total) => cost.push((c, total)),
                                    None => return false,
                                }
                            }
                            self.can_pay_coded(v.seat, power, &[], cost, token_value)
                        };
                        listed_multiples(payable).for_each(&mut list)
                    }
                }
            }
        }
    }

    /// The most uses of a payment `pay` (one use) the seat can make at once, as
    /// [`Game::can_pay_coded`] answers use by use, worked out by arithmetic from what the
    /// seat holds (`have`); `None` where that is not plain: a code discarding tokens (which
    /// picks areas), a code the seat never holds, or two codes taking from the power areas
    /// (the first moves what the second counts).
    fn most_uses(&self, seat: usize, have: &Holdings<'_>, pay: &[(PayCode, i32)]) -> Option<u32> {
        let mut most = i64::from(crate::notation::MAX_AMOUNT);
        let mut from_power = 0;
        for &(code, n) in pay {
            if n <= 0 {
                return None;
            }
            let held = match code {
                PayCode::Power => {
                    from_power += 1;
                    have.power
                }
                PayCode::GaiaTokens => {
                    from_power += 1;
                    have.gaia_tokens
                }
                PayCode::Area3Tokens => {
                    from_power += 1;
                    have.area3_tokens
                }
                PayCode::Gaiaformers => i64::from(self.free_gaiaformers(seat)),
                PayCode::Resource(i) => i64::from(*have.resources.get(i)?),
                PayCode::Tokens | PayCode::Unknown => return None,
            };
            if from_power > 1 {
                return None;
            }
            let n = i64::from(n);
            // Most forms are short of even one use: no division for them.
            most = if held < n {
                0
            } else {
                // Also no more uses than keep the whole payment a 32-bit count.
                most.min(held / n).min(i64::from(i32::MAX) / n)
            };
        }
        u32::try_from(most).ok()
    }

    /// Burns of power, in every multiple the seat can burn (what [`Power::burn`] accepts).
    fn burn_parts(&self, v: &SeatView<'_>, out: &mut Vec<Command>) {
        let most = self.state.players[v.seat].power.most_burnable();
        each_listed_up_to(most, |n| out.push(Command::Burn(n)));
    }

    /// The name of a hex as one notation word.
    pub(crate) fn hex_word(&self, hex: Hex) -> Word {
        match self.state.map.name_parts(hex) {
            Some((sector, position)) => {
                let mut w = word(sector);
                w.push_str(position);
                w
            }
            None => compact_str::format_compact!("{hex}"),
        }
    }

    /// [`Game::hex_word`] and [`Game::hex_ref`] of a hex at once.
    fn hex_names(&self, hex: Hex) -> (Word, HexRef) {
        match self.state.map.name_parts(hex) {
            Some((sector, position)) => {
                let mut w = word(sector);
                w.push_str(position);
                let named = HexRef::Named {
                    sector: word(sector),
                    position: word(position),
                };
                (w, named)
            }
            None => (
                compact_str::format_compact!("{hex}"),
                HexRef::Axial { q: hex.q, r: hex.r },
            ),
        }
    }

    /// [`Game::hex_ref`] of the space at index `idx` (the index known, not looked up).
    fn space_hex_ref(&self, idx: usize) -> HexRef {
        let map = &self.state.map;
        match map.space_ref(idx) {
            Some(named) => named.clone(),
            None => self.hex_ref(map.spaces[idx].hex),
        }
    }

    /// The notation reference of a hex: its name on this map.
    pub(crate) fn hex_ref(&self, hex: Hex) -> HexRef {
        // Worked out once with the map, copied here.
        let map = &self.state.map;
        if let Some(named) = map.space_index(hex).and_then(|i| map.space_ref(i)) {
            return named.clone();
        }
        match self.state.map.name_parts(hex) {
            Some((sector, position)) => HexRef::Named {
                sector: word(sector),
                position: word(position),
            },
            None => HexRef::Axial { q: hex.q, r: hex.r },
        }
    }
}

/// What a seat holds of each code a conversion may pay, as [`Game::most_uses`] counts it:
/// read once a listing for all the seat's conversions.
struct Holdings<'a> {
    /// The power area III's tokens are worth (with the special token's value when it is
    /// there): `Power::spend` of `n` takes ⌈(n − special token's value) / token value⌉
    /// tokens of area III.
    power: i64,
    /// Tokens in the Gaia area.
    gaia_tokens: i64,
    /// Tokens in area III.
    area3_tokens: i64,
    /// The seat's resources, in the order of `rules.resources`.
    resources: &'a [i32],
}

impl<'a> Holdings<'a> {
    /// What `player` holds, with its power `power` and area-III token value `token_value`.
    fn of(player: &'a crate::player::Player, power: Power, token_value: u32) -> Holdings<'a> {
        let special = match power.special {
            Some(s) if power.special_in(Area::III) => i64::from(s.value),
            _ => 0,
        };
        let area3 = i64::from(power.areas[Area::III.index()]);
        Holdings {
            power: area3 * i64::from(token_value.max(1)) + special,
            gaia_tokens: i64::from(power.areas[Area::Gaia.index()]),
            area3_tokens: area3,
            resources: &player.resources,
        }
    }
}

/// Answers of [`Game::can_pay_fixed`] for costs of power alone, by amount, for one seat and
/// its power as one listing finds them.
#[derive(Default)]
struct PowerAnswers(SmallVec<[(i32, bool); 8]>);

/// How many multiples of an amount part (a conversion, a burn) are listed one by one; above
/// that only the largest possible one is listed too, so a listing does not grow with a
/// seat's resources. Any multiple in between is still accepted when applied.
pub(crate) const LISTED_MULTIPLES: u32 = 8;

/// The multiples of an amount part a listing offers, given whether `k` uses are possible
/// (`possible` must hold for every `k` below one for which it holds): `1..=LISTED_MULTIPLES`
/// while possible, then the largest possible multiple, found by doubling and bisection.
fn listed_multiples(possible: impl Fn(u32) -> bool) -> impl Iterator<Item = u32> {
    let mut small: SmallVec<[u32; 9]> = (1..=LISTED_MULTIPLES)
        .take_while(|&k| possible(k))
        .collect();
    if small.len() == LISTED_MULTIPLES as usize && possible(LISTED_MULTIPLES + 1) {
        // `lo` is possible, `hi` is not (or is past every amount a move can name).
        let mut lo = LISTED_MULTIPLES + 1;
        let mut hi = lo;
        while hi < crate::notation::MAX_AMOUNT && possible(hi) {
            lo = hi;
            hi = hi.saturating_mul(2).min(crate::notation::MAX_AMOUNT);
        }
        if hi == crate::notation::MAX_AMOUNT && possible(hi) {
            lo = hi;
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if possible(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        small.push(lo);
    }
    small.into_iter()
}

/// Calls `f` with the multiples [`listed_multiples`] offers when exactly `1..=most` uses are
/// possible, in a plain loop calling `f` at one place (so that it is made inline there).
#[inline]
fn each_listed_up_to(most: u32, mut f: impl FnMut(u32)) {
    let most = most.min(crate::notation::MAX_AMOUNT);
    let small = most.min(LISTED_MULTIPLES);
    let mut k = 1;
    while k <= small || (k == small + 1 && most > LISTED_MULTIPLES) {
        // After the small multiples, the largest.
        let uses = if k <= small { k } else { most };
        f(uses);
        k += 1;
    }
}

/// Whether `part` is listed already by a form with the key `key`; `made`: where each form's
/// parts start in `out`, with its key, in order.
fn listed_by(out: &[Command], made: &[(u64, usize)], key: u64, part: &Command) -> bool {
    made.iter().enumerate().any(|(i, &(k, from))| {
        let to = made.get(i + 1).map_or(out.len(), |&(_, to)| to);
        k == key && out[from..to].contains(part)
    })
}

/// A notation word for an id.
fn word(id: &str) -> Word {
    Word::from(id)
}

/// Removes repeated parts, keeping the first of each.
fn dedup(out: &mut Vec<Command>) {
    let mut seen = Vec::with_capacity(out.len());
    out.retain(|c| {
        if seen.contains(c) {
            false
        } else {
            seen.push(c.clone());
            true
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(max: u32) -> Vec<u32> {
        listed_multiples(|k| k <= max).collect()
    }

    #[test]
    fn multiples_are_listed_one_by_one_up_to_the_cap_then_only_the_largest() {
        assert_eq!(listed(0), Vec::<u32>::new());
        assert_eq!(listed(3), vec![1, 2, 3]);
        assert_eq!(listed(8), (1..=8).collect::<Vec<_>>());
        assert_eq!(listed(9), (1..=9).collect::<Vec<_>>());
        let mut big = (1..=8).collect::<Vec<_>>();
        big.push(1_000);
        assert_eq!(listed(1_000), big);
        // Resources beyond any nameable amount list the largest amount a move may name.
        big.pop();
        big.push(crate::notation::MAX_AMOUNT);
        assert_eq!(listed(u32::MAX), big);
    }

    /// The standard tech tiles a seat may take, as a lookup of each position's count left
    /// finds them (the way before the one pass over both maps).
    fn looked_up(g: &Game, seat: usize) -> Vec<String> {
        let p = &g.state.players[seat];
        g.state
            .setup
            .techs
            .iter()
            .filter(|(pos, tile)| {
                g.state.tech_left.get(pos.as_str()).copied().unwrap_or(0) > 0
                    && !p.techs.iter().any(|t| t.id == **tile)
            })
            .map(|(pos, _)| pos.clone())
            .collect()
    }

    #[test]
    fn tech_tiles_found_in_one_pass_are_those_looked_up() {
        let mut g = crate::content::fixture::blips_game(5);
        let setup = Arc::make_mut(&mut g.state.setup);
        setup.techs = [
            ("b1", "x"),
            ("b3", "y"),
            ("b5", "x"),
            ("b7", "z"),
            ("c0", "w"),
        ]
        .into_iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
        // Counts for positions the setup lacks, none for some it has, zero for one.
        let counts = [
            vec![],
            vec![
                ("a0", 1),
                ("b3", 2),
                ("b4", 1),
                ("b7", 0),
                ("c0", 1),
                ("d9", 4),
            ],
            vec![("b1", 1), ("b3", 1), ("b5", 1), ("b7", 1), ("c0", 1)],
            vec![("b10", 1), ("b5", 3)],
        ];
        for left in counts {
            *g.state.tech_left = left.into_iter().map(|(p, n)| (Word::from(p), n)).collect();
            for owned in [vec![], vec!["x"], vec!["y", "z", "w"]] {
                *g.state.players[0].techs = owned
                    .iter()
                    .map(|t| crate::player::OwnedTile {
                        id: Word::from(*t),
                        covered: false,
                    })
                    .collect();
                let found: Vec<String> = g
                    .tech_positions(0)
                    .filter(|p| g.state.setup.techs.contains_key(*p))
                    .map(String::from)
                    .collect();
                assert_eq!(found, looked_up(&g, 0), "owning {owned:?}");
                let mut first = Vec::new();
                g.tech_parts(0, true, &mut first);
                assert!(first.len() <= 1);
                assert_eq!(first.is_empty(), g.tech_positions(0).next().is_none());
            }
        }
    }

    /// The farthest distance within reach, worked out once per walk, rules out exactly the
    /// distances beyond navigation, extra range and every range resource held.
    #[test]
    fn distances_beyond_the_farthest_are_those_out_of_reach() {
        let g = crate::content::fixture::blips_game(5);
        let view = g.view(0);
        let mut rules = view.rules.clone();
        for (nav, have, per_qic) in [(1, 0, 2), (2, 3, 2), (3, -4, 2), (1, 5, 1)] {
            rules.nav_range = nav;
            rules.range_have = have;
            rules.range_per_qic = per_qic;
            for extra in [0, 1, 3] {
                let farthest = rules.farthest(extra);
                let reach = nav + extra + have.max(0) as u32 * per_qic;
                assert!(SeatRules::beyond(None, farthest));
                for d in 0..20 {
                    let beyond = SeatRules::beyond(Some(d), farthest);
                    assert_eq!(
                        beyond,
                        d > reach,
                        "{d} with {nav}, {have}, {per_qic}, {extra}"
                    );
                    assert_eq!(beyond, rules.out_of_reach_at(Some(d), extra));
                }
            }
        }
    }

    /// A space's reference by its index is the one its hex is named by, with the map's
    /// references worked out and without them (a map loaded without its index rebuilt).
    #[test]
    fn a_space_is_named_by_index_as_by_its_hex() {
        let mut g = crate::content::fixture::blips_game(5);
        let check = |g: &Game| {
            for (i, s) in g.state.map.spaces.iter().enumerate() {
                assert_eq!(g.space_hex_ref(i), g.hex_ref(s.hex), "space {i}");
            }
        };
        assert!(g.state.map.space_ref(0).is_some());
        check(&g);
        let map = serde_json::to_string(&g.state.map).expect("a map written");
        g.state.map = serde_json::from_str(&map).expect("a map read");
        assert_eq!(g.state.map.space_ref(0), None);
        check(&g);
    }

    /// The structures listing gathers for a seat are those every other path reads.
    #[test]
    fn a_seats_structures_are_gathered_as_elsewhere() {
        let mut g = crate::content::fixture::blips_game(5);
        let building = g.board(0).buildings[0].id.clone();
        let planets: Vec<usize> = (0..g.state.map.spaces.len())
            .filter(|i| g.planet_kind(*i) != PlanetKind::Empty)
            .take(7)
            .collect();
        for (n, idx) in planets.into_iter().enumerate() {
            // Two seats, one space shared.
            g.put_structure(n % 2, idx, &building, false, false);
            if n == 6 {
                g.put_structure(1, idx, &building, true, false);
            }
        }
        assert!(!g.seat_structures(0).is_empty());
        for seat in 0..g.state.players.len() {
            assert_eq!(
                g.seat_structures(seat).as_slice(),
                g.own_structures(seat).as_slice()
            );
        }
    }

    #[test]
    fn power_answers_remembered_by_amount_are_those_asked_for() {
        let mut g = crate::content::fixture::blips_game(5);
        let power = |n: i32| -> Coded { smallvec::smallvec![(PayCode::Power, n)] };
        let mut costs: Vec<Coded> = [3, 7, 3, 0, 12, 7, 4, 3].into_iter().map(power).collect();
        // Not power alone: asked each time.
        costs.push(smallvec::smallvec![
            (PayCode::Power, 2),
            (PayCode::Power, 2)
        ]);
        costs.push(smallvec::smallvec![(PayCode::Area3Tokens, 2)]);
        let mut answers = HashSet::new();
        for areas in [[0, 0, 0], [2, 3, 4], [0, 0, 12], [5, 0, 7], [0, 9, 3]] {
            g.state.players[0].power.areas[..3].copy_from_slice(&areas);
            for token_value in [1, 2] {
                let mut known = PowerAnswers::default();
                for cost in &costs {
                    let afresh = g.can_pay_fixed(0, cost, token_value);
                    let remembered = g.can_pay_fixed_remembered(0, cost, token_value, &mut known);
                    assert_eq!(remembered, afresh, "{cost:?} with {areas:?}, {token_value}");
                    answers.insert(afresh);
                }
                // Each amount of power alone asked once.
                assert_eq!(known.0.len(), 5);
            }
        }
        assert_eq!(answers.len(), 2, "some costs payable, some not");
    }

    #[test]
    fn a_part_that_may_repeat_is_looked_for_among_the_parts_of_forms_with_its_key() {
        let part = |n: u32| Command::Spend {
            cost: smallvec::smallvec![Amount::new(n, "pw")],
            gain: smallvec::smallvec![Amount::new(n, "c")],
        };
        let out = vec![part(1), part(2), part(3), part(4)];
        // Three forms: key 7 listed the first two parts, key 9 the third, key 7 the rest.
        let made = [(7, 0), (9, 2), (7, 3)];
        assert!(listed_by(&out, &made, 7, &part(2)));
        assert!(listed_by(&out, &made, 7, &part(4)));
        assert!(!listed_by(&out, &made, 7, &part(3)));
        assert!(listed_by(&out, &made, 9, &part(3)));
        assert!(!listed_by(&out, &made, 9, &part(1)));
        assert!(!listed_by(&out, &made, 8, &part(1)));
        assert!(!listed_by(&out, &[], 7, &part(1)));
    }

    #[test]
    fn multiples_up_to_a_known_most_are_those_found_by_asking() {
        for most in [
            0,
            1,
            7,
            8,
            9,
            10,
            1_000,
            crate::notation::MAX_AMOUNT,
            u32::MAX,
        ] {
            let mut each = Vec::new();
            each_listed_up_to(most, |k| each.push(k));
            assert_eq!(each, listed(most), "most {most}");
        }
    }
}
