//! `orrery simulate`: a balance study — many seeded games played by bots, in parallel, summed
//! into a study file (see `study.rs`) and a summary table.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use orrery_core::bot::{self, Bot, Model, PlayError};
use orrery_core::game_module::{GameModule, Scribe, Start};
use orrery_core::rng::Rng;
use orrery_gp::game::Game;
use rayon::prelude::*;

use crate::records::RecordContent;
use crate::study::{Config, FactionChoice, SeatOutcome, SeatPlay, Study};
use crate::ContentArgs;

/// Most parts one game may take before it is reported as stuck.
pub const MAX_PARTS: usize = 50_000;

/// How many failed games' reasons a study's summary repeats (stderr lists every one).
const SHOWN_FAILURES: usize = 3;

/// The options of `simulate`.
#[derive(clap::Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub content: ContentArgs,
    /// Games in the whole study.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Seats per game (default 2; with `--setups`, the records' player count).
    #[arg(long)]
    pub players: Option<usize>,
    /// `random`, or faction ids separated by commas, rotated over seats.
    #[arg(long, default_value = "random")]
    pub factions: String,
    /// Bot names separated by commas (random, greedy, search, search:N, search:N:W:D, best,
    /// best:N, best:N:W:D, best:N:W:D:R, best:N:W:D:R:K), rotated over seats so each plays
    /// every seat equally often. N: simulated parts per decision (3000); W: completed
    /// decisions looked further at (6; `best` 8); D: decisions deep (6; `best` 9); R (`best`
    /// only): answers of the next seat weighed (0: none); K: first parts of that seat's
    /// decision completed, the best by one step (0: all). `best` values a look-ahead by the
    /// mean of its margins along the way, `search` by the margin at its end.
    #[arg(long, default_value = "greedy")]
    pub bots: String,
    /// The study's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Play only slice K of N of the study (1-based), e.g. `--shard 2/8`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Write the study: JSON (`orrery-study/1`) or, for a name ending in `.csv`, a table.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write each game as a record that `orrery replay` replays. The folder must be empty
    /// (or new), so that studies do not mix, unless `--clear-logs` is given.
    #[arg(long, value_name = "DIR")]
    pub logs: Option<PathBuf>,
    /// Before writing `--logs`, remove the game logs (`game-NNNNNN.json`) an earlier study
    /// left there; other files stay.
    #[arg(long, requires = "logs")]
    pub clear_logs: bool,
    /// Draw the study's charts (as `orrery chart` does) into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    /// Play game i on the setup of the i-th record in DIR (sorted by file name, cycled): its
    /// map, tiles, boosters, options and `init` line, under the content `replay` would use
    /// for it.
    #[arg(long, value_name = "DIR")]
    pub setups: Option<PathBuf>,
    /// Operations each game's script hooks may run in all (listing and bots' lookahead
    /// included); a game over it fails with that reason. Default: the engine's
    /// `DEFAULT_HOOK_BUDGET` (see docs/scripting.md).
    #[arg(long, value_name = "N", default_value_t = orrery_core::script::DEFAULT_HOOK_BUDGET)]
    pub hook_budget: u64,
    /// The learned evaluation `best` plays with (default: the content folder's
    /// `bots/<game>.yaml`; without one `best` plays as `search`).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
}

/// A recorded setup games of the study are played on (`--setups`).
pub struct StudySetup<G: GameModule> {
    /// The record's player count.
    players: usize,
    /// The record's first line (its setup line).
    init: String,
    /// The setup.
    setup: G::Setup,
    /// The content `replay` uses for the record.
    content: Arc<G::Content>,
    /// The stack a log of a game on it stores (`replay`'s stack for the record; the board
    /// variants its options give are found again from the options).
    saved_stack: serde_json::Value,
    /// The record's seed and options, which a log of a game on it keeps.
    seed: Option<serde_json::Value>,
    options: Option<serde_json::Value>,
}

/// Reads the recorded setups of `--setups DIR` for a game.
pub type SetupReader<G> = fn(&SimulateArgs, &Path) -> Result<Vec<StudySetup<G>>, (String, u8)>;

/// One game's outcome.
struct GameResult {
    index: u64,
    outcome: Result<Vec<SeatPlay>, String>,
    record: Option<serde_json::Value>,
}

