//! Finding content: `--content DIR`, else `$ORRERY_CONTENT`, else `./content`, else the copy
//! embedded in the binary; and reading variant overlays.

use std::path::{Path, PathBuf};

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
