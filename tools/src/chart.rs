//! Charts of balance studies (`orrery-study/1` JSON, written by `orrery simulate --out`):
//! win rate per faction with 95% Wilson intervals, the VP distribution per faction, mean VP by
//! source, and win rate by seat (first-player advantage). Two studies are drawn side by side,
//! bar by bar, so a designer sees what a variant changed.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::render::svg::{document_start, num, rect, text, Tag};

/// The study format this module reads.
pub const FORMAT: &str = "orrery-study/1";

/// Counts for one faction, bot or seat; every field an exact sum.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Tally {
    /// Player-games.
    pub games: u64,
    /// Wins (a shared first place is a win for each tied player).
    pub wins: u64,
    /// Sum of final VP.
    pub vp_sum: i64,
    /// Histogram of final VP, keyed by VP as a decimal string.
    #[serde(default)]
    pub vp_counts: BTreeMap<String, u64>,
    /// Sum of VP by source.
    #[serde(default)]
    pub vp_by_source: BTreeMap<String, i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
struct Failed {
    count: u64,
}

#[derive(Debug, Clone, Default, Deserialize)]
struct Config {
    #[serde(default)]
    players: Option<u64>,
    #[serde(default)]
    variants: Vec<String>,
}

/// One study file.
#[derive(Debug, Clone, Deserialize)]
pub struct Study {
    format: String,
    #[serde(default)]
    config: Config,
    /// Games in the file.
    pub games: u64,
    /// Games that failed (none in older files).
    #[serde(default)]
    failed: Failed,
    /// Per faction id.
    pub factions: BTreeMap<String, Tally>,
    /// Per seat, first player first.
    #[serde(default)]
    pub seats: Vec<Tally>,
    /// Per item kind and id (none in older files).
    #[serde(default)]
    items: BTreeMap<String, BTreeMap<String, ItemCounts>>,
}

/// What the charts read of an item's tally.
#[derive(Debug, Clone, Default, Deserialize)]
struct ItemCounts {
    /// Games it was on offer in.
    games: u64,
    /// Player-games it was on offer to the seat in (0 in older files).
    #[serde(default)]
    seats_offered: u64,
    /// Player-games that took it.
    takers: u64,
    /// Of those, won.
    taker_wins: u64,
}

impl Study {
    /// Reads a study from its JSON.
    pub fn from_json(v: &serde_json::Value) -> Result<Study, String> {
        let s: Study =
            serde_json::from_value(v.clone()).map_err(|e| format!("not a study: {e}"))?;
        if s.format != FORMAT {
            return Err(format!(
                "format \"{}\" is not {FORMAT}",
                s.format.replace('"', "'")
            ));
        }
        for (name, t) in &s.factions {
            t.check(name)?;
        }
        for (i, t) in s.seats.iter().enumerate() {
            t.check(&format!("seat {}", i + 1))?;
        }
        let players = s.config.players.unwrap_or(s.seats.len() as u64);
        for (kind, ids) in &s.items {
            for (id, t) in ids {
                if t.taker_wins > t.takers
                    || u128::from(t.takers) > u128::from(t.games) * u128::from(players)
                {
                    return Err(format!(
                        "{kind} {id}: {} wins of {} takers in {} games",
                        t.taker_wins, t.takers, t.games
                    ));
                }
            }
        }
        Ok(s)
    }
}

impl Tally {
    fn check(&self, name: &str) -> Result<(), String> {
        if self.wins > self.games {
            return Err(format!(
                "{name}: {} wins in {} games",
                self.wins, self.games
            ));
        }
        let mut n: u64 = 0;
        for (k, c) in &self.vp_counts {
            k.parse::<i64>()
                .map_err(|_| format!("{name}: VP \"{k}\" in vp_counts is not a number"))?;
            n = n
                .checked_add(*c)
                .ok_or_else(|| format!("{name}: vp_counts too large"))?;
        }
        if n != 0 && n != self.games {
            return Err(format!(
                "{name}: vp_counts hold {n} games, the tally {}",
                self.games
            ));
        }
        Ok(())
    }

    /// Win rate and its 95% Wilson interval, or `None` without games.
    pub fn win_rate(&self) -> Option<(f64, f64, f64)> {
        wilson(self.wins, self.games)
    }

