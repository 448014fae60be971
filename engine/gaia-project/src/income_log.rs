//! The order a seat acquired its income sources in ([`IncomeLog`]): income is paid in it.
//!
//! The log is shared by the clones of a state until one of them changes it. The clone that
//! changes a shared log copies it once, with room to grow; a log no other clone shares is
//! changed where it lies (`KeyBlock`). So a game played on in order (a replay, a bot's game
//! played out) allocates nothing when a seat's sources change, and a clone allocates one
//! block, the copy, as a new list would.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::key_block::KeyBlock;
use crate::notation::Word;

/// Income source keys in the order they were acquired; saved as a list of the keys.
///
/// The keys fill the first slots of a `KeyBlock` (room for 16 more when it grows, 2 in a
/// copy: a copy is mostly a state tried or looked ahead from, changed by a part or two). No
/// key is empty, so the first empty slot ends the keys, and the log is no larger than a
/// handle on a list.
#[derive(Clone, Default)]
pub struct IncomeLog {
    slots: KeyBlock<16, 2>,
}

impl PartialEq for IncomeLog {
    fn eq(&self, other: &Self) -> bool {
        self.keys() == other.keys()
    }
}

impl Eq for IncomeLog {}

impl IncomeLog {
    /// A log of these keys, in this order.
    pub fn of<const N: usize>(keys: [&str; N]) -> Self {
        Self::with_room(keys.into_iter().map(Word::from))
    }

    /// A log of these keys (an empty one names no source and is left out), with room to grow.
    fn with_room(keys: impl Iterator<Item = Word>) -> Self {
        IncomeLog {
            slots: KeyBlock::new(keys.filter(|k| !k.is_empty())),
        }
    }

    /// How many keys the log holds: where the first empty slot is.
    pub fn len(&self) -> usize {
        let slots = self.slots.slots();
        slots
            .iter()
            .position(|k| k.is_empty())
            .unwrap_or(slots.len())
    }

    /// Whether the log holds no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The keys, earliest first.
    pub fn keys(&self) -> &[Word] {
        &self.slots.slots()[..self.len()]
    }

    /// Takes every copy of `key` out of the first `len` slots, the first at `first`, keeping
    /// the others' order; how many keys are left.
    fn take_out(slots: &mut [Word], len: usize, first: usize, key: &str) -> usize {
        let mut kept = first;
        for i in first + 1..len {
            if slots[i] != key {
                slots.swap(kept, i);
                kept += 1;
            }
        }
        for slot in &mut slots[kept..len] {
            *slot = Word::default();
        }
        kept
    }

    /// Records that a source was acquired now: its key moves to the end (every copy of a
    /// key logged twice, as a hand-made state may have, leaves its old place).
    pub fn log(&mut self, key: &str) {
        if key.is_empty() {
            // No source has an empty key (and an empty slot ends the keys).
            return;
        }
        let keys = self.keys();
        let (len, at) = (keys.len(), keys.iter().position(|k| k == key));
        if at.is_some_and(|i| i + 1 == len) {
            // Already the last, and the only copy: the order stays as it is, nothing copied.
            return;
        }
        let slots = self.slots.own(len, 1);
        let kept = at.map_or(len, |first| Self::take_out(slots, len, first, key));
        slots[kept] = Word::from(key);
    }

    /// Forgets a source (a log without its key is left as it is, shared or not).
    pub fn unlog(&mut self, key: &str) {
        let keys = self.keys();
        if let Some(first) = keys.iter().position(|k| k == key) {
            let len = keys.len();
            Self::take_out(self.slots.own(len, 0), len, first, key);
        }
    }

    /// Takes out the key at `at` and renames keys after it, each `(place, key)` naming a
    /// place as it was before the removal (every place after `at`).
    pub fn remove_and_rename(
        &mut self,
        at: usize,
        renamed: impl IntoIterator<Item = (usize, Word)>,
    ) {
        let len = self.len();
        if at >= len {
            return;
        }
        self.slots.remove(len, at);
        let slots = self.slots.own(len - 1, 0);
        for (place, key) in renamed {
            let k = place.checked_sub(1).filter(|p| *p >= at && *p < len - 1);
            if let Some(k) = k.filter(|_| !key.is_empty()) {
                slots[k] = key;
            }
        }
    }
}

