//! `orrery trace LOG`: a log replayed line by line, saying for each line what every seat
//! paid and gained and which hooks ran with what they returned — a hook's effect seen without
//! replaying the log twice.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

use orrery_core::game_module::GameModule;
use orrery_gp::game::part_delta::SeatDelta;
use orrery_gp::game::{Game, HookCall, HookCalls};
use serde_json::{json, Value};

use crate::ContentArgs;

/// One line of the log, traced.
struct Traced {
    index: usize,
    line: String,
    /// Seats whose holdings changed, with the change.
    seats: Vec<(usize, SeatDelta)>,
    hooks: HookCalls,
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

/// A hook call as JSON, with how many times in a row it was made alike.
fn call_json(game: &Game, c: &HookCall, times: usize) -> Value {
    let mut v = json!({
        "times": times,
        "seat": c.seat,
        "player": c.seat.map(|s| game.seat_name(s)),
        "script": c.script,
        "function": c.function,
        "operations": c.operations,
    });
    match &c.result {
        Ok(r) => v["returned"] = r.clone(),
        Err(e) => v["error"] = e.clone().into(),
    }
    v
}

/// A hook call as a line: `hook cartographers.rhai#chart for cartographers returned […]`,
/// with `(2×)` when made twice in a row alike.
fn call_text(game: &Game, c: &HookCall, times: usize) -> String {
    let whose = c
        .seat
        .map_or_else(String::new, |s| format!(" for {}", game.seat_name(s)));
    let what = match &c.result {
        Ok(r) => format!("returned {r}"),
        Err(e) => format!("failed: {e}"),
    };
    let times = if times > 1 {
        format!(" ({times}×)")
    } else {
        String::new()
    };
    format!("hook {}#{}{whose} {what}{times}", c.script, c.function)
}

/// Replays the log up to move `until` (default: the end), tracing each line, and prints the
/// trace (JSON with `json`). A refused line ends the trace with exit 1, after the lines
/// before it.
pub fn run(args: &ContentArgs, log: &Path, until: Option<usize>, json: bool) -> ExitCode {
    let (record, content) = match crate::records::load_log(args, log) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let setup = match record.game_setup(&content) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {}: {e}", log.display());
            return ExitCode::from(1);
        }
    };
    let mut game = match Game::new(content, setup) {
        Ok(g) => g,
        Err(e) => {
            errln!("error: {}: {e}", log.display());
            return ExitCode::from(1);
        }
    };
    let total = record.moves.len().saturating_sub(1);
    if let Some(n) = until.filter(|n| *n > total) {
        errln!(
            "error: {} has moves 0 to {total}; --until {n} is out of range",
            log.display()
        );
        return ExitCode::from(1);
    }
    let last = until.unwrap_or(total);
    // Move 0 is the setup line (`init …`), which the game was built from: lines 1 on are traced.
    game.record_hook_calls();
    let mut traced = Vec::new();
    let mut refused = None;
    for (i, line) in record.moves.iter().enumerate().take(last + 1).skip(1) {
        let before: Vec<_> = game.state.players.iter().map(|p| (**p).clone()).collect();
        if let Err(e) = game.apply_text(line) {
            refused = Some((i, line.clone(), e.0, game.take_hook_calls()));
            break;
        }
        let seats = game
            .seat_deltas(&before)
            .into_iter()
            .enumerate()
            .filter(|(_, d)| !d.is_empty())
            .collect();
        traced.push(Traced {
            index: i,
            line: line.clone(),
            seats,
            hooks: game.take_hook_calls(),
        });
    }
    if json {
        print_json(&game, &traced, refused.as_ref());
    } else {
        print_text(&game, &traced, refused.as_ref());
    }
    if refused.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A refused line: its index, text, reason and the hook calls made trying it.
type Refused = (usize, String, String, HookCalls);

fn print_text(game: &Game, traced: &[Traced], refused: Option<&Refused>) {
    let hooks = |calls: &HookCalls| {
        for (c, n) in folded(&calls.kept) {
            outln!("    {}", crate::out::clean(&call_text(game, c, n)));
        }
        if calls.left_out > 0 {
            outln!("    … and {} more hook calls", calls.left_out);
        }
    };
    for t in traced {
        outln!("{} {}", t.index, crate::out::clean(&t.line));
        for (seat, d) in &t.seats {
            outln!("    {}: {d}", game.seat_name(*seat));
        }
        hooks(&t.hooks);
    }
    if let Some((i, line, why, calls)) = refused {
        outln!("{i} {}", crate::out::clean(line));
        hooks(calls);
        outln!("    refused: {}", crate::out::clean(why));
    }
}

