//! `orrery compare A.json B.json`: two studies played on the same seeds and line-ups (say, the
//! base game and a variant), paired game by game: per faction the difference B − A in win
//! rate and in mean VP, each with its 95% interval and a two-sided p-value of a paired t-test.
//! Studies that do not pair are refused, naming what differs. Items the studies tally (Gaia
//! Project's tiles, Terraforming Mars' corporations and cards) are set side by side over the
//! whole studies (not paired): how often the seats they were on offer to took them, how those
//! seats fared and the VP each brought.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;

use crate::render::svg::{document_start, text, Tag};
use crate::study::{GameOutcome, ItemTally, Study};

/// Items the table shows.
const ITEM_ROWS: usize = 12;

/// The format tag of `compare --json`.
pub const FORMAT: &str = "orrery-compare/1";

/// A paired difference: its mean over `n` pairs, 95% interval and p-value (`None` with
/// fewer than two pairs).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Paired {
    /// Pairs.
    pub n: u64,
    /// Mean of B − A.
    pub mean: f64,
    /// The 95% interval's low end.
    pub low: Option<f64>,
    /// Its high end.
    pub high: Option<f64>,
    /// Two-sided p-value of "no difference".
    pub p: Option<f64>,
}

impl Paired {
    /// The paired t-test of differences `d`.
    pub fn of(d: &[f64]) -> Paired {
        let n = d.len();
        let mean = if n == 0 {
            0.0
        } else {
            d.iter().sum::<f64>() / n as f64
        };
        if n < 2 {
            return Paired {
                n: n as u64,
                mean,
                low: None,
                high: None,
                p: None,
            };
        }
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let se = (var / n as f64).sqrt();
        let df = (n - 1) as f64;
        let (half, p) = if se == 0.0 {
            (0.0, if mean == 0.0 { 1.0 } else { 0.0 })
        } else {
            let t = mean / se;
            (t_quantile_975(df) * se, 2.0 * t_upper(t.abs(), df))
        };
        Paired {
            n: n as u64,
            mean,
            low: Some(mean - half),
            high: Some(mean + half),
            p: Some(p.clamp(0.0, 1.0)),
        }
    }
}

/// One faction's comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FactionDiff {
    /// Win rate in A and in B over the paired seats.
    pub win_rate: [f64; 2],
    /// Mean VP in A and in B over the paired seats.
    pub mean_vp: [f64; 2],
    /// B − A in winning (1 a win, 0 not), seat by seat.
    pub win_diff: Paired,
    /// B − A in VP, seat by seat.
    pub vp_diff: Paired,
}

/// One item over the two studies, A then B.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemDiff {
    /// Player-games it was on offer to the seat in.
    pub offered: [u64; 2],
    /// Player-games whose seat took it.
    pub takers: [u64; 2],
    /// `takers / offered`.
    pub take_rate: [f64; 2],
    /// The win rate of the seats that took it.
    pub win_rate: [f64; 2],
    /// Mean VP it brought a seat that took it.
    pub vp_per_take: [f64; 2],
    /// The two-proportion z of the change in take rate (0 when either study never offered
    /// it, or neither or both always took it).
    pub take_z: f64,
}

impl ItemDiff {
    fn of(a: Option<&ItemTally>, b: Option<&ItemTally>, players: u64) -> ItemDiff {
        let zero = ItemTally::default();
        let (a, b) = (a.unwrap_or(&zero), b.unwrap_or(&zero));
        let offered = |t: &ItemTally| {
            if t.seats_offered > 0 {
                t.seats_offered
            } else {
                t.games.saturating_mul(players)
            }
        };
        let n = [offered(a), offered(b)];
        let pooled = (a.takers + b.takers) as f64 / (n[0] + n[1]).max(1) as f64;
        let se = if n[0] == 0 || n[1] == 0 {
            0.0
        } else {
            (pooled * (1.0 - pooled) * (1.0 / n[0] as f64 + 1.0 / n[1] as f64)).sqrt()
        };
        let rate = [a.take_rate(players).0, b.take_rate(players).0];
        ItemDiff {
            take_z: if se > 0.0 {
                (rate[1] - rate[0]) / se
            } else {
                0.0
            },
            offered: n,
            takers: [a.takers, b.takers],
            take_rate: rate,
            win_rate: [a.win_rate().0, b.win_rate().0],
            vp_per_take: [a.vp_per_taker(), b.vp_per_taker()],
        }
    }

    /// B − A in take rate.
    pub fn take_change(&self) -> f64 {
        self.take_rate[1] - self.take_rate[0]
    }
}

