//! Keys in one shared block with empty room after them ([`KeyBlock`]): what a seat's income
//! order and its small word maps hold their keys in.
//!
//! Clones of a state share the block. A clone that changes it copies it first when another
//! clone still holds it (one allocation, with a little room); a block nothing else holds is
//! changed where it lies, and grows (with more room) only when it is full. So a game played
//! on in order allocates nothing when a key comes or goes.

use std::sync::Arc;

use crate::notation::Word;

/// Keys in the first slots of one shared block; the slots after them are empty words (kept
/// inline, so they cost nothing to copy or free). How many slots hold keys is the owner's
/// to say. A block full or shared is copied with room for `GROW` or `COPY` more keys.
#[derive(Clone, Default)]
pub(crate) struct KeyBlock<const GROW: usize, const COPY: usize>(Arc<[Word]>);

impl<const GROW: usize, const COPY: usize> KeyBlock<GROW, COPY> {
    /// A block of these keys, with room to grow.
    pub(crate) fn new(keys: impl Iterator<Item = Word>) -> Self {
        KeyBlock(Self::block(keys, GROW))
    }

    /// One block of `keys` with `room` empty slots after them: one allocation when the keys'
    /// number is known from their iterator (a slice's, as every copy's is).
    fn block(keys: impl Iterator<Item = Word>, room: usize) -> Arc<[Word]> {
        keys.chain(std::iter::repeat_n(Word::default(), room))
            .collect()
    }

    /// Every slot, the empty room after the keys included.
    pub(crate) fn slots(&self) -> &[Word] {
        &self.0
    }

    /// The block as shared: the same block means the same keys, since a block is changed
    /// in place only when nothing else holds it.
    pub(crate) fn shared(&self) -> &Arc<[Word]> {
        &self.0
    }

    /// The slots, to change, the first `len` holding keys and room for `more` after them:
    /// this block's own, copied first when another clone holds it or it is full.
    pub(crate) fn own(&mut self, len: usize, more: usize) -> &mut [Word] {
        let room = if len.saturating_add(more) > self.0.len() {
            GROW.max(more)
        } else if Arc::strong_count(&self.0) > 1 {
            // No weak handle is ever made on a block: the count of strong ones says whether
            // another clone holds it.
            COPY.max(more)
        } else {
            0
        };
        if room > 0 {
            self.0 = Self::block(self.0[..len].iter().cloned(), room);
        }
        // This block's own now: nothing is copied here.
        Arc::make_mut(&mut self.0)
    }

    /// Puts `key` at place `at` of the `len` keys, the later ones one place on.
    pub(crate) fn insert(&mut self, len: usize, at: usize, key: Word) {
        let slots = self.own(len, 1);
        // The empty slot after the keys comes round to the key's place.
        slots[at..=len].rotate_right(1);
        slots[at] = key;
    }

    /// Takes the key at place `at` of the `len` keys out, the later ones one place back.
    pub(crate) fn remove(&mut self, len: usize, at: usize) {
        let slots = self.own(len, 0);
        slots[at..len].rotate_left(1);
        slots[len - 1] = Word::default();
    }
}

#[cfg(test)]
mod tests {
    use super::KeyBlock;
    use crate::notation::Word;

    fn keys(b: &KeyBlock<2, 1>, len: usize) -> Vec<&str> {
        b.slots()[..len].iter().map(|k| k.as_str()).collect()
    }

    /// A block nothing else holds changes in place until it is full; a shared one is copied
    /// and the clone holding the old one keeps its keys.
    #[test]
    fn changed_in_place_unless_shared_or_full() {
        let mut b: KeyBlock<2, 1> = KeyBlock::new(["a", "c"].map(Word::from).into_iter());
        let at = b.shared().as_ptr();
        b.insert(2, 1, "b".into());
        b.remove(3, 0);
        b.insert(2, 2, "d".into());
        assert_eq!(keys(&b, 3), ["b", "c", "d"]);
        b.insert(3, 0, "a".into());
        assert_eq!(b.shared().as_ptr(), at, "changed where it lies");
        b.insert(4, 4, "e".into());
        assert_ne!(b.shared().as_ptr(), at, "full: grown");
        assert_eq!(b.slots().len(), 4 + 2, "grown with room for GROW more");
        let before = b.clone();
        b.remove(5, 4);
        assert_eq!(keys(&b, 4), ["a", "b", "c", "d"]);
        assert_eq!(keys(&before, 5), ["a", "b", "c", "d", "e"]);
        assert_eq!(
            b.slots().len(),
            5 + 1,
            "a copy of five keys with room for COPY more"
        );
    }
}
