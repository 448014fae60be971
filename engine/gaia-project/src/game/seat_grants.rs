//! A seat's active grants found once and remembered while what they depend on stays the same
//! (its research levels, buildings taken, tiles, booster and holding condition hooks), so
//! listing does not walk them, looking content items up by id, on every call.
//!
//! A grant is remembered by where it is in content ([`GrantAt`]), read again by index; the
//! granted conversions are remembered in listing form ([`ConversionForm`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use smallvec::SmallVec;

use super::conversion_form::ConversionForm;
use super::{Game, Seats};
use crate::board::FactionBoard;
use crate::content::{Content, Conversion, Faction, Grants, Modifier, Phase, SpecialAction};
use crate::lookup::index_of;
use crate::notation::Word;
use crate::player::{GrantAt, OwnedTile, Player};
use crate::word_map::WordMap;
use orrery_core::shared::Shared;

/// How many parts of a player grants depend on are stamped ([`stamps`]).
const SOURCES: usize = 6;

/// The stamps of the parts of a player grants depend on (the faction is compared as it is).
fn stamps(p: &Player) -> [u64; SOURCES] {
    [
        p.research.stamp(),
        p.built.stamp(),
        p.techs.stamp(),
        p.advanced.stamp(),
        p.booster.stamp(),
        p.hooks_holding.stamp(),
    ]
}

/// A seat's research levels or buildings taken, as the seat holds them (inline: compared by
/// value, not by pointer).
type Levels = WordMap<u32, 8>;

/// A seat's active grants and granted conversions in listing form, with what they were
/// worked out from.
#[derive(Debug)]
pub(crate) struct SeatGrants {
    /// The seat.
    seat: usize,
    /// The content and the seats' fixed facts (faction, board) they were read from, held so
    /// that a pointer compares equal only to them.
    content: Arc<Content>,
    seats: Seats,
    /// The parts of the player they depend on, held so that a pointer compares equal only to
    /// them.
    faction: Word,
    research: Levels,
    built: Levels,
    techs: Shared<Vec<OwnedTile>>,
    advanced: Shared<Vec<Word>>,
    booster: Option<Word>,
    hooks_holding: Shared<Vec<Word>>,
    /// The stamps of the player's parts they were last found to fit (those parts the same
    /// as these while the stamps stay: one compare each).
    seen: [AtomicU64; SOURCES],
    /// The active grants that bring modifiers, conversions or a special action, in income
    /// order.
    pub at: SmallVec<[GrantAt; 16]>,
    /// Those of them that bring conversions.
    conversions_at: SmallVec<[GrantAt; 4]>,
    /// Which of them bring modifiers and which a special action: bit `i` for the grant at
    /// `at[i]` (grants past the 64th are always read).
    mods_mask: u64,
    actions_mask: u64,
    /// The granted conversions in listing form (shared with the seat's next grants while
    /// the conversions stay the same).
    forms: Arc<Forms>,
    /// The placement values their modifiers set.
    pub rules: RuleValues,
    /// The range resource's place among the content's resources (read on every view
    /// instead of looking its code up).
    pub range_at: Option<usize>,
}

/// The placement values a seat's modifiers set ([`Game::seat_rules_with`] reads them from
/// the modifiers on every call), worked out with the grants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RuleValues {
    /// Navigation range.
    pub nav_range: u32,
    /// Terraforming resource per step.
    pub ore_per_step: u32,
    /// The modifier setting the Gaia planet fee: its grant and its place among that grant's
    /// modifiers (`None`: the rules' fee).
    pub fee: Option<(GrantAt, usize)>,
    /// May colonize planets other players colonized.
    pub may_share: bool,
    /// Power one area-III token is worth.
    pub token_value: u32,
}

/// The active grants gathered in income order, with what listing reads of them worked out
/// on the way: the placement values their modifiers set (as [`Game::seat_rules_with`]
/// reads them from the modifiers) and which grants bring modifiers or a special action.
#[derive(Default)]
struct Gathered {
    at: SmallVec<[GrantAt; 16]>,
    conversions_at: SmallVec<[GrantAt; 4]>,
    mods_mask: u64,
    actions_mask: u64,
    nav: Option<u32>,
    ore: Option<u32>,
    fee: Option<(GrantAt, usize)>,
    may_share: bool,
    token_value: Option<u32>,
}

