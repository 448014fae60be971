//! The Orrery core: what every game built on Orrery needs, and nothing of any one game.
//!
//! A game is a crate of its own on top of this one: it declares its content types, rules and
//! notation, and gets from here bounded reading of content folders ([`files`]), YAML trees
//! that remember where each value came from ([`located`], [`diagnostics`]), schemas generated from the content types ([`schema`]) and checks with
//! `file:line:col` errors, the sandboxed Rhai host for its hooks ([`script`]), hex geometry
//! ([`hex`]), the one seeded generator ([`rng`]), copy-on-write state parts ([`shared`]),
//! strict JSON reading ([`unique_keys`]), and the interface ([`play_api`]) through which the
//! [`bot`]s, studies and benchmarks play it. Cargo keeps the direction: this crate depends on
//! no game.

pub mod board_view;
pub mod bot;
pub mod content;
pub mod diagnostics;
pub mod files;
pub mod game_module;
pub mod hex;
pub mod located;
pub mod play_api;
pub mod rng;
pub mod schema;
pub mod script;
pub mod shared;
pub mod unique_keys;

#[cfg(test)]
mod toy;
