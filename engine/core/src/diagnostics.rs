//! Problems in content files with their positions.
//!
//! Content is written in YAML and validated against JSON Schemas (draft-07) generated with
//! `schemars`. Typed deserialisation with `serde_yaml` stops at the first problem, so validation
//! takes another route that reports *every* problem with its position:
//!
//! 1. [`SourceDoc::parse`] parses the YAML with `saphyr`, which keeps the position of every node,
//!    and converts it to a [`serde_json::Value`] exactly the way `serde_yaml` would (see
//!    [`plain_scalar_to_json`]), remembering the line and column of every node and mapping key
//!    under its JSON pointer.
//! 2. [`SchemaCheck::check`] validates that value with `jsonschema`, collecting all errors, turns
//!    them into concise messages (`unknown field "colour"`, `missing field "id"`, `expected
//!    integer, got string "four"`, `not a valid Effect: unknown variant "gian", expected one of
//!    gain, charge`) and maps each error's JSON pointer back to a line and column.
//!
//! Errors that only typed deserialisation can find are converted with [`from_yaml_error`].
//! Every problem is a [`Diagnostic`], displayed as `file:line:col: message (at /json/pointer)`.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::ValidationError;
use saphyr::{AnnotatedMapping, LoadableYamlNode, MarkedYaml, Marker, Scalar, YamlData};
use serde_json::{Number, Value};

use crate::content::load::{push_index, push_key};
use crate::located::{LKind, LNode, MapEntry, Origin};

/// Deepest nesting of collections accepted in a content file (the same limit as `serde_yaml`).
const MAX_DEPTH: usize = 128;

/// Inputs with at most this many structural characters are parsed on the calling thread; larger
/// ones are parsed on a helper thread whose stack is large enough for any nesting they may hold.
const SMALL_INPUT_INDICATORS: usize = 1000;

/// Most bytes that aliases (`*name`) may add to a document when they are expanded: each alias
/// copies its anchor's value, so a small file could otherwise expand to gigabytes. Counted in
/// bytes (strings, keys and 8 per node), not nodes, so one long string aliased many times is
/// caught as surely as many small nodes.
pub const MAX_ALIAS_BYTES: usize = 1 << 20;

/// How many alternatives, fields or enum values a message lists before eliding the rest.
const MAX_LISTED: usize = 12;

/// How deep `oneOf`/`anyOf` explanations may descend into the errors of an alternative.
const MAX_ALTERNATIVE_DEPTH: usize = 8;

/// A position in a source file (1-based line and column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Line number, starting at 1.
    pub line: usize,
    /// Column number (in characters), starting at 1.
    pub col: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// One problem found in a content file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// The file the problem was found in, as shown to the user.
    pub file: String,
    /// Where in the file the problem is, when known.
    pub pos: Option<Pos>,
    /// JSON pointer (RFC 6901) to the offending node; empty for the whole document.
    pub pointer: String,
    /// What is wrong, in a short human-readable sentence.
    pub message: String,
}

impl Diagnostic {
    /// Builds a diagnostic from its parts.
    pub fn new(
        file: impl Into<String>,
        pos: Option<Pos>,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            file: file.into(),
            pos,
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// A problem with a whole file: no position, no pointer.
    pub fn plain(file: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(file, None, "", message)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some(pos) => write!(
                f,
                "{}:{}:{}: {}",
                self.file, pos.line, pos.col, self.message
            )?,
            None => write!(f, "{}: {}", self.file, self.message)?,
        }
        if !self.pointer.is_empty() {
            write!(f, " (at {})", self.pointer)?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// A YAML document parsed with positions.
///
/// Holds the document as a [`serde_json::Value`] (converted the way `serde_yaml` would convert
/// it) together with the position of every node, keyed by JSON pointer: the position of each
/// value, and separately the position of the mapping key naming each mapping member.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceDoc {
    file: String,
    value: Value,
    positions: HashMap<String, Pos>,
    key_positions: HashMap<String, Pos>,
}

impl SourceDoc {
    /// Parses `text` (the contents of `file`) as a single YAML document.
    ///
    /// An empty file (or one holding only comments) yields `null`. Aliases are resolved; merge
    /// keys (`<<`) are kept as ordinary keys, as `serde_yaml` does.
    ///
    /// # Errors
    ///
    /// Returns a positioned [`Diagnostic`] for YAML syntax errors, duplicate keys, more than one
    /// document, nesting deeper than 128 levels (aliases included), aliases expanding to more
    /// than [`MAX_ALIAS_BYTES`], unsupported tags, non-scalar mapping keys, integers out of
    /// range and floats (content numbers are integers; `.inf` and `.nan` included) — the
    /// earliest such problem in the file.
    pub fn parse(file: &str, text: &str) -> Result<SourceDoc, Diagnostic> {
        let name: Arc<str> = Arc::from(file);
        let tree = SourceDoc::parse_located(&name, text)?;
        let mut positions = HashMap::new();
        let mut key_positions = HashMap::new();
        record_positions(
            &tree,
            &mut String::new(),
            &mut positions,
            &mut key_positions,
        );
        Ok(SourceDoc {
            file: file.to_owned(),
            value: tree.to_value(),
            positions,
            key_positions,
        })
    }

    /// Parses `text` (the contents of `file`) straight into its located tree, every node and
    /// mapping key at its position, under the rules and errors of [`SourceDoc::parse`]: the
    /// tree [`LNode::from_doc`] builds from the parsed document, without the document's
    /// positions by pointer in between. A node inside an alias is at the alias.
    ///
    /// # Errors
    ///
    /// As [`SourceDoc::parse`].
    pub fn parse_located(file: &Arc<str>, text: &str) -> Result<LNode, Diagnostic> {
        let indicators = text
            .bytes()
            .filter(|b| matches!(b, b'[' | b'{' | b'-' | b':' | b'?' | b'!'))
            .count();
        if indicators <= SMALL_INPUT_INDICATORS {
            return parse_guarded(file, text);
        }
        // Deep nesting makes saphyr's tree (and its destructor) recurse deeply: parse on a thread
        // whose stack covers the deepest nesting the input could hold.
        let stack_size = indicators.saturating_mul(1024).clamp(16 << 20, 1 << 30);
        std::thread::scope(|scope| {
            let spawned = std::thread::Builder::new()
                .name("orrery-yaml-parse".into())
                .stack_size(stack_size)
                .spawn_scoped(scope, || parse_guarded(file, text));
            match spawned {
                Ok(handle) => handle.join().unwrap_or_else(|_| Err(internal_error(file))),
                Err(_) => parse_guarded(file, text),
            }
        })
    }

    /// The file name given to [`SourceDoc::parse`].
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The document as JSON.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// Position of the node at `pointer`; when that node has no position (it does not exist, or
    /// it lies inside an alias), the position of its nearest ancestor that has one.
    pub fn pos_of(&self, pointer: &str) -> Option<Pos> {
        let mut current = pointer;
        loop {
            if let Some(pos) = self.positions.get(current) {
                return Some(*pos);
            }
            match current.rfind('/') {
                Some(cut) => current = &current[..cut],
                None => return None,
            }
        }
    }

    /// Position of the mapping key naming the member at `pointer` (where an "unknown key" error
    /// should point); falls back to [`SourceDoc::pos_of`] when there is no such key.
    pub fn key_pos_of(&self, pointer: &str) -> Option<Pos> {
        self.key_positions
            .get(pointer)
            .copied()
            .or_else(|| self.pos_of(pointer))
    }
}

/// Records the position of every node of `node` (at `pointer`) and of every mapping key, by
/// JSON pointer.
fn record_positions(
    node: &LNode,
    pointer: &mut String,
    positions: &mut HashMap<String, Pos>,
    key_positions: &mut HashMap<String, Pos>,
) {
    if let Some(pos) = node.origin.pos {
        positions.insert(pointer.clone(), pos);
    }
    match &node.kind {
        LKind::Scalar(_) => {}
        LKind::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = push_index(pointer, i);
                record_positions(item, pointer, positions, key_positions);
                pointer.truncate(len);
            }
        }
        LKind::Map(entries) => {
            for e in entries {
                let len = push_key(pointer, &e.key);
                if let Some(pos) = e.key_origin.pos {
                    key_positions.insert(pointer.clone(), pos);
                }
                record_positions(&e.value, pointer, positions, key_positions);
                pointer.truncate(len);
            }
        }
    }
}

/// One schema violation, not yet positioned: where (JSON pointer), what, and whether it concerns
/// the mapping key naming `pointer` rather than its value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SchemaError {
    /// JSON pointer of the value (or of the unknown member).
    pub pointer: String,
    /// Concise message.
    pub message: String,
    /// The error concerns the key naming `pointer` (an unknown field), not its value.
    pub at_key: bool,
}

/// A compiled JSON Schema (draft-07).
#[derive(Debug)]
pub struct SchemaCheck {
    validator: jsonschema::Validator,
    schema: Value,
}

impl SchemaCheck {
    /// Compiles `schema` as a draft-07 JSON Schema (an explicit `$schema` takes precedence).
    ///
    /// # Errors
    ///
    /// Returns a description of the problem when `schema` is not a valid schema or one of its
    /// references cannot be resolved.
    pub fn new(schema: &Value) -> Result<SchemaCheck, String> {
        let validator = jsonschema::draft7::options()
            .build(schema)
            .map_err(|e| format!("invalid JSON Schema: {e}"))?;
        Ok(SchemaCheck {
            validator,
            schema: schema.clone(),
        })
    }