impl Gathered {
    /// Adds the grant at `a`, which brings `g`, after those added before it in income order.
    #[inline(always)]
    fn add(&mut self, a: GrantAt, g: &Grants<'_>) {
        if g.modifiers.is_empty() && g.conversions.is_empty() && g.action.is_none() {
            return;
        }
        let bit = 1u64.checked_shl(self.at.len() as u32).unwrap_or(0);
        self.at.push(a);
        if !g.conversions.is_empty() {
            self.conversions_at.push(a);
        }
        if g.action.is_some() {
            self.actions_mask |= bit;
        }
        if g.modifiers.is_empty() {
            return;
        }
        self.mods_mask |= bit;
        for (i, m) in g.modifiers.iter().enumerate() {
            match m {
                Modifier::NavRange(n) => self.nav = Some(self.nav.map_or(*n, |x| x.max(*n))),
                Modifier::OrePerStep(n) => self.ore = Some(self.ore.map_or(*n, |x| x.min(*n))),
                Modifier::GaiaPlanetFee(_) if self.fee.is_none() => self.fee = Some((a, i)),
                Modifier::ShareOccupiedPlanets => self.may_share = true,
                // The first value other than one counts (one is the rules' own).
                Modifier::Area3TokenValue(v) if self.token_value.is_none_or(|t| t == 1) => {
                    self.token_value = Some(*v)
                }
                _ => {}
            }
        }
    }

    /// The placement values gathered.
    fn rules(&self) -> RuleValues {
        RuleValues {
            nav_range: self.nav.unwrap_or(1),
            ore_per_step: self.ore.unwrap_or(3),
            fee: self.fee,
            may_share: self.may_share,
            token_value: self.token_value.unwrap_or(1),
        }
    }
}

/// The granted conversions of each phase that has some, in listing form, with
/// [`ConversionForm::may_repeat`] set against the board's own and each other.
type Forms = SmallVec<[(Phase, Vec<ConversionForm>); 2]>;

impl SeatGrants {
    /// Works them out for a seat of a game; `last`: the seat's grants remembered last, whose
    /// work is reused where it still holds.
    pub fn of(game: &Game, seat: usize, last: Option<&SeatGrants>) -> SeatGrants {
        let p = &game.state.players[seat];
        let last = last.filter(|l| l.same_sources(game, seat));
        // The same content: the range resource at the same place.
        let range_at = match last {
            Some(l) => l.range_at,
            None => index_of(
                &game.content.rules.resources,
                &game.content.rules.range_resource,
            ),
        };
        let (content, faction, board) = (&*game.content, game.faction(seat), game.board(seat));
        let key = |g: Gathered, forms| SeatGrants {
            seat,
            content: game.content.clone(),
            seats: game.seats.clone(),
            faction: p.faction.clone(),
            research: (*p.research).clone(),
            built: (*p.built).clone(),
            techs: (*p.techs).clone(),
            advanced: (*p.advanced).clone(),
            booster: (*p.booster).clone(),
            hooks_holding: (*p.hooks_holding).clone(),
            seen: stamps(p).map(AtomicU64::new),
            rules: g.rules(),
            at: g.at,
            conversions_at: g.conversions_at,
            mods_mask: g.mods_mask,
            actions_mask: g.actions_mask,
            forms,
            range_at,
        };
        let mut gathered = Gathered::default();
        let mut add = |a: GrantAt| {
            if let Some(g) = a.grants(content, faction, board) {
                gathered.add(a, &g);
            }
        };
        let Some(l) = last else {
            // Nothing to reuse: every grant found in one walk.
            for a in p.active_at(content, faction, board) {
                add(a);
            }
            let forms = Arc::new(forms(game, seat, &conversions(&gathered, game, seat)));
            return key(gathered, forms);
        };
        // Each kind of grant is the last one's where what it comes from is the same (a
        // research step, a tile, a booster, a building's first of its kind change one kind),
        // else found again.
        let same_conditions = l.same_conditions(game, seat);
        for kind in GrantKind::ALL {
            let same = match kind {
                GrantKind::Level => l.research == *p.research,
                // The conditions of abilities and buildings hold as before.
                GrantKind::Ability | GrantKind::Building => same_conditions,
                GrantKind::Tech => l.techs == *p.techs,
                GrantKind::Advanced => l.advanced == *p.advanced,
                GrantKind::Booster => l.booster == *p.booster,
            };
            if same {
                // Kept in income order, each kind in one run: the run of this kind.
                for &a in l.at.iter().filter(|a| GrantKind::of(a) == kind) {
                    add(a);
                }
            } else {
                kind.active(content, faction, board, p, &mut add);
            }
        }
        let forms = match gathered.conversions_at == l.conversions_at {
            true => l.forms.clone(),
            false => Arc::new(forms(game, seat, &conversions(&gathered, game, seat))),
        };
        key(gathered, forms)
    }

