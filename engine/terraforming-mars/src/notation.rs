//! The line notation of recorded moves: `COLOR: step; step; …`.
//!
//! A step's verb is the text up to its first space; names are bare or JSON-quoted; lists are
//! joined by `", "` and `-` means none; payments and amounts are `key=int` pairs. [`Line::parse`]
//! and [`Line`]'s `Display` are exact inverses on every well-formed line.

use std::fmt;

/// `key=int` pairs in written order (only non-zero entries are written).
pub type Kvs = Vec<(Name, i64)>;

/// A name in a line (a color, card, space, key…): held inline when short, as most are, so
/// listing and copying inputs seldom allocates.
pub type Name = compact_str::CompactString;

/// One parsed line: who, and the steps of their input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The player's color.
    pub player: Name,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// One step of an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Choose a corporation (initial choice).
    Corporation(Name),
    /// Keep/pay for cards.
    Buy(Vec<Name>),
    /// Pick in a draft round.
    Draft(Vec<Name>),
    /// Play a project card, with its payment when given.
    Play(Name, Option<Kvs>),
    /// A standard project by id, with its payment when given.
    Standard(Name, Option<Kvs>),
    /// Standard action: plants to greenery.
    Greenery,
    /// Standard action: heat to temperature.
    Heat,
    /// Use a played card's action.
    Action(Name),
    /// Claim a milestone.
    Claim(Name),
    /// Fund an award.
    Fund(Name),
    /// A corporation's mandatory first action.
    FirstAction(Name),
    /// Pass for the generation.
    Pass,
    /// End the turn.
    End,
    /// A space id.
    Space(Name),
    /// A number.
    Amount(i64),
    /// A player by color.
    Target(Name),
    /// Any other card selection.
    Cards(Vec<Name>),
    /// A separate payment (`None` = `-`).
    Pay(Option<Kvs>),
    /// Production choice.
    Production(Kvs),
    /// One resource key.
    Resource(Name),
    /// Resource amounts.
    Resources(Kvs),
    /// A menu entry by title, with the 1-based index among equal titles.
    Option(Name, Option<u32>),
    /// A lone confirmation.
    Ok,
}

/// Why a line does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

fn err<T>(m: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(m.into()))
}

/// Longest line accepted (characters).
const MAX_LINE: usize = 8192;

/// Splits at `sep` outside JSON-quoted strings.
fn split_outside_quotes<'a>(text: &'a str, sep: &str) -> Result<Vec<&'a str>, ParseError> {
    let mut parts = Vec::new();
    let bytes = text.as_bytes();
    let (mut start, mut i, mut quoted) = (0, 0, false);
    while i < bytes.len() {
        let b = bytes[i];
        if quoted {
            if b == b'\\' {
                i += 2;
                continue;
            }
            if b == b'"' {
                quoted = false;
            }
        } else if b == b'"' {
            quoted = true;
        } else if text[i..].starts_with(sep) {
            parts.push(&text[start..i]);
            i += sep.len();
            start = i;
            continue;
        }
        i += 1;
    }
    if quoted {
        return err(format!("unterminated quoted name in {text:?}"));
    }
    parts.push(&text[start..]);
    Ok(parts)
}

fn is_bare(name: &str) -> bool {
    !name.is_empty()
        && name != "-"
        && !name.starts_with('#')
        && name.trim() == name
        && !name.contains([',', ';', '"', '\\'])
}

fn parse_name(text: &str) -> Result<Name, ParseError> {
    if text.starts_with('"') {
        let s: String = serde_json::from_str(text)
            .map_err(|e| ParseError(format!("bad quoted name {text}: {e}")))?;
        Ok(Name::from(s))
    } else if is_bare(text) {
        Ok(Name::from(text))
    } else {
        err(format!("bad name {text:?}"))
    }
}

fn write_name(f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
    if is_bare(name) {
        f.write_str(name)
    } else {
        write!(
            f,
            "{}",
            serde_json::to_string(name).map_err(|_| fmt::Error)?
        )
    }
}

fn parse_names(text: &str) -> Result<Vec<Name>, ParseError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    split_outside_quotes(text, ", ")?
        .into_iter()
        .map(parse_name)
        .collect()
}

