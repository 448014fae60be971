//! Finding content: `--content DIR`, else `$ORRERY_CONTENT`, else `./content`, else the copy
//! embedded in the binary; and reading variant overlays.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use orrery_core::content::known::{KnownGood, Trusting};
use orrery_core::files::{read_bounded, MAX_CONTENT_FILE_BYTES};
use orrery_core::game_module::GameModule;
use orrery_core::script::MAX_SCRIPT_BYTES;
use orrery_gp::content::overlay::scripts_beside;
use orrery_gp::content::{ContentFiles, DirFiles, MemFiles, OverlaySource};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// Where a game's files are in a content source: its base files and its named variants
/// ([`GameModule::CONTENT_DIR`], [`GameModule::VARIANTS_DIR`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameFolders {
    /// The folder of the base files.
    pub base: &'static str,
    /// The folder of the named variants.
    pub variants: &'static str,
}

impl GameFolders {
    /// The folders of the game `G`.
    pub fn of<G: GameModule>() -> GameFolders {
        GameFolders {
            base: G::CONTENT_DIR,
            variants: G::VARIANTS_DIR,
        }
    }
}

/// Where the content set comes from.
#[derive(Clone)]
pub enum ContentSource {
    /// A content folder on disk (holding `base/`).
    Dir(PathBuf),
    /// The copy built into the binary.
    Embedded,
}

impl ContentSource {
    /// Picks the content source.
    pub fn resolve(flag: Option<&Path>) -> Result<ContentSource, String> {
        if let Some(dir) = flag {
            if !dir.is_dir() {
                return Err(format!("content folder {} does not exist", dir.display()));
            }
            return Ok(ContentSource::Dir(dir.to_path_buf()));
        }
        if let Some(env) = std::env::var_os("ORRERY_CONTENT") {
            let dir = PathBuf::from(env);
            if !dir.is_dir() {
                return Err(format!(
                    "ORRERY_CONTENT folder {} does not exist",
                    dir.display()
                ));
            }
            return Ok(ContentSource::Dir(dir));
        }
        let local = PathBuf::from("content");
        if local.join("base").is_dir() {
            return Ok(ContentSource::Dir(local));
        }
        Ok(ContentSource::Embedded)
    }

    /// A game's base files: the folder `dir` of the content folder (or the folder itself when
    /// it has none), or of the built-in copy.
    pub fn files_in(&self, dir: &str) -> Box<dyn ContentFiles> {
        match self {
            ContentSource::Dir(d) => {
                let base = d.join(dir);
                Box::new(DirFiles::new(if base.is_dir() { base } else { d.clone() }))
            }
            ContentSource::Embedded => Box::new(embedded_under(
                &format!("{dir}/"),
                &format!("<built-in>/{dir}"),
            )),
        }
    }

    /// A game's base files as [`ContentSource::files_in`] reads them, compared as they are
    /// read with the copy built into the binary: when they and the variants stacked on them
    /// are that copy, loading skips the checks that cannot fail on it ([`KnownGood`]).
    /// Without a pinned built-in copy ([`built_in_is_pinned`]) these are the plain files.
    pub fn trusted_files(&self, folders: GameFolders) -> Box<dyn ContentFiles> {
        if !built_in_is_pinned() {
            return self.files_in(folders.base);
        }
        Box::new(Trusting::new(
            self.files_in(folders.base),
            known_good(folders),
        ))
    }

    /// The folder on disk holding the named variants of a game with `folders`: its variants
    /// folder, or `variants/` of a content folder that holds the base files itself.
    fn variants_on_disk(dir: &Path, folders: GameFolders) -> PathBuf {
        if dir.join(folders.base).is_dir() {
            dir.join(folders.variants)
        } else {
            dir.join("variants")
        }
    }

    /// Where named variants are looked for, as a user would write it (for messages).
    pub fn variants_shown(&self, folders: GameFolders) -> String {
        match self {
            ContentSource::Dir(d) => Self::variants_on_disk(d, folders).display().to_string(),
            ContentSource::Embedded => format!("<built-in>/{}", folders.variants),
        }
    }