    /// The compiled check of the schema `schema_of` generates, generated and compiled the
    /// first time it is asked for and kept for the rest of the process: generating and
    /// compiling a schema costs more than checking a file against it, and a generating
    /// function's schema never changes while the program runs. Keyed by the function, so
    /// two games' schemas of the same file name never meet. A schema that fails to compile
    /// is not kept (each call reports it again).
    ///
    /// # Errors
    ///
    /// As [`SchemaCheck::new`].
    pub fn cached(schema_of: fn() -> Value) -> Result<Arc<SchemaCheck>, String> {
        type Cache = Mutex<HashMap<usize, Arc<SchemaCheck>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(Cache::default);
        let key = schema_of as usize;
        // A poisoned lock only means another thread panicked while holding it; the map of
        // finished checks it guards is still whole.
        let found = cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&key)
            .cloned();
        if let Some(check) = found {
            return Ok(check);
        }
        // Compiled outside the lock: two threads may both compile a first time; either
        // result is the same check.
        let check = Arc::new(SchemaCheck::new(&schema_of())?);
        cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(key)
            .or_insert_with(|| check.clone());
        Ok(check)
    }

    /// Compiles `schema` as the file `name` of a folder of schemas (`siblings`, by file name),
    /// so that relative references between them (`card.json#/definitions/X`) resolve the
    /// way an editor resolves them beside each other.
    ///
    /// # Errors
    ///
    /// As [`SchemaCheck::new`], or when a reference names no sibling.
    pub fn with_siblings(
        schema: &Value,
        name: &str,
        siblings: &[(&str, Value)],
    ) -> Result<SchemaCheck, String> {
        struct Siblings(Vec<(String, Value)>);
        impl jsonschema::Retrieve for Siblings {
            fn retrieve(
                &self,
                uri: &jsonschema::Uri<String>,
            ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
                let file = uri.path().as_str().rsplit('/').next().unwrap_or_default();
                self.0
                    .iter()
                    .find(|(n, _)| n == file)
                    .map(|(_, s)| s.clone())
                    .ok_or_else(|| format!("no schema {file} beside").into())
            }
        }
        let siblings = Siblings(
            siblings
                .iter()
                .map(|(n, s)| (n.to_string(), s.clone()))
                .collect(),
        );
        let validator = jsonschema::draft7::options()
            .with_base_uri(format!("file:///schemas/{name}"))
            .with_retriever(siblings)
            .build(schema)
            .map_err(|e| format!("invalid JSON Schema: {e}"))?;
        Ok(SchemaCheck {
            validator,
            schema: schema.clone(),
        })
    }

    /// Every violation in `value`, with concise messages, without duplicates, in the order the
    /// validator found them. [`SchemaCheck::check`] positions them in a [`SourceDoc`].
    pub fn errors(&self, value: &Value) -> Vec<SchemaError> {
        let mut out = Vec::new();
        for error in self.validator.iter_errors(value) {
            self.report(&error, 0, &mut out);
        }
        let mut seen = HashSet::new();
        out.retain(|e| seen.insert(e.clone()));
        out
    }

    /// Validates `doc` and returns every problem found, each positioned in the source (unknown
    /// fields at their key), sorted by position and without duplicates. An empty result means
    /// the document is valid.
    pub fn check(&self, doc: &SourceDoc) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = self
            .errors(doc.value())
            .into_iter()
            .map(|e| {
                let pos = if e.at_key {
                    doc.key_pos_of(&e.pointer)
                } else {
                    doc.pos_of(&e.pointer)
                };
                Diagnostic::new(doc.file(), pos, e.pointer, e.message)
            })
            .collect();
        out.sort_by(|a, b| {
            (a.pos.is_none(), a.pos, &a.pointer, &a.message).cmp(&(
                b.pos.is_none(),
                b.pos,
                &b.pointer,
                &b.message,
            ))
        });
        out.dedup();
        out
    }

    /// Turns one validation error into schema errors with concise messages.
    fn report(&self, error: &ValidationError<'_>, depth: usize, out: &mut Vec<SchemaError>) {
        let pointer = error.instance_path().as_str();
        let instance: &Value = error.instance();
        let here = |message: String| SchemaError {
            pointer: pointer.to_owned(),
            message,
            at_key: false,
        };
        match error.kind() {
            ValidationErrorKind::AdditionalProperties { unexpected }
            | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
                let expected = self.expected_fields(error.schema_path().as_str());
                for key in unexpected {
                    let message = if key == "<<" {
                        "merge keys (`<<`) are not supported".to_owned()
                    } else {
                        format!("unknown field {}{expected}", quoted(key))
                    };
                    out.push(SchemaError {
                        pointer: format!("{pointer}/{}", escape_pointer_segment(key)),
                        message,
                        at_key: true,
                    });
                }
            }
            ValidationErrorKind::Required { property } => {
                let name = property
                    .as_str()
                    .map_or_else(|| property.to_string(), quoted);
                out.push(here(format!("missing field {name}")));
            }
            ValidationErrorKind::Type { kind } => {
                let expected = match kind {
                    TypeKind::Single(ty) => yaml_type_name(ty.as_str()).to_owned(),
                    TypeKind::Multiple(set) => set
                        .iter()
                        .map(|ty| yaml_type_name(ty.as_str()))
                        .collect::<Vec<_>>()
                        .join(" or "),
                };
                out.push(here(format!(
                    "expected {expected}, got {}",
                    describe(instance)
                )));
            }
            ValidationErrorKind::Enum { options } => {
                let listed = match options.as_ref() {
                    Value::Array(items) => list(items.iter().map(plain_text)),
                    other => plain_text(other),
                };
                out.push(here(format!(
                    "expected one of {listed}, got {}",
                    describe(instance)
                )));
            }
            ValidationErrorKind::Constant { expected_value } => {
                out.push(here(format!(
                    "expected {}, got {}",
                    plain_text(expected_value),
                    describe(instance)
                )));
            }
            ValidationErrorKind::OneOfNotValid { context }
            | ValidationErrorKind::AnyOf { context } => {
                self.report_alternatives(error, context, depth, out);
            }
            ValidationErrorKind::OneOfMultipleValid { .. } => {
                let what = self
                    .type_name(error.schema_path().as_str())
                    .unwrap_or_else(|| "value".to_owned());
                out.push(here(format!(
                    "ambiguous {what}: it matches more than one alternative"
                )));
            }
            _ => out.push(here(error.to_string())),
        }
    }

    /// Explains a failed `oneOf`/`anyOf`: descends into the alternative the value was evidently
    /// meant to match, or else lists the alternatives.
    fn report_alternatives(
        &self,
        error: &ValidationError<'_>,
        context: &[Vec<ValidationError<'static>>],
        depth: usize,
        out: &mut Vec<SchemaError>,
    ) {
        let pointer = error.instance_path().as_str();
        let instance: &Value = error.instance();
        let schema_path = error.schema_path().as_str();
        let alternatives = self.alternatives(schema_path);
        let alt = |i: usize| alternatives.get(i);
        let tag = variant_tag(instance);

        if depth < MAX_ALTERNATIVE_DEPTH {
            // A `null` alternative (from `Option<T>`) is irrelevant when the value is not null.
            let candidates: Vec<usize> = (0..context.len())
                .filter(|&i| instance.is_null() || !alt(i).is_some_and(|a| a.is_null_type))
                .collect();
            let descend = |i: usize, out: &mut Vec<SchemaError>| {
                for inner in &context[i] {
                    self.report(inner, depth + 1, out);
                }
            };
            // The alternative named by the value (an externally tagged enum variant).
            if let Some(tag) = tag {
                let named = candidates.iter().copied().find(|&i| {
                    !context[i].is_empty()
                        && alt(i).is_some_and(|a| a.tags.iter().any(|t| t == tag))
                });
                if let Some(i) = named {
                    return descend(i, out);
                }
            }
            if candidates.len() == 1 && !context[candidates[0]].is_empty() {
                return descend(candidates[0], out);
            }
            // The only alternative whose shape matched: all its errors are below this node.
            let below: Vec<usize> = candidates
                .iter()
                .copied()
                .filter(|&i| {
                    !context[i].is_empty()
                        && context[i]
                            .iter()
                            .all(|e| is_strictly_below(e.instance_path().as_str(), pointer))
                })
                .collect();
            if below.len() == 1 {
                return descend(below[0], out);
            }
        }

        let what = match self.type_name(schema_path) {
            Some(name) => format!("not a valid {name}"),
            None => "no alternative matches".to_owned(),
        };
        let mut labels: Vec<String> = Vec::new();
        for a in &alternatives {
            if instance.is_null() || !a.is_null_type || alternatives.len() == 1 {
                for label in &a.labels {
                    if !labels.contains(label) {
                        labels.push(label.clone());
                    }
                }
            }
        }
        let known_tag = |t: &str| alternatives.iter().any(|a| a.tags.iter().any(|x| x == t));
        let any_tags = alternatives.iter().any(|a| !a.tags.is_empty());
        let message = match tag {
            Some(tag) if any_tags && !known_tag(tag) => format!(
                "{what}: unknown variant {}, expected one of {}",
                quoted(tag),
                list(labels.iter().cloned())
            ),
            _ if !labels.is_empty() => format!(
                "{what}: expected one of {}, got {}",
                list(labels.iter().cloned()),
                describe(instance)
            ),
            _ => format!("{what}, got {}", describe(instance)),
        };
        out.push(SchemaError {
            pointer: pointer.to_owned(),
            message,
            at_key: false,
        });
    }

    /// ", expected one of a, b" listing the properties allowed next to the
    /// `additionalProperties` keyword at `schema_path`, or "" when they cannot be found.
    fn expected_fields(&self, schema_path: &str) -> String {
        let parent = schema_path.rfind('/').map_or("", |cut| &schema_path[..cut]);
        let names: Vec<String> = self
            .walk(parent)
            .and_then(|(node, _)| node.get("properties"))
            .and_then(Value::as_object)
            .map(|props| props.keys().cloned().collect())
            .unwrap_or_default();
        if names.is_empty() {
            String::new()
        } else {
            format!(", expected one of {}", list(names.into_iter()))
        }
    }

    /// The name of the type owning the `oneOf`/`anyOf` keyword at `schema_path`: its definition
    /// name, else its `title`.
    fn type_name(&self, schema_path: &str) -> Option<String> {
        let parent = schema_path.rfind('/').map_or("", |cut| &schema_path[..cut]);
        let (node, name) = self.walk(parent)?;
        let (node, ref_name) = self.resolve(node);
        ref_name
            .or(name)
            .or_else(|| node.get("title").and_then(Value::as_str).map(str::to_owned))
    }

    /// The alternatives of the `oneOf`/`anyOf` keyword at `schema_path`.
    fn alternatives(&self, schema_path: &str) -> Vec<Alternative> {
        let Some(items) = self.walk(schema_path).and_then(|(node, _)| node.as_array()) else {
            return Vec::new();
        };
        items
            .iter()
            .map(|item| {
                let (schema, name) = self.resolve(item);
                Alternative::describe(schema, name)
            })
            .collect()
    }

    /// Follows a chain of local `$ref`s, returning the target and the last definition name.
    fn resolve<'a>(&'a self, mut node: &'a Value) -> (&'a Value, Option<String>) {
        let mut name = None;
        for _ in 0..16 {
            let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
                break;
            };
            let Some(target) = reference
                .strip_prefix('#')
                .and_then(|p| self.schema.pointer(p))
            else {
                break;
            };
            name = reference.rsplit('/').next().map(unescape_pointer_segment);
            node = target;
        }
        (node, name)
    }

    /// Finds the schema node at a JSON pointer into the schema, following `$ref`s on the way
    /// (whether or not the pointer names them). Also returns the last definition name seen.
    fn walk(&self, pointer: &str) -> Option<(&Value, Option<String>)> {
        let mut node = &self.schema;
        let mut name: Option<String> = None;
        let mut previous = String::new();
        for raw in pointer.split('/').skip(1) {
            let segment = unescape_pointer_segment(raw);
            if segment == "$ref" && node.get("$ref").is_some_and(Value::is_string) {
                let (target, ref_name) = self.resolve(node);
                node = target;
                name = ref_name.or(name);
            } else {
                let next = match child(node, &segment) {
                    Some(next) => next,
                    None => {
                        let (target, ref_name) = self.resolve(node);
                        let next = child(target, &segment)?;
                        name = ref_name.or(name);
                        next
                    }
                };
                if previous == "definitions" || previous == "$defs" {
                    name = Some(segment.clone());
                }
                node = next;
            }
            previous = segment;
        }
        Some((node, name))
    }
}

