//! The hex map: spaces, planets, sector outlines, federations, satellites and pieces.

use orrery_core::hex::{Hex, DIRECTIONS};

use super::svg::{num, outline_on, points, shade, Tag};
use super::view::{BoardView, Piece, Shape};

/// Hex radius in pixels.
pub const S: f64 = 21.0;
const SQRT3: f64 = 1.732_050_807_568_877_2;
/// Fill of a space.
const SPACE: &str = "#15213a";
/// Thin lines between spaces.
const GRID: &str = "#2e3e5e";
/// Sector outlines.
const SECTOR_LINE: &str = "#9fb3d9";
/// Radius of a planet's disc, as a share of the hex radius.
const DISC: f64 = 0.52;
/// Width of a planet disc's outline.
const DISC_LINE: f64 = 1.2;
/// Font size of a hex's label, drawn in the band below the disc.
const LABEL_SIZE: f64 = 5.0;
/// Baseline of a hex's label below the centre, as a share of the hex radius: the label's
/// capitals (about three quarters of the size tall) stay clear of the disc, its outline and a
/// Gaiaformer's ring, within the hex's bottom edge (at √3/2 of the radius).
const LABEL_BASELINE: f64 = 0.84;
/// Radius of a Gaiaformer's dashed ring, as a share of the hex radius, and its width.
const GAIAFORMER_RING: (f64, f64) = (0.58, 2.4);
/// Outline width of pieces and satellites.
const PIECE_LINE: f64 = 1.6;

/// Pixel centre of a hex, before the map's offset: flat-topped hexes with q pointing up.
pub fn centre(h: Hex) -> (f64, f64) {
    let (q, r) = (f64::from(h.q), f64::from(h.r));
    (1.5 * r * S, -SQRT3 * (q + r / 2.0) * S)
}

/// The six corners of a flat-topped hex of radius `s` around a point.
fn corners(cx: f64, cy: f64, s: f64) -> [(f64, f64); 6] {
    let h = SQRT3 / 2.0 * s;
    [
        (cx + s, cy),
        (cx + s / 2.0, cy + h),
        (cx - s / 2.0, cy + h),
        (cx - s, cy),
        (cx - s / 2.0, cy - h),
        (cx + s / 2.0, cy - h),
    ]
}

