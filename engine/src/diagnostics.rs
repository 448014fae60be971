//! Problems in content files with their positions: YAML parsed with positions (saphyr), JSON
//! Schema checks (jsonschema) that report every error, and concise messages.

use std::collections::BTreeMap;
use std::fmt;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::ValidationError;
use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, ScalarStyle, YamlData};
use serde_json::{Map, Number, Value};

/// A position in a source file (1-based line and column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub col: usize,
}

/// One problem found in a content file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// File name as shown to the user.
    pub file: String,
    /// Where in the file, if known.
    pub pos: Option<Pos>,
    /// JSON pointer of the value concerned (empty: the whole file).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl Diagnostic {
    /// A problem with a whole file.
    pub fn plain(file: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_string(),
            pos: None,
            pointer: String::new(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some(p) => write!(f, "{}:{}:{}: {}", self.file, p.line, p.col, self.message)?,
            None => write!(f, "{}: {}", self.file, self.message)?,
        }
        if !self.pointer.is_empty() {
            write!(f, " (at {})", self.pointer)?;
        }
        Ok(())
    }
}

fn escape(seg: &str) -> String {
    seg.replace('~', "~0").replace('/', "~1")
}

/// A YAML document parsed with the position of every node and mapping key.
#[derive(Debug, Clone)]
pub struct SourceDoc {
    file: String,
    value: Value,
    positions: BTreeMap<String, Pos>,
    key_positions: BTreeMap<String, Pos>,
}

/// Deepest nesting accepted in a content file.
const MAX_DEPTH: usize = 128;

impl SourceDoc {
    /// Parses one YAML document; a syntax error is returned with its position.
    pub fn parse(file: &str, text: &str) -> Result<SourceDoc, Diagnostic> {
        let docs = MarkedYaml::load_from_str(text).map_err(|e| Diagnostic {
            file: file.to_string(),
            pos: Some(Pos {
                line: e.marker().line(),
                col: e.marker().col() + 1,
            }),
            pointer: String::new(),
            message: format!("YAML syntax error: {}", e.info()),
        })?;
        if docs.len() > 1 {
            let second = &docs[1];
            return Err(Diagnostic {
                file: file.to_string(),
                pos: Some(pos_of(second)),
                pointer: String::new(),
                message: "a content file holds one YAML document".into(),
            });
        }
        let mut doc = SourceDoc {
            file: file.to_string(),
            value: Value::Null,
            positions: BTreeMap::new(),
            key_positions: BTreeMap::new(),
        };
        if let Some(root) = docs.first() {
            doc.value = doc.convert(root, "", 0)?;
        }
        Ok(doc)
    }

    fn error(&self, node: &MarkedYaml<'_>, pointer: &str, message: &str) -> Diagnostic {
        Diagnostic {
            file: self.file.clone(),
            pos: Some(pos_of(node)),
            pointer: pointer.to_string(),
            message: message.to_string(),
        }
    }

    fn convert(
        &mut self,
        node: &MarkedYaml<'_>,
        pointer: &str,
        depth: usize,
    ) -> Result<Value, Diagnostic> {
        if depth > MAX_DEPTH {
            return Err(self.error(node, pointer, "nesting too deep"));
        }
        self.positions.insert(pointer.to_string(), pos_of(node));
        Ok(match &node.data {
            YamlData::Value(s) => scalar_value(s),
            YamlData::Representation(text, style, _) => represent(text, *style),
            YamlData::Sequence(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    out.push(self.convert(item, &format!("{pointer}/{i}"), depth + 1)?);
                }
                Value::Array(out)
            }
            YamlData::Mapping(map) => {
                let mut out = Map::new();
                for (k, v) in map {
                    let key = match &k.data {
                        YamlData::Value(s) => scalar_key(s),
                        YamlData::Representation(text, _, _) => text.to_string(),
                        _ => {
                            return Err(self.error(k, pointer, "mapping keys must be plain values"))
                        }
                    };
                    let child = format!("{pointer}/{}", escape(&key));
                    if out.contains_key(&key) {
                        return Err(self.error(k, &child, &format!("duplicate key \"{key}\"")));
                    }
                    self.key_positions.insert(child.clone(), pos_of(k));
                    let value = self.convert(v, &child, depth + 1)?;
                    out.insert(key, value);
                }
                Value::Object(out)
            }
            YamlData::Tagged(_, inner) => self.convert(inner, pointer, depth + 1)?,
            YamlData::Alias(_) => {
                return Err(self.error(node, pointer, "YAML aliases are not supported in content"))
            }
            YamlData::BadValue => return Err(self.error(node, pointer, "bad YAML value")),
        })
    }

    /// The document as JSON.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// Position of the node at a JSON pointer, or of its nearest ancestor that has one.
    pub fn pos_of(&self, pointer: &str) -> Option<Pos> {
        let mut p = pointer;
        loop {
            if let Some(pos) = self.positions.get(p) {
                return Some(*pos);
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return self.positions.get("").copied(),
            }
        }
    }

    /// Position of the mapping key naming the member at a pointer (falls back to `pos_of`).
    pub fn key_pos_of(&self, pointer: &str) -> Option<Pos> {
        self.key_positions
            .get(pointer)
            .copied()
            .or_else(|| self.pos_of(pointer))
    }
}

