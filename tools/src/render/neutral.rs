//! Draws a game's neutral board picture ([`BoardPicture`]) as SVG in layers ([`Picture`]):
//! pointy-topped hex spaces with their fills, labels and notes (dashed when set apart), pieces
//! as discs ringed in their owner's colour, tracks as bars, and panels of text (long lines
//! wrapped). Nothing here knows a game: the game said what each mark shows.

use orrery_core::board_view::{BoardPicture, Panel, Track};
use orrery_core::hex::Hex;

use super::svg::{self, ink_on, points, text, Tag};
use super::Picture;

/// Hex radius in pixels.
const S: f64 = 24.0;
const SQRT3: f64 = 1.732_050_807_568_877_2;
const GAP: f64 = 12.0;
const TOP: f64 = 34.0;
/// The right column (tracks and panels).
const COLUMN_W: f64 = 380.0;
const LINE: f64 = 15.0;
const NO_COLOUR: &str = "#9aa0a8";

/// Pixel centre of a hex before the map's offset: rows of r, q to the right.
fn centre(h: Hex) -> (f64, f64) {
    let (q, r) = (f64::from(h.q), f64::from(h.r));
    (SQRT3 * S * (q + r / 2.0), 1.5 * S * r)
}

fn corners(cx: f64, cy: f64) -> Vec<(f64, f64)> {
    (0..6)
        .map(|k| {
            let a = std::f64::consts::PI / 180.0 * (60.0 * f64::from(k) + 30.0);
            (cx + S * a.cos(), cy + S * a.sin())
        })
        .collect()
}

fn seat_colour(p: &BoardPicture, seat: usize) -> &str {
    p.seat_colours.get(seat).map_or(NO_COLOUR, String::as_str)
}

/// The map's spaces and the pieces on them (two layers), and its width and height, drawn
/// from (`x`, `y`).
fn map(p: &BoardPicture, x: f64, y: f64) -> (String, String, f64, f64) {
    let all: Vec<(f64, f64)> = p.spaces.iter().map(|s| centre(s.hex)).collect();
    let (lo_x, hi_x, lo_y, hi_y) = all.iter().fold(
        (f64::MAX, f64::MIN, f64::MAX, f64::MIN),
        |(a, b, c, d), (px, py)| (a.min(*px), b.max(*px), c.min(*py), d.max(*py)),
    );
    if all.is_empty() {
        return (String::new(), String::new(), 0.0, 0.0);
    }
    let dx = x + S - lo_x;
    let dy = y + S - lo_y;
    let mut out = String::new();
    for s in &p.spaces {
        let (cx, cy) = centre(s.hex);
        let (cx, cy) = (cx + dx, cy + dy);
        let mut hex = Tag::new("polygon")
            .attr("points", points(&corners(cx, cy)))
            .attr("fill", s.fill.as_str())
            .attr("stroke", "#5a4636")
            .attr("stroke-width", 1.2);
        if s.dashed {
            hex = hex.attr("stroke-dasharray", "4 3");
        }
        out.push_str(&hex.close());
        let ink = ink_on(&s.fill);
        out.push_str(&text(cx, cy - 0.45 * S, 8.0, ink, "middle", &s.label));
        if !s.note.is_empty() {
            out.push_str(&text(cx, cy + 0.72 * S, 7.0, ink, "middle", &s.note));
        }
    }
    let mut pieces = String::new();
    for piece in &p.pieces {
        let (cx, cy) = centre(piece.hex);
        let (cx, cy) = (cx + dx, cy + dy);
        let mut disc = Tag::new("circle")
            .attr("cx", cx)
            .attr("cy", cy + 0.05 * S)
            .attr("r", 0.42 * S)
            .attr("fill", piece.fill.as_str());
        disc = match piece.seat {
            Some(seat) => disc
                .attr("stroke", seat_colour(p, seat))
                .attr("stroke-width", 3.5),
            None => disc.attr("stroke", "#ffffff").attr("stroke-width", 1.2),
        };
        pieces.push_str(&disc.close());
        pieces.push_str(&text(
            cx,
            cy + 0.05 * S + 4.0,
            11.0,
            ink_on(&piece.fill),
            "middle",
            &piece.label,
        ));
    }
    (out, pieces, hi_x - lo_x + 2.0 * S, hi_y - lo_y + 2.0 * S)
}

/// A track as a bar: its name, how far it stands between least and greatest, the numbers.
fn track(t: &Track, colour: &str, x: f64, y: f64) -> String {
    const BAR: f64 = 200.0;
    let span = (t.greatest - t.least).max(1) as f64;
    let share = ((t.value - t.least) as f64 / span).clamp(0.0, 1.0);
    let mut out = text(x, y + 11.0, 11.0, "#111111", "start", &t.name);
    out.push_str(&svg::rect(
        x + 110.0,
        y + 2.0,
        BAR,
        11.0,
        "#eeeeee",
        "#999999",
    ));
    out.push_str(&svg::rect(
        x + 110.0,
        y + 2.0,
        BAR * share,
        11.0,
        colour,
        "none",
    ));
    out.push_str(&text(
        x + 110.0 + BAR + 6.0,
        y + 11.0,
        11.0,
        "#111111",
        "start",
        &format!("{} / {}", t.value, t.greatest),
    ));
    out
}

