//! The fixed terms of the hook protocol: the limits on hooks, the ledger of the errors they
//! made, the schema checks on what they return, whether content names any hook, a seat's
//! condition hooks, and what a cost hook is asked about (the cost's parts and the site).

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use smallvec::SmallVec;

use super::bundle;
use super::memo::WordHasher;
use crate::content::{schema, Bundle, Condition, Content, Effect, ScriptRef};
use crate::notation::Word;
use orrery_core::diagnostics::SchemaCheck;

/// The largest amount (of a resource, steps, range) a hook may return in one effect or cost.
pub const MAX_HOOK_AMOUNT: i32 = 1000;

/// Operations a game's hooks may run in all, unless set otherwise
/// ([`Game::set_hook_budget`]): every call counts, in play, in listing and in bots' lookahead.
pub use orrery_core::script::DEFAULT_HOOK_BUDGET;

/// How many distinct hook errors a game keeps (with how often each occurred).
pub const KEPT_HOOK_ERRORS: usize = 5;

/// A game's account of its hooks: the budget, the operations used, the first errors.
#[derive(Debug)]
pub(crate) struct HookLedger {
    /// Operations the game's hooks may run in all.
    pub(super) budget: AtomicU64,
    /// Operations run so far.
    pub(super) used: AtomicU64,
    /// The first distinct errors, each with its count.
    pub(super) errors: Mutex<Vec<(String, u64)>>,
    /// Every error, kept or not.
    pub(super) error_count: AtomicU64,
    /// The calls made while recording ([`Game::record_hook_calls`]): `None` when not.
    pub(super) calls: Mutex<Option<HookCalls>>,
    /// The condition hooks' answers, remembered by the view they were given.
    pub(super) answers: Mutex<ConditionAnswers>,
    /// Every other hook's returns, remembered by the argument it was given.
    pub(super) returns: Mutex<HookReturns>,
    /// What a seat's cost and placement hooks made of a site, remembered by its facts.
    pub(super) sites: Mutex<SiteAnswers>,
    /// What effect hooks returned (checked), remembered by their view's facts.
    pub(super) effects: Mutex<EffectAnswers>,
}

/// What hooks returned, by hook and by the argument they were given: a hook is a
/// deterministic function of its argument, so a call with an argument it has answered
/// before returns the same. Only returns are kept, never failures; at most
/// [`REMEMBERED_VIEWS`] arguments a hook (past it, that hook's are forgotten all at once).
#[derive(Debug, Default)]
pub(crate) struct HookReturns(Vec<(ScriptRef, HashMap<Value, Value>)>);

impl HookReturns {
    /// What `hook` returned when given `arg`, if it was.
    pub(super) fn get(&self, hook: &ScriptRef, arg: &Value) -> Option<&Value> {
        let (_, by_arg) = self.0.iter().find(|(h, _)| h == hook)?;
        by_arg.get(arg)
    }

    /// Remembers what `hook` returned when given `arg`.
    pub(super) fn keep(&mut self, hook: &ScriptRef, arg: Value, returned: Value) {
        let i = match self.0.iter().position(|(h, _)| h == hook) {
            Some(i) => i,
            None => {
                self.0.push((hook.clone(), HashMap::new()));
                self.0.len() - 1
            }
        };
        let by_arg = &mut self.0[i].1;
        if by_arg.len() >= REMEMBERED_VIEWS {
            by_arg.clear();
        }
        by_arg.insert(arg, returned);
    }
}

/// What [`Game::hook_view`] is made from: the seat, its faction, the round, its resources
/// (in the order of `rules.resources`), power areas, Gaiaformers, research levels (in the
/// order of the tracks), and its structures in space order, each with its planet (an index
/// into `planets`) and whether it charts its planet type (neither shared nor a station).
/// The view is a function of these alone, so two views are equal when their facts are.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct ViewFacts {
    pub seat: usize,
    pub faction: Word,
    pub round: u32,
    pub resources: SmallVec<[i32; 8]>,
    pub power: [u32; 4],
    pub gaiaformers: u32,
    pub research: SmallVec<[u32; 8]>,
    pub buildings: Vec<(Word, u8, bool)>,
}

