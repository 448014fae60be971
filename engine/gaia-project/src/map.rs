//! The map: sector tiles placed at centres with rotations, spaces with planets, and hex names.

use serde::{Deserialize, Serialize};

use crate::content::{Content, Layout, Planet, PlanetKind, Sector, SlotGroup};
use crate::notation::HexRef;
use crate::sector::{offset_index, position_index, POSITION_NAMES, SECTOR_OFFSETS};
use orrery_core::hex::Hex;
use orrery_core::rng::Rng;

/// Index of a planet type in `content.planets.planets`.
pub type PlanetIx = u8;

/// One sector tile on the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// Sector id (`5B`).
    pub sector: String,
    /// Rotation, sixths of a turn clockwise (0–5).
    pub rotation: u8,
    /// Centre.
    pub center: Hex,
}

/// A space of the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Space {
    /// Where it is.
    pub hex: Hex,
    /// Index of its sector in [`Map::placements`].
    pub sector: u8,
    /// Its planet type (or empty space) at setup.
    pub planet: PlanetIx,
}

/// One space as a record lists it: where, on which sector tile, and its planet letter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListedHex {
    /// Axial q.
    pub q: i32,
    /// Axial r.
    pub r: i32,
    /// The sector tile it belongs to (`5B`).
    pub sector: String,
    /// Its planet letter (`e` for empty space).
    pub planet: char,
}

/// Errors building a map.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    /// A sector id that content does not define.
    #[error("unknown sector \"{0}\"")]
    UnknownSector(String),
    /// A letter that no planet type uses.
    #[error("sector \"{0}\" has an unknown planet letter '{1}'")]
    UnknownLetter(String, char),
    /// Two sectors claim the same space.
    #[error("sectors overlap at {0}")]
    Overlap(Hex),
    /// No layout for the player count.
    #[error("no layout for {0} players")]
    NoLayout(usize),
    /// A listed space that the placed sectors do not cover, or that lies on another sector.
    #[error("listed hex {0} is not on sector {1} of the placed sectors")]
    ListedOffMap(Hex, String),
    /// A listed space with a letter that no planet type uses.
    #[error("listed hex {0} has an unknown planet letter '{1}'")]
    ListedLetter(Hex, char),
    /// The sectors a layout keeps fixed put two alike planets side by side: no draw can help.
    #[error("the {0}-player layout keeps sectors fixed that put alike planets side by side at {1} and {2}: no valid map exists")]
    FixedClash(usize, String, String),
    /// Every draw of a layout gave an invalid map.
    #[error("no valid {0}-player map in {1} draws: the layout's groups leave too little freedom")]
    NoValidMap(usize, usize),
    /// A space of the placed sectors that the list leaves out, or lists twice.
    #[error("hex {0} is listed {1} times (once expected)")]
    ListedCount(Hex, usize),
    /// A sector centre farther from the origin than any map reaches.
    #[error("sector \"{0}\" is centred at {1}, beyond the map's extent (coordinates from -{MAX_CENTER} to {MAX_CENTER})")]
    FarCentre(String, Hex),
    /// More sectors or spaces than a map holds.
    #[error("{0} sectors placed (at most {MAX_SECTORS})")]
    TooManySectors(usize),
}

/// The farthest a sector centre may lie from the origin, on either axis (the base game's
/// maps stay within 20): the map's index is a rectangle of that extent at most.
pub const MAX_CENTER: i32 = 250;

/// The farthest a space may lie from the origin, on either axis: a centre's reach plus a
/// sector's radius.
pub const MAX_SPACE_COORD: i32 = MAX_CENTER + 2;

/// The farthest a sector's space lies from its centre.
fn sector_radius() -> u32 {
    SECTOR_OFFSETS
        .iter()
        .map(|o| o.distance(Hex::new(0, 0)))
        .max()
        .unwrap_or(0)
}

/// Whether both coordinates of a hex lie in `-limit..=limit`.
pub fn within(hex: Hex, limit: i32) -> bool {
    let limit = limit.unsigned_abs();
    hex.q.unsigned_abs() <= limit && hex.r.unsigned_abs() <= limit
}

