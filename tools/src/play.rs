//! `conformance`, `replay` and `moves`: recorded and saved games against the engine.

use std::collections::HashMap;
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

/// Content for records: the command's content and variants, plus the faction boards each
/// record names (its options' board family, its stored per-seat boards), loaded once per
/// distinct stack.
struct RecordContent {
    src: crate::source::ContentSource,
    /// The variants the command applies to every record.
    names: Vec<String>,
    overlays: Vec<orrery::content::OverlaySource>,
    available: Vec<String>,
    loaded: HashMap<String, Arc<Content>>,
}

impl RecordContent {
    fn new(args: &ContentArgs, defaults: &[&str]) -> Result<RecordContent, ExitCode> {
        let (src, overlays) = args.sources(defaults).map_err(|e| {
            eprintln!("error: {e}");
            ExitCode::from(2)
        })?;
        let names = if args.variants.is_empty() {
            defaults.iter().map(|s| s.to_string()).collect()
        } else {
            args.variants.clone()
        };
        let available = src.variant_names();
        Ok(RecordContent {
            src,
            names,
            overlays,
            available,
            loaded: HashMap::new(),
        })
    }

    /// The content a record is replayed on, and the names of the variants stacked on the base.
    fn for_record(&mut self, record: &Record) -> Result<(Arc<Content>, Vec<String>), String> {
        let boards = record.board_variants(&self.available)?;
        let stored = record.stored_boards_overlay()?;
        let mut names = self.names.clone();
        names.extend(boards.iter().cloned());
        if stored.is_some() {
            names.push("stored-boards".into());
        }
        let key = format!("{names:?}{}", stored.as_deref().unwrap_or(""));
        if let Some(c) = self.loaded.get(&key) {
            return Ok((c.clone(), names));
        }
        let mut overlays = self.overlays.clone();
        overlays.extend(self.src.overlays(&boards)?);
        if let Some(text) = stored {
            overlays.push(orrery::content::OverlaySource {
                file: "<record player_variants>".into(),
                text,
                scripts: Vec::new(),
            });
        }
        let content = Content::load(self.src.files().as_ref(), &overlays).map_err(|diags| {
            let text: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
            text.join("; ")
        })?;
        let content = Arc::new(content);
        self.loaded.insert(key, content.clone());
        Ok((content, names))
    }
}

/// What a game was checked against, for `--verbose`.
fn describe(src: &str, names: &[String], record: &Record, content: &Content) -> String {
    let variants = if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    };
    let map = match record.game_setup(content) {
        Ok(setup) if setup.hexes.is_some() => {
            let listed = setup.hexes.as_deref().unwrap_or_default();
            match (
                orrery::map::Map::with_listed(content, &setup.sectors, listed),
                orrery::map::Map::build(content, &setup.sectors),
            ) {
                (Ok(l), Ok(b)) => {
                    let d = l.planet_differences(&b);
                    if d.is_empty() {
                        "setup.hexes (as the sectors give it)".to_string()
                    } else {
                        format!(
                            "setup.hexes ({} hexes differ from the sector tiles: {})",
                            d.len(),
                            d.join(" ")
                        )
                    }
                }
                _ => "setup.hexes".to_string(),
            }
        }
        _ => "setup.sectors".to_string(),
    };
    format!("  content {src}; variants {variants}; map from {map}")
}

/// Replays every record and compares snapshots.
pub fn conformance(args: &ContentArgs, paths: &[PathBuf], verbose: bool) -> ExitCode {
    let mut contents = match RecordContent::new(args, &[PLATFORM_VARIANT]) {
        Ok(c) => c,
        Err(code) => return code,
    };
    // The command's own stack must load, whatever the records need; records that add
    // nothing to it use it as loaded here.
    match args.load(&[PLATFORM_VARIANT]) {
        Ok(c) => {
            let key = format!("{:?}", contents.names);
            contents.loaded.insert(key, Arc::new(c));
        }
        Err(code) => return code,
    }
    let mut files = Vec::new();
    for p in paths {
        if !p.exists() {
            eprintln!("error: {} does not exist", p.display());
            return ExitCode::from(2);
        }
        collect(p, &mut files);
    }
    let src = contents.src.describe();
    let mut ok = 0;
    for f in &files {
        let mut detail = None;
        let result = read_record(f).and_then(|(r, _)| {
            let (content, names) = contents.for_record(&r)?;
            if verbose {
                detail = Some(describe(&src, &names, &r, &content));
            }
            replay_record(content, &r, None, true)
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
        if let Some(d) = detail {
            println!("{d}");
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
    let mut contents = match RecordContent::new(args, defaults) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let (content, names) = match contents.for_record(&record) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {}: {e}", log.display());
            return ExitCode::from(1);
        }
    };
    match replay_record(content, &record, until, false) {
        Ok(game) => {
            for (seat, vp) in game.scores().iter().enumerate() {
                println!("{} {vp}", game.seat_name(seat));
            }
            if let Some(path) = save {
                if names.iter().any(|n| n == "stored-boards") {
                    eprintln!("error: a game on stored per-seat boards cannot be saved yet");
                    return ExitCode::from(1);
                }
                let variants = names;
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

/// Prints the legal next parts in a saved state (`replay --save-state`), as text or JSON.
pub fn moves(args: &ContentArgs, state_file: &Path, json: bool) -> ExitCode {
    let text = match std::fs::read_to_string(state_file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", state_file.display());
            return ExitCode::from(2);
        }
    };
    let value: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {}: not JSON: {e}", state_file.display());
            return ExitCode::from(2);
        }
    };
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
    let state: GameState = match serde_json::from_value(state) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {}: not a saved game: {e}", state_file.display());
            return ExitCode::from(2);
        }
    };
    let defaults: Vec<&str> = saved_variants.iter().map(String::as_str).collect();
    let content = match args.load(&defaults) {
        Ok(c) => Arc::new(c),
        Err(code) => return code,
    };
    let game = match Game::load(content, state) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {}: {e}", state_file.display());
            return ExitCode::from(2);
        }
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
