//! `orrery view` in a real browser: headless Chromium loads the page, steps through moves by
//! the hash, the arrow keys and the slider, and the test reads what the page shows (its DOM
//! after the scripts ran) against the replayed state, and checks that no error was reported.
//!
//! Without Chromium the test is skipped with a message, unless `CI` is set: then it fails.
//! `ORRERY_SCREENSHOT=FILE.png` also saves a screenshot of the page at move 150.

mod common;

use common::{repo, scratch};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn orrery(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_orrery"))
        .env_remove("ORRERY_CONTENT")
        .current_dir(repo())
        .args(args)
        .output()
        .expect("runs")
}

/// The Chromium binary: `$ORRERY_CHROMIUM`, else `chromium` or `chromium-browser` on PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ORRERY_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| [d.join("chromium"), d.join("chromium-browser")])
        .find(|p| p.is_file())
}

fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Runs Chromium headless on a URL with extra arguments; returns (stdout, stderr).
fn browse(chrome: &Path, profile: &Path, url: &str, extra: &[&str]) -> (String, String) {
    let mut child = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    // Read both pipes on threads so a full pipe cannot stall the browser.
    let mut so = child.stdout.take().expect("stdout");
    let mut se = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut so, &mut s).map(|_| s)
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut se, &mut s).map(|_| s)
    });
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        match child.try_wait().expect("wait") {
            Some(_) => break,
            None if Instant::now() > deadline => {
                child.kill().expect("kill a hung chromium");
                child.wait().expect("reaped");
                panic!("chromium did not finish within 90 s on {url}");
            }
            None => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    let out = out.join().expect("reader").expect("utf-8 stdout");
    let err = err.join().expect("reader").unwrap_or_default();
    (out, err)
}

/// The page's DOM after its scripts ran, for a URL hash.
fn dom(chrome: &Path, profile: &Path, page: &Path, hash: &str) -> String {
    let url = format!("file://{}#{hash}", page.display());
    let (out, err) = browse(
        chrome,
        profile,
        &url,
        &["--virtual-time-budget=5000", "--dump-dom"],
    );
    assert!(
        out.contains("data-ready=\"1\""),
        "the page's script did not finish for #{hash}; chromium said:\n{err}"
    );
    // The page logs nothing itself: any console line is a problem (an uncaught error, a
    // refused resource, …).
    let console: Vec<&str> = err.lines().filter(|l| l.contains("CONSOLE")).collect();
    assert!(
        console.is_empty(),
        "console output for #{hash}: {console:?}"
    );
    assert!(
        !out.contains("data-errors=") && out.contains("<pre id=\"errors\"></pre>"),
        "the page reported errors for #{hash}"
    );
    out
}

/// The number in `attr="N"` on the body element.
fn body_attr(dom: &str, attr: &str) -> Option<usize> {
    let body = &dom[dom.find("<body")?..];
    let body = &body[..body.find('>')?];
    let at = body.find(&format!("{attr}=\""))? + attr.len() + 2;
    body[at..].split('"').next()?.parse().ok()
}

fn html_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// VP per seat after move `n`, from a saved state (VP by source sum to the VP held).
fn vp_after(log: &str, n: usize, dir: &Path) -> Vec<i64> {
    let file = dir.join(format!("state-{n}.json"));
    let out = orrery(&[
        "replay",
        log,
        "--until",
        &n.to_string(),
        "--save-state",
        file.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success());
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("saved")).expect("json");
    v["state"]["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| {
            p["vp_sources"]
                .as_object()
                .map_or(0, |m| m.values().filter_map(Value::as_i64).sum())
        })
        .collect()
}

