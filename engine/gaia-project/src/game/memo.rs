//! Remembered results of pure, expensive searches, keyed by their complete input and shared by
//! clones of one game (so a bot trying moves, or a turn built part by part, searches once).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};

use super::federate::{Hexes, ValuedHexes};
use super::placement::RangeOrigins;
use super::seat_grants::SeatGrants;
use super::seat_map::SeatMap;
use super::structures::Structures;
use crate::federation::Federation;
use crate::notation::HexRef;
use orrery_core::shared::Shared;
use smallvec::SmallVec;

/// Everything the federation search of one seat depends on (the map and content are those of
/// the game the memo belongs to). The lists are in the state's order, not sorted: equal keys
/// still mean equal inputs, and a state gives the same key each time it is asked.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct FedKey {
    pub seat: usize,
    /// Usable buildings with their power values, in the order of their spaces.
    pub buildings: ValuedHexes,
    /// Hexes of the seat's federations, federation by federation.
    pub federated: Hexes<16>,
    /// Where a satellite cannot go: the seat's satellites, then the spaces whose structures
    /// keep one off.
    pub blocked: Hexes<48>,
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
pub(crate) struct WordHasher(u64);

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

/// Seats' grants (or places on the map) remembered at once: a few per seat, so clones a bot
/// explores side by side do not push each other out at every listing.
const SEAT_GRANTS: usize = 8;

/// A shared memo of federation searches, of seats' grants and of seats' places on the map.
#[derive(Debug, Clone, Default)]
pub(crate) struct Memo {
    federations: Arc<Mutex<FedMap>>,
    fed_names: Arc<Mutex<KeptNames>>,
    seat_grants: Arc<Mutex<Kept<SeatGrants>>>,
    seat_maps: Arc<Mutex<KeptMaps>>,
}

/// The hex names of each federation of a search's result, in the order a `federation` part
/// writes them.
pub(crate) type FedNames = Vec<Arc<[HexRef]>>;

/// Federation searches' results with their names, the one remembered longest first.
type KeptNames = Recent<(Arc<Vec<Federation>>, Arc<FedNames>)>;

/// Seats' places on the map remembered, each with its seat and the structures it was last
/// found to fit, the one remembered longest first.
type KeptMaps = Recent<(usize, Shared<Structures>, Arc<SeatMap>)>;

/// Values remembered by seat, with their seats, the one remembered longest first.
type Kept<T> = Recent<(usize, Arc<T>)>;

/// At most [`SEAT_GRANTS`] entries, the one remembered longest first, held inline in their
/// lock: a listing looks here first, and a list behind one more pointer costs it a memory
/// access it waits for.
type Recent<E> = SmallVec<[E; SEAT_GRANTS]>;

/// The value of a seat kept that `fits`, or the one `make` works out from the one of the seat
/// kept last (then kept, in place of the one kept longest).
fn kept<T>(
    kept: &Mutex<Kept<T>>,
    seat: usize,
    fits: impl Fn(&T) -> bool,
    make: impl FnOnce(Option<&T>) -> T,
) -> Arc<T> {
    let Ok(mut kept) = kept.lock() else {
        return Arc::new(make(None));
    };
    // At most one fits (each was made when none did, and holds the parts it compares by
    // pointer): the one kept last is the likeliest.
    if let Some((_, found)) = kept.iter().rev().find(|(s, g)| *s == seat && fits(g)) {
        return found.clone();
    }
    let last = kept.iter().rev().find(|(s, _)| *s == seat);
    let made = Arc::new(make(last.map(|(_, g)| &**g)));
    remember(&mut kept, (seat, made.clone()));
    made
}

/// Keeps `entry` last, forgetting the one kept longest when [`SEAT_GRANTS`] are kept.
fn remember<E>(kept: &mut Recent<E>, entry: E) {
    if kept.len() >= SEAT_GRANTS {
        kept.remove(0);
    }
    kept.push(entry);
}