/// How many views' answers a game remembers; past it, the oldest are forgotten all at once.
pub const REMEMBERED_VIEWS: usize = 4096;

/// The answers of a seat's condition hooks, by the view they were asked with: the keys of
/// those answering `true`, sorted ([`crate::player::Player::hooks_holding`]). Hooks are
/// deterministic functions of their view (the sandbox has no time, randomness or state kept
/// between calls), so an answer given once is the answer for that view for the whole game;
/// only answers are kept, never failures.
#[derive(Debug, Default)]
pub(crate) struct ConditionAnswers(HashMap<ViewFacts, Vec<Word>>);

impl ConditionAnswers {
    /// The answers given for a view, if it was asked about.
    pub(super) fn get(&self, view: &ViewFacts) -> Option<&Vec<Word>> {
        self.0.get(view)
    }

    /// Remembers the answers for a view.
    pub(super) fn keep(&mut self, view: ViewFacts, holding: Vec<Word>) {
        if self.0.len() >= REMEMBERED_VIEWS {
            self.0.clear();
        }
        self.0.insert(view, holding);
    }
}

/// How many hook calls one recording keeps; later ones are counted, not kept.
pub const KEPT_HOOK_CALLS: usize = 1000;

/// One hook call: whose, which function, and what it returned (or why it failed).
#[derive(Debug, Clone, PartialEq)]
pub struct HookCall {
    /// The seat whose view the hook was given, when it was given one.
    pub seat: Option<usize>,
    /// The script file.
    pub script: String,
    /// The function.
    pub function: String,
    /// What it returned, as JSON, or the refusal its failure became.
    pub result: Result<Value, String>,
    /// The operations it ran.
    pub operations: u64,
}

/// The calls a recording kept, and how many more it left out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HookCalls {
    /// The first [`KEPT_HOOK_CALLS`] calls, in the order they were made.
    pub kept: Vec<HookCall>,
    /// Calls made beyond those kept.
    pub left_out: u64,
}

impl Default for HookLedger {
    fn default() -> Self {
        HookLedger {
            budget: AtomicU64::new(DEFAULT_HOOK_BUDGET),
            used: AtomicU64::new(0),
            errors: Mutex::new(Vec::new()),
            error_count: AtomicU64::new(0),
            calls: Mutex::new(None),
            answers: Mutex::default(),
            returns: Mutex::default(),
            sites: Mutex::default(),
            effects: Mutex::default(),
        }
    }
}

impl HookLedger {
    /// Whether calls are being recorded: then every hook runs, remembered answers unused.
    pub(super) fn recording(&self) -> bool {
        self.calls
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }

    /// Notes a call when recording.
    pub(super) fn record(&self, call: impl FnOnce() -> HookCall) {
        let mut calls = self.calls.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = calls.as_mut() {
            if c.kept.len() < KEPT_HOOK_CALLS {
                c.kept.push(call());
            } else {
                c.left_out = c.left_out.saturating_add(1);
            }
        }
    }

    pub(super) fn note(&self, error: &str) {
        self.error_count.fetch_add(1, Ordering::Relaxed);
        let mut kept = self.errors.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = kept.iter_mut().find(|(m, _)| m == error) {
            e.1 += 1;
        } else if kept.len() < KEPT_HOOK_ERRORS {
            kept.push((error.to_string(), 1));
        }
    }
}

