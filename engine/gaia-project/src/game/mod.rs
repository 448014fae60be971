//! A game in progress: state, the decisions it waits for, and transactional application of
//! move lines. The flow (setup, rounds of income, Gaia phase, actions, clean-up, final scoring)
//! is the same for every game of the family; what each step gives comes from content.

mod actions;
mod build;
mod bundle;
mod charge;
mod coded_costs;
mod colonize;
mod conversion_form;
mod convert;
mod effects;
mod eval;
mod federate;
mod follow;
mod handles;
mod happened;
mod hook_protocol;
mod hook_trials;
mod hooks;
mod income_event;
pub mod invariants;
mod legal;
mod line;
mod main_first;
mod memo;
pub mod part_delta;
mod pass;
mod per_content;
mod phases;
mod placement;
mod playable;
mod player_list;
mod prefetch;
mod question;
mod queue;
mod research;
mod rotation;
pub mod saved;
mod seat_grants;
mod seat_list;
mod seat_map;
mod setup;
mod special;
mod state_check;
#[cfg(test)]
mod state_layout;
mod status;
mod structures;
mod tech;
mod turn;
mod upgrade;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::board::FactionBoard;
use crate::content::{Content, Faction, Grants, Modifier};
use crate::map::{ListedHex, Map, MapError, Placement};
use crate::notation::{self, Command, HexRef, MoveLine, Word};
use crate::player::Player;
use orrery_core::hex::Hex;
use orrery_core::rng::Rng;
use orrery_core::shared::Shared;

pub use follow::{Follow, TurnProgress};
pub use happened::ChargeFrom;
pub use hook_protocol::{
    HookCall, HookCalls, DEFAULT_HOOK_BUDGET, KEPT_HOOK_CALLS, KEPT_HOOK_ERRORS, MAX_HOOK_AMOUNT,
};
pub use income_event::IncomeEvent;
pub(crate) use line::LineStop;
pub use question::Question;
pub use structures::{OnSpace, Structures};

/// The explicit setup of a game: map and tiles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Number of players.
    #[serde(default)]
    pub players: usize,
    /// Sector placement.
    pub sectors: Vec<Placement>,
    /// Standard tech tile per position.
    pub techs: BTreeMap<String, String>,
    /// Copies per standard position.
    pub tech_counts: BTreeMap<String, u32>,
    /// Advanced tile per position.
    pub adv_techs: BTreeMap<String, String>,
    /// The federation token on the top of the track that holds one.
    pub terra_fed_token: Option<String>,
    /// Federation tokens in the supply.
    pub federation_tokens: BTreeMap<String, u32>,
    /// Round scoring tile per round, round 1 first.
    pub round_scoring: Vec<String>,
    /// Final scoring tiles.
    pub final_scoring: Vec<String>,
    /// Boosters in the game.
    pub boosters: Vec<String>,
    /// Every space of the map with its planet, when the setup lists them (records do): then
    /// the list is the map (see [`Map::with_listed`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hexes: Option<Vec<ListedHex>>,
}

/// Why a setup cannot start a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The map cannot be built.
    #[error(transparent)]
    Map(#[from] MapError),
    /// The setup names something the content lacks.
    #[error("the setup names {kind} \"{id}\", which the content lacks")]
    Unknown {
        /// What kind of thing (`tech tile`, `booster`, …).
        kind: &'static str,
        /// Its id.
        id: String,
    },
    /// A player count the content does not play with.
    #[error("players: {players} is not a player count of the content ({allowed:?})")]
    Players {
        /// The count asked for.
        players: usize,
        /// The counts `rules.players` allows.
        allowed: Vec<u8>,
    },
}

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MoveError(pub String);

/// Shorthand for a refusal.
pub(crate) fn err<T>(msg: impl Into<String>) -> Result<T, MoveError> {
    Err(MoveError(msg.into()))
}

