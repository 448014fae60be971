//! The positioned YAML reader (used for diagnostics) and serde_yaml read every content file to
//! the same value.

mod common;

use orrery_core::diagnostics::SourceDoc;
use pretty_assertions::assert_eq;

#[test]
fn both_yaml_parsers_agree_on_all_content() {
    let files = common::base_files();
    let mut n = 0;
    for (rel, text) in &files.files {
        if !rel.ends_with(".yaml") {
            continue;
        }
        let ours = SourceDoc::parse(rel, text).expect("parses").value().clone();
        let theirs: serde_json::Value = serde_yaml::from_str(text).expect("serde_yaml parses");
        assert_eq!(ours, theirs, "{rel}");
        n += 1;
    }
    assert_eq!(n, 26);
}