fn pos_of(node: &MarkedYaml<'_>) -> Pos {
    Pos {
        line: node.span.start.line().max(1),
        col: node.span.start.col() + 1,
    }
}

fn scalar_value(s: &Scalar<'_>) -> Value {
    match s {
        Scalar::Null => Value::Null,
        Scalar::Boolean(b) => Value::Bool(*b),
        Scalar::Integer(i) => Value::Number((*i).into()),
        Scalar::FloatingPoint(f) => {
            Number::from_f64(f.into_inner()).map_or(Value::Null, Value::Number)
        }
        Scalar::String(s) => Value::String(s.to_string()),
    }
}

fn scalar_key(s: &Scalar<'_>) -> String {
    match scalar_value(s) {
        Value::String(s) => s,
        Value::Null => "null".into(),
        other => other.to_string(),
    }
}

/// Resolves an unresolved scalar the YAML 1.2 core-schema way.
fn represent(text: &str, style: ScalarStyle) -> Value {
    if style != ScalarStyle::Plain {
        return Value::String(text.to_string());
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        _ => {
            if let Ok(i) = text.parse::<i64>() {
                return Value::Number(i.into());
            }
            match text.parse::<f64>() {
                Ok(f) if text.chars().any(|c| c.is_ascii_digit()) => {
                    Number::from_f64(f).map_or(Value::String(text.to_string()), Value::Number)
                }
                _ => Value::String(text.to_string()),
            }
        }
    }
}

/// One schema violation: where (JSON pointer), what, and whether it concerns a mapping key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// JSON pointer of the value (or of the unknown member).
    pub pointer: String,
    /// Concise message.
    pub message: String,
    /// The error concerns the key naming `pointer`, not its value.
    pub at_key: bool,
}

/// A compiled JSON Schema (draft-07).
pub struct SchemaCheck {
    validator: jsonschema::Validator,
}

impl fmt::Debug for SchemaCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SchemaCheck")
    }
}

impl SchemaCheck {
    /// Compiles a schema.
    pub fn new(schema: &Value) -> Result<SchemaCheck, String> {
        jsonschema::draft7::new(schema)
            .map(|validator| SchemaCheck { validator })
            .map_err(|e| e.to_string())
    }

    /// Every violation in a value, deduplicated, in document order of pointers.
    pub fn errors(&self, value: &Value) -> Vec<SchemaError> {
        let mut out = Vec::new();
        for e in self.validator.iter_errors(value) {
            describe(&e, &mut out);
        }
        out.dedup();
        out
    }