    /// Mean final VP.
    pub fn mean_vp(&self) -> Option<f64> {
        (self.games > 0).then(|| self.vp_sum as f64 / self.games as f64)
    }

    /// Minimum, quartiles and maximum of the final VP.
    pub fn five_numbers(&self) -> Option<[i64; 5]> {
        let mut hist: Vec<(i64, u64)> = self
            .vp_counts
            .iter()
            .filter_map(|(k, c)| Some((k.parse::<i64>().ok()?, *c)))
            .filter(|(_, c)| *c > 0)
            .collect();
        hist.sort();
        let n: u64 = hist.iter().map(|(_, c)| *c).sum();
        if n == 0 {
            return None;
        }
        // The k-th smallest value (1-based).
        let kth = |k: u64| {
            let mut seen = 0u64;
            for (v, c) in &hist {
                seen += c;
                if seen >= k {
                    return *v;
                }
            }
            hist.last().map(|(v, _)| *v).unwrap_or(0)
        };
        let at = |num: u64, den: u64| kth((n.saturating_mul(num)).div_ceil(den).max(1));
        Some([
            hist[0].0,
            at(1, 4),
            at(1, 2),
            at(3, 4),
            hist[hist.len() - 1].0,
        ])
    }
}

/// The 95% Wilson score interval of `wins` in `games`: (rate, low, high).
pub fn wilson(wins: u64, games: u64) -> Option<(f64, f64, f64)> {
    if games == 0 {
        return None;
    }
    let n = games as f64;
    let p = wins as f64 / n;
    let z = 1.959_963_984_540_054;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some((p, (centre - half).max(0.0), (centre + half).min(1.0)))
}

const W: f64 = 1040.0;
const PLOT_X: f64 = 150.0;
const PLOT_W: f64 = 720.0;
const STUDY_COLOURS: [&str; 4] = ["#3465a4", "#e07b00", "#4e9a06", "#75507b"];
const SOURCE_COLOURS: [&str; 12] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac", "#1f3b73", "#8cd17d",
];

