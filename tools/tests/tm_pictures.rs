//! `render` for Terraforming Mars, against the state the public engine recorded: the map's
//! spaces with their bonuses, reserved and off-board spaces set apart, every tile in its
//! owner's colour, the parameter and TR tracks, milestones and awards with their owners, and a
//! panel per seat (resources, production, cards in play, tags). Records of the public engine
//! (`tests/data/terraforming-mars/*.json.gz`) are read as logs: their inputs are the moves.

mod common;

use std::collections::BTreeMap;

use common::{repo, run, succeeded};
use orrery_tm::content::{CardType, SpaceType};
use orrery_tm::record::Record;
use serde_json::Value;

/// The texts of an SVG, in drawing order, unescaped.
fn texts(svg: &str) -> Vec<String> {
    svg.split("</text>")
        .filter_map(|piece| {
            let start = piece.rfind('>')?;
            piece[..start].contains("<text").then(|| {
                piece[start + 1..]
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&#39;", "'")
                    .replace("&amp;", "&")
            })
        })
        .collect()
}

/// A seat's panel (`<g class="seat" data-seat="N">` … `</g>`).
fn panel(svg: &str, seat: usize) -> &str {
    let open = format!("<g class=\"seat\" data-seat=\"{seat}\">");
    let at = svg
        .find(&open)
        .unwrap_or_else(|| panic!("no panel of seat {seat}"));
    let rest = &svg[at..];
    &rest[..rest.find("</g>").expect("the panel ends")]
}

/// A panel's lines, wrapped lines joined back.
fn panel_lines(svg: &str, seat: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for t in texts(panel(svg, seat)) {
        match (t.strip_prefix("  "), lines.last_mut()) {
            (Some(more), Some(last)) => {
                last.push(' ');
                last.push_str(more);
            }
            _ => lines.push(t),
        }
    }
    lines
}

/// The fill of a seat's panel's title bar: the seat's colour.
fn seat_colour(svg: &str, seat: usize) -> String {
    let p = panel(svg, seat);
    let fills: Vec<&str> = p
        .split("fill=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect();
    fills[1].to_string()
}

/// The text drawn right after `label` (a track's numbers after its name).
fn after<'a>(all: &'a [String], label: &str) -> &'a str {
    let i = all
        .iter()
        .position(|t| t == label)
        .unwrap_or_else(|| panic!("no {label}"));
    &all[i + 1]
}

