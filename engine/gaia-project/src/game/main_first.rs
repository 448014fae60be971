//! Main actions checked first: a pass, a research step, a colony, an upgrade, a Gaia project,
//! a board or special action, the research steps, tech tiles, covers, builds, downgrades and
//! placements a turn owes as follow-ups (and declining a step), and in the setup a starting
//! building and a booster. Each is asked whether it can be refused before anything changes,
//! so that [`Game::apply_part`] applies it with no undo copy of the state.
//!
//! In a game without hooks nothing that follows an action's first change can refuse it:
//! effects and triggers then only gain, owe follow-ups or take tokens content names (checked
//! at load), and a watcher's trigger only gains. What can refuse the action is its own
//! checks, which are asked here as its path asks them, on the state it will see.
//! `tests/checked_first.rs` applies listed, recorded and wrong parts both ways in every
//! recorded state and in random games: no part these checks pass is refused by its own path.

use super::actions::special_key;
use super::follow::Follow;
use super::{Decision, Game};
use crate::content::{BuildingRole, Modifier, Place, PlanetKind};
use crate::lookup::by_id;
use crate::notation::{Command, HexRef};
use orrery_core::hex::Hex;

impl Game {
    /// Whether `part` is a main action of a turn, or a setup placement or booster, that cannot
    /// be refused once it starts, checked without changing anything: a game without hooks, no
    /// question open, the decision open or next (a decision not yet open must have no
    /// progress left over, as opening it starts afresh), and then the action's own checks.
    pub(super) fn main_checked_first(&self, part: &Command) -> bool {
        if self.hooked
            || self.state.question.is_some()
            || !matches!(
                part,
                Command::Pass(_)
                    | Command::Up(_)
                    | Command::Build { .. }
                    | Command::Action(_)
                    | Command::Special(_)
                    | Command::Tech(_)
                    | Command::Cover(_)
                    | Command::Decline(_)
                    | Command::Booster(_)
            )
        {
            return false;
        }
        let decision = match &self.state.open {
            Some(d) => d,
            None if self.state.turn == Default::default() => match self.state.queue.front() {
                Some(d) => d,
                None => return false,
            },
            None => return false,
        };
        match (decision, part) {
            (Decision::Booster(_), Command::Booster(id)) => {
                !self.state.turn.decided && self.state.boosters.iter().any(|b| b == id)
            }
            (Decision::Place(seat, placed), Command::Build { building, hex }) => {
                !self.state.turn.decided && building == placed && self.start_place_sure(*seat, hex)
            }
            (Decision::Turn(seat), _) => {
                let t = &self.state.turn;
                // A main action with none taken and nothing owed, or an owed follow-up
                // answered, the seat not passed.
                match t.follows.is_empty() {
                    _ if t.passed => false,
                    true => !t.main && self.main_sure(*seat, part),
                    false => self.follow_sure(*seat, part),
                }
            }
            _ => false,
        }
    }

    /// The checks of a starting building: a space of the map with no building, of the
    /// seat's home planet.
    fn start_place_sure(&self, seat: usize, hex: &HexRef) -> bool {
        let Some((idx, _)) = self.space_of(hex) else {
            return false;
        };
        let planet = &self.content.planets.planets[usize::from(self.state.planets[idx])];
        !self.state.structures.contains_key(&idx) && planet.id == self.faction(seat).home
    }

    /// The checks of a pass, a research step, a build, a board action or a special action as
    /// the main action of `seat`'s turn.
    fn main_sure(&self, seat: usize, part: &Command) -> bool {
        match part {
            Command::Pass(booster) => {
                let last = self.state.round >= self.content.rules.rounds;
                match (booster, last) {
                    // The seat's own booster goes back only after the new one is taken.
                    (Some(b), false) => self.state.boosters.iter().any(|x| x == b),
                    (None, true) => true,
                    _ => false,
                }
            }
            Command::Up(track) => {
                self.can_advance(seat, track).is_ok()
                    && self.can_pay_with(seat, &self.content.research.cost, self.token_value(seat))
            }
            Command::Build { building, hex } => self.build_sure(seat, building, hex),
            Command::Action(id) => {
                by_id(&self.content.board_actions.actions, id).is_some_and(|a| {
                    !self.state.actions_used.iter().any(|u| u == id)
                        && !self.gain_wholly_capped(seat, &a.effects)
                        && self.can_pay_with(seat, &a.cost, self.token_value(seat))
                })
            }
            Command::Special(amounts) => {
                let key = special_key(amounts);
                !self.special_used(seat, &key)
                    && Self::special_found(&self.handles(), self, seat, &key).is_some()
            }
            _ => false,
        }
    }

