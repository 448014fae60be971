//! Federations: checking a proposed federation and listing every legal one.
//!
//! A federation is a connected set of hexes: some of a player's buildings (each with a power
//! value) plus new satellites on free space. The rules this module applies, in the reading of
//! the reference engine:
//!
//! * **Closure.** A federation always contains every building of the player adjacent to one of
//!   its hexes, and the whole cluster of adjacent buildings around it ("adjacent planets are
//!   already connected"). A proposal is extended that way before it is checked, so the
//!   *building set* of a federation is always a union of [building groups](#building-groups).
//! * **Usable hexes.** Buildings must be the player's and not yet federated; satellites go on
//!   hexes the caller's `space` predicate accepts. Unless `single_federation` is set, no hex
//!   of the federation may be in or next to one of the player's existing federations.
//! * **Connected** by hex adjacency, with **value ≥ threshold**.
//! * **Fewest satellites.** With `c` the number of satellites, the federation is rejected when
//!   another legal federation needs fewer than `c` satellites and its building set is
//!   *comparable*: the same buildings, a subset of them that still reaches the threshold (the
//!   "one planet fewer and one satellite fewer" case), or a superset of them (a cheaper
//!   connection that passes through more of the player's buildings). A federation worth more
//!   than the threshold is therefore legal when its cheapest connection passes through the extra
//!   buildings.
//! * **Single federation** (`single_federation`): the player grows one federation. The existing
//!   federation (its hexes, plus any buildings touching them) is one more group that every
//!   federation must contain once it exists; its old satellites cost nothing, and the value
//!   counts every building of the whole federation found in `buildings`. A proposal may name
//!   the old hexes or not; a federation found or returned always names them all (its
//!   [hexes](Federation::hexes) are the whole grown federation, as recorded games write the
//!   move).
//!
//! # Building groups
//!
//! The player's usable buildings split into groups of mutually adjacent buildings. Because of
//! the closure rule a federation is described by which groups it holds and which satellites
//! join them. For a set `T` of groups, the cheapest federation whose building set is exactly
//! `T` is a node-weighted Steiner tree (groups cost 0, satellites 1) restricted to the space
//! hexes that touch no group outside `T`; it is computed with the Dreyfus–Wagner subset dynamic
//! programme, bounded by the satellite budget, on the few hexes that can lie on a path of that
//! length between two of the groups.
//!
//! Every satellite layout of a building set ([`available_layouts`]) is a set of exactly that
//! many satellites joining its groups within the same region. Such sets are grown from one
//! group over the hexes that lie on some cheapest layout (their Dreyfus–Wagner value with all
//! the groups is the cheapest cost), each hex either taken or banned for the rest of the
//! branch so that every layout is found once, and a branch is cut when a missing group is
//! farther than the satellites left. The building set is legal, so every layout is too: no
//! check per layout is needed.

mod check;
mod graph;
mod layouts;
mod listing;
mod steiner;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use orrery_core::hex::Hex;

pub use check::check;
pub use listing::{available, available_layouts};

/// The largest number of building groups one federation may join for the exact search (the
/// subset programme grows as 3ⁿ). Larger building sets are never listed by [`available`] and
/// are checked without the superset/subset comparison by [`check`].
pub const MAX_GROUPS_PER_FEDERATION: usize = 14;

/// The largest number of usable building groups [`available`] combines: groups beyond the
/// first ones (in board order) are left out of the listing.
pub const MAX_GROUPS: usize = 20;

/// Satellite budgets are capped at this many (far more than any player owns).
const MAX_BUDGET: usize = 200;