/// A decision the game waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    /// Turn sectors of the map before factions are chosen (rule option `rotate_sectors`).
    Rotate(usize),
    /// Choose a faction.
    Faction(usize),
    /// Bid for one of the chosen factions (faction auction).
    Bid(usize),
    /// Place a starting building.
    Place(usize, Word),
    /// Choose a starting booster.
    Booster(usize),
    /// Order token gains and charges of income.
    Income(usize),
    /// Gaia-phase choices.
    Gaia(usize),
    /// Take a turn.
    Turn(usize),
    /// Answer an open question about the special token.
    Answer(usize),
    /// Accept or decline a charge offered by another player's building.
    Leech {
        /// Who is offered.
        seat: usize,
        /// Power value that sets the offer.
        value: u32,
        /// The building that offers it (absent in states saved before it was recorded).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<ChargeFrom>,
    },
}

impl Decision {
    /// The seat that must decide.
    pub fn seat(&self) -> usize {
        match self {
            Decision::Rotate(s)
            | Decision::Faction(s)
            | Decision::Bid(s)
            | Decision::Place(s, _)
            | Decision::Booster(s)
            | Decision::Income(s)
            | Decision::Gaia(s)
            | Decision::Turn(s)
            | Decision::Answer(s) => *s,
            Decision::Leech { seat, .. } => *seat,
        }
    }
}

/// A building on the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Structure {
    /// Owner seat.
    pub seat: usize,
    /// Building id.
    pub building: Word,
    /// Placed on a planet another player colonized first.
    #[serde(default)]
    pub shared: bool,
    /// Not taken from the faction board (a planet created during play).
    #[serde(default)]
    pub off_board: bool,
}

/// A Gaiaformer on the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gaiaformer {
    /// Owner seat.
    pub seat: usize,
    /// Where.
    pub hex: Hex,
    /// Round placed.
    pub round: u32,
}

pub use player_list::PlayerList;
pub use queue::DecisionQueue;
pub use seat_list::SeatList;

/// Takes the first seat off a list.
fn pop_front(list: &mut SeatList) -> Option<usize> {
    list.pop_front()
}

/// The phase the game is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Before the first round.
    Setup,
    /// Income phase.
    Income,
    /// Gaia phase.
    Gaia,
    /// Action phase.
    Actions,
    /// The game is over.
    Finished,
}

/// Everything that changes during a game. Plain data: clone it to explore, save it as JSON.
/// Its collections are [`Shared`] (copy on write): a clone shares them until one side
/// changes one, so a clone costs reference counts and the copy a transaction keeps for undo
/// ends up copying only what the part changed. Laid out as written (`repr(C)`): what every
/// listing reads comes first, what a round's end, a phase or saving reads after (see
/// `game/state_layout.rs`); a saved state's fields come in the same order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[repr(C)]
pub struct GameState {
    /// The decision being taken part by part (taken off the queue by its first part).
    #[serde(default)]
    pub open: Option<Decision>,
    /// An open question about a special token (rare: boxed, so it keeps no room here).
    #[serde(default)]
    pub question: Option<Box<Question>>,
    /// Seats' players, each shared by clones until changed (held inline: [`PlayerList`]).
    pub players: PlayerList,
    /// Buildings by space index, in one list sorted by space (see [`Structures`]).
    pub structures: Shared<Structures>,
    /// The map (fixed for the game, so clones share it).
    pub map: Arc<Map>,
    /// Current planet of each space (by map space index), as content planet index.
    pub planets: Shared<Vec<u8>>,
    /// Gaiaformers on the map.
    pub gaiaformers: Shared<Vec<Gaiaformer>>,
    /// Board actions used this round.
    pub actions_used: Shared<Vec<Word>>,
    /// Federation tokens in the supply.
    pub fed_supply: Shared<BTreeMap<Word, u32>>,
    /// Boosters available.
    pub boosters: Shared<Vec<Word>>,
    /// Standard tiles left per position.
    pub tech_left: Shared<BTreeMap<Word, u32>>,
    /// Advanced tiles still on the board, by position.
    pub adv_left: Shared<BTreeMap<Word, Word>>,
    /// Round (0 during setup).
    pub round: u32,
    /// Stage.
    pub stage: Stage,
    /// The seat whose turn was taken last.
    pub current: Option<usize>,
    /// Decisions waited for, first first (held inline: [`DecisionQueue`]).
    pub queue: DecisionQueue,
    /// What the open decision has done so far.
    #[serde(default)]
    pub turn: TurnProgress,
    /// Turn order of the current round.
    pub order: SeatList,
    /// Order of passing in the current round.
    pub passed_order: SeatList,
    /// The setup (fixed for the game, so clones share it).
    pub setup: Arc<Setup>,
    /// The token on top of a track, until taken.
    pub track_token: Option<Word>,
    /// Income events not yet paid, by seat, in order.
    pub income_pending: Shared<BTreeMap<usize, Vec<IncomeEvent>>>,
    /// Seats still to go through the Gaia phase, in turn order (held inline).
    #[serde(default)]
    pub gaia_todo: SeatList,
    /// Seats whose income is still to be paid this round, in turn order (held inline).
    #[serde(default)]
    pub income_todo: SeatList,
    /// Factions named so far, in the order they were first chosen (the table order of an
    /// auction game).
    #[serde(default)]
    pub chosen: Shared<Vec<Word>>,
    /// VP each seat bid for its faction (paid at the end of the game).
    #[serde(default)]
    pub bids: Shared<Vec<u32>>,
    /// Decisions completed (move lines applied).
    pub moves: usize,
    /// Random generator.
    pub rng: Rng,
}

