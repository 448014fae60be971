//! A small map keyed by words: a seat's research levels, buildings taken and VP by source.
//! It reads, iterates, compares and saves as the ordered map it replaces (keys in order,
//! saved as a JSON object), but its keys are shared (they change only when a new key comes)
//! and its values are held inline, so copying it to change a value is one small block
//! copied, with nothing allocated and nothing to free (while it holds at most `N` values).
//! The keys' block has room after them: a map whose keys nothing else holds takes a new key
//! in place, so a game played on in order mostly allocates nothing for a seat's first VP
//! from a source or first building of a kind (the seat's remembered grants hold a copy of
//! its buildings taken, so their keys are copied once when a kind is first taken).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use smallvec::SmallVec;

use crate::key_block::KeyBlock;
use crate::notation::Word;

/// Keys sorted and shared, values inline in the keys' order (up to `N` of them).
///
/// The keys are the first slots of `slots` (a `KeyBlock`: room for 4 more when it grows, 1
/// in a copy), as many as there are values.
pub struct WordMap<V: Copy, const N: usize> {
    slots: KeyBlock<4, 1>,
    values: SmallVec<[V; N]>,
}

impl<V: Copy, const N: usize> Clone for WordMap<V, N> {
    /// The keys shared, the values copied as one block.
    #[inline]
    fn clone(&self) -> Self {
        WordMap {
            slots: self.slots.clone(),
            values: SmallVec::from_slice(&self.values),
        }
    }
}

impl<V: Copy + PartialEq, const N: usize> PartialEq for WordMap<V, N> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.values == other.values
            && (Arc::ptr_eq(self.slots.shared(), other.slots.shared())
                || self.key_list() == other.key_list())
    }
}

impl<V: Copy + Eq, const N: usize> Eq for WordMap<V, N> {}

impl<V: Copy, const N: usize> Default for WordMap<V, N> {
    fn default() -> Self {
        WordMap {
            slots: KeyBlock::default(),
            values: SmallVec::new(),
        }
    }
}

impl<V: Copy, const N: usize> WordMap<V, N> {
    /// The keys, in order.
    #[inline]
    fn key_list(&self) -> &[Word] {
        &self.slots.slots()[..self.values.len()]
    }

    /// Where a key is, or where it would go.
    #[inline]
    fn find(&self, key: &str) -> Result<usize, usize> {
        self.key_list().binary_search_by(|k| k.as_str().cmp(key))
    }

    /// The value of a key.
    #[inline]
    pub fn get(&self, key: &str) -> Option<&V> {
        self.find(key).ok().map(|i| &self.values[i])
    }

    /// The value of a key, to change.
    #[inline]
    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.find(key).ok().map(|i| &mut self.values[i])
    }

    /// Whether the key is in the map.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// The place of a key, put in with `value` if it was not there.
    fn slot(&mut self, key: Word, value: V) -> (usize, bool) {
        match self.find(&key) {
            Ok(i) => (i, true),
            Err(i) => {
                self.slots.insert(self.values.len(), i, key);
                self.values.insert(i, value);
                (i, false)
            }
        }
    }

    /// Sets a key's value; the value it replaces, if any.
    pub fn insert(&mut self, key: Word, value: V) -> Option<V> {
        let (i, was) = self.slot(key, value);
        was.then(|| std::mem::replace(&mut self.values[i], value))
    }

    /// Takes a key out; its value, if it was there.
    pub fn remove(&mut self, key: &str) -> Option<V> {
        let i = self.find(key).ok()?;
        self.slots.remove(self.values.len(), i);
        Some(self.values.remove(i))
    }

    /// The entry of a key, to read or fill in.
    pub fn entry(&mut self, key: Word) -> Entry<'_, V, N> {
        Entry { map: self, key }
    }

    /// The entries in key order.
    pub fn iter(&self) -> Iter<'_, V> {
        Iter {
            keys: self.key_list().iter(),
            values: self.values.iter(),
        }
    }

    /// The entries in key order, values to change.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&Word, &mut V)> {
        let keys = &self.slots.slots()[..self.values.len()];
        keys.iter().zip(self.values.iter_mut())
    }

    /// Whether two maps hold the very same list of keys (shared, not only equal): their
    /// values then pair up place by place.
    pub fn same_keys(&self, other: &Self) -> bool {
        Arc::ptr_eq(self.slots.shared(), other.slots.shared())
    }

    /// The keys in order.
    pub fn keys(&self) -> std::slice::Iter<'_, Word> {
        self.key_list().iter()
    }

    /// The block the keys are shared in (one block while no key is added; a clone holding
    /// it keeps it as it is): the same block means the same keys.
    pub(crate) fn shared_keys(&self) -> &Arc<[Word]> {
        self.slots.shared()
    }

    /// The values in key order.
    pub fn values(&self) -> std::slice::Iter<'_, V> {
        self.values.iter()
    }

    /// The values in key order, to change.
    pub fn values_mut(&mut self) -> std::slice::IterMut<'_, V> {
        self.values.iter_mut()
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether it has no entry.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The same entries in an ordered map.
    pub fn to_btree(&self) -> BTreeMap<Word, V> {
        self.iter().map(|(k, v)| (k.clone(), *v)).collect()
    }
}

/// A key's place in a [`WordMap`], filled in on demand.
pub struct Entry<'a, V: Copy, const N: usize> {
    map: &'a mut WordMap<V, N>,
    key: Word,
}

impl<'a, V: Copy, const N: usize> Entry<'a, V, N> {
    /// The value, `value` put in first if the key was not there.
    pub fn or_insert(self, value: V) -> &'a mut V {
        let (i, _) = self.map.slot(self.key, value);
        &mut self.map.values[i]
    }

    /// The value, the default put in first if the key was not there.
    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert(V::default())
    }
}

