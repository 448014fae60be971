//! A snapshot's research levels: tracks and levels in track-name order, read and written as a
//! JSON object, shown as a map. The tracks are shared (a record's seats name the same tracks,
//! so reading a seat copies a reference count, not its track names), the levels held inline.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::notation::Word;
use crate::word_map::WordMap;

/// Most tracks held inline; more spill to the heap.
const INLINE: usize = 8;

/// Research levels by track, in track-name order.
#[derive(Clone, PartialEq, Eq)]
pub struct Research {
    /// The tracks, sorted, each once.
    tracks: Arc<[Word]>,
    /// Each track's level, in the tracks' order.
    levels: SmallVec<[u32; INLINE]>,
}

impl Default for Research {
    fn default() -> Self {
        Research {
            tracks: Arc::from(Vec::new()),
            levels: SmallVec::new(),
        }
    }
}

impl Research {
    /// Levels of `tracks` (sorted, each once), one a track in their order.
    pub(super) fn of_tracks(tracks: Arc<[Word]>, levels: SmallVec<[u32; INLINE]>) -> Research {
        debug_assert_eq!(tracks.len(), levels.len());
        debug_assert!(tracks.windows(2).all(|w| w[0] < w[1]));
        Research { tracks, levels }
    }

    /// Where a track is, or where it would go.
    fn find(&self, track: &str) -> Result<usize, usize> {
        self.tracks.binary_search_by(|t| t.as_str().cmp(track))
    }

    /// Sets a track's level (a track named twice keeps its last level, as a map would).
    pub fn insert(&mut self, track: Word, level: u32) {
        match self.find(&track) {
            Ok(i) => self.levels[i] = level,
            Err(i) => {
                let mut tracks = self.tracks.to_vec();
                tracks.insert(i, track);
                self.tracks = tracks.into();
                self.levels.insert(i, level);
            }
        }
    }

    /// A track's level, if the map names it.
    pub fn get(&self, track: &str) -> Option<u32> {
        self.find(track).ok().map(|i| self.levels[i])
    }

    /// The tracks and levels, in track-name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        self.tracks
            .iter()
            .map(Word::as_str)
            .zip(self.levels.iter().copied())
    }

    /// How many tracks it names.
    pub fn len(&self) -> usize {
        self.levels.len()
    }

    /// Whether it names no track.
    pub fn is_empty(&self) -> bool {
        self.levels.is_empty()
    }

    /// Whether a seat's research levels hold every track of these at its level (a track the
    /// seat lacks stands at 0). Both are in track-name order, so when they name the same
    /// tracks (as a record of the seat's game does) the levels are compared in place.
    ///
    /// Tracks found the same before (in `same`) are compared by where they are held, not word
    /// by word; tracks found the same now are remembered there.
    pub(crate) fn matches<const N: usize>(
        &self,
        have: &WordMap<u32, N>,
        same: &mut SameTracks,
    ) -> bool {
        let keys = have.shared_keys();
        let known = same
            .0
            .iter()
            .any(|(ours, theirs)| Arc::ptr_eq(ours, &self.tracks) && Arc::ptr_eq(theirs, keys));
        if known {
            return have.values().eq(self.levels.iter());
        }
        if have.len() == self.tracks.len() && have.keys().eq(self.tracks.iter()) {
            if same.0.len() < REMEMBERED {
                same.0.push((self.tracks.clone(), keys.clone()));
            }
            return have.values().eq(self.levels.iter());
        }
        self.iter()
            .all(|(t, l)| have.get(t).copied().unwrap_or(0) == l)
    }
}

/// Most pairs of track lists a [`SameTracks`] remembers.
const REMEMBERED: usize = 8;

/// Pairs of track lists (a record's, a seat's) found to name the same tracks in the same
/// order. Each list is held, so neither is freed (and its place reused by other tracks) while
/// it is remembered.
#[derive(Default)]
pub(crate) struct SameTracks(SmallVec<[TrackPair; 2]>);

/// A record's tracks and a seat's, found the same.
type TrackPair = (Arc<[Word]>, Arc<[Word]>);

impl FromIterator<(Word, u32)> for Research {
    /// The levels of a list of tracks (a track named twice keeps its last level).
    fn from_iter<I: IntoIterator<Item = (Word, u32)>>(iter: I) -> Self {
        let mut all: Vec<(Word, u32)> = iter.into_iter().collect();
        // Stable: of a track named twice, the last stays last.
        all.sort_by(|a, b| a.0.cmp(&b.0));
        let mut tracks: Vec<Word> = Vec::with_capacity(all.len());
        let mut levels = SmallVec::with_capacity(all.len());
        for (track, level) in all {
            if tracks.last() == Some(&track) {
                if let Some(last) = levels.last_mut() {
                    *last = level;
                }
            } else {
                tracks.push(track);
                levels.push(level);
            }
        }
        Research {
            tracks: tracks.into(),
            levels,
        }
    }
}