/// A map keyed by ids, keyed by words.
fn word_keys<V: Clone>(m: &BTreeMap<String, V>) -> BTreeMap<Word, V> {
    m.iter()
        .map(|(k, v)| (Word::from(k.as_str()), v.clone()))
        .collect()
}

/// What a seat's faction fixes for the whole game, worked out from the content once.
#[derive(Debug)]
struct SeatFixed {
    /// The faction's index in the content.
    faction: usize,
    /// The faction board.
    board: FactionBoard,
    /// Terraforming steps from the home type to each planet type, by content planet index.
    wheel_steps: Vec<u32>,
    /// The board's conversions in the form listing reads.
    board_conversions: Vec<conversion_form::ConversionForm>,
    /// The costs listing checks on every main action, their codes resolved.
    costs: coded_costs::FixedCosts,
    /// The condition hooks the faction's abilities and buildings name.
    condition_hooks: Vec<crate::content::ScriptRef>,
    /// Which of the modifiers read on every payment and gain the seat could ever hold.
    may: MayHave,
}

/// Which of the modifiers read on every payment, gain or charge (`substitute`,
/// `area3_token_value`, `gaia_return_area`, `burn_to_gaia`, `charge_gains_tokens`) anything a
/// seat could own names, and whether it could own a conversion of the Gaia phase:
/// its faction's abilities and board buildings, every research level, tile and booster. A
/// seat that could never hold one skips the walk over its grants that looks for it. The same
/// for triggers: which kinds of event anything it could own has a trigger on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MayHave {
    /// A `substitute` modifier.
    pub(crate) substitute: bool,
    /// An `area3_token_value` modifier.
    pub(crate) area3_token_value: bool,
    /// A `gaia_return_area` modifier.
    pub(crate) gaia_return_area: bool,
    /// A `burn_to_gaia` modifier.
    pub(crate) burn_to_gaia: bool,
    /// A `charge_gains_tokens` modifier.
    pub(crate) charge_gains_tokens: bool,
    /// A conversion of the Gaia phase.
    pub(crate) gaia_conversion: bool,
    /// The kinds of event a trigger it could own reacts to, a bit each
    /// ([`MayHave::event_bit`]).
    pub(crate) triggers: u8,
    /// A trigger it could own (or a round's scoring tile) or a faction ability's immediate
    /// effects may leave follow-ups owed or run an effect hook
    /// ([`hook_trials::brings_follows`]).
    pub(crate) follow_triggers: bool,
}

impl MayHave {
    /// Every one possible: what a seat without worked-out facts is taken to have.
    const ALL: MayHave = MayHave {
        substitute: true,
        area3_token_value: true,
        gaia_return_area: true,
        burn_to_gaia: true,
        charge_gains_tokens: true,
        gaia_conversion: true,
        triggers: u8::MAX,
        follow_triggers: true,
    };

    /// The bits of the kinds of event in [`MayHave::triggers`].
    pub(crate) const BUILT: u8 = 1;
    pub(crate) const RESEARCH_STEP: u8 = 2;
    pub(crate) const TERRAFORM_STEP: u8 = 4;
    pub(crate) const FEDERATION_TOKEN: u8 = 8;
    pub(crate) const CHARGE_ACCEPTED: u8 = 16;

