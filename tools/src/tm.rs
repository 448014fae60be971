//! The command only Terraforming Mars has: `conformance` (its recorded games of the public
//! engine). `validate`, `schema` and `simulate` are the commands written once for every game
//! ([`orrery_tm::module`]). The content is `--content DIR`, else `./content/terraforming-mars`,
//! else the copy built into the binary.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use orrery_core::diagnostics::Diagnostic;
use orrery_core::files::{ContentFiles, DirFiles};
use orrery_tm::content::{self, Content};
use orrery_tm::record::Record;
use rayon::prelude::*;

/// The content files: the folder given, else the repository's, else the built-in copy.
fn files(dir: Option<&Path>) -> Box<dyn ContentFiles> {
    let local = Path::new("content/terraforming-mars");
    match dir {
        Some(d) => Box::new(DirFiles::new(d)),
        None if local.join("rules.yaml").is_file() => Box::new(DirFiles::new(local)),
        None => Box::new(crate::source::embedded_under(
            "terraforming-mars/",
            "<built-in>/terraforming-mars",
        )),
    }
}

/// Loads the content, stating where it comes from on stderr.
fn load(dir: Option<&Path>) -> Result<Content, Vec<Diagnostic>> {
    let files = files(dir);
    errln!("content: {} (terraforming-mars)", files.display_name(""));
    content::load_files(files.as_ref())
}

/// `orrery conformance` for Terraforming Mars: one line per record (`ok`, or `FAIL` with the
/// first difference), then `N/M games identical`; exit 0 when all are, 1 otherwise.
pub fn conformance(dir: Option<&Path>, paths: &[PathBuf]) -> ExitCode {
    let content = match load(dir) {
        Ok(c) => Arc::new(c),
        Err(diags) => {
            for d in &diags {
                errln!("{d}");
            }
            return ExitCode::from(1);
        }
    };
    let mut files = Vec::new();
    for p in paths {
        if !p.exists() {
            errln!("error: {} does not exist", p.display());
            return ExitCode::from(2);
        }
        crate::records::collect_ending(p, &[".json", ".json.gz"], &mut files);
    }
    let results: Vec<Result<(), String>> = files
        .par_iter()
        .map(|f| {
            let r = Record::load(f)?;
            let replay = orrery_tm::conformance::replay(content.clone(), &r);
            match replay.difference {
                None => Ok(()),
                Some(d) => Err(format!(
                    "{}/{} moves identical; {d}",
                    replay.identical, replay.total
                )),
            }
        })
        .collect();
    let mut ok = 0;
    for (f, result) in files.iter().zip(results) {
        match result {
            Ok(()) => {
                ok += 1;
                outln!("ok {}", f.display());
            }
            Err(e) => outln!("FAIL {} {}", f.display(), crate::out::clean(&e)),
        }
    }
    outln!("{ok}/{} games identical", files.len());
    if ok == files.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
