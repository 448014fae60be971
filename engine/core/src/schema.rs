//! JSON Schemas (draft-07) generated from a game's content types with schemars, and the text
//! they are committed as.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::Value;

/// The schema of one type, draft-07, with its doc comments as descriptions.
pub fn of<T: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft07().into_generator();
    let schema = generator.into_root_schema_for::<T>();
    serde_json::to_value(schema).unwrap_or(Value::Null)
}

/// A schema's text as committed: pretty JSON with a final newline.
pub fn render(schema: &Value) -> String {
    let mut s = serde_json::to_string_pretty(schema).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A made-up item.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Stone {
        /// How heavy it is.
        weight: u8,
    }

    #[test]
    fn a_schema_carries_doc_comments_and_renders_with_a_final_newline() {
        let s = of::<Stone>();
        assert_eq!(s["$schema"], "http://json-schema.org/draft-07/schema#");
        assert_eq!(s["properties"]["weight"]["description"], "How heavy it is.");
        let text = render(&s);
        assert!(text.ends_with("}\n") && text.starts_with("{\n"));
    }
}
