//! Where a seat may place a building: its standing placement values (range, terraforming
//! rate, Gaia fee), the range an action adds, the QIC a space needs, and why a space is
//! refused.

use super::{Game, MoveError};
use crate::content::{Bundle, Modifier};
use orrery_core::hex::Hex;

/// Free terraforming steps and extra range that a placement is made with.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Reach {
    /// Free terraforming steps.
    pub steps: u32,
    /// Range added to the navigation range.
    pub range: u32,
}

/// Where a seat's range is measured from (inline: a seat rarely has more buildings).
pub(crate) type RangeOrigins = smallvec::SmallVec<[Hex; 24]>;

/// A seat's standing values for placing buildings, looked up once from its modifiers (move
/// listing asks them for every space of the map).
#[derive(Clone)]
pub(crate) struct SeatRules<'a> {
    /// Where range is measured from.
    pub from: RangeOrigins,
    /// Navigation range.
    pub nav_range: u32,
    /// Ore (terraforming resource) per terraforming step.
    pub ore_per_step: u32,
    /// Extra cost of colonizing a Gaia planet.
    pub gaia_fee: &'a Bundle,
    /// May colonize planets other players colonized.
    pub may_share: bool,
    /// Range resource held.
    pub range_have: i32,
    /// Power one area-III token is worth.
    pub token_value: u32,
    /// The box around `from`, to rule out far hexes cheaply.
    pub from_box: Option<orrery_core::hex::HexBox>,
    /// Range one range resource buys.
    pub range_per_qic: u32,
}

impl SeatRules<'_> {
    /// Whether a hex is surely out of reach with `extra` range, even paying every range
    /// resource held. A cheap test that never rules out a reachable hex.
    pub fn surely_out_of_reach(&self, hex: Hex, extra: u32) -> bool {
        let Some(b) = &self.from_box else {
            return true;
        };
        self.out_of_reach_at(Some(b.distance_at_least(hex)), extra)
    }

    /// Whether a hex at distance `d` from the nearest range origin (`None`: no origin) is
    /// surely out of reach, as [`SeatRules::surely_out_of_reach`] answers for it.
    pub fn out_of_reach_at(&self, d: Option<u32>, extra: u32) -> bool {
        Self::beyond(d, self.farthest(extra))
    }

    /// The farthest distance within reach with `extra` range, paying every range resource
    /// held (what [`SeatRules::out_of_reach_at`] compares with; a walk over many planets
    /// works it out once).
    pub fn farthest(&self, extra: u32) -> u64 {
        u64::from(self.nav_range)
            + u64::from(extra)
            + u64::from(self.range_have.max(0).unsigned_abs()) * u64::from(self.range_per_qic)
    }

    /// Whether a distance `d` (`None`: no origin) is past the farthest distance within
    /// reach `farthest` ([`SeatRules::farthest`]).
    pub fn beyond(d: Option<u32>, farthest: u64) -> bool {
        d.is_none_or(|d| u64::from(d) > farthest)
    }
}

/// Why a placement is refused; cheap to make, worded with the hex only when shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    GaiaUnfinished,
    Colonized,
    OtherGaiaformer,
    /// This building cannot go on that kind of planet.
    NotBuildable,
    NoOrigin,
    OutOfRange {
        distance: u32,
        range: u32,
    },
    UselessSteps,
    /// Extra range from the action that would not lower the QIC the hex needs.
    UselessRange,
}

impl Game {
    /// Range starting points of a seat.
    pub(crate) fn range_from(&self, seat: usize) -> RangeOrigins {
        let mut out = RangeOrigins::new();
        for (i, l) in self.state.structures.iter() {
            if l.iter().any(|s| s.seat == seat) {
                out.push(self.state.map.spaces[*i].hex);
            }
        }
        out
    }

    /// QIC needed to reach a hex; out of range when the player cannot pay them.
    pub(super) fn qic_for_range(&self, seat: usize, hex: Hex) -> Result<u32, MoveError> {
        self.qic_for_range_from(hex, &self.seat_rules(seat), self.state.turn.range)
            .map_err(|r| self.refusal(r, hex, ""))
    }

    /// Words a refusal for a hex (`building`: what was to be built there).
    pub(crate) fn refusal(&self, r: Refusal, hex: Hex, building: &str) -> MoveError {
        MoveError(match r {
            Refusal::GaiaUnfinished => "the Gaia project there is not finished yet".into(),
            Refusal::Colonized => format!("{} is already colonized", self.hex_name(hex)),
            Refusal::OtherGaiaformer => {
                format!("another player's Gaiaformer is on {}", self.hex_name(hex))
            }
            Refusal::NotBuildable => {
                format!("no {building} can be built on {}", self.hex_name(hex))
            }
            Refusal::NoOrigin => "you have no planet to measure range from".into(),
            Refusal::OutOfRange { distance, range } => format!(
                "out of range: {} is {distance} away, range {range}",
                self.hex_name(hex)
            ),
            Refusal::UselessSteps => "the free terraforming steps would not be used".into(),
            Refusal::UselessRange => format!(
                "the extra range would not be used: {} needs as much QIC without it",
                self.hex_name(hex)
            ),
        })
    }