/// The entries of a [`WordMap`] in key order.
#[derive(Clone)]
pub struct Iter<'a, V> {
    keys: std::slice::Iter<'a, Word>,
    values: std::slice::Iter<'a, V>,
}

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a Word, &'a V);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        Some((self.keys.next()?, self.values.next()?))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.values.size_hint()
    }
}

impl<V> DoubleEndedIterator for Iter<'_, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        Some((self.keys.next_back()?, self.values.next_back()?))
    }
}

impl<V> ExactSizeIterator for Iter<'_, V> {}

impl<'a, V: Copy, const N: usize> IntoIterator for &'a WordMap<V, N> {
    type Item = (&'a Word, &'a V);
    type IntoIter = Iter<'a, V>;

    fn into_iter(self) -> Iter<'a, V> {
        self.iter()
    }
}

impl<V: Copy, const N: usize> FromIterator<(Word, V)> for WordMap<V, N> {
    /// Later values of a repeated key win, as in an ordered map.
    fn from_iter<I: IntoIterator<Item = (Word, V)>>(iter: I) -> Self {
        let mut map = WordMap::default();
        map.extend(iter);
        map
    }
}

impl<V: Copy, const N: usize> Extend<(Word, V)> for WordMap<V, N> {
    fn extend<I: IntoIterator<Item = (Word, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<V: Copy, const N: usize> From<BTreeMap<Word, V>> for WordMap<V, N> {
    /// Already in key order: no search per entry.
    fn from(map: BTreeMap<Word, V>) -> Self {
        let values = map.values().copied().collect();
        WordMap {
            slots: KeyBlock::new(map.into_keys()),
            values,
        }
    }
}

impl<V: Copy + fmt::Debug, const N: usize> fmt::Debug for WordMap<V, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V: Copy + Serialize, const N: usize> Serialize for WordMap<V, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de, V: Copy + Deserialize<'de>, const N: usize> Deserialize<'de> for WordMap<V, N> {
    /// Read as an ordered map (a repeated key keeps its last value), then laid out in order.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        BTreeMap::<Word, V>::deserialize(d).map(WordMap::from)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::WordMap;
    use crate::notation::Word;

    /// Every change made to both a word map and an ordered map leaves them holding, listing
    /// and saving the same, spilled past the inline room or not.
    #[test]
    fn reads_and_saves_as_the_ordered_map() {
        let mut map: WordMap<i32, 2> = WordMap::default();
        let mut tree: BTreeMap<Word, i32> = BTreeMap::new();
        let keys = ["mine", "ac", "lab", "ts", "ac", "zz", "b", "mine"];
        for (n, k) in keys.iter().enumerate() {
            assert_eq!(
                map.insert(Word::from(*k), n as i32),
                tree.insert((*k).into(), n as i32)
            );
            *map.entry(Word::from("vp")).or_default() += 2;
            *tree.entry("vp".into()).or_default() += 2;
            assert_eq!(map.get(k), tree.get(*k));
        }
        assert_eq!(map.remove("lab"), tree.remove("lab"));
        assert_eq!(map.remove("lab"), None);
        assert!(!map.contains_key("lab") && map.contains_key("ts"));
        let listed: Vec<_> = map.iter().collect();
        assert_eq!(listed, tree.iter().collect::<Vec<_>>());
        assert_eq!(map.to_btree(), tree);
        assert_eq!(map.len(), tree.len());
        let saved = serde_json::to_string(&map).expect("saves");
        assert_eq!(saved, serde_json::to_string(&tree).expect("saves"));
        let read: WordMap<i32, 2> = serde_json::from_str(&saved).expect("reads");
        assert_eq!(read, map);
        assert_eq!(format!("{map:?}"), format!("{tree:?}"));
        let repeated: WordMap<i32, 2> = serde_json::from_str(r#"{"b":1,"a":2,"b":3}"#).unwrap();
        assert_eq!(
            repeated.iter().collect::<Vec<_>>(),
            [(&"a".into(), &2), (&"b".into(), &3)]
        );
    }

    /// A change to one clone (a new key, a key taken out) leaves every other clone holding
    /// what it held, and a map no clone shares takes its changes in its own key block.
    #[test]
    fn clones_keep_their_keys_and_a_map_of_its_own_changes_in_place() {
        let entries = |m: &WordMap<i32, 4>| -> Vec<(String, i32)> {
            m.iter().map(|(k, v)| (k.to_string(), *v)).collect()
        };
        let mut map: WordMap<i32, 4> = WordMap::default();
        for (k, v) in [("k5", 1), ("k4", 2), ("k3", 3)] {
            map.insert(Word::from(k), v);
        }
        // The block has room for more keys now (it grew by more than one).
        let block = map.shared_keys().as_ptr();
        map.remove("k5");
        map.insert(Word::from("k1"), 4);
        assert_eq!(map.shared_keys().as_ptr(), block, "changed where it lies");
        let before = map.clone();
        assert!(map.same_keys(&before));
        map.insert(Word::from("k0"), 5);
        assert!(!map.same_keys(&before));
        let mut other = before.clone();
        other.remove("k3");
        *other.entry(Word::from("k2")).or_default() += 6;
        assert_eq!(
            entries(&before),
            [("k1".into(), 4), ("k3".into(), 3), ("k4".into(), 2)]
        );
        assert_eq!(
            entries(&map),
            [
                ("k0".into(), 5),
                ("k1".into(), 4),
                ("k3".into(), 3),
                ("k4".into(), 2)
            ]
        );
        assert_eq!(
            entries(&other),
            [("k1".into(), 4), ("k2".into(), 6), ("k4".into(), 2)]
        );
        assert_ne!(before, map);
        assert_eq!(before, before.clone());
    }
}
