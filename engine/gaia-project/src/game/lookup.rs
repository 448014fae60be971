//! Content items by id: one lookup for every list of content items that are named by an id
//! (resources, planets, factions, buildings, research tracks, tiles and their positions,
//! federation tokens, board actions, final scoring tiles).

use crate::content::{
    BoardAction, Building, Faction, FederationToken, FinalTile, Planet, Resource, TechPosition,
    Tile, Track,
};

/// A content item named by an id.
pub(crate) trait Named {
    /// Its id.
    fn id(&self) -> &str;
}

macro_rules! named {
    ($($t:ty),*) => {
        $(impl Named for $t {
            fn id(&self) -> &str {
                &self.id
            }
        })*
    };
}

named!(
    BoardAction,
    Building,
    Faction,
    FederationToken,
    FinalTile,
    Planet,
    Resource,
    TechPosition,
    Tile,
    Track
);

/// The item of a list with an id.
pub(crate) fn by_id<'a, T: Named>(items: &'a [T], id: &str) -> Option<&'a T> {
    items.iter().find(|x| x.id() == id)
}

/// The place in a list of the item with an id.
pub(crate) fn index_of<T: Named>(items: &[T], id: &str) -> Option<usize> {
    items.iter().position(|x| x.id() == id)
}