impl std::fmt::Debug for Research {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for Research {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Research {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Levels;
        impl<'de> serde::de::Visitor<'de> for Levels {
            type Value = Research;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of research tracks to levels")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Research, A::Error> {
                let mut all = Vec::new();
                while let Some(entry) = map.next_entry::<Word, u32>()? {
                    all.push(entry);
                }
                Ok(all.into_iter().collect())
            }
        }
        d.deserialize_map(Levels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels(list: &[(&str, u32)]) -> Research {
        list.iter().map(|&(t, l)| (Word::from(t), l)).collect()
    }

    #[test]
    fn reads_like_an_ordered_map() {
        let r = levels(&[("nav", 1), ("terra", 2), ("eco", 0), ("nav", 3)]);
        assert_eq!(r.len(), 3);
        assert_eq!(
            r.iter().collect::<Vec<_>>(),
            [("eco", 0), ("nav", 3), ("terra", 2)],
            "sorted, a track named twice at its last level"
        );
        assert_eq!((r.get("nav"), r.get("gaia")), (Some(3), None));
        let mut grown = r.clone();
        grown.insert("gaia".into(), 4);
        grown.insert("eco".into(), 5);
        assert_eq!(
            format!("{grown:?}"),
            r#"{"eco": 5, "gaia": 4, "nav": 3, "terra": 2}"#
        );
        assert_eq!(
            format!("{r:?}"),
            r#"{"eco": 0, "nav": 3, "terra": 2}"#,
            "a copy unchanged"
        );
        let json = serde_json::to_string(&grown).expect("json");
        assert_eq!(json, r#"{"eco":5,"gaia":4,"nav":3,"terra":2}"#);
        let back: Research =
            serde_json::from_str(r#"{"terra":2,"nav":3,"gaia":4,"eco":5}"#).expect("a map");
        assert_eq!(back, grown);
        assert!(Research::default().is_empty());
    }

    #[test]
    fn matches_a_seat_by_the_tracks_it_names() {
        let mut have: WordMap<u32, 8> = WordMap::default();
        for (t, l) in [("eco", 1), ("nav", 2), ("terra", 0)] {
            have.insert(t.into(), l);
        }
        assert!(levels(&[("eco", 1), ("nav", 2), ("terra", 0)])
            .matches(&have, &mut SameTracks::default()));
        assert!(!levels(&[("eco", 1), ("nav", 3), ("terra", 0)])
            .matches(&have, &mut SameTracks::default()));
        // Fewer tracks, or one the seat lacks (standing at 0), compared track by track.
        assert!(levels(&[("nav", 2)]).matches(&have, &mut SameTracks::default()));
        assert!(levels(&[("gaia", 0), ("nav", 2)]).matches(&have, &mut SameTracks::default()));
        assert!(!levels(&[("gaia", 1), ("nav", 2)]).matches(&have, &mut SameTracks::default()));
        assert!(!levels(&[("eco", 1), ("gaia", 2), ("terra", 0)])
            .matches(&have, &mut SameTracks::default()));
    }

    #[test]
    fn tracks_found_the_same_are_remembered_not_confused() {
        let mut same = SameTracks::default();
        let mut have: WordMap<u32, 8> = WordMap::default();
        for (t, l) in [("eco", 1), ("nav", 2)] {
            have.insert(t.into(), l);
        }
        let want = levels(&[("eco", 1), ("nav", 2)]);
        assert!(want.matches(&have, &mut same));
        assert_eq!(same.0.len(), 1, "remembered");
        // The same lists again: compared by their levels only.
        let mut moved = have.clone();
        *moved.get_mut("nav").unwrap() = 3;
        assert!(!want.matches(&moved, &mut same));
        assert!(want.matches(&have, &mut same));
        // Other tracks with the same levels are compared word by word.
        let mut other: WordMap<u32, 8> = WordMap::default();
        for (t, l) in [("eco", 1), ("gaia", 2)] {
            other.insert(t.into(), l);
        }
        assert!(!want.matches(&other, &mut same));
        let mut grown = have.clone();
        grown.insert("terra".into(), 1);
        assert!(
            want.matches(&grown, &mut same),
            "a track the record does not name is not compared"
        );
        *grown.get_mut("nav").unwrap() = 0;
        assert!(!want.matches(&grown, &mut same));
        assert_eq!(same.0.len(), 1);
    }
}
