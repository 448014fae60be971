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
    items.iter().find(|x| same_id(x.id(), id))
}

/// The place in a list of the item with an id.
pub(crate) fn index_of<T: Named>(items: &[T], id: &str) -> Option<usize> {
    items.iter().position(|x| same_id(x.id(), id))
}

/// Whether two ids are equal. Ids of one list mostly differ in length or in their last
/// character (`item1`, `item2`; `red`, `blue`), so those are compared first, inline: a
/// mismatch rarely reaches the byte-wise comparison.
#[inline]
pub(crate) fn same_id(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().last() == b.as_bytes().last() && a == b
}

#[cfg(test)]
mod tests {
    use super::same_id;

    /// Ids compare equal exactly when they are the same text, whatever part differs.
    #[test]
    fn same_id_is_string_equality() {
        let ids = [
            "", "a", "b", "ab", "ba", "item1", "item2", "item11", "jtem1", "red", "blu",
        ];
        for a in ids {
            for b in ids {
                assert_eq!(same_id(a, b), a == b, "{a:?} against {b:?}");
            }
        }
    }
}
