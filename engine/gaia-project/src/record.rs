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

mod fast;
mod parts;
mod research;

pub use parts::{PartAt, WalkStop};
pub use research::Research;

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
    /// The faction of each seat, when the record names them (`null`: not chosen yet, as the
    /// platform writes a game that stopped before every seat chose).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub factions: Vec<Option<String>>,
    /// The recording engine's options (faction-board family and revision, auction mode, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Value>,
    /// Per seat, the faction board overlay the recording engine stored for it (null: none
    /// stored, so the options decide).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_variants: Option<Vec<Option<Value>>>,
    /// `replay` when an older engine recorded the game: its stored boards are what was played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_mode: Option<String>,
    /// The recording platform's engine version (present in the platform's records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_version: Option<String>,
    /// The seed the recording engine drew the setup from (the platform's records), kept by
    /// logs of games played on this record's setup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Value>,
    /// Variants the game was played with (older records written by `orrery simulate`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<String>,
    /// The content stack the game was played on (records written by `orrery simulate`): the
    /// content folder and variants, paths relative to the record and absolute, as the command
    /// line saves them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Value>,
}

/// What a JSON value is, for errors: `a list`, `the number 5`, `the text "x"`.
fn kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(t) if t.chars().count() <= 40 => format!("the text {v}"),
        Value::String(_) => "a long text".into(),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// The family of faction boards that means "no overlay".
pub const STANDARD_BOARDS: &str = "standard";

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
    /// Research levels (the tracks shared by the seats of a record read alike).
    pub research: Research,
}

/// A final score.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FinalScore {
    /// Faction (`null` for a seat that had not chosen one).
    pub faction: Option<String>,
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
        let record: Record = serde_json::from_value(v).map_err(|e| format!("not a record: {e}"))?;
        record.check()?;
        Ok(record)
    }

    /// Reads a record from JSON text, decoding it in one pass (no intermediate JSON tree).
    /// A key repeated in any object is refused ([`orrery_core::unique_keys`]). The snapshots
    /// of a plain record are decoded by hand straight into their types; anything that path
    /// is unsure of is read (and refused, worded) by serde.
    pub fn from_json_text(text: &str) -> Result<Record, String> {
        if let Some(record) = fast::read(text) {
            return Ok(record);
        }
        orrery_core::unique_keys::check(text).map_err(|e| format!("not a record: {e}"))?;
        let record: Record =
            serde_json::from_str(text).map_err(|e| format!("not a record: {e}"))?;
        record.check()?;
        Ok(record)
    }

    /// What decoding cannot say: at most one faction per seat, and the options Orrery reads
    /// (`factionVariant`, `factionVariantVersion`, `layout`, `map`, `auction`) of their type.
    /// Other options of the platform (`noFedCheck`, …) are left to it, as before.
    fn check(&self) -> Result<(), String> {
        if self.factions.len() > self.players {
            return Err(format!(
                "the record names {} factions for {} players",
                self.factions.len(),
                self.players
            ));
        }
        if let Some(c) = &self.content {
            if !c.is_object() {
                return Err(format!("content must be an object, not {}", kind(c)));
            }
        }
        let Some(options) = &self.options else {
            return Ok(());
        };
        let Some(options) = options.as_object() else {
            return Err(format!("options must be an object, not {}", kind(options)));
        };
        for (key, value) in options {
            let ok = match key.as_str() {
                "factionVariant" | "layout" => value.is_string(),
                "factionVariantVersion" => value.as_u64().is_some_and(|v| u32::try_from(v).is_ok()),
                "map" => value.is_object() || value.is_null(),
                "auction" => value.is_string() || value.is_boolean() || value.is_null(),
                _ => true,
            };
            if !ok {
                let want = match key.as_str() {
                    "factionVariantVersion" => "a revision number (0 or more)",
                    "map" => "an object",
                    "auction" => "a mode name, true or false",
                    _ => "a name (text)",
                };
                return Err(format!("options.{key} must be {want}, not {}", kind(value)));
            }
        }
        Ok(())
    }

    /// The game setup it describes: the recorded one, or one drawn from the `init` seed.
    pub fn game_setup(&self, content: &Content) -> Result<Setup, String> {
        self.check_factions(content)?;
        let Some(setup) = &self.setup else {
            let seed = self
                .moves
                .first()
                .and_then(|m| m.split_whitespace().nth(2))
                .ok_or("a log without a setup needs `init N seed` as its first move")?;
            return Setup::random(
                content,
                self.players,
                &mut orrery_core::rng::Rng::from_text(seed),
            )
            .map_err(|e| e.to_string());
        };
        Ok(Setup {
            players: self.players,
            ..setup.clone()
        })
    }
}

