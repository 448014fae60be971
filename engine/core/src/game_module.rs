//! What the command line needs from a game, so that each command is written once for every
//! game: load and check its content, its schemas, start a game for a study, say who plays a
//! seat and where its points came from, and write the game down as its log lines. A game
//! crate implements [`GameModule`] for its game type (which is already [`Playable`] and
//! [`Evaluate`]); what only one game has (recorded games of one platform, its board drawing)
//! stays with that game.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use crate::board_view::BoardPicture;
use crate::content::kinds::{KindSpec, KindTable};
use crate::content::provenance::Provenance;
use crate::diagnostics::Diagnostic;
use crate::files::{ContentFiles, OverlaySource};
use crate::play_api::{Evaluate, Playable};
use crate::rng::Rng;

/// A game the command line can run. `Self` is the game in play.
pub trait GameModule: Evaluate<Action: Send> + Send + Sized + 'static {
    /// The game's name as the rules file's `game:` and `--game` write it.
    const ID: &'static str;
    /// The folder holding the game's base files in a content folder and in the built-in copy
    /// (a content folder without it holds them itself).
    const CONTENT_DIR: &'static str;
    /// The folder of the game's named variants (`--variant NAME`) in a content folder and in
    /// the built-in copy; a content folder that holds the base files itself keeps them in its
    /// own `variants/`.
    const VARIANTS_DIR: &'static str = "variants";
    /// Loaded and checked content.
    type Content: Send + Sync + 'static;
    /// How one game of a study is set up when it is not drawn from its seed (a recorded
    /// setup); games without such setups use `()`.
    type Setup: Send + Sync + 'static;
    /// Writes the actions played as the game's log lines ([`Scribe`]).
    type Scribe: Scribe<Self> + Default;

    /// Loads content from `files` and stacks `overlays` on it in order; every problem found
    /// on failure.
    fn load(
        files: &dyn ContentFiles,
        overlays: &[OverlaySource],
    ) -> Result<Self::Content, Vec<Diagnostic>>;

    /// One line saying what the content holds (`validate` prints it).
    fn summary(content: &Self::Content) -> String;

    /// Things worth a warning in content that loads, each with where it is (`file:line:col:`
    /// first when known).
    fn warnings(_content: &Self::Content) -> Vec<String> {
        Vec::new()
    }

    /// The JSON Schemas of the content files, by file name.
    fn schemas() -> Vec<(&'static str, Value)>;

    /// The schemas with id fields restricted to the ids of `content`; `None` when the game
    /// does not offer them.
    fn schemas_with_ids(_content: &Self::Content) -> Option<Vec<(&'static str, Value)>> {
        None
    }

    /// The identities a seat can be given: the sides of the game, each with its own powers.
    fn identities(content: &Self::Content) -> Vec<String>;

    /// Refuses a rotation of `list` over `players` seats that could not play one game
    /// together (two seats of one identity, or a rule of the game's own).
    fn check_lineup(
        _content: &Self::Content,
        list: &[String],
        players: usize,
    ) -> Result<(), String> {
        each_pair_seated(list, players, |a, b| {
            if a == b {
                Err(format!("{a} would play two seats of one game"))
            } else {
                Ok(())
            }
        })
    }

    /// The first log line of a study's game `index` (the game's setup line), if it has one.
    fn first_line(_players: usize, _study_seed: u64, _index: u64) -> Option<String> {
        None
    }

    /// Starts one game of a study as `how` says, drawing what it leaves open with `rng`. The
    /// choices played are noted with `scribe` into `lines`. The game returned waits for the
    /// bots.
    fn start(
        content: &Arc<Self::Content>,
        how: Start<'_, Self::Setup>,
        rng: &mut Rng,
        scribe: &mut Self::Scribe,
        lines: &mut Vec<String>,
    ) -> Result<Self, String>;

    /// The identity `seat` plays as.
    fn identity(&self, seat: usize) -> String;

    /// The seat's points by source (they add up to its score).
    fn vp_sources(&self, seat: usize) -> BTreeMap<String, i32>;

    /// The seats that won a finished game (a tie shares it); none before the end.
    fn winners(&self) -> Vec<usize>;

    /// Follows a study's game as it is played, to say at its end which items (the pieces of
    /// the game a seat can take or score) were on offer, which seats took them and the VP they brought
    /// ([`ItemLedger`]); games without such items keep none.
    fn item_ledger(&self) -> Box<dyn ItemLedger<Self>> {
        Box::new(NoItems)
    }

    /// Rules a correct game never breaks, checked while a study plays ([`Watcher`]).
    fn watcher(&self) -> Box<dyn Watcher<Self>> {
        Box::new(NoWatch)
    }

    /// The game as a log `replay` reads: its `lines`, with `stack` (the content it was
    /// played on, as the log stores it) and the scores.
    fn log(&self, lines: &[String], stack: &Value) -> Value;

    /// The game's state as a saved game holds it (`replay --save-state`, `play --save-state`);
    /// an error saying why when it cannot be saved (by default: the game does not offer saved
    /// games).
    fn save_state(&self) -> Result<Value, String> {
        Err(format!("{} does not offer saved games", Self::ID))
    }

    /// A game from a saved state on `content`; a state that does not fit the content (or is
    /// not one) is refused, saying why.
    fn restore(_content: Arc<Self::Content>, _state: Value) -> Result<Self, String> {
        Err(format!("{} does not offer saved games", Self::ID))
    }

    /// What the seat to decide is being asked, as data (`moves --json`); null by default.
    fn decision(&self) -> Value {
        Value::Null
    }

    /// An action as data (`moves --json`); its notation by default.
    fn action_data(&self, action: &Self::Action) -> Value {
        Value::String(action.to_string())
    }

    /// Reads one action in the game's notation: by default, the legal action written so.
    fn parse_action(&self, text: &str) -> Result<Self::Action, String> {
        let text = text.trim();
        self.legal()
            .into_iter()
            .find(|a| a.to_string() == text)
            .ok_or_else(|| format!("`{text}` is not a legal action here"))
    }

    /// The setup of a study's game as a failed game's log stores it, if it can say.
    fn setup_json(
        _content: &Arc<Self::Content>,
        _players: usize,
        _setup: Option<&Self::Setup>,
        _rng: &mut Rng,
    ) -> Option<Value> {
        None
    }

    // Logs, seats and listings for `replay`, `moves`, `trace` and `play` written once.

    /// Starts replaying a log ([`GameModule::log`]'s form): the game before its first move
    /// and the moves to play, each a line of the game's notation. A log of another game, or
    /// one that is not a log, is refused saying why.
    fn open_log(
        _content: &Arc<Self::Content>,
        _log: &Value,
    ) -> Result<(Self, Vec<String>), String> {
        Err(format!("{} does not replay logs", Self::ID))
    }

    /// Plays one line of a log; on error the game is unchanged. By default the line is one
    /// action ([`GameModule::parse_action`]).
    fn play_line(&mut self, line: &str) -> Result<(), String> {
        let action = self.parse_action(line)?;
        self.play(&action)
    }

    /// How the output names a seat (its color, its side).
    fn seat_name(&self, seat: usize) -> String {
        format!("seat {seat}")
    }

    /// A seat's public holdings as numbers by name (`trace` prints how they change); none by
    /// default.
    fn seat_tally(&self, _seat: usize) -> BTreeMap<String, i64> {
        BTreeMap::new()
    }

    /// A seat's public holdings in one line (`play` prints one per seat); its score by
    /// default.
    fn seat_status(&self, seat: usize) -> String {
        let score = self.score().get(seat).copied().unwrap_or(0);
        format!("{score} VP")
    }

    /// What only `seat` sees, a line each (`play` prints them for the person's seat): its
    /// hand, say; nothing by default.
    fn seat_private(&self, _seat: usize) -> Vec<String> {
        Vec::new()
    }

    /// The common state of the game in one line (`play` prints it), if the game says one.
    fn board_status(&self) -> Option<String> {
        None
    }

    /// A note on an action for a person reading the listing (what a pick picks from), if any.
    fn action_note(&self, _action: &Self::Action) -> Option<String> {
        None
    }

    /// The board as a neutral picture ([`BoardPicture`]) under `caption`, for `render`;
    /// `None` when the game does not draw one.
    fn board_view(&self, _caption: &str) -> Option<BoardPicture> {
        None
    }

    // Looking into content (`explain`, `diff`, `init`), for games whose content loads through
    // the core's pipeline ([`crate::content`]).

    /// The game's content kinds; `None` when its content does not load by a kinds table
    /// (then it offers no `explain` or `diff`).
    fn kinds() -> Option<&'static KindTable> {
        None
    }

    /// Where every value of `content` came from (base files, an overlay's lines).
    fn provenance(_content: &Self::Content) -> Option<&Provenance> {
        None
    }

    /// What one item does, in words generated from its effects (`explain` shows it);
    /// `None` when the game does not describe it.
    fn describe_item(
        _content: &Self::Content,
        _kind: &KindSpec,
        _id: Option<&str>,
    ) -> Option<String> {
        None
    }

    // Replay, moves, trace and play: what `replay`, `moves`, `trace` and `play` (written once
    // for every game) ask of a game beyond the above.

    /// The variants a log is played with besides the command's own ([`LogVariants`]), read
    /// from the log; `available` are the variant names the content source holds. A log that
    /// asks for what the source lacks is refused saying why. None by default.
    fn log_variants(_log: &Value, _available: &[String]) -> Result<LogVariants, String> {
        Ok(LogVariants::default())
    }

    /// How `seat`'s holdings differ from those it had in `before` (an earlier state of this
    /// game), in words and as data (`trace`, `moves --explain`); `None` when nothing changed.
    /// By default the names of [`GameModule::seat_tally`] whose number changed, with the
    /// difference: `mc -3, tr +1` and `{"mc": -3, "tr": 1}`.
    fn seat_change(&self, before: &Self, seat: usize) -> Option<Change> {
        tally_change(&before.seat_tally(seat), &self.seat_tally(seat))
    }

    /// What `action` would change for the seat deciding now, worked out by playing it on a
    /// copy ([`GameModule::seat_change`], `no change` when none); `Err` with the game's
    /// refusal, `None` when no seat decides.
    fn explain_action(&self, action: &Self::Action) -> Option<Result<Change, String>> {
        let seat = self.to_decide()?;
        let copy = match self.clone().played(action) {
            Ok(copy) => copy,
            Err(e) => return Some(Err(e)),
        };
        Some(Ok(copy.seat_change(self, seat).unwrap_or_else(|| Change {
            text: "no change".into(),
            data: Value::Object(Default::default()),
        })))
    }

    /// Starts noting the calls the game makes to its content's scripts (`trace`); games
    /// without scripts note none.
    fn note_script_calls(&mut self) {}

    /// The script calls made since noting began or since the last take, and goes on noting.
    fn take_script_calls(&mut self) -> ScriptCalls {
        ScriptCalls::default()
    }

    /// Problems a person should be told about where actions are listed (a script that failed
    /// and so kept actions off the list), a line each; none by default.
    fn notices(&self) -> Vec<String> {
        Vec::new()
    }

    /// The family `action` belongs to when `play` lists many of one family as one entry (a
    /// game's free conversions), opened by its word; `None` (listed alone) by default.
    fn action_group(&self, _action: &Self::Action) -> Option<ActionGroup> {
        None
    }

    // Pictures: render and view

    /// The parts of a log line as the replay page lists them (`view`), in the order played;
    /// the whole line by default.
    fn line_parts(&self, line: &str) -> Vec<String> {
        vec![line.to_owned()]
    }
}