/// The most sectors one map may place (a space names its sector in one byte).
pub const MAX_SECTORS: usize = u8::MAX as usize;

/// The map of one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Map {
    /// Sector tiles placed.
    pub placements: Vec<Placement>,
    /// Labels of the placed sectors (as used in hex names).
    pub labels: Vec<String>,
    /// Every space.
    pub spaces: Vec<Space>,
    #[serde(skip)]
    index: HexIndex,
    /// Every space's reference as a move names it, by space index (worked out with the
    /// index: listing names a space in every placement part it lists).
    #[serde(skip)]
    refs: Vec<HexRef>,
}

/// Space indices on a rectangle of axial coordinates covering the map: a hex is found by
/// arithmetic instead of hashing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct HexIndex {
    /// Least q and r covered.
    q0: i32,
    r0: i32,
    /// Columns (q values) covered.
    width: i32,
    /// Space index per cell, row by row; `u16::MAX` where there is no space.
    cells: Vec<u16>,
}

impl HexIndex {
    const NONE: u16 = u16::MAX;

    fn new(spaces: &[Space]) -> HexIndex {
        let (Some(q0), Some(r0)) = (
            spaces.iter().map(|s| s.hex.q).min(),
            spaces.iter().map(|s| s.hex.r).min(),
        ) else {
            return HexIndex::default();
        };
        let q1 = spaces.iter().map(|s| s.hex.q).max().unwrap_or(q0);
        let r1 = spaces.iter().map(|s| s.hex.r).max().unwrap_or(r0);
        let width = q1 - q0 + 1;
        let mut cells = vec![Self::NONE; (width * (r1 - r0 + 1)) as usize];
        for (i, s) in spaces.iter().enumerate() {
            cells[((s.hex.r - r0) * width + s.hex.q - q0) as usize] = i as u16;
        }
        HexIndex {
            q0,
            r0,
            width,
            cells,
        }
    }

    fn get(&self, hex: Hex) -> Option<usize> {
        // Wide arithmetic: a hex far outside the map (a typed `0x268435458`) must miss, not
        // wrap onto a space of the map.
        let q = i64::from(hex.q) - i64::from(self.q0);
        let r = i64::from(hex.r) - i64::from(self.r0);
        let width = i64::from(self.width);
        if q < 0 || r < 0 || q >= width {
            return None;
        }
        let at = usize::try_from(r * width + q).ok()?;
        match self.cells.get(at) {
            Some(&i) if i != Self::NONE => Some(usize::from(i)),
            _ => None,
        }
    }
}

impl Map {
    /// Builds the map of an explicit placement.
    pub fn build(content: &Content, placements: &[Placement]) -> Result<Map, MapError> {
        Map::from_tiles(
            &content.planets.planets,
            &content.sectors.sectors,
            placements,
        )
    }

    /// [`Map::build`] from the planet types and sector tiles alone.
    pub fn from_tiles(
        planets: &[Planet],
        sectors: &[Sector],
        placements: &[Placement],
    ) -> Result<Map, MapError> {
        let mut spaces: Vec<Space> = Vec::with_capacity(placements.len() * 19);
        let mut labels = Vec::with_capacity(placements.len());
        if placements.len() > MAX_SECTORS {
            return Err(MapError::TooManySectors(placements.len()));
        }
        for (si, p) in placements.iter().enumerate() {
            if !within(p.center, MAX_CENTER) {
                return Err(MapError::FarCentre(p.sector.clone(), p.center));
            }
            let sector = sectors
                .iter()
                .find(|s| s.id == p.sector)
                .ok_or_else(|| MapError::UnknownSector(p.sector.clone()))?;
            labels.push(sector.label.clone());
            // A sector's own spaces are distinct: only one whose centre is near enough for the
            // two to touch (see [`sector_radius`]) can already hold
            // one of its hexes.
            let near = placements[..si]
                .iter()
                .any(|q| q.center.distance(p.center) <= 2 * sector_radius());
            for (i, letter) in sector.spaces.chars().enumerate().take(19) {
                let planet = planets
                    .iter()
                    .position(|pl| pl.letter == letter)
                    .ok_or(MapError::UnknownLetter(sector.id.clone(), letter))?;
                let hex = p.center + SECTOR_OFFSETS[i].rotate(i32::from(p.rotation));
                if near && spaces.iter().any(|s| s.hex == hex) {
                    return Err(MapError::Overlap(hex));
                }
                spaces.push(Space {
                    hex,
                    sector: si as u8,
                    planet: planet as PlanetIx,
                });
            }
        }
        let mut map = Map {
            placements: placements.to_vec(),
            labels,
            index: HexIndex::new(&spaces),
            refs: Vec::new(),
            spaces,
        };
        map.refs = map.space_refs();
        Ok(map)
    }

