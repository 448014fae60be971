//! `orrery train`: fits the learned evaluation the `best` bot plays with. Self-play games are
//! played by a given bot; each seat's features ([`Evaluate::features`]) are noted at the start
//! of every decision and labelled with the score the seat finished with; a ridge least-squares
//! fit of those scores on the features is written as a weights file
//! (`content/bots/<game>.yaml` by default, read by `simulate` for `best`). Deterministic from
//! its seed, whatever the number of jobs. Also where the weights file is found and read.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use orrery_core::bot::{self, fit, Model};
use orrery_core::files::{read_bounded, MAX_CONTENT_FILE_BYTES};
use orrery_core::game_module::{GameModule, Start};
use orrery_core::rng::Rng;
use rayon::prelude::*;

use crate::source::ContentSource;
use crate::stack::Stack;
pub use crate::train_records::RecordGame;
use crate::ContentArgs;

/// The folder of a content folder (and of the built-in copy) holding weights files.
pub const WEIGHTS_DIR: &str = "bots";

/// The options of `train`.
#[derive(clap::Args)]
pub struct TrainArgs {
    #[command(flatten)]
    pub content: ContentArgs,
    /// Self-play games to learn from (0: only the `--records`).
    #[arg(long, default_value_t = 200)]
    pub games: u64,
    /// Recorded games to learn from as well (files, or folders searched for `*.json`;
    /// repeatable, or separated by commas): each replayed on the content `replay` gives it,
    /// every seat's features noted at the start of each decision and labelled with the
    /// seat's final score. Every tenth record is held out of the fit whose error is reported.
    #[arg(long, value_name = "PATH", value_delimiter = ',')]
    pub records: Vec<PathBuf>,
    /// How much each sample of a record counts against one of self-play (above 0).
    #[arg(long, default_value_t = 1.0, value_name = "W")]
    pub record_weight: f64,
    /// Seats per game: a number, or several separated by commas, taken in turn game by game.
    #[arg(long, default_value = "2,3,4")]
    pub players: String,
    /// The bot every seat plays with (as `simulate --bots` names it; `best` plays with
    /// `--weights`, else the content's weights file).
    #[arg(long, default_value = "search")]
    pub bot: String,
    /// A weights file for `best` to play the self-play games with (default: the content's).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// The ridge penalty on the standardised weights (0: plain least squares); several
    /// separated by commas write one file each (the first to `--out`, the others beside it
    /// with `-ridge-R` added to the name), with the held-out error of each.
    #[arg(long, default_value = "0.01")]
    pub ridge: String,
    /// Fit the final score itself rather than a correction to the game's heuristic value
    /// (by default the model is the heuristic plus what the fit adds).
    #[arg(long)]
    pub from_scratch: bool,
    /// Fit by temporal differences: each position is asked to be worth what the same seat's
    /// position K decisions later is worth by the model (the final score within K of the
    /// end), so the fit learns what changes within a game rather than which games went
    /// well (0: fit every position to its final score).
    #[arg(long, default_value_t = 0, value_name = "K")]
    pub td: usize,
    /// Let weights be negative (by default each is held at 0 or above: every feature counts
    /// something it is good to hold).
    #[arg(long)]
    pub signed: bool,
    /// Explore: each part of a decision after its first paid part (a tile, a booster, a track
    /// an action takes) is chosen at random among the legal paid parts with this chance, in
    /// thousandths (0 to 1000), so every choice turns up in the games learned from.
    #[arg(long, default_value_t = 0, value_name = "PER_MILLE")]
    pub explore: u32,
    /// Floors under weights whose worth is known, `name=W` separated by commas (e.g.
    /// `pass vp x passes left=1`: a VP to come at a pass is a VP): the fit adds to them
    /// (held at 0 or above unless `--signed`) what the games show.
    #[arg(long, default_value = "", value_name = "NAME=W,...")]
    pub floor: String,
    /// The seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Where to write the weights (default: the content folder's `bots/<game>.yaml`).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Most parts one self-play game may take.
const MAX_PARTS: usize = crate::simulate::MAX_PARTS;

/// The most decisions `--td` may look ahead.
const MAX_TD: usize = 10_000;

/// Every tenth game is held out of the fit whose error is reported.
const HOLD_OUT: u64 = 10;

/// The feature names of `G` under `content`, read from a game started with `players` seats.
pub fn feature_names<G: GameModule>(
    content: &Arc<G::Content>,
    players: usize,
) -> Result<Vec<String>, String> {
    let game = start::<G>(content, players, 0)?;
    Ok(game.feature_names())
}

/// A game of `players` seats drawn from `seed`.
fn start<G: GameModule>(content: &Arc<G::Content>, players: usize, seed: u64) -> Result<G, String> {
    let how = Start {
        players,
        setup: None,
        identities: None,
        hook_budget: orrery_core::script::DEFAULT_HOOK_BUDGET,
    };
    G::start(
        content,
        how,
        &mut Rng::new(seed),
        &mut G::Scribe::default(),
        &mut Vec::new(),
    )
}

/// The weights file of `G` in a content source, as (name shown, text); `None` when the
/// source has none.
fn weights_in(source: &ContentSource, game: &str) -> Result<Option<(String, String)>, String> {
    let name = format!("{game}.yaml");
    match source {
        ContentSource::Dir(d) => {
            let path = d.join(WEIGHTS_DIR).join(&name);
            if !path.exists() {
                return Ok(None);
            }
            let text = read_bounded(&path, MAX_CONTENT_FILE_BYTES, false)?;
            Ok(Some((path.display().to_string(), text)))
        }
        ContentSource::Embedded => {
            let files = source.files_in(WEIGHTS_DIR);
            if !files.list().contains(&name) {
                return Ok(None);
            }
            Ok(Some((files.display_name(&name), files.read(&name)?)))
        }
    }
}

/// The learned evaluation for `G`: the file `weights` when given, else the content's
/// `bots/<game>.yaml` (`None` when there is none), checked against the game's features.
pub fn load_model<G: GameModule>(
    stack: &Stack,
    content: &Arc<G::Content>,
    players: usize,
    weights: Option<&Path>,
) -> Result<Option<Arc<Model>>, String> {
    let found = match weights {
        Some(p) => Some((
            p.display().to_string(),
            read_bounded(p, MAX_CONTENT_FILE_BYTES, true)?,
        )),
        None => weights_in(&stack.source, G::ID)?,
    };
    let Some((shown, text)) = found else {
        return Ok(None);
    };
    let names = feature_names::<G>(content, players)?;
    Model::parse(&text, &shown, G::ID, &names).map(|m| Some(Arc::new(m)))
}

/// What names a learned evaluation in a study file: a 64-bit FNV-1a hash of the model as
/// written back (`fnv1a64:<hex>`, the same for the same weights wherever the file lies) and
/// the command that trained it.
pub fn identity(model: &Model) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in model.to_yaml().bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x} ({})", model.trained)
}

