//! Content known to be good: a copy of the content a program was built with, which the
//! project's tests load with every check and no problem, alone and under each of its built-in
//! overlays. Loading compares what it reads with it byte for byte ([`ContentFiles::known_good`]):
//! checks that cannot fail on that content are skipped; anything else (another folder, one
//! changed or added file, an overlay that is not one of the built-in ones) is checked in full.

use std::sync::Arc;

use crate::files::{ContentFiles, OverlaySource};
use std::collections::BTreeMap;

/// A known-good copy of a game's content: its base files and its built-in overlays.
#[derive(Debug, Clone, Default)]
pub struct KnownGood {
    /// The base files by relative path, as [`ContentFiles::list`] names them.
    pub files: BTreeMap<String, String>,
    /// Each built-in overlay: its text and its scripts (`(name, source)`), as read.
    pub overlays: Vec<(String, Vec<(String, String)>)>,
}

impl KnownGood {
    /// Whether `overlay` is byte for byte one of the built-in overlays (its scripts included).
    pub fn knows_overlay(&self, overlay: &OverlaySource) -> bool {
        overlay.problem.is_none()
            && self
                .overlays
                .iter()
                .any(|(text, scripts)| *text == overlay.text && *scripts == overlay.scripts)
    }
}

/// Content files offered with the known-good copy loading compares them with.
pub struct Trusting {
    files: Box<dyn ContentFiles>,
    known: Arc<KnownGood>,
}

impl Trusting {
    /// `files`, compared with `known` as they are read.
    pub fn new(files: Box<dyn ContentFiles>, known: Arc<KnownGood>) -> Trusting {
        Trusting { files, known }
    }
}

impl ContentFiles for Trusting {
    fn list(&self) -> Vec<String> {
        self.files.list()
    }

    fn read(&self, rel: &str) -> Result<String, String> {
        self.files.read(rel)
    }

    fn display_name(&self, rel: &str) -> String {
        self.files.display_name(rel)
    }

    fn problems(&self) -> Vec<(String, String)> {
        self.files.problems()
    }

    fn listing(&self) -> (Vec<String>, Vec<(String, String)>) {
        self.files.listing()
    }

    fn known_good(&self) -> Option<&KnownGood> {
        Some(&self.known)
    }
}
