//! Copy-on-write parts of the game state: clones of a state share them until one of the
//! clones changes them, so cloning a state to explore a move costs little and the states
//! along a game keep one copy of what a move did not touch.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// A value shared by clones; changing it through one clone first copies it when another
/// clone still shares it. Saved as the value itself.
#[derive(Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Shared<T>(Arc<T>);

impl<T> Shared<T> {
    /// A value not shared yet.
    pub fn new(value: T) -> Self {
        Shared(Arc::new(value))
    }

    /// Whether two handles share one value: one is a clone of the other, and neither was
    /// changed since (a cheap test of sameness that never compares the values).
    pub fn ptr_eq(a: &Self, b: &Self) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }
}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Self {
        Shared::new(value)
    }
}

impl<T: FromIterator<A>, A> FromIterator<A> for Shared<T> {
    fn from_iter<I: IntoIterator<Item = A>>(iter: I) -> Self {
        Shared::new(iter.into_iter().collect())
    }
}

// Iterating a shared collection iterates the collection. One impl per collection kind (not
// one for any `T` whose reference iterates): a generic impl sends type inference into an
// endless `&Shared<Shared<…>>` search wherever the collection's type is not known yet.
impl<'a, T> IntoIterator for &'a Shared<Vec<T>> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Iterating a shared list mutably first copies it when another clone still shares it.
impl<'a, T: Clone> IntoIterator for &'a mut Shared<Vec<T>> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        Arc::make_mut(&mut self.0).iter_mut()
    }
}

/// Iterating a shared map mutably first copies it when another clone still shares it.
impl<'a, K: Clone, V: Clone> IntoIterator for &'a mut Shared<std::collections::BTreeMap<K, V>> {
    type Item = (&'a K, &'a mut V);
    type IntoIter = std::collections::btree_map::IterMut<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        Arc::make_mut(&mut self.0).iter_mut()
    }
}

impl<'a, T> IntoIterator for &'a Shared<std::collections::VecDeque<T>> {
    type Item = &'a T;
    type IntoIter = std::collections::vec_deque::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a, K, V> IntoIterator for &'a Shared<std::collections::BTreeMap<K, V>> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::collections::btree_map::Iter<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

/// A shared list equals a list of the same items (tests compare with `vec![…]`).
impl<T: PartialEq<U>, U> PartialEq<Vec<U>> for Shared<Vec<T>> {
    fn eq(&self, other: &Vec<U>) -> bool {
        self.0.as_slice() == other.as_slice()
    }
}

/// A shared list equals an array of the same items.
impl<T: PartialEq<U>, U, const N: usize> PartialEq<[U; N]> for Shared<Vec<T>> {
    fn eq(&self, other: &[U; N]) -> bool {
        self.0.as_slice() == other.as_slice()
    }
}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_through_one_clone_leaves_the_other_as_it_was() {
        let a = Shared::new(vec![1, 2]);
        let mut b = a.clone();
        assert!(Arc::ptr_eq(&a.0, &b.0), "clones share the value");
        b.push(3);
        assert_eq!(*a, vec![1, 2]);
        assert_eq!(*b, vec![1, 2, 3]);
        assert!(!Arc::ptr_eq(&a.0, &b.0));
    }

    #[test]
    fn iterating_mutably_copies_what_another_clone_shares() {
        let a = Shared::new(vec![1, 2]);
        let mut b = a.clone();
        for x in &mut b {
            *x += 10;
        }
        assert_eq!(a, vec![1, 2]);
        assert_eq!(b, vec![11, 12]);
        let m = Shared::new(std::collections::BTreeMap::from([(1, 1)]));
        let mut n = m.clone();
        for (_, v) in &mut n {
            *v = 5;
        }
        assert_eq!(m[&1], 1);
        assert_eq!(n[&1], 5);
        assert_eq!(IntoIterator::into_iter(&n).count(), 1);
    }

    #[test]
    fn a_shared_list_compares_with_a_list_and_an_array() {
        let a = Shared::new(vec![1, 2]);
        assert!(a == vec![1, 2]);
        assert!(a == [1, 2]);
        assert!(a != vec![2, 1]);
        assert!(a != [1, 2, 3]);
    }

    #[test]
    fn saved_as_the_value_itself() {
        let a = Shared::new(vec![1, 2]);
        assert_eq!(serde_json::to_string(&a).unwrap(), "[1,2]");
        let back: Shared<Vec<i32>> = serde_json::from_str("[1,2]").unwrap();
        assert_eq!(back, a);
    }
}
