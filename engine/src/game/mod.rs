//! A game in progress: state, the decisions it waits for, and transactional application of
//! move lines. The flow (setup, rounds of income, Gaia phase, actions, clean-up, final scoring)
//! is the same for every game of the family; what each step gives comes from content.

mod effects;
mod phases;
mod setup;
mod special;
mod turn;

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::board::FactionBoard;
use crate::content::{Content, Faction, Grants, Modifier};
use crate::hex::Hex;
use crate::map::{Map, MapError, Placement};
use crate::notation::{self, Actor, Command, HexRef, MoveLine};
use crate::player::Player;
use crate::rng::Rng;

pub use special::Question;
pub use turn::Follow;

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
    /// Choose a faction.
    Faction(usize),
    /// Place a starting building.
    Place(usize, String),
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
    },
}

impl Decision {
    /// The seat that must decide.
    pub fn seat(&self) -> usize {
        match self {
            Decision::Faction(s)
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
    pub building: String,
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    /// The setup.
    pub setup: Setup,
    /// The map.
    pub map: Map,
    /// Current planet of each space (by map space index), as content planet index.
    pub planets: Vec<u8>,
    /// Buildings by space index.
    pub structures: BTreeMap<usize, Vec<Structure>>,
    /// Gaiaformers on the map.
    pub gaiaformers: Vec<Gaiaformer>,
    /// Seats.
    pub players: Vec<Player>,
    /// Round (0 during setup).
    pub round: u32,
    /// Stage.
    pub stage: Stage,
    /// Turn order of the current round.
    pub order: Vec<usize>,
    /// Order of passing in the current round.
    pub passed_order: Vec<usize>,
    /// The seat whose turn was taken last.
    pub current: Option<usize>,
    /// Board actions used this round.
    pub actions_used: Vec<String>,
    /// Boosters available.
    pub boosters: Vec<String>,
    /// Standard tiles left per position.
    pub tech_left: BTreeMap<String, u32>,
    /// Advanced tiles still on the board, by position.
    pub adv_left: BTreeMap<String, String>,
    /// Federation tokens in the supply.
    pub fed_supply: BTreeMap<String, u32>,
    /// The token on top of a track, until taken.
    pub track_token: Option<String>,
    /// Decisions waited for, first first.
    pub queue: VecDeque<Decision>,
    /// Income events not yet paid, by seat, in order.
    pub income_pending: BTreeMap<usize, Vec<crate::content::Bundle>>,
    /// An open question about a special token.
    #[serde(default)]
    pub question: Option<Question>,
    /// Seats still to go through the Gaia phase, in turn order.
    #[serde(default)]
    pub gaia_todo: VecDeque<usize>,
    /// Seats whose income is still to be paid this round, in turn order.
    #[serde(default)]
    pub income_todo: VecDeque<usize>,
    /// Move lines applied.
    pub moves: usize,
    /// Random generator.
    pub rng: Rng,
}

/// A game: content plus state.
#[derive(Debug, Clone)]
pub struct Game {
    /// The content.
    pub content: Arc<Content>,
    /// The state.
    pub state: GameState,
    /// Faction boards of the seats (derived from content).
    boards: Vec<Option<FactionBoard>>,
    /// The turn being applied.
    pub(crate) ctx: turn::TurnCtx,
}

impl Game {
    /// A new game with an explicit setup, waiting for faction choices.
    pub fn new(content: Arc<Content>, setup: Setup) -> Result<Game, MapError> {
        let map = Map::build(&content, &setup.sectors)?;
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
            map,
            planets,
            structures: BTreeMap::new(),
            gaiaformers: Vec::new(),
            players,
            round: 0,
            stage: Stage::Setup,
            order: (0..setup.players).collect(),
            passed_order: Vec::new(),
            current: None,
            actions_used: Vec::new(),
            boosters: setup.boosters.clone(),
            tech_left: setup.tech_counts.clone(),
            adv_left: setup.adv_techs.clone(),
            fed_supply: setup.federation_tokens.clone(),
            track_token: setup.terra_fed_token.clone(),
            queue: (0..setup.players).map(Decision::Faction).collect(),
            income_pending: BTreeMap::new(),
            income_todo: VecDeque::new(),
            gaia_todo: VecDeque::new(),
            question: None,
            moves: 0,
            rng: Rng::new(0),
            setup,
        };
        Ok(Game {
            content,
            state,
            boards: Vec::new(),
            ctx: Default::default(),
        })
    }

    /// A game resumed from a saved state.
    pub fn from_state(content: Arc<Content>, mut state: GameState) -> Game {
        state.map.reindex();
        let mut g = Game {
            content,
            state,
            boards: Vec::new(),
            ctx: Default::default(),
        };
        g.refresh_boards();
        g
    }

    fn refresh_boards(&mut self) {
        self.boards = self
            .state
            .players
            .iter()
            .map(|p| {
                self.content
                    .faction(&p.faction)
                    .map(|f| FactionBoard::resolve(&self.content.board, f))
            })
            .collect();
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

    /// Applies one parsed move line. On error the state is unchanged.
    pub fn apply(&mut self, line: &MoveLine) -> Result<(), MoveError> {
        let saved = self.state.clone();
        let boards = self.boards.clone();
        match self.apply_inner(line) {
            Ok(()) => {
                self.state.moves += 1;
                Ok(())
            }
            Err(e) => {
                self.state = saved;
                self.boards = boards;
                Err(e)
            }
        }
    }

    fn apply_inner(&mut self, line: &MoveLine) -> Result<(), MoveError> {
        let (actor, parts) = match line {
            MoveLine::Init { .. } => return err("the game is already set up"),
            MoveLine::Turn { actor, parts } => (actor, parts),
        };
        let Some(decision) = self.state.queue.front().cloned() else {
            return err("the game is over");
        };
        let seat = decision.seat();
        let ok_actor = match actor {
            Actor::Seat(n) => {
                usize::from(*n) == seat + 1 && self.state.players[seat].faction.is_empty()
            }
            Actor::Faction(f) => *f == self.state.players[seat].faction,
        };
        if !ok_actor {
            return err(format!("it is {}'s turn to decide", self.seat_name(seat)));
        }
        self.state.queue.pop_front();
        match decision {
            Decision::Faction(s) => self.choose_faction(s, parts)?,
            Decision::Place(s, b) => self.place_start(s, &b, parts)?,
            Decision::Booster(s) => self.start_booster(s, parts)?,
            Decision::Income(s) => self.income_order(s, parts)?,
            Decision::Gaia(s) => self.gaia_decision(s, parts)?,
            Decision::Turn(s) => self.take_turn(s, parts)?,
            Decision::Leech { seat, value } => self.leech_decision(seat, value, parts)?,
            Decision::Answer(s) => self.answer_decision(s, parts)?,
        }
        self.queue_open_question();
        self.advance();
        Ok(())
    }

    /// How a seat is named in messages.
    pub fn seat_name(&self, seat: usize) -> String {
        let f = &self.state.players[seat].faction;
        if f.is_empty() {
            format!("p{}", seat + 1)
        } else {
            f.clone()
        }
    }

    pub(crate) fn faction(&self, seat: usize) -> &Faction {
        self.content
            .faction(&self.state.players[seat].faction)
            .expect("seat has a faction")
    }

    pub(crate) fn board(&self, seat: usize) -> &FactionBoard {
        self.boards[seat].as_ref().expect("seat has a faction")
    }

    /// Everything active for a seat.
    pub(crate) fn grants(&self, seat: usize) -> Vec<Grants<'_>> {
        self.state.players[seat].active(&self.content, self.faction(seat), self.board(seat))
    }

    /// The modifiers in force for a seat.
    pub(crate) fn modifiers(&self, seat: usize) -> Vec<&Modifier> {
        self.grants(seat)
            .into_iter()
            .flat_map(|g| g.modifiers.iter())
            .collect()
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

fn single_part(parts: &[Command]) -> Result<&Command, MoveError> {
    let real: Vec<&Command> = parts.iter().filter(|c| **c != Command::EndTurn).collect();
    match real.as_slice() {
        [one] => Ok(one),
        _ => err("expected exactly one command"),
    }
}
