//! Follow-ups: what an action still owes once its main part is applied (a colony to found,
//! a research step, a tech tile, a building to place…), and the progress of the open
//! decision that holds them.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::content::{Downgrade, Effect, Place, ResearchChoice, Swap};

/// A follow-up the current action still needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Follow {
    /// Found a colony (with the turn's free steps and range), or with `gaia_project` start
    /// a Gaia project instead.
    Build {
        /// A Gaia project may be started instead.
        gaia_project: bool,
    },
    /// Advance research.
    Up(ResearchChoice),
    /// Take a tech tile.
    Tech,
    /// Cover a standard tile.
    Cover,
    /// Re-score a federation token.
    FedTile,
    /// Place a building with a verb (the three faction follow-ups are rare and large: boxed,
    /// so that a follow-up, held inline in every state, stays small).
    Place(Box<Place>),
    /// Downgrade a building.
    Downgrade(Box<Downgrade>),
    /// Swap two buildings.
    Swap(Box<Swap>),
}

impl Follow {
    /// The follow-up an effect brings, if any (a research step can always be declined, so it
    /// is not one that must be possible).
    pub(crate) fn of(e: &Effect) -> Option<Follow> {
        Some(match e {
            Effect::Steps(_) => Follow::Build {
                gaia_project: false,
            },
            Effect::Range(_) => Follow::Build { gaia_project: true },
            Effect::TechTile => Follow::Tech,
            Effect::RescoreFederation => Follow::FedTile,
            Effect::Place(p) => Follow::Place(Box::new(p.clone())),
            Effect::Downgrade(d) => Follow::Downgrade(Box::new(d.clone())),
            Effect::Swap(s) => Follow::Swap(Box::new(s.clone())),
            _ => return None,
        })
    }
}

/// What the open decision has done so far (saved with the state, so a decision can be taken
/// part by part). Laid out as written, the flags every listing reads first (see
/// `game/state_layout.rs`).
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[repr(C)]
pub struct TurnProgress {
    /// The turn's main action is taken.
    pub main: bool,
    /// The player passed: nothing but the end of the turn may follow.
    pub passed: bool,
    /// A one-part decision (faction, placement, booster, charge, income, answer) was made.
    pub decided: bool,
    /// The main action being applied is a build (only while one part is applied).
    #[serde(skip)]
    pub building_main: bool,
    /// Free terraforming steps for the next mine.
    pub steps: u32,
    /// Extra range for the next placement.
    pub range: u32,
    /// A main-action build's space, offered once the action's follow-ups are done.
    pub deferred_leech: Option<usize>,
    /// Follow-ups still owed, in the order they are expected.
    pub follows: SmallVec<[Follow; 2]>,
    /// Spaces built on this turn that offer charges, in build order.
    pub leech: SmallVec<[usize; 4]>,
}

impl Clone for TurnProgress {
    /// Every state's copy copies one: empty lists (most states) are made, not copied, so the
    /// copy is a few stores.
    fn clone(&self) -> TurnProgress {
        fn copy_of<A: smallvec::Array>(list: &SmallVec<A>) -> SmallVec<A>
        where
            A::Item: Clone,
        {
            if list.is_empty() {
                SmallVec::new()
            } else {
                list.clone()
            }
        }
        TurnProgress {
            main: self.main,
            follows: copy_of(&self.follows),
            steps: self.steps,
            range: self.range,
            leech: copy_of(&self.leech),
            building_main: self.building_main,
            passed: self.passed,
            deferred_leech: self.deferred_leech,
            decided: self.decided,
        }
    }
}
