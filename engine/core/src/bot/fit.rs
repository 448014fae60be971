//! Fitting a learned evaluation from self-play: games played by bots to their end, each
//! seat's features noted at the start of every decision, each note labelled with the score
//! the seat finished with; then a ridge least-squares fit of those scores on the features.
//! Everything is deterministic: the same games give the same sums and the same weights.

use super::{play_game, Bot, Model, PlayError};
use crate::play_api::Evaluate;

/// One position seen in self-play: a seat's features and the score it finished with.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The seat's features ([`Evaluate::features`]).
    pub features: Vec<f64>,
    /// The seat's final score.
    pub target: f64,
    /// The game's heuristic value of the position for the seat ([`Evaluate::value`]).
    pub heuristic: f64,
}

/// Samples noted along one game however it is played (by bots, or replayed from a record):
/// every seat's features at the start of each decision, labelled at the end with the scores
/// the seats finished with.
#[derive(Debug, Clone)]
pub struct Notes {
    /// The decision last noted (`usize::MAX` before the first).
    decision: usize,
    decisions: usize,
    seen: Vec<(usize, Vec<f64>, f64)>,
}

impl Default for Notes {
    fn default() -> Notes {
        Notes::new()
    }
}

impl Notes {
    /// Nothing noted yet.
    pub fn new() -> Notes {
        Notes {
            decision: usize::MAX,
            decisions: 0,
            seen: Vec::new(),
        }
    }

    /// Called before each part played: when `game` is at the start of a decision not noted
    /// yet ([`crate::play_api::Playable::decisions_done`] changed), notes every seat's
    /// features and heuristic value.
    pub fn see<G: Evaluate>(&mut self, game: &G) {
        if game.decisions_done() != self.decision {
            self.decision = game.decisions_done();
            self.decisions += 1;
            for s in 0..game.seat_count() {
                self.seen.push((s, game.features(s), game.value(s)));
            }
        }
    }

    /// The decisions noted so far (each gave one sample per seat).
    pub fn decisions(&self) -> usize {
        self.decisions
    }

    /// The samples, each labelled with its seat's score in `scores` (0 for a seat missing).
    pub fn labelled(self, scores: &[i32]) -> Vec<Sample> {
        self.seen
            .into_iter()
            .map(|(s, features, heuristic)| Sample {
                features,
                target: scores.get(s).map_or(0.0, |v| f64::from(*v)),
                heuristic,
            })
            .collect()
    }
}

/// Plays `game` to its end with one bot per seat (at most `max_parts` parts) and returns a
/// sample per seat at the start of each decision, labelled with that seat's final score.
pub fn self_play<G: Evaluate>(
    game: &mut G,
    bots: &mut [Box<dyn Bot<G> + Send>],
    max_parts: usize,
) -> Result<Vec<Sample>, PlayError> {
    let mut notes = Notes::new();
    play_game(game, bots, max_parts, |g, _, _| notes.see(g))?;
    Ok(notes.labelled(&game.score()))
}

/// The rows of a temporal-difference fit from the samples of one game (as [`self_play`]
/// returns them: at each decision, one sample per seat in seat order), for a model
/// `base × heuristic + bias + Σ weight × feature`. Each seat's position is paired with its
/// position `k` decisions later (`k` ≥ 1), asking that the model value them alike:
/// `weights · (features now − features later) ≈ base × (heuristic later − heuristic now)`;
/// a position within `k` decisions of the end is asked for the final score itself. Pairs
/// within one game cancel what stays the same through it (a strong seat holds much of
/// everything all game), so the fit learns what a decision changes rather than which games
/// went well. Returns `(features, target)` rows for [`Fit::add`].
pub fn td_rows(samples: &[Sample], seats: usize, k: usize, base: f64) -> Vec<(Vec<f64>, f64)> {
    let seats = seats.max(1);
    let k = k.max(1);
    let mut rows = Vec::with_capacity(samples.len());
    for seat in 0..seats {
        let line: Vec<&Sample> = samples.iter().skip(seat).step_by(seats).collect();
        for (i, now) in line.iter().enumerate() {
            match line.get(i + k) {
                Some(later) => rows.push((
                    now.features
                        .iter()
                        .zip(&later.features)
                        .map(|(a, b)| a - b)
                        .collect(),
                    base * (later.heuristic - now.heuristic),
                )),
                None => rows.push((now.features.clone(), now.target - base * now.heuristic)),
            }
        }
    }
    rows
}

