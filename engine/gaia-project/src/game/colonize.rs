//! Founding a colony: the plan of a colonization (terraforming steps, Gaia fee, QIC for
//! range), what it costs, whether the seat can pay it, and building it.

use std::borrow::Cow;

use super::bundle;
use super::conversion_form::PayCode;
use super::happened::Happened;
use super::hook_protocol::{Site, SiteCost};
use super::placement::{Reach, Refusal, SeatRules};
use super::{Game, MoveError};
use crate::content::{Bundle, Modifier, PlanetKind};
use orrery_core::hex::Hex;

/// A checked colonization: what it takes and what it does.
pub(crate) struct ColonyPlan {
    /// Terraforming steps taken.
    pub steps: u32,
    /// Steps paid for (not free).
    pub paid_steps: u32,
    /// The Gaia-planet fee is due.
    pub gaia_fee: bool,
    /// QIC paid for range.
    pub range_q: u32,
    /// The planet is already colonized by another player.
    pub shared: bool,
    /// The seat's own Gaiaformer there (removed when the mine is built).
    pub own_gaiaformer: Option<usize>,
}

/// A space to colonize, with what the caller knows of it already.
#[derive(Clone, Copy)]
pub(crate) struct ColonySite<'a> {
    /// The space.
    pub idx: usize,
    /// Its hex.
    pub hex: Hex,
    /// The structures on it.
    pub here: Option<&'a [super::Structure]>,
    /// Its distance to the seat's nearest range origin, when known (`None`: measured).
    pub distance: Option<u32>,
}

/// Codes a colony's budget holds in place; a cost of more takes the full payment check.
const BUDGET_CODES: usize = 8;

/// What a seat has toward colonizing with one building (see [`Game::colony_budget`]), by
/// place of each code in fixed arrays (unused places: nothing due, nothing held).
pub(crate) struct ColonyBudget<'a> {
    /// By place: the building's own cost of the code.
    base: [i32; BUDGET_CODES],
    /// By place: what the seat holds of it.
    have: [i32; BUDGET_CODES],
    /// By place: the Gaia planet fee in it.
    fee: [i32; BUDGET_CODES],
    /// Where the terraforming and range resources are.
    terraform: usize,
    range: usize,
    /// Each plan takes the full payment check: a power code is involved, or more codes than
    /// the arrays hold.
    full: bool,
    /// The power tokens to pay from.
    tokens: crate::power::Power,
    /// Plain resources taken as spent.
    spent: &'a [(crate::notation::Word, i32)],
}

impl ColonyBudget<'_> {
    /// Whether no colonization at all can be paid: not even the building's own cost, which
    /// every colonization pays on top of extras that are never negative (only known when
    /// each plan does not take the full check).
    pub(crate) fn surely_short(&self) -> bool {
        !self.full
            && (0..BUDGET_CODES)
                .any(|i| self.base[i] > 0 && self.have[i] < self.base[i] && self.fee[i] >= 0)
    }
}

/// The codes of a budget being made: by place, the code and what it is held as.
struct BudgetCodes<'a> {
    names: [&'a str; BUDGET_CODES],
    pays: [PayCode; BUDGET_CODES],
    len: usize,
}

impl<'a> BudgetCodes<'a> {
    /// The place of a code held as `pay`, given one if new; `None` when the arrays are full.
    /// A content resource is told by its index alone (its code is the resource's), other
    /// codes by name too.
    #[inline]
    fn place(&mut self, code: &'a str, pay: PayCode) -> Option<usize> {
        let found = (0..self.len).find(|&i| {
            self.pays[i] == pay && (matches!(pay, PayCode::Resource(_)) || self.names[i] == code)
        });
        found.or_else(|| self.add(code, pay))
    }

    /// A new place for a code; `None` when the arrays are full.
    #[inline]
    fn add(&mut self, code: &'a str, pay: PayCode) -> Option<usize> {
        let i = self.len;
        *self.names.get_mut(i)? = code;
        self.pays[i] = pay;
        self.len += 1;
        Some(i)
    }
}

