//! A player's turn: free actions, one main action with its follow-ups, and the end of the
//! turn; each part goes to the module of its action. Also the parts of a Gaia-phase decision.

use super::follow::Follow;
use super::{err, Decision, Game, MoveError, Stage};
use crate::content::{BuildingRole, Phase, ResearchChoice};
use crate::notation::Command;

impl Game {
    /// One part of a turn other than its end.
    pub(super) fn turn_step(&mut self, seat: usize, part: &Command) -> Result<(), MoveError> {
        if let Command::Other { verb, args } = part {
            if self.state.question.is_some() && self.try_answer(seat, verb, args)? {
                return Ok(());
            }
        }
        self.require_no_question()?;
        if self.state.turn.passed {
            return err("only the end of the turn may follow passing");
        }
        self.turn_part(seat, part)?;
        self.after_turn_step();
        Ok(())
    }

    /// After a part of a turn: a charge offer held back while an action was unfinished is
    /// made once none is.
    pub(super) fn after_turn_step(&mut self) {
        if self.state.turn.follows.is_empty() {
            if let Some(idx) = self.state.turn.deferred_leech.take() {
                self.state.turn.leech.push(idx);
            }
        }
    }

    /// Ends a turn: the main action and its follow-ups must be done; then neighbours are
    /// offered their charges.
    pub(super) fn end_turn(&mut self, seat: usize) -> Result<(), MoveError> {
        self.require_no_question()?;
        if !self.state.turn.main {
            return err("a turn needs one main action");
        }
        self.drop_optional_follows(seat);
        if let Some(f) = self.state.turn.follows.first() {
            return err(format!("the action is not finished: expected {f:?}"));
        }
        if let Some(idx) = self.state.turn.deferred_leech.take() {
            self.state.turn.leech.push(idx);
        }
        self.offer_charges(seat);
        Ok(())
    }

    /// Whether ending the open decision now cannot be refused, checked without changing
    /// anything, in a game without hooks with no question open: a turn whose main action
    /// and follow-ups are done, or a charge offer answered, in the action phase with a seat
    /// in the turn order that has not passed (the automatic steps after it then only offer
    /// charges and queue the next turn: no round ends); or a setup choice made with another
    /// decision (not a charge offer, which may lapse) waiting after it, so that no automatic
    /// step runs. [`Game::apply_part`] keeps no undo copy for such an end.
    pub(super) fn end_checked_first(&self) -> bool {
        let state = &self.state;
        if self.hooked || state.question.is_some() {
            return false;
        }
        let next_waits = || !matches!(state.queue.front(), None | Some(Decision::Leech { .. }));
        let turn_goes_on = || {
            state.stage == Stage::Actions && state.order.iter().any(|s| !state.players[s].passed)
        };
        match &state.open {
            Some(Decision::Turn(_)) => {
                state.turn.main && state.turn.follows.is_empty() && turn_goes_on()
            }
            Some(Decision::Leech { .. }) => state.turn.decided && turn_goes_on(),
            Some(
                Decision::Faction(_)
                | Decision::Bid(_)
                | Decision::Place(..)
                | Decision::Booster(_),
            ) => state.turn.decided && next_waits(),
            _ => false,
        }
    }

    /// Research follow-ups that cannot be used lapse.
    pub(super) fn drop_optional_follows(&mut self, seat: usize) {
        let follows = std::mem::take(&mut self.state.turn.follows);
        self.state.turn.follows = follows
            .into_iter()
            .filter(|f| !self.lapses(seat, f))
            .collect();
    }

    /// Takes the turn's one main action, refused when it is taken or an action is unfinished.
    fn main_action(&mut self) -> Result<(), MoveError> {
        let owed = self.state.turn.follows.first();
        match (self.state.turn.main, owed) {
            (true, Some(f)) => err(format!(
                "the turn's main action is already taken; it expected {f:?}"
            )),
            (true, None) => err("the turn's main action is already taken"),
            (false, Some(f)) => err(format!("finish the current action first: expected {f:?}")),
            (false, None) => Ok(()),
        }?;
        self.state.turn.main = true;
        Ok(())
    }

    /// Takes the first owed follow-up that `pred` accepts among those a part may answer now
    /// ([`Game::answerable_follows`]).
    fn take_follow(&mut self, seat: usize, pred: impl Fn(&Follow) -> bool) -> Option<Follow> {
        // The seat's view (a walk over its grants) is made only when some follow-up fits.
        if !self.state.turn.follows.iter().any(&pred) {
            return None;
        }
        let open = self.answerable(seat);
        let i = open.start + self.state.turn.follows[open].iter().position(pred)?;
        Some(self.state.turn.follows.remove(i))
    }

