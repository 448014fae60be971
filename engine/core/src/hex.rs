//! Hex geometry in axial coordinates: distance, neighbours, rotation about the origin, and a
//! bounding box of cube coordinates for cheap distance bounds.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An axial hex coordinate (`s = -q - r`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hex {
    /// Axial q.
    pub q: i32,
    /// Axial r.
    pub r: i32,
}

/// The six neighbour offsets, clockwise from north.
pub const DIRECTIONS: [Hex; 6] = [
    Hex { q: 1, r: 0 },
    Hex { q: 0, r: 1 },
    Hex { q: -1, r: 1 },
    Hex { q: -1, r: 0 },
    Hex { q: 0, r: -1 },
    Hex { q: 1, r: -1 },
];

impl Hex {
    /// A hex from axial coordinates.
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate.
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// Straight-line hex distance.
    pub fn distance(self, other: Hex) -> u32 {
        let dq = (self.q - other.q).unsigned_abs();
        let dr = (self.r - other.r).unsigned_abs();
        let ds = (self.s() - other.s()).unsigned_abs();
        (dq + dr + ds) / 2
    }

    /// The six neighbours, clockwise from north.
    pub fn neighbours(self) -> [Hex; 6] {
        DIRECTIONS.map(|d| self + d)
    }

    /// Rotates about the origin by `k` sixths of a turn clockwise.
    pub fn rotate(self, k: i32) -> Hex {
        let (q, r, s) = (self.q, self.r, self.s());
        match k.rem_euclid(6) {
            0 => Hex::new(q, r),
            1 => Hex::new(-r, -s),
            2 => Hex::new(s, q),
            3 => Hex::new(-q, -r),
            4 => Hex::new(r, s),
            _ => Hex::new(-s, -q),
        }
    }

    /// Parses the axial form `QxR` (e.g. `1x-1`).
    pub fn parse_axial(s: &str) -> Option<Hex> {
        let (q, r) = s.split_once('x')?;
        Some(Hex::new(q.parse().ok()?, r.parse().ok()?))
    }
}

impl std::ops::Add for Hex {
    type Output = Hex;
    fn add(self, o: Hex) -> Hex {
        Hex::new(self.q + o.q, self.r + o.r)
    }
}

impl std::ops::Sub for Hex {
    type Output = Hex;
    fn sub(self, o: Hex) -> Hex {
        Hex::new(self.q - o.q, self.r - o.r)
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.q, self.r)
    }
}

/// The smallest box of cube coordinates (q, r and s ranges) holding a set of hexes: a cheap
/// lower bound of the distance from a hex to the nearest of the set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HexBox {
    /// Least and greatest q, r and s.
    lo: [i32; 3],
    hi: [i32; 3],
}

impl HexBox {
    /// The box around some hexes; `None` for none.
    pub fn around(hexes: &[Hex]) -> Option<HexBox> {
        let first = hexes.first()?;
        let cube = |h: &Hex| [h.q, h.r, h.s()];
        let mut b = HexBox {
            lo: cube(first),
            hi: cube(first),
        };
        for h in &hexes[1..] {
            for (i, c) in cube(h).into_iter().enumerate() {
                b.lo[i] = b.lo[i].min(c);
                b.hi[i] = b.hi[i].max(c);
            }
        }
        Some(b)
    }

    /// At most the distance from `hex` to the nearest hex of the set: on each axis, how far the
    /// hex lies outside the set's range. Inline: callers in other crates ask it for many
    /// hexes at a time.
    #[inline]
    pub fn distance_at_least(&self, hex: Hex) -> u32 {
        [hex.q, hex.r, hex.s()]
            .into_iter()
            .enumerate()
            .map(|(i, c)| (self.lo[i] - c).max(c - self.hi[i]).max(0) as u32)
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_box_never_overstates_the_distance_to_its_nearest_hex() {
        let set = [Hex::new(0, 0), Hex::new(3, -1), Hex::new(-2, 4)];
        let b = HexBox::around(&set).expect("not empty");
        for q in -8..=8 {
            for r in -8..=8 {
                let h = Hex::new(q, r);
                let nearest = set.iter().map(|x| x.distance(h)).min().unwrap();
                assert!(b.distance_at_least(h) <= nearest, "{h:?}");
            }
        }
        // Far away, the bound is tight enough to be useful.
        assert!(b.distance_at_least(Hex::new(12, 0)) >= 9);
        assert_eq!(HexBox::around(&[]), None);
    }

    use super::*;

    #[test]
    fn distance_is_cube_distance() {
        assert_eq!(Hex::new(0, 0).distance(Hex::new(2, -1)), 2);
        assert_eq!(Hex::new(-8, 7).distance(Hex::new(-10, 7)), 2);
        assert_eq!(Hex::new(5, -2).distance(Hex::new(0, 0)), 5);
        assert_eq!(Hex::new(1, 1).distance(Hex::new(1, 1)), 0);
    }

    #[test]
    fn neighbours_are_at_distance_one() {
        let h = Hex::new(3, -4);
        for n in h.neighbours() {
            assert_eq!(h.distance(n), 1);
        }
    }

    #[test]
    fn rotation_matches_the_table() {
        // The offset (-1, 2) rotated once clockwise becomes (-2, 1).
        let p = Hex::new(-1, 2);
        assert_eq!(p.rotate(1), Hex::new(-2, 1));
        assert_eq!(p.rotate(2), Hex::new(-1, -1));
        assert_eq!(p.rotate(3), Hex::new(1, -2));
        assert_eq!(p.rotate(6), p);
        assert_eq!(p.rotate(-1), p.rotate(5));
    }

    #[test]
    fn slot_centres_are_rotations() {
        let base = Hex::new(5, -2);
        let expected = [(5, -2), (2, 3), (-3, 5), (-5, 2), (-2, -3), (3, -5)];
        for (k, (q, r)) in expected.iter().enumerate() {
            assert_eq!(base.rotate(k as i32), Hex::new(*q, *r));
        }
    }

    #[test]
    fn axial_form_parses_and_prints() {
        assert_eq!(Hex::parse_axial("1x-1"), Some(Hex::new(1, -1)));
        assert_eq!(Hex::new(-5, 2).to_string(), "-5x2");
        assert_eq!(Hex::parse_axial("x"), None);
        assert_eq!(Hex::parse_axial("1x"), None);
    }
}
