//! A player's holdings and the effects that change them.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::board::FactionBoard;
use crate::content::{Bundle, Condition, Content, Effect, Faction, Grants, Modifier, ScriptRef};
use crate::income_log::IncomeLog;
use crate::lookup::{by_id, index_of, same_id};
use crate::notation::{Word, MAX_AMOUNT};
use crate::power::{Area, Code, Power, Special};
use crate::stamped::Stamped;
use crate::word_map::WordMap;
use compact_str::ToCompactString;
use orrery_core::shared::Shared;

/// The resource code of victory points.
pub const VP: &str = "vp";

/// The `substitute` modifiers as `(from, to)` pairs.
pub fn substitutions(mods: &[&Modifier]) -> Vec<(String, String)> {
    mods.iter()
        .filter_map(|m| match m {
            Modifier::Substitute(s) => Some((s.from.clone(), s.to.clone())),
            _ => None,
        })
        .collect()
}

/// Whether a condition holds, given how many of a building are on the map and which
/// condition hooks held when last asked.
/// Whether a count is zero (a count left out of a saved state when zero).
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Whether a shared list is empty (a list left out of a saved state when empty).
fn is_empty<T>(v: &Stamped<Shared<Vec<T>>>) -> bool {
    v.is_empty()
}

fn holds_with(cond: Option<&Condition>, built: impl Fn(&str) -> u32, hooks: &[Word]) -> bool {
    match cond {
        None => true,
        Some(Condition::Has(b)) => built(b) > 0,
        Some(Condition::Lacks(b)) => built(b) == 0,
        Some(Condition::Script(s)) => hooks.iter().any(|k| hook_key_is(k, s)),
    }
}

/// The key a condition hook's last answer is kept under: `script#function`.
pub fn hook_key(s: &ScriptRef) -> Word {
    Word::from(format!("{}#{}", s.script, s.function))
}

/// An income source's key, `prefix` then `id` (`r:` and a track, `f:` and an ability index,
/// …), built inline without formatting (a short key allocates nothing).
pub fn source_key(prefix: &str, id: impl SourceId) -> Word {
    let mut key = Word::new(prefix);
    id.push_to(&mut key);
    key
}

/// The key of a building's income slot `n` (1-based): `b:<building>:<n>`.
pub fn slot_key(building: &str, n: u32) -> Word {
    let mut key = source_key("b:", building);
    key.push(':');
    n.push_to(&mut key);
    key
}

/// What follows the prefix of an income source's key: an id or a number.
pub trait SourceId {
    /// Appends it to a key.
    fn push_to(self, key: &mut Word);
}

impl SourceId for &str {
    fn push_to(self, key: &mut Word) {
        key.push_str(self);
    }
}

impl SourceId for u32 {
    fn push_to(self, key: &mut Word) {
        // Integers are written by compact_str's own digit writer: no formatting, no heap.
        key.push_str(&self.to_compact_string());
    }
}

impl SourceId for usize {
    fn push_to(self, key: &mut Word) {
        key.push_str(&self.to_compact_string());
    }
}

/// Whether a kept key names this hook.
fn hook_key_is(key: &str, s: &ScriptRef) -> bool {
    key.strip_prefix(s.script.as_str())
        .and_then(|rest| rest.strip_prefix('#'))
        .is_some_and(|f| f == s.function)
}

