//! A fast path for reading a record: its snapshots (most of a record's bytes) decoded by hand
//! straight into their types, the other fields by serde as before. It takes only what it is
//! sure of (strings without escapes, integers, every object's keys once) and gives up on
//! anything else, so that the exact reader words every refusal: whatever it reads, the exact
//! reader reads the same.

use super::{Record, Research, SeatSnapshot, Snapshot};

/// The record in `text`, or `None` when the exact reader must decide.
pub(super) fn read(text: &str) -> Option<Record> {
    let (snapshots, rest) = Split {
        text,
        b: text.as_bytes(),
        i: 0,
    }
    .run()?;
    // The other fields, checked and decoded exactly as the whole text would be.
    orrery_core::unique_keys::check(&rest).ok()?;
    let mut record: Record = serde_json::from_str(&rest).ok()?;
    if let Some(s) = snapshots {
        record.snapshots = s;
    }
    record.check().ok()?;
    Some(record)
}

/// A key of at most eight bytes as an integer (zero-padded; a plain string holds no zero
/// byte), for matching known field names; `None` for a longer key.
const fn word(key: &[u8]) -> Option<u64> {
    if key.len() > 8 {
        return None;
    }
    let mut w = 0u64;
    let mut i = key.len();
    while i > 0 {
        i -= 1;
        w = (w << 8) | key[i] as u64;
    }
    Some(w)
}

const fn field(name: &str) -> u64 {
    match word(name.as_bytes()) {
        Some(w) => w,
        None => panic!("a field name of at most eight bytes"),
    }
}

const I: u64 = field("i");
const PLAYERS: u64 = field("players");
const VP: u64 = field("vp");
const C: u64 = field("c");
const O: u64 = field("o");
const K: u64 = field("k");
const Q: u64 = field("q");
const PW: u64 = field("pw");
const RESEARCH: u64 = field("research");
/// `brainstone` is ten bytes long: matched by its bytes.
const BRAINSTONE: &[u8] = b"brainstone";