/// A shard `K/N` parsed.
fn parse_shard(s: &str) -> Result<[u64; 2], String> {
    let bad = || format!("--shard wants K/N with 1 <= K <= N, got `{s}`");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let k: u64 = k.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok([k, n])
}

/// The games of shard K of N: a contiguous slice of the study.
pub fn shard_range(games: u64, [k, n]: [u64; 2]) -> std::ops::Range<u64> {
    let at = |i: u64| (u128::from(games) * u128::from(i) / u128::from(n)) as u64;
    at(k - 1)..at(k)
}

/// The seed of game `index` of a study.
fn game_seed(seed: u64, index: u64) -> u64 {
    let mut r = Rng::new(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    r.next_u64()
}

/// Everything a game of the study needs, checked before any game is played.
struct Plan<G: GameModule> {
    content: Arc<G::Content>,
    config: Config,
    logs: Option<PathBuf>,
    /// The recorded setups games are played on, in order (empty: random setups).
    setups: Vec<StudySetup<G>>,
    /// The stack as each log stores it (paths relative to the logs' folder).
    saved_stack: serde_json::Value,
    /// The learned evaluation `best` plays with, if any.
    model: Option<Arc<Model>>,
}

/// `orrery simulate` for the game `G`; `read_setups` reads `--setups DIR`.
pub fn run<G: GameModule>(args: &SimulateArgs, read_setups: SetupReader<G>) -> ExitCode {
    match prepare::<G>(args, read_setups) {
        Ok(plan) => execute(&plan, args),
        Err((msg, code)) => {
            errln!("error: {msg}");
            ExitCode::from(code)
        }
    }
}

fn prepare<G: GameModule>(
    args: &SimulateArgs,
    read_setups: SetupReader<G>,
) -> Result<Plan<G>, (String, u8)> {
    let usage = |m: String| (m, 2u8);
    let setups = match &args.setups {
        Some(dir) => read_setups(args, dir)?,
        None => Vec::new(),
    };
    let players = match (args.players, setups.first()) {
        (Some(p), Some(s)) if p != s.players => {
            return Err(usage(format!(
                "--players {p}, but the records in --setups have {} players",
                s.players
            )))
        }
        (Some(p), _) => p,
        (None, Some(s)) => s.players,
        (None, None) => 2,
    };
    if !(1..=8).contains(&players) {
        return Err(usage(format!("--players must be 1 to 8, got {players}")));
    }
    let shard = match &args.shard {
        Some(s) => parse_shard(s).map_err(usage)?,
        None => [1, 1],
    };
    let bots: Vec<String> = args.bots.split(',').map(|b| b.trim().to_string()).collect();
    for b in &bots {
        if bot::by_name::<G>(b, 0).is_none() {
            return Err(usage(format!(
                "unknown bot `{b}` (known: {}, search:N, search:N:W:D, best:N, best:N:W:D, best:N:W:D:R, best:N:W:D:R:K)",
                bot::NAMES.join(", ")
            )));
        }
    }
    let (stack, content) = args.content.load_stacked_as::<G>(&[]).map_err(|_| {
        (
            "the content does not load (problems above)".to_string(),
            1u8,
        )
    })?;
    let factions = if args.factions == "random" {
        FactionChoice::Random("random".into())
    } else {
        let list: Vec<String> = args
            .factions
            .split(',')
            .map(|f| f.trim().to_string())
            .collect();
        let known = G::identities(&content);
        for f in &list {
            if !known.contains(f) {
                return Err(usage(format!("unknown faction `{f}`")));
            }
        }
        if list.len() < players {
            return Err(usage(format!(
                "--factions names {} factions for {players} seats",
                list.len(),
            )));
        }
        G::check_lineup(&content, &list, players).map_err(|e| usage(format!("--factions: {e}")))?;
        FactionChoice::Given(list)
    };
    let mut config = Config {
        game: G::ID.to_string(),
        players,
        factions,
        bots,
        variants: args.content.variants.clone(),
        seed: args.seed,
        games: args.games,
        shard,
        content: stack.identity().map_err(|e| (e, 1))?,
        weights: None,
    };
    if let Some(dir) = &args.logs {
        prepare_logs(dir, args.clear_logs)?;
    }
    let saved_stack = stack.saved(args.logs.as_deref().unwrap_or(Path::new(".")));
    let content = Arc::new(content);
    let model = if config
        .bots
        .iter()
        .any(|b| b == "best" || b.starts_with("best:"))
    {
        let model =
            crate::train::load_model::<G>(&stack, &content, players, args.weights.as_deref())
                .map_err(|e| (e, 1))?;
        match &model {
            Some(m) => config.weights = Some(crate::train::identity(m)),
            None => errln!("note: no weights file for `best`, so it plays as `search`"),
        }
        model
    } else {
        None
    };
    Ok(Plan {
        content,
        config,
        logs: args.logs.clone(),
        setups,
        saved_stack,
        model,
    })
}

/// `--setups DIR` for a game without recorded setups to study: refused (exit 2).
pub fn no_setups<G: GameModule>(
    _args: &SimulateArgs,
    dir: &Path,
) -> Result<Vec<StudySetup<G>>, (String, u8)> {
    Err((
        format!(
            "{} has no recorded setups to study (--setups {})",
            G::ID,
            dir.display()
        ),
        2,
    ))
}

/// The records of `--setups DIR` in file-name order, each with the content `replay` would use
/// for it; all must have the same number of players and start with `init`.
pub fn gaia_setups(args: &SimulateArgs, dir: &Path) -> Result<Vec<StudySetup<Game>>, (String, u8)> {
    if !dir.is_dir() {
        return Err((format!("--setups {} is not a folder", dir.display()), 2));
    }
    let mut files = Vec::new();
    crate::records::collect(dir, &mut files);
    if files.is_empty() {
        return Err((
            format!("--setups {}: no *.json record in it", dir.display()),
            2,
        ));
    }
    let mut contents: BTreeMap<Vec<String>, RecordContent> = BTreeMap::new();
    let mut out: Vec<StudySetup<Game>> = Vec::with_capacity(files.len());
    for f in &files {
        let bad = |e: String| (format!("{}: {e}", f.display()), 1u8);
        let (record, platform, named) = crate::records::read_record(f).map_err(bad)?;
        if !record.moves.first().is_some_and(|m| m.starts_with("init ")) {
            return Err(bad("the first move is not an `init` line".into()));
        }
        if let Some(first) = out.first() {
            if first.players != record.players {
                return Err((
                    format!(
                        "--setups {}: records of {} and {} players; a study has one player count",
                        dir.display(),
                        first.players,
                        record.players
                    ),
                    2,
                ));
            }
        }
        let defaults = crate::records::record_defaults(&named, platform);
        let rc = match contents.entry(defaults.clone()) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(e) => {
                let names: Vec<&str> = defaults.iter().map(String::as_str).collect();
                let stack = args.content.stack(&names).map_err(|m| (m, 2u8))?;
                e.insert(RecordContent::from_stack(stack))
            }
        };
        let saved_stack = rc
            .stack
            .saved(args.logs.as_deref().unwrap_or(Path::new(".")));
        let (content, _) = rc.for_record(&record).map_err(bad)?;
        let setup = record.game_setup(&content).map_err(bad)?;
        out.push(StudySetup {
            players: record.players,
            init: record.moves[0].clone(),
            setup,
            content,
            saved_stack,
            seed: record.seed.clone(),
            options: record.options.clone(),
        });
    }
    Ok(out)
}