/// The checks YAML's effects and amounts get from the content schemas (`Effect`, `Bundle`:
/// shape, integer amounts of 0 or more), compiled once, applied to what hooks return.
pub(super) fn return_checks() -> Option<&'static (SchemaCheck, SchemaCheck)> {
    static CHECKS: std::sync::OnceLock<Option<(SchemaCheck, SchemaCheck)>> =
        std::sync::OnceLock::new();
    CHECKS
        .get_or_init(|| {
            let effect = SchemaCheck::new(&schema::schema_of::<Effect>()).ok()?;
            let bundle = SchemaCheck::new(&schema::schema_of::<Bundle>()).ok()?;
            Some((effect, bundle))
        })
        .as_ref()
}

/// The first problem the content schema finds in a returned value, as YAML would report it.
pub(super) fn schema_problem(
    check: impl Fn(&(SchemaCheck, SchemaCheck)) -> &SchemaCheck,
    v: &Value,
) -> Option<String> {
    let Some(checks) = return_checks() else {
        return Some("the content schemas could not be compiled".into());
    };
    check(checks).errors(v).into_iter().next().map(|e| {
        if e.pointer.is_empty() {
            e.message
        } else {
            format!("{} (at {})", e.message, e.pointer)
        }
    })
}

/// Whether content names any hook at all: every hook names a script, and content with no
/// script names none (the base game), so this costs nothing there.
#[cfg(test)]
pub(crate) fn content_names_hooks(content: &Content) -> bool {
    HookNaming::of(content).any()
}

/// Where content names hooks: in what every seat shares (the board, research, tiles,
/// boosters, scoring, federation tokens, board actions), and in each faction. A game whose
/// seated factions name none, in content whose shared parts name none, runs no hook.
#[derive(Debug, Default)]
pub(crate) struct HookNaming {
    /// The shared parts name a hook.
    pub shared: bool,
    /// Each faction (in content order) names a hook.
    pub factions: Vec<bool>,
}

impl HookNaming {
    /// Where `content` names hooks; nothing for content with no script (the base game), at
    /// no cost.
    pub(crate) fn of(content: &Content) -> HookNaming {
        if content.scripts.script_count() == 0 {
            return HookNaming::default();
        }
        // A value that cannot be read counts as naming hooks: listing is then only slower.
        let names = |v: serde_json::Result<Value>| v.as_ref().map_or(true, names_script);
        HookNaming {
            shared: shared_names_hooks(content),
            factions: content
                .factions
                .iter()
                .map(|f| names(serde_json::to_value(f)))
                .collect(),
        }
    }

    /// Whether anything names a hook.
    pub(crate) fn any(&self) -> bool {
        self.shared || self.factions.iter().any(|f| *f)
    }
}

/// Whether the parts of content every seat shares name a hook.
fn shared_names_hooks(content: &Content) -> bool {
    let parts = [
        serde_json::to_value(&content.board),
        serde_json::to_value(&content.research),
        serde_json::to_value(&content.tech_tiles),
        serde_json::to_value(&content.advanced_tiles),
        serde_json::to_value(&content.boosters),
        serde_json::to_value(&content.round_scoring),
        serde_json::to_value(&content.federation_tokens),
        serde_json::to_value(&content.board_actions),
    ];
    // A value that cannot be read counts as naming hooks: listing is then only slower.
    parts.iter().any(|v| v.as_ref().map_or(true, names_script))
}

/// Whether a content value holds a script reference (an object `{script, function}`).
pub(super) fn names_script(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            (m.len() == 2 && m.contains_key("script") && m.contains_key("function"))
                || m.values().any(names_script)
        }
        Value::Array(a) => a.iter().any(names_script),
        _ => false,
    }
}

/// The condition hooks a faction's abilities and board buildings name.
pub(crate) fn condition_hooks(
    faction: &crate::content::Faction,
    board: &crate::board::FactionBoard,
) -> Vec<ScriptRef> {
    let mut out: Vec<ScriptRef> = Vec::new();
    let whens = faction
        .abilities
        .iter()
        .map(|a| a.when.as_ref())
        .chain(board.buildings.iter().map(|b| b.grants.when.as_ref()));
    for when in whens {
        if let Some(Condition::Script(s)) = when {
            if !out.contains(s) {
                out.push(s.clone());
            }
        }
    }
    out
}

