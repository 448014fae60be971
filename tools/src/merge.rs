//! `orrery merge`: combines the shards of one study (`simulate --shard K/N --out …`) into the
//! file the unsharded study would have written (timing aside).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::study::{self, Study};

fn read(path: &Path) -> Result<Study, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not a study file: {e}", path.display()))
}

/// Merges shard files into `out` and prints the summary table.
pub fn run(shards: &[PathBuf], out: &Path) -> ExitCode {
    let mut studies = Vec::new();
    for p in shards {
        match read(p) {
            Ok(s) => studies.push(s),
            Err(e) => {
                errln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    }
    let merged = match study::merge(studies) {
        Ok(m) => m,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    out!("{}", merged.table());
    outln!("{} games merged from {} shards", merged.games, shards.len());
    match crate::simulate::write_study(&merged, out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
