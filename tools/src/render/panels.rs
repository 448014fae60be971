//! Beside the map: a panel per seat, the shared tiles (round scoring, boosters, tech board,
//! final scoring, federation tokens) and the legend.

use super::map::{piece, S};
use super::svg::{ink_on, rect, shade, text, Tag};
use super::view::{BoardView, Piece, SeatView, Shape, TileView};

/// Width of a seat panel.
pub const PANEL_W: f64 = 372.0;
/// Height of a seat panel.
pub const PANEL_H: f64 = 150.0;
const LINE: f64 = 14.0;
const DIM: &str = "#555b66";

/// Wraps words into lines of at most `width` characters.
fn wrap(words: &[String], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for w in words {
        if !cur.is_empty() && cur.len() + 3 + w.len() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push_str(" · ");
        }
        cur.push_str(w);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// One seat's panel with its top left at `(x, y)`.
pub fn seat_panel(seat: usize, s: &SeatView, x: f64, y: f64) -> String {
    let mut out = Tag::new("g")
        .attr("class", "seat")
        .attr("data-seat", seat)
        .attr("data-vp", s.vp)
        .open();
    out.push_str(
        &Tag::new("rect")
            .attr("x", x)
            .attr("y", y)
            .attr("width", PANEL_W)
            .attr("height", PANEL_H)
            .attr("rx", 6)
            .attr("fill", shade(&s.colour, 1.85))
            .attr("stroke", if s.to_move { "#111111" } else { "#b8bec8" })
            .attr("stroke-width", if s.to_move { 2.5 } else { 1.0 })
            .close(),
    );
    out.push_str(
        &Tag::new("rect")
            .attr("x", x)
            .attr("y", y)
            .attr("width", PANEL_W)
            .attr("height", 24)
            .attr("rx", 6)
            .attr("fill", s.colour.as_str())
            .attr("stroke", shade(&s.colour, 0.6))
            .close(),
    );
    let ink = ink_on(&s.colour);
    let mut status = String::new();
    if s.to_move {
        status.push_str("▶ to decide");
    } else if s.passed {
        status.push_str("passed");
    }
    out.push_str(
        &Tag::new("text")
            .attr("x", x + 8.0)
            .attr("y", y + 17.0)
            .attr("font-size", 14)
            .attr("font-weight", "bold")
            .attr("fill", ink)
            .text("text", &s.name),
    );
    out.push_str(&text(x + 190.0, y + 16.0, 11.0, ink, "middle", &status));
    out.push_str(
        &Tag::new("text")
            .attr("class", "vp")
            .attr("x", x + PANEL_W - 8.0)
            .attr("y", y + 18.0)
            .attr("font-size", 15)
            .attr("font-weight", "bold")
            .attr("fill", ink)
            .attr("text-anchor", "end")
            .text("text", &format!("{} VP", s.vp)),
    );
    // Resources.
    let mut res: Vec<String> = s
        .resources
        .iter()
        .map(|(c, n)| format!("{c} {n}"))
        .collect();
    res.push(format!("gf {}", s.gaiaformers));
    out.push_str(
        &Tag::new("text")
            .attr("class", "resources")
            .attr("x", x + 8.0)
            .attr("y", y + 42.0)
            .attr("font-size", 12.5)
            .attr("fill", "#111111")
            .text("text", &res.join("   ")),
    );
    // Power areas.
    let labels = ["I", "II", "III", "G"];
    for (i, n) in s.power.iter().enumerate() {
        let cx = x + 20.0 + i as f64 * 40.0;
        let cy = y + 66.0;
        let special = s
            .special
            .as_ref()
            .is_some_and(|(_, a)| (a == "Gaia" && i == 3) || (i < 3 && a == labels[i]));
        out.push_str(
            &Tag::new("circle")
                .attr("cx", cx)
                .attr("cy", cy)
                .attr("r", 13)
                .attr("fill", if i == 3 { "#cfe9cf" } else { "#ffffff" })
                .attr("stroke", if special { "#b0127a" } else { "#7a808a" })
                .attr("stroke-width", if special { 2.5 } else { 1.0 })
                .close(),
        );
        let shown = if special {
            format!("{n}+1")
        } else {
            n.to_string()
        };
        out.push_str(&text(cx, cy + 4.0, 11.0, "#111111", "middle", &shown));
        out.push_str(&text(cx, cy - 15.5, 7.5, DIM, "middle", labels[i]));
    }
    if let Some((id, area)) = &s.special {
        out.push_str(&text(
            x + 176.0,
            y + 70.0,
            10.0,
            "#b0127a",
            "start",
            &format!("{id}: {area}"),
        ));
    }
    // Research: a column of boxes per track.
    for (i, (track, level, top)) in s.research.iter().enumerate() {
        let bx = x + 8.0 + i as f64 * 60.0;
        let by = y + 88.0;
        out.push_str(&text(
            bx,
            by + 8.0,
            9.0,
            "#111111",
            "start",
            &format!("{track} {level}"),
        ));
        for l in 1..=*top {
            let filled = l <= *level;
            out.push_str(&rect(
                bx + f64::from(l - 1) * 10.0,
                by + 11.0,
                8.5,
                6.0,
                if filled { s.colour.as_str() } else { "#ffffff" },
                "#7a808a",
            ));
        }
    }
    // Tiles owned.
    let lines = wrap(&s.tiles, 58);
    for (i, l) in lines.iter().take(2).enumerate() {
        out.push_str(&text(
            x + 8.0,
            y + 122.0 + i as f64 * 13.0,
            10.5,
            "#111111",
            "start",
            l,
        ));
    }
    if s.tiles.is_empty() {
        out.push_str(&text(x + 8.0, y + 122.0, 10.5, DIM, "start", "no tiles"));
    }
    out.push_str("</g>\n");
    out
}

/// A titled list of tiles with its top left at `(x, y)`; returns the drawing and its height.
pub fn tile_list(title: &str, class: &str, tiles: &[TileView], x: f64, y: f64) -> (String, f64) {
    let mut out = Tag::new("g").attr("class", class).open();
    out.push_str(
        &Tag::new("text")
            .attr("x", x)
            .attr("y", y + 12.0)
            .attr("font-size", 12)
            .attr("font-weight", "bold")
            .attr("fill", "#111111")
            .text("text", title),
    );
    for (i, t) in tiles.iter().enumerate() {
        let ty = y + 18.0 + i as f64 * LINE;
        if t.current {
            out.push_str(
                &Tag::new("rect")
                    .attr("x", x - 3.0)
                    .attr("y", ty)
                    .attr("width", 328)
                    .attr("height", LINE)
                    .attr("fill", "#ffe9a8")
                    .close(),
            );
        }
        let note = if t.note.is_empty() {
            String::new()
        } else {
            format!(" ({})", t.note)
        };
        out.push_str(&text(
            x,
            ty + 10.5,
            10.0,
            "#111111",
            "start",
            &format!("{}{note}: {}", t.id, t.name),
        ));
    }
    out.push_str("</g>\n");
    (out, 22.0 + tiles.len() as f64 * LINE)
}

/// The legend: planet colours and piece shapes, from `(x, y)`, `width` wide; returns the
/// drawing and its height.
pub fn legend(view: &BoardView, x: f64, y: f64, width: f64) -> (String, f64) {
    let mut out = Tag::new("g").attr("class", "legend").open();
    out.push_str(
        &Tag::new("text")
            .attr("x", x)
            .attr("y", y + 12.0)
            .attr("font-size", 12)
            .attr("font-weight", "bold")
            .attr("fill", "#111111")
            .text("text", "Legend"),
    );
    let step = 104.0;
    let per_row = ((width / step).floor() as usize).max(1);
    let mut row_y = y + 30.0;
    for (i, p) in view.planets.iter().enumerate() {
        let cx = x + 8.0 + (i % per_row) as f64 * step;
        let cy = row_y + (i / per_row) as f64 * 22.0;
        out.push_str(
            &Tag::new("circle")
                .attr("cx", cx)
                .attr("cy", cy)
                .attr("r", 7)
                .attr(
                    "fill",
                    if p.empty {
                        "#15213a"
                    } else {
                        p.colour.as_str()
                    },
                )
                .attr("stroke", shade(&p.colour, 0.55))
                .close(),
        );
        out.push_str(&text(
            cx + 11.0,
            cy + 4.0,
            10.0,
            "#111111",
            "start",
            &p.name,
        ));
    }
    row_y += view.planets.len().div_ceil(per_row) as f64 * 22.0 + 4.0;
    let mut items: Vec<(Option<Shape>, String, String)> = view
        .legend
        .iter()
        .map(|(s, m, n)| (Some(*s), m.clone(), n.clone()))
        .collect();
    items.push((None, String::new(), "Satellite".into()));
    items.push((None, String::new(), "Federation".into()));
    let step = 150.0;
    let per_row = ((width / step).floor() as usize).max(1);
    for (i, (shape, mark, name)) in items.iter().enumerate() {
        let cx = x + 8.0 + (i % per_row) as f64 * step;
        let cy = row_y + (i / per_row) as f64 * 24.0;
        let grey = "#c9ced6";
        match shape {
            Some(s) => {
                let p = Piece {
                    hex: orrery_core::hex::Hex::new(0, 0),
                    seat: 0,
                    shape: *s,
                    id: String::new(),
                    mark: mark.clone(),
                };
                let drawn = piece(&p, (cx, cy), 0.8, grey, "#111111", "");
                // Legend samples are not pieces on the map.
                out.push_str(&drawn.replacen("class=\"piece ", "class=\"sample ", 1));
            }
            None if name == "Satellite" => out.push_str(
                &Tag::new("circle")
                    .attr("cx", cx)
                    .attr("cy", cy)
                    .attr("r", S * 0.19)
                    .attr("fill", grey)
                    .attr("stroke", "#111111")
                    .close(),
            ),
            None => out.push_str(
                &Tag::new("line")
                    .attr("x1", cx - 9.0)
                    .attr("y1", cy)
                    .attr("x2", cx + 9.0)
                    .attr("y2", cy)
                    .attr("stroke", grey)
                    .attr("stroke-width", S * 0.42)
                    .attr("stroke-linecap", "round")
                    .close(),
            ),
        }
        out.push_str(&text(cx + 15.0, cy + 4.0, 10.0, "#111111", "start", name));
    }
    let rows = items.len().div_ceil(per_row) as f64;
    let abbr_y = row_y + rows * 24.0;
    let abbr: Vec<String> = view
        .abbreviations
        .iter()
        .map(|(c, n)| format!("{c}: {n}"))
        .collect();
    let lines = wrap(&abbr, (width / 5.6) as usize);
    for (i, l) in lines.iter().enumerate() {
        out.push_str(&text(x, abbr_y + i as f64 * 13.0, 10.0, DIM, "start", l));
    }
    out.push_str("</g>\n");
    (out, abbr_y - y + lines.len() as f64 * 13.0)
}
