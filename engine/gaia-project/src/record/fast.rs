//! A fast path for reading a record: the bulk of its bytes — the snapshots, the move lines and
//! the setup's list of hexes — decoded by hand straight into their types, the other fields by
//! serde as before. It takes only what it is sure of (strings without escapes, integers, every
//! object's keys once) and gives up on anything else, so that the exact reader words every
//! refusal: whatever it reads, the exact reader reads the same.
//!
//! The fields read by hand are cut out of the text and left in their place as an empty value
//! (`[]`, `null`), so the duplicate-key scan and serde still see every key of the record and of
//! its setup, in place, and decode the rest exactly as they would decode the whole text.

use std::sync::Arc;

use smallvec::SmallVec;

use super::{Record, Research, SeatSnapshot, Snapshot};
use crate::map::ListedHex;
use crate::notation::Word;

/// The record in `text`, or `None` when the exact reader must decide.
pub(super) fn read(text: &str) -> Option<Record> {
    let cut = Split {
        text,
        b: text.as_bytes(),
        i: 0,
        seats: 4,
        order: Order::default(),
    }
    .run()?;
    // The other fields, checked and decoded exactly as the whole text would be.
    orrery_core::unique_keys::check(&cut.rest).ok()?;
    let mut record: Record = serde_json::from_str(&cut.rest).ok()?;
    if let Some(s) = cut.snapshots {
        record.snapshots = s;
    }
    if let Some(m) = cut.moves {
        record.moves = m;
    }
    if let Some(h) = cut.hexes {
        record.setup.as_mut()?.hexes = Some(h);
    }
    record.check().ok()?;
    Some(record)
}

/// What the hand decoder took, and the rest of the record as a JSON object.
struct Cut {
    /// The record's text with the fields below replaced by empty values.
    rest: String,
    snapshots: Option<Vec<Snapshot>>,
    moves: Option<Vec<String>>,
    hexes: Option<Vec<ListedHex>>,
}

/// A key's first eight bytes as a big-endian integer, zero-padded (a plain string holds no
/// zero byte, so keys of at most eight bytes compare as their integers do, and equal integers
/// are equal keys); [`LONG`] for a longer key.
const fn word(key: &[u8]) -> u64 {
    if key.len() > 8 {
        return LONG;
    }
    let mut w = 0u64;
    let mut i = 0;
    while i < key.len() {
        w = (w << 8) | key[i] as u64;
        i += 1;
    }
    if key.is_empty() {
        0
    } else {
        w << (8 * (8 - key.len()))
    }
}

/// The word of every key longer than eight bytes (eight `0xff` bytes are not UTF-8, so no key
/// of eight bytes has it).
const LONG: u64 = u64::MAX;

/// Eight copies of a byte.
const fn bytes8(b: u8) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// The high bit of every zero byte of `x`, nothing else (no carry crosses bytes).
#[inline]
const fn zero_bytes(x: u64) -> u64 {
    let low = bytes8(0x7f);
    !(((x & low) + low) | x | low)
}

/// The high bit of every byte of a chunk where a plain string stops: its closing quote, or an
/// escape or control character (the exact reader's).
#[inline]
const fn stops(chunk: u64) -> u64 {
    zero_bytes(chunk ^ bytes8(b'"'))
        | zero_bytes(chunk ^ bytes8(b'\\'))
        | zero_bytes(chunk & bytes8(0xe0))
}

/// Whether a plain string stops at the byte (see [`stops`]).
#[inline]
const fn stop_byte(c: u8) -> bool {
    c == b'"' || c == b'\\' || c < 0x20
}

const fn field(name: &str) -> u64 {
    let w = word(name.as_bytes());
    assert!(w != LONG, "a field name of at most eight bytes");
    w
}

const I: u64 = field("i");
const PLAYERS: u64 = field("players");
const VP: u64 = field("vp");
const C: u64 = field("c");
const O: u64 = field("o");
const K: u64 = field("k");
const Q: u64 = field("q");
const R: u64 = field("r");
const PW: u64 = field("pw");
const RESEARCH: u64 = field("research");
const SECTOR: u64 = field("sector");
const PLANET: u64 = field("planet");
const SNAPSHOTS: &str = "snapshots";
const MOVES: &str = "moves";
const SETUP: &str = "setup";
const HEXES: &str = "hexes";
/// `brainstone` is ten bytes long: matched by its text.
const BRAINSTONE: &str = "brainstone";