    /// The names of a game's variants (files without `.yaml`, and folders).
    pub fn variant_names(&self, folders: GameFolders) -> Vec<String> {
        let mut names: Vec<String> = match self {
            ContentSource::Dir(d) => std::fs::read_dir(Self::variants_on_disk(d, folders))
                .map(|r| {
                    r.flatten()
                        .filter_map(|e| {
                            let name = e.file_name().to_string_lossy().to_string();
                            if e.path().is_dir() {
                                Some(name)
                            } else {
                                name.strip_suffix(".yaml").map(str::to_string)
                            }
                        })
                        .collect()
                })
                .unwrap_or_default(),
            ContentSource::Embedded => {
                let prefix = format!("{}/", folders.variants);
                embedded::FILES
                    .iter()
                    .filter_map(|(rel, _)| rel.strip_prefix(prefix.as_str()))
                    .filter_map(|r| match r.split_once('/') {
                        Some((dir, _)) => Some(dir.to_string()),
                        None => r.strip_suffix(".yaml").map(str::to_string),
                    })
                    .collect()
            }
        };
        names.sort();
        names.dedup();
        names
    }

    /// Reads one variant: a file, a folder with `overlay.yaml`, or a name among the variants
    /// of the game with `folders`.
    pub fn overlay(&self, name: &str, folders: GameFolders) -> Result<OverlaySource, String> {
        let path = Path::new(name);
        // Anything there but a folder is read as an overlay file (a FIFO or device is
        // refused by name).
        if path.exists() && !path.is_dir() {
            return read_overlay_file(path, path.parent());
        }
        if path.is_dir() {
            return read_overlay_file(&path.join("overlay.yaml"), Some(path));
        }
        match self {
            ContentSource::Dir(d) => {
                let v = Self::variants_on_disk(d, folders);
                for cand in [v.join(name), v.join(format!("{name}.yaml"))] {
                    if cand.is_file() {
                        return read_overlay_file(&cand, cand.parent());
                    }
                    if cand.is_dir() {
                        return read_overlay_file(&cand.join("overlay.yaml"), Some(&cand));
                    }
                }
            }
            ContentSource::Embedded => {
                let shown = format!("<built-in>/{}", folders.variants);
                let files = embedded_under(&format!("{}/{name}/", folders.variants), &shown);
                if let Ok(text) = files.read("overlay.yaml") {
                    let scripts = named_scripts(&text, |name| files.read(name).ok().map(Ok))?;
                    return Ok(OverlaySource {
                        file: files.display_name("overlay.yaml"),
                        text,
                        scripts,
                        problem: None,
                    });
                }
                let flat = embedded_under(&format!("{}/", folders.variants), &shown);
                if let Ok(text) = flat.read(&format!("{name}.yaml")) {
                    return Ok(OverlaySource {
                        file: flat.display_name(&format!("{name}.yaml")),
                        text,
                        scripts: Vec::new(),
                        problem: None,
                    });
                }
            }
        }
        Err(format!(
            "variant \"{name}\" not found (a file, a folder with overlay.yaml, or a name under {}/)",
            self.variants_shown(folders)
        ))
    }
}

/// The scripts an overlay names (`script` changes without `source`), read from `files`;
/// a missing one is left for loading to report.
fn named_scripts(
    text: &str,
    mut read: impl FnMut(&str) -> Option<Result<String, String>>,
) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for name in scripts_beside(text) {
        match read(&name) {
            Some(Ok(src)) => out.push((name, src)),
            Some(Err(e)) => return Err(e),
            None => {}
        }
    }
    Ok(out)
}

