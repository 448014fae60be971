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

impl<'a, T> IntoIterator for &'a Shared<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;

    fn into_iter(self) -> Self::IntoIter {
        self.0.as_ref().into_iter()
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
    fn saved_as_the_value_itself() {
        let a = Shared::new(vec![1, 2]);
        assert_eq!(serde_json::to_string(&a).unwrap(), "[1,2]");
        let back: Shared<Vec<i32>> = serde_json::from_str("[1,2]").unwrap();
        assert_eq!(back, a);
    }
}