fn write_names(f: &mut fmt::Formatter<'_>, names: &[Name]) -> fmt::Result {
    if names.is_empty() {
        return f.write_str("-");
    }
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_name(f, n)?;
    }
    Ok(())
}

fn parse_kv(text: &str) -> Option<(Name, i64)> {
    let (k, v) = text.split_once('=')?;
    if k.is_empty() || !k.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let v: i64 = v.parse().ok()?;
    if v.unsigned_abs() > 1_000_000 {
        return None;
    }
    Some((Name::from(k), v))
}

fn parse_kvs(text: &str) -> Result<Kvs, ParseError> {
    let kvs: Option<Kvs> = text.split(' ').map(parse_kv).collect();
    match kvs {
        Some(k) if !k.is_empty() => Ok(k),
        _ => err(format!("bad key=value list {text:?}")),
    }
}

fn write_kvs(f: &mut fmt::Formatter<'_>, kvs: &Kvs) -> fmt::Result {
    for (i, (k, v)) in kvs.iter().enumerate() {
        if i > 0 {
            f.write_str(" ")?;
        }
        write!(f, "{k}={v}")?;
    }
    Ok(())
}

/// `NAME [ pay KVS]`: the payment is the longest ` pay k=v…` suffix.
fn parse_paid(rest: &str) -> Result<(Name, Option<Kvs>), ParseError> {
    if let Some(at) = rest.rfind(" pay ") {
        if let Ok(kvs) = parse_kvs(&rest[at + 5..]) {
            return Ok((parse_name(&rest[..at])?, Some(kvs)));
        }
    }
    Ok((parse_name(rest)?, None))
}

impl Step {
    /// Parses one step.
    ///
    /// # Errors
    /// An unknown verb or a malformed argument.
    pub fn parse(text: &str) -> Result<Step, ParseError> {
        let (verb, rest) = match text.split_once(' ') {
            Some((v, r)) => (v, Some(r)),
            None => (text, None),
        };
        let need = || rest.ok_or_else(|| ParseError(format!("`{verb}` needs an argument")));
        let step = match verb {
            "corporation" => Step::Corporation(parse_name(need()?)?),
            "buy" => Step::Buy(parse_names(need()?)?),
            "draft" => Step::Draft(parse_names(need()?)?),
            "play" => {
                let (n, p) = parse_paid(need()?)?;
                Step::Play(n, p)
            }
            "standard" => {
                let (n, p) = parse_paid(need()?)?;
                Step::Standard(n, p)
            }
            "action" => Step::Action(parse_name(need()?)?),
            "claim" => Step::Claim(parse_name(need()?)?),
            "fund" => Step::Fund(parse_name(need()?)?),
            "first-action" => Step::FirstAction(parse_name(need()?)?),
            "space" => {
                let s = need()?;
                if s.len() != 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
                    return err(format!("bad space id {s:?} (two digits)"));
                }
                Step::Space(Name::from(s))
            }
            "amount" => Step::Amount(
                need()?
                    .parse()
                    .ok()
                    .filter(|v: &i64| v.unsigned_abs() <= 1_000_000)
                    .ok_or_else(|| ParseError(format!("bad amount {:?}", rest)))?,
            ),
            "target" => Step::Target(parse_name(need()?)?),
            "cards" => Step::Cards(parse_names(need()?)?),
            "pay" => match need()? {
                "-" => Step::Pay(None),
                r => Step::Pay(Some(parse_kvs(r)?)),
            },
            "production" => Step::Production(parse_kvs(need()?)?),
            "resource" => Step::Resource(parse_name(need()?)?),
            "resources" => Step::Resources(parse_kvs(need()?)?),
            "option" => {
                let r = need()?;
                let (title, n) = match r.rfind("\" #") {
                    Some(at) => {
                        let n: u32 = r[at + 3..]
                            .parse()
                            .map_err(|_| ParseError(format!("bad option index in {r:?}")))?;
                        (&r[..=at], Some(n))
                    }
                    None => (r, None),
                };
                if !title.starts_with('"') {
                    return err(format!("option title must be quoted: {r:?}"));
                }
                Step::Option(parse_name(title)?, n)
            }
            "greenery" | "heat" | "pass" | "end" | "ok" if rest.is_some() => {
                return err(format!("`{verb}` takes no argument"))
            }
            "greenery" => Step::Greenery,
            "heat" => Step::Heat,
            "pass" => Step::Pass,
            "end" => Step::End,
            "ok" => Step::Ok,
            _ => return err(format!("unknown verb {verb:?}")),
        };
        Ok(step)
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let named = |f: &mut fmt::Formatter<'_>, verb: &str, n: &str| {
            write!(f, "{verb} ")?;
            write_name(f, n)
        };
        let paid = |f: &mut fmt::Formatter<'_>, verb: &str, n: &str, p: &Option<Kvs>| {
            named(f, verb, n)?;
            if let Some(k) = p {
                f.write_str(" pay ")?;
                write_kvs(f, k)?;
            }
            Ok(())
        };
        match self {
            Step::Corporation(n) => named(f, "corporation", n),
            Step::Buy(ns) => {
                f.write_str("buy ")?;
                write_names(f, ns)
            }
            Step::Draft(ns) => {
                f.write_str("draft ")?;
                write_names(f, ns)
            }
            Step::Cards(ns) => {
                f.write_str("cards ")?;
                write_names(f, ns)
            }
            Step::Play(n, p) => paid(f, "play", n, p),
            Step::Standard(n, p) => paid(f, "standard", n, p),
            Step::Greenery => f.write_str("greenery"),
            Step::Heat => f.write_str("heat"),
            Step::Action(n) => named(f, "action", n),
            Step::Claim(n) => named(f, "claim", n),
            Step::Fund(n) => named(f, "fund", n),
            Step::FirstAction(n) => named(f, "first-action", n),
            Step::Pass => f.write_str("pass"),
            Step::End => f.write_str("end"),
            Step::Ok => f.write_str("ok"),
            Step::Space(s) => write!(f, "space {s}"),
            Step::Amount(a) => write!(f, "amount {a}"),
            Step::Target(c) => named(f, "target", c),
            Step::Pay(None) => f.write_str("pay -"),
            Step::Pay(Some(k)) => {
                f.write_str("pay ")?;
                write_kvs(f, k)
            }
            Step::Production(k) => {
                f.write_str("production ")?;
                write_kvs(f, k)
            }
            Step::Resources(k) => {
                f.write_str("resources ")?;
                write_kvs(f, k)
            }
            Step::Resource(k) => named(f, "resource", k),
            Step::Option(t, n) => {
                write!(
                    f,
                    "option {}",
                    serde_json::to_string(t).map_err(|_| fmt::Error)?
                )?;
                if let Some(n) = n {
                    write!(f, " #{n}")?;
                }
                Ok(())
            }
        }
    }
}

