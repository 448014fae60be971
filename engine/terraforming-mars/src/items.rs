//! The items of a Terraforming Mars game a study tallies ([`ItemLedger`]): corporations and
//! project cards — which each seat met, which it played, and the VP each brought.
//!
//! A seat meets a card when the card is its own to choose from: a corporation or project card
//! dealt to it, a card drawn into its hand, drafted or passed to it in a draft, or offered in a
//! research or keep/buy choice waiting for it ([`Game::cards_before`]). The ledger sees the game
//! before every part, so a card offered and let go is still met. A card is taken when it is the
//! seat's corporation or among its played cards at the end; its VP is what scoring counts for it
//! then ([`Game::card_vps`]: printed VP, VP per resource on it, per tag or per tile), so a seat's
//! card VP add up to its `cards` source.

use std::collections::BTreeSet;

use orrery_core::game_module::{ItemLedger, ItemUse};

use crate::game::{CardId, Game};

/// The kind of a corporation, as a study names it.
pub const CORPORATION: &str = "corporation";
/// The kind of a project card.
pub const PROJECT: &str = "project";

/// Every card each seat met so far, by card id.
#[derive(Debug, Clone, Default)]
pub struct CardLedger {
    met: Vec<Vec<bool>>,
}

/// Marks `c` in `met`, growing it as needed.
fn mark(met: &mut Vec<bool>, c: CardId) {
    if met.len() <= c {
        met.resize(c + 1, false);
    }
    met[c] = true;
}

impl CardLedger {
    /// The cards `seat` met, seen before each part and now, in id order.
    fn met(&self, game: &Game, seat: usize) -> BTreeSet<CardId> {
        let mut met: BTreeSet<CardId> = self
            .met
            .get(seat)
            .into_iter()
            .flat_map(|m| m.iter().enumerate().filter(|(_, x)| **x).map(|(c, _)| c))
            .collect();
        met.extend(game.cards_before(seat));
        met
    }
}

impl ItemLedger<Game> for CardLedger {
    fn see(&mut self, game: &Game) {
        let seats = game.colors().len();
        if self.met.len() < seats {
            self.met.resize_with(seats, Vec::new);
        }
        for (seat, met) in self.met.iter_mut().enumerate() {
            game.each_card_before(seat, |c| mark(met, c));
        }
    }

    fn items(&self, game: &Game, seat: usize) -> Vec<ItemUse> {
        let Some(player) = game.player(seat) else {
            return Vec::new();
        };
        let owned: BTreeSet<CardId> = player.owned_cards().collect();
        let vps = game.card_vps(seat);
        self.met(game, seat)
            .into_iter()
            .map(|c| ItemUse {
                kind: if game.is_corporation(c) {
                    CORPORATION
                } else {
                    PROJECT
                }
                .to_owned(),
                id: game.card(c).name.clone(),
                taken: u32::from(owned.contains(&c)),
                vp: vps.iter().filter(|(k, _)| *k == c).map(|(_, v)| *v).sum(),
            })
            .collect()
    }
}
