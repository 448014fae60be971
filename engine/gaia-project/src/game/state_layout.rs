//! Where a state's fields lie in memory. [`GameState`] and [`TurnProgress`] are laid out in
//! the order they are written (`repr(C)`), the fields every listing reads first: a stored
//! state is listed from memory far from the last one listed, and each 64-byte line it reads
//! is a wait. What is read only when a round or a phase changes, or when a state is saved,
//! comes after. The test keeps that order from drifting as fields are added.

use std::mem::{offset_of, size_of};

use super::{Follow, GameState, TurnProgress};

/// Bytes of a cache line.
const LINE: usize = 64;

#[test]
fn what_every_listing_reads_leads_the_state() {
    let turn = offset_of!(GameState, turn);
    let read_by_listing = [
        ("open", offset_of!(GameState, open)),
        ("question", offset_of!(GameState, question)),
        ("players", offset_of!(GameState, players)),
        ("structures", offset_of!(GameState, structures)),
        ("map", offset_of!(GameState, map)),
        ("planets", offset_of!(GameState, planets)),
        ("gaiaformers", offset_of!(GameState, gaiaformers)),
        ("actions_used", offset_of!(GameState, actions_used)),
        ("fed_supply", offset_of!(GameState, fed_supply)),
        ("round", offset_of!(GameState, round)),
        ("stage", offset_of!(GameState, stage)),
        ("queue", offset_of!(GameState, queue)),
        ("turn.main", turn + offset_of!(TurnProgress, main)),
        ("turn.passed", turn + offset_of!(TurnProgress, passed)),
        ("turn.decided", turn + offset_of!(TurnProgress, decided)),
        ("turn.follows", turn + offset_of!(TurnProgress, follows)),
    ];
    for (field, at) in read_by_listing {
        assert!(
            at < 7 * LINE,
            "{field} at byte {at}: past the state's first seven lines"
        );
    }
    let past_the_turn = [
        ("setup", offset_of!(GameState, setup)),
        ("income_pending", offset_of!(GameState, income_pending)),
        ("gaia_todo", offset_of!(GameState, gaia_todo)),
        ("income_todo", offset_of!(GameState, income_todo)),
        ("chosen", offset_of!(GameState, chosen)),
        ("bids", offset_of!(GameState, bids)),
        ("rng", offset_of!(GameState, rng)),
    ];
    for (field, at) in past_the_turn {
        assert!(at > turn, "{field} at byte {at}: among what listing reads");
    }
}

/// A state is copied for every state a bot tries and every stored state: rare, large parts
/// (an open question, a faction's own follow-ups) are boxed so that they keep no room in
/// the others, and seat lists hold bytes.
#[test]
fn a_state_stays_small() {
    assert!(
        size_of::<Follow>() <= 32,
        "a follow-up: {} bytes",
        size_of::<Follow>()
    );
    assert!(
        size_of::<TurnProgress>() <= 128,
        "a turn's progress: {} bytes",
        size_of::<TurnProgress>()
    );
    assert!(
        size_of::<GameState>() <= 10 * LINE,
        "a state: {} bytes",
        size_of::<GameState>()
    );
}
