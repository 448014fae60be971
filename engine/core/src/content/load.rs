//! Loading a game's content by its [`KindTable`]: read and classify every file, parse it with
//! positions, stack the overlays, check each document against its schema, look for duplicate
//! ids, compile the scripts — collecting every problem. The game then decodes the documents
//! into its types and checks what only it knows ([`GameContent`]); [`Loaded::finish`] gives
//! the result with its [`Provenance`].

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::kinds::{KindTable, Place};
use super::patch;
use super::provenance::Provenance;
use crate::diagnostics::{Diagnostic, Pos, SchemaCheck, SourceDoc};
use crate::files::{ContentFiles, MAX_CONTENT_FILE_BYTES};
use crate::located::{LKind, LNode, Origin};
use crate::script::{Limits, ScriptHost};

/// One content document: the index of its file in the table, and its located tree.
#[derive(Debug, Clone)]
pub struct Doc {
    /// Index into [`KindTable::files`].
    pub file: usize,
    /// The tree, after every overlay.
    pub tree: LNode,
}

pub use crate::files::OverlaySource;

/// Every script by name (`x.rhai`): the file it came from and its source.
pub type Scripts = BTreeMap<String, (String, String)>;

/// What a game adds to loading: decoding the checked documents into its content, and the
/// checks only it can make (references between items, playable bounds).
pub trait GameContent: Sized {
    /// The game's kinds.
    fn table() -> &'static KindTable;

    /// Decodes the documents (each whose schema check passed is marked in
    /// [`Loaded::valid`]), reporting every problem to `diags`; `None` when the content cannot
    /// be built.
    fn decode(loaded: &Loaded, diags: &mut Vec<Diagnostic>) -> Option<Self>;

    /// Loads content and stacks overlays on it; every problem found on failure.
    ///
    /// # Errors
    /// Every problem, each at its `file:line:col` where known.
    fn load_with_provenance(
        files: &dyn ContentFiles,
        overlays: &[OverlaySource],
    ) -> Result<(Self, Loaded), Vec<Diagnostic>> {
        let mut loaded = load(Self::table(), files, overlays);
        let mut diags = std::mem::take(&mut loaded.diags);
        let content = Self::decode(&loaded, &mut diags);
        sort_dedup(&mut diags);
        match content {
            Some(c) if diags.is_empty() => Ok((c, loaded)),
            _ => {
                if diags.is_empty() {
                    diags.push(Diagnostic::plain("content", "content could not be decoded"));
                }
                Err(diags)
            }
        }
    }
}

/// The documents of a content set as loading leaves them for the game to decode.
#[derive(Debug)]
pub struct Loaded {
    /// The game's kinds.
    pub table: &'static KindTable,
    /// Every document, in the order the files were listed (overlay additions last).
    pub docs: Vec<Doc>,
    /// Whether each document passed its schema check.
    pub valid: Vec<bool>,
    /// Every script.
    pub scripts: Scripts,
    /// The compiled scripts.
    pub host: ScriptHost,
    /// The problems found so far.
    pub diags: Vec<Diagnostic>,
    /// The content read is a known-good copy ([`super::known`]), so its schema checks were
    /// skipped (each document is marked valid).
    pub known_good: bool,
    /// Each document as JSON (as its schema check saw it), by document index: decoded from
    /// here, not converted a second time.
    values: Vec<serde_json::Value>,
}

