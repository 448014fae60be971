//! The seats' players, held inline in the state.

use std::ops::{Deref, DerefMut};

use orrery_core::shared::Shared;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::player::Player;

/// Each seat's player, in seat order, held inline (up to four seats): a state's copy shares
/// each player, and changing one player copies that player alone, with no list to copy
/// first. Reads and writes as the inline vector it wraps; saved as a plain list of players.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerList(SmallVec<[Shared<Player>; 4]>);

impl Deref for PlayerList {
    type Target = SmallVec<[Shared<Player>; 4]>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for PlayerList {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl FromIterator<Shared<Player>> for PlayerList {
    fn from_iter<I: IntoIterator<Item = Shared<Player>>>(iter: I) -> PlayerList {
        PlayerList(iter.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a PlayerList {
    type Item = &'a Shared<Player>;
    type IntoIter = std::slice::Iter<'a, Shared<Player>>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a mut PlayerList {
    type Item = &'a mut Shared<Player>;
    type IntoIter = std::slice::IterMut<'a, Shared<Player>>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use orrery_core::shared::Shared;

    use super::PlayerList;
    use crate::content::{fixture, Content};
    use crate::player::Player;

    /// A copy shares each player until one is changed, then only that player is copied;
    /// the list saves and reads as a plain list of players, past the inline room too.
    #[test]
    fn copies_share_players_until_changed_and_save_as_a_list() {
        let content = Content::load(&fixture::files(), &[]).expect("fixture content");
        for seats in [3, 6] {
            let list: PlayerList = (0..seats)
                .map(|_| Shared::new(Player::seated(&content)))
                .collect();
            let mut copy = list.clone();
            copy[1].gaiaformers = 2;
            assert_eq!(list[1].gaiaformers, 0, "the original keeps its player");
            assert!(
                !Shared::ptr_eq(&list[1], &copy[1]),
                "the changed player is copied"
            );
            assert!(Shared::ptr_eq(&list[0], &copy[0]), "the others stay shared");
            let saved = serde_json::to_value(&copy).expect("saves");
            let plain: Vec<Player> = copy.iter().map(|p| (**p).clone()).collect();
            assert_eq!(saved, serde_json::to_value(&plain).expect("saves"));
            let read: PlayerList = serde_json::from_value(saved).expect("reads");
            assert_eq!(read, copy);
        }
    }
}
