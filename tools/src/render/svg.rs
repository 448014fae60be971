//! A small SVG writer: elements with attributes in the order written, escaped text, and
//! numbers printed with at most one decimal, so the same drawing always gives the same bytes.

/// A number as SVG text: rounded to one decimal, without a trailing `.0`.
pub fn num(x: f64) -> String {
    let tenths = (x * 10.0).round() as i64;
    if tenths % 10 == 0 {
        format!("{}", tenths / 10)
    } else {
        let sign = if tenths < 0 { "-" } else { "" };
        let t = tenths.unsigned_abs();
        format!("{sign}{}.{}", t / 10, t % 10)
    }
}

/// Escapes text for XML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One element being written: `Tag::new("rect").attr("x", 1).close()`.
#[must_use]
pub struct Tag {
    text: String,
}

/// A value an attribute accepts.
pub trait AttrValue {
    /// The value as attribute text (not yet escaped).
    fn text(&self) -> String;
}

impl AttrValue for f64 {
    fn text(&self) -> String {
        num(*self)
    }
}
impl AttrValue for i32 {
    fn text(&self) -> String {
        self.to_string()
    }
}
impl AttrValue for u32 {
    fn text(&self) -> String {
        self.to_string()
    }
}
impl AttrValue for usize {
    fn text(&self) -> String {
        self.to_string()
    }
}
impl AttrValue for &str {
    fn text(&self) -> String {
        (*self).to_string()
    }
}
impl AttrValue for String {
    fn text(&self) -> String {
        self.clone()
    }
}

impl Tag {
    /// Starts an element.
    pub fn new(name: &str) -> Tag {
        Tag {
            text: format!("<{name}"),
        }
    }

    /// Adds an attribute.
    pub fn attr(mut self, key: &str, value: impl AttrValue) -> Tag {
        self.text
            .push_str(&format!(" {key}=\"{}\"", escape(&value.text())));
        self
    }

    /// Ends an element without content: `<rect …/>`.
    pub fn close(mut self) -> String {
        self.text.push_str("/>\n");
        self.text
    }

    /// Ends an element with text content.
    pub fn text(mut self, name: &str, content: &str) -> String {
        self.text
            .push_str(&format!(">{}</{name}>\n", escape(content)));
        self.text
    }

    /// Opens an element whose children follow; close it with `</name>`.
    pub fn open(mut self) -> String {
        self.text.push_str(">\n");
        self.text
    }
}

/// A polygon's `points` attribute.
pub fn points(pts: &[(f64, f64)]) -> String {
    pts.iter()
        .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Text at a point, with a size, colour and anchor (`start`, `middle`, `end`).
pub fn text(x: f64, y: f64, size: f64, fill: &str, anchor: &str, content: &str) -> String {
    Tag::new("text")
        .attr("x", x)
        .attr("y", y)
        .attr("font-size", size)
        .attr("fill", fill)
        .attr("text-anchor", anchor)
        .text("text", content)
}

/// A rectangle.
pub fn rect(x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str) -> String {
    Tag::new("rect")
        .attr("x", x)
        .attr("y", y)
        .attr("width", w)
        .attr("height", h)
        .attr("fill", fill)
        .attr("stroke", stroke)
        .close()
}

/// The opening of a whole SVG document of this size, with the shared text style.
pub fn document_start(width: f64, height: f64) -> String {
    let mut s = Tag::new("svg")
        .attr("xmlns", "http://www.w3.org/2000/svg")
        .attr("width", width)
        .attr("height", height)
        .attr("viewBox", format!("0 0 {} {}", num(width), num(height)))
        .attr("font-family", "DejaVu Sans, Verdana, Arial, sans-serif")
        .open();
    s.push_str(&rect(0.0, 0.0, width, height, "#ffffff", "none"));
    s
}

/// A colour darkened or lightened: `factor` below 1 darkens, above 1 mixes towards white.
pub fn shade(colour: &str, factor: f64) -> String {
    let Some((r, g, b)) = rgb(colour) else {
        return colour.to_string();
    };
    let f = |c: u8| -> u8 {
        let c = f64::from(c);
        let v = if factor <= 1.0 {
            c * factor
        } else {
            c + (255.0 - c) * (factor - 1.0).min(1.0)
        };
        v.round().clamp(0.0, 255.0) as u8
    };
    format!("#{:02x}{:02x}{:02x}", f(r), f(g), f(b))
}

/// The red, green and blue of `#rrggbb`.
pub fn rgb(colour: &str) -> Option<(u8, u8, u8)> {
    let h = colour.strip_prefix('#')?;
    if h.len() != 6 || !h.is_ascii() {
        return None;
    }
    let p = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some((p(0)?, p(2)?, p(4)?))
}

/// Black or white, whichever reads better on a background colour.
pub fn ink_on(colour: &str) -> &'static str {
    match rgb(colour) {
        Some((r, g, b)) => {
            let l = 0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b);
            if l > 150.0 {
                "#111111"
            } else {
                "#ffffff"
            }
        }
        None => "#111111",
    }
}