impl Line {
    /// Parses a whole line.
    ///
    /// # Errors
    /// A missing `COLOR: ` prefix, an over-long line, or a bad step.
    pub fn parse(text: &str) -> Result<Line, ParseError> {
        if text.len() > MAX_LINE {
            return err(format!("line longer than {MAX_LINE} characters"));
        }
        let Some((player, rest)) = text.split_once(": ") else {
            return err(format!("expected `COLOR: step`, got {text:?}"));
        };
        if player.is_empty() || !player.bytes().all(|b| b.is_ascii_lowercase()) {
            return err(format!("bad player color {player:?}"));
        }
        let steps = split_outside_quotes(rest, "; ")?
            .into_iter()
            .map(Step::parse)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Line {
            player: Name::from(player),
            steps,
        })
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.player)?;
        for (i, s) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_round_trip() {
        for l in [
            "blue: corporation Ringworks; buy Gadget, Sprocket, Moss Bed",
            "red: play Deep Drill pay mc=7 steel=2",
            "red: standard city pay mc=25",
            "blue: greenery; space 30",
            "blue: option \"Steal 2 M€ from red\"",
            "red: buy -",
            "red: play \"Depot \\\"Titan\\\"\"",
            "red: option \"a; b\" #2",
        ] {
            assert_eq!(Line::parse(l).unwrap().to_string(), l);
        }
    }

    #[test]
    fn bad_lines_are_refused() {
        for l in [
            "blue",
            "blue: fly",
            "blue: space 3",
            "blue: pass now",
            "blue: option unquoted",
            "blue: buy A,, B",
            "blue: play \"open",
            "blue: amount 99999999999",
        ] {
            assert!(Line::parse(l).is_err(), "{l}");
        }
    }
}
