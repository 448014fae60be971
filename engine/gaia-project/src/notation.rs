//! Move notation: parse one recorded move line into a typed value and print it back.
//!
//! The grammar is the one of the conformance records (`NOTATION.md`): a line is either
//! `init <players> <seed>` or `<actor> <part>. <part>. …`, where every part is one command
//! (`build m 4B2`, `spend 1pw for 1c`, …) and an empty part means `endturn`.
//!
//! The parser is deliberately generic: it knows the command *verbs* of the notation and the
//! shape of their arguments (hex references, reward lists, numbers), but no faction names,
//! tile ids or action ids. Verbs it does not know (faction-specific follow-ups, auction bids,
//! anything new) are kept as [`Command::Other`] with their raw arguments.
//!
//! Display annotations that the recording engine appends to lines (power bowls, research
//! levels, returned boosters, power sources, old PI locations) are removed by
//! [`strip_annotations`] before parsing; they carry no input information.
//!
//! Printing ([`std::fmt::Display`]) yields the canonical form: single spaces, parts joined by
//! `". "`, every end of turn written as an explicit `endturn` part, annotations dropped,
//! ignored trailing arguments dropped. Parsing the printed form gives back an equal value.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// A word of the notation: an id, a code or part of a hex name. Words are short, so they are
/// kept inline without allocating ([`compact_str::CompactString`]); listing legal parts
/// makes many of them.
pub type Word = compact_str::CompactString;

/// Who wrote a line: a seat before it has a faction (`p1`..`p9`) or a faction id.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Actor {
    /// A seat number (1-based), written `pN`; used before the seat has chosen its faction.
    Seat(u8),
    /// A faction id as written (e.g. `zorgs`).
    Faction(Word),
}

/// One move line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveLine {
    /// `init <players> <seed>`: the first line of every record.
    Init {
        /// Number of seats.
        players: u8,
        /// The seed token, as written.
        seed: String,
    },
    /// One player's decision: the actor followed by its `.`-separated parts.
    Turn {
        /// Who wrote the line.
        actor: Actor,
        /// The parts in order; an empty part (e.g. from a trailing `.`) is [`Command::EndTurn`].
        parts: Vec<Command>,
    },
}

/// A hex reference as written: a name like `4B2`/`10A11`/`3C` or axial `1x-1`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HexRef {
    /// `<sector><position>`: sector digits (1-2, kept as written) and position
    /// (`A`/`B`/`C` plus up to two digits, e.g. `A10`, `B3`, `C`).
    Named {
        /// The sector number as written (e.g. `"10"`).
        sector: Word,
        /// The position inside the sector as written (e.g. `"A11"`, `"C"`).
        position: Word,
    },
    /// Axial coordinates written `QxR` (e.g. `1x-1`).
    Axial {
        /// Axial q.
        q: i32,
        /// Axial r.
        r: i32,
    },
}

/// A list of amounts. Most lists hold one item, so one is kept inline without allocating
/// (listing legal parts makes many conversions).
pub type Amounts = smallvec::SmallVec<[Amount; 1]>;

/// One item of a reward/cost list such as `4pw`, `q`, `1t-a3`, `range+3`.
///
/// `"4pw"` is `{count: 4, code: "pw"}`, `"q"` is `{count: 1, code: "q"}` and `"t-a3"` is
/// `{count: 1, code: "t-a3"}`. Whether the count was written is kept in `explicit`, so that the
/// canonical form reproduces the record's spelling (`charge 1pw` and `income pw` both occur, and
/// the recording engine matches income items by their text).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Amount {
    /// The multiplier (1 when not written).
    pub count: u32,
    /// The reward code after the count (`pw`, `c`, `t-a3`, `range+3`, …).
    pub code: Word,
    /// True when the count was written out (`1q`), false when implied (`q`).
    #[serde(default)]
    pub explicit: bool,
}

impl Amount {
    /// An amount with a written count, e.g. `Amount::new(4, "pw")` prints `4pw`.
    pub fn new(count: u32, code: impl Into<Word>) -> Self {
        Amount {
            count,
            code: code.into(),
            explicit: true,
        }
    }

    /// An amount of one without a written count, e.g. `Amount::single("q")` prints `q`.
    pub fn single(code: impl Into<Word>) -> Self {
        Amount {
            count: 1,
            code: code.into(),
            explicit: false,
        }
    }
}

/// One command (one `.`-separated part of a move line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// `faction <id>`: choose a faction during setup.
    Faction(Word),
    /// `build <building> <hex>`: place or upgrade a building.
    Build {
        /// The building code as written (`m`, `ts`, `lab`, `PI`, `ac1`, `ac2`, `gf`, `sp`, …).
        building: Word,
        /// Where.
        hex: HexRef,
    },
    /// `booster <id>`: initial booster pick.
    Booster(Word),
    /// `bid <faction> <amount>`: bid VP for a chosen faction in a faction auction.
    Bid {
        /// The faction bid on.
        faction: Word,
        /// VP offered (paid at the end of the game).
        amount: u32,
    },
    /// `pass [<booster id>]`: pass, taking the named booster (none in the last round).
    Pass(Option<Word>),
    /// `up <field>`: advance on a research track.
    Up(Word),
    /// `tech <position>`: take the tech tile at a position.
    Tech(Word),
    /// `cover <position>`: cover a standard tile with an advanced one.
    Cover(Word),
    /// `decline [<what>]`: refuse an offer (`decline 2pw`, `decline up`, bare `decline`, …).
    Decline(Option<Word>),
    /// `charge <amounts>`: accept a power offer (`charge 2pw`, `charge 1t,3pw`).
    Charge(Amounts),
    /// `income <amounts>`: order pending income events; each item names one event (`t,2t,4pw`).
    Income(Amounts),
    /// `action <id>`: a board action.
    Action(Word),
    /// `special <amounts>`: a once-per-round special action, named by its reward list
    /// (`special 4pw`, `special q,5c`, `special range+3`; word-like ids are one amount).
    Special(Amounts),
    /// `federation <hex>,<hex>,… <token>`: form a federation and take a token.
    Federation {
        /// The hexes in the order written (shared: a listing offers each layout once per token).
        hexes: std::sync::Arc<[HexRef]>,
        /// The federation token id taken.
        token: Word,
    },
    /// `fedtile <token>`: re-score one owned federation token.
    FedTile(Word),
    /// `spend <cost> for <gain>`: a free conversion.
    Spend {
        /// What is paid.
        cost: Amounts,
        /// What is received.
        gain: Amounts,
    },
    /// `burn <n>`: burn power.
    Burn(u32),
    /// `endturn`, also written as an empty part (trailing `.`).
    EndTurn,
    /// Any other verb with its raw whitespace-separated arguments (faction-specific
    /// follow-ups, auction bids, unknown commands).
    Other {
        /// The verb as written.
        verb: Word,
        /// The arguments as written.
        args: Vec<Word>,
    },
}

/// Empties `parts` as [`Vec::clear`] does, faster: a part that owns no heap memory (its words
/// and lists all inline, as nearly every listed part's are) is let go without running its
/// drop code, which does nothing for it but through out-of-line calls, one for each list.
/// Listing legal parts empties its buffer of the previous listing's parts this way.
pub(crate) fn clear_parts(parts: &mut Vec<Command>) {
    while let Some(last) = parts.last() {
        if last.owns_heap() {
            // Dropped where it lies.
            parts.truncate(parts.len() - 1);
        } else {
            std::mem::forget(parts.pop());
        }
    }
}

impl Command {
    /// Whether dropping the part gives anything back: heap memory (a word or a list not
    /// kept inline) or a shared reference.
    pub(crate) fn owns_heap(&self) -> bool {
        match self {
            Command::Faction(w)
            | Command::Booster(w)
            | Command::Up(w)
            | Command::Tech(w)
            | Command::Cover(w)
            | Command::Action(w)
            | Command::FedTile(w) => w.is_heap_allocated(),
            Command::Pass(w) | Command::Decline(w) => {
                w.as_ref().is_some_and(|w| w.is_heap_allocated())
            }
            Command::Build { building, hex } => building.is_heap_allocated() || hex.owns_heap(),
            Command::Bid { faction, .. } => faction.is_heap_allocated(),
            Command::Charge(a) | Command::Income(a) | Command::Special(a) => !all_inline(a),
            Command::Spend { cost, gain } => !all_inline(cost) || !all_inline(gain),
            Command::Federation { .. } | Command::Other { .. } => true,
            Command::Burn(_) | Command::EndTurn => false,
        }
    }
}