/// A key read: its text and its [`word`].
#[derive(Clone, Copy)]
struct Key<'a> {
    text: &'a str,
    w: u64,
}

/// Sets a field read once; `None` when the object names it twice.
#[inline]
fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    if slot.is_some() {
        return None;
    }
    *slot = Some(value);
    Some(())
}

/// The keys of an object's members the types do not read.
type Others<'a> = SmallVec<[&'a str; 2]>;

/// The one character of a text (a planet letter).
#[inline]
fn one_char(text: &str) -> Option<char> {
    let mut chars = text.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

/// Most research tracks a snapshot's seat is read with here.
const TRACKS: usize = 8;

struct Split<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    /// The seats of the last snapshot read (room made for as many in the next).
    seats: usize,
    /// The research tracks of the last seat read, as written.
    order: Order,
}

/// Research tracks as a seat's levels were written: each track's word and length in the
/// order written, and where each comes in track-name order. The next seat's levels are read
/// against it first (records write every seat's tracks alike), and share its tracks.
#[derive(Default)]
struct Order {
    written: SmallVec<[(u64, usize); TRACKS]>,
    /// Indices into `written`, in track-name order.
    sorted: SmallVec<[usize; TRACKS]>,
    /// The tracks in track-name order.
    tracks: Option<Arc<[Word]>>,
}

impl<'a> Split<'a> {
    /// The fields read by hand and the record's other members as a JSON object.
    fn run(mut self) -> Option<Cut> {
        let mut cut = Cut {
            rest: String::with_capacity(self.b.len() / 4),
            snapshots: None,
            moves: None,
            hexes: None,
        };
        self.space();
        self.object(&mut cut.rest, |s, key, rest| {
            match key.text {
                SNAPSHOTS => {
                    cut.snapshots = Some(s.snapshots()?);
                    rest.push_str("[]");
                }
                // Move lines or hexes the hand decoder is unsure of (an escape) stay in the
                // rest, as written, for serde.
                MOVES => {
                    let at = s.i;
                    match s.strings() {
                        Some(moves) => {
                            cut.moves = Some(moves);
                            rest.push_str("[]");
                        }
                        None => {
                            s.i = at;
                            s.raw(rest)?;
                        }
                    }
                }
                SETUP if s.peek()? == b'{' => {
                    let mut hexes = None;
                    s.object(rest, |s, key, rest| {
                        let at = s.i;
                        match (key.text == HEXES).then(|| s.hexes()).flatten() {
                            Some(listed) => {
                                hexes = Some(listed);
                                rest.push_str("null");
                                Some(())
                            }
                            None => {
                                s.i = at;
                                s.raw(rest)
                            }
                        }
                    })?;
                    if hexes.is_some() {
                        cut.hexes = hexes;
                    }
                }
                _ => s.raw(rest)?,
            }
            Some(())
        })?;
        self.space();
        (self.i == self.b.len()).then_some(cut)
    }

    /// An object copied into `rest` member by member, each value written by `member` (which
    /// reads it at the value).
    fn object(
        &mut self,
        rest: &mut String,
        mut member: impl FnMut(&mut Self, Key<'a>, &mut String) -> Option<()>,
    ) -> Option<()> {
        self.expect(b'{')?;
        rest.push('{');
        self.space();
        if self.peek()? == b'}' {
            self.i += 1;
        } else {
            let mut first = true;
            loop {
                let key = self.key()?;
                if !first {
                    rest.push(',');
                }
                first = false;
                rest.push('"');
                rest.push_str(key.text);
                rest.push_str("\":");
                member(self, key, rest)?;
                if !self.next_member(b'}')? {
                    break;
                }
            }
        }
        rest.push('}');
        Some(())
    }

    /// A value copied into `rest` as it is written (the exact reader checks it there).
    fn raw(&mut self, rest: &mut String) -> Option<()> {
        let start = self.i;
        self.skip_value()?;
        rest.push_str(self.text.get(start..self.i)?);
        Some(())
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline]
    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    #[inline]
    fn expect(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// After a member or element: `true` at a comma (and the space after it), `false` at the
    /// `close`r.
    #[inline]
    fn next_member(&mut self, close: u8) -> Option<bool> {
        self.space();
        let c = self.peek()?;
        self.i += 1;
        if c == b',' {
            self.space();
            Some(true)
        } else {
            (c == close).then_some(false)
        }
    }

    /// A string without escapes or control characters, at its opening quote.
    #[inline]
    fn plain(&mut self) -> Option<&'a str> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.i + 1;
        let mut j = start;
        // Eight bytes at a time while eight remain, then byte by byte.
        while let Some(chunk) = self.chunk(j) {
            let stop = stops(chunk);
            if stop != 0 {
                j += (stop.leading_zeros() / 8) as usize;
                return self.close(start, j);
            }
            j += 8;
        }
        while !stop_byte(*self.b.get(j)?) {
            j += 1;
        }
        self.close(start, j)
    }

    /// The eight bytes from `at`, the first the highest, when eight remain.
    #[inline]
    fn chunk(&self, at: usize) -> Option<u64> {
        let bytes = self.b.get(at..at.checked_add(8)?)?;
        <[u8; 8]>::try_from(bytes).ok().map(u64::from_be_bytes)
    }

    /// The string from `start` when `end` is its closing quote (not an escape or a control
    /// character), the reader past it.
    #[inline]
    fn close(&mut self, start: usize, end: usize) -> Option<&'a str> {
        if *self.b.get(end)? != b'"' {
            return None;
        }
        self.i = end + 1;
        self.text.get(start..end)
    }