    /// The checks of a research step (or declining one), a tech tile, a tile covered or a
    /// build answering a follow-up `seat` owes and may answer now; any other part is left to
    /// the transaction.
    fn follow_sure(&self, seat: usize, part: &Command) -> bool {
        let owed = &self.state.turn.follows[self.answerable(seat)];
        match part {
            // Declining finds the step or refuses before changing anything.
            Command::Decline(what) => {
                what.as_deref().is_none_or(|w| w == "up")
                    && owed.iter().any(|f| matches!(f, Follow::Up(_)))
            }
            Command::Tech(pos) => owed.contains(&Follow::Tech) && self.tech_sure(seat, pos),
            Command::Cover(pos) => {
                owed.contains(&Follow::Cover)
                    && self
                        .state
                        .setup
                        .techs
                        .get(pos.as_str())
                        .is_some_and(|tile| {
                            (self.state.players[seat].techs.iter())
                                .any(|t| t.id == *tile && !t.covered)
                        })
            }
            Command::Up(track) => {
                owed.iter()
                    .any(|f| matches!(f, Follow::Up(c) if self.research_allowed(seat, c, track)))
                    && self.can_advance(seat, track).is_ok()
            }
            Command::Build { building, hex } => {
                let def = self.board(seat).building(building);
                let colony = def.is_some_and(|d| d.founds_colony());
                let gaia = def.is_some_and(|d| d.role == BuildingRole::Gaiaformer);
                // The follow-up a build answers, looked for as the turn looks: an owed build,
                // else a downgrade to it, else a placement of it.
                let owed_build = |f: &Follow| matches!(f, Follow::Build { gaia_project } if colony || (gaia && *gaia_project));
                if owed.iter().any(owed_build) {
                    return self.build_sure(seat, building, hex);
                }
                let Some((idx, hex)) = self.space_of(hex) else {
                    return false;
                };
                let downgrade = owed.iter().find_map(|f| match f {
                    Follow::Downgrade(d) if d.to == *building => Some(d),
                    _ => None,
                });
                if let Some(d) = downgrade {
                    return self
                        .state
                        .structures
                        .get(&idx)
                        .is_some_and(|l| l.iter().any(|s| s.seat == seat && s.building == d.from));
                }
                owed.iter()
                    .find_map(|f| match f {
                        Follow::Place(p) if p.verb.is_none() && p.building == *building => Some(p),
                        _ => None,
                    })
                    .is_some_and(|p| self.place_sure(seat, p, idx, hex))
            }
            _ => false,
        }
    }

    /// The checks of a `build` of a structure with one left on the board: founding a colony
    /// the seat can plan and pay for, or upgrading one of its buildings that may become it,
    /// paid for.
    fn build_sure(&self, seat: usize, building: &str, hex: &HexRef) -> bool {
        let Some((idx, hex)) = self.space_of(hex) else {
            return false;
        };
        let Some(def) = self.board(seat).building(building) else {
            return false;
        };
        if def.role == BuildingRole::Gaiaformer {
            return self.gaia_project_sure(seat, idx, hex);
        }
        if def.role != BuildingRole::Structure
            || self.state.players[seat].built_count(building) >= def.count
        {
            return false;
        }
        let own = self
            .state
            .structures
            .get(&idx)
            .and_then(|l| l.iter().find(|s| s.seat == seat));
        let token_value = self.token_value(seat);
        if def.upgrades_from.is_empty() {
            if own.is_some() {
                return false;
            }
            let mods = self.modifiers(seat);
            if Self::names_site_hooks(&mods) {
                return false;
            }
            let rules = self.seat_rules_from(seat, &mods);
            // The steps and range the turn holds are those a follow-up build uses.
            let Ok(plan) = self.colonize_plan(seat, idx, hex, &rules, self.reach()) else {
                return false;
            };
            // Taking the seat's own Gaiaformer off the planet before paying only frees one
            // more, so a cost the seat can pay now it can pay then.
            let amounts = self.colonize_amounts(def, &plan, &rules);
            return self.can_pay_items(
                seat,
                amounts.iter().map(|(c, n)| (c.as_str(), *n)),
                token_value,
            );
        }
        let Some(own) = own else {
            return false;
        };
        if own.shared || own.off_board || !def.upgrades_from.iter().any(|u| *u == own.building) {
            return false;
        }
        // Without hooks the cost is the building's own (more near a rival when it says so).
        match self.upgrade_cost(seat, def, idx, &own.building, &[], None) {
            Ok(cost) => self.can_pay_with(seat, &cost, token_value),
            Err(_) => false,
        }
    }

