//! The fixed costs listing asks about on every main action (a research step, each board
//! action, each building of a faction board), with their codes resolved once
//! ([`PayCode`]), so a payment check reads them instead of resolving each code by name.

use smallvec::SmallVec;

use super::conversion_form::PayCode;
use crate::board::FactionBoard;
use crate::content::{Bundle, Content};

/// A cost with its codes resolved: what [`Bundle::iter`] gives, in its order.
pub(crate) type Coded = SmallVec<[(PayCode, i32); 2]>;

/// The costs a seat's faction fixes for the whole game, resolved.
#[derive(Debug)]
pub(crate) struct FixedCosts {
    /// A research step.
    pub research: Coded,
    /// Each board action's, in content order.
    pub actions: Vec<Coded>,
    /// Each building's of the faction board, in board order: its cost and its cost near a
    /// rival.
    pub buildings: Vec<(Coded, Option<Coded>)>,
    /// The terraforming resource's code and the range resource's, resolved (a colony's
    /// budget reads both).
    pub terraform: PayCode,
    pub range: PayCode,
}

impl FixedCosts {
    /// The costs of content and a faction board.
    pub fn of(content: &Content, board: &FactionBoard) -> FixedCosts {
        let coded = |b: &Bundle| -> Coded {
            b.iter()
                .map(|(c, n)| (PayCode::of(content, c), n))
                .collect()
        };
        FixedCosts {
            research: coded(&content.research.cost),
            actions: content
                .board_actions
                .actions
                .iter()
                .map(|a| coded(&a.cost))
                .collect(),
            buildings: board
                .buildings
                .iter()
                .map(|b| (coded(&b.cost), b.cost_near_rival.as_ref().map(coded)))
                .collect(),
            terraform: PayCode::of(content, &content.rules.terraform_resource),
            range: PayCode::of(content, &content.rules.range_resource),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::fixture;

    /// Every resolved cost is its bundle's codes resolved one by one, in order.
    #[test]
    fn costs_are_their_bundles_resolved_in_order() {
        let g = fixture::blips_game(5);
        let content = &g.content;
        let board = g.board(0);
        let costs = FixedCosts::of(content, board);
        let each = |b: &Bundle| -> Vec<(PayCode, i32)> {
            b.iter()
                .map(|(c, n)| (PayCode::of(content, c), n))
                .collect()
        };
        assert_eq!(costs.research.to_vec(), each(&content.research.cost));
        assert_eq!(costs.actions.len(), content.board_actions.actions.len());
        for (coded, a) in costs.actions.iter().zip(&content.board_actions.actions) {
            assert_eq!(coded.to_vec(), each(&a.cost));
        }
        let rules = &content.rules;
        assert_eq!(
            costs.terraform,
            PayCode::of(content, &rules.terraform_resource)
        );
        assert_eq!(costs.range, PayCode::of(content, &rules.range_resource));
        assert_eq!(costs.buildings.len(), board.buildings.len());
        for ((cost, near), b) in costs.buildings.iter().zip(&board.buildings) {
            assert_eq!(cost.to_vec(), each(&b.cost));
            assert_eq!(
                near.as_ref().map(|n| n.to_vec()),
                b.cost_near_rival.as_ref().map(each)
            );
        }
        assert!(
            costs.actions.iter().any(|c| !c.is_empty()),
            "some action costs something"
        );
    }
}
