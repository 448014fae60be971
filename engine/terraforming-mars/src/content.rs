//! The game as content: typed YAML files under `content/terraforming-mars/`.
//!
//! Every file is checked against the JSON Schema its type generates (all problems reported at
//! `file:line:col`, see [`orrery_core::diagnostics`]) before typed decoding. No type here names a
//! card, corporation, milestone or award: those are items of the files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use orrery_core::content::provenance::Provenance;
use orrery_core::diagnostics::{Diagnostic, SchemaCheck, SourceDoc};
use orrery_core::files::{ContentFiles, DirFiles};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A standard resource: stock and production track.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Res {
    /// Mega-credits.
    Mc,
    /// Steel (pays for building tags).
    Steel,
    /// Titanium (pays for space tags).
    Titanium,
    /// Plants (8 make a greenery).
    Plants,
    /// Energy (becomes heat at production).
    Energy,
    /// Heat (8 raise the temperature).
    Heat,
}

impl Res {
    /// All six, in track order.
    pub const ALL: [Res; 6] = [
        Res::Mc,
        Res::Steel,
        Res::Titanium,
        Res::Plants,
        Res::Energy,
        Res::Heat,
    ];
    /// Index into per-resource arrays.
    pub fn index(self) -> usize {
        self as usize
    }
    /// The notation key (`mc`, `steel`, …).
    pub fn key(self) -> &'static str {
        match self {
            Res::Mc => "mc",
            Res::Steel => "steel",
            Res::Titanium => "titanium",
            Res::Plants => "plants",
            Res::Energy => "energy",
            Res::Heat => "heat",
        }
    }
    /// The resource of a notation key.
    pub fn from_key(key: &str) -> Option<Res> {
        Res::ALL.into_iter().find(|r| r.key() == key)
    }
}

/// Amounts of standard resources, by resource.
pub type Amounts = BTreeMap<Res, i32>;

/// A global parameter.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Param {
    /// Oxygen, in percent steps.
    Oxygen,
    /// Temperature, in 2 °C steps.
    Temperature,
    /// Ocean tiles placed.
    Oceans,
}

/// What a count counts (for production/stock per something, VP per something, requirements).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Counted {
    /// Own tags of this kind on played non-event cards (and the card being played).
    Tag(String),
    /// City tiles: own on Mars (`mine`), anyone's on Mars (`mars`), or anyone's anywhere (`all`).
    Cities(Scope),
    /// Own greenery tiles.
    Greeneries,
    /// Resources on this card.
    ResourcesHere,
    /// Ocean tiles adjacent to this card's tile.
    AdjacentOceans,
    /// Greenery tiles adjacent to this card's tile.
    AdjacentGreeneries,
    /// Own production of a resource.
    Production(Res),
    /// 1 when the player's TR went up this generation, else 0.
    TrRaisedThisGeneration,
    /// Tags of this kind on the other players' played non-event cards.
    OthersTag(String),
    /// Event cards played by every player.
    EventsPlayed,
    /// City tiles (any owner) adjacent to this card's tile.
    AdjacentCities,
}

/// Whose tiles a count looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// The owner's, on Mars.
    Mine,
    /// Everyone's, on Mars.
    Mars,
    /// Everyone's, Mars and off-board.
    All,
}

/// `count` of something, divided by `per` (rounded down).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PerCount {
    /// What is counted.
    pub of: Counted,
    /// Divisor (1 when absent).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub per: i32,
}

fn one() -> i32 {
    1
}
fn is_one(v: &i32) -> bool {
    *v == 1
}

/// Where a tile may go.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Where {
    /// A free land space (the default for everything but oceans).
    Land,
    /// A free ocean-reserved space (the default for oceans).
    OceanSpace,
    /// A free volcanic space.
    Volcanic,
    /// A free land space next to no tile.
    Isolated,
    /// This exact space (reserved or off-board), by id.
    Space(String),
    /// A free land space next to at least this many cities (ignores the city spacing rule).
    NextToCities(u32),
    /// A free land space next to a tile of this type.
    NextTo(String),
    /// A free land space next to one of the player's own tiles of this type.
    NextToOwn(String),
    /// A free land space whose printed bonus holds one of these resources.
    BonusOf(Vec<String>),
    /// A free land space whose printed bonus holds one of these resources, next to one of the
    /// player's own tiles.
    BonusOfNextToOwn(Vec<String>),
}

