//! JSON read from a file (a record, a saved state, a study) must not repeat a key in any
//! object: a JSON tree keeps the last of two `round`s and typed decoding of a free-form part
//! (a record's `options`) would too, so a file edited by hand could mean something else than
//! it says. [`check`] walks the text once, without building a tree.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// Refuses JSON text with a key repeated in one object (naming the key and where it is) or
/// that is not JSON at all. Nesting is bounded by the JSON reader's own depth limit.
///
/// One pass and few allocations: the pointer of the value being read is one buffer that each
/// level appends its segment to and cuts back, keys are borrowed from the text unless they
/// hold escapes, and an object's keys are compared in a short list until it grows large.
pub fn check(text: &str) -> Result<(), String> {
    if fast::clean(text.as_bytes()) {
        return Ok(());
    }
    walk(text)
}

/// The exact check: a walk with serde_json's reader, which words every refusal.
fn walk(text: &str) -> Result<(), String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut path = String::new();
    Walk { path: &mut path }
        .deserialize(&mut de)
        .and_then(|()| de.end())
        .map_err(|e| e.to_string())
}

/// A scan of the bytes that accepts only what it is sure of: JSON without escapes in strings,
/// exponents or long numbers, nested at most [`fast::MAX_DEPTH`] deep, whose objects hold at
/// most [`fast::MAX_KEYS`] keys, none repeated. Anything else (every refusal included) goes to
/// the exact walk, so what it accepts the walk accepts, and every error is the walk's.
///
/// Linear in the text: each key is compared with the keys before it in its object by a
/// fingerprint (its first eight bytes and its length, one integer compare) and only on a
/// match by its bytes, and an object holds at most [`fast::MAX_KEYS`] keys.
mod fast {
    /// Deepest nesting the scan takes (serde_json's reader refuses past 128).
    pub(super) const MAX_DEPTH: usize = 64;
    /// Most keys of one object the scan compares one by one.
    pub(super) const MAX_KEYS: usize = 64;

    /// Whether `b` is surely JSON with no key repeated in any object.
    pub(super) fn clean(b: &[u8]) -> bool {
        Scan {
            b,
            i: 0,
            keys: Vec::new(),
        }
        .run()
        .is_some()
    }

    /// The bytes that end a string the scan takes: its closing quote, or what it hands to the
    /// walk (an escape, a control character).
    static STOP: [bool; 256] = {
        let mut t = [false; 256];
        let mut c = 0;
        while c < 0x20 {
            t[c] = true;
            c += 1;
        }
        t[b'"' as usize] = true;
        t[b'\\' as usize] = true;
        t
    };

    /// A key of an open object: its fingerprint and where its bytes are.
    #[derive(Clone, Copy)]
    struct Key {
        print: u64,
        len: u32,
        start: u32,
    }

    /// A key's first eight bytes (zero-padded) as an integer: with its length, the key itself
    /// when it is at most eight bytes long (a scanned string holds no zero byte).
    #[inline]
    fn fingerprint(key: &[u8]) -> u64 {
        match key.first_chunk::<8>() {
            Some(word) => u64::from_le_bytes(*word),
            // Byte by byte: a copy of a variable length would call `memcpy` for every key.
            None => key.iter().rev().fold(0, |w, &c| (w << 8) | u64::from(c)),
        }
    }

