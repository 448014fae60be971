//! Orrery: a data-driven rules engine for Gaia Project-like board games.
//!
//! The kernel supplies what every game of the family needs — hex geometry, the power cycle,
//! the effect language, move notation — and [`content`] supplies the game itself from YAML and
//! Rhai files. The kernel names no faction and no tile: those live in content.

pub mod board;
pub mod bot;
pub mod content;
pub mod diagnostics;
pub mod federation;
pub mod game;
pub mod hex;
pub mod map;
pub mod notation;
pub mod play_api;
pub mod player;
pub mod power;
pub mod record;
pub mod rng;
pub mod script;
pub mod shared;
pub mod unique_keys;
