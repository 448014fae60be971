//! The decisions a game waits for, held inline in the state.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use super::Decision;

/// Decisions waited for, first first, held inline (up to four; more go to the heap): a part
/// that queues or takes a decision copies and allocates nothing, where a shared list was
/// copied whole on its first change after every copy of the state. Saved as a plain list.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DecisionQueue(SmallVec<[Decision; 4]>);

impl Clone for DecisionQueue {
    /// Every state's copy copies one: an empty queue is made, not copied, and a short one
    /// decision by decision into the inline room (no growth checks of a general extend).
    fn clone(&self) -> DecisionQueue {
        if self.0.spilled() {
            return DecisionQueue(self.0.clone());
        }
        let mut out = SmallVec::new();
        for d in &self.0 {
            out.push(d.clone());
        }
        DecisionQueue(out)
    }
}

impl DecisionQueue {
    /// The first decision, if any.
    pub fn front(&self) -> Option<&Decision> {
        self.0.first()
    }

    /// Adds a decision at the end.
    pub fn push_back(&mut self, d: Decision) {
        self.0.push(d);
    }

    /// Adds a decision at the front.
    pub fn push_front(&mut self, d: Decision) {
        self.0.insert(0, d);
    }

    /// Takes the first decision off, if any.
    pub fn pop_front(&mut self) -> Option<Decision> {
        (!self.0.is_empty()).then(|| self.0.remove(0))
    }

    /// Puts a decision at `index` (at most the length), moving those from it back.
    pub fn insert(&mut self, index: usize, d: Decision) {
        self.0.insert(index, d);
    }

    /// Takes the decision at `index` off, if there is one.
    pub fn remove(&mut self, index: usize) -> Option<Decision> {
        (index < self.0.len()).then(|| self.0.remove(index))
    }

    /// How many decisions are waited for.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Keeps only the decisions `keep` says to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Decision) -> bool) {
        self.0.retain(|d| keep(d));
    }

    /// Forgets every decision.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The decisions, first first.
    pub fn iter(&self) -> std::slice::Iter<'_, Decision> {
        self.0.iter()
    }

    /// The decisions, first first, to change.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Decision> {
        self.0.iter_mut()
    }
}

impl FromIterator<Decision> for DecisionQueue {
    fn from_iter<I: IntoIterator<Item = Decision>>(iter: I) -> DecisionQueue {
        DecisionQueue(iter.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a DecisionQueue {
    type Item = &'a Decision;
    type IntoIter = std::slice::Iter<'a, Decision>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::DecisionQueue;
    use crate::game::Decision;

    /// Front and back work as the double-ended queue it replaces, past the inline room too,
    /// and the queue saves as a plain list.
    #[test]
    fn a_queue_takes_from_the_front_and_saves_as_a_list() {
        let mut q: DecisionQueue = (0..3).map(Decision::Turn).collect();
        q.push_front(Decision::Income(7));
        q.push_back(Decision::Gaia(1));
        q.insert(2, Decision::Booster(4));
        assert_eq!(q.len(), 6);
        assert_eq!(q.pop_front(), Some(Decision::Income(7)));
        assert_eq!(q.remove(1), Some(Decision::Booster(4)));
        assert_eq!(q.remove(9), None);
        let saved = serde_json::to_value(&q).expect("saves");
        let plain: Vec<Decision> = q.iter().cloned().collect();
        assert_eq!(saved, serde_json::to_value(&plain).expect("saves"));
        let read: DecisionQueue = serde_json::from_value(saved).expect("reads");
        assert_eq!(read, q);
        let mut q = read;
        while q.pop_front().is_some() {}
        assert!(q.is_empty());
        assert_eq!(q.front(), None);
    }
}