/// Where the map lies: its offset and size in pixels.
pub struct Frame {
    /// Added to hex centres.
    pub dx: f64,
    /// Added to hex centres.
    pub dy: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl Frame {
    /// The frame that holds every space with a margin, its top left at `(x, y)`.
    pub fn around(view: &BoardView, x: f64, y: f64) -> Frame {
        let pts: Vec<(f64, f64)> = view.cells.iter().map(|c| centre(c.hex)).collect();
        let min = |f: fn(&(f64, f64)) -> f64| pts.iter().map(f).fold(f64::INFINITY, f64::min);
        let max = |f: fn(&(f64, f64)) -> f64| pts.iter().map(f).fold(f64::NEG_INFINITY, f64::max);
        if pts.is_empty() {
            return Frame {
                dx: x,
                dy: y,
                width: 0.0,
                height: 0.0,
            };
        }
        let m = S + 6.0;
        let (x0, x1, y0, y1) = (min(|p| p.0), max(|p| p.0), min(|p| p.1), max(|p| p.1));
        Frame {
            dx: x + m - x0,
            dy: y + m - y0,
            width: x1 - x0 + 2.0 * m,
            height: y1 - y0 + 2.0 * m,
        }
    }

    fn at(&self, h: Hex) -> (f64, f64) {
        let (x, y) = centre(h);
        (x + self.dx, y + self.dy)
    }
}

/// The spaces, planets and sector outlines (changes only when a planet changes).
pub fn spaces(view: &BoardView, frame: &Frame) -> String {
    let mut out = String::from("<g class=\"map\">\n");
    for c in &view.cells {
        let (x, y) = frame.at(c.hex);
        let style = &view.planets[c.planet.min(view.planets.len().saturating_sub(1))];
        out.push_str(
            &Tag::new("g")
                .attr("class", "hex")
                .attr("data-hex", c.name.as_str())
                .attr("data-planet", style.id.as_str())
                .open(),
        );
        out.push_str(
            &Tag::new("polygon")
                .attr("points", points(&corners(x, y, S)))
                .attr("fill", SPACE)
                .attr("stroke", GRID)
                .attr("stroke-width", 0.8)
                .close(),
        );
        if !style.empty {
            out.push_str(
                &Tag::new("circle")
                    .attr("cx", x)
                    .attr("cy", y)
                    .attr("r", S * DISC)
                    .attr("fill", style.colour.as_str())
                    .attr("stroke", shade(&style.colour, 0.55))
                    .attr("stroke-width", DISC_LINE)
                    .close(),
            );
            if style.ringed {
                out.push_str(
                    &Tag::new("ellipse")
                        .attr("cx", x)
                        .attr("cy", y)
                        .attr("rx", S * 0.8)
                        .attr("ry", S * 0.26)
                        .attr("fill", "none")
                        .attr("stroke", shade(&style.colour, 1.5))
                        .attr("stroke-width", 1.6)
                        .close(),
                );
            }
        }
        // The label in the band below the disc, never over it.
        out.push_str(&super::svg::text(
            x,
            y + S * LABEL_BASELINE,
            LABEL_SIZE,
            "#8796b8",
            "middle",
            &c.name,
        ));
        out.push_str("</g>\n");
    }
    // Sector outlines: every edge whose neighbour lies in another sector or off the map.
    let mut d = String::new();
    for c in &view.cells {
        let (x, y) = frame.at(c.hex);
        let cs = corners(x, y, S);
        for dir in DIRECTIONS {
            let n = c.hex + dir;
            let same = view
                .cells
                .iter()
                .any(|o| o.hex == n && o.sector == c.sector);
            if same {
                continue;
            }
            let (nx, ny) = frame.at(n);
            let (vx, vy) = (nx - x, ny - y);
            // The two corners facing the neighbour.
            let mut idx: Vec<usize> = (0..6).collect();
            idx.sort_by(|a, b| {
                let da = (cs[*a].0 - x) * vx + (cs[*a].1 - y) * vy;
                let db = (cs[*b].0 - x) * vx + (cs[*b].1 - y) * vy;
                db.total_cmp(&da)
            });
            let (a, b) = (cs[idx[0]], cs[idx[1]]);
            d.push_str(&format!(
                "M{} {}L{} {}",
                num(a.0),
                num(a.1),
                num(b.0),
                num(b.1)
            ));
        }
    }
    out.push_str(
        &Tag::new("path")
            .attr("class", "sectors")
            .attr("d", d)
            .attr("fill", "none")
            .attr("stroke", SECTOR_LINE)
            .attr("stroke-width", 2.2)
            .attr("stroke-linecap", "round")
            .close(),
    );
    out.push_str("</g>\n");
    out
}

/// Federations: the member hexes joined by broad lines in the owner's colour.
pub fn federations(view: &BoardView, frame: &Frame) -> String {
    let mut out = String::new();
    for (seat, members) in &view.federations {
        let colour = seat_colour(view, *seat);
        out.push_str(
            &Tag::new("g")
                .attr("class", "federation")
                .attr("data-seat", *seat)
                .attr("data-members", members.len())
                .attr("stroke", colour)
                .attr("fill", colour)
                .attr("opacity", "0.55")
                .open(),
        );
        let mut drawn = false;
        for (i, a) in members.iter().enumerate() {
            for b in &members[i + 1..] {
                if a.distance(*b) == 1 {
                    let (x1, y1) = frame.at(*a);
                    let (x2, y2) = frame.at(*b);
                    out.push_str(
                        &Tag::new("line")
                            .attr("x1", x1)
                            .attr("y1", y1)
                            .attr("x2", x2)
                            .attr("y2", y2)
                            .attr("stroke-width", S * 0.42)
                            .attr("stroke-linecap", "round")
                            .close(),
                    );
                    drawn = true;
                }
            }
        }
        if !drawn {
            for m in members {
                let (x, y) = frame.at(*m);
                out.push_str(
                    &Tag::new("circle")
                        .attr("cx", x)
                        .attr("cy", y)
                        .attr("r", S * 0.3)
                        .close(),
                );
            }
        }
        out.push_str("</g>\n");
    }
    out
}

/// The colour of a seat (grey for a seat the view does not know).
pub fn seat_colour(view: &BoardView, seat: usize) -> &str {
    view.seats
        .get(seat)
        .map(|s| s.colour.as_str())
        .unwrap_or(super::view::NO_COLOUR)
}

/// The colour under a piece on a hex: its planet's, or the empty space's.
fn ground(view: &BoardView, hex: Hex) -> &str {
    view.cells
        .iter()
        .find(|c| c.hex == hex)
        .and_then(|c| view.planets.get(c.planet))
        .filter(|p| !p.empty)
        .map_or(SPACE, |p| p.colour.as_str())
}

/// The name of a hex (empty off the map).
fn hex_name(view: &BoardView, hex: Hex) -> &str {
    view.cells
        .iter()
        .find(|c| c.hex == hex)
        .map_or("", |c| c.name.as_str())
}

/// Satellites and pieces, each outlined in the colour that contrasts most with what it
/// stands on ([`outline_on`]).
pub fn pieces(view: &BoardView, frame: &Frame) -> String {
    let mut out = String::new();
    for (hex, seat) in &view.satellites {
        let (x, y) = frame.at(*hex);
        let corner = corners(x, y, S * 0.5)[seat % 6];
        out.push_str(
            &Tag::new("circle")
                .attr("class", "satellite")
                .attr("data-seat", *seat)
                .attr("cx", corner.0)
                .attr("cy", corner.1)
                .attr("r", S * 0.19)
                .attr("fill", seat_colour(view, *seat))
                .attr("stroke", outline_on(SPACE))
                .attr("stroke-width", PIECE_LINE * 0.75)
                .close(),
        );
    }
    // Pieces sharing a hex are drawn side by side, smaller.
    let mut by_hex: Vec<(Hex, Vec<&Piece>)> = Vec::new();
    for p in &view.pieces {
        match by_hex.iter_mut().find(|(h, _)| *h == p.hex) {
            Some((_, list)) => list.push(p),
            None => by_hex.push((p.hex, vec![p])),
        }
    }
    for (hex, list) in &by_hex {
        let (x, y) = frame.at(*hex);
        let n = list.len();
        for (i, p) in list.iter().enumerate() {
            let (px, py, scale) = if n == 1 || p.shape == Shape::Gaiaformer {
                (x, y, 1.0)
            } else {
                (x + (i as f64 - (n - 1) as f64 / 2.0) * S * 0.62, y, 0.78)
            };
            let ink = outline_on(ground(view, *hex));
            let place = hex_name(view, *hex);
            out.push_str(&piece(
                p,
                (px, py),
                scale,
                seat_colour(view, p.seat),
                ink,
                place,
            ));
        }
    }
    out
}

/// One piece drawn at a point, filled with `colour` and outlined with `ink`; `place` names
/// the hex it stands on (empty for a piece drawn off the map, as in the legend).
pub fn piece(
    p: &Piece,
    at: (f64, f64),
    scale: f64,
    colour: &str,
    ink: &str,
    place: &str,
) -> String {
    let (x, y) = at;
    let tag = Tag::new("g").attr("class", format!("piece {}", shape_class(p.shape)));
    let tag = if place.is_empty() {
        tag
    } else {
        tag.attr("data-hex", place)
    };
    let mut out = tag
        .attr("data-kind", p.id.as_str())
        .attr("data-seat", p.seat)
        .attr("fill", colour)
        .attr("stroke", ink)
        .attr("stroke-width", PIECE_LINE)
        .open();
    out.push_str(&shape(p.shape, x, y, scale, colour, &p.mark));
    out.push_str("</g>\n");
    out
}

/// The class naming a shape (`mine`, `academy`, …).
pub fn shape_class(s: Shape) -> &'static str {
    match s {
        Shape::Mine => "mine",
        Shape::TradingStation => "trading-station",
        Shape::Lab => "lab",
        Shape::Institute => "institute",
        Shape::Academy => "academy",
        Shape::Gaiaformer => "gaiaformer",
        Shape::Station => "station",
        Shape::Other => "other",
    }
}

