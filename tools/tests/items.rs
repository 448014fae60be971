//! Item tallies of a study: every booster, tech and advanced tile, federation token, round and
//! final tile of each game's setup is counted as on offer, what the seats took is counted with
//! the VP it brought, and the table, CSV and chart show them.

mod common;

use common::{run, scratch, succeeded};

use serde_json::Value;

fn study(dir: &std::path::Path, name: &str, games: &str, players: &str) -> (String, Value) {
    let out = dir.join(name);
    let table = succeeded(&run(&[
        "simulate",
        "--games",
        games,
        "--players",
        players,
        "--bots",
        "greedy",
        "--seed",
        "3",
        "--jobs",
        "1",
        "--out",
        out.to_str().expect("utf-8"),
    ]));
    let v = serde_json::from_str(&std::fs::read_to_string(&out).expect("written")).expect("json");
    (table, v)
}

/// The sum over bots of one VP source.
fn source(v: &Value, key: &str) -> i64 {
    v["bots"]
        .as_object()
        .expect("bots")
        .values()
        .map(|t| t["vp_by_source"][key].as_i64().unwrap_or(0))
        .sum()
}

/// The sum over a kind's items of one field.
fn over_kind(v: &Value, kind: &str, field: &str) -> i64 {
    v["items"][kind]
        .as_object()
        .unwrap_or_else(|| panic!("no {kind} in {}", v["items"]))
        .values()
        .map(|t| t[field].as_i64().expect("number"))
        .sum()
}

#[test]
fn every_item_on_offer_is_counted_and_its_vp_adds_up() {
    let dir = scratch("items");
    let (table, v) = study(&dir, "s.json", "6", "3");
    let games = v["games"].as_i64().expect("games");
    assert_eq!(games, 6);
    // The base game's setup: players + 3 boosters, 6 round tiles, 2 final tiles, 9 standard
    // tech positions holding 9 different tiles, 6 advanced tiles; each game counts each once.
    assert_eq!(over_kind(&v, "booster", "games"), games * 6);
    assert_eq!(over_kind(&v, "round tile", "games"), games * 6);
    assert_eq!(over_kind(&v, "final tile", "games"), games * 2);
    assert_eq!(over_kind(&v, "tech tile", "games"), games * 9);
    assert_eq!(over_kind(&v, "advanced tile", "games"), games * 6);
    // Every seat takes a booster before round 1 and one each time it passes (rounds 1–5).
    assert_eq!(over_kind(&v, "booster", "taken"), games * 3 * 6);
    // The VP of boosters, round and final tiles all land on one item.
    for (kind, key) in [
        ("booster", "boosters"),
        ("round tile", "round scoring"),
        ("final tile", "final scoring"),
    ] {
        assert_eq!(over_kind(&v, kind, "vp"), source(&v, key), "{kind}");
    }
    // Tiles' VP is pinned on an item only when one tile can have brought it.
    let tiles = over_kind(&v, "tech tile", "vp") + over_kind(&v, "advanced tile", "vp");
    assert!(tiles <= source(&v, "tech tiles") + source(&v, "advanced tiles"));
    // Times taken by faction add up, and a faction named there played.
    for (kind, ids) in v["items"].as_object().expect("items") {
        for (id, t) in ids.as_object().expect("ids") {
            let by: i64 = t["by_faction"]
                .as_object()
                .expect("by_faction")
                .iter()
                .map(|(f, n)| {
                    assert!(v["factions"].get(f).is_some(), "{kind} {id}: {f}");
                    n.as_i64().expect("n")
                })
                .sum();
            assert_eq!(by, t["taken"].as_i64().expect("taken"), "{kind} {id}");
            assert!(t["taker_wins"].as_i64() <= t["takers"].as_i64());
        }
    }
    // Per-game results are kept, one per game, a seat each.
    let results = v["results"].as_array().expect("results");
    assert_eq!(results.len(), 6);
    assert!(results
        .iter()
        .all(|g| g["seats"].as_array().map(Vec::len) == Some(3)));
    // The table shows the top and bottom items; the CSV holds every item.
    assert!(table.contains("items: takers win most"), "{table}");
    assert!(table.contains("items: takers win least"), "{table}");
    let csv = dir.join("s.csv");
    succeeded(&run(&[
        "simulate",
        "--games",
        "6",
        "--players",
        "3",
        "--bots",
        "greedy",
        "--seed",
        "3",
        "--jobs",
        "1",
        "--out",
        csv.to_str().expect("utf-8"),
    ]));
    let csv = std::fs::read_to_string(&csv).expect("csv");
    let items: usize = v["items"]
        .as_object()
        .expect("items")
        .values()
        .map(|m| m.as_object().expect("ids").len())
        .sum();
    let rows = csv
        .lines()
        .filter(|l| {
            [
                "booster,",
                "tech tile,",
                "advanced tile,",
                "federation token,",
                "round tile,",
                "final tile,",
            ]
            .iter()
            .any(|k| l.starts_with(k))
        })
        .count();
    assert_eq!(rows, items);
    // The chart draws them.
    let svg = succeeded(&run(&[
        "chart",
        dir.join("s.json").to_str().expect("utf-8"),
    ]));
    assert!(svg.contains("Items: win rate of the seats that took each"));
    assert!(svg.contains("booster booster1"));
}

#[test]
fn an_edited_item_tally_or_game_result_is_refused() {
    let dir = scratch("items-edited");
    let (_, v) = study(&dir, "s.json", "3", "2");
    let text = std::fs::read_to_string(dir.join("s.json")).expect("read");
    let first_booster = v["items"]["booster"]
        .as_object()
        .and_then(|m| m.keys().next().cloned())
        .expect("a booster");
    let mut edited: Value = serde_json::from_str(&text).expect("json");
    edited["items"]["booster"][&first_booster]["taker_wins"] = Value::from(1000);
    let mut results_edited: Value = serde_json::from_str(&text).expect("json");
    results_edited["results"][0]["seats"][0]["vp"] = Value::from(999);
    for (name, bad, says) in [
        ("items.json", edited, "wins of"),
        ("results.json", results_edited, "per-game results"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, bad.to_string()).expect("write");
        let merged = dir.join("merged.json");
        let out = run(&[
            "merge",
            path.to_str().expect("utf-8"),
            "--out",
            merged.to_str().expect("utf-8"),
        ]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{name}: {err}");
    }
}
