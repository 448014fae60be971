//! The study file (`orrery-study/1`): what a balance study's summary is computed from, as
//! exact integer sums, so shards merge exactly; and the summary derived from it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Adds each named field of `$other` to `$sum`, or returns the error `$over(field)` at the
/// first that would overflow.
macro_rules! add_fields {
    ($sum:ident, $other:ident, $over:ident, $($field:ident),+) => {
        $(
            $sum.$field = $sum
                .$field
                .checked_add($other.$field)
                .ok_or_else(|| $over(stringify!($field)))?;
        )+
    };
}

/// The format tag of study files.
pub const FORMAT: &str = "orrery-study/1";

/// The most VP (either sign) a study file may say one seat scored in one game, or gained from
/// one source: far above any game, so an edited file cannot make a chart or a mean absurd.
pub const MAX_STUDY_VP: i64 = 100_000;

/// How many failed games a study file lists (all are counted).
pub const MAX_LISTED_FAILURES: usize = 20;

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

    /// Adds another tally; a sum beyond the counters' range is refused (`what` names the
    /// tally), leaving this one as it was.
    pub fn merge(&mut self, other: &Tally, what: &str) -> Result<(), String> {
        let over = |field: &str| format!("{what}: {field} overflows when merged");
        let mut sum = self.clone();
        add_fields!(sum, other, over, games, wins, vp_sum);
        for (k, n) in &other.vp_counts {
            let c = sum.vp_counts.entry(k.clone()).or_default();
            *c = c.checked_add(*n).ok_or_else(|| over("vp_counts"))?;
        }
        for (k, n) in &other.vp_by_source {
            let c = sum.vp_by_source.entry(k.clone()).or_default();
            *c = c.checked_add(*n).ok_or_else(|| over("vp_by_source"))?;
        }
        *self = sum;
        Ok(())
    }

    /// What a tally must hold to be one: at most `games` wins, a VP histogram of exactly
    /// `games` games whose keys are VP within [`MAX_STUDY_VP`] and whose values sum to
    /// `vp_sum`, VP by source within [`MAX_STUDY_VP`] per game.
    pub fn check(&self, what: &str) -> Result<(), String> {
        if self.wins > self.games {
            return Err(format!(
                "{what}: {} wins in {} games",
                self.wins, self.games
            ));
        }
        let mut n: u64 = 0;
        let mut sum: i128 = 0;
        for (k, c) in &self.vp_counts {
            let vp = k
                .parse::<i64>()
                .ok()
                .filter(|v| v.abs() <= MAX_STUDY_VP)
                .ok_or_else(|| {
                    format!(
                        "{what}: VP \"{k}\" in vp_counts is not a number within ±{MAX_STUDY_VP}"
                    )
                })?;
            n = n
                .checked_add(*c)
                .ok_or_else(|| format!("{what}: vp_counts overflow"))?;
            sum += i128::from(vp) * i128::from(*c);
        }
        if n != self.games {
            return Err(format!(
                "{what}: vp_counts hold {n} games, the tally {}",
                self.games
            ));
        }
        if sum != i128::from(self.vp_sum) {
            return Err(format!(
                "{what}: vp_sum {} is not the sum of vp_counts ({sum})",
                self.vp_sum
            ));
        }
        let bound = i128::from(MAX_STUDY_VP) * i128::from(self.games);
        if let Some((k, v)) = self
            .vp_by_source
            .iter()
            .find(|(_, v)| i128::from(**v).abs() > bound)
        {
            return Err(format!(
                "{what}: vp_by_source.{k} = {v} is beyond ±{MAX_STUDY_VP} VP a game"
            ));
        }
        Ok(())
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

fn gaia_project() -> String {
    crate::games::GameName::GaiaProject.id().to_string()
}

/// One item (a tile, a booster…) over a study: how often it was on offer and taken, by whom,
/// how the seats that took it fared, and the VP it brought.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemTally {
    /// Games in which it was on offer.
    pub games: u64,
    /// Player-games in which it was on offer to the seat (a card dealt or drawn to it); 0 in
    /// studies written before this was kept.
    #[serde(default)]
    pub seats_offered: u64,
    /// Times it was taken (or scored), all seats.
    pub taken: u64,
    /// Player-games in which the seat took it at least once.
    pub takers: u64,
    /// Of those, the player-games won.
    pub taker_wins: u64,
    /// VP it brought, all seats.
    pub vp: i64,
    /// Times taken by faction.
    pub by_faction: BTreeMap<String, u64>,
}

