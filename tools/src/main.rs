//! `orrery`: the command line of the Orrery rules engine.

mod source;

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

#[derive(Subcommand)]
enum Command {
    /// Check every content file (and the variants stacked on it); report every problem.
    Validate {
        #[command(flatten)]
        content: ContentArgs,
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
    }
}

fn validate(args: &ContentArgs) -> ExitCode {
    let src = match source::ContentSource::resolve(args.content.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let overlays = match src.overlays(&args.variants) {
        Ok(o) => o,
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
