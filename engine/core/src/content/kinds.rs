//! The one table in which a game declares its content kinds: which files its content has
//! (with their schemas), and which items overlays, `explain` and `diff` address in them. Every
//! other part of the content pipeline — classifying files, finding items, the overlay schema,
//! typed `set` values, duplicate-id checks, field walks — reads this table.

use std::sync::OnceLock;

use serde_json::Value;

use crate::diagnostics::SchemaCheck;

/// One content file, or a folder of one-item files.
#[derive(Debug)]
pub struct FileSpec {
    /// Its path in a content folder: a file (`rules.yaml`), or a folder ending in `/` whose
    /// every `.yaml` file holds one item.
    pub path: &'static str,
    /// The file name of its schema (`rules.json`); several files may share one.
    pub schema: &'static str,
    /// Its schema, generated from the content type.
    pub schema_of: fn() -> Value,
}

impl FileSpec {
    /// Whether this is a folder of one-item files.
    pub fn is_folder(&self) -> bool {
        self.path.ends_with('/')
    }

    /// Whether a content-relative path is this file (`x.yaml` also as `x.yml`) or a file
    /// directly inside this folder.
    pub fn holds(&self, rel: &str) -> bool {
        if !is_yaml(rel) {
            return false;
        }
        if self.is_folder() {
            return rel
                .strip_prefix(self.path)
                .is_some_and(|rest| !rest.contains('/'));
        }
        stem(rel) == stem(self.path)
    }
}

fn is_yaml(rel: &str) -> bool {
    rel.ends_with(".yaml") || rel.ends_with(".yml")
}

fn stem(rel: &str) -> &str {
    rel.trim_end_matches(".yaml").trim_end_matches(".yml")
}

/// Where the items of a kind live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A whole file is the item; for a folder, each of its files is one item.
    File(&'static str),
    /// The elements of the list under `key` in a file.
    List {
        /// The file's path, as its [`FileSpec`] writes it.
        file: &'static str,
        /// The list's key at the top of the file.
        key: &'static str,
    },
}

/// One kind of item.
#[derive(Debug)]
pub struct KindSpec {
    /// Its name as overlays, `explain` and `diff` write it (`rules`, `card`).
    pub name: &'static str,
    /// What it is, one sentence (the overlay schema's description of the name).
    pub doc: &'static str,
    /// How messages name one item (`duplicate {noun} id`).
    pub noun: &'static str,
    /// Where its items are.
    pub place: Place,
    /// The field holding an item's id; `None` for a single item (a whole file).
    pub id: Option<&'static str>,
    /// Whether overlays, `explain` and `diff` address it; `false` for a list whose ids are
    /// only checked for duplicates.
    pub addressed: bool,
}

impl KindSpec {
    /// Its name as overlays write it.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Whether the kind is one item without an id.
    pub fn is_single(&self) -> bool {
        self.id.is_none()
    }

    /// The file its items are in.
    pub fn file(&self) -> &'static str {
        match self.place {
            Place::File(f) | Place::List { file: f, .. } => f,
        }
    }

    /// The JSON pointer of its list in the file (empty: the file is the item).
    pub fn list_pointer(&self) -> String {
        match self.place {
            Place::File(_) => String::new(),
            Place::List { key, .. } => format!("/{key}"),
        }
    }
}

impl PartialEq for KindSpec {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for KindSpec {}

/// The two compiled checks of an overlay file: its structure, and every value typed by kind
/// and path.
pub(crate) type OverlayChecks = (SchemaCheck, SchemaCheck);

/// A game's content kinds: its files and the items in them, declared once.
#[derive(Debug)]
pub struct KindTable {
    /// Every content file, in the order schemas and reports list them.
    pub files: &'static [FileSpec],
    /// Every kind, in the order `explain`, `diff` and the overlay schema list them.
    pub kinds: &'static [KindSpec],
    /// The folder holding the game's scripts (`scripts/`), if it has any.
    pub scripts: Option<&'static str>,
    /// Folders inside the content folder that loading passes over (`variants/` beside the
    /// base files, when a game keeps its overlays there).
    pub ignored: &'static [&'static str],
    checks: OnceLock<Result<OverlayChecks, String>>,
}

