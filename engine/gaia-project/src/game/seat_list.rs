//! Seats in an order, held inline and copied as plain bytes.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most seats a list holds: the most players content may seat
/// ([`crate::content::bounds::MAX_PLAYERS`]); a list holds each seat at most once.
pub const MAX_SEATS: usize = crate::content::bounds::MAX_PLAYERS as usize;

/// Seats in an order (each at most once), held inline in a fixed buffer of bytes (a seat is
/// below [`MAX_SEATS`]): a plain value with nothing to drop, so a state's copy copies its few
/// bytes and its drop does nothing. Read seat by seat as `usize`; saved as a plain list.
#[derive(Debug, Clone, Copy, Default)]
pub struct SeatList {
    len: u8,
    seats: [u8; MAX_SEATS],
}

impl SeatList {
    /// An empty list.
    pub fn new() -> SeatList {
        SeatList::default()
    }

    /// Adds a seat at the end. A list holds every seat of a game at most once, so it is
    /// never full, and a seat is below [`MAX_SEATS`]; anything else is a broken invariant.
    pub fn push(&mut self, seat: usize) {
        let len = usize::from(self.len);
        assert!(
            len < MAX_SEATS,
            "a seat list holds at most {MAX_SEATS} seats"
        );
        self.seats[len] = u8::try_from(seat).expect("a seat fits in a byte");
        self.len += 1;
    }

    /// Takes the first seat off, if any.
    pub fn pop_front(&mut self) -> Option<usize> {
        let first = self.first()?;
        self.seats.copy_within(1.., 0);
        self.len -= 1;
        self.seats[usize::from(self.len)] = 0;
        Some(first)
    }

    /// The seats held, in order.
    fn held(&self) -> &[u8] {
        &self.seats[..usize::from(self.len)]
    }

    /// How many seats it holds.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether it holds no seat.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first seat, if any.
    pub fn first(&self) -> Option<usize> {
        self.held().first().map(|&s| usize::from(s))
    }

    /// The seat at `i`, if it holds that many.
    pub fn get(&self, i: usize) -> Option<usize> {
        self.held().get(i).map(|&s| usize::from(s))
    }

    /// The seats in order.
    pub fn iter(&self) -> Seats<'_> {
        Seats(self.held().iter())
    }

    /// The seats in order, as a list.
    pub fn to_vec(&self) -> Vec<usize> {
        self.iter().collect()
    }
}

/// The seats of a [`SeatList`] in order.
#[derive(Debug, Clone)]
pub struct Seats<'a>(std::slice::Iter<'a, u8>);

impl Iterator for Seats<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        self.0.next().map(|&s| usize::from(s))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Seats<'_> {
    fn next_back(&mut self) -> Option<usize> {
        self.0.next_back().map(|&s| usize::from(s))
    }
}

impl ExactSizeIterator for Seats<'_> {}

/// Lists are equal when they hold the same seats in the same order.
impl PartialEq for SeatList {
    fn eq(&self, other: &SeatList) -> bool {
        self.held() == other.held()
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
    type Item = usize;
    type IntoIter = Seats<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Serialize for SeatList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for SeatList {
    /// A plain list of at most [`MAX_SEATS`] seats, each one a byte holds (a longer list names
    /// a seat twice or one the game lacks, and so does a larger seat: both are refused as
    /// they are read; a seat the game lacks below that is left to the state's checks).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SeatList, D::Error> {
        let seats = Vec::<usize>::deserialize(d)?;
        if seats.len() > MAX_SEATS {
            return Err(serde::de::Error::custom(format!(
                "a list of {} seats (at most {MAX_SEATS})",
                seats.len()
            )));
        }
        if let Some(s) = seats.iter().find(|&&s| u8::try_from(s).is_err()) {
            return Err(serde::de::Error::custom(format!(
                "seat {s} does not exist (at most {MAX_SEATS} seats)"
            )));
        }
        Ok(seats.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::{SeatList, MAX_SEATS};

    /// A copy holds the same seats and is saved as a plain list.
    #[test]
    fn copies_and_saves_as_a_plain_list() {
        let mut list: SeatList = [3, 0, 2].into_iter().collect();
        list.push(1);
        let copy = list;
        assert_eq!(copy.to_vec(), vec![3, 0, 2, 1]);
        assert_eq!(serde_json::to_string(&copy).expect("saves"), "[3,0,2,1]");
        let read: SeatList = serde_json::from_str("[5,4]").expect("reads");
        assert_eq!(read.to_vec(), vec![5, 4]);
        assert_eq!(list.pop_front(), Some(3));
        assert_eq!(list.to_vec(), vec![0, 2, 1]);
        assert_ne!(list, copy, "a copy is its own");
        let mut empty = SeatList::new();
        assert_eq!(empty.pop_front(), None);
        assert!(empty.is_empty());
    }

    /// Seats read one by one, from either end, or by place.
    #[test]
    fn seats_read_in_order_from_either_end_and_by_place() {
        let list: SeatList = [2, 7, 0].into_iter().collect();
        assert_eq!((list.len(), list.first()), (3, Some(2)));
        assert_eq!(list.iter().rev().collect::<Vec<_>>(), vec![0, 7, 2]);
        assert_eq!((&list).into_iter().len(), 3);
        assert_eq!((list.get(1), list.get(3)), (Some(7), None));
        assert_eq!(list.iter().position(|s| s == 0), Some(2));
    }

    /// A saved list longer than any game's seats is refused as it is read, not cut, and so is
    /// a seat no byte holds; a seat within a byte is left to the state's checks.
    #[test]
    fn a_list_longer_than_the_most_seats_or_a_seat_past_a_byte_is_refused() {
        let long = serde_json::to_string(&vec![0; MAX_SEATS + 1]).expect("text");
        let e = serde_json::from_str::<SeatList>(&long).expect_err("too long");
        assert!(e.to_string().contains("at most"), "{e}");
        let full = serde_json::to_string(&(0..MAX_SEATS).collect::<Vec<_>>()).expect("text");
        let read: SeatList = serde_json::from_str(&full).expect("reads");
        assert_eq!(read.len(), MAX_SEATS);
        for seat in [256, usize::MAX] {
            let e = serde_json::from_str::<SeatList>(&format!("[0,{seat}]")).expect_err("refused");
            assert!(
                e.to_string()
                    .contains(&format!("seat {seat} does not exist")),
                "{e}"
            );
        }
        let read: SeatList = serde_json::from_str("[255]").expect("left to the state's checks");
        assert_eq!(read.first(), Some(255));
    }
}