impl ItemTally {
    /// Adds another tally; a sum beyond the counters' range is refused, leaving this one as
    /// it was.
    pub fn merge(&mut self, other: &ItemTally, what: &str) -> Result<(), String> {
        let over = |field: &str| format!("{what}: {field} overflows when merged");
        let mut sum = self.clone();
        add_fields!(
            sum,
            other,
            over,
            games,
            seats_offered,
            taken,
            takers,
            taker_wins,
            vp
        );
        for (k, n) in &other.by_faction {
            let c = sum.by_faction.entry(k.clone()).or_default();
            *c = c.checked_add(*n).ok_or_else(|| over("by_faction"))?;
        }
        *self = sum;
        Ok(())
    }

    /// What an item's tally must hold within a study of `games` games of `players` seats:
    /// on offer in at most every game, taken by at most every seat of those games, no more
    /// wins than takers, no more takers than times taken, times taken by faction adding up,
    /// VP within [`MAX_STUDY_VP`] a player-game.
    pub fn check(&self, what: &str, games: u64, players: usize) -> Result<(), String> {
        let seat_games = u128::from(self.games) * players as u128;
        if self.games > games {
            return Err(format!(
                "{what}: on offer in {} games of {games}",
                self.games
            ));
        }
        if u128::from(self.seats_offered) > seat_games {
            return Err(format!(
                "{what}: on offer to {} seats in {} player-games",
                self.seats_offered, seat_games
            ));
        }
        if self.seats_offered > 0 && self.takers > self.seats_offered {
            return Err(format!(
                "{what}: {} takers of {} seats it was on offer to",
                self.takers, self.seats_offered
            ));
        }
        if u128::from(self.takers) > seat_games {
            return Err(format!(
                "{what}: {} takers in {} player-games",
                self.takers, seat_games
            ));
        }
        if self.taker_wins > self.takers || self.takers > self.taken {
            return Err(format!(
                "{what}: {} wins of {} takers who took it {} times",
                self.taker_wins, self.takers, self.taken
            ));
        }
        let by: u128 = self.by_faction.values().map(|n| u128::from(*n)).sum();
        if by != u128::from(self.taken) {
            return Err(format!(
                "{what}: taken {} times, {by} by faction",
                self.taken
            ));
        }
        if i128::from(self.vp).abs() > i128::from(MAX_STUDY_VP) * seat_games as i128 {
            return Err(format!(
                "{what}: vp {} is beyond ±{MAX_STUDY_VP} VP a player-game",
                self.vp
            ));
        }
        Ok(())
    }

    /// The win rate of the seats that took it, with its 95% Wilson interval.
    pub fn win_rate(&self) -> (f64, f64, f64) {
        wilson(self.taker_wins, self.takers)
    }

    /// The share of the seats it was on offer to that took it, with its 95% Wilson interval
    /// (studies written before offers to seats were kept: of every seat of the games it was
    /// on offer in).
    pub fn take_rate(&self, players: u64) -> (f64, f64, f64) {
        let offered = if self.seats_offered > 0 {
            self.seats_offered
        } else {
            self.games.saturating_mul(players)
        };
        wilson(self.takers, offered)
    }

    /// Mean VP it brought a seat that took it.
    pub fn vp_per_taker(&self) -> f64 {
        if self.takers == 0 {
            0.0
        } else {
            self.vp as f64 / self.takers as f64
        }
    }
}

/// How many wins were a first place shared with another seat, and the wins with each shared
/// one split among the seats sharing it ([`Study::shared_wins`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SharedWins {
    /// Games whose first place was shared.
    pub games: u64,
    /// Per faction: (shared wins, wins split).
    pub factions: BTreeMap<String, (u64, f64)>,
    /// Per bot: (shared wins, wins split).
    pub bots: BTreeMap<String, (u64, f64)>,
    /// Per seat: (shared wins, wins split).
    pub seats: Vec<(u64, f64)>,
}

/// One seat of one game, as `compare` pairs them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatOutcome {
    /// Who played the seat (faction…).
    pub faction: String,
    /// The bot.
    pub bot: String,
    /// Final VP.
    pub vp: i32,
    /// Whether it won (a shared first place too).
    pub won: bool,
}

/// One game played to the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOutcome {
    /// Its index in the study (0-based).
    pub index: u64,
    /// Its seats, in turn order at setup.
    pub seats: Vec<SeatOutcome>,
}

/// How a study was asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The game played (absent in studies written before there were two games: Gaia
    /// Project).
    #[serde(default = "gaia_project")]
    pub game: String,
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
    /// The identity of the content stack the games were played on: a hash of every file that
    /// shaped it (base files, overlays, scripts); shards merge only when it is the same.
    pub content: String,
    /// The learned evaluation `best` played with, when a bot was `best`: a hash of the
    /// weights as read and the command that trained them ([`crate::train::identity`]);
    /// absent when no bot used one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<String>,
}

