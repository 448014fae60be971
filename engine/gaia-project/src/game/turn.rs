//! A player's turn: free actions, one main action with its follow-ups, and the charges it
//! offers to neighbours; also leech decisions and Gaia-phase choices.

use serde::{Deserialize, Serialize};

use super::conversion_form::PayCode;
use super::effects::Happened;
use super::legal::{plain_gain, scaled, Reach};
use super::{err, Decision, Gaiaformer, Game, MoveError};
use crate::content::{
    BuildingRole, Bundle, Conversion, Downgrade, Effect, Modifier, Phase, Place, PlanetKind,
    ResearchChoice, Swap,
};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::federation::{self, FedInput};
use crate::notation::{Amount, Command};
use crate::player::VP;
use orrery_core::hex::Hex;

/// A follow-up the current action still needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Follow {
    /// Found a colony (with the turn's free steps and range), or with `gaia_project` start
    /// a Gaia project instead.
    Build {
        /// A Gaia project may be started instead.
        gaia_project: bool,
    },
    /// Advance research.
    Up(ResearchChoice),
    /// Take a tech tile.
    Tech,
    /// Cover a standard tile.
    Cover,
    /// Re-score a federation token.
    FedTile,
    /// Place a building with a verb.
    Place(Place),
    /// Downgrade a building.
    Downgrade(Downgrade),
    /// Swap two buildings.
    Swap(Swap),
}

/// What the federation rules need to know about a seat (see [`Game::federation_input`]).
pub(crate) struct FedParts {
    /// Buildings that may join a federation, with their power values, sorted by hex.
    pub buildings: Vec<(Hex, u32)>,
    /// Hexes already in a federation, sorted.
    pub federated: Vec<Hex>,
    /// The power a federation needs.
    pub threshold: u32,
    /// The single-federation rule holds.
    pub single: bool,
}

/// What a seat has toward colonizing with one building (see [`Game::colony_budget`]).
pub(crate) struct ColonyBudget<'a> {
    /// By code: the building's own cost and what the seat has.
    codes: smallvec::SmallVec<[(&'a str, i32, i32); 8]>,
    /// Where the terraforming and range resources are in `codes`.
    terraform: usize,
    range: usize,
    /// The Gaia planet fee, by place in `codes`.
    fee: smallvec::SmallVec<[(usize, i32); 4]>,
    /// A power code is involved: each plan takes the full payment check.
    power: bool,
    /// The power tokens to pay from.
    tokens: crate::power::Power,
    /// Plain resources taken as spent.
    spent: &'a [(crate::notation::Word, i32)],
}

impl ColonyBudget<'_> {
    /// Whether no colonization at all can be paid: not even the building's own cost, which
    /// every colonization pays on top of extras that are never negative (only known when no
    /// power code is involved).
    pub(crate) fn surely_short(&self) -> bool {
        !self.power
            && self.codes.iter().enumerate().any(|(i, &(_, base, have))| {
                base > 0 && have < base && !self.fee.iter().any(|&(j, n)| j == i && n < 0)
            })
    }
}

/// The most federations (counting every satellite layout) listed in one state.
pub const FEDERATION_LIMIT: usize = 5000;

/// Where a seat's range is measured from (inline: a seat rarely has more buildings).
pub(crate) type RangeOrigins = smallvec::SmallVec<[Hex; 24]>;

/// A seat's standing values for placing buildings, looked up once from its modifiers (move
/// listing asks them for every space of the map).
#[derive(Clone)]
pub(crate) struct SeatRules<'a> {
    /// Where range is measured from.
    pub from: RangeOrigins,
    /// Navigation range.
    pub nav_range: u32,
    /// Ore (terraforming resource) per terraforming step.
    pub ore_per_step: u32,
    /// Extra cost of colonizing a Gaia planet.
    pub gaia_fee: &'a Bundle,
    /// May colonize planets other players colonized.
    pub may_share: bool,
    /// Range resource held.
    pub range_have: i32,
    /// Power one area-III token is worth.
    pub token_value: u32,
    /// The box around `from`, to rule out far hexes cheaply.
    pub from_box: Option<orrery_core::hex::HexBox>,
    /// Range one range resource buys.
    pub range_per_qic: u32,
}

impl SeatRules<'_> {
    /// Whether a hex is surely out of reach with `extra` range, even paying every range
    /// resource held. A cheap test that never rules out a reachable hex.
    pub fn surely_out_of_reach(&self, hex: Hex, extra: u32) -> bool {
        let Some(b) = &self.from_box else {
            return true;
        };
        let most = self.nav_range + extra + self.range_have.max(0) as u32 * self.range_per_qic;
        b.distance_at_least(hex) > most
    }
}

/// Why a placement is refused; cheap to make, worded with the hex only when shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    GaiaUnfinished,
    Colonized,
    OtherGaiaformer,
    /// This building cannot go on that kind of planet.
    NotBuildable,
    NoOrigin,
    OutOfRange {
        distance: u32,
        range: u32,
    },
    UselessSteps,
    /// Extra range from the action that would not lower the QIC the hex needs.
    UselessRange,
}

/// A checked colonization: what it takes and what it does.
pub(crate) struct Colonize {
    /// Terraforming steps taken.
    pub steps: u32,
    /// Steps paid for (not free).
    pub paid_steps: u32,
    /// The Gaia-planet fee is due.
    pub gaia_fee: bool,
    /// QIC paid for range.
    pub range_q: u32,
    /// The planet is already colonized by another player.
    pub shared: bool,
    /// The seat's own Gaiaformer there (removed when the mine is built).
    pub own_gaiaformer: Option<usize>,
}

/// What the open decision has done so far (saved with the state, so a decision can be taken
/// part by part).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnCtx {
    /// The turn's main action is taken.
    pub main: bool,
    /// Follow-ups still owed, in the order they are expected.
    pub follows: Vec<Follow>,
    /// Free terraforming steps for the next mine.
    pub steps: u32,
    /// Extra range for the next placement.
    pub range: u32,
    /// Spaces built on this turn that offer charges, in build order.
    pub leech: Vec<usize>,
    /// The main action being applied is a build (only while one part is applied).
    #[serde(skip)]
    pub building_main: bool,
    /// The player passed: nothing but the end of the turn may follow.
    pub passed: bool,
    /// A main-action build's space, offered once the action's follow-ups are done.
    pub deferred_leech: Option<usize>,
    /// A one-part decision (faction, placement, booster, charge, income, answer) was made.
    pub decided: bool,
}

fn bundle_of(amounts: &[Amount]) -> Bundle {
    let mut b = Bundle::default();
    for a in amounts {
        *b.0.entry(a.code.to_string()).or_default() += a.count as i32;
    }
    b
}

impl Game {
    /// One part of a turn other than its end.
    pub(super) fn turn_step(&mut self, seat: usize, part: &Command) -> Result<(), MoveError> {
        if let Command::Other { verb, args } = part {
            if self.state.question.is_some() && self.try_answer(seat, verb, args)? {
                return Ok(());
            }
        }
        self.require_no_question()?;
        if self.state.turn.passed {
            return err("only the end of the turn may follow passing");
        }
        self.turn_part(seat, part)?;
        if self.state.turn.follows.is_empty() {
            if let Some(idx) = self.state.turn.deferred_leech.take() {
                self.state.turn.leech.push(idx);
            }
        }
        Ok(())
    }

    /// Ends a turn: the main action and its follow-ups must be done; then neighbours are
    /// offered their charges.
    pub(super) fn end_turn(&mut self, seat: usize) -> Result<(), MoveError> {
        self.require_no_question()?;
        if !self.state.turn.main {
            return err("a turn needs one main action");
        }
        self.drop_optional_follows(seat);
        if let Some(f) = self.state.turn.follows.first() {
            return err(format!("the action is not finished: expected {f:?}"));
        }
        if let Some(idx) = self.state.turn.deferred_leech.take() {
            self.state.turn.leech.push(idx);
        }
        self.offer_charges(seat);
        Ok(())
    }

