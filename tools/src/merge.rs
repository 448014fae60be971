//! `orrery merge`: combines the shards of one study (`simulate --shard K/N --out …`) into the
//! file the unsharded study would have written (timing aside). Each shard is checked as it is
//! read ([`Study::from_json_text`]); shards of other content or another study are refused.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use orrery_core::files::{read_bounded, MAX_STATE_BYTES};

use crate::study::{self, Study};

/// Reads one study file (`merge` and `chart` alike), bounded in size and checked.
pub fn read(path: &Path) -> Result<Study, String> {
    let text = read_bounded(path, MAX_STATE_BYTES, true)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Study::from_json_text(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Merges shard files into `out` and prints the summary table; exit 1 when a shard is
/// refused, or (after writing) when games failed.
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
    outln!(
        "{} games of {} merged from {} shards{}",
        merged.games,
        merged.config.games,
        shards.len(),
        if merged.failed.count > 0 {
            format!("; {} failed", merged.failed.count)
        } else {
            String::new()
        }
    );
    if let Err(e) = crate::simulate::write_study(&merged, out) {
        errln!("error: {e}");
        return ExitCode::from(1);
    }
    match merged.failed.summary() {
        Some(failed) => {
            errln!("error: {failed}");
            ExitCode::from(1)
        }
        None => ExitCode::SUCCESS,
    }
}