#[test]
fn the_replay_page_steps_through_a_game_in_chromium() {
    let Some(chrome) = chromium() else {
        assert!(
            !under_ci(),
            "CI is set but chromium is missing: .ci/run installs it with apt-get"
        );
        eprintln!("SKIPPED the_replay_page_steps_through_a_game_in_chromium: chromium not found (install it with `apt-get install -y chromium`, or set ORRERY_CHROMIUM)");
        return;
    };
    let dir = scratch("view");
    let log = "tests/data/conformance/rich/rich-019.json";
    let page = dir.join("replay.html");
    let out = orrery(&["view", log, "-o", page.to_str().expect("utf-8")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).expect("page");
    let foreign = html.replace("http://www.w3.org/2000/svg", "");
    assert!(
        !foreign.contains("http://") && !foreign.contains("https://") && !foreign.contains(" src="),
        "the page loads nothing from elsewhere"
    );
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join(log)).expect("log"))
            .expect("json");
    let moves: Vec<String> = record["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("line").to_string())
        .collect();
    let last = moves.len() - 1;
    let profile = dir.join("profile");
    // (hash, the move it must show): by the hash, by arrow keys, by the slider, at the ends.
    let cases: [(&str, usize); 6] = [
        ("move=0", 0),
        ("move=150", 150),
        (
            "move=100&keys=ArrowRight,ArrowRight,ArrowLeft,ArrowRight",
            102,
        ),
        ("move=40&slider=60", 60),
        ("move=220&keys=ArrowRight,PageDown,ArrowRight", last),
        ("keys=End,ArrowLeft", last - 1),
    ];
    for (hash, want) in cases {
        let dom = dom(&chrome, &profile, &page, hash);
        assert_eq!(body_attr(&dom, "data-move"), Some(want), "#{hash}");
        let vp = vp_after(log, want, &dir);
        for (seat, v) in vp.iter().enumerate() {
            assert!(
                dom.contains(&format!(
                    "<g class=\"seat\" data-seat=\"{seat}\" data-vp=\"{v}\">"
                )),
                "#{hash}: seat {seat} should show {v} VP"
            );
            assert!(
                dom.contains(&format!(">{v} VP</text>")),
                "#{hash}: {v} VP shown"
            );
        }
        assert!(
            dom.contains(&format!(
                "<div id=\"line\">{}</div>",
                html_text(&moves[want])
            )),
            "#{hash}: the move line {}",
            moves[want]
        );
        assert!(
            dom.contains(&format!("move {want} of {last}")),
            "#{hash}: the move number"
        );
        assert!(dom.contains("<li>"), "#{hash}: the line's parts");
    }
    if let Some(shot) = std::env::var_os("ORRERY_SCREENSHOT") {
        let url = format!("file://{}#move=150", page.display());
        let shot = PathBuf::from(shot);
        browse(
            &chrome,
            &profile,
            &url,
            &[
                "--virtual-time-budget=5000",
                "--window-size=1500,1500",
                &format!("--screenshot={}", shot.display()),
            ],
        );
        assert!(shot.is_file(), "screenshot written to {}", shot.display());
    }
}

/// The text lines of a seat's panel in a page's DOM (`<g class="seat" data-seat="N">`), with
/// wrapped lines joined back.
fn panel_lines(dom: &str, seat: usize) -> Vec<String> {
    let open = format!("<g class=\"seat\" data-seat=\"{seat}\">");
    let at = dom
        .find(&open)
        .unwrap_or_else(|| panic!("no panel of seat {seat}"));
    let panel = &dom[at..];
    let panel = &panel[..panel.find("</g>").expect("the panel ends")];
    let mut lines: Vec<String> = Vec::new();
    for piece in panel.split("</text>") {
        let Some(start) = piece.rfind('>') else {
            continue;
        };
        if !piece[..start].contains("<text") {
            continue;
        }
        let text = piece[start + 1..]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&");
        match (text.strip_prefix("  "), lines.last_mut()) {
            (Some(more), Some(last)) => {
                last.push(' ');
                last.push_str(more);
            }
            _ => lines.push(text),
        }
    }
    lines
}

/// A card name without the resources the panel notes after it (`Birds (2 animal)`).
fn card_name(listed: &str) -> &str {
    match listed.rfind(" (") {
        Some(at) if listed.ends_with(')') => &listed[..at],
        _ => listed,
    }
}

