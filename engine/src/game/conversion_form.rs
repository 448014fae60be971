//! Conversions worked out once into the form move listing reads: the codes they pay resolved
//! to what holds them, and the notation of one use ready to scale.

use smallvec::SmallVec;

use super::legal::{codes_key, plain_gain};
use crate::content::{Content, Conversion, Effect};
use crate::notation::{Amount, Amounts, Command, Word};

/// What a paid code takes from a seat, resolved from the code once.
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
        match code {
            "pw" => PayCode::Power,
            "t" => PayCode::Tokens,
            "tg" => PayCode::GaiaTokens,
            "t-a3" => PayCode::Area3Tokens,
            "gf" => PayCode::Gaiaformers,
            _ => content
                .rules
                .resources
                .iter()
                .position(|r| r.id == code)
                .map_or(PayCode::Unknown, PayCode::Resource),
        }
    }
}

/// A conversion as listing reads it.
#[derive(Debug, Clone)]
pub(crate) struct ConversionForm {
    /// What one use pays, resolved (non-zero amounts only).
    pub pay: SmallVec<[(PayCode, i32); 2]>,
    /// What one use pays and gains, by code as written in a part; no gain when it is not
    /// plain (such a conversion is not listed).
    cost: SmallVec<[(Word, i32); 2]>,
    gain: Option<SmallVec<[(Word, i32); 2]>>,
    /// The gain includes a tech tile.
    pub tech: bool,
    /// The key of its codes (see [`codes_key`]).
    pub key: u64,
}

impl ConversionForm {
    /// The form of a conversion.
    pub fn new(content: &Content, c: &Conversion) -> ConversionForm {
        let gain = match c.gain.as_slice() {
            [Effect::Gain(b)] => Some(b.clone()),
            effects => plain_gain(effects),
        };
        ConversionForm {
            pay: c
                .pay
                .iter()
                .map(|(code, n)| (PayCode::of(content, code), n))
                .collect(),
            cost: c
                .pay
                .iter()
                .map(|(code, n)| (Word::from(code), n))
                .collect(),
            tech: gain.as_ref().is_some_and(|g| g.get("tech") > 0),
            gain: gain.map(|g| g.iter().map(|(code, n)| (Word::from(code), n)).collect()),
            key: codes_key(c),
        }
    }

    /// Whether it can be listed at all: it pays something and gains plainly.
    pub fn listable(&self) -> bool {
        !self.cost.is_empty() && self.gain.is_some()
    }

    /// The part for `k` uses at once.
    pub fn part(&self, k: i32) -> Command {
        Command::Spend {
            cost: scaled(&self.cost, k),
            gain: self
                .gain
                .as_deref()
                .map_or_else(Amounts::new, |g| scaled(g, k)),
        }
    }
}

/// Amounts times `k`, written as the notation writes them (a single tech tile has no count).
fn scaled(items: &[(Word, i32)], k: i32) -> Amounts {
    items
        .iter()
        .map(|(c, n)| {
            if c.as_str() == "tech" && n * k == 1 {
                Amount::single(c.clone())
            } else {
                Amount::new((n * k) as u32, c.clone())
            }
        })
        .collect()
}