    /// The standing placement values of a seat.
    pub(crate) fn seat_rules(&self, seat: usize) -> SeatRules<'_> {
        self.seat_rules_from(seat, &self.modifiers(seat))
    }

    /// [`Game::seat_rules`] with the modifiers in force given.
    pub(crate) fn seat_rules_from<'a>(
        &'a self,
        seat: usize,
        mods: &[&'a Modifier],
    ) -> SeatRules<'a> {
        let from = self.range_from(seat);
        let from_box = orrery_core::hex::HexBox::around(&from);
        self.seat_rules_with(seat, mods, from, from_box)
    }

    /// [`Game::seat_rules_from`] with where range is measured from given, and the box
    /// around it.
    pub(crate) fn seat_rules_with<'a>(
        &'a self,
        seat: usize,
        mods: &[&'a Modifier],
        from: RangeOrigins,
        from_box: Option<orrery_core::hex::HexBox>,
    ) -> SeatRules<'a> {
        let mut r = SeatRules {
            from,
            from_box,
            range_per_qic: self.content.rules.range_per_qic,
            nav_range: 1,
            ore_per_step: 3,
            gaia_fee: &self.content.rules.gaia_planet_fee,
            may_share: false,
            range_have: self.state.players[seat]
                .resource(&self.content, &self.content.rules.range_resource),
            token_value: 1,
        };
        let (mut nav, mut ore, mut fee) = (None::<u32>, None::<u32>, None);
        for m in mods {
            match m {
                Modifier::NavRange(n) => nav = Some(nav.map_or(*n, |x| x.max(*n))),
                Modifier::OrePerStep(n) => ore = Some(ore.map_or(*n, |x| x.min(*n))),
                Modifier::GaiaPlanetFee(b) if fee.is_none() => fee = Some(b),
                Modifier::ShareOccupiedPlanets => r.may_share = true,
                Modifier::Area3TokenValue(v) if r.token_value == 1 => r.token_value = *v,
                _ => {}
            }
        }
        r.nav_range = nav.unwrap_or(1);
        r.ore_per_step = ore.unwrap_or(3);
        if let Some(f) = fee {
            r.gaia_fee = f;
        }
        r
    }

    /// [`Game::qic_for_range`] with the seat's standing values given.
    pub(crate) fn qic_for_range_from(
        &self,
        hex: Hex,
        rules: &SeatRules,
        extra_range: u32,
    ) -> Result<u32, Refusal> {
        let d = rules
            .from
            .iter()
            .map(|h| h.distance(hex))
            .min()
            .ok_or(Refusal::NoOrigin)?;
        self.qic_for_distance(d, rules, extra_range)
    }

    /// [`Game::qic_for_range_from`] for a hex at distance `d` from the nearest range origin.
    pub(crate) fn qic_for_distance(
        &self,
        d: u32,
        rules: &SeatRules,
        extra_range: u32,
    ) -> Result<u32, Refusal> {
        let range = rules.nav_range + extra_range;
        let qic = |range: u32| d.saturating_sub(range).div_ceil(rules.range_per_qic.max(1));
        let q = qic(range);
        // The recording platform's reading: extra range from an action must save QIC.
        if extra_range > 0
            && self.content.rules.options.refuse_useless_actions
            && qic(rules.nav_range) == q
        {
            return Err(Refusal::UselessRange);
        }
        if q == 0 {
            return Ok(0);
        }
        if rules.range_have < q as i32 {
            return Err(Refusal::OutOfRange { distance: d, range });
        }
        Ok(q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seat rules measured from the origin, holding `have` range resources worth `per` each.
    fn rules(have: i32, per: u32, fee: &Bundle) -> SeatRules<'_> {
        let from: RangeOrigins = [Hex { q: 0, r: 0 }].into_iter().collect();
        SeatRules {
            from_box: orrery_core::hex::HexBox::around(&from),
            from,
            nav_range: 1,
            ore_per_step: 3,
            gaia_fee: fee,
            may_share: false,
            range_have: have,
            token_value: 1,
            range_per_qic: per,
        }
    }

    #[test]
    fn reach_counts_range_bought_without_wrapping() {
        let fee = Bundle::default();
        let far = Hex { q: 40, r: 0 };
        assert!(rules(0, 2, &fee).surely_out_of_reach(far, 0));
        assert!(!rules(20, 2, &fee).surely_out_of_reach(far, 0));
        // Numbers whose product passes u32::MAX still count as a long reach, not a short one.
        assert!(!rules(i32::MAX, u32::MAX, &fee).surely_out_of_reach(far, u32::MAX));
        assert!(!rules(i32::MAX, u32::MAX, &fee).out_of_reach_at(Some(u32::MAX), 0));
        // A negative count holds no range; no origin is never within reach.
        assert!(rules(-5, 2, &fee).surely_out_of_reach(Hex { q: 3, r: 0 }, 0));
        assert!(rules(5, 2, &fee).out_of_reach_at(None, 0));
    }
}
