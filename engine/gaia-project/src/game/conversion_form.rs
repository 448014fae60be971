//! Conversions worked out once into the form move listing reads: the codes they pay resolved
//! to what holds them, and the notation of one use ready to scale.

use smallvec::SmallVec;

use super::bundle::{codes_key, plain_gain};
use crate::content::{Content, Conversion, Effect};
use crate::notation::{Amount, Amounts, Command};
use crate::power::Code;

/// What a code takes from a seat when paid (or brings when gained), resolved from the code
/// once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PayCode {
    /// `pw`: power spent from area III.
    Power,
    /// `t`: tokens discarded.
    Tokens,
    /// `tg`: tokens removed from the Gaia area.
    GaiaTokens,
    /// `t-a3`: tokens moved from area III to the Gaia area.
    Area3Tokens,
    /// `gf`: a Gaiaformer put into the Gaia area.
    Gaiaformers,
    /// A content resource, by index in `rules.resources`.
    Resource(usize),
    /// A code the seat never holds (nothing can pay it).
    Unknown,
}

impl PayCode {
    /// The resolved form of a code.
    pub fn of(content: &Content, code: &str) -> PayCode {
        match Code::of(code) {
            Some(Code::Charge) => PayCode::Power,
            Some(Code::Tokens) => PayCode::Tokens,
            Some(Code::GaiaTokens) => PayCode::GaiaTokens,
            Some(Code::Area3Tokens) => PayCode::Area3Tokens,
            Some(Code::Gaiaformers) => PayCode::Gaiaformers,
            None => content
                .rules
                .resources
                .iter()
                .position(|r| same_code(&r.id, code))
                .map_or(PayCode::Unknown, PayCode::Resource),
        }
    }
}

/// Whether two codes are the same, compared byte by byte: codes are a few bytes long, and
/// listing resolves some on every call, where a call to compare memory costs more than the
/// comparison.
fn same_code(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// A conversion as listing reads it.
#[derive(Debug, Clone)]
pub(crate) struct ConversionForm {
    /// What one use pays, resolved (non-zero amounts only).
    pub pay: SmallVec<[(PayCode, i32); 2]>,
    /// What one use pays and gains, as written in its part; no gain when it is not plain
    /// (such a conversion is not listed).
    cost: Amounts,
    gain: Option<Amounts>,
    /// It pays something and gains plainly (see [`ConversionForm::listable`]).
    listable: bool,
    /// What one use pays and gains when each is one amount, as most conversions do: their
    /// parts are then made straight from these, with no list looked at.
    single: Option<(Amount, Amount)>,
    /// The gain includes a tech tile.
    pub tech: bool,
    /// The key of its codes (see [`codes_key`]).
    pub key: u64,
    /// An earlier conversion of the same list has the same key, so the two may list the
    /// same parts (set by whoever makes the list).
    pub may_repeat: bool,
}

impl ConversionForm {
    /// The form of a conversion.
    pub fn new(content: &Content, c: &Conversion) -> ConversionForm {
        // A gain of resources only is read as it is; others are summed into one bundle.
        let summed;
        let gain = match c.gain.as_slice() {
            [Effect::Gain(b)] => Some(b),
            effects => {
                summed = plain_gain(effects);
                summed.as_ref()
            }
        };
        let cost = written(c.pay.iter());
        let gain = gain.map(|g| (g.get("tech") > 0, written(g.iter())));
        let single = match (cost.as_slice(), gain.as_ref().map(|(_, g)| g.as_slice())) {
            ([c], Some([g])) => Some((c.clone(), g.clone())),
            _ => None,
        };
        ConversionForm {
            single,
            pay: c
                .pay
                .iter()
                .map(|(code, n)| (PayCode::of(content, code), n))
                .collect(),
            listable: !cost.is_empty() && gain.is_some(),
            cost,
            tech: gain.as_ref().is_some_and(|(tech, _)| *tech),
            gain: gain.map(|(_, g)| g),
            key: codes_key(c),
            may_repeat: false,
        }
    }

    /// The forms of a list of conversions, with [`ConversionForm::may_repeat`] set.
    pub fn list<'c>(
        content: &Content,
        list: impl IntoIterator<Item = &'c Conversion>,
    ) -> Vec<ConversionForm> {
        let mut out: Vec<ConversionForm> = Vec::new();
        for c in list {
            let mut form = ConversionForm::new(content, c);
            form.may_repeat = out.iter().any(|f| f.key == form.key);
            out.push(form);
        }
        out
    }

    /// Whether it can be listed at all: it pays something and gains plainly.
    pub fn listable(&self) -> bool {
        self.listable
    }

    /// Pushes [`ConversionForm::part`] for `k` (at least 1, at most
    /// [`crate::notation::MAX_AMOUNT`]) uses at once onto `out`. Inline: most parts a
    /// listing makes are conversions, and for most of them this is a handful of stores.
    #[inline(always)]
    pub fn push_part(&self, k: u32, out: &mut Vec<Command>) {
        match &self.single {
            Some((cost, gain)) => out.push(Command::Spend {
                cost: Amounts::from_buf([times(cost, k)]),
                gain: Amounts::from_buf([times(gain, k)]),
            }),
            None => out.push(self.part(k as i32)),
        }
    }

    /// The part for `k` (at least 1) uses at once.
    #[inline]
    pub fn part(&self, k: i32) -> Command {
        Command::Spend {
            cost: scaled(&self.cost, k),
            gain: self
                .gain
                .as_ref()
                .map_or_else(Amounts::new, |g| scaled(g, k)),
        }
    }
}