    struct Scan<'a> {
        b: &'a [u8],
        i: usize,
        /// The keys of the open objects, innermost last.
        keys: Vec<Key>,
    }

    impl Scan<'_> {
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

        /// A string without escapes or control characters, at its opening quote: where its
        /// bytes start and end.
        #[inline]
        fn string(&mut self) -> Option<(usize, usize)> {
            let start = self.i + 1;
            let mut j = start;
            loop {
                let c = *self.b.get(j)?;
                if STOP[usize::from(c)] {
                    if c != b'"' {
                        return None;
                    }
                    self.i = j + 1;
                    return Some((start, j));
                }
                j += 1;
            }
        }

        fn digits(&mut self) -> usize {
            let from = self.i;
            while let Some(b'0'..=b'9') = self.b.get(self.i) {
                self.i += 1;
            }
            self.i - from
        }

        /// `-?(0|[1-9][0-9]*)(.[0-9]+)?`, at most 16 bytes; no exponent.
        fn number(&mut self) -> Option<()> {
            let start = self.i;
            if self.peek() == Some(b'-') {
                self.i += 1;
            }
            match self.peek()? {
                b'0' => self.i += 1,
                b'1'..=b'9' => {
                    self.digits();
                }
                _ => return None,
            }
            if self.peek() == Some(b'.') {
                self.i += 1;
                if self.digits() == 0 {
                    return None;
                }
            }
            (!matches!(self.peek(), Some(b'e' | b'E')) && self.i - start <= 16).then_some(())
        }

        /// `true`, `false` or `null`, compared byte by byte (a slice compare calls `memcmp`).
        #[inline]
        fn literal(&mut self, word: &[u8]) -> Option<()> {
            let end = self.i + word.len();
            let here = self.b.get(self.i..end)?;
            here.iter()
                .zip(word)
                .all(|(a, b)| a == b)
                .then(|| self.i = end)
        }

        /// A key of the innermost object (its keys so far are `keys[from..]`) and its colon.
        fn key(&mut self, from: usize) -> Option<()> {
            if self.peek()? != b'"' {
                return None;
            }
            let (start, end) = self.string()?;
            let bytes = &self.b[start..end];
            let key = Key {
                print: fingerprint(bytes),
                len: u32::try_from(bytes.len()).ok()?,
                start: u32::try_from(start).ok()?,
            };
            let seen = self.keys.get(from..)?;
            if seen.len() >= MAX_KEYS {
                return None;
            }
            for k in seen {
                if k.print == key.print && k.len == key.len {
                    let s = k.start as usize;
                    if key.len <= 8 || self.b.get(s..s + bytes.len()) == Some(bytes) {
                        // A repeat (or, past eight bytes, maybe one): the walk decides.
                        return None;
                    }
                }
            }
            self.keys.push(key);
            self.space();
            if self.peek()? != b':' {
                return None;
            }
            self.i += 1;
            self.space();
            Some(())
        }

        fn run(&mut self) -> Option<()> {
            // Open containers (true: an object, with where its keys start in `keys`).
            let mut open: Vec<(bool, usize)> = Vec::new();
            self.space();
            loop {
                // One value.
                match self.peek()? {
                    c @ (b'{' | b'[') => {
                        self.i += 1;
                        if open.len() >= MAX_DEPTH {
                            return None;
                        }
                        self.space();
                        let object = c == b'{';
                        let close = if object { b'}' } else { b']' };
                        if self.peek() == Some(close) {
                            self.i += 1;
                        } else {
                            let from = self.keys.len();
                            open.push((object, from));
                            if object {
                                self.key(from)?;
                            }
                            continue;
                        }
                    }
                    b'"' => {
                        self.string()?;
                    }
                    b't' => self.literal(b"true")?,
                    b'f' => self.literal(b"false")?,
                    b'n' => self.literal(b"null")?,
                    b'-' | b'0'..=b'9' => self.number()?,
                    _ => return None,
                }
                // After a value: the next element, or the ends of containers.
                loop {
                    self.space();
                    let Some(&(object, from)) = open.last() else {
                        return (self.i == self.b.len()).then_some(());
                    };
                    match self.peek()? {
                        b',' => {
                            self.i += 1;
                            self.space();
                            if object {
                                self.key(from)?;
                            }
                            break;
                        }
                        b'}' if object => {
                            self.i += 1;
                            open.pop();
                            self.keys.truncate(from);
                        }
                        b']' if !object => {
                            self.i += 1;
                            open.pop();
                        }
                        _ => return None,
                    }
                }
            }
        }
    }
}

/// Objects with at most this many keys look for a repeat by comparing with each key seen.
const LINEAR_KEYS: usize = 32;