    /// Whether they were worked out from the game's content and seats.
    fn same_sources(&self, game: &Game, seat: usize) -> bool {
        self.seat == seat
            && Arc::ptr_eq(&self.seats, &game.seats)
            && Arc::ptr_eq(&self.content, &game.content)
    }

    /// Whether they are those of a seat of a game as it is now: the same levels, tiles,
    /// booster, holding hooks, and the same buildings taken at least once (grants do not
    /// depend on how many, so building one more of a kind keeps them). Shared parts compare
    /// by pointer first, by value only when they are other copies.
    pub fn fits(&self, game: &Game, seat: usize) -> bool {
        let p = &game.state.players[seat];
        if !self.same_sources(game, seat) || !self.same_faction(game, seat) {
            return false;
        }
        let now = stamps(p);
        if (self.seen.iter().zip(&now)).all(|(s, n)| s.load(Ordering::Relaxed) == *n) {
            return true;
        }
        let fits = self.same_parts(p);
        if fits {
            for (s, n) in self.seen.iter().zip(now) {
                s.store(n, Ordering::Relaxed);
            }
        }
        fits
    }

    /// Whether they were worked out for the seat's faction: the very seats' facts hold the
    /// faction read when the seat has its facts (the player's faction is read only when not).
    fn same_faction(&self, game: &Game, seat: usize) -> bool {
        game.seats.get(seat).is_some_and(Option::is_some)
            || self.faction == game.state.players[seat].faction
    }

    /// Whether the parts of a player grants depend on are the same as theirs, compared as
    /// they are (the faction aside).
    fn same_parts(&self, p: &Player) -> bool {
        self.research == *p.research
            && self.booster == *p.booster
            && same_taken(&self.built, &p.built)
            && self.techs == *p.techs
            && self.advanced == *p.advanced
            && self.hooks_holding == *p.hooks_holding
    }

    /// Whether the conditions of the seat's abilities and buildings hold as they did: the
    /// same buildings taken at least once and the same holding hooks (and faction).
    fn same_conditions(&self, game: &Game, seat: usize) -> bool {
        let p = &game.state.players[seat];
        same_taken(&self.built, &p.built)
            && self.hooks_holding == *p.hooks_holding
            && self.same_faction(game, seat)
    }

    /// The modifiers in force, in income order, pushed onto `out`.
    pub fn mods_into<'a>(
        &self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
        out: &mut SmallVec<[&'a Modifier; 24]>,
    ) {
        for a in marked(&self.at, self.mods_mask) {
            if let Some(g) = a.grants(content, faction, board) {
                for m in g.modifiers {
                    out.push(m);
                }
            }
        }
    }

    /// The modifier setting the Gaia planet fee, if one does.
    pub fn fee<'a>(
        &self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
    ) -> Option<&'a Modifier> {
        let (a, i) = self.rules.fee?;
        a.grants(content, faction, board)?.modifiers.get(i)
    }

    /// The granted special actions, in income order.
    pub fn actions<'s, 'a: 's>(
        &'s self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
    ) -> impl Iterator<Item = &'a SpecialAction> + 's {
        marked(&self.at, self.actions_mask)
            .filter_map(move |a| a.grants(content, faction, board)?.action)
    }

    /// The granted conversions (of every phase), in income order.
    pub fn conversions<'s, 'a: 's>(
        &'s self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
    ) -> impl Iterator<Item = &'a Conversion> + 's {
        self.conversions_at
            .iter()
            .filter_map(move |a| a.grants(content, faction, board))
            .flat_map(|g| g.conversions)
    }

    /// The granted conversions of a phase in listing form.
    pub fn forms(&self, phase: Phase) -> &[ConversionForm] {
        self.forms
            .iter()
            .find(|(p, _)| *p == phase)
            .map_or(&[], |(_, l)| l.as_slice())
    }
}

/// The kinds of grant, in income order ([`Player::active_at`] walks them kind by kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GrantKind {
    Level,
    Ability,
    Building,
    Tech,
    Advanced,
    Booster,
}