/// Everything the federation rules need to know about one player's position.
pub struct FedInput<'a> {
    /// The player's colonized planets (and other federation members such as stations) that are
    /// not in a federation, with their power values. In single-federation mode the buildings
    /// of the existing federation may be listed too: their values then count toward the total.
    pub buildings: &'a HashMap<Hex, u32>,
    /// Every hex (buildings and satellites) of the player's existing federations.
    pub federated: &'a HashSet<Hex>,
    /// May a new satellite go on this hex: on the map, empty space, no satellite of this
    /// player. Hexes next to an existing federation are excluded by this module, not by the
    /// predicate.
    pub space: &'a dyn Fn(Hex) -> bool,
    /// The value the federation must reach (in single-federation mode: the total value of the
    /// grown federation).
    pub threshold: u32,
    /// The player has one federation that each formation extends.
    pub single_federation: bool,
}

/// A legal federation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Federation {
    /// Its buildings (sorted), including those added because they touch it. In
    /// single-federation mode this includes the buildings of the existing federation that are
    /// listed in [`FedInput::buildings`], so a growth that adds nothing new is still non-empty.
    pub buildings: Vec<Hex>,
    /// The new satellites (sorted): the satellite count is `satellites.len()`.
    pub satellites: Vec<Hex>,
    /// In single-federation mode, the satellites of the existing federation (sorted; every
    /// hex of [`FedInput::federated`] joined that is not in [`FedInput::buildings`]): part of
    /// the federation's hexes, but neither buildings nor new satellites. Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub old_satellites: Vec<Hex>,
    /// Its power value (in single-federation mode, of the whole federation).
    pub value: u32,
}

impl Federation {
    /// The hexes of the federation (buildings, new satellites and, in single-federation mode,
    /// the old satellites), sorted: the argument of the `federation` move.
    pub fn hexes(&self) -> Vec<Hex> {
        let mut all: Vec<Hex> = self
            .buildings
            .iter()
            .chain(&self.satellites)
            .chain(&self.old_satellites)
            .copied()
            .collect();
        all.sort();
        all
    }
}

/// A list of hexes, displayed comma-separated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexList(pub Vec<Hex>);

impl fmt::Display for HexList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, h) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{h}")?;
        }
        Ok(())
    }
}

/// Why a proposed federation is not legal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FedError {
    /// No hex was given.
    #[error("the federation has no hex")]
    Empty,
    /// A hex was given twice.
    #[error("{0} is listed twice")]
    Repeated(Hex),
    /// A hex is neither a usable building nor free space for a satellite.
    #[error("{0} is neither one of your buildings nor free space for a satellite")]
    NotUsable(Hex),
    /// A hex (given, or added because it touches the federation) is in or next to one of the
    /// player's federations.
    #[error("touches an existing federation at {0}")]
    TouchesFederation(Hex),
    /// The hexes do not form one connected group.
    #[error("not connected")]
    NotConnected,
    /// The total power value is too low.
    #[error("value {value} below {threshold}")]
    BelowThreshold {
        /// The federation's value.
        value: u32,
        /// The value required.
        threshold: u32,
    },
    /// In single-federation mode, the existing federation must be extended.
    #[error("must extend the existing federation")]
    MustExtend,
    /// The same buildings can be federated with fewer satellites.
    #[error("needs fewer satellites: a federation of the same planets needs {needed}, not {used}")]
    SameBuildingsFewer {
        /// Satellites the cheapest federation of these buildings needs.
        needed: usize,
        /// Satellites proposed.
        used: usize,
    },
    /// Part of the buildings reaches the threshold with fewer satellites.
    #[error(
        "needs fewer satellites: the planets {planets} alone reach the threshold with {needed}, not {used}"
    )]
    SubsetFewer {
        /// The buildings of the cheaper federation.
        planets: HexList,
        /// Its satellites.
        needed: usize,
        /// Satellites proposed.
        used: usize,
    },
    /// A connection through more of the player's buildings needs fewer satellites.
    #[error(
        "needs fewer satellites: passing by more of your planets connects these with {needed}, not {used}"
    )]
    SupersetFewer {
        /// Satellites of the cheaper, larger federation.
        needed: usize,
        /// Satellites proposed.
        used: usize,
    },
}