/// What the memo holds of a seat's place on the map ([`Memo::seat_map_kept`]).
pub(crate) enum KeptPlace {
    /// The place.
    Place(Arc<SeatMap>),
    /// None: the seat's range origins, worked out to look for it.
    Origins(RangeOrigins),
}

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

    /// The names of the federations of a search's result `found` (the very result, by
    /// pointer), or those `make` works out (then remembered, in place of the ones
    /// remembered longest).
    pub fn federation_names(
        &self,
        found: &Arc<Vec<Federation>>,
        make: impl FnOnce() -> FedNames,
    ) -> Arc<FedNames> {
        let Ok(mut kept) = self.fed_names.lock() else {
            return Arc::new(make());
        };
        if let Some((_, names)) = kept.iter().find(|(f, _)| Arc::ptr_eq(f, found)) {
            return names.clone();
        }
        let names = Arc::new(make());
        remember(&mut kept, (found.clone(), names.clone()));
        names
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
        kept(&self.seat_grants, seat, fits, make)
    }

    /// The remembered place on the map of a seat that `fits` (the map and planets): the one
    /// last found for the very `structures`, or else one with the seat's range origins
    /// (`from` works them out; it is then taken as found for `structures`); else the origins
    /// worked out, nothing being made.
    pub fn seat_map_kept(
        &self,
        seat: usize,
        structures: &Shared<Structures>,
        from: impl FnOnce() -> RangeOrigins,
        fits: impl Fn(&SeatMap) -> bool,
    ) -> KeptPlace {
        match self.seat_maps.lock() {
            Ok(mut kept) => find_place(&mut kept, seat, structures, from, fits),
            Err(_) => KeptPlace::Origins(from()),
        }
    }

    /// The remembered place on the map of a seat that `fits` (the map and planets): the one
    /// last found for the very `structures`, or else one with the seat's range origins
    /// (`from` works them out), or else the one `make` works out from them and the one of the
    /// seat remembered last (then remembered, in place of the one remembered longest).
    pub fn seat_map(
        &self,
        seat: usize,
        structures: &Shared<Structures>,
        from: impl FnOnce() -> RangeOrigins,
        fits: impl Fn(&SeatMap) -> bool,
        make: impl FnOnce(&RangeOrigins, Option<&SeatMap>) -> SeatMap,
    ) -> Arc<SeatMap> {
        let Ok(mut kept) = self.seat_maps.lock() else {
            return Arc::new(make(&from(), None));
        };
        let from = match find_place(&mut kept, seat, structures, from, fits) {
            KeptPlace::Place(found) => return found,
            KeptPlace::Origins(from) => from,
        };
        let last = kept.iter().rev().find(|(s, ..)| *s == seat);
        let made = Arc::new(make(&from, last.map(|(.., m)| &**m)));
        remember(&mut kept, (seat, structures.clone(), made.clone()));
        made
    }

    /// Forgets everything (for measuring searches from scratch).
    pub fn clear(&self) {
        if let Ok(mut map) = self.federations.lock() {
            map.clear();
        }
        if let Ok(mut kept) = self.fed_names.lock() {
            kept.clear();
        }
        if let Ok(mut kept) = self.seat_grants.lock() {
            kept.clear();
        }
        if let Ok(mut kept) = self.seat_maps.lock() {
            kept.clear();
        }
    }
}

/// Looks in `kept` for the place of a seat that `fits`: the one last found for the very
/// `structures`, or else one with the seat's range origins (`from` works them out; it is then
/// taken as found for `structures`); else the origins worked out.
fn find_place(
    kept: &mut [(usize, Shared<Structures>, Arc<SeatMap>)],
    seat: usize,
    structures: &Shared<Structures>,
    from: impl FnOnce() -> RangeOrigins,
    fits: impl Fn(&SeatMap) -> bool,
) -> KeptPlace {
    // The very same structures: the same origins. Newest first: the likeliest.
    if let Some((.., found)) = kept
        .iter()
        .rev()
        .find(|(s, k, m)| *s == seat && Shared::ptr_eq(k, structures) && fits(m))
    {
        return KeptPlace::Place(found.clone());
    }
    let from = from();
    match kept
        .iter_mut()
        .rev()
        .find(|(s, _, m)| *s == seat && fits(m) && m.from == from)
    {
        Some((_, k, found)) => {
            *k = structures.clone();
            KeptPlace::Place(found.clone())
        }
        None => KeptPlace::Origins(from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn federation_names_are_made_once_per_result_and_found_by_its_pointer() {
        let memo = Memo::default();
        let found: Arc<Vec<Federation>> = Arc::default();
        let name = |n: u32| -> FedNames { vec![vec![HexRef::Axial { q: n as i32, r: 0 }].into()] };
        let made = std::cell::Cell::new(0);
        let make = |n: u32| {
            made.set(made.get() + 1);
            name(n)
        };
        let first = memo.federation_names(&found, || make(1));
        // The very result again: the remembered names, not made again.
        let again = memo.federation_names(&found.clone(), || make(2));
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(*again, name(1));
        assert_eq!(made.get(), 1);
        // An equal result that is another value: named afresh.
        let other: Arc<Vec<Federation>> = Arc::default();
        assert_eq!(*memo.federation_names(&other, || make(3)), name(3));
        assert_eq!(made.get(), 2);
        // Forgotten when the memo is cleared.
        memo.clear();
        assert_eq!(*memo.federation_names(&found, || make(4)), name(4));
        assert_eq!(made.get(), 3);
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
