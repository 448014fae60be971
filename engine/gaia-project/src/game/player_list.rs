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
