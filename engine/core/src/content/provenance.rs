//! Where every effective value of a loaded content set came from: its located trees after
//! every overlay, read by the game's [`KindTable`].

use super::kinds::{KindSpec, KindTable, Place};
use super::load::{Doc, Scripts};
use super::patch;
use crate::located::{LKind, LNode, Origin};

/// The located trees of a content set after overlays, and its scripts.
#[derive(Debug, Default)]
pub struct Provenance {
    table: Option<&'static KindTable>,
    docs: Vec<Doc>,
    scripts: Scripts,
    known_good: bool,
}

/// Two provenances are equal when they hold the same values in the same files (and the same
/// scripts), wherever each value was written: provenance says where content came from, and
/// content that reads the same is the same.
impl PartialEq for Provenance {
    fn eq(&self, other: &Self) -> bool {
        let same_table = match (self.table, other.table) {
            (Some(a), Some(b)) => std::ptr::eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same_table
            && self.docs.len() == other.docs.len()
            && self
                .docs
                .iter()
                .zip(&other.docs)
                .all(|(a, b)| a.file == b.file && a.tree.to_value() == b.tree.to_value())
            && self.scripts.len() == other.scripts.len()
            && self
                .scripts
                .iter()
                .zip(&other.scripts)
                .all(|((n, (_, a)), (m, (_, b)))| n == m && a == b)
    }
}

impl Provenance {
    /// The provenance of these documents.
    pub fn new(table: &'static KindTable, docs: Vec<Doc>, scripts: Scripts) -> Provenance {
        Provenance {
            table: Some(table),
            docs,
            scripts,
            known_good: false,
        }
    }

    /// Notes whether the content was a known-good copy whose schema checks were skipped.
    pub fn set_known_good(&mut self, known_good: bool) {
        self.known_good = known_good;
    }

    /// Whether the content was a known-good copy ([`super::known`]) whose schema checks were
    /// skipped when it was loaded.
    pub fn known_good(&self) -> bool {
        self.known_good
    }

    /// The game's kinds (`None` for an empty provenance).
    pub fn table(&self) -> Option<&'static KindTable> {
        self.table
    }

    /// Every document.
    pub fn docs(&self) -> &[Doc] {
        &self.docs
    }

    /// The origin of the value at a dotted `path` inside an item (`""` for the item itself).
    pub fn origin(&self, kind: &KindSpec, id: Option<&str>, path: &str) -> Option<Origin> {
        let mut cur = self.item(kind, id)?;
        for seg in path.split('.').filter(|s| !s.is_empty()) {
            cur = patch::step(cur, seg)?.0;
        }
        Some(cur.origin.clone())
    }

    /// The ids of the items of a kind, in content order; one `None` for a single item such as
    /// `rules`.
    pub fn ids(&self, kind: &KindSpec) -> Vec<Option<String>> {
        let Some(file) = self.table.and_then(|t| t.file_index(kind.file())) else {
            return Vec::new();
        };
        let mut docs = self.docs.iter().filter(|d| d.file == file);
        let Some(field) = kind.id else {
            return docs.take(1).map(|_| None).collect();
        };
        match kind.place {
            Place::File(_) => docs
                .filter_map(|d| d.tree.str_member(field).map(|s| Some(s.to_string())))
                .collect(),
            Place::List { key, .. } => docs
                .next()
                .and_then(|d| d.tree.at(&format!("/{key}")))
                .map(|n| match &n.kind {
                    LKind::Seq(items) => items
                        .iter()
                        .filter_map(|i| i.str_member(field).map(|s| Some(s.to_string())))
                        .collect(),
                    _ => Vec::new(),
                })
                .unwrap_or_default(),
        }
    }

    /// Every script by name (`x.rhai`), with the file it came from and its source.
    pub fn scripts(&self) -> &Scripts {
        &self.scripts
    }

    /// The located tree of one item (after every overlay).
    pub fn item(&self, kind: &KindSpec, id: Option<&str>) -> Option<&LNode> {
        let (doc, pointer) = patch::find_item(self.table?, &self.docs, kind, id)?;
        self.docs[doc].tree.at(&pointer)
    }
}
