//! Terraforming Mars (base game on Tharsis) on the Orrery core.
//!
//! The rules live in content (`content/terraforming-mars/`); this crate holds the vocabulary
//! those files are written in ([`content`]), the move notation ([`notation`]), the recorded
//! games of the public engine ([`record`]) and replaying them ([`conformance`]), and the game
//! itself ([`game`]). It depends on the core alone (diagnostics, bounded reading, the
//! generator), never on another game.

pub mod check;
pub mod conformance;
pub mod content;
pub mod game;
pub mod items;
pub mod module;
pub mod notation;
pub mod record;
pub mod table;