    /// Research follow-ups that cannot be used lapse.
    pub(super) fn drop_optional_follows(&mut self, seat: usize) {
        let follows = std::mem::take(&mut self.state.turn.follows);
        self.state.turn.follows = follows
            .into_iter()
            .filter(|f| !self.lapses(seat, f))
            .collect();
    }

    fn main_action(&mut self) -> Result<(), MoveError> {
        let owed = self.state.turn.follows.first();
        match (self.state.turn.main, owed) {
            (true, Some(f)) => err(format!(
                "the turn's main action is already taken; it expected {f:?}"
            )),
            (true, None) => err("the turn's main action is already taken"),
            (false, Some(f)) => err(format!("finish the current action first: expected {f:?}")),
            (false, None) => Ok(()),
        }?;
        self.state.turn.main = true;
        Ok(())
    }

    /// Takes the first owed follow-up that `pred` accepts among those a part may answer now
    /// ([`Game::answerable_follows`]).
    fn take_follow(&mut self, seat: usize, pred: impl Fn(&Follow) -> bool) -> Option<Follow> {
        let open = self.answerable_follows(&self.view(seat));
        let i = open.start + self.state.turn.follows[open].iter().position(pred)?;
        Some(self.state.turn.follows.remove(i))
    }

    fn turn_part(&mut self, seat: usize, part: &Command) -> Result<(), MoveError> {
        match part {
            Command::Spend { .. } | Command::Burn(_)
                if !self.state.turn.follows.is_empty()
                    && !self.content.rules.options.free_actions_within_actions =>
            {
                err("free actions cannot interrupt an action; finish it first")
            }
            Command::Spend { cost, gain } => self.convert(seat, cost, gain, Phase::Actions),
            Command::Burn(n) => {
                let to_gaia = self.burn_to_gaia(seat);
                self.state.players[seat]
                    .power
                    .burn(*n, to_gaia)
                    .map_err(|e| MoveError(e.to_string()))
            }
            Command::Build { building, hex } => {
                let hex = self.hex(hex)?;
                let def = self.board(seat).building(building);
                let colony = def.is_some_and(|d| d.founds_colony());
                let gaia = def.is_some_and(|d| d.role == BuildingRole::Gaiaformer);
                if self
                    .take_follow(seat, |f| {
                        matches!(f, Follow::Build { gaia_project } if colony || (gaia && *gaia_project))
                    })
                    .is_some()
                {
                    return self.build(seat, building, hex, true);
                }
                if let Some(Follow::Downgrade(d)) = self.take_follow(
                    seat,
                    |f| matches!(f, Follow::Downgrade(d) if d.to == building),
                ) {
                    return self.downgrade(seat, &d, hex);
                }
                if let Some(Follow::Place(p)) = self.take_follow(
                    seat,
                    |f| matches!(f, Follow::Place(p) if p.verb.is_none() && p.building == building),
                ) {
                    return self.place(seat, &p, hex);
                }
                self.main_action()?;
                self.state.turn.building_main = true;
                let r = self.build(seat, building, hex, false);
                self.state.turn.building_main = false;
                r
            }
            Command::Up(track) => {
                let allowed = |c: &ResearchChoice| self.research_allowed(seat, c, track);
                let open = self.answerable_follows(&self.view(seat));
                let pos = self.state.turn.follows[open.clone()]
                    .iter()
                    .position(|f| matches!(f, Follow::Up(c) if allowed(c)));
                if let Some(i) = pos {
                    self.state.turn.follows.remove(open.start + i);
                    return self.advance_research(seat, track);
                }
                self.main_action()?;
                let cost = self.content.research.cost.clone();
                self.can_advance(seat, track)?;
                self.pay(seat, &cost)?;
                self.advance_research(seat, track)
            }
            // A free research step is declined with `decline up` or a bare `decline`.
            Command::Decline(what) if what.as_deref().is_none_or(|w| w == "up") => self
                .take_follow(seat, |f| matches!(f, Follow::Up(_)))
                .map(|_| ())
                .ok_or_else(|| MoveError("no research step to decline".into())),
            Command::Tech(pos) => {
                self.take_follow(seat, |f| *f == Follow::Tech)
                    .ok_or_else(|| MoveError("no tech tile to take".into()))?;
                self.take_tech(seat, pos)
            }
            Command::Cover(pos) => {
                self.take_follow(seat, |f| *f == Follow::Cover)
                    .ok_or_else(|| MoveError("nothing to cover".into()))?;
                self.cover(seat, pos)
            }
            Command::Action(id) => {
                self.main_action()?;
                self.board_action(seat, id)
            }
            Command::Special(amounts) => {
                self.main_action()?;
                let key = amounts
                    .iter()
                    .map(|a| a.to_string())
                    .collect::<Vec<_>>()
                    .join(",");
                self.special(seat, &key)
            }
            Command::Pass(booster) => {
                self.main_action()?;
                self.state.turn.passed = true;
                self.pass(seat, booster.as_deref())
            }
            Command::Federation { hexes, token } => {
                self.main_action()?;
                let hexes = hexes
                    .iter()
                    .map(|h| self.hex(h))
                    .collect::<Result<Vec<_>, _>>()?;
                self.federate(seat, &hexes, token)
            }
            Command::FedTile(id) => {
                self.take_follow(seat, |f| *f == Follow::FedTile)
                    .ok_or_else(|| MoveError("no federation token to re-score".into()))?;
                if !self.state.players[seat].tokens.iter().any(|t| t.id == id) {
                    return err(format!("you own no {id}"));
                }
                let reward = self
                    .content
                    .federation_tokens
                    .tokens
                    .iter()
                    .find(|t| t.id == id)
                    .map(|t| t.reward.clone())
                    .unwrap_or_default();
                self.apply_effects(seat, &reward, "federations")
            }
            Command::Other { verb, args } => {
                let hex = args
                    .first()
                    .map(|a| {
                        crate::notation::parse_hex_ref(a).map_err(|e| MoveError(e.to_string()))
                    })
                    .transpose()?;
                if let Some(Follow::Place(p)) = self.take_follow(
                    seat,
                    |f| matches!(f, Follow::Place(p) if p.verb.as_deref() == Some(verb)),
                ) {
                    let hex =
                        self.hex(&hex.ok_or_else(|| MoveError(format!("{verb} needs a hex")))?)?;
                    return self.place(seat, &p, hex);
                }
                if let Some(Follow::Swap(s)) =
                    self.take_follow(seat, |f| matches!(f, Follow::Swap(s) if s.verb == verb))
                {
                    let hex =
                        self.hex(&hex.ok_or_else(|| MoveError(format!("{verb} needs a hex")))?)?;
                    return self.swap(seat, &s, hex);
                }
                err(format!("`{verb}` is not expected here"))
            }
            other => err(format!("`{other}` is not possible during a turn")),
        }
    }

    /// A free-action conversion: the written cost and gain must be a multiple of one
    /// conversion the seat has in this phase.
    pub(super) fn convert(
        &mut self,
        seat: usize,
        cost: &[Amount],
        gain: &[Amount],
        phase: Phase,
    ) -> Result<(), MoveError> {
        let cost_b = bundle_of(cost);
        let gain_b = bundle_of(gain);
        let mut convs: Vec<Conversion> = if phase == Phase::Actions {
            self.board(seat).conversions.clone()
        } else {
            Vec::new()
        };
        for (_, g) in self.sources(seat) {
            convs.extend(g.conversions.iter().filter(|c| c.phase == phase).cloned());
        }
        for conv in &convs {
            let Some(g) = plain_gain(&conv.gain) else {
                continue;
            };
            let Some((code, n)) = conv.pay.iter().next() else {
                continue;
            };
            if n <= 0 || cost_b.get(code) % n != 0 {
                continue;
            }
            let k = cost_b.get(code) / n;
            if k <= 0 || scaled(&conv.pay, k) != cost_b || scaled(&g, k) != gain_b {
                continue;
            }
            self.pay(seat, &cost_b)?;
            for _ in 0..k {
                self.apply_effects(seat, &conv.gain, "other")?;
            }
            return Ok(());
        }
        err(format!(
            "no conversion of {} into {}",
            cost.iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(","),
            gain.iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ))
    }