impl fmt::Debug for IncomeLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.keys()).finish()
    }
}

impl Serialize for IncomeLog {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.keys().serialize(s)
    }
}

impl<'de> Deserialize<'de> for IncomeLog {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // An empty key names no source; it is left out.
        Vec::<Word>::deserialize(d).map(|keys| IncomeLog::with_room(keys.into_iter()))
    }
}

#[cfg(test)]
mod tests {
    use super::IncomeLog;

    fn keys(log: &IncomeLog) -> Vec<&str> {
        log.keys().iter().map(|k| k.as_str()).collect()
    }

    #[test]
    fn a_logged_key_moves_to_the_end_and_a_new_one_is_added_there() {
        let mut log = IncomeLog::of(["base", "src:a", "slot:s:1"]);
        log.log("src:a");
        assert_eq!(keys(&log), ["base", "slot:s:1", "src:a"]);
        log.log("src:d");
        assert_eq!(keys(&log), ["base", "slot:s:1", "src:a", "src:d"]);
        log.log("src:d");
        assert_eq!(keys(&log), ["base", "slot:s:1", "src:a", "src:d"]);
    }

    #[test]
    fn a_key_logged_twice_leaves_both_places() {
        let mut log = IncomeLog::of(["x", "base", "x"]);
        log.log("x");
        assert_eq!(keys(&log), ["base", "x"]);
        let mut log = IncomeLog::of(["x", "base"]);
        log.log("x");
        assert_eq!(keys(&log), ["base", "x"]);
    }

    #[test]
    fn a_clone_that_changes_the_log_leaves_the_other_clones_as_they_were() {
        let mut log = IncomeLog::of(["base", "src:a"]);
        let before = log.clone();
        log.log("base");
        log.unlog("src:a");
        log.log("src:c");
        assert_eq!(keys(&log), ["base", "src:c"]);
        assert_eq!(keys(&before), ["base", "src:a"]);
        let mut other = before.clone();
        other.remove_and_rename(0, [(1, "src:b".into())]);
        assert_eq!(keys(&other), ["src:b"]);
        assert_eq!(keys(&before), ["base", "src:a"]);
    }

    #[test]
    fn a_log_no_clone_shares_changes_where_it_lies() {
        let mut log = IncomeLog::of(["base"]);
        log.log("slot:s:1");
        let at = log.slots.shared().as_ptr();
        for key in ["src:a", "slot:s:2", "src:d"] {
            log.log(key);
        }
        log.unlog("src:a");
        // The second of a building leaves: the first slot's key leaves, the second's is renamed.
        log.remove_and_rename(1, [(2, "slot:s:1".into())]);
        assert_eq!(keys(&log), ["base", "slot:s:1", "src:d"]);
        assert_eq!(log.slots.shared().as_ptr(), at, "no new list was made");
    }

    #[test]
    fn forgetting_a_key_not_logged_changes_nothing() {
        let mut log = IncomeLog::of(["base"]);
        let shared = log.clone();
        log.unlog("src:d");
        log.remove_and_rename(5, []);
        assert!(std::sync::Arc::ptr_eq(
            log.slots.shared(),
            shared.slots.shared()
        ));
    }

    #[test]
    fn saved_as_the_list_of_its_keys() {
        let log = IncomeLog::of(["base", "src:a"]);
        let text = serde_json::to_string(&log).unwrap();
        assert_eq!(text, r#"["base","src:a"]"#);
        let back: IncomeLog = serde_json::from_str(&text).unwrap();
        assert_eq!(back, log);
        // An empty key names no source: left out on loading, never logged.
        let mut back: IncomeLog = serde_json::from_str(r#"["base","","src:a"]"#).unwrap();
        assert_eq!(back, log);
        back.log("");
        assert_eq!(keys(&back), ["base", "src:a"]);
    }
}