/// The outline of a shape, filled by the enclosing group.
pub fn shape(s: Shape, x: f64, y: f64, scale: f64, colour: &str, mark: &str) -> String {
    let u = S * 0.42 * scale;
    let poly = |pts: &[(f64, f64)]| {
        let abs: Vec<(f64, f64)> = pts.iter().map(|(a, b)| (x + a * u, y + b * u)).collect();
        Tag::new("polygon").attr("points", points(&abs)).close()
    };
    let label = |size: f64| {
        if mark.is_empty() {
            String::new()
        } else {
            Tag::new("text")
                .attr("x", x)
                .attr("y", y + size * 0.36)
                .attr("font-size", size)
                .attr("font-weight", "bold")
                .attr("text-anchor", "middle")
                .attr("fill", super::svg::ink_on(colour))
                .attr("stroke", "none")
                .text("text", mark)
        }
    };
    match s {
        Shape::Mine => poly(&[
            (-0.62, 0.6),
            (0.62, 0.6),
            (0.62, -0.1),
            (0.0, -0.72),
            (-0.62, -0.1),
        ]),
        Shape::TradingStation => poly(&[(-0.8, 0.7), (0.8, 0.7), (0.8, -0.7), (-0.8, -0.7)]),
        Shape::Lab => poly(&[(0.0, -0.95), (0.95, 0.7), (-0.95, 0.7)]),
        Shape::Institute => {
            let r = 1.08;
            let h = SQRT3 / 2.0 * r;
            poly(&[
                (0.0, -r),
                (h, -r / 2.0),
                (h, r / 2.0),
                (0.0, r),
                (-h, r / 2.0),
                (-h, -r / 2.0),
            ])
        }
        Shape::Academy => {
            let mut o = Tag::new("circle")
                .attr("cx", x)
                .attr("cy", y)
                .attr("r", u * 0.98)
                .close();
            o.push_str(&label(u * 1.25));
            o
        }
        Shape::Gaiaformer => Tag::new("circle")
            .attr("cx", x)
            .attr("cy", y)
            .attr("r", S * GAIAFORMER_RING.0 * scale)
            .attr("fill", "none")
            .attr("stroke", colour)
            .attr("stroke-width", GAIAFORMER_RING.1)
            .attr("stroke-dasharray", "4 2")
            .close(),
        Shape::Station => poly(&[(0.0, -0.95), (0.8, 0.0), (0.0, 0.95), (-0.8, 0.0)]),
        Shape::Other => {
            let mut o = Tag::new("rect")
                .attr("x", x - u)
                .attr("y", y - u * 0.7)
                .attr("width", 2.0 * u)
                .attr("height", 1.4 * u)
                .attr("rx", u * 0.3)
                .close();
            o.push_str(&label(u * 0.9));
            o
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DISC, DISC_LINE, GAIAFORMER_RING, LABEL_BASELINE, LABEL_SIZE, S, SQRT3};

    #[test]
    fn a_hex_label_lies_beside_the_planet_within_the_hex() {
        // Capitals and digits stand about 0.73 of the font size above the baseline.
        let top = S * LABEL_BASELINE - LABEL_SIZE * 0.75;
        let disc = S * DISC + DISC_LINE / 2.0;
        let ring = S * GAIAFORMER_RING.0 + GAIAFORMER_RING.1 / 2.0;
        assert!(top > disc, "label top {top} over the disc ({disc})");
        assert!(
            top > ring,
            "label top {top} over a Gaiaformer's ring ({ring})"
        );
        let (baseline, edge) = (S * LABEL_BASELINE, SQRT3 / 2.0 * S);
        assert!(baseline < edge, "the label stays in its hex");
    }
}