/// Characters of a panel line that fit its width (11-pixel text in a 380-pixel panel).
const LINE_CHARS: usize = 58;

/// A panel's line cut into lines of at most [`LINE_CHARS`] characters, between words; the
/// lines after the first are indented.
fn wrap(line: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in line.split(' ') {
        let len = current.chars().count();
        if len > 0 && len + 1 + word.chars().count() > LINE_CHARS {
            out.push(std::mem::take(&mut current));
            current.push_str("  ");
        } else if len > 0 {
            current.push(' ');
        }
        current.push_str(word);
    }
    out.push(current);
    out
}

/// A panel: a box with a title bar (in its seat's colour) and lines, a seat's in a group
/// naming its seat; its height.
fn panel(p: &BoardPicture, panel: &Panel, x: f64, y: f64) -> (String, f64) {
    let head = panel.seat.map_or("#555555", |s| seat_colour(p, s));
    let lines: Vec<String> = panel.lines.iter().flat_map(|l| wrap(l)).collect();
    let height = LINE * (lines.len() as f64 + 1.0) + 10.0;
    let mut out = match panel.seat {
        Some(seat) => Tag::new("g")
            .attr("class", "seat")
            .attr("data-seat", seat)
            .open(),
        None => Tag::new("g").attr("class", "panel").open(),
    };
    out.push_str(&svg::rect(x, y, COLUMN_W, height, "#fafafa", "#999999"));
    out.push_str(&svg::rect(x, y, COLUMN_W, LINE + 4.0, head, "none"));
    out.push_str(&text(
        x + 6.0,
        y + LINE - 1.0,
        12.0,
        ink_on(head),
        "start",
        &panel.title,
    ));
    for (i, l) in lines.iter().enumerate() {
        out.push_str(&text(
            x + 6.0,
            y + LINE * (i as f64 + 2.0) + 2.0,
            11.0,
            "#111111",
            "start",
            l,
        ));
    }
    out.push_str("</g>");
    (out, height)
}

/// A board picture drawn in layers: the caption, the map's spaces, the pieces on them, the
/// tracks, and each panel (`seatN` for a seat's).
pub fn draw(p: &BoardPicture) -> Picture {
    let (spaces_layer, pieces_layer, map_w, map_h) = map(p, GAP, TOP);
    let right = GAP + map_w + GAP;
    let mut tracks = String::new();
    let mut y = TOP;
    for (i, t) in p.tracks.iter().enumerate() {
        // A track of a seat's (named after it) takes the seat's colour, in seat order after
        // the shared ones.
        let shared = p.tracks.len().saturating_sub(p.seat_colours.len());
        let colour = if i >= shared {
            seat_colour(p, i - shared)
        } else {
            "#c0504d"
        };
        tracks.push_str(&track(t, colour, right, y));
        y += LINE + 4.0;
    }
    y += GAP;
    let mut layers = vec![
        super::caption_layer(&p.caption),
        ("map".to_string(), spaces_layer),
        ("pieces".to_string(), pieces_layer),
        ("tracks".to_string(), tracks),
    ];
    for (k, pl) in p.panels.iter().enumerate() {
        let (s, h) = panel(p, pl, right, y);
        let name = pl
            .seat
            .map_or_else(|| format!("panel{k}"), |s| format!("seat{s}"));
        layers.push((name, s));
        y += h + GAP;
    }
    // The caption may run past the map and the column (about 8.5 pixels a character).
    let caption_w = GAP + 8.5 * p.caption.chars().count() as f64 + GAP;
    Picture {
        width: (right + COLUMN_W + GAP).max(caption_w),
        height: (TOP + map_h).max(y) + GAP,
        layers,
        seats: (0..p.seat_colours.len().max(p.seat_names.len()))
            .map(|s| {
                (
                    p.seat_names
                        .get(s)
                        .cloned()
                        .unwrap_or_else(|| format!("seat {s}")),
                    seat_colour(p, s).to_owned(),
                )
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_panel_lines_wrap_between_words() {
        let long = format!("in play: {}", ["Some Card"; 12].join(", "));
        let lines = wrap(&long);
        assert!(lines.len() > 1, "{lines:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= LINE_CHARS));
        assert!(lines[1..].iter().all(|l| l.starts_with("  ")));
        let back: Vec<&str> = lines.iter().map(|l| l.trim_start()).collect();
        assert_eq!(back.join(" "), long);
        assert_eq!(wrap("short"), ["short"]);
    }
}