/// What one player holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Faction id.
    pub faction: Word,
    /// Resources, in the order of `rules.resources`.
    pub resources: SmallVec<[i32; 8]>,
    /// Power tokens.
    pub power: Power,
    /// Research level per track id.
    pub research: Stamped<WordMap<u32, 8>>,
    /// Gaiaformers owned.
    pub gaiaformers: u32,
    /// Buildings taken from the board onto the map, by building id.
    pub built: Stamped<WordMap<u32, 8>>,
    /// Gaiaformers moved into the Gaia area (back in the next Gaia phase).
    #[serde(default)]
    pub gaiaformers_in_gaia: u32,
    /// The round booster held.
    #[serde(default)]
    pub booster: Stamped<Option<Word>>,
    /// Standard tech tiles owned.
    #[serde(default)]
    pub techs: Stamped<Shared<Vec<OwnedTile>>>,
    /// Advanced tech tiles owned.
    #[serde(default)]
    pub advanced: Stamped<Shared<Vec<Word>>>,
    /// Federation tokens owned.
    #[serde(default)]
    pub tokens: Shared<Vec<OwnedToken>>,
    /// Hexes of the player's satellites.
    #[serde(default)]
    pub satellites: Shared<Vec<orrery_core::hex::Hex>>,
    /// The player's federations: their member hexes (structures and satellites).
    #[serde(default)]
    pub federations: Shared<Vec<Vec<orrery_core::hex::Hex>>>,
    /// How many times the player has formed a federation (every formation, a growth of a
    /// single federation included). Saved states from before it was kept load with it raised
    /// to the number of federations ([`crate::game::Game::load`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub formations: u32,
    /// Special actions used this round, by key.
    #[serde(default)]
    pub specials_used: Shared<Vec<Word>>,
    /// Whether the player has passed this round.
    #[serde(default)]
    pub passed: bool,
    /// Victory points by source; they always sum to the `vp` resource.
    #[serde(default)]
    pub vp_sources: WordMap<i32, 12>,
    /// Income sources in the order they were acquired; income is paid in this order.
    #[serde(default)]
    pub income_log: IncomeLog,
    /// The condition hooks (`script#function`) that held when last asked (after the last
    /// part of a move); empty when content names none.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub hooks_holding: Stamped<Shared<Vec<Word>>>,
}

/// Where an active grant is in content (each index valid for the content and board it was
/// found in).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GrantAt {
    /// A research track (by index) at a level.
    Level { track: usize, level: usize },
    /// A faction ability, by index.
    Ability(usize),
    /// A building of the faction board, by index.
    Building(usize),
    /// A standard tech tile, by index.
    Tech(usize),
    /// An advanced tech tile, by index.
    Advanced(usize),
    /// A booster, by index.
    Booster(usize),
}

impl GrantAt {
    /// What it grants (`None` only for a place the content or board does not have).
    #[inline]
    pub fn grants<'a>(
        self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
    ) -> Option<Grants<'a>> {
        Some(match self {
            GrantAt::Level { track, level } => content
                .research
                .tracks
                .get(track)?
                .levels
                .get(level)?
                .grants(),
            GrantAt::Ability(i) => faction.abilities.get(i)?.grants(),
            GrantAt::Building(i) => board.buildings.get(i)?.grants.grants(),
            GrantAt::Tech(i) => content.tech_tiles.tiles.get(i)?.grants(),
            GrantAt::Advanced(i) => content.advanced_tiles.tiles.get(i)?.grants(),
            GrantAt::Booster(i) => content.boosters.boosters.get(i)?.grants(),
        })
    }

    /// Its income-source key's prefix and the id (or ability index) after it; `None` for the
    /// booster, whose key is `booster`.
    fn key<'a>(
        self,
        content: &'a Content,
        board: &'a FactionBoard,
    ) -> Option<(&'static str, KeyName<'a>)> {
        let id = |id: Option<&'a String>| KeyName::Id(id.map_or("", String::as_str));
        Some(match self {
            GrantAt::Level { track, .. } => {
                ("r:", id(content.research.tracks.get(track).map(|t| &t.id)))
            }
            GrantAt::Ability(i) => ("f:", KeyName::Index(i)),
            GrantAt::Building(i) => ("g:", id(board.buildings.get(i).map(|b| &b.id))),
            GrantAt::Tech(i) => ("t:", id(content.tech_tiles.tiles.get(i).map(|t| &t.id))),
            GrantAt::Advanced(i) => ("a:", id(content.advanced_tiles.tiles.get(i).map(|t| &t.id))),
            GrantAt::Booster(_) => return None,
        })
    }
}

/// The name in an income-source key: an id, or a faction ability's index.
enum KeyName<'a> {
    Id(&'a str),
    Index(usize),
}

/// A standard tech tile a player owns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnedTile {
    /// Tile id.
    pub id: Word,
    /// Whether an advanced tile covers it.
    pub covered: bool,
}

/// A federation token a player owns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnedToken {
    /// Token id.
    pub id: Word,
    /// Green side up (can still be flipped).
    pub green: bool,
}

/// Errors setting up a player.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The faction id is not in the content.
    #[error("unknown faction \"{0}\"")]
    UnknownFaction(String),
}

