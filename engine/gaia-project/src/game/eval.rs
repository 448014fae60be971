//! [`Evaluate`] for [`Game`]: a seat's VP plus what its holdings are worth, in VP, before the
//! game ends — resources and power by rough exchange rates, income still to come, buildings on
//! the map, research levels toward end-game research scoring. Everything is read from content
//! (resource worths, building costs, income, research scoring); no faction or tile is named.
//!
//! Also the features a learned evaluation weighs ([`Evaluate::features`]), named from content:
//! what the seat holds and earns (each resource, also times the income phases left), power
//! by the areas its tokens have reached (so that a charge never lowers a model whose weights
//! are 0 or above), buildings, research levels and their end-game VP, tiles and federations,
//! each final scoring tile's count and what final scoring would give now, the heuristic value
//! itself, and what is still to come (power toward federations, green tokens and the advanced
//! tiles they open, with what the best of those would still bring, what held tiles and boosters will still give, each round scoring tile to
//! come). And the samples a recorded game gives a fit of those features
//! ([`Game::record_samples`]).

use super::{Game, Stage};
use crate::content::{Bundle, Content, Effect, Event, Modifier, Resource, Scope};
use crate::lookup::{by_id, same_id};
use crate::player::VP;
use crate::power::{Area, Code};
use crate::record::Record;
use orrery_core::bot::fit;
use orrery_core::play_api::{Evaluate, Playable};
use smallvec::SmallVec;
use std::sync::Arc;

/// The worth of one unit of a resource that content gives none (and of a code that names no
/// resource), in hundredths of a VP.
const DEFAULT_WORTH_HUNDREDTHS: u32 = 30;

/// Rough VP worth of one unit of a code: a resource's `worth` from content (VP are the unit),
/// and fixed rates for this game's power-cycle codes.
fn code_worth(content: &Content, code: &str) -> f64 {
    match Code::of(code) {
        Some(Code::Charge) => 0.2,
        Some(Code::Tokens) => 0.25,
        Some(Code::Gaiaformers) => 1.5,
        Some(Code::GaiaTokens | Code::Area3Tokens) => 0.3,
        None if same_id(code, VP) => 1.0,
        None => by_id(&content.rules.resources, code)
            .map_or(worth(DEFAULT_WORTH_HUNDREDTHS), resource_worth),
    }
}

/// What content says one unit of a resource is worth, in VP.
fn resource_worth(r: &Resource) -> f64 {
    worth(r.worth_hundredths.unwrap_or(DEFAULT_WORTH_HUNDREDTHS))
}

/// A worth in hundredths of a VP, in VP (the nearest `f64`, as the decimal written out).
fn worth(hundredths: u32) -> f64 {
    f64::from(hundredths) / 100.0
}

/// What a bundle is worth.
fn bundle_worth(content: &Content, b: &Bundle) -> f64 {
    b.iter()
        .map(|(c, n)| code_worth(content, c) * f64::from(n))
        .sum()
}

/// What the plain gains among effects are worth.
fn effects_worth<'a>(content: &Content, effects: impl IntoIterator<Item = &'a Effect>) -> f64 {
    effects
        .into_iter()
        .map(|e| match e {
            Effect::Gain(b) => bundle_worth(content, b),
            _ => 0.0,
        })
        .sum()
}

impl Evaluate for Game {
    fn value(&self, seat: usize) -> f64 {
        self.heuristic(seat, None)
    }

    fn feature_names(&self) -> Vec<String> {
        feature_names(&self.content)
    }

    fn features(&self, seat: usize) -> Vec<f64> {
        self.feature_values(seat)
    }

    /// The features hold the value (`heuristic value`), so it is computed once.
    fn value_and_features(&self, seat: usize) -> (f64, Vec<f64>) {
        let f = self.feature_values(seat);
        (f[HEURISTIC_AT], f)
    }
}

/// Where the heuristic value is among the features (see [`feature_names`]).
const HEURISTIC_AT: usize = 3;

