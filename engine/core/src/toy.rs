//! A tiny made-up game for the core's unit tests: two seats take one to three stones in turn
//! from a pile; a seat may also count its stones first, a free action that leaves the decision
//! open (as a conversion does in a real game). Each stone held scores one, and taking the last
//! stone scores five more.

use crate::play_api::{Evaluate, Playable};
use std::fmt;

/// What a seat can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// Take this many stones; closes the seat's decision.
    Take(u8),
    /// Count one's stones: free, changes only the count of counts.
    Count,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Take(n) => write!(f, "take {n}"),
            Move::Count => write!(f, "count"),
        }
    }
}

/// The state of a game of stones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stones {
    /// Stones left in the pile.
    pub pile: u8,
    /// Stones each seat holds.
    pub held: [u8; 2],
    /// Turns taken.
    pub turns: usize,
    /// Counts made (free actions taken).
    pub counts: usize,
    /// The seat that took the last stone.
    pub last: Option<usize>,
}

impl Stones {
    /// A new game with `pile` stones.
    pub fn new(pile: u8) -> Stones {
        Stones {
            pile,
            held: [0, 0],
            turns: 0,
            counts: 0,
            last: None,
        }
    }
}

impl Playable for Stones {
    type Action = Move;

    fn seat_count(&self) -> usize {
        2
    }

    fn to_decide(&self) -> Option<usize> {
        (self.pile > 0).then_some(self.turns % 2)
    }

    fn legal(&self) -> Vec<Move> {
        if self.pile == 0 {
            return Vec::new();
        }
        let mut moves: Vec<Move> = (1..=self.pile.min(3)).map(Move::Take).collect();
        moves.push(Move::Count);
        moves
    }

    fn play(&mut self, action: &Move) -> Result<(), String> {
        let seat = self.to_decide().ok_or("the game is over")?;
        match *action {
            Move::Count => self.counts += 1,
            Move::Take(n) if (1..=3).contains(&n) && n <= self.pile => {
                self.pile -= n;
                self.held[seat] += n;
                self.turns += 1;
                if self.pile == 0 {
                    self.last = Some(seat);
                }
            }
            Move::Take(n) => return Err(format!("cannot take {n} of {}", self.pile)),
        }
        Ok(())
    }

    fn is_over(&self) -> bool {
        self.pile == 0
    }

    fn score(&self) -> Vec<i32> {
        (0..2)
            .map(|s| i32::from(self.held[s]) + if self.last == Some(s) { 5 } else { 0 })
            .collect()
    }

    fn decisions_done(&self) -> usize {
        self.turns
    }

    fn is_free(&self, action: &Move) -> bool {
        *action == Move::Count
    }
}

impl Evaluate for Stones {
    /// The score, plus the five for the last stone when the seat can take it now.
    fn value(&self, seat: usize) -> f64 {
        let mut v = f64::from(self.score()[seat]);
        if self.to_decide() == Some(seat) && self.pile <= 3 {
            v += 5.0;
        }
        v
    }

    fn feature_names(&self) -> Vec<String> {
        ["held", "rival held", "pile", "last stone in reach"]
            .map(String::from)
            .to_vec()
    }

    fn features(&self, seat: usize) -> Vec<f64> {
        let reach = self.to_decide() == Some(seat) && self.pile <= 3;
        vec![
            f64::from(self.held[seat]),
            f64::from(self.held[1 - seat.min(1)]),
            f64::from(self.pile),
            f64::from(u8::from(reach)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_move_changes_nothing_and_the_last_stone_scores() {
        let mut g = Stones::new(4);
        let before = g.clone();
        assert!(g.play(&Move::Take(5)).is_err());
        assert!(g.play(&Move::Take(0)).is_err());
        assert_eq!(g, before);
        g.play(&Move::Take(1)).unwrap();
        g.play(&Move::Count).unwrap();
        assert_eq!(g.to_decide(), Some(1));
        g.play(&Move::Take(3)).unwrap();
        assert!(g.is_over());
        assert_eq!(g.score(), vec![1, 8]);
        assert!(g.legal().is_empty());
        assert!(g.play(&Move::Take(1)).is_err());
    }

    /// By default, playing on a game given up returns the game `play` leaves, or `play`'s
    /// refusal.
    #[test]
    fn played_returns_what_play_leaves_or_its_refusal() {
        let g = Stones::new(4);
        let mut want = g.clone();
        want.play(&Move::Take(2)).unwrap();
        assert_eq!(g.clone().played(&Move::Take(2)), Ok(want));
        let refused = g.clone().play(&Move::Take(5)).unwrap_err();
        assert_eq!(g.played(&Move::Take(5)), Err(refused));
    }
}