    /// The bit of a kind of event in [`MayHave::triggers`].
    pub(crate) fn event_bit(event: &crate::content::Event) -> u8 {
        use crate::content::Event;
        match event {
            Event::Built(_) => MayHave::BUILT,
            Event::ResearchStep => MayHave::RESEARCH_STEP,
            Event::TerraformStep => MayHave::TERRAFORM_STEP,
            Event::FederationToken => MayHave::FEDERATION_TOKEN,
            Event::ChargeAccepted => MayHave::CHARGE_ACCEPTED,
        }
    }

    /// Whether anything the seat could own has a trigger on events of this bit.
    pub(crate) fn may_trigger(self, bit: u8) -> bool {
        self.triggers & bit != 0
    }

    /// What anything a seat of this faction and board could own names (the sources
    /// [`Player::each_active`] walks).
    fn of(content: &Content, faction: &Faction, board: &FactionBoard) -> MayHave {
        let mut may = MayHave {
            substitute: false,
            area3_token_value: false,
            gaia_return_area: false,
            burn_to_gaia: false,
            charge_gains_tokens: false,
            gaia_conversion: false,
            triggers: 0,
            follow_triggers: false,
        };
        let follows =
            |effects: &[crate::content::Effect]| hook_trials::brings_follows(content, effects);
        let mut see = |g: Grants<'_>| {
            for m in g.modifiers {
                match m {
                    Modifier::Substitute(_) => may.substitute = true,
                    Modifier::Area3TokenValue(_) => may.area3_token_value = true,
                    Modifier::GaiaReturnArea(_) => may.gaia_return_area = true,
                    Modifier::BurnToGaia => may.burn_to_gaia = true,
                    Modifier::ChargeGainsTokens(_) => may.charge_gains_tokens = true,
                    _ => {}
                }
            }
            may.gaia_conversion |= g
                .conversions
                .iter()
                .any(|c| c.phase == crate::content::Phase::Gaia);
            for t in g.triggers {
                may.triggers |= MayHave::event_bit(&t.on);
                may.follow_triggers |= follows(&t.effects);
            }
        };
        for a in &faction.abilities {
            see(a.grants());
        }
        for b in &board.buildings {
            see(b.grants.grants());
        }
        for t in &content.research.tracks {
            for l in &t.levels {
                see(l.grants());
            }
        }
        let tiles = content
            .tech_tiles
            .tiles
            .iter()
            .chain(&content.advanced_tiles.tiles)
            .chain(&content.boosters.boosters);
        for t in tiles {
            see(t.grants());
        }
        may.follow_triggers |= faction.abilities.iter().any(|a| follows(&a.immediate))
            || (content.round_scoring.tiles.iter())
                .any(|t| t.grants().triggers.iter().any(|t| follows(&t.effects)));
        may
    }
}

/// The seats' fixed facts of every faction, worked out once per content.
static FIXED: per_content::PerContent<SeatFixed> = per_content::PerContent::new();

/// The fixed facts of each seat (`None` before it has a faction), each shared by every game
/// of the content.
type Seats = Arc<Vec<Option<Arc<SeatFixed>>>>;

impl SeatFixed {
    /// The fixed values of a faction by id, worked out once per content and shared; `None`
    /// for an unknown or empty id.
    fn of(content: &Arc<Content>, faction: &str) -> Option<Arc<SeatFixed>> {
        let index = crate::lookup::index_of(&content.factions, faction)?;
        Some(FIXED.get(content, index, || SeatFixed::resolved(content, index)))
    }

    /// The fixed values of the faction at `index`, its board resolved.
    fn resolved(content: &Content, index: usize) -> SeatFixed {
        let f = &content.factions[index];
        let board = FactionBoard::resolve(&content.board, f);
        let wheel = &content.planets.wheel;
        let home = wheel.iter().position(|p| *p == f.home);
        let n = wheel.len() as i32;
        let wheel_steps = content
            .planets
            .planets
            .iter()
            .map(
                |planet| match (home, wheel.iter().position(|p| *p == planet.id)) {
                    (Some(a), Some(b)) => {
                        let d = (b as i32 - a as i32).rem_euclid(n);
                        d.min(n - d) as u32
                    }
                    _ => 0,
                },
            )
            .collect();
        let board_conversions = conversion_form::ConversionForm::list(content, &board.conversions);
        let condition_hooks = hook_protocol::condition_hooks(f, &board);
        let may = MayHave::of(content, f, &board);
        let costs = coded_costs::FixedCosts::of(content, &board);
        SeatFixed {
            faction: index,
            board,
            wheel_steps,
            board_conversions,
            costs,
            condition_hooks,
            may,
        }
    }
}