/// The variants a log is played with besides the command's `--variant`s
/// ([`GameModule::log_variants`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogVariants {
    /// Applied before the `--variant`s when the log does not carry its content stack (a
    /// recording platform's own rules), by name.
    pub before: Vec<String>,
    /// Applied after them, by name (what the log's options call for).
    pub after: Vec<String>,
    /// Overlays the log holds written out, applied last: each a name and the overlay's text.
    /// A game played on one cannot be saved (its stack would not find the overlay again).
    pub held: Vec<(String, String)>,
}

/// A change in words and as data ([`GameModule::seat_change`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// `c -6, o -2, m -1, ts +1`.
    pub text: String,
    /// The same as data.
    pub data: Value,
}

/// The names of two tallies whose number differs, with the difference, as a [`Change`];
/// `None` when none differs.
pub fn tally_change(
    before: &BTreeMap<String, i64>,
    after: &BTreeMap<String, i64>,
) -> Option<Change> {
    let mut names: Vec<&String> = before.keys().chain(after.keys()).collect();
    names.sort();
    names.dedup();
    let changed: Vec<(&String, i64)> = names
        .into_iter()
        .filter_map(|k| {
            let a = before.get(k).copied().unwrap_or(0);
            let b = after.get(k).copied().unwrap_or(0);
            let d = b.saturating_sub(a);
            (d != 0).then_some((k, d))
        })
        .collect();
    if changed.is_empty() {
        return None;
    }
    let text: Vec<String> = changed.iter().map(|(k, d)| format!("{k} {d:+}")).collect();
    let data: serde_json::Map<String, Value> = changed
        .iter()
        .map(|(k, d)| ((*k).clone(), Value::from(*d)))
        .collect();
    Some(Change {
        text: text.join(", "),
        data: Value::Object(data),
    })
}

