//! `orrery simulate`: a balance study — many seeded games played by bots, in parallel, summed
//! into a study file (see `study.rs`) and a summary table.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use orrery::bot::{self, Bot, PlayError};
use orrery::content::Content;
use orrery::game::{Game, Setup};
use orrery::notation::{Actor, Command, MoveLine};
use orrery::play_api::Playable;
use orrery::rng::Rng;
use rayon::prelude::*;

use crate::study::{Config, FactionChoice, Study};
use crate::ContentArgs;

/// Most parts one game may take before it is reported as stuck.
pub const MAX_PARTS: usize = 50_000;

/// The options of `simulate`.
#[derive(clap::Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub content: ContentArgs,
    /// Games in the whole study.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Seats per game.
    #[arg(long, default_value_t = 2)]
    pub players: usize,
    /// `random`, or faction ids separated by commas, rotated over seats.
    #[arg(long, default_value = "random")]
    pub factions: String,
    /// Bot names separated by commas (random, greedy, search, search:N, best), rotated over
    /// seats so each plays every seat equally often.
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
    /// Write each game as a record that `orrery replay` replays.
    #[arg(long, value_name = "DIR")]
    pub logs: Option<PathBuf>,
    /// Draw the study's charts (as `orrery chart` does) into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    /// Operations each game's script hooks may run in all (listing and bots' lookahead
    /// included); a game over it fails with that reason. Default: the engine's
    /// `DEFAULT_HOOK_BUDGET` (see docs/scripting.md).
    #[arg(long, value_name = "N", default_value_t = orrery::game::DEFAULT_HOOK_BUDGET)]
    pub hook_budget: u64,
}

/// One seat's result in one game.
struct SeatResult {
    faction: String,
    bot: String,
    vp: i32,
    won: bool,
    sources: BTreeMap<String, i32>,
}