/// A game: content plus state.
#[derive(Debug, Clone)]
pub struct Game {
    /// The content.
    pub content: Arc<Content>,
    /// The state.
    pub state: GameState,
    /// What each seat's faction fixes for the game (derived from content).
    seats: Seats,
    /// Remembered search results, shared by clones.
    memo: memo::Memo,
    /// A hook may run in this game (content names one that a seated faction or the shared
    /// parts hold; before every seat has its faction, content names one at all): listing
    /// then tries on a copy the parts a hook's answer can decide ([`Game::needs_trial`]).
    hooked: bool,
    /// Where content names hooks, worked out once for the game.
    naming: Arc<hook_protocol::HookNaming>,
    /// The event a trigger's hooks see while it is being fired.
    event: Option<serde_json::Value>,
    /// Content has triggers that react to other seats' events.
    watching: bool,
    /// The operations the game's hooks have run against its budget, and the first errors
    /// they met; shared by clones (listing's copies, bots' lookahead), so all count.
    ledger: Arc<hook_protocol::HookLedger>,
}

impl Game {
    /// A new game with an explicit setup, waiting for faction choices.
    pub fn new(content: Arc<Content>, setup: Setup) -> Result<Game, SetupError> {
        setup.check(&content)?;
        let map = match &setup.hexes {
            Some(listed) => Map::with_listed(&content, &setup.sectors, listed)?,
            None => Map::build(&content, &setup.sectors)?,
        };
        let planets = map.spaces.iter().map(|s| s.planet).collect();
        let players: Vec<Player> = (0..setup.players)
            .map(|_| Player::seated(&content))
            .collect();
        let mut players = players;
        for p in &mut players {
            for (code, n) in content.rules.start.iter() {
                p.add(&content, code, n, "start");
            }
        }
        let state = GameState {
            map: Arc::new(map),
            planets,
            structures: Shared::default(),
            gaiaformers: Shared::default(),
            players: players.into_iter().map(Shared::new).collect(),
            round: 0,
            stage: Stage::Setup,
            order: (0..setup.players).collect(),
            passed_order: SeatList::new(),
            current: None,
            actions_used: Shared::default(),
            boosters: setup
                .boosters
                .iter()
                .map(|b| Word::from(b.as_str()))
                .collect(),
            tech_left: word_keys(&setup.tech_counts).into(),
            adv_left: setup
                .adv_techs
                .iter()
                .map(|(k, v)| (Word::from(k.as_str()), Word::from(v.as_str())))
                .collect(),
            fed_supply: word_keys(&setup.federation_tokens).into(),
            track_token: setup.terra_fed_token.as_deref().map(Word::from),
            queue: (setup.players.checked_sub(1))
                .filter(|_| content.rules.options.rotate_sectors)
                .map(Decision::Rotate)
                .into_iter()
                .chain((0..setup.players).map(Decision::Faction))
                .collect(),
            income_pending: Shared::default(),
            income_todo: SeatList::new(),
            gaia_todo: SeatList::new(),
            question: None,
            open: None,
            turn: Default::default(),
            chosen: Shared::default(),
            bids: vec![0; setup.players].into(),
            moves: 0,
            rng: Rng::new(0),
            setup: Arc::new(setup),
        };
        Ok(Game::holding(content, state))
    }

    /// A game around a state, with nothing worked out yet: what content names (hooks,
    /// watchers) read from it, empty per-seat facts, memo and ledger.
    fn holding(content: Arc<Content>, state: GameState) -> Game {
        let naming = hook_protocol::HookNaming::of(&content);
        Game {
            hooked: naming.any(),
            naming: Arc::new(naming),
            watching: happened::content_watches(&content),
            content,
            state,
            seats: Arc::default(),
            memo: Default::default(),
            event: None,
            ledger: Arc::default(),
        }
    }