/// Charts of one study or several side by side, as one SVG document.
pub fn study_charts_svg(studies: &[(String, serde_json::Value)]) -> Result<String, String> {
    if studies.is_empty() {
        return Err("no study given".into());
    }
    let parsed: Vec<(String, Study)> = studies
        .iter()
        .map(|(n, v)| {
            Study::from_json(v)
                .map(|s| (n.clone(), s))
                .map_err(|e| format!("{n}: {e}"))
        })
        .collect::<Result<_, _>>()?;
    let factions: Vec<String> = parsed
        .iter()
        .flat_map(|(_, s)| s.factions.keys().cloned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let seat_count = parsed.iter().map(|(_, s)| s.seats.len()).max().unwrap_or(0);
    let k = parsed.len();
    let mut body = String::new();
    let mut y = 10.0;
    // Header: one line per study.
    body.push_str(
        &Tag::new("text")
            .attr("x", 12)
            .attr("y", y + 16.0)
            .attr("font-size", 17)
            .attr("font-weight", "bold")
            .attr("fill", "#111111")
            .text(
                "text",
                if k > 1 {
                    "Balance study comparison"
                } else {
                    "Balance study"
                },
            ),
    );
    y += 26.0;
    for (i, (name, s)) in parsed.iter().enumerate() {
        let colour = STUDY_COLOURS[i % STUDY_COLOURS.len()];
        body.push_str(&rect(12.0, y + 3.0, 12.0, 10.0, colour, "#111111"));
        let variants = if s.config.variants.is_empty() {
            "base game".to_string()
        } else {
            s.config.variants.join(" + ")
        };
        let players = s
            .config
            .players
            .map(|p| format!(", {p} players"))
            .unwrap_or_default();
        body.push_str(&text(
            30.0,
            y + 12.0,
            11.5,
            "#111111",
            "start",
            &format!(
                "{name}: {} games{players}, {variants}{}",
                s.games,
                if s.failed.count > 0 {
                    format!("; {} failed (not counted)", s.failed.count)
                } else {
                    String::new()
                }
            ),
        ));
        y += 16.0;
    }
    let expected = parsed
        .iter()
        .find_map(|(_, s)| s.config.players)
        .filter(|p| *p > 0)
        .map(|p| 1.0 / p as f64);
    y += 8.0;
    // 1. Win rate per faction.
    let rows: Vec<(String, Vec<Option<&Tally>>)> = factions
        .iter()
        .map(|f| {
            (
                f.clone(),
                parsed.iter().map(|(_, s)| s.factions.get(f)).collect(),
            )
        })
        .collect();
    let (s, h) = rate_section(
        "Win rate per faction (95% Wilson interval; dashed: 1 / players)",
        &rows,
        expected,
        y,
    );
    body.push_str(&s);
    y += h + 14.0;
    // 2. VP distribution per faction.
    let (s, h) = vp_section(&rows, y);
    body.push_str(&s);
    y += h + 14.0;
    // 3. VP by source per faction.
    let (s, h) = source_section(&rows, &parsed, y);
    body.push_str(&s);
    y += h + 14.0;
    // 4. First-player advantage: win rate by seat.
    let seat_rows: Vec<(String, Vec<Option<&Tally>>)> = (0..seat_count)
        .map(|i| {
            (
                format!("seat {}{}", i + 1, if i == 0 { " (first)" } else { "" }),
                parsed.iter().map(|(_, s)| s.seats.get(i)).collect(),
            )
        })
        .collect();
    let (s, h) = rate_section(
        "Win rate by seat in turn order (first-player advantage)",
        &seat_rows,
        expected,
        y,
    );
    body.push_str(&s);
    y += h + 10.0;
    // 5. Items (studies that tally them): how often seats took each, and how the takers fared.
    let item_ids: BTreeSet<(String, String)> = parsed
        .iter()
        .flat_map(|(_, s)| {
            s.items
                .iter()
                .flat_map(|(k, ids)| ids.keys().map(move |id| (k.clone(), id.clone())))
        })
        .collect();
    if !item_ids.is_empty() {
        let as_tally = |games: u64, wins: u64| Tally {
            games,
            wins,
            ..Tally::default()
        };
        let per_item =
            |f: &dyn Fn(&Study, &ItemCounts) -> Tally| -> Vec<(String, Vec<Option<Tally>>)> {
                item_ids
                    .iter()
                    .map(|(kind, id)| {
                        (
                            format!("{kind} {id}"),
                            parsed
                                .iter()
                                .map(|(_, s)| {
                                    s.items.get(kind).and_then(|m| m.get(id)).map(|t| f(s, t))
                                })
                                .collect(),
                        )
                    })
                    .collect()
            };
        let taken = per_item(&|s, t| {
            let offered = if t.seats_offered > 0 {
                t.seats_offered
            } else {
                let players = s.config.players.unwrap_or(s.seats.len() as u64);
                t.games.saturating_mul(players)
            };
            as_tally(offered, t.takers)
        });
        let won = per_item(&|_, t| as_tally(t.takers, t.taker_wins));
        for (heading, rows, line) in [
            (
                "Items: share of seats that took each when it was on offer",
                &taken,
                None,
            ),
            (
                "Items: win rate of the seats that took each (95% Wilson interval)",
                &won,
                expected,
            ),
        ] {
            let rows: Vec<(String, Vec<Option<&Tally>>)> = rows
                .iter()
                .map(|(l, ts)| (l.clone(), ts.iter().map(Option::as_ref).collect()))
                .collect();
            let (s, h) = rate_section(heading, &rows, line, y);
            body.push_str(&s);
            y += h + 10.0;
        }
    }
    let mut out = document_start(W, y);
    out.push_str(&body);
    out.push_str("</svg>\n");
    Ok(out)
}

fn title(t: &str, y: f64) -> String {
    Tag::new("text")
        .attr("x", 12)
        .attr("y", y + 14.0)
        .attr("font-size", 14)
        .attr("font-weight", "bold")
        .attr("fill", "#111111")
        .text("text", t)
}

/// Vertical grid lines with labels at `ticks` (values in `min..=max` mapped onto the plot).
fn grid(ticks: &[(f64, String)], min: f64, max: f64, y0: f64, y1: f64) -> String {
    let mut s = String::new();
    for (v, label) in ticks {
        let x = PLOT_X + PLOT_W * (v - min) / (max - min);
        s.push_str(
            &Tag::new("line")
                .attr("x1", x)
                .attr("x2", x)
                .attr("y1", y0)
                .attr("y2", y1)
                .attr("stroke", "#e1e4e8")
                .close(),
        );
        s.push_str(&text(x, y1 + 11.0, 9.5, "#555b66", "middle", label));
    }
    s
}

/// The most grid lines an axis gets, whatever range the data spans.
const MAX_TICKS: usize = 12;

/// The step between grid lines over `range`: at least `least`, and 1, 2 or 5 times a power of
/// ten, so that no more than [`MAX_TICKS`] lines fit in the range.
fn tick_step(range: f64, least: f64) -> f64 {
    let mut step = least;
    let range = if range.is_finite() { range.abs() } else { 0.0 };
    let mut scale = 1.0;
    // At most ~300 rounds: the range of an f64 is bounded.
    while range / step > MAX_TICKS as f64 && step.is_finite() {
        for m in [2.0, 5.0, 10.0] {
            step = least * scale * m;
            if range / step <= MAX_TICKS as f64 {
                break;
            }
        }
        scale *= 10.0;
    }
    step
}

fn row_height(k: usize) -> f64 {
    (k as f64 * 10.0 + 8.0).max(18.0)
}

fn rate_section(
    heading: &str,
    rows: &[(String, Vec<Option<&Tally>>)],
    expected: Option<f64>,
    y: f64,
) -> (String, f64) {
    let k = rows.first().map(|r| r.1.len()).unwrap_or(1);
    let rh = row_height(k);
    let mut s = Tag::new("g").attr("class", "chart win-rate").open();
    s.push_str(&title(heading, y));
    let top = y + 22.0;
    let bottom = top + rows.len() as f64 * rh;
    // The axis ends at the next 10% above every interval and the expected rate.
    let highest = rows
        .iter()
        .flat_map(|(_, ts)| ts.iter().flatten())
        .filter_map(|t| t.win_rate())
        .map(|w| w.2)
        .fold(expected.unwrap_or(0.0), f64::max);
    let tenths = ((highest * 10.0).ceil() as i32).clamp(1, 10);
    let full = f64::from(tenths) / 10.0;
    let ticks: Vec<(f64, String)> = (0..=tenths)
        .map(|i| (f64::from(i) / 10.0, format!("{}%", i * 10)))
        .collect();
    s.push_str(&grid(&ticks, 0.0, full, top, bottom));
    let w = PLOT_W / full;
    for (r, (label, tallies)) in rows.iter().enumerate() {
        let ry = top + r as f64 * rh;
        s.push_str(&text(
            PLOT_X - 8.0,
            ry + rh / 2.0 + 4.0,
            11.0,
            "#111111",
            "end",
            label,
        ));
        for (i, t) in tallies.iter().enumerate() {
            let by = ry + 4.0 + i as f64 * 10.0;
            let colour = STUDY_COLOURS[i % STUDY_COLOURS.len()];
            match t.and_then(|t| t.win_rate().map(|w| (t, w))) {
                Some((t, (p, lo, hi))) => {
                    s.push_str(
                        &Tag::new("rect")
                            .attr("class", "bar")
                            .attr("data-rate", format!("{p:.4}"))
                            .attr("x", PLOT_X)
                            .attr("y", by)
                            .attr("width", w * p)
                            .attr("height", 8)
                            .attr("fill", colour)
                            .close(),
                    );
                    s.push_str(
                        &Tag::new("line")
                            .attr("class", "interval")
                            .attr("data-low", format!("{lo:.4}"))
                            .attr("data-high", format!("{hi:.4}"))
                            .attr("x1", PLOT_X + w * lo)
                            .attr("x2", PLOT_X + w * hi)
                            .attr("y1", by + 4.0)
                            .attr("y2", by + 4.0)
                            .attr("stroke", "#111111")
                            .attr("stroke-width", 1.3)
                            .close(),
                    );
                    for x in [lo, hi] {
                        s.push_str(
                            &Tag::new("line")
                                .attr("x1", PLOT_X + w * x)
                                .attr("x2", PLOT_X + w * x)
                                .attr("y1", by + 1.0)
                                .attr("y2", by + 7.0)
                                .attr("stroke", "#111111")
                                .close(),
                        );
                    }
                    s.push_str(&text(
                        PLOT_X + PLOT_W + 8.0,
                        by + 7.5,
                        9.0,
                        "#111111",
                        "start",
                        &format!(
                            "{:.1}% of {} ({}–{}%)",
                            p * 100.0,
                            t.games,
                            num(lo * 100.0),
                            num(hi * 100.0)
                        ),
                    ));
                }
                None => s.push_str(&text(
                    PLOT_X + 4.0,
                    by + 7.5,
                    9.0,
                    "#555b66",
                    "start",
                    "no games",
                )),
            }
        }
    }
    if let Some(e) = expected {
        let x = PLOT_X + w * e;
        s.push_str(
            &Tag::new("line")
                .attr("x1", x)
                .attr("x2", x)
                .attr("y1", top - 2.0)
                .attr("y2", bottom)
                .attr("stroke", "#b0127a")
                .attr("stroke-dasharray", "5 3")
                .close(),
        );
    }
    s.push_str("</g>\n");
    (s, bottom - y + 16.0)
}

fn vp_section(rows: &[(String, Vec<Option<&Tally>>)], y: f64) -> (String, f64) {
    let k = rows.first().map(|r| r.1.len()).unwrap_or(1);
    let rh = row_height(k);
    let max = rows
        .iter()
        .flat_map(|(_, ts)| ts.iter().flatten())
        .filter_map(|t| t.five_numbers())
        .map(|f| f[4])
        .max()
        .unwrap_or(0)
        .max(10);
    let min = rows
        .iter()
        .flat_map(|(_, ts)| ts.iter().flatten())
        .filter_map(|t| t.five_numbers())
        .map(|f| f[0])
        .min()
        .unwrap_or(0)
        .max(0);
    let max = ((max + 19) / 20 * 20) as f64;
    let min = ((min / 20 * 20) as f64).min(max - 20.0);
    let mut s = Tag::new("g").attr("class", "chart vp-distribution").open();
    s.push_str(&title(
        "Final VP per faction (box: quartiles, bar: median, whiskers: lowest–highest, dot: mean)",
        y,
    ));
    let top = y + 22.0;
    let bottom = top + rows.len() as f64 * rh;
    let step = tick_step(max - min, 20.0);
    let mut ticks = Vec::new();
    let mut v = (min / step).ceil() * step;
    while v <= max && ticks.len() <= MAX_TICKS {
        ticks.push((v, num(v)));
        v += step;
    }
    s.push_str(&grid(&ticks, min, max, top, bottom));
    let x_of = |v: f64| PLOT_X + PLOT_W * ((v - min).max(0.0) / (max - min));
    for (r, (label, tallies)) in rows.iter().enumerate() {
        let ry = top + r as f64 * rh;
        s.push_str(&text(
            PLOT_X - 8.0,
            ry + rh / 2.0 + 4.0,
            11.0,
            "#111111",
            "end",
            label,
        ));
        for (i, t) in tallies.iter().enumerate() {
            let by = ry + 4.0 + i as f64 * 10.0;
            let colour = STUDY_COLOURS[i % STUDY_COLOURS.len()];
            let Some((t, f)) = t.and_then(|t| t.five_numbers().map(|f| (t, f))) else {
                continue;
            };
            let [lo, q1, med, q3, hi] = f.map(|v| v as f64);
            s.push_str(
                &Tag::new("line")
                    .attr("x1", x_of(lo))
                    .attr("x2", x_of(hi))
                    .attr("y1", by + 4.0)
                    .attr("y2", by + 4.0)
                    .attr("stroke", "#111111")
                    .close(),
            );
            s.push_str(
                &Tag::new("rect")
                    .attr("class", "box")
                    .attr("data-median", med)
                    .attr("x", x_of(q1))
                    .attr("y", by)
                    .attr("width", (x_of(q3) - x_of(q1)).max(1.0))
                    .attr("height", 8)
                    .attr("fill", colour)
                    .attr("stroke", "#111111")
                    .attr("stroke-width", 0.6)
                    .close(),
            );
            s.push_str(
                &Tag::new("line")
                    .attr("x1", x_of(med))
                    .attr("x2", x_of(med))
                    .attr("y1", by - 1.0)
                    .attr("y2", by + 9.0)
                    .attr("stroke", "#ffffff")
                    .attr("stroke-width", 2)
                    .close(),
            );
            if let Some(m) = t.mean_vp() {
                s.push_str(
                    &Tag::new("circle")
                        .attr("cx", x_of(m))
                        .attr("cy", by + 4.0)
                        .attr("r", 2.2)
                        .attr("fill", "#111111")
                        .close(),
                );
                s.push_str(&text(
                    PLOT_X + PLOT_W + 8.0,
                    by + 7.5,
                    9.0,
                    "#111111",
                    "start",
                    &format!("mean {} · median {}", num(m), num(med)),
                ));
            }
        }
    }
    s.push_str("</g>\n");
    (s, bottom - y + 16.0)
}

fn source_section(
    rows: &[(String, Vec<Option<&Tally>>)],
    studies: &[(String, Study)],
    y: f64,
) -> (String, f64) {
    let k = rows.first().map(|r| r.1.len()).unwrap_or(1);
    let rh = row_height(k);
    let sources: Vec<String> = studies
        .iter()
        .flat_map(|(_, s)| {
            s.factions
                .values()
                .flat_map(|t| t.vp_by_source.keys().cloned())
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let colour_of = |src: &str| {
        let i = sources.iter().position(|s| s == src).unwrap_or(0);
        SOURCE_COLOURS[i % SOURCE_COLOURS.len()]
    };
    // Positive sources stack right of zero; negative ones (e.g. spent VP) left of it.
    let mean = |t: &Tally, v: i64| v as f64 / t.games.max(1) as f64;
    let span = |t: &Tally| {
        let pos: f64 = t
            .vp_by_source
            .values()
            .filter(|v| **v > 0)
            .map(|v| mean(t, *v))
            .sum();
        let neg: f64 = t
            .vp_by_source
            .values()
            .filter(|v| **v < 0)
            .map(|v| -mean(t, *v))
            .sum();
        (pos, neg)
    };
    let (mut max_pos, mut max_neg) = (10.0f64, 0.0f64);
    for t in rows.iter().flat_map(|(_, ts)| ts.iter().flatten()) {
        let (p, n) = span(t);
        max_pos = max_pos.max(p);
        max_neg = max_neg.max(n);
    }
    let total = max_pos + max_neg;
    let zero = PLOT_X + PLOT_W * max_neg / total;
    let scale = PLOT_W / total;
    let mut s = Tag::new("g").attr("class", "chart vp-sources").open();
    s.push_str(&title(
        "Mean VP by source per faction (left of the line: VP lost)",
        y,
    ));
    let top = y + 22.0;
    let bottom = top + rows.len() as f64 * rh;
    let step = tick_step(total, 10.0);
    let mut ticks = Vec::new();
    let mut v = -(max_neg / step).floor() * step;
    while v <= max_pos && ticks.len() <= MAX_TICKS {
        ticks.push((v, num(v)));
        v += step;
    }
    s.push_str(&grid(&ticks, -max_neg, max_pos, top, bottom));
    for (r, (label, tallies)) in rows.iter().enumerate() {
        let ry = top + r as f64 * rh;
        s.push_str(&text(
            PLOT_X - 8.0,
            ry + rh / 2.0 + 4.0,
            11.0,
            "#111111",
            "end",
            label,
        ));
        for (i, t) in tallies.iter().enumerate() {
            let Some(t) = t.filter(|t| t.games > 0) else {
                continue;
            };
            let by = ry + 4.0 + i as f64 * 10.0;
            let (mut xp, mut xn) = (zero, zero);
            for (src, v) in &t.vp_by_source {
                let w = mean(t, *v).abs() * scale;
                let x = if *v >= 0 {
                    xp += w;
                    xp - w
                } else {
                    xn -= w;
                    xn
                };
                s.push_str(
                    &Tag::new("rect")
                        .attr("class", "source")
                        .attr("data-source", src.as_str())
                        .attr("x", x)
                        .attr("y", by)
                        .attr("width", w)
                        .attr("height", 8)
                        .attr("fill", colour_of(src))
                        .attr("stroke", STUDY_COLOURS[i % STUDY_COLOURS.len()])
                        .attr("stroke-width", 0.6)
                        .close(),
                );
            }
            s.push_str(&rect(
                zero - 6.0,
                by,
                4.0,
                8.0,
                STUDY_COLOURS[i % STUDY_COLOURS.len()],
                "none",
            ));
        }
    }
    s.push_str(
        &Tag::new("line")
            .attr("x1", zero)
            .attr("x2", zero)
            .attr("y1", top - 2.0)
            .attr("y2", bottom)
            .attr("stroke", "#111111")
            .close(),
    );
    // The sources' legend.
    let mut ly = bottom + 18.0;
    let per_row = 6;
    for (i, src) in sources.iter().enumerate() {
        let lx = PLOT_X + (i % per_row) as f64 * 120.0;
        if i > 0 && i % per_row == 0 {
            ly += 15.0;
        }
        s.push_str(&rect(lx, ly, 10.0, 10.0, colour_of(src), "#111111"));
        s.push_str(&text(lx + 14.0, ly + 9.0, 10.0, "#111111", "start", src));
    }
    s.push_str("</g>\n");
    (s, ly + 14.0 - y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u64, counts: &[(i64, u64)]) -> Tally {
        Tally {
            games: counts.iter().map(|c| c.1).sum(),
            wins,
            vp_sum: counts.iter().map(|(v, c)| v * *c as i64).sum(),
            vp_counts: counts.iter().map(|(v, c)| (v.to_string(), *c)).collect(),
            vp_by_source: BTreeMap::new(),
        }
    }

    #[test]
    fn wilson_intervals_match_known_values() {
        let (p, lo, hi) = wilson(10, 40).expect("games");
        assert_eq!(p, 0.25);
        assert!((lo - 0.1419).abs() < 5e-4 && (hi - 0.4019).abs() < 5e-4);
        let (_, lo, hi) = wilson(0, 5).expect("games");
        assert_eq!(lo, 0.0);
        assert!((hi - 0.4345).abs() < 5e-4);
        assert_eq!(wilson(0, 0), None);
    }

    #[test]
    fn quartiles_come_from_the_histogram() {
        let t = tally(1, &[(90, 1), (100, 2), (110, 1), (150, 1)]);
        assert_eq!(t.five_numbers(), Some([90, 100, 100, 110, 150]));
        assert_eq!(tally(0, &[]).five_numbers(), None);
    }

    #[test]
    fn inconsistent_tallies_are_refused() {
        let mut t = tally(3, &[(90, 2)]);
        assert!(t.check("x").unwrap_err().contains("3 wins in 2 games"));
        t.wins = 1;
        t.vp_counts.insert("lots".into(), 1);
        assert!(t.check("x").unwrap_err().contains("not a number"));
        let v = serde_json::json!({"format": "orrery-study/1", "games": 1, "factions": {}});
        assert!(Study::from_json(&v).is_ok());
        assert!(study_charts_svg(&[]).is_err());
        let bad = serde_json::json!({"format": "orrery-study/1", "games": 1});
        let e = study_charts_svg(&[("b".into(), bad)]).unwrap_err();
        assert!(e.starts_with("b: not a study"), "{e}");
    }

    #[test]
    fn ticks_stay_few_whatever_the_data_spans() {
        assert_eq!(tick_step(100.0, 20.0), 20.0);
        assert_eq!(tick_step(300.0, 20.0), 40.0);
        for range in [0.0, 1.0, 1e3, 1e9, 1e15, f64::MAX, f64::INFINITY, f64::NAN] {
            let step = tick_step(range, 10.0);
            assert!(step >= 10.0, "{range}: {step}");
            if range.is_finite() {
                assert!(range / step <= MAX_TICKS as f64, "{range}: {step}");
            }
        }
        // A study whose sources span a billion VP draws a small picture.
        let mut t = tally(1, &[(90, 2)]);
        t.vp_by_source.insert("cheat".into(), -1_000_000_000);
        t.vp_by_source.insert("fair".into(), 180);
        let v = serde_json::json!({"format": "orrery-study/1", "games": 2,
            "factions": {"a": t_json(&t)}, "seats": []});
        let svg = study_charts_svg(&[("s".into(), v)]).expect("drawn");
        assert!(svg.len() < 100_000, "{} bytes", svg.len());
    }

    fn t_json(t: &Tally) -> serde_json::Value {
        serde_json::json!({"games": t.games, "wins": t.wins, "vp_sum": t.vp_sum,
            "vp_counts": t.vp_counts, "vp_by_source": t.vp_by_source})
    }
}