impl Record {
    /// The faction-board family and revision the options name (`options.factionVariant`,
    /// `options.factionVariantVersion`); `None` for the standard boards.
    pub fn board_family(&self) -> Option<(String, Option<u32>)> {
        let o = self.options.as_ref()?;
        let family = o.get("factionVariant")?.as_str()?;
        if family == STANDARD_BOARDS {
            return None;
        }
        let version = o
            .get("factionVariantVersion")
            .and_then(Value::as_u64)
            .and_then(|v| u32::try_from(v).ok());
        Some((family.to_string(), version))
    }

    /// The variant overlays that give this record's options, chosen among `available` (names
    /// of overlays): `auction-<mode>` for a faction auction; for faction-board family F and
    /// revision V, the newest `F-N` with N ≤ V (the
    /// newest of all without V), then `F-N-<players>p` when one is tied to this player count.
    ///
    /// # Errors
    ///
    /// When the record names a family with no overlay at or below its revision.
    pub fn board_variants(&self, available: &[String]) -> Result<Vec<String>, String> {
        let mut names = Vec::new();
        // The auction mode (`options.auction`; `true` is the platform's older spelling of
        // bidding while choosing) is the overlay `auction-<mode>`.
        match self.options.as_ref().and_then(|o| o.get("auction")) {
            None | Some(Value::Null) | Some(Value::Bool(false)) => {}
            Some(mode) => {
                let mode = match mode {
                    Value::Bool(true) => "bid-while-choosing",
                    Value::String(m) => m.as_str(),
                    other => return Err(format!("auction option {other} is not a mode")),
                };
                let name = format!("auction-{mode}");
                if !available.contains(&name) {
                    return Err(format!("no variant {name} for the auction mode \"{mode}\""));
                }
                names.push(name);
            }
        }
        let Some((family, version)) = self.board_family() else {
            return Ok(names);
        };
        let revision = |name: &str| -> Option<u32> {
            name.strip_prefix(&family)?.strip_prefix('-')?.parse().ok()
        };
        let best = available
            .iter()
            .filter_map(|n| revision(n))
            .filter(|n| version.is_none_or(|v| *n <= v))
            .max()
            .ok_or_else(|| {
                let v = version.map_or("any".to_string(), |v| v.to_string());
                format!("no faction boards \"{family}\" of revision {v} in the content's variants")
            })?;
        names.push(format!("{family}-{best}"));
        let tied = format!("{family}-{best}-{}p", self.players);
        if available.contains(&tied) {
            names.push(tied);
        }
        Ok(names)
    }