/// Reads an overlay file and the scripts it names from its own folder `dir` (only those: an
/// overlay in a big folder reads nothing else there). The overlay itself may be reached
/// through a link (it was named); the scripts beside it must be plain files.
fn read_overlay_file(file: &Path, dir: Option<&Path>) -> Result<OverlaySource, String> {
    // A file that is there but cannot be read as content (not UTF-8, too large, a FIFO) is
    // refused by loading, as a base file would be (exit 1); only a missing one is a usage error.
    let text = match read_bounded(file, MAX_CONTENT_FILE_BYTES, true) {
        Ok(text) => text,
        Err(e) if std::fs::metadata(file).is_ok() => {
            return Ok(OverlaySource {
                file: file.display().to_string(),
                text: String::new(),
                scripts: Vec::new(),
                problem: Some(e),
            })
        }
        Err(e) => return Err(format!("{}: {e}", file.display())),
    };
    let read = named_scripts(&text, |name| {
        let path = dir?.join(name);
        // A missing file is loading's to report; anything else there must be readable.
        std::fs::symlink_metadata(&path).ok()?;
        Some(
            read_bounded(&path, MAX_SCRIPT_BYTES as u64, false)
                .map_err(|e| format!("{}: {e}", path.display())),
        )
    });
    let (scripts, problem) = match read {
        Ok(scripts) => (scripts, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    Ok(OverlaySource {
        file: file.display().to_string(),
        text,
        scripts,
        problem,
    })
}

/// The embedded files under `prefix`, named `shown/…` in messages.
pub(crate) fn embedded_under(prefix: &str, shown: &str) -> MemFiles {
    let mut m = MemFiles {
        prefix: shown.to_string(),
        ..Default::default()
    };
    for (rel, text) in embedded::FILES {
        if let Some(r) = rel.strip_prefix(prefix) {
            m.files.insert(r.to_string(), text.to_string());
        }
    }
    m
}

/// Whether the content built into the binary is the content the project's tests last loaded
/// with every check: its digest equals the one committed in `tools/known-good-content.txt`. A
/// binary built from edited content (a designer editing `content/` and rebuilding) trusts
/// nothing and checks everything.
pub fn built_in_is_pinned() -> bool {
    embedded::DIGEST == embedded::PINNED
}

/// The copy of a game's content built into the binary — its base files and its built-in
/// variants — as loading compares content with it; made once a process per game.
pub fn known_good(folders: GameFolders) -> Arc<KnownGood> {
    type Cache = Mutex<HashMap<(&'static str, &'static str), Arc<KnownGood>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    // A poisoned lock only means another thread panicked holding it; the map is still whole.
    let mut map = cache.lock().unwrap_or_else(PoisonError::into_inner);
    map.entry((folders.base, folders.variants))
        .or_insert_with(|| Arc::new(built_in(folders)))
        .clone()
}

/// The built-in copy of a game's content (see [`known_good`]).
fn built_in(folders: GameFolders) -> KnownGood {
    let base = embedded_under(&format!("{}/", folders.base), "");
    let variants = embedded_under(&format!("{}/", folders.variants), "");
    let mut overlays = Vec::new();
    for (rel, text) in &variants.files {
        let scripts = match rel.split_once('/') {
            None if rel.ends_with(".yaml") => Vec::new(),
            Some((dir, "overlay.yaml")) => {
                let read = named_scripts(text, |name| {
                    variants
                        .files
                        .get(&format!("{dir}/{name}"))
                        .cloned()
                        .map(Ok)
                });
                match read {
                    Ok(scripts) => scripts,
                    Err(_) => continue,
                }
            }
            _ => continue,
        };
        overlays.push((text.clone(), scripts));
    }
    KnownGood {
        files: base.files,
        overlays,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use orrery_core::diagnostics::Diagnostic;
    use orrery_gp::game::Game;
    use orrery_tm::game::Game as Tm;

    /// Loads `G`'s content from `files` under `overlays`; whether it was taken as known good
    /// (`known` reads it from the content).
    fn known_good_load<G: GameModule>(
        files: &dyn ContentFiles,
        overlays: &[OverlaySource],
        known: fn(&G::Content) -> bool,
    ) -> Result<bool, Vec<Diagnostic>> {
        G::load(files, overlays).map(|c| known(&c))
    }

    fn gp_known(c: &orrery_gp::content::Content) -> bool {
        c.provenance.known_good()
    }

    fn tm_known(c: &orrery_tm::content::Content) -> bool {
        c.provenance.known_good()
    }

    fn as_overlay(text: &str, scripts: &[(String, String)]) -> OverlaySource {
        OverlaySource {
            file: "<built-in variant>".into(),
            text: text.into(),
            scripts: scripts.to_vec(),
            problem: None,
        }
    }

    /// What earns the built-in copy its trust: it loads with every check and no problem,
    /// alone and under each of its variants, the combinations loading skips checks on.
    fn built_in_loads_with_every_check<G: GameModule>(known_of: fn(&G::Content) -> bool) {
        let folders = GameFolders::of::<G>();
        let known = known_good(folders);
        let files = ContentSource::Embedded.files_in(folders.base);
        assert!(files.known_good().is_none());
        assert_eq!(
            known_good_load::<G>(files.as_ref(), &[], known_of),
            Ok(false)
        );
        assert!(!known.overlays.is_empty());
        assert_eq!(
            known.overlays.len(),
            ContentSource::Embedded.variant_names(folders).len()
        );
        for (text, scripts) in &known.overlays {
            let overlay = as_overlay(text, scripts);
            let loaded = known_good_load::<G>(files.as_ref(), &[overlay], known_of);
            assert_eq!(loaded, Ok(false), "{text}");
        }
    }

    #[test]
    fn the_built_in_content_loads_with_every_check_alone_and_under_each_variant() {
        built_in_loads_with_every_check::<Game>(gp_known);
        built_in_loads_with_every_check::<Tm>(tm_known);
        // Only now may the content be pinned as known good.
        let pin = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("known-good-content.txt");
        if std::env::var_os("ORRERY_PIN_CONTENT").is_some() {
            let text = format!(
                "# The digest of content/ as the tests last loaded it with every check (see\n\
                 # tools/build.rs). Rewritten by ORRERY_PIN_CONTENT=1 cargo test --release -p orrery-tools.\n\
                 {}\n",
                embedded::DIGEST
            );
            std::fs::write(&pin, text).expect("the pin is written");
        } else {
            assert!(
                built_in_is_pinned(),
                "content/ changed since it was pinned as known good; run \
                 `ORRERY_PIN_CONTENT=1 cargo test --release -p orrery-tools` to check it and pin it, then run the tests again"
            );
        }
    }

    #[test]
    fn the_built_in_copy_is_known_good_and_an_edited_copy_is_checked_in_full() {
        let folders = GameFolders::of::<Game>();
        let embedded = ContentSource::Embedded;
        let boardgamers = embedded.overlay("boardgamers", folders).expect("built in");
        // From the binary, alone or under a built-in variant: the checks are skipped.
        let trusted = embedded.trusted_files(folders);
        assert_eq!(
            known_good_load::<Game>(trusted.as_ref(), &[], gp_known),
            Ok(true)
        );
        assert_eq!(
            known_good_load::<Game>(
                trusted.as_ref(),
                std::slice::from_ref(&boardgamers),
                gp_known
            ),
            Ok(true)
        );
        let tm = embedded.trusted_files(GameFolders::of::<Tm>());
        assert_eq!(known_good_load::<Tm>(tm.as_ref(), &[], tm_known), Ok(true));
        // The same files in a folder on disk: the same.
        let dir = std::env::temp_dir().join(format!("orrery-known-{}", std::process::id()));
        let base = dir.join(folders.base);
        for (rel, text) in &embedded_under(&format!("{}/", folders.base), "").files {
            let path = base.join(rel);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
            std::fs::write(&path, text).expect("written");
        }
        let on_disk = ContentSource::Dir(dir.clone()).trusted_files(folders);
        assert_eq!(
            known_good_load::<Game>(on_disk.as_ref(), &[], gp_known),
            Ok(true)
        );
        // One file edited: every check, and a schema error at its file, line and field.
        let rules = base.join("rules.yaml");
        let text = std::fs::read_to_string(&rules).expect("read");
        let line = text.lines().count() + 1;
        std::fs::write(&rules, format!("{text}bogus_field: 1\n")).expect("written");
        let edited = ContentSource::Dir(dir.clone()).trusted_files(folders);
        let result = known_good_load::<Game>(edited.as_ref(), &[boardgamers], gp_known);
        std::fs::remove_dir_all(&dir).expect("removed");
        let diags = result.expect_err("refused");
        assert!(
            diags.iter().any(|d| d.file.ends_with("rules.yaml")
                && d.pos.map(|p| p.line) == Some(line)
                && d.pointer == "/bogus_field"
                && d.message.starts_with("unknown field \"bogus_field\"")),
            "{diags:?}"
        );
    }
}