    /// A game resumed from a state this crate made (a clone's state, a test's): not checked.
    /// From outside, use [`Game::load`].
    pub(crate) fn from_state(content: Arc<Content>, mut state: GameState) -> Game {
        Arc::make_mut(&mut state.map).reindex();
        let mut g = Game::holding(content, state);
        g.refresh_seats();
        g
    }

    /// Sets the seats' fixed values from their factions (a seat whose faction the content
    /// lacks gets none).
    fn refresh_seats(&mut self) {
        self.seats = Arc::new(
            self.state
                .players
                .iter()
                .map(|p| SeatFixed::of(&self.content, &p.faction))
                .collect(),
        );
        self.hooked = self.hooks_live();
    }

    /// Whether a hook may run in this game: the shared parts of content name one, or a
    /// seat's faction does; a seat without its faction yet could choose any.
    fn hooks_live(&self) -> bool {
        let naming = &self.naming;
        if !naming.any() {
            return false;
        }
        let seated = |fixed: &Option<Arc<SeatFixed>>| match fixed {
            Some(f) => naming.factions.get(f.faction) != Some(&false),
            None => true,
        };
        naming.shared
            || self.seats.iter().any(seated)
            || self.seats.len() < self.state.players.len()
    }

    /// The decision waited for, if any.
    pub fn next_decision(&self) -> Option<&Decision> {
        self.state.queue.front()
    }

    /// Whether the game is over.
    pub fn finished(&self) -> bool {
        self.state.stage == Stage::Finished
    }

    /// Applies one move line in the notation. On error the state is unchanged.
    pub fn apply_text(&mut self, line: &str) -> Result<(), MoveError> {
        let parsed = notation::parse_line(line).map_err(|e| MoveError(e.to_string()))?;
        self.apply(&parsed)
    }

    /// Applies one parsed move line: one whole decision, its parts in order, ended by an
    /// `endturn` part or by the end of the line. On error the state is unchanged.
    pub fn apply(&mut self, line: &MoveLine) -> Result<(), MoveError> {
        self.transaction(|g| g.apply_line(line))
    }

    /// Applies a move line in the notation, as [`Game::apply_text`], for a caller that gives
    /// the game up when the line is refused (a record's replay): no undo copy of the state is
    /// taken, so on error the game may be left part-way through the line, fit only to be
    /// dropped or asked for its hook errors.
    pub fn apply_text_unguarded(&mut self, line: &str) -> Result<(), MoveError> {
        let parsed = notation::parse_line(line).map_err(|e| MoveError(e.to_string()))?;
        self.apply_line(&parsed)
    }

    /// Applies one part of the decision at hand (taking the decision off the queue if it is
    /// not open yet); `endturn` ends the decision. On error the state is unchanged.
    pub fn apply_part(&mut self, part: &Command) -> Result<(), MoveError> {
        // A free action, the end of a decision, an answer to a charge offer or a common main
        // action whose checks all pass before its first change needs no undo copy.
        if let Some(done) = self.free_action_checked_first(part) {
            return done;
        }
        if (*part == Command::EndTurn && self.end_checked_first())
            || self.charge_checked_first(part)
            || self.main_checked_first(part)
        {
            return self.part(part);
        }
        self.transaction(|g| g.part(part))
    }

    /// The game with one part applied, as [`Game::apply_part`], for a caller that gives the
    /// game up when the part is refused (a trial on a copy): on error the game is dropped
    /// with the refusal, so no undo copy of the state is taken.
    pub fn with_part(mut self, part: &Command) -> Result<Game, MoveError> {
        self.apply_part_unguarded(part)?;
        Ok(self)
    }

    /// Applies one part, as [`Game::apply_part`], for a caller that gives the game up when
    /// the part is refused (a game played to its end): no undo copy of the state is taken,
    /// so on error the game may be left part-way through the part, fit only to be dropped
    /// or asked for its hook errors.
    pub fn apply_part_unguarded(&mut self, part: &Command) -> Result<(), MoveError> {
        self.part(part)
    }