struct Split<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Split<'a> {
    /// The snapshots (if the record has them) and the record's other members as a JSON object.
    fn run(mut self) -> Option<(Option<Vec<Snapshot>>, String)> {
        let mut rest = String::with_capacity(self.b.len() / 2);
        let mut snapshots = None;
        self.space();
        self.expect(b'{')?;
        rest.push('{');
        self.space();
        if self.peek()? == b'}' {
            self.i += 1;
        } else {
            loop {
                let key = self.key()?;
                if key == "snapshots" {
                    if snapshots.is_some() {
                        return None;
                    }
                    snapshots = Some(self.snapshots()?);
                } else {
                    let start = self.i;
                    self.skip_value()?;
                    if rest.len() > 1 {
                        rest.push(',');
                    }
                    rest.push('"');
                    rest.push_str(key);
                    rest.push_str("\":");
                    rest.push_str(self.text.get(start..self.i)?);
                }
                if !self.next_member(b'}')? {
                    break;
                }
            }
        }
        rest.push('}');
        self.space();
        (self.i == self.b.len()).then_some((snapshots, rest))
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
        loop {
            let c = *self.b.get(j)?;
            if c == b'"' {
                break;
            }
            if c == b'\\' || c < 0x20 {
                return None;
            }
            j += 1;
        }
        self.i = j + 1;
        self.text.get(start..j)
    }

    /// A key and its colon, with the space around it.
    #[inline]
    fn key(&mut self) -> Option<&'a str> {
        let key = self.plain()?;
        self.space();
        self.expect(b':')?;
        self.space();
        Some(key)
    }

    /// `-?(0|[1-9][0-9]*)`, at most 18 digits, not followed by a fraction or exponent.
    fn integer(&mut self) -> Option<i64> {
        let negative = self.peek()? == b'-';
        if negative {
            self.i += 1;
        }
        let start = self.i;
        let mut n: i64 = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            n = n * 10 + i64::from(c - b'0');
            self.i += 1;
            if self.i - start > 18 {
                return None;
            }
        }
        let digits = self.i - start;
        if digits == 0 || (digits > 1 && self.b[start] == b'0') {
            return None;
        }
        if let Some(b'.' | b'e' | b'E') = self.peek() {
            return None;
        }
        Some(if negative { -n } else { n })
    }

    fn signed(&mut self) -> Option<i32> {
        i32::try_from(self.integer()?).ok()
    }

    /// A number read as unsigned: a minus sign is left to the exact reader.
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
            b'n' => self.literal(b"null"),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            _ => self.integer().map(|_| ()),
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word).then(|| self.i = end)
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

    fn snapshots(&mut self) -> Option<Vec<Snapshot>> {
        self.array(Vec::new(), Self::snapshot)
    }

    /// A JSON array, each item read by `item`, into `out`.
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

    fn snapshot(&mut self) -> Option<Snapshot> {
        self.expect(b'{')?;
        self.space();
        let (mut index, mut players) = (None, None);
        let mut others: Vec<&str> = Vec::new();
        if self.peek()? != b'}' {
            loop {
                let key = self.key()?;
                match word(key.as_bytes()) {
                    Some(I) if index.is_none() => {
                        index = Some(usize::try_from(self.integer()?).ok()?);
                    }
                    Some(PLAYERS) if players.is_none() => players = Some(self.seats()?),
                    Some(I | PLAYERS) => return None,
                    _ => self.other(key, &mut others)?,
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
    fn other(&mut self, key: &'a str, others: &mut Vec<&'a str>) -> Option<()> {
        if others.contains(&key) {
            return None;
        }
        others.push(key);
        self.ignored()
    }

    fn seats(&mut self) -> Option<Vec<SeatSnapshot>> {
        self.array(Vec::with_capacity(4), Self::seat)
    }

    fn seat(&mut self) -> Option<SeatSnapshot> {
        self.expect(b'{')?;
        self.space();
        let mut n: [Option<i32>; 5] = [None; 5];
        let mut pw = None;
        let mut research = None;
        // `brainstone` may be left out (read as none), but not written twice.
        let mut brainstone = None;
        let mut brainstone_seen = false;
        let mut others: Vec<&str> = Vec::new();
        if self.peek()? == b'}' {
            return None;
        }
        loop {
            let key = self.key()?;
            let slot = match word(key.as_bytes()) {
                Some(VP) => Some(0),
                Some(C) => Some(1),
                Some(O) => Some(2),
                Some(K) => Some(3),
                Some(Q) => Some(4),
                _ => None,
            };
            if let Some(s) = slot {
                if n[s].is_some() {
                    return None;
                }
                n[s] = Some(self.signed()?);
            } else {
                match word(key.as_bytes()) {
                    Some(PW) if pw.is_none() => pw = Some(self.power()?),
                    Some(RESEARCH) if research.is_none() => research = Some(self.research()?),
                    Some(PW | RESEARCH) => return None,
                    None if key.as_bytes() == BRAINSTONE => {
                        if brainstone_seen {
                            return None;
                        }
                        brainstone_seen = true;
                        brainstone = match self.peek()? {
                            b'n' => self.literal(b"null").map(|()| None)?,
                            _ => Some(self.plain()?.into()),
                        };
                    }
                    _ => self.other(key, &mut others)?,
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
            brainstone,
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

    /// Tracks and levels, each track once: gathered borrowed, sorted, then stored (a record
    /// names at most [`TRACKS`] tracks; more are the exact reader's).
    fn research(&mut self) -> Option<Research> {
        self.expect(b'{')?;
        self.space();
        let mut tracks: [(&str, u32); TRACKS] = [("", 0); TRACKS];
        let mut n = 0;
        if self.peek()? == b'}' {
            self.i += 1;
        } else {
            loop {
                let track = self.key()?;
                let level = self.unsigned()?;
                if n == TRACKS || tracks[..n].iter().any(|(t, _)| *t == track) {
                    return None;
                }
                // Insertion in track-name order.
                let mut j = n;
                while j > 0 && tracks[j - 1].0 > track {
                    tracks[j] = tracks[j - 1];
                    j -= 1;
                }
                tracks[j] = (track, level);
                n += 1;
                if !self.next_member(b'}')? {
                    break;
                }
            }
        }
        Some(Research(
            tracks[..n].iter().map(|&(t, l)| (t.into(), l)).collect(),
        ))
    }
}

/// Most research tracks a snapshot's seat is read with here.
const TRACKS: usize = 8;

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
}
