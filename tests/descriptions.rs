//! Generated descriptions on the base game: every tile, booster and federation token is
//! described from its effects, and no name states a number its effects contradict, while an
//! errata that changes what a booster pays without changing its name is found.

mod common;

use orrery_gp::content::{describe, Content, DirFiles, OverlaySource};

fn base() -> Content {
    Content::load(&DirFiles::new(common::base_dir()), &[]).expect("base content")
}

#[test]
fn base_names_agree_with_their_effects() {
    let c = base();
    assert_eq!(describe::stale_names(&c), Vec::new());
}

#[test]
fn every_tile_is_described_from_its_effects() {
    let c = base();
    let ids = c
        .tech_tiles
        .tiles
        .iter()
        .chain(&c.advanced_tiles.tiles)
        .chain(&c.boosters.boosters)
        .chain(&c.round_scoring.tiles)
        .map(|t| t.id.clone())
        .chain(c.federation_tokens.tokens.iter().map(|t| t.id.clone()));
    for id in ids {
        let text = describe::by_id(&c, &id).expect("described");
        assert!(!text.is_empty() && text != "nothing", "{id}: {text:?}");
        if std::env::var_os("ORRERY_SHOW_DESCRIPTIONS").is_some() {
            eprintln!("{id}: {text}");
        }
    }
    assert_eq!(
        describe::by_id(&c, "booster1").as_deref(),
        Some("income: 1 ore, 1 knowledge")
    );
}

#[test]
fn an_errata_that_leaves_the_name_stale_is_found() {
    let ov = OverlaySource {
        file: "errata.yaml".into(),
        text: "name: errata\nchanges:\n  - set: {kind: booster, id: booster1, path: income, value: [gain: {o: 2, k: 1}]}\n".into(),
        scripts: Vec::new(),
        problem: None,
    };
    let c = Content::load(&DirFiles::new(common::base_dir()), &[ov]).expect("valid");
    let stale = describe::stale_names(&c);
    assert_eq!(stale.len(), 1, "{stale:?}");
    assert_eq!(stale[0].1, "booster1");
    assert_eq!(stale[0].2, "name says \"1 ore\" but its effects give 2 ore");
    assert_eq!(
        describe::by_id(&c, "booster1").as_deref(),
        Some("income: 2 ore, 1 knowledge")
    );
}