impl GrantKind {
    /// Every kind, in income order.
    const ALL: [GrantKind; 6] = [
        GrantKind::Level,
        GrantKind::Ability,
        GrantKind::Building,
        GrantKind::Tech,
        GrantKind::Advanced,
        GrantKind::Booster,
    ];

    /// The kind of a grant.
    fn of(at: &GrantAt) -> GrantKind {
        match at {
            GrantAt::Level { .. } => GrantKind::Level,
            GrantAt::Ability(_) => GrantKind::Ability,
            GrantAt::Building(_) => GrantKind::Building,
            GrantAt::Tech(_) => GrantKind::Tech,
            GrantAt::Advanced(_) => GrantKind::Advanced,
            GrantAt::Booster(_) => GrantKind::Booster,
        }
    }

    /// Calls `f` with where each active grant of this kind is, in income order, as
    /// [`Player::active_at`] finds them (abilities and buildings taken whose condition
    /// holds).
    fn active(
        self,
        content: &Content,
        faction: &Faction,
        board: &FactionBoard,
        p: &Player,
        f: &mut impl FnMut(GrantAt),
    ) {
        match self {
            GrantKind::Level => p.walk_levels(content, &mut |a, _| f(a)),
            GrantKind::Ability => {
                for (i, a) in faction.abilities.iter().enumerate() {
                    if p.holds(a.when.as_ref()) {
                        f(GrantAt::Ability(i));
                    }
                }
            }
            GrantKind::Building => {
                // Counts read in one pass over the seat's buildings, into the board's order.
                let mut built: SmallVec<[u32; 8]> = smallvec::smallvec![0; board.buildings.len()];
                for (id, n) in &p.built {
                    if let Some(i) = index_of(&board.buildings, id) {
                        built[i] = *n;
                    }
                }
                for (i, (b, n)) in board.buildings.iter().zip(&built).enumerate() {
                    if *n > 0 && p.holds(b.grants.when.as_ref()) {
                        f(GrantAt::Building(i));
                    }
                }
            }
            GrantKind::Tech => p.walk_techs(content, &mut |a, _| f(a)),
            GrantKind::Advanced => p.walk_advanced(content, &mut |a, _| f(a)),
            GrantKind::Booster => p.walk_booster(content, &mut |a, _| f(a)),
        }
    }
}

/// The conversions the grants gathered bring, in income order.
fn conversions<'a>(
    gathered: &Gathered,
    game: &'a Game,
    seat: usize,
) -> SmallVec<[&'a Conversion; 8]> {
    let (content, faction, board) = (&*game.content, game.faction(seat), game.board(seat));
    let mut conversions = SmallVec::new();
    for a in &gathered.conversions_at {
        if let Some(g) = a.grants(content, faction, board) {
            conversions.extend(g.conversions);
        }
    }
    conversions
}

/// The granted conversions of a seat in listing form, by phase.
fn forms(game: &Game, seat: usize, conversions: &[&Conversion]) -> Forms {
    let mut forms = Forms::new();
    for phase in [Phase::Actions, Phase::Gaia] {
        if !conversions.iter().any(|c| c.phase == phase) {
            continue;
        }
        let granted = conversions.iter().copied().filter(|c| c.phase == phase);
        let mut list = ConversionForm::list(&game.content, granted);
        // Only the action phase lists the board's own conversions beside them.
        let own: &[ConversionForm] = match phase {
            Phase::Actions => game.board_conversions(seat),
            Phase::Gaia => &[],
        };
        for f in &mut list {
            f.may_repeat |= own.iter().any(|o| o.key == f.key);
        }
        forms.push((phase, list));
    }
    forms
}

/// The grants of `at` whose bit is set in `mask` (and every grant past the 64th).
fn marked(at: &[GrantAt], mask: u64) -> impl Iterator<Item = &GrantAt> {
    at.iter()
        .enumerate()
        .filter(move |(i, _)| mask.checked_shr(*i as u32).is_none_or(|m| m & 1 == 1))
        .map(|(_, a)| a)
}

/// The ids of the buildings taken at least once, in id order.
fn taken(built: &Levels) -> impl Iterator<Item = &Word> {
    built.iter().filter(|(_, n)| **n > 0).map(|(id, _)| id)
}

/// Whether two seats' buildings taken are the same kinds, each taken at least once (with
/// the very same keys, the usual case, compared value by value).
fn same_taken(a: &Levels, b: &Levels) -> bool {
    match a.same_keys(b) {
        true => a
            .values()
            .zip(b.values())
            .all(|(x, y)| (*x > 0) == (*y > 0)),
        false => taken(a).eq(taken(b)),
    }
}