    /// The map of a placement whose spaces are listed one by one (as a record's
    /// `setup.hexes`): the list is the map, so a listed planet replaces what the sector tile
    /// says. Every space must be listed exactly once, on the sector that covers it.
    pub fn with_listed(
        content: &Content,
        placements: &[Placement],
        listed: &[ListedHex],
    ) -> Result<Map, MapError> {
        let mut map = Map::build(content, placements)?;
        let mut seen = vec![0usize; map.spaces.len()];
        for l in listed {
            let hex = Hex::new(l.q, l.r);
            let i = map
                .space_index(hex)
                .filter(|i| placements[usize::from(map.spaces[*i].sector)].sector == l.sector)
                .ok_or_else(|| MapError::ListedOffMap(hex, l.sector.clone()))?;
            let planet = content
                .planets
                .planets
                .iter()
                .position(|pl| pl.letter == l.planet)
                .ok_or(MapError::ListedLetter(hex, l.planet))?;
            map.spaces[i].planet = planet as PlanetIx;
            seen[i] += 1;
        }
        if let Some(i) = seen.iter().position(|n| *n != 1) {
            return Err(MapError::ListedCount(map.spaces[i].hex, seen[i]));
        }
        Ok(map)
    }

    /// The spaces whose planet differs between two maps of the same placement, by name.
    pub fn planet_differences(&self, other: &Map) -> Vec<String> {
        self.spaces
            .iter()
            .filter(|s| other.space(s.hex).is_some_and(|o| o.planet != s.planet))
            .map(|s| self.name_of(s.hex).unwrap_or_else(|| s.hex.to_string()))
            .collect()
    }

    /// A random valid map for a player count, dealt from the layout's standard arrangement by
    /// its groups (see [`Layout::groups`]) and redrawn until no two neighbouring spaces hold
    /// the same wheel planet. Fixed sectors that already clash are an error before any draw;
    /// after [`MAP_DRAWS`] invalid draws the layout is given up on.
    pub fn random(content: &Content, players: usize, rng: &mut Rng) -> Result<Map, MapError> {
        let layout = content
            .sectors
            .layouts
            .iter()
            .find(|l| l.players.iter().any(|&p| usize::from(p) == players))
            .ok_or(MapError::NoLayout(players))?;
        let standard = standard_placements(layout);
        let groups = deal_groups(layout);
        let fixed: Vec<Placement> = fixed_slots(layout, &groups)
            .into_iter()
            .map(|i| standard[i].clone())
            .collect();
        if let Some((a, b)) = Map::build(content, &fixed)?.first_clash(content) {
            return Err(MapError::FixedClash(players, a, b));
        }
        for _ in 0..MAP_DRAWS {
            let mut placements = standard.clone();
            for g in &groups {
                let mut dealt: Vec<(String, u8)> = g
                    .slots
                    .iter()
                    .map(|&i| (standard[i].sector.clone(), standard[i].rotation))
                    .collect();
                if g.shuffle {
                    rng.shuffle(&mut dealt);
                }
                for (&i, (sector, rotation)) in g.slots.iter().zip(dealt) {
                    placements[i].sector = sector;
                    placements[i].rotation = if g.rotate {
                        rng.below(6) as u8
                    } else {
                        rotation
                    };
                }
            }
            let map = Map::build(content, &placements)?;
            if map.is_valid(content) {
                return Ok(map);
            }
        }
        Err(MapError::NoValidMap(players, MAP_DRAWS))
    }

