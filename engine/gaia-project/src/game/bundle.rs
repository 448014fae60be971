//! Bundle arithmetic: sums and multiples of amounts by code, and the plain readings of
//! conversions (their gain as one bundle, the key of the codes they name).

use smallvec::SmallVec;

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

/// The bundle a move's written amounts name (what the inline readings here are tested
/// against).
#[cfg(test)]
pub(crate) fn of_amounts(amounts: &[Amount]) -> Bundle {
    let mut b = Bundle::default();
    for a in amounts {
        add(&mut b, &a.code, a.count as i32);
    }
    b
}

/// The amounts of [`of_amounts`]' bundle as it iterates them (by code, summed as it sums
/// them, zero amounts left out), held inline and borrowed from the move: what paying the
/// bundle reads, without building it.
pub(crate) fn amounts_by_code(amounts: &[Amount]) -> SmallVec<[(&str, i32); 8]> {
    let mut out: SmallVec<[(&str, i32); 8]> = Written::of(amounts)
        .0
        .into_iter()
        .filter(|(_, n)| *n != 0)
        .collect();
    out.sort_by(|a, b| a.0.cmp(b.0));
    out
}

/// A move's written amounts summed by code, held inline and borrowed from the move: what
/// [`of_amounts`] makes, without building a bundle (a code written with a count of 0 kept).
pub(crate) struct Written<'a>(SmallVec<[(&'a str, i32); 4]>);

impl<'a> Written<'a> {
    /// The amounts summed by code.
    pub(crate) fn of(amounts: &'a [Amount]) -> Written<'a> {
        let mut out: SmallVec<[(&str, i32); 4]> = SmallVec::new();
        for a in amounts {
            let n = a.count as i32;
            match out.iter_mut().find(|(c, _)| *c == a.code.as_str()) {
                Some((_, m)) => *m = m.saturating_add(n),
                None => out.push((a.code.as_str(), n)),
            }
        }
        Written(out)
    }

    /// The amount of one code (0 when not written).
    pub(crate) fn get(&self, code: &str) -> i32 {
        self.0
            .iter()
            .find(|(c, _)| *c == code)
            .map_or(0, |(_, n)| *n)
    }

    /// Whether they are `unit` times `k` (the written bundle equals [`scaled`]`(unit, k)`),
    /// without building the multiple.
    pub(crate) fn is_multiple(&self, unit: &Bundle, k: i32) -> bool {
        let mut entries = 0;
        for (c, n) in &unit.0 {
            let m = n.saturating_mul(k);
            if m != 0 {
                if !self.0.iter().any(|(w, n)| *w == c.as_str() && *n == m) {
                    return false;
                }
                entries += 1;
            }
        }
        entries == self.0.len()
    }

    /// Whether they are a plain gain (see [`plain_gain`]) times `k`; `None` when the gain is
    /// not plain. A single gain is read where it is, without building its bundle.
    pub(crate) fn is_gain_multiple(&self, effects: &[Effect], k: i32) -> Option<bool> {
        match effects {
            [Effect::Gain(g)] => Some(self.is_multiple(g, k)),
            _ => plain_gain(effects).map(|g| self.is_multiple(&g, k)),
        }
    }
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

    /// Written amounts read inline agree with the bundle they make, repeated codes, codes
    /// written with 0 and gains of several effects included.
    #[test]
    fn written_amounts_agree_with_their_bundle() {
        let amount = |count: u32, code: &str| Amount {
            count,
            code: code.into(),
            explicit: true,
        };
        let writings = [
            vec![amount(6, "pw")],
            vec![amount(3, "pw"), amount(3, "pw")],
            vec![amount(6, "pw"), amount(0, "c")],
            vec![amount(6, "pw"), amount(1, "c")],
            vec![],
            vec![amount(2, "o"), amount(1, "tech")],
            vec![amount(1, "o"), amount(1, "tech")],
        ];
        let units = [
            Bundle::of(&[("pw", 3), ("q", 0)]),
            Bundle::of(&[("o", 1)]),
            Bundle::of(&[("pw", 6), ("c", 1)]),
        ];
        let gains = [
            vec![Effect::Gain(Bundle::of(&[("o", 1)]))],
            vec![Effect::Gain(Bundle::of(&[("o", 1)])), Effect::TechTile],
            vec![Effect::TechTile, Effect::Gain(Bundle::of(&[("o", 1)]))],
        ];
        for amounts in &writings {
            let written = Written::of(amounts);
            let bundle = of_amounts(amounts);
            assert_eq!(
                amounts_by_code(amounts).into_vec(),
                bundle.iter().collect::<Vec<_>>(),
                "{amounts:?} paid as its bundle"
            );
            for code in ["pw", "c", "o", "q", "tech"] {
                assert_eq!(written.get(code), bundle.get(code), "{amounts:?} {code}");
            }
            for k in -1..4 {
                for unit in &units {
                    let want = scaled(unit, k) == bundle;
                    assert_eq!(
                        written.is_multiple(unit, k),
                        want,
                        "{amounts:?} {unit:?} ×{k}"
                    );
                }
                for gain in &gains {
                    let want = plain_gain(gain).map(|g| scaled(&g, k) == bundle);
                    assert_eq!(written.is_gain_multiple(gain, k), want, "{amounts:?} ×{k}");
                }
            }
        }
        // The cases include matches, not only refusals.
        let pw = Written::of(&writings[1]);
        assert!(pw.is_multiple(&units[0], 2));
        assert!(!Written::of(&writings[2]).is_multiple(&units[0], 2));
        let tile = [amount(2, "o"), amount(2, "tech")];
        assert_eq!(
            Written::of(&tile).is_gain_multiple(&gains[1], 2),
            Some(true)
        );
    }
}
