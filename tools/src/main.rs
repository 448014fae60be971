//! `orrery`: the command line of the Orrery rules engine.

/// `println!` for a command's output: a write error ends the command cleanly ([`out`]).
macro_rules! outln {
    () => {
        $crate::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` for a command's output: a write error ends the command cleanly ([`out`]).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*))
    };
}

/// `eprintln!` for errors and diagnostics: control characters are escaped ([`out::clean`]).
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::out::error_line(format_args!($($arg)*))
    };
}

mod bench;
mod chart;
mod compare;
mod games;
mod init;
mod inspect;
mod interactive;
mod merge;
mod out;
mod pictures;
mod records;
mod render;
mod simulate;
mod source;
mod stack;
mod study;
mod tm;
mod trace;
mod train;
mod train_records;
mod viewer;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use orrery_core::game_module::GameModule;
use orrery_gp::content::Content;
use orrery_gp::game::Game;
use stack::Stack;

/// Orrery: a data-driven rules engine for board games (Gaia Project; Terraforming Mars in progress).
#[derive(Parser)]
#[command(name = "orrery", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where content comes from, and which variants to stack on it.
#[derive(clap::Args, Clone)]
pub struct ContentArgs {
    /// Content folder (holding `base/` and `variants/`); default: $ORRERY_CONTENT, else
    /// ./content when it exists, else the copy built into this binary.
    #[arg(long, value_name = "DIR")]
    content: Option<PathBuf>,
    /// A variant overlay (file, folder with overlay.yaml, or a name under the game's variants
    /// folder: content/variants/ for Gaia Project, content/terraforming-mars/variants/),
    /// repeatable, stacked in order on top of any variant the game already uses (the
    /// recording platform's, or a saved game's).
    #[arg(long = "variant", value_name = "FILE")]
    variants: Vec<String>,
    /// Leave out the recording platform's variant, which is otherwise applied to its records
    /// and to games saved from them.
    #[arg(long)]
    no_platform_variant: bool,
    /// The game (`gaia-project`, `terraforming-mars`); default: the one the content's rules
    /// file names with `game:`, else Gaia Project. A command the game does not offer exits 2.
    #[arg(long, value_name = "NAME")]
    game: Option<String>,
}

impl ContentArgs {
    /// The game: `--game`, else the one the content folder (`--content`, else
    /// `$ORRERY_CONTENT`) names, else Gaia Project.
    fn game(&self) -> Result<games::GameName, String> {
        let env = std::env::var_os("ORRERY_CONTENT").map(PathBuf::from);
        let dir = self.content.as_deref().or(env.as_deref());
        games::choose(self.game.as_deref(), dir)
    }

    /// The stack: `defaults` (the platform's variant, unless left out), then each `--variant`.
    fn stack(&self, defaults: &[&str]) -> Result<Stack, String> {
        let src = source::ContentSource::resolve(self.content.as_deref())?;
        self.finish(Stack::new(src, self.game()?.folders()), defaults)
    }

    /// Adds `defaults` and the `--variant`s to a stack, leaving out the platform's variant when
    /// asked to.
    fn finish(&self, stack: Stack, defaults: &[&str]) -> Result<Stack, String> {
        self.finish_with(stack, defaults, &self.variants)
    }

    /// [`ContentArgs::finish`] with `variants` in place of the `--variant`s (those a saved
    /// game's stack did not take as replacements).
    fn finish_with(
        &self,
        mut stack: Stack,
        defaults: &[&str],
        variants: &[String],
    ) -> Result<Stack, String> {
        if self.no_platform_variant {
            stack
                .variants
                .retain(|v| v.name != records::PLATFORM_VARIANT);
        }
        let mut names: Vec<String> = defaults
            .iter()
            .filter(|d| !(self.no_platform_variant && **d == records::PLATFORM_VARIANT))
            .map(|d| d.to_string())
            .collect();
        names.extend(variants.iter().cloned());
        for n in names {
            let overlay = stack.overlay(&n)?;
            stack.variants.push(stack::Variant { name: n, overlay });
        }
        Ok(stack)
    }

    /// Loads the content of the game `G` with its overlays, stating the stack on stderr and
    /// printing problems; returns the stack with it.
    fn load_stacked_as<G: GameModule>(
        &self,
        defaults: &[&str],
    ) -> Result<(Stack, G::Content), ExitCode> {
        let stack = self.stack(defaults).map_err(usage)?.for_game::<G>();
        errln!("{}", stack.describe());
        let content = stack.load_as::<G>().map_err(|diags| {
            for d in &diags {
                errln!("{d}");
            }
            ExitCode::from(1)
        })?;
        Ok((stack, content))
    }
}

/// Reports a usage problem (exit code 2).
fn usage(e: String) -> ExitCode {
    errln!("error: {e}");
    ExitCode::from(2)
}

/// Loads a stack, stating it on stderr; problems are printed and give exit code 1.
fn load_stack(stack: &Stack) -> Result<Content, ExitCode> {
    load_stack_as(stack, "")
}

/// [`load_stack`] with a label before the stated stack (`against `).
fn load_stack_as(stack: &Stack, label: &str) -> Result<Content, ExitCode> {
    errln!("{label}{}", stack.describe());
    stack.load().map_err(|diags| {
        for d in &diags {
            errln!("{d}");
        }
        ExitCode::from(1)
    })
}

#[derive(Subcommand)]
enum Command {
    /// Check every content file (and the variants stacked on it); report every problem.
    Validate {
        #[command(flatten)]
        content: ContentArgs,
    },
    /// Replay recorded games and compare every snapshot; one line per game, then `N/M games
    /// identical`. Without `--variant`, the recording platform's variant is applied.
    Conformance {
        #[command(flatten)]
        content: ContentArgs,
        /// Record files or folders (searched recursively for `*.json`).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Also print, per game, the content folder, the variants stacked on it (the
        /// record's faction boards included) and where the map came from.
        #[arg(long)]
        verbose: bool,
    },
    /// Replay a game log and print the scores (or why a move was refused).
    Replay {
        #[command(flatten)]
        content: ContentArgs,
        /// The log (a record: setup and moves).
        log: PathBuf,
        /// Stop after move N.
        #[arg(long)]
        until: Option<usize>,
        /// Write the state reached to this file.
        #[arg(long, value_name = "FILE")]
        save_state: Option<PathBuf>,
    },
    /// List the legal next parts in a saved state (`replay --save-state`): one part per line
    /// in the move notation, or JSON with `--json`.
    Moves {
        #[command(flatten)]
        content: ContentArgs,
        /// The saved state.
        state: PathBuf,
        /// Print JSON: the deciding seat, the decision, and each part as text and as data.
        #[arg(long)]
        json: bool,
        /// Show what each part costs and gains the deciding seat (resources, power areas,
        /// research, buildings, tiles), worked out by applying it to a copy, hooks included:
        /// after `  # ` in text, as `change` in JSON.
        #[arg(long)]
        explain: bool,
    },
    /// Replay a log line by line and print, per line, what each seat paid and gained and
    /// which hooks ran with what they returned (or how they failed). Exit 0, 1 when the log
    /// is invalid or a line is refused (the trace ends there, saying why), 2 on usage errors.
    Trace {
        #[command(flatten)]
        content: ContentArgs,
        /// The log (a record: setup and moves).
        log: PathBuf,
        /// Stop after move N.
        #[arg(long)]
        until: Option<usize>,
        /// Print JSON: each line with its seats' changes and its hook calls.
        #[arg(long)]
        json: bool,
    },
    /// Show an item's effective fields, each with the `file:line:col` it comes from (the
    /// overlay's line where a variant set it). Exit 0, 1 when the item does not exist or the
    /// content is invalid, 2 on usage errors.
    Explain {
        #[command(flatten)]
        content: ContentArgs,
        /// Item kind, as overlays and the schemas name it.
        #[arg(value_parser = clap::builder::PossibleValuesParser::new(inspect::kind_names()))]
        kind: String,
        /// Item id (none for `rules`, `board`, `map` and `research`); a card's id is its name
        /// (`orrery explain project "Comet" --game terraforming-mars`).
        id: Option<String>,
        /// Print JSON: the content stack and each field with its value and origin.
        #[arg(long)]
        json: bool,
    },
    /// What one content stack changes relative to another, item by item and field by field:
    /// `orrery diff --variant errata.yaml --against` (the base game), or `--against --variant
    /// old.yaml`. Exit 0 (with or without differences), 1 when either stack is invalid, 2 on
    /// usage errors.
    Diff {
        #[command(flatten)]
        content: ContentArgs,
        /// Print JSON: both stacks and each changed item with its fields' values and origins.
        #[arg(long)]
        json: bool,
        /// The stack to compare with: `--content`, `--variant` and `--no-platform-variant` given
        /// after it; nothing after it means the base game alone.
        #[arg(long, num_args = 0.., allow_hyphen_values = true, value_name = "OPTION", required = true)]
        against: Vec<String>,
    },
    /// A balance study: many seeded games played by bots, summed per faction, bot and seat.
    Simulate(simulate::SimulateArgs),
    /// Fit the learned evaluation `best` plays with from self-play games; write its weights.
    Train(train::TrainArgs),
    /// Combine the shards of one study into the file the whole study would have written.
    Merge {
        /// Shard files (`simulate --shard K/N --out FILE.json`).
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// The merged study (JSON, or CSV for a `.csv` name).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Compare two studies on the same seeds and line-ups (the base game and a variant, say),
    /// game by game: per faction the difference B − A in win rate and mean VP, with 95%
    /// intervals and p-values. Exit 0, 1 when a study cannot be read or the two do not pair.
    Compare {
        /// Study A (`simulate --out`).
        a: PathBuf,
        /// Study B, played on the same seeds, bots and factions.
        b: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Also draw the differences into this SVG file.
        #[arg(long, value_name = "FILE.svg")]
        chart: Option<PathBuf>,
    },
    /// Play against bots in the terminal, part by part (reads standard input).
    Play(interactive::PlayArgs),
    /// Measure the engine's speed: content load, replaying records, listing, cloning and
    /// applying parts, random games; each figure with its target.
    Bench {
        #[command(flatten)]
        content: ContentArgs,
        /// Record files or folders (default: tests/data/conformance).
        paths: Vec<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Draw a board as SVG: a log's state after move N (default: the last), or a saved state.
    Render {
        #[command(flatten)]
        content: ContentArgs,
        /// The log (a record: setup and moves).
        log: Option<PathBuf>,
        /// Draw the state after this move (0: the setup).
        #[arg(long = "move", value_name = "N")]
        at: Option<usize>,
        /// Draw a state saved by `replay --save-state` instead of a log.
        #[arg(long, value_name = "STATE.json", conflicts_with = "log")]
        state: Option<PathBuf>,
        /// Write here (default: standard output).
        #[arg(short, long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Write one self-contained HTML page stepping through a log move by move.
    View {
        #[command(flatten)]
        content: ContentArgs,
        /// The log (a record: setup and moves).
        log: PathBuf,
        /// Write here (default: standard output).
        #[arg(short, long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Draw balance-study charts (`orrery-study/1` JSON); two studies are compared side by side.
    Chart {
        /// Study files.
        #[arg(required = true)]
        studies: Vec<PathBuf>,
        /// Write here (default: standard output).
        #[arg(short, long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Write the JSON Schemas of the content files. With `--ids`, id fields (planet types,
    /// buildings, tracks, federation tokens, sectors, resource codes) are enums of the ids of
    /// the content stack, and overlay `set` values are typed by their kind and path. Exit 0,
    /// 1 when the content is invalid or a file cannot be written, 2 on usage errors.
    Schema {
        /// Folder to write to.
        #[arg(long, value_name = "DIR", default_value = "schemas")]
        out: PathBuf,
        /// Make id fields enums of the ids of the content stack (base plus `--variant`s).
        #[arg(long)]
        ids: bool,
        #[command(flatten)]
        content: ContentArgs,
    },
    /// Set up a designer's folder: `schemas/` knowing the content's ids, and a starting
    /// overlay `variants/my-variant.yaml` (or, with `--from`, a copy of an overlay folder; with
    /// `--copy-base`, also a copy of the base game in `base/`), every file with a `$schema`
    /// modeline that resolves inside DIR. Exit 0, 1 when a file cannot be read or written or
    /// DIR already holds one of them, 2 on usage errors.
    Init {
        /// The folder to set up (created if missing).
        dir: PathBuf,
        /// Also copy the base game's files into DIR/base, to edit it as a whole.
        #[arg(long)]
        copy_base: bool,
        /// Start from a copy of this overlay folder (its `overlay.yaml` and the scripts it
        /// names), written to DIR itself so that DIR is an overlay folder:
        /// `orrery validate --variant DIR`. Replaces the starting `variants/my-variant.yaml`.
        #[arg(long, value_name = "OVERLAY_FOLDER")]
        from: Option<PathBuf>,
        #[command(flatten)]
        content: ContentArgs,
    },
}

/// The files a command reads and writes, for [`out::Paths::clash`].
fn paths(command: &Command) -> out::Paths<'_> {
    use std::path::Path;
    let mut p = out::Paths::default();
    if let (_, Some(c)) = name_and_content(command) {
        p.inputs
            .extend(c.variants.iter().map(Path::new).filter(|v| v.is_file()));
    }
    match command {
        Command::Replay {
            log, save_state, ..
        } => {
            p.inputs.push(log);
            p.outputs
                .extend(save_state.as_deref().map(|s| ("--save-state", s)));
        }
        Command::Render {
            log, state, out, ..
        } => {
            p.inputs.extend(log.as_deref());
            p.inputs.extend(state.as_deref());
            p.outputs.extend(out.as_deref().map(|o| ("-o", o)));
        }
        Command::Trace { log, .. } => p.inputs.push(log),
        Command::View { log, out, .. } => {
            p.inputs.push(log);
            p.outputs.extend(out.as_deref().map(|o| ("-o", o)));
        }
        Command::Chart { studies, out } => {
            p.inputs.extend(studies.iter().map(PathBuf::as_path));
            p.outputs.extend(out.as_deref().map(|o| ("-o", o)));
        }
        Command::Merge { shards, out } => {
            p.inputs.extend(shards.iter().map(PathBuf::as_path));
            p.outputs.push(("--out", out));
        }
        Command::Compare { a, b, chart, .. } => {
            p.inputs.extend([a.as_path(), b.as_path()]);
            p.outputs.extend(chart.as_deref().map(|o| ("--chart", o)));
        }
        Command::Simulate(a) => {
            p.outputs.extend(a.out.as_deref().map(|o| ("--out", o)));
            p.outputs.extend(a.chart.as_deref().map(|o| ("--chart", o)));
            p.folders.extend(a.logs.as_deref().map(|l| ("--logs", l)));
        }
        Command::Play(a) => {
            p.outputs
                .extend(a.save_state.as_deref().map(|s| ("--save-state", s)));
        }
        _ => {}
    }
    p
}

/// The command's name as typed, and the content it reads (none for `merge` and `chart`).
fn name_and_content(command: &Command) -> (&'static str, Option<&ContentArgs>) {
    match command {
        Command::Validate { content } => ("validate", Some(content)),
        Command::Conformance { content, .. } => ("conformance", Some(content)),
        Command::Replay { content, .. } => ("replay", Some(content)),
        Command::Moves { content, .. } => ("moves", Some(content)),
        Command::Trace { content, .. } => ("trace", Some(content)),
        Command::Explain { content, .. } => ("explain", Some(content)),
        Command::Diff { content, .. } => ("diff", Some(content)),
        Command::Bench { content, .. } => ("bench", Some(content)),
        Command::Render { content, .. } => ("render", Some(content)),
        Command::View { content, .. } => ("view", Some(content)),
        Command::Schema { content, .. } => ("schema", Some(content)),
        Command::Init { content, .. } => ("init", Some(content)),
        Command::Simulate(a) => ("simulate", Some(&a.content)),
        Command::Train(a) => ("train", Some(&a.content)),
        Command::Play(a) => ("play", Some(&a.content)),
        Command::Merge { .. } => ("merge", None),
        Command::Chart { .. } => ("chart", None),
        Command::Compare { .. } => ("compare", None),
    }
}

/// Runs a command of a game other than Gaia Project, or refuses it (exit 2) when the game
/// does not offer it.
fn run_other_game(game: games::GameName, command: &Command) -> ExitCode {
    let (name, _) = name_and_content(command);
    if let Err(e) = game.offers(name) {
        return usage(e);
    }
    if game == games::GameName::TerraformingMars {
        type Tm = orrery_tm::game::Game;
        if let Some(code) = run_for::<Tm>(command, simulate::no_setups) {
            return code;
        }
        if let Some(code) = run_over_trait::<Tm>(command) {
            return code;
        }
    }
    match (game, command) {
        (games::GameName::TerraformingMars, Command::Conformance { content, paths, .. }) => {
            tm::conformance(content, paths)
        }
        (
            games::GameName::TerraformingMars,
            Command::Bench {
                content,
                paths,
                json,
            },
        ) => {
            let paths = if paths.is_empty() {
                vec![PathBuf::from("tests/data/terraforming-mars")]
            } else {
                paths.clone()
            };
            bench::run_tm(content, &paths, *json)
        }
        _ => usage(format!("{} does not offer `{name}`", game.id())),
    }
}

/// The commands written once for every game `G`; `None` for the others, which are the
/// game's own. `setups` reads `simulate --setups DIR` for the game.
fn run_for<G: GameModule>(command: &Command, setups: simulate::SetupReader<G>) -> Option<ExitCode> {
    if !games::EVERY_GAME.contains(&name_and_content(command).0) {
        return None;
    }
    Some(match command {
        Command::Validate { content } => validate::<G>(content),
        Command::Schema { out, ids, content } => schema_command::<G>(out, *ids, content),
        Command::Simulate(args) => simulate::run::<G>(args, setups),
        Command::Merge { shards, out } => merge::run(shards, out),
        Command::Chart { studies, out } => pictures::chart(studies, out.as_deref()),
        Command::Explain {
            content,
            kind,
            id,
            json,
        } => inspect::explain::<G>(content, kind, id.as_deref(), *json),
        Command::Diff {
            content,
            json,
            against,
        } => inspect::diff::<G>(content, against, *json),
        Command::Init {
            dir,
            copy_base,
            from,
            content,
        } => init::init::<G>(content, dir, *copy_base, from.as_deref()),
        _ => return None,
    })
}

/// `replay`, `moves`, `trace`, `play`, `render` and `view`, written once over [`GameModule`] for every
/// game that draws its board ([`pictures::Pictured`]); `None` for the others.
fn run_over_trait<G: pictures::Pictured>(command: &Command) -> Option<ExitCode> {
    Some(match command {
        Command::Replay {
            content,
            log,
            until,
            save_state,
        } => records::replay_as::<G>(content, log, *until, save_state.as_deref()),
        Command::Moves {
            content,
            state,
            json,
            explain,
        } => records::moves_as::<G>(content, state, *json, *explain),
        Command::Trace {
            content,
            log,
            until,
            json,
        } => trace::run_as::<G>(content, log, *until, *json),
        Command::Play(args) => interactive::run_as::<G>(args, interactive::board_svg::<G>),
        Command::Render {
            content,
            log,
            at,
            state,
            out,
        } => pictures::render::<G>(
            content,
            log.as_deref(),
            *at,
            state.as_deref(),
            out.as_deref(),
        ),
        Command::View { content, log, out } => pictures::view::<G>(content, log, out.as_deref()),
        _ => return None,
    })
}

/// The file a command reads a game from (a log or a saved game), which may name its game.
fn game_file(command: &Command) -> Option<&std::path::Path> {
    match command {
        Command::Replay { log, .. } | Command::Trace { log, .. } => Some(log),
        Command::Moves { state, .. } => Some(state),
        Command::Render { log, state, .. } => log.as_deref().or(state.as_deref()),
        Command::View { log, .. } => Some(log),
        _ => None,
    }
}

/// The content arguments of a command, to be changed (none for `merge`, `chart`, `compare`).
fn content_mut(command: &mut Command) -> Option<&mut ContentArgs> {
    match command {
        Command::Validate { content }
        | Command::Conformance { content, .. }
        | Command::Replay { content, .. }
        | Command::Moves { content, .. }
        | Command::Trace { content, .. }
        | Command::Explain { content, .. }
        | Command::Diff { content, .. }
        | Command::Bench { content, .. }
        | Command::Render { content, .. }
        | Command::View { content, .. }
        | Command::Schema { content, .. }
        | Command::Init { content, .. } => Some(content),
        Command::Simulate(a) => Some(&mut a.content),
        Command::Train(a) => Some(&mut a.content),
        Command::Play(a) => Some(&mut a.content),
        Command::Merge { .. } | Command::Chart { .. } | Command::Compare { .. } => None,
    }
}

fn main() -> ExitCode {
    let mut cli = Cli::parse();
    // No output may overwrite an input or another output (exit 2, before anything runs).
    if let Some(clash) = paths(&cli.command).clash() {
        return usage(clash);
    }
    // `--game`, else the game a log or saved game names, else the content's. A game named by
    // the file is taken as if given with `--game`, so that its named variants are found in
    // its own folder.
    let unnamed = name_and_content(&cli.command)
        .1
        .is_some_and(|c| c.game.is_none());
    let named = game_file(&cli.command)
        .filter(|_| unnamed)
        .and_then(games::named_by_file);
    if let Some(content) = content_mut(&mut cli.command) {
        if content.game.is_none() {
            content.game = named.map(|g| g.id().to_string());
        }
        match content.game() {
            Ok(games::GameName::GaiaProject) => {}
            Ok(other) => return run_other_game(other, &cli.command),
            Err(e) => return usage(e),
        }
    }
    if let Some(code) = run_for::<Game>(&cli.command, simulate::gaia_setups) {
        return code;
    }
    if let Some(code) = run_over_trait::<Game>(&cli.command) {
        return code;
    }
    match cli.command {
        Command::Validate { .. }
        | Command::Schema { .. }
        | Command::Simulate(_)
        | Command::Merge { .. }
        | Command::Chart { .. }
        | Command::Explain { .. }
        | Command::Diff { .. }
        | Command::Init { .. } => unreachable!("run_for runs these"),
        Command::Conformance {
            content,
            paths,
            verbose,
        } => records::conformance(&content, &paths, verbose),
        Command::Train(args) => train::run::<Game>(&args, Some(train_records::record_games)),
        Command::Bench {
            content,
            paths,
            json,
        } => {
            let paths = if paths.is_empty() {
                bench::default_paths()
            } else {
                paths
            };
            bench::run(&content, &paths, json)
        }
        Command::Compare { a, b, json, chart } => compare::run(&a, &b, json, chart.as_ref()),
        // `replay`, `moves`, `trace`, `play`, `render` and `view`.
        _ => unreachable!("run_over_trait runs the others"),
    }
}

/// `orrery validate`: the content's summary and warnings, or every problem (exit 1).
fn validate<G: GameModule>(args: &ContentArgs) -> ExitCode {
    let stack = match args.stack(&[]) {
        Ok(s) => s.for_game::<G>(),
        Err(e) => return usage(e),
    };
    errln!("{}", stack.describe());
    // Validating checks everything, the built-in content too.
    match stack.load_checked_as::<G>() {
        Ok(content) => {
            outln!("{}", G::summary(&content));
            // Warnings are not problems: the content loads.
            for w in G::warnings(&content) {
                outln!("{w}");
            }
            // A designer's folder made by `init` keeps schemas knowing its ids.
            if let Err(e) = init::refresh::<G>(&stack, &content) {
                errln!("error: {e}");
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Err(diags) => {
            for d in &diags {
                outln!("{}", out::clean(&d.to_string()));
            }
            errln!(
                "{} problem{} found",
                diags.len(),
                if diags.len() == 1 { "" } else { "s" }
            );
            ExitCode::from(1)
        }
    }
}

/// `orrery schema`: the game's schemas, or with `--ids` those knowing the content's ids.
fn schema_command<G: GameModule>(
    out: &std::path::Path,
    ids: bool,
    content: &ContentArgs,
) -> ExitCode {
    if !ids {
        return write_schemas(out, &G::schemas());
    }
    match content.load_stacked_as::<G>(&[]) {
        Ok((_, c)) => match G::schemas_with_ids(&c) {
            Some(schemas) => write_schemas(out, &schemas),
            None => usage(format!("{} does not offer `schema --ids`", G::ID)),
        },
        Err(code) => code,
    }
}

fn write_schemas(out: &std::path::Path, schemas: &[(&str, serde_json::Value)]) -> ExitCode {
    if let Err(e) = std::fs::create_dir_all(out) {
        errln!("error: cannot create {}: {e}", out.display());
        return ExitCode::from(2);
    }
    for (name, s) in schemas {
        let path = out.join(name);
        if let Err(e) = out::write_file(&path, orrery_core::schema::render(s).as_bytes()) {
            errln!("error: {e}");
            return ExitCode::from(1);
        }
    }
    outln!("wrote {} schemas to {}", schemas.len(), out.display());
    ExitCode::SUCCESS
}