/// One alternative of a `oneOf`/`anyOf`, as far as messages are concerned.
struct Alternative {
    /// Names a value uses to select this alternative: the values of a string enum or const, or
    /// the single property of an externally tagged variant.
    tags: Vec<String>,
    /// How to list the alternative in a message.
    labels: Vec<String>,
    /// Whether the alternative only accepts `null`.
    is_null_type: bool,
}

impl Alternative {
    fn describe(schema: &Value, name: Option<String>) -> Alternative {
        let mut tags = Vec::new();
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            tags.extend(values.iter().filter_map(Value::as_str).map(str::to_owned));
        }
        if let Some(value) = schema.get("const").and_then(Value::as_str) {
            tags.push(value.to_owned());
        }
        if tags.is_empty() {
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let properties: Vec<&String> = schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().collect())
                .unwrap_or_default();
            if required.len() == 1 {
                tags.push(required[0].to_owned());
            } else if required.is_empty() && properties.len() == 1 {
                tags.push(properties[0].clone());
            }
        }
        let types: Vec<&str> = match schema.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let is_null_type = types == ["null"];
        let labels = if !tags.is_empty() {
            tags.clone()
        } else if let Some(name) = name {
            vec![name]
        } else if !types.is_empty() {
            vec![types
                .iter()
                .map(|t| yaml_type_name(t))
                .collect::<Vec<_>>()
                .join(" or ")]
        } else {
            Vec::new()
        };
        Alternative {
            tags,
            labels,
            is_null_type,
        }
    }
}

/// Turns a `serde_yaml` (`yaml_serde`) error into a [`Diagnostic`] with its line:col.
///
/// Use it for errors of typed deserialisation that the schema cannot catch. The path that
/// `serde_yaml` puts in front of its messages (`effects[0].gain: ...`) becomes the pointer
/// (`/effects/0/gain`), and the trailing "at line L column C" is dropped (it is in `pos`).
pub fn from_yaml_error(file: &str, err: &serde_yaml::Error) -> Diagnostic {
    let location = err.location();
    let pos = location.as_ref().map(|l| Pos {
        line: l.line().max(1),
        col: l.column().max(1),
    });
    let mut message = err.to_string();
    if let Some(l) = &location {
        let suffix = format!(" at line {} column {}", l.line(), l.column());
        message = message.replacen(&suffix, "", 1);
    }
    let mut pointer = String::new();
    if let Some((path, rest)) = message.split_once(": ") {
        if let Some(converted) = yaml_path_to_pointer(path) {
            pointer = converted;
            message = rest.to_owned();
        }
    }
    Diagnostic::new(file, pos, pointer, message)
}

/// Converts a plain (unquoted, untagged) YAML scalar the way `serde_yaml` does when
/// deserialising into [`serde_json::Value`], so that this module and typed deserialisation agree
/// on every value.
///
/// YAML 1.2 core schema: empty, `~` and `null`/`Null`/`NULL` are null; `true`/`false` (also
/// capitalised or upper case) are booleans; decimal integers with an optional sign (a leading
/// zero, as in `0123`, makes a string) and `0x`/`0o`/`0b` integers (optionally signed) are
/// integers; finite floats, `.inf` and `.nan` are floats (infinities and NaN become `null`, as
/// JSON has no such numbers); anything else is a string.
///
/// # Errors
///
/// Integers that fit neither `u64` nor `i64` are rejected, as `serde_json` rejects them.
pub fn plain_scalar_to_json(text: &str) -> Result<Value, String> {
    if text.is_empty() || is_null_text(text) {
        return Ok(Value::Null);
    }
    if let Some(b) = bool_text(text) {
        return Ok(Value::Bool(b));
    }
    if let Some(u) = parse_unsigned(text, u64::from_str_radix) {
        return Ok(Value::from(u));
    }
    if let Some(i) = parse_negative(text, i64::from_str_radix) {
        return Ok(Value::from(i));
    }
    if parse_unsigned(text, u128::from_str_radix).is_some()
        || parse_negative(text, i128::from_str_radix).is_some()
    {
        return Err(format!("integer {text} is out of range"));
    }
    if !leading_zero_digits(text) {
        if let Some(f) = float_text(text) {
            return Ok(float_value(f));
        }
    }
    Ok(Value::String(text.to_owned()))
}

fn float_value(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

fn is_null_text(text: &str) -> bool {
    matches!(text, "~" | "null" | "Null" | "NULL")
}

fn bool_text(text: &str) -> Option<bool> {
    match text {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// Digits with a leading zero (`0123`, `-007`): a string in YAML 1.2.
fn leading_zero_digits(text: &str) -> bool {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    digits.len() > 1 && digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit())
}

type Radix<T> = fn(&str, u32) -> Result<T, std::num::ParseIntError>;

/// A non-negative integer: unsigned or `+`-signed; decimal, `0x`, `0o` or `0b`.
fn parse_unsigned<T>(text: &str, parse: Radix<T>) -> Option<T> {
    let body = text.strip_prefix('+').unwrap_or(text);
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = body.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return None;
            }
            if let Ok(value) = parse(rest, radix) {
                return Some(value);
            }
        }
    }
    if body.starts_with(['+', '-']) || leading_zero_digits(text) {
        return None;
    }
    parse(body, 10).ok()
}

/// A negative integer: decimal, `-0x`, `-0o` or `-0b`.
fn parse_negative<T>(text: &str, parse: Radix<T>) -> Option<T> {
    for (prefix, radix) in [("-0x", 16), ("-0o", 8), ("-0b", 2)] {
        if let Some(rest) = text.strip_prefix(prefix) {
            if let Ok(value) = parse(&format!("-{rest}"), radix) {
                return Some(value);
            }
        }
    }
    if leading_zero_digits(text) {
        return None;
    }
    parse(text, 10).ok()
}

/// A float: decimal (finite), `.inf` with either sign, or `.nan`.
fn float_text(text: &str) -> Option<f64> {
    let body = match text.strip_prefix('+') {
        Some(rest) if rest.starts_with(['+', '-']) => return None,
        Some(rest) => rest,
        None => text,
    };
    if matches!(body, ".inf" | ".Inf" | ".INF") {
        return Some(f64::INFINITY);
    }
    if matches!(text, "-.inf" | "-.Inf" | "-.INF") {
        return Some(f64::NEG_INFINITY);
    }
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return Some(f64::NAN);
    }
    body.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// Escapes one JSON pointer segment (`~` becomes `~0`, `/` becomes `~1`).
