//! Seats in an order, held inline and copied as plain bytes.

use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

/// Seats in an order, held inline: a state's copy copies no list, and copies these bytes in
/// one move instead of seat by seat. Reads and writes as the inline vector it wraps; saved as
/// a plain list.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeatList(SmallVec<[usize; 6]>);

impl SeatList {
    /// An empty list.
    pub fn new() -> SeatList {
        SeatList(SmallVec::new())
    }
}

impl Clone for SeatList {
    fn clone(&self) -> SeatList {
        if self.0.spilled() {
            return SeatList(self.0.clone());
        }
        // The whole inline buffer, a fixed size, copied without a call or a loop per seat.
        let mut buf = [0usize; 6];
        for (to, from) in buf.iter_mut().zip(self.0.iter()) {
            *to = *from;
        }
        SeatList(SmallVec::from_buf_and_len(buf, self.0.len()))
    }
}

impl Deref for SeatList {
    type Target = SmallVec<[usize; 6]>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for SeatList {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl FromIterator<usize> for SeatList {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> SeatList {
        SeatList(iter.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a SeatList {
    type Item = &'a usize;
    type IntoIter = std::slice::Iter<'a, usize>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::SeatList;

    /// A copy holds the same seats and is saved as the plain list the inline vector was.
    #[test]
    fn copies_and_saves_as_a_plain_list() {
        let mut list: SeatList = [3, 0, 2].into_iter().collect();
        list.push(1);
        let copy = list.clone();
        assert_eq!(copy.as_slice(), &[3, 0, 2, 1]);
        assert_eq!(serde_json::to_string(&copy).expect("saves"), "[3,0,2,1]");
        let read: SeatList = serde_json::from_str("[5,4]").expect("reads");
        assert_eq!(read.as_slice(), &[5, 4]);
        list.remove(0);
        assert_ne!(list, copy, "a copy is its own");
    }
}
