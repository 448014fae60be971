//! A game's content pipeline, generic over the content kinds the game declares once in a
//! [`kinds::KindTable`]: reading and classifying files, located trees, overlays applied with
//! provenance (`file:line:col`), schema checks, the overlay schema with typed values, duplicate
//! ids, and `explain`/`diff` field walks. The game adds its decoding and the checks only it
//! knows through [`load::GameContent`].

pub mod inspect;
pub mod kinds;
pub mod known;
pub mod load;
pub mod overlay;
pub mod patch;
pub mod provenance;
pub mod typed;

#[cfg(test)]
mod tests;
