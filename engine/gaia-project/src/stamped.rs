//! Values that carry a stamp telling whether they may have changed: the stamp is new
//! whenever the value is reached mutably, and kept by a clone, so two equal stamps mean the
//! same value without comparing it. What is worked out from a value (a seat's grants) is
//! remembered with its stamp and found again by one compare.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The next stamp handed out; every stamp is handed out once.
static NEXT: AtomicU64 = AtomicU64::new(1);

/// A stamp never handed out before.
fn fresh() -> u64 {
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A value with its stamp. It compares, prints and is saved as the value alone: the stamp
/// is no part of what a state is.
#[derive(Clone)]
pub struct Stamped<T> {
    value: T,
    stamp: u64,
}

impl<T> Stamped<T> {
    /// A value with a new stamp.
    pub fn new(value: T) -> Stamped<T> {
        Stamped {
            value,
            stamp: fresh(),
        }
    }

    /// The stamp: equal for two values only when one is a copy of the other, neither reached
    /// mutably since.
    pub fn stamp(&self) -> u64 {
        self.stamp
    }
}

impl<T> Deref for Stamped<T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for Stamped<T> {
    /// The value, to change: it takes a new stamp.
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        self.stamp = fresh();
        &mut self.value
    }
}

impl<T> From<T> for Stamped<T> {
    fn from(value: T) -> Stamped<T> {
        Stamped::new(value)
    }
}

impl<'a, T> IntoIterator for &'a Stamped<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;

    fn into_iter(self) -> Self::IntoIter {
        self.value.into_iter()
    }
}

impl<T: Default> Default for Stamped<T> {
    fn default() -> Stamped<T> {
        Stamped::new(T::default())
    }
}

impl<T: PartialEq> PartialEq for Stamped<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Eq> Eq for Stamped<T> {}

impl<T: fmt::Debug> fmt::Debug for Stamped<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<T: Serialize> Serialize for Stamped<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Stamped<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Stamped::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_keeps_the_stamp_and_reaching_it_mutably_renews_it() {
        let a = Stamped::new(vec![1, 2]);
        let mut b = a.clone();
        assert_eq!(a.stamp(), b.stamp());
        assert_eq!(b.len(), 2, "reading keeps the stamp");
        assert_eq!(a.stamp(), b.stamp());
        b.push(3);
        assert_ne!(a.stamp(), b.stamp());
        // Reached mutably without a change: a new stamp all the same, the values equal.
        let mut c = a.clone();
        c.sort();
        assert_ne!(a.stamp(), c.stamp());
        assert_eq!(a, c);
        // Two values made apart never share a stamp, equal or not.
        assert_ne!(Stamped::new(1).stamp(), Stamped::new(1).stamp());
    }

    #[test]
    fn saved_and_printed_as_the_value_alone() {
        let a = Stamped::new(Some(3));
        assert_eq!(serde_json::to_string(&a).expect("saves"), "3");
        assert_eq!(format!("{a:?}"), "Some(3)");
        let back: Stamped<Option<i32>> = serde_json::from_str("3").expect("reads");
        assert_eq!(back, a);
        assert_ne!(back.stamp(), a.stamp());
    }
}
