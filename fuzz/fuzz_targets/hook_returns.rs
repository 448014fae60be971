//! What hooks return: the input is JSON, written as a Rhai literal that every hook of the
//! example faction returns (its special action, its income — from the first round for inputs
//! of even length —, its cost hook, its condition).
//! Whatever comes back is checked like YAML (or refuses the move): a random game lists only
//! parts that apply and reaches only states that save and load back — no negative resource,
//! no panic, no wrapped arithmetic.
#![no_main]

use std::fmt::Write;
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use orrery_gp::content::Content;
use orrery_fuzz::{base_files, example_overlay, play_checked};
use serde_json::Value;

/// `value` as a Rhai literal (`()` for null), at most 24 levels deep.
fn literal(value: &Value, depth: usize, out: &mut String) -> Option<()> {
    if depth > 24 {
        return None;
    }
    match value {
        Value::Null => out.push_str("()"),
        Value::Bool(b) => write!(out, "{b}").ok()?,
        Value::Number(n) => match n.as_i64() {
            Some(i) => write!(out, "{i}").ok()?,
            None => write!(out, "{}", n.as_f64()?).ok()?,
        },
        Value::String(s) => out.push_str(&serde_json::to_string(s).ok()?),
        Value::Array(items) => {
            out.push('[');
            for item in items {
                literal(item, depth + 1, out)?;
                out.push_str(", ");
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push_str("#{");
            for (k, v) in map {
                out.push_str(&serde_json::to_string(k).ok()?);
                out.push_str(": ");
                literal(v, depth + 1, out)?;
                out.push_str(", ");
            }
            out.push('}');
        }
    }
    Some(())
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let mut lit = String::new();
    if literal(&value, 0, &mut lit).is_none() {
        return;
    }
    let script: String = [
        "chart",
        "survey_income",
        "well_travelled",
        "welcome_discount",
    ]
    .iter()
    .map(|f| format!("fn {f}(view) {{ {lit} }}\n"))
    .collect();
    // For inputs of even length the income hook pays from the first round (the ability asks
    // for a mine instead of the planetary institute), so what it returns is checked at once;
    // odd lengths keep the shipped condition, so games reach the turns of the other hooks.
    let mut overlay = example_overlay(script);
    if data.len() % 2 == 0 {
        overlay.text = overlay.text.replace("when: {has: PI}", "when: {has: m}");
    }
    let content = match Content::load(base_files(), &[overlay]) {
        Ok(c) => c,
        // A literal Rhai cannot compile (too deep, too long): nothing to play.
        Err(_) => return,
    };
    play_checked(
        Arc::new(content),
        ["cartographers", "terrans"],
        data.len() as u64,
        120,
    );
});