fn escape_pointer_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Unescapes one JSON pointer segment.
fn unescape_pointer_segment(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// Whether the pointer `inner` points strictly below the pointer `outer`.
fn is_strictly_below(inner: &str, outer: &str) -> bool {
    inner.len() > outer.len() && inner.starts_with(outer) && inner.as_bytes()[outer.len()] == b'/'
}

/// Converts a `serde_yaml` path (`a.b[0].c`) to a JSON pointer, if `path` looks like one.
fn yaml_path_to_pointer(path: &str) -> Option<String> {
    if path.is_empty() || path == "." || path.contains(char::is_whitespace) {
        return None;
    }
    let mut pointer = String::new();
    for part in path.split('.') {
        let (key, mut indices) = part.find('[').map_or((part, ""), |cut| part.split_at(cut));
        if key.is_empty() && indices.is_empty() {
            return None;
        }
        if !key.is_empty() {
            pointer.push('/');
            pointer.push_str(&escape_pointer_segment(key));
        }
        while !indices.is_empty() {
            let close = indices.find(']')?;
            let index = &indices[1..close];
            if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            pointer.push('/');
            pointer.push_str(index);
            indices = &indices[close + 1..];
            if !indices.is_empty() && !indices.starts_with('[') {
                return None;
            }
        }
    }
    Some(pointer)
}

/// The child of a schema node named by one pointer segment.
fn child<'a>(node: &'a Value, segment: &str) -> Option<&'a Value> {
    match node {
        Value::Object(map) => map.get(segment),
        Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    }
}

/// JSON type names as YAML authors know them.
fn yaml_type_name(json_type: &str) -> &str {
    match json_type {
        "object" => "mapping",
        "array" => "sequence",
        other => other,
    }
}

/// A string in double quotes, JSON-escaped.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("\"{text}\""))
}

/// A value as written in a list of expected values: strings bare.
fn plain_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Comma-separated list, elided after [`MAX_LISTED`] items.
fn list(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    if items.len() > MAX_LISTED {
        format!("{}, ...", items[..MAX_LISTED].join(", "))
    } else {
        items.join(", ")
    }
}

/// Short description of a value for "got ..." messages.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean {b}"),
        Value::Number(n) if n.is_f64() => format!("number {n}"),
        Value::Number(n) => format!("integer {n}"),
        Value::String(s) if s.chars().count() > 40 => {
            let head: String = s.chars().take(40).collect();
            format!("string {}...", quoted(&head))
        }
        Value::String(s) => format!("string {}", quoted(s)),
        Value::Array(_) => "sequence".to_owned(),
        Value::Object(_) => "mapping".to_owned(),
    }
}

/// The name a value uses to pick an enum variant: a string, or the single key of a mapping.
fn variant_tag(value: &Value) -> Option<&String> {
    match value {
        Value::String(s) => Some(s),
        Value::Object(map) if map.len() == 1 => map.keys().next(),
        _ => None,
    }
}

fn internal_error(file: &str) -> Diagnostic {
    Diagnostic::plain(file, "internal error while parsing YAML")
}

fn marker_pos(marker: &Marker) -> Pos {
    Pos {
        line: marker.line().max(1),
        col: marker.col() + 1,
    }
}

fn parse_guarded(file: &Arc<str>, text: &str) -> Result<LNode, Diagnostic> {
    catch_unwind(AssertUnwindSafe(|| parse_unguarded(file, text)))
        .unwrap_or_else(|_| Err(internal_error(file)))
}