    /// Runs `f`; if it fails, the state is restored. The saved copy shares every collection
    /// with the state (see [`GameState`]): only what `f` changes is copied.
    fn transaction(
        &mut self,
        f: impl FnOnce(&mut Game) -> Result<(), MoveError>,
    ) -> Result<(), MoveError> {
        let saved = self.state.clone();
        let seats = self.seats.clone();
        let hooked = self.hooked;
        let r = f(self);
        if r.is_err() {
            self.state = saved;
            self.seats = seats;
            self.hooked = hooked;
        }
        r
    }

    /// The seat that decides next (the open decision's, else the queue head's).
    pub fn deciding_seat(&self) -> Option<usize> {
        self.state
            .open
            .as_ref()
            .or(self.state.queue.front())
            .map(Decision::seat)
    }

    /// Whether the open decision can take nothing but its end: a one-part decision that was
    /// made (no question left open), or a turn after passing.
    pub(crate) fn decision_done(&self) -> bool {
        self.state.open.is_some()
            && self.state.question.is_none()
            && (self.state.turn.passed
                || (self.state.turn.decided
                    && !matches!(self.state.open, Some(Decision::Income(_)))))
    }

    /// One part: opens the decision if needed, then applies the part or ends the decision;
    /// then condition hooks, if content names any, are asked again.
    pub(crate) fn part(&mut self, part: &Command) -> Result<(), MoveError> {
        self.part_alone(part)?;
        if self.hooked {
            self.refresh_conditions()?;
        }
        Ok(())
    }

    /// [`Game::part`] without asking condition hooks.
    fn part_alone(&mut self, part: &Command) -> Result<(), MoveError> {
        let decision = match &self.state.open {
            Some(d) => d.clone(),
            None => {
                let Some(d) = self.take_decision() else {
                    return err("the game is over");
                };
                self.open_decision(&d);
                d
            }
        };
        if *part == Command::EndTurn {
            return self.close_decision(&decision);
        }
        match decision {
            Decision::Rotate(s) => self.rotate_sectors(s, part),
            Decision::Faction(s) => self.once(|g| g.choose_faction(s, part)),
            Decision::Bid(s) => self.once(|g| g.bid(s, part)),
            Decision::Place(s, b) => self.once(|g| g.place_start(s, &b, part)),
            Decision::Booster(s) => self.once(|g| g.start_booster(s, part)),
            Decision::Income(s) => self.income_part(s, part),
            Decision::Gaia(s) => self.gaia_part(s, part),
            Decision::Turn(s) => self.turn_step(s, part),
            Decision::Leech { seat, value, from } => self.charge_part(seat, value, from, part),
            Decision::Answer(s) => self.answer_part(s, part),
        }
    }

    /// Takes the first decision off the queue.
    fn take_decision(&mut self) -> Option<Decision> {
        self.state.queue.pop_front()
    }

    /// A decision made by exactly one part.
    fn once(
        &mut self,
        f: impl FnOnce(&mut Game) -> Result<(), MoveError>,
    ) -> Result<(), MoveError> {
        if self.state.turn.decided {
            return err("already decided: end the turn");
        }
        f(self)?;
        self.state.turn.decided = true;
        Ok(())
    }

    fn open_decision(&mut self, d: &Decision) {
        self.state.open = Some(d.clone());
        self.state.turn = TurnProgress::default();
        match d {
            Decision::Turn(s) => self.state.current = Some(*s),
            Decision::Gaia(_) => self.state.turn.main = true,
            _ => {}
        }
    }

    /// Ends the open decision, then runs the automatic steps up to the next decision.
    fn close_decision(&mut self, d: &Decision) -> Result<(), MoveError> {
        match d {
            Decision::Faction(_)
            | Decision::Bid(_)
            | Decision::Place(..)
            | Decision::Booster(_) => {
                if !self.state.turn.decided {
                    return err("nothing was decided");
                }
            }
            Decision::Rotate(_) => {}
            Decision::Turn(s) => self.end_turn(*s)?,
            Decision::Leech { seat, value, .. } => self.end_charge(*seat, *value)?,
            Decision::Gaia(s) => self.end_gaia(*s)?,
            Decision::Income(s) | Decision::Answer(s) => {
                if !self.state.turn.decided {
                    return err(match d {
                        Decision::Income(_) => "expected `income <reward>,…`",
                        _ => "expected an answer",
                    });
                }
                if matches!(d, Decision::Income(_)) && self.income_order_owed(*s) {
                    return err("the income is not complete: order the rest in the same line");
                }
                self.settle_income(*s);
            }
        }
        self.state.open = None;
        self.state.turn = TurnProgress::default();
        self.state.moves += 1;
        self.queue_open_question();
        self.advance()
    }

