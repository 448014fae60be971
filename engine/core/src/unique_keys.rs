//! JSON read from a file (a record, a saved state, a study) must not repeat a key in any
//! object: a JSON tree keeps the last of two `round`s and typed decoding of a free-form part
//! (a record's `options`) would too, so a file edited by hand could mean something else than
//! it says. [`check`] walks the text once, without building a tree.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// Refuses JSON text with a key repeated in one object (naming the key and where it is) or
/// that is not JSON at all. Nesting is bounded by the JSON reader's own depth limit.
pub fn check(text: &str) -> Result<(), String> {
    let mut de = serde_json::Deserializer::from_str(text);
    Walk {
        path: String::new(),
    }
    .deserialize(&mut de)
    .and_then(|()| de.end())
    .map_err(|e| e.to_string())
}

/// One value at `path` (a JSON pointer), visited for its objects' keys.
struct Walk {
    path: String,
}

impl<'de> DeserializeSeed<'de> for Walk {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk {
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
        let mut i = 0usize;
        while seq
            .next_element_seed(Walk {
                path: format!("{}/{i}", self.path),
            })?
            .is_some()
        {
            i += 1;
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen: HashSet<String> = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                let at = if self.path.is_empty() {
                    "/"
                } else {
                    &self.path
                };
                return Err(de::Error::custom(format!(
                    "the key \"{key}\" appears twice in one object (at {at})"
                )));
            }
            let path = format!(
                "{}/{}",
                self.path,
                key.replace('~', "~0").replace('/', "~1")
            );
            seen.insert(key);
            map.next_value_seed(Walk { path })?;
        }
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
}