/// The sums a least-squares fit needs, added to one sample at a time, so that any number of
/// samples fits in the memory of one `(n + 1)²` matrix.
#[derive(Debug, Clone)]
pub struct Fit {
    n: usize,
    rows: u64,
    /// Σ of the samples' weights (the rows when every sample weighs 1).
    weight: f64,
    /// Σ x_j (j < n), then Σ y at index n.
    sum: Vec<f64>,
    /// Σ x_j x_k, row-major n × n.
    xx: Vec<f64>,
    /// Σ x_j y.
    xy: Vec<f64>,
}

/// Features whose spread is below this are constant in the data and get no weight.
const FLAT: f64 = 1e-9;

impl Fit {
    /// An empty fit over `n` features.
    pub fn new(n: usize) -> Fit {
        Fit {
            n,
            rows: 0,
            weight: 0.0,
            sum: vec![0.0; n + 1],
            xx: vec![0.0; n * n],
            xy: vec![0.0; n],
        }
    }

    /// Samples added so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Adds a sample; refused (and nothing added) when it has the wrong number of features
    /// or a number that is not finite.
    pub fn add(&mut self, x: &[f64], y: f64) -> Result<(), String> {
        self.add_weighted(x, y, 1.0)
    }

    /// [`Fit::add`] of a sample counted `w` times (`w` > 0, finite): in the sums the fit
    /// minimises, its squared error weighs `w` against 1 for a sample added by [`Fit::add`].
    /// A weight of 1 gives the same sums as [`Fit::add`], bit for bit.
    pub fn add_weighted(&mut self, x: &[f64], y: f64, w: f64) -> Result<(), String> {
        if !(w.is_finite() && w > 0.0) {
            return Err(format!(
                "the sample's weight is {w}, expected a number above 0"
            ));
        }
        if x.len() != self.n {
            return Err(format!("{} features, expected {}", x.len(), self.n));
        }
        if let Some(j) = x.iter().position(|v| !v.is_finite()) {
            return Err(format!("feature {j} is {}", x[j]));
        }
        if !y.is_finite() {
            return Err(format!("the target is {y}"));
        }
        self.rows += 1;
        self.weight += w;
        for (j, xj) in x.iter().enumerate() {
            let wx = xj * w;
            self.sum[j] += wx;
            self.xy[j] += wx * y;
            let row = &mut self.xx[j * self.n..(j + 1) * self.n];
            for (cell, xk) in row.iter_mut().zip(x) {
                *cell += wx * xk;
            }
        }
        self.sum[self.n] += w * y;
        Ok(())
    }

    /// The ridge fit: weights and bias minimising the squared error plus `ridge` × rows (the
    /// samples' total weight) × the squared weights of the standardised features (so `ridge` does not depend on the
    /// features' units or the number of samples). A feature constant in the data gets weight
    /// 0. Returns `(bias, weights)`.
    pub fn solve(&self, ridge: f64) -> Result<(f64, Vec<f64>), String> {
        self.solve_with(ridge, false)
    }