    /// Where among `owed` the follow-up is that a `build` of `building` answers: an owed build
    /// the building makes (a colony, or a Gaiaformer for a Gaia project), else a downgrade to
    /// it, else a placement of it that has no verb of its own. Only those three kinds.
    pub(super) fn build_answers(
        &self,
        seat: usize,
        building: &str,
        owed: &[Follow],
    ) -> Option<usize> {
        let def = self.board(seat).building(building);
        let colony = def.is_some_and(|d| d.founds_colony());
        let gaia = def.is_some_and(|d| d.role == BuildingRole::Gaiaformer);
        let find = |pred: &dyn Fn(&Follow) -> bool| owed.iter().position(pred);
        find(&|f| matches!(f, Follow::Build { gaia_project } if colony || (gaia && *gaia_project)))
            .or_else(|| find(&|f| matches!(f, Follow::Downgrade(d) if d.to == building)))
            .or_else(|| {
                find(&|f| matches!(f, Follow::Place(p) if p.verb.is_none() && p.building == building))
            })
    }

    /// The owed follow-ups a part may answer now ([`Game::answerable_follows`]). The seat's
    /// view, a walk over its grants, is made only when one of them could lapse: with none
    /// owed (a main action), in any order, or in order with none that can lapse (the first
    /// is answered), the answer needs no view.
    pub(super) fn answerable(&self, seat: usize) -> std::ops::Range<usize> {
        let follows = &self.state.turn.follows;
        if !self.content.rules.options.follow_ups_in_order {
            return 0..follows.len();
        }
        if !follows.iter().any(|f| self.may_lapse(f)) {
            return 0..follows.len().min(1);
        }
        self.answerable_follows(&self.view(seat))
    }

    /// One part of a turn, to the module of its action: a follow-up it answers first, else a
    /// main or free action.
    fn turn_part(&mut self, seat: usize, part: &Command) -> Result<(), MoveError> {
        match part {
            Command::Spend { .. } | Command::Burn(_)
                if !self.state.turn.follows.is_empty()
                    && !self.content.rules.options.free_actions_within_actions =>
            {
                err("free actions cannot interrupt an action; finish it first")
            }
            Command::Spend { cost, gain } => self.convert(seat, cost, gain, Phase::Actions),
            Command::Burn(n) => {
                let to_gaia = self.burn_to_gaia(seat);
                self.state.players[seat]
                    .power
                    .burn(*n, to_gaia)
                    .map_err(|e| MoveError(e.to_string()))
            }
            Command::Build { building, hex } => {
                let hex = self.hex(hex)?;
                // The seat's view (in `answerable`) is made only when some follow-up fits.
                if self
                    .build_answers(seat, building, &self.state.turn.follows)
                    .is_some()
                {
                    let open = self.answerable(seat);
                    let owed = &self.state.turn.follows[open.clone()];
                    if let Some(i) = self.build_answers(seat, building, owed) {
                        return match self.state.turn.follows.remove(open.start + i) {
                            Follow::Downgrade(d) => self.downgrade(seat, &d, hex),
                            Follow::Place(p) => self.place(seat, &p, hex),
                            // An owed build.
                            _ => self.build(seat, building, hex, true),
                        };
                    }
                }
                self.main_action()?;
                self.state.turn.building_main = true;
                let r = self.build(seat, building, hex, false);
                self.state.turn.building_main = false;
                r
            }
            Command::Up(track) => {
                let allowed = |c: &ResearchChoice| self.research_allowed(seat, c, track);
                let open = self.answerable(seat);
                let pos = self.state.turn.follows[open.clone()]
                    .iter()
                    .position(|f| matches!(f, Follow::Up(c) if allowed(c)));
                if let Some(i) = pos {
                    self.state.turn.follows.remove(open.start + i);
                    return self.advance_research(seat, track);
                }
                self.main_action()?;
                // Content is shared: the step's cost is read in place, not copied.
                let content = self.content.clone();
                self.can_advance(seat, track)?;
                self.pay(seat, &content.research.cost)?;
                self.advance_research(seat, track)
            }
            // A free research step is declined with `decline up` or a bare `decline`.
            Command::Decline(what) if what.as_deref().is_none_or(|w| w == "up") => self
                .take_follow(seat, |f| matches!(f, Follow::Up(_)))
                .map(|_| ())
                .ok_or_else(|| MoveError("no research step to decline".into())),
            Command::Tech(pos) => {
                self.take_follow(seat, |f| *f == Follow::Tech)
                    .ok_or_else(|| MoveError("no tech tile to take".into()))?;
                self.take_tech(seat, pos)
            }
            Command::Cover(pos) => {
                self.take_follow(seat, |f| *f == Follow::Cover)
                    .ok_or_else(|| MoveError("nothing to cover".into()))?;
                self.cover(seat, pos)
            }
            Command::Action(id) => {
                self.main_action()?;
                self.board_action(seat, id)
            }
            Command::Special(amounts) => {
                self.main_action()?;
                self.special(seat, &super::actions::special_key(amounts))
            }
            Command::Pass(booster) => {
                self.main_action()?;
                self.state.turn.passed = true;
                self.pass(seat, booster.as_deref())
            }
            Command::Federation { hexes, token } => {
                self.main_action()?;
                let hexes = hexes
                    .iter()
                    .map(|h| self.hex(h))
                    .collect::<Result<Vec<_>, _>>()?;
                self.federate(seat, &hexes, token)
            }
            Command::FedTile(id) => {
                self.take_follow(seat, |f| *f == Follow::FedTile)
                    .ok_or_else(|| MoveError("no federation token to re-score".into()))?;
                self.rescore_token(seat, id)
            }
            Command::Other { verb, args } => {
                let hex = args
                    .first()
                    .map(|a| {
                        crate::notation::parse_hex_ref(a).map_err(|e| MoveError(e.to_string()))
                    })
                    .transpose()?;
                if let Some(Follow::Place(p)) = self.take_follow(
                    seat,
                    |f| matches!(f, Follow::Place(p) if p.verb.as_deref() == Some(verb)),
                ) {
                    let hex =
                        self.hex(&hex.ok_or_else(|| MoveError(format!("{verb} needs a hex")))?)?;
                    return self.place(seat, &p, hex);
                }
                if let Some(Follow::Swap(s)) =
                    self.take_follow(seat, |f| matches!(f, Follow::Swap(s) if s.verb == verb))
                {
                    let hex =
                        self.hex(&hex.ok_or_else(|| MoveError(format!("{verb} needs a hex")))?)?;
                    return self.swap(seat, &s, hex);
                }
                err(format!("`{verb}` is not expected here"))
            }
            other => err(format!("`{other}` is not possible during a turn")),
        }
    }

