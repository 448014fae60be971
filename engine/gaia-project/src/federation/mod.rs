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
mod model;
mod steiner;
#[cfg(test)]
mod tests;

pub use check::check;
pub use listing::{available, available_layouts};
pub use model::{
    FedError, FedInput, Federation, HexList, HexSet, HexValues, MAX_GROUPS,
    MAX_GROUPS_PER_FEDERATION,
};
