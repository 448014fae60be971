//! The content kinds: one Rust type per kind of YAML file, each with a JSON Schema.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::effect::{
    granting_struct, Ability, Bundle, Conversion, Effect, Grants, Modifier, SpecialAction, Trigger,
};

/// The game a content folder is for, as its rules file names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum GameName {
    /// Gaia Project.
    #[serde(rename = "gaia-project")]
    GaiaProject,
}

/// `rules.yaml`: game-wide parameters and rule options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The game this content is written for; absent means Gaia Project. The command line
    /// reads it to choose the game (`--game` overrides it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<GameName>,
    /// The game's name.
    pub name: String,
    /// Allowed player counts.
    pub players: Vec<u8>,
    /// Number of rounds.
    pub rounds: u32,
    /// What every player holds from the start, before a faction board is laid out.
    #[serde(default)]
    pub start: Bundle,
    /// Resources a player holds, in display order.
    pub resources: Vec<Resource>,
    /// Boosters in play = players + this number.
    pub extra_boosters: u32,
    /// VP for the places on a final scoring tile (first, second, …).
    pub final_places: Vec<i32>,
    /// Research VP at game end: VP per level reached at or above `from`.
    pub research_scoring: ResearchScoring,
    /// VP per this many leftover resources (summed over `leftover_resources`) at game end; at
    /// least 1 (0 is refused, not read as 1).
    #[schemars(range(min = 1))]
    pub leftover_per_vp: u32,
    /// Resources counted for the leftover VP.
    pub leftover_resources: Vec<String>,
    /// Distance within which neighbours are offered a charge.
    pub charge_distance: u32,
    /// Distance within which another player's structure makes an upgrade cheaper (0: only a
    /// structure on the same space, so none; hooks see the same neighbours).
    pub neighbour_distance: u32,
    /// Base federation threshold.
    pub federation_threshold: u32,
    /// What one satellite costs by default.
    pub satellite_cost: Bundle,
    /// Satellites each player owns at most.
    pub satellites: u32,
    /// What building on a planet of the `gaia` kind costs on top of the building (without a
    /// Gaiaformer of your own there).
    pub gaia_planet_fee: Bundle,
    /// Range gained per unit of `range_resource` paid; at least 1 (0 is refused, not read as 1).
    #[schemars(range(min = 1))]
    pub range_per_qic: u32,
    /// The resource paid for extra range.
    pub range_resource: String,
    /// The resource paid per terraforming step.
    pub terraform_resource: String,
    /// Options that choose between rule readings.
    pub options: RuleOptions,
}

/// One resource.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    /// The code used in bundles and in the notation (`c`, `o`, …).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Most a player may hold (excess is lost); none means no cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap: Option<i32>,
    /// What the bots' position heuristic takes one unit to be worth before the game ends, in
    /// hundredths of a VP (`30`: 0.3 VP; VP themselves are the unit, always worth 1). None:
    /// 30, the worth of anything else the heuristic counts without a rate of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worth_hundredths: Option<u32>,
}

/// End-game research VP.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResearchScoring {
    /// The first level that scores.
    pub from: u32,
    /// VP per scoring level.
    pub vp: i32,
}

/// Rule options where readings of the rules differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleOptions {
    /// How the turn order of the next round is set.
    pub turn_order: TurnOrder,
    /// Convert power and other resources into scoring resources at game end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_conversion: Option<FinalConversion>,
    /// A final scoring tile counted as 0 scores nothing.
    #[serde(default)]
    pub zero_count_scores_nothing: bool,
    /// Refuse step and range actions that would not lower the cost of the build (a hex
    /// reached with the action's extra range must need less QIC than without it), and board
    /// actions whose whole gain is of capped resources already at their caps.
    #[serde(default)]
    pub refuse_useless_actions: bool,
    /// Allow free actions between a main action and its follow-ups (the printed rules do not).
    #[serde(default)]
    pub free_actions_within_actions: bool,
    /// A main action's follow-ups are answered in the order they are owed, those a part opens
    /// before the ones still owed from earlier (a tech tile's research step after the tile;
    /// an advanced tile's cover before its step); one that cannot be done is skipped.
    /// Otherwise they are answered in any order.
    #[serde(default)]
    pub follow_ups_in_order: bool,
    /// A free research step that no track can take is still declined (`decline up`) rather
    /// than lapsing at the end of the turn.
    #[serde(default)]
    pub decline_unusable_research_step: bool,
    /// In the Gaia phase a seat's decision ends only once no Gaia-phase conversion can use its
    /// Gaia-area tokens any more, or after it declined an offered conversion; otherwise it may
    /// end at any time.
    #[serde(default)]
    pub gaia_tokens_used_up: bool,
    /// A seat's income decision ends only once every token gain and charge it orders is
    /// paid (the whole order in one line), unless a special-token question interrupts it;
    /// otherwise it may end after each choice.
    #[serde(default)]
    pub income_order_in_one_decision: bool,
    /// How factions are handed out: chosen in seat order (the printed rules), or auctioned.
    #[serde(default)]
    pub auction: Auction,
    /// Before factions are chosen, the last seat may turn sectors of the map: parts
    /// `rotate <centre> <sixths> …` (the recording platform's notation; pairs of a sector's
    /// centre `QxR` and 0–5 sixths of a turn clockwise), each sector once; every part must
    /// leave the map valid; `endturn` keeps the map as it is.
    #[serde(default)]
    pub rotate_sectors: bool,
}

