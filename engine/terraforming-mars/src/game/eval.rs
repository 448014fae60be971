//! The bots' evaluation of a position, with the numbers of the content's `bot:` section
//! ([`BotRules`]): the VP on the table, plus what the seat's stock, production, TR and hand may
//! still bring in the generations left, all in VP. No card, corporation or tile is named here:
//! a card in hand is valued by its printed effects, cost, requirements and tags.
//!
//! The same parts are the features a learned evaluation weighs ([`Game::feature_values`]).

use crate::content::{BotRules, Effect, Measured, Res, Vp};

use super::legal::SetVerb;
use super::{CardId, Game, Pending, Phase};

/// The parts of a position's value for one seat, in VP.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Evaluation {
    /// VP on the table now (TR, tiles, cards, milestones, awards as they stand).
    pub vp: f64,
    /// What the stock may still buy.
    pub stock: f64,
    /// What production brings in the generations left, by resource (in [`Res::ALL`] order).
    pub production: [f64; 6],
    /// The M€ the TR pays in the generations left.
    pub tr_income: f64,
    /// The cards in hand (and those being picked), by their usefulness.
    pub hand: f64,
    /// In a solo game, the global parameter steps raised, at `solo_step_vp` each.
    pub solo: f64,
}

impl Evaluation {
    /// The whole value.
    pub fn total(&self) -> f64 {
        self.vp
            + self.stock
            + self.production.iter().sum::<f64>()
            + self.tr_income
            + self.hand
            + self.solo
    }

    /// The names of [`Evaluation::parts`], in order.
    pub fn names() -> Vec<String> {
        let mut v = vec!["vp".to_owned(), "stock".to_owned()];
        v.extend(Res::ALL.iter().map(|r| format!("production_{}", r.key())));
        v.extend(["tr_income", "hand", "solo"].map(str::to_owned));
        v
    }

    /// The parts as numbers, in the order of [`Evaluation::names`].
    pub fn parts(&self) -> Vec<f64> {
        let mut v = vec![self.vp, self.stock];
        v.extend(self.production);
        v.extend([self.tr_income, self.hand, self.solo]);
        v
    }
}

/// A worth in tenths of an M€ for resource `r` in an amounts map.
fn worth_of(map: &crate::content::Amounts, r: Res) -> f64 {
    f64::from(map.get(&r).copied().unwrap_or(0))
}

impl Game {
    /// A guess of the generations left: the steps of terraforming still to do at the content's
    /// pace (`bot.pace` steps per seat and generation), but never more than a game at that pace
    /// from generation 1 has left (in solo, no more than the generations left). The time bound
    /// makes stock and income lose their worth as the generations pass, so late in a slow game
    /// terraforming (VP) beats hoarding M€.
    pub(super) fn generations_left(&self) -> f64 {
        let pace_per_seat = self.content.rules.bot.as_ref().map_or(2, |b| b.pace.max(1));
        let mut steps = 0;
        let mut all_steps = 0;
        for (param, scale) in &self.content.rules.parameters {
            let s = scale.step.max(1);
            steps += (scale.goal - self.param_value(*param)).max(0) / s;
            all_steps += (scale.goal - scale.start).max(0) / s;
        }
        let pace = f64::from(pace_per_seat) * self.colors.len() as f64;
        let by_steps = f64::from(steps) / pace;
        let done = f64::from(self.generation.saturating_sub(1));
        let mut by_time = f64::from(all_steps) / pace - done;
        if self.colors.len() == 1 {
            by_time = by_time.min(f64::from(self.content.rules.solo.generations) - done - 1.0);
        }
        by_steps.min(by_time).max(0.0)
    }

    /// Global parameter steps raised since the start.
    fn steps_done(&self) -> i32 {
        self.content
            .rules
            .parameters
            .iter()
            .map(|(param, scale)| {
                (self.param_value(*param) - scale.start).max(0) / scale.step.max(1)
            })
            .sum()
    }

    /// The value of the position for `seat`, part by part (see [`Evaluation`]). Once the game
    /// is over it is the VP alone; without a `bot:` section in the content, the VP alone too.
    pub fn evaluation(&self, seat: usize) -> Evaluation {
        let vp = f64::from(self.vp_parts(seat).total());
        let mut e = Evaluation {
            vp,
            ..Evaluation::default()
        };
        let Some(br) = self.content.rules.bot.as_ref() else {
            return e;
        };
        if self.phase == Phase::End || seat >= self.players.len() {
            return e;
        }
        let to_vp = 1.0 / (10.0 * f64::from(br.mc_per_vp.max(1)));
        let left = self.generations_left();
        let pl = &self.players[seat];
        let stock: f64 = Res::ALL
            .iter()
            .map(|r| worth_of(&br.stock, *r) * f64::from(pl.res[r.index()]))
            .sum();
        // Stock left at the end buys nothing: in the last generation it loses its worth.
        e.stock = stock * left.min(1.0) * to_vp;
        for r in Res::ALL {
            e.production[r.index()] =
                worth_of(&br.production, r) * f64::from(pl.prod[r.index()]) * left * to_vp;
        }
        e.tr_income = f64::from(br.tr) * f64::from(pl.tr) * left * to_vp;
        e.hand = self.hand_worth(br, seat, left) * to_vp;
        if self.colors.len() == 1 {
            e.solo = f64::from(br.solo_step_vp) * f64::from(self.steps_done());
        }
        e
    }

