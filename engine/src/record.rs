//! Recorded games in the conformance record format: setup, move lines, snapshots, final
//! scores; and replaying them against a game, comparing every snapshot.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::content::Content;
use crate::game::{Game, Setup};
use crate::notation::Word;
use crate::power::Area;

/// A recorded game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    /// Number of players.
    pub players: usize,
    /// Setup as recorded; without one, the setup is drawn from the seed of `init N seed`.
    #[serde(default)]
    pub setup: Option<Setup>,
    /// Move lines; the first is `init N seed`.
    pub moves: Vec<String>,
    /// State after each move (optional).
    #[serde(default)]
    pub snapshots: Vec<Snapshot>,
    /// Final scores (optional; written `final` in records).
    #[serde(default, alias = "final")]
    pub final_scores: Option<Vec<FinalScore>>,
    /// Whether the game reached final scoring.
    #[serde(default)]
    pub finished: bool,
    /// The recording platform's engine version (present in the platform's records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_version: Option<String>,
    /// Variants the game was played with (records written by `orrery simulate`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<String>,
}

/// One snapshot.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Snapshot {
    /// Index into the moves.
    pub i: usize,
    /// Per seat.
    pub players: Vec<SeatSnapshot>,
}

/// One seat in a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatSnapshot {
    /// VP.
    pub vp: i32,
    /// Credits.
    pub c: i32,
    /// Ore.
    pub o: i32,
    /// Knowledge.
    pub k: i32,
    /// QIC.
    pub q: i32,
    /// Power areas I, II, III, Gaia (special token not counted).
    pub pw: [u32; 4],
    /// Where the special token is.
    pub brainstone: Option<Word>,
    /// Research levels (short words kept inline: decoding a record allocates no key).
    pub research: BTreeMap<Word, u32>,
}

/// A final score.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FinalScore {
    /// Faction.
    pub faction: String,
    /// VP.
    pub vp: i32,
}

impl Record {
    /// Reads a record from JSON.
    pub fn from_json(v: &Value) -> Result<Record, String> {
        let mut v = v.clone();
        if let Some(obj) = v.as_object_mut() {
            if let Some(f) = obj.remove("final") {
                obj.insert("final_scores".into(), f);
            }
        }
        serde_json::from_value(v).map_err(|e| format!("not a record: {e}"))
    }

    /// Reads a record from JSON text, decoding it in one pass (no intermediate JSON tree).
    pub fn from_json_text(text: &str) -> Result<Record, String> {
        serde_json::from_str(text).map_err(|e| format!("not a record: {e}"))
    }

    /// The game setup it describes: the recorded one, or one drawn from the `init` seed.
    pub fn game_setup(&self, content: &Content) -> Result<Setup, String> {
        let Some(setup) = &self.setup else {
            let seed = self
                .moves
                .first()
                .and_then(|m| m.split_whitespace().nth(2))
                .ok_or("a log without a setup needs `init N seed` as its first move")?;
            return Setup::random(content, self.players, &mut crate::rng::Rng::from_text(seed))
                .map_err(|e| e.to_string());
        };
        Ok(Setup {
            players: self.players,
            ..setup.clone()
        })
    }
}

/// A seat as a snapshot would show it.
pub fn seat_snapshot(game: &Game, seat: usize) -> SeatSnapshot {
    let p = &game.state.players[seat];
    let c = &game.content;
    let brainstone = p.power.special.and_then(|s| s.area).map(|a| {
        match a {
            Area::I => "area1",
            Area::II => "area2",
            Area::III => "area3",
            Area::Gaia => "gaia",
        }
        .into()
    });
    SeatSnapshot {
        vp: p.resource(c, "vp"),
        c: p.resource(c, "c"),
        o: p.resource(c, "o"),
        k: p.resource(c, "k"),
        q: p.resource(c, "q"),
        pw: p.power.areas,
        brainstone,
        research: p.research.iter().map(|(k, v)| (k.clone(), *v)).collect(),
    }
}

/// How a replay went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// The record itself could not be read.
    BadRecord(String),
    /// A move was refused.
    Refused {
        /// Move index.
        index: usize,
        /// The line.
        line: String,
        /// Why.
        reason: String,
    },
    /// A snapshot differs.
    Differs {
        /// Move index.
        index: usize,
        /// The line.
        line: String,
        /// Field, e.g. `<faction>.vp`.
        field: String,
        /// Recorded value.
        expected: String,
        /// Replayed value.
        got: String,
    },
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::BadRecord(e) => write!(f, "{e}"),
            Mismatch::Refused {
                index,
                line,
                reason,
            } => write!(f, "move {index} \"{line}\": {reason}"),
            Mismatch::Differs {
                index,
                line,
                field,
                expected,
                got,
            } => {
                write!(
                    f,
                    "move {index} \"{line}\": {field} expected {expected} got {got}"
                )
            }
        }
    }
}