/// Which difference of a faction a chart panel draws.
type Pick = fn(&FactionDiff) -> Paired;

/// What `compare` finds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Always [`FORMAT`].
    pub format: &'static str,
    /// The two files' names.
    pub studies: [String; 2],
    /// The two studies' variants.
    pub variants: [Vec<String>; 2],
    /// Games played to the end in both (the pairs).
    pub paired_games: u64,
    /// Games that failed in one study or both (not paired).
    pub unpaired_games: u64,
    /// Per faction.
    pub factions: BTreeMap<String, FactionDiff>,
    /// Every seat together (VP only says something: wins add up to the games).
    pub all_seats: FactionDiff,
    /// Per item kind and id, over the whole studies (absent when neither tallies items).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub items: BTreeMap<String, BTreeMap<String, ItemDiff>>,
}

/// Pairs two studies game by game, or says why they do not pair.
pub fn compare(names: [String; 2], a: &Study, b: &Study) -> Result<Comparison, String> {
    let (ca, cb) = (&a.config, &b.config);
    let differ = |what: &str, x: String, y: String| {
        format!(
            "the studies do not pair: {what} differ ({x} in {}, {y} in {})",
            names[0], names[1]
        )
    };
    if ca.game != cb.game {
        return Err(differ("games", ca.game.clone(), cb.game.clone()));
    }
    if ca.players != cb.players {
        return Err(differ(
            "players",
            ca.players.to_string(),
            cb.players.to_string(),
        ));
    }
    if ca.seed != cb.seed {
        return Err(differ("seeds", ca.seed.to_string(), cb.seed.to_string()));
    }
    if ca.games != cb.games {
        return Err(differ("games", ca.games.to_string(), cb.games.to_string()));
    }
    if ca.bots != cb.bots {
        return Err(differ("bots", ca.bots.join(","), cb.bots.join(",")));
    }
    if ca.factions != cb.factions {
        let show = |f: &crate::study::FactionChoice| match f {
            crate::study::FactionChoice::Random(r) => r.clone(),
            crate::study::FactionChoice::Given(l) => l.join(","),
        };
        return Err(differ("factions", show(&ca.factions), show(&cb.factions)));
    }
    for (name, s) in names.iter().zip([a, b]) {
        if s.config.shard != [1, 1] {
            return Err(format!(
                "{name} is shard {}/{} of a study; merge its shards first (`orrery merge`)",
                s.config.shard[0], s.config.shard[1]
            ));
        }
        if s.games > 0 && s.results.is_empty() {
            return Err(format!(
                "{name} keeps no per-game results (written before they were kept); run its \
                 study again to compare it"
            ));
        }
    }
    let by_index: BTreeMap<u64, &GameOutcome> = b.results.iter().map(|g| (g.index, g)).collect();
    let mut pairs: Vec<(&GameOutcome, &GameOutcome)> = Vec::new();
    for ga in &a.results {
        let Some(gb) = by_index.get(&ga.index) else {
            continue;
        };
        for (seat, (x, y)) in ga.seats.iter().zip(&gb.seats).enumerate() {
            if x.faction != y.faction || x.bot != y.bot {
                return Err(format!(
                    "the studies do not pair: game {} seat {} is {} ({}) in {} but {} ({}) in {}",
                    ga.index,
                    seat + 1,
                    x.faction,
                    x.bot,
                    names[0],
                    y.faction,
                    y.bot,
                    names[1]
                ));
            }
        }
        pairs.push((ga, gb));
    }
    let mut per: BTreeMap<String, Vec<[(bool, i32); 2]>> = BTreeMap::new();
    let mut all: Vec<[(bool, i32); 2]> = Vec::new();
    for (ga, gb) in &pairs {
        for (x, y) in ga.seats.iter().zip(&gb.seats) {
            let pair = [(x.won, x.vp), (y.won, y.vp)];
            per.entry(x.faction.clone()).or_default().push(pair);
            all.push(pair);
        }
    }
    let diff = |seats: &[[(bool, i32); 2]]| {
        let n = seats.len().max(1) as f64;
        let rate = |i: usize| seats.iter().filter(|p| p[i].0).count() as f64 / n;
        let vp = |i: usize| seats.iter().map(|p| f64::from(p[i].1)).sum::<f64>() / n;
        let wins: Vec<f64> = seats
            .iter()
            .map(|p| f64::from(u8::from(p[1].0)) - f64::from(u8::from(p[0].0)))
            .collect();
        let vps: Vec<f64> = seats
            .iter()
            .map(|p| f64::from(p[1].1) - f64::from(p[0].1))
            .collect();
        FactionDiff {
            win_rate: [rate(0), rate(1)],
            mean_vp: [vp(0), vp(1)],
            win_diff: Paired::of(&wins),
            vp_diff: Paired::of(&vps),
        }
    };
    let paired = pairs.len() as u64;
    let players = a.seats.len() as u64;
    let mut items: BTreeMap<String, BTreeMap<String, ItemDiff>> = BTreeMap::new();
    for (kind, ids) in a.items.iter().chain(&b.items) {
        for id in ids.keys() {
            let in_a = a.items.get(kind).and_then(|m| m.get(id));
            let in_b = b.items.get(kind).and_then(|m| m.get(id));
            items
                .entry(kind.clone())
                .or_default()
                .entry(id.clone())
                .or_insert_with(|| ItemDiff::of(in_a, in_b, players));
        }
    }
    Ok(Comparison {
        format: FORMAT,
        variants: [ca.variants.clone(), cb.variants.clone()],
        studies: names,
        paired_games: paired,
        unpaired_games: ca.games.saturating_sub(paired),
        factions: per.iter().map(|(f, s)| (f.clone(), diff(s))).collect(),
        all_seats: diff(&all),
        items,
    })
}