    /// The boards stored per seat (`player_variants`) as an overlay in the notation of
    /// content overlays, for records an older engine recorded (`replay_mode: "replay"`):
    /// a stored start string (`3k,4o,15c,up-nav`) sets the board's start and research levels,
    /// `+…` strings its base income, `power` its starting power. `None` when the record stores
    /// no board.
    ///
    /// # Errors
    ///
    /// A stored board this reading does not cover (another field, a special action, an empty
    /// board) is an error naming the seat and what it holds.
    pub fn stored_boards_overlay(&self) -> Result<Option<String>, String> {
        let Some(stored) = &self.player_variants else {
            return Ok(None);
        };
        if self.replay_mode.as_deref() != Some("replay") {
            return Ok(None);
        }
        let mut changes = Vec::new();
        for (seat, board) in stored.iter().enumerate() {
            let Some(board) = board else { continue };
            let faction = self
                .factions
                .get(seat)
                .and_then(Option::as_deref)
                .ok_or_else(|| {
                    format!("player_variants names seat {} without a faction", seat + 1)
                })?;
            let obj = board.as_object().filter(|o| !o.is_empty()).ok_or_else(|| {
                format!("seat {}: an empty stored board is not supported", seat + 1)
            })?;
            for (key, value) in obj {
                match key.as_str() {
                    "income" => {
                        let list = value.as_array().ok_or_else(|| {
                            format!("seat {}: stored income is not a list", seat + 1)
                        })?;
                        stored_income(faction, seat, list, &mut changes)?;
                    }
                    "power" => {
                        let area = |k: &str| value.get(k).and_then(Value::as_u64).unwrap_or(0);
                        changes.push(set_change(
                            faction,
                            "board.power",
                            serde_json::json!([area("area1"), area("area2"), 0]),
                        ));
                    }
                    other => {
                        return Err(format!(
                            "seat {}: stored board field \"{other}\" is not supported",
                            seat + 1
                        ))
                    }
                }
            }
        }
        let overlay = serde_json::json!({
            "name": "stored-boards",
            "description": "the faction boards the record stores per seat",
            "changes": changes,
        });
        Ok(Some(overlay.to_string()))
    }
}

fn set_change(faction: &str, path: &str, value: Value) -> Value {
    serde_json::json!({"set": {"kind": "faction", "id": faction, "path": path, "value": value}})
}

/// Amounts by code, as JSON.
type Amounts = serde_json::Map<String, Value>;

/// Amounts of a stored reward string (`3k,4o,15c`), with `up-<track>` items counted apart.
fn stored_rewards(text: &str, seat: usize) -> Result<(Amounts, BTreeMap<String, u32>), String> {
    let mut amounts = serde_json::Map::new();
    let mut ups: BTreeMap<String, u32> = BTreeMap::new();
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        if let Some(track) = item.strip_prefix("up-") {
            *ups.entry(track.to_string()).or_default() += 1;
            continue;
        }
        let digits = item.bytes().take_while(u8::is_ascii_digit).count();
        let (n, code) = item.split_at(digits);
        let n: u64 = if n.is_empty() {
            1
        } else {
            n.parse()
                .map_err(|_| format!("seat {}: bad stored reward \"{item}\"", seat + 1))?
        };
        if code.is_empty() || !code.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(format!("seat {}: bad stored reward \"{item}\"", seat + 1));
        }
        let old = amounts.get(code).and_then(Value::as_u64).unwrap_or(0);
        amounts.insert(code.to_string(), (old + n).into());
    }
    Ok((amounts, ups))
}

/// Changes for a stored income list: the start string, then base income strings.
fn stored_income(
    faction: &str,
    seat: usize,
    list: &[Value],
    changes: &mut Vec<Value>,
) -> Result<(), String> {
    let mut income = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let text = item
            .as_str()
            .ok_or_else(|| format!("seat {}: stored income {i} is not text", seat + 1))?;
        if let Some(each_round) = text.strip_prefix('+') {
            let (amounts, ups) = stored_rewards(each_round, seat)?;
            if !ups.is_empty() {
                return Err(format!("seat {}: research in income \"{text}\"", seat + 1));
            }
            // Charges and token gains are separate income items, so they can be ordered.
            let power = |c: &str| c == "pw" || c == "t";
            let rest: serde_json::Map<String, Value> = amounts
                .iter()
                .filter(|(c, _)| !power(c))
                .map(|(c, n)| (c.clone(), n.clone()))
                .collect();
            if !rest.is_empty() {
                income.push(serde_json::json!({ "gain": rest }));
            }
            for (code, n) in amounts.iter().filter(|(c, _)| power(c)) {
                income.push(serde_json::json!({"gain": {code: n}}));
            }
        } else if i == 0 && !text.starts_with("=>") {
            let (amounts, ups) = stored_rewards(text, seat)?;
            changes.push(set_change(faction, "board.start", Value::Object(amounts)));
            changes.push(set_change(
                faction,
                "board.research",
                serde_json::json!(ups),
            ));
        } else {
            return Err(format!(
                "seat {}: stored income \"{text}\" is not supported",
                seat + 1
            ));
        }
    }
    if !income.is_empty() {
        changes.push(set_change(faction, "board.income", Value::Array(income)));
    }
    Ok(())
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