    /// Every violation in a parsed document, positioned.
    pub fn check(&self, doc: &SourceDoc) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = self
            .errors(doc.value())
            .into_iter()
            .map(|e| Diagnostic {
                file: doc.file.clone(),
                pos: if e.at_key {
                    doc.key_pos_of(&e.pointer)
                } else {
                    doc.pos_of(&e.pointer)
                },
                pointer: e.pointer,
                message: e.message,
            })
            .collect();
        out.sort_by_key(|d| d.pos);
        out.dedup();
        out
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "mapping",
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

fn describe(e: &ValidationError<'_>, out: &mut Vec<SchemaError>) {
    let pointer = e.instance_path().as_str().to_string();
    let instance = e.instance();
    let message = match e.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            for key in unexpected {
                out.push(SchemaError {
                    pointer: format!("{pointer}/{}", escape(key)),
                    message: format!("unknown field \"{key}\""),
                    at_key: true,
                });
            }
            return;
        }
        ValidationErrorKind::Required { property } => {
            format!("missing field {property}")
        }
        ValidationErrorKind::Type { kind } => {
            let expected = match kind {
                TypeKind::Single(t) => t.to_string(),
                TypeKind::Multiple(ts) => ts
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
            };
            let expected = expected
                .replace("object", "mapping")
                .replace("array", "list");
            format!(
                "expected {expected}, got {} {}",
                type_name(instance),
                short(instance)
            )
        }
        ValidationErrorKind::Enum { options } => {
            let opts: Vec<String> = options
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|o| o.as_str().map_or_else(|| o.to_string(), str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            format!(
                "expected one of {}, got {}",
                opts.join(", "),
                short(instance)
            )
        }
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            // Prefer the alternative that got furthest into the value.
            let deepest = context
                .iter()
                .filter(|branch| !branch.is_empty())
                .max_by_key(|branch| {
                    branch
                        .iter()
                        .map(|x| x.instance_path().as_str().len())
                        .max()
                        .unwrap_or(0)
                });
            if let Some(branch) = deepest {
                if branch
                    .iter()
                    .all(|x| x.instance_path().as_str().len() > pointer.len())
                {
                    for x in branch {
                        describe(x, out);
                    }
                    return;
                }
            }
            let mut forms: Vec<String> = Vec::new();
            for branch in context {
                for x in branch {
                    match x.kind() {
                        ValidationErrorKind::Required { property } => {
                            forms.push(property.as_str().unwrap_or_default().to_string())
                        }
                        ValidationErrorKind::Enum { options } => forms.extend(
                            options
                                .as_array()
                                .into_iter()
                                .flatten()
                                .filter_map(|o| o.as_str().map(str::to_string)),
                        ),
                        ValidationErrorKind::Constant { expected_value } => {
                            if let Some(s) = expected_value.as_str() {
                                forms.push(s.to_string());
                            }
                        }
                        _ => {}
                    }
                }
            }
            forms.sort();
            forms.dedup();
            if forms.is_empty() {
                format!("{} does not match any allowed form", short(instance))
            } else {
                format!(
                    "{} is not a valid form: expected one of {}",
                    short(instance),
                    forms.join(", ")
                )
            }
        }
        _ => e.to_string(),
    };
    out.push(SchemaError {
        pointer,
        message,
        at_key: false,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["id", "count"],
            "properties": {
                "id": {"type": "string"},
                "count": {"type": "integer"},
                "items": {"type": "array", "items": {
                    "type": "object", "additionalProperties": false,
                    "properties": {"n": {"type": "integer"}}
                }}
            }
        })
    }

    #[test]
    fn every_problem_is_positioned() {
        let text = "id: x\ncount: four\nitems:\n  - n: 1\n  - n: two\n    extra: 3\ncolour: red\n";
        let doc = SourceDoc::parse("f.yaml", text).unwrap();
        let check = SchemaCheck::new(&schema()).unwrap();
        let shown: Vec<String> = check.check(&doc).iter().map(|d| d.to_string()).collect();
        assert_eq!(
            shown,
            vec![
                "f.yaml:2:8: expected integer, got string \"four\" (at /count)",
                "f.yaml:5:8: expected integer, got string \"two\" (at /items/1/n)",
                "f.yaml:6:5: unknown field \"extra\" (at /items/1/extra)",
                "f.yaml:7:1: unknown field \"colour\" (at /colour)",
            ]
        );
    }

    #[test]
    fn missing_field_points_at_the_parent() {
        let doc = SourceDoc::parse("f.yaml", "\nid: x\n").unwrap();
        let check = SchemaCheck::new(&schema()).unwrap();
        let d = check.check(&doc);
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("count"), "{}", d[0]);
        assert_eq!(d[0].pos.map(|p| p.line), Some(2));
    }

    #[test]
    fn syntax_errors_have_positions() {
        let e = SourceDoc::parse("f.yaml", "a: 1\nb: [1, 2\nc: 3\n").unwrap_err();
        assert!(e.pos.is_some());
        assert!(e.to_string().starts_with("f.yaml:"));
        let e = SourceDoc::parse("f.yaml", "a: 1\na: 2\n").unwrap_err();
        assert_eq!(e.pos, Some(Pos { line: 2, col: 1 }));
        assert!(SourceDoc::parse("f.yaml", "a: 1\n---\nb: 2\n").is_err());
        // Aliases resolve to their anchor's value, as serde_yaml does.
        let doc = SourceDoc::parse("f.yaml", "a: &x 1\nb: *x\n").unwrap();
        assert_eq!(doc.value()["b"], 1);
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            "\t\t:",
            "[[[[[[",
            "{a: [}",
            "é: ü\n  - x",
            &"[".repeat(500),
            "- - - - -",
            "? a\n: b",
        ] {
            let _ = SourceDoc::parse("f.yaml", text);
        }
        assert_eq!(
            SourceDoc::parse("f.yaml", "").unwrap().value(),
            &Value::Null
        );
    }

    #[test]
    fn agrees_with_serde_yaml() {
        let text = "a: 1\nb: -2.5\nc: true\nd: ~\ne: 'q'\nf: \"0x1\"\ng: [x, 'y', 3]\nh:\n  i: yes\n  j: |\n    multi\n    line\nk: 1e3\nl: t-a3\n";
        let ours = SourceDoc::parse("f.yaml", text).unwrap().value().clone();
        let theirs: Value = serde_yaml::from_str(text).unwrap();
        assert_eq!(ours, theirs);
    }
}