impl Game {
    /// Founds a colony on a planet: the plan, its cost, its terraforming steps, the building.
    pub(super) fn build_on_planet(
        &mut self,
        seat: usize,
        idx: usize,
        hex: Hex,
        def: &crate::content::Building,
    ) -> Result<(), MoveError> {
        let (plan, cost) = {
            let mods = self.modifiers(seat);
            let rules = self.seat_rules_from(seat, &mods);
            let plan = self
                .colonize_plan(seat, idx, hex, &rules, self.reach())
                .map_err(|r| self.refusal(r, hex, &def.id))?;
            // Without hooks, the amounts alone, held inline (no bundle built and dropped).
            let cost = match Self::names_site_hooks(&mods) {
                false => Ok(self.colonize_amounts(def, &plan, &rules)),
                true => Err({
                    let site = Site::new(&def.id, idx, None);
                    self.hooked_colonize_cost(seat, def, site, &plan, &rules, &mods)?
                }),
            };
            (plan, cost)
        };
        if let Some(g) = plan.own_gaiaformer {
            self.state.gaiaformers.remove(g);
        }
        match &cost {
            Ok(amounts) => {
                let parts = amounts.iter().map(|(c, n)| (c.as_str(), *n)).collect();
                self.pay_amounts(seat, parts)?;
            }
            Err(hooked) => self.pay(seat, hooked)?,
        }
        for _ in 0..plan.steps {
            self.fire(seat, &Happened::TerraformStep { idx })?;
        }
        self.finish_build(seat, idx, &def.id, plan.shared, false)
    }

    /// Checks colonizing a planet with a building and works out what it takes (terraforming
    /// steps, Gaia fee, QIC for range), without changing anything.
    pub(crate) fn colonize_plan(
        &self,
        seat: usize,
        idx: usize,
        hex: Hex,
        rules: &SeatRules,
        reach: Reach,
    ) -> Result<ColonyPlan, Refusal> {
        let here = self.state.structures.get(&idx).map(|s| s.as_slice());
        let site = ColonySite {
            idx,
            hex,
            here,
            distance: None,
        };
        self.colonize_plan_at(seat, site, rules, reach)
    }

    /// [`Game::colonize_plan`] with what is known of the space given.
    pub(crate) fn colonize_plan_at(
        &self,
        seat: usize,
        site: ColonySite<'_>,
        rules: &SeatRules,
        reach: Reach,
    ) -> Result<ColonyPlan, Refusal> {
        let ColonySite {
            idx,
            hex,
            here,
            distance,
        } = site;
        let kind = self.planet_kind(idx);
        let own_gf = self
            .state
            .gaiaformers
            .iter()
            .position(|g| g.hex == hex && g.seat == seat);
        let here = here.filter(|l| !l.is_empty());
        let mut plan = ColonyPlan {
            paid_steps: 0,
            steps: 0,
            gaia_fee: false,
            range_q: 0,
            shared: false,
            own_gaiaformer: own_gf,
        };
        if own_gf.is_some() {
            if kind != PlanetKind::Gaia {
                return Err(Refusal::GaiaUnfinished);
            }
            if here.is_some() {
                return Err(Refusal::Colonized);
            }
            // Building on one's own Gaiaformer needs no range, so extra range saves nothing.
            if reach.range > 0 && self.content.rules.options.refuse_useless_actions {
                return Err(Refusal::UselessRange);
            }
        } else {
            if self
                .state
                .gaiaformers
                .iter()
                .any(|g| g.hex == hex && g.seat != seat)
            {
                return Err(Refusal::OtherGaiaformer);
            }
            if let Some(list) = here {
                if !rules.may_share || list.iter().any(|s| s.seat == seat) {
                    return Err(Refusal::Colonized);
                }
                plan.shared = true;
            } else {
                match kind {
                    PlanetKind::Wheel => {
                        plan.steps = self.wheel_steps(seat)[usize::from(self.state.planets[idx])];
                        plan.paid_steps = plan.steps - reach.steps.min(plan.steps);
                    }
                    PlanetKind::Gaia => plan.gaia_fee = true,
                    _ => return Err(Refusal::NotBuildable),
                }
            }
            plan.range_q = match distance {
                Some(d) => self.qic_for_distance(d, rules, reach.range)?,
                None => self.qic_for_range_from(hex, rules, reach.range)?,
            };
        }
        if self.content.rules.options.refuse_useless_actions && reach.steps > 0 && plan.steps == 0 {
            return Err(Refusal::UselessSteps);
        }
        Ok(plan)
    }

    /// Everything a planned colonization with a building costs.
    pub(crate) fn colonize_cost(
        &self,
        def: &crate::content::Building,
        plan: &ColonyPlan,
        rules: &SeatRules,
    ) -> Bundle {
        let mut cost = def.cost.clone();
        for (code, n) in self.colonize_extras(plan, rules) {
            bundle::add(&mut cost, code, n);
        }
        cost.0.retain(|_, n| *n != 0);
        cost
    }