impl Comparison {
    /// The comparison as a table.
    pub fn table(&self) -> String {
        let variants = |v: &[String]| {
            if v.is_empty() {
                "base game".to_string()
            } else {
                v.join(" + ")
            }
        };
        let mut out = format!(
            "A = {} ({}), B = {} ({}): {} games paired{}\n",
            self.studies[0],
            variants(&self.variants[0]),
            self.studies[1],
            variants(&self.variants[1]),
            self.paired_games,
            if self.unpaired_games > 0 {
                format!(", {} failed in one or both (left out)", self.unpaired_games)
            } else {
                String::new()
            }
        );
        out.push_str(&format!(
            "{:<16} {:>5} {:>6} {:>6} {:>8} {:>17} {:>7} {:>7} {:>7} {:>7} {:>17} {:>7}\n",
            "faction",
            "seats",
            "win% A",
            "win% B",
            "Δwin",
            "95% CI",
            "p",
            "VP A",
            "VP B",
            "ΔVP",
            "95% CI",
            "p"
        ));
        let interval = |p: &Paired, scale: f64, unit: &str| match (p.low, p.high) {
            (Some(lo), Some(hi)) => format!("{:+.1}{unit} … {:+.1}{unit}", lo * scale, hi * scale),
            _ => "—".to_string(),
        };
        let pv = |p: &Paired| p.p.map_or_else(|| "—".to_string(), |p| format!("{p:.3}"));
        let rows = self
            .factions
            .iter()
            .map(|(f, d)| (f.as_str(), d))
            .chain(std::iter::once(("all seats", &self.all_seats)));
        for (f, d) in rows {
            out.push_str(&format!(
                "{f:<16} {:>5} {:>5.1}% {:>5.1}% {:>+7.1}% {:>17} {:>7} {:>7.1} {:>7.1} {:>+7.1} {:>17} {:>7}\n",
                d.vp_diff.n,
                100.0 * d.win_rate[0],
                100.0 * d.win_rate[1],
                100.0 * d.win_diff.mean,
                interval(&d.win_diff, 100.0, "%"),
                pv(&d.win_diff),
                d.mean_vp[0],
                d.mean_vp[1],
                d.vp_diff.mean,
                interval(&d.vp_diff, 1.0, ""),
                pv(&d.vp_diff),
            ));
        }
        out.push_str(
            "Δ = B − A, seat by seat on the same seed; 95% CI and p of a paired t-test.\n",
        );
        out.push_str(&self.items_table(ITEM_ROWS));
        out
    }