/// The games of a study that failed: how many, and the first few with their seeds and why.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failures {
    /// Failed games (not counted in `games` or any tally).
    pub count: u64,
    /// The first [`MAX_LISTED_FAILURES`] by game index.
    pub games: Vec<FailedGame>,
}

/// One failed game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedGame {
    /// Its index in the study (0-based).
    pub index: u64,
    /// Its seed.
    pub seed: u64,
    /// Why it failed.
    pub reason: String,
}

impl Failures {
    /// Notes a failed game.
    pub fn add(&mut self, index: u64, seed: u64, reason: &str) {
        self.count = self.count.saturating_add(1);
        self.games.push(FailedGame {
            index,
            seed,
            reason: reason.to_string(),
        });
        self.games.sort_by_key(|g| g.index);
        self.games.truncate(MAX_LISTED_FAILURES);
    }

    /// One line for the summary: `2 games failed: game 3 (seed 17): why; …`, or `None`.
    pub fn summary(&self) -> Option<String> {
        (self.count > 0).then(|| {
            let listed: Vec<String> = self
                .games
                .iter()
                .take(3)
                .map(|g| format!("game {} (seed {}): {}", g.index, g.seed, g.reason))
                .collect();
            format!(
                "{} game{} failed: {}{}",
                self.count,
                if self.count == 1 { "" } else { "s" },
                listed.join("; "),
                if self.count > 3 { "; …" } else { "" }
            )
        })
    }
}