fn compare(
    game: &Game,
    codes: &mut SnapshotCodes,
    snap: &Snapshot,
    index: usize,
    line: &str,
) -> Result<(), Mismatch> {
    for (seat, want) in snap.players.iter().enumerate() {
        if codes.seat_matches(game, seat, want) {
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

/// Where the amounts a snapshot holds are among the content's resources, looked up once a
/// replay (a code the content lacks reads 0, as [`crate::player::Player::resource`] does).
struct SnapshotCodes {
    /// The record's and the seats' research tracks found the same.
    same_tracks: research::SameTracks,
    vp: Option<usize>,
    c: Option<usize>,
    o: Option<usize>,
    k: Option<usize>,
    q: Option<usize>,
}

impl SnapshotCodes {
    fn of(content: &Content) -> SnapshotCodes {
        let at = |code: &str| crate::lookup::index_of(&content.rules.resources, code);
        SnapshotCodes {
            same_tracks: research::SameTracks::default(),
            vp: at("vp"),
            c: at("c"),
            o: at("o"),
            k: at("k"),
            q: at("q"),
        }
    }

    /// Whether a seat matches its snapshot (research: every recorded track at its level),
    /// read straight from the game without building a snapshot.
    fn seat_matches(&mut self, game: &Game, seat: usize, want: &SeatSnapshot) -> bool {
        let p = &game.state.players[seat];
        let amount = |at: Option<usize>| at.map_or(0, |i| p.resources[i]);
        let brainstone = p.power.special.and_then(|s| s.area).map(|a| match a {
            Area::I => "area1",
            Area::II => "area2",
            Area::III => "area3",
            Area::Gaia => "gaia",
        });
        amount(self.vp) == want.vp
            && amount(self.c) == want.c
            && amount(self.o) == want.o
            && amount(self.k) == want.k
            && amount(self.q) == want.q
            && p.power.areas == want.pw
            && brainstone == want.brainstone.as_deref()
            && want.research.matches(&p.research, &mut self.same_tracks)
    }
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
    replay_from(content, record, setup, until, check)
}

/// [`replay`] of a record that is not needed afterwards: its setup is moved into the game
/// instead of copied.
pub fn replay_owned(
    content: Arc<Content>,
    mut record: Record,
    until: Option<usize>,
    check: bool,
) -> Result<Game, (Mismatch, Option<Box<Game>>)> {
    let setup = match record.setup.take() {
        Some(setup) => {
            record
                .check_factions(&content)
                .map_err(|e| (Mismatch::BadRecord(e), None))?;
            Setup {
                players: record.players,
                ..setup
            }
        }
        None => record
            .game_setup(&content)
            .map_err(|e| (Mismatch::BadRecord(e), None))?,
    };
    replay_from(content, &record, setup, until, check)
}

impl Record {
    /// Every faction the record names is one of the content's.
    fn check_factions(&self, content: &Content) -> Result<(), String> {
        match self
            .factions
            .iter()
            .flatten()
            .find(|f| content.faction(f).is_none())
        {
            Some(f) => Err(format!(
                "the record names faction \"{f}\", which the content lacks"
            )),
            None => Ok(()),
        }
    }
}

/// [`replay`] from the record's setup, already drawn or copied.
fn replay_from(
    content: Arc<Content>,
    record: &Record,
    setup: Setup,
    until: Option<usize>,
    check: bool,
) -> Result<Game, (Mismatch, Option<Box<Game>>)> {
    let mut codes = SnapshotCodes::of(&content);
    let mut game =
        Game::new(content, setup).map_err(|e| (Mismatch::BadRecord(e.to_string()), None))?;
    let snaps: BTreeMap<usize, &Snapshot> = record.snapshots.iter().map(|s| (s.i, s)).collect();
    let last = until
        .unwrap_or(record.moves.len().saturating_sub(1))
        .min(record.moves.len().saturating_sub(1));
    for (i, line) in record.moves.iter().enumerate().take(last + 1).skip(1) {
        if let Err(e) = game.apply_text_unguarded(line) {
            // Lines are applied with no undo copy (a refused line leaves the game part-way
            // through it), so the game before a refused line is replayed again for the
            // report, from the setup the game was made from (which play never changes).
            let (content, setup) = (game.content.clone(), Setup::clone(&game.state.setup));
            drop(game);
            let before = replay_from(content, record, setup, Some(i - 1), false).ok();
            return Err((
                Mismatch::Refused {
                    index: i,
                    line: line.clone(),
                    reason: e.0,
                },
                before.map(Box::new),
            ));
        }
        if check {
            if let Some(s) = snaps.get(&i) {
                compare(&game, &mut codes, s, i, line)
                    .map_err(|m| (m, Some(Box::new(game.clone()))))?;
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
                            field: format!(
                                "{}.final",
                                f.faction.clone().unwrap_or_else(|| game.seat_name(seat))
                            ),
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

#[cfg(test)]
mod tests {
    use super::Record;

    fn read(options: &str, factions: &str) -> Result<Record, String> {
        Record::from_json_text(&format!(
            r#"{{"players": 2, "moves": ["init 2 s"], "factions": {factions}, "options": {options}}}"#
        ))
    }

    #[test]
    fn options_and_factions_are_checked_strictly() {
        let good = r#"{"factionVariant": "beta", "factionVariantVersion": 2, "layout": "standard",
                       "map": {"sectors": []}, "auction": "choose-bid"}"#;
        assert!(read(good, r#"["a", "b"]"#).is_ok());
        assert!(
            read(r#"{"noFedCheck": true}"#, "[]").is_ok(),
            "the platform's other options"
        );
        for (options, says) in [
            (
                r#"{"factionVariant": ["beta-0"]}"#,
                "options.factionVariant must be a name",
            ),
            (
                r#"{"factionVariantVersion": "x"}"#,
                "must be a revision number",
            ),
            (
                r#"{"factionVariantVersion": -1}"#,
                "must be a revision number",
            ),
            (
                r#"{"layout": 5}"#,
                "options.layout must be a name (text), not the number 5",
            ),
            (
                r#"{"map": "x"}"#,
                "options.map must be an object, not the text \"x\"",
            ),
            (r#"{"auction": 3}"#, "options.auction must be a mode name"),
            (r#"[]"#, "options must be an object"),
            (
                r#"{"layout": "a", "layout": "b"}"#,
                "\"layout\" appears twice",
            ),
        ] {
            let e = read(options, "[]").expect_err(options);
            assert!(e.contains(says), "{options}: {e}");
        }
        let many: Vec<String> = (0..1002).map(|i| format!("\"f{i}\"")).collect();
        let e = read("{}", &format!("[{}]", many.join(","))).unwrap_err();
        assert!(e.contains("1002 factions for 2 players"), "{e}");
        // The same checks hold for a record read from a JSON tree.
        let v = serde_json::json!({"players": 2, "moves": ["init 2 s"], "options": {"layout": 5}});
        assert!(Record::from_json(&v).is_err());
    }
}
