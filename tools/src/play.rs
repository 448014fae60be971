//! `conformance`, `replay` and `moves`: recorded and saved games against the engine.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use orrery::content::Content;
use orrery::game::{Game, GameState};
use orrery::record::{replay as replay_record, Record};

use crate::ContentArgs;

/// The variant of the platform that recorded the conformance games.
pub const PLATFORM_VARIANT: &str = "boardgamers";

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|r| r.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            collect(&e, out);
        }
    } else if path.extension().is_some_and(|x| x == "json") {
        out.push(path.to_path_buf());
    }
}

fn read_record(path: &Path) -> Result<(Record, bool), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let platform = v.get("engine_version").is_some();
    Ok((Record::from_json(&v)?, platform))
}

/// Replays every record and compares snapshots.
pub fn conformance(args: &ContentArgs, paths: &[PathBuf]) -> ExitCode {
    let content = match args.load(&[PLATFORM_VARIANT]) {
        Ok(c) => Arc::new(c),
        Err(code) => return code,
    };
    let mut files = Vec::new();
    for p in paths {
        if !p.exists() {
            eprintln!("error: {} does not exist", p.display());
            return ExitCode::from(2);
        }
        collect(p, &mut files);
    }
    let mut ok = 0;
    for f in &files {
        let result = read_record(f)
            .map_err(|e| e.to_string())
            .and_then(|(r, _)| {
                replay_record(content.clone(), &r, None, true)
                    .map(|_| ())
                    .map_err(|(m, _)| m.to_string())
            });
        match result {
            Ok(()) => {
                ok += 1;
                println!("ok {}", f.display());
            }
            Err(e) => println!("FAIL {} {e}", f.display()),
        }
    }
    println!("{ok}/{} games identical", files.len());
    if ok == files.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Replays one log and prints the scores.
pub fn replay(
    args: &ContentArgs,
    log: &Path,
    until: Option<usize>,
    save: Option<&Path>,
) -> ExitCode {
    let (record, platform) = match read_record(log) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {}: {e}", log.display());
            return ExitCode::from(2);
        }
    };
    let defaults: &[&str] = if platform { &[PLATFORM_VARIANT] } else { &[] };
    let content = match args.load(defaults) {
        Ok(c) => Arc::new(c),
        Err(code) => return code,
    };
    match replay_record(content, &record, until, false) {
        Ok(game) => {
            for (seat, vp) in game.scores().iter().enumerate() {
                println!("{} {vp}", game.seat_name(seat));
            }
            if let Some(path) = save {
                let variants = if args.variants.is_empty() && platform {
                    vec![PLATFORM_VARIANT.to_string()]
                } else {
                    args.variants.clone()
                };
                let saved = serde_json::json!({ "variants": variants, "state": &game.state });
                let json = serde_json::to_string_pretty(&saved).unwrap_or_default();
                if let Err(e) = std::fs::write(path, json) {
                    eprintln!("error: cannot write {}: {e}", path.display());
                    return ExitCode::from(1);
                }
            }
            ExitCode::SUCCESS
        }
        Err((m, _)) => {
            println!("{m}");
            ExitCode::from(1)
        }
    }
}

/// Reads a saved game (`replay --save-state`, or a bare state) and loads the content it was
/// played with (its variants, unless `--variant` names others). Problems are printed.
pub fn load_saved(args: &ContentArgs, state_file: &Path) -> Result<Game, ExitCode> {
    let usage = |msg: String| {
        eprintln!("error: {msg}");
        ExitCode::from(2)
    };
    let text = std::fs::read_to_string(state_file)
        .map_err(|e| usage(format!("cannot read {}: {e}", state_file.display())))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| usage(format!("{}: not JSON: {e}", state_file.display())))?;
    // A saved game names the variants it was played with; a bare state names none.
    let (state, saved_variants) = match value.get("state") {
        Some(s) => (
            s.clone(),
            value
                .get("variants")
                .and_then(|v| serde_json::from_value::<Vec<String>>(v.clone()).ok())
                .unwrap_or_default(),
        ),
        None => (value, Vec::new()),
    };
    let state: GameState = serde_json::from_value(state)
        .map_err(|e| usage(format!("{}: not a saved game: {e}", state_file.display())))?;
    let defaults: Vec<&str> = saved_variants.iter().map(String::as_str).collect();
    let content = Arc::new(args.load(&defaults)?);
    Game::load(content, state).map_err(|e| usage(format!("{}: {e}", state_file.display())))
}

/// Reads a game log and loads the content it is replayed with (the platform's variant for
/// its records unless `--variant` names others). Problems are printed.
pub fn load_log(args: &ContentArgs, log: &Path) -> Result<(Record, Arc<Content>), ExitCode> {
    let (record, platform) = read_record(log).map_err(|e| {
        eprintln!("error: {}: {e}", log.display());
        ExitCode::from(2)
    })?;
    let defaults: &[&str] = if platform { &[PLATFORM_VARIANT] } else { &[] };
    Ok((record, Arc::new(args.load(defaults)?)))
}

/// Prints the legal next parts in a saved state (`replay --save-state`), as text or JSON.
pub fn moves(args: &ContentArgs, state_file: &Path, json: bool) -> ExitCode {
    let game = match load_saved(args, state_file) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let parts = game.legal_parts();
    let seat = game.deciding_seat();
    if json {
        let out = serde_json::json!({
            "seat": seat,
            "player": seat.map(|s| game.seat_name(s)),
            "decision": game.state.open.as_ref().or(game.state.queue.front()),
            "parts": parts.iter().map(|p| serde_json::json!({
                "text": p.to_string(),
                "command": p,
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        match seat {
            Some(s) => println!(
                "# {} to decide; {} legal parts",
                game.seat_name(s),
                parts.len()
            ),
            None => println!("# the game is over"),
        }
        for p in &parts {
            println!("{p}");
        }
    }
    ExitCode::SUCCESS
}
