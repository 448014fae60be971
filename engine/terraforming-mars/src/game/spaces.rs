//! Where a tile may go: the placement rules of the map, asked of every space.
//!
//! Listing asks for every legal space; the checks of whether a card or project can be done
//! only ask whether there is one, so both go through one test per space ([`Game::fits`]) and
//! the second stops at the first space that passes, without building a list.

use smallvec::SmallVec;

use super::{Game, Tile};
use crate::content::{Place, SpaceType, Where};

/// The tile on each space, by space index: the rules ask about spaces and their neighbours
/// many times, which a table answers faster than the map of tiles. Held inline for maps of up
/// to this many spaces.
type TileTable<'g> = SmallVec<[Option<&'g Tile>; 80]>;

impl Game {
    /// Every space seat `p` may put `place`'s tile on now, in space order.
    pub(super) fn legal_spaces(&self, p: usize, place: &Place) -> Vec<usize> {
        let on = self.tile_table();
        let mut out: Vec<usize> = self
            .candidates(place)
            .filter(|s| self.fits(p, place, &on, *s))
            .collect();
        if place.tile == "greenery" && place.on.is_none() {
            // A greenery goes next to one of the seat's own tiles when it can.
            let owned_next = |s: &usize| {
                self.neighbours(*s).any(|n| {
                    on.get(n)
                        .copied()
                        .flatten()
                        .is_some_and(|t| t.owner == Some(p))
                })
            };
            if out.iter().any(owned_next) {
                out.retain(owned_next);
            }
        }
        out
    }

    /// Whether seat `p` may put `place`'s tile anywhere now (whether
    /// [`Game::legal_spaces`] is not empty, without listing them).
    pub(super) fn any_legal_space(&self, p: usize, place: &Place) -> bool {
        let on = self.tile_table();
        self.candidates(place).any(|s| self.fits(p, place, &on, s))
    }

