//! A seat's holdings in one line for a person: resources by name, power areas, the booster
//! held with what it does (its generated description), and whether the seat has passed.

use super::Game;
use crate::power::Area;

impl Game {
    /// Each resource by its content name, the power areas, then the booster held with its
    /// generated description; in the made-up test game's terms: `Gold 3 · Points 10 · power I 1
    /// · II 2 · III 0 · Gaia 0 · perk1 (income: 1 gold)`, then `· passed` once it has.
    pub fn seat_status(&self, seat: usize) -> String {
        let Some(p) = self.state.players.get(seat) else {
            return String::new();
        };
        let content = &self.content;
        let mut fields: Vec<String> = content
            .rules
            .resources
            .iter()
            .zip(&p.resources)
            .map(|(r, n)| format!("{} {n}", r.name))
            .collect();
        let a = |area| p.power.tokens(area);
        fields.push(format!(
            "power I {} · II {} · III {} · Gaia {}",
            a(Area::I),
            a(Area::II),
            a(Area::III),
            a(Area::Gaia)
        ));
        if let Some(b) = p.booster.as_ref() {
            match crate::content::describe::by_id(content, b).filter(|d| !d.is_empty()) {
                Some(d) => fields.push(format!("{b} ({d})")),
                None => fields.push(b.to_string()),
            }
        }
        if p.passed {
            fields.push("passed".into());
        }
        fields.join(" · ")
    }
}

#[cfg(test)]
mod tests {
    use crate::content::{fixture, Content};
    use crate::game::{Game, Setup};
    use std::sync::Arc;

    #[test]
    fn a_status_names_each_resource_and_power_area() {
        let content = Arc::new(Content::load(&fixture::files(), &[]).expect("loads"));
        let setup = Setup::random(&content, 2, &mut orrery_core::rng::Rng::new(2)).expect("setup");
        let mut g = Game::new(content, setup).expect("game");
        let part = g.legal_parts().into_iter().next().expect("a faction");
        g.apply_part(&part).expect("applies");
        let p = g.state.players[0].clone();
        let text = g.seat_status(0);
        let want = format!(
            "Gold {} · Points {} · power I {} · II {} · III {} · Gaia {}",
            p.resources[0],
            p.resources[1],
            p.power.areas[0],
            p.power.areas[1],
            p.power.areas[2],
            p.power.areas[3]
        );
        assert!(text.starts_with(&want), "{text} / {want}");
        assert_eq!(g.seat_status(7), "");
    }
}
