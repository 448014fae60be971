//! Where content files come from: a folder on disk or an in-memory set; and reading one file
//! from disk within bounds (a plain file, not a link, a FIFO or a device, and not too big).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest content YAML file (or overlay file) accepted, in bytes. The base game's largest is
/// about 4 KB.
pub const MAX_CONTENT_FILE_BYTES: u64 = 1024 * 1024;
/// Largest game record (`replay`, `conformance`) read, in bytes. The largest recorded game in
/// `tests/data` is about 160 KB; parsing takes roughly 25 bytes of memory per byte read.
pub const MAX_RECORD_BYTES: u64 = 4 * 1024 * 1024;
/// Largest saved state (`moves`, `render --state`) read, in bytes.
pub const MAX_STATE_BYTES: u64 = 4 * 1024 * 1024;
/// Most entries (files and folders) a content folder may hold, all levels together.
pub const MAX_CONTENT_ENTRIES: usize = 1024;
/// Deepest folder nesting inside a content folder (`items/x.yaml` is depth 2).
pub const MAX_CONTENT_DEPTH: usize = 4;

/// A read-only set of content files addressed by relative paths with `/` separators.
pub trait ContentFiles {
    /// Every file's relative path, sorted.
    fn list(&self) -> Vec<String>;
    /// A file's text.
    fn read(&self, rel: &str) -> Result<String, String>;
    /// How to name a file in messages (e.g. with the folder prefixed).
    fn display_name(&self, rel: &str) -> String;
    /// What is wrong with the set itself, as `(shown path, message)`: entries that are not
    /// plain files or folders (links, FIFOs, devices), too many entries or too deep folders.
    fn problems(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// [`ContentFiles::list`] and [`ContentFiles::problems`] together (a folder is walked
    /// once for both).
    fn listing(&self) -> (Vec<String>, Vec<(String, String)>) {
        (self.list(), self.problems())
    }
    /// The known-good copy these files are compared with as loading reads them, if any
    /// ([`crate::content::known`]).
    fn known_good(&self) -> Option<&crate::content::known::KnownGood> {
        None
    }
}

/// What kind of file a path is, without following a link at the path itself.
fn kind_problem(meta: &std::fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_symlink() {
        Some("is a symbolic link; content folders hold plain files only (copy the file instead)")
    } else if t.is_file() || t.is_dir() {
        None
    } else {
        Some(
            "is not a plain file (a FIFO, socket or device); content folders hold plain files only",
        )
    }
}

/// Reads a plain file of at most `limit` bytes as text. Refuses what is not a plain file
/// (a FIFO, a device: opening one could block forever), a file larger than `limit`, and a file
/// that reads differently from its size on disk (a `/proc` pseudo-file reports 0 bytes).
/// With `follow_link` false, a symbolic link at `path` is refused too. Errors do not name the
/// path (callers do).
pub fn read_bounded(path: &Path, limit: u64, follow_link: bool) -> Result<String, String> {
    let meta = if follow_link {
        std::fs::metadata(path)
    } else {
        std::fs::symlink_metadata(path)
    }
    .map_err(|e| format!("cannot read: {e}"))?;
    if meta.file_type().is_symlink() {
        return Err("is a symbolic link; only plain files are read".to_string());
    }
    if !meta.is_file() {
        return Err(
            "is not a plain file (a folder, FIFO, socket or device); only plain files are read"
                .to_string(),
        );
    }
    if meta.len() > limit {
        return Err(format!(
            "{} bytes is larger than the limit of {limit} bytes",
            meta.len()
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 != meta.len() {
        return Err(format!(
            "reads {} bytes but its size on disk is {} (a pseudo-file such as /proc/…, or \
             a file changing while read); only plain files are read",
            bytes.len(),
            meta.len()
        ));
    }
    String::from_utf8(bytes).map_err(|_| "is not UTF-8 text".to_string())
}

/// Content files in a folder. Links, FIFOs and devices inside it are not followed or opened:
/// they are reported by [`ContentFiles::problems`]; the walk stops at
/// [`MAX_CONTENT_ENTRIES`] entries and [`MAX_CONTENT_DEPTH`] levels.
#[derive(Debug, Clone)]
pub struct DirFiles {
    root: PathBuf,
}

/// What one walk of a folder found.
#[derive(Default)]
struct Scan {
    files: Vec<String>,
    problems: Vec<(String, String)>,
    entries: usize,
}

impl DirFiles {
    /// Content under `root`.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        DirFiles { root: root.into() }
    }

    fn scan(&self) -> Scan {
        let mut scan = Scan::default();
        self.walk(&self.root, "", 1, &mut scan);
        scan.files.sort();
        scan
    }

    fn walk(&self, dir: &Path, prefix: &str, depth: usize, scan: &mut Scan) {
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) => {
                if !prefix.is_empty() {
                    scan.problems.push((
                        dir.display().to_string(),
                        format!("cannot read folder: {e}"),
                    ));
                }
                return;
            }
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            scan.entries += 1;
            if scan.entries > MAX_CONTENT_ENTRIES {
                scan.problems.push((
                    self.root.display().to_string(),
                    format!(
                        "holds more than {MAX_CONTENT_ENTRIES} entries; is this a content folder?"
                    ),
                ));
                return;
            }
            let rel = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}/{name}")
            };
            let path = entry.path();
            // `DirEntry::metadata` does not follow a link.
            let meta = match entry.metadata() {
                Ok(m) => m,
                Err(e) => {
                    scan.problems
                        .push((path.display().to_string(), format!("cannot read: {e}")));
                    continue;
                }
            };
            if let Some(problem) = kind_problem(&meta) {
                scan.problems
                    .push((path.display().to_string(), problem.to_string()));
            } else if meta.is_dir() {
                if depth >= MAX_CONTENT_DEPTH {
                    scan.problems.push((
                        path.display().to_string(),
                        format!("folders nest deeper than {MAX_CONTENT_DEPTH} levels"),
                    ));
                } else {
                    self.walk(&path, &rel, depth + 1, scan);
                }
            } else {
                scan.files.push(rel);
            }
            if scan.entries > MAX_CONTENT_ENTRIES {
                return;
            }
        }
    }
}

