//! A variant overlay on the base game with the example faction (so hooks are in play): any
//! text. Finding the scripts it names and loading it report problems, never panic or hang;
//! content that loads has only ids the notation can write, and a random two-seat game on it
//! lists only parts that apply and reaches only states that save and load back.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use orrery_gp::content::overlay::scripts_beside;
use orrery_gp::content::{Content, OverlaySource};
use orrery_fuzz::{base_files, example_overlay, example_script, play_checked};

fuzz_target!(|data: &[u8]| {
    let overlay = match std::str::from_utf8(data) {
        Ok(text) => {
            let _named = scripts_beside(text);
            OverlaySource {
                file: "fuzz.yaml".into(),
                text: text.to_string(),
                scripts: Vec::new(),
                problem: None,
            }
        }
        Err(_) => OverlaySource {
            file: "fuzz.yaml".into(),
            text: String::new(),
            scripts: Vec::new(),
            problem: Some("is not UTF-8 text".into()),
        },
    };
    let example = example_overlay(example_script().to_string());
    let content = match Content::load(base_files(), &[example, overlay]) {
        Ok(c) => c,
        Err(diags) => {
            assert!(!diags.is_empty(), "refused content names no problem");
            return;
        }
    };
    for f in &content.factions {
        assert!(
            orrery_gp::notation::unwritable_id(&f.id).is_none(),
            "faction id {:?} loaded",
            f.id
        );
    }
    let Some(other) = content
        .factions
        .iter()
        .find(|f| f.id != "cartographers" && f.home != "desert")
        .map(|f| f.id.clone())
    else {
        return;
    };
    if content.faction("cartographers").is_none() {
        return;
    }
    play_checked(
        Arc::new(content),
        ["cartographers", &other],
        data.len() as u64,
        40,
    );
});
