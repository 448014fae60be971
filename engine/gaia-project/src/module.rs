//! Gaia Project as a game the command line runs ([`GameModule`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use orrery_core::content::kinds::{KindSpec, KindTable};
use orrery_core::content::provenance::Provenance;
use orrery_core::diagnostics::Diagnostic;
use orrery_core::files::{ContentFiles, OverlaySource};
use orrery_core::game_module::{
    each_pair_seated, ActionGroup, Change, GameModule, ItemLedger, LogVariants, ScriptCalls, Start,
    Watcher,
};
use orrery_core::play_api::Playable;
use orrery_core::rng::Rng;
use serde_json::{json, Value};

use crate::commands;
use crate::content::{describe, id_schema, schema, Content};
use crate::game::invariants::Watch;
use crate::game::part_delta::SeatDelta;
use crate::game::{Game, Setup};
use crate::notation::Command;
use crate::scribe::LineWriter;

impl GameModule for Game {
    const ID: &'static str = "gaia-project";
    const CONTENT_DIR: &'static str = "base";
    type Content = Content;
    type Setup = Setup;
    type Scribe = LineWriter;

    fn load(
        files: &dyn ContentFiles,
        overlays: &[OverlaySource],
    ) -> Result<Content, Vec<Diagnostic>> {
        Content::load(files, overlays)
    }

    fn summary(content: &Content) -> String {
        content.summary()
    }

    /// Names that state a number their effects contradict.
    fn warnings(content: &Content) -> Vec<String> {
        describe::stale_names(content)
            .into_iter()
            .map(|(kind, id, message)| {
                let at = content
                    .provenance
                    .origin(kind, Some(&id), "name")
                    .map_or_else(String::new, |o| format!("{o}: "));
                format!("{at}warning: {} {id}: {message}", kind.name())
            })
            .collect()
    }

    fn schemas() -> Vec<(&'static str, Value)> {
        schema::all()
    }

    fn schemas_with_ids(content: &Content) -> Option<Vec<(&'static str, Value)>> {
        Some(id_schema::all_with_ids(content))
    }

    fn identities(content: &Content) -> Vec<String> {
        content.factions.iter().map(|f| f.id.to_string()).collect()
    }

    /// Two factions of one home planet cannot play one game either.
    fn check_lineup(content: &Content, list: &[String], players: usize) -> Result<(), String> {
        let home = |f: &str| content.faction(f).map(|f| f.home.as_str());
        each_pair_seated(list, players, |a, b| {
            if a == b {
                return Err(format!("{a} would play two seats of one game"));
            }
            match home(a) {
                Some(h) if home(b) == Some(h) => Err(format!(
                    "{a} and {b} share the home planet {h} and would play one game"
                )),
                _ => Ok(()),
            }
        })
    }

    fn first_line(players: usize, study_seed: u64, index: u64) -> Option<String> {
        Some(format!("init {players} s{study_seed}-{index}"))
    }

    /// The setup drawn first, then each seat's faction (given, or a random legal one) and
    /// its end of turn.
    fn start(
        content: &Arc<Content>,
        how: Start<'_, Setup>,
        rng: &mut Rng,
        scribe: &mut LineWriter,
        lines: &mut Vec<String>,
    ) -> Result<Game, String> {
        let setup = match how.setup {
            Some(s) => s.clone(),
            None => Setup::random(content, how.players, rng).map_err(|e| e.to_string())?,
        };
        let mut game = Game::new(content.clone(), setup).map_err(|e| e.to_string())?;
        game.set_hook_budget(how.hook_budget);
        for seat in 0..how.players {
            let pick = match how.identities {
                Some(f) => Command::Faction(f[seat].as_str().into()),
                None => {
                    let legal = game.legal();
                    if legal.is_empty() {
                        return Err(format!("no faction left for seat {}", seat + 1));
                    }
                    legal[rng.below(legal.len())].clone()
                }
            };
            for part in [pick, Command::EndTurn] {
                scribe.write(&game, &part, lines);
                game.apply_part(&part)
                    .map_err(|e| format!("seat {}: `{part}`: {e}", seat + 1))?;
            }
        }
        Ok(game)
    }

    /// The seat's faction (`p1` before it has one).
    fn identity(&self, seat: usize) -> String {
        self.seat_name(seat)
    }

    fn vp_sources(&self, seat: usize) -> BTreeMap<String, i32> {
        self.state.players[seat]
            .vp_sources
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect()
    }

    fn winners(&self) -> Vec<usize> {
        Game::winners(self)
    }

    /// Boosters, tech and advanced tiles, federation tokens, round and final tiles.
    fn item_ledger(&self) -> Box<dyn ItemLedger<Game>> {
        Box::new(crate::items::Items::new(self.state.players.len()))
    }

    fn watcher(&self) -> Box<dyn Watcher<Game>> {
        Box::new(Watch::new(self.state.players.len()))
    }

    fn log(&self, lines: &[String], stack: &Value) -> Value {
        let scores = self.scores();
        let players = self.state.players.len();
        json!({
            "source": "orrery simulate",
            "players": players,
            "content": stack,
            "setup": &*self.state.setup,
            "moves": lines,
            "finished": self.finished(),
            "final": (0..players).map(|s| json!({
                "faction": self.state.players[s].faction.to_string(),
                "vp": scores[s],
            })).collect::<Vec<_>>(),
        })
    }