/// One game's outcome.
struct GameResult {
    index: u64,
    outcome: Result<Vec<SeatResult>, String>,
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
struct Plan {
    content: Arc<Content>,
    config: Config,
    logs: Option<PathBuf>,
}

pub fn run(args: &SimulateArgs) -> ExitCode {
    match prepare(args) {
        Ok(plan) => execute(&plan, args),
        Err((msg, code)) => {
            eprintln!("error: {msg}");
            ExitCode::from(code)
        }
    }
}

fn prepare(args: &SimulateArgs) -> Result<Plan, (String, u8)> {
    let usage = |m: String| (m, 2u8);
    if !(1..=8).contains(&args.players) {
        return Err(usage(format!(
            "--players must be 1 to 8, got {}",
            args.players
        )));
    }
    let shard = match &args.shard {
        Some(s) => parse_shard(s).map_err(usage)?,
        None => [1, 1],
    };
    let bots: Vec<String> = args.bots.split(',').map(|b| b.trim().to_string()).collect();
    for b in &bots {
        if bot::by_name::<Game>(b, 0).is_none() {
            return Err(usage(format!(
                "unknown bot `{b}` (known: {}, search:N)",
                bot::NAMES.join(", ")
            )));
        }
    }
    let content = args.content.load(&[]).map_err(|_| {
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
        for f in &list {
            if content.faction(f).is_none() {
                return Err(usage(format!("unknown faction `{f}`")));
            }
        }
        if list.len() < args.players {
            return Err(usage(format!(
                "--factions names {} factions for {} seats",
                list.len(),
                args.players
            )));
        }
        FactionChoice::Given(list)
    };
    let config = Config {
        players: args.players,
        factions,
        bots,
        variants: args.content.variants.clone(),
        seed: args.seed,
        games: args.games,
        shard,
    };
    if let Some(dir) = &args.logs {
        std::fs::create_dir_all(dir)
            .map_err(|e| (format!("cannot create {}: {e}", dir.display()), 1))?;
    }
    Ok(Plan {
        content: Arc::new(content),
        config,
        logs: args.logs.clone(),
    })
}

fn execute(plan: &Plan, args: &SimulateArgs) -> ExitCode {
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
            eprintln!("error: cannot start {jobs} threads: {e}");
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
                let r = play_one(&plan.content, &plan.config, i, want_logs, args.hook_budget);
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut study = Study::new(plan.config.clone());
    study.timing.seconds = started.elapsed().as_secs_f64();
    let mut failed = 0;
    for r in &results {
        if let (Some(dir), Some(rec)) = (&plan.logs, &r.record) {
            let path = dir.join(format!("game-{:06}.json", r.index));
            let text = serde_json::to_string(rec).unwrap_or_default();
            if let Err(e) = std::fs::write(&path, text) {
                eprintln!("error: cannot write {}: {e}", path.display());
                return ExitCode::from(1);
            }
        }
        match &r.outcome {
            Ok(seats) => {
                study.games += 1;
                for (seat, s) in seats.iter().enumerate() {
                    study
                        .factions
                        .entry(s.faction.clone())
                        .or_default()
                        .add_game(s.won, s.vp, &s.sources);
                    study
                        .bots
                        .entry(s.bot.clone())
                        .or_default()
                        .add_game(s.won, s.vp, &s.sources);
                    study.seats[seat].add_game(s.won, s.vp, &s.sources);
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("game {}: {e}", r.index);
            }
        }
    }
    out!("{}", study.table());
    outln!(
        "{} games in {:.1} s{}",
        study.games,
        study.timing.seconds,
        if failed > 0 {
            format!("; {failed} failed (listed above)")
        } else {
            String::new()
        }
    );
    if let Some(out) = &args.out {
        if let Err(e) = write_study(&study, out) {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    }
    if let Some(path) = &args.chart {
        if let Err(e) = write_chart(&study, path) {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    }
    if failed > 0 {
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
    std::fs::write(path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes a study as JSON, or CSV for a `.csv` name.
pub fn write_study(study: &Study, out: &Path) -> Result<(), String> {
    let text = if out.extension().is_some_and(|e| e == "csv") {
        study.to_csv()
    } else {
        study.to_json()
    };
    std::fs::write(out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))
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

fn play_one(
    content: &Arc<Content>,
    config: &Config,
    index: u64,
    log: bool,
    hook_budget: u64,
) -> GameResult {
    let seed = game_seed(config.seed, index);
    let mut lines: Vec<String> = vec![format!("init {} s{}-{index}", config.players, config.seed)];
    let outcome = play_game(content, config, index, seed, &mut lines, hook_budget);
    // A failed game is logged too, as far as it went, with the reason.
    let record = log.then(|| match &outcome {
        Ok((game, _)) => record(game, &lines, config),
        Err(e) => {
            let mut rng = Rng::new(seed);
            let setup = Setup::random(content, config.players, &mut rng).ok();
            serde_json::json!({
                "source": "orrery simulate",
                "players": config.players,
                "variants": config.variants,
                "setup": setup,
                "moves": lines,
                "finished": false,
                "error": e,
            })
        }
    });
    GameResult {
        index,
        outcome: outcome.map(|(_, seats)| seats),
        record,
    }
}

/// Plays game `index`; returns the game at its end and each seat's result.
fn play_game(
    content: &Arc<Content>,
    config: &Config,
    index: u64,
    seed: u64,
    lines: &mut Vec<String>,
    hook_budget: u64,
) -> Result<(Game, Vec<SeatResult>), String> {
    let mut rng = Rng::new(seed);
    let setup = Setup::random(content, config.players, &mut rng).map_err(|e| e.to_string())?;
    let mut game = Game::new(content.clone(), setup).map_err(|e| e.to_string())?;
    game.set_hook_budget(hook_budget);
    let (factions, bot_names) = lineup(config, index);
    let mut line = LineWriter::default();
    for seat in 0..config.players {
        let pick = match &factions {
            Some(f) => Command::Faction(f[seat].as_str().into()),
            None => {
                let legal = game.legal();
                if legal.is_empty() {
                    return Err(format!("no faction left for seat {}", seat + 1));
                }
                legal[rng.below(legal.len())].clone()
            }
        };
        for part in [pick, Command::EndTurn] {
            line.note(&game, &part, lines);
            game.apply_part(&part)
                .map_err(|e| format!("seat {}: `{part}`: {e}", seat + 1))?;
        }
    }
    let mut bots: Vec<Box<dyn Bot<Game> + Send>> = bot_names
        .iter()
        .enumerate()
        .map(|(s, name)| {
            bot::by_name::<Game>(name, seed.wrapping_add(s as u64 + 1))
                .expect("bot names are checked before the study")
        })
        .collect();
    bot::play_game(&mut game, &mut bots, MAX_PARTS, |g, _, part| {
        line.note(g, part, lines)
    })
    .map_err(|e: PlayError| format!("{e} (seed {seed})"))?;
    let winners = game.winners();
    let scores = game.scores();
    let seats = (0..config.players)
        .map(|s| {
            let p = &game.state.players[s];
            SeatResult {
                faction: p.faction.to_string(),
                bot: bot_names[s].clone(),
                vp: scores[s],
                won: winners.contains(&s),
                sources: p
                    .vp_sources
                    .iter()
                    .map(|(k, v)| (k.to_string(), *v))
                    .collect(),
            }
        })
        .collect();
    Ok((game, seats))
}

/// Gathers parts into move lines: one line per decision, closed by `endturn`.
#[derive(Default)]
struct LineWriter {
    actor: Option<Actor>,
    parts: Vec<Command>,
}

impl LineWriter {
    /// Notes a part about to be played in `game`.
    fn note(&mut self, game: &Game, part: &Command, lines: &mut Vec<String>) {
        if self.actor.is_none() {
            let Some(seat) = game.deciding_seat() else {
                return;
            };
            let f = &game.state.players[seat].faction;
            self.actor = Some(if f.is_empty() {
                Actor::Seat(u8::try_from(seat + 1).unwrap_or(u8::MAX))
            } else {
                Actor::Faction(f.to_string())
            });
        }
        self.parts.push(part.clone());
        if *part == Command::EndTurn {
            if let Some(actor) = self.actor.take() {
                let parts = std::mem::take(&mut self.parts);
                lines.push(MoveLine::Turn { actor, parts }.to_string());
            }
        }
    }
}

/// A finished game as a record (`orrery replay` reads it).
fn record(game: &Game, lines: &[String], config: &Config) -> serde_json::Value {
    let scores = game.scores();
    serde_json::json!({
        "source": "orrery simulate",
        "players": config.players,
        "variants": config.variants,
        "setup": &*game.state.setup,
        "moves": lines,
        "finished": game.finished(),
        "final": (0..config.players).map(|s| serde_json::json!({
            "faction": game.state.players[s].faction.to_string(),
            "vp": scores[s],
        })).collect::<Vec<_>>(),
    })
}