/// A tile to place.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Place {
    /// Tile type (`ocean`, `city`, `greenery`, or a special tile such as `nuclear_zone`).
    pub tile: String,
    /// The special tile counts as this kind too (`city` for a capital).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts_as: Option<String>,
    /// Where it may go; the tile kind's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on: Option<Where>,
    /// The prompt title shown when asking for the space (menu text, not rules).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Effects done once the tile is placed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<Effect>,
}

/// One entry of a choice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// The menu title of the option.
    pub title: String,
    /// What the option does.
    pub effects: Vec<Effect>,
}

/// A conditional effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IfThen {
    /// The condition.
    pub cond: Requirement,
    /// When it holds.
    pub then: Vec<Effect>,
    /// When it does not.
    #[serde(default, rename = "else")]
    pub otherwise: Vec<Effect>,
}

/// Resources taken from or added to a card of some resource type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardResources {
    /// Card resource type (`microbe`, `animal`, `science`).
    pub kind: String,
    /// How many.
    pub count: i32,
}

/// A change of any one player's production (the player chooses whom).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnyProduction {
    /// The resource.
    pub res: Res,
    /// How many steps it goes down.
    pub count: i32,
}

/// Gain (or lose) `res` times a count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GainPer {
    /// The resource.
    pub res: Res,
    /// How many per unit counted.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub each: i32,
    /// What is counted.
    #[serde(flatten)]
    pub count: PerCount,
}

/// One step of what a card, project or action does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Own production changes (M€ never below −5, others never below 0).
    Production(Amounts),
    /// Own stock changes (a negative amount is a cost that must be available).
    Stock(Amounts),
    /// Own production up by a count.
    ProductionPer(GainPer),
    /// Own stock up by a count.
    StockPer(GainPer),
    /// Any player's production down (a player with too little may not be chosen).
    ReduceAnyProduction(AnyProduction),
    /// Remove up to this many plants from any player (may be skipped).
    RemoveAnyPlants(i32),
    /// Raise a global parameter this many steps (each step gives 1 TR while not at its goal).
    Raise(BTreeMap<Param, i32>),
    /// Terraform rating up (or down).
    Tr(i32),
    /// Place a tile.
    Place(Place),
    /// Draw cards from the top of the deck.
    Draw(i32),
    /// Add resources to this card.
    AddHere(i32),
    /// Add resources to one played card of a resource type (the player's choice).
    AddToAny(CardResources),
    /// Remove resources from any player's card of a resource type (may be none).
    RemoveFromAny(CardResources),
    /// Spend resources from stock (an action's cost).
    Spend(Amounts),
    /// Remove resources from this card (an action's cost).
    SpendHere(i32),
    /// Pay M€, optionally with steel/titanium (an action's cost).
    Pay(Payable),
    /// The player picks one option among those that can be done.
    Choose(Vec<Choice>),
    /// Conditional effects.
    If(Box<IfThen>),
    /// Own production of the first of these resources that the last placed tile's space
    /// printed as a bonus goes up one step.
    ProductionFromBonus(Vec<String>),
    /// Any number of steps of one production become steps of another (the player says how many).
    ConvertProduction(Convert),
    /// The owners of tiles next to the last placed tile may lose this much (the player picks one
    /// or none).
    StealFromAdjacent(AnyProduction),
    /// Sell cards from hand (the player picks them) for this many M€ each.
    SellCards(i32),
    /// Reveal the top card and discard it; if it has the tag, do `then`.
    Reveal(Reveal),
    /// Terraform rating up by a count.
    TrPer(PerCount),
    /// Any player's production down, the acting player's up by as much (when nobody has the
    /// production to lose, the acting player gains first and then loses it).
    StealProduction(AnyProduction),
    /// Draw cards from the top and keep some of them (the player picks); the rest are
    /// discarded.
    DrawKeep(DrawKeep),
    /// Draw cards from the top and buy any of them at the card price; the rest are discarded.
    DrawBuy(i32),
    /// Discard cards from hand (the player picks which).
    Discard(i32),
    /// Add resources to one of the player's cards that already holds at least one.
    AddToHolding(i32),
    /// Take resources from another player's stock: one option per player and resource they
    /// have, and an option to take nothing.
    TakeFromAny(Take),
    /// Remove a played card type's resources or plants from another player, or skip.
    RemoveAnimalsOrPlants(RemoveEither),
    /// Spend any amount (at least 1) of one stock resource for as much of another.
    ConvertStock(Convert),
    /// Put the player's marker on a free land space: only they may place a tile there.
    Claim,
    /// Do again the production changes of one of the player's played cards with this tag.
    CopyProduction(String),
    /// For the card being played: a resource on it when it holds one of these card resource
    /// types (or a plant instead, the player picks), else a plant. A trigger on tags does it
    /// once per tag.
    ResourceOrPlant(ResourceOrPlant),
    /// A Rhai hook of the content's scripts, by function name (for what data cannot say).
    Script(String),
}