    /// A key and its colon, with the space around it.
    #[inline]
    fn key(&mut self) -> Option<Key<'a>> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.i + 1;
        // A key of at most eight bytes ends within the eight bytes after its opening quote,
        // which then hold its word.
        let key = match self.chunk(start) {
            Some(chunk) if stops(chunk) != 0 => {
                let len = (stops(chunk).leading_zeros() / 8) as usize;
                let text = self.close(start, start + len)?;
                let w = if len == 0 {
                    0
                } else {
                    chunk & !(u64::MAX >> (8 * len))
                };
                Key { text, w }
            }
            _ => {
                let text = self.plain()?;
                Key {
                    text,
                    w: word(text.as_bytes()),
                }
            }
        };
        if self.peek()? == b':' {
            self.i += 1;
        } else {
            self.space();
            self.expect(b':')?;
        }
        self.space();
        Some(key)
    }

    /// `-?(0|[1-9][0-9]*)`, at most 18 digits, not `-0`, not followed by a fraction or
    /// exponent.
    #[inline]
    fn integer(&mut self) -> Option<i64> {
        // Most numbers of a record are one digit.
        let first = self.peek()?.wrapping_sub(b'0');
        if first <= 9 {
            match self.b.get(self.i + 1) {
                Some(b'0'..=b'9' | b'.' | b'e' | b'E') => {}
                _ => {
                    self.i += 1;
                    return Some(i64::from(first));
                }
            }
        }
        self.long_integer()
    }

    /// [`Split::integer`] of any length.
    fn long_integer(&mut self) -> Option<i64> {
        let negative = self.peek()? == b'-';
        if negative {
            self.i += 1;
        }
        let start = self.i;
        let mut n: i64 = 0;
        while let Some(&c) = self.b.get(self.i) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            // Wrapping: more than 18 digits are refused below.
            n = n.wrapping_mul(10).wrapping_add(i64::from(d));
            self.i += 1;
        }
        let digits = self.i - start;
        if digits == 0 || digits > 18 || (digits > 1 && self.b[start] == b'0') {
            return None;
        }
        if negative && n == 0 {
            return None;
        }
        if let Some(b'.' | b'e' | b'E') = self.peek() {
            return None;
        }
        Some(if negative { -n } else { n })
    }

    #[inline]
    fn signed(&mut self) -> Option<i32> {
        i32::try_from(self.integer()?).ok()
    }

    /// A number read as unsigned: a minus sign is left to the exact reader.
    #[inline]
    fn unsigned(&mut self) -> Option<u32> {
        if self.peek()? == b'-' {
            return None;
        }
        u32::try_from(self.integer()?).ok()
    }

    /// A value of a field the types do not read (a snapshot's `round`): a plain scalar.
    fn ignored(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.plain().map(|_| ()),
            b'n' => self.lit(b"null"),
            b't' => self.lit(b"true"),
            b'f' => self.lit(b"false"),
            _ => self.integer().map(|_| ()),
        }
    }

    /// The bytes `lit` exactly, nothing between (a constant, compared in place).
    #[inline(always)]
    fn lit(&mut self, lit: &[u8]) -> Option<()> {
        let end = self.i + lit.len();
        (self.b.get(self.i..end)? == lit).then(|| self.i = end)
    }

    /// Skips any value (the exact reader checks it in the rest): a string, a nest of brackets
    /// (strings in it skipped whole), or a scalar up to its delimiter.
    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.skip_string(),
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.skip_string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.i += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
            }
            _ => {
                let start = self.i;
                while let Some(c) = self.peek() {
                    if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.i += 1;
                }
                (self.i > start).then_some(())
            }
        }
    }

    /// Skips a string at its opening quote, escapes included.
    fn skip_string(&mut self) -> Option<()> {
        let mut j = self.i + 1;
        loop {
            match *self.b.get(j)? {
                b'"' => break,
                b'\\' => j += 2,
                _ => j += 1,
            }
        }
        self.i = j + 1;
        Some(())
    }

    /// A JSON array, each item read by `item`, into `out`.
    #[inline]
    fn array<T>(
        &mut self,
        mut out: Vec<T>,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        self.expect(b'[')?;
        self.space();
        if self.peek()? == b']' {
            self.i += 1;
            return Some(out);
        }
        loop {
            out.push(item(self)?);
            if !self.next_member(b']')? {
                return Some(out);
            }
        }
    }

    /// A list of plain strings (the move lines).
    fn strings(&mut self) -> Option<Vec<String>> {
        self.array(Vec::new(), |s| s.plain().map(str::to_owned))
    }

    /// The setup's spaces.
    fn hexes(&mut self) -> Option<Vec<ListedHex>> {
        self.array(Vec::new(), Self::hex)
    }

    /// One listed space: as records write it, else in any form the general reader takes.
    fn hex(&mut self) -> Option<ListedHex> {
        let at = self.i;
        if let Some(hex) = self.written_hex() {
            return Some(hex);
        }
        self.i = at;
        self.any_hex()
    }

    /// One listed space as records write it: `{"q":…,"r":…,"sector":…,"name":…,"planet":…}`,
    /// without space.
    #[inline]
    fn written_hex(&mut self) -> Option<ListedHex> {
        self.lit(b"{\"q\":")?;
        let q = self.signed()?;
        self.lit(b",\"r\":")?;
        let r = self.signed()?;
        self.lit(b",\"sector\":")?;
        let sector = self.plain()?;
        self.lit(b",\"name\":")?;
        self.plain()?;
        self.lit(b",\"planet\":")?;
        let planet = one_char(self.plain()?)?;
        self.lit(b"}")?;
        Some(ListedHex {
            q,
            r,
            sector: sector.to_owned(),
            planet,
        })
    }

    /// One listed space: `q`, `r`, `sector`, a one-character `planet`, and plain others
    /// (`name`), in any order.
    fn any_hex(&mut self) -> Option<ListedHex> {
        self.expect(b'{')?;
        self.space();
        let (mut q, mut r, mut sector, mut planet) = (None, None, None, None);
        let mut others = Others::new();
        loop {
            let key = self.key()?;
            match key.w {
                Q => once(&mut q, self.signed()?)?,
                R => once(&mut r, self.signed()?)?,
                SECTOR => once(&mut sector, self.plain()?)?,
                PLANET => once(&mut planet, one_char(self.plain()?)?)?,
                _ => self.other(key.text, &mut others)?,
            }
            if !self.next_member(b'}')? {
                break;
            }
        }
        Some(ListedHex {
            q: q?,
            r: r?,
            sector: sector?.to_owned(),
            planet: planet?,
        })
    }

    fn snapshots(&mut self) -> Option<Vec<Snapshot>> {
        self.array(Vec::new(), Self::snapshot)
    }

    fn snapshot(&mut self) -> Option<Snapshot> {
        self.expect(b'{')?;
        self.space();
        let (mut index, mut players) = (None, None);
        let mut others = Others::new();
        if self.peek()? != b'}' {
            loop {
                let key = self.key()?;
                match key.w {
                    I => once(&mut index, usize::try_from(self.integer()?).ok()?)?,
                    PLAYERS => {
                        if players.is_some() {
                            return None;
                        }
                        players = Some(self.seats()?);
                    }
                    _ => self.other(key.text, &mut others)?,
                }
                if !self.next_member(b'}')? {
                    break;
                }
            }
        } else {
            self.i += 1;
        }
        Some(Snapshot {
            i: index?,
            players: players?,
        })
    }

    /// A member the types do not read: its key not seen before in the object, its value
    /// plain.
    fn other(&mut self, key: &'a str, others: &mut Others<'a>) -> Option<()> {
        if others.contains(&key) {
            return None;
        }
        others.push(key);
        self.ignored()
    }

    fn seats(&mut self) -> Option<Vec<SeatSnapshot>> {
        let seats = self.array(Vec::with_capacity(self.seats), Self::seat)?;
        self.seats = seats.len().clamp(1, 8);
        Some(seats)
    }

    /// One seat of a snapshot: as records write it, else in any form the general reader
    /// takes.
    fn seat(&mut self) -> Option<SeatSnapshot> {
        let at = self.i;
        if let Some(seat) = self.written_seat() {
            return Some(seat);
        }
        self.i = at;
        self.any_seat()
    }

    /// One seat as records write it: `vp`, `c`, `o`, `k`, `q`, `pw`, `brainstone` and
    /// `research` in that order, without space.
    #[inline]
    fn written_seat(&mut self) -> Option<SeatSnapshot> {
        self.lit(b"{\"vp\":")?;
        let vp = self.signed()?;
        self.lit(b",\"c\":")?;
        let c = self.signed()?;
        self.lit(b",\"o\":")?;
        let o = self.signed()?;
        self.lit(b",\"k\":")?;
        let k = self.signed()?;
        self.lit(b",\"q\":")?;
        let q = self.signed()?;
        self.lit(b",\"pw\":")?;
        let pw = self.power()?;
        self.lit(b",\"brainstone\":")?;
        let brainstone = self.stone()?;
        self.lit(b",\"research\":")?;
        let research = self.research()?;
        self.lit(b"}")?;
        Some(SeatSnapshot {
            vp,
            c,
            o,
            k,
            q,
            pw,
            brainstone,
            research,
        })
    }

    /// The special token's area: `null` or a plain string.
    #[inline]
    fn stone(&mut self) -> Option<Option<Word>> {
        match self.peek()? {
            b'n' => self.lit(b"null").map(|()| None),
            _ => Some(Some(Word::from(self.plain()?))),
        }
    }

    /// One seat of a snapshot, its members in any order.
    fn any_seat(&mut self) -> Option<SeatSnapshot> {
        self.expect(b'{')?;
        self.space();
        let mut n: [Option<i32>; 5] = [None; 5];
        let mut pw = None;
        let mut research = None;
        // `brainstone` may be left out (read as none), but not written twice.
        let mut brainstone = None;
        let mut others = Others::new();
        loop {
            let key = self.key()?;
            let slot = match key.w {
                VP => Some(0),
                C => Some(1),
                O => Some(2),
                K => Some(3),
                Q => Some(4),
                _ => None,
            };
            if let Some(s) = slot {
                once(&mut n[s], self.signed()?)?;
            } else {
                match key.w {
                    PW => once(&mut pw, self.power()?)?,
                    RESEARCH => once(&mut research, self.research()?)?,
                    LONG if key.text == BRAINSTONE => once(&mut brainstone, self.stone()?)?,
                    _ => self.other(key.text, &mut others)?,
                }
            }
            if !self.next_member(b'}')? {
                break;
            }
        }
        Some(SeatSnapshot {
            vp: n[0]?,
            c: n[1]?,
            o: n[2]?,
            k: n[3]?,
            q: n[4]?,
            pw: pw?,
            brainstone: brainstone.flatten(),
            research: research?,
        })
    }

    /// Exactly four power areas.
    fn power(&mut self) -> Option<[u32; 4]> {
        self.expect(b'[')?;
        self.space();
        let mut pw = [0; 4];
        for (j, area) in pw.iter_mut().enumerate() {
            *area = self.unsigned()?;
            self.space();
            if j < 3 {
                self.expect(b',')?;
                self.space();
            }
        }
        self.expect(b']')?;
        Some(pw)
    }

    /// Tracks and levels: written as the seat before wrote them, else in any form the general
    /// reader takes.
    fn research(&mut self) -> Option<Research> {
        let at = self.i;
        if let Some(levels) = self.written_research() {
            return Some(levels);
        }
        self.i = at;
        self.any_research()
    }

    /// Tracks and levels written as the seat before wrote them (the same tracks in the same
    /// order, without space): each key is its word and closing quote.
    #[inline]
    fn written_research(&mut self) -> Option<Research> {
        let n = self.order.written.len();
        if n == 0 {
            return None;
        }
        let mut levels = [0u32; TRACKS];
        self.lit(b"{")?;
        for (j, level) in levels.iter_mut().enumerate().take(n) {
            let (w, len) = self.order.written[j];
            if j > 0 {
                self.lit(b",")?;
            }
            // The quote, the key's bytes (its word: no zero byte, so no shorter or longer
            // key has it), the closing quote and the colon.
            let chunk = self.chunk(self.i + 1)?;
            let end = self.i + 1 + len;
            if self.b[self.i] != b'"'
                || chunk & !u64::MAX.checked_shr(8 * len as u32).unwrap_or(0) != w
                || self.b.get(end..end + 2)? != b"\":"
            {
                return None;
            }
            self.i = end + 2;
            *level = self.unsigned()?;
        }
        self.lit(b"}")?;
        let tracks = self.order.tracks.clone()?;
        let sorted = self.order.sorted.iter().map(|&j| levels[j]).collect();
        Some(Research::of_tracks(tracks, sorted))
    }

    /// Tracks and levels, each track once, sorted by their words; a record names at most
    /// [`TRACKS`] tracks of at most eight bytes here (others are the exact reader's). The
    /// order they are written in is kept for the next seat.
    fn any_research(&mut self) -> Option<Research> {
        self.expect(b'{')?;
        self.space();
        let mut tracks: [(u64, u32, &str, usize); TRACKS] = [(0, 0, "", 0); TRACKS];
        let mut n = 0;
        if self.peek()? == b'}' {
            self.i += 1;
        } else {
            loop {
                let key = self.key()?;
                // An empty key would have the word of no key at all: left to the exact
                // reader, like a long one.
                if key.w == LONG || key.text.is_empty() || n == TRACKS {
                    return None;
                }
                let level = self.unsigned()?;
                // Insertion in track-name order; a track named twice is refused.
                let mut j = n;
                while j > 0 && tracks[j - 1].0 > key.w {
                    tracks[j] = tracks[j - 1];
                    j -= 1;
                }
                if j > 0 && tracks[j - 1].0 == key.w {
                    return None;
                }
                tracks[j] = (key.w, level, key.text, n);
                n += 1;
                if !self.next_member(b'}')? {
                    break;
                }
            }
        }
        let mut names = Vec::with_capacity(n);
        let mut levels = SmallVec::new();
        let mut written = SmallVec::from_elem((0, 0), n);
        let mut sorted = SmallVec::new();
        for &(w, level, text, at) in &tracks[..n] {
            names.push(Word::from(text));
            levels.push(level);
            written[at] = (w, text.len());
            sorted.push(at);
        }
        let names: Arc<[Word]> = names.into();
        self.order = Order {
            written,
            sorted,
            tracks: Some(names.clone()),
        };
        Some(Research::of_tracks(names, levels))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast read and the exact read agree on `text` (both refuse it, or both give the
    /// same record).
    fn agree(text: &str) -> bool {
        let exact = orrery_core::unique_keys::check(text)
            .ok()
            .and_then(|()| serde_json::from_str::<Record>(text).ok());
        match read(text) {
            Some(fast) => {
                let exact = exact.expect("the fast path took what the exact reader refuses");
                format!("{fast:?}") == format!("{exact:?}")
            }
            None => true,
        }
    }

    fn record(snapshots: &str) -> String {
        format!(
            r#"{{"players": 2, "moves": ["init 2 s", "x"], "options": {{"layout": "standard"}},
                "snapshots": {snapshots}, "final": [{{"faction": null, "vp": 3}}]}}"#
        )
    }

    const SEAT: &str = r#"{"vp": 10, "c": -2, "o": 0, "k": 1, "q": 0, "pw": [1, 2, 3, 0],
        "brainstone": "area1", "research": {"terra": 1, "nav": 0}}"#;

    #[test]
    fn reads_snapshots_as_the_exact_reader_does() {
        let text = record(&format!(
            r#"[{{"i": 1, "round": 0, "players": [{SEAT}, {SEAT}]}}]"#
        ));
        let r = read(&text).expect("a plain record takes the fast path");
        assert!(agree(&text));
        assert_eq!(r.snapshots.len(), 1);
        let seat = &r.snapshots[0].players[1];
        assert_eq!((seat.vp, seat.c, seat.pw), (10, -2, [1, 2, 3, 0]));
        assert_eq!(seat.brainstone.as_deref(), Some("area1"));
        assert_eq!(seat.research.get("terra"), Some(1));
        assert_eq!(r.final_scores.as_ref().map(Vec::len), Some(1));
        assert_eq!(r.moves.len(), 2);
        // No snapshots, and a brainstone left out, read the same as well.
        assert!(read(&record("[]")).is_some_and(|r| r.snapshots.is_empty()));
        let no_stone = SEAT.replace(r#""brainstone": "area1","#, "");
        let text = record(&format!(r#"[{{"i": 0, "players": [{no_stone}]}}]"#));
        assert!(read(&text).is_some_and(|r| r.snapshots[0].players[0].brainstone.is_none()));
    }

    #[test]
    fn leaves_what_it_is_unsure_of_to_the_exact_reader() {
        let seat = |from: &str, to: &str| {
            assert!(SEAT.contains(from), "{from}");
            record(&format!(
                r#"[{{"i": 1, "players": [{}]}}]"#,
                SEAT.replace(from, to)
            ))
        };
        for text in [
            seat(r#""vp": 10"#, r#""vp": 10, "vp": 11"#),
            seat(r#""vp": 10"#, r#""vp": 1.5"#),
            seat(r#""vp": 10"#, r#""vp": 01"#),
            seat(r#""vp": 10"#, r#""vp": 99999999999"#),
            seat(r#""vp": 10, "#, ""),
            seat(r#""k": 1"#, r#""k": 1, "x": 1, "x": 2"#),
            seat(r#""pw": [1, 2, 3, 0]"#, r#""pw": [1, 2, 3]"#),
            seat(r#""pw": [1, 2, 3, 0]"#, r#""pw": [1, -2, 3, 0]"#),
            seat(r#""nav": 0"#, r#""nav": 0, "nav": 1"#),
            seat(r#""area1""#, r#""are\u0061""#),
            seat(r#""area1""#, "5"),
            record(r#"[{"i": 1, "i": 2, "players": []}]"#),
            record(r#"[{"players": []}]"#),
            record(r#"[{"i": 1, "players": []}] "snapshots": []"#),
            record("null"),
            format!("{} x", record("[]")),
            record("[]").replace(r#""layout": "standard""#, r#""layout": 1, "layout": 2"#),
            record("[]").replace(r#""players": 2,"#, r#""players": 2, "players": 3,"#),
            record("[]").replace(r#""final""#, r#""snapshots": [], "final""#),
        ] {
            assert!(read(&text).is_none(), "{text}");
        }
        // Escapes and exponents elsewhere are the exact reader's to read.
        let text = record("[]").replace("\"x\"", r#""\u0078 1e2""#);
        assert!(agree(&text) && read(&text).is_some_and(|r| r.moves[1] == "x 1e2"));
    }

    /// A record as the platform writes it: no space, a setup listing its hexes.
    fn written(hexes: &str, research: [&str; 2]) -> String {
        let seat = |r: &str| {
            format!(
                r#"{{"vp":10,"c":-2,"o":0,"k":1,"q":0,"pw":[1,2,3,0],"brainstone":null,"research":{r}}}"#
            )
        };
        format!(
            r#"{{"players":2,"setup":{{"sectors":[],"mirror":false,"hexes":{hexes},"techs":{{}},"tech_counts":{{}},"adv_techs":{{}},"terra_fed_token":null,"federation_tokens":{{}},"round_scoring":[],"final_scoring":[],"boosters":[]}},"moves":["init 2 s","p1 build m 1A1"],"snapshots":[{{"i":1,"round":0,"players":[{},{}]}}],"generation":{{"a":[1,{{"b":"]"}}]}}}}"#,
            seat(research[0]),
            seat(research[1])
        )
    }

    const HEX: &str = r#"{"q":-7,"r":2,"sector":"5B","name":"5A6","planet":"m"}"#;
    const LEVELS: &str = r#"{"terra":1,"nav":0,"int":2,"gaia":0,"eco":0,"sci":3}"#;

    #[test]
    fn reads_records_as_the_platform_writes_them() {
        let hexes = format!(
            "[{HEX},{}]",
            HEX.replace("-7", "-6").replace("\"m\"", "\"é\"")
        );
        let text = written(&hexes, [LEVELS, LEVELS]);
        assert!(agree(&text));
        let r = read(&text).expect("a written record takes the fast path");
        let listed = r
            .setup
            .as_ref()
            .and_then(|s| s.hexes.as_ref())
            .expect("hexes");
        assert_eq!(listed.len(), 2);
        assert_eq!((listed[1].q, listed[1].r, listed[1].planet), (-6, 2, 'é'));
        assert_eq!(listed[0].sector, "5B");
        assert_eq!(r.moves, ["init 2 s", "p1 build m 1A1"]);
        let levels: Vec<_> = r.snapshots[0].players[1].research.iter().collect();
        assert_eq!(
            levels,
            [
                ("eco", 0),
                ("gaia", 0),
                ("int", 2),
                ("nav", 0),
                ("sci", 3),
                ("terra", 1)
            ]
        );
        // The second seat's tracks in another order, with space, longer names: read the same
        // as the exact reader reads them.
        for second in [
            r#"{"sci":3,"terra":1,"nav":0,"int":2,"gaia":0,"eco":0}"#,
            r#"{ "terra" : 1, "nav":0,"int":2,"gaia":0,"eco":0,"sci":3}"#,
            r#"{"terra":1,"nav":0,"int":2,"gaia":0,"eco":0}"#,
            r#"{"terra":1,"nav":0,"int":2,"gaia":0,"eco":0,"sci":3,"economic":4}"#,
            r#"{"terraform":1,"nav":0,"int":2,"gaia":0,"eco":0,"sci":3}"#,
            r#"{"terra":1,"nav":0,"int":2,"gaia":0,"eco":0,"scie":3}"#,
            r#"{"terra":1,"nav":0,"int":2,"gaia":0,"eco":0,"sc":3}"#,
            r#"{}"#,
        ] {
            let text = written(&format!("[{HEX}]"), [LEVELS, second]);
            assert!(agree(&text), "{second}");
            let r = read(&text);
            let exact: Record = serde_json::from_str(&text).expect("valid");
            if let Some(r) = r {
                assert_eq!(
                    r.snapshots[0].players[1].research, exact.snapshots[0].players[1].research,
                    "{second}"
                );
            }
        }
    }

    #[test]
    fn hexes_and_moves_it_is_unsure_of_are_left_to_the_exact_reader() {
        let hex = |from: &str, to: &str| {
            assert!(HEX.contains(from), "{from}");
            written(&format!("[{}]", HEX.replace(from, to)), [LEVELS, LEVELS])
        };
        // Read by hand in another form, or left in the rest for serde: the same record.
        for text in [
            hex(r#""q":-7,"r":2"#, r#""r":2,"q":-7"#),
            hex(r#""q":-7"#, r#""q" : -7"#),
            hex(r#""name":"5A6""#, r#""name":"5\u0041\u0036""#),
            hex(r#""name":"5A6""#, r#""name":[1]"#),
            hex(r#""5B""#, r#""5\u0042""#),
            written("null", [LEVELS, LEVELS]),
            written(&format!("[{HEX}]"), [LEVELS, LEVELS]).replace("build m", r#"build \"m\""#),
        ] {
            assert!(agree(&text), "{text}");
            assert!(read(&text).is_some(), "{text}");
        }
        // Whatever the exact reader makes of a negative zero, the same.
        assert!(agree(&hex(r#""q":-7"#, r#""q":-0"#)));
        // Refused by the exact reader: refused here.
        for text in [
            hex(r#""q":-7"#, r#""q":-7,"q":-6"#),
            hex(r#""q":-7"#, r#""q":-7.0"#),
            hex(r#""q":-7,"#, ""),
            hex(r#""planet":"m""#, r#""planet":"mm""#),
            hex(r#""planet":"m""#, r#""planet":"""#),
            hex(r#""name":"5A6""#, r#""name":"5A6","name":"x""#),
            written(&format!("[{HEX}]"), [LEVELS, LEVELS])
                .replace(r#""hexes":"#, r#""hexes":[],"hexes":"#),
            written(&format!("[{HEX}]"), [LEVELS, LEVELS])
                .replace(r#""moves":"#, r#""moves":[],"moves":"#),
            written(&format!("[{HEX}]"), [LEVELS, LEVELS]).replace(r#""init 2 s","#, "5,"),
            written(&format!("[{HEX}]"), [LEVELS, LEVELS])
                .replace(r#""generation":{"a""#, r#""generation":{"a":1,"a""#),
        ] {
            assert!(agree(&text), "{text}");
            assert!(read(&text).is_none(), "{text}");
        }
    }
}
