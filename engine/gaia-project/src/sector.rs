//! The 19 spaces of a radius-2 sector and their names in the notation (`A0`…`A11` the outer
//! ring clockwise from north, `B0`…`B5` the inner ring, `C` the centre).

use orrery_core::hex::Hex;

/// Offsets of the 19 spaces of a sector, in sector-string order: outer ring `A0`–`A11`
/// clockwise from north, inner ring `B0`–`B5`, then the centre `C`.
pub const SECTOR_OFFSETS: [Hex; 19] = [
    Hex::new(2, 0),
    Hex::new(1, 1),
    Hex::new(0, 2),
    Hex::new(-1, 2),
    Hex::new(-2, 2),
    Hex::new(-2, 1),
    Hex::new(-2, 0),
    Hex::new(-1, -1),
    Hex::new(0, -2),
    Hex::new(1, -2),
    Hex::new(2, -2),
    Hex::new(2, -1),
    Hex::new(1, 0),
    Hex::new(0, 1),
    Hex::new(-1, 1),
    Hex::new(-1, 0),
    Hex::new(0, -1),
    Hex::new(1, -1),
    Hex::new(0, 0),
];

/// The name of the space at a sector-string index (`A0`, `B3`, `C`).
pub fn position_name(index: usize) -> String {
    POSITION_NAMES[index.min(18)].to_string()
}

/// Position names by sector-string index: `A0`…`A11`, `B0`…`B5`, `C`.
pub const POSITION_NAMES: [&str; 19] = [
    "A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "B0", "B1", "B2",
    "B3", "B4", "B5", "C",
];

/// The sector-string index of a position name, if valid.
pub fn position_index(name: &str) -> Option<usize> {
    let (ring, rest) = name.split_at_checked(1)?;
    match ring {
        "C" if rest.is_empty() => Some(18),
        "A" | "B" if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) => {
            let n: usize = rest.parse().ok()?;
            if rest.len() > 1 && rest.starts_with('0') {
                return None;
            }
            match (ring, n) {
                ("A", 0..=11) => Some(n),
                ("B", 0..=5) => Some(12 + n),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The sector-string index of an offset from a sector centre, if it lies within radius 2.
pub fn offset_index(offset: Hex) -> Option<usize> {
    SECTOR_OFFSETS.iter().position(|o| *o == offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_names_round_trip() {
        for i in 0..19 {
            assert_eq!(position_index(&position_name(i)), Some(i));
        }
        assert_eq!(position_index("A12"), None);
        assert_eq!(position_index("B6"), None);
        assert_eq!(position_index("C1"), None);
        assert_eq!(position_index("A01"), None);
        assert_eq!(position_index(""), None);
        assert_eq!(position_index("é"), None);
    }

    #[test]
    fn names_follow_offsets() {
        // Offsets from the notation's table.
        assert_eq!(
            offset_index(Hex::new(-2, 0)).map(position_name),
            Some("A6".into())
        );
        assert_eq!(
            offset_index(Hex::new(-1, 0)).map(position_name),
            Some("B3".into())
        );
        assert_eq!(
            offset_index(Hex::new(0, 0)).map(position_name),
            Some("C".into())
        );
        assert_eq!(offset_index(Hex::new(3, 0)), None);
    }
}