/// What building on a site costs: borrowed from content, worked out here, or shared with the
/// answer the seat's hooks gave for the site and the game remembers (asking again copies
/// nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SiteCost<'a> {
    /// Content's own cost.
    Borrowed(&'a Bundle),
    /// Worked out for this site.
    Owned(Bundle),
    /// The hooks' answer.
    Shared(Arc<Bundle>),
}

impl std::ops::Deref for SiteCost<'_> {
    type Target = Bundle;

    fn deref(&self) -> &Bundle {
        match self {
            SiteCost::Borrowed(b) => b,
            SiteCost::Owned(b) => b,
            SiteCost::Shared(b) => b,
        }
    }
}

/// What a cost hook may change: the parts of what an action costs. A part read from content
/// is borrowed: the cost of every candidate site is asked about while listing, and most
/// answers are remembered, so the parts are mostly only written into a key.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct CostParts<'a> {
    /// The building's own cost.
    pub building: Cow<'a, Bundle>,
    /// Terraforming.
    pub terraform: Cow<'a, Bundle>,
    /// Range.
    pub range: Cow<'a, Bundle>,
    /// The Gaia-planet fee.
    pub gaia_fee: Cow<'a, Bundle>,
}

impl CostParts<'_> {
    /// Everything together, without zero amounts.
    pub fn total(&self) -> Bundle {
        bundle::sum([
            &*self.building,
            &*self.terraform,
            &*self.range,
            &*self.gaia_fee,
        ])
    }
}

/// Where a cost or placement hook is asked about: the building, the space, and what it was
/// before (an upgrade).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Site<'a> {
    /// The building to go there.
    pub building: &'a str,
    /// The space index.
    pub idx: usize,
    /// The building it replaces (an upgrade), if any.
    pub upgrade_from: Option<&'a str>,
    /// The start of its key that no site changes, with its answers ([`Game::site_start`]),
    /// when the caller found it once for the sites it asks about in one state; found afresh
    /// when `None`.
    pub key_start: Option<&'a SiteStart>,
}

impl<'a> Site<'a> {
    /// A new building on a space (no upgrade), with the start of its key when found.
    pub fn new(building: &'a str, idx: usize, key_start: Option<&'a SiteStart>) -> Site<'a> {
        Site {
            building,
            idx,
            upgrade_from: None,
            key_start,
        }
    }
}

/// The facts a hook's argument is made from, written as words: each fact a number or a
/// length-prefixed text, lists prefixed by their length, so two keys are equal only when every
/// fact is (the key is exact, not a digest). Written on the stack from the state as it is,
/// without copying a word of it, and copied to the heap only to be remembered.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct FactKey(pub SmallVec<[u64; 128]>);

impl FactKey {
    /// A number (a count, an index, an amount as its bits).
    pub(crate) fn n(&mut self, v: u64) {
        self.0.push(v);
    }

    /// A signed amount.
    pub(crate) fn i(&mut self, v: i32) {
        self.0.push(u64::from(v as u32));
    }

    /// A text: its length, then its bytes eight to a word (little-endian, the last word
    /// padded with zeros). Most texts are codes and names of a few bytes, so the last word is
    /// put together byte by byte rather than copied through a call.
    pub(crate) fn text(&mut self, s: &str) {
        let bytes = s.as_bytes();
        self.0.push(bytes.len() as u64);
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0.push(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let w = (rest.iter().enumerate()).fold(0u64, |w, (k, &b)| w | u64::from(b) << (8 * k));
            self.0.push(w);
        }
    }

    /// Amounts by code: how many, then each code and amount.
    pub(crate) fn bundle(&mut self, b: &Bundle) {
        self.n(b.0.len() as u64);
        for (code, &n) in &b.0 {
            self.text(code);
            self.i(n);
        }
    }

    /// The key as remembered.
    pub(crate) fn boxed(&self) -> Box<[u64]> {
        self.0.as_slice().into()
    }
}

