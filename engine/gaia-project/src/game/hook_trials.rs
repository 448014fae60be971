//! Which listed parts listing still tries on a copy of the game when hooks may run. A hook that
//! fails is a content error, not a rule of the game: a part is never left out because a hook
//! would fail on it (playing it fails with the hook's error). What a trial is still for is a
//! part whose legality hangs on a hook's *answer*: one after which the seat owes follow-ups
//! (a tech tile, a build, a placement) that the seat's hooks may make impossible — an effect
//! hook returning them, a condition hook switching modifiers, a cost or placement hook asked
//! with the state the part leaves. Every other part is decided exactly by the hook-free
//! checks and the cost and placement hooks listing asks per candidate hex.

use super::{Decision, Game};
use crate::content::{Content, Effect};
use crate::notation::Command;

impl Game {
    /// Whether listing must try `part` on a copy ([`Game::trial`]) to know it is legal: the
    /// deciding seat's own hooks (or hooks in what every seat shares) may run, in its turn,
    /// and the part may leave it owing follow-ups. Parts of other decisions (charges, income,
    /// setup) and parts after which nothing is owed (a mine, a conversion, a burn, a pass)
    /// are never tried: what a hook answers there cannot make them illegal, only fail.
    pub(crate) fn needs_trial(&self, part: &Command) -> bool {
        let Some(Decision::Turn(seat)) = self.state.open.as_ref().or(self.state.queue.front())
        else {
            return false;
        };
        let seat = *seat;
        if !self.seat_names_hooks(seat) || *part == Command::EndTurn {
            return false;
        }
        if !self.state.turn.follows.is_empty() {
            // Within an action: what is still owed after this part is decided after it.
            return true;
        }
        let content = &*self.content;
        let triggers = self.may_have(seat).follow_triggers;
        match part {
            Command::Burn(_) | Command::Pass(_) => false,
            // A conversion gaining a tech tile (or anything not a plain code) owes it.
            Command::Spend { gain, .. } => gain.iter().any(|a| {
                crate::power::Code::of(&a.code).is_none()
                    && crate::lookup::by_id(&content.rules.resources, &a.code).is_none()
            }),
            Command::Build { building, .. } => {
                triggers
                    || self
                        .board(seat)
                        .building(building)
                        .is_none_or(|def| brings_follows(content, &def.grants.immediate))
            }
            Command::Up(track) => {
                let level = self.state.players[seat].level(track) as usize + 1;
                triggers
                    || crate::lookup::by_id(&content.research.tracks, track)
                        .and_then(|t| t.levels.get(level))
                        .is_none_or(|l| brings_follows(content, &l.immediate))
            }
            Command::Action(id) => {
                crate::lookup::by_id(&content.board_actions.actions, id)
                    .is_none_or(|a| brings_follows(content, &a.effects))
                    || triggers
            }
            Command::Federation { token, .. } => {
                triggers
                    || crate::lookup::by_id(&content.federation_tokens.tokens, token)
                        .is_none_or(|t| brings_follows(content, &t.reward))
            }
            // Special actions (a few a listing) and anything else: tried.
            _ => true,
        }
    }

    /// Whether hooks that can decide a seat's follow-ups may run for it: its faction names a
    /// hook, or what every seat shares does (a seat without a faction yet could choose any).
    pub(crate) fn seat_names_hooks(&self, seat: usize) -> bool {
        let naming = &self.naming;
        naming.shared
            || match self.seats.get(seat).and_then(Option::as_ref) {
                Some(f) => naming.factions.get(f.faction) != Some(&false),
                None => true,
            }
    }

    /// How many hook errors the game (clones included) has met: a refusal met while this
    /// count grew was a hook's failure, not a rule's answer.
    pub(crate) fn hook_error_count(&self) -> u64 {
        self.ledger
            .error_count
            .load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Whether applying `effects` may leave follow-ups owed: an effect that queues one (a research
/// step, a tech tile, a rescore, terraforming steps or range, a placement, a downgrade, a
/// swap), an effect hook (whose return may), or a federation token whose reward may.
pub(crate) fn brings_follows(content: &Content, effects: &[Effect]) -> bool {
    brings_follows_within(content, effects, 4)
}

/// [`brings_follows`], following token rewards at most `depth` deep (then: it may).
fn brings_follows_within(content: &Content, effects: &[Effect], depth: u32) -> bool {
    let token = |id: &str| {
        depth == 0
            || crate::lookup::by_id(&content.federation_tokens.tokens, id)
                .is_none_or(|t| brings_follows_within(content, &t.reward, depth - 1))
    };
    effects.iter().any(|e| match e {
        Effect::Gain(_) | Effect::GainPer(_) => false,
        Effect::FederationToken(id) => token(id),
        // The track's token is one of the supply's tokens.
        Effect::TrackToken => (content.federation_tokens.tokens.iter()).any(|t| token(&t.id)),
        Effect::Steps(_)
        | Effect::Range(_)
        | Effect::Research(_)
        | Effect::TechTile
        | Effect::RescoreFederation
        | Effect::Place(_)
        | Effect::Downgrade(_)
        | Effect::Swap(_)
        | Effect::Script(_) => true,
    })
}
