//! The rules of Claims: seats take turns placing one of their pieces on an empty hex; a piece
//! scores its points plus what the content's bonus hook gives for the placer's pieces beside
//! it. The game ends when the seat to move cannot place.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use orrery_core::game_module::{GameModule, LinePerAction, Start};
use orrery_core::hex::Hex;
use orrery_core::play_api::{Evaluate, Playable};
use orrery_core::rng::Rng;
use serde_json::{json, Value};

use crate::content::{self, Content};

/// Most operations one call of the bonus hook may run.
const HOOK_OPERATIONS: u64 = 10_000;
/// Most points the hook may give for one piece.
const MAX_BONUS: i64 = 100;

/// One move: a piece of the mover's onto a hex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The piece's id.
    pub piece: String,
    /// Where.
    pub at: Hex,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.piece, self.at)
    }
}

/// A game of Claims.
#[derive(Debug, Clone)]
pub struct Claims {
    content: Arc<Content>,
    /// The board's hexes, in a fixed order.
    board: Vec<Hex>,
    /// Per hex of `board`: the seat and piece index standing there.
    taken: Vec<Option<(usize, usize)>>,
    /// Per seat, pieces left by piece index.
    left: [Vec<u8>; 2],
    /// Per seat, points from pieces and from the hook.
    points: [[i32; 2]; 2],
    /// Moves made.
    moves: usize,
}

impl Claims {
    /// A new game on `content`.
    pub fn new(content: Arc<Content>) -> Claims {
        let r = i32::from(content.rules.radius);
        let centre = Hex::new(0, 0);
        let board: Vec<Hex> = (-r..=r)
            .flat_map(|q| (-r..=r).map(move |s| Hex::new(q, s)))
            .filter(|h| h.distance(centre) <= r as u32)
            .collect();
        let left: Vec<u8> = content.pieces.iter().map(|p| p.count).collect();
        Claims {
            taken: vec![None; board.len()],
            board,
            left: [left.clone(), left],
            points: [[0; 2]; 2],
            moves: 0,
            content,
        }
    }

    fn seat(&self) -> usize {
        self.moves % 2
    }

    /// What the bonus hook gives for `seat` placing at `at`: it sees the ids of the seat's
    /// own pieces beside the hex.
    fn bonus(&self, seat: usize, at: Hex) -> Result<i32, String> {
        let beside: Vec<Value> = at
            .neighbours()
            .iter()
            .filter_map(|n| self.board.iter().position(|h| h == n))
            .filter_map(|i| self.taken[i])
            .filter(|(s, _)| *s == seat)
            .map(|(_, p)| json!(self.content.pieces[p].id))
            .collect();
        let hook = &self.content.rules.bonus;
        let arg = json!({ "neighbours": beside });
        let (result, _) = self.content.scripts.call_json_counted(
            &hook.script,
            &hook.function,
            &[arg],
            HOOK_OPERATIONS,
        );
        let value = result.map_err(|e| format!("the bonus hook failed: {e}"))?;
        match value.as_i64() {
            Some(n) if (0..=MAX_BONUS).contains(&n) => Ok(n as i32),
            _ => Err(format!(
                "the bonus hook returned {value}; it must return a whole number from 0 to {MAX_BONUS}"
            )),
        }
    }
}

impl Playable for Claims {
    type Action = Place;

    fn seat_count(&self) -> usize {
        2
    }

    fn to_decide(&self) -> Option<usize> {
        (!self.is_over()).then(|| self.seat())
    }

    fn legal(&self) -> Vec<Place> {
        let seat = self.seat();
        let mut out = Vec::new();
        for (p, piece) in self.content.pieces.iter().enumerate() {
            if self.left[seat][p] == 0 {
                continue;
            }
            for (i, h) in self.board.iter().enumerate() {
                if self.taken[i].is_none() {
                    out.push(Place {
                        piece: piece.id.clone(),
                        at: *h,
                    });
                }
            }
        }
        out
    }

    /// Checks everything, and asks the hook, before changing anything.
    fn play(&mut self, action: &Place) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over".into());
        }
        let seat = self.seat();
        let p = (self.content.pieces.iter())
            .position(|x| x.id == action.piece)
            .ok_or_else(|| format!("no piece `{}`", action.piece))?;
        if self.left[seat][p] == 0 {
            return Err(format!("seat {} has no {} left", seat + 1, action.piece));
        }
        let i = (self.board.iter())
            .position(|h| *h == action.at)
            .ok_or_else(|| format!("{} is not on the board", action.at))?;
        if self.taken[i].is_some() {
            return Err(format!("{} is taken", action.at));
        }
        let bonus = self.bonus(seat, action.at)?;
        self.taken[i] = Some((seat, p));
        self.left[seat][p] -= 1;
        self.points[seat][0] += self.content.pieces[p].points;
        self.points[seat][1] += bonus;
        self.moves += 1;
        Ok(())
    }

    fn is_over(&self) -> bool {
        let seat = self.seat();
        let free = self.taken.iter().any(Option::is_none);
        !free || self.left[seat].iter().all(|&n| n == 0)
    }

    fn score(&self) -> Vec<i32> {
        self.points.iter().map(|p| p[0] + p[1]).collect()
    }

    fn decisions_done(&self) -> usize {
        self.moves
    }

    fn is_free(&self, _: &Place) -> bool {
        false
    }
}