impl Game {
    /// [`Evaluate::value`], with the seat's income when the caller has it already.
    fn heuristic(&self, seat: usize, income: Option<&[&Effect]>) -> f64 {
        let c = &self.content;
        let p = &self.state.players[seat];
        let vp = f64::from(p.resource(c, VP));
        if self.state.stage == Stage::Finished || p.faction.is_empty() || !self.seated(seat) {
            return vp;
        }
        let rules = &c.rules;
        let mut v = vp;
        for (r, n) in rules.resources.iter().zip(&p.resources) {
            if r.id != VP {
                v += resource_worth(r) * f64::from(*n);
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
            v += incomes_left
                * match income {
                    Some(income) => effects_worth(c, income.iter().copied()),
                    None => {
                        effects_worth(c, p.income_refs(c, self.faction(seat), self.board(seat)))
                    }
                };
        }
        // Buildings: a presence on the map (final scoring, federations, leech) and what they
        // cost to put there.
        for b in &self.board(seat).buildings {
            let n = f64::from(p.built_count(&b.id));
            if n > 0.0 {
                v += n * (1.5 + 0.5 * bundle_worth(c, &b.cost));
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

/// The power-cycle codes whose income is a feature of its own.
const INCOME_CODES: [Code; 2] = [Code::Charge, Code::Tokens];

/// How many features [`feature_names`] names, without making the names.
fn feature_count(c: &Content) -> usize {
    let resources = c.rules.resources.iter().filter(|r| r.id != VP).count();
    4 + 3 * resources
        + 6
        + INCOME_CODES.len()
        + 2 * c.board.buildings.len()
        + c.research.tracks.len()
        + 6
        + c.final_scoring.tiles.len()
        + 4
        + 19
        + 2
        + c.round_scoring.tiles.len()
}

/// The names of [`Game::feature_values`], in order, from content alone.
fn feature_names(c: &Content) -> Vec<String> {
    let mut n: Vec<String> = ["vp", "rounds left", "players", "heuristic value"]
        .map(String::from)
        .to_vec();
    let resources = || c.rules.resources.iter().filter(|r| r.id != VP);
    for r in resources() {
        n.push(format!("held {}", r.id));
        n.push(format!("held {} x rounds left", r.id));
    }
    // Power by how far round the cycle it is: each token counts in every area it has reached,
    // so weights held at 0 or above value a token in III at least as one in II, and one in II
    // at least as one in I (a charge is never worth less than nothing).
    for name in [
        "power in I to III",
        "power in II or III",
        "power III",
        "power gaia",
    ] {
        n.push(name.into());
    }
    n.push("power III x rounds left".into());
    n.push("gaiaformers".into());
    for r in resources() {
        n.push(format!("income {} x rounds left", r.id));
    }
    for code in INCOME_CODES {
        n.push(format!("income {} x rounds left", code.text()));
    }
    for b in &c.board.buildings {
        n.push(format!("built {}", b.id));
        n.push(format!("built {} x rounds left", b.id));
    }
    for t in &c.research.tracks {
        n.push(format!("research {}", t.id));
    }
    for name in [
        "research end vp",
        "research levels x rounds left",
        "tech tiles",
        "advanced tiles",
        "federation tokens",
        "satellites",
    ] {
        n.push(name.into());
    }
    for t in &c.final_scoring.tiles {
        n.push(format!("final {} count", t.id));
    }
    for name in [
        "final vp now",
        "final lead",
        "leftover vp now",
        "not passed",
    ] {
        n.push(name.into());
    }
    for name in [
        "unfederated power",
        "unfederated power over threshold",
        "federations within power x rounds left",
        "green tokens",
        "green tokens x tracks at advanced level",
        "advanced tiles open",
        "advanced tiles one level off",
        "covered tech tiles",
        "pass vp x passes left",
        "booster pass vp now",
        "trigger vp x rounds left",
        "special actions x rounds left",
        "special action worth x rounds left",
        "held worth",
        "income worth",
        "next research levels worth",
        "tracks one below top",
        "power value raised x rounds left",
        "trigger vp x past rate x passes left",
        "advanced worth open",
        "advanced worth one level off",
    ] {
        n.push(name.into());
    }
    for t in &c.round_scoring.tiles {
        n.push(format!("round {} to come x held and income worth", t.id));
    }
    n
}

impl Game {
    /// Whether the seat's faction is seated: its board and fixed values are looked up (a
    /// faction just chosen in play is seated once the game seats every faction).
    fn seated(&self, seat: usize) -> bool {
        self.seats.get(seat).is_some_and(Option::is_some)
    }

    /// The features of the position for `seat`, in the order of [`feature_names`]; before the
    /// seat's faction is seated, only its VP, the game's shape and the heuristic value are
    /// non-zero.
    fn feature_values(&self, seat: usize) -> Vec<f64> {
        let c = &self.content;
        let rules = &c.rules;
        let p = &self.state.players[seat];
        let rounds_left = f64::from(rules.rounds.saturating_sub(self.state.round));
        if !self.seated(seat) || self.state.stage == Stage::Finished {
            let mut v = vec![
                f64::from(p.resource(c, VP)),
                rounds_left,
                self.state.players.len() as f64,
                self.value(seat),
            ];
            v.resize(feature_count(c), 0.0);
            return v;
        }
        // Borrowed from content: the evaluation runs for every position a bot values.
        let income = p.income_refs(c, self.faction(seat), self.board(seat));
        let mut v = Vec::with_capacity(feature_count(c));
        v.extend([
            f64::from(p.resource(c, VP)),
            rounds_left,
            self.state.players.len() as f64,
            self.heuristic(seat, Some(&income)),
        ]);
        let resources = || {
            rules
                .resources
                .iter()
                .zip(&p.resources)
                .filter(|(r, _)| r.id != VP)
        };
        for (_, n) in resources() {
            v.push(f64::from(*n));
            v.push(f64::from(*n) * rounds_left);
        }
        let pw = &p.power;
        let [one, two, three] = [Area::I, Area::II, Area::III].map(|a| f64::from(pw.tokens(a)));
        v.extend([
            one + two + three,
            two + three,
            three,
            f64::from(pw.tokens(Area::Gaia)),
        ]);
        v.push(f64::from(pw.tokens(Area::III)) * rounds_left);
        v.push(f64::from(p.gaiaformers + p.gaiaformers_in_gaia));
        // Each resource's and power code's amount a round, gathered in one walk over the
        // income (whole numbers, so the order of the sums does not change them).
        let codes: SmallVec<[&str; 12]> = resources()
            .map(|(r, _)| r.id.as_str())
            .chain(INCOME_CODES.iter().map(|code| code.text()))
            .collect();
        let mut per_round: SmallVec<[f64; 12]> = smallvec::smallvec![0.0; codes.len()];
        for e in income.iter() {
            if let Effect::Gain(b) = e {
                for (k, n) in b.iter() {
                    for (sum, _) in per_round
                        .iter_mut()
                        .zip(&codes)
                        .filter(|(_, code)| same_id(code, k))
                    {
                        *sum += f64::from(n);
                    }
                }
            }
        }
        v.extend(per_round.iter().map(|n| n * rounds_left));
        for b in &c.board.buildings {
            let n = f64::from(p.built_count(&b.id));
            v.push(n);
            v.push(n * rounds_left);
        }
        // The seat's level on each track, in content's order, looked up once.
        let track_levels: SmallVec<[u32; 8]> =
            c.research.tracks.iter().map(|t| p.level(&t.id)).collect();
        v.extend(track_levels.iter().map(|l| f64::from(*l)));
        let rs = &rules.research_scoring;
        let end_vp: f64 = p
            .research
            .values()
            .map(|l| f64::from(l.saturating_sub(rs.from.saturating_sub(1))) * f64::from(rs.vp))
            .sum();
        let levels: u32 = p.research.values().sum();
        v.push(end_vp);
        v.push(f64::from(levels) * rounds_left);
        v.push(p.techs.len() as f64);
        v.push(p.advanced.len() as f64);
        v.push(p.tokens.len() as f64);
        v.push(p.satellites.len() as f64);
        let (final_vp, lead, own_counts) = self.final_standing(seat);
        for t in &c.final_scoring.tiles {
            v.push(
                own_counts
                    .iter()
                    .find(|(id, _)| same_id(id, &t.id))
                    .map_or(0.0, |(_, n)| *n),
            );
        }
        v.push(final_vp);
        v.push(lead);
        let leftover: i32 = rules
            .leftover_resources
            .iter()
            .map(|r| p.resource(c, r))
            .sum();
        v.push(f64::from(leftover) / f64::from(rules.leftover_per_vp.max(1)));
        v.push(f64::from(u8::from(!p.passed)));
        self.push_prospects(seat, rounds_left, &income, &track_levels, &mut v);
        v
    }

    /// The features of what is still to come for `seat` (appended to `v`, in the order of
    /// [`feature_names`]' last block): power toward federations, the green federation tokens
    /// and the research levels that open advanced tiles, what held tiles and boosters will
    /// still give (pass effects, triggers, special actions, by the passes and rounds left),
    /// and each round scoring tile still to come weighed by what the seat holds and earns.
    /// `income` is the seat's income, as [`crate::player::Player::income_refs`] gives it, and
    /// `levels` its level on each track in content's order.
    fn push_prospects(
        &self,
        seat: usize,
        rounds_left: f64,
        income: &[&Effect],
        levels: &[u32],
        v: &mut Vec<f64>,
    ) {
        let c = &self.content;
        let p = &self.state.players[seat];
        let fed = self.federation_input(seat);
        let unfederated: u32 = fed.buildings.iter().map(|(_, value)| *value).sum();
        let threshold = f64::from(fed.threshold.max(1));
        v.push(f64::from(unfederated));
        v.push((f64::from(unfederated) / threshold).min(1.0));
        v.push((f64::from(unfederated) / threshold).floor() * rounds_left);
        let green = p.tokens.iter().filter(|t| t.green).count() as f64;
        v.push(green);
        let adv = &c.advanced_tiles;
        let tracks_at = p.research.values().filter(|l| **l >= adv.min_level).count() as f64;
        v.push(green * tracks_at);
        let (mut open, mut off_one) = (0.0, 0.0);
        for (pos, tile) in &self.state.setup.adv_techs {
            let Some(track) = pos.strip_prefix(adv.position_prefix.as_str()) else {
                continue;
            };
            let Some(at) = c.research.tracks.iter().position(|t| same_id(&t.id, track)) else {
                continue;
            };
            if self
                .state
                .players
                .iter()
                .any(|q| q.advanced.iter().any(|a| same_id(a, tile)))
            {
                continue;
            }
            let level = levels[at];
            if level >= adv.min_level {
                open += 1.0;
            } else if level + 1 == adv.min_level {
                off_one += 1.0;
            }
        }
        v.push(open * green.min(1.0));
        v.push(off_one * green.min(1.0));
        v.push(p.techs.iter().filter(|t| t.covered).count() as f64);
        // What held things still give.
        let passes_left = rounds_left + f64::from(u8::from(!p.passed));
        let (faction, board) = (self.faction(seat), self.board(seat));
        let vp_of = |effects: &[Effect]| -> f64 {
            effects
                .iter()
                .map(|e| match e {
                    Effect::Gain(b) => f64::from(b.get(VP)),
                    Effect::GainPer(g) => {
                        f64::from(g.gain.get(VP)) * f64::from(self.count(seat, &g.per))
                    }
                    _ => 0.0,
                })
                .sum()
        };
        let (mut pass_vp, mut booster_vp, mut trigger_vp, mut actions, mut action_worth) =
            (0.0, 0.0, 0.0, 0.0, 0.0);
        // Power value a modifier raises a kind of building to, above the board's own, summed
        // over the kinds (federations and charges to come).
        let mut raised = 0.0;
        // Trigger VP by how often the seat's events so far would have fired it a round.
        let rate = |on: &Event| self.past_events(seat, on) / f64::from(self.state.round + 1);
        let mut by_rate = 0.0;
        p.each_active(c, faction, board, |g| {
            for t in g.triggers.iter().filter(|t| t.by == Scope::Own) {
                by_rate += vp_of(&t.effects) * rate(&t.on) * passes_left;
            }
            for m in g.modifiers {
                if let Modifier::PowerValue(pv) = m {
                    for b in &pv.buildings {
                        let base = board.building(b).map_or(0, |b| b.power_value);
                        raised += f64::from(pv.value.saturating_sub(base));
                    }
                }
            }
            pass_vp += vp_of(g.pass) * passes_left;
            for t in g.triggers {
                trigger_vp += vp_of(&t.effects) * rounds_left;
            }
            if let Some(a) = g.action {
                actions += passes_left;
                action_worth += effects_worth(c, &a.effects) * passes_left;
            }
        });
        // A booster is held for this round only: what it gives is taken out of the totals
        // above and its pass counted once, when the seat has yet to pass.
        let booster = p
            .booster
            .as_ref()
            .and_then(|b| by_id(&c.boosters.boosters, b));
        if let Some(b) = booster {
            let once = f64::from(u8::from(!p.passed));
            let vp = vp_of(&b.pass);
            pass_vp -= vp * passes_left;
            booster_vp = vp * once;
            for t in &b.triggers {
                trigger_vp -= vp_of(&t.effects) * (rounds_left - once);
                if t.by == Scope::Own {
                    by_rate -= vp_of(&t.effects) * rate(&t.on) * (passes_left - once);
                }
            }
            if let Some(a) = &b.action {
                actions -= passes_left - once;
                action_worth -= effects_worth(c, &a.effects) * (passes_left - once);
            }
        }
        v.push(pass_vp);
        v.push(booster_vp);
        v.push(trigger_vp);
        v.push(actions);
        v.push(action_worth);
        let held: f64 = c
            .rules
            .resources
            .iter()
            .zip(&p.resources)
            .filter(|(r, _)| r.id != VP)
            .map(|(r, n)| resource_worth(r) * f64::from(*n))
            .sum();
        let income = effects_worth(c, income.iter().copied());
        v.push(held);
        v.push(income);
        let mut next_worth = 0.0;
        let mut below_top = 0.0;
        for (t, level) in c.research.tracks.iter().zip(levels) {
            let level = *level as usize;
            if let Some(next) = t.levels.get(level + 1) {
                next_worth += effects_worth(c, &next.immediate);
                if level + 2 == t.levels.len() {
                    below_top += 1.0;
                }
            }
        }
        v.push(next_worth);
        v.push(below_top);
        v.push(raised * rounds_left);
        v.push(by_rate);
        let (open_worth, off_worth) = self.advanced_worths(seat, passes_left);
        v.push(open_worth);
        v.push(off_worth);
        // Each round scoring tile, by the rounds it still scores in (this one while the seat
        // has not passed), weighed by what the seat holds and earns to act on it.
        let round = self.state.round as usize;
        let rounds = &self.state.setup.round_scoring;
        let means = held + income;
        for t in &c.round_scoring.tiles {
            let to_come = rounds
                .iter()
                .enumerate()
                .filter(|(i, id)| {
                    same_id(id, &t.id) && (*i + 1 > round || (*i + 1 == round && !p.passed))
                })
                .count() as f64;
            v.push(to_come * means);
        }
    }

    /// What the best advanced tile on offer would still bring the seat if it took one now (its
    /// immediate gains, its pass VP × passes left, its triggers' VP × how often the seat's
    /// position so far shows their event a round × passes left, its special action's worth ×
    /// passes left), among tracks at the level that takes one and among tracks one level
    /// below it; both 0 unless the seat holds a green federation token and an uncovered
    /// standard tile to cover, and has a pass still to come.
    fn advanced_worths(&self, seat: usize, passes_left: f64) -> (f64, f64) {
        let c = &self.content;
        let p = &self.state.players[seat];
        let adv = &c.advanced_tiles;
        if passes_left <= 0.0
            || !p.tokens.iter().any(|t| t.green)
            || !p.techs.iter().any(|t| !t.covered)
        {
            return (0.0, 0.0);
        }
        let (mut open, mut off) = (0.0_f64, 0.0_f64);
        for (pos, tile) in self.state.adv_left.iter() {
            let Some(track) = pos.strip_prefix(adv.position_prefix.as_str()) else {
                continue;
            };
            let level = p.level(track);
            let best = if level >= adv.min_level {
                &mut open
            } else if level + 1 == adv.min_level {
                &mut off
            } else {
                continue;
            };
            if let Some(def) = by_id(&adv.tiles, tile.as_str()) {
                *best = best.max(self.grants_worth(seat, &def.grants(), passes_left));
            }
        }
        (open, off)
    }

    /// What a tile's grants would bring `seat` from now on: immediate gains (per counts as the
    /// seat's position gives them), pass VP × passes left, own triggers' VP × the seat's past
    /// rate of their event × passes left, and a special action's worth × passes left.
    fn grants_worth(&self, seat: usize, g: &crate::content::Grants<'_>, passes_left: f64) -> f64 {
        let c = &self.content;
        let gains = |effects: &[Effect], only_vp: bool| -> f64 {
            effects
                .iter()
                .map(|e| match e {
                    Effect::Gain(b) if only_vp => f64::from(b.get(VP)),
                    Effect::Gain(b) => bundle_worth(c, b),
                    Effect::GainPer(x) => {
                        let per = f64::from(self.count(seat, &x.per));
                        per * if only_vp {
                            f64::from(x.gain.get(VP))
                        } else {
                            bundle_worth(c, &x.gain)
                        }
                    }
                    _ => 0.0,
                })
                .sum()
        };
        let rounds_so_far = f64::from(self.state.round + 1);
        let triggers: f64 = g
            .triggers
            .iter()
            .filter(|t| t.by == Scope::Own)
            .map(|t| gains(&t.effects, true) * self.past_events(seat, &t.on) / rounds_so_far)
            .sum();
        let action = g.action.map_or(0.0, |a| effects_worth(c, &a.effects));
        gains(g.immediate, false) + (gains(g.pass, true) + triggers + action) * passes_left
    }

    /// How many events of a kind the seat's position shows so far: for a build, its
    /// structures of those buildings (or upgraded from one of them) on such planets; research
    /// levels for a research step; federation tokens; 0 for what the position does not keep.
    fn past_events(&self, seat: usize, on: &Event) -> f64 {
        let p = &self.state.players[seat];
        match on {
            Event::Built(f) => {
                let board = self.board(seat);
                let counts = |b: &str| {
                    f.buildings.is_empty()
                        || f.buildings.iter().any(|x| x == b)
                        || board.building(b).is_some_and(|b| {
                            b.upgrades_from.iter().any(|u| f.buildings.contains(u))
                        })
                };
                self.own_structures(seat)
                    .iter()
                    .filter(|(i, s)| {
                        counts(&s.building)
                            && f.planet
                                .as_deref()
                                .is_none_or(|pl| self.planet_id(*i) == pl)
                    })
                    .count() as f64
            }
            Event::ResearchStep => f64::from(p.research.values().sum::<u32>()),
            Event::FederationToken => p.tokens.len() as f64,
            Event::TerraformStep | Event::ChargeAccepted => 0.0,
        }
    }

    /// What final scoring would give `seat` if the game ended now (places shared on ties, the
    /// neutral competitor in 2-player games, as the rules file says), the seat's count minus
    /// the best other count, summed over the game's final tiles, and the seat's own count of
    /// each of those tiles (so that no tile is counted twice).
    fn final_standing(&self, seat: usize) -> (f64, f64, SmallVec<[(&str, f64); 4]>) {
        let c = &self.content;
        let n = self.state.players.len();
        let places = &c.rules.final_places;
        let mut vp = 0.0;
        let mut lead = 0.0;
        let mut own_counts = SmallVec::new();
        for id in &self.state.setup.final_scoring {
            let Some(tile) = by_id(&c.final_scoring.tiles, id) else {
                continue;
            };
            let mut counts: SmallVec<[i64; 8]> = self
                .count_each(&tile.count)
                .into_iter()
                .map(i64::from)
                .collect();
            let own = counts[seat];
            own_counts.push((id.as_str(), own as f64));
            if n == 2 {
                counts.push(i64::from(tile.neutral));
            }
            let best_other = counts
                .iter()
                .enumerate()
                .filter(|(s, _)| *s != seat)
                .map(|(_, x)| *x)
                .max()
                .unwrap_or(0);
            lead += (own - best_other) as f64;
            if own == 0 && c.rules.options.zero_count_scores_nothing {
                continue;
            }
            let better = counts.iter().filter(|x| **x > own).count();
            let tied = counts.iter().filter(|x| **x == own).count();
            let sum: i32 = (better..better + tied)
                .map(|i| places.get(i).copied().unwrap_or(0))
                .sum();
            vp += f64::from(sum) / tied as f64;
        }
        (vp, lead, own_counts)
    }
}

impl Game {
    /// The samples a recorded game gives a fit of the learned evaluation, as self-play gives
    /// them ([`orrery_core::bot::fit::self_play`]): the record replayed part by part from its
    /// setup under `content`, every seat's features noted at the start of each decision once
    /// every seat has its faction, each
    /// labelled with the score its seat finished with. Refused with the reason (the move,
    /// where one is to blame) when the record stops before final scoring, the setup fails, a
    /// line does not parse, the game refuses a part, or the record's final scores differ from
    /// the replay's.
    pub fn record_samples(
        content: &Arc<Content>,
        record: &Record,
    ) -> Result<Vec<fit::Sample>, String> {
        if !record.finished {
            return Err("the record stops before final scoring: no final score to learn".into());
        }
        let mut notes = fit::Notes::new();
        let game = record
            .walk_parts(content, |g, _| {
                // Features describe seats with factions: none is noted while they are chosen
                // (self-play starts with every faction given).
                if g.seats.len() == g.seat_count() && g.seats.iter().all(Option::is_some) {
                    notes.see(g);
                }
                Ok::<(), std::convert::Infallible>(())
            })
            .map_err(|e| e.to_string())?;
        if !game.is_over() {
            return Err(format!(
                "the game is not over after the record's {} lines",
                record.moves.len()
            ));
        }
        let scores = game.score();
        if let Some(finals) = &record.final_scores {
            let recorded: Vec<i32> = finals.iter().map(|f| f.vp).collect();
            if recorded != scores {
                return Err(format!(
                    "the replay scores {scores:?}, the record {recorded:?}"
                ));
            }
        }
        Ok(notes.labelled(&scores))
    }
}

#[cfg(test)]
mod tests {
    //! The worths come from content: on the made-up game of `content/fixture.rs`, whose `gold`
    //! states none, giving it one changes what a seat holding gold is worth.

    use std::sync::Arc;

    use super::*;
    use crate::content::{fixture, Content};
    use crate::game::Setup;
    use crate::lookup;
    use crate::notation::Command;
    use orrery_core::rng::Rng;

    /// A 2-seat game of these files after seat 0 chose its faction.
    fn faction_chosen(files: &orrery_core::files::MemFiles) -> Game {
        let content = Arc::new(Content::load(files, &[]).expect("valid"));
        let setup = Setup::random(&content, 2, &mut Rng::new(5)).expect("setup");
        let mut g = Game::new(content, setup).expect("game");
        g.apply_part(&Command::Faction("zorgs".into()))
            .expect("faction");
        g.apply_part(&Command::EndTurn).expect("end");
        g
    }

    /// Seat 0 of the made-up game after choosing its faction, with gold's worth as given.
    fn seat_with_gold_worth(worth: Option<u32>) -> Game {
        let mut files = fixture::files();
        if let Some(w) = worth {
            let rules = files.files.get_mut("rules.yaml").expect("rules");
            let plain = "{id: gold, name: Gold, cap: 9}";
            assert!(rules.contains(plain), "the fixture's gold");
            *rules = rules.replace(
                plain,
                &format!("{{id: gold, name: Gold, cap: 9, worth_hundredths: {w}}}"),
            );
        }
        let mut g = faction_chosen(&files);
        let gold = lookup::index_of(&g.content.rules.resources, "gold").expect("gold");
        g.state.players[0].resources[gold] = 6;
        // Built again from its state, so that the seat's faction board is looked up.
        Game::from_state(g.content.clone(), g.state.clone())
    }

    #[test]
    fn a_held_tile_is_seen_by_its_power_value_modifier_and_its_triggers_at_the_past_rate() {
        // The made-up game's tech tile raising huts (power value 1) to 3 and paying 2 VP a
        // research step; the seat holds one research level so far.
        let mut files = fixture::files();
        let tiles = files.files.get_mut("tech-tiles.yaml").expect("tiles");
        let plain = "{id: widget1, name: A widget, income: [gain: {pw: 1}]}";
        assert!(tiles.contains(plain), "the fixture's tile");
        *tiles = tiles.replace(
            plain,
            "{id: widget1, name: A widget, income: [gain: {pw: 1}], modifiers: [power_value: {buildings: [hut], value: 3}], triggers: [{\"on\": research_step, effects: [gain: {vp: 2}]}]}",
        );
        let mut g = faction_chosen(&files);
        let names = feature_names(&g.content);
        let at = |name: &str| names.iter().position(|n| n == name).expect(name);
        let (raised, by_rate) = (
            at("power value raised x rounds left"),
            at("trigger vp x past rate x passes left"),
        );
        let mut bare = g.state.clone();
        bare.players[0].research.insert("lore".into(), 1);
        let without = Game::from_state(g.content.clone(), bare).features(0);
        assert_eq!((without[raised], without[by_rate]), (0.0, 0.0));
        g.state.players[0].research.insert("lore".into(), 1);
        g.state.players[0].techs.push(crate::player::OwnedTile {
            id: "widget1".into(),
            covered: false,
        });
        let g = Game::from_state(g.content.clone(), g.state.clone());
        let f = g.features(0);
        let rounds_left = f64::from(g.content.rules.rounds - g.state.round);
        let passes_left = rounds_left + 1.0;
        let levels = f64::from(g.state.players[0].research.values().sum::<u32>());
        assert_eq!(levels, 1.0);
        assert_eq!(f[raised], 2.0 * rounds_left);
        assert_eq!(
            f[by_rate],
            2.0 * levels / f64::from(g.state.round + 1) * passes_left
        );
        assert!(f[by_rate] > 0.0);
        // Covered, the tile gives nothing.
        let mut covered = g.state.clone();
        covered.players[0].techs[0].covered = true;
        let f = Game::from_state(g.content.clone(), covered).features(0);
        assert_eq!((f[raised], f[by_rate]), (0.0, 0.0));
    }

    #[test]
    fn power_counts_in_every_area_a_token_has_reached() {
        let mut g = faction_chosen(&fixture::files());
        let names = feature_names(&g.content);
        let at = |name: &str| names.iter().position(|n| n == name).expect(name);
        let areas = [
            at("power in I to III"),
            at("power in II or III"),
            at("power III"),
        ];
        let read = |g: &Game| {
            let f = Game::from_state(g.content.clone(), g.state.clone()).features(0);
            areas.map(|i| f[i])
        };
        let pw = &mut g.state.players[0].power;
        pw.areas = [3, 2, 1, 0];
        pw.special = None;
        assert_eq!(read(&g), [6.0, 3.0, 1.0]);
        // A charge moves a token from I to II, and once I is empty on from II to III: each
        // area a token reaches counts it, so no count falls and the tokens stay 6.
        g.state.players[0].power.charge(1, false);
        assert_eq!(read(&g), [6.0, 4.0, 1.0]);
        g.state.players[0].power.charge(2, false);
        assert_eq!(read(&g), [6.0, 6.0, 1.0]);
        g.state.players[0].power.charge(5, false);
        assert_eq!(read(&g), [6.0, 6.0, 6.0]);
        // Spending 4 returns 4 tokens to I.
        g.state.players[0]
            .power
            .spend(4, 1, false)
            .expect("power in III");
        assert_eq!(read(&g), [6.0, 2.0, 2.0]);
    }

    #[test]
    fn value_and_features_together_are_each_alone() {
        let g = seat_with_gold_worth(Some(70));
        assert_eq!(feature_count(&g.content), feature_names(&g.content).len());
        assert_eq!(feature_names(&g.content)[HEURISTIC_AT], "heuristic value");
        for seat in 0..2 {
            let (value, features) = g.value_and_features(seat);
            assert_eq!(value, g.value(seat));
            assert_eq!(features, g.features(seat));
            assert_eq!(features.len(), feature_count(&g.content));
        }
    }

    #[test]
    fn a_resource_is_worth_what_content_says() {
        let plain = seat_with_gold_worth(None);
        let held = plain.state.players[0].resource(&plain.content, "gold");
        assert_eq!(held, 6);
        let default = plain.value(0);
        // Unstated, gold is worth the default, as stating the default says.
        assert_eq!(seat_with_gold_worth(Some(30)).value(0), default);
        // Worth 5 VP instead of 0.3: at least the gold held is worth 4.7 VP more each (its
        // income and the building costs in gold count too).
        let rich = seat_with_gold_worth(Some(500)).value(0);
        assert!(
            rich - default >= 4.7 * f64::from(held) - 1e-9,
            "{rich} vs {default}"
        );
        assert!(seat_with_gold_worth(Some(0)).value(0) < default);
    }
}
