//! The declarative effect language shared by every content kind.
//!
//! Everything a player can own — a faction board, a building, a research level, a tech tile, a
//! booster, a federation token, a round scoring tile — grants an [`Ability`]: effects now, income
//! every round, triggers on events, pass scoring, a once-per-round action, extra conversions and
//! rule modifiers. The kernel interprets these; it never names the thing that granted them.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An amount of resources keyed by code, as in the move notation: content resources (`c`, `o`,
/// `k`, `q`, `vp`, …) and the power-cycle codes `pw` (charge, or spend from area III when paid),
/// `t` (gain tokens into area I, or discard tokens when paid), `tg` (tokens in the Gaia area),
/// `t-a3` (move a token from area III to the Gaia area), `gf` (a Gaiaformer).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Bundle(pub BTreeMap<String, i32>);

impl JsonSchema for Bundle {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Bundle".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Amounts by code: a resource id from `rules.yaml` (`c`, `o`, `k`, `q`, `vp`) or a power-cycle code (`pw`, `t`, `tg`, `t-a3`, `gf`). Amounts are 0 or more everywhere (gains, costs, income, start): a loss is written as a cost, which is paid only when it can be, so nothing drops below 0. Hooks' returns are held to the same rule.",
            "type": "object",
            "propertyNames": { "pattern": "^[a-z][a-z0-9]*(-[a-z0-9]+)?$" },
            "additionalProperties": { "type": "integer", "minimum": 0 }
        })
    }
}

impl Bundle {
    /// Iterates over `(code, amount)` pairs with a non-zero amount.
    pub fn iter(&self) -> impl Iterator<Item = (&str, i32)> {
        self.0
            .iter()
            .filter(|(_, n)| **n != 0)
            .map(|(k, n)| (k.as_str(), *n))
    }
    /// The amount of one code (0 when absent).
    pub fn get(&self, code: &str) -> i32 {
        self.0.get(code).copied().unwrap_or(0)
    }
    /// A bundle from `(code, amount)` pairs.
    pub fn of(pairs: &[(&str, i32)]) -> Bundle {
        Bundle(pairs.iter().map(|(k, n)| (k.to_string(), *n)).collect())
    }
}

/// One effect, applied when an ability fires.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Gain resources, charge power (`pw`), gain power tokens (`t`) or Gaiaformers (`gf`).
    Gain(Bundle),
    /// Gain a bundle once per counted thing (e.g. 1 knowledge per planet type).
    GainPer(GainPer),
    /// Temporary free terraforming steps for the build that follows in the same action.
    Steps(u32),
    /// Temporary extra range for the build that follows in the same action.
    Range(u32),
    /// Advance one research level (a follow-up `up`), on the given tracks.
    Research(ResearchChoice),
    /// Take a tech tile (a follow-up `tech`, then possibly `cover` and `up`).
    TechTile,
    /// Gain again the reward of one of your federation tokens (a follow-up `fedtile`).
    RescoreFederation,
    /// Gain a specific federation token from outside the supply.
    FederationToken(String),
    /// Take the federation token lying on this research track.
    TrackToken,
    /// Place a structure on the map as a follow-up command (e.g. `build sp <hex>`, or a
    /// planet created on empty space such as `lostPlanet <hex>`).
    Place(Place),
    /// Turn one of your buildings into another (e.g. a lab back into a trading station), counting
    /// as building the new one.
    Downgrade(Downgrade),
    /// Swap the positions of two of your buildings (a follow-up `<verb> <hex>`).
    Swap(Swap),
    /// An effect hook: call a content script function, which gets a read-only view of the
    /// seat (and of the event that fired it) and returns further effects in this same
    /// language; the kernel checks them and applies them (see `docs/scripting.md`).
    Script(ScriptRef),
}

impl Effect {
    /// Whether the effect may be paid to a seat watching another seat's move (a trigger with
    /// `by: others` or `any`): gains that need no choice, so not a charge (`pw`), which can
    /// ask where a special token goes. A `script` is checked on what it returns.
    pub fn pays_watcher(&self) -> Result<(), String> {
        let bundle = match self {
            Effect::Gain(b) => b,
            Effect::GainPer(g) => &g.gain,
            Effect::Script(_) => return Ok(()),
            _ => {
                return Err("a trigger on another seat's move pays automatically: \
                            only gain and gain_per"
                    .into())
            }
        };
        if bundle.get("pw") != 0 {
            return Err("a trigger on another seat's move may not charge power (pw)".into());
        }
        Ok(())
    }

    /// Whether the effect may stand where nothing can follow it, in an income list or a pass
    /// (`what`): only `gain` and `gain_per` (a `script` is checked on what it returns).
    pub fn pays_without_choice(&self, what: &str) -> Result<(), String> {
        match self {
            Effect::Gain(_) | Effect::GainPer(_) | Effect::Script(_) => Ok(()),
            _ => Err(format!(
                "{what} pays without a choice: only gain and gain_per"
            )),
        }
    }
}