impl Evaluate for Claims {
    /// The score, plus half the points of the pieces still to place.
    fn value(&self, seat: usize) -> f64 {
        let to_come: i32 = (self.content.pieces.iter().enumerate())
            .map(|(p, piece)| piece.points * i32::from(self.left[seat][p]))
            .sum();
        f64::from(self.score()[seat])
            + if self.is_over() {
                0.0
            } else {
                f64::from(to_come) / 2.0
            }
    }
}

impl GameModule for Claims {
    const ID: &'static str = "claims";
    const CONTENT_DIR: &'static str = "claims";
    type Content = Content;
    type Setup = ();
    type Scribe = LinePerAction;

    fn load(
        files: &dyn orrery_core::files::ContentFiles,
        overlays: &[orrery_core::files::OverlaySource],
    ) -> Result<Content, Vec<orrery_core::diagnostics::Diagnostic>> {
        content::load(files, overlays)
    }

    fn summary(content: &Content) -> String {
        format!(
            "claims: a board of radius {}, {} kinds of piece",
            content.rules.radius,
            content.pieces.len()
        )
    }

    fn schemas() -> Vec<(&'static str, Value)> {
        content::schemas()
    }

    /// Seats have no identities in Claims.
    fn identities(_: &Content) -> Vec<String> {
        Vec::new()
    }

    fn start(
        content: &Arc<Content>,
        how: Start<'_, ()>,
        _: &mut Rng,
        _: &mut LinePerAction,
        _: &mut Vec<String>,
    ) -> Result<Claims, String> {
        if how.players != 2 {
            return Err(format!("Claims is for 2 players, not {}", how.players));
        }
        Ok(Claims::new(content.clone()))
    }

    fn identity(&self, seat: usize) -> String {
        format!("seat {}", seat + 1)
    }

    fn vp_sources(&self, seat: usize) -> BTreeMap<String, i32> {
        BTreeMap::from([
            ("pieces".to_string(), self.points[seat][0]),
            ("bonus".to_string(), self.points[seat][1]),
        ])
    }

    fn winners(&self) -> Vec<usize> {
        if !self.is_over() {
            return Vec::new();
        }
        let s = self.score();
        let top = s.iter().copied().max().unwrap_or(0);
        (0..2).filter(|&i| s[i] == top).collect()
    }

    fn save_state(&self) -> Result<Value, String> {
        Ok(json!({
            "taken": self.taken,
            "left": self.left,
            "points": self.points,
            "moves": self.moves,
        }))
    }

    /// A state whose sizes or counts do not fit the content is refused.
    fn restore(content: Arc<Content>, state: Value) -> Result<Claims, String> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Saved {
            taken: Vec<Option<(usize, usize)>>,
            left: [Vec<u8>; 2],
            points: [[i32; 2]; 2],
            moves: usize,
        }
        let saved: Saved =
            serde_json::from_value(state).map_err(|e| format!("not a saved game: {e}"))?;
        let mut game = Claims::new(content);
        let pieces = game.content.pieces.len();
        // No game scores more than every hex at the best piece and the hook's most.
        let best = game
            .content
            .pieces
            .iter()
            .map(|p| p.points)
            .max()
            .unwrap_or(0);
        let most = game.board.len() as i32 * (best + MAX_BONUS as i32);
        let fits = saved.taken.len() == game.board.len()
            && (saved.taken.iter().flatten()).all(|&(s, p)| s < 2 && p < pieces)
            && saved.left.iter().all(|l| {
                l.len() == pieces
                    && l.iter()
                        .zip(&game.content.pieces)
                        .all(|(n, p)| *n <= p.count)
            })
            && saved.moves <= game.board.len()
            && (saved.points.iter().flatten()).all(|p| (0..=most).contains(p));
        if !fits {
            return Err("the saved game does not fit this content".into());
        }
        game.taken = saved.taken;
        game.left = saved.left;
        game.points = saved.points;
        game.moves = saved.moves;
        Ok(game)
    }

    fn log(&self, lines: &[String], _: &Value) -> Value {
        json!({ "game": Self::ID, "moves": lines, "scores": self.score() })
    }
}
