//! Remembered results of pure, expensive searches, keyed by their complete input and shared by
//! clones of one game (so a bot trying moves, or a turn built part by part, searches once).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::federation::Federation;
use orrery_core::hex::Hex;

/// Everything the federation search of one seat depends on (the map and content are those of
/// the game the memo belongs to).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct FedKey {
    pub seat: usize,
    /// Usable buildings with their power values.
    pub buildings: Vec<(Hex, u32)>,
    /// Hexes already in the seat's federations.
    pub federated: Vec<Hex>,
    /// Spaces where a satellite cannot go because of a building or satellite.
    pub blocked: Vec<Hex>,
    /// Planet of every space.
    pub planets: orrery_core::shared::Shared<Vec<u8>>,
    pub threshold: u32,
    pub single: bool,
    /// Satellites the seat can pay for.
    pub max: usize,
}

/// Entries kept before the memo starts over.
const CAPACITY: usize = 256;

/// A shared memo of federation searches.
#[derive(Debug, Clone, Default)]
pub(crate) struct Memo {
    federations: Arc<Mutex<HashMap<FedKey, Arc<Vec<Federation>>>>>,
}

impl Memo {
    /// The remembered result for a key.
    pub fn get(&self, key: &FedKey) -> Option<Arc<Vec<Federation>>> {
        let map = self.federations.lock().ok()?;
        map.get(key).cloned()
    }

    /// Remembers a result.
    pub fn put(&self, key: FedKey, found: Arc<Vec<Federation>>) {
        if let Ok(mut map) = self.federations.lock() {
            if map.len() >= CAPACITY {
                map.clear();
            }
            map.insert(key, found);
        }
    }

    /// Forgets everything (for measuring searches from scratch).
    pub fn clear(&self) {
        if let Ok(mut map) = self.federations.lock() {
            map.clear();
        }
    }
}
