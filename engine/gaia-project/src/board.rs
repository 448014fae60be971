//! A faction's effective board: the standard board with the faction's overrides applied.

use std::collections::BTreeMap;

use crate::content::{
    Board, Building, BuildingRole, Bundle, Conversion, Effect, Faction, SetupPlacement,
};

/// The standard board as changed by one faction.
#[derive(Debug, Clone, PartialEq)]
pub struct FactionBoard {
    /// Starting resources.
    pub start: Bundle,
    /// Starting power in areas I, II, III.
    pub power: [u32; 3],
    /// Starting research levels.
    pub research: BTreeMap<String, u32>,
    /// Base income.
    pub income: Vec<Effect>,
    /// Buildings.
    pub buildings: Vec<Building>,
    /// Starting placements.
    pub setup: Vec<SetupPlacement>,
    /// Standard free-action conversions.
    pub conversions: Vec<Conversion>,
}

impl FactionBoard {
    /// Applies a faction's overrides to the standard board.
    pub fn resolve(board: &Board, faction: &Faction) -> FactionBoard {
        let o = &faction.board;
        let mut buildings = board.buildings.clone();
        for bo in &o.buildings {
            let idx = match buildings.iter().position(|b| b.id == bo.id) {
                Some(i) => i,
                None => {
                    buildings.push(Building {
                        id: bo.id.clone(),
                        name: bo.id.clone(),
                        count: 0,
                        cost: Bundle::default(),
                        cost_near_rival: None,
                        power_value: 0,
                        upgrades_from: Vec::new(),
                        role: Default::default(),
                        income: Vec::new(),
                        grants: Default::default(),
                    });
                    buildings.len() - 1
                }
            };
            let b = &mut buildings[idx];
            if let Some(v) = &bo.name {
                b.name = v.clone();
            }
            if let Some(v) = bo.count {
                b.count = v;
            }
            if let Some(v) = &bo.cost {
                b.cost = v.clone();
            }
            if let Some(v) = &bo.cost_near_rival {
                b.cost_near_rival = Some(v.clone());
            }
            if let Some(v) = bo.power_value {
                b.power_value = v;
            }
            if let Some(v) = &bo.upgrades_from {
                b.upgrades_from = v.clone();
            }
            if let Some(v) = bo.role {
                b.role = v;
            }
            if let Some(v) = &bo.income {
                b.income = v.clone();
            }
            if let Some(v) = &bo.grants {
                b.grants = v.clone();
            }
        }
        FactionBoard {
            start: o.start.clone().unwrap_or_else(|| board.start.clone()),
            power: o.power.unwrap_or(board.power),
            research: o.research.clone().unwrap_or_else(|| board.research.clone()),
            income: o.income.clone().unwrap_or_else(|| board.income.clone()),
            buildings,
            setup: o.setup.clone().unwrap_or_else(|| board.setup.clone()),
            conversions: board.conversions.clone(),
        }
    }

    /// A building by id.
    pub fn building(&self, id: &str) -> Option<&Building> {
        self.buildings.iter().find(|b| b.id == id)
    }

    /// Whether a building of this board is a station (a structure that counts as a
    /// satellite, not a colony).
    pub fn is_station(&self, id: &str) -> bool {
        self.building(id).is_some_and(is_station)
    }

    /// The ids of the board's stations.
    pub fn station_ids(&self) -> impl Iterator<Item = &str> {
        self.buildings
            .iter()
            .filter(|b| is_station(b))
            .map(|b| b.id.as_str())
    }
}

/// Whether a building is a station.
fn is_station(b: &Building) -> bool {
    b.role == BuildingRole::Station
}