    /// No two neighbouring spaces hold the same planet type of the terraforming wheel.
    pub fn is_valid(&self, content: &Content) -> bool {
        self.first_clash(content).is_none()
    }

    /// The first two neighbouring spaces holding the same wheel planet, by name.
    pub fn first_clash(&self, content: &Content) -> Option<(String, String)> {
        self.clash_with(&content.planets.planets)
    }

    /// [`Map::first_clash`] with the planet types alone.
    pub fn clash_with(&self, planets: &[Planet]) -> Option<(String, String)> {
        self.spaces.iter().find_map(|s| {
            if planets[usize::from(s.planet)].kind != PlanetKind::Wheel {
                return None;
            }
            let n = s
                .hex
                .neighbours()
                .into_iter()
                .find(|n| self.space(*n).is_some_and(|n| n.planet == s.planet))?;
            let name = |h: Hex| self.name_of(h).unwrap_or_else(|| h.to_string());
            Some((name(s.hex), name(n)))
        })
    }

    /// Turns the sector placed at `centre` by `sixths` of a turn clockwise about its centre:
    /// its spaces move with their planets; `None` when no sector is placed there.
    pub fn rotate_sector(&mut self, centre: Hex, sixths: u8) -> Option<()> {
        let si = self.placements.iter().position(|p| p.center == centre)?;
        for s in self
            .spaces
            .iter_mut()
            .filter(|s| usize::from(s.sector) == si)
        {
            s.hex = centre + (s.hex - centre).rotate(i32::from(sixths));
        }
        let p = &mut self.placements[si];
        p.rotation = (p.rotation + sixths % 6) % 6;
        self.reindex();
        Some(())
    }

    /// Rebuilds the hex index and the spaces' references (after deserialising).
    pub fn reindex(&mut self) {
        self.index = HexIndex::new(&self.spaces);
        self.refs = self.space_refs();
    }

    /// Every space's reference as a move names it: its name in two parts, or its
    /// coordinates where it has none.
    fn space_refs(&self) -> Vec<HexRef> {
        self.spaces
            .iter()
            .map(|s| match self.space_name_parts(s) {
                Some((sector, position)) => HexRef::Named {
                    sector: sector.into(),
                    position: position.into(),
                },
                None => HexRef::Axial {
                    q: s.hex.q,
                    r: s.hex.r,
                },
            })
            .collect()
    }

    /// The reference of the space at an index as a move names it, as worked out with the
    /// index (`None` off the map, or when the index was not rebuilt after deserialising).
    pub fn space_ref(&self, idx: usize) -> Option<&HexRef> {
        self.refs
            .get(idx)
            .filter(|_| self.refs.len() == self.spaces.len())
    }

    /// The space at a hex.
    pub fn space(&self, hex: Hex) -> Option<&Space> {
        self.index.get(hex).map(|i| &self.spaces[i])
    }

    /// Index of the space at a hex.
    pub fn space_index(&self, hex: Hex) -> Option<usize> {
        self.index.get(hex)
    }

    /// The hex named `<sector label><position>` (e.g. `4B2`, `10A11`).
    pub fn hex_named(&self, sector: &str, position: &str) -> Option<Hex> {
        let si = self.labels.iter().position(|l| l == sector)?;
        let offset = SECTOR_OFFSETS[position_index(position)?];
        Some(self.placements[si].center + offset)
    }

    /// The name of a space (`4B2`).
    pub fn name_of(&self, hex: Hex) -> Option<String> {
        let (label, position) = self.name_parts(hex)?;
        Some(format!("{label}{position}"))
    }

    /// The name of a space in its two parts: sector label and position (`4`, `B2`).
    pub fn name_parts(&self, hex: Hex) -> Option<(&str, &'static str)> {
        self.space_name_parts(self.space(hex)?)
    }

    /// [`Map::name_parts`] of a space already at hand.
    pub fn space_name_parts(&self, s: &Space) -> Option<(&str, &'static str)> {
        let si = usize::from(s.sector);
        let idx = offset_index(s.hex - self.placements[si].center)?;
        Some((&self.labels[si], POSITION_NAMES[idx]))
    }
}

/// Draws of a random map before its layout is given up on.
pub const MAP_DRAWS: usize = 10_000;