#[test]
fn render_draws_a_recorded_game_as_the_recording_engine_saw_it() {
    let content =
        orrery_tm::content::load(&repo().join("content/terraforming-mars")).expect("content");
    let cards: BTreeMap<&str, &orrery_tm::content::Card> = content
        .projects
        .iter()
        .chain(&content.corporations)
        .map(|c| (c.name.as_str(), c))
        .collect();
    for (file, n) in [("dev-3p-ce-01", 200), ("dev-4p-base-01", usize::MAX)] {
        let log = format!("tests/data/terraforming-mars/{file}.json.gz");
        let record = Record::load(&repo().join(&log)).expect("record");
        let n = n.min(record.moves.len());
        let snap: &Value = &record.moves[n - 1].snapshot;
        let svg = succeeded(&run(&[
            "render",
            "--game",
            "terraforming-mars",
            &log,
            "--move",
            &n.to_string(),
        ]));
        let all = texts(&svg);
        assert!(
            all[0].starts_with(&format!(
                "{file} · move {n} of {} · generation {}",
                record.moves.len(),
                snap["generation"]
            )),
            "{}",
            all[0]
        );
        // The map: every space labelled, those with a bonus noted, reserved and off-board
        // ones dashed.
        for s in &content.map.spaces {
            assert!(all.contains(&s.id), "{file}: space {}", s.id);
        }
        let noted = content
            .map
            .spaces
            .iter()
            .filter(|s| !s.bonus.is_empty())
            .count();
        assert_eq!(svg.matches("font-size=\"7\"").count(), noted, "{file}");
        let apart = content
            .map
            .spaces
            .iter()
            .filter(|s| s.reserved || s.kind == SpaceType::Colony)
            .count();
        assert!(apart >= 2);
        assert_eq!(svg.matches("stroke-dasharray").count(), apart, "{file}");
        // The parameters and each seat's TR.
        for p in ["oxygen", "temperature", "oceans"] {
            let shown = after(&all, p);
            assert!(
                shown.starts_with(&format!("{} / ", snap[p])),
                "{file}: {p} {shown}"
            );
        }
        let players = snap["players"].as_array().expect("players");
        for p in players {
            let colour = p["color"].as_str().expect("color");
            let shown = after(&all, &format!("TR {colour}"));
            assert!(
                shown.starts_with(&format!("{} / ", p["tr"])),
                "{file}: TR {colour} {shown}"
            );
        }
        // Every tile, each owned one ringed in its owner's colour.
        let tiles = snap["tiles"].as_object().expect("tiles");
        assert_eq!(svg.matches("<circle").count(), tiles.len(), "{file}");
        for (seat, p) in players.iter().enumerate() {
            let colour = p["color"].as_str().expect("color");
            let owned = tiles.values().filter(|t| t[1] == colour).count();
            assert!(owned > 0, "{file}: the test needs tiles of {colour}");
            let ring = format!(
                "stroke=\"{}\" stroke-width=\"3.5\"",
                seat_colour(&svg, seat)
            );
            assert_eq!(
                svg.matches(&ring).count(),
                owned,
                "{file}: tiles of {colour}"
            );
        }
        // Milestones and awards with their owners; the others open.
        for (list, word) in [("milestones", "claimed by"), ("awards", "funded by")] {
            let owned = snap[list].as_array().expect("list");
            for m in owned {
                let line = format!(
                    "{}: {word} {}",
                    m["name"].as_str().unwrap(),
                    m["player"].as_str().unwrap()
                );
                assert!(all.iter().any(|t| t.ends_with(&line)), "{file}: {line}");
            }
        }
        let open = content.scoring.milestones.len() - snap["milestones"].as_array().unwrap().len();
        assert_eq!(all.iter().filter(|t| t.ends_with(": open")).count(), open);
        // A panel per seat: TR and VP, resources with production, cards in play, tags.
        for (seat, p) in players.iter().enumerate() {
            let lines = panel_lines(&svg, seat);
            let count = |k: &str| p[k].as_array().expect("cards").len();
            assert_eq!(
                lines[1],
                format!(
                    "TR {}, {} VP, {} in hand, {} played",
                    p["tr"],
                    p["vp"],
                    count("hand"),
                    count("played")
                ),
                "{file}: seat {seat}"
            );
            for r in ["mc", "steel", "titanium", "plants", "energy", "heat"] {
                let line = format!(
                    "{r} {} (production {:+})",
                    p["res"][r],
                    p["prod"][r].as_i64().unwrap()
                );
                assert!(lines.contains(&line), "{file}: seat {seat}: {line}");
            }
            let played: Vec<&str> = p["played"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect();
            let on_cards = p["cardResources"].as_object().unwrap();
            let in_play: Vec<String> = played
                .iter()
                .map(
                    |c| match (on_cards.get(*c).and_then(Value::as_i64), &cards[c].resource) {
                        (Some(k), Some(r)) if k > 0 => format!("{c} ({k} {r})"),
                        _ => (*c).to_string(),
                    },
                )
                .collect();
            assert!(
                lines.contains(&format!("in play: {}", in_play.join(", "))),
                "{file}: seat {seat}: {lines:?}"
            );
            // Tags: the corporation's and those of cards in play that are not events.
            let mut tags: BTreeMap<&str, usize> = BTreeMap::new();
            let corp = p["corporation"].as_str().expect("a corporation");
            for c in std::iter::once(corp).chain(played.iter().copied()) {
                if cards[c].kind == CardType::Event {
                    continue;
                }
                for t in &cards[c].tags {
                    *tags.entry(t.as_str()).or_default() += 1;
                }
            }
            assert!(!tags.is_empty());
            let each: Vec<String> = tags.iter().map(|(t, k)| format!("{t} {k}")).collect();
            assert!(
                lines.contains(&format!("tags: {}", each.join(", "))),
                "{file}: seat {seat}: {lines:?}"
            );
        }
    }
}

#[test]
fn a_record_refused_or_out_of_range_has_its_exit_code() {
    let log = "tests/data/terraforming-mars/dev-2p-base-01.json.gz";
    let out = run(&[
        "render",
        "--game",
        "terraforming-mars",
        log,
        "--move",
        "100000",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--move 100000 is out of range"));
    let dir = common::scratch("tm-pictures");
    let broken = dir.join("broken.json.gz");
    std::fs::write(&broken, b"not gzip").expect("write");
    let out = run(&[
        "view",
        "--game",
        "terraforming-mars",
        broken.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.json.gz"));
}
