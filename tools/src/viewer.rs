//! `orrery view`: one self-contained HTML page to step through a game move by move, for any
//! game that draws its board. Every move's board is drawn in Rust; the page stores each
//! distinct layer once and rebuilds a move's SVG from its list of layers, so a long game stays
//! a few megabytes.

use std::collections::BTreeMap;

use crate::render::svg::{escape, points, text, Tag};
use crate::render::Picture;

/// One move of the replay: the picture after it and what was played.
pub struct Frame {
    /// The move line (the log's setup line for move 0).
    pub line: String,
    /// The line's parts as the page lists them.
    pub parts: Vec<String>,
    /// VP per seat after the move.
    pub vp: Vec<i32>,
    /// The picture's layers, with the seats' names and colours.
    pub picture: Picture,
}

const CHART_W: f64 = 760.0;
const CHART_H: f64 = 190.0;
const CHART_L: f64 = 44.0;

/// The VP-over-time chart: a line per seat, with a cursor the page moves.
fn vp_chart(frames: &[Frame]) -> (String, f64, f64) {
    let n = frames.len().max(2) - 1;
    let top = frames
        .iter()
        .flat_map(|f| f.vp.iter().copied())
        .max()
        .unwrap_or(0)
        .max(10);
    let plot_w = CHART_W - CHART_L - 110.0;
    let dx = plot_w / n as f64;
    let y_of = |vp: i32| 12.0 + (CHART_H - 40.0) * (1.0 - f64::from(vp.max(0)) / f64::from(top));
    let mut s = Tag::new("svg")
        .attr("xmlns", "http://www.w3.org/2000/svg")
        .attr("id", "vpchart")
        .attr("width", CHART_W)
        .attr("height", CHART_H)
        .attr("font-family", "DejaVu Sans, Verdana, Arial, sans-serif")
        .open();
    let step = (top / 5).max(1);
    let mut v = 0;
    while v <= top {
        let y = y_of(v);
        s.push_str(
            &Tag::new("line")
                .attr("x1", CHART_L)
                .attr("x2", CHART_L + plot_w)
                .attr("y1", y)
                .attr("y2", y)
                .attr("stroke", "#e1e4e8")
                .close(),
        );
        s.push_str(&text(
            CHART_L - 5.0,
            y + 4.0,
            10.0,
            "#555b66",
            "end",
            &v.to_string(),
        ));
        v += step;
    }
    let every = [10, 20, 25, 50, 100, 200, 500]
        .into_iter()
        .find(|e| n / e <= 12)
        .unwrap_or(1000);
    for m in (0..=n).step_by(every) {
        let x = CHART_L + m as f64 * dx;
        s.push_str(
            &Tag::new("line")
                .attr("x1", x)
                .attr("x2", x)
                .attr("y1", CHART_H - 28.0)
                .attr("y2", CHART_H - 24.0)
                .attr("stroke", "#555b66")
                .close(),
        );
        s.push_str(&text(
            x,
            CHART_H - 14.0,
            9.0,
            "#555b66",
            "middle",
            &m.to_string(),
        ));
    }
    s.push_str(&text(
        CHART_L + plot_w + 12.0,
        CHART_H - 14.0,
        10.0,
        "#555b66",
        "start",
        "move",
    ));
    let seats = frames.last().map(|f| f.vp.len()).unwrap_or(0);
    let last = frames.last();
    for seat in 0..seats {
        let pts: Vec<(f64, f64)> = frames
            .iter()
            .enumerate()
            .map(|(i, f)| {
                (
                    CHART_L + i as f64 * dx,
                    y_of(f.vp.get(seat).copied().unwrap_or(0)),
                )
            })
            .collect();
        let colour = last
            .and_then(|f| f.picture.seats.get(seat))
            .map_or("#9aa0a8", |(_, c)| c.as_str());
        s.push_str(
            &Tag::new("polyline")
                .attr("points", points(&pts))
                .attr("fill", "none")
                .attr("stroke", colour)
                .attr("stroke-width", 2.2)
                .close(),
        );
        s.push_str(
            &Tag::new("polyline")
                .attr("points", points(&pts))
                .attr("fill", "none")
                .attr("stroke", "#111111")
                .attr("stroke-width", 0.4)
                .close(),
        );
        let name = last
            .and_then(|f| f.picture.seats.get(seat))
            .map(|(n, _)| n.clone())
            .unwrap_or_default();
        let ly = 20.0 + seat as f64 * 16.0;
        s.push_str(
            &Tag::new("rect")
                .attr("x", CHART_L + plot_w + 12.0)
                .attr("y", ly - 9.0)
                .attr("width", 12)
                .attr("height", 10)
                .attr("fill", colour)
                .attr("stroke", "#111111")
                .close(),
        );
        s.push_str(&text(
            CHART_L + plot_w + 28.0,
            ly,
            10.5,
            "#111111",
            "start",
            &name,
        ));
    }
    s.push_str(
        &Tag::new("line")
            .attr("id", "cursor")
            .attr("x1", CHART_L)
            .attr("x2", CHART_L)
            .attr("y1", 6)
            .attr("y2", CHART_H - 26.0)
            .attr("stroke", "#b0127a")
            .attr("stroke-width", 1.5)
            .close(),
    );
    s.push_str("</svg>\n");
    (s, CHART_L, dx)
}