/// `gain_per`: a bundle per counted thing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GainPer {
    /// What is counted.
    pub per: Count,
    /// What each counted thing gives.
    pub gain: Bundle,
}

/// Which tracks a research step may use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ResearchChoice {
    /// Any track.
    Any,
    /// One of the player's lowest tracks.
    Lowest,
    /// A specific track id.
    Track(String),
}

/// A placement follow-up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Place {
    /// The building placed.
    pub building: String,
    /// The notation verb of the follow-up command (`build` when absent, then `build <id> <hex>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verb: Option<String>,
    /// The planet type the space becomes, when the placement creates a planet on empty space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creates_planet: Option<String>,
    /// Whether the target must be empty space (no planet); otherwise an empty planet.
    #[serde(default)]
    pub on_empty_space: bool,
}

/// A downgrade: replace one of your buildings by another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Downgrade {
    /// The building taken back.
    pub from: String,
    /// The building put in its place.
    pub to: String,
}

/// A swap of two own buildings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Swap {
    /// The building that moves.
    pub building: String,
    /// The building it trades places with.
    pub with: String,
    /// The notation verb of the follow-up command.
    pub verb: String,
}

/// How many parameters a hook function takes: every hook point passes one value, the view.
pub const HOOK_ARITY: usize = 1;

/// A function in a content script.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScriptRef {
    /// The script file, relative to the content's `scripts/` folder (e.g. `shared.rhai`).
    pub script: String,
    /// The function to call.
    pub function: String,
}

/// Things a player can count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Count {
    /// Own buildings of these ids on the map.
    Buildings(Vec<String>),
    /// Colonized Gaia planets.
    GaiaPlanets,
    /// Different planet types colonized.
    PlanetTypes,
    /// Sectors holding one of your structures.
    Sectors,
    /// Federation tokens owned.
    Federations,
    /// Structures on the map.
    Structures,
    /// Structures that belong to one of your federations.
    StructuresInFederations,
    /// Satellites (and structures that count as satellites).
    Satellites,
}

/// Events that triggers listen to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// One of these buildings was built (placed or upgraded to).
    Built(BuiltFilter),
    /// A research level was advanced.
    ResearchStep,
    /// A terraforming step was taken while building.
    TerraformStep,
    /// A federation token was gained.
    FederationToken,
    /// A charge offered by a neighbour's building was accepted (the seat that acted is the
    /// one that took the charge).
    ChargeAccepted,
}

/// Which builds a `built` trigger reacts to. `planet`, `new_planet_type` and `shared` describe
/// the build (the seat that built); `within` measures from the watcher's own buildings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuiltFilter {
    /// Building ids (any building when absent).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buildings: Vec<String>,
    /// Only on planets of this type (e.g. `gaia`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planet: Option<String>,
    /// Only when the planet type was not colonized by the builder before.
    #[serde(default)]
    pub new_planet_type: bool,
    /// Only (true) or never (false) on a planet another player already colonized.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared: Option<bool>,
    /// Only within this distance of one of the watcher's own buildings (for the watcher's own
    /// builds, of another of its buildings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<u32>,
}

/// Whose events a trigger reacts to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// The seat that owns the trigger (the watcher) acted.
    #[default]
    Own,
    /// Another seat acted. Such a trigger pays its watcher automatically, outside the
    /// watcher's turn: its effects may only gain (`gain`, `gain_per`, or a `script` returning
    /// those), and not charge power (`pw`).
    Others,
    /// Any seat acted (the same limits as `others`).
    Any,
}

impl Scope {
    /// Whether an event by `actor` reaches a trigger owned by `watcher`.
    pub fn reaches(self, watcher: usize, actor: usize) -> bool {
        match self {
            Scope::Own => watcher == actor,
            Scope::Others => watcher != actor,
            Scope::Any => true,
        }
    }
}

fn is_own(s: &Scope) -> bool {
    *s == Scope::Own
}

/// An effect fired by an event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Trigger {
    /// The event.
    pub on: Event,
    /// Whose events: `own` (the default), `others` or `any`.
    #[serde(default, skip_serializing_if = "is_own")]
    pub by: Scope,
    /// The effects, applied once per occurrence.
    pub effects: Vec<Effect>,
}

/// A free-action conversion: pay a bundle, apply effects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Conversion {
    /// What is paid (`pw` spends power from area III; `t` discards tokens; `tg` removes tokens
    /// from the Gaia area; `t-a3` moves a token from area III to the Gaia area; `gf` puts a
    /// Gaiaformer into the Gaia area).
    pub pay: Bundle,
    /// What is gained.
    pub gain: Vec<Effect>,
    /// The phase in which it may be used.
    #[serde(default)]
    pub phase: Phase,
}

/// A phase of the round in which a choice can be made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The player's own turn in the action phase.
    #[default]
    Actions,
    /// The Gaia phase.
    Gaia,
}

/// A once-per-round special action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialAction {
    /// How the action is written after `special` in the notation (e.g. `4pw`, `q,5c`).
    pub key: String,
    /// What the action does.
    pub effects: Vec<Effect>,
}

