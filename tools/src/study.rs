//! The study file (`orrery-study/1`): what a balance study's summary is computed from, as
//! exact integer sums, so shards merge exactly; and the summary derived from it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The format tag of study files.
pub const FORMAT: &str = "orrery-study/1";

/// What one seat of one game adds to a tally.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Player-games.
    pub games: u64,
    /// Wins (a shared first place is a win for each tied player).
    pub wins: u64,
    /// Sum of final VP.
    pub vp_sum: i64,
    /// Histogram of final VP (key: VP as a decimal string).
    pub vp_counts: BTreeMap<String, u64>,
    /// Sum over games of VP by source.
    pub vp_by_source: BTreeMap<String, i64>,
}

impl Tally {
    /// Adds one player-game.
    pub fn add_game(&mut self, won: bool, vp: i32, sources: &BTreeMap<String, i32>) {
        self.games += 1;
        self.wins += u64::from(won);
        self.vp_sum += i64::from(vp);
        *self.vp_counts.entry(vp.to_string()).or_default() += 1;
        for (k, v) in sources {
            *self.vp_by_source.entry(k.clone()).or_default() += i64::from(*v);
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.vp_sum += other.vp_sum;
        for (k, n) in &other.vp_counts {
            *self.vp_counts.entry(k.clone()).or_default() += n;
        }
        for (k, n) in &other.vp_by_source {
            *self.vp_by_source.entry(k.clone()).or_default() += n;
        }
    }

    /// Mean final VP.
    pub fn mean_vp(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.vp_sum as f64 / self.games as f64
        }
    }

    /// Median final VP (the mean of the two middle values for an even count).
    pub fn median_vp(&self) -> f64 {
        let mut values: Vec<(i64, u64)> = self
            .vp_counts
            .iter()
            .filter_map(|(k, n)| k.parse::<i64>().ok().map(|v| (v, *n)))
            .collect();
        values.sort();
        let total: u64 = values.iter().map(|(_, n)| n).sum();
        if total == 0 {
            return 0.0;
        }
        let nth = |idx: u64| {
            let mut seen = 0;
            for (v, n) in &values {
                seen += n;
                if idx < seen {
                    return *v as f64;
                }
            }
            0.0
        };
        if total % 2 == 1 {
            nth(total / 2)
        } else {
            (nth(total / 2 - 1) + nth(total / 2)) / 2.0
        }
    }

    /// The win rate and its 95% Wilson interval.
    pub fn win_rate(&self) -> (f64, f64, f64) {
        wilson(self.wins, self.games)
    }
}

/// A rate `k/n` with its 95% Wilson score interval `(rate, low, high)`.
pub fn wilson(k: u64, n: u64) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n_f = n as f64;
    let p = k as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = z * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
    (p, (centre - half).max(0.0), (centre + half).min(1.0))
}

/// How a study was asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// Seats per game.
    pub players: usize,
    /// `"random"` or the faction ids given.
    pub factions: FactionChoice,
    /// Bot names as given; rotated over seats.
    pub bots: Vec<String>,
    /// Overlays stacked, in order.
    pub variants: Vec<String>,
    /// The study's seed.
    pub seed: u64,
    /// Games of the whole study (all shards).
    pub games: u64,
    /// This file's slice: K of N (1-based).
    pub shard: [u64; 2],
}

/// Factions drawn at random, or the ones given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FactionChoice {
    /// The word `random`.
    Random(String),
    /// Faction ids, rotated over seats.
    Given(Vec<String>),
}

/// Wall time, the one field that differs between identical runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Seconds the games took.
    pub seconds: f64,
}

/// A study file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Study {
    /// Always [`FORMAT`].
    pub format: String,
    /// How it was asked for.
    pub config: Config,
    /// Games in this file.
    pub games: u64,
    /// Per faction id.
    pub factions: BTreeMap<String, Tally>,
    /// Per bot name.
    pub bots: BTreeMap<String, Tally>,
    /// Per seat, in turn order at setup.
    pub seats: Vec<Tally>,
    /// Wall time.
    pub timing: Timing,
}

impl Study {
    /// An empty study for a configuration.
    pub fn new(config: Config) -> Study {
        Study {
            format: FORMAT.into(),
            seats: vec![Tally::default(); config.players],
            config,
            games: 0,
            factions: BTreeMap::new(),
            bots: BTreeMap::new(),
            timing: Timing::default(),
        }
    }

    /// Adds another study's sums (same configuration apart from the shard).
    pub fn absorb(&mut self, other: &Study) {
        self.games += other.games;
        for (k, t) in &other.factions {
            self.factions.entry(k.clone()).or_default().merge(t);
        }
        for (k, t) in &other.bots {
            self.bots.entry(k.clone()).or_default().merge(t);
        }
        for (mine, t) in self.seats.iter_mut().zip(&other.seats) {
            mine.merge(t);
        }
        self.timing.seconds += other.timing.seconds;
    }