#[test]
fn a_terraforming_mars_replay_page_steps_through_a_recorded_game_in_chromium() {
    let Some(chrome) = chromium() else {
        assert!(
            !under_ci(),
            "CI is set but chromium is missing: .ci/run installs it with apt-get"
        );
        eprintln!("SKIPPED a_terraforming_mars_replay_page_steps_through_a_recorded_game_in_chromium: chromium not found (install it with `apt-get install -y chromium`, or set ORRERY_CHROMIUM)");
        return;
    };
    let dir = scratch("view-tm");
    let log = "tests/data/terraforming-mars/dev-3p-ce-01.json.gz";
    let page = dir.join("replay.html");
    let out = orrery(&[
        "view",
        "--game",
        "terraforming-mars",
        log,
        "-o",
        page.to_str().expect("utf-8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).expect("page");
    let foreign = html.replace("http://www.w3.org/2000/svg", "");
    assert!(
        !foreign.contains("http://") && !foreign.contains("https://") && !foreign.contains(" src="),
        "the page loads nothing from elsewhere"
    );
    // The recorded game, read as the engine it was recorded from wrote it: each input's line
    // and that engine's state after it, which the page must show.
    let record = orrery_tm::record::Record::load(&repo().join(log)).expect("record");
    let last = record.moves.len();
    let profile = dir.join("profile");
    let cases: [(&str, usize); 6] = [
        ("move=0", 0),
        ("move=150", 150),
        (
            "move=100&keys=ArrowRight,ArrowRight,ArrowLeft,ArrowRight",
            102,
        ),
        ("move=40&slider=60", 60),
        ("move=300&keys=End", last),
        ("keys=End,ArrowLeft", last - 1),
    ];
    for (hash, want) in cases {
        let dom = dom(&chrome, &profile, &page, hash);
        assert_eq!(body_attr(&dom, "data-move"), Some(want), "#{hash}");
        assert!(
            dom.contains(&format!("move {want} of {last}")),
            "#{hash}: the move number"
        );
        let (line, snap) = match want {
            0 => ("(the setup)".to_string(), &record.setup.snapshot),
            n => (
                record.moves[n - 1].line.clone(),
                &record.moves[n - 1].snapshot,
            ),
        };
        assert!(
            dom.contains(&format!("<div id=\"line\">{}</div>", html_text(&line))),
            "#{hash}: the move line {line}"
        );
        if want > 0 {
            let seat = line.split(':').next().expect("a seat");
            assert!(
                dom.contains(&format!("<li>by {seat}</li>")),
                "#{hash}: the line's parts"
            );
        }
        // The common board: generation and parameters in the caption, a disc per tile.
        for (key, name) in [
            ("oxygen", "oxygen"),
            ("temperature", "temperature"),
            ("oceans", "oceans"),
        ] {
            assert!(
                dom.contains(&format!("{name} {}/", snap[key])),
                "#{hash}: {name} {}",
                snap[key]
            );
        }
        assert!(
            dom.contains(&format!("generation {},", snap["generation"])),
            "#{hash}: generation"
        );
        let tiles = snap["tiles"].as_object().expect("tiles").len();
        assert_eq!(dom.matches("<circle").count(), tiles, "#{hash}: tiles");
        // Milestones and awards with their owners.
        for (list, word) in [("milestones", "claimed by"), ("awards", "funded by")] {
            for m in snap[list].as_array().expect("list") {
                let owned = format!(
                    "{}: {word} {}",
                    m["name"].as_str().expect("name"),
                    m["player"].as_str().expect("player")
                );
                assert!(dom.contains(&html_text(&owned)), "#{hash}: {owned}");
            }
        }
        // Each seat's panel: TR, VP, cards, each resource with its production, cards in play.
        for (seat, p) in snap["players"]
            .as_array()
            .expect("players")
            .iter()
            .enumerate()
        {
            let lines = panel_lines(&dom, seat);
            let count = |k: &str| p[k].as_array().expect("cards").len();
            assert_eq!(
                lines.get(1).map(String::as_str),
                Some(
                    format!(
                        "TR {}, {} VP, {} in hand, {} played",
                        p["tr"],
                        p["vp"],
                        count("hand"),
                        count("played")
                    )
                    .as_str()
                ),
                "#{hash}: seat {seat}: {lines:?}"
            );
            let title = match p["corporation"].as_str() {
                Some(c) => format!("{} · {c}", p["color"].as_str().expect("color")),
                None => p["color"].as_str().expect("color").to_string(),
            };
            assert_eq!(lines[0], title, "#{hash}: seat {seat}");
            for r in ["mc", "steel", "titanium", "plants", "energy", "heat"] {
                let want_line = format!(
                    "{r} {} (production {:+})",
                    p["res"][r],
                    p["prod"][r].as_i64().expect("production")
                );
                assert!(
                    lines.contains(&want_line),
                    "#{hash}: seat {seat}: {want_line} in {lines:?}"
                );
            }
            let played: Vec<&str> = p["played"]
                .as_array()
                .expect("played")
                .iter()
                .map(|c| c.as_str().expect("name"))
                .collect();
            let in_play = lines
                .iter()
                .find_map(|l| l.strip_prefix("in play: "))
                .unwrap_or_else(|| panic!("#{hash}: seat {seat}: no cards in play: {lines:?}"));
            let shown: Vec<&str> = if in_play == "none" {
                Vec::new()
            } else {
                in_play.split(", ").map(card_name).collect()
            };
            assert_eq!(shown, played, "#{hash}: seat {seat}: cards in play");
            assert!(
                lines.iter().any(|l| l.starts_with("tags: ")),
                "#{hash}: seat {seat}: tags"
            );
        }
    }
}