/// Cards drawn, some kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawKeep {
    /// Cards drawn.
    pub draw: i32,
    /// Cards kept.
    pub keep: i32,
}

/// Resources taken from another player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Take {
    /// Resources and the most of each taken, in menu order.
    pub res: Vec<TakeRes>,
    /// The taker gains what is removed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub steal: bool,
    /// Option title: `{n}` the amount, `{res}` the resource's name, `{player}` the color.
    pub title: String,
    /// Title of the option taking nothing.
    pub skip: String,
    /// With no other player (solo): the taker gains one of these, by title.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub solo: Vec<Choice>,
}

/// One resource of a [`Take`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TakeRes {
    /// The resource.
    pub res: Res,
    /// The most taken.
    pub count: i32,
    /// Its name in titles (the key when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Card resources or plants removed from another player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveEither {
    /// Card resource type removed.
    pub kind: String,
    /// How many of it.
    pub count: i32,
    /// Plants removed instead (the most).
    pub plants: i32,
    /// Title of the option removing card resources (a card is picked next).
    pub title: String,
    /// Title of the option removing nothing.
    pub skip: String,
}

/// A resource on the played card or plants.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResourceOrPlant {
    /// Card resource types that may take the resource.
    pub kinds: Vec<String>,
    /// Title of the resource option; `{card}` is the card's name.
    pub title: String,
    /// Title of the plant option.
    pub plant_title: String,
}

/// Production converted from one resource to another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Convert {
    /// Production lost.
    pub from: Res,
    /// Production gained.
    pub to: Res,
}

/// Reveal the top card of the deck.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reveal {
    /// The tag looked for.
    pub tag: String,
    /// What happens when the card has it.
    pub then: Vec<Effect>,
}

/// An M€ cost that may be paid with other resources.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Payable {
    /// The cost in M€.
    pub mc: i32,
    /// Steel may pay.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub steel: bool,
    /// Titanium may pay.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub titanium: bool,
}

/// A requirement: a global parameter window, tag counts, tiles or production.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Requirement {
    /// What is measured: a parameter or a count.
    #[serde(flatten)]
    pub what: Measured,
    /// Smallest allowed value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i32>,
    /// Largest allowed value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i32>,
}

/// The quantity a requirement measures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Measured {
    /// A global parameter (oxygen %, temperature °C, oceans placed).
    Param(Param),
    /// A count (own tags, greeneries, …).
    Count(Counted),
}

/// Victory points of a card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Vp {
    /// A fixed number.
    Fixed(i32),
    /// One per `per` things counted.
    Per(PerCount),
    /// `times` per thing counted.
    Times {
        /// What is counted.
        of: Counted,
        /// VP per unit.
        times: i32,
    },
    /// Fixed VP granted when this card holds at least one resource.
    IfResources {
        /// VP when it holds any.
        if_resources: i32,
    },
}

/// What an event is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// Someone (per `by`) plays a card with one of these tags (each tag fires once).
    Tag(Vec<String>),
    /// Someone places a tile of one of these types (`city` includes city-like tiles).
    Tile(Vec<String>),
    /// The owner plays an event card.
    EventCard,
    /// The owner pays for a card or standard project of at least this cost.
    CostAtLeast(i32),
    /// The owner gets a steel or titanium placement bonus.
    MineralBonus,
    /// The owner does a standard project other than these (by id).
    StandardProjectExcept(Vec<String>),
}

/// Whose doings trigger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum By {
    /// The card's owner.
    #[default]
    Owner,
    /// Anyone.
    Anyone,
}

/// A lasting effect: when something happens, do something.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Trigger {
    /// The event.
    pub when: Event,
    /// Whose.
    #[serde(default)]
    pub by: By,
    /// Only tiles on Mars count.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_mars: bool,
    /// Only events that carry a space tag count (for `event_card`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_tag: Option<String>,
    /// The effects, for the owner.
    pub then: Vec<Effect>,
}

/// A lasting cost reduction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Discount {
    /// M€ off.
    pub amount: i32,
    /// Only cards with this tag (every card when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// Only this standard project (by id) instead of cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard_project: Option<String>,
}

