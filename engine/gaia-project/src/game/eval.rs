//! [`Evaluate`] for [`Game`]: a seat's VP plus what its holdings are worth, in VP, before the
//! game ends — resources and power by rough exchange rates, income still to come, buildings on
//! the map, research levels toward end-game research scoring. Everything is read from content
//! (resource codes, building costs, income, research scoring); no faction or tile is named.

use super::{Game, Stage};
use crate::content::{Bundle, Effect};
use crate::power::{Area, Code};
use orrery_core::play_api::Evaluate;

/// Rough VP worth of one unit of a resource or power-cycle code.
fn code_worth(code: &str) -> f64 {
    match Code::of(code) {
        Some(Code::Charge) => 0.2,
        Some(Code::Tokens) => 0.25,
        Some(Code::Gaiaformers) => 1.5,
        Some(Code::GaiaTokens | Code::Area3Tokens) => 0.3,
        None => match code {
            "vp" => 1.0,
            "c" => 0.3,
            "o" => 0.9,
            "k" => 0.8,
            "q" => 2.4,
            _ => 0.3,
        },
    }
}

fn bundle_worth(b: &Bundle) -> f64 {
    b.iter().map(|(c, n)| code_worth(c) * f64::from(n)).sum()
}

fn effects_worth(effects: &[Effect]) -> f64 {
    effects
        .iter()
        .map(|e| match e {
            Effect::Gain(b) => bundle_worth(b),
            _ => 0.0,
        })
        .sum()
}

impl Evaluate for Game {
    fn value(&self, seat: usize) -> f64 {
        let c = &self.content;
        let p = &self.state.players[seat];
        let vp = f64::from(p.resource(c, crate::player::VP));
        if self.state.stage == Stage::Finished || p.faction.is_empty() {
            return vp;
        }
        let rules = &c.rules;
        let mut v = vp;
        for (r, n) in rules.resources.iter().zip(&p.resources) {
            if r.id != crate::player::VP {
                v += code_worth(&r.id) * f64::from(*n);
            }
        }
        let pw = &p.power;
        v += 0.05 * f64::from(pw.tokens(Area::I))
            + 0.15 * f64::from(pw.tokens(Area::II))
            + 0.3 * f64::from(pw.tokens(Area::III))
            + 0.1 * f64::from(pw.tokens(Area::Gaia));
        v += 1.2 * f64::from(p.gaiaformers + p.gaiaformers_in_gaia);
        // Income still to come: one income phase at the start of each round not yet begun.
        let incomes_left = f64::from(rules.rounds.saturating_sub(self.state.round));
        if incomes_left > 0.0 {
            let income = p.income(c, self.faction(seat), self.board(seat));
            v += incomes_left * effects_worth(&income);
        }
        // Buildings: a presence on the map (final scoring, federations, leech) and what they
        // cost to put there.
        for b in &self.board(seat).buildings {
            let n = f64::from(p.built_count(&b.id));
            if n > 0.0 {
                v += n * (1.5 + 0.5 * bundle_worth(&b.cost));
            }
        }
        let rs = &rules.research_scoring;
        for level in p.research.values() {
            v += 1.5 * f64::from(*level);
            v += f64::from(rs.vp) * f64::from(level.saturating_sub(rs.from.saturating_sub(1)));
        }
        v += 2.0 * p.techs.len() as f64 + 3.0 * p.advanced.len() as f64;
        v
    }
}
