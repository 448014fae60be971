//! Seats in an order, held inline and copied as plain bytes.

use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most seats a list holds: the most players content may seat
/// ([`crate::content::bounds::MAX_PLAYERS`]); a list holds each seat at most once.
pub const MAX_SEATS: usize = crate::content::bounds::MAX_PLAYERS as usize;

/// Seats in an order (each at most once), held inline in a fixed buffer: a plain value with
/// nothing to drop, so a state's copy copies its bytes and its drop does nothing. Reads as
/// a slice of seats; saved as a plain list.
#[derive(Debug, Clone, Copy, Default)]
pub struct SeatList {
    len: u8,
    seats: [usize; MAX_SEATS],
}

impl SeatList {
    /// An empty list.
    pub fn new() -> SeatList {
        SeatList::default()
    }

    /// Adds a seat at the end. A list holds every seat of a game at most once, so it is
    /// never full; a seat past [`MAX_SEATS`] is a broken invariant.
    pub fn push(&mut self, seat: usize) {
        let len = usize::from(self.len);
        assert!(
            len < MAX_SEATS,
            "a seat list holds at most {MAX_SEATS} seats"
        );
        self.seats[len] = seat;
        self.len += 1;
    }

    /// Takes the first seat off, if any.
    pub fn pop_front(&mut self) -> Option<usize> {
        let first = self.first().copied()?;
        self.seats.copy_within(1.., 0);
        self.len -= 1;
        self.seats[usize::from(self.len)] = 0;
        Some(first)
    }
}

impl Deref for SeatList {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        &self.seats[..usize::from(self.len)]
    }
}

/// Lists are equal when they hold the same seats in the same order.
impl PartialEq for SeatList {
    fn eq(&self, other: &SeatList) -> bool {
        **self == **other
    }
}

impl Eq for SeatList {}

impl FromIterator<usize> for SeatList {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> SeatList {
        let mut list = SeatList::new();
        for seat in iter {
            list.push(seat);
        }
        list
    }
}

impl<'a> IntoIterator for &'a SeatList {
    type Item = &'a usize;
    type IntoIter = std::slice::Iter<'a, usize>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Serialize for SeatList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for SeatList {
    /// A plain list of at most [`MAX_SEATS`] seats (a longer one names a seat twice or one
    /// the game lacks, so it is refused as it is read).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SeatList, D::Error> {
        let seats = Vec::<usize>::deserialize(d)?;
        if seats.len() > MAX_SEATS {
            return Err(serde::de::Error::custom(format!(
                "a list of {} seats (at most {MAX_SEATS})",
                seats.len()
            )));
        }
        Ok(seats.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::{SeatList, MAX_SEATS};

    /// A copy holds the same seats and is saved as the plain list the inline vector was.
    #[test]
    fn copies_and_saves_as_a_plain_list() {
        let mut list: SeatList = [3, 0, 2].into_iter().collect();
        list.push(1);
        let copy = list;
        assert_eq!(&copy[..], &[3, 0, 2, 1]);
        assert_eq!(serde_json::to_string(&copy).expect("saves"), "[3,0,2,1]");
        let read: SeatList = serde_json::from_str("[5,4]").expect("reads");
        assert_eq!(&read[..], &[5, 4]);
        assert_eq!(list.pop_front(), Some(3));
        assert_eq!(&list[..], &[0, 2, 1]);
        assert_ne!(list, copy, "a copy is its own");
        let mut empty = SeatList::new();
        assert_eq!(empty.pop_front(), None);
    }

    /// A saved list longer than any game's seats is refused as it is read, not cut.
    #[test]
    fn a_list_longer_than_the_most_seats_is_refused() {
        let long = serde_json::to_string(&vec![0; MAX_SEATS + 1]).expect("text");
        let e = serde_json::from_str::<SeatList>(&long).expect_err("too long");
        assert!(e.to_string().contains("at most"), "{e}");
        let full = serde_json::to_string(&(0..MAX_SEATS).collect::<Vec<_>>()).expect("text");
        let read: SeatList = serde_json::from_str(&full).expect("reads");
        assert_eq!(read.len(), MAX_SEATS);
    }
}
