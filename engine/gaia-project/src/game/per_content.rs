//! Values worked out from content alone (a faction's board and the facts it fixes), made once
//! per content and shared by every game of it: a random game or a replay lays out its boards
//! by reference count instead of resolving and dropping each one.

use std::sync::{Arc, Mutex, Weak};

use crate::content::Content;

/// Values remembered by content and index. A content is held weakly (its allocation cannot be
/// reused while the entry stands, so its address names it), and the values of a content no
/// game holds any more are forgotten at the next look-up.
pub(crate) struct PerContent<T> {
    kept: Mutex<Vec<Kept<T>>>,
}

/// One content's values, by index; `None` where none was asked for yet.
type Kept<T> = (Weak<Content>, Vec<Option<Arc<T>>>);

impl<T> PerContent<T> {
    /// Nothing remembered.
    pub(crate) const fn new() -> Self {
        PerContent {
            kept: Mutex::new(Vec::new()),
        }
    }

    /// The value at `index` for `content`, made by `make` the first time it is asked for.
    pub(crate) fn get(
        &self,
        content: &Arc<Content>,
        index: usize,
        make: impl FnOnce() -> T,
    ) -> Arc<T> {
        let Ok(mut kept) = self.kept.lock() else {
            return Arc::new(make());
        };
        kept.retain(|(c, _)| c.strong_count() > 0);
        let at = match kept
            .iter()
            .position(|(c, _)| std::ptr::eq(c.as_ptr(), Arc::as_ptr(content)))
        {
            Some(at) => at,
            None => {
                kept.push((Arc::downgrade(content), Vec::new()));
                kept.len() - 1
            }
        };
        let values = &mut kept[at].1;
        if values.len() <= index {
            values.resize(index + 1, None);
        }
        values[index]
            .get_or_insert_with(|| Arc::new(make()))
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::fixture;

    fn content() -> Arc<Content> {
        Arc::new(Content::load(&fixture::files(), &[]).expect("fixture content"))
    }

    #[test]
    fn made_once_per_content_and_index_and_forgotten_with_the_content() {
        let kept: PerContent<String> = PerContent::new();
        let (a, b) = (content(), content());
        let first = kept.get(&a, 1, || "a1".to_string());
        let again = kept.get(&a, 1, || unreachable!("made once"));
        assert!(Arc::ptr_eq(&first, &again));
        drop(again);
        // Another index, another content: made anew.
        assert_eq!(*kept.get(&a, 0, || "a0".to_string()), "a0");
        assert_eq!(*kept.get(&b, 1, || "b1".to_string()), "b1");
        drop(a);
        // The dropped content's values go at the next look-up; the other's stay.
        assert_eq!(*kept.get(&b, 1, || unreachable!("still kept")), "b1");
        let entries = kept.kept.lock().expect("not poisoned");
        assert_eq!(entries.len(), 1);
        assert_eq!(Arc::strong_count(&first), 1, "only the test holds it now");
    }
}