    fn tile_table(&self) -> TileTable<'_> {
        let mut on: TileTable<'_> = SmallVec::from_elem(None, self.content.map.spaces.len());
        for (s, t) in &self.tiles {
            if let Some(slot) = on.get_mut(*s) {
                *slot = Some(t);
            }
        }
        on
    }

    /// The spaces worth testing: the one a placement names, else all.
    fn candidates(&self, place: &Place) -> std::ops::Range<usize> {
        match &place.on {
            Some(Where::Space(id)) => match self.space_index.get(id) {
                Some(s) => *s..*s + 1,
                None => 0..0,
            },
            _ => 0..self.content.map.spaces.len(),
        }
    }

    /// Whether seat `p` may put `place`'s tile on space `s` (before a greenery's preference
    /// for spaces next to its own tiles).
    fn fits(&self, p: usize, place: &Place, on: &TileTable<'_>, s: usize) -> bool {
        let spaces = &self.content.map.spaces;
        let Some(space) = spaces.get(s) else {
            return false;
        };
        let tile = |s: usize| on.get(s).copied().flatten();
        let free = |s: usize| tile(s).is_none();
        let land = |s: usize| {
            spaces[s].kind == SpaceType::Land
                && !spaces[s].reserved
                && free(s)
                && self.claims.get(&s).is_none_or(|q| *q == p)
        };
        let ocean = place.tile == "ocean";
        let ok = match &place.on {
            Some(Where::Space(_)) => free(s),
            Some(Where::OceanSpace) => space.kind == SpaceType::Ocean && free(s),
            None if ocean => space.kind == SpaceType::Ocean && free(s),
            Some(Where::Volcanic) => space.volcanic && land(s),
            Some(Where::Isolated) => land(s) && self.neighbours(s).all(free),
            Some(Where::NextToCities(k)) => {
                land(s)
                    && self
                        .neighbours(s)
                        .filter(|n| tile(*n).is_some_and(|t| t.city))
                        .count() as u32
                        >= *k
            }
            Some(Where::NextTo(kind)) => {
                land(s)
                    && self
                        .neighbours(s)
                        .any(|n| tile(n).is_some_and(|t| t.kind.as_ref() == kind.as_str()))
            }
            Some(Where::NextToOwn(kind)) => {
                land(s)
                    && self.neighbours(s).any(|n| {
                        tile(n)
                            .is_some_and(|t| t.owner == Some(p) && t.kind.as_ref() == kind.as_str())
                    })
            }
            Some(Where::BonusOf(rs)) => land(s) && space.bonus.iter().any(|b| rs.contains(b)),
            Some(Where::BonusOfNextToOwn(rs)) => {
                land(s)
                    && space.bonus.iter().any(|b| rs.contains(b))
                    && self
                        .neighbours(s)
                        .any(|n| tile(n).is_some_and(|t| t.owner == Some(p)))
            }
            Some(Where::Land) | None => land(s),
        };
        let city = place.tile == "city" || place.counts_as.as_deref() == Some("city");
        let spaced = city
            && !matches!(
                place.on,
                Some(Where::Space(_)) | Some(Where::NextToCities(_))
            );
        ok && !(spaced && self.neighbours(s).any(|n| tile(n).is_some_and(|t| t.city)))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use orrery_core::play_api::Playable;
    use orrery_core::rng::Rng;

    use super::*;

    /// A placement of each kind the content may write, for the standard tiles and a special one.
    fn placements() -> Vec<Place> {
        let at = |tile: &str, counts_as: Option<&str>, on: Option<Where>| Place {
            tile: tile.into(),
            counts_as: counts_as.map(Into::into),
            on,
            title: None,
            then: Vec::new(),
        };
        let mut out = vec![
            at("ocean", None, None),
            at("city", None, None),
            at("greenery", None, None),
            at("capital", Some("city"), None),
        ];
        for on in [
            Where::Land,
            Where::OceanSpace,
            Where::Volcanic,
            Where::Isolated,
            Where::NextToCities(2),
            Where::NextTo("greenery".into()),
            Where::NextToOwn("city".into()),
            Where::BonusOf(vec!["steel".into(), "titanium".into()]),
            Where::BonusOfNextToOwn(vec!["plants".into()]),
        ] {
            out.push(at("special", None, Some(on.clone())));
            out.push(at("city", None, Some(on)));
        }
        out
    }

    /// At every state of a few random games, asking whether a tile can go anywhere agrees with
    /// listing where it can, every listed space passes the per-space test, and a greenery
    /// goes next to one of the seat's own tiles whenever it can.
    #[test]
    fn asking_for_any_space_agrees_with_listing_them() {
        let content =
            Arc::new(crate::content::load(&crate::content::default_dir()).expect("content"));
        let places = placements();
        let mut checked = 0;
        for seed in 0..3 {
            let mut g = Game::random(content.clone(), 2, seed).expect("a game");
            let mut rng = Rng::new(seed);
            for _ in 0..1500 {
                {
                    let on = g.tile_table();
                    for place in &places {
                        for p in 0..2 {
                            let listed = g.legal_spaces(p, place);
                            assert_eq!(g.any_legal_space(p, place), !listed.is_empty());
                            assert!(listed.iter().all(|s| g.fits(p, place, &on, *s)));
                            checked += 1;
                        }
                    }
                }
                let parts = g.legal();
                if parts.is_empty() {
                    break;
                }
                let part = &parts[rng.below(parts.len())];
                g.play(part).expect("a listed part applies");
            }
            let greenery = crate::game::greenery_place();
            for p in 0..2 {
                let on = g.tile_table();
                let own_next = |s: usize| {
                    g.neighbours(s).any(|n| {
                        on.get(n)
                            .copied()
                            .flatten()
                            .is_some_and(|t| t.owner == Some(p))
                    })
                };
                let fitting: Vec<usize> = (0..content.map.spaces.len())
                    .filter(|s| g.fits(p, &greenery, &on, *s))
                    .collect();
                let want: Vec<usize> = if fitting.iter().any(|s| own_next(*s)) {
                    fitting.into_iter().filter(|s| own_next(*s)).collect()
                } else {
                    fitting
                };
                assert_eq!(g.legal_spaces(p, &greenery), want);
            }
        }
        assert!(checked > 10_000, "{checked} placements checked");
    }
}