impl HexRef {
    /// Whether dropping the reference gives heap memory back (a word not kept inline).
    fn owns_heap(&self) -> bool {
        match self {
            HexRef::Named { sector, position } => {
                sector.is_heap_allocated() || position.is_heap_allocated()
            }
            HexRef::Axial { .. } => false,
        }
    }
}

/// Whether a list of amounts owns no heap memory: kept inline, every code inline.
#[inline]
fn all_inline(amounts: &Amounts) -> bool {
    match amounts.as_slice() {
        _ if amounts.spilled() => false,
        [] => true,
        [a] => !a.code.is_heap_allocated(),
        all => all.iter().all(|a| !a.code.is_heap_allocated()),
    }
}

/// The largest count a move may name (an amount, a burn, a bid): far above anything a game
/// reaches, low enough that scaling it by any count content sets stays within range.
pub const MAX_AMOUNT: u32 = 1_000_000;

/// The largest axial coordinate (either sign) a move may name; far beyond any map.
pub const MAX_COORD: i32 = 1 << 20;

/// The longest move line accepted, in bytes (recorded lines are below 400).
pub const MAX_LINE_BYTES: usize = 16 * 1024;

/// The most parts one move line may have (recorded lines have at most 20).
pub const MAX_PARTS: usize = 256;

/// A notation error; the message names the offending part, e.g.
/// `bad burn amount "x" in part 3 "burn x"`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct NotationError {
    /// Human-readable description.
    pub message: String,
}

impl NotationError {
    fn new(message: impl Into<String>) -> Self {
        NotationError {
            message: message.into(),
        }
    }

    fn in_part(self, index: usize, part: &str) -> Self {
        NotationError::new(format!("{} in part {index} \"{part}\"", self.message))
    }
}

// ---------------------------------------------------------------------------------------------
// Display
// ---------------------------------------------------------------------------------------------

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Seat(n) => write!(f, "p{n}"),
            Actor::Faction(id) => f.write_str(id),
        }
    }
}

impl fmt::Display for HexRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexRef::Named { sector, position } => write!(f, "{sector}{position}"),
            HexRef::Axial { q, r } => write!(f, "{q}x{r}"),
        }
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.explicit || self.count != 1 {
            write!(f, "{}", self.count)?;
        }
        f.write_str(&self.code)
    }
}

/// Writes `items` separated by `sep`.
fn write_joined<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    items: &[T],
    sep: &str,
) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

