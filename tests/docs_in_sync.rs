//! `docs/content.md` is what `orrery_gp::content::reference` generates from the schemas and the
//! base game; `ORRERY_WRITE_DOCS=1` rewrites it.

mod common;

use orrery_gp::content::reference;

#[test]
fn the_effect_language_page_is_up_to_date() {
    let generated = reference::effect_language(&common::base());
    let path = common::root().join("docs/content.md");
    if std::env::var_os("ORRERY_WRITE_DOCS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).expect("docs folder");
        std::fs::write(&path, &generated).expect("write docs/content.md");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/content.md is out of date: run ORRERY_WRITE_DOCS=1 cargo test --release --test docs_in_sync"
    );
    // Every effect, condition, count and modifier is documented with a description.
    for line in generated.lines().filter(|l| l.starts_with("- **")) {
        assert!(!line.ends_with("— "), "{line}");
    }
}
