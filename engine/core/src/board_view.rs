//! A neutral picture of a game's board, as plain data a game supplies
//! ([`crate::game_module::GameModule::board_view`]) and the command line draws: hex spaces
//! with fills and labels, pieces on them, tracks, and panels of text. It names nothing of any
//! game: what a fill or a label means is the game's to say.

use crate::hex::Hex;

/// Everything a board picture shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardPicture {
    /// One line saying which state this is.
    pub caption: String,
    /// Each seat's colour (`#rrggbb`), by seat.
    pub seat_colours: Vec<String>,
    /// Each seat's name as the picture's legends write it, by seat.
    pub seat_names: Vec<String>,
    /// The spaces of the map, each drawn as a hex.
    pub spaces: Vec<SpaceMark>,
    /// What stands on spaces, drawn over them.
    pub pieces: Vec<PieceMark>,
    /// Tracks: a value between its least and greatest.
    pub tracks: Vec<Track>,
    /// Panels of text lines (one per seat, and shared ones).
    pub panels: Vec<Panel>,
}

/// One space of the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpaceMark {
    /// Where (axial coordinates).
    pub hex: Hex,
    /// Fill colour (`#rrggbb`).
    pub fill: String,
    /// A short label drawn at its top (its id).
    pub label: String,
    /// A short note drawn below the centre (what it gives), or empty.
    pub note: String,
    /// Drawn with a dashed outline (a space set apart: reserved, off the map).
    pub dashed: bool,
}

/// Something standing on a space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceMark {
    /// Where.
    pub hex: Hex,
    /// Fill colour.
    pub fill: String,
    /// The owner's seat, drawn as a ring in its colour; none for pieces nobody owns.
    pub seat: Option<usize>,
    /// A short label drawn on it.
    pub label: String,
}

/// A track: a value between `least` and `greatest`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Track {
    /// Its name.
    pub name: String,
    /// Where it stands.
    pub value: i64,
    /// Its least value.
    pub least: i64,
    /// Its greatest value (its goal).
    pub greatest: i64,
}

/// A panel of text: a title and lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panel {
    /// Title.
    pub title: String,
    /// The seat it belongs to (its colour marks the panel), if any.
    pub seat: Option<usize>,
    /// Lines of text.
    pub lines: Vec<String>,
}
