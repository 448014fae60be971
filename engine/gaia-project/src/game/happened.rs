//! Happened-events: what a move did that triggers and hooks react to (a building built, a
//! research step, a terraforming step, a federation token, an accepted charge), and whether
//! a trigger's event matches one.

use serde::{Deserialize, Serialize};

use crate::content::{Content, Event, Scope};

/// Where a charge offer comes from: the seat that built and the space it built on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChargeFrom {
    /// The seat that built.
    pub seat: usize,
    /// The space built on (an index into the map's spaces).
    pub space: usize,
}

/// Something that happened, for triggers: the facts a trigger's filter and a hook's `event`
/// read. The seat that acted is passed beside it (see [`Game::fire`]).
#[derive(Debug, Clone)]
pub(crate) enum Happened<'a> {
    /// A building was built.
    Built {
        building: &'a str,
        planet: &'a str,
        /// The space built on.
        idx: usize,
        new_type: bool,
        shared: bool,
        /// The building it replaced (an upgrade or a downgrade).
        upgrade_from: Option<&'a str>,
    },
    /// A research level was advanced.
    ResearchStep { track: &'a str, level: u32 },
    /// A terraforming step was taken while building on a space.
    TerraformStep { idx: usize },
    /// A federation token was gained.
    FederationToken { id: &'a str },
    /// A neighbour's charge was accepted.
    ChargeAccepted {
        amount: u32,
        from: Option<ChargeFrom>,
    },
}

impl Happened<'_> {
    /// The space where it happened, when it happened on the map.
    pub(crate) fn space(&self) -> Option<usize> {
        match self {
            Happened::Built { idx, .. } | Happened::TerraformStep { idx } => Some(*idx),
            Happened::ChargeAccepted { from, .. } => from.map(|f| f.space),
            Happened::ResearchStep { .. } | Happened::FederationToken { .. } => None,
        }
    }
}

/// Whether a trigger's event is what happened (the facts about the build itself).
pub(crate) fn event_matches(ev: &Event, what: &Happened<'_>) -> bool {
    match (ev, what) {
        (
            Event::Built(f),
            Happened::Built {
                building,
                planet,
                new_type,
                shared,
                ..
            },
        ) => {
            (f.buildings.is_empty() || f.buildings.iter().any(|b| b == building))
                && f.planet.as_deref().is_none_or(|p| p == *planet && !*shared)
                && (!f.new_planet_type || *new_type)
                && f.shared.is_none_or(|s| s == *shared)
        }
        (Event::ResearchStep, Happened::ResearchStep { .. })
        | (Event::TerraformStep, Happened::TerraformStep { .. })
        | (Event::FederationToken, Happened::FederationToken { .. })
        | (Event::ChargeAccepted, Happened::ChargeAccepted { .. }) => true,
        _ => false,
    }
}

/// Whether content holds a trigger that reacts to other seats (`by: others` or `any`): only
/// then does firing an event look at the other seats' triggers.
pub(crate) fn content_watches(content: &Content) -> bool {
    let mut watches = false;
    content.each_grants(|g| {
        watches |= g.triggers.iter().any(|t| t.by != Scope::Own);
    });
    watches
}
