//! Remembered results of pure, expensive searches, keyed by their complete input and shared by
//! clones of one game (so a bot trying moves, or a turn built part by part, searches once).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};

use super::seat_grants::SeatGrants;
use crate::federation::Federation;
use orrery_core::hex::Hex;
use orrery_core::shared::Shared;

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

/// A hasher for keys made in the process (no hostile input reaches the memo): a word at a
/// time, multiplied and rotated, so a key's planet list hashes in a few dozen steps instead of
/// SipHash's one round per eight bytes and a finish.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 56));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_i32(&mut self, n: i32) {
        self.add(u64::from(n as u32));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl WordHasher {
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The spaces that hold a planet, in space order, for one list of planets by space.
type PlanetSpaces = (Shared<Vec<u8>>, Arc<[usize]>);

/// Seats' grants remembered at once: a few per seat, so clones a bot explores side by side
/// do not push each other out at every listing.
const SEAT_GRANTS: usize = 8;

/// A shared memo of federation searches, of which spaces hold a planet and of seats' grants.
#[derive(Debug, Clone, Default)]
pub(crate) struct Memo {
    federations: Arc<Mutex<FedMap>>,
    planet_spaces: Arc<Mutex<Option<PlanetSpaces>>>,
    seat_grants: Arc<Mutex<KeptGrants>>,
}

/// Seats' grants remembered, with their seats, the one remembered longest first.
type KeptGrants = Vec<(usize, Arc<SeatGrants>)>;

type FedMap = HashMap<FedKey, Arc<Vec<Federation>>, BuildHasherDefault<WordHasher>>;

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

    /// The spaces holding a planet (`planets`: the planet index of every space; `holds`:
    /// whether a planet index is a planet, by the game's content, so always the same for one
    /// memo), in space order, remembered for the last `planets` asked about (they change only
    /// when a planet is placed or a Gaia project finishes).
    pub fn planet_spaces(
        &self,
        planets: &Shared<Vec<u8>>,
        holds: impl Fn(u8) -> bool,
    ) -> Arc<[usize]> {
        let mut last = self.planet_spaces.lock().ok();
        if let Some((key, spaces)) = last.as_ref().and_then(|l| l.as_ref()) {
            // Shared lists compare by pointer first, then item by item.
            if key == planets {
                return spaces.clone();
            }
        }
        let spaces: Arc<[usize]> = planets
            .iter()
            .enumerate()
            .filter(|(_, p)| holds(**p))
            .map(|(i, _)| i)
            .collect();
        if let Some(last) = last.as_mut() {
            **last = Some((planets.clone(), spaces.clone()));
        }
        spaces
    }

    /// The remembered grants of a seat that `fits`, or those `make` works out from the ones
    /// of the seat remembered last (then remembered, in place of the ones remembered
    /// longest).
    pub fn seat_grants(
        &self,
        seat: usize,
        fits: impl Fn(&SeatGrants) -> bool,
        make: impl FnOnce(Option<&SeatGrants>) -> SeatGrants,
    ) -> Arc<SeatGrants> {
        let Ok(mut kept) = self.seat_grants.lock() else {
            return Arc::new(make(None));
        };
        if let Some((_, found)) = kept.iter().find(|(s, g)| *s == seat && fits(g)) {
            return found.clone();
        }
        let last = kept.iter().rev().find(|(s, _)| *s == seat);
        let made = Arc::new(make(last.map(|(_, g)| &**g)));
        if kept.len() >= SEAT_GRANTS {
            kept.remove(0);
        }
        kept.push((seat, made.clone()));
        made
    }

    /// Forgets everything (for measuring searches from scratch).
    pub fn clear(&self) {
        if let Ok(mut map) = self.federations.lock() {
            map.clear();
        }
        if let Ok(mut last) = self.planet_spaces.lock() {
            *last = None;
        }
        if let Ok(mut kept) = self.seat_grants.lock() {
            kept.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planet_spaces_follow_the_planets_asked_about() {
        let memo = Memo::default();
        let holds = |p: u8| p != 0;
        let planets: Shared<Vec<u8>> = Shared::new(vec![0, 3, 0, 1, 2]);
        assert_eq!(&*memo.planet_spaces(&planets, holds), &[1, 3, 4]);
        // A clone is the same list: remembered.
        assert_eq!(&*memo.planet_spaces(&planets.clone(), holds), &[1, 3, 4]);
        // A planet placed on empty space (changing a clone copies the shared list).
        let mut placed = planets.clone();
        placed[0] = 5;
        assert_eq!(&*memo.planet_spaces(&placed, holds), &[0, 1, 3, 4]);
        assert_eq!(&*memo.planet_spaces(&planets, holds), &[1, 3, 4]);
        // An equal list that is not a clone is found equal by its items.
        let equal: Shared<Vec<u8>> = Shared::new(vec![0, 3, 0, 1, 2]);
        assert_eq!(&*memo.planet_spaces(&equal, holds), &[1, 3, 4]);
        // Forgotten, the list is worked out again.
        memo.clear();
        assert_eq!(&*memo.planet_spaces(&equal, |p| p > 1), &[1, 4]);
    }

    #[test]
    fn equal_keys_hash_equally_and_different_words_differently() {
        use std::hash::BuildHasher;
        let build = BuildHasherDefault::<WordHasher>::default();
        let a: Vec<u8> = (0..19).collect();
        let mut b = a.clone();
        assert_eq!(build.hash_one(&a), build.hash_one(&b));
        b[18] = 99;
        assert_ne!(build.hash_one(&a), build.hash_one(&b));
        assert_ne!(build.hash_one((1u32, 2u32)), build.hash_one((2u32, 1u32)));
    }
}
