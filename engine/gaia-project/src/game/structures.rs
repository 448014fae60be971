//! The buildings on the map by space index, held as one list sorted by space: a copy (what a
//! part that builds makes of a state another clone shares) is one allocation, not a tree of
//! nodes. Read and written like the ordered map it replaces, and saved as one.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use smallvec::SmallVec;

use super::Structure;

/// The structures on one space (held inline).
pub type OnSpace = SmallVec<[Structure; 2]>;

/// Buildings by space index, sorted by space (see the module).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Structures(Vec<(usize, OnSpace)>);

/// Entries of room a copy keeps beyond those it holds.
const COPY_ROOM: usize = 4;

impl Clone for Structures {
    /// With room for a few more entries: a state's structures are copied to be changed, and
    /// a building on a new space adds one (then without moving the list to a bigger block).
    fn clone(&self) -> Self {
        let mut list = Vec::with_capacity(self.0.len() + COPY_ROOM);
        list.extend(self.0.iter().cloned());
        Structures(list)
    }
}

impl Structures {
    /// Where a space is, or would be inserted.
    fn find(&self, idx: usize) -> Result<usize, usize> {
        self.0.binary_search_by_key(&idx, |(i, _)| *i)
    }

    /// The structures on a space, if it has an entry.
    pub fn get(&self, idx: &usize) -> Option<&OnSpace> {
        self.find(*idx).ok().map(|at| &self.0[at].1)
    }

    /// The structures on a space, to change, if it has an entry.
    pub fn get_mut(&mut self, idx: &usize) -> Option<&mut OnSpace> {
        self.find(*idx).ok().map(|at| &mut self.0[at].1)
    }

    /// Whether a space has an entry (possibly empty).
    pub fn contains_key(&self, idx: &usize) -> bool {
        self.find(*idx).is_ok()
    }

    /// The entry of a space, made empty if it has none.
    pub fn entry_or_default(&mut self, idx: usize) -> &mut OnSpace {
        let at = match self.find(idx) {
            Ok(at) => at,
            Err(at) => {
                self.0.insert(at, (idx, OnSpace::new()));
                at
            }
        };
        &mut self.0[at].1
    }

    /// Sets a space's entry; the one it replaces.
    pub fn insert(&mut self, idx: usize, list: OnSpace) -> Option<OnSpace> {
        match self.find(idx) {
            Ok(at) => Some(std::mem::replace(&mut self.0[at].1, list)),
            Err(at) => {
                self.0.insert(at, (idx, list));
                None
            }
        }
    }

    /// Removes a space's entry; the one removed.
    pub fn remove(&mut self, idx: &usize) -> Option<OnSpace> {
        self.find(*idx).ok().map(|at| self.0.remove(at).1)
    }

    /// The entries by space, in order of space.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&usize, &OnSpace)> + Clone {
        self.0.iter().map(|(i, l)| (i, l))
    }

    /// The entries' structures, in order of space.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &OnSpace> + Clone {
        self.0.iter().map(|(_, l)| l)
    }

    /// The number of spaces with an entry.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no space has an entry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a> IntoIterator for &'a Structures {
    type Item = (&'a usize, &'a OnSpace);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (usize, OnSpace)>,
        fn(&'a (usize, OnSpace)) -> (&'a usize, &'a OnSpace),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(i, l)| (i, l))
    }
}

impl FromIterator<(usize, OnSpace)> for Structures {
    /// Entries in any order; a later entry for a space replaces an earlier one (as a map's
    /// `collect` does).
    fn from_iter<I: IntoIterator<Item = (usize, OnSpace)>>(iter: I) -> Self {
        let map: BTreeMap<usize, OnSpace> = iter.into_iter().collect();
        Structures(map.into_iter().collect())
    }
}

impl Serialize for Structures {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Structures {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(BTreeMap::<usize, OnSpace>::deserialize(deserializer)?
            .into_iter()
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hut(seat: usize) -> OnSpace {
        smallvec::smallvec![Structure {
            seat,
            building: "hut".into(),
            shared: false,
            off_board: false,
        }]
    }

    /// Reads and writes in any order of spaces behave as the ordered map did, and a saved
    /// list reads back the same and is written as the map was.
    #[test]
    fn behaves_and_saves_as_an_ordered_map() {
        let mut s = Structures::default();
        let mut m: BTreeMap<usize, OnSpace> = BTreeMap::new();
        for (idx, seat) in [(40, 0), (3, 1), (17, 2), (3, 3), (90, 0), (0, 1)] {
            assert_eq!(s.insert(idx, hut(seat)), m.insert(idx, hut(seat)));
        }
        s.entry_or_default(5).push(hut(1)[0].clone());
        m.entry(5).or_default().push(hut(1)[0].clone());
        s.entry_or_default(8);
        m.entry(8).or_default();
        assert_eq!(s.remove(&17), m.remove(&17));
        assert_eq!(s.remove(&18), m.remove(&18));
        assert!(s.iter().eq(m.iter()));
        assert!(s.iter().rev().eq(m.iter().rev()));
        assert_eq!(s.len(), m.len());
        for idx in 0..100 {
            assert_eq!(s.get(&idx), m.get(&idx));
            assert_eq!(s.contains_key(&idx), m.contains_key(&idx));
        }
        let saved = serde_json::to_string(&s).expect("saves");
        assert_eq!(saved, serde_json::to_string(&m).expect("saves"));
        let back: Structures = serde_json::from_str(&saved).expect("reads");
        assert_eq!(back, s);
        // A copy holds the same and has room for a building on a new space.
        let mut copy = s.clone();
        assert_eq!(copy, s);
        assert!(copy.0.capacity() > copy.0.len());
        copy.entry_or_default(7);
        assert_ne!(copy, s);
    }
}
