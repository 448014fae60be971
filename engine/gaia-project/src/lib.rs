//! Gaia Project on the Orrery core: the rules that are this game's (rounds and phases, the
//! power cycle, federations, legal moves), its content types and effect language, its move
//! notation and its recorded-game format.
//!
//! [`content`] supplies the game itself from YAML and Rhai files; this crate names no faction
//! and no tile: those live in content. What is not this game's (bounded reading, located YAML,
//! schema checks, the Rhai host, hexes, the generator, the game interface and the bots) comes
//! from `orrery_core`.

pub mod board;
pub mod commands;
pub mod content;
pub mod federation;
pub mod game;
pub mod income_log;
pub mod items;
mod key_block;
pub(crate) mod lookup;
pub mod map;
pub mod module;
pub mod notation;
pub mod player;
pub mod power;
pub mod record;
pub mod scribe;
pub mod sector;
pub mod stamped;
pub mod word_map;
