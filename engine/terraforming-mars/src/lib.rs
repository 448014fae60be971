//! Terraforming Mars (base game on Tharsis) on the Orrery kernel.
//!
//! The rules live in content (`content/terraforming-mars/`); this crate holds the vocabulary
//! those files are written in ([`content`]), the move notation ([`notation`]), the recorded
//! games of the public engine ([`record`]) and the game itself ([`game`]). It depends on the
//! kernel only for generic pieces (diagnostics).

pub mod check;
pub mod content;
pub mod game;
pub mod notation;
pub mod record;