/// The standard arrangement of a layout: its sectors in slot order, with their rotations.
pub fn standard_placements(layout: &Layout) -> Vec<Placement> {
    layout
        .sectors
        .iter()
        .zip(&layout.slots)
        .enumerate()
        .map(|(i, (sector, c))| Placement {
            sector: sector.clone(),
            rotation: layout.rotations.get(i).copied().unwrap_or(0),
            center: Hex::new(c[0], c[1]),
        })
        .collect()
}

/// The layout's groups; absent: one group of every slot, shuffled and rotated.
fn deal_groups(layout: &Layout) -> Vec<SlotGroup> {
    layout.groups.clone().unwrap_or_else(|| {
        vec![SlotGroup {
            slots: (0..layout.slots.len()).collect(),
            shuffle: true,
            rotate: true,
        }]
    })
}

/// Slots whose sector and rotation a random map never changes: in no group, or in a group
/// that neither shuffles nor rotates (or a shuffled group of one slot that does not rotate).
pub fn fixed_slots(layout: &Layout, groups: &[SlotGroup]) -> Vec<usize> {
    (0..layout.slots.len().min(layout.sectors.len()))
        .filter(|i| {
            groups
                .iter()
                .all(|g| !g.slots.contains(i) || !(g.rotate || (g.shuffle && g.slots.len() > 1)))
        })
        .collect()
}

