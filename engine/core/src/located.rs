//! A YAML document as a tree whose every node remembers the file and position it came from.
//!
//! Overlays patch these trees, so a value set by a variant file is reported at the variant's
//! line, and everything else at the base file's line.

use std::sync::Arc;

use serde_json::Value;

use crate::diagnostics::{Pos, SourceDoc};

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// File name as given to the loader.
    pub file: Arc<str>,
    /// Position in that file, if known.
    pub pos: Option<Pos>,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.pos {
            Some(p) => write!(f, "{}:{}:{}", self.file, p.line, p.col),
            None => write!(f, "{}", self.file),
        }
    }
}

/// A node of a located tree.
#[derive(Debug, Clone)]
pub struct LNode {
    /// Where the node's value starts.
    pub origin: Origin,
    /// The value.
    pub kind: LKind,
}

/// The shape of a located node.
#[derive(Debug, Clone)]
pub enum LKind {
    /// A scalar (null, bool, number, string).
    Scalar(Value),
    /// A sequence.
    Seq(Vec<LNode>),
    /// A mapping; each entry keeps its key's origin.
    Map(Vec<MapEntry>),
}

/// One mapping entry.
#[derive(Debug, Clone)]
pub struct MapEntry {
    /// The key.
    pub key: String,
    /// Where the key is written.
    pub key_origin: Origin,
    /// The value.
    pub value: LNode,
}

fn escape(seg: &str) -> String {
    seg.replace('~', "~0").replace('/', "~1")
}

fn unescape(seg: &str) -> String {
    seg.replace("~1", "/").replace("~0", "~")
}

/// Splits a JSON pointer into unescaped segments.
pub fn pointer_segments(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(unescape)
        .collect()
}

/// Joins a JSON pointer and one more segment.
pub fn pointer_join(pointer: &str, seg: &str) -> String {
    format!("{pointer}/{}", escape(seg))
}

impl LNode {
    /// Builds the located tree of a parsed document.
    pub fn from_doc(doc: &SourceDoc, file: &Arc<str>) -> LNode {
        Self::build(doc, file, doc.value(), "")
    }

    /// Builds a located tree whose every node has one origin (for values from code or a
    /// single overlay position).
    pub fn from_value(value: &Value, origin: &Origin) -> LNode {
        let kind = match value {
            Value::Array(items) => {
                LKind::Seq(items.iter().map(|v| Self::from_value(v, origin)).collect())
            }
            Value::Object(map) => LKind::Map(
                map.iter()
                    .map(|(k, v)| MapEntry {
                        key: k.clone(),
                        key_origin: origin.clone(),
                        value: Self::from_value(v, origin),
                    })
                    .collect(),
            ),
            other => LKind::Scalar(other.clone()),
        };
        LNode {
            origin: origin.clone(),
            kind,
        }
    }

    fn build(doc: &SourceDoc, file: &Arc<str>, value: &Value, pointer: &str) -> LNode {
        let origin = Origin {
            file: file.clone(),
            pos: doc.pos_of(pointer),
        };
        let kind = match value {
            Value::Array(items) => LKind::Seq(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Self::build(doc, file, v, &pointer_join(pointer, &i.to_string())))
                    .collect(),
            ),
            Value::Object(map) => LKind::Map(
                map.iter()
                    .map(|(k, v)| {
                        let child = pointer_join(pointer, k);
                        MapEntry {
                            key: k.clone(),
                            key_origin: Origin {
                                file: file.clone(),
                                pos: doc.key_pos_of(&child),
                            },
                            value: Self::build(doc, file, v, &child),
                        }
                    })
                    .collect(),
            ),
            other => LKind::Scalar(other.clone()),
        };
        LNode { origin, kind }
    }

    /// The plain JSON value.
    pub fn to_value(&self) -> Value {
        match &self.kind {
            LKind::Scalar(v) => v.clone(),
            LKind::Seq(items) => Value::Array(items.iter().map(LNode::to_value).collect()),
            LKind::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|e| (e.key.clone(), e.value.to_value()))
                    .collect(),
            ),
        }
    }

    /// The child of a mapping by key.
    pub fn get(&self, key: &str) -> Option<&LNode> {
        match &self.kind {
            LKind::Map(entries) => entries.iter().find(|e| e.key == key).map(|e| &e.value),
            _ => None,
        }
    }

    /// The string value of a mapping's member, if it is a string.
    pub fn str_member(&self, key: &str) -> Option<&str> {
        match self.get(key).map(|n| &n.kind) {
            Some(LKind::Scalar(Value::String(s))) => Some(s),
            _ => None,
        }
    }

    fn child(&self, seg: &str) -> Option<&LNode> {
        match &self.kind {
            LKind::Map(entries) => entries.iter().find(|e| e.key == seg).map(|e| &e.value),
            LKind::Seq(items) => seg.parse::<usize>().ok().and_then(|i| items.get(i)),
            LKind::Scalar(_) => None,
        }
    }

    /// The node at a JSON pointer.
    pub fn at(&self, pointer: &str) -> Option<&LNode> {
        let mut node = self;
        for seg in pointer_segments(pointer) {
            node = node.child(&seg)?;
        }
        Some(node)
    }

    /// The mutable node at a JSON pointer.
    pub fn at_mut(&mut self, pointer: &str) -> Option<&mut LNode> {
        let mut node = self;
        for seg in pointer_segments(pointer) {
            node = match &mut node.kind {
                LKind::Map(entries) => &mut entries.iter_mut().find(|e| e.key == seg)?.value,
                LKind::Seq(items) => items.get_mut(seg.parse::<usize>().ok()?)?,
                LKind::Scalar(_) => return None,
            };
        }
        Some(node)
    }

    /// Where the value at a pointer came from; the nearest existing ancestor when the pointer
    /// names something missing.
    pub fn origin_at(&self, pointer: &str) -> Origin {
        let mut node = self;
        for seg in pointer_segments(pointer) {
            match node.child(&seg) {
                Some(c) => node = c,
                None => break,
            }
        }
        node.origin.clone()
    }

    /// Where the key of the member at a pointer is written (for unknown-key errors).
    pub fn key_origin_at(&self, pointer: &str) -> Origin {
        let segs = pointer_segments(pointer);
        if let Some((last, parents)) = segs.split_last() {
            let mut node = self;
            for seg in parents {
                match node.child(seg) {
                    Some(c) => node = c,
                    None => return node.origin.clone(),
                }
            }
            if let LKind::Map(entries) = &node.kind {
                if let Some(e) = entries.iter().find(|e| &e.key == last) {
                    return e.key_origin.clone();
                }
            }
            return node.origin.clone();
        }
        self.origin.clone()
    }
}