impl ContentFiles for DirFiles {
    fn list(&self) -> Vec<String> {
        self.scan().files
    }

    fn listing(&self) -> (Vec<String>, Vec<(String, String)>) {
        let scan = self.scan();
        (scan.files, scan.problems)
    }

    fn read(&self, rel: &str) -> Result<String, String> {
        read_bounded(&self.root.join(rel), MAX_CONTENT_FILE_BYTES, false)
    }

    fn display_name(&self, rel: &str) -> String {
        self.root.join(rel).to_string_lossy().into_owned()
    }

    fn problems(&self) -> Vec<(String, String)> {
        self.scan().problems
    }
}

/// Content files held in memory (embedded copies, tests).
#[derive(Debug, Clone, Default)]
pub struct MemFiles {
    /// Prefix shown before file names in messages.
    pub prefix: String,
    /// Relative path → text.
    pub files: BTreeMap<String, String>,
}

impl MemFiles {
    /// An in-memory set from `(path, text)` pairs.
    pub fn new(prefix: &str, files: &[(&str, &str)]) -> Self {
        MemFiles {
            prefix: prefix.to_string(),
            files: files
                .iter()
                .map(|(p, t)| (p.to_string(), t.to_string()))
                .collect(),
        }
    }
}

impl ContentFiles for MemFiles {
    fn list(&self) -> Vec<String> {
        self.files.keys().cloned().collect()
    }

    fn read(&self, rel: &str) -> Result<String, String> {
        self.files
            .get(rel)
            .cloned()
            .ok_or_else(|| format!("no such file: {rel}"))
    }

    fn display_name(&self, rel: &str) -> String {
        if self.prefix.is_empty() {
            rel.to_string()
        } else {
            format!("{}/{rel}", self.prefix.trim_end_matches('/'))
        }
    }
}

/// A variant overlay to stack on the content.
#[derive(Debug, Clone)]
pub struct OverlaySource {
    /// File name for messages.
    pub file: String,
    /// The overlay YAML.
    pub text: String,
    /// Scripts found beside the overlay: `(name, source)`.
    pub scripts: Vec<(String, String)>,
    /// Why the overlay file could not be read (not UTF-8, too large, not a plain file): the
    /// file is then refused by loading like a base file that cannot be read, not applied.
    pub problem: Option<String>,
}