impl Loaded {
    /// The documents of the file with this path, with their indices.
    pub fn docs_of<'a>(&'a self, path: &str) -> impl Iterator<Item = (usize, &'a Doc)> + 'a {
        let file = self.table.file_index(path);
        self.docs
            .iter()
            .enumerate()
            .filter(move |(_, d)| Some(d.file) == file)
    }

    /// The first document of the file with this path.
    pub fn doc_of(&self, path: &str) -> Option<&Doc> {
        self.docs_of(path).next().map(|(_, d)| d)
    }

    /// The one document of a single file decoded as `T`: `None` when it is missing, failed
    /// its schema or does not decode (each reported); a second file of the kind is reported.
    pub fn single<T: DeserializeOwned>(
        &self,
        path: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<T> {
        let mut found = self.docs_of(path);
        let (i, doc) = found.next()?;
        if let Some((_, dup)) = found.next() {
            diags.push(diag_at(&dup.tree.origin, "", "a second file of this kind"));
        }
        if !self.valid[i] {
            return None;
        }
        self.decode_at(i, doc, diags)
    }

    /// Every document of a folder decoded as `T`, with its index; `None` when any fails.
    pub fn each<T: DeserializeOwned>(
        &self,
        path: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Vec<(usize, T)>> {
        let mut out = Vec::new();
        let mut ok = true;
        for (i, doc) in self.docs_of(path) {
            match self.valid[i]
                .then(|| self.decode_at::<T>(i, doc, diags))
                .flatten()
            {
                Some(v) => out.push((i, v)),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// Decodes document `i` (`doc`) as `T` from its JSON, reporting why not.
    fn decode_at<T: DeserializeOwned>(
        &self,
        i: usize,
        doc: &Doc,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<T> {
        let Some(value) = self.values.get(i) else {
            return decode(doc, diags);
        };
        match T::deserialize(value) {
            Ok(v) => Some(v),
            Err(e) => {
                diags.push(diag_at(&doc.tree.origin, "", e.to_string()));
                None
            }
        }
    }

    /// The compiled scripts and where every value came from, once the content is decoded.
    pub fn into_parts(self) -> (ScriptHost, Provenance) {
        let mut provenance = Provenance::new(self.table, self.docs, self.scripts);
        provenance.set_known_good(self.known_good);
        (self.host, provenance)
    }
}

/// A diagnostic at an origin, for the value at `pointer`.
pub fn diag_at(origin: &Origin, pointer: &str, message: impl Into<String>) -> Diagnostic {
    Diagnostic {
        file: origin.file.to_string(),
        pos: origin.pos,
        pointer: pointer.to_string(),
        message: message.into(),
    }
}

/// Reports every number in `node` (a document's tree, or the part of one at `pointer`) that
/// is fractional or beyond ±`limit`, each at its own line: a game bounds its content's numbers
/// so that its sums and products of them cannot overflow.
pub fn numbers_within(node: &LNode, pointer: &str, limit: i64, diags: &mut Vec<Diagnostic>) {
    let mut at = String::from(pointer);
    numbers_within_at(node, &mut at, limit, diags);
}

/// [`numbers_within`] with the pointer in a buffer that each level extends and cuts back:
/// a pointer is written out only for a number reported.
fn numbers_within_at(node: &LNode, at: &mut String, limit: i64, diags: &mut Vec<Diagnostic>) {
    match &node.kind {
        LKind::Scalar(serde_json::Value::Number(n)) => {
            let within = n
                .as_i64()
                .is_some_and(|v| v.unsigned_abs() <= limit.unsigned_abs());
            if !within {
                diags.push(diag_at(
                    &node.origin,
                    at,
                    format!(
                        "{n} is out of range: numbers in content are whole and within ±{limit}"
                    ),
                ));
            }
        }
        LKind::Scalar(_) => {}
        LKind::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = push_index(at, i);
                numbers_within_at(item, at, limit, diags);
                at.truncate(len);
            }
        }
        LKind::Map(entries) => {
            for e in entries {
                let len = push_key(at, &e.key);
                numbers_within_at(&e.value, at, limit, diags);
                at.truncate(len);
            }
        }
    }
}

/// Appends `/i` to a JSON pointer; the length before, to cut it back to.
pub fn push_index(pointer: &mut String, i: usize) -> usize {
    use std::fmt::Write;
    let len = pointer.len();
    // Writing to a String cannot fail.
    write!(pointer, "/{i}").expect("writing to a String cannot fail");
    len
}

/// Appends `/key` to a JSON pointer, `~` and `/` escaped; the length before, to cut it back to.
pub fn push_key(pointer: &mut String, key: &str) -> usize {
    let len = pointer.len();
    pointer.push('/');
    if key.contains(['~', '/']) {
        for c in key.chars() {
            match c {
                '~' => pointer.push_str("~0"),
                '/' => pointer.push_str("~1"),
                c => pointer.push(c),
            }
        }
    } else {
        pointer.push_str(key);
    }
    len
}

/// The message for a content or overlay file over [`MAX_CONTENT_FILE_BYTES`].
pub fn too_big(len: usize) -> String {
    format!("the file is {len} bytes, more than the limit of {MAX_CONTENT_FILE_BYTES} bytes")
}

/// Decodes a document as `T`, reporting why not.
pub fn decode<T: DeserializeOwned>(doc: &Doc, diags: &mut Vec<Diagnostic>) -> Option<T> {
    match serde_json::from_value::<T>(doc.tree.to_value()) {
        Ok(v) => Some(v),
        Err(e) => {
            diags.push(diag_at(&doc.tree.origin, "", e.to_string()));
            None
        }
    }
}

/// Reads, classifies, parses, stacks overlays, checks schemas and duplicate ids and compiles
/// scripts. Nothing is decoded: that is the game's.
pub fn load(
    table: &'static KindTable,
    files: &dyn ContentFiles,
    overlays: &[OverlaySource],
) -> Loaded {
    let mut diags = Vec::new();
    let mut docs = Vec::new();
    let mut scripts: Scripts = BTreeMap::new();
    let (listed, problems) = files.listing();
    for (shown, problem) in problems {
        diags.push(Diagnostic::plain(&shown, problem));
    }
    // Every file read is compared with the known-good copy, if any: the base is known good
    // when all match and none is missing or added.
    let known = files.known_good();
    let mut same = Same {
        known: known.map(|k| &k.files),
        read: 0,
    };
    for rel in listed {
        if table.is_ignored(&rel) {
            continue;
        }
        let shown = files.display_name(&rel);
        if let Some(name) = table.scripts.and_then(|dir| rel.strip_prefix(dir)) {
            if name.ends_with(".rhai") {
                match files.read(&rel) {
                    Ok(src) => {
                        same.note(&rel, &src);
                        scripts.insert(name.to_string(), (shown, src));
                    }
                    Err(e) => diags.push(Diagnostic::plain(&shown, e)),
                }
            }
            continue;
        }
        let Some(file) = table.classify(&rel) else {
            if rel.ends_with(".yaml") || rel.ends_with(".yml") {
                diags.push(Diagnostic::plain(
                    &shown,
                    "not a known content file (expected one of the files named in ARCHITECTURE.md)",
                ));
            }
            continue;
        };
        let text = match files.read(&rel) {
            Ok(t) if t.len() as u64 > MAX_CONTENT_FILE_BYTES => {
                diags.push(Diagnostic::plain(&shown, too_big(t.len())));
                continue;
            }
            Ok(t) => t,
            Err(e) => {
                diags.push(Diagnostic::plain(&shown, e));
                continue;
            }
        };
        same.note(&rel, &text);
        let name: Arc<str> = Arc::from(shown.as_str());
        match SourceDoc::parse_located(&name, &text) {
            Ok(tree) => docs.push(Doc { file, tree }),
            Err(d) => diags.push(d),
        }
    }
    for (i, f) in table.files.iter().enumerate() {
        if !f.is_folder()
            && !docs.iter().any(|d| d.file == i)
            && !diags.iter().any(|d| d.file.ends_with(f.path))
        {
            diags.push(Diagnostic::plain(
                &files.display_name(f.path),
                "missing content file",
            ));
        }
    }

    let base_known = diags.is_empty() && same.all_of(table);
    let mut overlays_known = true;
    for ov in overlays {
        // A built-in overlay passed its own checks (they look at nothing else).
        let ov_known = known.is_some_and(|k| k.knows_overlay(ov));
        overlays_known &= ov_known;
        patch::apply_overlay(table, ov, !ov_known, &mut docs, &mut scripts, &mut diags);
    }

    // Known good: the built-in base alone or under one of its overlays, each combination
    // loaded with every check by the tests; two overlays stacked are checked in full.
    let known_good = base_known && overlays_known && overlays.len() <= 1;
    let (valid, values) = if known_good {
        let values = docs.iter().map(|d| d.tree.to_value()).collect();
        (vec![true; docs.len()], values)
    } else {
        check_schemas(table, &docs, &mut diags)
    };
    duplicate_ids(table, &docs, &valid, &mut diags);
    let host = compile_scripts(&scripts, &mut diags);
    Loaded {
        table,
        docs,
        valid,
        scripts,
        host,
        diags,
        known_good,
        values,
    }
}

/// The files loading read, compared with a known-good copy as they are read.
struct Same<'k> {
    /// The copy's files; `None` once a file differs (or without a copy).
    known: Option<&'k BTreeMap<String, String>>,
    /// How many files were read, all equal to the copy's.
    read: usize,
}

impl Same<'_> {
    /// Notes the file `rel` read with `text`.
    fn note(&mut self, rel: &str, text: &str) {
        if self.known.and_then(|k| k.get(rel)).map(String::as_str) == Some(text) {
            self.read += 1;
        } else {
            self.known = None;
        }
    }

    /// Whether every file read equals the copy's and the copy has no other that loading
    /// would read.
    fn all_of(&self, table: &KindTable) -> bool {
        self.known
            .is_some_and(|k| k.keys().filter(|rel| is_read(table, rel)).count() == self.read)
    }
}

/// Whether loading reads the file `rel` (a script or a content file of the table).
fn is_read(table: &KindTable, rel: &str) -> bool {
    if table.is_ignored(rel) {
        return false;
    }
    match table.scripts.and_then(|dir| rel.strip_prefix(dir)) {
        Some(name) => name.ends_with(".rhai"),
        None => table.classify(rel).is_some(),
    }
}

/// Checks every document against its file's schema; whether each passed, and each as JSON.
fn check_schemas(
    table: &KindTable,
    docs: &[Doc],
    diags: &mut Vec<Diagnostic>,
) -> (Vec<bool>, Vec<serde_json::Value>) {
    let mut checks: HashMap<&'static str, Arc<SchemaCheck>> = HashMap::new();
    for f in table.files {
        if checks.contains_key(f.schema) {
            continue;
        }
        // Generated and compiled once a process (speed: most of a load's time otherwise).
        match SchemaCheck::cached(f.schema_of) {
            Ok(c) => {
                checks.insert(f.schema, c);
            }
            Err(e) => diags.push(Diagnostic::plain(f.schema, format!("bad schema: {e}"))),
        }
    }
    let mut valid = vec![false; docs.len()];
    let values: Vec<serde_json::Value> = docs.iter().map(|d| d.tree.to_value()).collect();
    for (i, doc) in docs.iter().enumerate() {
        let Some(check) = checks.get(table.files[doc.file].schema) else {
            continue;
        };
        let errors = check.errors(&values[i]);
        valid[i] = errors.is_empty();
        for e in errors {
            let origin = if e.at_key {
                doc.tree.key_origin_at(&e.pointer)
            } else {
                doc.tree.origin_at(&e.pointer)
            };
            diags.push(diag_at(&origin, &e.pointer, e.message));
        }
    }
    (valid, values)
}

/// Reports every id written twice among the items of one kind (of the documents that passed
/// their schema check): in a list, at the second element's id; in a folder, at the second
/// file's.
fn duplicate_ids(table: &KindTable, docs: &[Doc], valid: &[bool], diags: &mut Vec<Diagnostic>) {
    for kind in table.kinds {
        let (Some(id), Some(file)) = (kind.id, table.file_index(kind.file())) else {
            continue;
        };
        let id_ptr = format!("/{id}");
        let mut seen = BTreeSet::new();
        let mut check = |tree: &LNode, node: &LNode, ptr: String| {
            if let Some(v) = node.str_member(id) {
                if !seen.insert(v.to_string()) {
                    diags.push(diag_at(
                        &tree.origin_at(&ptr),
                        &ptr,
                        format!("duplicate {} id \"{v}\"", kind.noun),
                    ));
                }
            }
        };
        match kind.place {
            Place::File(_) => {
                let of_file = docs
                    .iter()
                    .enumerate()
                    .filter(|(i, d)| d.file == file && valid[*i]);
                for (_, d) in of_file {
                    check(&d.tree, &d.tree, id_ptr.clone());
                }
            }
            Place::List { key, .. } => {
                // A single file: only its first document is the content's.
                let Some(first) = docs.iter().position(|x| x.file == file) else {
                    continue;
                };
                if !valid[first] {
                    continue;
                }
                let d = &docs[first];
                if let Some(LKind::Seq(items)) = d.tree.at(&format!("/{key}")).map(|n| &n.kind) {
                    for (i, item) in items.iter().enumerate() {
                        check(&d.tree, item, format!("/{key}/{i}{id_ptr}"));
                    }
                }
            }
        }
    }
}

fn compile_scripts(scripts: &Scripts, diags: &mut Vec<Diagnostic>) -> ScriptHost {
    let mut host = ScriptHost::new(Limits::default());
    for (name, (shown, src)) in scripts {
        if let Err(e) = host.compile(name, src) {
            diags.push(Diagnostic {
                file: shown.clone(),
                pos: e.line.map(|line| Pos {
                    line,
                    col: e.col.unwrap_or(1),
                }),
                pointer: String::new(),
                message: e.message,
            });
        }
    }
    host
}

/// Sorts diagnostics by file and position and drops repeats.
pub fn sort_dedup(diags: &mut Vec<Diagnostic>) {
    diags.sort_by(|a, b| {
        (&a.file, a.pos.map(|p| (p.line, p.col)), &a.message).cmp(&(
            &b.file,
            b.pos.map(|p| (p.line, p.col)),
            &b.message,
        ))
    });
    diags.dedup_by(|a, b| a.file == b.file && a.pos == b.pos && a.message == b.message);
}
