//! The power cycle: tokens in areas I, II, III and the Gaia area, plus an optional special
//! token (content-defined) that moves like a token but spends for its own value.

use serde::{Deserialize, Serialize};

/// The power-cycle codes a bundle may hold besides the content's resources, written once:
/// every place that reads a code (loading, hooks, paying, gaining, descriptions, the
/// heuristic) matches on these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// `pw`: power charged (gained) or spent from area III (paid).
    Charge,
    /// `t`: power tokens gained into area I, or discarded.
    Tokens,
    /// `tg`: tokens paid from the Gaia area.
    GaiaTokens,
    /// `t-a3`: tokens moved from area III to the Gaia area.
    Area3Tokens,
    /// `gf`: Gaiaformers.
    Gaiaformers,
}

impl Code {
    /// Every code, in the order descriptions and schemas list them.
    pub const ALL: [Code; 5] = [
        Code::Charge,
        Code::Tokens,
        Code::GaiaTokens,
        Code::Area3Tokens,
        Code::Gaiaformers,
    ];

    /// The code as bundles and the notation write it.
    pub const fn text(self) -> &'static str {
        match self {
            Code::Charge => "pw",
            Code::Tokens => "t",
            Code::GaiaTokens => "tg",
            Code::Area3Tokens => "t-a3",
            Code::Gaiaformers => "gf",
        }
    }

    /// The power-cycle code written `text`, if it is one (a match, as fast as the string
    /// matches it replaces on paying and gaining paths).
    pub fn of(text: &str) -> Option<Code> {
        match text {
            "pw" => Some(Code::Charge),
            "t" => Some(Code::Tokens),
            "tg" => Some(Code::GaiaTokens),
            "t-a3" => Some(Code::Area3Tokens),
            "gf" => Some(Code::Gaiaformers),
            _ => None,
        }
    }
}

/// A power area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Area {
    /// Area I.
    I,
    /// Area II.
    II,
    /// Area III.
    III,
    /// The Gaia area.
    Gaia,
}

impl Area {
    /// Index 0–3.
    pub fn index(self) -> usize {
        self as usize
    }
    /// From a 1-based area number (1–3); anything else is the Gaia area.
    pub fn from_number(n: u8) -> Area {
        match n {
            1 => Area::I,
            2 => Area::II,
            3 => Area::III,
            _ => Area::Gaia,
        }
    }
}

/// Errors of power operations.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PowerError {
    /// Not enough power in area III.
    #[error("not enough power in area III: need {need}, have {have}")]
    NotEnoughPower {
        /// Needed.
        need: u32,
        /// Available.
        have: u32,
    },
    /// Not enough tokens.
    #[error("not enough power tokens: need {need}, have {have}")]
    NotEnoughTokens {
        /// Needed.
        need: u32,
        /// Available.
        have: u32,
    },
}

/// A faction's special token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Special {
    /// Where it is; `None` once it has left the game.
    pub area: Option<Area>,
    /// Power it provides when spent from area III.
    pub value: u32,
}

/// A player's power tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Power {
    /// Normal tokens in areas I, II, III and Gaia.
    pub areas: [u32; 4],
    /// The special token, if the faction has one.
    pub special: Option<Special>,
}

impl Power {
    /// Tokens in an area, the special token included.
    pub fn tokens(&self, area: Area) -> u32 {
        self.areas[area.index()].saturating_add(u32::from(self.special_in(area)))
    }

    /// Normal tokens in areas I, II and III (saturating).
    pub fn normal_tokens(&self) -> u32 {
        self.areas[..3]
            .iter()
            .fold(0u32, |sum, n| sum.saturating_add(*n))
    }

    /// Whether the special token lies in an area.
    pub fn special_in(&self, area: Area) -> bool {
        matches!(self.special, Some(Special { area: Some(a), .. }) if a == area)
    }

