//! Building: the `build` part (a colony, an upgrade or a Gaia project), what every new
//! building does (grants, triggers, abilities, charges, federation growth), and the buildings
//! follow-ups place, downgrade or swap.

use super::handles::Handles;
use super::happened::Happened;
use super::hook_protocol::SiteCost;
use super::{err, Gaiaformer, Game, MoveError};
use crate::content::{BuildingRole, Bundle, Downgrade, Modifier, Place, PlanetKind, Swap};
use crate::lookup::index_of;
use crate::notation::Word;
use orrery_core::hex::Hex;
use smallvec::SmallVec;

impl Game {
    /// `build`: founds a colony, upgrades a building, or starts a Gaia project (`follow`: as a
    /// follow-up of an action, which may not upgrade).
    pub(super) fn build(
        &mut self,
        seat: usize,
        building: &str,
        hex: Hex,
        follow: bool,
    ) -> Result<(), MoveError> {
        let idx = self.state.map.space_index(hex).expect("on map");
        // The definition is read through a handle on the seats' fixed facts (they never
        // change within a part), not copied.
        let h = self.handles();
        match self.build_kind(&h, seat, building, idx)? {
            BuildKind::GaiaProject => self.gaia_project(seat, idx, hex),
            BuildKind::Colony(def) => self.build_on_planet(seat, idx, hex, def),
            BuildKind::Upgrade(def, own) => self.upgrade(seat, idx, def, own, follow),
        }
    }

