//! The items of a Gaia Project game a study tallies ([`ItemLedger`]): boosters, standard and
//! advanced tech tiles, federation tokens, round and final scoring tiles — which the setup put
//! on offer, which seats took (or scored) them, and the VP each brought.
//!
//! The ledger sees the game before every part. A seat takes an item when it appears in what
//! the seat holds (a booster it did not hold before, a tile, one more copy of a token). The VP
//! a seat gains in a part is pinned on an item by the source the game books it to: `boosters`
//! on the booster held before the part; `tech tiles` on the one tile gained in the part, else
//! on the one held tile that scores later (triggers or pass effects); `federations` on the one
//! kind of token gained in the part; `round scoring` on the round's tile. Final scoring tiles
//! are worked out from the final state as final scoring does, and kept only when they add up to
//! what final scoring gave. VP the ledger cannot pin on one item (two tiles able to score in
//! one part) is left out of every item; the seat's VP by source still holds it.

use std::collections::BTreeMap;

use orrery_core::game_module::{ItemLedger, ItemUse};

use crate::content::Tile;
use crate::game::{Game, Stage};
use crate::notation::Word;

/// The kinds, as a study names them.
pub const BOOSTER: &str = "booster";
/// Standard tech tiles.
pub const TECH: &str = "tech tile";
/// Advanced tech tiles.
pub const ADVANCED: &str = "advanced tile";
/// Federation tokens.
pub const TOKEN: &str = "federation token";
/// Round scoring tiles.
pub const ROUND: &str = "round tile";
/// Final scoring tiles.
pub const FINAL: &str = "final tile";

/// What one seat holds at one moment, as far as items go.
#[derive(Debug, Clone, Default, PartialEq)]
struct Holding {
    booster: Option<Word>,
    techs: Vec<(Word, bool)>,
    advanced: Vec<Word>,
    tokens: BTreeMap<Word, u32>,
    vp: BTreeMap<Word, i32>,
}

impl Holding {
    fn of(game: &Game, seat: usize) -> Holding {
        let p = &game.state.players[seat];
        let mut tokens = BTreeMap::new();
        for t in &p.tokens {
            *tokens.entry(t.id.clone()).or_insert(0) += 1;
        }
        Holding {
            booster: (*p.booster).clone(),
            techs: p.techs.iter().map(|t| (t.id.clone(), t.covered)).collect(),
            advanced: p.advanced.to_vec(),
            tokens,
            vp: p.vp_sources.to_btree(),
        }
    }

    fn vp(&self, source: &str) -> i32 {
        self.vp.get(source).copied().unwrap_or(0)
    }
}