impl Command {
    /// The canonical spelling of a part, for comparing parts written differently: every count
    /// written out, a conversion's amounts merged by code and sorted, a federation's hexes
    /// sorted by name.
    pub fn canonical(&self) -> Command {
        fn explicit(list: &[Amount]) -> Amounts {
            list.iter()
                .map(|a| Amount::new(a.count, a.code.clone()))
                .collect()
        }
        fn merged(list: &[Amount]) -> Amounts {
            let mut by_code: std::collections::BTreeMap<&str, u32> = Default::default();
            for a in list {
                *by_code.entry(a.code.as_str()).or_default() += a.count;
            }
            by_code
                .into_iter()
                .map(|(c, n)| Amount::new(n, c))
                .collect()
        }
        match self {
            Command::Charge(a) => Command::Charge(explicit(a)),
            Command::Income(a) => Command::Income(explicit(a)),
            Command::Special(a) => Command::Special(explicit(a)),
            Command::Spend { cost, gain } => Command::Spend {
                cost: merged(cost),
                gain: merged(gain),
            },
            Command::Federation { hexes, token } => {
                let mut hexes = hexes.to_vec();
                hexes.sort_by_key(|h| h.to_string());
                Command::Federation {
                    hexes: hexes.into(),
                    token: token.clone(),
                }
            }
            other => other.clone(),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Faction(id) => write!(f, "faction {id}"),
            Command::Bid { faction, amount } => write!(f, "bid {faction} {amount}"),
            Command::Build { building, hex } => write!(f, "build {building} {hex}"),
            Command::Booster(id) => write!(f, "booster {id}"),
            Command::Pass(None) => f.write_str("pass"),
            Command::Pass(Some(id)) => write!(f, "pass {id}"),
            Command::Up(field) => write!(f, "up {field}"),
            Command::Tech(pos) => write!(f, "tech {pos}"),
            Command::Cover(pos) => write!(f, "cover {pos}"),
            Command::Decline(None) => f.write_str("decline"),
            Command::Decline(Some(what)) => write!(f, "decline {what}"),
            Command::Charge(amounts) => {
                f.write_str("charge ")?;
                write_joined(f, amounts, ",")
            }
            Command::Income(amounts) => {
                f.write_str("income ")?;
                write_joined(f, amounts, ",")
            }
            Command::Action(id) => write!(f, "action {id}"),
            Command::Special(amounts) => {
                f.write_str("special ")?;
                write_joined(f, amounts, ",")
            }
            Command::Federation { hexes, token } => {
                f.write_str("federation ")?;
                write_joined(f, hexes, ",")?;
                write!(f, " {token}")
            }
            Command::FedTile(id) => write!(f, "fedtile {id}"),
            Command::Spend { cost, gain } => {
                f.write_str("spend ")?;
                write_joined(f, cost, ",")?;
                f.write_str(" for ")?;
                write_joined(f, gain, ",")
            }
            Command::Burn(n) => write!(f, "burn {n}"),
            Command::EndTurn => f.write_str("endturn"),
            Command::Other { verb, args } => {
                f.write_str(verb)?;
                for arg in args {
                    write!(f, " {arg}")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for MoveLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveLine::Init { players, seed } => write!(f, "init {players} {seed}"),
            MoveLine::Turn { actor, parts } => {
                write!(f, "{actor} ")?;
                write_joined(f, parts, ". ")
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Annotation stripping (hand-written equivalents of the NOTATION.md §2.1 regexes)
// ---------------------------------------------------------------------------------------------

/// A tiny byte cursor for the annotation matchers; every method returns whether it matched
/// and only advances on success.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn literal(&mut self, lit: &str) -> bool {
        let lit = lit.as_bytes();
        if self.bytes.get(self.pos..self.pos + lit.len()) == Some(lit) {
            self.pos += lit.len();
            true
        } else {
            false
        }
    }

    /// `\d+` (ASCII digits, greedy).
    fn digits(&mut self) -> bool {
        let start = self.pos;
        while self.bytes.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
        self.pos > start
    }

    /// `[A-Za-z][A-Za-z0-9]*`.
    fn word(&mut self) -> bool {
        if !self
            .bytes
            .get(self.pos)
            .is_some_and(u8::is_ascii_alphabetic)
        {
            return false;
        }
        self.pos += 1;
        while self
            .bytes
            .get(self.pos)
            .is_some_and(u8::is_ascii_alphanumeric)
        {
            self.pos += 1;
        }
        true
    }

    /// One or more bytes from `allowed`.
    fn one_or_more(&mut self, allowed: impl Fn(u8) -> bool) -> bool {
        let start = self.pos;
        while self.bytes.get(self.pos).is_some_and(|&b| allowed(b)) {
            self.pos += 1;
        }
        self.pos > start
    }
}

/// `\d+(,B)?` — one bowl count, optionally marked as holding the brain-token.
fn bowl_count(c: &mut Cursor<'_>) -> bool {
    if !c.digits() {
        return false;
    }
    c.literal(",B");
    true
}

/// `n/n/n/n` of bowl counts.
fn bowl_state(c: &mut Cursor<'_>) -> bool {
    bowl_count(c)
        && c.literal("/")
        && bowl_count(c)
        && c.literal("/")
        && bowl_count(c)
        && c.literal("/")
        && bowl_count(c)
}

/// ` (a/b/c/d ⇒ e/f/g/h)`: power bowls before and after.
fn match_bowls(bytes: &[u8], start: usize) -> Option<usize> {
    let mut c = Cursor { bytes, pos: start };
    (c.literal(" (")
        && bowl_state(&mut c)
        && c.literal(" ⇒ ")
        && bowl_state(&mut c)
        && c.literal(")"))
    .then_some(c.pos)
}

/// ` returning <letters><n>` (the returned tile, e.g. ` returning widget8`).
fn match_returning(bytes: &[u8], start: usize) -> Option<usize> {
    let mut c = Cursor { bytes, pos: start };
    (c.literal(" returning ") && c.one_or_more(|b| b.is_ascii_alphabetic()) && c.digits())
        .then_some(c.pos)
}

/// ` using <source>: <n>(, <source>: <n>)*` — where spent power tokens came from.
fn match_using(bytes: &[u8], start: usize) -> Option<usize> {
    let mut c = Cursor { bytes, pos: start };
    if !(c.literal(" using ") && c.word() && c.literal(": ") && c.digits()) {
        return None;
    }
    loop {
        let save = c.pos;
        if !(c.literal(", ") && c.word() && c.literal(": ") && c.digits()) {
            c.pos = save;
            return Some(c.pos);
        }
    }
}

/// ` (x ⇒ y)`: research level before and after.
fn match_level(bytes: &[u8], start: usize) -> Option<usize> {
    let mut c = Cursor { bytes, pos: start };
    (c.literal(" (") && c.digits() && c.literal(" ⇒ ") && c.digits() && c.literal(")"))
        .then_some(c.pos)
}

/// ` (from <hex name>)`: the old location of a swapped building.
fn match_from(bytes: &[u8], start: usize) -> Option<usize> {
    let mut c = Cursor { bytes, pos: start };
    (c.literal(" (from ")
        && c.one_or_more(|b| b.is_ascii_digit() || (b'A'..=b'C').contains(&b))
        && c.literal(")"))
    .then_some(c.pos)
}

/// Removes every non-overlapping match of `matcher`, scanning left to right (regex `/g`);
/// `None` when nothing matched. All matchers start with an ASCII space and end on an ASCII
/// byte, so every cut is on a character boundary.
fn remove_all(s: &str, matcher: Matcher) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out: Option<String> = None;
    let mut kept_from = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b' ' {
            if let Some(end) = matcher(bytes, i) {
                out.get_or_insert_with(|| String::with_capacity(s.len()))
                    .push_str(s.get(kept_from..i).unwrap_or_default());
                kept_from = end;
                i = end;
                continue;
            }
        }
        i += 1;
    }
    let mut out = out?;
    out.push_str(s.get(kept_from..).unwrap_or_default());
    Some(out)
}

/// Where the power bowls annotation starts when it ends the line (regex `…$`); `None` when it
/// does not. The annotation holds one `(`, its second byte, so the only start that can reach
/// the end is the last ` (`.
fn trailing_bowls(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let at = bytes.iter().rposition(|b| *b == b'(')?.checked_sub(1)?;
    (match_bowls(bytes, at) == Some(bytes.len())).then_some(at)
}

/// What a text holds of the annotations' starts: every annotation starts with ` (`,
/// ` returning ` or ` using `, so a matcher can only remove something where its start occurs;
/// and every canonical print that could look like one holds a `(`, `returning` or `using`.
#[derive(Clone, Copy, Default)]
struct Marks {
    /// ` (` somewhere.
    paren: bool,
    /// ` returning ` somewhere.
    returning: bool,
    /// ` using ` somewhere.
    using: bool,
    /// How many `(` anywhere.
    opens: usize,
    /// `returning` or `using` anywhere.
    words: bool,
}

impl Marks {
    fn of(s: &str) -> Marks {
        Scan::of(s).marks
    }

    /// Whether an annotation may start in the text.
    fn starts(self) -> bool {
        self.paren || self.returning || self.using
    }

    /// Whether the text holds an annotation's start, or a line parsed from it could print one
    /// (the print adds no `(` and no letters but the verbs' and `for`).
    fn loose(self) -> bool {
        self.opens > 0 || self.words
    }
}

/// What one pass of removals left: the text cut to its first `n` bytes (only the trailing
/// bowls removed), or a new text.
enum Stripped {
    Prefix(usize),
    Owned(String),
}

/// A matcher of one annotation: where its match from a start ends, if it matches there.
type Matcher = fn(&[u8], usize) -> Option<usize>;

/// Whether a text's marks hold the start a matcher needs.
type Needs = fn(Marks) -> bool;

/// The removals after the trailing bowls, in order, each with the start it needs.
const REMOVALS: [(Matcher, Needs); 4] = [
    (match_returning, |m| m.returning),
    (match_using, |m| m.using),
    (match_level, |m| m.paren),
    (match_from, |m| m.paren),
];

/// One pass of every removal (the trailing bowls, then every match of each other annotation
/// in turn) on a text with `marks`; `None` when nothing was removed, else what is left and its
/// marks. A removal whose start the text lacks is skipped.
fn strip_once(line: &str, mut marks: Marks) -> Option<(Stripped, Marks)> {
    let mut prefix = line.len();
    if marks.paren {
        if let Some(at) = trailing_bowls(line) {
            prefix = at;
            // The bowls hold one `(` and no letters: without another `(` or word, nothing of
            // the marks is left before them.
            marks = if marks.opens == 1 && !marks.words {
                Marks::default()
            } else {
                Marks::of(line.get(..at).unwrap_or_default())
            };
        }
    }
    let mut owned: Option<String> = None;
    for (matcher, needed) in REMOVALS {
        if !needed(marks) {
            continue;
        }
        let current = match &owned {
            Some(s) => s.as_str(),
            None => line.get(..prefix).unwrap_or_default(),
        };
        if let Some(next) = remove_all(current, matcher) {
            marks = Marks::of(&next);
            owned = Some(next);
        }
    }
    match owned {
        Some(s) => Some((Stripped::Owned(s), marks)),
        None => (prefix < line.len()).then_some((Stripped::Prefix(prefix), marks)),
    }
}

/// [`strip_annotations`] of a text with `marks`, without copying a text that holds no
/// annotation or only the trailing power bowls; with the marks of what is left.
fn strip(line: &str, mut marks: Marks) -> (Cow<'_, str>, Marks) {
    let mut current = Cow::Borrowed(line);
    // A removal always shortens the line, so "nothing removed" is "nothing changed".
    while marks.starts() {
        let Some((step, left)) = strip_once(&current, marks) else {
            break;
        };
        marks = left;
        current = match (current, step) {
            (Cow::Borrowed(s), Stripped::Prefix(n)) => {
                Cow::Borrowed(s.get(..n).unwrap_or_default())
            }
            (Cow::Owned(mut s), Stripped::Prefix(n)) => {
                s.truncate(n);
                Cow::Owned(s)
            }
            (_, Stripped::Owned(s)) => Cow::Owned(s),
        };
    }
    (current, marks)
}

/// Removes the display annotations the recording engine adds to move lines
/// (NOTATION.md §2.1), written by hand without a regex engine:
///
/// * ` (a/b/c/d ⇒ e/f/g/h)` power bowls (each count optionally followed by `,B`), only at the
///   very end of the line;
/// * ` returning <letters><n>` anywhere (the record's form is ` returning booster<n>`; any
///   tile-like id is accepted);
/// * ` using <word>: <n>(, <word>: <n>)*` anywhere (any source word, not just the known bowls);
/// * ` (<n> ⇒ <m>)` research levels anywhere;
/// * ` (from <[0-9A-C]+>)` anywhere.
///
/// The replacements are repeated until nothing changes, so the result never contains an
/// annotation (on recorded lines one pass already suffices). Whitespace is left as is.
#[must_use]
pub fn strip_annotations(line: &str) -> String {
    strip(line, Marks::of(line)).0.into_owned()
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

/// Parses a hex reference: `<1-2 digits><A|B|C><0-2 digits>` (e.g. `4B2`, `10A11`, `3C`) or
/// axial `QxR` with optional minus signs (e.g. `1x-1`).
///
/// # Errors
///
/// `bad hex "<s>"` when `s` has neither form (or an axial coordinate is beyond
/// [`MAX_COORD`]).
pub fn parse_hex_ref(s: &str) -> Result<HexRef, NotationError> {
    let bad = || NotationError::new(format!("bad hex \"{s}\""));
    let bytes = s.as_bytes();
    // Named form.
    let sector_len = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if (1..=2).contains(&sector_len)
        && bytes
            .get(sector_len)
            .is_some_and(|b| (b'A'..=b'C').contains(b))
    {
        let tail = &bytes[sector_len + 1..];
        if tail.len() <= 2 && tail.iter().all(u8::is_ascii_digit) {
            let (sector, position) = s.split_at(sector_len);
            return Ok(HexRef::Named {
                sector: sector.into(),
                position: position.into(),
            });
        }
        return Err(bad());
    }
    // Axial form.
    let (q, r) = s.split_once('x').ok_or_else(bad)?;
    let coord = |t: &str| -> Option<i32> {
        let digits = t.strip_prefix('-').unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse().ok().filter(|c: &i32| c.abs() <= MAX_COORD)
    };
    match (coord(q), coord(r)) {
        (Some(q), Some(r)) => Ok(HexRef::Axial { q, r }),
        _ => Err(bad()),
    }
}

/// The pieces of `s` between the bytes `sep` (an ASCII byte), as `str::split` gives them,
/// found without a searcher (the pieces of a move line are short).
fn split_ascii(s: &str, sep: u8) -> impl Iterator<Item = &str> {
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.bytes().position(|b| b == sep) {
            Some(at) => {
                rest = r.get(at + 1..);
                r.get(..at)
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// Parses one reward item: optional decimal count, then a code starting with an ASCII letter
/// and made of ASCII letters, digits, `-`, `+` and `_` (`4pw`, `q`, `1t-a3`, `range+3`).
fn parse_amount(item: &str) -> Result<Amount, NotationError> {
    let bad = || NotationError::new(format!("bad amount \"{item}\""));
    let digits = item.bytes().take_while(u8::is_ascii_digit).count();
    let (count, code) = item.split_at(digits);
    let code_ok = code.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'_'));
    if !code_ok {
        return Err(bad());
    }
    if count.is_empty() {
        Ok(Amount::single(code))
    } else {
        let count = count
            .parse::<u32>()
            .ok()
            .filter(|n| *n <= MAX_AMOUNT)
            .ok_or_else(|| {
                NotationError::new(format!(
                    "bad amount \"{item}\" (counts go up to {MAX_AMOUNT})"
                ))
            })?;
        Ok(Amount::new(count, code))
    }
}

/// Parses a comma-separated reward list (`4pw`, `q,5c`, `1o,1c`, `1t-a3`, `range+3`, `tech`).
///
/// # Errors
///
/// `bad amount "<item>"` for an empty item, a code not starting with an ASCII letter or
/// containing other characters than ASCII letters, digits, `-`, `+`, `_`, or a count above
/// [`MAX_AMOUNT`].
pub fn parse_amounts(s: &str) -> Result<Amounts, NotationError> {
    let mut amounts = Amounts::new();
    for item in split_ascii(s, b',') {
        amounts.push(parse_amount(item)?);
    }
    Ok(amounts)
}

/// Parses a line-leading actor token.
fn parse_actor(token: &str) -> Result<Actor, NotationError> {
    if let Some(num) = token.strip_prefix('p') {
        if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) {
            return match num.as_bytes() {
                [d @ b'1'..=b'9'] => Ok(Actor::Seat(d - b'0')),
                _ => Err(NotationError::new(format!("bad seat \"{token}\""))),
            };
        }
    }
    let ok = token
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'));
    if ok {
        Ok(Actor::Faction(token.into()))
    } else {
        Err(NotationError::new(format!("bad actor \"{token}\"")))
    }
}

/// How the recording platform's bot writes a missing argument (`pass undefined`).
pub const NO_VALUE: &str = "undefined";

/// A verb of a known command (any other is kept as [`Command::Other`]).
#[derive(Clone, Copy)]
enum Verb {
    EndTurn,
    Faction,
    Bid,
    Build,
    Booster,
    Pass,
    Up,
    Tech,
    Cover,
    Decline,
    Charge,
    Income,
    Action,
    Special,
    Federation,
    FedTile,
    Spend,
    Burn,
}

impl Verb {
    /// The known verb a word is, if any (matched byte by byte, without comparing texts).
    fn of(word: &str) -> Option<Verb> {
        Some(match word.as_bytes() {
            b"endturn" => Verb::EndTurn,
            b"faction" => Verb::Faction,
            b"bid" => Verb::Bid,
            b"build" => Verb::Build,
            b"booster" => Verb::Booster,
            b"pass" => Verb::Pass,
            b"up" => Verb::Up,
            b"tech" => Verb::Tech,
            b"cover" => Verb::Cover,
            b"decline" => Verb::Decline,
            b"charge" => Verb::Charge,
            b"income" => Verb::Income,
            b"action" => Verb::Action,
            b"special" => Verb::Special,
            b"federation" => Verb::Federation,
            b"fedtile" => Verb::FedTile,
            b"spend" => Verb::Spend,
            b"burn" => Verb::Burn,
            _ => return None,
        })
    }

    /// How many words the verb takes at most.
    fn arity(self) -> usize {
        match self {
            Verb::EndTurn => 0,
            Verb::Bid | Verb::Build | Verb::Federation => 2,
            Verb::Spend => 3,
            _ => 1,
        }
    }
}

/// Why `id` cannot be written as an id of the notation (a faction, building, tile, booster,
/// track, token or action id, or a command verb), or `None` when it can: an ASCII letter, then
/// ASCII letters, digits, `-` or `_`, at most 64 bytes; not `init` (a record's first line),
/// not a seat (`p3`), not [`NO_VALUE`]. Content ids are checked with it when content loads, so
/// every game's log can be replayed.
pub fn unwritable_id(id: &str) -> Option<String> {
    let shape = id.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'));
    let seat = id
        .strip_prefix('p')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    let why = if !shape {
        "an id is an ASCII letter followed by letters, digits, `-` or `_`"
    } else if id.len() > 64 {
        "an id is at most 64 bytes"
    } else if seat || id == "init" || id == NO_VALUE {
        "`init`, `undefined` and seats (`p1`, `p2`, …) mean something else in a move line"
    } else {
        return None;
    };
    Some(format!(
        "{id:?} cannot be written in the move notation: {why}"
    ))
}

/// The words of a part of a normalized line (single spaces its only whitespace).
fn words(text: &str) -> smallvec::SmallVec<[&str; 5]> {
    split_ascii(text, b' ').filter(|w| !w.is_empty()).collect()
}

/// Parses one trimmed part (without its index context) of a normalized line (single spaces
/// its only whitespace).
fn parse_part(text: &str) -> Result<Command, NotationError> {
    let words = words(text);
    let Some((&verb, args)) = words.split_first() else {
        return Ok(Command::EndTurn);
    };
    let arg = |i: usize, what: &str| -> Result<&str, NotationError> {
        args.get(i)
            .copied()
            .ok_or_else(|| NotationError::new(format!("missing {what} for {verb}")))
    };
    let owned = |i: usize, what: &str| arg(i, what).map(Word::from);
    let optional = |i: usize| args.get(i).map(|s| Word::from(*s));
    // A known verb takes at most this many words; anything after them is refused, not
    // ignored (a typo or a pasted sentence must not replay as something else).
    let known = Verb::of(verb);
    if let Some(most) = known.map(Verb::arity) {
        if args.len() > most {
            return Err(NotationError::new(format!(
                "unexpected \"{}\" after {verb} (it takes {})",
                args[most..].join(" "),
                match most {
                    0 => "nothing".to_string(),
                    1 => "one word".to_string(),
                    n => format!("{n} words"),
                }
            )));
        }
    }
    let Some(known) = known else {
        return Ok(Command::Other {
            verb: verb.into(),
            args: args.iter().map(|s| Word::from(*s)).collect(),
        });
    };
    Ok(match known {
        Verb::EndTurn => Command::EndTurn,
        Verb::Faction => Command::Faction(owned(0, "faction id")?),
        Verb::Bid => {
            let amount = arg(1, "amount")?;
            Command::Bid {
                faction: owned(0, "faction id")?,
                amount: amount
                    .parse()
                    .ok()
                    .filter(|n| *n <= MAX_AMOUNT)
                    .ok_or_else(|| NotationError::new(format!("bad bid \"{amount}\"")))?,
            }
        }
        Verb::Build => Command::Build {
            building: owned(0, "building")?,
            hex: parse_hex_ref(arg(1, "hex")?)?,
        },
        Verb::Booster => Command::Booster(owned(0, "booster id")?),
        // The platform's bot writes a missing booster as `pass undefined`: no booster.
        Verb::Pass => Command::Pass(optional(0).filter(|b| b != NO_VALUE)),
        Verb::Up => Command::Up(owned(0, "research field")?),
        Verb::Tech => Command::Tech(owned(0, "tech position")?),
        Verb::Cover => Command::Cover(owned(0, "tech position")?),
        Verb::Decline => Command::Decline(optional(0)),
        Verb::Charge => Command::Charge(parse_amounts(arg(0, "offer")?)?),
        Verb::Income => Command::Income(parse_amounts(arg(0, "income items")?)?),
        Verb::Action => Command::Action(owned(0, "action id")?),
        Verb::Special => Command::Special(parse_amounts(arg(0, "special action")?)?),
        Verb::Federation => Command::Federation {
            hexes: split_ascii(arg(0, "hex list")?, b',')
                .map(parse_hex_ref)
                .collect::<Result<_, _>>()?,
            token: owned(1, "federation token")?,
        },
        Verb::FedTile => Command::FedTile(owned(0, "federation token")?),
        Verb::Spend => {
            let cost = parse_amounts(arg(0, "cost")?)?;
            let word = arg(1, "\"for\"")?;
            if word != "for" {
                return Err(NotationError::new(format!(
                    "expected \"for\" after the cost, found \"{word}\""
                )));
            }
            let gain = parse_amounts(arg(2, "gain")?)?;
            Command::Spend { cost, gain }
        }
        Verb::Burn => {
            let n = arg(0, "amount")?;
            if !n.bytes().all(|b| b.is_ascii_digit()) {
                return Err(NotationError::new(format!("bad burn amount \"{n}\"")));
            }
            Command::Burn(n.parse().ok().filter(|n| *n <= MAX_AMOUNT).ok_or_else(|| {
                NotationError::new(format!(
                    "bad burn amount \"{n}\" (counts go up to {MAX_AMOUNT})"
                ))
            })?)
        }
    })
}

/// Parses one move line.
///
/// Whitespace runs are collapsed to single spaces, then [`strip_annotations`] removes the
/// display annotations. The first token is `init` (then `init <players> <seed>`) or the actor;
/// the rest is split on every `.`, each piece trimmed and parsed as one [`Command`] (an empty
/// piece is [`Command::EndTurn`]). Unknown verbs become [`Command::Other`]; words beyond what a
/// known verb takes are refused.
///
/// Never panics.
///
/// # Errors
///
/// A line longer than [`MAX_LINE_BYTES`] or with more than [`MAX_PARTS`] parts, an empty
/// line, a bad actor or `init` argument, a missing, malformed or extra argument of a known
/// verb (hex, reward list, number, `for`), or annotation-like text outside an annotation
/// position. Part errors name the offending part (1-based), e.g.
/// `bad burn amount "x" in part 3 "burn x"`.
pub fn parse_line(line: &str) -> Result<MoveLine, NotationError> {
    if line.len() > MAX_LINE_BYTES {
        return Err(NotationError::new(format!(
            "move line too long ({} bytes; at most {MAX_LINE_BYTES})",
            line.len()
        )));
    }
    let scan = Scan::of(line);
    if scan.dots >= MAX_PARTS {
        return Err(NotationError::new(format!(
            "too many parts in one move line (at most {MAX_PARTS})"
        )));
    }
    let (normalized, marks) = if scan.normalized {
        (Cow::Borrowed(line), scan.marks)
    } else {
        let joined = line.split_whitespace().collect::<Vec<_>>().join(" ");
        let marks = Marks::of(&joined);
        (Cow::Owned(joined), marks)
    };
    let (stripped, marks) = strip(&normalized, marks);
    // Single spaces are the normalized line's only whitespace, so trimming ASCII is trimming.
    let stripped = stripped.trim_ascii();
    if stripped.is_empty() {
        return Err(NotationError::new("empty move line"));
    }
    let (head, rest) = match stripped.bytes().position(|b| b == b' ') {
        Some(at) => (
            stripped.get(..at).unwrap_or_default(),
            stripped.get(at + 1..).unwrap_or_default(),
        ),
        None => (stripped, ""),
    };
    let parsed = if head == "init" {
        let mut words = rest.split_whitespace();
        let players = words
            .next()
            .ok_or_else(|| NotationError::new("missing player count in init line"))?;
        let players = players
            .parse::<u8>()
            .map_err(|_| NotationError::new(format!("bad player count \"{players}\"")))?;
        let seed = words
            .next()
            .ok_or_else(|| NotationError::new("missing seed in init line"))?;
        let extra: Vec<&str> = words.collect();
        if !extra.is_empty() {
            return Err(NotationError::new(format!(
                "unexpected \"{}\" after the init line's seed",
                extra.join(" ")
            )));
        }
        MoveLine::Init {
            players,
            seed: seed.to_string(),
        }
    } else {
        let actor = parse_actor(head)?;
        if rest.trim_ascii().is_empty() {
            return Err(NotationError::new(format!(
                "no command after actor \"{head}\""
            )));
        }
        // Annotations hold no dot: the line has a part per dot, and one more.
        let mut parts = Vec::with_capacity(scan.dots + 1);
        for (i, piece) in split_ascii(rest, b'.').enumerate() {
            let piece = piece.trim_ascii();
            parts.push(parse_part(piece).map_err(|e| e.in_part(i + 1, piece))?);
        }
        MoveLine::Turn { actor, parts }
    };
    // Text that only looks like an annotation once printed canonically (e.g. a part starting
    // with `(1 ⇒ 2)` right after a dot) would not survive a round trip: reject it. Only a line
    // that could print an annotation's start is printed to find out.
    if marks.loose() {
        let printed = parsed.to_string();
        if strip_annotations(&printed) != printed {
            return Err(NotationError::new(format!(
                "annotation-like text outside an annotation position in \"{stripped}\""
            )));
        }
    }
    Ok(parsed)
}

/// What one pass over a move line finds.
struct Scan {
    /// How many `.` it holds.
    dots: usize,
    /// Whether its only whitespace is single spaces between other characters (what
    /// `split_whitespace` joined by spaces gives).
    normalized: bool,
    /// What it holds of the annotations' starts.
    marks: Marks,
}

/// What [`Scan`] looks at in a byte: most bytes are [`PLAIN`].
const PLAIN: u8 = 0;
const SPACE: u8 = 1;
/// The ASCII characters `char::is_whitespace` counts besides the space.
const OTHER_SPACE: u8 = 2;
const DOT: u8 = 3;
const OPEN: u8 = 4;
const LETTER_R: u8 = 5;
const LETTER_U: u8 = 6;
/// The first byte of a character beyond ASCII (which may be whitespace).
const LEAD: u8 = 7;

/// Each byte's class, for [`Scan`].
const CLASSES: [u8; 256] = {
    let mut classes = [PLAIN; 256];
    classes[b' ' as usize] = SPACE;
    let mut b = 0x09;
    while b <= 0x0d {
        classes[b] = OTHER_SPACE;
        b += 1;
    }
    classes[b'.' as usize] = DOT;
    classes[b'(' as usize] = OPEN;
    classes[b'r' as usize] = LETTER_R;
    classes[b'u' as usize] = LETTER_U;
    let mut b = 0xc0;
    while b < 0x100 {
        classes[b] = LEAD;
        b += 1;
    }
    classes
};

impl Scan {
    fn of(line: &str) -> Scan {
        let bytes = line.as_bytes();
        let mut scan = Scan {
            dots: 0,
            normalized: bytes.first() != Some(&b' ') && bytes.last() != Some(&b' '),
            marks: Marks::default(),
        };
        let marks = &mut scan.marks;
        for (i, &b) in bytes.iter().enumerate() {
            let class = CLASSES[usize::from(b)];
            if class == PLAIN {
                continue;
            }
            let after = bytes.get(i..).unwrap_or_default();
            match class {
                SPACE => {
                    scan.normalized &= i == 0 || bytes.get(i - 1) != Some(&b' ');
                    match after.get(1) {
                        Some(b'(') => marks.paren = true,
                        Some(b'r') => marks.returning |= after.starts_with(b" returning "),
                        Some(b'u') => marks.using |= after.starts_with(b" using "),
                        _ => {}
                    }
                }
                OTHER_SPACE => scan.normalized = false,
                DOT => scan.dots += 1,
                OPEN => marks.opens += 1,
                LETTER_R => marks.words |= after.starts_with(b"returning"),
                LETTER_U => marks.words |= after.starts_with(b"using"),
                _ => {
                    let c = line.get(i..).and_then(|t| t.chars().next());
                    scan.normalized &= !c.is_some_and(char::is_whitespace);
                }
            }
        }
        scan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_parts_with_heap_words_lists_or_shared_hexes_own_heap_memory() {
        let long = "a-code-far-longer-than-any-inline-word";
        let plain = [
            parse_part("spend 3pw for 1o").unwrap(),
            parse_part("build dome 4B2").unwrap(),
            parse_part("pass").unwrap(),
            parse_part("burn 2").unwrap(),
            Command::EndTurn,
        ];
        for part in &plain {
            assert!(!part.owns_heap(), "{part}");
        }
        let owning = [
            parse_part(&format!("spend 1{long} for 1o")).unwrap(),
            parse_part(&format!("spend 1o for 1{long}")).unwrap(),
            // Two amounts: the list is on the heap.
            parse_part("spend 1q for 2o,1c").unwrap(),
            parse_part(&format!("action {long}")).unwrap(),
            parse_part(&format!("decline {long}")).unwrap(),
            parse_part(&format!("charge 1{long}")).unwrap(),
            Command::Build {
                building: "dome".into(),
                hex: HexRef::Named {
                    sector: "4".into(),
                    position: long.into(),
                },
            },
            parse_part("federation 1x0,2x0 token-a").unwrap(),
            parse_part("custom-verb arg").unwrap(),
        ];
        for part in &owning {
            assert!(part.owns_heap(), "{part}");
        }
        let mut parts: Vec<Command> = plain.iter().chain(&owning).cloned().collect();
        clear_parts(&mut parts);
        assert!(parts.is_empty());
        let room = parts.capacity();
        assert!(room >= plain.len() + owning.len(), "its room is kept");
    }

    #[test]
    fn amounts_coordinates_and_lines_beyond_the_limits_are_refused() {
        assert!(parse_line("p1 burn 1000000").is_ok());
        for line in [
            "p1 burn 1000001",
            "p1 burn 2147483648",
            "p1 spend 1000001pw for 1c",
            "p1 charge 4294967296pw",
            "p1 build m 1048577x0",
            "p1 build m 0x-1048577",
        ] {
            assert!(parse_line(line).is_err(), "{line}");
        }
        let dots = format!("p1 {}", ".".repeat(MAX_PARTS));
        let e = parse_line(&dots).unwrap_err();
        assert!(e.message.contains("too many parts"), "{e}");
        let long = format!("p1 burn 1 {}", " ".repeat(MAX_LINE_BYTES));
        let e = parse_line(&long).unwrap_err();
        assert!(e.message.contains("too long"), "{e}");
    }

    fn turn(line: &str) -> (Actor, Vec<Command>) {
        match parse_line(line) {
            Ok(MoveLine::Turn { actor, parts }) => (actor, parts),
            other => panic!("expected a turn for {line:?}, got {other:?}"),
        }
    }

    fn one(line: &str) -> Command {
        let (_, parts) = turn(line);
        assert_eq!(parts.len(), 1, "{line:?} -> {parts:?}");
        parts.into_iter().next().unwrap()
    }

    fn named(sector: &str, position: &str) -> HexRef {
        HexRef::Named {
            sector: sector.into(),
            position: position.into(),
        }
    }

    fn roundtrip(line: &str) -> String {
        let first = parse_line(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        let printed = first.to_string();
        assert_eq!(parse_line(&printed), Ok(first), "round trip of {line:?}");
        printed
    }

    #[test]
    fn init_line() {
        assert_eq!(
            parse_line("init 3 some-seed"),
            Ok(MoveLine::Init {
                players: 3,
                seed: "some-seed".into()
            })
        );
        assert_eq!(roundtrip("init  4   Alpha-9"), "init 4 Alpha-9");
        assert!(parse_line("init").is_err());
        assert!(parse_line("init 3").is_err());
        assert!(parse_line("init x seed").is_err());
        assert!(parse_line("init 300 seed").is_err());
    }

    #[test]
    fn actors() {
        assert_eq!(turn("p2 faction zorgs").0, Actor::Seat(2));
        assert_eq!(
            turn("zorg-folk endturn").0,
            Actor::Faction("zorg-folk".into())
        );
        assert!(parse_line("p0 faction zorgs").is_err());
        assert!(parse_line("p10 faction zorgs").is_err());
        assert!(parse_line("(zorgs) endturn").is_err());
        assert!(parse_line("zorgs").is_err());
        assert!(parse_line("").is_err());
        assert!(parse_line("   ").is_err());
    }

    #[test]
    fn faction_and_booster() {
        assert_eq!(one("p1 faction zorgs"), Command::Faction("zorgs".into()));
        assert_eq!(
            one("zorgs booster widget3"),
            Command::Booster("widget3".into())
        );
        assert!(parse_line("p1 faction").is_err());
    }

    #[test]
    fn build() {
        assert_eq!(
            one("zorgs build m 4B2"),
            Command::Build {
                building: "m".into(),
                hex: named("4", "B2")
            }
        );
        assert_eq!(
            one("zorgs build PI 10A11"),
            Command::Build {
                building: "PI".into(),
                hex: named("10", "A11")
            }
        );
        assert_eq!(
            one("zorgs build sp 3C"),
            Command::Build {
                building: "sp".into(),
                hex: named("3", "C")
            }
        );
        assert_eq!(
            one("zorgs build ts 1x-1"),
            Command::Build {
                building: "ts".into(),
                hex: HexRef::Axial { q: 1, r: -1 }
            }
        );
        let err = parse_line("zorgs build m 4D2").unwrap_err();
        assert_eq!(err.message, "bad hex \"4D2\" in part 1 \"build m 4D2\"");
        assert!(parse_line("zorgs build m").is_err());
    }

    #[test]
    fn hex_refs() {
        assert_eq!(parse_hex_ref("10A0"), Ok(named("10", "A0")));
        assert_eq!(parse_hex_ref("9C"), Ok(named("9", "C")));
        assert_eq!(parse_hex_ref("-3x-12"), Ok(HexRef::Axial { q: -3, r: -12 }));
        assert_eq!(parse_hex_ref("0x0").unwrap().to_string(), "0x0");
        assert_eq!(parse_hex_ref("-3x-12").unwrap().to_string(), "-3x-12");
        for bad in [
            "",
            "A1",
            "123A1",
            "1A123",
            "1D1",
            "1a1",
            "x",
            "1x",
            "x1",
            "--1x1",
            "+1x1",
            "1x1x1",
            "99999999999x1",
            "1A1 ",
            "1 A1",
            "1A-1",
            "1x-",
        ] {
            assert!(parse_hex_ref(bad).is_err(), "{bad:?} should be rejected");
        }
    }

    #[test]
    fn amounts() {
        assert_eq!(
            parse_amounts("4pw"),
            Ok(smallvec::smallvec![Amount::new(4, "pw")])
        );
        assert_eq!(
            parse_amounts("q"),
            Ok(smallvec::smallvec![Amount::single("q")])
        );
        assert_eq!(
            parse_amounts("q,5c"),
            Ok(smallvec::smallvec![
                Amount::single("q"),
                Amount::new(5, "c")
            ])
        );
        assert_eq!(
            parse_amounts("1t-a3"),
            Ok(smallvec::smallvec![Amount::new(1, "t-a3")])
        );
        assert_eq!(
            parse_amounts("t-a3"),
            Ok(smallvec::smallvec![Amount::single("t-a3")])
        );
        assert_eq!(
            parse_amounts("range+3"),
            Ok(smallvec::smallvec![Amount::single("range+3")])
        );
        assert_eq!(
            parse_amounts("0pw"),
            Ok(smallvec::smallvec![Amount::new(0, "pw")])
        );
        let single = Amount::single("q");
        assert_eq!((single.count, single.code.as_str()), (1, "q"));
        assert_eq!(Amount::new(1, "q").to_string(), "1q");
        assert_eq!(Amount::single("q").to_string(), "q");
        for bad in [
            "",
            "4",
            ",",
            "4pw,",
            "pw,,c",
            "+3",
            "4 pw",
            "99999999999c",
            "é",
        ] {
            assert!(parse_amounts(bad).is_err(), "{bad:?} should be rejected");
        }
    }

    #[test]
    fn pass_up_tech_cover_action_fedtile() {
        assert_eq!(
            one("zorgs pass widget7"),
            Command::Pass(Some("widget7".into()))
        );
        assert_eq!(one("zorgs pass"), Command::Pass(None));
        assert_eq!(one("zorgs pass undefined"), Command::Pass(None));
        assert_eq!(one("zorgs up nav"), Command::Up("nav".into()));
        assert_eq!(one("zorgs tech adv-eco"), Command::Tech("adv-eco".into()));
        assert_eq!(one("zorgs cover free2"), Command::Cover("free2".into()));
        assert_eq!(one("zorgs action gizmo4"), Command::Action("gizmo4".into()));
        assert_eq!(
            one("zorgs fedtile token9"),
            Command::FedTile("token9".into())
        );
        for bad in [
            "zorgs up",
            "zorgs tech",
            "zorgs cover",
            "zorgs action",
            "zorgs fedtile",
        ] {
            assert!(parse_line(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn decline_charge_income() {
        assert_eq!(
            one("zorgs decline 2pw"),
            Command::Decline(Some("2pw".into()))
        );
        assert_eq!(one("zorgs decline up"), Command::Decline(Some("up".into())));
        assert_eq!(one("zorgs decline"), Command::Decline(None));
        assert_eq!(
            one("zorgs charge 1t,3pw"),
            Command::Charge(smallvec::smallvec![
                Amount::new(1, "t"),
                Amount::new(3, "pw")
            ])
        );
        assert_eq!(
            one("zorgs income t,2t,pw,4pw"),
            Command::Income(smallvec::smallvec![
                Amount::single("t"),
                Amount::new(2, "t"),
                Amount::single("pw"),
                Amount::new(4, "pw")
            ])
        );
        assert_eq!(
            roundtrip("zorgs income t,2t,pw,4pw"),
            "zorgs income t,2t,pw,4pw"
        );
        assert!(parse_line("zorgs charge").is_err());
        assert!(parse_line("zorgs income x,,y").is_err());
    }

    #[test]
    fn special() {
        assert_eq!(
            one("zorgs special q,5c"),
            Command::Special(smallvec::smallvec![
                Amount::single("q"),
                Amount::new(5, "c")
            ])
        );
        assert_eq!(
            one("zorgs special warp-drive"),
            Command::Special(smallvec::smallvec![Amount::single("warp-drive")])
        );
        assert_eq!(
            roundtrip("zorgs special range+3."),
            "zorgs special range+3. endturn"
        );
        assert!(parse_line("zorgs special").is_err());
    }

    #[test]
    fn federation() {
        assert_eq!(
            one("zorgs federation 2A3,8A10,1C token4"),
            Command::Federation {
                hexes: vec![named("2", "A3"), named("8", "A10"), named("1", "C")].into(),
                token: "token4".into()
            }
        );
        assert!(parse_line("zorgs federation 2A3,,1C token4").is_err());
        assert!(parse_line("zorgs federation 2A3").is_err());
    }

    #[test]
    fn spend_and_burn() {
        assert_eq!(
            one("zorgs spend 4pw for 1o,1c"),
            Command::Spend {
                cost: smallvec::smallvec![Amount::new(4, "pw")],
                gain: smallvec::smallvec![Amount::new(1, "o"), Amount::new(1, "c")]
            }
        );
        assert_eq!(
            one("zorgs spend 4tg for tech"),
            Command::Spend {
                cost: smallvec::smallvec![Amount::new(4, "tg")],
                gain: smallvec::smallvec![Amount::single("tech")]
            }
        );
        assert_eq!(one("zorgs burn 3"), Command::Burn(3));
        let err = parse_line("zorgs spend 1o for 1c. up nav. burn x").unwrap_err();
        assert_eq!(
            err.to_string(),
            "bad burn amount \"x\" in part 3 \"burn x\""
        );
        assert!(parse_line("zorgs burn -1").is_err());
        assert!(parse_line("zorgs burn 99999999999").is_err());
        assert!(parse_line("zorgs burn").is_err());
        let err = parse_line("zorgs spend 1o to 1c").unwrap_err();
        assert!(err.message.contains("\"for\""), "{err}");
        assert!(parse_line("zorgs spend 1o for").is_err());
    }

    #[test]
    fn other_verbs_stay_generic() {
        assert_eq!(
            one("zorgs warpGate 7A4"),
            Command::Other {
                verb: "warpGate".into(),
                args: vec!["7A4".into()]
            }
        );
        assert_eq!(
            one("p1 bid zorgs 3"),
            Command::Bid {
                faction: "zorgs".into(),
                amount: 3
            }
        );
        assert_eq!(
            one("zorgs swap-XY"),
            Command::Other {
                verb: "swap-XY".into(),
                args: vec![]
            }
        );
    }

    #[test]
    fn end_turn_forms() {
        let (_, explicit) = turn("zorgs build m 4B2. endturn");
        let (_, implicit) = turn("zorgs build m 4B2.");
        assert_eq!(explicit, implicit);
        assert_eq!(explicit.last(), Some(&Command::EndTurn));
        assert_eq!(
            roundtrip("zorgs build m 4B2."),
            "zorgs build m 4B2. endturn"
        );
        assert_eq!(
            roundtrip("zorgs burn 1. . up nav"),
            "zorgs burn 1. endturn. up nav"
        );
        assert_eq!(roundtrip("zorgs ."), "zorgs endturn. endturn");
    }

    #[test]
    fn whitespace_and_extra_args() {
        assert_eq!(
            roundtrip("zorgs  spend 1pw for 1c.  spend 1o  for 1c. "),
            "zorgs spend 1pw for 1c. spend 1o for 1c. endturn"
        );
        assert_eq!(roundtrip("\tzorgs\tburn 2\n"), "zorgs burn 2");
    }

    #[test]
    fn words_after_a_known_part_are_refused() {
        for (line, extra) in [
            ("zorgs build m 4B2 junk more", "junk more"),
            ("zorgs booster perk4 lots of junk", "lots of junk"),
            ("zorgs pass perk3 please", "please"),
            (
                "zorgs burn 1. endturn please and thank you",
                "please and thank you",
            ),
            ("zorgs spend 1pw for 1c now", "now"),
            ("zorgs decline 2pw twice", "twice"),
            ("init 2 seed extra", "extra"),
        ] {
            let e = parse_line(line).expect_err(line).message;
            assert!(
                e.contains(&format!("unexpected \"{extra}\"")),
                "{line}: {e}"
            );
        }
        // What a verb may take is still read, and unknown verbs keep their arguments.
        assert_eq!(one("zorgs pass perk3"), Command::Pass(Some("perk3".into())));
        assert_eq!(one("zorgs decline"), Command::Decline(None));
        assert!(parse_line("zorgs swap 1 2 3").is_ok());
    }

    #[test]
    fn strip_each_annotation() {
        assert_eq!(
            strip_annotations("zorgs charge 1pw (6/4/0/0 ⇒ 5/5/0/0)"),
            "zorgs charge 1pw"
        );
        assert_eq!(
            strip_annotations("zorgs charge 2pw,1t (0/1,B/3/0 ⇒ 1/0/4,B/0)"),
            "zorgs charge 2pw,1t"
        );
        assert_eq!(
            strip_annotations("zorgs pass widget1 returning widget8 (0/0/3/0 ⇒ 0/3/0/0)"),
            "zorgs pass widget1"
        );
        assert_eq!(
            strip_annotations("zorgs pass returning widget10"),
            "zorgs pass"
        );
        assert_eq!(
            strip_annotations("zorgs build gf 6A7 using area1: 4, area2: 2. (4/6/0/0 ⇒ 0/4/0/6)"),
            "zorgs build gf 6A7."
        );
        assert_eq!(
            strip_annotations("zorgs federation 1A0,3A5 token5 using pool: 3, cube: 1. burn 1."),
            "zorgs federation 1A0,3A5 token5. burn 1."
        );
        assert_eq!(
            strip_annotations("zorgs up nav (0 ⇒ 1). up nav (0 ⇒ 1)."),
            "zorgs up nav. up nav."
        );
        assert_eq!(
            strip_annotations(
                "zorgs special jump (from 5A7). jump 5A6 (from 5A7). endturn (0/0/2/0 ⇒ 1/0/1/0)"
            ),
            "zorgs special jump. jump 5A6. endturn"
        );
        // The bowl annotation is only removed at the very end of the line.
        let mid = "zorgs burn 1 (1/1/1/1 ⇒ 2/2/2/2) x";
        assert_eq!(strip_annotations(mid), mid);
        // Near misses stay.
        for keep in [
            "zorgs up nav (0 => 1)",
            "zorgs up nav (x ⇒ 1)",
            "zorgs pass returning widget",
            "zorgs pass returning 8",
            "zorgs pass returning wid-get8",
            "zorgs x (from 1x-1)",
            "zorgs x (1/1/1 ⇒ 2/2/2)",
            "zorgs x using : 3",
            "zorgs x(0 ⇒ 1)",
        ] {
            assert_eq!(strip_annotations(keep), keep);
        }
        // Removal is repeated until nothing changes.
        assert_eq!(strip_annotations("a (fr (from 1A)om 2A)"), "a");
    }

    #[test]
    fn parse_strips_annotations() {
        let (_, parts) = turn(
            "zorgs special jump (from 5A7). jump 5A6 (from 5A7). spend 1pw for 1c. endturn (0/0/2/0 ⇒ 1/0/1/0)",
        );
        assert_eq!(
            parts,
            vec![
                Command::Special(smallvec::smallvec![Amount::single("jump")]),
                Command::Other {
                    verb: "jump".into(),
                    args: vec!["5A6".into()]
                },
                Command::Spend {
                    cost: smallvec::smallvec![Amount::new(1, "pw")],
                    gain: smallvec::smallvec![Amount::new(1, "c")]
                },
                Command::EndTurn,
            ]
        );
        assert_eq!(
            one("zorgs pass widget1 returning widget8 (0/0/3/0 ⇒ 0/3/0/0)"),
            Command::Pass(Some("widget1".into()))
        );
        assert_eq!(
            roundtrip("zorgs build lab 10A11. tech free1. up nav (0 ⇒ 1). (6/0/2/0 ⇒ 9/0/2/0)"),
            "zorgs build lab 10A11. tech free1. up nav. endturn"
        );
        assert_eq!(
            roundtrip("p4 faction zorgs (0/0/0/0 ⇒ 2/4/0/0)"),
            "p4 faction zorgs"
        );
        // Annotation-like text at a part start would not survive printing: rejected.
        assert!(parse_line("zorgs burn 1.(1 ⇒ 2)").is_err());
        assert!(parse_line("zorgs burn 1.returning widget2").is_err());
    }

    #[test]
    fn serde_round_trip() {
        let line = parse_line("zorgs spend q for 1o. federation 1A1,0x-2 token1. pass").unwrap();
        let json = serde_json::to_string(&line).unwrap();
        let back: MoveLine = serde_json::from_str(&json).unwrap();
        assert_eq!(back, line);
        let amount: Amount = serde_json::from_str(r#"{"count":2,"code":"pw"}"#).unwrap();
        assert_eq!(amount.to_string(), "2pw");
    }

    /// Deterministic xorshift generator for the fuzz test (no external crates).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            usize::try_from(self.next() % n as u64).unwrap_or(0)
        }

        /// A line of fewer than `longest` pieces drawn from `pieces`.
        fn line(&mut self, pieces: &[&str], longest: usize) -> String {
            let len = self.below(longest);
            (0..len).map(|_| pieces[self.below(pieces.len())]).collect()
        }
    }

    #[test]
    fn never_panics_and_round_trips() {
        let pieces = [
            " ",
            ".",
            ",",
            "(",
            ")",
            "/",
            "⇒",
            " ⇒ ",
            ",B",
            "0",
            "1",
            "7",
            "42",
            "A",
            "B",
            "C",
            "x",
            "-",
            "+",
            ":",
            "p",
            "p1",
            "zorgs",
            "init",
            "build",
            "m",
            "spend",
            "for",
            "burn",
            "charge",
            "income",
            "special",
            "federation",
            "pass",
            "decline",
            "endturn",
            "pw",
            "t",
            " returning widget",
            " using ",
            "area1: ",
            " (from ",
            "\t",
            "\n",
            "é",
            "日本",
            "🚀",
            "\u{0}",
            "\u{a0}",
            "\u{200b}",
        ];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..20_000 {
            let line = rng.line(&pieces, 24);
            round_trips_or_explains(&line);
            let stripped = strip_annotations(&line);
            assert!(stripped.len() <= line.len(), "{line:?} grew");
            assert_eq!(strip_annotations(&stripped), stripped, "{line:?}");
            if let Err(e) = parse_hex_ref(&line) {
                assert!(e.message.starts_with("bad hex"), "{line:?}: {}", e.message);
            }
            if let Err(e) = parse_amounts(&line) {
                assert!(!e.message.is_empty(), "{line:?}");
            }
        }
        for garbage in [
            "",
            " ",
            ".",
            "..",
            "⇒",
            "p",
            "p1",
            "p1 .",
            "\u{0}",
            "🚀 🚀. 🚀",
        ] {
            round_trips_or_explains(garbage);
        }
        let long = "zorgs spend 1o for 1c. ".repeat(MAX_PARTS - 1);
        assert!(parse_line(&long).is_ok());
        let too_long = "zorgs spend 1o for 1c. ".repeat(20_000);
        assert!(parse_line(&too_long).is_err());
        let long_garbage = "( ⇒ (1 ⇒ ".repeat(1_000);
        round_trips_or_explains(&long_garbage);
        let deep = " (1/".repeat(50_000);
        assert!(strip_annotations(&deep).len() <= deep.len());
    }

    /// The annotation removal spelled plainly: each pass tries every matcher at every space,
    /// copying the line, until a pass removes nothing.
    fn plain_strip(line: &str) -> String {
        fn remove_suffix(s: &str) -> Option<String> {
            let bytes = s.as_bytes();
            (0..bytes.len())
                .find(|&i| bytes[i] == b' ' && match_bowls(bytes, i) == Some(bytes.len()))
                .map(|i| s[..i].to_string())
        }
        let mut current = line.to_string();
        loop {
            let mut next = remove_suffix(&current).unwrap_or_else(|| current.clone());
            for matcher in [match_returning, match_using, match_level, match_from] {
                if let Some(s) = remove_all(&next, matcher) {
                    next = s;
                }
            }
            if next == current {
                return current;
            }
            current = next;
        }
    }

    #[test]
    fn stripping_and_normalizing_match_their_plain_forms() {
        let pieces = [
            " ",
            "  ",
            ".",
            "(",
            ")",
            "/",
            " ⇒ ",
            ",B",
            "0",
            "12",
            "A",
            "x",
            ":",
            ", ",
            " (",
            " (1 ⇒ 2)",
            " (1/2/3/4 ⇒ 4/3/2,B/1)",
            " (0/0/0/0 ⇒ ",
            " (from 3A)",
            " returning ",
            "widget8",
            " using ",
            "area1: 4",
            "using",
            "returning",
            "zorgs",
            "\t",
            "\n",
            "\u{b}",
            "\u{c}",
            "\r",
            "\u{1c}",
            "\u{85}",
            "\u{a0}",
            "\u{2003}",
            "\u{3000}",
            "é",
            "⇒",
        ];
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..40_000 {
            let line = rng.line(&pieces, 16);
            assert_eq!(strip_annotations(&line), plain_strip(&line), "{line:?}");
            let joined = line.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(Scan::of(&line).normalized, joined == line, "{line:?}");
            for sep in [b' ', b'.', b','] {
                let by_str: Vec<&str> = line.split(char::from(sep)).collect();
                let by_byte: Vec<&str> = split_ascii(&line, sep).collect();
                assert_eq!(by_byte, by_str, "{line:?}");
            }
            let split: Vec<&str> = joined.split(' ').filter(|w| !w.is_empty()).collect();
            assert_eq!(words(&joined).as_slice(), split.as_slice(), "{line:?}");
            let scan = Scan::of(&line);
            assert_eq!(scan.dots, line.matches('.').count(), "{line:?}");
            let marks = scan.marks;
            assert_eq!(marks.opens, line.matches('(').count(), "{line:?}");
            assert_eq!(
                marks.words,
                line.contains("returning") || line.contains("using"),
                "{line:?}"
            );
            assert_eq!(
                (marks.paren, marks.returning, marks.using),
                (
                    line.contains(" ("),
                    line.contains(" returning "),
                    line.contains(" using ")
                ),
                "{line:?}"
            );
            if marks.loose() {
                continue;
            }
            // A line that cannot print an annotation's start prints none.
            if let Ok(parsed) = parse_line(&line) {
                let printed = parsed.to_string();
                assert_eq!(plain_strip(&printed), printed, "{line:?}");
            }
        }
    }

    /// A line either parses into a move that prints back to itself, or is refused with a
    /// message.
    fn round_trips_or_explains(line: &str) {
        match parse_line(line) {
            Ok(parsed) => {
                let printed = parsed.to_string();
                assert_eq!(parse_line(&printed), Ok(parsed), "{line:?} -> {printed:?}");
            }
            Err(e) => assert!(!e.message.is_empty(), "{line:?}"),
        }
    }
}
