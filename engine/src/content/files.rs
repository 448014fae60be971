//! Where content files come from: a folder on disk or an in-memory set.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A read-only set of content files addressed by relative paths with `/` separators.
pub trait ContentFiles {
    /// Every file's relative path, sorted.
    fn list(&self) -> Vec<String>;
    /// A file's text.
    fn read(&self, rel: &str) -> Result<String, String>;
    /// How to name a file in messages (e.g. with the folder prefixed).
    fn display_name(&self, rel: &str) -> String;
}

/// Content files in a folder.
#[derive(Debug, Clone)]
pub struct DirFiles {
    root: PathBuf,
}

impl DirFiles {
    /// Content under `root`.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        DirFiles { root: root.into() }
    }

    fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let rel = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}/{name}")
            };
            let path = entry.path();
            if path.is_dir() {
                Self::walk(&path, &rel, out);
            } else {
                out.push(rel);
            }
        }
    }
}

impl ContentFiles for DirFiles {
    fn list(&self) -> Vec<String> {
        let mut out = Vec::new();
        Self::walk(&self.root, "", &mut out);
        out.sort();
        out
    }

    fn read(&self, rel: &str) -> Result<String, String> {
        std::fs::read_to_string(self.root.join(rel)).map_err(|e| e.to_string())
    }

    fn display_name(&self, rel: &str) -> String {
        self.root.join(rel).to_string_lossy().into_owned()
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