/// Answers remembered by their [`FactKey`], found from a key written on the stack; at most
/// [`REMEMBERED_VIEWS`] (past it, all are forgotten at once). Hashed as the federation memo
/// hashes its keys.
#[derive(Debug)]
pub(crate) struct KeyedAnswers<V>(HashMap<Box<[u64]>, V, BuildHasherDefault<WordHasher>>);

impl<V> Default for KeyedAnswers<V> {
    fn default() -> Self {
        KeyedAnswers(HashMap::default())
    }
}

impl<V> KeyedAnswers<V> {
    /// The answer remembered for `key`, if any.
    pub(super) fn get(&self, key: &FactKey) -> Option<&V> {
        self.0.get(key.0.as_slice())
    }

    /// Remembers the answer for `key`.
    pub(super) fn keep(&mut self, key: &FactKey, answer: V) {
        if self.0.len() >= REMEMBERED_VIEWS {
            self.0.clear();
        }
        self.0.insert(key.boxed(), answer);
    }
}

/// What a seat's cost and placement hooks made of the sites asked about under one key start
/// ([`Game::site_key_start`]), by the rest of each site's key ([`Game::site_key_rest`]): the
/// cost to pay, or a placement hook's refusal. Never a hook's failure.
#[derive(Debug, Default)]
pub(crate) struct SiteTable {
    answers: KeyedAnswers<Result<Arc<Bundle>, String>>,
    /// The answers kept in every table of the game, counted as they are kept.
    kept: Arc<AtomicUsize>,
}

/// Sites' answers by the start of their keys: a listing finds the table of its state's start
/// once and then looks up each site by the rest of its key alone, a third of the words. At
/// most [`SITE_STARTS`] starts and [`REMEMBERED_VIEWS`] answers in all; past either, all are
/// forgotten at once (a listing holding a table goes on with it).
#[derive(Debug, Default)]
pub(crate) struct SiteAnswers {
    tables: HashMap<Box<[u64]>, Arc<Mutex<SiteTable>>, BuildHasherDefault<WordHasher>>,
    kept: Arc<AtomicUsize>,
}

/// Key starts whose sites' answers a game remembers.
const SITE_STARTS: usize = 1024;

impl SiteAnswers {
    /// The table of the sites asked about under `start`, made empty if there is none.
    pub(super) fn table(&mut self, start: &[u64]) -> Arc<Mutex<SiteTable>> {
        if let Some(t) = self.tables.get(start) {
            return t.clone();
        }
        if self.tables.len() >= SITE_STARTS || self.kept.load(Ordering::Relaxed) >= REMEMBERED_VIEWS
        {
            self.tables.clear();
            self.kept.store(0, Ordering::Relaxed);
        }
        let t = Arc::new(Mutex::new(SiteTable {
            answers: KeyedAnswers::default(),
            kept: self.kept.clone(),
        }));
        self.tables.insert(start.into(), Arc::clone(&t));
        t
    }
}

impl SiteTable {
    /// The answer remembered for the site whose key's rest is `rest`, if any.
    pub(super) fn get(&self, rest: &FactKey) -> Option<&Result<Arc<Bundle>, String>> {
        self.answers.get(rest)
    }

    /// Remembers the answer for a site. Past twice [`REMEMBERED_VIEWS`] answers in all (no
    /// new start came to forget them), this start's are forgotten first.
    pub(super) fn keep(&mut self, rest: &FactKey, answer: Result<Arc<Bundle>, String>) {
        if self.kept.load(Ordering::Relaxed) >= 2 * REMEMBERED_VIEWS {
            self.kept.fetch_sub(self.answers.0.len(), Ordering::Relaxed);
            self.answers.0.clear();
        }
        self.kept.fetch_add(1, Ordering::Relaxed);
        self.answers.keep(rest, answer);
    }
}