impl Game {
    /// A seat's grants, remembered while they stay the same.
    pub(crate) fn seat_grants(&self, seat: usize) -> Arc<SeatGrants> {
        self.memo.seat_grants(
            seat,
            |g| g.fits(self, seat),
            |last| SeatGrants::of(self, seat, last),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{fixture, Modifier};

    /// The view made from the remembered grants is the one walked afresh, reference for
    /// reference, and the remembered conversion forms are those worked out afresh.
    fn same_as_each_active(g: &Game, seat: usize) {
        let (cached, afresh) = (g.view(seat), g.view_afresh(seat));
        let same = |a: &[&Modifier], b: &[&Modifier]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| std::ptr::eq(*x, *y))
        };
        assert!(same(cached.mods(), afresh.mods()));
        let (c, a) = (cached.conversions(), afresh.conversions());
        assert_eq!(c.len(), a.len());
        for (x, y) in c.iter().zip(&a) {
            assert!(std::ptr::eq(*x, *y));
        }
        let (c, a) = (cached.actions(), afresh.actions());
        assert_eq!(c.len(), a.len());
        for (x, y) in c.iter().zip(&a) {
            assert!(std::ptr::eq(*x, *y));
        }
        // The placement values read with the grants are those read from the modifiers.
        let (r, a) = (&cached.rules, &afresh.rules);
        assert_eq!(
            (r.nav_range, r.ore_per_step, r.may_share, r.token_value),
            (a.nav_range, a.ore_per_step, a.may_share, a.token_value)
        );
        assert!(std::ptr::eq(r.gaia_fee, a.gaia_fee));
        assert_eq!(
            (r.range_have, r.range_per_qic),
            (a.range_have, a.range_per_qic)
        );
        assert_eq!((&r.from, r.from_box), (&a.from, a.from_box));
        let grants = cached.grants.as_ref().expect("remembered");
        for phase in [Phase::Actions, Phase::Gaia] {
            let own: &[ConversionForm] = match phase {
                Phase::Actions => g.board_conversions(seat),
                Phase::Gaia => &[],
            };
            let mut forms = ConversionForm::list(
                &g.content,
                afresh
                    .conversions()
                    .into_iter()
                    .filter(|c| c.phase == phase),
            );
            for f in &mut forms {
                f.may_repeat |= own.iter().any(|o| o.key == f.key);
            }
            assert_eq!(format!("{:?}", grants.forms(phase)), format!("{forms:?}"));
        }
    }

    #[test]
    fn stamps_fit_only_parts_that_compare_equal_and_follow_a_fit_found_by_comparing() {
        let mut g = fixture::blips_game(5);
        let first = g.seat_grants(0);
        let fit_by_stamps = |k: &SeatGrants, g: &Game| {
            k.seen
                .iter()
                .zip(stamps(&g.state.players[0]))
                .all(|(s, n)| s.load(Ordering::Relaxed) == n)
        };
        assert!(fit_by_stamps(&first, &g));
        // Reached mutably, unchanged: other stamps, the same grants found by comparing, and
        // then by stamps.
        let levels = (*g.state.players[0].research).clone();
        *g.state.players[0].research = levels;
        assert!(!fit_by_stamps(&first, &g));
        assert!(Arc::ptr_eq(&first, &g.seat_grants(0)));
        assert!(fit_by_stamps(&first, &g));
        // One more of a kind taken: the same grants, found by comparing.
        let building = g.board(0).buildings[0].id.clone();
        let n = g.state.players[0]
            .built
            .get(building.as_str())
            .copied()
            .unwrap_or(0);
        g.state.players[0]
            .built
            .insert(building.as_str().into(), n + 1);
        let kept = g.seat_grants(0);
        assert_eq!(Arc::ptr_eq(&first, &kept), n > 0);
        same_as_each_active(&g, 0);
        // A copy of the state keeps the stamps; a state read back draws new ones and still
        // fits by comparing.
        let copy = g.clone();
        assert!(fit_by_stamps(&kept, &copy));
        let saved = serde_json::to_string(&g.state.players[0]).expect("saves");
        g.state.players[0] = serde_json::from_str(&saved).expect("reads");
        assert!(!fit_by_stamps(&kept, &g));
        assert!(Arc::ptr_eq(&kept, &g.seat_grants(0)));
    }