    /// The checks of a Gaia project: a free Transdim planet in range (its QIC paid for), a
    /// Gaia Project level that allows one, a Gaiaformer free and the power tokens it moves.
    fn gaia_project_sure(&self, seat: usize, idx: usize, hex: Hex) -> bool {
        if self.planet_kind(idx) != PlanetKind::Transdim
            || self.state.gaiaformers.iter().any(|g| g.hex == hex)
            || self.state.structures.contains_key(&idx)
            || self.free_gaiaformers(seat) == 0
        {
            return false;
        }
        let Some(tokens) = self.modifier(seat, |m| match m {
            Modifier::GaiaProjectTokens(n) => Some(*n),
            _ => None,
        }) else {
            return false;
        };
        let Ok(q) = self.qic_for_range(seat, hex) else {
            return false;
        };
        let range = self.content.rules.range_resource.as_str();
        // Paying QIC leaves the power tokens as they are.
        (q == 0 || self.can_pay_items(seat, [(range, q as i32)], self.token_value(seat)))
            && self.state.players[seat].power.can_remove(tokens)
    }

    /// The checks of a placement a follow-up owes (a station, or a building that makes a
    /// planet): the space as it asks, free of buildings and satellites, in range with its
    /// QIC paid for, and a station left on the board.
    fn place_sure(&self, seat: usize, p: &Place, idx: usize, hex: Hex) -> bool {
        if p.on_empty_space && self.planet_kind(idx) != PlanetKind::Empty {
            return false;
        }
        let station = self.is_station(seat, &p.building);
        let satellite = (self.state.players.iter().enumerate())
            .any(|(s, pl)| (!station || s == seat) && pl.satellites.contains(&hex));
        let taken = (self.state.structures.get(&idx)).is_some_and(|l| !l.is_empty());
        let Ok(q) = self.qic_for_range(seat, hex) else {
            return false;
        };
        let cost = self.range_cost(q);
        if satellite || taken || !self.can_pay_with(seat, &cost, self.token_value(seat)) {
            return false;
        }
        if p.creates_planet.is_some() || !station {
            return true;
        }
        let count = self.board(seat).building(&p.building).map(|d| d.count);
        let built = self.state.players[seat].built_count(&p.building);
        count.is_none_or(|c| built < c)
    }

    /// The space a hex names, with its index, when it is on the map.
    fn space_of(&self, hex: &HexRef) -> Option<(usize, Hex)> {
        let hex = self.hex(hex).ok()?;
        Some((self.state.map.space_index(hex)?, hex))
    }

    /// The checks of taking the tile at a position: an advanced tile still there, the level
    /// it asks on its track, a standard tile of the seat's to cover and a green federation
    /// token; or a standard tile left there that the seat does not own.
    fn tech_sure(&self, seat: usize, pos: &str) -> bool {
        let p = &self.state.players[seat];
        let advanced = &self.content.advanced_tiles;
        if let Some(track) = pos.strip_prefix(advanced.position_prefix.as_str()) {
            return self.state.adv_left.get(pos).is_some()
                && p.level(track) >= advanced.min_level
                && p.techs.iter().any(|t| !t.covered)
                && p.tokens.iter().any(|t| t.green);
        }
        self.state.setup.techs.get(pos).is_some_and(|tile| {
            self.state.tech_left.get(pos).copied().unwrap_or(0) > 0
                && !p.techs.iter().any(|t| t.id == *tile)
        })
    }
}