/// One value at `path` (a JSON pointer), visited for its objects' keys.
struct Walk<'p> {
    path: &'p mut String,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// A key, borrowed from the text when it has no escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let base = self.path.len();
        let mut i = 0usize;
        loop {
            self.path.truncate(base);
            // Writing to a String cannot fail.
            write!(self.path, "/{i}").map_err(de::Error::custom)?;
            if seq.next_element_seed(Walk { path: self.path })?.is_none() {
                break;
            }
            i += 1;
        }
        self.path.truncate(base);
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let base = self.path.len();
        let mut few: Vec<Cow<'de, str>> = Vec::new();
        let mut many: HashSet<Cow<'de, str>> = HashSet::new();
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            let repeated = if many.is_empty() {
                few.contains(&key)
            } else {
                many.contains(&key)
            };
            if repeated {
                let at = if base == 0 { "/" } else { &self.path[..base] };
                return Err(de::Error::custom(format!(
                    "the key \"{key}\" appears twice in one object (at {at})"
                )));
            }
            self.path.truncate(base);
            self.path.push('/');
            for c in key.chars() {
                match c {
                    '~' => self.path.push_str("~0"),
                    '/' => self.path.push_str("~1"),
                    c => self.path.push(c),
                }
            }
            if many.is_empty() && few.len() < LINEAR_KEYS {
                few.push(key);
            } else {
                many.extend(few.drain(..));
                many.insert(key);
            }
            map.next_value_seed(Walk { path: self.path })?;
        }
        self.path.truncate(base);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn a_repeated_key_is_refused_at_any_depth() {
        assert!(check(r#"{"round": 1, "players": [{"vp": 2}], "x": null}"#).is_ok());
        let e = check(r#"{"round": 1, "round": 2}"#).unwrap_err();
        assert!(
            e.contains("\"round\" appears twice") && e.contains("at /"),
            "{e}"
        );
        let e = check(r#"{"a": [{"b": 1}, {"c": 1, "c": 1}]}"#).unwrap_err();
        assert!(e.contains("\"c\"") && e.contains("at /a/1"), "{e}");
        // The same key in two objects is fine; broken JSON is refused.
        assert!(check(r#"[{"c": 1}, {"c": 1}]"#).is_ok());
        assert!(check(r#"{"a": 1"#).is_err());
        assert!(check(r#"{"a": 1} trailing"#).is_err());
    }

    /// What the scan accepts, the exact walk accepts; and it accepts what records hold.
    #[test]
    fn the_fast_scan_accepts_only_what_the_walk_accepts() {
        let texts = [
            r#"{"a": 1, "b": [true, false, null, -0.5, 12, "x y é"], "c": {}}"#,
            r#"[]"#,
            r#"  {"a" : [ {"a": 1}, {"a": 2} ] }  "#,
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": 1,}"#,
            r#"[1,]"#,
            r#"[01]"#,
            r#"[1.]"#,
            r#"[1e5]"#,
            r#"[-]"#,
            r#"["a\"b"]"#,
            r#"{"a\u0062": 1, "ab": 2}"#,
            r#"[tru]"#,
            r#"{"a" 1}"#,
            r#"{"a": 1} x"#,
            r#"{"a": 1}}"#,
            r#"[1}"#,
            r#"{1: 2}"#,
            "",
            "   ",
            "[\"tab\there\"]",
            r#"[123456789012345678901234567890]"#,
            // Keys told apart past their first eight bytes, or by length only.
            r#"{"abcdefgh1": 1, "abcdefgh2": 2, "abcdefgh": 3, "abcdefg": 4, "": 5}"#,
            r#"{"abcdefgh1": 1, "abcdefgh2": 2, "abcdefgh1": 3}"#,
            r#"{"abcdefgh": 1, "x": {"abcdefgh": 2}, "abcdefgh": 3}"#,
            r#"{"": 1, "": 2}"#,
            r#"{"a": {"b": 1}, "b": {"a": 1, "b": 2, "a": 3}}"#,
        ];
        for text in texts {
            if super::fast::clean(text.as_bytes()) {
                assert!(super::walk(text).is_ok(), "scan accepted {text:?}");
            }
            assert_eq!(check(text).is_ok(), super::walk(text).is_ok(), "{text:?}");
        }
        // The fingerprint tells keys apart exactly: the scan itself takes the first of these
        // and refuses the repeats.
        assert!(super::fast::clean(texts[22].as_bytes()), "{}", texts[22]);
        for repeat in &texts[23..] {
            assert!(!super::fast::clean(repeat.as_bytes()), "{repeat}");
            assert!(check(repeat).is_err(), "{repeat}");
        }
        // Past the most keys the scan compares, the walk decides.
        let many: Vec<String> = (0..100)
            .map(|i| format!("\"key number {i}\": {i}"))
            .collect();
        let many = format!("{{{}}}", many.join(", "));
        assert!(!super::fast::clean(many.as_bytes()));
        assert!(check(&many).is_ok());
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(!super::fast::clean(deep.as_bytes()));
        assert_eq!(check(&deep).is_ok(), super::walk(&deep).is_ok());
        let record = r#"{"players": 2, "moves": ["p1 take a", "a put m 1A2."],
            "snapshots": [{"i": 3, "players": [{"score": 10, "bowls": [2, 4, 0, 0], "token": null,
            "levels": {"red": 1, "blue": 0}}]}], "options": {"map": {"mirror": false}}}"#;
        assert!(
            super::fast::clean(record.as_bytes()),
            "a record takes the fast scan"
        );
    }

    #[test]
    fn the_pointer_names_escaped_keys_and_the_repeat_is_found_in_large_objects() {
        let e = check(r#"{"a/b": {"c~d": [0, {"k": 1, "k": 2}]}}"#).unwrap_err();
        assert!(e.contains("at /a~1b/c~0d/1"), "{e}");
        // A key written with an escape is the same key as written plainly.
        let e = check(r#"{"x": 1, "\u0078": 2}"#).unwrap_err();
        assert!(e.contains("\"x\" appears twice"), "{e}");
        // Past the short list: the 41st key repeats the 3rd.
        let mut text: String = (0..40).map(|i| format!("\"k{i}\": {i}, ")).collect();
        text.insert(0, '{');
        text.push_str("\"k2\": 0}");
        let e = check(&text).unwrap_err();
        assert!(
            e.contains("\"k2\" appears twice") && e.contains("at /"),
            "{e}"
        );
        text = text.replace("\"k2\": 0}", "\"k40\": 0}");
        assert!(check(&text).is_ok(), "{text}");
    }
}
