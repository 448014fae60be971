//! Upgrading a building of the seat into another (a main action), and what it costs.

use std::borrow::Cow;

use super::hook_protocol::{SiteCost, SiteStart};
use super::{err, Game, MoveError, Structure};
use crate::content::{Building, Modifier};

impl Game {
    /// Upgrades the seat's building on a space (`own`, if any) into `def`, paying its cost
    /// (`follow`: asked as a follow-up, which may not upgrade).
    pub(super) fn upgrade(
        &mut self,
        seat: usize,
        idx: usize,
        def: &Building,
        own: Option<Structure>,
        follow: bool,
    ) -> Result<(), MoveError> {
        let own = self.upgradable(idx, def, own.as_ref(), follow)?;
        // Only a cost hook can change the cost, and no seat holds one in a game without
        // hooks: the modifiers in force are then not walked.
        let cost = match self.hooked {
            true => {
                self.upgrade_cost(seat, def, idx, &own.building, &self.modifiers(seat), None)?
            }
            false => self.upgrade_cost(seat, def, idx, &own.building, &[], None)?,
        };
        self.pay(seat, &cost)?;
        self.finish_build(seat, idx, &def.id, false, false)
    }

    /// The seat's building on a space (`own`, if any) that `def` may upgrade as a main
    /// action, checked without changing anything (its cost aside).
    pub(super) fn upgradable<'s>(
        &self,
        idx: usize,
        def: &Building,
        own: Option<&'s Structure>,
        follow: bool,
    ) -> Result<&'s Structure, MoveError> {
        let (hex, building) = (self.state.map.spaces[idx].hex, def.id.as_str());
        let Some(own) = own else {
            return err(format!(
                "no building of yours on {} to upgrade",
                self.hex_name(hex)
            ));
        };
        if follow {
            return err("an upgrade is a main action");
        }
        if own.shared || own.off_board {
            return err(format!(
                "the {} on {} cannot be upgraded",
                own.building,
                self.hex_name(hex)
            ));
        }
        if !def.upgrades_from.iter().any(|u| *u == own.building) {
            return err(format!("a {} cannot become a {building}", own.building));
        }
        Ok(own)
    }

    /// What upgrading the seat's `from` on a space to `def` costs (more near a rival when the
    /// building says so), as the seat's hooks adjust it: without hooks, borrowed from `def`.
    /// `key_start`: the start of the site's key with its answers ([`Game::site_start`]), when
    /// the caller found it once for every site it asks about.
    pub(crate) fn upgrade_cost<'d>(
        &self,
        seat: usize,
        def: &'d Building,
        idx: usize,
        from: &str,
        mods: &[&Modifier],
        key_start: Option<&SiteStart>,
    ) -> Result<SiteCost<'d>, MoveError> {
        let hex = self.state.map.spaces[idx].hex;
        let cost = match &def.cost_near_rival {
            Some(c) if self.rival_near(seat, hex) => c,
            _ => &def.cost,
        };
        if !Self::names_site_hooks(mods) {
            return Ok(SiteCost::Borrowed(cost));
        }
        let parts = super::hook_protocol::CostParts {
            building: Cow::Borrowed(cost),
            ..Default::default()
        };
        let site = super::hook_protocol::Site {
            building: &def.id,
            idx,
            upgrade_from: Some(from),
            key_start,
        };
        self.hooked_cost(seat, mods, site, parts)
    }
}