impl KindTable {
    /// A table of these files and kinds.
    pub const fn new(
        files: &'static [FileSpec],
        kinds: &'static [KindSpec],
        scripts: Option<&'static str>,
    ) -> KindTable {
        KindTable {
            files,
            kinds,
            scripts,
            ignored: &[],
            checks: OnceLock::new(),
        }
    }

    /// A table of these files and kinds whose loading passes over the files under the
    /// folders `ignored` (each ending in `/`).
    pub const fn ignoring(
        files: &'static [FileSpec],
        kinds: &'static [KindSpec],
        scripts: Option<&'static str>,
        ignored: &'static [&'static str],
    ) -> KindTable {
        KindTable {
            files,
            kinds,
            scripts,
            ignored,
            checks: OnceLock::new(),
        }
    }

    /// Whether loading passes over this content-relative path.
    pub fn is_ignored(&self, rel: &str) -> bool {
        self.ignored.iter().any(|f| rel.starts_with(f))
    }

    /// The index of the file a content-relative path is, if it is one.
    pub fn classify(&self, rel: &str) -> Option<usize> {
        self.files.iter().position(|f| f.holds(rel))
    }

    /// The index of the file with this path.
    pub fn file_index(&self, path: &str) -> Option<usize> {
        self.files.iter().position(|f| f.path == path)
    }

    /// The kind of this name (addressed or not).
    pub fn kind(&self, name: &str) -> Option<&'static KindSpec> {
        self.kinds.iter().find(|k| k.name == name)
    }

    /// The kinds overlays, `explain` and `diff` address, in table order.
    pub fn addressed(&self) -> impl Iterator<Item = &'static KindSpec> {
        self.kinds.iter().filter(|k| k.addressed)
    }

    /// The names of the addressed kinds.
    pub fn names(&self) -> Vec<&'static str> {
        self.addressed().map(|k| k.name).collect()
    }

    /// Every schema file: each distinct file schema in table order, then `overlay.json` as
    /// the types generate it (its `set` values not yet typed).
    pub fn plain_schemas(&self) -> Vec<(&'static str, Value)> {
        let mut out: Vec<(&'static str, Value)> = Vec::new();
        for f in self.files {
            if !out.iter().any(|(n, _)| *n == f.schema) {
                out.push((f.schema, (f.schema_of)()));
            }
        }
        out.push((super::overlay::SCHEMA_FILE, super::overlay::schema(self)));
        out
    }

    /// The compiled overlay checks, built once per table.
    pub(crate) fn overlay_checks(&self) -> Result<&OverlayChecks, &str> {
        self.checks
            .get_or_init(|| {
                let structure = SchemaCheck::new(&super::overlay::schema(self))?;
                let typed = SchemaCheck::new(&super::typed::overlay_checked(self))?;
                Ok((structure, typed))
            })
            .as_ref()
            .map_err(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> Value {
        Value::Null
    }

    static FILES: [FileSpec; 2] = [
        FileSpec {
            path: "rules.yaml",
            schema: "rules.json",
            schema_of: none,
        },
        FileSpec {
            path: "pieces/",
            schema: "piece.json",
            schema_of: none,
        },
    ];

    #[test]
    fn files_are_classified_by_name_and_folder() {
        let t = KindTable::new(&FILES, &[], None);
        assert_eq!(t.classify("rules.yaml"), Some(0));
        assert_eq!(t.classify("rules.yml"), Some(0));
        assert_eq!(t.classify("rules.json"), None);
        assert_eq!(t.classify("pieces/a.yaml"), Some(1));
        assert_eq!(t.classify("pieces/deep/a.yaml"), None);
        assert_eq!(t.classify("other.yaml"), None);
    }

    #[test]
    fn ignored_folders_are_passed_over() {
        static T: KindTable = KindTable::ignoring(&FILES, &[], None, &["variants/"]);
        assert!(T.is_ignored("variants/errata.yaml"));
        assert!(T.is_ignored("variants/deep/x.yaml"));
        assert!(!T.is_ignored("rules.yaml"));
        assert!(!T.is_ignored("pieces/variants.yaml"));
    }
}
