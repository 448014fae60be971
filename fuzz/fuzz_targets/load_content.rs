//! The content loader on arbitrary YAML: the first byte chooses what the rest is —
//! even: an overlay stacked on the base game (text after a line `#--- script` becomes its
//! script `fuzz.rhai`); odd: base file number `byte / 2` (in listing order) replaced.
//! Loading reports problems, never panics or hangs; content that loads sets up a random
//! two-player game that plays some parts without a panic.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use orrery_gp::content::{Content, ContentFiles, OverlaySource};
use orrery_gp::game::{Game, Setup};
use orrery_gp::notation::Command;
use orrery_core::rng::Rng;
use orrery_fuzz::base_files;

fn load(data: &[u8]) -> Option<Content> {
    let (&selector, rest) = data.split_first()?;
    let text = String::from_utf8_lossy(rest).into_owned();
    let base = base_files();
    let loaded = if selector % 2 == 0 {
        let (yaml, script) = match text.split_once("\n#--- script\n") {
            Some((y, s)) => (
                y.to_string(),
                vec![("fuzz.rhai".to_string(), s.to_string())],
            ),
            None => (text, Vec::new()),
        };
        let overlay = OverlaySource {
            file: "fuzz.yaml".into(),
            text: yaml,
            scripts: script,
            problem: None,
        };
        Content::load(base, &[overlay])
    } else {
        let names = base.list();
        let name = &names[usize::from(selector / 2) % names.len()];
        let mut files = base.clone();
        files.files.insert(name.clone(), text);
        Content::load(&files, &[])
    };
    match loaded {
        Ok(content) => Some(content),
        Err(diags) => {
            assert!(!diags.is_empty(), "refused content names no problem");
            None
        }
    }
}

/// Two factions with different home planets, if the content has them.
fn two_factions(content: &Content) -> Option<[String; 2]> {
    let first = content.factions.first()?;
    let second = content.factions.iter().find(|f| f.home != first.home)?;
    Some([first.id.clone(), second.id.clone()])
}

fuzz_target!(|data: &[u8]| {
    let Some(content) = load(data) else {
        return;
    };
    let content = Arc::new(content);
    let mut rng = Rng::new(data.len() as u64);
    let Ok(setup) = Setup::random(&content, 2, &mut rng) else {
        return;
    };
    let Ok(mut game) = Game::new(content.clone(), setup) else {
        return;
    };
    let Some(factions) = two_factions(&content) else {
        return;
    };
    for f in &factions {
        if game
            .apply_part(&Command::Faction(f.as_str().into()))
            .is_err()
            || game.apply_part(&Command::EndTurn).is_err()
        {
            return;
        }
    }
    for _ in 0..60 {
        let parts = game.legal_parts();
        if parts.is_empty() {
            break;
        }
        let part = &parts[rng.below(parts.len())];
        if game.apply_part(part).is_err() {
            break;
        }
    }
});
