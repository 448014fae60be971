//! The map: sector tiles placed at centres with rotations, spaces with planets, and hex names.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::content::{Content, PlanetKind};
use crate::hex::{offset_index, position_index, Hex, POSITION_NAMES, SECTOR_OFFSETS};
use crate::rng::Rng;

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
        let mut spaces = Vec::new();
        let mut labels = Vec::new();
        let mut seen = HashSet::new();
        if placements.len() > MAX_SECTORS {
            return Err(MapError::TooManySectors(placements.len()));
        }
        for (si, p) in placements.iter().enumerate() {
            if !within(p.center, MAX_CENTER) {
                return Err(MapError::FarCentre(p.sector.clone(), p.center));
            }
            let sector = content
                .sectors
                .sectors
                .iter()
                .find(|s| s.id == p.sector)
                .ok_or_else(|| MapError::UnknownSector(p.sector.clone()))?;
            labels.push(sector.label.clone());
            for (i, letter) in sector.spaces.chars().enumerate().take(19) {
                let planet = content
                    .planets
                    .planets
                    .iter()
                    .position(|pl| pl.letter == letter)
                    .ok_or(MapError::UnknownLetter(sector.id.clone(), letter))?;
                let hex = p.center + SECTOR_OFFSETS[i].rotate(i32::from(p.rotation));
                if !seen.insert(hex) {
                    return Err(MapError::Overlap(hex));
                }
                spaces.push(Space {
                    hex,
                    sector: si as u8,
                    planet: planet as PlanetIx,
                });
            }
        }
        Ok(Map {
            placements: placements.to_vec(),
            labels,
            index: HexIndex::new(&spaces),
            spaces,
        })
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

    /// A random valid map for a player count: sectors shuffled into the layout's slots with
    /// random rotations, redrawn until no two neighbouring spaces hold the same wheel planet.
    pub fn random(content: &Content, players: usize, rng: &mut Rng) -> Result<Map, MapError> {
        let layout = content
            .sectors
            .layouts
            .iter()
            .find(|l| l.players.iter().any(|&p| usize::from(p) == players))
            .ok_or(MapError::NoLayout(players))?;
        for _ in 0..10_000 {
            let mut ids = layout.sectors.clone();
            rng.shuffle(&mut ids);
            let placements: Vec<Placement> = ids
                .into_iter()
                .zip(&layout.slots)
                .map(|(sector, c)| Placement {
                    sector,
                    rotation: rng.below(6) as u8,
                    center: Hex::new(c[0], c[1]),
                })
                .collect();
            let map = Map::build(content, &placements)?;
            if map.is_valid(content) {
                return Ok(map);
            }
        }
        Err(MapError::NoLayout(players))
    }

    /// No two neighbouring spaces hold the same planet type of the terraforming wheel.
    pub fn is_valid(&self, content: &Content) -> bool {
        self.spaces.iter().all(|s| {
            content.planets.planets[usize::from(s.planet)].kind != PlanetKind::Wheel
                || s.hex
                    .neighbours()
                    .iter()
                    .filter_map(|n| self.space(*n))
                    .all(|n| n.planet != s.planet)
        })
    }

    /// Rebuilds the hex index (after deserialising).
    pub fn reindex(&mut self) {
        self.index = HexIndex::new(&self.spaces);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn space(q: i32, r: i32) -> Space {
        Space {
            hex: Hex { q, r },
            sector: 0,
            planet: PlanetIx::default(),
        }
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