/// The answers given under the start of the key of every site a seat's cost and placement
/// hooks are asked about in one state ([`Game::site_key_start`]).
#[derive(Debug)]
pub(crate) struct SiteStart {
    /// The answers under it.
    pub answers: Arc<Mutex<SiteTable>>,
}

/// What effect hooks returned, checked, by the facts their view is made from and the place
/// they stand ([`Game::effect_key`]). Never a failure.
pub(crate) type EffectAnswers = KeyedAnswers<Vec<Effect>>;

#[cfg(test)]
mod tests {
    use super::*;

    /// A text is its length, then its bytes eight to a word, little-endian, the last word
    /// padded with zeros: texts differing in a byte, in length or only in trailing zero bytes
    /// give different keys.
    #[test]
    fn a_text_is_its_length_then_its_bytes_in_words() {
        let mut k = FactKey::default();
        k.text("");
        assert_eq!(k.0.as_slice(), &[0]);
        let mut k = FactKey::default();
        k.text("ts");
        assert_eq!(k.0.as_slice(), &[2, u64::from(b't') | u64::from(b's') << 8]);
        let name = "a longer name \u{e9}";
        let mut k = FactKey::default();
        k.text(name);
        let bytes = name.as_bytes();
        let mut words = vec![bytes.len() as u64];
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            words.push(u64::from_le_bytes(w));
        }
        assert_eq!(k.0.as_slice(), words.as_slice());
        let key = |s: &str| {
            let mut k = FactKey::default();
            k.text(s);
            k
        };
        assert_ne!(key("ab"), key("ab\0"));
        assert_ne!(key("abcdefgh"), key("abcdefgi"));
        assert_ne!(key("abcdefghi"), key("abcdefgh"));
    }

    /// Sites' answers are found by their start's table; past the starts or the answers a
    /// game keeps, every table is forgotten and a start gets a new, empty one.
    #[test]
    fn site_answers_are_kept_by_start_and_forgotten_past_their_bounds() {
        let mut sites = SiteAnswers::default();
        let key = |n: u64| {
            let mut k = FactKey::default();
            k.n(n);
            k
        };
        let first = sites.table(&[1, 2]);
        assert!(Arc::ptr_eq(&first, &sites.table(&[1, 2])));
        assert!(!Arc::ptr_eq(&first, &sites.table(&[1, 3])));
        let cost = Arc::new(Bundle::of(&[("c", 2)]));
        first.lock().expect("lock").keep(&key(7), Ok(cost.clone()));
        let table = sites.table(&[1, 2]);
        let kept = table.lock().expect("lock");
        assert!(matches!(kept.get(&key(7)), Some(Ok(c)) if Arc::ptr_eq(c, &cost)));
        assert!(kept.get(&key(8)).is_none());
        drop(kept);
        // As many answers as a game keeps: the next new start forgets every table.
        for n in 0..REMEMBERED_VIEWS as u64 {
            first.lock().expect("lock").keep(&key(n), Err("no".into()));
        }
        sites.table(&[9]);
        assert_eq!(sites.tables.len(), 1);
        assert!(!Arc::ptr_eq(&first, &sites.table(&[1, 2])));
        // As many starts as a game keeps, and one more: never more.
        for n in 0..=SITE_STARTS as u64 {
            sites.table(&[100, n]);
        }
        assert!(sites.tables.len() <= SITE_STARTS);
        // No new start: a table past twice the answers a game keeps forgets its own.
        let (a, b) = (sites.table(&[200]), sites.table(&[201]));
        for n in 0..2 * REMEMBERED_VIEWS as u64 {
            a.lock().expect("lock").keep(&key(n), Err("no".into()));
        }
        b.lock().expect("lock").keep(&key(0), Err("no".into()));
        assert_eq!(b.lock().expect("lock").answers.0.len(), 1);
        a.lock().expect("lock").keep(&key(1), Err("no".into()));
        assert_eq!(a.lock().expect("lock").answers.0.len(), 1);
    }
}