    /// How much power a charge could move at most.
    pub fn chargeable(&self) -> u32 {
        self.tokens(Area::I)
            .saturating_mul(2)
            .saturating_add(self.tokens(Area::II))
    }

    /// Charges `n` power: each point moves a token I→II, or II→III once area I is empty.
    /// `special_first` says whether the special token moves before normal tokens of its area.
    /// Returns the power actually charged.
    pub fn charge(&mut self, n: u32, special_first: bool) -> u32 {
        let mut done = 0;
        while done < n {
            let from = if self.tokens(Area::I) > 0 {
                Area::I
            } else if self.tokens(Area::II) > 0 {
                Area::II
            } else {
                break;
            };
            let to = if from == Area::I { Area::II } else { Area::III };
            self.move_one(from, to, special_first);
            done += 1;
        }
        done
    }

    fn move_one(&mut self, from: Area, to: Area, special_first: bool) {
        let normal = self.areas[from.index()] > 0;
        if self.special_in(from) && (special_first || !normal) {
            if let Some(s) = &mut self.special {
                s.area = Some(to);
            }
        } else if normal {
            self.areas[from.index()] -= 1;
            self.areas[to.index()] = self.areas[to.index()].saturating_add(1);
        }
    }

    fn move_special(&mut self, from: Area, to: Area) -> bool {
        if self.special_in(from) {
            if let Some(sp) = &mut self.special {
                sp.area = Some(to);
            }
            true
        } else {
            false
        }
    }

    fn move_normal(&mut self, from: Area, to: Area, n: u32) -> u32 {
        let k = n.min(self.areas[from.index()]);
        self.areas[from.index()] -= k;
        self.areas[to.index()] = self.areas[to.index()].saturating_add(k);
        k
    }

    /// Charges `n` with the special token moving as early as it can: out of area I first,
    /// then area I's tokens, then the special token on to area III, then area II's tokens.
    pub fn charge_eager(&mut self, n: u32) {
        let mut left = n;
        if left > 0 && self.move_special(Area::I, Area::II) {
            left -= 1;
        }
        left -= self.move_normal(Area::I, Area::II, left);
        if left > 0 && self.move_special(Area::II, Area::III) {
            left -= 1;
        }
        self.move_normal(Area::II, Area::III, left);
    }

    /// Charges `n` with the special token moving only when no normal token can.
    pub fn charge_lazy(&mut self, n: u32) {
        let mut left = n;
        left -= self.move_normal(Area::I, Area::II, left);
        if left > 0 && self.move_special(Area::I, Area::II) {
            left -= 1;
        }
        left -= self.move_normal(Area::II, Area::III, left);
        if left > 0 {
            self.move_special(Area::II, Area::III);
        }
    }

    /// Where the special token lies.
    pub fn special_area(&self) -> Option<Area> {
        self.special.and_then(|s| s.area)
    }

    /// Whether `n` tokens can leave areas I–III, with the special token among them or not
    /// (wherever they go: that never decides it).
    pub fn can_remove(&self, n: u32) -> bool {
        let (mut with, mut without) = (*self, *self);
        match self.special_area().filter(|a| *a != Area::Gaia) {
            None => with.remove_tokens(n, false).is_ok(),
            Some(_) => {
                with.remove_with_special(n, false, true).is_ok()
                    || (n <= self.normal_tokens()
                        && without.remove_with_special(n, false, false).is_ok())
            }
        }
    }