    /// Forgets remembered search results (shared with clones); results never change, so
    /// this only matters for measuring searches from scratch.
    pub fn forget_memo(&self) {
        self.memo.clear();
    }

    /// How a seat is named in messages.
    pub fn seat_name(&self, seat: usize) -> String {
        let f = &self.state.players[seat].faction;
        if f.is_empty() {
            format!("p{}", seat + 1)
        } else {
            f.to_string()
        }
    }

    pub(crate) fn faction(&self, seat: usize) -> &Faction {
        match self.seats.get(seat).and_then(Option::as_ref) {
            Some(fixed) => &self.content.factions[fixed.faction],
            None => self
                .content
                .faction(&self.state.players[seat].faction)
                .expect("seat has a faction"),
        }
    }

    pub(crate) fn board(&self, seat: usize) -> &FactionBoard {
        &self.fixed(seat).board
    }

    /// Terraforming steps from the seat's home type to each planet type, by content planet
    /// index (0 for a type off the wheel).
    pub(crate) fn wheel_steps(&self, seat: usize) -> &[u32] {
        &self.fixed(seat).wheel_steps
    }

    /// [`SeatFixed::board_conversions`] of a seat.
    pub(crate) fn board_conversions(&self, seat: usize) -> &[conversion_form::ConversionForm] {
        &self.fixed(seat).board_conversions
    }

    /// [`SeatFixed::costs`] of a seat.
    pub(crate) fn fixed_costs(&self, seat: usize) -> &coded_costs::FixedCosts {
        &self.fixed(seat).costs
    }

    /// Which of the modifiers read on every payment and gain the seat could ever hold (all,
    /// when its facts are not worked out).
    pub(crate) fn may_have(&self, seat: usize) -> MayHave {
        self.seats
            .get(seat)
            .and_then(Option::as_ref)
            .map_or(MayHave::ALL, |f| f.may)
    }

    fn fixed(&self, seat: usize) -> &SeatFixed {
        self.seats[seat].as_ref().expect("seat has a faction")
    }

    /// The modifiers in force for a seat.
    pub(crate) fn modifiers(&self, seat: usize) -> SmallVec<[&Modifier; 16]> {
        let mut out = SmallVec::new();
        // Most grants bring no modifier: pushed one by one, an empty list skipped cheaply.
        self.each_grant(seat, |g| {
            for m in g.modifiers {
                out.push(m);
            }
        });
        out
    }

    /// Calls `f` with everything active for a seat, in income order, without collecting it.
    pub(crate) fn each_grant<'a>(&'a self, seat: usize, f: impl FnMut(Grants<'a>)) {
        self.state.players[seat].each_active(&self.content, self.faction(seat), self.board(seat), f)
    }

    /// Resolves a hex reference on this map.
    pub fn hex(&self, h: &HexRef) -> Result<Hex, MoveError> {
        let hex = match h {
            HexRef::Named { sector, position } => self
                .state
                .map
                .hex_named(sector, position)
                .ok_or_else(|| MoveError(format!("no hex {sector}{position} on this map")))?,
            HexRef::Axial { q, r } => Hex::new(*q, *r),
        };
        if self.state.map.space(hex).is_none() {
            return err(format!("{hex} is not on the map"));
        }
        Ok(hex)
    }

    /// The name of a hex for messages.
    pub fn hex_name(&self, hex: Hex) -> String {
        self.state
            .map
            .name_of(hex)
            .unwrap_or_else(|| hex.to_string())
    }

    /// The seats with the most VP once the game is over (equal totals share the victory).
    pub fn winners(&self) -> Vec<usize> {
        if !self.finished() {
            return Vec::new();
        }
        let scores = self.scores();
        let top = scores.iter().copied().max().unwrap_or(0);
        (0..scores.len()).filter(|&s| scores[s] == top).collect()
    }

    /// VP per seat.
    pub fn scores(&self) -> Vec<i32> {
        self.state
            .players
            .iter()
            .map(|p| p.resource(&self.content, crate::player::VP))
            .collect()
    }
}