/// Card type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CardType {
    /// Green: played once, stays.
    Automated,
    /// Blue: lasting effects or actions.
    Active,
    /// Red: played once, its tags do not count afterwards.
    Event,
    /// A corporation.
    Corporation,
}

/// A project card or a corporation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// The card's name, exactly as the notation writes it.
    pub name: String,
    /// Card type.
    #[serde(rename = "type")]
    pub kind: CardType,
    /// Printed cost in M€ (projects).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<i32>,
    /// Starting M€ (corporations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starting_mc: Option<i32>,
    /// Tags, repeated for double tags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Requirements to play it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<Requirement>,
    /// Victory points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp: Option<Vp>,
    /// Resource type the card holds (`microbe`, `animal`, `science`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// Effects when played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub play: Vec<Effect>,
    /// A corporation's mandatory first action.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_action: Vec<Effect>,
    /// A blue card's action (once per generation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<CardAction>,
    /// Lasting triggered effects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<Trigger>,
    /// Lasting discounts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discounts: Vec<Discount>,
    /// Global requirements are relaxed by this many steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requirement_bonus: Option<RequirementBonus>,
    /// Lasting payment changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment: Option<PaymentBonus>,
    /// Resources on this card cannot be removed by other players.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub protected: bool,
    /// Plants needed for a greenery are reduced by this much.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub greenery_discount: Option<i32>,
    /// The next card the owner plays costs this much less.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_card_discount: Option<i32>,
    /// Other players may not remove the owner's plants nor the resources of these types from
    /// the owner's cards.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shields: Vec<String>,
    /// Lasting triggers fire in this deferral band (see [`Band`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band: Option<Band>,
    /// The module the card belongs to (`corporate_era`); base game cards name none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
}

/// When a card's triggered effects come among the decisions an action asks, as the public
/// engine orders its deferred actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Band {
    /// Before drawing cards and placing oceans.
    Early,
    /// After the ordinary decisions, before attacks.
    DiscardDraw,
    /// With one's own gains, after attacks.
    Gain,
    /// Last of all.
    Last,
}

/// A blue card's action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardAction {
    /// Extra conditions for the action to be usable.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<Requirement>,
    /// What it does (costs first).
    pub effects: Vec<Effect>,
}

/// Relaxed global requirements.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequirementBonus {
    /// Steps of leeway on every global parameter requirement.
    pub steps: i32,
    /// Only for the next card played.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub next_card_only: bool,
}

/// Lasting payment changes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PaymentBonus {
    /// Extra M€ value of each titanium.
    #[serde(default)]
    pub titanium_value: i32,
    /// Extra M€ value of each steel.
    #[serde(default)]
    pub steel_value: i32,
    /// Heat may pay like M€.
    #[serde(default)]
    pub heat: bool,
}

/// A file of cards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardsFile {
    /// The cards.
    pub cards: Vec<Card>,
}

/// A global parameter's scale.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scale {
    /// Starting value.
    pub start: i32,
    /// Goal value.
    pub goal: i32,
    /// Value of one step.
    pub step: i32,
    /// Bonuses at values reached.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bonuses: Vec<ParamBonus>,
}

/// A bonus when a parameter reaches a value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ParamBonus {
    /// The value that triggers it.
    pub at: i32,
    /// What the raising player gets.
    pub effects: Vec<Effect>,
}

/// The rules file: parameters, starting values, costs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The game this content is for (`terraforming-mars`).
    pub game: String,
    /// Oxygen, temperature and oceans.
    pub parameters: BTreeMap<Param, Scale>,
    /// Terraform rating at the start.
    pub starting_tr: i32,
    /// Production of every resource at the start.
    pub starting_production: Amounts,
    /// Lowest M€ production.
    pub min_mc_production: i32,
    /// Cost of one research card.
    pub card_cost: i32,
    /// Cards drawn in the research phase.
    pub research_draw: i32,
    /// Corporations and project cards dealt at the start.
    pub initial_corporations: i32,
    /// The corporation a beginner plays without choosing; it is never dealt.
    pub beginner_corporation: String,
    /// Project cards dealt at the start.
    pub initial_cards: i32,
    /// M€ value of steel and titanium.
    pub steel_value: i32,
    /// M€ value of titanium.
    pub titanium_value: i32,
    /// Plants per greenery and heat per temperature step (standard actions).
    pub plants_per_greenery: i32,
    /// Heat per temperature step.
    pub heat_per_temperature: i32,
    /// M€ gained per ocean next to a placed tile.
    pub ocean_adjacency_mc: i32,
    /// Milestones: cost, VP, how many may be claimed.
    pub milestone_cost: i32,
    /// VP of a milestone.
    pub milestone_vp: i32,
    /// How many milestones may be claimed.
    pub max_milestones: usize,
    /// Award funding costs, by how many are already funded.
    pub award_costs: Vec<i32>,
    /// VP for first and second place.
    pub award_vp: [i32; 2],
    /// Below this many players, second place gets nothing.
    pub award_second_min_players: usize,
    /// Modules a game may add (cards name theirs with `module`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modules: Vec<Module>,
    /// The solo game.
    pub solo: SoloRules,
    /// What a game uses when its setup does not say (random games, `simulate`).
    #[serde(default)]
    pub defaults: GameOptions,
    /// The numbers the bots value a position by (without them a bot counts the VP alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<BotRules>,
}