    /// [`Fit::solve`] with every weight held at 0 or above when `nonnegative`: for features
    /// that each count something good to hold, so that the fit cannot learn from how games
    /// happened to go that holding more of something is worse (which a search would then
    /// avoid).
    pub fn solve_with(&self, ridge: f64, nonnegative: bool) -> Result<(f64, Vec<f64>), String> {
        if self.rows < 2 {
            return Err(format!("{} samples, at least 2 are needed", self.rows));
        }
        if !(ridge.is_finite() && ridge >= 0.0) {
            return Err(format!("ridge {ridge}, expected a number ≥ 0"));
        }
        let n = self.n;
        // The samples' total weight stands for their number in every sum.
        let rows = self.weight;
        let mean: Vec<f64> = self.sum.iter().map(|s| s / rows).collect();
        let ybar = mean[n];
        let cov = |j: usize, k: usize| self.xx[j * n + k] - rows * mean[j] * mean[k];
        // Standardised, over the features that vary.
        let live: Vec<(usize, f64)> = (0..n)
            .filter_map(|j| {
                let sd = (cov(j, j) / rows).max(0.0).sqrt();
                (sd > FLAT).then_some((j, sd))
            })
            .collect();
        let m = live.len();
        let mut a = vec![0.0; m * m];
        let mut b = vec![0.0; m];
        for (p, &(j, sj)) in live.iter().enumerate() {
            for (q, &(k, sk)) in live.iter().enumerate() {
                a[p * m + q] = cov(j, k) / (sj * sk);
            }
            a[p * m + p] += ridge * rows;
            b[p] = (self.xy[j] - rows * mean[j] * ybar) / sj;
        }
        let beta = if nonnegative {
            solve_nonnegative(&a, &b, m)?
        } else {
            solve_symmetric(&mut a, &b, m)?
        };
        let mut weights = vec![0.0; n];
        for (p, &(j, sj)) in live.iter().enumerate() {
            weights[j] = beta[p] / sj;
        }
        let bias = ybar - weights.iter().zip(&mean).map(|(w, u)| w * u).sum::<f64>();
        Ok((bias, weights))
    }

    /// The fitted model for a game and its feature names; `heuristic` is the weight of the
    /// game's heuristic value in it (1 when the targets added were the final scores minus the
    /// heuristic value, so that the fit is a correction to it).
    pub fn model(
        &self,
        ridge: f64,
        nonnegative: bool,
        heuristic: f64,
        game: &str,
        names: &[String],
        trained: &str,
    ) -> Result<Model, String> {
        if names.len() != self.n {
            return Err(format!("{} names for {} features", names.len(), self.n));
        }
        let (bias, weights) = self.solve_with(ridge, nonnegative)?;
        Ok(Model {
            game: game.to_string(),
            trained: trained.to_string(),
            heuristic,
            bias,
            weights,
            names: names.to_vec(),
        })
    }
}

/// Sweeps of coordinate descent at most, for a fit with non-negative weights.
const SWEEPS: usize = 10_000;

/// Minimises `½ xᵀ a x − bᵀ x` over `x ≥ 0` for a symmetric positive semi-definite `a` (m × m,
/// row-major) by cyclic coordinate descent, until no coordinate moves by more than 1e-12
/// (relative) in a sweep.
fn solve_nonnegative(a: &[f64], b: &[f64], m: usize) -> Result<Vec<f64>, String> {
    if (0..m).any(|j| a[j * m + j] <= 0.0) {
        return Err("the features are linearly dependent: give a ridge above 0".into());
    }
    let mut x = vec![0.0; m];
    for _ in 0..SWEEPS {
        let mut moved: f64 = 0.0;
        for j in 0..m {
            let row = &a[j * m..(j + 1) * m];
            let rest: f64 = row.iter().zip(&x).map(|(r, v)| r * v).sum::<f64>() - row[j] * x[j];
            let new = ((b[j] - rest) / row[j]).max(0.0);
            moved = moved.max((new - x[j]).abs() / (1.0 + new.abs()));
            x[j] = new;
        }
        if moved < 1e-12 {
            break;
        }
    }
    Ok(x)
}

