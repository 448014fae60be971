//! `orrery trace LOG`: a log replayed line by line, saying for each line what every seat
//! paid and gained ([`GameModule::seat_change`]) and which of the content's scripts ran with
//! what they returned ([`GameModule::take_script_calls`]) — a hook's effect seen without
//! replaying the log twice. Written once for every game.

use std::path::Path;
use std::process::ExitCode;

use orrery_core::game_module::{Change, GameModule, ScriptCalls};
use serde_json::{json, Value};

use crate::ContentArgs;

/// One line of the log, traced.
struct Traced {
    index: usize,
    line: String,
    /// Seats whose holdings changed, with the change.
    seats: Vec<(usize, Change)>,
    calls: ScriptCalls,
}

/// A refused line: its index, text, reason and the script calls made trying it.
type Refused = (usize, String, String, ScriptCalls);

/// `trace` for `G`: the log replayed line by line up to move `until` (default: the end), each
/// line with how every seat's holdings changed and the script calls it made, as text or JSON.
/// A refused line ends the trace with exit 1, after the lines before it.
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
    game.note_script_calls();
    let mut traced = Vec::new();
    let mut refused = None;
    for (i, line) in lines.iter().enumerate().take(last) {
        let before = game.clone();
        if let Err(e) = game.play_line(line) {
            refused = Some((i + 1, line.clone(), e, game.take_script_calls()));
            break;
        }
        traced.push(Traced {
            index: i + 1,
            line: line.clone(),
            seats: (0..seats)
                .filter_map(|s| game.seat_change(&before, s).map(|c| (s, c)))
                .collect(),
            calls: game.take_script_calls(),
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

fn print_text<G: GameModule>(game: &G, traced: &[Traced], refused: Option<&Refused>) {
    let calls = |c: &ScriptCalls| {
        for (text, _) in &c.calls {
            outln!("    {}", crate::out::clean(text));
        }
        if c.left_out > 0 {
            outln!("    … and {} more hook calls", c.left_out);
        }
    };
    for t in traced {
        outln!("{} {}", t.index, crate::out::clean(&t.line));
        for (seat, c) in &t.seats {
            outln!(
                "    {}: {}",
                crate::out::clean(&game.seat_name(*seat)),
                crate::out::clean(&c.text)
            );
        }
        calls(&t.calls);
    }
    if let Some((i, line, why, c)) = refused {
        outln!("{i} {}", crate::out::clean(line));
        calls(c);
        outln!("    refused: {}", crate::out::clean(why));
    }
}

fn print_json<G: GameModule>(game: &G, traced: &[Traced], refused: Option<&Refused>) {
    let calls =
        |c: &ScriptCalls| -> Vec<Value> { c.calls.iter().map(|(_, v)| v.clone()).collect() };
    let lines: Vec<Value> = traced
        .iter()
        .map(|t| {
            json!({
                "index": t.index,
                "line": t.line,
                "seats": t.seats.iter().map(|(s, c)| json!({
                    "seat": s,
                    "player": game.seat_name(*s),
                    "change": c.data,
                })).collect::<Vec<_>>(),
                "hooks": calls(&t.calls),
                "hooks_left_out": t.calls.left_out,
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