/// A condition on the player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Condition {
    /// The player has built this building at least once (it is on the map).
    Has(String),
    /// The player has not built this building.
    Lacks(String),
    /// A condition hook: a script function given the seat's view returns `true` or `false`.
    /// It is asked again after every part of a move; its last answer stands until then.
    Script(ScriptRef),
}

/// Rule parameters an ability changes while it is active.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Modifier {
    /// Ore paid per terraforming step.
    OrePerStep(u32),
    /// Base navigation range.
    NavRange(u32),
    /// Power tokens moved to the Gaia area to start a Gaia project (none: not possible).
    GaiaProjectTokens(u32),
    /// These buildings have this power value.
    PowerValue(PowerValue),
    /// Buildings on planets of this type get extra power value.
    PowerValueOnPlanet(PowerValueOnPlanet),
    /// Total power value a federation needs.
    FederationThreshold(u32),
    /// What one satellite costs.
    SatelliteCost(Bundle),
    /// What the fee for building on a Gaia planet costs.
    GaiaPlanetFee(Bundle),
    /// Gains of the first resource are received as the second (e.g. `q` as `o`).
    Substitute(Substitute),
    /// The power area (1–3) that tokens leaving the Gaia area return to.
    GaiaReturnArea(u8),
    /// Tokens discarded by burning go to the Gaia area instead of the supply.
    BurnToGaia,
    /// Power each token spent from area III is worth; at least 1 (0 is refused, not read as 1).
    Area3TokenValue(#[schemars(range(min = 1))] u32),
    /// The player may not advance on this research track.
    LockTrack(String),
    /// The player may build a mine on a planet another player colonized.
    ShareOccupiedPlanets,
    /// The player has one federation that grows: each formation (the first, and every growth)
    /// must extend it to a total of the threshold × (formations so far + 1).
    SingleFederation,
    /// Taking a charge offered by a neighbour also gains power tokens.
    ChargeGainsTokens(u32),
    /// A cost hook: a script function that adjusts what founding a colony or upgrading costs
    /// (the building's own cost, terraforming, range, the Gaia fee), given the building, the
    /// hex, its planet and the neighbouring planets with their owners.
    CostHook(ScriptRef),
    /// A placement hook: a script function that says whether a building may go on a hex
    /// (`true`), or refuses it (`false`, or a reason as a string).
    PlacementHook(ScriptRef),
}

/// `power_value` modifier.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PowerValue {
    /// Building ids.
    pub buildings: Vec<String>,
    /// Their power value.
    pub value: u32,
}

/// `power_value_on_planet` modifier.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PowerValueOnPlanet {
    /// Planet type id.
    pub planet: String,
    /// Extra power value.
    pub bonus: u32,
}

/// `substitute` modifier.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Substitute {
    /// The resource code that would be gained.
    pub from: String,
    /// The resource code gained instead.
    pub to: String,
}

/// Declares a content struct that carries the fields every granting thing has (`immediate`,
/// `income`, `triggers`, `pass`, `action`, `conversions`, `modifiers`) besides its own.
macro_rules! granting_struct {
    ($(#[$meta:meta])* pub struct $name:ident { $($(#[$fm:meta])* pub $f:ident : $t:ty,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $($(#[$fm])* pub $f: $t,)*
            /// Effects applied once, when the thing is gained.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub immediate: Vec<Effect>,
            /// Effects applied in every income phase.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub income: Vec<Effect>,
            /// Effects fired by events.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub triggers: Vec<Trigger>,
            /// Effects applied when the player passes.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub pass: Vec<Effect>,
            /// A once-per-round special action.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub action: Option<SpecialAction>,
            /// Extra free-action conversions.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub conversions: Vec<Conversion>,
            /// Rule parameters changed while active.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub modifiers: Vec<Modifier>,
        }

        impl $name {
            /// The granted parts as a plain [`Ability`].
            pub fn grants(&self) -> Grants<'_> {
                Grants {
                    immediate: &self.immediate,
                    income: &self.income,
                    triggers: &self.triggers,
                    pass: &self.pass,
                    action: self.action.as_ref(),
                    conversions: &self.conversions,
                    modifiers: &self.modifiers,
                }
            }
        }
    };
}
pub(crate) use granting_struct;

/// A borrowed view of what one owned thing grants.
#[derive(Debug, Clone, Copy)]
pub struct Grants<'a> {
    /// Effects applied once, when gained.
    pub immediate: &'a [Effect],
    /// Income effects.
    pub income: &'a [Effect],
    /// Triggers.
    pub triggers: &'a [Trigger],
    /// Pass effects.
    pub pass: &'a [Effect],
    /// Special action.
    pub action: Option<&'a SpecialAction>,
    /// Conversions.
    pub conversions: &'a [Conversion],
    /// Modifiers.
    pub modifiers: &'a [Modifier],
}

granting_struct! {
    /// Everything one owned thing grants, optionally only while a condition holds. Every field
    /// is optional.
    pub struct Ability {
        /// Active only while this condition holds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub when: Option<Condition>,
    }
}
