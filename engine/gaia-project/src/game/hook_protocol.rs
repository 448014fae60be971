//! The fixed terms of the hook protocol: the limits on hooks, the ledger of the errors they
//! made, the schema checks on what they return, whether content names any hook, a seat's
//! condition hooks, and what a cost hook is asked about (the cost's parts and the site).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use serde_json::Value;

use super::bundle;
use crate::content::{schema, Bundle, Condition, Content, Effect, ScriptRef};
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
        }
    }
}

impl HookLedger {
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

/// What a cost hook may change: the parts of what an action costs.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct CostParts {
    /// The building's own cost.
    pub building: Bundle,
    /// Terraforming.
    pub terraform: Bundle,
    /// Range.
    pub range: Bundle,
    /// The Gaia-planet fee.
    pub gaia_fee: Bundle,
}

impl CostParts {
    /// Everything together, without zero amounts.
    pub fn total(&self) -> Bundle {
        bundle::sum([&self.building, &self.terraform, &self.range, &self.gaia_fee])
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
}