/// Taken counts and VP, by kind and id, of one seat.
type Uses = BTreeMap<(&'static str, Word), (u32, i32)>;

/// The ledger of one Gaia Project game.
#[derive(Debug, Default)]
pub struct Items {
    /// What each seat held when last seen.
    last: Vec<Holding>,
    /// The round when last seen.
    round: u32,
    /// What each seat took and gained so far.
    uses: Vec<Uses>,
}

impl Items {
    /// A ledger for a game of `players` seats.
    pub fn new(players: usize) -> Items {
        Items {
            last: vec![Holding::default(); players],
            round: 0,
            uses: vec![Uses::new(); players],
        }
    }
}

/// Whether a tile can bring VP after it was gained.
fn scores_later(tiles: &[Tile], id: &str) -> bool {
    tiles
        .iter()
        .find(|t| t.id == id)
        .is_some_and(|t| !t.triggers.is_empty() || !t.pass.is_empty())
}

impl ItemLedger<Game> for Items {
    fn see(&mut self, game: &Game) {
        let round_tile = self
            .round
            .checked_sub(1)
            .and_then(|r| game.state.setup.round_scoring.get(r as usize))
            .map(|t| Word::from(t.as_str()));
        for (seat, uses) in self.uses.iter_mut().enumerate() {
            let Some(before) = self.last.get(seat) else {
                continue;
            };
            let now = Holding::of(game, seat);
            let mut take = |kind: &'static str, id: &Word, n: u32| {
                uses.entry((kind, id.clone())).or_default().0 += n;
            };
            if now.booster.is_some() && now.booster != before.booster {
                if let Some(b) = &now.booster {
                    take(BOOSTER, b, 1);
                }
            }
            let new_techs: Vec<Word> = now
                .techs
                .iter()
                .filter(|(id, _)| !before.techs.iter().any(|(b, _)| b == id))
                .map(|(id, _)| id.clone())
                .collect();
            let new_advanced: Vec<Word> = now
                .advanced
                .iter()
                .filter(|id| !before.advanced.contains(id))
                .cloned()
                .collect();
            for id in &new_techs {
                take(TECH, id, 1);
            }
            for id in &new_advanced {
                take(ADVANCED, id, 1);
            }
            let mut new_tokens = Vec::new();
            for (id, n) in &now.tokens {
                let gained = n.saturating_sub(before.tokens.get(id).copied().unwrap_or(0));
                if gained > 0 {
                    take(TOKEN, id, gained);
                    new_tokens.push(id.clone());
                }
            }
            let mut gain = |kind: &'static str, id: Option<&Word>, vp: i32| {
                if let (Some(id), true) = (id, vp != 0) {
                    let e = uses.entry((kind, id.clone())).or_default();
                    e.1 = e.1.saturating_add(vp);
                }
            };
            let delta = |source: &str| now.vp(source).saturating_sub(before.vp(source));
            gain(
                BOOSTER,
                before.booster.as_ref().or(now.booster.as_ref()),
                delta("boosters"),
            );
            let tiles = delta("tech tiles").saturating_add(delta("advanced tiles"));
            if tiles != 0 {
                let c = &game.content;
                let gained: Vec<(&'static str, &Word)> = new_techs
                    .iter()
                    .map(|id| (TECH, id))
                    .chain(new_advanced.iter().map(|id| (ADVANCED, id)))
                    .collect();
                let pinned = if gained.len() == 1 {
                    Some(gained[0])
                } else if gained.is_empty() {
                    let scoring: Vec<(&'static str, &Word)> = now
                        .techs
                        .iter()
                        .filter(|(id, covered)| !covered && scores_later(&c.tech_tiles.tiles, id))
                        .map(|(id, _)| (TECH, id))
                        .chain(
                            now.advanced
                                .iter()
                                .filter(|id| scores_later(&c.advanced_tiles.tiles, id))
                                .map(|id| (ADVANCED, id)),
                        )
                        .collect();
                    (scoring.len() == 1).then(|| scoring[0])
                } else {
                    None
                };
                if let Some((kind, id)) = pinned {
                    gain(kind, Some(id), tiles);
                }
            }
            if new_tokens.len() == 1 {
                gain(TOKEN, new_tokens.first(), delta("federations"));
            }
            gain(ROUND, round_tile.as_ref(), delta("round scoring"));
            self.last[seat] = now;
        }
        self.round = game.state.round;
    }

    fn items(&self, game: &Game, seat: usize) -> Vec<ItemUse> {
        let setup = &game.state.setup;
        let Some(uses) = self.uses.get(seat) else {
            return Vec::new();
        };
        let mut offered: Vec<(&'static str, Word)> = Vec::new();
        offered.extend(
            setup
                .boosters
                .iter()
                .map(|b| (BOOSTER, Word::from(b.as_str()))),
        );
        offered.extend(setup.techs.values().map(|t| (TECH, Word::from(t.as_str()))));
        offered.extend(
            setup
                .adv_techs
                .values()
                .map(|t| (ADVANCED, Word::from(t.as_str()))),
        );
        offered.extend(
            setup
                .federation_tokens
                .keys()
                .chain(setup.terra_fed_token.iter())
                .map(|t| (TOKEN, Word::from(t.as_str()))),
        );
        offered.extend(
            setup
                .round_scoring
                .iter()
                .map(|t| (ROUND, Word::from(t.as_str()))),
        );
        offered.sort();
        offered.dedup();
        let mut out: Vec<ItemUse> = offered
            .into_iter()
            .map(|(kind, id)| {
                let (mut taken, vp) = uses.get(&(kind, id.clone())).copied().unwrap_or((0, 0));
                if kind == ROUND {
                    taken = u32::from(vp > 0);
                }
                ItemUse {
                    kind: kind.to_string(),
                    id: id.to_string(),
                    taken,
                    vp,
                }
            })
            .collect();
        let finals = final_vp(game, seat);
        let booked = game.state.players[seat]
            .vp_sources
            .get("final scoring")
            .copied()
            .unwrap_or(0);
        let adds_up = finals.iter().map(|(_, v)| *v).sum::<i32>() == booked;
        for (id, vp) in finals {
            let vp = if adds_up { vp } else { 0 };
            out.push(ItemUse {
                kind: FINAL.to_string(),
                id,
                taken: u32::from(vp > 0),
                vp,
            });
        }
        out
    }
}

/// The VP each final scoring tile of the setup gives `seat` at the end of the game (zero
/// before the end), placed as final scoring places the seats.
fn final_vp(game: &Game, seat: usize) -> Vec<(String, i32)> {
    let finished = game.state.stage == Stage::Finished;
    let n = game.state.players.len();
    let places = &game.content.rules.final_places;
    game.state
        .setup
        .final_scoring
        .iter()
        .map(|id| {
            let tile = game
                .content
                .final_scoring
                .tiles
                .iter()
                .find(|t| &t.id == id);
            let vp = match tile {
                Some(tile) if finished => {
                    let counts: Vec<i64> = (0..n)
                        .map(|s| i64::from(game.count(s, &tile.count)))
                        .collect();
                    let mut field = counts.clone();
                    if n == 2 {
                        field.push(i64::from(tile.neutral));
                    }
                    let c = counts[seat];
                    if c == 0 && game.content.rules.options.zero_count_scores_nothing {
                        0
                    } else {
                        let better = field.iter().filter(|x| **x > c).count();
                        let tied = field.iter().filter(|x| **x == c).count();
                        let sum: i32 = (better..better + tied)
                            .map(|i| places.get(i).copied().unwrap_or(0))
                            .sum();
                        sum / tied.max(1) as i32
                    }
                }
                _ => 0,
            };
            (id.clone(), vp)
        })
        .collect()
}