    #[test]
    fn buildings_taken_compare_by_kind_whether_the_keys_are_shared_or_not() {
        let mut a = Levels::default();
        a.insert("m".into(), 2);
        a.insert("ts".into(), 0);
        let mut b = a.clone();
        b.insert("m".into(), 5);
        assert!(a.same_keys(&b));
        assert!(same_taken(&a, &b));
        b.insert("ts".into(), 1);
        assert!(!same_taken(&a, &b));
        // Other keys: a kind held at none is as if it were not there.
        let mut c = Levels::default();
        c.insert("m".into(), 1);
        assert!(!a.same_keys(&c));
        assert!(same_taken(&a, &c));
        assert!(!same_taken(&b, &c));
    }

    #[test]
    fn grants_found_by_index_are_those_walked_and_follow_every_change() {
        let mut g = fixture::blips_game(5);
        let content = g.content.clone();
        same_as_each_active(&g, 0);
        let first = g.seat_grants(0);
        // Unchanged: the same remembered value, for a clone too.
        assert!(Arc::ptr_eq(&first, &g.seat_grants(0)));
        assert!(Arc::ptr_eq(&first, &g.clone().seat_grants(0)));
        let mut changes = 0;
        let mut check = |g: &Game, before: &Arc<SeatGrants>| {
            let now = g.seat_grants(0);
            assert!(!Arc::ptr_eq(before, &now), "change {changes} not seen");
            assert!(now.fits(g, 0));
            same_as_each_active(g, 0);
            changes += 1;
            now
        };
        // Each change to what grants depend on is seen.
        let track = Word::from(content.research.tracks[0].id.as_str());
        g.state.players[0].research.insert(track.clone(), 2);
        let now = check(&g, &first);
        let building = g.board(0).buildings[0].id.clone();
        g.state.players[0].built.insert(building.as_str().into(), 1);
        let now = check(&g, &now);
        // One more of a kind taken already: the same grants, kept.
        g.state.players[0].built.insert(building.into(), 2);
        assert!(Arc::ptr_eq(&now, &g.seat_grants(0)));
        same_as_each_active(&g, 0);
        let tile = content.tech_tiles.tiles[0].id.clone();
        g.state.players[0].techs.push(OwnedTile {
            id: tile.into(),
            covered: false,
        });
        let now = check(&g, &now);
        g.state.players[0].techs[0].covered = true;
        let now = check(&g, &now);
        *g.state.players[0].booster = Some(content.boosters.boosters[0].id.as_str().into());
        let now = check(&g, &now);
        g.state.players[0]
            .advanced
            .push(content.advanced_tiles.tiles[0].id.as_str().into());
        let now = check(&g, &now);
        // Several kinds at once: a research step, a tile and another booster.
        g.state.players[0].research.insert(track, 3);
        let last_booster = content.boosters.boosters.last().expect("a booster");
        *g.state.players[0].booster = Some(last_booster.id.as_str().into());
        let last_tile = content.tech_tiles.tiles.last().expect("a tile");
        g.state.players[0].techs.push(OwnedTile {
            id: last_tile.id.as_str().into(),
            covered: false,
        });
        let now = check(&g, &now);
        // The conditions of abilities and buildings change beside another kind (a first
        // building of its kind and another booster): those walked again, the rest reused.
        let other = g.board(0).buildings[1].id.clone();
        g.state.players[0].built.insert(other.as_str().into(), 1);
        *g.state.players[0].booster = Some(content.boosters.boosters[0].id.as_str().into());
        let now = check(&g, &now);
        // A holding hook alone, then gone again: never the stale grants.
        *g.state.players[0].hooks_holding = vec![Word::from("hook")].into();
        let held = check(&g, &now);
        *g.state.players[0].hooks_holding = Vec::new().into();
        let now = check(&g, &held);
        // The range resource, read through its place remembered with the grants, follows
        // the seat's holding while the grants stay.
        let range = content.rules.range_resource.clone();
        let at = index_of(&content.rules.resources, &range).expect("a range resource");
        assert_eq!(now.range_at, Some(at));
        for held in [0, 3, 11] {
            g.state.players[0].resources[at] = held;
            assert!(Arc::ptr_eq(&now, &g.seat_grants(0)));
            assert_eq!(g.view(0).rules.range_have, held);
            same_as_each_active(&g, 0);
        }
    }
}
