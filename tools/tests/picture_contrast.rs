//! Pictures a person can read: every piece outlined in a colour that stands out from the planet
//! under it (a piece of the planet's own colour included), and hex labels beside the planets,
//! never over them. Checked on the drawn SVG of recorded games.

mod common;

use common::{run, succeeded};

/// The value of `name="…"` in a tag's text.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    tag[start..].split('"').next()
}

fn number(tag: &str, name: &str) -> f64 {
    attr(tag, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{name} in {tag}"))
}

/// WCAG 2 relative luminance of `#rrggbb`.
fn luminance(colour: &str) -> f64 {
    let h = colour.trim_start_matches('#');
    let c = |i: usize| {
        let v = f64::from(u8::from_str_radix(&h[i..i + 2], 16).expect("hex colour")) / 255.0;
        if v <= 0.039_28 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * c(0) + 0.7152 * c(2) + 0.0722 * c(4)
}

fn contrast(a: &str, b: &str) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// A planet's disc as drawn: centre's y, radius, outline width, fill.
type Disc = (f64, f64, f64, String);

/// Each hex of the picture: `(name, its planet's disc if any, its label's tag)`.
fn hexes(svg: &str) -> Vec<(String, Option<Disc>, String)> {
    let mut out = Vec::new();
    for group in svg.split("<g class=\"hex\"").skip(1) {
        let group = &group[..group.find("</g>").expect("closed")];
        let name = attr(group, "data-hex").expect("named").to_string();
        let disc = group.split("<circle").nth(1).map(|c| {
            let c = &c[..c.find("/>").expect("closed")];
            (
                number(c, "cy"),
                number(c, "r"),
                number(c, "stroke-width"),
                attr(c, "fill").expect("filled").to_string(),
            )
        });
        let label = group.split("<text").nth(1).expect("a label").to_string();
        out.push((name, disc, label));
    }
    out
}

#[test]
fn pieces_stand_out_from_their_planet_and_labels_lie_beside_it() {
    let mut same_colour = 0;
    let mut pieces = 0;
    for (log, at) in [
        ("tests/data/conformance/rich/rich-019.json", "150"),
        ("tests/data/conformance/rich/rich-019.json", "225"),
        ("tests/data/conformance/dev/dev-001.json", "40"),
    ] {
        let svg = succeeded(&run(&["render", log, "--move", at]));
        let hexes = hexes(&svg);
        assert!(hexes.len() > 50, "{log}");
        for (name, disc, label) in &hexes {
            let Some((cy, r, stroke, _)) = disc else {
                continue;
            };
            // The label's capitals (three quarters of its size tall) start below the disc.
            let top = number(label, "y") - 0.75 * number(label, "font-size");
            assert!(
                top > cy + r + stroke / 2.0,
                "{log}: label of {name} over its planet"
            );
        }
        for tag in svg.split("<g class=\"piece ").skip(1) {
            let tag = &tag[..tag.find('>').expect("closed")];
            let hex = attr(tag, "data-hex").expect("a piece names its hex");
            let (fill, ink) = (
                attr(tag, "fill").expect("fill"),
                attr(tag, "stroke").expect("stroke"),
            );
            let (_, disc, _) = hexes
                .iter()
                .find(|(n, _, _)| n == hex)
                .unwrap_or_else(|| panic!("{hex} is a hex of the map"));
            let ground = disc.as_ref().map_or("#15213a", |d| d.3.as_str());
            assert!(
                contrast(ink, ground) >= 4.5,
                "{log}: the outline {ink} of a piece on {hex} ({ground}) does not stand out"
            );
            same_colour += usize::from(fill == ground);
            pieces += 1;
        }
    }
    assert!(pieces > 40, "{pieces}");
    assert!(
        same_colour > 0,
        "some piece stands on a planet of its own colour (the case this is about)"
    );
}
