//! What `replay`, `moves`, `trace` and `play` (written once for every game over
//! [`GameModule`](orrery_core::game_module::GameModule)) ask of Gaia Project beyond the game
//! itself: the variants a recorded game is played with, the script calls it makes in words and
//! as data, the free conversions `play` lists as one entry, and what a part names does.

use orrery_core::game_module::{ActionGroup, GameModule, LogVariants, ScriptCalls};
use serde_json::{json, Value};

use crate::content::describe;
use crate::game::{Game, HookCall, HookCalls};
use crate::notation::Command;
use crate::record::Record;

/// The variant of the platform that recorded the conformance games, applied to its records
/// (those that name an engine version) unless left out.
pub const PLATFORM_VARIANT: &str = "boardgamers";

/// The name a record's stored per-seat boards go by in a stack.
pub const STORED_BOARDS: &str = "stored-boards";

/// The variants a record is replayed with: those it names (records of `orrery simulate` name
/// the variants they were played with), else the platform's for the platform's records; then
/// its faction boards and auction mode by name among `available`, and its stored per-seat
/// boards written out.
pub fn log_variants(log: &Value, available: &[String]) -> Result<LogVariants, String> {
    let record = read_log(log)?;
    let before = if record.variants.is_empty() && record.engine_version.is_some() {
        vec![PLATFORM_VARIANT.to_string()]
    } else {
        record.variants.clone()
    };
    let after = record.board_variants(available)?;
    let held = record
        .stored_boards_overlay()?
        .map(|text| (STORED_BOARDS.to_string(), text))
        .into_iter()
        .collect();
    Ok(LogVariants {
        before,
        after,
        held,
    })
}

/// A log read as a record: one of Gaia Project (it names no game, or this one).
pub fn read_log(log: &Value) -> Result<Record, String> {
    match log.get("game") {
        None => {}
        Some(Value::String(g)) if g == <Game as GameModule>::ID => {}
        Some(other) => {
            return Err(format!(
                "a log of {other}, not of {}",
                <Game as GameModule>::ID
            ))
        }
    }
    Record::from_json(log)
}

/// The game a record starts with and its moves after the setup line (move 0).
pub fn open_log(
    content: &std::sync::Arc<crate::content::Content>,
    log: &Value,
) -> Result<(Game, Vec<String>), String> {
    let record = read_log(log)?;
    let setup = record.game_setup(content)?;
    let game = Game::new(content.clone(), setup).map_err(|e| e.to_string())?;
    Ok((game, record.moves.into_iter().skip(1).collect()))
}

/// Calls in order, each run of identical calls (same seat, hook and result: condition hooks
/// are asked again after every part) as one with its count.
fn folded(calls: &[HookCall]) -> Vec<(&HookCall, usize)> {
    let mut out: Vec<(&HookCall, usize)> = Vec::new();
    for c in calls {
        match out.last_mut() {
            Some((last, n))
                if last.seat == c.seat
                    && last.script == c.script
                    && last.function == c.function
                    && last.result == c.result =>
            {
                *n += 1
            }
            _ => out.push((c, 1)),
        }
    }
    out
}

/// The hook calls taken from a recording, each run of identical calls folded into one: as
/// a line (`hook <script>.rhai#<function> for <seat> returned […] (2×)`) and as data
/// (`times`, `seat`, `player`, `script`, `function`, `operations`, `returned` or `error`).
pub fn script_calls(game: &Game, calls: &HookCalls) -> ScriptCalls {
    let calls_out = folded(&calls.kept)
        .into_iter()
        .map(|(c, times)| {
            let player = c.seat.map(|s| game.seat_name(s));
            let whose = player
                .as_ref()
                .map_or_else(String::new, |p| format!(" for {p}"));
            let what = match &c.result {
                Ok(r) => format!("returned {r}"),
                Err(e) => format!("failed: {e}"),
            };
            let count = if times > 1 {
                format!(" ({times}×)")
            } else {
                String::new()
            };
            let text = format!("hook {}#{}{whose} {what}{count}", c.script, c.function);
            let mut data = json!({
                "times": times,
                "seat": c.seat,
                "player": player,
                "script": c.script,
                "function": c.function,
                "operations": c.operations,
            });
            match &c.result {
                Ok(r) => data["returned"] = r.clone(),
                Err(e) => data["error"] = e.clone().into(),
            }
            (text, data)
        })
        .collect();
    ScriptCalls {
        calls: calls_out,
        left_out: calls.left_out,
    }
}

/// Spending resources or power and burning power: free conversions, listed by `play` under
/// one `convert` entry.
pub fn action_group(part: &Command) -> Option<ActionGroup> {
    matches!(part, Command::Spend { .. } | Command::Burn(_)).then_some(ActionGroup {
        word: "convert",
        one: "conversion",
        many: "conversions",
        about: "spend resources or power, burn power",
    })
}

/// What the tile, booster, token or board action a part names does, from its effects.
pub fn part_note(game: &Game, part: &Command) -> Option<String> {
    let setup = &game.state.setup;
    let id = match part {
        Command::Booster(id) | Command::Pass(Some(id)) | Command::Action(id) => id.to_string(),
        Command::FedTile(id) => id.to_string(),
        Command::Federation { token, .. } => token.to_string(),
        Command::Tech(pos) | Command::Cover(pos) => setup
            .techs
            .get(pos.as_str())
            .cloned()
            .or_else(|| game.state.adv_left.get(pos.as_str()).map(|w| w.to_string()))?,
        _ => return None,
    };
    describe::by_id(&game.content, &id).filter(|d| !d.is_empty())
}