    /// Moves `n` tokens from areas I, II, III (in that order) to the Gaia area or the supply;
    /// when `with_special`, the special token is one of them.
    pub fn remove_with_special(
        &mut self,
        n: u32,
        to_gaia: bool,
        with_special: bool,
    ) -> Result<(), PowerError> {
        // Removing no token removes no special token either.
        let with_special = with_special && n > 0;
        let normal = self.normal_tokens();
        let need = n.saturating_sub(u32::from(with_special));
        if need > normal || (with_special && self.special_area().is_none_or(|a| a == Area::Gaia)) {
            return Err(PowerError::NotEnoughTokens {
                need: n,
                have: normal.saturating_add(u32::from(self.special.is_some())),
            });
        }
        if with_special {
            if let Some(sp) = &mut self.special {
                sp.area = if to_gaia { Some(Area::Gaia) } else { None };
            }
        }
        let mut left = need;
        for area in [Area::I, Area::II, Area::III] {
            let take = left.min(self.areas[area.index()]);
            self.areas[area.index()] -= take;
            left -= take;
            if to_gaia {
                self.areas[Area::Gaia.index()] =
                    self.areas[Area::Gaia.index()].saturating_add(take);
            }
        }
        Ok(())
    }

    /// Power available to spend from area III, given each normal token's value.
    pub fn spendable(&self, token_value: u32) -> u32 {
        self.areas[Area::III.index()]
            .saturating_mul(token_value)
            .saturating_add(if self.special_in(Area::III) {
                self.special.map_or(0, |s| s.value)
            } else {
                0
            })
    }

    /// Spends `n` power from area III (tokens go to area I). Uses the special token first when
    /// `use_special` and it lies in area III; a remainder of a token's value is lost.
    pub fn spend(&mut self, n: u32, token_value: u32, use_special: bool) -> Result<(), PowerError> {
        let have = self.spendable(token_value);
        let special = use_special && self.special_in(Area::III) && n > 0;
        let need = if special {
            n.saturating_sub(self.special.map_or(0, |s| s.value))
        } else {
            n
        };
        let value = token_value.max(1);
        let tokens = need.div_ceil(value);
        if tokens > self.areas[Area::III.index()] {
            // Refused before anything moves, the special token included.
            return Err(PowerError::NotEnoughPower { need: n, have });
        }
        if special {
            if let Some(s) = &mut self.special {
                s.area = Some(Area::I);
            }
        }
        self.areas[Area::III.index()] -= tokens;
        self.areas[Area::I.index()] = self.areas[Area::I.index()].saturating_add(tokens);
        Ok(())
    }

    /// Gains `n` new tokens into area I.
    pub fn gain_tokens(&mut self, n: u32) {
        self.areas[Area::I.index()] = self.areas[Area::I.index()].saturating_add(n);
    }

    /// Burns `n`: `2n` tokens leave area II, `n` move to area III and `n` are discarded (or go
    /// to the Gaia area when `to_gaia`).
    pub fn burn(&mut self, n: u32, to_gaia: bool) -> Result<(), PowerError> {
        let have = self.tokens(Area::II);
        let need = n.max(1).saturating_mul(2);
        if need > have || n == 0 {
            return Err(PowerError::NotEnoughTokens { need, have });
        }
        self.burn_checked(n, to_gaia);
        Ok(())
    }

    /// The largest `n` that [`Power::burn`] accepts now (half of area II's tokens, the special
    /// token counted; 0: no burn is possible).
    pub fn most_burnable(&self) -> u32 {
        self.tokens(Area::II) / 2
    }

    /// Burns as much as area II allows (half its tokens, the special token counted); the
    /// amount burned.
    pub fn burn_all(&mut self, to_gaia: bool) -> u32 {
        let n = self.tokens(Area::II) / 2;
        if n > 0 {
            self.burn_checked(n, to_gaia);
        }
        n
    }

    /// Burns `n`, at least 1, with `2n` tokens in area II (checked by the caller).
    fn burn_checked(&mut self, n: u32, to_gaia: bool) {
        // The special token, when in area II, is moved up rather than discarded.
        let mut up = n;
        if self.special_in(Area::II) {
            if let Some(s) = &mut self.special {
                s.area = Some(Area::III);
            }
            up -= 1;
        }
        let normal = &mut self.areas;
        // `need` (2n) is at most area II plus the special token, so this cannot wrap.
        normal[Area::II.index()] -= up + n;
        normal[Area::III.index()] = normal[Area::III.index()].saturating_add(up);
        if to_gaia {
            normal[Area::Gaia.index()] = normal[Area::Gaia.index()].saturating_add(n);
        }
    }