/// What the bots' evaluation counts, in VP: the VP on the table, plus what the stock,
/// production, TR and hand may still bring in the generations left. Worths are whole numbers
/// in tenths of an M€ (content numbers are whole), turned into VP at `mc_per_vp`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BotRules {
    /// M€ that buy about one VP.
    pub mc_per_vp: i32,
    /// Global parameter steps raised per seat and generation, to guess the generations left.
    pub pace: i32,
    /// Worth of one unit held, in tenths of an M€ (counted while a generation is left to spend
    /// it).
    #[serde(default)]
    pub stock: Amounts,
    /// Worth of one step of production for each generation left, in tenths of an M€.
    #[serde(default)]
    pub production: Amounts,
    /// Worth of one TR for each generation left (the M€ it pays), in tenths of an M€; the TR
    /// is a VP besides.
    pub tr: i32,
    /// Extra VP per global parameter step raised, in a solo game (won by terraforming in time).
    #[serde(default)]
    pub solo_step_vp: i32,
    /// Worth of a tile a card places, by tile name, in tenths of an M€.
    #[serde(default)]
    pub tiles: BTreeMap<String, i32>,
    /// How cards in hand are valued.
    pub hand: HandRules,
}

/// How the bots value a card in hand: a share of what playing it would bring beyond its cost
/// (production by the generations left, stock, TR, tiles, cards drawn, its printed VP), plus a
/// little per card of its tags the seat already has; nothing when its requirements can no
/// longer be met.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HandRules {
    /// Percent of the card's net worth a card in hand counts for.
    pub share: i32,
    /// Percent of that when a requirement is not met yet (but may be).
    pub later: i32,
    /// Worth of one card drawn, in tenths of an M€.
    pub draw: i32,
    /// Worth of a card action for each generation left, in tenths of an M€.
    pub action: i32,
    /// Worth of VP the card scores by a count (per resource, per tag…), in tenths of an M€.
    pub variable_vp: i32,
    /// Worth per card already held with one of the card's tags (at most `tag_cap` counted), in
    /// tenths of an M€.
    pub per_tag: i32,
    /// Most cards of one tag counted for `per_tag`.
    pub tag_cap: i32,
}

/// A module of cards and the rules it changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Module {
    /// Id, as cards' `module` names it.
    pub id: String,
    /// The recorded games' option naming this module (`corporateEra`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record_option: Option<String>,
    /// Production at the start with this module, replacing `starting_production`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starting_production: Option<Amounts>,
}

/// The solo game's rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SoloRules {
    /// Terraform rating at the start.
    pub starting_tr: i32,
    /// The game ends after this generation; the player wins if Mars is terraformed by then.
    pub generations: u32,
    /// Neutral cities placed at setup, each with a greenery next to it.
    pub neutral_cities: u32,
}

/// Which modules and rule options a game uses.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameOptions {
    /// Module ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modules: Vec<String>,
    /// Draft the research cards in generations after the first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub draft: bool,
}

/// One space of the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Space {
    /// Two-digit id.
    pub id: String,
    /// `land`, `ocean` (reserved for oceans) or `colony` (off-board).
    #[serde(rename = "type")]
    pub kind: SpaceType,
    /// Printed bonus units (`steel`, `titanium`, `plant`, `draw_card`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bonus: Vec<String>,
    /// Printed name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A volcanic space.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub volcanic: bool,
    /// Reserved for one card; excluded from ordinary placement.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reserved: bool,
    /// Neighbour ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adjacent: Vec<String>,
}

/// Kind of space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SpaceType {
    /// Land.
    Land,
    /// Reserved for oceans.
    Ocean,
    /// Off-board.
    Colony,
}