impl Player {
    /// A seat before any faction is chosen: nothing held.
    pub fn seated(content: &Content) -> Player {
        Player {
            faction: Word::default(),
            resources: smallvec::smallvec![0; content.rules.resources.len()],
            power: Power::default(),
            research: Stamped::default(),
            gaiaformers: 0,
            built: Stamped::default(),
            gaiaformers_in_gaia: 0,
            booster: Stamped::default(),
            techs: Stamped::default(),
            advanced: Stamped::default(),
            tokens: Shared::default(),
            satellites: Shared::default(),
            federations: Shared::default(),
            formations: 0,
            specials_used: Shared::default(),
            passed: false,
            vp_sources: WordMap::default(),
            income_log: IncomeLog::default(),
            hooks_holding: Stamped::default(),
        }
    }

    /// A player of a faction with its starting holdings, starting research levels' rewards
    /// included, and nothing on the map yet.
    pub fn new(content: &Content, faction_id: &str) -> Result<(Player, FactionBoard), SetupError> {
        let faction = content
            .faction(faction_id)
            .ok_or_else(|| SetupError::UnknownFaction(faction_id.to_string()))?;
        let board = FactionBoard::resolve(&content.board, faction);
        let p = Player::starting(content, faction, &board);
        Ok((p, board))
    }

    /// [`Player::new`] on the faction's board already resolved.
    pub fn starting(content: &Content, faction: &Faction, board: &FactionBoard) -> Player {
        let mut p = Player::seated(content);
        p.faction = faction.id.as_str().into();
        p.power = Power {
            areas: [board.power[0], board.power[1], board.power[2], 0],
            special: faction.special_token.as_ref().map(|t| Special {
                area: Some(Area::from_number(t.area)),
                value: t.spend_value,
            }),
        };
        *p.research = content
            .research
            .tracks
            .iter()
            .map(|t| (Word::from(t.id.as_str()), 0))
            .collect();
        p.income_log = IncomeLog::of(["base"]);
        for (i, a) in faction.abilities.iter().enumerate() {
            if a.when.is_none() {
                p.log_source(&source_key("f:", i));
            }
        }
        let subs = substitutions(&p.modifiers(content, faction, board));
        p.gain_with(content, &subs, &content.rules.start, "start");
        // The board's starting grant is what the board shows: no substitution applies to it
        // (a faction whose QIC arrive as ore still starts with a QIC the board grants).
        p.gain_with(content, &[], &board.start, "start");
        for (track, level) in &board.research {
            p.log_source(&source_key("r:", track.as_str()));
            for l in 1..=*level {
                p.research.insert(track.as_str().into(), l);
                let immediate = by_id(&content.research.tracks, track)
                    .and_then(|t| t.levels.get(l as usize))
                    .map(|a| a.immediate.clone())
                    .unwrap_or_default();
                for e in &immediate {
                    if let Effect::Gain(b) = e {
                        p.gain_with(content, &subs, b, "research");
                    }
                }
            }
        }
        p
    }

    /// How many of a building the player has taken from its board.
    pub fn built_count(&self, building: &str) -> u32 {
        // A handful of entries: a scan comparing lengths first beats an ordered search.
        self.built
            .iter()
            .find(|(k, _)| same_id(k, building))
            .map_or(0, |(_, n)| *n)
    }

    /// The level on a research track.
    pub fn level(&self, track: &str) -> u32 {
        self.research
            .iter()
            .find(|(k, _)| same_id(k, track))
            .map_or(0, |(_, n)| *n)
    }

    /// A resource by code (0 when the code is not a resource).
    pub fn resource(&self, content: &Content, code: &str) -> i32 {
        index_of(&content.rules.resources, code).map_or(0, |i| self.resources[i])
    }

    /// Whether a condition holds.
    pub fn holds(&self, cond: Option<&Condition>) -> bool {
        holds_with(cond, |b| self.built_count(b), &self.hooks_holding)
    }

