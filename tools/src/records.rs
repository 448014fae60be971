//! `conformance` (Gaia Project's recorded games against the engine), and `replay` and `moves`
//! for every game over [`GameModule`]: logs and saved games read, played and listed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use orrery_core::files::{read_bounded, MAX_RECORD_BYTES, MAX_STATE_BYTES};
use orrery_core::game_module::{Change, GameModule};
use orrery_gp::content::Content;
use orrery_gp::game::Game;
use orrery_gp::record::{replay_owned, Record};
use rayon::prelude::*;
use serde_json::Value;

use crate::source::GameFolders;
use crate::stack::{Stack, Variant};
use crate::ContentArgs;

/// The variant of the platform that recorded the conformance games.
pub const PLATFORM_VARIANT: &str = orrery_gp::commands::PLATFORM_VARIANT;

/// Every `*.json` file under `path` (or `path` itself), in path order.
pub fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    collect_ending(path, &[".json"], out);
}

/// Every file under `path` (or `path` itself) whose name ends with one of `endings`, in path
/// order.
pub fn collect_ending(path: &Path, endings: &[&str], out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|r| r.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            collect_ending(&e, endings, out);
        }
    } else if endings
        .iter()
        .any(|end| path.to_string_lossy().ends_with(end))
    {
        out.push(path.to_path_buf());
    }
}

/// A record, whether the recording platform wrote it, and the variants it names (records of
/// `orrery simulate` name the variants they were played with).
pub(crate) fn read_record(path: &Path) -> Result<(Record, bool, Vec<String>), String> {
    let text = read_bounded(path, MAX_RECORD_BYTES, true)?;
    let record = Record::from_json_text(&text)?;
    let platform = record.engine_version.is_some();
    let variants = record.variants.clone();
    Ok((record, platform, variants))
}

/// Content for records: the command's stack (content, the platform's variant unless left out,
/// the `--variant`s), plus the faction boards each record names (its options' board family,
/// its stored per-seat boards), loaded once per distinct stack.
pub(crate) struct RecordContent {
    /// The stack the command applies to every record.
    pub(crate) stack: Stack,
    /// The variant names the content source holds.
    available: Vec<String>,
    loaded: HashMap<String, Arc<Content>>,
}

/// The name a record's stored per-seat boards go by in a stack.
const STORED_BOARDS: &str = orrery_gp::commands::STORED_BOARDS;

impl RecordContent {
    pub(crate) fn new(args: &ContentArgs, defaults: &[&str]) -> Result<RecordContent, ExitCode> {
        let stack = args.stack(defaults).map_err(crate::usage)?;
        Ok(RecordContent::from_stack(stack))
    }

    /// Content for records on top of the command's `stack`.
    pub(crate) fn from_stack(stack: Stack) -> RecordContent {
        let available = stack.variant_names();
        RecordContent {
            stack,
            available,
            loaded: HashMap::new(),
        }
    }

    /// The stack a record is replayed on and its content: the command's stack with the
    /// record's own boards on top.
    pub(crate) fn for_record(&mut self, record: &Record) -> Result<(Arc<Content>, Stack), String> {
        let boards = record.board_variants(&self.available)?;
        let stored = record.stored_boards_overlay()?;
        let mut stack = self.stack.clone();
        for name in boards {
            let overlay = stack.overlay(&name)?;
            stack.variants.push(Variant { name, overlay });
        }
        if let Some(text) = stored {
            stack.variants.push(Variant {
                name: STORED_BOARDS.into(),
                overlay: orrery_gp::content::OverlaySource {
                    file: "<record player_variants>".into(),
                    text,
                    scripts: Vec::new(),
                    problem: None,
                },
            });
        }
        let key = stack_key(&stack);
        if let Some(c) = self.loaded.get(&key) {
            return Ok((c.clone(), stack));
        }
        let content = stack.load().map_err(|diags| {
            let text: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
            text.join("; ")
        })?;
        let content = Arc::new(content);
        self.loaded.insert(key, content.clone());
        Ok((content, stack))
    }
}