/// The map file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    /// Board name.
    pub name: String,
    /// Spaces, in id order.
    pub spaces: Vec<Space>,
}

/// A standard project.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StandardProject {
    /// Notation id (`power-plant`, …).
    pub id: String,
    /// Cost in M€.
    pub cost: i32,
    /// Effects.
    pub effects: Vec<Effect>,
    /// Not offered in a normal game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub solo_only: bool,
}

/// A scored quantity (milestone condition, award metric).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Metric {
    /// Terraform rating.
    Tr,
    /// Owned tiles of these types (`city` counts every city-like tile, off-board included).
    Tiles(Vec<String>),
    /// Owned tiles of any type except these.
    TilesExcept(Vec<String>),
    /// Tags on played non-event cards.
    Tags(String),
    /// Cards in hand.
    Hand,
    /// Production of a resource.
    Production(Res),
    /// Stock of these resources; during the game projected as stock plus production (plus energy
    /// when `energy_too`).
    Stock {
        /// Resources summed.
        res: Vec<Res>,
        /// Energy is added in the projection (it becomes heat).
        #[serde(default)]
        energy_too: bool,
    },
}

/// A milestone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Milestone {
    /// Name.
    pub name: String,
    /// What is measured.
    pub metric: Metric,
    /// Threshold.
    pub at_least: i32,
}

/// An award.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Award {
    /// Name.
    pub name: String,
    /// What is measured.
    pub metric: Metric,
}

/// Milestones and awards of the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoringFile {
    /// The milestones.
    pub milestones: Vec<Milestone>,
    /// The awards.
    pub awards: Vec<Award>,
}

/// The standard projects file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StandardProjectsFile {
    /// The projects, in menu order.
    pub projects: Vec<StandardProject>,
}

/// The whole game content, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Content {
    /// Where every value came from (base files or an overlay's lines), for `explain` and
    /// `diff`; equal for content that reads the same.
    pub provenance: Arc<Provenance>,
    /// Rules.
    pub rules: Rules,
    /// The map.
    pub map: MapFile,
    /// Standard projects.
    pub standard_projects: Vec<StandardProject>,
    /// Milestones and awards.
    pub scoring: ScoringFile,
    /// Corporations (Beginner Corporation included).
    pub corporations: Vec<Card>,
    /// Project cards.
    pub projects: Vec<Card>,
}

/// The content files and their schemas, in load order (as [`crate::table::FILES`] declares
/// them).
pub const FILES: [(&str, &str); 6] = {
    let f = &crate::table::FILES;
    [
        (f[0].path, f[0].schema),
        (f[1].path, f[1].schema),
        (f[2].path, f[2].schema),
        (f[3].path, f[3].schema),
        (f[4].path, f[4].schema),
        (f[5].path, f[5].schema),
    ]
};

/// Every generated schema, by file name under `schemas/terraforming-mars/`: each content
/// file's, and the overlay's with its values typed by kind and path.
pub fn schemas() -> Vec<(&'static str, serde_json::Value)> {
    crate::table::schemas()
}

/// The content folder of this repository.
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content/terraforming-mars")
}

/// Checks one file's text against its schema and decodes it.
///
/// # Errors
/// Every schema problem, positioned; or the typed decoding error.
pub fn decode<T: serde::de::DeserializeOwned>(
    shown: &str,
    text: &str,
    schema: &serde_json::Value,
) -> Result<T, Vec<Diagnostic>> {
    let doc = SourceDoc::parse(shown, text).map_err(|d| vec![d])?;
    let check = SchemaCheck::new(schema).map_err(|e| vec![Diagnostic::plain(shown, e)])?;
    let problems = check.check(&doc);
    if !problems.is_empty() {
        return Err(problems);
    }
    serde_json::from_value(doc.value().clone())
        .map_err(|e| vec![Diagnostic::new(shown, None, "", e.to_string())])
}

/// Loads and checks the content of a folder.
///
/// # Errors
/// Every problem found, each naming its file (and line:col where known).
pub fn load(dir: &Path) -> Result<Content, Vec<Diagnostic>> {
    load_files(&DirFiles::new(dir))
}

/// Loads and checks a set of content files (a folder, or an in-memory copy such as the one
/// built into the command line) through the core's pipeline ([`crate::table`]). Each file is
/// read within the core's content size limit.
///
/// # Errors
/// Every problem found, each naming its file (and line:col where known).
pub fn load_files(files: &dyn ContentFiles) -> Result<Content, Vec<Diagnostic>> {
    crate::table::load(files, &[])
}
