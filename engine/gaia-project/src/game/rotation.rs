//! The optional sector-rotation step before factions are chosen (rule option `rotate_sectors`):
//! `rotate <centre> <sixths> …`, each sector turned once, the map valid after every part.

use super::{err, Game, MoveError};
use crate::map::Map;
use crate::notation::{Command, Word};
use orrery_core::hex::Hex;

/// The verb of a rotation part.
const VERB: &str = "rotate";

impl Game {
    /// Applies a `rotate` part: every named sector turns (each at most once in the whole step)
    /// and the resulting map must be valid; otherwise nothing changes.
    pub(super) fn rotate_sectors(&mut self, _seat: usize, part: &Command) -> Result<(), MoveError> {
        let Command::Other { verb, args } = part else {
            return err("expected `rotate <centre> <sixths> …` or `endturn`");
        };
        if verb.as_str() != VERB || args.len() % 2 != 0 {
            return err("expected `rotate <centre> <sixths> …` (pairs of a sector centre and 0–5) or `endturn`");
        }
        let mut map: Map = (*self.state.map).clone();
        let mut turned: Vec<Hex> = Vec::new();
        for pair in args.chunks(2) {
            let centre = Hex::parse_axial(&pair[0])
                .filter(|c| map.placements.iter().any(|p| p.center == *c))
                .ok_or_else(|| MoveError(format!("{} is not the centre of a sector", pair[0])))?;
            let sixths: u8 = pair[1].parse().ok().filter(|n| *n <= 5).ok_or_else(|| {
                MoveError(format!("a sector turns 0 to 5 sixths, not {}", pair[1]))
            })?;
            if turned.contains(&centre) || self.sector_turned(centre) {
                return err(format!("the sector at {} was already turned", pair[0]));
            }
            turned.push(centre);
            map.rotate_sector(centre, sixths);
        }
        if let Some((a, b)) = map.first_clash(&self.content) {
            return err(format!(
                "the map would hold alike planets side by side at {a} and {b}"
            ));
        }
        self.state.map = map.into();
        Ok(())
    }

    /// Whether the sector at `centre` was turned in this step already (its rotation differs
    /// from the setup's).
    fn sector_turned(&self, centre: Hex) -> bool {
        let now = self
            .state
            .map
            .placements
            .iter()
            .find(|p| p.center == centre);
        let before = self.state.setup.sectors.iter().find(|p| p.center == centre);
        matches!((now, before), (Some(n), Some(b)) if n.rotation != b.rotation)
    }

    /// Every single-sector `rotate` part that keeps the map valid.
    pub(super) fn rotate_parts(&self, out: &mut Vec<Command>) {
        for p in &self.state.map.placements {
            if self.sector_turned(p.center) {
                continue;
            }
            for sixths in 1..=5u8 {
                let mut map: Map = (*self.state.map).clone();
                map.rotate_sector(p.center, sixths);
                if map.is_valid(&self.content) {
                    out.push(Command::Other {
                        verb: Word::from(VERB),
                        args: vec![
                            Word::from(format!("{}x{}", p.center.q, p.center.r).as_str()),
                            Word::from(sixths.to_string().as_str()),
                        ],
                    });
                }
            }
        }
    }
}
