//! The card ledger a study keeps ([`orrery_tm::items`]): on seeded random games, the cards a seat
//! played are its corporation and played cards at the end, their VP add up to its card VP, and
//! no card listed was never dealt or drawn.

mod common;

use std::collections::BTreeSet;

use orrery_core::bot::RandomBot;
use orrery_core::game_module::GameModule;
use orrery_tm::game::Game;
use orrery_tm::items::{CORPORATION, PROJECT};

#[test]
fn played_cards_and_their_vp_match_the_end_and_only_cards_met_are_listed() {
    let content = common::content();
    for (players, seed) in [(1, 3u64), (2, 5), (3, 8), (4, 13)] {
        let mut g = Game::random(content.clone(), players, seed).expect("deal");
        let mut ledger = g.item_ledger();
        // What left the deck: the deal, then every draw of every input.
        let mut dealt: BTreeSet<String> = BTreeSet::new();
        for s in 0..players {
            for c in g.cards_before(s) {
                dealt.insert(g.card(c).name.clone());
            }
        }
        let mut bot = RandomBot::new(seed, 0);
        let mut parts = 0;
        loop {
            ledger.see(&g);
            match bot.step(&mut g).expect("a legal part") {
                Some(_) => parts += 1,
                None => break,
            }
            dealt.extend(g.last_draws().into_iter().map(|(name, _)| name));
            assert!(parts < 200_000, "the game ends");
        }
        ledger.see(&g);
        assert!(g.is_over());
        let at = format!("{players} players, seed {seed}");
        let mut corporations = 0;
        for s in 0..players {
            let items = ledger.items(&g, s);
            let p = g.player(s).expect("a seat");
            let owned: BTreeSet<String> = p.owned_cards().map(|c| g.card(c).name.clone()).collect();
            let played: BTreeSet<String> = items
                .iter()
                .filter(|i| i.taken > 0)
                .map(|i| i.id.clone())
                .collect();
            assert_eq!(played, owned, "{at}, seat {s}: played cards");
            assert!(items.iter().all(|i| i.taken <= 1), "{at}: one copy each");
            // Each card once per seat, of its kind.
            let ids: BTreeSet<&str> = items.iter().map(|i| i.id.as_str()).collect();
            assert_eq!(
                ids.len(),
                items.len(),
                "{at}, seat {s}: a card listed twice"
            );
            for i in &items {
                assert!(i.kind == CORPORATION || i.kind == PROJECT, "{}", i.kind);
                assert!(dealt.contains(&i.id), "{at}: {} never dealt or drawn", i.id);
            }
            corporations += items
                .iter()
                .filter(|i| i.kind == CORPORATION && i.taken > 0)
                .count();
            // The hand at the end was met and not played.
            for c in &p.hand {
                let name = &g.card(*c).name;
                assert!(
                    items.iter().any(|i| &i.id == name && i.taken == 0),
                    "{at}, seat {s}: {name} in hand"
                );
            }
            // The cards' VP add up to the seat's card VP.
            let vp: i32 = items.iter().map(|i| i.vp).sum();
            assert_eq!(
                Some(vp),
                g.vp_sources(s).get("cards").copied(),
                "{at}, seat {s}"
            );
            assert!(
                items.iter().filter(|i| i.taken == 0).all(|i| i.vp == 0),
                "{at}: a card not played brought VP"
            );
        }
        assert_eq!(corporations, players, "{at}: one corporation a seat");
        // Fewer cards met than the deck holds: most of it was never dealt.
        let met: BTreeSet<String> = (0..players)
            .flat_map(|s| ledger.items(&g, s))
            .filter(|i| i.kind == PROJECT)
            .map(|i| i.id)
            .collect();
        assert!(
            met.len() < content.projects.len(),
            "{at}: {} met",
            met.len()
        );
    }
}
