//! The federation rules' model: what they are given about a player's position
//! ([`FedInput`]), what they find ([`Federation`]), why a proposal fails ([`FedError`]), and
//! their limits.

use std::fmt;

use serde::{Deserialize, Serialize};

use orrery_core::hex::Hex;

/// The largest number of building groups one federation may join for the exact search (the
/// subset programme grows as 3ⁿ). Larger building sets are never listed by [`super::available`] and
/// are checked without the superset/subset comparison by [`super::check`].
pub const MAX_GROUPS_PER_FEDERATION: usize = 14;

/// The largest number of usable building groups [`super::available`] combines: groups beyond the
/// first ones (in board order) are left out of the listing.
pub const MAX_GROUPS: usize = 20;

/// Satellite budgets are capped at this many (far more than any player owns).
pub(super) const MAX_BUDGET: usize = 200;

/// Hexes sorted, each once, looked up by binary search: a position's few federated hexes
/// without a hash table to build or hash into.
#[derive(Debug, Clone, Copy, Default)]
pub struct HexSet<'a>(&'a [Hex]);

impl<'a> HexSet<'a> {
    /// The set of a sorted list of distinct hexes; `None` when it is not one.
    pub fn sorted(hexes: &'a [Hex]) -> Option<HexSet<'a>> {
        hexes
            .windows(2)
            .all(|w| w[0] < w[1])
            .then_some(HexSet(hexes))
    }

    /// Whether the hex is in the set.
    #[inline]
    pub fn contains(&self, h: &Hex) -> bool {
        self.0.binary_search(h).is_ok()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The hexes, in order.
    pub fn iter(&self) -> std::slice::Iter<'a, Hex> {
        self.0.iter()
    }
}

/// Hexes with a value each, sorted by hex, each hex once, looked up by binary search.
#[derive(Debug, Clone, Copy, Default)]
pub struct HexValues<'a>(&'a [(Hex, u32)]);

impl<'a> HexValues<'a> {
    /// The map of a list sorted by hex, each hex once; `None` when it is not one.
    pub fn sorted(entries: &'a [(Hex, u32)]) -> Option<HexValues<'a>> {
        entries
            .windows(2)
            .all(|w| w[0].0 < w[1].0)
            .then_some(HexValues(entries))
    }

    /// The value at a hex.
    #[inline]
    pub fn get(&self, h: &Hex) -> Option<&'a u32> {
        let entries = self.0;
        entries
            .binary_search_by(|(x, _)| x.cmp(h))
            .ok()
            .map(|i| &entries[i].1)
    }

    /// Whether the hex has a value.
    #[inline]
    pub fn contains_key(&self, h: &Hex) -> bool {
        self.get(h).is_some()
    }

    /// The hexes, in order.
    pub fn keys(&self) -> impl Iterator<Item = &'a Hex> {
        self.0.iter().map(|(h, _)| h)
    }
}

/// Everything the federation rules need to know about one player's position.
pub struct FedInput<'a> {
    /// The player's colonized planets (and other federation members such as stations) that are
    /// not in a federation, with their power values. In single-federation mode the buildings
    /// of the existing federation may be listed too: their values then count toward the total.
    pub buildings: HexValues<'a>,
    /// Every hex (buildings and satellites) of the player's existing federations.
    pub federated: HexSet<'a>,
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