/// What one seat of one game played to the end brings to a study.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatPlay {
    /// Who played it, its VP and whether it won.
    pub outcome: SeatOutcome,
    /// Its VP by source.
    pub sources: BTreeMap<String, i32>,
    /// The items of the game as the seat met them.
    pub items: Vec<orrery_core::game_module::ItemUse>,
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
    /// Games in this file that were played to the end (the tallies' games).
    pub games: u64,
    /// Games of this file's slice that failed.
    pub failed: Failures,
    /// Per faction id.
    pub factions: BTreeMap<String, Tally>,
    /// Per bot name.
    pub bots: BTreeMap<String, Tally>,
    /// Per seat, in turn order at setup.
    pub seats: Vec<Tally>,
    /// Per item kind and id (absent in studies written before items were tallied).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub items: BTreeMap<String, BTreeMap<String, ItemTally>>,
    /// Every game played to the end, by index (absent in studies written before they were
    /// kept; `compare` needs them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<GameOutcome>,
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
            failed: Failures::default(),
            factions: BTreeMap::new(),
            bots: BTreeMap::new(),
            items: BTreeMap::new(),
            results: Vec::new(),
            timing: Timing::default(),
        }
    }

    /// Adds another study's sums (same configuration apart from the shard); a sum beyond the
    /// counters' range is refused.
    pub fn absorb(&mut self, other: &Study) -> Result<(), String> {
        self.games = self
            .games
            .checked_add(other.games)
            .ok_or("games overflow when merged")?;
        for (k, t) in &other.factions {
            self.factions
                .entry(k.clone())
                .or_default()
                .merge(t, &format!("faction {k}"))?;
        }
        for (k, t) in &other.bots {
            self.bots
                .entry(k.clone())
                .or_default()
                .merge(t, &format!("bot {k}"))?;
        }
        for (i, (mine, t)) in self.seats.iter_mut().zip(&other.seats).enumerate() {
            mine.merge(t, &format!("seat {}", i + 1))?;
        }
        for (kind, ids) in &other.items {
            let mine = self.items.entry(kind.clone()).or_default();
            for (id, t) in ids {
                mine.entry(id.clone())
                    .or_default()
                    .merge(t, &format!("{kind} {id}"))?;
            }
        }
        self.results.extend(other.results.iter().cloned());
        self.results.sort_by_key(|g| g.index);
        self.failed.count = self
            .failed
            .count
            .checked_add(other.failed.count)
            .ok_or("failed games overflow when merged")?;
        self.failed.games.extend(other.failed.games.iter().cloned());
        self.failed.games.sort_by_key(|g| g.index);
        self.failed.games.truncate(MAX_LISTED_FAILURES);
        self.timing.seconds += other.timing.seconds;
        Ok(())
    }

    /// Reads a study file's JSON text and checks that it holds together ([`Study::check`]);
    /// `merge` and `chart` read studies through here.
    pub fn from_json_text(text: &str) -> Result<Study, String> {
        orrery_core::unique_keys::check(text).map_err(|e| format!("not a study file: {e}"))?;
        // The format first, so a file of another format is named as such.
        #[derive(Deserialize)]
        struct Tag {
            format: Option<String>,
        }
        let tag: Tag = serde_json::from_str(text).map_err(|e| format!("not a study file: {e}"))?;
        if tag.format.as_deref() != Some(FORMAT) {
            return Err(format!(
                "not an {FORMAT} file (format {:?})",
                tag.format.unwrap_or_default()
            ));
        }
        let study: Study =
            serde_json::from_str(text).map_err(|e| format!("not a study file: {e}"))?;
        study.check()?;
        Ok(study)
    }

    /// What a study file must hold to be one: its format; 1 to 8 players, a shard K of N,
    /// one tally per seat; its slice's games all played or failed; every seat's tally of every
    /// game played, factions' and bots' tallies of a seat each a game; each tally
    /// consistent ([`Tally::check`]); no more failures listed than counted.
    pub fn check(&self) -> Result<(), String> {
        if self.format != FORMAT {
            return Err(format!("not an {FORMAT} file (format {:?})", self.format));
        }
        let c = &self.config;
        if crate::games::GameName::parse(&c.game).is_none() {
            return Err(format!(
                "config.game {:?} is not a game Orrery plays",
                c.game
            ));
        }
        if !(1..=8).contains(&c.players) {
            return Err(format!("config.players {} is not 1 to 8", c.players));
        }
        let [k, n] = c.shard;
        if k == 0 || n == 0 || k > n {
            return Err(format!("config.shard {k}/{n} is not a slice K of N"));
        }
        if c.content.is_empty() {
            return Err("config.content (the content stack's identity) is empty".into());
        }
        let slice = crate::simulate::shard_range(c.games, c.shard);
        let accounted = self
            .games
            .checked_add(self.failed.count)
            .ok_or("games and failed games overflow")?;
        if accounted != slice.end - slice.start {
            return Err(format!(
                "{} games played and {} failed, but shard {k}/{n} of {} games has {}",
                self.games,
                self.failed.count,
                c.games,
                slice.end - slice.start
            ));
        }
        if self.failed.games.len() as u64 > self.failed.count
            || self.failed.games.len() > MAX_LISTED_FAILURES
        {
            return Err(format!(
                "{} failed games listed of {} counted",
                self.failed.games.len(),
                self.failed.count
            ));
        }
        if self.seats.len() != c.players {
            return Err(format!(
                "{} seat tallies for {} players",
                self.seats.len(),
                c.players
            ));
        }
        for (i, t) in self.seats.iter().enumerate() {
            t.check(&format!("seat {}", i + 1))?;
            if t.games != self.games {
                return Err(format!(
                    "seat {} has {} games of {}",
                    i + 1,
                    t.games,
                    self.games
                ));
            }
        }
        let seat_games = u128::from(self.games) * c.players as u128;
        for (group, tallies) in [("faction", &self.factions), ("bot", &self.bots)] {
            let mut sum: u128 = 0;
            for (id, t) in tallies {
                t.check(&format!("{group} {id}"))?;
                sum += u128::from(t.games);
            }
            if sum != seat_games {
                return Err(format!(
                    "the {group} tallies hold {sum} player-games, {} games of {} players {seat_games}",
                    self.games, c.players
                ));
            }
        }
        for (kind, ids) in &self.items {
            for (id, t) in ids {
                t.check(&format!("{kind} {id}"), self.games, c.players)?;
            }
        }
        self.check_results(&slice)
    }

    /// Per-game results, when kept, are one per game played, in index order within the
    /// slice, a seat each, adding up to the seats' tallies.
    fn check_results(&self, slice: &std::ops::Range<u64>) -> Result<(), String> {
        if self.results.is_empty() {
            return Ok(());
        }
        if self.results.len() as u64 != self.games {
            return Err(format!(
                "{} per-game results for {} games",
                self.results.len(),
                self.games
            ));
        }
        let mut last: Option<u64> = None;
        let mut sums = vec![(0u64, 0i64); self.config.players];
        for g in &self.results {
            if !slice.contains(&g.index) || last.is_some_and(|l| l >= g.index) {
                return Err(format!(
                    "per-game result of game {} is out of order or outside games {}..{}",
                    g.index, slice.start, slice.end
                ));
            }
            last = Some(g.index);
            if g.seats.len() != self.config.players {
                return Err(format!(
                    "game {}: {} seats for {} players",
                    g.index,
                    g.seats.len(),
                    self.config.players
                ));
            }
            for (sum, s) in sums.iter_mut().zip(&g.seats) {
                if i64::from(s.vp).abs() > MAX_STUDY_VP {
                    return Err(format!("game {}: VP {} is absurd", g.index, s.vp));
                }
                sum.0 += u64::from(s.won);
                sum.1 += i64::from(s.vp);
            }
        }
        for (i, (t, (wins, vp))) in self.seats.iter().zip(&sums).enumerate() {
            if t.wins != *wins || t.vp_sum != *vp {
                return Err(format!(
                    "seat {}: the per-game results hold {wins} wins and {vp} VP, the tally {} \
                     and {}",
                    i + 1,
                    t.wins,
                    t.vp_sum
                ));
            }
        }
        Ok(())
    }

    /// Adds one game played to the end: every tally, the items and the per-game result.
    pub fn add_game(&mut self, index: u64, seats: &[SeatPlay]) {
        self.games += 1;
        let mut offered = std::collections::BTreeSet::new();
        for (seat, s) in seats.iter().enumerate() {
            let o = &s.outcome;
            for t in [
                self.factions.entry(o.faction.clone()).or_default(),
                self.bots.entry(o.bot.clone()).or_default(),
            ] {
                t.add_game(o.won, o.vp, &s.sources);
            }
            if let Some(t) = self.seats.get_mut(seat) {
                t.add_game(o.won, o.vp, &s.sources);
            }
            for item in &s.items {
                let t = self
                    .items
                    .entry(item.kind.clone())
                    .or_default()
                    .entry(item.id.clone())
                    .or_default();
                if offered.insert((item.kind.clone(), item.id.clone())) {
                    t.games += 1;
                }
                t.seats_offered += 1;
                t.vp += i64::from(item.vp);
                if item.taken > 0 {
                    t.taken += u64::from(item.taken);
                    t.takers += 1;
                    t.taker_wins += u64::from(o.won);
                    *t.by_faction.entry(o.faction.clone()).or_default() += u64::from(item.taken);
                }
            }
        }
        self.results.push(GameOutcome {
            index,
            seats: seats.iter().map(|s| s.outcome.clone()).collect(),
        });
    }

    /// The study as pretty JSON (keys of maps sorted), ending with a newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// One CSV row per faction, bot and seat, then one per item: for an item, `games` and
    /// `wins` are the player-games that took it and won, `mean_vp` the VP it brought each,
    /// `offered` the games it was on offer in, `taken` the times it was taken and
    /// `seats_offered` the player-games it was on offer to the seat in.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "group,id,games,wins,win_rate,win_low,win_high,mean_vp,median_vp,offered,taken,seats_offered\n",
        );
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
                "{group},{id},{},{},{p:.4},{lo:.4},{hi:.4},{:.2},{:.1},,,\n",
                t.games,
                t.wins,
                t.mean_vp(),
                t.median_vp()
            ));
        }
        for (kind, id, t) in self.item_rows() {
            let (p, lo, hi) = t.win_rate();
            out.push_str(&format!(
                "{kind},{id},{},{},{p:.4},{lo:.4},{hi:.4},{:.2},,{},{},{}\n",
                t.takers,
                t.taker_wins,
                t.vp_per_taker(),
                t.games,
                t.taken,
                t.seats_offered
            ));
        }
        out
    }

    /// Every item tallied: kind, id, tally.
    pub fn item_rows(&self) -> impl Iterator<Item = (&str, &str, &ItemTally)> {
        self.items.iter().flat_map(|(kind, ids)| {
            ids.iter()
                .map(move |(id, t)| (kind.as_str(), id.as_str(), t))
        })
    }

    /// The items whose takers won most and least often (at most `n` each, of those taken),
    /// and the items on offer that no seat ever took.
    fn items_table(&self, n: usize) -> String {
        let mut taken: Vec<(&str, &str, &ItemTally)> =
            self.item_rows().filter(|(_, _, t)| t.takers > 0).collect();
        if taken.is_empty() && self.items.is_empty() {
            return String::new();
        }
        // By win rate of the takers, then by the interval's low end, then by name: a stable
        // order whatever the map order.
        taken.sort_by(|a, b| {
            let (pa, la, _) = a.2.win_rate();
            let (pb, lb, _) = b.2.win_rate();
            pb.total_cmp(&pa)
                .then(lb.total_cmp(&la))
                .then((a.0, a.1).cmp(&(b.0, b.1)))
        });
        let mut out = String::new();
        let players = self.seats.len() as u64;
        let header = |title: &str| {
            format!(
                "{title:<34} {:>6} {:>6} {:>6} {:>6} {:>7} {:>15} {:>7}\n",
                "offer", "taken", "takers", "take%", "win%", "95% CI", "VP/take"
            )
        };
        let row = |(kind, id, t): &(&str, &str, &ItemTally)| {
            let (p, lo, hi) = t.win_rate();
            format!(
                "{:<34} {:>6} {:>6} {:>6} {:>5.1}% {:>6.1}% {:>15} {:>7.1}\n",
                format!("{kind} {id}"),
                t.games,
                t.taken,
                t.takers,
                100.0 * t.take_rate(players).0,
                100.0 * p,
                format!("{:.1}–{:.1}%", 100.0 * lo, 100.0 * hi),
                t.vp_per_taker()
            )
        };
        let top = n.min(taken.len());
        out.push_str(&header("items: takers win most"));
        for r in &taken[..top] {
            out.push_str(&row(r));
        }
        let bottom = n.min(taken.len() - top);
        if bottom > 0 {
            out.push_str(&header("items: takers win least"));
            for r in &taken[taken.len() - bottom..] {
                out.push_str(&row(r));
            }
        }
        let never: Vec<String> = self
            .item_rows()
            .filter(|(_, _, t)| t.takers == 0)
            .map(|(kind, id, t)| format!("{kind} {id} (offered in {})", t.games))
            .collect();
        // A game with hundreds of items (cards) names the first few.
        const NAMED: usize = 12;
        if never.len() > NAMED {
            out.push_str(&format!(
                "never taken: {}, … and {} more\n",
                never[..NAMED].join(", "),
                never.len() - NAMED
            ));
        } else if !never.is_empty() {
            out.push_str(&format!("never taken: {}\n", never.join(", ")));
        }
        out.push_str("(every item in the JSON and CSV; `orrery chart` draws them)\n\n");
        out
    }

    /// The wins shared with another seat (a tied first place) and the wins with each shared
    /// one split among the seats sharing it, per faction, per bot and per seat, from the
    /// per-game results.
    pub fn shared_wins(&self) -> SharedWins {
        let mut out = SharedWins {
            seats: vec![(0, 0.0); self.seats.len()],
            ..SharedWins::default()
        };
        for g in &self.results {
            let winners = g.seats.iter().filter(|s| s.won).count();
            if winners == 0 {
                continue;
            }
            let shared = u64::from(winners > 1);
            out.games += shared;
            let part = 1.0 / winners as f64;
            for (i, s) in g.seats.iter().enumerate().filter(|(_, s)| s.won) {
                for e in [
                    out.factions.entry(s.faction.clone()).or_default(),
                    out.bots.entry(s.bot.clone()).or_default(),
                ] {
                    e.0 += shared;
                    e.1 += part;
                }
                if let Some(e) = out.seats.get_mut(i) {
                    e.0 += shared;
                    e.1 += part;
                }
            }
        }
        out
    }

    /// A seat's mean VP over every game's seats, and the winners' mean VP (each game's
    /// highest score, once a game however many seats share it), from the per-game results;
    /// `None` when the study holds no game.
    pub fn score_means(&self) -> Option<(f64, f64)> {
        let (mut seats, mut seat_vp, mut games, mut top_vp) = (0u64, 0i64, 0u64, 0i64);
        for g in &self.results {
            let Some(top) = g.seats.iter().map(|s| s.vp).max() else {
                continue;
            };
            games += 1;
            top_vp += i64::from(top);
            seats += g.seats.len() as u64;
            seat_vp += g.seats.iter().map(|s| i64::from(s.vp)).sum::<i64>();
        }
        (games > 0).then(|| (seat_vp as f64 / seats as f64, top_vp as f64 / games as f64))
    }

    /// The summary table: per faction, per bot and per seat.
    pub fn table(&self) -> String {
        let shared = self.shared_wins();
        let mut out = format!(
            "wins: a first place shared by several seats is a win for each ({} of {} games); \
             `tied` counts those wins, `split%` is the win rate with each shared win split \
             among the seats sharing it\n",
            shared.games, self.games
        );
        if let Some((mean, winners)) = self.score_means() {
            out.push_str(&format!(
                "scores: {mean:.1} VP a seat, {winners:.1} VP the winners' mean (each game's \
                 highest score)\n"
            ));
        }
        out.push('\n');
        let mut section = |title: &str, rows: Vec<(String, &Tally, (u64, f64))>| {
            out.push_str(&format!(
                "{title:<16} {:>6} {:>6} {:>7} {:>15} {:>5} {:>7} {:>7} {:>7}\n",
                "games", "wins", "win%", "95% CI", "tied", "split%", "meanVP", "medVP"
            ));
            for (id, t, (tied, split)) in rows {
                let (p, lo, hi) = t.win_rate();
                let split = if t.games == 0 {
                    0.0
                } else {
                    split / t.games as f64
                };
                out.push_str(&format!(
                    "{id:<16} {:>6} {:>6} {:>6.1}% {:>15} {:>5} {:>6.1}% {:>7.1} {:>7.1}\n",
                    t.games,
                    t.wins,
                    100.0 * p,
                    format!("{:.1}–{:.1}%", 100.0 * lo, 100.0 * hi),
                    tied,
                    100.0 * split,
                    t.mean_vp(),
                    t.median_vp()
                ));
            }
            out.push('\n');
        };
        let of = |m: &BTreeMap<String, (u64, f64)>, k: &str| m.get(k).copied().unwrap_or_default();
        section(
            "faction",
            self.factions
                .iter()
                .map(|(k, t)| (k.clone(), t, of(&shared.factions, k)))
                .collect(),
        );
        section(
            "bot",
            self.bots
                .iter()
                .map(|(k, t)| (k.clone(), t, of(&shared.bots, k)))
                .collect(),
        );
        section(
            "seat",
            self.seats
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let s = shared.seats.get(i).copied().unwrap_or_default();
                    (format!("seat {}", i + 1), t, s)
                })
                .collect(),
        );
        out.push_str(&self.items_table(8));
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
    // The slices given, by K (a set: N may be any number a file says).
    let mut seen = std::collections::BTreeSet::new();
    for s in &shards {
        s.check()?;
        if s.config.game != first.config.game {
            return Err(format!(
                "shards are of different games ({} and {})",
                first.config.game, s.config.game
            ));
        }
        if s.config.content != first.config.content {
            return Err(format!(
                "shards were played on different content (identity {} and {}): another \
                 --content, or a variant whose text differs",
                first.config.content, s.config.content
            ));
        }
        let mut c = s.config.clone();
        c.shard = first.config.shard;
        if c != first.config {
            return Err("shards come from different studies (their configurations differ)".into());
        }
        let [k, count] = s.config.shard;
        if count != n {
            return Err(format!("bad shard {k}/{count}"));
        }
        if !seen.insert(k) {
            return Err(format!("shard {k}/{n} given twice"));
        }
    }
    if let Some(missing) = (1..=n)
        .zip(seen.iter())
        .find(|(k, s)| k != *s)
        .map(|(k, _)| k)
    {
        return Err(format!("shard {missing}/{n} is missing"));
    }
    if (seen.len() as u64) < n {
        return Err(format!("shard {}/{n} is missing", seen.len() + 1));
    }
    shards.sort_by_key(|s| s.config.shard[0]);
    let mut config = shards[0].config.clone();
    config.shard = [1, 1];
    let mut out = Study::new(config);
    for s in &shards {
        out.absorb(s)?;
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

    /// A study of `games` 2-player games at 100 VP each (seat 1 wins), shard `k` of `n`.
    fn study(games: u64, k: u64, n: u64) -> Study {
        let mut s = Study::new(Config {
            game: "gaia-project".into(),
            players: 2,
            factions: FactionChoice::Random("random".into()),
            bots: vec!["random".into()],
            variants: vec![],
            seed: 1,
            games: games * n,
            shard: [k, n],
            content: "fnv1a128:1".into(),
            weights: None,
        });
        for _ in 0..games {
            s.games += 1;
            for seat in 0..2 {
                for t in [
                    s.factions.entry(format!("f{seat}")).or_default(),
                    s.bots.entry("random".into()).or_default(),
                ] {
                    t.add_game(seat == 0, 100, &BTreeMap::new());
                }
                s.seats[seat].add_game(seat == 0, 100, &BTreeMap::new());
            }
        }
        s
    }

    #[test]
    fn a_shared_first_place_is_a_win_for_each_and_split_in_the_summary() {
        let mut s = study(0, 1, 1);
        let play = |bot: &str, vp: i32, won: bool| SeatPlay {
            outcome: SeatOutcome {
                faction: format!("f{bot}"),
                bot: bot.into(),
                vp,
                won,
            },
            sources: BTreeMap::new(),
            items: Vec::new(),
        };
        // `a` wins one game outright, `b` one, and they share the first place of a third.
        s.add_game(0, &[play("a", 120, true), play("b", 90, false)]);
        s.add_game(1, &[play("a", 80, false), play("b", 100, true)]);
        s.add_game(2, &[play("a", 95, true), play("b", 95, true)]);
        let wins: u64 = s.bots.values().map(|t| t.wins).sum();
        assert_eq!(wins, 4, "a shared first place is a win for each");
        let shared = s.shared_wins();
        assert_eq!(shared.games, 1);
        assert_eq!(shared.bots["a"], (1, 1.5));
        assert_eq!(shared.bots["b"], (1, 1.5));
        assert_eq!(shared.seats, vec![(1, 1.5), (1, 1.5)]);
        let split: f64 = shared.bots.values().map(|(_, w)| w).sum();
        assert_eq!(split, 3.0, "split wins sum to the games");
        let table = s.table();
        assert!(table.contains("(1 of 3 games)"), "{table}");
        let row = table.lines().find(|l| l.starts_with("a ")).expect("bot a");
        assert!(row.contains(" 2 ") && row.contains("50.0%"), "{row}");
        // Seats 580 VP over 6; the games' highest 120, 100 and 95 (shared, counted once).
        assert_eq!(s.score_means(), Some((580.0 / 6.0, 105.0)));
        assert!(
            table.contains("scores: 96.7 VP a seat, 105.0 VP the winners' mean"),
            "{table}"
        );
        assert_eq!(study(0, 1, 1).score_means(), None, "no game, no means");
    }

    #[test]
    fn studies_are_checked_when_read() {
        assert_eq!(study(3, 1, 1).check(), Ok(()));
        let text = study(3, 1, 1).to_json();
        assert!(Study::from_json_text(&text).is_ok());
        let edited = |from: &str, to: &str| {
            assert!(text.contains(from), "{from}");
            Study::from_json_text(&text.replacen(from, to, 1)).unwrap_err()
        };
        assert!(edited("\"wins\": 3", "\"wins\": 1000").contains("1000 wins in 3 games"));
        assert!(
            edited("\"games\": 3,\n  \"failed\"", "\"games\": 2,\n  \"failed\"")
                .contains("2 games played and 0 failed")
        );
        assert!(edited("\"vp_sum\": 300", "\"vp_sum\": 301").contains("not the sum"));
        assert!(edited("\"content\": \"fnv1a128:1\"", "\"content\": \"\"").contains("identity"));
        assert!(edited("\"players\": 2", "\"players\": 2000").contains("not 1 to 8"));
        assert!(edited("\"format\"", "\"format\": \"x\", \"format\"").contains("twice"));
        let far = edited(
            "\"vp_counts\": {\n        \"100\": 3",
            "\"vp_counts\": {\n        \"1000000000\": 3",
        );
        assert!(far.contains("within"), "{far}");
    }

    #[test]
    fn merging_counts_failures_and_refuses_to_wrap() {
        let mut a = study(2, 1, 2);
        let mut b = study(1, 2, 2);
        b.failed.add(3, 99, "stuck");
        b.config.games = 4;
        a.config.games = 4;
        assert_eq!(a.check(), Ok(()));
        assert_eq!(b.check(), Ok(()));
        let m = merge(vec![b.clone(), a.clone()]).expect("merged");
        assert_eq!((m.games, m.failed.count), (3, 1));
        assert_eq!(m.failed.games[0].seed, 99);
        assert!(m
            .failed
            .summary()
            .unwrap()
            .starts_with("1 game failed: game 3 (seed 99): stuck"));
        assert!(merge(vec![a.clone()])
            .unwrap_err()
            .contains("shard 2/2 is missing"));
        let mut other = b.clone();
        other.config.content = "fnv1a128:2".into();
        assert!(merge(vec![a.clone(), other])
            .unwrap_err()
            .contains("different content"));
        // A study names its game; a shard of another game does not merge, and an unknown
        // game is refused when read.
        let mut other = b.clone();
        other.config.game = "terraforming-mars".into();
        assert!(merge(vec![a.clone(), other.clone()])
            .unwrap_err()
            .contains("different games (gaia-project and terraforming-mars)"));
        other.config.game = "chess".into();
        assert!(other.check().unwrap_err().contains("config.game \"chess\""));
        // Sums beyond the counters are refused, and the tally is left as it was.
        let mut t = Tally::default();
        t.add_game(true, 1, &BTreeMap::from([("x".to_string(), 1)]));
        let mut big = t.clone();
        big.games = u64::MAX;
        assert!(t
            .merge(&big, "seat 1")
            .unwrap_err()
            .contains("games overflows"));
        let mut big = t.clone();
        big.vp_by_source.insert("x".into(), i64::MAX);
        assert!(t
            .merge(&big, "seat 1")
            .unwrap_err()
            .contains("vp_by_source"));
        assert_eq!(t.games, 1);
    }
}