    /// What a `build` of `building` on space `idx` is, checked without changing anything: a
    /// Gaia project, or a structure with one left on the seat's board, founding a colony
    /// where the seat has no building or upgrading what it has there.
    pub(super) fn build_kind<'d>(
        &self,
        h: &'d Handles,
        seat: usize,
        building: &str,
        idx: usize,
    ) -> Result<BuildKind<'d>, MoveError> {
        let def = h
            .board(seat)
            .expect("seat has a faction")
            .building(building)
            .ok_or_else(|| MoveError(format!("unknown building {building}")))?;
        match def.role {
            BuildingRole::Gaiaformer => return Ok(BuildKind::GaiaProject),
            BuildingRole::Station => {
                return err(format!("a {building} is placed by a special action"));
            }
            BuildingRole::Structure => {}
        }
        if self.state.players[seat].built_count(building) >= def.count {
            return err(format!("no {building} left on your board"));
        }
        let own = self
            .state
            .structures
            .get(&idx)
            .and_then(|l| l.iter().find(|s| s.seat == seat))
            .cloned();
        if !def.upgrades_from.is_empty() {
            return Ok(BuildKind::Upgrade(def, own));
        }
        if own.is_some() {
            let hex = self.state.map.spaces[idx].hex;
            return err(format!(
                "you already have a building on {}",
                self.hex_name(hex)
            ));
        }
        Ok(BuildKind::Colony(def))
    }

    /// Puts a building and runs what building it does: its grants, triggers, newly active
    /// abilities, charges and federation growth.
    pub(super) fn finish_build(
        &mut self,
        seat: usize,
        idx: usize,
        building: &str,
        shared: bool,
        off_board: bool,
    ) -> Result<(), MoveError> {
        // Content and the seats' fixed facts are read through handles, not copied.
        let h = self.handles();
        let new_type = !shared && {
            let planet = self.planet_id(idx);
            !self.state.structures.iter().any(|(i, l)| {
                *i != idx
                    && l.iter().any(|s| s.seat == seat && !s.shared)
                    && self.planet_id(*i) == planet
            })
        };
        let upgrade_from = self
            .state
            .structures
            .get(&idx)
            .and_then(|l| l.iter().find(|s| s.seat == seat))
            .map(|s| s.building.clone());
        let before = self.active_abilities(seat);
        self.put_structure(seat, idx, building, shared, off_board);
        let after = self.active_abilities(seat);
        if let Some(def) = h
            .board(seat)
            .expect("seat has a faction")
            .building(building)
        {
            self.apply_effects(seat, &def.grants.immediate, "buildings")?;
        }
        for i in before.iter().filter(|i| !after.contains(i)) {
            self.state.players[seat].unlog_source(&crate::player::source_key("f:", *i));
        }
        for i in after.into_iter().filter(|i| !before.contains(i)) {
            self.state.players[seat].log_source(&crate::player::source_key("f:", i));
            let immediate = &h.faction(seat).abilities[i].immediate;
            self.apply_effects(seat, immediate, "faction")?;
        }
        let planet = &h.content().planets.planets[usize::from(self.state.planets[idx])].id;
        self.fire(
            seat,
            &Happened::Built {
                building,
                planet,
                idx,
                new_type,
                shared,
                upgrade_from: upgrade_from.as_deref(),
            },
        )?;
        // A main-action build offers its charges once its follow-ups are done.
        if std::mem::take(&mut self.state.turn.building_main) {
            self.state.turn.deferred_leech = Some(idx);
        } else {
            self.state.turn.leech.push(idx);
        }
        self.join_federation(seat, idx);
        Ok(())
    }

    /// The faction abilities whose conditions the seat meets, by index.
    pub(crate) fn active_abilities(&self, seat: usize) -> smallvec::SmallVec<[usize; 8]> {
        let p = &self.state.players[seat];
        self.faction(seat)
            .abilities
            .iter()
            .enumerate()
            .filter(|(_, a)| p.holds(a.when.as_ref()))
            .map(|(i, _)| i)
            .collect()
    }

    /// Starts a Gaia project: a Gaiaformer on a Transdim planet in range, for power tokens.
    fn gaia_project(&mut self, seat: usize, idx: usize, hex: Hex) -> Result<(), MoveError> {
        let (tokens, q) = self.gaia_project_needs(seat, idx, hex)?;
        if q > 0 {
            self.pay(
                seat,
                &Bundle::of(&[(self.content.rules.range_resource.as_str(), q as i32)]),
            )?;
        }
        self.move_tokens(seat, tokens, true)?;
        let round = self.state.round;
        self.state.gaiaformers.push(Gaiaformer { seat, hex, round });
        Ok(())
    }

    /// What a Gaia project on a space takes, checked without changing anything but its
    /// payment: a free Transdim planet, a Gaia Project level that allows one and a free
    /// Gaiaformer; the power tokens it moves and the QIC its range needs.
    pub(super) fn gaia_project_needs(
        &self,
        seat: usize,
        idx: usize,
        hex: Hex,
    ) -> Result<(u32, u32), MoveError> {
        if self.planet_kind(idx) != PlanetKind::Transdim {
            return err(format!("{} is not a Transdim planet", self.hex_name(hex)));
        }
        if self.state.gaiaformers.iter().any(|g| g.hex == hex)
            || self.state.structures.contains_key(&idx)
        {
            return err(format!("{} is taken", self.hex_name(hex)));
        }
        let tokens = self
            .modifier(seat, |m| match m {
                Modifier::GaiaProjectTokens(n) => Some(*n),
                _ => None,
            })
            .ok_or_else(|| {
                MoveError("no Gaia projects possible at your Gaia Project level".into())
            })?;
        if self.free_gaiaformers(seat) == 0 {
            return err("no Gaiaformer available");
        }
        Ok((tokens, self.qic_for_range(seat, hex)?))
    }

    /// Places a building by a follow-up (`place`): on a free space in range, maybe creating a
    /// planet; a station joins no charge or trigger.
    pub(super) fn place(&mut self, seat: usize, p: &Place, hex: Hex) -> Result<(), MoveError> {
        let idx = self.state.map.space_index(hex).expect("on map");
        let q = self.place_range(seat, p, idx, hex)?;
        // The seat's placement hooks may refuse the space, its cost hooks change the range.
        let cost = match self.hooked {
            true => self.placement_cost(seat, &self.modifiers(seat), &p.building, idx, q)?,
            false => SiteCost::Owned(self.range_cost(q)),
        };
        if !cost.0.is_empty() {
            self.pay(seat, &cost)?;
        }
        if let Some(planet) = &p.creates_planet {
            if let Some(i) = index_of(&self.content.planets.planets, planet) {
                self.state.planets[idx] = i as u8;
            }
            return self.finish_build(seat, idx, &p.building, false, true);
        }
        if self.is_station(seat, &p.building) {
            if !self.station_left(seat, &p.building) {
                return err(format!("no {} left", p.building));
            }
            self.put_structure(seat, idx, &p.building, false, false);
            self.join_federation(seat, idx);
            return Ok(());
        }
        self.finish_build(seat, idx, &p.building, false, false)
    }

    /// The QIC a placement by a follow-up needs for range, checked without changing anything
    /// but its payment: the space as the follow-up asks, with no building, and no satellite a
    /// station may not share.
    pub(super) fn place_range(
        &self,
        seat: usize,
        p: &Place,
        idx: usize,
        hex: Hex,
    ) -> Result<u32, MoveError> {
        if p.on_empty_space && self.planet_kind(idx) != PlanetKind::Empty {
            return err(format!("{} is not empty space", self.hex_name(hex)));
        }
        // A station may share a space with other players' satellites; a created planet not.
        let station = self.is_station(seat, &p.building);
        let satellite = self
            .state
            .players
            .iter()
            .enumerate()
            .any(|(s, pl)| (!station || s == seat) && pl.satellites.contains(&hex));
        if self
            .state
            .structures
            .get(&idx)
            .is_some_and(|l| !l.is_empty())
            || satellite
        {
            return err(format!("{} is taken", self.hex_name(hex)));
        }
        self.qic_for_range(seat, hex)
    }

    /// Whether the seat has a station of this kind left on its board.
    pub(super) fn station_left(&self, seat: usize, building: &str) -> bool {
        let count = self.board(seat).building(building).map(|d| d.count);
        let built = self.state.players[seat].built_count(building);
        count.is_none_or(|c| built < c)
    }

    /// Replaces the seat's building on a space by a lower one (a follow-up).
    pub(super) fn downgrade(
        &mut self,
        seat: usize,
        d: &Downgrade,
        hex: Hex,
    ) -> Result<(), MoveError> {
        let idx = self.state.map.space_index(hex).expect("on map");
        self.downgradable(seat, d, idx, hex)?;
        self.finish_build(seat, idx, &d.to, false, false)
    }

    /// Whether the seat has on a space the building a downgrade replaces, checked without
    /// changing anything.
    pub(super) fn downgradable(
        &self,
        seat: usize,
        d: &Downgrade,
        idx: usize,
        hex: Hex,
    ) -> Result<(), MoveError> {
        let ok = self
            .state
            .structures
            .get(&idx)
            .is_some_and(|l| l.iter().any(|s| s.seat == seat && s.building == d.from));
        if !ok {
            return err(format!("no {} of yours on {}", d.from, self.hex_name(hex)));
        }
        Ok(())
    }

    /// Swaps two of the seat's buildings (a follow-up): the one on the space and one elsewhere.
    pub(super) fn swap(&mut self, seat: usize, s: &Swap, hex: Hex) -> Result<(), MoveError> {
        let idx = self.state.map.space_index(hex).expect("on map");
        let target_ok = self.state.structures.get(&idx).is_some_and(|l| {
            l.iter()
                .any(|x| x.seat == seat && x.building == s.with && !x.off_board)
        });
        if !target_ok {
            return err(format!("no {} of yours on {}", s.with, self.hex_name(hex)));
        }
        let from = self
            .own_structures(seat)
            .into_iter()
            .find(|(_, x)| x.building == s.building)
            .map(|(i, _)| i)
            .ok_or_else(|| MoveError(format!("you have no {}", s.building)))?;
        for (i, b) in [(from, &s.with), (idx, &s.building)] {
            if let Some(x) = self
                .state
                .structures
                .get_mut(&i)
                .and_then(|l| l.iter_mut().find(|x| x.seat == seat))
            {
                x.building = b.as_str().into();
            }
        }
        Ok(())
    }

    /// [`Game::colonize_cost`]'s amounts as paying it reads them (by code, zero amounts left
    /// out), held inline.
    pub(super) fn colonize_amounts(
        &self,
        def: &crate::content::Building,
        plan: &super::colonize::ColonyPlan,
        rules: &super::placement::SeatRules,
    ) -> SmallVec<[(Word, i32); 8]> {
        let mut out: SmallVec<[(Word, i32); 8]> = def
            .cost
            .0
            .iter()
            .map(|(c, n)| (Word::from(c.as_str()), *n))
            .collect();
        for (code, n) in self.colonize_extras(plan, rules) {
            match out.iter_mut().find(|(c, _)| c == code) {
                Some((_, m)) => *m += n,
                None => out.push((Word::from(code), n)),
            }
        }
        out.retain(|(_, n)| *n != 0);
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// What `q` QIC for range cost, in the content's range resource.
    pub(crate) fn range_cost(&self, q: u32) -> Bundle {
        match q {
            0 => Bundle::default(),
            q => Bundle::of(&[(self.content.rules.range_resource.as_str(), q as i32)]),
        }
    }

    /// What placing a building by a follow-up (`place`) on a space costs when its range costs
    /// `q`: the seat's placement hooks may refuse the space, its cost hooks change the cost.
    pub(crate) fn placement_cost(
        &self,
        seat: usize,
        mods: &[&Modifier],
        building: &str,
        idx: usize,
        q: u32,
    ) -> Result<SiteCost<'static>, MoveError> {
        let parts = super::hook_protocol::CostParts {
            range: std::borrow::Cow::Owned(self.range_cost(q)),
            ..Default::default()
        };
        let site = super::hook_protocol::Site::new(building, idx, None);
        self.hooked_cost(seat, mods, site, parts)
    }
}

/// What a `build` is ([`Game::build_kind`]).
pub(super) enum BuildKind<'d> {
    /// A Gaia project.
    GaiaProject,
    /// A new colony of this building.
    Colony(&'d crate::content::Building),
    /// This building upgrading what the seat has on the space (if it has anything).
    Upgrade(&'d crate::content::Building, Option<super::Structure>),
}