    /// The `n` items whose take rate changed most surely (by the change's z), side by side.
    fn items_table(&self, n: usize) -> String {
        let mut rows: Vec<(&str, &str, &ItemDiff)> = self
            .items
            .iter()
            .flat_map(|(k, ids)| ids.iter().map(move |(id, d)| (k.as_str(), id.as_str(), d)))
            .collect();
        if rows.is_empty() {
            return String::new();
        }
        rows.sort_by(|x, y| {
            y.2.take_z
                .abs()
                .total_cmp(&x.2.take_z.abs())
                .then((x.0, x.1).cmp(&(y.0, y.1)))
        });
        let mut out = format!(
            "\n{:<34} {:>9} {:>7} {:>7} {:>7} {:>5} {:>7} {:>7} {:>7} {:>7}\n",
            "items: take% changed most",
            "offer A/B",
            "take%A",
            "take%B",
            "Δtake",
            "z",
            "win%A",
            "win%B",
            "VP/t A",
            "VP/t B"
        );
        for (kind, id, d) in rows.iter().take(n) {
            out.push_str(&format!(
                "{:<34} {:>9} {:>6.1}% {:>6.1}% {:>+6.1}% {:>+5.1} {:>6.1}% {:>6.1}% {:>7.1} {:>7.1}\n",
                format!("{kind} {id}"),
                format!("{}/{}", d.offered[0], d.offered[1]),
                100.0 * d.take_rate[0],
                100.0 * d.take_rate[1],
                100.0 * d.take_change(),
                d.take_z,
                100.0 * d.win_rate[0],
                100.0 * d.win_rate[1],
                d.vp_per_take[0],
                d.vp_per_take[1],
            ));
        }
        out.push_str(&format!(
            "(whole studies, not paired: take% of the seats it was on offer to, z of its change, \
             win% and VP of those that took it; {} items in all in `--json`)\n",
            rows.len()
        ));
        out
    }

    /// The comparison as an SVG chart: per faction, the VP difference and the win-rate
    /// difference with their intervals around zero.
    pub fn svg(&self) -> String {
        const LABEL_W: f64 = 150.0;
        const PLOT_W: f64 = 300.0;
        const GAP: f64 = 60.0;
        const ROW: f64 = 18.0;
        let rows: Vec<(&str, &FactionDiff)> = self
            .factions
            .iter()
            .map(|(f, d)| (f.as_str(), d))
            .chain(std::iter::once(("all seats", &self.all_seats)))
            .collect();
        let top = 56.0;
        let height = top + ROW * rows.len() as f64 + 30.0;
        let width = LABEL_W + 2.0 * PLOT_W + GAP + 30.0;
        let mut s = document_start(width, height);
        s.push_str(
            &Tag::new("text")
                .attr("x", 12)
                .attr("y", 22)
                .attr("font-size", 15)
                .attr("font-weight", "bold")
                .attr("fill", "#111111")
                .text(
                    "text",
                    &format!(
                        "{} vs {}: B − A per faction, paired over {} games (95% intervals)",
                        self.studies[1], self.studies[0], self.paired_games
                    ),
                ),
        );
        // Each panel's half-width: the largest end of any interval (or mean), at least 1.
        let extent = |f: Pick, least: f64| {
            rows.iter()
                .map(|(_, d)| {
                    let p = f(d);
                    p.mean
                        .abs()
                        .max(p.low.unwrap_or(0.0).abs())
                        .max(p.high.unwrap_or(0.0).abs())
                })
                .fold(least, f64::max)
        };
        let vp: Pick = |d| d.vp_diff;
        let win: Pick = |d| d.win_diff;
        let panels = [
            ("ΔVP", LABEL_W, vp, extent(vp, 1.0), ""),
            (
                "Δ win rate",
                LABEL_W + PLOT_W + GAP,
                win,
                extent(win, 0.05),
                "%",
            ),
        ];
        for (heading, x0, get, half, unit) in &panels {
            let scale = if unit.is_empty() { 1.0 } else { 100.0 };
            let at = |v: f64| x0 + PLOT_W / 2.0 + PLOT_W / 2.0 * v / half;
            s.push_str(&text(
                at(0.0),
                top - 10.0,
                12.0,
                "#111111",
                "middle",
                heading,
            ));
            for v in [-*half, 0.0, *half] {
                s.push_str(&text(
                    at(v),
                    top + ROW * rows.len() as f64 + 14.0,
                    9.5,
                    "#555b66",
                    "middle",
                    &format!("{:+.1}{unit}", v * scale),
                ));
            }
            s.push_str(
                &Tag::new("line")
                    .attr("x1", at(0.0))
                    .attr("x2", at(0.0))
                    .attr("y1", top - 4.0)
                    .attr("y2", top + ROW * rows.len() as f64)
                    .attr("stroke", "#888888")
                    .close(),
            );
            for (r, (_, d)) in rows.iter().enumerate() {
                let p = get(d);
                let y = top + ROW * r as f64;
                let (a, b) = (at(0.0).min(at(p.mean)), at(0.0).max(at(p.mean)));
                let colour = if p.mean >= 0.0 { "#4e79a7" } else { "#e15759" };
                s.push_str(
                    &Tag::new("rect")
                        .attr("class", "diff")
                        .attr("data-mean", format!("{:.4}", p.mean))
                        .attr("x", a)
                        .attr("y", y + 4.0)
                        .attr("width", b - a)
                        .attr("height", ROW - 8.0)
                        .attr("fill", colour)
                        .close(),
                );
                if let (Some(lo), Some(hi)) = (p.low, p.high) {
                    s.push_str(
                        &Tag::new("line")
                            .attr("class", "interval")
                            .attr("x1", at(lo))
                            .attr("x2", at(hi))
                            .attr("y1", y + ROW / 2.0)
                            .attr("y2", y + ROW / 2.0)
                            .attr("stroke", "#111111")
                            .attr("stroke-width", 1.3)
                            .close(),
                    );
                }
            }
        }
        for (r, (f, d)) in rows.iter().enumerate() {
            let y = top + ROW * r as f64;
            s.push_str(&text(
                LABEL_W - 8.0,
                y + ROW / 2.0 + 4.0,
                11.0,
                "#111111",
                "end",
                &format!("{f} ({})", d.vp_diff.n),
            ));
        }
        s.push_str("</svg>\n");
        s
    }
}

