//! The effect language's reference (`docs/content.md`), generated from the schemas' doc
//! comments, with each entry's first use in a content set as its example — so the page stays
//! true when a type or the content changes (a test compares the committed page).

use serde_json::Value;

use super::table::KINDS;
use super::{schema, Content};
use orrery_core::located::{LKind, LNode};

/// The definitions documented, in order: (definition, heading).
const SECTIONS: [(&str, &str); 9] = [
    ("Ability", "Abilities: what an owned thing grants"),
    ("Effect", "Effects"),
    ("Condition", "Conditions (`when:`)"),
    ("Count", "Counts (`per:`)"),
    ("Trigger", "Triggers"),
    ("Event", "Events (`on:`)"),
    ("Conversion", "Conversions"),
    ("Modifier", "Modifiers"),
    ("Bundle", "Bundles"),
];

/// Every node of the content (in file order) for which `hit` holds.
fn uses<'a>(content: &'a Content, hit: &dyn Fn(&LNode) -> bool) -> Vec<&'a LNode> {
    fn find<'a>(n: &'a LNode, hit: &dyn Fn(&LNode) -> bool, out: &mut Vec<&'a LNode>) {
        if hit(n) {
            out.push(n);
        }
        match &n.kind {
            LKind::Map(es) => es.iter().for_each(|e| find(&e.value, hit, out)),
            LKind::Seq(items) => items.iter().for_each(|i| find(i, hit, out)),
            LKind::Scalar(_) => {}
        }
    }
    let mut out = Vec::new();
    for k in KINDS.addressed() {
        for id in content.provenance.ids(k) {
            if let Some(n) = content.provenance.item(k, id.as_deref()) {
                find(n, hit, &mut out);
            }
        }
    }
    out
}

/// Whether a value has a type the schema allows (no `type`: any).
fn fits(schema: &Value, v: &Value) -> bool {
    let name = match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    match &schema["type"] {
        Value::String(t) => t == name,
        Value::Array(ts) => ts.iter().any(|t| t == name),
        _ => true,
    }
}

/// The first short rendering among the candidates, else the shortest.
fn pick(mut shown: Vec<String>) -> Option<String> {
    if let Some(i) = shown.iter().position(|s| s.len() <= 90) {
        return Some(shown.swap_remove(i));
    }
    shown.into_iter().min_by_key(String::len)
}

fn example_of_key(content: &Content, key: &str, schema: &Value) -> Option<String> {
    let nodes = uses(content, &|n| match &n.kind {
        LKind::Map(es) => es
            .iter()
            .any(|e| e.key == key && fits(schema, &e.value.to_value())),
        _ => false,
    });
    pick(
        nodes
            .iter()
            .filter_map(|node| match &node.kind {
                LKind::Map(es) => es.iter().find(|e| e.key == key),
                _ => None,
            })
            .map(|e| {
                format!(
                    "`{{{key}: {}}}` ({})",
                    compact(&e.value.to_value()),
                    e.key_origin
                )
            })
            .collect(),
    )
}

fn example_of_word(content: &Content, word: &str) -> Option<String> {
    let node = uses(
        content,
        &|n| matches!(&n.kind, LKind::Scalar(Value::String(s)) if s == word),
    )
    .into_iter()
    .next()?;
    Some(format!("`{word}` ({})", node.origin))
}

/// JSON written the way YAML flow style reads (`{c: 1}`), without quotes on plain words.
fn compact(v: &Value) -> String {
    match v {
        Value::String(s) => {
            if s.chars().all(|c| c.is_alphanumeric() || "_-".contains(c)) && !s.is_empty() {
                s.clone()
            } else {
                format!("{s:?}")
            }
        }
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(compact).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k}: {}", compact(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn entry(out: &mut String, content: &Content, name: &str, desc: &str, key: Option<&Value>) {
    let example = if let Some(schema) = key {
        example_of_key(content, name, schema)
    } else {
        example_of_word(content, name)
    };
    let example = example.unwrap_or_else(|| "not used by this content".to_string());
    out.push_str(&format!(
        "- **`{name}`** — {}  \n  Example: {example}\n",
        one_line(desc)
    ));
}

/// The reference page for a content set, in Markdown.
pub fn effect_language(content: &Content) -> String {
    let faction = schema::all()
        .into_iter()
        .find(|(n, _)| *n == "faction.json")
        .map(|(_, s)| s)
        .unwrap_or(Value::Null);
    let defs = &faction["definitions"];
    let mut out = String::from(
        "# The effect language\n\n\
         Generated from the schemas' descriptions (the doc comments of the content types) by\n\
         `orrery_gp::content::reference`; each example is the entry's first use in the base game,\n\
         with its file and line. Do not edit by hand: `ORRERY_WRITE_DOCS=1 cargo test --release\n\
         --test docs_in_sync` rewrites this page, and that test fails when it is out of date.\n",
    );
    for (def, heading) in SECTIONS {
        let d = &defs[def];
        out.push_str(&format!("\n## {heading}\n\n"));
        if let Some(desc) = d["description"].as_str() {
            out.push_str(&format!("{}\n\n", one_line(desc)));
        }
        if let Some(alts) = d["oneOf"].as_array() {
            for alt in alts {
                let desc = alt["description"].as_str().unwrap_or("");
                if let Some(word) = alt["const"].as_str() {
                    entry(&mut out, content, word, desc, None);
                } else if let Some(words) = alt["enum"].as_array() {
                    for w in words.iter().filter_map(Value::as_str) {
                        entry(&mut out, content, w, desc, None);
                    }
                } else if let Some(props) = alt["properties"].as_object() {
                    for (key, p) in props {
                        entry(&mut out, content, key, desc, Some(p));
                    }
                }
            }
        } else if let Some(props) = d["properties"].as_object() {
            for (key, p) in props {
                let desc = p["description"].as_str().unwrap_or("");
                entry(&mut out, content, key, desc, Some(p));
            }
        }
    }
    out
}
