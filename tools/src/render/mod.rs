//! Pictures of a board as SVG: Gaia Project's [`view::BoardView`] ([`draw`]) and any game's
//! neutral picture ([`neutral::draw`]). A picture is a list of named layers (map, pieces, one
//! per seat, shared panels, …), so the replay viewer can store each distinct layer once and
//! rebuild any move's picture from them.

pub mod map;
pub mod neutral;
pub mod panels;
pub mod svg;
pub mod view;

use svg::Tag;
use view::BoardView;

/// A drawn board: its size and its layers in drawing order.
pub struct Picture {
    /// Width in pixels.
    pub width: f64,
    /// Height in pixels.
    pub height: f64,
    /// `(name, SVG fragment)` in drawing order.
    pub layers: Vec<(String, String)>,
    /// Each seat's name and colour, by seat (the replay page's VP chart).
    pub seats: Vec<(String, String)>,
}

impl Picture {
    /// The opening `<svg …>` element (with its white background).
    pub fn head(&self) -> String {
        svg::document_start(self.width, self.height)
    }

    /// The whole SVG document.
    pub fn svg(&self) -> String {
        let mut s = self.head();
        for (_, l) in &self.layers {
            s.push_str(l);
        }
        s.push_str("</svg>\n");
        s
    }
}

const GAP: f64 = 12.0;
const TOP: f64 = 34.0;
const COLUMN_W: f64 = 340.0;

/// The caption above a board, as its layer (every game's picture opens with it).
pub fn caption_layer(caption: &str) -> (String, String) {
    (
        "caption".to_string(),
        Tag::new("text")
            .attr("class", "caption")
            .attr("x", GAP)
            .attr("y", 22.0)
            .attr("font-size", 15)
            .attr("font-weight", "bold")
            .attr("fill", "#111111")
            .text("text", caption),
    )
}

/// Draws a board view.
pub fn draw(view: &BoardView) -> Picture {
    let frame = map::Frame::around(view, 0.0, TOP);
    let right_x = frame.width + GAP;
    let width = (right_x + panels::PANEL_W + GAP).max(3.0 * COLUMN_W + GAP);
    let mut layers = vec![caption_layer(&view.caption)];
    layers.push(("map".to_string(), map::spaces(view, &frame)));
    layers.push(("federations".to_string(), map::federations(view, &frame)));
    layers.push(("pieces".to_string(), map::pieces(view, &frame)));
    let mut right_y = TOP;
    for (i, s) in view.seats.iter().enumerate() {
        layers.push((
            format!("seat{i}"),
            panels::seat_panel(i, s, right_x, right_y),
        ));
        right_y += panels::PANEL_H + 8.0;
    }
    let legend_y = TOP + frame.height + 4.0;
    let (legend, legend_h) = panels::legend(view, GAP, legend_y, frame.width.max(COLUMN_W));
    // The shared tiles below everything else, each list in the shortest of three columns.
    let top = (legend_y + legend_h).max(right_y) + GAP;
    let column_w = (width - GAP) / 3.0;
    let mut heights = [0.0f64; 3];
    let mut supply = String::new();
    let mut finals = view.finals.clone();
    finals.extend(view.fed_tokens.iter().cloned());
    let lists: [(&str, &str, &[view::TileView]); 4] = [
        ("Tech board", "techs", &view.techs),
        ("Round scoring", "rounds", &view.rounds),
        ("Boosters available", "boosters", &view.boosters),
        ("Final scoring · federation tokens", "finals", &finals),
    ];
    for (title, class, tiles) in lists {
        let col = (0..3)
            .min_by(|a, b| heights[*a].total_cmp(&heights[*b]))
            .unwrap_or(0);
        let x = GAP + col as f64 * column_w;
        let (s, h) = panels::tile_list(title, class, tiles, x, top + heights[col]);
        supply.push_str(&s);
        heights[col] += h + GAP;
    }
    let bottom = top + heights.iter().copied().fold(0.0, f64::max);
    layers.push(("supply".to_string(), supply));
    layers.push(("legend".to_string(), legend));
    Picture {
        width,
        height: bottom,
        layers,
        seats: view
            .seats
            .iter()
            .map(|s| (s.name.clone(), s.colour.clone()))
            .collect(),
    }
}
