//! Bundle arithmetic: sums and multiples of amounts by code, and the plain readings of
//! conversions (their gain as one bundle, the key of the codes they name).

use crate::content::{Bundle, Conversion, Effect};
use crate::notation::Amount;

/// Adds `n` of a code to a bundle.
pub(crate) fn add(b: &mut Bundle, code: &str, n: i32) {
    *b.0.entry(code.to_string()).or_default() += n;
}

/// The sum of bundles, without zero amounts.
pub(crate) fn sum<'a>(parts: impl IntoIterator<Item = &'a Bundle>) -> Bundle {
    let mut out = Bundle::default();
    for part in parts {
        for (code, n) in part.iter() {
            add(&mut out, code, n);
        }
    }
    out.0.retain(|_, n| *n != 0);
    out
}

/// The bundle a move's written amounts name.
pub(crate) fn of_amounts(amounts: &[Amount]) -> Bundle {
    let mut b = Bundle::default();
    for a in amounts {
        add(&mut b, &a.code, a.count as i32);
    }
    b
}

/// The gain of a conversion as a bundle (`tech` for a tech tile), if it is plain.
pub(crate) fn plain_gain(effects: &[Effect]) -> Option<Bundle> {
    let mut b = Bundle::default();
    for e in effects {
        match e {
            Effect::Gain(g) => {
                for (c, n) in g.iter() {
                    add(&mut b, c, n);
                }
            }
            Effect::TechTile => add(&mut b, "tech", 1),
            _ => return None,
        }
    }
    Some(b)
}

/// A key of the codes a conversion pays and gains: conversions with different keys never list
/// the same part (an FNV-1a hash; equal keys only mean the parts must be compared).
pub(crate) fn codes_key(c: &Conversion) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |code: &str| {
        for b in code.bytes().chain(std::iter::once(0)) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    nonzero_codes(&c.pay).for_each(&mut mix);
    mix("/");
    match c.gain.as_slice() {
        [Effect::Gain(g)] => nonzero_codes(g).for_each(&mut mix),
        effects => plain_codes(effects).into_iter().for_each(&mut mix),
    }
    h
}

/// The codes a conversion's gain names (`tech` for a tech tile), in order.
fn plain_codes(effects: &[Effect]) -> Vec<&str> {
    let mut codes: Vec<&str> = Vec::new();
    for e in effects {
        match e {
            Effect::Gain(g) => codes.extend(nonzero_codes(g)),
            Effect::TechTile => codes.push("tech"),
            _ => {}
        }
    }
    codes.sort_unstable();
    codes.dedup();
    codes
}

/// The codes of a bundle with a count other than 0, in order.
fn nonzero_codes(b: &Bundle) -> impl Iterator<Item = &str> {
    b.iter().filter(|(_, n)| *n != 0).map(|(c, _)| c)
}

/// Whether `b` is `unit` times `k` ([`scaled`]`(unit, k) == *b`), without building the
/// multiple.
pub(crate) fn is_multiple(b: &Bundle, unit: &Bundle, k: i32) -> bool {
    let mut entries = 0;
    for (c, n) in &unit.0 {
        let m = n.saturating_mul(k);
        if m != 0 {
            if b.0.get(c) != Some(&m) {
                return false;
            }
            entries += 1;
        }
    }
    entries == b.0.len()
}

/// A bundle times `k`.
pub(crate) fn scaled(b: &Bundle, k: i32) -> Bundle {
    Bundle(
        b.0.iter()
            .map(|(c, n)| (c.clone(), n.saturating_mul(k)))
            .filter(|(_, n)| *n != 0)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_multiple_agrees_with_comparing_the_scaled_bundle() {
        let unit = Bundle::of(&[("pw", 3), ("q", 0)]);
        let cases = [
            (Bundle::of(&[("pw", 6)]), 2),
            (Bundle::of(&[("pw", 6)]), 3),
            (Bundle::of(&[("pw", 6), ("c", 0)]), 2),
            (Bundle::of(&[("pw", 6), ("c", 1)]), 2),
            (Bundle::of(&[]), 0),
            (Bundle::of(&[("pw", 3)]), 1),
        ];
        for (b, k) in cases {
            assert_eq!(
                is_multiple(&b, &unit, k),
                scaled(&unit, k) == b,
                "{b:?} × {k}"
            );
        }
        assert!(is_multiple(&Bundle::of(&[("pw", 6)]), &unit, 2));
        assert!(!is_multiple(&Bundle::of(&[("pw", 6), ("c", 0)]), &unit, 2));
    }
}