/// The page's data as JSON that is safe inside a `<script>` element: `<`, `>` and `&` occur
/// in JSON only inside strings, where `\u003c` means the same, so no text of a log (`</script>`,
/// `<!--<script>`) can end or change the element; U+2028/2029 are escaped for old parsers.
fn script_json(v: &serde_json::Value) -> String {
    let json = serde_json::to_string(v).unwrap_or_default();
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = r#"body{font-family:"DejaVu Sans",Verdana,Arial,sans-serif;margin:12px;color:#111;background:#f6f7f9}
#controls{display:flex;align-items:center;gap:10px;margin-bottom:6px}
#slider{flex:1;max-width:900px}
#line{font-family:"DejaVu Sans Mono",monospace;font-size:15px;padding:4px 6px;background:#fff;border:1px solid #ccd;min-height:20px}
#parts{display:flex;flex-wrap:wrap;gap:6px;list-style:none;padding:0;margin:6px 0}
#parts li{background:#e7ecf5;border:1px solid #b9c4d8;border-radius:4px;padding:2px 6px;font-family:"DejaVu Sans Mono",monospace;font-size:13px}
#errors{color:#b00020}
.help{color:#555b66;font-size:12px}"#;

const SCRIPT: &str = r#"(function () {
  var errors = [];
  var errorBox = document.getElementById("errors");
  function report(message) {
    errors.push(String(message));
    errorBox.textContent = errors.join("\n");
    document.body.setAttribute("data-errors", String(errors.length));
  }
  window.addEventListener("error", function (e) { report(e.message); });
  var consoleError = console.error;
  console.error = function () {
    report(Array.prototype.join.call(arguments, " "));
    consoleError.apply(console, arguments);
  };
  var D = JSON.parse(document.getElementById("data").textContent);
  var board = document.getElementById("board");
  var slider = document.getElementById("slider");
  var moveNo = document.getElementById("moveno");
  var lineBox = document.getElementById("line");
  var partsBox = document.getElementById("parts");
  var cursor = document.getElementById("cursor");
  var last = D.frames.length - 1;
  var current = -1;
  slider.max = String(last);
  function show(n) {
    n = Math.max(0, Math.min(last, n));
    if (n === current) { return; }
    current = n;
    var f = D.frames[n];
    var svg = "";
    for (var i = 0; i < f.length; i++) { svg += D.layers[f[i]]; }
    board.innerHTML = svg + "</svg>";
    slider.value = String(n);
    moveNo.textContent = "move " + n + " of " + last;
    lineBox.textContent = D.lines[n];
    partsBox.textContent = "";
    D.parts[n].forEach(function (p) {
      var li = document.createElement("li");
      li.textContent = p;
      partsBox.appendChild(li);
    });
    var x = D.chart.x0 + n * D.chart.dx;
    cursor.setAttribute("x1", String(x));
    cursor.setAttribute("x2", String(x));
    document.body.setAttribute("data-move", String(n));
  }
  document.addEventListener("keydown", function (e) {
    var steps = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 };
    if (e.key in steps) { show(current + steps[e.key]); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(last); e.preventDefault(); }
  });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.getElementById("prev").addEventListener("click", function () { show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1); });
  // #move=N selects a move; &slider=K then moves the slider; &keys=ArrowRight,… then presses keys.
  var query = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
    var p = kv.split("=");
    if (p[0]) { query[p[0]] = decodeURIComponent(p[1] || ""); }
  });
  show(query.move ? parseInt(query.move, 10) : 0);
  if (query.slider) {
    slider.value = query.slider;
    slider.dispatchEvent(new Event("input"));
  }
  if (query.keys) {
    query.keys.split(",").forEach(function (k) {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
    });
  }
  document.body.setAttribute("data-ready", "1");
})();"#;