/// Solves `a x = b` for a symmetric positive semi-definite `a` (m × m, row-major, destroyed)
/// by Gaussian elimination with partial pivoting.
fn solve_symmetric(a: &mut [f64], b: &[f64], m: usize) -> Result<Vec<f64>, String> {
    let mut x = b.to_vec();
    for col in 0..m {
        let pivot = (col..m)
            .max_by(|&i, &j| a[i * m + col].abs().total_cmp(&a[j * m + col].abs()))
            .unwrap_or(col);
        if a[pivot * m + col].abs() < 1e-12 {
            return Err("the features are linearly dependent: give a ridge above 0".into());
        }
        if pivot != col {
            for k in 0..m {
                a.swap(col * m + k, pivot * m + k);
            }
            x.swap(col, pivot);
        }
        for r in col + 1..m {
            let f = a[r * m + col] / a[col * m + col];
            if f != 0.0 {
                for k in col..m {
                    a[r * m + k] -= f * a[col * m + k];
                }
                x[r] -= f * x[col];
            }
        }
    }
    for col in (0..m).rev() {
        let s: f64 = (col + 1..m).map(|k| a[col * m + k] * x[k]).sum();
        x[col] = (x[col] - s) / a[col * m + col];
    }
    Ok(x)
}

/// Floors under named weights, read from `name=W` items separated by commas (a name as the
/// game's features are named, W a finite number within ±1,000): one floor per feature, 0 where
/// none is given. A fit whose weights are held at 0 or above is then asked for what it adds on
/// top of the floors: each target less [`floor_part`], and the floors added back to the
/// weights found ([`with_floors`]). So a feature whose worth is known (a VP to come is a VP)
/// keeps it even where the games learned from hardly show it.
pub fn parse_floors(spec: &str, names: &[String]) -> Result<Vec<f64>, String> {
    let mut floors = vec![0.0; names.len()];
    for item in spec.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (name, w) = item
            .rsplit_once('=')
            .ok_or_else(|| format!("floor `{item}`: expected name=weight"))?;
        let w: f64 = w
            .trim()
            .parse()
            .ok()
            .filter(|w: &f64| w.is_finite() && w.abs() <= 1000.0)
            .ok_or_else(|| format!("floor `{item}`: the weight is not a number within ±1000"))?;
        let j = names
            .iter()
            .position(|n| n == name.trim())
            .ok_or_else(|| format!("floor `{item}`: no feature is named `{}`", name.trim()))?;
        floors[j] = w;
    }
    Ok(floors)
}

/// What the floors alone give a row of features: taken from its target before the fit.
pub fn floor_part(floors: &[f64], x: &[f64]) -> f64 {
    floors.iter().zip(x).map(|(f, v)| f * v).sum()
}

