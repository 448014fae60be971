//! `Game::load` on arbitrary saved-state JSON (a bare state or `{"state": …}` as `replay
//! --save-state` writes), then used as `moves` and `play` would: list, apply listed parts,
//! save. A state `load` accepted must save and load back to the same state.
#![no_main]

use libfuzzer_sys::fuzz_target;
use orrery_gp::game::{Game, GameState};
use orrery_fuzz::platform_content;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let state = value.get("state").cloned().unwrap_or(value);
    let Ok(state) = serde_json::from_value::<GameState>(state) else {
        return;
    };
    let Ok(mut game) = Game::load(platform_content(), state) else {
        return;
    };
    let saved = serde_json::to_string(&game.state).expect("a loaded state saves");
    let again: GameState = serde_json::from_str(&saved).expect("a saved state reads back");
    let reloaded = Game::load(platform_content(), again)
        .unwrap_or_else(|e| panic!("a state load accepted is refused once saved: {e}"));
    assert!(
        reloaded.state == game.state,
        "save and load changed the state"
    );
    let mut pick = data.len();
    for _ in 0..8 {
        if let Some(seat) = game.deciding_seat() {
            assert!(!game.seat_name(seat).is_empty());
        }
        let parts = game.legal_parts();
        if parts.is_empty() {
            break;
        }
        pick = pick.wrapping_mul(31).wrapping_add(7);
        let part = &parts[pick % parts.len()];
        let before = game.state.clone();
        if game.apply_part(part).is_err() {
            assert!(game.state == before, "refused {part} changed the state");
            break;
        }
    }
    serde_json::to_string(&game.state).expect("the state saves");
});
