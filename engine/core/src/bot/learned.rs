//! A learned evaluation: a linear model over a game's named features
//! ([`Evaluate::features`]), read from a small YAML weights file that lives beside the content,
//! so a retrained model takes effect without recompiling. The file is checked as it is read
//! and against the game's features; any problem is refused with the line it is at.

use crate::play_api::Evaluate;

/// The format line a weights file starts its document with.
pub const FORMAT: &str = "orrery-bot-weights/1";

/// The largest weight or bias magnitude a weights file may hold.
pub const MAX_WEIGHT: f64 = 1.0e6;

/// The most features a weights file may weigh.
pub const MAX_FEATURES: usize = 4096;

/// A linear evaluation: `heuristic × the game's heuristic value + bias + Σ weight × feature`,
/// in score units.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// The game the model was trained for (its `GameModule::ID`).
    pub game: String,
    /// How it was made (the training command), for people reading the file.
    pub trained: String,
    /// The weight of the game's own heuristic value ([`Evaluate::value`]); a model fitted as
    /// a correction to the heuristic has 1.
    pub heuristic: f64,
    /// The constant term.
    pub bias: f64,
    /// One weight per feature, in the game's feature order.
    pub weights: Vec<f64>,
    /// The feature names, in the same order.
    pub names: Vec<String>,
}

/// The document as written.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    format: String,
    game: String,
    #[serde(default)]
    trained: String,
    #[serde(default)]
    heuristic: f64,
    bias: f64,
    weights: serde_yaml::Mapping,
}

/// The 1-based line of the first line of `text` that starts (after indentation) with `key:`,
/// looking only after the line `after:` when given.
fn line_of(text: &str, key: &str, after: Option<&str>) -> usize {
    let mut open = after.is_none();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if !open {
            open = after.is_some_and(|a| line.starts_with(&format!("{a}:")));
            continue;
        }
        let bare = t.strip_prefix(key).is_some_and(|r| r.starts_with(':'));
        let quoted = t
            .strip_prefix(&format!("\"{key}\""))
            .or_else(|| t.strip_prefix(&format!("'{key}'")))
            .is_some_and(|r| r.starts_with(':'));
        if bare || quoted {
            return i + 1;
        }
    }
    1
}

impl Model {
    /// Reads a weights file (`shown` names it in errors) for the game `game` whose features
    /// are `names`, in order. The file must name every feature exactly once, with finite
    /// weights within ±[`MAX_WEIGHT`]; the order in the file is free.
    pub fn parse(text: &str, shown: &str, game: &str, names: &[String]) -> Result<Model, String> {
        let at = |line: usize, msg: String| format!("{shown}:{line}: {msg}");
        let doc: Doc = serde_yaml::from_str(text).map_err(|e| {
            let line = e.location().map_or(1, |l| l.line());
            at(line, format!("not a weights file: {e}"))
        })?;
        if doc.format != FORMAT {
            return Err(at(
                line_of(text, "format", None),
                format!("format is `{}`, expected `{FORMAT}`", doc.format),
            ));
        }
        if doc.game != game {
            return Err(at(
                line_of(text, "game", None),
                format!("the weights are for `{}`, not `{game}`", doc.game),
            ));
        }
        let checked = |key: &str, v: f64, line: usize| -> Result<f64, String> {
            if v.is_finite() && v.abs() <= MAX_WEIGHT {
                Ok(v)
            } else {
                Err(at(
                    line,
                    format!("`{key}` is {v}, expected a finite number within ±{MAX_WEIGHT}"),
                ))
            }
        };
        let bias = checked("bias", doc.bias, line_of(text, "bias", None))?;
        let heuristic = checked("heuristic", doc.heuristic, line_of(text, "heuristic", None))?;
        if names.is_empty() {
            return Err(at(1, format!("the game `{game}` describes no features")));
        }
        if doc.weights.len() > MAX_FEATURES {
            return Err(at(
                line_of(text, "weights", None),
                format!("{} weights, at most {MAX_FEATURES}", doc.weights.len()),
            ));
        }
        let mut weights: Vec<Option<f64>> = vec![None; names.len()];
        for (k, v) in &doc.weights {
            let Some(key) = k.as_str() else {
                return Err(at(
                    line_of(text, "weights", None),
                    format!("a weight's name must be text, got {k:?}"),
                ));
            };
            let line = line_of(text, key, Some("weights"));
            let Some(i) = names.iter().position(|n| n == key) else {
                return Err(at(
                    line,
                    format!(
                        "`{key}` is not a feature of `{game}` (its content changed? train again)"
                    ),
                ));
            };
            let Some(w) = v.as_f64() else {
                return Err(at(line, format!("the weight of `{key}` is not a number")));
            };
            weights[i] = Some(checked(key, w, line)?);
        }
        let missing: Vec<&str> = names
            .iter()
            .zip(&weights)
            .filter(|(_, w)| w.is_none())
            .map(|(n, _)| n.as_str())
            .collect();
        if !missing.is_empty() {
            return Err(at(
                line_of(text, "weights", None),
                format!(
                    "no weight for {} feature(s) of `{game}`: {} (its content changed? train again)",
                    missing.len(),
                    missing.join(", ")
                ),
            ));
        }
        Ok(Model {
            game: doc.game,
            trained: doc.trained,
            heuristic,
            bias,
            weights: weights.into_iter().flatten().collect(),
            names: names.to_vec(),
        })
    }

