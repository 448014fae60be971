//! `orrery`: the command line of the Orrery rules engine.

mod chart;
mod pictures;
mod play;
mod render;
mod source;
mod viewer;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use orrery::content::{schema, Content};

/// Orrery: a data-driven rules engine for Gaia Project.
#[derive(Parser)]
#[command(name = "orrery", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where content comes from, and which variants to stack on it.
#[derive(clap::Args, Clone)]
struct ContentArgs {
    /// Content folder (holding `base/` and `variants/`); default: $ORRERY_CONTENT, else
    /// ./content when it exists, else the copy built into this binary.
    #[arg(long, value_name = "DIR")]
    content: Option<PathBuf>,
    /// A variant overlay (file, folder with overlay.yaml, or a name under content/variants/),
    /// repeatable, applied in order.
    #[arg(long = "variant", value_name = "FILE")]
    variants: Vec<String>,
}

impl ContentArgs {
    /// The content source and the overlays to stack (`default_variants` when none is named).
    fn sources(
        &self,
        default_variants: &[&str],
    ) -> Result<(source::ContentSource, Vec<orrery::content::OverlaySource>), String> {
        let src = source::ContentSource::resolve(self.content.as_deref())?;
        let names: Vec<String> = if self.variants.is_empty() {
            default_variants.iter().map(|s| s.to_string()).collect()
        } else {
            self.variants.clone()
        };
        let overlays = src.overlays(&names)?;
        Ok((src, overlays))
    }

    /// Loads the content with its overlays, printing problems.
    fn load(&self, default_variants: &[&str]) -> Result<Content, ExitCode> {
        let (src, overlays) = self.sources(default_variants).map_err(|e| {
            eprintln!("error: {e}");
            ExitCode::from(2)
        })?;
        Content::load(src.files().as_ref(), &overlays).map_err(|diags| {
            for d in &diags {
                eprintln!("{d}");
            }
            ExitCode::from(1)
        })
    }
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
    /// Write the JSON Schemas of the content files.
    Schema {
        /// Folder to write to.
        #[arg(long, value_name = "DIR", default_value = "schemas")]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate { content } => validate(&content),
        Command::Schema { out } => write_schemas(&out),
        Command::Conformance { content, paths } => play::conformance(&content, &paths),
        Command::Replay {
            content,
            log,
            until,
            save_state,
        } => play::replay(&content, &log, until, save_state.as_deref()),
        Command::Moves {
            content,
            state,
            json,
        } => play::moves(&content, &state, json),
        Command::Render {
            content,
            log,
            at,
            state,
            out,
        } => pictures::render(
            &content,
            log.as_deref(),
            at,
            state.as_deref(),
            out.as_deref(),
        ),
        Command::View { content, log, out } => pictures::view(&content, &log, out.as_deref()),
        Command::Chart { studies, out } => pictures::chart(&studies, out.as_deref()),
    }
}

fn validate(args: &ContentArgs) -> ExitCode {
    let (src, overlays) = match args.sources(&[]) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match Content::load(src.files().as_ref(), &overlays) {
        Ok(content) => {
            println!("{}", content.summary());
            ExitCode::SUCCESS
        }
        Err(diags) => {
            for d in &diags {
                println!("{d}");
            }
            eprintln!(
                "{} problem{} found",
                diags.len(),
                if diags.len() == 1 { "" } else { "s" }
            );
            ExitCode::from(1)
        }
    }
}

fn write_schemas(out: &std::path::Path) -> ExitCode {
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("error: cannot create {}: {e}", out.display());
        return ExitCode::from(2);
    }
    for (name, s) in schema::all() {
        let path = out.join(name);
        if let Err(e) = std::fs::write(&path, schema::render(&s)) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
    }
    println!("wrote {} schemas to {}", schema::all().len(), out.display());
    ExitCode::SUCCESS
}