/// `orrery compare`: the table, or `--json`; `--chart FILE.svg` draws it. Exit 0, 1 when a
/// study cannot be read or the two do not pair.
pub fn run(a: &Path, b: &Path, json: bool, chart: Option<&PathBuf>) -> ExitCode {
    let read = |p: &Path| {
        std::fs::read_to_string(p)
            .map_err(|e| format!("cannot read {}: {e}", p.display()))
            .and_then(|t| Study::from_json_text(&t).map_err(|e| format!("{}: {e}", p.display())))
    };
    let studies = read(a).and_then(|x| read(b).map(|y| (x, y)));
    let result = studies
        .and_then(|(x, y)| compare([a.display().to_string(), b.display().to_string()], &x, &y));
    let c = match result {
        Ok(c) => c,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if json {
        let mut text = serde_json::to_string_pretty(&c).unwrap_or_default();
        text.push('\n');
        out!("{text}");
    } else {
        out!("{}", c.table());
    }
    if let Some(path) = chart {
        if let Err(e) = crate::out::write_file(path, c.svg().as_bytes()) {
            errln!("error: {e}");
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

/// The upper tail P(T > t) of Student's t with `df` degrees of freedom.
fn t_upper(t: f64, df: f64) -> f64 {
    let x = df / (df + t * t);
    0.5 * incomplete_beta(df / 2.0, 0.5, x)
}

/// The t value with 2.5% above it, found by bisection on [`t_upper`].
fn t_quantile_975(df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1000.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if t_upper(mid, df) > 0.025 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The regularized incomplete beta function I_x(a, b), by its continued fraction.
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    let front = ln_front.exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    d = if d.abs() < TINY { TINY } else { d };
    d = 1.0 / d;
    let mut h = d;
    for m in 1..300 {
        let m = f64::from(m);
        for num in [
            m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0)),
        ] {
            d = 1.0 + num * d;
            d = if d.abs() < TINY { TINY } else { d };
            c = 1.0 + num / c;
            c = if c.abs() < TINY { TINY } else { c };
            d = 1.0 / d;
            h *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_distribution_matches_tables() {
        // Two-sided 95% critical values of Student's t.
        for (df, want) in [(1.0, 12.706), (5.0, 2.571), (30.0, 2.042), (1000.0, 1.962)] {
            let got = t_quantile_975(df);
            assert!((got - want).abs() < 2e-3, "df {df}: {got}");
        }
        assert!((2.0 * t_upper(2.0, 10.0) - 0.0734).abs() < 1e-3);
    }

    #[test]
    fn a_paired_test_of_known_differences() {
        // Mean 1, sd √(2/3) over 4 pairs: t ≈ 2.449, df 3, two-sided p ≈ 0.092.
        let p = Paired::of(&[0.0, 1.0, 1.0, 2.0]);
        assert_eq!(p.n, 4);
        assert!((p.mean - 1.0).abs() < 1e-12);
        let sd = (2.0f64 / 3.0).sqrt();
        let half = 3.182 * sd / 2.0;
        assert!((p.low.unwrap() - (1.0 - half)).abs() < 1e-2, "{p:?}");
        assert!((p.p.unwrap() - 0.0917).abs() < 1e-2, "{p:?}");
        // No spread: the interval is the mean, p is 1 for no difference, 0 otherwise.
        assert_eq!(Paired::of(&[0.0, 0.0]).p, Some(1.0));
        assert_eq!(Paired::of(&[3.0, 3.0]).p, Some(0.0));
        assert_eq!(Paired::of(&[3.0]).p, None);
    }
}