    /// The file [`Model::parse`] reads back as this model.
    pub fn to_yaml(&self) -> String {
        let mut s = String::from(
            "# A learned evaluation for the `best` bot: value = heuristic x the game's heuristic\n\
             # value + bias + sum of weight x feature, in score units. Written by `orrery train`;\n\
             # change it by training again.\n",
        );
        s += &format!("format: {FORMAT}\ngame: {}\n", self.game);
        s += &format!(
            "trained: {}\n",
            serde_json::Value::from(self.trained.clone())
        );
        s += &format!("heuristic: {}\n", number(self.heuristic));
        s += &format!("bias: {}\nweights:\n", number(self.bias));
        for (n, w) in self.names.iter().zip(&self.weights) {
            s += &format!("  {}: {}\n", serde_json::Value::from(n.clone()), number(*w));
        }
        s
    }

    /// The model's value of `features` (in the order of [`Model::names`]).
    pub fn eval(&self, features: &[f64]) -> f64 {
        self.bias
            + self
                .weights
                .iter()
                .zip(features)
                .map(|(w, f)| w * f)
                .sum::<f64>()
    }

    /// The model's value of `game` for `seat`: the score once the game is over.
    pub fn value<G: Evaluate>(&self, game: &G, seat: usize) -> f64 {
        if game.is_over() {
            return game.score().get(seat).map_or(0.0, |v| f64::from(*v));
        }
        if self.heuristic == 0.0 {
            return self.eval(&game.features(seat));
        }
        let (value, features) = game.value_and_features(seat);
        self.heuristic * value + self.eval(&features)
    }
}

/// A number as YAML reads it back to the same `f64` (always with a point or exponent, so it
/// reads as a float).
fn number(v: f64) -> String {
    let t = format!("{v:?}");
    if t.contains('.') || t.contains('e') || t.contains("inf") || t.contains("NaN") {
        t
    } else {
        format!("{t}.0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        vec!["vp".into(), "gold".into(), "rounds left".into()]
    }

    const GOOD: &str = "format: orrery-bot-weights/1
game: toy
trained: \"by hand\"
bias: 1.5
weights:
  gold: 0.25
  vp: 1.0
  \"rounds left\": -2.0
";

    #[test]
    fn a_weights_file_loads_in_the_games_feature_order_and_writes_back() {
        let m = Model::parse(GOOD, "w.yaml", "toy", &names()).expect("valid");
        assert_eq!(m.weights, vec![1.0, 0.25, -2.0]);
        assert_eq!(m.bias, 1.5);
        assert_eq!(m.eval(&[10.0, 4.0, 1.0]), 1.5 + 10.0 + 1.0 - 2.0);
        let again = Model::parse(&m.to_yaml(), "w.yaml", "toy", &names()).expect("round trip");
        assert_eq!(again, m);
        // Awkward numbers survive the round trip exactly.
        let mut odd = m.clone();
        odd.weights = vec![0.1 + 0.2, -1e-17, 123456.0];
        odd.bias = 3.0;
        assert_eq!(
            Model::parse(&odd.to_yaml(), "w", "toy", &names()).expect("reads"),
            odd
        );
    }

    #[test]
    fn a_broken_weights_file_is_refused_at_its_line() {
        let cases: [(String, &str, &str); 8] = [
            (
                GOOD.replace("  vp: 1.0", "\tvp: 1.0"),
                "w.yaml:7:",
                "not a weights file",
            ),
            (
                GOOD.replace("  gold: 0.25", "  silver: 0.25"),
                "w.yaml:6:",
                "`silver` is not a feature",
            ),
            (
                GOOD.replace("  gold: 0.25\n", ""),
                "w.yaml:5:",
                "no weight for 1 feature(s) of `toy`: gold",
            ),
            (
                GOOD.replace("  vp: 1.0", "  vp: .nan"),
                "w.yaml:7:",
                "`vp` is NaN",
            ),
            (
                GOOD.replace("  vp: 1.0", "  vp: 1e300"),
                "w.yaml:7:",
                "within",
            ),
            (
                GOOD.replace("  vp: 1.0", "  vp: lots"),
                "w.yaml:7:",
                "not a number",
            ),
            (
                GOOD.replace("game: toy", "game: chess"),
                "w.yaml:2:",
                "not `toy`",
            ),
            (
                GOOD.replace("bias: 1.5", "bias: 1.5\nextra: 1"),
                "w.yaml:",
                "unknown field `extra`",
            ),
        ];
        for (text, place, what) in cases {
            let e = Model::parse(&text, "w.yaml", "toy", &names()).expect_err(what);
            assert!(e.starts_with(place) && e.contains(what), "{e}");
        }
        let e = Model::parse(GOOD, "w.yaml", "toy", &[]).expect_err("no features");
        assert!(e.contains("describes no features"), "{e}");
    }
}
