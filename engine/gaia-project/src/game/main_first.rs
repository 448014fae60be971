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
use super::build::BuildKind;
use super::follow::Follow;
use super::{Decision, Game};
use crate::content::Place;
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
            (Decision::Place(seat, placed), Command::Build { .. }) => {
                !self.state.turn.decided && self.start_space(*seat, placed, part).is_ok()
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
            Command::Action(id) => (self.board_action_open(&self.handles(), seat, id))
                .is_ok_and(|a| self.can_pay_with(seat, &a.cost, self.token_value(seat))),
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
            Command::Tech(pos) => owed.contains(&Follow::Tech) && self.tech_at(seat, pos).is_ok(),
            Command::Cover(pos) => {
                owed.contains(&Follow::Cover) && self.coverable(seat, pos).is_ok()
            }
            Command::Up(track) => {
                owed.iter()
                    .any(|f| matches!(f, Follow::Up(c) if self.research_allowed(seat, c, track)))
                    && self.can_advance(seat, track).is_ok()
            }
            Command::Build { building, hex } => {
                // The follow-up the build answers, found as the turn finds it.
                let Some(i) = self.build_answers(seat, building, owed) else {
                    return false;
                };
                let space = || self.space_of(hex);
                match &owed[i] {
                    Follow::Downgrade(d) => space()
                        .is_some_and(|(idx, hex)| self.downgradable(seat, d, idx, hex).is_ok()),
                    Follow::Place(p) => {
                        space().is_some_and(|(idx, hex)| self.place_sure(seat, p, idx, hex))
                    }
                    // An owed build.
                    _ => self.build_sure(seat, building, hex),
                }
            }
            _ => false,
        }
    }

    /// The checks of a `build` as `build` asks them: a Gaia project, a colony planned and
    /// paid for, or an upgrade paid for.
    fn build_sure(&self, seat: usize, building: &str, hex: &HexRef) -> bool {
        let Some((idx, hex)) = self.space_of(hex) else {
            return false;
        };
        let h = self.handles();
        let token_value = self.token_value(seat);
        match self.build_kind(&h, seat, building, idx) {
            Err(_) => false,
            Ok(BuildKind::GaiaProject) => {
                let range = self.content.rules.range_resource.as_str();
                // Paying QIC leaves the power tokens as they are.
                self.gaia_project_needs(seat, idx, hex)
                    .is_ok_and(|(tokens, q)| {
                        (q == 0 || self.can_pay_items(seat, [(range, q as i32)], token_value))
                            && self.state.players[seat].power.can_remove(tokens)
                    })
            }
            Ok(BuildKind::Colony(def)) => {
                let mods = self.modifiers(seat);
                if Self::names_site_hooks(&mods) {
                    return false;
                }
                let rules = self.seat_rules_from(seat, &mods);
                // The steps and range the turn holds are those a follow-up build uses.
                let Ok(plan) = self.colonize_plan(seat, idx, hex, &rules, self.reach()) else {
                    return false;
                };
                // Taking the seat's own Gaiaformer off the planet before paying only frees
                // one more, so a cost the seat can pay now it can pay then.
                let amounts = self.colonize_amounts(def, &plan, &rules);
                let amounts = amounts.iter().map(|(c, n)| (c.as_str(), *n));
                self.can_pay_items(seat, amounts, token_value)
            }
            // Without hooks the cost is the building's own (more near a rival when it says so).
            Ok(BuildKind::Upgrade(def, own)) => self
                .upgradable(idx, def, own.as_ref(), false)
                .and_then(|own| self.upgrade_cost(seat, def, idx, &own.building, &[], None))
                .is_ok_and(|cost| self.can_pay_with(seat, &cost, token_value)),
        }
    }

    /// The checks of a placement a follow-up owes (a station, or a building that makes a
    /// planet), as `place` asks them: the space, its range paid for, and a station left.
    fn place_sure(&self, seat: usize, p: &Place, idx: usize, hex: Hex) -> bool {
        let Ok(q) = self.place_range(seat, p, idx, hex) else {
            return false;
        };
        let station = p.creates_planet.is_none() && self.is_station(seat, &p.building);
        self.can_pay_with(seat, &self.range_cost(q), self.token_value(seat))
            && (!station || self.station_left(seat, &p.building))
    }

    /// The space a hex names, with its index, when it is on the map.
    fn space_of(&self, hex: &HexRef) -> Option<(usize, Hex)> {
        let hex = self.hex(hex).ok()?;
        Some((self.state.map.space_index(hex)?, hex))
    }
}