/// A faction auction: seats bid victory points for factions, paid at the end of the game.
/// A bid must exceed the faction's current bid by 1 to 9; a seat outbid loses the faction and
/// bids again. Play (setup placements, boosters, round 1) follows the order in which the
/// factions were first chosen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Auction {
    /// No auction: each seat's choice is its faction.
    #[default]
    None,
    /// Every seat names a faction first (none is anyone's yet), then seats without a faction
    /// bid on the named ones in turn.
    ChooseBid,
    /// A seat either names a new faction (its own, bid 0) or bids on one already named.
    BidWhileChoosing,
}

/// An automatic end-game conversion: burn all power possible, spend area III for a resource,
/// and exchange resources one for one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FinalConversion {
    /// The resource each point of area-III power becomes.
    pub power_to: String,
    /// One-for-one exchanges, applied in order.
    #[serde(default)]
    pub exchanges: Vec<super::effect::Substitute>,
}

/// Turn order of rounds after the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TurnOrder {
    /// The first to pass starts; play goes on clockwise from them.
    FirstPasserClockwise,
    /// The order of passing becomes the next round's order.
    PassOrder,
}

/// `planets.yaml`: planet types and the terraforming wheel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanetsFile {
    /// The terraforming wheel: planet type ids in cyclic order.
    pub wheel: Vec<String>,
    /// Every planet type and kind of space.
    pub planets: Vec<Planet>,
}

/// A planet type (or empty space).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Planet {
    /// Id (`terra`, `gaia`, …).
    pub id: String,
    /// The letter used in sector strings and records.
    pub letter: char,
    /// Display name.
    pub name: String,
    /// How building on it works.
    pub kind: PlanetKind,
    /// Colour for pictures (`#rrggbb`); also the colour of factions living here unless a
    /// faction names its own. Without one, pictures use grey.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"))]
    pub colour: Option<String>,
}

/// Kinds of spaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlanetKind {
    /// On the terraforming wheel.
    Wheel,
    /// Habitable by everyone for a fee, without terraforming.
    Gaia,
    /// Not habitable until a Gaia project turns it into the `gaia` kind.
    Transdim,
    /// Empty space: satellites and placements on empty space.
    Empty,
    /// A planet created during play on empty space.
    Created,
}

impl PlanetKind {
    /// Whether a faction may have this kind as its home planet.
    pub fn is_home_kind(self) -> bool {
        self == PlanetKind::Wheel
    }
}

/// `sectors.yaml`: sector tiles and map layouts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SectorsFile {
    /// Every sector tile side.
    pub sectors: Vec<Sector>,
    /// Layouts by player count.
    pub layouts: Vec<Layout>,
}

/// One side of a sector tile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sector {
    /// Id with side letter where the tile has two sides (`5A`, `5B`, `1`).
    pub id: String,
    /// The sector number used in hex names (`5`).
    pub label: String,
    /// 19 planet letters: outer ring A0–A11, inner ring B0–B5, centre C.
    pub spaces: String,
}