/// The relative luminance of a colour (WCAG 2: 0 for black, 1 for white); `None` for a
/// colour that is not `#rrggbb`.
pub fn luminance(colour: &str) -> Option<f64> {
    let (r, g, b) = rgb(colour)?;
    let lin = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    Some(0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b))
}

/// The contrast ratio of two colours (WCAG 2: 1 for equal colours, 21 for black on white).
pub fn contrast(a: &str, b: &str) -> f64 {
    let (la, lb) = (luminance(a).unwrap_or(0.0), luminance(b).unwrap_or(0.0));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// The outline of a piece standing on `ground`: near-black or white, whichever contrasts more
/// with the ground, so a piece of the ground's own colour (grey on grey, white on white)
/// still stands out.
pub fn outline_on(ground: &str) -> &'static str {
    const DARK: &str = "#111111";
    const LIGHT: &str = "#ffffff";
    if contrast(DARK, ground) >= contrast(LIGHT, ground) {
        DARK
    } else {
        LIGHT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_one_decimal_and_drop_a_zero_one() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.25), "1.3");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(-2.5), "-2.5");
        assert_eq!(num(-0.5), "-0.5");
    }

    #[test]
    fn text_and_attributes_are_escaped() {
        let t = Tag::new("text").attr("data-x", "a\"b").text("text", "<&>");
        assert_eq!(t, "<text data-x=\"a&quot;b\">&lt;&amp;&gt;</text>\n");
    }

    #[test]
    fn shades_and_ink() {
        assert_eq!(shade("#808080", 0.5), "#404040");
        assert_eq!(shade("#000000", 1.5), "#808080");
        assert_eq!(ink_on("#ffffff"), "#111111");
        assert_eq!(ink_on("#000000"), "#ffffff");
        assert_eq!(rgb("#zz0000"), None);
    }

    #[test]
    fn outlines_contrast_with_the_ground_they_stand_on() {
        use super::{contrast, outline_on};
        assert!((contrast("#000000", "#ffffff") - 21.0).abs() < 1e-9);
        assert!((contrast("#8e939c", "#8e939c") - 1.0).abs() < 1e-9);
        // Titanium grey, ice white, terra blue, swamp brown, the empty space's dark blue.
        for ground in [
            "#8e939c", "#e9f3fa", "#ffffff", "#2f6fd0", "#8a5a2b", "#15213a",
        ] {
            let ink = outline_on(ground);
            assert!(contrast(ink, ground) >= 4.5, "{ink} on {ground}");
        }
        assert_eq!(
            outline_on("#8e939c"),
            "#111111",
            "black reads better on grey"
        );
        assert_eq!(outline_on("#15213a"), "#ffffff");
    }
}