/// Amounts of one use as the notation writes them (a single tech tile has no count).
fn written<'s>(items: impl Iterator<Item = (&'s str, i32)>) -> Amounts {
    items
        .map(|(c, n)| {
            if c == "tech" && n == 1 {
                Amount::single(c)
            } else {
                Amount::new(n as u32, c)
            }
        })
        .collect()
}

/// An amount of one use times `k`: as [`scaled`] scales each amount of a list.
#[inline(always)]
fn times(a: &Amount, k: u32) -> Amount {
    Amount {
        count: a.count.saturating_mul(k),
        code: a.code.clone(),
        explicit: a.explicit || k != 1,
    }
}

/// Amounts of one use times `k` (every count is then written). A count past `u32::MAX` (only
/// absurd content gets there) stays at the largest count rather than wrapping. Inline: half
/// the parts a listing makes are conversions, each scaling two lists.
#[inline]
fn scaled(one: &Amounts, k: i32) -> Amounts {
    let k = u32::try_from(k).unwrap_or(0);
    let scale = |a: &Amount| times(a, k);
    match one.as_slice() {
        // Most conversions pay and gain one code: the list is made full, with no growing.
        [a] => Amounts::from_buf([scale(a)]),
        all => all.iter().map(scale).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_resolve_to_what_holds_them() {
        let content = crate::content::fixture::two_factions();
        for (i, r) in content.rules.resources.iter().enumerate() {
            assert_eq!(PayCode::of(&content, &r.id), PayCode::Resource(i));
        }
        assert_eq!(PayCode::of(&content, "pw"), PayCode::Power);
        assert_eq!(PayCode::of(&content, "t"), PayCode::Tokens);
        assert_eq!(PayCode::of(&content, "no-such-code"), PayCode::Unknown);
        let first = &content.rules.resources[0].id;
        assert_eq!(
            PayCode::of(&content, &format!("{first}x")),
            PayCode::Unknown
        );
    }

    #[test]
    fn codes_are_compared_whole() {
        assert!(same_code("q", "q"));
        assert!(same_code("t-a3", "t-a3"));
        assert!(!same_code("q", "qq"));
        assert!(!same_code("vp", "vq"));
        assert!(!same_code("", "c"));
        assert!(same_code("", ""));
    }

    #[test]
    fn scaling_multiplies_every_count_and_never_wraps() {
        let one: Amounts = [Amount::new(2, "o"), Amount::new(u32::MAX / 2 + 1, "vp")]
            .into_iter()
            .collect();
        let three = scaled(&one, 3);
        assert_eq!(three[0].count, 6);
        assert_eq!(three[1].count, u32::MAX);
        assert!(three.iter().all(|a| a.explicit));
        // One amount (made without growing a list) scales as a list of several does.
        let single: Amounts = [Amount::new(3, "pw")].into_iter().collect();
        assert_eq!(scaled(&single, 2).as_slice(), &[Amount::new(6, "pw")]);
        let tech: Amounts = [Amount::single("tech")].into_iter().collect();
        assert_eq!(scaled(&tech, 1).as_slice(), &[Amount::single("tech")]);
        assert_eq!(scaled(&tech, 2).as_slice(), &[Amount::new(2, "tech")]);
        let same = scaled(&one, 1);
        assert_eq!(same[0].count, 2);
        assert_eq!(same[1].count, u32::MAX / 2 + 1);
    }
}
