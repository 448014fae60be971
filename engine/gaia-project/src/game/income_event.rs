//! One income event waiting to be paid (the pending income of a seat that orders its token
//! gains and charges, or whose payment a question stopped): the amounts of a content bundle,
//! held inline. Copying the pending income (it is shared by clones of a state, so changing it
//! copies it) copies these as one block, where a bundle is a tree of nodes and strings.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use smallvec::SmallVec;

use crate::content::Bundle;
use crate::notation::Word;

/// Amounts by code in code order, as the bundle they came from holds them (amounts of 0
/// included); saved as that bundle is, a JSON object.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IncomeEvent(SmallVec<[(Word, i32); 3]>);

impl IncomeEvent {
    /// The event of a bundle: its entries, in its order.
    pub fn of(b: &Bundle) -> IncomeEvent {
        IncomeEvent(
            b.0.iter()
                .map(|(k, n)| (Word::from(k.as_str()), *n))
                .collect(),
        )
    }

    /// A bundle's amounts times `k`, amounts that become 0 left out.
    pub fn scaled(b: &Bundle, k: i32) -> IncomeEvent {
        IncomeEvent(
            b.0.iter()
                .map(|(c, n)| (Word::from(c.as_str()), n.saturating_mul(k)))
                .filter(|(_, n)| *n != 0)
                .collect(),
        )
    }

    /// The amount of a code (0 when absent).
    pub fn get(&self, code: &str) -> i32 {
        self.find(code).map_or(0, |i| self.0[i].1)
    }

    /// The amounts other than 0, in code order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, i32)> {
        self.0
            .iter()
            .filter(|(_, n)| *n != 0)
            .map(|(k, n)| (k.as_str(), *n))
    }

    /// Takes a code out; its amount, if it was there.
    pub fn remove(&mut self, code: &str) -> Option<i32> {
        let i = self.find(code)?;
        Some(self.0.remove(i).1)
    }

    /// Whether it holds no entry at all (not even an amount of 0).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn find(&self, code: &str) -> Option<usize> {
        self.0.iter().position(|(k, _)| k == code)
    }
}

impl From<&Bundle> for IncomeEvent {
    fn from(b: &Bundle) -> Self {
        IncomeEvent::of(b)
    }
}

impl Serialize for IncomeEvent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, n)| (k.as_str(), n)))
    }
}

impl<'de> Deserialize<'de> for IncomeEvent {
    /// Read as the bundle it was saved from (so repeated and unordered keys read as before).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<String, i32>::deserialize(d)?;
        Ok(IncomeEvent::of(&Bundle(map)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An event reads, takes out and saves what its bundle held, zeros included.
    #[test]
    fn an_event_holds_and_saves_what_its_bundle_held() {
        let b = Bundle::of(&[("pw", 3), ("c", 2), ("vp", 0), ("t-a3", 1)]);
        let mut e = IncomeEvent::of(&b);
        assert_eq!(e.get("pw"), 3);
        assert_eq!(e.get("q"), 0);
        let pairs: Vec<_> = e.iter().collect();
        assert_eq!(pairs, b.iter().collect::<Vec<_>>());
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
        let back: IncomeEvent = serde_json::from_str(r#"{"vp":0,"c":2,"t-a3":1,"pw":3}"#).unwrap();
        assert_eq!(back, e);
        assert_eq!(e.remove("pw"), Some(3));
        assert_eq!(e.remove("pw"), None);
        assert!(!e.is_empty());
        for code in ["c", "vp", "t-a3"] {
            e.remove(code);
        }
        assert!(e.is_empty());
        let s = IncomeEvent::scaled(&Bundle::of(&[("o", 2), ("k", 0)]), 3);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![("o", 6)]);
        assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"o":6}"#);
    }
}
