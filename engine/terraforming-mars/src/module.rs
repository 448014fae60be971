//! Terraforming Mars as a game the command line runs ([`GameModule`]): `validate`, `schema`,
//! `simulate`, `replay`, `moves`, `trace` and `play` come from the commands written once for
//! every game. A study's log starts with the deal (`setup PLAYERS SEED`), then one line of
//! the notation per input; a saved game is [`saved`]'s form.

use std::collections::BTreeMap;
use std::sync::Arc;

use orrery_core::board_view::BoardPicture;
use orrery_core::content::kinds::KindTable;
use orrery_core::content::provenance::Provenance;
use orrery_core::diagnostics::Diagnostic;
use orrery_core::files::{ContentFiles, OverlaySource};
use orrery_core::game_module::{GameModule, ItemLedger, Scribe, Start};
use orrery_core::rng::Rng;
use serde_json::{json, Value};

use crate::content::{self, Content};
use crate::game::{saved, Game, Part};
use crate::notation::Line;

/// Writes one log line per input: a whole line as played, a pick of cards once its last card
/// is decided.
#[derive(Debug, Clone, Copy, Default)]
pub struct LineWriter;

impl Scribe<Game> for LineWriter {
    fn note(&mut self, game: &Game, part: &Part, lines: &mut Vec<String>) {
        if let Some(l) = game.line_of_part(part) {
            lines.push(l.to_string());
        }
    }
}

impl GameModule for Game {
    const ID: &'static str = "terraforming-mars";
    const CONTENT_DIR: &'static str = "terraforming-mars";
    const VARIANTS_DIR: &'static str = "terraforming-mars/variants";
    type Content = Content;
    type Setup = ();
    type Scribe = LineWriter;

    /// The core's pipeline by the game's kinds table ([`crate::table`]): overlays apply with
    /// provenance, every problem at its line.
    fn load(
        files: &dyn ContentFiles,
        overlays: &[OverlaySource],
    ) -> Result<Content, Vec<Diagnostic>> {
        crate::table::load(files, overlays)
    }

    fn summary(c: &Content) -> String {
        format!(
            "terraforming-mars: {} map spaces, {} standard projects, {} milestones, {} awards, {} corporations, {} projects",
            c.map.spaces.len(),
            c.standard_projects.len(),
            c.scoring.milestones.len(),
            c.scoring.awards.len(),
            c.corporations.len(),
            c.projects.len()
        )
    }

    fn schemas() -> Vec<(&'static str, Value)> {
        content::schemas()
    }

    /// Map spaces, corporations and standard projects named by id fields; every overlay
    /// target among its kind's ids.
    fn schemas_with_ids(content: &Content) -> Option<Vec<(&'static str, Value)>> {
        Some(crate::table::schemas_with_ids(&[content]))
    }