/// What identifies a stack's content among those a command loads: its variants' names and
/// texts (the source is the same for every record of one command).
fn stack_key(stack: &Stack) -> String {
    let key: Vec<(&str, &str)> = stack
        .variants
        .iter()
        .map(|v| (v.name.as_str(), v.overlay.text.as_str()))
        .collect();
    format!("{key:?}")
}

/// What a game was checked against, for `--verbose`.
fn describe(stack: &Stack, record: &Record, content: &Content) -> String {
    let map = match record.game_setup(content) {
        Ok(setup) if setup.hexes.is_some() => {
            let listed = setup.hexes.as_deref().unwrap_or_default();
            match (
                orrery_gp::map::Map::with_listed(content, &setup.sectors, listed),
                orrery_gp::map::Map::build(content, &setup.sectors),
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
    format!("  {}; map from {map}", stack.describe())
}

/// Replays every record and compares snapshots.
pub fn conformance(args: &ContentArgs, paths: &[PathBuf], verbose: bool) -> ExitCode {
    let mut contents = match RecordContent::new(args, &[PLATFORM_VARIANT]) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut files = Vec::new();
    let missing = paths.iter().find(|p| !p.exists());
    if missing.is_none() {
        for p in paths {
            collect(p, &mut files);
        }
    }
    // The command's own stack must load, whatever the records need; records that add
    // nothing to it use it as loaded here. The records are read on the other cores while it
    // loads (reading prints nothing, so what is printed and its order are as before).
    let (loaded, records): (_, Vec<Result<Record, String>>) = rayon::join(
        || crate::load_stack(&contents.stack),
        || {
            files
                .par_iter()
                .map(|f| read_record(f).map(|(r, _, _)| r))
                .collect()
        },
    );
    match loaded {
        Ok(c) => {
            let key = stack_key(&contents.stack);
            contents.loaded.insert(key, Arc::new(c));
        }
        Err(code) => return code,
    }
    if let Some(p) = missing {
        errln!("error: {} does not exist", p.display());
        return ExitCode::from(2);
    }
    let mut ok = 0;
    // Each record's content is found first (loaded once per distinct stack); then the records,
    // independent of each other, are replayed on every core and reported in path order.
    let mut jobs = Vec::with_capacity(records.len());
    let mut details = Vec::with_capacity(records.len());
    for record in records {
        let job = record.and_then(|r| {
            let (content, stack) = contents.for_record(&r)?;
            details.push(verbose.then(|| describe(&stack, &r, &content)));
            Ok((content, r))
        });
        if job.is_err() {
            details.push(None);
        }
        jobs.push(job);
    }
    let results: Vec<Result<(), String>> = jobs
        .into_par_iter()
        .map(|job| {
            job.and_then(|(content, r)| {
                replay_owned(content, r, None, true)
                    .map(|_| ())
                    .map_err(|(m, _)| m.to_string())
            })
        })
        .collect();
    for ((f, result), detail) in files.iter().zip(results).zip(details) {
        match result {
            Ok(()) => {
                ok += 1;
                outln!("ok {}", f.display());
            }
            Err(e) => outln!("FAIL {} {}", f.display(), crate::out::clean(&e)),
        }
        if let Some(d) = detail {
            outln!("{}", crate::out::clean(&d));
        }
    }
    outln!("{ok}/{} games identical", files.len());
    if ok == files.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The variants a record is replayed with before any `--variant`: those it names (records of
/// `orrery simulate` name the variants they were played with), else the platform's variant for
/// the platform's records (`platform`), else none.
pub(crate) fn record_defaults(named: &[String], platform: bool) -> Vec<String> {
    if named.is_empty() && platform {
        vec![PLATFORM_VARIANT.to_string()]
    } else {
        named.to_vec()
    }
}

/// Reads a Gaia Project log and loads the content it is replayed with, as `replay` does
/// ([`open_log_as`]). Problems are printed.
pub fn load_log(args: &ContentArgs, log: &Path) -> Result<(Record, Arc<Content>), ExitCode> {
    let value = read_json(log, MAX_RECORD_BYTES, "a game log")?;
    let record = orrery_gp::commands::read_log(&value).map_err(|e| {
        errln!("error: {}: {}", log.display(), crate::out::clean(&e));
        ExitCode::from(1)
    })?;
    let (content, _, _) = log_content::<Game>(args, log, &value)?;
    Ok((record, content))
}

// The commands written once over `GameModule`: logs, saved games and listings of every game.

/// Reads a JSON file of a game (a log or a saved game) within `limit`; problems are printed
/// (exit 1).
fn read_json(path: &Path, limit: u64, what: &str) -> Result<Value, ExitCode> {
    let invalid = |msg: String| {
        errln!("error: {}: {msg}", path.display());
        ExitCode::from(1)
    };
    let text = read_bounded(path, limit, true).map_err(|e| invalid(format!("cannot read: {e}")))?;
    orrery_core::unique_keys::check(&text).map_err(|e| invalid(format!("not {what}: {e}")))?;
    serde_json::from_str(&text).map_err(|e| invalid(format!("not JSON: {e}")))
}

/// The stack a file names (`content`, as [`Stack::saved`] writes it; the command's own
/// stack when it names none, with the variants `defaults` gives under the `--variant`s).
fn named_stack<G: GameModule>(
    args: &ContentArgs,
    file: &Path,
    value: &Value,
    defaults: impl FnOnce(&Stack) -> Result<Vec<String>, ExitCode>,
) -> Result<Stack, ExitCode> {
    let usage = |e: String| crate::usage(format!("{}: {e}", file.display()));
    match value.get("content") {
        Some(saved) => {
            let mut given = args.variants.clone();
            let dir = crate::stack::folder_of(file);
            let folders = GameFolders::of::<G>();
            Stack::from_saved(saved, args.content.as_deref(), &dir, &mut given, folders)
                .and_then(|s| args.finish_with(s, &[], &given))
                .map_err(usage)
        }
        None => {
            let source =
                crate::source::ContentSource::resolve(args.content.as_deref()).map_err(usage)?;
            let bare = Stack::new(source, GameFolders::of::<G>());
            let names = defaults(&bare)?;
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            args.finish(bare, &names).map_err(usage)
        }
    }
}

/// Loads a stack for `G`, stating it on stderr; problems are printed (exit 1).
fn load_stack_of<G: GameModule>(stack: Stack) -> Result<(Arc<G::Content>, Stack), ExitCode> {
    let stack = stack.for_game::<G>();
    errln!("{}", stack.describe());
    let content = stack.load_as::<G>().map_err(|diags| {
        for d in &diags {
            errln!("{d}");
        }
        ExitCode::from(1)
    })?;
    Ok((Arc::new(content), stack))
}

/// The content a log is played on, its stack and the names of the overlays the log holds.
type OnLog<C> = (Arc<C>, Stack, Vec<String>);

/// The content a log of `G` is played on: the stack it names (or the command's), with the
/// variants the log asks for ([`GameModule::log_variants`]); with the names of the overlays
/// the log holds itself (a game on one cannot be saved).
fn log_content<G: GameModule>(
    args: &ContentArgs,
    log: &Path,
    value: &Value,
) -> Result<OnLog<G::Content>, ExitCode> {
    let refused = |e: String| {
        errln!("error: {}: {}", log.display(), crate::out::clean(&e));
        ExitCode::from(1)
    };
    let asked = |stack: &Stack| G::log_variants(value, &stack.variant_names());
    let mut stack = named_stack::<G>(args, log, value, |bare| {
        asked(bare).map(|v| v.before).map_err(refused)
    })?;
    let wants = asked(&stack).map_err(refused)?;
    for name in wants.after {
        let overlay = stack.overlay(&name).map_err(refused)?;
        stack.variants.push(Variant { name, overlay });
    }
    let held: Vec<String> = wants.held.iter().map(|(n, _)| n.clone()).collect();
    for (name, text) in wants.held {
        stack.variants.push(Variant {
            overlay: orrery_core::files::OverlaySource {
                file: format!("<the log's {name}>"),
                text,
                scripts: Vec::new(),
                problem: None,
            },
            name,
        });
    }
    let (content, stack) = load_stack_of::<G>(stack)?;
    Ok((content, stack, held))
}

/// Writes `game` with the stack it was played on ([`Stack::saved`], paths relative to the
/// file's folder too): `{"game", "content", "state"}`.
pub fn save_game_as<G: GameModule>(stack: &Stack, game: &G, path: &Path) -> Result<(), String> {
    let state = game
        .save_state()
        .map_err(|e| format!("the state cannot be saved: {e}"))?;
    let saved = serde_json::json!({
        "game": G::ID,
        "content": stack.saved(&crate::stack::folder_of(path)),
        "state": state,
    });
    let text = serde_json::to_string_pretty(&saved)
        .map_err(|e| format!("the state does not write as JSON: {e}"))?;
    crate::out::write_file(path, text.as_bytes())
}

/// Reads a saved game of `G` ([`save_game_as`]; a save from before games were named names
/// none and is read as `G`'s, a bare state without its stack too) and loads the content it
/// names, `--variant`s on top. A file of another game is a usage error, a state that does not
/// fit is exit 1.
pub fn load_saved_as<G: GameModule>(
    args: &ContentArgs,
    state_file: &Path,
) -> Result<(G, Stack), ExitCode> {
    let value = read_json(state_file, MAX_STATE_BYTES, "a saved game")?;
    match value.get("game") {
        None => {}
        Some(Value::String(name)) if name == G::ID => {}
        Some(Value::String(name)) => {
            return Err(crate::usage(format!(
                "{}: a saved game of {name}, not a saved game of {}",
                state_file.display(),
                G::ID
            )))
        }
        Some(other) => {
            errln!(
                "error: {}: `game` is not a name: {}",
                state_file.display(),
                crate::out::clean(&other.to_string())
            );
            return Err(ExitCode::from(1));
        }
    }
    // Saved before stacks were: only the variants' names.
    let stack = named_stack::<G>(args, state_file, &value, |_| {
        Ok(value
            .get("variants")
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default())
    })?;
    let (content, stack) = load_stack_of::<G>(stack)?;
    let state = match value.get("state") {
        Some(s) => s.clone(),
        None if value.get("game").is_none() => value,
        None => Value::Null,
    };
    let game = G::restore(content, state).map_err(|e| {
        errln!("error: {}: {}", state_file.display(), crate::out::clean(&e));
        ExitCode::from(1)
    })?;
    Ok((game, stack))
}

/// A log of `G` opened.
pub(crate) struct Opened<G> {
    /// The game before its first move.
    pub game: G,
    /// The moves after the setup (move 0).
    pub lines: Vec<String>,
    /// The stack it is played on.
    pub stack: Stack,
    /// The overlays of the stack that the log wrote out (a game on one is not saved).
    pub held: Vec<String>,
}

/// Opens a log of `G` ([`GameModule::open_log`]) on the content it names; problems printed.
pub(crate) fn open_of<G: GameModule>(
    args: &ContentArgs,
    log: &Path,
) -> Result<Opened<G>, ExitCode> {
    let value = read_json(log, MAX_RECORD_BYTES, "a game log")?;
    let (content, stack, held) = log_content::<G>(args, log, &value)?;
    let (game, lines) = G::open_log(&content, &value).map_err(|e| {
        errln!("error: {}: {}", log.display(), crate::out::clean(&e));
        ExitCode::from(1)
    })?;
    Ok(Opened {
        game,
        lines,
        stack,
        held,
    })
}

/// A log of `G` opened: the game at its start, the moves after the setup (move 0), the
/// stack it is played on.
pub(crate) fn open_log_as<G: GameModule>(
    args: &ContentArgs,
    log: &Path,
) -> Result<(G, Vec<String>, Stack), ExitCode> {
    open_of::<G>(args, log).map(|o| (o.game, o.lines, o.stack))
}

/// The last move to play: `until`, checked against the log's moves 0 (the setup) to
/// `lines`; out of range is exit 1.
pub(crate) fn last_move(log: &Path, lines: usize, until: Option<usize>) -> Result<usize, ExitCode> {
    match until {
        Some(n) if n > lines => {
            errln!(
                "error: {} has moves 0 to {lines}; --until {n} is out of range",
                log.display()
            );
            Err(ExitCode::from(1))
        }
        Some(n) => Ok(n),
        None => Ok(lines),
    }
}

/// A move refused, as `replay` and `trace` say it: `move 6 "<seat> build PI 0A0": why`.
pub(crate) fn refusal(index: usize, line: &str, why: &str) -> String {
    format!(
        "move {index} \"{}\": {}",
        crate::out::clean(line),
        crate::out::clean(why)
    )
}

/// `replay` for `G`: plays the log's moves up to `until`, prints each seat's score (or the
/// move refused and why, exit 1), and saves the state reached when asked.
pub fn replay_as<G: GameModule>(
    args: &ContentArgs,
    log: &Path,
    until: Option<usize>,
    save: Option<&Path>,
) -> ExitCode {
    let Opened {
        mut game,
        lines,
        stack,
        held,
    } = match open_of::<G>(args, log) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let last = match last_move(log, lines.len(), until) {
        Ok(n) => n,
        Err(code) => return code,
    };
    for (i, line) in lines.iter().enumerate().take(last) {
        if let Err(e) = game.play_line(line) {
            outln!("{}", refusal(i + 1, line, &e));
            return ExitCode::from(1);
        }
    }
    for (seat, vp) in game.score().iter().enumerate() {
        outln!("{} {vp}", game.seat_name(seat));
    }
    if let Some(path) = save {
        // The stack is saved with the state, so `moves` finds it from any folder; an overlay
        // the log wrote out would not be found again.
        let saved = if let Some(name) = held.first() {
            Err(format!(
                "a game on an overlay its log holds ({name}) cannot be saved yet"
            ))
        } else {
            save_game_as(&stack, &game, path)
        };
        if let Err(e) = saved {
            errln!("error: {e}");
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

/// `moves` for `G`: the legal next inputs of the deciding seat in a saved game, one a line in
/// the game's notation (with a note where a person needs one, and with `explain` what each
/// changes for the seat after `  # `), or JSON. Only what the deciding seat may see is listed;
/// the notices the game has (a script that failed) follow.
pub fn moves_as<G: GameModule>(
    args: &ContentArgs,
    state_file: &Path,
    json: bool,
    explain: bool,
) -> ExitCode {
    let (game, stack) = match load_saved_as::<G>(args, state_file) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let seat = game.to_decide();
    let legal = if seat.is_some() {
        game.legal()
    } else {
        Vec::new()
    };
    // What each part changes for the deciding seat: the part played on a copy.
    let changes: Vec<Option<Result<Change, String>>> = legal
        .iter()
        .map(|p| {
            if explain {
                game.explain_action(p)
            } else {
                None
            }
        })
        .collect();
    // Parts whose scripts failed are not listed; the first such errors are shown.
    let notices = game.notices();
    if json {
        let out = serde_json::json!({
            "content": stack.to_json(),
            "hook_errors": notices,
            "seat": seat,
            "player": seat.map(|s| game.seat_name(s)),
            "decision": game.decision(),
            "parts": legal.iter().zip(&changes).map(|(p, change)| {
                let mut entry = serde_json::json!({
                    "text": p.to_string(),
                    "command": game.action_data(p),
                });
                if let Some(note) = game.action_note(p) {
                    entry["note"] = note.into();
                }
                match change {
                    Some(Ok(c)) => entry["change"] = c.data.clone(),
                    Some(Err(e)) => entry["refused"] = e.clone().into(),
                    None => {}
                }
                entry
            }).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    match seat {
        Some(s) => outln!(
            "# {} to decide; {}",
            game.seat_name(s),
            crate::out::count(legal.len(), "legal part", "legal parts")
        ),
        None => outln!("# the game is over"),
    }
    for (p, change) in legal.iter().zip(&changes) {
        let mut line = crate::out::clean(&p.to_string()).into_owned();
        if let Some(note) = game.action_note(p) {
            line.push_str(&format!("  # {}", crate::out::clean(&note)));
        }
        match change {
            Some(Ok(c)) => line.push_str(&format!("  # {}", crate::out::clean(&c.text))),
            Some(Err(e)) => line.push_str(&format!("  # refused: {}", crate::out::clean(e))),
            None => {}
        }
        outln!("{line}");
    }
    for line in &notices {
        outln!("# {}", crate::out::clean(line));
    }
    ExitCode::SUCCESS
}