/// Makes the `--logs` folder ready: created if missing; one that holds anything is refused
/// (exit 2), unless `clear`, which removes the game logs in it first.
fn prepare_logs(dir: &Path, clear: bool) -> Result<(), (String, u8)> {
    std::fs::create_dir_all(dir)
        .map_err(|e| (format!("cannot create {}: {e}", dir.display()), 1))?;
    let cannot = |e: std::io::Error| (format!("cannot read {}: {e}", dir.display()), 1);
    let mut others = 0;
    for entry in std::fs::read_dir(dir).map_err(cannot)? {
        let entry = entry.map_err(cannot)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_log = name
            .strip_prefix("game-")
            .and_then(|n| n.strip_suffix(".json"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if clear && is_log {
            std::fs::remove_file(entry.path())
                .map_err(|e| (format!("cannot remove {}: {e}", entry.path().display()), 1))?;
        } else if !clear {
            return Err((
                format!(
                    "--logs {} is not empty (it holds {name}); choose an empty folder, or \
                     pass --clear-logs to remove the game logs of an earlier study",
                    dir.display()
                ),
                2,
            ));
        } else {
            others += 1;
        }
    }
    if others > 0 {
        errln!(
            "note: --logs {} keeps {others} file{} that are not game logs",
            dir.display(),
            if others == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

fn execute<G: GameModule>(plan: &Plan<G>, args: &SimulateArgs) -> ExitCode {
    let range = shard_range(plan.config.games, plan.config.shard);
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            errln!("error: cannot start {jobs} threads: {e}");
            return ExitCode::from(1);
        }
    };
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(range.end - range.start)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let started = Instant::now();
    let want_logs = plan.logs.is_some();
    let results: Vec<GameResult> = pool.install(|| {
        range
            .clone()
            .into_par_iter()
            .map(|i| {
                let on = (!plan.setups.is_empty())
                    .then(|| &plan.setups[(i % plan.setups.len() as u64) as usize]);
                let r = play_one(plan, i, want_logs, on, args.hook_budget);
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut study = Study::new(plan.config.clone());
    study.timing.seconds = started.elapsed().as_secs_f64();
    let mut failed: Vec<String> = Vec::new();
    for r in &results {
        if let (Some(dir), Some(rec)) = (&plan.logs, &r.record) {
            let path = dir.join(format!("game-{:06}.json", r.index));
            let text = serde_json::to_string(rec).unwrap_or_default();
            if let Err(e) = crate::out::write_file(&path, text.as_bytes()) {
                errln!("error: {e}");
                return ExitCode::from(1);
            }
        }
        match &r.outcome {
            Ok(seats) => study.add_game(r.index, seats),
            Err(e) => {
                study
                    .failed
                    .add(r.index, game_seed(plan.config.seed, r.index), e);
                errln!("game {}: {e}", r.index);
                failed.push(format!("game {}: {e}", r.index));
            }
        }
    }
    // Tables of no game would only show empty rows and meaningless intervals.
    if study.games > 0 {
        out!("{}", study.table());
    }
    outln!("{}", timing_line(study.games, study.timing.seconds, jobs));
    if !failed.is_empty() {
        outln!(
            "{} of {} games failed (not counted above); the first reasons:",
            failed.len(),
            results.len()
        );
        for f in failed.iter().take(SHOWN_FAILURES) {
            outln!("  {f}");
        }
    }
    if let Some(out) = &args.out {
        if let Err(e) = write_study(&study, out) {
            errln!("error: {e}");
            return ExitCode::from(1);
        }
    }
    if let Some(path) = &args.chart {
        if let Err(e) = write_chart(&study, path) {
            errln!("error: {e}");
            return ExitCode::from(1);
        }
    }
    if !failed.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Draws a study's charts into an SVG file, named after the file.
fn write_chart(study: &Study, path: &Path) -> Result<(), String> {
    let value: serde_json::Value = serde_json::from_str(&study.to_json())
        .map_err(|e| format!("the study does not read back as JSON: {e}"))?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "study".into());
    let svg = crate::chart::study_charts_svg(&[(name, value)])?;
    crate::out::write_file(path, svg.as_bytes())
}

/// Writes a study as JSON, or CSV for a `.csv` name.
pub fn write_study(study: &Study, out: &Path) -> Result<(), String> {
    let text = if out.extension().is_some_and(|e| e == "csv") {
        study.to_csv()
    } else {
        study.to_json()
    };
    crate::out::write_file(out, text.as_bytes())
}

/// The factions and bots of game `index`, by seat.
fn lineup(config: &Config, index: u64) -> (Option<Vec<String>>, Vec<String>) {
    let p = config.players;
    let rot = |len: usize, seat: usize| (seat + (index % len as u64) as usize) % len;
    let bots = (0..p)
        .map(|s| config.bots[rot(config.bots.len(), s)].clone())
        .collect();
    let factions = match &config.factions {
        FactionChoice::Random(_) => None,
        FactionChoice::Given(list) => {
            Some((0..p).map(|s| list[rot(list.len(), s)].clone()).collect())
        }
    };
    (factions, bots)
}

fn play_one<G: GameModule>(
    plan: &Plan<G>,
    index: u64,
    log: bool,
    on: Option<&StudySetup<G>>,
    hook_budget: u64,
) -> GameResult {
    let config = &plan.config;
    let seed = game_seed(config.seed, index);
    let init = match on {
        Some(s) => Some(s.init.clone()),
        None => G::first_line(config.players, config.seed, index),
    };
    let mut lines: Vec<String> = init.into_iter().collect();
    let content = on.map_or(&plan.content, |s| &s.content);
    let outcome = play_game(content, plan, index, seed, on, &mut lines, hook_budget);
    // A failed game is logged too, as far as it went, with the reason.
    let record = log.then(|| {
        let mut rec = match &outcome {
            Ok((game, _)) => game.log(&lines, &plan.saved_stack),
            Err(e) => {
                let setup = G::setup_json(
                    content,
                    config.players,
                    on.map(|s| &s.setup),
                    &mut Rng::new(seed),
                );
                serde_json::json!({
                    "source": "orrery simulate",
                    "players": config.players,
                    "content": plan.saved_stack,
                    "setup": setup,
                    "moves": lines,
                    "finished": false,
                    "error": e,
                })
            }
        };
        if let Some(s) = on {
            // The platform replays the log as it stands (its seed and options); Orrery
            // replays it on the stack `replay` uses for the record.
            rec["content"] = s.saved_stack.clone();
            if let Some(seed) = &s.seed {
                rec["seed"] = seed.clone();
            }
            if let Some(options) = &s.options {
                rec["options"] = options.clone();
            }
        }
        rec
    });
    GameResult {
        index,
        outcome: outcome.map(|(_, seats)| seats),
        record,
    }
}

/// Plays game `index`; returns the game at its end and each seat's result.
fn play_game<G: GameModule>(
    content: &Arc<G::Content>,
    plan: &Plan<G>,
    index: u64,
    seed: u64,
    on: Option<&StudySetup<G>>,
    lines: &mut Vec<String>,
    hook_budget: u64,
) -> Result<(G, Vec<SeatPlay>), String> {
    let config = &plan.config;
    let mut rng = Rng::new(seed);
    let (factions, bot_names) = lineup(config, index);
    let mut scribe = G::Scribe::default();
    let how = Start {
        players: config.players,
        setup: on.map(|s| &s.setup),
        identities: factions.as_deref(),
        hook_budget,
    };
    let mut game = G::start(content, how, &mut rng, &mut scribe, lines)?;
    let mut bots: Vec<Box<dyn Bot<G> + Send>> = bot_names
        .iter()
        .enumerate()
        .map(|(s, name)| {
            bot::by_name_with::<G>(name, seed.wrapping_add(s as u64 + 1), plan.model.as_ref())
                .expect("bot names are checked before the study")
        })
        .collect();
    // Invariants a rules bug would break, checked before every part (so after the one before)
    // and at the end; the first one broken fails the game.
    let mut watch = game.watcher();
    let mut ledger = game.item_ledger();
    let mut broken: Option<String> = None;
    bot::play_game(&mut game, &mut bots, MAX_PARTS, |g, seat, part| {
        ledger.see(g);
        if broken.is_none() {
            let check = watch.after(g).and_then(|()| watch.before(g, seat, part));
            broken = check.err().map(|e| format!("line {}: {e}", lines.len()));
        }
        scribe.note(g, part, lines)
    })
    .map_err(|e: PlayError| format!("{e} (seed {seed})"))?;
    if let Some(e) = broken.or_else(|| watch.after(&game).err()) {
        return Err(format!("invariant broken: {e} (seed {seed})"));
    }
    ledger.see(&game);
    let winners = game.winners();
    let scores = game.score();
    let seats = (0..config.players)
        .map(|s| SeatPlay {
            outcome: SeatOutcome {
                faction: game.identity(s),
                bot: bot_names[s].clone(),
                vp: scores[s],
                won: winners.contains(&s),
            },
            sources: game.vp_sources(s),
            items: ledger.items(&game, s),
        })
        .collect();
    Ok((game, seats))
}

/// The line that closes a study's summary: its games, their wall time, the jobs they ran on,
/// and, when games were played, the time of one game on one core (the wall time times the
/// jobs that had a game to play, over the games): what a bot's setting costs a game.
fn timing_line(games: u64, seconds: f64, jobs: usize) -> String {
    let mut line = format!("{games} games in {seconds:.1} s");
    if games > 0 {
        let busy = (jobs.max(1) as u64).min(games);
        let each = seconds * busy as f64 / games as f64;
        line.push_str(&format!(
            " on {busy} job{}: {each:.2} s a game on one core",
            if busy == 1 { "" } else { "s" }
        ));
    }
    line
}
