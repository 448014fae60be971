//! Recorded games of the public engine: the hidden deal, every input and a state snapshot after
//! each input (read from gzip-compressed JSON).

use std::io::Read;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

/// A recorded game.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// Record id (the file name without extension).
    pub id: String,
    /// Game options.
    pub options: Options,
    /// Seats in order.
    pub players: Vec<Seat>,
    /// Color of generation 1's first player.
    pub first_player: String,
    /// The hidden deal.
    pub setup: Setup,
    /// Every input in processing order.
    pub moves: Vec<Move>,
}

/// Options of a recorded game.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Options {
    /// Player count.
    pub players: usize,
    /// Corporate Era cards in play.
    pub corporate_era: bool,
    /// Draft variant.
    pub draft_variant: bool,
    /// Solo game.
    pub solo: bool,
    /// Beginner flag per seat.
    pub beginner: Vec<bool>,
    /// The option object given to the recording engine (modules by its option names).
    #[serde(default)]
    pub engine: serde_json::Map<String, Value>,
}

impl Options {
    /// The modules and rule options of the game in the content's terms: each module whose
    /// `record_option` the recording engine was given as true, and the draft variant.
    pub fn game_options(&self, rules: &crate::content::Rules) -> crate::content::GameOptions {
        let on = |k: &str| self.engine.get(k).and_then(Value::as_bool).unwrap_or(false);
        crate::content::GameOptions {
            modules: rules
                .modules
                .iter()
                .filter(|m| m.record_option.as_deref().is_some_and(on))
                .map(|m| m.id.clone())
                .collect(),
            draft: self.draft_variant,
        }
    }
}

/// One seat.
#[derive(Debug, Clone, Deserialize)]
pub struct Seat {
    /// Color.
    pub color: String,
    /// Plays the Beginner Corporation.
    pub beginner: bool,
}

/// The hidden deal.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Setup {
    /// The whole shuffled project deck before dealing, top first.
    pub project_deck_initial: Vec<String>,
    /// The shuffled corporation deck, top first.
    pub corporation_deck_initial: Vec<String>,
    /// Deck events during setup.
    pub events: Vec<DeckEvent>,
    /// The project draw pile after setup, top first.
    pub project_deck: Vec<String>,
    /// State after setup.
    pub snapshot: Value,
}

/// One recorded input.
#[derive(Debug, Clone, Deserialize)]
pub struct Move {
    /// Index.
    pub i: usize,
    /// The line.
    pub line: String,
    /// Deck events caused by the input.
    pub events: Vec<DeckEvent>,
    /// State afterwards.
    pub snapshot: Value,
}

/// A draw, discard or reshuffle.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "e", rename_all = "camelCase")]
pub enum DeckEvent {
    /// One card drawn.
    Draw {
        /// The card.
        card: String,
        /// `top` or `bottom`.
        from: String,
        /// For whom.
        #[serde(default)]
        by: Option<String>,
        /// `corporation` for the corporation deck.
        #[serde(default)]
        deck: Option<String>,
    },
    /// Cards discarded.
    Discard {
        /// The cards.
        cards: Vec<String>,
        /// By whom.
        #[serde(default)]
        by: Option<String>,
        /// `corporation` for the corporation deck.
        #[serde(default)]
        deck: Option<String>,
    },
    /// The discard pile became the draw pile, in this order (top first).
    Reshuffle {
        /// New draw pile.
        order: Vec<String>,
    },
}

/// Largest decompressed record accepted (bytes).
const MAX_RECORD: u64 = 64 << 20;

impl Record {
    /// Reads a record from a `.json` or `.json.gz` file.
    ///
    /// # Errors
    /// Unreadable, over-large or malformed files.
    pub fn load(path: &Path) -> Result<Record, String> {
        // Only a plain file is opened: a FIFO or a device could block the reader forever.
        let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if !meta.is_file() {
            return Err(format!("{}: not a plain file", path.display()));
        }
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut text = String::new();
        let gz = path.extension().is_some_and(|e| e == "gz");
        let reader: Box<dyn Read> = if gz {
            Box::new(flate2::read::GzDecoder::new(file))
        } else {
            Box::new(file)
        };
        reader
            .take(MAX_RECORD + 1)
            .read_to_string(&mut text)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if text.len() as u64 > MAX_RECORD {
            return Err(format!(
                "{}: larger than {MAX_RECORD} bytes",
                path.display()
            ));
        }
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}