    /// The state in its saved form: resources labelled by code ([`crate::game::saved`]).
    fn save_state(&self) -> Result<Value, String> {
        crate::game::saved::to_saved(&self.content, &self.state)
    }

    /// Reads the saved form, or a state saved before resources were labelled.
    fn restore(content: Arc<Content>, state: Value) -> Result<Game, String> {
        let state = crate::game::saved::from_saved(&content, state)
            .map_err(|e| format!("not a saved game: {e}"))?;
        Game::load(content, state)
    }

    /// The open decision, else the first queued.
    fn decision(&self) -> Value {
        let d = self.state.open.as_ref().or(self.state.queue.front());
        serde_json::to_value(d).unwrap_or(Value::Null)
    }

    fn action_data(&self, part: &Command) -> Value {
        serde_json::to_value(part).unwrap_or(Value::Null)
    }

    fn setup_json(
        content: &Arc<Content>,
        players: usize,
        setup: Option<&Setup>,
        rng: &mut Rng,
    ) -> Option<Value> {
        let setup = match setup {
            Some(s) => s.clone(),
            None => Setup::random(content, players, rng).ok()?,
        };
        serde_json::to_value(setup).ok()
    }

    fn kinds() -> Option<&'static KindTable> {
        Some(&crate::content::KINDS)
    }

    fn provenance(content: &Content) -> Option<&Provenance> {
        Some(&content.provenance)
    }

    /// Factions, tiles, boosters, tokens and board actions, from their effects.
    fn describe_item(content: &Content, kind: &KindSpec, id: Option<&str>) -> Option<String> {
        describe::item(content, kind, id)
    }

    // Replay, moves, trace and play ([`crate::commands`]).

    /// A record ([`crate::record::Record`]): the setup it describes, then its moves after the
    /// setup line.
    fn open_log(content: &Arc<Content>, log: &Value) -> Result<(Game, Vec<String>), String> {
        commands::open_log(content, log)
    }

    /// A move line of the notation (one seat's parts).
    fn play_line(&mut self, line: &str) -> Result<(), String> {
        self.apply_text(line).map_err(|e| e.0)
    }

    /// The seat's faction (`p1` before it has one).
    fn seat_name(&self, seat: usize) -> String {
        Game::seat_name(self, seat)
    }

    /// Resources, power areas, the booster held and what it does.
    fn seat_status(&self, seat: usize) -> String {
        Game::seat_status(self, seat)
    }

    fn board_status(&self) -> Option<String> {
        Some(format!("round {}", self.state.round))
    }

    /// What the tile, booster, token or board action a part names does.
    fn action_note(&self, part: &Command) -> Option<String> {
        commands::part_note(self, part)
    }

    /// The platform's variant for its records, the variants a record names, its faction
    /// boards and auction mode, its stored per-seat boards.
    fn log_variants(log: &Value, available: &[String]) -> Result<LogVariants, String> {
        commands::log_variants(log, available)
    }

    /// Resources, power areas, research, buildings and tiles ([`SeatDelta`]).
    fn seat_change(&self, before: &Game, seat: usize) -> Option<Change> {
        let d = SeatDelta::between(
            &self.content,
            before.state.players.get(seat)?,
            self.state.players.get(seat)?,
        );
        (!d.is_empty()).then(|| Change {
            text: d.to_string(),
            data: d.to_json(),
        })
    }

    /// [`Game::part_delta`]: hooks run as in play.
    fn explain_action(&self, part: &Command) -> Option<Result<Change, String>> {
        self.deciding_seat()?;
        Some(
            self.part_delta(part)
                .map(|d| Change {
                    text: d.to_string(),
                    data: d.to_json(),
                })
                .map_err(|e| e.0),
        )
    }

    fn note_script_calls(&mut self) {
        self.record_hook_calls();
    }

    /// The hook calls, each run of identical calls as one with its count.
    fn take_script_calls(&mut self) -> ScriptCalls {
        commands::script_calls(self, &self.take_hook_calls())
    }

    /// The hook errors met, with their counts.
    fn notices(&self) -> Vec<String> {
        self.hook_error_lines()
    }

    /// Conversions and burning power: `convert`.
    fn action_group(&self, part: &Command) -> Option<ActionGroup> {
        commands::action_group(part)
    }

    // Pictures: render and view

    /// A turn's actor (`by <faction>`) then each part as written (`build m 4B2`); the setup
    /// line's players and seed.
    fn line_parts(&self, line: &str) -> Vec<String> {
        match crate::notation::parse_line(line) {
            Ok(crate::notation::MoveLine::Turn { actor, parts }) => {
                std::iter::once(format!("by {actor}"))
                    .chain(parts.iter().map(|p| p.to_string()))
                    .collect()
            }
            Ok(crate::notation::MoveLine::Init { players, seed }) => {
                vec![format!("{players} players"), format!("seed {seed}")]
            }
            Err(e) => vec![format!("(not parsed: {e})")],
        }
    }
}

impl Watcher<Game> for Watch {
    fn before(&mut self, game: &Game, seat: usize, part: &Command) -> Result<(), String> {
        Watch::before(self, game, seat, part)
    }

    fn after(&mut self, game: &Game) -> Result<(), String> {
        Watch::after(self, game)
    }
}