fn print_json(game: &Game, traced: &[Traced], refused: Option<&Refused>) {
    let calls = |c: &HookCalls| -> Vec<Value> {
        folded(&c.kept)
            .into_iter()
            .map(|(c, n)| call_json(game, c, n))
            .collect()
    };
    let lines: Vec<Value> = traced
        .iter()
        .map(|t| {
            json!({
                "index": t.index,
                "line": t.line,
                "seats": t.seats.iter().map(|(s, d)| json!({
                    "seat": s,
                    "player": game.seat_name(*s),
                    "change": d.to_json(),
                })).collect::<Vec<_>>(),
                "hooks": calls(&t.hooks),
                "hooks_left_out": t.hooks.left_out,
            })
        })
        .collect();
    let out = json!({
        "lines": lines,
        "refused": refused.map(|(i, line, why, c)| json!({
            "index": i,
            "line": line,
            "reason": why,
            "hooks": calls(c),
        })),
    });
    outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
}

/// How each seat's holdings ([`GameModule::seat_tally`]) changed between two tallies: the
/// names whose number changed, with the difference.
fn tally_change(
    before: &BTreeMap<String, i64>,
    after: &BTreeMap<String, i64>,
) -> Vec<(String, i64)> {
    let mut names: Vec<&String> = before.keys().chain(after.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter_map(|k| {
            let a = before.get(k).copied().unwrap_or(0);
            let b = after.get(k).copied().unwrap_or(0);
            let d = b.saturating_sub(a);
            (d != 0).then(|| (k.clone(), d))
        })
        .collect()
}

/// `trace` for `G`: the log replayed line by line up to move `until`, each line with how
/// every seat's holdings changed (`red: mc -3, tr +1`), as text or JSON. A refused line ends
/// the trace with exit 1, after the lines before it.
pub fn run_as<G: GameModule>(
    args: &ContentArgs,
    log: &Path,
    until: Option<usize>,
    json: bool,
) -> ExitCode {
    let (mut game, lines, _) = match crate::records::open_log_as::<G>(args, log) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let last = match crate::records::last_move(log, lines.len(), until) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let seats = game.seat_count();
    let tallies = |g: &G| (0..seats).map(|s| g.seat_tally(s)).collect::<Vec<_>>();
    let mut traced: Vec<Value> = Vec::new();
    let mut refused = None;
    for (i, line) in lines.iter().enumerate().take(last) {
        let before = tallies(&game);
        if let Err(e) = game.play_line(line) {
            refused = Some((i + 1, line.clone(), e));
            break;
        }
        let after = tallies(&game);
        let changes: Vec<(usize, Vec<(String, i64)>)> = (0..seats)
            .map(|s| (s, tally_change(&before[s], &after[s])))
            .filter(|(_, c)| !c.is_empty())
            .collect();
        if json {
            traced.push(json!({
                "index": i + 1,
                "line": line,
                "seats": changes.iter().map(|(s, c)| json!({
                    "seat": s,
                    "player": game.seat_name(*s),
                    "change": c.iter().map(|(k, d)| (k.clone(), json!(d)))
                        .collect::<serde_json::Map<String, Value>>(),
                })).collect::<Vec<_>>(),
            }));
        } else {
            outln!("{} {}", i + 1, crate::out::clean(line));
            for (s, c) in &changes {
                let text: Vec<String> = c.iter().map(|(k, d)| format!("{k} {d:+}")).collect();
                outln!("    {}: {}", game.seat_name(*s), text.join(", "));
            }
        }
    }
    if json {
        let out = json!({
            "lines": traced,
            "refused": refused.as_ref().map(|(i, line, why)| json!({
                "index": i,
                "line": line,
                "reason": why,
            })),
        });
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else if let Some((i, line, why)) = &refused {
        outln!("{i} {}", crate::out::clean(line));
        outln!("    refused: {}", crate::out::clean(why));
    }
    if refused.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
