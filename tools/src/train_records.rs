//! `orrery train --records`: samples from recorded Gaia Project games. Each record is replayed
//! on the content `conformance` and `replay` would give it (the training content with the
//! variants the record needs: the platform's for the platform's records, those a log of
//! `orrery simulate` names, and its faction boards), and every seat's features are noted at
//! the start of each decision, labelled with the seat's final score
//! ([`Game::record_samples`]), as self-play notes them.
//!
//! A record whose content describes other features than the training content (a variant
//! that adds a resource, say) is skipped and counted: its samples would not fit the
//! weights. A record that cannot be read or replayed, or that stops before the end, is
//! refused with its file named: what was asked to be learned from is not there.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use orrery_core::bot::fit;
use orrery_gp::content::Content;
use orrery_gp::game::Game;
use orrery_gp::record::Record;
use rayon::prelude::*;

use crate::records::{collect, read_record, record_defaults, RecordContent};
use crate::ContentArgs;

/// One recorded game's samples.
pub struct RecordGame {
    /// The record's file.
    pub path: PathBuf,
    /// Its seats.
    pub seats: usize,
    /// Its samples, in the order noted.
    pub samples: Vec<fit::Sample>,
}

/// The samples of every record under `paths` (files, or folders searched for `*.json`), in
/// path order; and the records skipped because their content describes other features than
/// `names`, with the reason.
pub fn record_games(
    args: &ContentArgs,
    paths: &[PathBuf],
    names: &[String],
) -> Result<(Vec<RecordGame>, Vec<String>), String> {
    let mut files = Vec::new();
    for p in paths {
        if !p.exists() {
            return Err(format!("--records: {} does not exist", p.display()));
        }
        collect(p, &mut files);
    }
    if files.is_empty() {
        return Err("--records: no *.json record found".into());
    }
    let mut contents: HashMap<Vec<String>, RecordContent> = HashMap::new();
    let mut jobs: Vec<(PathBuf, Arc<Content>, Record)> = Vec::new();
    let mut skipped = Vec::new();
    let mut names_of: HashMap<*const Content, bool> = HashMap::new();
    for f in files {
        let refused = |e: String| format!("{}: {}", f.display(), crate::out::clean(&e));
        let (record, platform, variants) = read_record(&f).map_err(refused)?;
        let defaults = record_defaults(&variants, platform);
        let rc = match contents.entry(defaults.clone()) {
            std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let d: Vec<&str> = defaults.iter().map(String::as_str).collect();
                let stack = args.stack(&d).map_err(refused)?.for_game::<Game>();
                v.insert(RecordContent::from_stack(stack))
            }
        };
        let (content, _) = rc.for_record(&record).map_err(refused)?;
        let fits = match names_of.get(&Arc::as_ptr(&content)) {
            Some(f) => *f,
            None => {
                let got = crate::train::feature_names::<Game>(&content, record.players)
                    .map_err(refused)?;
                let f = got == names;
                names_of.insert(Arc::as_ptr(&content), f);
                f
            }
        };
        if fits {
            jobs.push((f, content, record));
        } else {
            skipped.push(format!(
                "{}: its content describes other features than the training content",
                f.display()
            ));
        }
    }
    let games: Vec<Result<RecordGame, String>> = jobs
        .into_par_iter()
        .map(|(path, content, record)| {
            let samples = Game::record_samples(&content, &record)
                .map_err(|e| format!("{}: {}", path.display(), crate::out::clean(&e)))?;
            Ok(RecordGame {
                seats: record.players,
                path,
                samples,
            })
        })
        .collect();
    let games = games.into_iter().collect::<Result<Vec<_>, String>>()?;
    Ok((games, skipped))
}

/// How a path list is shown in the command a weights file records.
pub fn shown(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p: &PathBuf| Path::new(p).display().to_string())
        .collect::<Vec<_>>()
        .join(",")
}