    /// Removes `n` tokens from areas I, II, III in that order (to the supply, or into the Gaia
    /// area when `to_gaia`). The special token is taken last.
    pub fn remove_tokens(&mut self, n: u32, to_gaia: bool) -> Result<(), PowerError> {
        let have = self
            .tokens(Area::I)
            .saturating_add(self.tokens(Area::II))
            .saturating_add(self.tokens(Area::III));
        if n > have {
            return Err(PowerError::NotEnoughTokens { need: n, have });
        }
        let mut left = n;
        for area in [Area::I, Area::II, Area::III] {
            let take = left.min(self.areas[area.index()]);
            self.areas[area.index()] -= take;
            left -= take;
            if to_gaia {
                self.areas[Area::Gaia.index()] =
                    self.areas[Area::Gaia.index()].saturating_add(take);
            }
        }
        if left > 0 {
            if let Some(s) = &mut self.special {
                s.area = if to_gaia { Some(Area::Gaia) } else { None };
            }
        }
        Ok(())
    }

    /// Moves every token in the Gaia area to `area` (the special token to area I).
    pub fn return_from_gaia(&mut self, area: Area) {
        let n = std::mem::take(&mut self.areas[Area::Gaia.index()]);
        self.areas[area.index()] = self.areas[area.index()].saturating_add(n);
        if self.special_in(Area::Gaia) {
            if let Some(s) = &mut self.special {
                s.area = Some(Area::I);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_power_code_reads_back_from_its_text() {
        for c in Code::ALL {
            assert_eq!(Code::of(c.text()), Some(c));
        }
        assert_eq!(Code::of("c"), None);
        assert_eq!(Code::of("PW"), None);
    }

    fn p(a: [u32; 4]) -> Power {
        Power {
            areas: a,
            special: None,
        }
    }

    #[test]
    fn tokens_can_leave_exactly_when_removing_them_is_accepted_either_way() {
        let special = |area| Special {
            area: Some(area),
            value: 3,
        };
        for s in [None, Some(special(Area::I)), Some(special(Area::III))] {
            for gaia in [false, true] {
                let x = Power {
                    areas: [1, 2, 1, 0],
                    special: s,
                };
                for n in 0..8 {
                    let removed = |with_special| {
                        let mut y = x;
                        match s {
                            None => y.remove_tokens(n, gaia).is_ok(),
                            Some(_) => y.remove_with_special(n, gaia, with_special).is_ok(),
                        }
                    };
                    // The special token may be one of them, or stay with the normal ones.
                    let either = removed(true) || (n <= x.normal_tokens() && removed(false));
                    assert_eq!(x.can_remove(n), either, "{x:?}, {n} tokens, to Gaia {gaia}");
                }
                // Four normal tokens, and the special token as a fifth when there is one.
                assert!(x.can_remove(4));
                assert_eq!(x.can_remove(5), s.is_some());
                assert!(!x.can_remove(6));
            }
        }
    }

    #[test]
    fn the_most_burnable_is_the_largest_burn_accepted() {
        let special = |area| Special {
            area: Some(area),
            value: 3,
        };
        for two in 0..7 {
            for s in [None, Some(special(Area::II)), Some(special(Area::I))] {
                let x = Power {
                    areas: [1, two, 2, 0],
                    special: s,
                };
                let burns = |n: u32, to_gaia: bool| {
                    let mut y = x;
                    y.burn(n, to_gaia).is_ok()
                };
                let accepted = (1..20).filter(|&n| burns(n, false));
                assert_eq!(accepted.max().unwrap_or(0), x.most_burnable(), "{x:?}");
                assert!(!burns(x.most_burnable() + 1, true));
            }
        }
    }

    #[test]
    fn charge_fills_area_two_before_three() {
        let mut x = p([2, 4, 0, 0]);
        assert_eq!(x.charge(3, false), 3);
        assert_eq!(x.areas, [0, 5, 1, 0]);
        let mut y = p([1, 1, 0, 0]);
        assert_eq!(y.charge(5, false), 3);
        assert_eq!(y.areas, [0, 0, 2, 0]);
        assert_eq!(p([2, 4, 0, 0]).chargeable(), 8);
    }

    #[test]
    fn a_refused_spend_leaves_the_special_token_in_place() {
        // Found by the property test `power_keeps_a_ledger`: the special token used to move
        // to area I before the spend was found short.
        let mut x = Power {
            areas: [0, 0, 0, 0],
            special: Some(Special {
                area: Some(Area::III),
                value: 1,
            }),
        };
        let before = x;
        assert!(x.spend(2, 1, true).is_err());
        assert_eq!(x, before);
        // Also found by it: removing no token used to remove the special token.
        x.remove_with_special(0, false, true).unwrap();
        assert_eq!(x, before);
    }

    #[test]
    fn spend_moves_three_to_one() {
        let mut x = p([0, 0, 5, 0]);
        x.spend(3, 1, false).unwrap();
        assert_eq!(x.areas, [3, 0, 2, 0]);
        assert_eq!(
            x.spend(3, 1, false),
            Err(PowerError::NotEnoughPower { need: 3, have: 2 })
        );
        assert_eq!(x.areas, [3, 0, 2, 0]);
    }

    #[test]
    fn token_value_two_wastes_odd_remainders() {
        let mut x = p([0, 0, 2, 0]);
        x.spend(3, 2, false).unwrap();
        assert_eq!(x.areas, [2, 0, 0, 0]);
    }

    #[test]
    fn burning_more_than_half_of_u32_is_refused_not_wrapped() {
        let mut x = p([0, 4, 0, 0]);
        for n in [2_147_483_648, u32::MAX, 1 << 31 | 1] {
            assert!(x.burn(n, false).is_err(), "burn {n}");
            assert_eq!(x.areas, [0, 4, 0, 0]);
        }
    }

    #[test]
    fn burn_needs_two_tokens_per_point() {
        let mut x = p([1, 4, 0, 0]);
        x.burn(2, false).unwrap();
        assert_eq!(x.areas, [1, 0, 2, 0]);
        assert!(x.burn(1, false).is_err());
        let mut y = p([0, 2, 0, 0]);
        y.burn(1, true).unwrap();
        assert_eq!(y.areas, [0, 0, 1, 1]);
    }

    #[test]
    fn gaia_area_round_trip() {
        let mut x = p([2, 4, 0, 0]);
        x.remove_tokens(4, true).unwrap();
        assert_eq!(x.areas, [0, 2, 0, 4]);
        x.return_from_gaia(Area::I);
        assert_eq!(x.areas, [4, 2, 0, 0]);
        x.return_from_gaia(Area::II);
        assert_eq!(x.areas, [4, 2, 0, 0]);
        assert!(x.remove_tokens(7, false).is_err());
        x.gain_tokens(3);
        assert_eq!(x.areas, [7, 2, 0, 0]);
    }

    #[test]
    fn special_token_moves_and_spends_for_its_value() {
        let mut x = Power {
            areas: [2, 0, 0, 0],
            special: Some(Special {
                area: Some(Area::I),
                value: 3,
            }),
        };
        x.charge(1, true);
        assert!(x.special_in(Area::II));
        assert_eq!(x.areas, [2, 0, 0, 0]);
        x.charge(3, false);
        // Normal tokens move first unless the special token is chosen.
        assert_eq!(x.areas, [0, 1, 1, 0]);
        assert!(x.special_in(Area::II));
        x.charge(1, true);
        assert!(x.special_in(Area::III));
        assert_eq!(x.spendable(1), 4);
        x.spend(3, 1, true).unwrap();
        assert!(x.special_in(Area::I));
    }
}