/// The whole page for the frames of one game.
pub fn page(title: &str, frames: &[Frame]) -> String {
    let mut layers: Vec<String> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut frame_layers = Vec::new();
    for f in frames {
        let head = f.picture.head();
        let ids: Vec<usize> = std::iter::once(&head)
            .chain(f.picture.layers.iter().map(|(_, l)| l))
            .map(|l| {
                *index.entry(l.clone()).or_insert_with(|| {
                    layers.push(l.clone());
                    layers.len() - 1
                })
            })
            .collect();
        frame_layers.push(ids);
    }
    let (chart, x0, dx) = vp_chart(frames);
    let data = serde_json::json!({
        "layers": layers,
        "frames": frame_layers,
        "lines": frames.iter().map(|f| f.line.clone()).collect::<Vec<_>>(),
        "parts": frames.iter().map(|f| f.parts.clone()).collect::<Vec<_>>(),
        "vp": frames.iter().map(|f| f.vp.clone()).collect::<Vec<_>>(),
        "chart": {"x0": x0, "dx": dx},
    });
    let mut out =
        String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(&format!(
        "<title>Orrery replay: {}</title>\n",
        escape(title)
    ));
    out.push_str(&format!("<style>\n{STYLE}\n</style>\n</head>\n<body>\n"));
    out.push_str(&format!(
        "<h1 style=\"font-size:18px;margin:0 0 8px\">{}</h1>\n",
        escape(title)
    ));
    out.push_str("<div id=\"controls\"><button id=\"prev\" title=\"previous move (←)\">◀</button><input type=\"range\" id=\"slider\" min=\"0\" max=\"0\" value=\"0\"><button id=\"next\" title=\"next move (→)\">▶</button><span id=\"moveno\"></span></div>\n");
    out.push_str(
        "<div class=\"help\">← → one move · PgUp PgDn ten moves · Home End first and last</div>\n",
    );
    out.push_str("<div id=\"line\"></div>\n<ul id=\"parts\"></ul>\n<div id=\"board\"></div>\n");
    out.push_str("<h2 style=\"font-size:15px;margin:8px 0 2px\">VP over time</h2>\n");
    out.push_str(&chart);
    out.push_str("<pre id=\"errors\"></pre>\n");
    out.push_str("<script id=\"data\" type=\"application/json\">");
    out.push_str(&script_json(&data));
    out.push_str("</script>\n<script>\n");
    out.push_str(SCRIPT);
    out.push_str("\n</script>\n</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::script_json;

    #[test]
    fn script_data_holds_no_markup_and_reads_back() {
        let line = "terrans build m 4B2 <!--<script> </script> a&b \u{2028}";
        let v = serde_json::json!({"lines": [line]});
        let text = script_json(&v);
        assert!(!text.contains(['<', '>', '&', '\u{2028}']), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).expect("still JSON");
        assert_eq!(back, v);
    }
}