    /// Range starting points of a seat.
    pub(crate) fn range_from(&self, seat: usize) -> RangeOrigins {
        let mut out = RangeOrigins::new();
        for (i, l) in &self.state.structures {
            if l.iter().any(|s| s.seat == seat) {
                out.push(self.state.map.spaces[*i].hex);
            }
        }
        out
    }

    /// QIC needed to reach a hex; out of range when the player cannot pay them.
    fn qic_for_range(&self, seat: usize, hex: Hex) -> Result<u32, MoveError> {
        self.qic_for_range_from(hex, &self.seat_rules(seat), self.state.turn.range)
            .map_err(|r| self.refusal(r, hex, ""))
    }

    /// Words a refusal for a hex (`building`: what was to be built there).
    pub(crate) fn refusal(&self, r: Refusal, hex: Hex, building: &str) -> MoveError {
        MoveError(match r {
            Refusal::GaiaUnfinished => "the Gaia project there is not finished yet".into(),
            Refusal::Colonized => format!("{} is already colonized", self.hex_name(hex)),
            Refusal::OtherGaiaformer => {
                format!("another player's Gaiaformer is on {}", self.hex_name(hex))
            }
            Refusal::NotBuildable => {
                format!("no {building} can be built on {}", self.hex_name(hex))
            }
            Refusal::NoOrigin => "you have no planet to measure range from".into(),
            Refusal::OutOfRange { distance, range } => format!(
                "out of range: {} is {distance} away, range {range}",
                self.hex_name(hex)
            ),
            Refusal::UselessSteps => "the free terraforming steps would not be used".into(),
            Refusal::UselessRange => format!(
                "the extra range would not be used: {} needs as much QIC without it",
                self.hex_name(hex)
            ),
        })
    }