/// The model with the floors added to its weights.
pub fn with_floors(mut model: Model, floors: &[f64]) -> Model {
    for (w, f) in model.weights.iter_mut().zip(floors) {
        *w += f;
    }
    model
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{by_name, by_name_with};
    use crate::play_api::Playable;
    use crate::toy::Stones;
    use std::sync::Arc;

    /// A made-up game whose final scores are known from its features: seat `s` gains `s + 1`
    /// points on each of its turns, whatever it does; a turn is `Step` (closes it) or a free
    /// `Tap` (changes nothing but the number of taps, a feature with no bearing on the end).
    #[derive(Debug, Clone)]
    struct Steps {
        turns: usize,
        length: usize,
        points: [i32; 2],
        taps: u32,
    }

    impl Playable for Steps {
        type Action = bool;
        fn seat_count(&self) -> usize {
            2
        }
        fn to_decide(&self) -> Option<usize> {
            (self.turns < self.length).then_some(self.turns % 2)
        }
        fn legal(&self) -> Vec<bool> {
            if self.is_over() {
                Vec::new()
            } else {
                vec![true, false]
            }
        }
        fn play(&mut self, step: &bool) -> Result<(), String> {
            let seat = self.to_decide().ok_or("over")?;
            if *step {
                self.points[seat] += seat as i32 + 1;
                self.turns += 1;
            } else {
                self.taps += 1;
            }
            Ok(())
        }
        fn is_over(&self) -> bool {
            self.turns >= self.length
        }
        fn score(&self) -> Vec<i32> {
            self.points.to_vec()
        }
        fn decisions_done(&self) -> usize {
            self.turns
        }
        fn is_free(&self, step: &bool) -> bool {
            !step
        }
    }

    impl Evaluate for Steps {
        fn value(&self, seat: usize) -> f64 {
            f64::from(self.points[seat])
        }
        fn feature_names(&self) -> Vec<String> {
            vec!["points".into(), "points to come".into(), "taps".into()]
        }
        fn features(&self, seat: usize) -> Vec<f64> {
            let left = (self.turns..self.length).filter(|t| t % 2 == seat).count();
            vec![
                f64::from(self.points[seat]),
                (left * (seat + 1)) as f64,
                f64::from(self.taps),
            ]
        }
    }

    /// The samples of game `i` of `Steps` played by random bots.
    fn steps_game(i: u64) -> Vec<Sample> {
        let mut g = Steps {
            turns: 0,
            length: 6 + (i % 5) as usize * 2,
            points: [0, 0],
            taps: 0,
        };
        let mut bots: Vec<_> = (0..2)
            .map(|s| by_name::<Steps>("random", i * 2 + s).expect("bot"))
            .collect();
        self_play(&mut g, &mut bots, 1000).expect("ends")
    }

    /// Samples of `games` games of `Steps` played by random bots.
    fn steps_samples(games: u64) -> Vec<Sample> {
        (0..games).flat_map(steps_game).collect()
    }

    fn fit_of(samples: &[Sample], ridge: f64) -> (f64, Vec<f64>) {
        let mut fit = Fit::new(3);
        for s in samples {
            fit.add(&s.features, s.target).expect("fits");
        }
        fit.solve(ridge).expect("solves")
    }

    #[test]
    fn a_floor_holds_a_weight_up_that_the_data_would_leave_at_zero() {
        let names: Vec<String> = ["a", "b x c", "d"].map(String::from).to_vec();
        assert_eq!(
            parse_floors(" b x c = 1.5 ,d=-2", &names).expect("parses"),
            vec![0.0, 1.5, -2.0]
        );
        assert_eq!(parse_floors("", &names).expect("none"), vec![0.0; 3]);
        for bad in ["e=1", "a", "a=x", "a=1e9", "a=NaN"] {
            assert!(parse_floors(bad, &names).is_err(), "{bad}");
        }
        // The target is 2 × the first feature; the second only hurts in the data (−1 each).
        let rows: Vec<([f64; 2], f64)> = (0..30)
            .map(|i| {
                let (a, b) = (f64::from(i % 7), f64::from(i % 3));
                ([a, b], 2.0 * a - b)
            })
            .collect();
        let names2 = vec!["a".to_string(), "b".to_string()];
        let fitted = |floors: &[f64]| {
            let mut fit = Fit::new(2);
            for (x, y) in &rows {
                fit.add(x, y - floor_part(floors, x)).expect("fits");
            }
            let m = fit
                .model(0.0, true, 0.0, "toy", &names2, "t")
                .expect("solves");
            with_floors(m, floors)
        };
        let plain = fitted(&[0.0, 0.0]);
        assert!(
            plain.weights[0] > 1.5 && plain.weights[1] == 0.0,
            "{:?}",
            plain.weights
        );
        // With a floor of 0.5 under `b`, its weight is 0.5 and `a` is fitted around it.
        let floored = fitted(&[0.0, 0.5]);
        assert_eq!(floored.weights[1], 0.5);
        assert!(floored.weights[0] > 1.5, "{:?}", floored.weights);
    }

    #[test]
    fn self_play_labels_each_seats_positions_with_its_final_score() {
        let samples = steps_samples(3);
        assert!(!samples.is_empty());
        for s in &samples {
            // Points now plus points to come is the final score, in every sample.
            assert_eq!(s.features[0] + s.features[1], s.target, "{s:?}");
        }
        assert_eq!(
            samples,
            steps_samples(3),
            "the same games give the same samples"
        );
    }

    #[test]
    fn the_fit_recovers_a_known_linear_value_and_is_deterministic() {
        let samples = steps_samples(40);
        let (bias, w) = fit_of(&samples, 0.0);
        assert!(bias.abs() < 1e-6, "{bias}");
        for (got, want) in w.iter().zip([1.0, 1.0, 0.0]) {
            assert!((got - want).abs() < 1e-6, "{w:?}");
        }
        let again = fit_of(&samples, 0.0);
        assert_eq!((bias, w), again);
        // A ridge pulls the weights toward 0.
        let (_, shrunk) = fit_of(&samples, 1.0);
        assert!(shrunk[0] < 0.9 && shrunk[1] < 0.9, "{shrunk:?}");
    }

    #[test]
    fn a_nonnegative_fit_finds_the_same_known_fit_and_holds_weights_at_zero() {
        let samples = steps_samples(40);
        let mut fit = Fit::new(3);
        let mut flipped = Fit::new(3);
        for s in &samples {
            fit.add(&s.features, s.target).expect("fits");
            // The second feature counted backwards: its best weight is -1.
            let x = [s.features[0], -s.features[1], s.features[2]];
            flipped.add(&x, s.target).expect("fits");
        }
        let (bias, w) = fit.solve_with(0.0, true).expect("solves");
        assert!(bias.abs() < 1e-6, "{bias}");
        for (got, want) in w.iter().zip([1.0, 1.0, 0.0]) {
            assert!((got - want).abs() < 1e-6, "{w:?}");
        }
        let (_, free) = flipped.solve_with(0.0, false).expect("solves");
        assert!((free[1] + 1.0).abs() < 1e-6, "{free:?}");
        let (_, held) = flipped.solve_with(0.0, true).expect("solves");
        assert!(held.iter().all(|w| *w >= 0.0) && held[1] == 0.0, "{held:?}");
    }

    #[test]
    fn a_sample_weighing_w_counts_as_w_copies_and_weight_one_is_plain_add() {
        let samples = steps_samples(10);
        let (mut plain, mut ones, mut doubled, mut twice) =
            (Fit::new(3), Fit::new(3), Fit::new(3), Fit::new(3));
        for s in &samples {
            plain.add(&s.features, s.target).expect("fits");
            ones.add_weighted(&s.features, s.target, 1.0).expect("fits");
            doubled
                .add_weighted(&s.features, s.target, 2.0)
                .expect("fits");
            twice.add(&s.features, s.target).expect("fits");
            twice.add(&s.features, s.target).expect("fits");
        }
        assert_eq!(
            plain.solve(0.5),
            ones.solve(0.5),
            "weight 1 is bit for bit add"
        );
        let (b1, w1) = doubled.solve(0.5).expect("solves");
        let (b2, w2) = twice.solve(0.5).expect("solves");
        assert!((b1 - b2).abs() < 1e-9, "{b1} {b2}");
        for (a, b) in w1.iter().zip(&w2) {
            assert!((a - b).abs() < 1e-9, "{w1:?} {w2:?}");
        }
        // One sample weighing much more pulls the fit toward it.
        let mut leaning = Fit::new(1);
        for (x, y, w) in [(0.0, 0.0, 1.0), (1.0, 1.0, 1.0), (2.0, 0.0, 100.0)] {
            leaning.add_weighted(&[x], y, w).expect("fits");
        }
        let (_, w) = leaning.solve(0.0).expect("solves");
        assert!(w[0] < 0.0, "{w:?}");
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(leaning.add_weighted(&[1.0], 1.0, bad).is_err(), "{bad}");
        }
        assert_eq!(leaning.rows(), 3);
    }

    #[test]
    fn a_fit_refuses_what_does_not_fit() {
        let mut fit = Fit::new(2);
        assert!(fit.add(&[1.0], 1.0).is_err());
        assert!(fit.add(&[1.0, f64::NAN], 1.0).is_err());
        assert!(fit.add(&[1.0, 2.0], f64::INFINITY).is_err());
        assert_eq!(fit.rows(), 0);
        assert!(fit.solve(0.0).is_err(), "no samples");
        fit.add(&[1.0, 2.0], 3.0).expect("fits");
        fit.add(&[2.0, 4.0], 6.0).expect("fits");
        fit.add(&[3.0, 6.0], 9.0).expect("fits");
        // The two features are the same up to a factor: only a ridge can choose.
        assert!(fit.solve(0.0).is_err());
        let (bias, w) = fit.solve(0.01).expect("with a ridge");
        let predicted = bias + w[0] * 2.0 + w[1] * 4.0;
        assert!((predicted - 6.0).abs() < 0.1, "{predicted}");
        assert!(fit.solve(-1.0).is_err());
        assert!(fit
            .model(0.01, false, 0.0, "toy", &["a".into()], "")
            .is_err());
    }

    #[test]
    fn a_temporal_difference_fit_recovers_the_known_value() {
        for k in [1, 3] {
            let mut fit = Fit::new(3);
            for g in 0..40 {
                for (x, y) in td_rows(&steps_game(g), 2, k, 0.0) {
                    fit.add(&x, y).expect("fits");
                }
            }
            let (_, w) = fit.solve(0.0).expect("solves");
            for (got, want) in w.iter().zip([1.0, 1.0, 0.0]) {
                assert!((got - want).abs() < 1e-6, "k {k}: {w:?}");
            }
        }
        // With the heuristic as base (here the points), a pair asks the correction to make up
        // for the points gained between them: the points need no more weight, what is to
        // come needs 1.
        let one = steps_game(0);
        let rows = td_rows(&one, 2, 1, 1.0);
        assert_eq!(rows.len(), one.len());
        for (x, y) in &rows {
            assert_eq!(x.len(), 3);
            assert!(y.is_finite());
        }
        let mut fit = Fit::new(3);
        for g in 0..40 {
            for (x, y) in td_rows(&steps_game(g), 2, 2, 1.0) {
                fit.add(&x, y).expect("fits");
            }
        }
        let (_, w) = fit.solve(0.0).expect("solves");
        for (got, want) in w.iter().zip([0.0, 1.0, 0.0]) {
            assert!((got - want).abs() < 1e-6, "base 1: {w:?}");
        }
    }

    /// Plays stones games between `a` (seat 0 on even seeds) and `b`; returns a's wins.
    fn stones_wins(a: &str, b: &str, model: Option<&Arc<Model>>, games: u64) -> u64 {
        let mut wins = 0;
        for seed in 0..games {
            let mut g = Stones::new(10 + (seed % 9) as u8);
            let flip = seed % 2 == 1;
            let names = if flip { [b, a] } else { [a, b] };
            let mut bots: Vec<_> = names
                .iter()
                .enumerate()
                .map(|(s, n)| by_name_with::<Stones>(n, seed * 7 + s as u64, model).expect("bot"))
                .collect();
            crate::bot::play_game(&mut g, &mut bots, 10_000, |_, _, _| {}).expect("ends");
            let sc = g.score();
            let (mine, theirs) = if flip { (sc[1], sc[0]) } else { (sc[0], sc[1]) };
            wins += u64::from(mine > theirs);
        }
        wins
    }

    #[test]
    fn best_trained_on_self_play_beats_random() {
        // Train on games of stones between greedy players, then play `best` with the model.
        let mut fit = Fit::new(Stones::new(1).feature_names().len());
        for seed in 0..60 {
            let mut g = Stones::new(8 + (seed % 13) as u8);
            let mut bots: Vec<_> = (0..2)
                .map(|s| by_name::<Stones>("greedy", seed * 2 + s).expect("bot"))
                .collect();
            for s in self_play(&mut g, &mut bots, 10_000).expect("ends") {
                fit.add(&s.features, s.target).expect("fits");
            }
        }
        let names = Stones::new(1).feature_names();
        let model = Arc::new(
            fit.model(0.001, true, 0.0, "stones", &names, "test")
                .expect("model"),
        );
        // The model's file reads back as the same model.
        let text = model.to_yaml();
        assert_eq!(
            Model::parse(&text, "w", "stones", &names).expect("reads"),
            *model
        );
        // Taking the last stone is worth the most: the model learns so.
        assert!(model.weights[3] > 2.0, "{text}");
        // Random players win often at stones (every stone held scores); two random players
        // win about 20 of 40 each, the heuristic search 25.
        let wins = stones_wins("best", "random", Some(&model), 40);
        assert!(wins >= 24, "best won {wins} of 40 against random");
    }
}