/// Calls a game made to its content's scripts ([`GameModule::take_script_calls`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScriptCalls {
    /// Each call (or run of identical calls) in words and as data, in order.
    pub calls: Vec<(String, Value)>,
    /// Calls made beyond those kept.
    pub left_out: u64,
}

/// A family of actions `play` lists as one entry ([`GameModule::action_group`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionGroup {
    /// The word that opens it (`convert`).
    pub word: &'static str,
    /// One of its actions, and many (`conversion`, `conversions`).
    pub one: &'static str,
    /// The plural.
    pub many: &'static str,
    /// What its actions do, in a few words.
    pub about: &'static str,
}

/// Calls `check` on every two identities that one game seats together when `list` is
/// rotated over `players` seats (game `i` seats `list[i..]`, wrapping), stopping at the first
/// refusal.
pub fn each_pair_seated(
    list: &[String],
    players: usize,
    mut check: impl FnMut(&str, &str) -> Result<(), String>,
) -> Result<(), String> {
    for start in 0..list.len() {
        let seated: Vec<&str> = (0..players)
            .map(|s| list[(start + s) % list.len()].as_str())
            .collect();
        for (i, a) in seated.iter().enumerate() {
            for b in &seated[i + 1..] {
                check(a, b)?;
            }
        }
    }
    Ok(())
}