/// The fixed slots of a layout as it is written (absent groups: none fixed).
pub fn layout_fixed_slots(layout: &Layout) -> Vec<usize> {
    fixed_slots(layout, &deal_groups(layout))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn space(q: i32, r: i32) -> Space {
        Space {
            hex: Hex { q, r },
            sector: 0,
            planet: PlanetIx::default(),
        }
    }

    /// The fixture's content with a second tile, `s2`, and a two-slot layout.
    fn two_slot_content(s2: &str, groups: Option<Vec<SlotGroup>>) -> Content {
        let mut c = Content::load(&crate::content::fixture::files(), &[]).expect("valid");
        let mut tile = c.sectors.sectors[0].clone();
        tile.id = "s2".into();
        tile.label = "2".into();
        tile.spaces = s2.into();
        c.sectors.sectors.push(tile);
        let layout = &mut c.sectors.layouts[0];
        layout.sectors = vec!["s1".into(), "s2".into()];
        layout.slots = vec![[0, 0], [5, -2]];
        layout.groups = groups;
        c
    }

    fn group(slots: &[usize], shuffle: bool, rotate: bool) -> SlotGroup {
        SlotGroup {
            slots: slots.to_vec(),
            shuffle,
            rotate,
        }
    }

    #[test]
    fn overlapping_sectors_are_refused_at_the_first_space_placed_twice() {
        let c = two_slot_content("eeeeeeeeeeeeeeeeeeb", None);
        let at = |center: Hex, rotation: u8, sector: &str| Placement {
            sector: sector.into(),
            rotation,
            center,
        };
        // Every second centre from 0 to 5 steps away, each rotation: a map whose spaces are
        // all distinct builds; otherwise the error names the first space (in placing order)
        // whose hex an earlier space holds.
        for q in -5..=5 {
            for r in -5..=5 {
                for rotation in [0, 1, 3] {
                    let placed = [
                        at(Hex::new(0, 0), 0, "s1"),
                        at(Hex::new(q, r), rotation, "s2"),
                        at(Hex::new(20, 0), 0, "s1"),
                    ];
                    let mut seen = Vec::new();
                    let mut first = None;
                    for p in &placed {
                        for o in SECTOR_OFFSETS {
                            let hex = p.center + o.rotate(i32::from(p.rotation));
                            if first.is_none() && seen.contains(&hex) {
                                first = Some(hex);
                            }
                            seen.push(hex);
                        }
                    }
                    let built = Map::from_tiles(&c.planets.planets, &c.sectors.sectors, &placed);
                    match first {
                        None => assert!(built.is_ok(), "{q}x{r}"),
                        Some(hex) => assert_eq!(built.err(), Some(MapError::Overlap(hex))),
                    }
                }
            }
        }
    }

    #[test]
    fn groups_say_which_slots_are_dealt_and_which_stay() {
        let c = two_slot_content("eeeeeeeeeeeeeeeeeeb", Some(vec![group(&[1], false, true)]));
        let mut rotations = HashSet::new();
        for seed in 0..30 {
            let map = Map::random(&c, 2, &mut Rng::new(seed)).expect("a map");
            assert_eq!(map.placements[0].sector, "s1");
            assert_eq!(map.placements[0].rotation, 0, "slot 0 is in no group");
            assert_eq!(map.placements[1].sector, "s2");
            rotations.insert(map.placements[1].rotation);
        }
        assert!(rotations.len() > 3, "slot 1 is rotated: {rotations:?}");
        // Shuffled but not rotated: the sectors swap places and keep their rotations.
        let c = two_slot_content(
            "eeeeeeeeeeeeeeeeeeb",
            Some(vec![group(&[0, 1], true, false)]),
        );
        let firsts: HashSet<String> = (0..30)
            .map(|seed| Map::random(&c, 2, &mut Rng::new(seed)).unwrap())
            .inspect(|m| assert!(m.placements.iter().all(|p| p.rotation == 0)))
            .map(|m| m.placements[0].sector.clone())
            .collect();
        assert_eq!(firsts.len(), 2);
        assert_eq!(fixed_slots(&c.sectors.layouts[0], &[]), [0, 1]);
    }

    #[test]
    fn an_impossible_layout_is_an_error_not_a_hang() {
        // Every draw puts two reds side by side inside s2 itself.
        let c = two_slot_content("rrrrrrrrrrrrrrrrrrr", None);
        assert_eq!(
            Map::random(&c, 2, &mut Rng::new(1)),
            Err(MapError::NoValidMap(2, MAP_DRAWS))
        );
        // Fixed sectors that clash are found before any draw.
        let c = two_slot_content("rrrrrrrrrrrrrrrrrrr", Some(vec![]));
        let e = Map::random(&c, 2, &mut Rng::new(1)).unwrap_err();
        assert!(matches!(e, MapError::FixedClash(2, _, _)), "{e}");
        assert!(e.to_string().contains("no valid map exists"), "{e}");
    }

    #[test]
    fn space_references_are_the_names_of_their_spaces_and_follow_a_rotation() {
        let c = two_slot_content("eeeeeeeeeeeeeeeeeeb", None);
        let mut map = Map::random(&c, 2, &mut Rng::new(3)).expect("a map");
        let check = |map: &Map| {
            for (i, s) in map.spaces.iter().enumerate() {
                let (sector, position) = map.name_parts(s.hex).expect("a named space");
                let named = HexRef::Named {
                    sector: sector.into(),
                    position: position.into(),
                };
                assert_eq!(map.space_ref(i), Some(&named));
            }
            assert_eq!(map.space_ref(map.spaces.len()), None);
        };
        check(&map);
        let centre = map.placements[1].center;
        map.rotate_sector(centre, 1).expect("a sector to rotate");
        check(&map);
        // Deserialised without its index rebuilt: no reference rather than a wrong one.
        let loaded: Map = serde_json::from_str(&serde_json::to_string(&map).unwrap()).unwrap();
        assert_eq!(loaded.space_ref(0), None);
    }

    #[test]
    fn hex_index_finds_spaces_and_misses_far_hexes() {
        let spaces = [space(0, 0), space(1, 0), space(2, 0), space(0, 1)];
        let index = HexIndex::new(&spaces);
        assert_eq!(index.get(Hex { q: 2, r: 0 }), Some(2));
        assert_eq!(index.get(Hex { q: 0, r: 1 }), Some(3));
        assert_eq!(index.get(Hex { q: 1, r: 1 }), None);
        // Far hexes must not wrap onto a space of the map.
        for (q, r) in [
            (268_435_458, 0),
            (2, 1 << 30),
            (i32::MAX, i32::MAX),
            (i32::MIN, i32::MIN),
            (i32::MIN, i32::MAX),
        ] {
            assert_eq!(index.get(Hex { q, r }), None, "{q}x{r}");
        }
    }
}