fn compare(game: &Game, snap: &Snapshot, index: usize, line: &str) -> Result<(), Mismatch> {
    for (seat, want) in snap.players.iter().enumerate() {
        if seat_matches(game, seat, want) {
            continue;
        }
        // Only a difference is worth formatting: find the first field that differs.
        let got = seat_snapshot(game, seat);
        let name = game.seat_name(seat);
        let fields: [(&str, String, String); 8] = [
            ("vp", want.vp.to_string(), got.vp.to_string()),
            ("c", want.c.to_string(), got.c.to_string()),
            ("o", want.o.to_string(), got.o.to_string()),
            ("k", want.k.to_string(), got.k.to_string()),
            ("q", want.q.to_string(), got.q.to_string()),
            ("pw", format!("{:?}", want.pw), format!("{:?}", got.pw)),
            (
                "brainstone",
                format!("{:?}", want.brainstone),
                format!("{:?}", got.brainstone),
            ),
            (
                "research",
                format!("{:?}", want.research),
                format!("{:?}", got.research),
            ),
        ];
        for (field, e, g) in fields {
            if e != g {
                return Err(Mismatch::Differs {
                    index,
                    line: line.to_string(),
                    field: format!("{name}.{field}"),
                    expected: e,
                    got: g,
                });
            }
        }
    }
    Ok(())
}

/// Whether a seat matches its snapshot (research: every recorded track at its level), read
/// straight from the game without building a snapshot.
fn seat_matches(game: &Game, seat: usize, want: &SeatSnapshot) -> bool {
    let p = &game.state.players[seat];
    let c = &game.content;
    let brainstone = p.power.special.and_then(|s| s.area).map(|a| match a {
        Area::I => "area1",
        Area::II => "area2",
        Area::III => "area3",
        Area::Gaia => "gaia",
    });
    p.resource(c, "vp") == want.vp
        && p.resource(c, "c") == want.c
        && p.resource(c, "o") == want.o
        && p.resource(c, "k") == want.k
        && p.resource(c, "q") == want.q
        && p.power.areas == want.pw
        && brainstone == want.brainstone.as_deref()
        && want
            .research
            .iter()
            .all(|(t, l)| p.research.get(t.as_str()).copied().unwrap_or(0) == *l)
}

/// Replays a record move by move, comparing each snapshot after its move is applied (a
/// snapshot is never read before). Returns the game at the end.
pub fn replay(
    content: Arc<Content>,
    record: &Record,
    until: Option<usize>,
    check: bool,
) -> Result<Game, (Mismatch, Option<Box<Game>>)> {
    let setup = record
        .game_setup(&content)
        .map_err(|e| (Mismatch::BadRecord(e), None))?;
    let mut game =
        Game::new(content, setup).map_err(|e| (Mismatch::BadRecord(e.to_string()), None))?;
    let snaps: BTreeMap<usize, &Snapshot> = record.snapshots.iter().map(|s| (s.i, s)).collect();
    let last = until
        .unwrap_or(record.moves.len().saturating_sub(1))
        .min(record.moves.len().saturating_sub(1));
    for (i, line) in record.moves.iter().enumerate().take(last + 1).skip(1) {
        if let Err(e) = game.apply_text(line) {
            return Err((
                Mismatch::Refused {
                    index: i,
                    line: line.clone(),
                    reason: e.0,
                },
                Some(Box::new(game)),
            ));
        }
        if check {
            if let Some(s) = snaps.get(&i) {
                compare(&game, s, i, line).map_err(|m| (m, Some(Box::new(game.clone()))))?;
            }
        }
    }
    if check && until.is_none() && record.finished {
        if let Some(finals) = &record.final_scores {
            for (seat, f) in finals.iter().enumerate() {
                let got = game.scores().get(seat).copied().unwrap_or(0);
                if got != f.vp {
                    return Err((
                        Mismatch::Differs {
                            index: record.moves.len() - 1,
                            line: "final scores".into(),
                            field: format!("{}.final", f.faction),
                            expected: f.vp.to_string(),
                            got: got.to_string(),
                        },
                        Some(Box::new(game)),
                    ));
                }
            }
        }
    }
    Ok(game)
}