    /// A part of a Gaia-phase decision.
    pub(super) fn gaia_part(&mut self, seat: usize, part: &Command) -> Result<(), MoveError> {
        // In the Gaia phase only declining decides: after it, nothing but the end is left.
        if self.state.turn.decided {
            return err("the Gaia-phase offer was declined: end the turn");
        }
        match part {
            Command::Spend { cost, gain } => self.convert(seat, cost, gain, Phase::Gaia),
            Command::Decline(Some(w)) if w == "tech" => {
                self.state.turn.decided = true;
                Ok(())
            }
            Command::Tech(_) | Command::Up(_) | Command::Cover(_) | Command::Decline(_) => {
                self.turn_part(seat, part)
            }
            other => err(format!("`{other}` is not possible in the Gaia phase")),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::content::{fixture, ResearchChoice};
    use crate::game::{Decision, Follow};

    /// Which owed follow-ups a part may answer is the same whether the seat's view is made or
    /// not, under every reading of the order of follow-ups and of unusable research steps.
    #[test]
    fn follow_ups_answerable_without_a_view_are_those_with_one() {
        let mut g = fixture::blips_game(4);
        while !matches!(g.next_decision(), Some(Decision::Turn(_))) {
            let part = g.legal_parts().into_iter().next().expect("a part");
            g.apply_part(&part).expect("setup part");
        }
        let seat = g.deciding_seat().expect("a seat");
        let up = |c: ResearchChoice| Follow::Up(c);
        let lists: Vec<Vec<Follow>> = vec![
            vec![],
            vec![Follow::Cover],
            vec![
                Follow::Build {
                    gaia_project: false,
                },
                Follow::FedTile,
            ],
            vec![up(ResearchChoice::Any)],
            vec![up(ResearchChoice::Track("nowhere".into())), Follow::Cover],
            vec![Follow::Tech, up(ResearchChoice::Lowest)],
            vec![Follow::Cover, Follow::Tech],
        ];
        for in_order in [false, true] {
            for decline in [false, true] {
                let mut content = (*g.content).clone();
                content.rules.options.follow_ups_in_order = in_order;
                content.rules.options.decline_unusable_research_step = decline;
                let mut h = g.clone();
                h.content = Arc::new(content);
                for list in &lists {
                    h.state.turn.follows = list.iter().cloned().collect();
                    assert_eq!(
                        h.answerable(seat),
                        h.answerable_follows(&h.view(seat)),
                        "{list:?}, in order {in_order}, declined {decline}"
                    );
                }
            }
        }
    }
}
