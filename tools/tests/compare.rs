//! `orrery compare`: two studies on the same seeds and line-ups paired game by game (text,
//! `--json`, chart); studies that do not pair are refused, naming what differs.

mod common;

use common::{repo, run, scratch, succeeded};

use std::path::{Path, PathBuf};

const FACTIONS: &str = "terrans,xenos,ambas,ivits";

fn study(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let out = dir.join(name);
    let mut args = vec![
        "simulate",
        "--games",
        "8",
        "--players",
        "2",
        "--bots",
        "greedy",
        "--factions",
        FACTIONS,
        "--jobs",
        "1",
    ];
    args.extend_from_slice(extra);
    let out_s = out.to_str().expect("utf-8").to_string();
    args.extend_from_slice(&["--out", &out_s]);
    succeeded(&run(&args));
    out
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8")
}

#[test]
fn two_studies_on_the_same_seeds_are_paired_game_by_game() {
    let dir = scratch("compare");
    let a = study(&dir, "a.json", &["--seed", "4"]);
    let b = study(&dir, "b.json", &["--seed", "4", "--variant", "beta-2"]);
    let chart = dir.join("c.svg");
    let table = succeeded(&run(&["compare", s(&a), s(&b), "--chart", s(&chart)]));
    assert!(table.contains("8 games paired"), "{table}");
    assert!(table.contains("(beta-2)"), "{table}");
    for f in FACTIONS.split(',') {
        assert!(table.lines().any(|l| l.starts_with(f)), "{f}: {table}");
    }
    let svg = std::fs::read_to_string(&chart).expect("chart written");
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{svg}");
    assert_eq!(
        svg.matches("class=\"diff\"").count(),
        2 * 5,
        "4 factions + all, 2 panels"
    );
    // The JSON agrees with the per-game results in the two files.
    let v: serde_json::Value =
        serde_json::from_str(&succeeded(&run(&["compare", s(&a), s(&b), "--json"]))).expect("json");
    assert_eq!(v["format"], "orrery-compare/1");
    assert_eq!(v["paired_games"], 8);
    let read = |p: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).expect("read")).expect("json")
    };
    let (ra, rb) = (read(&a), read(&b));
    let vp_of = |r: &serde_json::Value, f: &str| -> Vec<i64> {
        r["results"]
            .as_array()
            .expect("results")
            .iter()
            .flat_map(|g| g["seats"].as_array().expect("seats").clone())
            .filter(|s| s["faction"] == f)
            .map(|s| s["vp"].as_i64().expect("vp"))
            .collect()
    };
    for f in FACTIONS.split(',') {
        let (x, y) = (vp_of(&ra, f), vp_of(&rb, f));
        assert_eq!(x.len(), y.len());
        let mean = y.iter().zip(&x).map(|(b, a)| (b - a) as f64).sum::<f64>() / x.len() as f64;
        let got = v["factions"][f]["vp_diff"]["mean"].as_f64().expect("mean");
        assert!((got - mean).abs() < 1e-9, "{f}: {got} vs {mean}");
        assert_eq!(v["factions"][f]["vp_diff"]["n"], x.len());
        let p = v["factions"][f]["vp_diff"]["p"].as_f64().expect("p");
        assert!((0.0..=1.0).contains(&p));
    }
    // A study compared with itself: no difference, p = 1.
    let same: serde_json::Value =
        serde_json::from_str(&succeeded(&run(&["compare", s(&a), s(&a), "--json"]))).expect("json");
    assert_eq!(same["all_seats"]["vp_diff"]["mean"], 0.0);
    assert_eq!(same["all_seats"]["vp_diff"]["p"], 1.0);
}

#[test]
fn studies_that_do_not_pair_are_refused_naming_what_differs() {
    let dir = scratch("compare-refused");
    let a = study(&dir, "a.json", &["--seed", "4"]);
    let seed = study(&dir, "seed.json", &["--seed", "5"]);
    let shard = study(&dir, "shard.json", &["--seed", "4", "--shard", "1/2"]);
    let random = dir.join("random.json");
    succeeded(&run(&[
        "simulate",
        "--games",
        "8",
        "--players",
        "2",
        "--bots",
        "greedy",
        "--seed",
        "4",
        "--jobs",
        "1",
        "--out",
        s(&random),
    ]));
    let old = repo().join("tools/tests/data/study-base.json");
    for (other, says) in [
        (&seed, "seeds differ (4 in"),
        (&shard, "is shard 1/2 of a study"),
        (&random, "factions differ"),
        (&old, "players differ"),
    ] {
        let out = run(&["compare", s(&a), s(other)]);
        assert_eq!(out.status.code(), Some(1), "{}", other.display());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{}: {err}", other.display());
        assert!(out.stdout.is_empty());
    }
    // A study written before per-game results were kept cannot be paired.
    let out = run(&["compare", s(&old), s(&old)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("keeps no per-game results"));
    // A seat whose faction differs game by game is named.
    let text = std::fs::read_to_string(&a).expect("read");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let first = v["results"][2]["seats"][0]["faction"].clone();
    let second = v["results"][2]["seats"][1]["faction"].clone();
    v["results"][2]["seats"][0]["faction"] = second;
    v["results"][2]["seats"][1]["faction"] = first;
    let swapped = dir.join("swapped.json");
    std::fs::write(&swapped, v.to_string()).expect("write");
    let out = run(&["compare", s(&a), s(&swapped)]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game 2 seat 1"), "{err}");
}