    fn kinds() -> Option<&'static KindTable> {
        Some(&crate::table::KINDS)
    }

    fn provenance(content: &Content) -> Option<&Provenance> {
        Some(&content.provenance)
    }

    /// The corporations a seat may be dealt.
    fn identities(c: &Content) -> Vec<String> {
        c.corporations
            .iter()
            .filter(|k| k.name != c.rules.beginner_corporation)
            .map(|k| k.name.clone())
            .collect()
    }

    /// A deal drawn from `rng`, noted as the log's first line ([`setup_line`]); each seat chooses its corporation among the two dealt in play
    /// (its bot decides), so given identities are refused.
    fn start(
        content: &Arc<Content>,
        how: Start<'_, ()>,
        rng: &mut Rng,
        _scribe: &mut LineWriter,
        lines: &mut Vec<String>,
    ) -> Result<Game, String> {
        if how.identities.is_some() {
            return Err(
                "terraforming-mars: each seat chooses its corporation in play; corporations cannot be given"
                    .into(),
            );
        }
        let seed = rng.next_u64();
        let game = Game::random(content.clone(), how.players, seed)?;
        lines.push(setup_line(how.players, seed));
        Ok(game)
    }

    fn identity(&self, seat: usize) -> String {
        self.corporation_name(seat)
            .unwrap_or_else(|| "-".to_owned())
    }

    fn vp_sources(&self, seat: usize) -> BTreeMap<String, i32> {
        self.vp_by_source(seat)
    }

    fn winners(&self) -> Vec<usize> {
        Game::winners(self)
    }

    /// Corporations and project cards: each seat's met, played and the VP they brought
    /// ([`crate::items`]).
    fn item_ledger(&self) -> Box<dyn ItemLedger<Self>> {
        Box::new(crate::items::CardLedger::default())
    }

    fn log(&self, lines: &[String], stack: &Value) -> Value {
        let totals = self.vp_totals();
        json!({
            "source": "orrery simulate",
            "game": Self::ID,
            "players": self.colors().len(),
            "content": stack,
            "moves": lines,
            "finished": self.is_over(),
            "final": (0..totals.len()).map(|s| json!({
                "color": self.colors()[s],
                "corporation": self.identity(s),
                "vp": totals[s],
            })).collect::<Vec<_>>(),
        })
    }

    fn save_state(&self) -> Result<Value, String> {
        saved::to_value(self)
    }

    fn restore(content: Arc<Content>, state: Value) -> Result<Game, String> {
        saved::from_value(content, state).map_err(|e| format!("not a saved game: {e}"))
    }

    /// The deciding seat's open decision (a pick in progress: its cards so far), naming no
    /// other seat's hidden cards.
    fn decision(&self) -> Value {
        self.decision_data()
    }

    fn action_data(&self, part: &Part) -> Value {
        match part {
            Part::Line(l) => json!({"line": l.to_string()}),
            Part::Start(l) => json!({"start": l.to_string(), "pick": self.pick_of(part)}),
            Part::Take(n) => json!({"take": n}),
            Part::Leave(n) => json!({"leave": n}),
        }
    }

    /// A whole input in the line notation (`red: play Comet`), or a part as listed (`take X`,
    /// a started pick ending in ` …`).
    fn parse_action(&self, text: &str) -> Result<Part, String> {
        let text = text.trim();
        let legal = self.legal_parts();
        if let Some(p) = legal.iter().find(|p| p.to_string() == text) {
            return Ok(p.clone());
        }
        let line = Line::parse(text).map_err(|e| format!("`{text}`: {}", e.0))?;
        if self.is_listed(&line)
            && legal
                .iter()
                .all(|p| !matches!(p, Part::Take(_) | Part::Leave(_)))
        {
            return Ok(Part::Line(line));
        }
        Err(format!("`{text}` is not a legal input here"))
    }

    /// Reads the log's first line, the deal (`setup N SEED`, [`setup_line`]); the other moves
    /// are lines of the notation.
    fn open_log(content: &Arc<Content>, log: &Value) -> Result<(Game, Vec<String>), String> {
        match log.get("game").and_then(Value::as_str) {
            Some(Self::ID) => {}
            Some(other) => return Err(format!("a log of {other}, not of {}", Self::ID)),
            None => return Err(format!("not a log of {} (no `game`)", Self::ID)),
        }
        let moves = log
            .get("moves")
            .and_then(Value::as_array)
            .ok_or("the log has no `moves` list")?;
        let mut lines = moves.iter().enumerate().map(|(i, m)| {
            m.as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("moves[{i}] is not a line of text"))
        });
        let first = lines
            .next()
            .ok_or("the log has no moves, not even its setup")??;
        let (players, seed) = parse_setup_line(&first)?;
        let game = Game::random(content.clone(), players, seed)?;
        Ok((game, lines.collect::<Result<_, _>>()?))
    }

    fn play_line(&mut self, line: &str) -> Result<(), String> {
        let parsed = Line::parse(line).map_err(|e| e.0)?;
        self.apply_line(&parsed)
    }

    fn seat_name(&self, seat: usize) -> String {
        self.colors().get(seat).cloned().unwrap_or_default()
    }

    fn seat_tally(&self, seat: usize) -> BTreeMap<String, i64> {
        Game::seat_tally(self, seat)
    }

    fn seat_status(&self, seat: usize) -> String {
        Game::seat_status(self, seat)
    }

    fn seat_private(&self, seat: usize) -> Vec<String> {
        self.hand_lines(seat)
    }

    fn board_status(&self) -> Option<String> {
        Some(Game::board_status(self))
    }

    fn board_view(&self, caption: &str) -> Option<BoardPicture> {
        Some(self.picture(caption))
    }

    /// A started pick: the cards it picks from, and how many.
    fn action_note(&self, part: &Part) -> Option<String> {
        let pick = self.pick_of(part)?;
        Some(format!(
            "then take or leave, one by one, {} to {} of: {}",
            pick.min,
            pick.max,
            pick.from.join(", ")
        ))
    }

    /// The seat (`by red`) then each step of the line (`play Comet`); a line that does not
    /// read (the log's deal) is one part.
    fn line_parts(&self, line: &str) -> Vec<String> {
        match Line::parse(line) {
            Ok(l) => std::iter::once(format!("by {}", l.player))
                .chain(l.steps.iter().map(ToString::to_string))
                .collect(),
            Err(_) => vec![line.to_owned()],
        }
    }
}

/// A recorded game of the public engine ([`crate::record::Record`]) opened for replaying its
/// inputs: the game as the record deals it, with every reshuffle the record states planned in
/// the order they happen, and each input as a line of the notation ([`Line`]).
///
/// # Errors
/// A deal the content cannot play, or a reshuffle naming a card the content lacks.
pub fn open_record(
    content: &Arc<Content>,
    record: &crate::record::Record,
) -> Result<(Game, Vec<String>), String> {
    let mut game = crate::conformance::deal(content.clone(), record)?;
    for m in &record.moves {
        for e in &m.events {
            if let crate::record::DeckEvent::Reshuffle { order } = e {
                game.plan_reshuffle(order)
                    .map_err(|e| format!("move {}: {e}", m.i))?;
            }
        }
    }
    Ok((game, record.moves.iter().map(|m| m.line.clone()).collect()))
}

/// The first line of a study's log: the seats and the seed of the deal
/// ([`Game::random`]).
pub fn setup_line(players: usize, seed: u64) -> String {
    format!("setup {players} {seed}")
}

/// The seats and seed of a [`setup_line`].
///
/// # Errors
/// Any other line.
pub fn parse_setup_line(line: &str) -> Result<(usize, u64), String> {
    let bad = || format!("`{line}` is not a setup line (`setup PLAYERS SEED`)");
    let mut words = line.split(' ');
    if words.next() != Some("setup") {
        return Err(bad());
    }
    let players = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
    let seed = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
    if words.next().is_some() {
        return Err(bad());
    }
    Ok((players, seed))
}