    /// Everything that grants the player something now: research levels they stand on,
    /// faction abilities whose condition holds, buildings they have on the map, uncovered
    /// tech tiles, advanced tiles and their booster.
    pub fn active<'a>(
        &self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
    ) -> Vec<Grants<'a>> {
        let mut out = Vec::with_capacity(24);
        self.each_active(content, faction, board, |g| out.push(g));
        out
    }

    /// Active grants keyed by income source (`r:<track>`, `f:<ability>`, `g:<building>`,
    /// `t:<tile>`, `a:<tile>`, `booster`).
    pub fn active_keyed<'a>(
        &self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
    ) -> Vec<(String, Grants<'a>)> {
        let mut out = Vec::new();
        self.walk_active(content, faction, board, |at, g| {
            let key = match at.key(content, board) {
                Some((prefix, KeyName::Id(id))) => format!("{prefix}{id}"),
                Some((prefix, KeyName::Index(i))) => format!("{prefix}{i}"),
                None => "booster".to_string(),
            };
            out.push((key, g));
        });
        out
    }

    /// Calls `f` with everything active, in income order, without collecting it.
    pub fn each_active<'a>(
        &self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
        mut f: impl FnMut(Grants<'a>),
    ) {
        self.walk_active(content, faction, board, |_, g| f(g));
    }

    /// [`Player::active`], each tagged with the VP source it books to.
    pub fn active_tagged<'a>(
        &self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
    ) -> Vec<(&'static str, Grants<'a>)> {
        let mut out = Vec::with_capacity(24);
        self.each_active_tagged(content, faction, board, |tag, g| out.push((tag, g)));
        out
    }

    /// Calls `f` with everything active, in income order, each tagged with the VP source it
    /// books to, without collecting it.
    pub fn each_active_tagged<'a>(
        &self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
        mut f: impl FnMut(&'static str, Grants<'a>),
    ) {
        self.walk_active(content, faction, board, |at, g| {
            let tag = match at {
                GrantAt::Level { .. } => "research",
                GrantAt::Ability(_) => "faction",
                GrantAt::Building(_) => "buildings",
                GrantAt::Tech(_) | GrantAt::Advanced(_) => "tech tiles",
                GrantAt::Booster(_) => "boosters",
            };
            f(tag, g);
        });
    }

    /// Where everything active is, in income order (as [`Player::each_active`] walks it).
    pub(crate) fn active_at(
        &self,
        content: &Content,
        faction: &Faction,
        board: &FactionBoard,
    ) -> SmallVec<[GrantAt; 24]> {
        let mut out = SmallVec::new();
        self.walk_active(content, faction, board, |at, _| out.push(at));
        out
    }

    /// Calls `f` with everything active and where it is, in income order: research levels,
    /// faction abilities whose condition holds, buildings on the map, uncovered tech tiles,
    /// advanced tiles, the booster.
    fn walk_active<'a>(
        &self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
        mut f: impl FnMut(GrantAt, Grants<'a>),
    ) {
        self.walk_levels(content, &mut f);
        // Building counts are read in one pass over the map, into the order of the board's
        // buildings.
        let mut built: SmallVec<[u32; 8]> = smallvec::smallvec![0; board.buildings.len()];
        for (id, n) in &self.built {
            if let Some(i) = index_of(&board.buildings, id) {
                built[i] = *n;
            }
        }
        let holds = |cond: Option<&Condition>| {
            holds_with(
                cond,
                |b| {
                    let on_board = index_of(&board.buildings, b);
                    on_board.map_or_else(|| self.built_count(b), |i| built[i])
                },
                &self.hooks_holding,
            )
        };
        for (i, a) in faction.abilities.iter().enumerate() {
            if holds(a.when.as_ref()) {
                f(GrantAt::Ability(i), a.grants());
            }
        }
        for (i, (b, n)) in board.buildings.iter().zip(&built).enumerate() {
            if *n > 0 && holds(b.grants.when.as_ref()) {
                f(GrantAt::Building(i), b.grants.grants());
            }
        }
        self.walk_techs(content, &mut f);
        self.walk_advanced(content, &mut f);
        self.walk_booster(content, &mut f);
    }

    /// The research levels active (one per track the content has a level for), in the
    /// content's track order: the first part of [`Player::walk_active`].
    pub(crate) fn walk_levels<'a>(
        &self,
        content: &'a Content,
        f: &mut impl FnMut(GrantAt, Grants<'a>),
    ) {
        // Levels are read in one pass over the map, into the order of the content's tracks.
        let tracks = &content.research.tracks;
        let mut levels: SmallVec<[u32; 8]> = smallvec::smallvec![0; tracks.len()];
        for (id, level) in &self.research {
            if let Some(i) = index_of(tracks, id) {
                levels[i] = *level;
            }
        }
        for (track, (t, level)) in tracks.iter().zip(&levels).enumerate() {
            let level = *level as usize;
            if let Some(a) = t.levels.get(level) {
                f(GrantAt::Level { track, level }, a.grants());
            }
        }
    }

    /// The uncovered tech tiles held, as [`Player::walk_active`] walks them.
    pub(crate) fn walk_techs<'a>(
        &self,
        content: &'a Content,
        f: &mut impl FnMut(GrantAt, Grants<'a>),
    ) {
        let tiles = &content.tech_tiles.tiles;
        for t in self.techs.iter().filter(|t| !t.covered) {
            if let Some(i) = index_of(tiles, &t.id) {
                f(GrantAt::Tech(i), tiles[i].grants());
            }
        }
    }

    /// The advanced tiles held, as [`Player::walk_active`] walks them.
    pub(crate) fn walk_advanced<'a>(
        &self,
        content: &'a Content,
        f: &mut impl FnMut(GrantAt, Grants<'a>),
    ) {
        let advanced = &content.advanced_tiles.tiles;
        for id in &self.advanced {
            if let Some(i) = index_of(advanced, id) {
                f(GrantAt::Advanced(i), advanced[i].grants());
            }
        }
    }

    /// The booster held, as [`Player::walk_active`] walks it.
    pub(crate) fn walk_booster<'a>(
        &self,
        content: &'a Content,
        f: &mut impl FnMut(GrantAt, Grants<'a>),
    ) {
        if let Some(b) = self.booster.as_ref() {
            let boosters = &content.boosters.boosters;
            if let Some(i) = index_of(boosters, b) {
                f(GrantAt::Booster(i), boosters[i].grants());
            }
        }
    }

    /// The modifiers in force.
    pub fn modifiers<'a>(
        &self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
    ) -> Vec<&'a Modifier> {
        self.active(content, faction, board)
            .into_iter()
            .flat_map(|g| g.modifiers.iter())
            .collect()
    }

    /// Gains a bundle: resources (capped, substituted), charge (`pw`), tokens (`t`),
    /// Gaiaformers (`gf`). Victory points are booked to the source `other`.
    pub fn gain(&mut self, content: &Content, faction: &Faction, bundle: &Bundle) {
        let board = FactionBoard::resolve(&content.board, faction);
        let subs = substitutions(&self.modifiers(content, faction, &board));
        self.gain_with(content, &subs, bundle, "other");
    }

    /// Gains a bundle with given substitutions, booking victory points to `source`.
    pub fn gain_with(
        &mut self,
        content: &Content,
        subs: &[(String, String)],
        bundle: &Bundle,
        source: &str,
    ) {
        for (code, n) in bundle.iter() {
            let code = subs
                .iter()
                .find(|(from, _)| from == code)
                .map_or(code, |(_, to)| to.as_str());
            self.add(content, code, n, source);
        }
    }

    /// Adds (or with a negative amount removes) one code, with caps; no substitution.
    /// Every count a seat holds stays within [`MAX_AMOUNT`] (the bound a saved state is
    /// checked against): tokens in play, Gaiaformers and resources without a cap of their
    /// own; what a gain would bring past it is lost, as past a resource's cap.
    pub fn add(&mut self, content: &Content, code: &str, n: i32, source: &str) {
        let room = |held: u32| (n.max(0) as u32).min(MAX_AMOUNT.saturating_sub(held));
        match Code::of(code) {
            Some(Code::Charge) => {
                self.power.charge(n.max(0) as u32, false);
            }
            Some(Code::Tokens) => {
                let held = self
                    .power
                    .areas
                    .iter()
                    .fold(0u32, |a, t| a.saturating_add(*t));
                let special = u32::from(self.power.special.is_some_and(|s| s.area.is_some()));
                self.power.gain_tokens(room(held.saturating_add(special)));
            }
            Some(Code::Gaiaformers) => {
                let held = self.gaiaformers.saturating_add(self.gaiaformers_in_gaia);
                self.gaiaformers += room(held);
            }
            _ => {
                if let Some(i) = index_of(&content.rules.resources, code) {
                    let cap = content.rules.resources[i]
                        .cap
                        .unwrap_or(i32::MAX)
                        .min(MAX_AMOUNT as i32);
                    let old = self.resources[i];
                    // A gain never lifts a resource past its cap; a loss is not capped.
                    self.resources[i] = if n >= 0 {
                        old.saturating_add(n).min(cap.max(old))
                    } else {
                        old.saturating_add(n)
                    };
                    if code == VP {
                        *self.vp_sources.entry(source.into()).or_default() +=
                            self.resources[i] - old;
                    }
                }
            }
        }
    }

    /// The income effects due in an income phase: base income, income revealed by buildings
    /// on the map, and the income of everything active — in the order the player acquired
    /// their sources (see [`Player::income_log`]).
    pub fn income(
        &self,
        content: &Content,
        faction: &Faction,
        board: &FactionBoard,
    ) -> Vec<Effect> {
        self.income_refs(content, faction, board)
            .into_iter()
            .cloned()
            .collect()
    }

    /// [`Player::income`], borrowed from content and the board instead of copied.
    pub fn income_refs<'a>(
        &self,
        content: &'a Content,
        faction: &'a Faction,
        board: &'a FactionBoard,
    ) -> SmallVec<[&'a Effect; 24]> {
        // Each source ranked by its key's place in the income log, the key written into one
        // buffer (no string per source), the effects borrowed until the one copy at the end.
        let log = self.income_log.keys();
        let rank = |key: &str| {
            log.iter()
                .position(|k| same_id(k, key))
                .unwrap_or(usize::MAX)
        };
        let mut sources: SmallVec<[(usize, &'a [Effect]); 24]> = SmallVec::new();
        sources.push((rank("base"), &board.income));
        for b in &board.buildings {
            let n = self.built_count(&b.id) as usize;
            for (k, slot) in b.income.iter().take(n).enumerate() {
                sources.push((rank(&slot_key(&b.id, k as u32 + 1)), slot));
            }
        }
        self.walk_active(content, faction, board, |at, g| {
            if g.income.is_empty() {
                return;
            }
            let key = match at.key(content, board) {
                Some((prefix, KeyName::Id(id))) => source_key(prefix, id),
                Some((prefix, KeyName::Index(i))) => source_key(prefix, i),
                None => Word::new("booster"),
            };
            sources.push((rank(&key), g.income));
        });
        // Stable: sources of one rank (none logged) keep the order they were found in.
        sources.sort_by_key(|(r, _)| *r);
        sources.iter().flat_map(|(_, e)| e.iter()).collect()
    }

    /// Records that an income source was acquired now (it moves to the end of the order).
    pub fn log_source(&mut self, key: &str) {
        self.income_log.log(key);
    }

    /// Forgets an income source.
    pub fn unlog_source(&mut self, key: &str) {
        self.income_log.unlog(key);
    }
}

#[cfg(test)]
mod tests {
    use crate::content::fixture;
    use crate::game::{Game, GameState};
    use crate::notation::MAX_AMOUNT;

    /// Gains stop at [`MAX_AMOUNT`], the bound a saved state is checked against, so a state
    /// that gains reach always loads back.
    #[test]
    fn gains_stop_at_the_bound_a_saved_state_is_checked_against() {
        let mut g = fixture::blips_game(3);
        let content = g.content.clone();
        let big = MAX_AMOUNT as i32;
        let p = &mut g.state.players[0];
        for code in ["vp", "gold", "t", "gf"] {
            p.add(&content, code, big, "test");
            p.add(&content, code, big, "test");
        }
        assert_eq!(p.resource(&content, "vp"), big, "VP has no cap of its own");
        assert_eq!(p.resource(&content, "gold"), 9, "gold keeps its own cap");
        let tokens: u32 = p.power.areas.iter().sum::<u32>()
            + u32::from(p.power.special.is_some_and(|s| s.area.is_some()));
        assert_eq!(tokens, MAX_AMOUNT);
        assert_eq!(p.gaiaformers + p.gaiaformers_in_gaia, MAX_AMOUNT);
        assert_eq!(p.vp_sources.values().sum::<i32>(), big);
        let saved = serde_json::to_string(&g.state).expect("saves");
        let state: GameState = serde_json::from_str(&saved).expect("reads");
        let loaded = Game::load(content, state).expect("a state gains reached loads back");
        assert_eq!(loaded.state, g.state);
    }
}

#[cfg(test)]
mod key_tests {
    use super::{slot_key, source_key};

    /// Keys built inline read as the formatted keys the income log has always held.
    #[test]
    fn keys_built_inline_read_as_formatted_keys() {
        assert_eq!(source_key("r:", "terra"), "r:terra");
        assert_eq!(source_key("f:", 0usize), "f:0");
        assert_eq!(source_key("f:", 12usize), "f:12");
        assert_eq!(slot_key("ts", 3), "b:ts:3");
        assert_eq!(slot_key("m", 10), "b:m:10");
        assert_eq!(slot_key("m", u32::MAX), format!("b:m:{}", u32::MAX));
        let long = "a-building-id-longer-than-a-word-holds-inline";
        assert_eq!(slot_key(long, 7), format!("b:{long}:7"));
    }
}
