//! The command only Terraforming Mars has: `conformance` (its recorded games of the public
//! engine). `validate`, `schema` and `simulate` are the commands written once for every game
//! ([`orrery_tm::module`]). The content is found as for every command (`--content DIR`, else
//! `$ORRERY_CONTENT`, else `./content`, else the built-in copy), with its `--variant`s.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use orrery_tm::record::Record;
use rayon::prelude::*;

/// `orrery conformance` for Terraforming Mars: one line per record (`ok`, or `FAIL` with the
/// first difference), then `N/M games identical`; exit 0 when all are, 1 otherwise. The
/// content is the command's stack (`--content`, `--variant`), stated on stderr.
pub fn conformance(args: &crate::ContentArgs, paths: &[PathBuf]) -> ExitCode {
    let content = match args.load_stacked_as::<orrery_tm::game::Game>(&[]) {
        Ok((_, c)) => Arc::new(c),
        Err(code) => return code,
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