/// A map layout: slots, the standard arrangement of sectors in them, and how a random map is
/// dealt from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// Player counts this layout is for.
    pub players: Vec<u8>,
    /// Sector ids used: the standard arrangement, one per slot in slot order.
    pub sectors: Vec<String>,
    /// Centres of the slots, axial `[q, r]`.
    pub slots: Vec<[i32; 2]>,
    /// Rotation (sixths of a turn clockwise, 0–5) of each slot's sector in the standard
    /// arrangement, in slot order; absent: all 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rotations: Vec<u8>,
    /// How a random map is dealt from the standard arrangement: each group's sectors are
    /// shuffled among its slots and/or turned at random; a slot in no group keeps its standard
    /// sector and rotation (`[]`: the standard arrangement itself). Absent: one group of every
    /// slot, shuffled and rotated. A map is redrawn until it is valid, a bounded number of times.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<SlotGroup>>,
}

/// Slots of a layout dealt together in a random map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SlotGroup {
    /// Slot indices (0 = the first of the layout's `slots`); a slot belongs to one group at most.
    pub slots: Vec<usize>,
    /// The sectors standing in these slots are shuffled among them (else each stays put).
    #[serde(default)]
    pub shuffle: bool,
    /// Each of these slots' sectors gets a random rotation (else its standard rotation).
    #[serde(default)]
    pub rotate: bool,
}

/// A building (structure) on the faction board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Building {
    /// Id as in the notation (`m`, `ts`, `lab`, `PI`, `ac1`, `ac2`, `gf`, …).
    pub id: String,
    /// Display name.
    pub name: String,
    /// How many the board holds.
    pub count: u32,
    /// What building it costs.
    pub cost: Bundle,
    /// The cost when another player's structure is within the neighbour distance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_near_rival: Option<Bundle>,
    /// Power value for charging and federations.
    pub power_value: u32,
    /// Buildings this one upgrades from; empty: placed on a planet.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrades_from: Vec<String>,
    /// What kind of thing it is on the map.
    #[serde(default)]
    pub role: BuildingRole,
    /// Income revealed by the n-th copy on the map (one list of effects per slot).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub income: Vec<Vec<Effect>>,
    /// What building one gives (e.g. a tech tile) and what having one grants.
    #[serde(default)]
    pub grants: Ability,
}

impl Building {
    /// Whether it colonizes a planet from nothing (a structure that upgrades from nothing).
    pub fn founds_colony(&self) -> bool {
        self.role == BuildingRole::Structure && self.upgrades_from.is_empty()
    }
}

/// What a building is on the map.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BuildingRole {
    /// A structure on a planet: colonizes it.
    #[default]
    Structure,
    /// A Gaiaformer: starts a Gaia project on a Transdim planet.
    Gaiaformer,
    /// A station on empty space: a range start and federation member, not a structure.
    Station,
}

/// `board.yaml`: the standard faction board every faction starts from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// Starting resources.
    pub start: Bundle,
    /// Starting power tokens in areas I, II, III.
    pub power: [u32; 3],
    /// Starting research levels.
    #[serde(default)]
    pub research: BTreeMap<String, u32>,
    /// Base income (always visible).
    pub income: Vec<Effect>,
    /// Buildings.
    pub buildings: Vec<Building>,
    /// Starting placements, by setup pass.
    pub setup: Vec<SetupPlacement>,
    /// Free-action conversions.
    pub conversions: Vec<Conversion>,
}

/// One starting placement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupPlacement {
    /// Building placed.
    pub building: String,
    /// Setup pass: 1 in seat order, 2 in reverse, 3 and later in seat order after all earlier passes.
    pub pass: u32,
    /// Placed before every other placement of its pass, whatever the seat order.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub first_in_pass: bool,
}

/// A faction: its differences from the standard board and its abilities.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Faction {
    /// Id as in the notation (lower case, words joined by `-`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Home planet type.
    pub home: String,
    /// Player colour for pictures (`#rrggbb`); without one, the home planet's colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"))]
    pub colour: Option<String>,
    /// Differences from the standard board.
    #[serde(default)]
    pub board: BoardOverrides,
    /// Abilities (passive, conditional on a building, special actions, conversions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<Ability>,
    /// A special power token of this faction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub special_token: Option<SpecialToken>,
}

/// Differences from the standard board; every field replaces the standard one.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardOverrides {
    /// Starting resources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Bundle>,
    /// Starting power in areas I, II, III.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<[u32; 3]>,
    /// Starting research levels (their level rewards are gained at setup).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub research: Option<BTreeMap<String, u32>>,
    /// Base income.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub income: Option<Vec<Effect>>,
    /// Building changes, by id; fields not given stay standard. New ids add buildings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buildings: Vec<BuildingOverride>,
    /// Starting placements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Vec<SetupPlacement>>,
}