    /// The standing placement values of a seat.
    pub(crate) fn seat_rules(&self, seat: usize) -> SeatRules<'_> {
        self.seat_rules_from(seat, &self.modifiers(seat))
    }

    /// [`Game::seat_rules`] with the modifiers in force given.
    pub(crate) fn seat_rules_from<'a>(
        &'a self,
        seat: usize,
        mods: &[&'a Modifier],
    ) -> SeatRules<'a> {
        let mut r = SeatRules {
            from: RangeOrigins::new(),
            from_box: None,
            range_per_qic: self.content.rules.range_per_qic,
            nav_range: 1,
            ore_per_step: 3,
            gaia_fee: &self.content.rules.gaia_planet_fee,
            may_share: false,
            range_have: self.state.players[seat]
                .resource(&self.content, &self.content.rules.range_resource),
            token_value: 1,
        };
        let (mut nav, mut ore, mut fee) = (None::<u32>, None::<u32>, None);
        for m in mods {
            match m {
                Modifier::NavRange(n) => nav = Some(nav.map_or(*n, |x| x.max(*n))),
                Modifier::OrePerStep(n) => ore = Some(ore.map_or(*n, |x| x.min(*n))),
                Modifier::GaiaPlanetFee(b) if fee.is_none() => fee = Some(b),
                Modifier::ShareOccupiedPlanets => r.may_share = true,
                Modifier::Area3TokenValue(v) if r.token_value == 1 => r.token_value = *v,
                _ => {}
            }
        }
        r.from = self.range_from(seat);
        r.from_box = orrery_core::hex::HexBox::around(&r.from);
        r.nav_range = nav.unwrap_or(1);
        r.ore_per_step = ore.unwrap_or(3);
        if let Some(f) = fee {
            r.gaia_fee = f;
        }
        r
    }

    /// [`Game::qic_for_range`] with the seat's standing values given.
    pub(crate) fn qic_for_range_from(
        &self,
        hex: Hex,
        rules: &SeatRules,
        extra_range: u32,
    ) -> Result<u32, Refusal> {
        let range = rules.nav_range + extra_range;
        let d = rules
            .from
            .iter()
            .map(|h| h.distance(hex))
            .min()
            .ok_or(Refusal::NoOrigin)?;
        let qic = |range: u32| d.saturating_sub(range).div_ceil(rules.range_per_qic.max(1));
        let q = qic(range);
        // The recording platform's reading: extra range from an action must save QIC.
        if extra_range > 0
            && self.content.rules.options.refuse_useless_actions
            && qic(rules.nav_range) == q
        {
            return Err(Refusal::UselessRange);
        }
        if q == 0 {
            return Ok(0);
        }
        if rules.range_have < q as i32 {
            return Err(Refusal::OutOfRange { distance: d, range });
        }
        Ok(q)
    }

    fn build(
        &mut self,
        seat: usize,
        building: &str,
        hex: Hex,
        follow: bool,
    ) -> Result<(), MoveError> {
        let idx = self.state.map.space_index(hex).expect("on map");
        let def = self
            .board(seat)
            .building(building)
            .cloned()
            .ok_or_else(|| MoveError(format!("unknown building {building}")))?;
        let built = self.state.players[seat].built_count(building);
        let own = self
            .state
            .structures
            .get(&idx)
            .and_then(|l| l.iter().find(|s| s.seat == seat))
            .cloned();
        match def.role {
            BuildingRole::Gaiaformer => return self.gaia_project(seat, idx, hex),
            BuildingRole::Station => {
                return err(format!("a {building} is placed by a special action"));
            }
            BuildingRole::Structure => {}
        }
        if built >= def.count {
            return err(format!("no {building} left on your board"));
        }
        if def.upgrades_from.is_empty() {
            if own.is_some() {
                return err(format!(
                    "you already have a building on {}",
                    self.hex_name(hex)
                ));
            }
            return self.build_on_planet(seat, idx, hex, &def);
        }
        let Some(own) = own else {
            return err(format!(
                "no building of yours on {} to upgrade",
                self.hex_name(hex)
            ));
        };
        if follow {
            return err("an upgrade is a main action");
        }
        if own.shared || own.off_board {
            return err(format!(
                "the {} on {} cannot be upgraded",
                own.building,
                self.hex_name(hex)
            ));
        }
        if !def.upgrades_from.iter().any(|u| *u == own.building) {
            return err(format!("a {} cannot become a {building}", own.building));
        }
        let cost = self.upgrade_cost(seat, &def, idx, &own.building, &self.modifiers(seat))?;
        self.pay(seat, &cost)?;
        self.finish_build(seat, idx, building, false, false)
    }

    /// Puts a building and runs what building it does: its grants, triggers, newly active
    /// abilities, charges and federation growth.
    fn finish_build(
        &mut self,
        seat: usize,
        idx: usize,
        building: &str,
        shared: bool,
        off_board: bool,
    ) -> Result<(), MoveError> {
        let new_type = !shared && {
            let planet = self.planet_id(idx).to_string();
            !self
                .own_structures(seat)
                .iter()
                .any(|(i, s)| !s.shared && *i != idx && self.planet_id(*i) == planet)
        };
        let upgrade_from = self
            .state
            .structures
            .get(&idx)
            .and_then(|l| l.iter().find(|s| s.seat == seat))
            .map(|s| s.building.to_string());
        let before: Vec<usize> = self.active_abilities(seat);
        self.put_structure(seat, idx, building, shared, off_board);
        let after = self.active_abilities(seat);
        if let Some(def) = self.board(seat).building(building).cloned() {
            self.apply_effects(seat, &def.grants.immediate, "buildings")?;
        }
        for i in before.iter().filter(|i| !after.contains(i)) {
            self.state.players[seat].unlog_source(&format!("f:{i}"));
        }
        for i in after.into_iter().filter(|i| !before.contains(i)) {
            self.state.players[seat].log_source(&format!("f:{i}"));
            let immediate = self.faction(seat).abilities[i].immediate.clone();
            self.apply_effects(seat, &immediate, "faction")?;
        }
        let planet = self.planet_id(idx).to_string();
        self.fire(
            seat,
            &Happened::Built {
                building,
                planet: &planet,
                idx,
                new_type,
                shared,
                upgrade_from: upgrade_from.as_deref(),
            },
        )?;
        // A main-action build offers its charges once its follow-ups are done.
        if std::mem::take(&mut self.state.turn.building_main) {
            self.state.turn.deferred_leech = Some(idx);
        } else {
            self.state.turn.leech.push(idx);
        }
        self.join_federation(seat, idx);
        Ok(())
    }

    pub(crate) fn active_abilities(&self, seat: usize) -> Vec<usize> {
        let p = &self.state.players[seat];
        self.faction(seat)
            .abilities
            .iter()
            .enumerate()
            .filter(|(_, a)| p.holds(a.when.as_ref()))
            .map(|(i, _)| i)
            .collect()
    }

    /// A structure built next to one of the seat's federations joins it together with its
    /// whole group: every structure of the seat connected to it through neighbouring spaces
    /// that hold a structure of the seat with a power value or belong to one of its
    /// federations (rules digest §6: "adds the new structure and the structures connected to
    /// it"). It gains no token.
    fn join_federation(&mut self, seat: usize, idx: usize) {
        let hex = self.state.map.spaces[idx].hex;
        let p = &self.state.players[seat];
        let federated: HashSet<Hex> = p.federations.iter().flatten().copied().collect();
        if federated.contains(&hex) {
            return;
        }
        let Some(target) = p
            .federations
            .iter()
            .position(|f| f.iter().any(|h| h.distance(hex) == 1))
        else {
            return;
        };
        let mods = self.modifiers(seat);
        let valued: HashSet<Hex> = self
            .own_structures(seat)
            .into_iter()
            .filter(|(i, s)| s.shared || self.power_value_with(seat, *i, &s.building, &mods) > 0)
            .map(|(i, _)| self.state.map.spaces[i].hex)
            .collect();
        let mut group = vec![hex];
        let mut seen: HashSet<Hex> = HashSet::from([hex]);
        let mut next = 0;
        while let Some(&h) = group.get(next) {
            next += 1;
            for n in h.neighbours() {
                if (federated.contains(&n) || valued.contains(&n)) && seen.insert(n) {
                    group.push(n);
                }
            }
        }
        let fed = &mut self.state.players[seat].federations[target];
        fed.extend(group.into_iter().filter(|h| !federated.contains(h)));
    }

    fn build_on_planet(
        &mut self,
        seat: usize,
        idx: usize,
        hex: Hex,
        def: &crate::content::Building,
    ) -> Result<(), MoveError> {
        let (plan, cost) = {
            let mods = self.modifiers(seat);
            let rules = self.seat_rules_from(seat, &mods);
            let plan = self
                .colonize_plan(seat, idx, hex, &rules, self.reach())
                .map_err(|r| self.refusal(r, hex, &def.id))?;
            let cost = self.hooked_colonize_cost(seat, def, idx, &plan, &rules, &mods)?;
            (plan, cost)
        };
        if let Some(g) = plan.own_gaiaformer {
            self.state.gaiaformers.remove(g);
        }
        self.pay(seat, &cost)?;
        for _ in 0..plan.steps {
            self.fire(seat, &Happened::TerraformStep { idx })?;
        }
        self.finish_build(seat, idx, &def.id, plan.shared, false)
    }

    /// Checks colonizing a planet with a building and works out what it takes (terraforming
    /// steps, Gaia fee, QIC for range), without changing anything.
    pub(crate) fn colonize_plan(
        &self,
        seat: usize,
        idx: usize,
        hex: Hex,
        rules: &SeatRules,
        reach: Reach,
    ) -> Result<Colonize, Refusal> {
        let here = self.state.structures.get(&idx).map(Vec::as_slice);
        self.colonize_plan_at(seat, idx, hex, here, rules, reach)
    }

    /// [`Game::colonize_plan`] with the structures on the space given.
    pub(crate) fn colonize_plan_at(
        &self,
        seat: usize,
        idx: usize,
        hex: Hex,
        here: Option<&[super::Structure]>,
        rules: &SeatRules,
        reach: Reach,
    ) -> Result<Colonize, Refusal> {
        let kind = self.planet_kind(idx);
        let own_gf = self
            .state
            .gaiaformers
            .iter()
            .position(|g| g.hex == hex && g.seat == seat);
        let here = here.filter(|l| !l.is_empty());
        let mut plan = Colonize {
            paid_steps: 0,
            steps: 0,
            gaia_fee: false,
            range_q: 0,
            shared: false,
            own_gaiaformer: own_gf,
        };
        if own_gf.is_some() {
            if kind != PlanetKind::Gaia {
                return Err(Refusal::GaiaUnfinished);
            }
            if here.is_some() {
                return Err(Refusal::Colonized);
            }
            // Building on one's own Gaiaformer needs no range, so extra range saves nothing.
            if reach.range > 0 && self.content.rules.options.refuse_useless_actions {
                return Err(Refusal::UselessRange);
            }
        } else {
            if self
                .state
                .gaiaformers
                .iter()
                .any(|g| g.hex == hex && g.seat != seat)
            {
                return Err(Refusal::OtherGaiaformer);
            }
            if let Some(list) = here {
                if !rules.may_share || list.iter().any(|s| s.seat == seat) {
                    return Err(Refusal::Colonized);
                }
                plan.shared = true;
            } else {
                match kind {
                    PlanetKind::Wheel => {
                        plan.steps = self.wheel_steps(seat)[usize::from(self.state.planets[idx])];
                        plan.paid_steps = plan.steps - reach.steps.min(plan.steps);
                    }
                    PlanetKind::Gaia => plan.gaia_fee = true,
                    _ => return Err(Refusal::NotBuildable),
                }
            }
            plan.range_q = self.qic_for_range_from(hex, rules, reach.range)?;
        }
        if self.content.rules.options.refuse_useless_actions && reach.steps > 0 && plan.steps == 0 {
            return Err(Refusal::UselessSteps);
        }
        Ok(plan)
    }

    /// Everything a planned colonization with a building costs.
    pub(crate) fn colonize_cost(
        &self,
        def: &crate::content::Building,
        plan: &Colonize,
        rules: &SeatRules,
    ) -> Bundle {
        let mut cost = def.cost.clone();
        for (code, n) in self.colonize_extras(plan, rules) {
            *cost.0.entry(code.to_string()).or_default() += n;
        }
        cost.0.retain(|_, n| *n != 0);
        cost
    }

    /// What a planned colonization costs, as the seat's cost hooks adjust it (after its
    /// placement hooks allow it); without hooks, [`Game::colonize_cost`].
    pub(crate) fn hooked_colonize_cost(
        &self,
        seat: usize,
        def: &crate::content::Building,
        idx: usize,
        plan: &Colonize,
        rules: &SeatRules,
        mods: &[&Modifier],
    ) -> Result<Bundle, MoveError> {
        if !Self::names_site_hooks(mods) {
            return Ok(self.colonize_cost(def, plan, rules));
        }
        let r = &self.content.rules;
        let one = |code: &str, n: u32| match n {
            0 => Bundle::default(),
            n => Bundle::of(&[(code, n as i32)]),
        };
        let parts = super::hooks::CostParts {
            building: def.cost.clone(),
            terraform: one(&r.terraform_resource, plan.paid_steps * rules.ore_per_step),
            range: one(&r.range_resource, plan.range_q),
            gaia_fee: match plan.gaia_fee {
                true => rules.gaia_fee.clone(),
                false => Bundle::default(),
            },
        };
        let site = super::hooks::Site {
            building: &def.id,
            idx,
            upgrade_from: None,
        };
        self.hooked_cost(seat, mods, site, parts)
    }

    /// What upgrading the seat's `from` on a space to `def` costs (more near a rival when the
    /// building says so), as the seat's hooks adjust it.
    pub(crate) fn upgrade_cost(
        &self,
        seat: usize,
        def: &crate::content::Building,
        idx: usize,
        from: &str,
        mods: &[&Modifier],
    ) -> Result<Bundle, MoveError> {
        let hex = self.state.map.spaces[idx].hex;
        let cost = match &def.cost_near_rival {
            Some(c) if self.rival_near(seat, hex) => c.clone(),
            _ => def.cost.clone(),
        };
        if !Self::names_site_hooks(mods) {
            return Ok(cost);
        }
        let parts = super::hooks::CostParts {
            building: cost,
            ..Default::default()
        };
        let site = super::hooks::Site {
            building: &def.id,
            idx,
            upgrade_from: Some(from),
        };
        self.hooked_cost(seat, mods, site, parts)
    }

    /// What `q` QIC for range cost, in the content's range resource.
    pub(crate) fn range_cost(&self, q: u32) -> Bundle {
        match q {
            0 => Bundle::default(),
            q => Bundle::of(&[(self.content.rules.range_resource.as_str(), q as i32)]),
        }
    }

    /// What placing a building by a follow-up (`place`) on a space costs when its range costs
    /// `q`: the seat's placement hooks may refuse the space, its cost hooks change the cost.
    pub(crate) fn placement_cost(
        &self,
        seat: usize,
        mods: &[&Modifier],
        building: &str,
        idx: usize,
        q: u32,
    ) -> Result<Bundle, MoveError> {
        let parts = super::hooks::CostParts {
            range: self.range_cost(q),
            ..Default::default()
        };
        let site = super::hooks::Site {
            building,
            idx,
            upgrade_from: None,
        };
        self.hooked_cost(seat, mods, site, parts)
    }

    /// What a colonization costs on top of the building's own cost.
    fn colonize_extras<'a>(
        &'a self,
        plan: &Colonize,
        rules: &'a SeatRules<'a>,
    ) -> impl Iterator<Item = (&'a str, i32)> + 'a {
        let r = &self.content.rules;
        let steps = (plan.paid_steps * rules.ore_per_step) as i32;
        let fee = plan
            .gaia_fee
            .then(|| rules.gaia_fee.iter())
            .into_iter()
            .flatten();
        [
            (r.terraform_resource.as_str(), steps),
            (r.range_resource.as_str(), plan.range_q as i32),
        ]
        .into_iter()
        .chain(fee)
        .filter(|(_, n)| *n != 0)
    }

    /// What a seat has toward colonizing with a building, summed by code once, so that each
    /// planned colonization only adds its own extras; `spent`: plain resources taken as
    /// already spent, `tokens`: the power tokens to pay from.
    pub(crate) fn colony_budget<'a>(
        &'a self,
        seat: usize,
        def: &'a crate::content::Building,
        rules: &'a SeatRules<'a>,
        spent: &'a [(crate::notation::Word, i32)],
        tokens: crate::power::Power,
    ) -> ColonyBudget<'a> {
        let r = &self.content.rules;
        let mut codes: smallvec::SmallVec<[(&str, i32, i32); 8]> = smallvec::SmallVec::new();
        let mut slot = |code: &'a str| match codes.iter().position(|(c, ..)| *c == code) {
            Some(i) => i,
            None => {
                codes.push((code, 0, 0));
                codes.len() - 1
            }
        };
        let mut cost: smallvec::SmallVec<[(usize, i32); 4]> = smallvec::SmallVec::new();
        for (c, n) in def.cost.iter() {
            cost.push((slot(c), n));
        }
        let terraform = slot(r.terraform_resource.as_str());
        let range = slot(r.range_resource.as_str());
        let mut fee = smallvec::SmallVec::new();
        for (c, n) in rules.gaia_fee.iter() {
            fee.push((slot(c), n));
        }
        for (i, n) in &cost {
            codes[*i].1 += n;
        }
        let p = &self.state.players[seat];
        for (code, _, have) in &mut codes {
            let less: i32 = spent
                .iter()
                .filter(|(c, _)| c == code)
                .map(|(_, n)| n)
                .sum();
            *have = p.resource(&self.content, code) - less;
        }
        let power = codes.iter().any(|(c, ..)| {
            !matches!(
                PayCode::of(&self.content, c),
                PayCode::Resource(_) | PayCode::Unknown
            )
        });
        ColonyBudget {
            codes,
            terraform,
            range,
            fee,
            power,
            tokens,
            spent,
        }
    }

    /// Whether the seat can pay a planned colonization: what paying it would accept.
    pub(crate) fn colonize_affordable(
        &self,
        seat: usize,
        def: &crate::content::Building,
        plan: &Colonize,
        rules: &SeatRules,
        budget: &ColonyBudget<'_>,
    ) -> bool {
        if budget.power || budget.codes.len() > 8 {
            // Power costs take the full check (on the state as it is).
            return self.can_pay_items_from(
                seat,
                budget.tokens,
                budget.spent,
                self.colonize_cost(def, plan, rules).iter(),
                rules.token_value,
            );
        }
        let mut need = [0i32; 8];
        for (i, (_, base, _)) in budget.codes.iter().enumerate() {
            need[i] = *base;
        }
        need[budget.terraform] += (plan.paid_steps * rules.ore_per_step) as i32;
        need[budget.range] += plan.range_q as i32;
        if plan.gaia_fee {
            for (i, n) in &budget.fee {
                need[*i] += n;
            }
        }
        budget
            .codes
            .iter()
            .zip(need)
            .all(|(&(_, _, have), n)| n <= 0 || have >= n)
    }

    fn gaia_project(&mut self, seat: usize, idx: usize, hex: Hex) -> Result<(), MoveError> {
        if self.planet_kind(idx) != PlanetKind::Transdim {
            return err(format!("{} is not a Transdim planet", self.hex_name(hex)));
        }
        if self.state.gaiaformers.iter().any(|g| g.hex == hex)
            || self.state.structures.contains_key(&idx)
        {
            return err(format!("{} is taken", self.hex_name(hex)));
        }
        let tokens = self
            .modifier(seat, |m| match m {
                Modifier::GaiaProjectTokens(n) => Some(*n),
                _ => None,
            })
            .ok_or_else(|| {
                MoveError("no Gaia projects possible at your Gaia Project level".into())
            })?;
        if self.free_gaiaformers(seat) == 0 {
            return err("no Gaiaformer available");
        }
        let q = self.qic_for_range(seat, hex)?;
        if q > 0 {
            self.pay(
                seat,
                &Bundle::of(&[(self.content.rules.range_resource.as_str(), q as i32)]),
            )?;
        }
        self.move_tokens(seat, tokens, true)?;
        let round = self.state.round;
        self.state.gaiaformers.push(Gaiaformer { seat, hex, round });
        Ok(())
    }

    fn place(&mut self, seat: usize, p: &Place, hex: Hex) -> Result<(), MoveError> {
        let idx = self.state.map.space_index(hex).expect("on map");
        if p.on_empty_space && self.planet_kind(idx) != PlanetKind::Empty {
            return err(format!("{} is not empty space", self.hex_name(hex)));
        }
        // A station may share a space with other players' satellites; a created planet not.
        let station = self.is_station(seat, &p.building);
        let satellite = self
            .state
            .players
            .iter()
            .enumerate()
            .any(|(s, pl)| (!station || s == seat) && pl.satellites.contains(&hex));
        if self
            .state
            .structures
            .get(&idx)
            .is_some_and(|l| !l.is_empty())
            || satellite
        {
            return err(format!("{} is taken", self.hex_name(hex)));
        }
        let q = self.qic_for_range(seat, hex)?;
        // The seat's placement hooks may refuse the space, its cost hooks change the range.
        let cost = match self.hooked {
            true => self.placement_cost(seat, &self.modifiers(seat), &p.building, idx, q)?,
            false => self.range_cost(q),
        };
        if !cost.0.is_empty() {
            self.pay(seat, &cost)?;
        }
        if let Some(planet) = &p.creates_planet {
            if let Some(i) = self
                .content
                .planets
                .planets
                .iter()
                .position(|x| &x.id == planet)
            {
                self.state.planets[idx] = i as u8;
            }
            return self.finish_build(seat, idx, &p.building, false, true);
        }
        if self.is_station(seat, &p.building) {
            let def = self.board(seat).building(&p.building).cloned();
            let built = self.state.players[seat].built_count(&p.building);
            if def.is_some_and(|d| built >= d.count) {
                return err(format!("no {} left", p.building));
            }
            self.put_structure(seat, idx, &p.building, false, false);
            self.join_federation(seat, idx);
            return Ok(());
        }
        self.finish_build(seat, idx, &p.building, false, false)
    }

    fn downgrade(&mut self, seat: usize, d: &Downgrade, hex: Hex) -> Result<(), MoveError> {
        let idx = self.state.map.space_index(hex).expect("on map");
        let ok = self
            .state
            .structures
            .get(&idx)
            .is_some_and(|l| l.iter().any(|s| s.seat == seat && s.building == d.from));
        if !ok {
            return err(format!("no {} of yours on {}", d.from, self.hex_name(hex)));
        }
        self.finish_build(seat, idx, &d.to, false, false)
    }

    fn swap(&mut self, seat: usize, s: &Swap, hex: Hex) -> Result<(), MoveError> {
        let idx = self.state.map.space_index(hex).expect("on map");
        let target_ok = self.state.structures.get(&idx).is_some_and(|l| {
            l.iter()
                .any(|x| x.seat == seat && x.building == s.with && !x.off_board)
        });
        if !target_ok {
            return err(format!("no {} of yours on {}", s.with, self.hex_name(hex)));
        }
        let from = self
            .own_structures(seat)
            .into_iter()
            .find(|(_, x)| x.building == s.building)
            .map(|(i, _)| i)
            .ok_or_else(|| MoveError(format!("you have no {}", s.building)))?;
        for (i, b) in [(from, &s.with), (idx, &s.building)] {
            if let Some(x) = self
                .state
                .structures
                .get_mut(&i)
                .and_then(|l| l.iter_mut().find(|x| x.seat == seat))
            {
                x.building = b.as_str().into();
            }
        }
        Ok(())
    }

    /// Whether a seat may advance a track now.
    pub(crate) fn can_advance(&self, seat: usize, track: &str) -> Result<(), MoveError> {
        self.can_advance_with(seat, track, &self.modifiers(seat))
    }

    /// [`Game::can_advance`] with the modifiers in force given.
    pub(crate) fn can_advance_with(
        &self,
        seat: usize,
        track: &str,
        mods: &[&Modifier],
    ) -> Result<(), MoveError> {
        let t = self
            .content
            .research
            .tracks
            .iter()
            .find(|t| t.id == track)
            .ok_or_else(|| MoveError(format!("unknown research track {track}")))?;
        let level = self.state.players[seat].level(track);
        let top = t.levels.len() as u32 - 1;
        if level >= top {
            return err(format!("{track} is at its top level"));
        }
        if mods
            .iter()
            .any(|m| matches!(m, Modifier::LockTrack(x) if x == track))
        {
            return err(format!("you may not advance on {track}"));
        }
        if level + 1 == top {
            let tl = &self.content.research.top_level;
            if tl.exclusive
                && self
                    .state
                    .players
                    .iter()
                    .any(|p| p.research.get(track) == Some(&top))
            {
                return err(format!("someone stands on the top of {track}"));
            }
            if tl.flip_token && !self.state.players[seat].tokens.iter().any(|t| t.green) {
                return err("the top level needs a green federation token");
            }
        }
        Ok(())
    }

    pub(crate) fn advance_research(&mut self, seat: usize, track: &str) -> Result<(), MoveError> {
        self.can_advance(seat, track)?;
        let t = self
            .content
            .research
            .tracks
            .iter()
            .find(|t| t.id == track)
            .cloned()
            .expect("checked");
        let level = self.state.players[seat].level(track) + 1;
        if level as usize + 1 == t.levels.len() && self.content.research.top_level.flip_token {
            if let Some(tok) = self.state.players[seat].tokens.iter_mut().find(|t| t.green) {
                tok.green = false;
            }
        }
        self.state.players[seat]
            .research
            .insert(track.into(), level);
        self.state.players[seat].log_source(&format!("r:{track}"));
        let immediate = t.levels[level as usize].immediate.clone();
        self.apply_effects(seat, &immediate, "research")?;
        self.fire(seat, &Happened::ResearchStep { track, level })?;
        Ok(())
    }

    fn take_tech(&mut self, seat: usize, pos: &str) -> Result<(), MoveError> {
        let prefix = self.content.advanced_tiles.position_prefix.clone();
        if let Some(track) = pos.strip_prefix(&prefix) {
            let tile = self
                .state
                .adv_left
                .get(pos)
                .cloned()
                .ok_or_else(|| MoveError(format!("no advanced tile at {pos}")))?;
            let level = self.state.players[seat].level(track);
            if level < self.content.advanced_tiles.min_level {
                return err(format!(
                    "{tile} needs level {} on {track}",
                    self.content.advanced_tiles.min_level
                ));
            }
            if !self.state.players[seat].techs.iter().any(|t| !t.covered) {
                return err("no standard tile to cover");
            }
            let tok = self.state.players[seat]
                .tokens
                .iter_mut()
                .find(|t| t.green)
                .ok_or_else(|| {
                    MoveError("an advanced tile needs a green federation token".into())
                })?;
            tok.green = false;
            self.state.adv_left.remove(pos);
            self.state.players[seat].advanced.push(tile.clone());
            self.state.players[seat].log_source(&format!("a:{tile}"));
            self.state
                .turn
                .follows
                .insert(0, Follow::Up(ResearchChoice::Any));
            self.state.turn.follows.insert(0, Follow::Cover);
            let content = self.content.clone();
            return self.tile_immediate(seat, &content.advanced_tiles.tiles, &tile);
        }
        let tile = self.tile_at(pos)?;
        if self.state.tech_left.get(pos).copied().unwrap_or(0) == 0 {
            return err(format!("no {tile} left at {pos}"));
        }
        if self.state.players[seat].techs.iter().any(|t| t.id == tile) {
            return err(format!("you already own {tile}"));
        }
        *self.state.tech_left.entry(pos.into()).or_default() -= 1;
        self.state.players[seat]
            .techs
            .push(crate::player::OwnedTile {
                id: tile.as_str().into(),
                covered: false,
            });
        self.state.players[seat].log_source(&format!("t:{tile}"));
        let choice = self
            .content
            .tech_tiles
            .positions
            .iter()
            .find(|p| p.id == pos)
            .and_then(|p| p.track.clone())
            .map_or(ResearchChoice::Any, ResearchChoice::Track);
        self.state.turn.follows.insert(0, Follow::Up(choice));
        let content = self.content.clone();
        self.tile_immediate(seat, &content.tech_tiles.tiles, &tile)
    }

    /// Applies a newly taken tile's one-time effects.
    fn tile_immediate(
        &mut self,
        seat: usize,
        tiles: &[crate::content::Tile],
        id: &str,
    ) -> Result<(), MoveError> {
        match tiles.iter().find(|t| t.id == id) {
            Some(def) => self.apply_effects(seat, &def.immediate, "tech tiles"),
            None => Ok(()),
        }
    }

    /// The standard tile at a position.
    fn tile_at(&self, pos: &str) -> Result<String, MoveError> {
        self.state
            .setup
            .techs
            .get(pos)
            .cloned()
            .ok_or_else(|| MoveError(format!("no tech position {pos}")))
    }

    fn cover(&mut self, seat: usize, pos: &str) -> Result<(), MoveError> {
        let tile = self.tile_at(pos)?;
        let t = self.state.players[seat]
            .techs
            .iter_mut()
            .find(|t| t.id == tile && !t.covered)
            .ok_or_else(|| MoveError(format!("you have no uncovered {tile}")))?;
        t.covered = true;
        self.state.players[seat].unlog_source(&format!("t:{tile}"));
        Ok(())
    }

    fn board_action(&mut self, seat: usize, id: &str) -> Result<(), MoveError> {
        let a = self
            .content
            .board_actions
            .actions
            .iter()
            .find(|a| a.id == id)
            .cloned()
            .ok_or_else(|| MoveError(format!("unknown board action {id}")))?;
        if self.state.actions_used.iter().any(|u| u == id) {
            return err(format!("{id} was used this round"));
        }
        if self.gain_wholly_capped(seat, &a.effects) {
            return err(format!("{id} would gain nothing: its gain is at the cap"));
        }
        self.pay(seat, &a.cost)?;
        self.state.actions_used.push(id.into());
        self.apply_effects(seat, &a.effects, "board actions")
    }

    fn special(&mut self, seat: usize, key: &str) -> Result<(), MoveError> {
        if self.state.players[seat]
            .specials_used
            .iter()
            .any(|k| k == key)
        {
            return err(format!("special action {key} was used this round"));
        }
        let effects = self
            .sources(seat)
            .into_iter()
            .find_map(|(src, g)| {
                g.action
                    .filter(|a| a.key == key)
                    .map(|a| (src, a.effects.clone()))
            })
            .ok_or_else(|| MoveError(format!("you have no special action {key}")))?;
        self.state.players[seat].specials_used.push(key.into());
        self.apply_effects(seat, &effects.1, effects.0)
    }

    fn pass(&mut self, seat: usize, booster: Option<&str>) -> Result<(), MoveError> {
        let last = self.state.round >= self.content.rules.rounds;
        let pass_effects: Vec<(&'static str, Vec<Effect>)> = self
            .sources(seat)
            .into_iter()
            .map(|(s, g)| (s, g.pass.to_vec()))
            .collect();
        for (src, effects) in pass_effects {
            // Nothing can follow a pass: a hook's return is held to what YAML may say there.
            let mut plain = Vec::with_capacity(effects.len());
            for e in effects {
                let Effect::Script(s) = &e else {
                    plain.push(e);
                    continue;
                };
                for got in self.hook_effects(seat, s, src)? {
                    if let Err(why) = got.pays_without_choice("a pass") {
                        return Err(self.hook_refusal(s, format!("returned {got:?}: {why}")));
                    }
                    plain.push(got);
                }
            }
            self.apply_effects(seat, &plain, src)?;
        }
        let old = self.state.players[seat].booster.take();
        match (booster, last) {
            (Some(b), false) => self.take_booster(seat, b)?,
            (None, true) => {}
            (Some(_), true) => return err("no booster is taken in the last round"),
            (None, false) => return err("choose a booster when passing"),
        }
        if let Some(o) = old {
            self.state.boosters.push(o);
        }
        self.state.players[seat].passed = true;
        self.state.passed_order.push(seat);
        Ok(())
    }

    /// The input of the federation rules for a seat: its buildings not yet federated (all of
    /// them under the single-federation rule) with their power values, and the federated hexes,
    /// both sorted; the power threshold; whether the single-federation rule holds.
    pub(crate) fn federation_input(&self, seat: usize) -> FedParts {
        self.federation_input_with(seat, &self.modifiers(seat))
    }

    /// [`Game::federation_input`] with the modifiers in force given.
    fn federation_input_with(&self, seat: usize, mods: &[&Modifier]) -> FedParts {
        let single = mods.iter().any(|m| matches!(m, Modifier::SingleFederation));
        let threshold = mods
            .iter()
            .find_map(|m| match m {
                Modifier::FederationThreshold(t) => Some(*t),
                _ => None,
            })
            .unwrap_or(self.content.rules.federation_threshold);
        let p = &self.state.players[seat];
        let mut federated: Vec<Hex> = p.federations.iter().flatten().copied().collect();
        federated.sort_unstable();
        federated.dedup();
        // Under the single-federation rule every formation counts (a growth merges into the
        // one federation, so the number of federations would stay 1).
        let threshold = if single {
            threshold.saturating_mul(p.formations.saturating_add(1))
        } else {
            threshold
        };
        let mut buildings = Vec::new();
        for (idx, list) in &self.state.structures {
            for s in list.iter().filter(|s| s.seat == seat) {
                let hex = self.state.map.spaces[*idx].hex;
                if single || federated.binary_search(&hex).is_err() {
                    let value = if s.shared {
                        1
                    } else {
                        self.power_value_with(seat, *idx, &s.building, mods)
                    };
                    buildings.push((hex, value));
                }
            }
        }
        buildings.sort_unstable();
        FedParts {
            buildings,
            federated,
            threshold,
            single,
        }
    }

    /// Every federation the seat could form now (not outclassed; at most as many new
    /// satellites as it can pay for).
    pub fn available_federations(&self, seat: usize) -> Vec<federation::Federation> {
        let max = self.affordable_satellites(seat);
        self.with_fed_input(seat, |input| federation::available(input, max))
    }

    /// Every federation the seat could form now, every satellite layout included (at most
    /// [`FEDERATION_LIMIT`] of them).
    ///
    /// The search is a pure function of the seat's position, so results are remembered by
    /// their complete input and shared by clones of this game (a bot exploring moves, a turn
    /// built part by part).
    pub fn federation_layouts(&self, seat: usize) -> Vec<federation::Federation> {
        self.federation_layouts_with(seat, &self.modifiers(seat))
            .as_ref()
            .clone()
    }

    /// [`Game::federation_layouts`] with the modifiers in force given.
    pub(crate) fn federation_layouts_with(
        &self,
        seat: usize,
        mods: &[&Modifier],
    ) -> Arc<Vec<federation::Federation>> {
        let parts = self.federation_input_with(seat, mods);
        if !parts.single && parts.buildings.iter().map(|(_, v)| v).sum::<u32>() < parts.threshold {
            return Arc::default();
        }
        let max = self.affordable_satellites_with(seat, mods);
        let own_sats = &self.state.players[seat].satellites;
        let mut blocked: Vec<Hex> = own_sats.clone();
        for (idx, list) in &self.state.structures {
            if list
                .iter()
                .any(|x| x.seat == seat || !self.is_station(x.seat, &x.building))
            {
                blocked.push(self.state.map.spaces[*idx].hex);
            }
        }
        blocked.sort_unstable();
        let key = super::memo::FedKey {
            seat,
            buildings: parts.buildings,
            federated: parts.federated,
            blocked,
            planets: self.state.planets.clone(),
            threshold: parts.threshold,
            single: parts.single,
            max,
        };
        if let Some(hit) = self.memo.get(&key) {
            return hit;
        }
        let parts = FedParts {
            buildings: key.buildings.clone(),
            federated: key.federated.clone(),
            threshold: key.threshold,
            single: key.single,
        };
        let found = Arc::new(self.with_fed_input_from(seat, parts, |input| {
            federation::available_layouts(input, max, FEDERATION_LIMIT)
        }));
        self.memo.put(key, found.clone());
        found
    }

    /// Runs `f` with the federation rules' input for a seat.
    fn with_fed_input<R>(&self, seat: usize, f: impl FnOnce(&FedInput<'_>) -> R) -> R {
        self.with_fed_input_from(seat, self.federation_input(seat), f)
    }

    /// [`Game::with_fed_input`] with the seat's federation input given.
    fn with_fed_input_from<R>(
        &self,
        seat: usize,
        input: FedParts,
        f: impl FnOnce(&FedInput<'_>) -> R,
    ) -> R {
        let buildings: HashMap<Hex, u32> = input.buildings.into_iter().collect();
        let federated: HashSet<Hex> = input.federated.into_iter().collect();
        let (threshold, single) = (input.threshold, input.single);
        let own_sats: HashSet<Hex> = self.state.players[seat]
            .satellites
            .iter()
            .copied()
            .collect();
        let space = |h: Hex| self.satellite_space(seat, h, &own_sats);
        f(&FedInput {
            buildings: &buildings,
            federated: &federated,
            space: &space,
            threshold,
            single_federation: single,
        })
    }

    /// How many new satellites a seat can pay for and still place.
    fn affordable_satellites(&self, seat: usize) -> usize {
        self.affordable_satellites_with(seat, &self.modifiers(seat))
    }

    /// [`Game::affordable_satellites`] with the modifiers in force given.
    fn affordable_satellites_with(&self, seat: usize, mods: &[&Modifier]) -> usize {
        let cost = satellite_cost(&self.content, mods);
        let p = &self.state.players[seat];
        let mut max = self
            .content
            .rules
            .satellites
            .saturating_sub(p.satellites.len() as u32) as usize;
        for (code, n) in cost.iter() {
            if n > 0 {
                let have = match code {
                    "t" => {
                        p.power.tokens(crate::power::Area::I)
                            + p.power.tokens(crate::power::Area::II)
                            + p.power.tokens(crate::power::Area::III)
                    }
                    other => p.resource(&self.content, other).max(0) as u32,
                };
                max = max.min((have / n as u32) as usize);
            }
        }
        max
    }

    fn satellite_space(&self, seat: usize, h: Hex, own_sats: &HashSet<Hex>) -> bool {
        self.state.map.space_index(h).is_some_and(|i| {
            self.planet_kind(i) == PlanetKind::Empty
                && !own_sats.contains(&h)
                && self.state.structures.get(&i).is_none_or(|l| {
                    l.iter()
                        .all(|x| x.seat != seat && self.is_station(x.seat, &x.building))
                })
        })
    }

    fn federate(&mut self, seat: usize, hexes: &[Hex], token: &str) -> Result<(), MoveError> {
        let fed = self
            .with_fed_input(seat, |input| federation::check(input, hexes))
            .map_err(|e| MoveError(e.to_string()))?;
        let single_federation =
            self.has_modifier(seat, |m| matches!(m, Modifier::SingleFederation));
        let cost = satellite_cost(&self.content, &self.modifiers(seat));
        if self.state.players[seat].satellites.len() + fed.satellites.len()
            > self.content.rules.satellites as usize
        {
            return err("not enough satellites left");
        }
        let total = scaled(&cost, fed.satellites.len() as i32);
        self.pay(seat, &total)?;
        let left = self.state.fed_supply.get(token).copied().unwrap_or(0);
        if left == 0 {
            return err(format!("no {token} left in the supply"));
        }
        *self.state.fed_supply.entry(token.into()).or_default() -= 1;
        let members: Vec<Hex> = fed
            .buildings
            .iter()
            .chain(&fed.satellites)
            .copied()
            .collect();
        let p = &mut self.state.players[seat];
        p.satellites.extend(fed.satellites.iter().copied());
        p.formations = p.formations.saturating_add(1);
        if single_federation && !p.federations.is_empty() {
            for h in members {
                if !p.federations[0].contains(&h) {
                    p.federations[0].push(h);
                }
            }
        } else {
            p.federations.push(members);
        }
        self.gain_token(seat, token, "federations")
    }

    /// Queues charge offers for the spaces built this turn: the most recent building first,
    /// then players in seat order after the builder.
    fn offer_charges(&mut self, seat: usize) {
        let n = self.state.players.len();
        let dist = self.content.rules.charge_distance;
        let mut offers = Vec::new();
        for &idx in self.state.turn.leech.iter().rev() {
            let hex = self.state.map.spaces[idx].hex;
            for k in 1..n {
                let other = (seat + k) % n;
                let value = self
                    .own_structures(other)
                    .into_iter()
                    .filter(|(i, s)| {
                        !self.is_station(other, &s.building)
                            && self.state.map.spaces[*i].hex.distance(hex) <= dist
                    })
                    .map(|(i, s)| self.power_value(other, i, &s.building))
                    .max()
                    .unwrap_or(0);
                let tokens =
                    self.has_modifier(other, |m| matches!(m, Modifier::ChargeGainsTokens(_)));
                if value > 0 && (self.state.players[other].power.chargeable() > 0 || tokens) {
                    offers.push(Decision::Leech {
                        seat: other,
                        value,
                        from: Some(super::ChargeFrom { seat, space: idx }),
                    });
                }
            }
        }
        for d in offers.into_iter().rev() {
            self.state.queue.push_front(d);
        }
    }

    /// The charge actually offered: limited by what the bowls can take and by VP.
    pub(crate) fn offer_amount(&self, seat: usize, value: u32) -> u32 {
        let p = &self.state.players[seat];
        let vp = p.resource(&self.content, VP).max(0) as u32;
        value.min(p.power.chargeable()).min(vp + 1)
    }

    /// A part of a charge decision: `charge …`, `decline …`, or an answer.
    pub(super) fn leech_part(
        &mut self,
        seat: usize,
        value: u32,
        from: Option<super::ChargeFrom>,
        part: &Command,
    ) -> Result<(), MoveError> {
        let decided = self.state.turn.decided;
        match part {
            Command::Charge(items) if !decided => {
                let pw: u32 = items
                    .iter()
                    .filter(|a| a.code == "pw")
                    .map(|a| a.count)
                    .sum();
                let tokens: u32 = items
                    .iter()
                    .filter(|a| a.code == "t")
                    .map(|a| a.count)
                    .sum();
                let allowed = self.charge_tokens(seat);
                let mut amount = self.offer_amount(seat, value);
                if tokens != 0 && tokens != allowed {
                    return err(if allowed == 0 {
                        "no power tokens come with this charge".to_string()
                    } else {
                        format!("this charge comes with {allowed}t")
                    });
                }
                if allowed > 0 && tokens == 0 {
                    return err(format!(
                        "this charge comes with {allowed}t (`charge {amount}pw,{allowed}t`)"
                    ));
                }
                let token_first = items.first().is_some_and(|a| a.code == "t");
                if token_first {
                    self.state.players[seat].power.gain_tokens(tokens);
                    amount = self.offer_amount(seat, value);
                }
                if pw != amount {
                    return err(format!("the offer is {amount}pw, not {pw}pw"));
                }
                self.charge_power(seat, amount);
                if !token_first {
                    // An open question adds these tokens to its answer.
                    self.state.players[seat].power.gain_tokens(tokens);
                }
                self.gain_code(seat, VP, -(amount.saturating_sub(1) as i32), "leech");
                self.fire(seat, &Happened::ChargeAccepted { amount, from })?;
                self.state.turn.decided = true;
                Ok(())
            }
            Command::Decline(_) if !decided => {
                self.state.turn.decided = true;
                Ok(())
            }
            Command::Other { verb, args } if self.try_answer(seat, verb, args)? => Ok(()),
            other => err(format!("`{other}` is not an answer to a charge offer")),
        }
    }

    /// Power tokens a seat gains with an accepted charge.
    pub(crate) fn charge_tokens(&self, seat: usize) -> u32 {
        self.modifier(seat, |m| match m {
            Modifier::ChargeGainsTokens(n) => Some(*n),
            _ => None,
        })
        .unwrap_or(0)
    }

    /// Ends a charge decision.
    pub(super) fn end_leech(&mut self, seat: usize, value: u32) -> Result<(), MoveError> {
        if !self.state.turn.decided {
            let amount = self.offer_amount(seat, value);
            return err(format!("charge or decline the offer of {amount}pw"));
        }
        self.require_no_question()
    }

    /// A part of a Gaia-phase decision.
    pub(super) fn gaia_part(&mut self, seat: usize, part: &Command) -> Result<(), MoveError> {
        // In the Gaia phase only declining decides: after it, nothing but the end is left.
        if self.state.turn.decided {
            return err("the Gaia-phase offer was declined: end the turn");
        }
        match part {
            Command::Spend { cost, gain } => self.convert(seat, cost, gain, Phase::Gaia),
            Command::Decline(Some(w)) if w == "tech" => {
                self.state.turn.decided = true;
                Ok(())
            }
            Command::Tech(_) | Command::Up(_) | Command::Cover(_) | Command::Decline(_) => {
                self.turn_part(seat, part)
            }
            other => err(format!("`{other}` is not possible in the Gaia phase")),
        }
    }
}

/// What one satellite costs a seat.
fn satellite_cost(content: &crate::content::Content, mods: &[&Modifier]) -> Bundle {
    mods.iter()
        .find_map(|m| match m {
            Modifier::SatelliteCost(b) => Some(b.clone()),
            _ => None,
        })
        .unwrap_or_else(|| content.rules.satellite_cost.clone())
}