/// Checks what the aliases of `text` would copy, before anything is loaded: saphyr's loader
/// copies an anchor's whole tree for every alias (bounded only in nodes), and so does the
/// conversion to JSON. At most [`MAX_ALIAS_BYTES`] in all (strings and keys, plus 8 bytes per
/// node), and no copy may land deeper than [`MAX_DEPTH`]. One pass over the parser's events,
/// without recursion; syntax errors are left for the loader to report.
fn check_aliases(text: &str, chars: &[char]) -> Result<(), (Pos, String)> {
    use saphyr_parser::{Event, Parser};
    /// An open collection: its anchor id (0: none), its size so far and levels below it.
    struct Open {
        anchor: usize,
        bytes: usize,
        below: usize,
    }
    let mut open: Vec<Open> = Vec::new();
    // Anchor id → (bytes, levels below).
    let mut anchors: HashMap<usize, (usize, usize)> = HashMap::new();
    let mut copied = 0usize;
    for item in Parser::new_from_str(text) {
        let Ok((event, span)) = item else {
            return Ok(());
        };
        // A node just finished: (anchor, bytes, levels below).
        let done = match event {
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                open.push(Open {
                    anchor,
                    bytes: 8,
                    below: 0,
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => match open.pop() {
                Some(o) => (o.anchor, o.bytes, o.below),
                None => return Ok(()),
            },
            Event::Scalar(value, _, anchor, _) => (anchor, 8 + value.len(), 0),
            Event::Alias(id) => {
                let (bytes, below) = anchors.get(&id).copied().unwrap_or((8, 0));
                let pos = marker_pos(&span.start);
                let at = span.start.index();
                let end = (at + 1..chars.len())
                    .find(|&i| chars[i].is_whitespace() || matches!(chars[i], ',' | ']' | '}'))
                    .unwrap_or(chars.len());
                let name: String = chars.get(at..end).unwrap_or_default().iter().collect();
                if open.len() + below > MAX_DEPTH {
                    return Err((
                        pos,
                        format!("nesting is too deep (more than {MAX_DEPTH} levels) through alias {name}"),
                    ));
                }
                copied = copied.saturating_add(bytes);
                if copied > MAX_ALIAS_BYTES {
                    return Err((
                        pos,
                        format!(
                            "aliases expand to more than {MAX_ALIAS_BYTES} bytes (alias {name} \
                             copies {bytes} bytes); write the values out or alias less"
                        ),
                    ));
                }
                (0, bytes, below)
            }
            _ => continue,
        };
        let (anchor, bytes, below) = done;
        if anchor > 0 {
            anchors.insert(anchor, (bytes, below));
        }
        if let Some(parent) = open.last_mut() {
            parent.bytes = parent.bytes.saturating_add(bytes);
            parent.below = parent.below.max(below + 1);
        }
    }
    Ok(())
}

fn parse_unguarded(name: &Arc<str>, text: &str) -> Result<LNode, Diagnostic> {
    let file: &str = name;
    let chars: Vec<char> = text.chars().collect();
    // Without a `*` the text holds no alias: nothing to count, and no second parse.
    if text.contains('*') {
        check_aliases(text, &chars)
            .map_err(|(pos, message)| Diagnostic::new(file, Some(pos), "", message))?;
    }
    let docs = MarkedYaml::load_from_str(text).map_err(|e| {
        // saphyr stops deep nesting itself; say so in the words of our own limit.
        let message = if e.info().contains("recursion limit") {
            format!("nesting is too deep (more than {MAX_DEPTH} levels)")
        } else {
            format!("invalid YAML: {}", e.info())
        };
        Diagnostic::new(file, Some(marker_pos(e.marker())), "", message)
    })?;
    let mut docs = docs.into_iter();
    let Some(root) = docs.next() else {
        return Ok(LNode {
            origin: Origin {
                file: name.clone(),
                pos: None,
            },
            kind: LKind::Scalar(Value::Null),
        });
    };
    if let Some(second) = docs.next() {
        let pos = document_marker_after(&chars, root.span.end.index())
            .unwrap_or_else(|| marker_pos(&second.span.start));
        return Err(Diagnostic::new(
            file,
            Some(pos),
            "",
            "only one YAML document is allowed per file",
        ));
    }
    if let Some(pos) = too_deep(&root) {
        return Err(Diagnostic::new(
            file,
            Some(pos),
            "",
            format!("nesting is too deep (more than {MAX_DEPTH} levels)"),
        ));
    }
    let mut builder = Builder {
        chars,
        file: name.clone(),
        anchors: HashMap::new(),
        problems: Vec::new(),
    };
    let mut pointer = String::new();
    let tree = builder.convert(&root, &mut pointer);
    if let Some((pos, pointer, message)) = builder.problems.into_iter().min_by_key(|p| p.0) {
        return Err(Diagnostic::new(file, Some(pos), pointer, message));
    }
    Ok(tree)
}

/// Position of the first `---` line starting at or after character `from`.
fn document_marker_after(chars: &[char], from: usize) -> Option<Pos> {
    let mut line = 1;
    let mut line_start = true;
    for (i, c) in chars.iter().enumerate() {
        if line_start
            && i >= from
            && chars[i..].starts_with(&['-', '-', '-'])
            && chars.get(i + 3).is_none_or(|c| c.is_whitespace())
        {
            return Some(Pos { line, col: 1 });
        }
        line_start = *c == '\n';
        if line_start {
            line += 1;
        }
    }
    None
}

/// The position of the first node nested deeper than [`MAX_DEPTH`], found without recursion.
fn too_deep(root: &MarkedYaml<'_>) -> Option<Pos> {
    let mut stack: Vec<(&MarkedYaml<'_>, usize)> = vec![(root, 0)];
    while let Some((node, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            return Some(marker_pos(&node.span.start));
        }
        match &node.data {
            YamlData::Sequence(items) => stack.extend(items.iter().map(|n| (n, depth + 1))),
            YamlData::Mapping(map) => {
                for (k, v) in map {
                    stack.push((k, depth + 1));
                    stack.push((v, depth + 1));
                }
            }
            YamlData::Tagged(_, inner) => stack.push((inner, depth + 1)),
            _ => {}
        }
    }
    None
}

/// Node properties (`&anchor`, `!tag`) read from the source in front of a node.
struct Props {
    anchor: Option<String>,
    tag: Option<String>,
    /// Character index of the node's content, after its properties.
    rest: usize,
}

/// Converts a saphyr tree into a located tree (JSON values, each node and key at its
/// position). saphyr resolves scalars with rules of its own, so plain scalars are re-resolved
/// from their text with `serde_yaml`'s rules. A mapping's entries are in key order, as JSON
/// objects keep them.
struct Builder {
    chars: Vec<char>,
    file: Arc<str>,
    anchors: HashMap<String, Value>,
    problems: Vec<(Pos, String, String)>,
}

impl Builder {
    fn problem(&mut self, pos: Pos, pointer: &str, message: String) {
        self.problems.push((pos, pointer.to_owned(), message));
    }

    fn char_at(&self, index: usize) -> Option<char> {
        self.chars.get(index).copied()
    }

    fn slice(&self, from: usize, to: usize) -> String {
        let to = to.min(self.chars.len());
        if from >= to {
            return String::new();
        }
        self.chars[from..to].iter().collect()
    }

    /// End of a name (anchor, alias or tag) starting at `from`.
    fn token_end(&self, from: usize) -> usize {
        let mut i = from;
        while let Some(c) = self.char_at(i) {
            if c.is_whitespace() || matches!(c, ',' | '[' | ']' | '{' | '}') {
                break;
            }
            i += 1;
        }
        i
    }

    /// Reads the properties of the node spanning `start..end`.
    fn props(&self, start: usize, end: usize) -> Props {
        let mut anchor = None;
        let mut tag = None;
        let mut i = start;
        for _ in 0..2 {
            match self.char_at(i) {
                Some('&') if anchor.is_none() => {
                    let stop = self.token_end(i + 1);
                    anchor = Some(self.slice(i + 1, stop));
                    i = stop;
                }
                Some('!') if tag.is_none() => {
                    let stop = if self.char_at(i + 1) == Some('<') {
                        let mut j = i + 2;
                        while self.char_at(j).is_some_and(|c| c != '>') {
                            j += 1;
                        }
                        (j + 1).min(self.chars.len())
                    } else {
                        self.token_end(i + 1)
                    };
                    tag = Some(self.slice(i, stop));
                    i = stop;
                }
                _ => break,
            }
            // Blanks and comments between the properties and the content.
            while let Some(c) = self.char_at(i) {
                if c == '#' {
                    while self.char_at(i).is_some_and(|c| c != '\n') {
                        i += 1;
                    }
                } else if c.is_whitespace() {
                    i += 1;
                } else {
                    break;
                }
            }
        }
        Props {
            anchor,
            tag,
            rest: i.min(end.max(start)),
        }
    }

    /// Whether the scalar whose content starts at `start` is a block scalar (`|` or `>`):
    /// saphyr's span starts at the content, on a line after the header.
    fn is_block_scalar(&self, start: usize) -> bool {
        let mut i = start.min(self.chars.len());
        let mut crossed_newline = false;
        while i > 0 {
            match self.chars[i - 1] {
                '\n' => crossed_newline = true,
                ' ' | '\t' | '\r' => {}
                _ => break,
            }
            i -= 1;
        }
        if !crossed_newline || i == 0 {
            return false;
        }
        let mut line_start = i;
        while line_start > 0 && self.chars[line_start - 1] != '\n' {
            line_start -= 1;
        }
        let line = self.slice(line_start, i);
        let last = line
            .split_whitespace()
            .take_while(|token| !token.starts_with('#'))
            .last();
        last.is_some_and(|token| {
            let mut cs = token.chars();
            matches!(cs.next(), Some('|' | '>')) && cs.all(|c| matches!(c, '-' | '+' | '1'..='9'))
        })
    }

    /// The value of the alias (`*name`) starting at `start`, if its anchor was seen (what
    /// aliases copy was bounded before loading, by [`check_aliases`]).
    fn alias_value(&self, start: usize) -> Option<Value> {
        let name = self.slice(start + 1, self.token_end(start + 1));
        self.anchors.get(&name).cloned()
    }

    fn origin(&self, pos: Pos) -> Origin {
        Origin {
            file: self.file.clone(),
            pos: Some(pos),
        }
    }

    fn convert(&mut self, node: &MarkedYaml<'_>, pointer: &mut String) -> LNode {
        let pos = marker_pos(&node.span.start);
        let origin = self.origin(pos);
        let start = node.span.start.index();
        if self.char_at(start) == Some('*') {
            let value = self
                .alias_value(start)
                .unwrap_or_else(|| saphyr_value(node));
            return LNode::from_value(&value, &origin);
        }
        let props = self.props(start, node.span.end.index());
        let value = match &node.data {
            YamlData::Value(scalar) => self.scalar(node, scalar, &props, pos, pointer),
            YamlData::Sequence(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let len = push_index(pointer, i);
                    out.push(self.convert(item, pointer));
                    pointer.truncate(len);
                }
                return self.anchored(props.anchor, origin, LKind::Seq(out));
            }
            YamlData::Mapping(map) => {
                let entries = self.mapping(map, pointer);
                return self.anchored(props.anchor, origin, LKind::Map(entries));
            }
            YamlData::Tagged(tag, _) => {
                self.problem(pos, pointer, format!("YAML tag `{tag}` is not supported"));
                Value::Null
            }
            YamlData::Representation(text, style, _) => {
                if *style == saphyr::ScalarStyle::Plain {
                    self.plain(text, pos, pointer)
                } else {
                    Value::String(text.to_string())
                }
            }
            YamlData::Alias(_) => {
                self.problem(pos, pointer, "aliases are not supported".to_owned());
                Value::Null
            }
            YamlData::BadValue => {
                let shown = self.slice(start, node.span.end.index());
                self.problem(
                    pos,
                    pointer,
                    format!("invalid or unsupported value `{}`", shown.trim()),
                );
                Value::Null
            }
        };
        self.anchored(props.anchor, origin, LKind::Scalar(value))
    }

    /// The node, its value remembered under its anchor if it has one.
    fn anchored(&mut self, anchor: Option<String>, origin: Origin, kind: LKind) -> LNode {
        let node = LNode { origin, kind };
        if let Some(anchor) = anchor {
            self.anchors.insert(anchor, node.to_value());
        }
        node
    }

    fn plain(&mut self, text: &str, pos: Pos, pointer: &str) -> Value {
        content_scalar(text).unwrap_or_else(|message| {
            self.problem(pos, pointer, message);
            Value::Null
        })
    }

    fn scalar(
        &mut self,
        node: &MarkedYaml<'_>,
        scalar: &Scalar<'_>,
        props: &Props,
        pos: Pos,
        pointer: &str,
    ) -> Value {
        // The scalar's text: saphyr's string (unescaped, folded) or, for scalars saphyr resolved
        // to something else (those are plain, on one line), their source text.
        let text = match scalar {
            Scalar::String(s) => s.to_string(),
            _ => {
                let source = self.slice(props.rest, node.span.end.index());
                let source = source.trim();
                if source.contains('\n') {
                    if matches!(scalar, Scalar::FloatingPoint(_)) {
                        self.problem(pos, pointer, float_message(source));
                        return Value::Null;
                    }
                    return saphyr_scalar(scalar);
                }
                source.to_owned()
            }
        };
        if let Some(tag) = &props.tag {
            let core = tag
                .strip_prefix("!!")
                .or_else(|| {
                    tag.strip_prefix("!<tag:yaml.org,2002:")
                        .and_then(|t| t.strip_suffix('>'))
                })
                .unwrap_or("");
            let resolved = match core {
                "str" => Some(Value::String(text.clone())),
                "null" => (text.is_empty() || is_null_text(&text)).then_some(Value::Null),
                "bool" => bool_text(&text).map(Value::Bool),
                "int" => plain_scalar_to_json(&text)
                    .ok()
                    .filter(|v| v.is_i64() || v.is_u64()),
                "float" => {
                    self.problem(pos, pointer, float_message(&text));
                    return Value::Null;
                }
                _ => {
                    self.problem(pos, pointer, format!("YAML tag `{tag}` is not supported"));
                    return Value::Null;
                }
            };
            return resolved.unwrap_or_else(|| {
                self.problem(
                    pos,
                    pointer,
                    format!("invalid {tag} value {}", quoted(&text)),
                );
                Value::Null
            });
        }
        let Scalar::String(s) = scalar else {
            return self.plain(&text, pos, pointer);
        };
        if matches!(self.char_at(props.rest), Some('\'' | '"')) {
            return Value::String(text);
        }
        match content_scalar(s) {
            Ok(Value::String(_)) => Value::String(text),
            _ if self.is_block_scalar(node.span.start.index()) => Value::String(text),
            Ok(other) => other,
            Err(message) => {
                self.problem(pos, pointer, message);
                Value::Null
            }
        }
    }

    /// A mapping's entries in key order; a key written twice is a problem at its second
    /// (and any later) occurrence.
    fn mapping(
        &mut self,
        map: &AnnotatedMapping<'_, MarkedYaml<'_>>,
        pointer: &mut String,
    ) -> Vec<MapEntry> {
        let mut out: Vec<MapEntry> = Vec::with_capacity(map.len());
        for (key_node, value_node) in map {
            let key_pos = marker_pos(&key_node.span.start);
            let Some(key) = self.key_text(key_node, key_pos, pointer) else {
                continue;
            };
            let len = push_key(pointer, &key);
            let value = self.convert(value_node, pointer);
            pointer.truncate(len);
            out.push(MapEntry {
                key,
                key_origin: self.origin(key_pos),
                value,
            });
        }
        // Stable: entries of one key stay in the order they are written.
        out.sort_by(|a, b| a.key.cmp(&b.key));
        for pair in out.windows(2) {
            if pair[0].key == pair[1].key {
                let Some(at) = pair[1].key_origin.pos else {
                    continue;
                };
                let len = push_key(pointer, &pair[1].key);
                let message = format!("duplicate key {}", quoted(&pair[1].key));
                self.problems.push((at, pointer.clone(), message));
                pointer.truncate(len);
            }
        }
        out
    }

    /// A mapping key as a string: `serde_yaml` uses the source text of non-string scalars.
    fn key_text(&mut self, node: &MarkedYaml<'_>, pos: Pos, pointer: &str) -> Option<String> {
        let start = node.span.start.index();
        if self.char_at(start) == Some('*') {
            return match self
                .alias_value(start)
                .unwrap_or_else(|| saphyr_value(node))
            {
                Value::String(s) => Some(s),
                Value::Array(_) | Value::Object(_) => {
                    self.problem(pos, pointer, "mapping keys must be scalars".to_owned());
                    None
                }
                other => Some(other.to_string()),
            };
        }
        let props = self.props(start, node.span.end.index());
        let key = match &node.data {
            YamlData::Value(Scalar::String(s)) => s.to_string(),
            YamlData::Value(_) => self
                .slice(props.rest, node.span.end.index())
                .trim()
                .to_owned(),
            YamlData::Representation(text, _, _) => text.to_string(),
            YamlData::Tagged(tag, _) => {
                self.problem(pos, pointer, format!("YAML tag `{tag}` is not supported"));
                return None;
            }
            YamlData::Sequence(_) | YamlData::Mapping(_) => {
                self.problem(pos, pointer, "mapping keys must be scalars".to_owned());
                return None;
            }
            YamlData::Alias(_) | YamlData::BadValue => {
                self.problem(pos, pointer, "invalid mapping key".to_owned());
                return None;
            }
        };
        if let Some(tag) = &props.tag {
            if !tag.starts_with("!!") && !tag.starts_with("!<tag:yaml.org,2002:") {
                self.problem(pos, pointer, format!("YAML tag `{tag}` is not supported"));
                return None;
            }
        }
        if let Some(anchor) = props.anchor {
            self.anchors.insert(anchor, Value::String(key.clone()));
        }
        Some(key)
    }
}

/// A plain scalar as content reads it: as `serde_yaml` would ([`plain_scalar_to_json`]), except
/// that floats are refused. No content field holds a float, and `15.0`, `.inf` or `.nan` would
/// otherwise pass a schema's `integer` (15.0) or become `null` (JSON has no infinity).
fn content_scalar(text: &str) -> Result<Value, String> {
    let value = plain_scalar_to_json(text)?;
    let is_float = !leading_zero_digits(text)
        && float_text(text).is_some()
        && !(value.is_i64() || value.is_u64());
    if is_float {
        return Err(float_message(text));
    }
    Ok(value)
}

/// The problem with a float in content.
fn float_message(text: &str) -> String {
    format!(
        "expected an integer, got float {text} (numbers in content are whole; quote it if it \
         is text)"
    )
}

/// Converts a saphyr scalar without looking at its source.
fn saphyr_scalar(scalar: &Scalar<'_>) -> Value {
    match scalar {
        Scalar::Null => Value::Null,
        Scalar::Boolean(b) => Value::Bool(*b),
        Scalar::Integer(i) => Value::from(*i),
        Scalar::FloatingPoint(f) => float_value(f.into_inner()),
        Scalar::String(s) => Value::String(s.to_string()),
    }
}

/// Converts a saphyr tree without looking at its source (for an alias whose anchor was not
/// seen). The tree has already been checked against [`MAX_DEPTH`].
fn saphyr_value(node: &MarkedYaml<'_>) -> Value {
    match &node.data {
        YamlData::Value(scalar) => saphyr_scalar(scalar),
        YamlData::Sequence(items) => Value::Array(items.iter().map(saphyr_value).collect()),
        YamlData::Mapping(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let key = match saphyr_value(k) {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    (key, saphyr_value(v))
                })
                .collect(),
        ),
        YamlData::Tagged(_, inner) => saphyr_value(inner),
        YamlData::Representation(text, _, _) => Value::String(text.to_string()),
        YamlData::Alias(_) | YamlData::BadValue => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemars::JsonSchema;
    use serde::Deserialize;
    use serde_json::json;

    #[allow(dead_code)]
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Creature {
        id: String,
        name: String,
        size: u32,
        #[serde(default)]
        tags: Vec<String>,
        #[serde(default)]
        effects: Vec<Effect>,
        home: Option<Habitat>,
    }

    #[allow(dead_code)]
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(rename_all = "snake_case", deny_unknown_fields)]
    enum Effect {
        Gain(u32),
        Charge { amount: u32 },
        Pass,
    }

    #[allow(dead_code)]
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Habitat {
        kind: String,
        x: i32,
    }

    fn creature_check() -> SchemaCheck {
        let schema = schemars::generate::SchemaSettings::draft07()
            .into_generator()
            .into_root_schema_for::<Creature>();
        SchemaCheck::new(&serde_json::to_value(schema).unwrap()).unwrap()
    }

    /// Every diagnostic of a check of `g.yaml` names that file and says something.
    fn names_the_file(diags: &[Diagnostic]) {
        for d in diags {
            assert_eq!(d.file, "g.yaml", "{d}");
            assert!(!d.message.is_empty(), "{d:?}");
        }
    }

    fn check(text: &str) -> Vec<Diagnostic> {
        let doc = SourceDoc::parse("f.yaml", text).unwrap();
        creature_check().check(&doc)
    }

    fn shown(diags: &[Diagnostic]) -> Vec<String> {
        diags.iter().map(ToString::to_string).collect()
    }

    const VALID: &str = "id: zorgs\nname: Zorgs\nsize: 4\ntags: [blue]\neffects:\n  - gain: 2\n  - charge: {amount: 3}\n  - pass\nhome:\n  kind: terra\n  x: -1\n";

    #[test]
    fn the_located_tree_is_parsed_with_every_node_and_key_at_its_place() {
        let text = "name: a\nlist:\n  - {x: 1, \"a/b~c\": [true, null]}\n  - - 2\n    - s\nk: &k {q: 1}\nm: *k\n";
        let file: Arc<str> = Arc::from("t.yaml");
        let tree = SourceDoc::parse_located(&file, text).unwrap();
        let doc = SourceDoc::parse("t.yaml", text).unwrap();
        assert_eq!(tree.to_value(), *doc.value());
        let built = crate::located::LNode::from_doc(&doc, &file);
        assert_eq!(format!("{tree:?}"), format!("{built:?}"));
        let at = |p: &str| tree.origin_at(p).pos.map(|p| (p.line, p.col));
        let key_at = |p: &str| tree.key_origin_at(p).pos.map(|p| (p.line, p.col));
        assert_eq!(at("/list/0/a~1b~0c/1"), Some((3, 28)));
        assert_eq!(key_at("/list/0/a~1b~0c"), Some((3, 12)));
        assert_eq!(at("/list/1/1"), Some((5, 7)));
        assert_eq!(at("/k/q"), Some((6, 11)));
        // A node inside an alias is at the alias, its keys too.
        assert_eq!(at("/m"), Some((7, 4)));
        assert_eq!(at("/m/q"), Some((7, 4)));
        assert_eq!(key_at("/m/q"), Some((7, 4)));
        assert_eq!(key_at("/m"), Some((7, 1)));
        // Mapping entries are in key order, as in the JSON value.
        let crate::located::LKind::Map(entries) = &tree.kind else {
            panic!("a mapping")
        };
        let keys: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["k", "list", "m", "name"]);
        // A key written twice (as JSON keys: `1` and `"1"` are one) is refused at its second
        // occurrence.
        let e = SourceDoc::parse_located(&file, "\"1\": a\nb: 2\n1: c\n").unwrap_err();
        assert_eq!(e.to_string(), "t.yaml:3:1: duplicate key \"1\" (at /1)");
        // An empty document is null, at no position.
        let empty = SourceDoc::parse_located(&file, "# nothing\n").unwrap();
        assert_eq!((empty.to_value(), empty.origin.pos), (Value::Null, None));
    }

    #[test]
    fn valid_document_has_no_diagnostics() {
        assert_eq!(check(VALID), vec![]);
        // Content is decoded from the JSON value (`serde_yaml` wants YAML tags for enums).
        let doc = SourceDoc::parse("f.yaml", VALID).unwrap();
        let typed: Creature = serde_json::from_value(doc.value().clone()).unwrap();
        assert_eq!((typed.size, typed.effects.len()), (4, 3));
    }

    #[test]
    fn wrong_type_is_reported_at_the_value() {
        assert_eq!(
            shown(&check("id: a\nname: b\nsize: four\n")),
            ["f.yaml:3:7: expected integer, got string \"four\" (at /size)"]
        );
    }

    #[test]
    fn unknown_key_is_reported_at_the_key() {
        assert_eq!(
            shown(&check(
                "id: a\nname: b\nsize: 1\nhome:\n  kind: k\n  x: 1\n  colour: red\n"
            )),
            ["f.yaml:7:3: unknown field \"colour\", expected one of kind, x (at /home/colour)"]
        );
    }

    #[test]
    fn missing_field_is_reported_at_the_parent() {
        assert_eq!(
            shown(&check("# comment\nname: b\nsize: 1\n")),
            ["f.yaml:2:1: missing field \"id\""]
        );
        assert_eq!(
            shown(&check("id: a\nname: b\nsize: 1\nhome:\n  x: 1\n")),
            ["f.yaml:5:3: missing field \"kind\" (at /home)"]
        );
    }

    #[test]
    fn every_error_is_reported_sorted_by_position() {
        let text = "colour: red\nid: 7\nsize: -3\ntags: [a, 2, c]\nhome: {kind: k, x: [1], y: 0}\n";
        assert_eq!(
            shown(&check(text)),
            [
                "f.yaml:1:1: missing field \"name\"",
                "f.yaml:1:1: unknown field \"colour\", expected one of effects, home, id, name, size, tags (at /colour)",
                "f.yaml:2:5: expected string, got integer 7 (at /id)",
                "f.yaml:3:7: -3 is less than the minimum of 0 (at /size)",
                "f.yaml:4:11: expected string, got integer 2 (at /tags/1)",
                "f.yaml:5:20: expected integer, got sequence (at /home/x)",
                "f.yaml:5:25: unknown field \"y\", expected one of kind, x (at /home/y)",
            ]
        );
    }

    #[test]
    fn nested_sequences_of_mappings() {
        let text = "id: a\nname: b\nsize: 1\neffects:\n  - gain: 1\n  - charge:\n      amount: lots\n  - gian: 2\n  - pass\n  - charge: {amount: 1, extra: 2}\n  - [gain]\n";
        assert_eq!(
            shown(&check(text)),
            [
                "f.yaml:7:15: expected integer, got string \"lots\" (at /effects/1/charge/amount)",
                "f.yaml:8:5: not a valid Effect: unknown variant \"gian\", expected one of pass, gain, charge (at /effects/2)",
                "f.yaml:10:25: unknown field \"extra\", expected one of amount (at /effects/4/charge/extra)",
                "f.yaml:11:5: not a valid Effect: expected one of pass, gain, charge, got sequence (at /effects/5)",
            ]
        );
    }

    #[test]
    fn string_variants_and_options() {
        assert_eq!(
            shown(&check("id: a\nname: b\nsize: 1\neffects: [skip]\nhome: 3\n")),
            [
                "f.yaml:4:11: not a valid Effect: unknown variant \"skip\", expected one of pass, gain, charge (at /effects/0)",
                "f.yaml:5:7: expected mapping, got integer 3 (at /home)",
            ]
        );
    }

    #[test]
    fn hand_written_schema_with_alternatives() {
        let schema = json!({
            "type": "object",
            "properties": {
                "cost": {"anyOf": [{"type": "integer"}, {"type": "string", "enum": ["free"]}]},
                "mode": {"enum": ["fast", "slow"]},
                "kind": {"$ref": "#/definitions/Kind"}
            },
            "definitions": {"Kind": {"title": "Kind", "oneOf": [{"const": "a"}, {"const": "b"}]}}
        });
        let check = SchemaCheck::new(&schema).unwrap();
        let doc = SourceDoc::parse("s.yaml", "cost: [1]\nmode: medium\nkind: c\n").unwrap();
        assert_eq!(
            shown(&check.check(&doc)),
            [
                "s.yaml:1:7: no alternative matches: expected one of integer, free, got sequence (at /cost)",
                "s.yaml:2:7: expected one of fast, slow, got string \"medium\" (at /mode)",
                "s.yaml:3:7: not a valid Kind: unknown variant \"c\", expected one of a, b (at /kind)",
            ]
        );
        assert!(SchemaCheck::new(&json!({"type": 12})).is_err());
    }

    #[test]
    fn errors_without_positions() {
        let errors = creature_check().errors(&json!({"id": "a", "name": "b", "size": 1, "x/y": 0}));
        assert_eq!(
            errors,
            [SchemaError {
                pointer: "/x~1y".into(),
                message:
                    "unknown field \"x/y\", expected one of effects, home, id, name, size, tags"
                        .into(),
                at_key: true,
            }]
        );
    }

    #[test]
    fn syntax_errors_have_positions() {
        let err = SourceDoc::parse("f.yaml", "a: [1, 2\n").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 2, col: 1 }));
        assert!(err.message.starts_with("invalid YAML: "), "{err}");
        let err = SourceDoc::parse("f.yaml", "a: 1\nb: c: d\n").unwrap_err();
        assert_eq!(err.pos.map(|p| p.line), Some(2), "{err}");
        let err = SourceDoc::parse("f.yaml", "a: 1\nb: 2\na: 3\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "f.yaml:3:1: invalid YAML: duplicated key in mapping"
        );
    }

    #[test]
    fn positions_of_keys_and_values() {
        let text = "a:\n  - x: 1\n    y: [2, {z: 3}]\n\"s/l~\": q\n";
        let doc = SourceDoc::parse("f.yaml", text).unwrap();
        assert_eq!(
            doc.value(),
            &json!({"a": [{"x": 1, "y": [2, {"z": 3}]}], "s/l~": "q"})
        );
        let pos = |line, col| Some(Pos { line, col });
        assert_eq!(doc.pos_of(""), pos(1, 1));
        assert_eq!(doc.pos_of("/a"), pos(2, 3));
        assert_eq!(doc.pos_of("/a/0/x"), pos(2, 8));
        assert_eq!(doc.key_pos_of("/a/0/y"), pos(3, 5));
        assert_eq!(doc.pos_of("/a/0/y/1/z"), pos(3, 16));
        assert_eq!(doc.pos_of("/s~1l~0"), pos(4, 9));
        assert_eq!(doc.key_pos_of("/s~1l~0"), pos(4, 1));
        // Falls back to the nearest ancestor.
        assert_eq!(doc.pos_of("/a/0/missing/deeper"), pos(2, 5));
        assert_eq!(doc.key_pos_of("/a/7"), pos(2, 3));
        assert_eq!(doc.file(), "f.yaml");
    }

    #[test]
    fn pointer_escaping_in_unknown_keys() {
        let schema =
            json!({"type": "object", "additionalProperties": false, "properties": {"ok": {}}});
        let doc = SourceDoc::parse("f.yaml", "ok: 1\na/b: 2\nc~d: 3\n").unwrap();
        assert_eq!(
            shown(&SchemaCheck::new(&schema).unwrap().check(&doc)),
            [
                "f.yaml:2:1: unknown field \"a/b\", expected one of ok (at /a~1b)",
                "f.yaml:3:1: unknown field \"c~d\", expected one of ok (at /c~0d)",
            ]
        );
    }

    #[test]
    fn both_parsers_agree() {
        let text = r#"
plain: hello world
multi: this is
  folded plain
quoted: "0123"
single: 'it''s'
ints: [0, 7, -7, +7, 0x1F, -0x1F, 0o17, 0b101, -0b11, 18446744073709551615, -9223372036854775808]
leading_zero: [0123, -007, 00]
not_floats: [1e999, 1.2.3, inf]
bools: [true, True, TRUE, false, False, FALSE, yes, no, on, off]
nulls: [~, null, Null, NULL, ]
empty:
strings: [0x, 0xZZ, 1_000, 12:30, inf, nan, "true", 'null', --1, +-1, 0x-1, 1.2.3]
block: |
  line 1
  line 2
stripped: |-
  123
folded: >-
  true
empty_block: |
keep: >+
  x

tagged: [!!str 0123, !!int "42", !!bool true, !!null ~]
empty_str: !!str
anchor: &a {k: 0x10, list: [1, two]}
alias: *a
scalar_anchor: &s 0o7
scalar_alias: *s
0x10: numeric key
1.0: float key
~: null key
true: bool key
"quoted key": 1
? explicit
: key
nested:
  - - 1
    - [2, {a: [3]}]
  - {x: {y: {z: end}}}
unicode: "caf\u00e9 ✓"
escapes: "tab\tnew\nline"
"#;
        let doc = SourceDoc::parse("f.yaml", text).unwrap();
        let expected: Value = serde_yaml::from_str(text).unwrap();
        assert_eq!(doc.value(), &expected);
        assert_eq!(doc.value()["leading_zero"], json!(["0123", "-007", "00"]));
        assert_eq!(doc.value()["stripped"], json!("123"));
        assert_eq!(doc.value()["empty_block"], json!(""));
        assert_eq!(doc.value()["alias"], json!({"k": 16, "list": [1, "two"]}));
        // Positions inside an alias are those of the alias.
        assert_eq!(doc.pos_of("/alias/k"), doc.pos_of("/alias"));
    }

    #[test]
    fn plain_scalars_resolve_like_serde_yaml() {
        for text in [
            "~",
            "null",
            "true",
            "False",
            "0",
            "-0",
            "42",
            "+42",
            "-42",
            "0x1f",
            "-0x1F",
            "+0x1F",
            "0o17",
            "-0o17",
            "0b11",
            "-0b11",
            "0123",
            "+0123",
            "-0123",
            "00",
            "1.5",
            "+1.5",
            "-1.5",
            "1e5",
            "1E-5",
            ".5",
            "5.",
            ".inf",
            "+.inf",
            "-.Inf",
            ".NaN",
            "1e999",
            "inf",
            "NaN",
            "infinity",
            "0x",
            "0x+1",
            "--1",
            "++1",
            "+-1",
            "1_000",
            "12:30",
            "0.0.1",
            "yes",
            "18446744073709551615",
            "-9223372036854775808",
            "abc",
        ] {
            let expected: Result<Value, _> = serde_yaml::from_str(&format!("[{text}]"));
            let ours = plain_scalar_to_json(text).map(|v| json!([v]));
            assert_eq!(ours.ok(), expected.ok(), "scalar {text:?}");
        }
        assert!(plain_scalar_to_json("18446744073709551616").is_err());
        assert!(plain_scalar_to_json("-9223372036854775809").is_err());
        assert_eq!(plain_scalar_to_json(""), Ok(Value::Null));
        assert_eq!(plain_scalar_to_json("0123"), Ok(json!("0123")));
        assert_eq!(plain_scalar_to_json("-0b11"), Ok(json!(-3)));
        assert_eq!(plain_scalar_to_json(".nan"), Ok(Value::Null));
    }

    #[test]
    fn floats_are_refused_naming_the_integer_expected() {
        for (text, shown) in [
            ("value: 15.0\n", "15.0"),
            ("value: .inf\n", ".inf"),
            ("value: -.Inf\n", "-.Inf"),
            ("value: .nan\n", ".nan"),
            ("value: 1e3\n", "1e3"),
            ("value: !!float 1\n", "1"),
        ] {
            let err = SourceDoc::parse("f.yaml", text).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    "f.yaml:1:8: expected an integer, got float {shown} (numbers in content are \
                     whole; quote it if it is text) (at /value)"
                ),
                "{text}"
            );
        }
        // Quoted, block or keys: text, as before.
        let doc =
            SourceDoc::parse("f.yaml", "a: \"1.5\"\nb: |\n  2.5\n1.5: c\nd: 1e999\n").unwrap();
        assert_eq!(
            doc.value(),
            &json!({"a": "1.5", "b": "2.5\n", "1.5": "c", "d": "1e999"})
        );
    }

    #[test]
    fn alias_expansion_is_bounded_in_bytes() {
        // One long string aliased through levels of ten: few nodes, many bytes.
        let long = "x".repeat(200_000);
        let mut text = format!("s: &s {long}\n");
        text.push_str("l1: &l1 [");
        text.push_str(&["*s"; 10].join(", "));
        text.push_str("]\nl2: &l2 [");
        text.push_str(&["*l1"; 10].join(", "));
        text.push_str("]\n");
        let err = SourceDoc::parse("f.yaml", &text).unwrap_err();
        assert!(
            err.message.starts_with(&format!(
                "aliases expand to more than {MAX_ALIAS_BYTES} bytes (alias *s copies 200008 bytes)"
            )),
            "{err}"
        );
        assert_eq!(err.pos, Some(Pos { line: 2, col: 30 }));
        // Within the budget aliases still expand.
        let doc = SourceDoc::parse("f.yaml", "a: &a [1, two]\nb: [*a, *a]\n").unwrap();
        assert_eq!(doc.value()["b"], json!([[1, "two"], [1, "two"]]));
        // Nesting reached through aliases counts too.
        let deep = format!(
            "a: &a {}1{}\nb: {}*a{}\n",
            "[".repeat(100),
            "]".repeat(100),
            "[".repeat(100),
            "]".repeat(100)
        );
        let err = SourceDoc::parse("f.yaml", &deep).unwrap_err();
        assert!(err.message.starts_with("nesting is too deep"), "{err}");
    }

    #[test]
    fn documents_tags_keys_and_merge_keys() {
        let parse = |text: &str| SourceDoc::parse("f.yaml", text);
        let fails = |text: &str| parse(text).unwrap_err().to_string();
        assert_eq!(parse("").unwrap().value(), &Value::Null);
        assert_eq!(parse("# nothing\n").unwrap().value(), &Value::Null);
        assert_eq!(parse("").unwrap().pos_of(""), None);
        assert_eq!(
            fails("a: 1\n---\nb: 2\n"),
            "f.yaml:2:1: only one YAML document is allowed per file"
        );
        assert_eq!(
            fails("a: !gain 3\n"),
            "f.yaml:1:4: YAML tag `!gain` is not supported (at /a)"
        );
        assert_eq!(
            fails("a:\n  - !x {b: 1}\n"),
            "f.yaml:2:5: YAML tag `!x` is not supported (at /a/0)"
        );
        assert_eq!(
            fails("a:\n  ? [1, 2]\n  : x\n"),
            "f.yaml:2:5: mapping keys must be scalars (at /a)"
        );
        assert_eq!(
            fails("a: 1\n1: x\n\"1\": y\n"),
            "f.yaml:3:1: duplicate key \"1\" (at /1)"
        );
        assert_eq!(
            fails("n: 99999999999999999999\n"),
            "f.yaml:1:4: integer 99999999999999999999 is out of range (at /n)"
        );
        assert_eq!(
            fails("n: !!int 0123\n"),
            "f.yaml:1:4: invalid !!int value \"0123\" (at /n)"
        );
        let doc = parse("base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n").unwrap();
        let schema = json!({"type": "object", "additionalProperties": false, "properties": {
            "base": {}, "d": {"type": "object", "additionalProperties": false, "properties": {"y": {}}}}});
        assert_eq!(
            shown(&SchemaCheck::new(&schema).unwrap().check(&doc)),
            ["f.yaml:3:3: merge keys (`<<`) are not supported (at /d/<<)"]
        );
    }

    #[test]
    fn never_panics_on_garbage() {
        let deep_flow = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let deep_unclosed = "[".repeat(50_000);
        let deep_block = format!("{}x\n", "- ".repeat(20_000));
        let deep_map: String = (0..3_000)
            .map(|i| format!("{}k:\n", " ".repeat(i)))
            .collect();
        let deep_then_garbage = format!("{}{} ]]] : : {{", "[".repeat(20_000), "]".repeat(20_000));
        let inputs: Vec<String> = vec![
            "\ta: 1\n".into(),
            "a:\n\t- b\n".into(),
            "\u{0}\u{1}\u{7f}\u{feff}".into(),
            "]]]}}}:::---...".into(),
            "{{{{".into(),
            "- - - -\n  - :".into(),
            "&a [*a]".into(),
            "*a".into(),
            "key: \"unterminated".into(),
            "? ? ? ?".into(),
            "!<tag:yaml.org,2002:str> x".into(),
            "%YAML 1.2\n---\na: 1\n".into(),
            "a: |\n".into(),
            "'".into(),
            "---\n---\n".into(),
            ": :\n".into(),
            "a: &x\nb: *x\n".into(),
            "- &\n".into(),
            "- !\n".into(),
            "- !!\n".into(),
            deep_flow,
            deep_unclosed,
            deep_block,
            deep_map,
            deep_then_garbage,
            format!("{}{}", "[".repeat(200), "]".repeat(200)),
        ];
        let check = creature_check();
        for input in &inputs {
            if let Ok(doc) = SourceDoc::parse("g.yaml", input) {
                names_the_file(&check.check(&doc));
            }
        }
        assert_eq!(
            SourceDoc::parse("g.yaml", &inputs[25])
                .unwrap_err()
                .to_string(),
            "g.yaml:1:130: nesting is too deep (more than 128 levels)"
        );
        // Short random strings over YAML's special characters.
        let alphabet: Vec<char> = "-:?[]{},&*!|>'\"%@` #\n\ta0.~".chars().collect();
        let mut seed = 0x2545_f491_u32;
        for _ in 0..3_000 {
            let len = (seed % 24) as usize;
            let text: String = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    alphabet[(seed as usize) % alphabet.len()]
                })
                .collect();
            if let Ok(doc) = SourceDoc::parse("g.yaml", &text) {
                names_the_file(&check.check(&doc));
            }
        }
    }

    #[test]
    fn yaml_errors_become_diagnostics() {
        let text = "id: a\nname: b\nsize: 1\ntags:\n  - a\n  - [b]\n";
        let err = serde_yaml::from_str::<Creature>(text).unwrap_err();
        assert_eq!(
            from_yaml_error("f.yaml", &err).to_string(),
            "f.yaml:6:5: invalid type: sequence, expected a string (at /tags/1)"
        );
        let text = "id: a\nname: b\nsize: 1\nhome:\n  kind: k\n  x: 1\n  colour: red\n";
        let err = serde_yaml::from_str::<Creature>(text).unwrap_err();
        let diag = from_yaml_error("f.yaml", &err);
        assert_eq!(
            (diag.pos, diag.pointer.as_str()),
            (Some(Pos { line: 7, col: 3 }), "/home")
        );
        assert!(diag.message.starts_with("unknown field `colour`"), "{diag}");
        let err = serde_yaml::from_str::<Creature>("id: [\n").unwrap_err();
        let diag = from_yaml_error("f.yaml", &err);
        assert!(diag.pos.is_some(), "{diag}");
        assert!(!diag.message.contains(" at line "), "{diag}");
        assert_eq!(
            yaml_path_to_pointer("a.b[0][1].c/d"),
            Some("/a/b/0/1/c~1d".to_owned())
        );
        assert_eq!(yaml_path_to_pointer("invalid type"), None);
    }

    #[test]
    fn display_formats() {
        let d = Diagnostic::new("f.yaml", Some(Pos { line: 3, col: 7 }), "/a/0", "bad");
        assert_eq!(d.to_string(), "f.yaml:3:7: bad (at /a/0)");
        let d = Diagnostic::new("f.yaml", Some(Pos { line: 1, col: 1 }), "", "bad");
        assert_eq!(d.to_string(), "f.yaml:1:1: bad");
        assert_eq!(
            Diagnostic::plain("f.yaml", "bad").to_string(),
            "f.yaml: bad"
        );
        assert_eq!(Pos { line: 2, col: 5 }.to_string(), "2:5");
    }
}