/// The samples of self-play game `index`, and its seat count.
fn game_samples<G: GameModule>(
    content: &Arc<G::Content>,
    args: &TrainArgs,
    players: &[usize],
    model: Option<&Arc<Model>>,
    index: u64,
) -> Result<Vec<fit::Sample>, String> {
    let p = players[(index % players.len() as u64) as usize];
    let seed = Rng::new(args.seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64();
    let mut game = start::<G>(content, p, seed)?;
    let mut bots: Vec<_> = (0..p)
        .map(|s| {
            let bot_seed = seed.wrapping_add(s as u64 + 1);
            let b = bot::by_name_with::<G>(&args.bot, bot_seed, model)
                .ok_or_else(|| format!("unknown bot `{}`", args.bot))?;
            if args.explore == 0 {
                return Ok(b);
            }
            let explored: Box<dyn bot::Bot<G> + Send> =
                Box::new(bot::Exploring::new(b, args.explore, !bot_seed));
            Ok(explored)
        })
        .collect::<Result<_, String>>()?;
    fit::self_play(&mut game, &mut bots, MAX_PARTS).map_err(|e| format!("game {index}: {e}"))
}

/// Root mean squared error of `predict` over samples.
fn rmse(samples: &[&fit::Sample], predict: impl Fn(&fit::Sample) -> f64) -> f64 {
    let n = samples.len().max(1) as f64;
    (samples
        .iter()
        .map(|s| (predict(s) - s.target).powi(2))
        .sum::<f64>()
        / n)
        .sqrt()
}

/// Reads the samples of recorded games of `G` (files or folders): each game's, and the
/// records skipped with why. Games without records to learn from have none.
pub type RecordReader =
    fn(&ContentArgs, &[PathBuf], &[String]) -> Result<(Vec<RecordGame>, Vec<String>), String>;

/// `orrery train` for the game `G`; `records` reads its recorded games, if it has any.
pub fn run<G: GameModule>(args: &TrainArgs, records: Option<RecordReader>) -> ExitCode {
    match train::<G>(args, records) {
        Ok(()) => ExitCode::SUCCESS,
        Err((msg, code)) => {
            errln!("error: {msg}");
            ExitCode::from(code)
        }
    }
}

fn train<G: GameModule>(
    args: &TrainArgs,
    read_records: Option<RecordReader>,
) -> Result<(), (String, u8)> {
    let usage = |m: String| (m, 2u8);
    let failed = |m: String| (m, 1u8);
    let players: Vec<usize> = args
        .players
        .split(',')
        .map(|p| p.trim().parse().ok().filter(|n| (1..=8).contains(n)))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            usage(format!(
                "--players wants numbers 1 to 8, got `{}`",
                args.players
            ))
        })?;
    let least = if args.records.is_empty() { 2 } else { 0 };
    if args.games < least || args.games > 1_000_000 {
        return Err(usage(format!(
            "--games must be {least} to 1000000, got {}",
            args.games
        )));
    }
    if !(args.record_weight.is_finite() && args.record_weight > 0.0 && args.record_weight <= 1e6) {
        return Err(usage(format!(
            "--record-weight must be above 0 and at most 1e6, got {}",
            args.record_weight
        )));
    }
    if !args.records.is_empty() && read_records.is_none() {
        return Err(usage(format!("{} has no records to learn from", G::ID)));
    }

    if args.explore > bot::EXPLORE_MAX_PER_MILLE {
        return Err(usage(format!(
            "--explore must be 0 to {} (thousandths), got {}",
            bot::EXPLORE_MAX_PER_MILLE,
            args.explore
        )));
    }
    if args.td > MAX_TD {
        return Err(usage(format!(
            "--td must be 0 to {MAX_TD}, got {}",
            args.td
        )));
    }
    let ridges: Vec<f64> = args
        .ridge
        .split(',')
        .map(|r| {
            r.trim()
                .parse()
                .ok()
                .filter(|r: &f64| (0.0..=1e6).contains(r))
        })
        .collect::<Option<_>>()
        .ok_or_else(|| {
            usage(format!(
                "--ridge wants numbers 0 to 1e6, got `{}`",
                args.ridge
            ))
        })?;
    if bot::by_name::<G>(&args.bot, 0).is_none() {
        return Err(usage(format!(
            "unknown bot `{}` (known: {}, search:N, search:N:W:D, best:N, best:N:W:D, best:N:W:D:R, best:N:W:D:R:K)",
            args.bot,
            bot::NAMES.join(", ")
        )));
    }
    let (stack, content) = args
        .content
        .load_stacked_as::<G>(&[])
        .map_err(|_| failed("the content does not load (problems above)".into()))?;
    let content = Arc::new(content);
    let names = feature_names::<G>(&content, players[0]).map_err(failed)?;
    if names.is_empty() {
        return Err(failed(format!(
            "{} describes no features to learn from",
            G::ID
        )));
    }
    let floors = fit::parse_floors(&args.floor, &names).map_err(usage)?;
    // Only `best` plays with a model: another bot's games need no weights file (nor one that
    // fits the features, which a change of features leaves behind until this run rewrites it).
    let model = if args.bot.starts_with("best") || args.weights.is_some() {
        load_model::<G>(&stack, &content, players[0], args.weights.as_deref()).map_err(failed)?
    } else {
        None
    };
    if args.bot.starts_with("best") && model.is_none() {
        errln!("note: no weights file, so `best` plays as `search`");
    }
    let out = match (&args.out, &stack.source) {
        (Some(o), _) => o.clone(),
        (None, ContentSource::Dir(d)) => d.join(WEIGHTS_DIR).join(format!("{}.yaml", G::ID)),
        (None, ContentSource::Embedded) => {
            return Err(usage(
                "no content folder to write the weights into: give --out".into(),
            ))
        }
    };
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| failed(format!("cannot start {jobs} threads: {e}")))?;
    let started = std::time::Instant::now();
    let games: Vec<Result<Vec<fit::Sample>, String>> = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .map(|i| game_samples::<G>(&content, args, &players, model.as_ref(), i))
            .collect()
    });
    let seconds = started.elapsed().as_secs_f64();
    let (recorded, skipped) = match read_records {
        Some(read) if !args.records.is_empty() => pool
            .install(|| read(&args.content, &args.records, &names))
            .map_err(failed)?,
        _ => (Vec::new(), Vec::new()),
    };
    let mut train_fit = fit::Fit::new(names.len());
    let mut all_fit = fit::Fit::new(names.len());
    let mut held: Vec<fit::Sample> = Vec::new();
    let mut held_records: Vec<fit::Sample> = Vec::new();
    let mut failures = 0;
    let base = if args.from_scratch { 0.0 } else { 1.0 };
    // The rows of one game's samples for the fit.
    let rows_of = |samples: &[fit::Sample], seats: usize| -> Vec<(Vec<f64>, f64)> {
        if args.td > 0 {
            fit::td_rows(samples, seats, args.td, base)
        } else {
            samples
                .iter()
                .map(|s| (s.features.clone(), s.target - base * s.heuristic))
                .collect()
        }
    };
    for (i, g) in games.into_iter().enumerate() {
        let samples = match g {
            Ok(s) => s,
            Err(e) => {
                errln!("{e}");
                failures += 1;
                continue;
            }
        };
        let held_out = i as u64 % HOLD_OUT == HOLD_OUT - 1;
        for (x, y) in rows_of(&samples, players[i % players.len()]) {
            let y = y - fit::floor_part(&floors, &x);
            all_fit.add(&x, y).map_err(failed)?;
            if !held_out {
                train_fit.add(&x, y).map_err(failed)?;
            }
        }
        if held_out {
            held.extend(samples);
        }
    }
    if failures > 0 {
        return Err(failed(format!(
            "{failures} self-play game(s) failed (above)"
        )));
    }
    let mut record_rows = 0;
    for (i, g) in recorded.iter().enumerate() {
        let held_out = i as u64 % HOLD_OUT == HOLD_OUT - 1;
        for (x, y) in rows_of(&g.samples, g.seats) {
            let y = y - fit::floor_part(&floors, &x);
            let place = |e: String| failed(format!("{}: {e}", g.path.display()));
            all_fit
                .add_weighted(&x, y, args.record_weight)
                .map_err(place)?;
            record_rows += 1;
            if !held_out {
                train_fit
                    .add_weighted(&x, y, args.record_weight)
                    .map_err(place)?;
            }
        }
        if held_out {
            held_records.extend(g.samples.iter().cloned());
        }
    }
    for s in &skipped {
        errln!("skipped {s}");
    }
    let refs: Vec<&fit::Sample> = held.iter().collect();
    let record_refs: Vec<&fit::Sample> = held_records.iter().collect();
    if args.games > 0 {
        outln!(
            "{} games ({:.1} s), {} positions; held-out: {} positions, RMSE of the final score {:.2} by the heuristic value",
            args.games,
            seconds,
            all_fit.rows() - record_rows,
            held.len(),
            rmse(&refs, |s| s.heuristic),
        );
    }
    if !args.records.is_empty() {
        outln!(
            "{} records ({} skipped), {} positions; held-out: {} records, {} positions, RMSE of the final score {:.2} by the heuristic value",
            recorded.len(),
            skipped.len(),
            record_rows,
            recorded.len() / HOLD_OUT as usize,
            held_records.len(),
            rmse(&record_refs, |s| s.heuristic),
        );
    }
    if all_fit.rows() < 2 {
        return Err(failed(format!(
            "{} positions to learn from, at least 2 are needed",
            all_fit.rows()
        )));
    }
    for (k, ridge) in ridges.iter().enumerate() {
        let trained = trained_command(args, *ridge);
        let fitted = |f: &fit::Fit| {
            f.model(*ridge, !args.signed, base, G::ID, &names, &trained)
                .map(|m| fit::with_floors(m, &floors))
                .map_err(failed)
        };
        let check = fitted(&train_fit)?;
        let path = if k == 0 {
            out.clone()
        } else {
            let stem = out
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            out.with_file_name(format!("{stem}-ridge-{ridge}.yaml"))
        };
        let by_model = |s: &fit::Sample| base * s.heuristic + check.eval(&s.features);
        let mut errors = Vec::new();
        if args.games > 0 {
            errors.push(format!("{:.2}", rmse(&refs, by_model)));
        }
        if !args.records.is_empty() {
            errors.push(format!(
                "{:.2} on the held-out records",
                rmse(&record_refs, by_model)
            ));
        }
        outln!(
            "ridge {ridge}: held-out RMSE {}; wrote {}",
            errors.join(", "),
            path.display()
        );
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| failed(format!("cannot create {}: {e}", dir.display())))?;
        }
        std::fs::write(&path, fitted(&all_fit)?.to_yaml())
            .map_err(|e| failed(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

/// The `orrery train` command that writes a model at `ridge`, for the weights file's `trained`
/// line: with `--games 0` the options only self-play reads (players, bot, exploring, seed) are
/// left out, since they change nothing.
fn trained_command(args: &TrainArgs, ridge: f64) -> String {
    // Players, bot, exploring and seed shape the self-play games alone.
    let self_play = args.games > 0;
    let mut line = format!("orrery train --games {}", args.games);
    if self_play {
        line.push_str(&format!(" --players {} --bot {}", args.players, args.bot));
    }
    line.push_str(&format!(" --ridge {ridge}"));
    if args.from_scratch {
        line.push_str(" --from-scratch");
    }
    if args.signed {
        line.push_str(" --signed");
    }
    if args.td > 0 {
        line.push_str(&format!(" --td {}", args.td));
    }
    if args.explore > 0 && self_play {
        line.push_str(&format!(" --explore {}", args.explore));
    }
    if !args.floor.trim().is_empty() {
        line.push_str(&format!(" --floor '{}'", args.floor));
    }
    if !args.records.is_empty() {
        line.push_str(&format!(
            " --records {}",
            crate::train_records::shown(&args.records)
        ));
        if args.record_weight != 1.0 {
            line.push_str(&format!(" --record-weight {}", args.record_weight));
        }
    }
    if self_play {
        line.push_str(&format!(" --seed {}", args.seed));
    }
    line
}