    /// What a planned colonization of `site` by `def` (the site's building) costs, as the
    /// seat's cost hooks adjust it (after its placement hooks allow it); without hooks,
    /// [`Game::colonize_cost`].
    pub(crate) fn hooked_colonize_cost(
        &self,
        seat: usize,
        def: &crate::content::Building,
        site: Site<'_>,
        plan: &ColonyPlan,
        rules: &SeatRules,
        mods: &[&Modifier],
    ) -> Result<SiteCost<'static>, MoveError> {
        if !Self::names_site_hooks(mods) {
            return Ok(SiteCost::Owned(self.colonize_cost(def, plan, rules)));
        }
        let r = &self.content.rules;
        let one = |code: &str, n: u32| match n {
            0 => Bundle::default(),
            n => Bundle::of(&[(code, n as i32)]),
        };
        let parts = super::hook_protocol::CostParts {
            building: Cow::Borrowed(&def.cost),
            terraform: Cow::Owned(one(
                &r.terraform_resource,
                plan.paid_steps * rules.ore_per_step,
            )),
            range: Cow::Owned(one(&r.range_resource, plan.range_q)),
            gaia_fee: match plan.gaia_fee {
                true => Cow::Borrowed(rules.gaia_fee),
                false => Cow::default(),
            },
        };
        self.hooked_cost(seat, mods, site, parts)
    }

    /// What a colonization costs on top of the building's own cost.
    pub(super) fn colonize_extras<'a>(
        &'a self,
        plan: &ColonyPlan,
        rules: &'a SeatRules<'a>,
    ) -> impl Iterator<Item = (&'a str, i32)> + 'a {
        let r = &self.content.rules;
        let steps = (plan.paid_steps * rules.ore_per_step) as i32;
        let fee = plan
            .gaia_fee
            .then(|| rules.gaia_fee.iter())
            .into_iter()
            .flatten();
        [
            (r.terraform_resource.as_str(), steps),
            (r.range_resource.as_str(), plan.range_q as i32),
        ]
        .into_iter()
        .chain(fee)
        .filter(|(_, n)| *n != 0)
    }

    /// What a seat has toward colonizing with a building, summed by code once, so that each
    /// planned colonization only adds its own extras; `spent`: plain resources taken as
    /// already spent, `tokens`: the power tokens to pay from.
    pub(crate) fn colony_budget<'a>(
        &'a self,
        seat: usize,
        def: &'a crate::content::Building,
        rules: &'a SeatRules<'a>,
        spent: &'a [(crate::notation::Word, i32)],
        tokens: crate::power::Power,
    ) -> ColonyBudget<'a> {
        let r = &self.content.rules;
        let mut budget = ColonyBudget {
            base: [0; BUDGET_CODES],
            have: [0; BUDGET_CODES],
            fee: [0; BUDGET_CODES],
            terraform: 0,
            range: 0,
            full: false,
            tokens,
            spent,
        };
        // The codes resolved already: the building's cost (in its order), the terraforming
        // and range resources; only a fee's other codes are resolved here.
        let fixed = self.fixed_costs(seat);
        let coded = self
            .board(seat)
            .buildings
            .iter()
            .position(|b| std::ptr::eq(b, def))
            .and_then(|i| fixed.buildings.get(i))
            .map_or(&[][..], |(c, _)| c.as_slice());
        let mut codes = BudgetCodes {
            names: [""; BUDGET_CODES],
            pays: [PayCode::Unknown; BUDGET_CODES],
            len: 0,
        };
        // Resolved content resources with nothing spent: their codes are never read by name,
        // so the cost is read resolved. Else by name, in the same order.
        let resources =
            |c: &[(PayCode, i32)]| c.iter().all(|(p, _)| matches!(p, PayCode::Resource(_)));
        if spent.is_empty() && coded.len() == def.cost.0.len() && resources(coded) {
            for &(pay, n) in coded {
                match codes.place("", pay) {
                    Some(i) => budget.base[i] += n,
                    None => budget.full = true,
                }
            }
        } else {
            for (k, (c, n)) in def.cost.iter().enumerate() {
                let pay = match coded.get(k) {
                    Some(&(pay, _)) => pay,
                    None => PayCode::of(&self.content, c),
                };
                match codes.place(c, pay) {
                    Some(i) => budget.base[i] += n,
                    None => budget.full = true,
                }
            }
        }
        let terraform = codes.place(r.terraform_resource.as_str(), fixed.terraform);
        let range = codes.place(r.range_resource.as_str(), fixed.range);
        match (terraform, range) {
            (Some(t), Some(q)) => (budget.terraform, budget.range) = (t, q),
            _ => budget.full = true,
        }
        for (c, n) in rules.gaia_fee.iter() {
            // Mostly the range resource, resolved already.
            let pay = match c {
                _ if c == r.range_resource => fixed.range,
                _ if c == r.terraform_resource => fixed.terraform,
                _ => PayCode::of(&self.content, c),
            };
            match codes.place(c, pay) {
                Some(i) => budget.fee[i] += n,
                None => budget.full = true,
            }
        }
        let p = &self.state.players[seat];
        // Each code resolved once: what it is held as, and so how much the seat holds.
        for i in 0..codes.len {
            let code = codes.names[i];
            let less: i32 = spent
                .iter()
                .filter(|(c, _)| c == code)
                .map(|(_, n)| n)
                .sum();
            let held = match codes.pays[i] {
                PayCode::Resource(i) => p.resources[i],
                PayCode::Unknown => 0,
                _ => {
                    // Power, tokens, Gaiaformers: not a content resource (`resource` reads 0).
                    budget.full = true;
                    p.resource(&self.content, code)
                }
            };
            budget.have[i] = held - less;
        }
        budget
    }

    /// Whether the seat can pay a planned colonization: what paying it would accept.
    pub(crate) fn colonize_affordable(
        &self,
        seat: usize,
        def: &crate::content::Building,
        plan: &ColonyPlan,
        rules: &SeatRules,
        budget: &ColonyBudget<'_>,
    ) -> bool {
        if budget.full {
            // Power costs take the full check (on the state as it is).
            return self.can_pay_items_from(
                seat,
                budget.tokens,
                budget.spent,
                self.colonize_cost(def, plan, rules).iter(),
                rules.token_value,
            );
        }
        let mut need = budget.base;
        need[budget.terraform] += (plan.paid_steps * rules.ore_per_step) as i32;
        need[budget.range] += plan.range_q as i32;
        if plan.gaia_fee {
            for (n, fee) in need.iter_mut().zip(budget.fee) {
                *n += fee;
            }
        }
        need.iter()
            .zip(budget.have)
            .all(|(&n, have)| n <= 0 || have >= n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::fixture;
    use crate::notation::Word;

    /// A budget answers each plan as the full payment check does, over holdings from none to
    /// plenty, with and without a resource taken as spent, for plans with and without
    /// terraforming, range and the Gaia fee; and it is never surely short of a payable plan.
    #[test]
    fn a_budget_answers_as_the_full_payment_check() {
        let mut g = fixture::blips_game(5);
        for seat in 0..2 {
            for level in [0, 1, 2, 3, 5, 8] {
                let held = g.state.players[seat].resources.len();
                for (r, n) in g.state.players[seat].resources.iter_mut().enumerate() {
                    *n = (level + r as i32) % 7;
                }
                assert!(held > 0);
                let rules = g.seat_rules(seat);
                let power = g.state.players[seat].power;
                let taken = [(Word::from(g.content.rules.terraform_resource.as_str()), 1)];
                for spent in [&[][..], &taken[..]] {
                    for def in &g.board(seat).buildings {
                        let budget = g.colony_budget(seat, def, &rules, spent, power);
                        let mut payable = false;
                        for (steps, range_q, gaia_fee) in (0..3)
                            .flat_map(|s| (0..3).map(move |q| (s, q)))
                            .flat_map(|(s, q)| [(s, q, false), (s, q, true)])
                        {
                            let plan = ColonyPlan {
                                steps,
                                paid_steps: steps,
                                gaia_fee,
                                range_q,
                                shared: false,
                                own_gaiaformer: None,
                            };
                            let cost = g.colonize_cost(def, &plan, &rules);
                            let full = g.can_pay_items_from(
                                seat,
                                power,
                                spent,
                                cost.iter(),
                                rules.token_value,
                            );
                            let quick = g.colonize_affordable(seat, def, &plan, &rules, &budget);
                            assert_eq!(quick, full, "{} at level {level}: {cost:?}", def.id);
                            payable |= full;
                        }
                        assert!(!(payable && budget.surely_short()), "{}", def.id);
                    }
                }
            }
        }
    }
}
