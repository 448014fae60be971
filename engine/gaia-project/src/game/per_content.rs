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

    #[test]
    fn games_of_one_content_share_their_boards_and_lay_out_the_players_player_new_makes() {
        use crate::game::{Game, Setup};
        use crate::player::Player;
        use orrery_core::rng::Rng;
        let content =
            Arc::new(Content::load(&fixture::files_with_blips(), &[]).expect("fixture loads"));
        let game = |seed| {
            let setup = Setup::random(&content, 2, &mut Rng::new(seed)).expect("setup");
            let mut g = Game::new(content.clone(), setup).expect("game");
            g.apply_text("p1 faction zorgs").expect("zorgs");
            g.apply_text("p2 faction blips").expect("blips");
            g
        };
        let (a, b) = (game(1), game(2));
        for seat in 0..2 {
            assert!(
                std::ptr::eq(a.board(seat), b.board(seat)),
                "one board shared"
            );
            let (player, board) =
                Player::new(&content, &a.state.players[seat].faction).expect("faction");
            assert_eq!(*a.state.players[seat], player);
            assert_eq!(*a.board(seat), board);
        }
        // An unknown faction is still refused, the state left as it was.
        let setup = Setup::random(&content, 2, &mut Rng::new(3)).expect("setup");
        let mut g = Game::new(content.clone(), setup).expect("game");
        g.apply_text("p1 faction zorgs").expect("zorgs");
        let before = serde_json::to_string(&g.state).expect("saved");
        assert!(g.apply_text("p2 faction nobody").is_err());
        assert_eq!(serde_json::to_string(&g.state).expect("saved"), before);
    }
}