/// How one game of a study starts.
#[derive(Debug, Clone, Copy)]
pub struct Start<'a, S> {
    /// Seats.
    pub players: usize,
    /// A recorded setup, else one drawn from the game's seed.
    pub setup: Option<&'a S>,
    /// Each seat's identity, else each chosen from the game's seed.
    pub identities: Option<&'a [String]>,
    /// Operations the game's script hooks may run in all.
    pub hook_budget: u64,
}

/// Turns the actions of a game into its log lines as they are played.
pub trait Scribe<G: Playable> {
    /// Notes `action`, about to be played in `game`, adding any line it closes to `lines`.
    fn note(&mut self, game: &G, action: &G::Action, lines: &mut Vec<String>);
}

/// Checks invariants of a game as it is played: a rules bug would break one.
pub trait Watcher<G: Playable> {
    /// Before `seat` plays `action` in `game`.
    fn before(&mut self, game: &G, seat: usize, action: &G::Action) -> Result<(), String>;
    /// After an action (and at the end).
    fn after(&mut self, game: &G) -> Result<(), String>;
}

/// One item of a game (a piece a seat can take or score) as one seat met it in one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemUse {
    /// The kind of item, as a study groups them.
    pub kind: String,
    /// Its id in the content.
    pub id: String,
    /// Times the seat took it (or scored it) in the game; 0 when it was only on offer.
    pub taken: u32,
    /// VP it brought the seat.
    pub vp: i32,
}

/// Notes, as a game is played, which items are on offer and who takes them.
pub trait ItemLedger<G>: Send {
    /// Sees the game before each part and once at the end.
    fn see(&mut self, game: &G);
    /// Every item the game offered, as `seat` met it (taken or not).
    fn items(&self, game: &G, seat: usize) -> Vec<ItemUse>;
}

/// A ledger of a game without items.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoItems;

impl<G> ItemLedger<G> for NoItems {
    fn see(&mut self, _: &G) {}
    fn items(&self, _: &G, _: usize) -> Vec<ItemUse> {
        Vec::new()
    }
}

/// A watcher that checks nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoWatch;

impl<G: Playable> Watcher<G> for NoWatch {
    fn before(&mut self, _: &G, _: usize, _: &G::Action) -> Result<(), String> {
        Ok(())
    }
    fn after(&mut self, _: &G) -> Result<(), String> {
        Ok(())
    }
}

/// A scribe that writes one line per action, as the action prints itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct LinePerAction;

impl<G: Playable> Scribe<G> for LinePerAction {
    fn note(&mut self, _: &G, action: &G::Action, lines: &mut Vec<String>) {
        lines.push(action.to_string());
    }
}