    /// The study as pretty JSON (keys of maps sorted), ending with a newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// One CSV row per faction, bot and seat.
    pub fn to_csv(&self) -> String {
        let mut out =
            String::from("group,id,games,wins,win_rate,win_low,win_high,mean_vp,median_vp\n");
        let rows = self
            .factions
            .iter()
            .map(|(k, t)| ("faction", k.clone(), t))
            .chain(self.bots.iter().map(|(k, t)| ("bot", k.clone(), t)))
            .chain(
                self.seats
                    .iter()
                    .enumerate()
                    .map(|(i, t)| ("seat", (i + 1).to_string(), t)),
            );
        for (group, id, t) in rows {
            let (p, lo, hi) = t.win_rate();
            out.push_str(&format!(
                "{group},{id},{},{},{p:.4},{lo:.4},{hi:.4},{:.2},{:.1}\n",
                t.games,
                t.wins,
                t.mean_vp(),
                t.median_vp()
            ));
        }
        out
    }

    /// The summary table: per faction, per bot and per seat.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let mut section = |title: &str, rows: Vec<(String, &Tally)>| {
            out.push_str(&format!(
                "{title:<16} {:>6} {:>6} {:>7} {:>15} {:>7} {:>7}\n",
                "games", "wins", "win%", "95% CI", "meanVP", "medVP"
            ));
            for (id, t) in rows {
                let (p, lo, hi) = t.win_rate();
                out.push_str(&format!(
                    "{id:<16} {:>6} {:>6} {:>6.1}% {:>15} {:>7.1} {:>7.1}\n",
                    t.games,
                    t.wins,
                    100.0 * p,
                    format!("{:.1}–{:.1}%", 100.0 * lo, 100.0 * hi),
                    t.mean_vp(),
                    t.median_vp()
                ));
            }
            out.push('\n');
        };
        section(
            "faction",
            self.factions.iter().map(|(k, t)| (k.clone(), t)).collect(),
        );
        section(
            "bot",
            self.bots.iter().map(|(k, t)| (k.clone(), t)).collect(),
        );
        section(
            "seat",
            self.seats
                .iter()
                .enumerate()
                .map(|(i, t)| (format!("seat {}", i + 1), t))
                .collect(),
        );
        out.push_str(&self.sources_table());
        out
    }

    /// Mean VP by source, per faction and per bot (one column per source).
    fn sources_table(&self) -> String {
        let mut keys: Vec<&String> = self
            .factions
            .values()
            .flat_map(|t| t.vp_by_source.keys())
            .collect();
        keys.sort();
        keys.dedup();
        // Each column as wide as its source's name, so no name is cut.
        let widths: Vec<usize> = keys.iter().map(|k| k.chars().count().max(6)).collect();
        let mut out = format!("{:<16}", "mean VP by source");
        for (k, w) in keys.iter().zip(&widths) {
            out.push_str(&format!(" {k:>w$}"));
        }
        out.push('\n');
        let rows = self
            .factions
            .iter()
            .chain(self.bots.iter())
            .map(|(id, t)| (id.as_str(), t));
        for (id, t) in rows {
            out.push_str(&format!("{id:<16}"));
            for (k, w) in keys.iter().zip(&widths) {
                let sum = t.vp_by_source.get(*k).copied().unwrap_or(0);
                let mean = if t.games == 0 {
                    0.0
                } else {
                    sum as f64 / t.games as f64
                };
                out.push_str(&format!(" {mean:>w$.1}"));
            }
            out.push('\n');
        }
        out
    }
}

/// Merges shards of one study: same configuration apart from the shard, each slice once.
pub fn merge(mut shards: Vec<Study>) -> Result<Study, String> {
    let Some(first) = shards.first() else {
        return Err("no shard given".into());
    };
    let n = first.config.shard[1];
    let mut seen = vec![false; usize::try_from(n).map_err(|_| "bad shard count")?];
    for s in &shards {
        if s.format != FORMAT {
            return Err(format!("not an {FORMAT} file (format {:?})", s.format));
        }
        let mut c = s.config.clone();
        c.shard = first.config.shard;
        if c != first.config {
            return Err("shards come from different studies (their configurations differ)".into());
        }
        let [k, count] = s.config.shard;
        if count != n || k == 0 || k > n {
            return Err(format!("bad shard {k}/{count}"));
        }
        let slot = &mut seen[(k - 1) as usize];
        if *slot {
            return Err(format!("shard {k}/{n} given twice"));
        }
        *slot = true;
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(format!("shard {}/{n} is missing", missing + 1));
    }
    shards.sort_by_key(|s| s.config.shard[0]);
    let mut config = shards[0].config.clone();
    config.shard = [1, 1];
    let mut out = Study::new(config);
    for s in &shards {
        out.absorb(s);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        let (p, lo, hi) = wilson(8, 10);
        assert!((p - 0.8).abs() < 1e-12);
        assert!((lo - 0.4902).abs() < 1e-3, "{lo}");
        assert!((hi - 0.9433).abs() < 1e-3, "{hi}");
        assert_eq!(wilson(0, 0), (0.0, 0.0, 1.0));
    }

    #[test]
    fn median_reads_the_histogram() {
        let mut t = Tally::default();
        for vp in [100, 87, 90, 120] {
            t.add_game(false, vp, &BTreeMap::new());
        }
        assert_eq!(t.median_vp(), 95.0);
        t.add_game(true, 50, &BTreeMap::new());
        assert_eq!(t.median_vp(), 90.0);
        assert_eq!(t.wins, 1);
    }
}