/// Changes to one building.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildingOverride {
    /// Building id.
    pub id: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Count on the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    /// Cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Bundle>,
    /// Cost near a rival.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_near_rival: Option<Bundle>,
    /// Power value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_value: Option<u32>,
    /// Buildings it upgrades from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upgrades_from: Option<Vec<String>>,
    /// Role on the map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<BuildingRole>,
    /// Income per slot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub income: Option<Vec<Vec<Effect>>>,
    /// Grants.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grants: Option<Ability>,
}

/// A faction's special power token (counts as a token, with its own spend value).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialToken {
    /// Id, also the notation verb that places it when the player must choose.
    pub id: String,
    /// Starting area (1–3).
    pub area: u8,
    /// Power it provides when spent from area III.
    pub spend_value: u32,
}

/// `research.yaml`: research tracks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResearchFile {
    /// Knowledge paid for the research main action.
    pub cost: Bundle,
    /// The tracks.
    pub tracks: Vec<Track>,
    /// Rules for the top level.
    pub top_level: TopLevel,
}

/// Restrictions on reaching a track's top level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TopLevel {
    /// Only one player may stand there.
    pub exclusive: bool,
    /// A green federation token must be flipped.
    pub flip_token: bool,
}

/// A research track.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Track {
    /// Id (`terra`, `nav`, …).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Levels 0 to top; `immediate` on arrival, `income` and `modifiers` while standing there.
    pub levels: Vec<Ability>,
}

granting_struct! {
    /// A tile: tech tiles, advanced tech tiles, boosters, round scoring tiles.
    pub struct Tile {
        /// Id as in the notation.
        pub id: String,
        /// Display name. What the tile does is shown from its effects (a generated
        /// description); `validate` warns when a name states a number its effects contradict.
        pub name: String,
    }
}

/// `tech-tiles.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TechTilesFile {
    /// Standard tech tiles.
    pub tiles: Vec<Tile>,
    /// Board positions for standard tiles: a track id (advance there) or a free position.
    pub positions: Vec<TechPosition>,
}

/// A position for a standard tech tile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TechPosition {
    /// Id as in the notation (`terra`, `free1`).
    pub id: String,
    /// The track the free advance must use; none: any track.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<String>,
}

/// `advanced-tech-tiles.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdvancedTilesFile {
    /// Advanced tech tiles.
    pub tiles: Vec<Tile>,
    /// Minimum level on the position's track to take one.
    pub min_level: u32,
    /// Position id prefix; the position of track `t` is `<prefix><t>`.
    pub position_prefix: String,
}

/// `boosters.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoostersFile {
    /// Round boosters.
    pub boosters: Vec<Tile>,
}

/// `round-scoring.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundScoringFile {
    /// Round scoring tiles (their triggers are active in their round).
    pub tiles: Vec<Tile>,
}

/// `final-scoring.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FinalScoringFile {
    /// Final scoring tiles.
    pub tiles: Vec<FinalTile>,
    /// How many are used per game.
    pub per_game: u32,
}

/// A final scoring tile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FinalTile {
    /// Id.
    pub id: String,
    /// Description.
    pub name: String,
    /// What is counted.
    pub count: super::effect::Count,
    /// The neutral player's count in 2-player games.
    pub neutral: u32,
}

/// `federation-tokens.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FederationTokensFile {
    /// Federation tokens.
    pub tokens: Vec<FederationToken>,
}

/// A federation token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FederationToken {
    /// Id.
    pub id: String,
    /// Description.
    pub name: String,
    /// Copies in the supply (0: not in the supply, gained only by a named effect).
    pub copies: u32,
    /// Whether it arrives green (can be flipped to pay for a top level or an advanced tile).
    pub green: bool,
    /// May be drawn for the Terraforming track top.
    #[serde(default)]
    pub track_token: bool,
    /// Reward.
    pub reward: Vec<Effect>,
}

/// `board-actions.yaml`: shared action spaces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardActionsFile {
    /// Power and QIC actions.
    pub actions: Vec<BoardAction>,
}

/// A shared action space, usable once per round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardAction {
    /// Id as in the notation (`action <id>`).
    pub id: String,
    /// Cost.
    pub cost: Bundle,
    /// Effects.
    pub effects: Vec<Effect>,
}