    /// Worth, in tenths of an M€, of the cards `seat` holds and of those it is picking now.
    fn hand_worth(&self, br: &BotRules, seat: usize, left: f64) -> f64 {
        let mut sum: f64 = self.players[seat]
            .hand
            .iter()
            .map(|c| self.card_worth(br, seat, *c, left))
            .sum();
        // A pick of cards in progress counts what it has taken so far, so a bot picking card by
        // card sees each card's worth (its price off) as it takes it.
        if let Some(pk) = &self.picking {
            let mine = self
                .colors
                .get(seat)
                .is_some_and(|c| *c == pk.choice.player);
            if let (true, Some(set)) = (mine, &pk.choice.set) {
                let keeping = self
                    .queue
                    .iter()
                    .find(|d| d.player == seat)
                    .is_some_and(|d| matches!(d.what, Pending::Keep(..)));
                for name in &pk.taken {
                    let Some(&c) = self.by_name.get(name.as_str()) else {
                        continue;
                    };
                    let w = self.card_worth(br, seat, c, left);
                    sum += match set.verb {
                        SetVerb::Buy => w - 10.0 * f64::from(self.content.rules.card_cost),
                        SetVerb::Cards if keeping => w,
                        // Cards given up (sold, discarded).
                        SetVerb::Cards => -w,
                    };
                }
            }
        }
        sum * left.min(1.0)
    }

    /// Worth, in tenths of an M€, of card `c` in `seat`'s hand: a share of what playing it
    /// brings beyond its cost, less while a requirement is unmet, nothing when it can no longer
    /// be met.
    fn card_worth(&self, br: &BotRules, seat: usize, c: CardId, left: f64) -> f64 {
        let card = self.card(c);
        let h = &br.hand;
        let leeway = self.requirement_bonus(seat);
        let mut later = false;
        for r in &card.requires {
            let l = if matches!(r.what, Measured::Param(_)) {
                leeway
            } else {
                0
            };
            if self.meets(seat, r, l, None) {
                continue;
            }
            // Global parameters only go up: a maximum passed is passed for good.
            if let (Measured::Param(p), Some(max)) = (&r.what, r.max) {
                let step = self.content.rules.parameters.get(p).map_or(1, |s| s.step);
                if self.param_value(*p) > max + l * step {
                    return 0.0;
                }
            }
            later = true;
        }
        let tr_worth = self.tr_worth(br, left);
        let mut gain: f64 = card
            .play
            .iter()
            .map(|e| self.effect_worth(br, e, left, tr_worth))
            .sum();
        gain += match &card.vp {
            None => 0.0,
            Some(Vp::Fixed(v)) => f64::from(*v) * 10.0 * f64::from(br.mc_per_vp),
            Some(_) => f64::from(h.variable_vp),
        };
        if card.action.is_some() {
            gain += f64::from(h.action) * left;
        }
        for t in &card.tags {
            gain += f64::from(self.tags_of(seat, t).min(h.tag_cap) * h.per_tag);
        }
        let net = gain - 10.0 * f64::from(self.card_cost(seat, c));
        if net <= 0.0 {
            return 0.0;
        }
        let mut w = net * f64::from(h.share) / 100.0;
        if later {
            w *= f64::from(h.later) / 100.0;
        }
        w
    }

    /// Worth of one TR (or a global parameter step), in tenths of an M€: a VP, and its M€
    /// income in the generations left (and the solo step bonus in a solo game).
    fn tr_worth(&self, br: &BotRules, left: f64) -> f64 {
        let mut w = 10.0 * f64::from(br.mc_per_vp) + f64::from(br.tr) * left;
        if self.colors.len() == 1 {
            w += f64::from(br.solo_step_vp) * 10.0 * f64::from(br.mc_per_vp);
        }
        w
    }

    /// Worth, in tenths of an M€, of one effect of a card being played.
    fn effect_worth(&self, br: &BotRules, e: &Effect, left: f64, tr_worth: f64) -> f64 {
        match e {
            Effect::Production(a) => a
                .iter()
                .map(|(r, n)| worth_of(&br.production, *r) * f64::from(*n) * left)
                .sum(),
            Effect::Stock(a) => a
                .iter()
                .map(|(r, n)| worth_of(&br.stock, *r) * f64::from(*n))
                .sum(),
            Effect::Raise(steps) => f64::from(steps.values().sum::<i32>()) * tr_worth,
            Effect::Tr(n) => f64::from(*n) * tr_worth,
            Effect::Place(p) => f64::from(br.tiles.get(&p.tile).copied().unwrap_or(0)),
            Effect::Draw(n) => f64::from(*n * br.hand.draw),
            Effect::DrawKeep(dk) => f64::from(dk.keep * br.hand.draw),
            Effect::Choose(options) => options
                .iter()
                .map(|o| {
                    o.effects
                        .iter()
                        .map(|e| self.effect_worth(br, e, left, tr_worth))
                        .sum::<f64>()
                })
                .fold(0.0, f64::max),
            _ => 0.0,
        }
    }

    /// The features of the position for `seat`: the parts of [`Game::evaluation`].
    pub fn feature_values(&self, seat: usize) -> Vec<f64> {
        self.evaluation(seat).parts()
    }
}
