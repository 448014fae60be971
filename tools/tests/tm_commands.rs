//! `replay`, `moves` and `trace` for Terraforming Mars, written once over the game trait: a
//! log written by `simulate --logs` replays to the scores it states, saves the state reached,
//! lists the legal inputs there in the notation, and traces each line's change per seat. The
//! game is found from the file itself (its `game` key).

mod common;

use common::{run, scratch, succeeded};
use serde_json::Value;
use std::fs;
use std::path::PathBuf;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// One random two-player game's log, written by `simulate --logs`.
fn log(name: &str, seed: &str) -> PathBuf {
    let dir = scratch(name);
    let logs = dir.join("logs");
    succeeded(&run(&[
        "simulate",
        "--game",
        "terraforming-mars",
        "--players",
        "2",
        "--bots",
        "random",
        "--games",
        "1",
        "--seed",
        seed,
        "--logs",
        logs.to_str().unwrap(),
    ]));
    logs.join("game-000000.json")
}

fn read(path: &std::path::Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).expect("file")).expect("JSON")
}

#[test]
fn a_simulated_log_replays_to_the_scores_it_states() {
    let log = log("tm-replay", "3");
    let written = read(&log);
    assert_eq!(written["game"], "terraforming-mars");
    assert!(written["moves"][0]
        .as_str()
        .unwrap()
        .starts_with("setup 2 "));
    let text = succeeded(&run(&["replay", log.to_str().unwrap()]));
    let want: Vec<String> = written["final"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{} {}", s["color"].as_str().unwrap(), s["vp"]))
        .collect();
    assert_eq!(text.lines().collect::<Vec<_>>(), want);
    // A move out of range is exit 1; a refused move says which and why.
    let moves = written["moves"].as_array().unwrap().len();
    let out = run(&[
        "replay",
        log.to_str().unwrap(),
        "--until",
        &moves.to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("out of range"), "{}", stderr(&out));
    let mut broken = written.clone();
    broken["moves"][5] = "red: play No Such Card".into();
    let bad = log.with_file_name("broken.json");
    fs::write(&bad, broken.to_string()).unwrap();
    let out = run(&["replay", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("move 5 \"red: play No Such Card\": "),
        "{text}"
    );
}

/// Whether every `card` field in `v` is a name.
fn cards_named(v: &Value) -> bool {
    match v {
        Value::Object(m) => m
            .iter()
            .all(|(k, x)| (k != "card" || x.is_string() || x.is_null()) && cards_named(x)),
        Value::Array(l) => l.iter().all(cards_named),
        _ => true,
    }
}

#[test]
fn a_saved_state_lists_the_legal_inputs_in_the_notation() {
    let log = log("tm-moves", "5");
    let state = log.with_file_name("state.json");
    succeeded(&run(&[
        "replay",
        log.to_str().unwrap(),
        "--until",
        "12",
        "--save-state",
        state.to_str().unwrap(),
    ]));
    let saved = read(&state);
    assert_eq!(saved["game"], "terraforming-mars");
    assert_eq!(saved["state"]["format"], 1);
    let text = succeeded(&run(&["moves", state.to_str().unwrap()]));
    let mut lines = text.lines();
    let head = lines.next().unwrap();
    assert!(
        head.starts_with("# ") && head.contains(" to decide; "),
        "{head}"
    );
    let listed: Vec<&str> = lines.collect();
    let n: usize = head
        .split("; ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .expect("a count");
    assert_eq!(listed.len(), n, "{text}");
    let color = head.trim_start_matches("# ").split(' ').next().unwrap();
    for l in &listed {
        assert!(
            l.starts_with(&format!("{color}: "))
                || l.starts_with("take ")
                || l.starts_with("leave "),
            "{l}"
        );
    }
    let json: Value = serde_json::from_str(&succeeded(&run(&[
        "moves",
        state.to_str().unwrap(),
        "--json",
    ])))
    .unwrap();
    assert_eq!(json["player"], color);
    assert_eq!(json["parts"].as_array().unwrap().len(), n);
    assert_eq!(json["decision"]["player"], color);
    // Cards in the decision are named, never numbered.
    assert!(cards_named(&json["decision"]), "{}", json["decision"]);
    // The text of each part is what the listing printed.
    for (p, l) in json["parts"].as_array().unwrap().iter().zip(&listed) {
        assert!(l.starts_with(p["text"].as_str().unwrap()), "{l} / {p}");
    }
    // `--explain`: each input keeps its line, with what it changes for the deciding seat (its
    // tally, played on a copy) after `  # `; as `change` (or `refused`) in JSON.
    let explained = succeeded(&run(&["moves", state.to_str().unwrap(), "--explain"]));
    let explained: Vec<&str> = explained.lines().skip(1).collect();
    assert_eq!(explained.len(), n, "{explained:?}");
    for (l, e) in listed.iter().zip(&explained) {
        assert!(e.starts_with(&format!("{l}  # ")), "{l} / {e}");
    }
    let json: Value = serde_json::from_str(&succeeded(&run(&[
        "moves",
        state.to_str().unwrap(),
        "--explain",
        "--json",
    ])))
    .unwrap();
    for p in json["parts"].as_array().unwrap() {
        assert!(p["change"].is_object() || p["refused"].is_string(), "{p}");
    }
}

#[test]
fn a_broken_or_foreign_saved_state_is_refused_saying_why() {
    let log = log("tm-broken-state", "7");
    let state = log.with_file_name("state.json");
    succeeded(&run(&[
        "replay",
        log.to_str().unwrap(),
        "--until",
        "3",
        "--save-state",
        state.to_str().unwrap(),
    ]));
    let mut saved = read(&state);
    saved["state"]["players"][0]["hand"] = serde_json::json!([100000]);
    fs::write(&state, saved.to_string()).unwrap();
    let out = run(&["moves", state.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not a saved game: players[0].hand: card 100000 of"),
        "{}",
        stderr(&out)
    );
    // A state of this game read as the other game's is a usage error naming both.
    let out = run(&["moves", "--game", "gaia-project", state.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("a saved game of terraforming-mars"),
        "{}",
        stderr(&out)
    );
    fs::write(&state, "{\"game\": \"terraforming-mars\", \"state\": 1}").unwrap();
    let out = run(&["moves", state.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not a saved game"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn trace_shows_each_seats_change_per_line() {
    let log = log("tm-trace", "9");
    let text = succeeded(&run(&["trace", log.to_str().unwrap(), "--until", "20"]));
    let numbered: Vec<&str> = text.lines().filter(|l| !l.starts_with("    ")).collect();
    assert_eq!(numbered.len(), 20, "{text}");
    assert!(numbered[0].starts_with("1 "), "{text}");
    // The initial choices pay for cards: some seat's M€ changes.
    assert!(
        text.lines()
            .any(|l| l.starts_with("    ") && l.contains("mc ")),
        "{text}"
    );
    let json: Value = serde_json::from_str(&succeeded(&run(&[
        "trace",
        log.to_str().unwrap(),
        "--until",
        "20",
        "--json",
    ])))
    .unwrap();
    let lines = json["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 20);
    assert!(json["refused"].is_null());
    let changed = lines
        .iter()
        .flat_map(|l| l["seats"].as_array().unwrap())
        .any(|s| s["change"]["mc"].is_i64());
    assert!(changed, "{json}");
}

/// Runs `play` with `input` on standard input.
fn play(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = common::in_repo()
        .arg("play")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().expect("ends")
}

/// `play`'s arguments for a 2-player game against a random bot, seed 4.
const PLAY_TWO_SEATS: [&str; 8] = [
    "--game",
    "terraforming-mars",
    "--players",
    "2",
    "--bots",
    "random",
    "--seed",
    "4",
];

#[test]
fn a_person_plays_against_bots_seeing_holdings_and_hand() {
    let dir = scratch("tm-play");
    let state = dir.join("state.json");
    let mut args = PLAY_TWO_SEATS.to_vec();
    args.extend(["--save-state", state.to_str().unwrap()]);
    let out = play(&args, "1\nundo\nquit\n");
    let text = succeeded(&out);
    // The board, every seat's TR, stock and production, the person's hand, and the dealt
    // corporations with the cards to pick from.
    assert!(
        text.contains("# generation 1, research: oxygen 0/"),
        "{text}"
    );
    assert!(
        text.contains("red (you)") && text.contains("TR 20; mc 0 (+1)"),
        "{text}"
    );
    assert!(text.contains("#   hand: empty"), "{text}");
    assert!(
        text.contains("red: corporation ") && text.contains("(then take or leave, one by one,"),
        "{text}"
    );
    assert!(text.contains("# undone"), "{text}");
    // The state was saved after the part and again after the undo: the pick is not started.
    let saved = read(&state);
    assert!(saved["state"]["picking"].is_null(), "{saved}");
    // Played to the end, always taking the first part listed, the game ends with the scores.
    let out = play(&args[..8], &"1\n".repeat(5000));
    let text = succeeded(&out);
    let tail: Vec<&str> = text.lines().rev().take(3).collect();
    assert_eq!(tail[2], "# the game is over", "{text}");
    assert!(
        tail[1].starts_with("red ") && tail[0].starts_with("green "),
        "{tail:?}"
    );
    // Corporations are chosen in play: `--factions` and a missing `--players` are usage errors.
    let out = play(&["--game", "terraforming-mars", "--factions", "a,b"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = play(&["--game", "terraforming-mars"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--players"), "{}", stderr(&out));
}

#[test]
fn bench_measures_the_second_game_against_its_targets() {
    let out = run(&["bench", "--game", "terraforming-mars", "--json"]);
    let json: Value = serde_json::from_str(&succeeded(&out)).unwrap();
    assert_eq!(json["records"], common::tm_record_count());
    assert!(json["states"].as_u64().unwrap() > 1000, "{json}");
    let figures = json["figures"].as_array().unwrap();
    let named = |n: &str| {
        figures
            .iter()
            .find(|f| f["name"] == n)
            .unwrap_or_else(|| panic!("no figure {n}: {json}"))
    };
    assert_eq!(named("random 2-player game, median")["target"], 2.0);
    assert_eq!(named("random 4-player game, median")["target"], 5.0);
    assert_eq!(named("best 2-player game, median of 5")["target"], 3.0);
    for f in figures {
        assert!(f["value"].as_f64().unwrap() > 0.0, "{f}");
    }
}

#[test]
fn render_draws_mars_from_a_log_or_a_saved_state() {
    let log = log("tm-render", "11");
    let written = read(&log);
    let moves = written["moves"].as_array().unwrap().len() - 1;
    let svg = succeeded(&run(&["render", log.to_str().unwrap()]));
    assert!(
        svg.starts_with("<svg") && svg.ends_with("</svg>\n"),
        "{svg}"
    );
    assert!(
        svg.contains(&format!(
            "game-000000 · move {moves} of {moves} · generation"
        )),
        "{svg}"
    );
    // Every space of the map is labelled with its id (61 on Mars, 2 off it, dashed).
    for id in ["03", "35", "63", "01", "02"] {
        assert!(svg.contains(&format!(">{id}</text>")), "space {id}");
    }
    assert!(svg.matches("stroke-dasharray").count() >= 2);
    // The finished game has tiles with owners, the tracks and the panels.
    assert!(svg.matches("<circle").count() > 10, "{svg}");
    for t in [
        "oxygen",
        "temperature",
        "oceans",
        "TR red",
        "TR green",
        "milestones and awards",
    ] {
        assert!(svg.contains(&format!(">{t}")), "{t}");
    }
    // The same state saved draws the same board (its caption aside).
    let state = log.with_file_name("end.json");
    succeeded(&run(&[
        "replay",
        log.to_str().unwrap(),
        "--save-state",
        state.to_str().unwrap(),
    ]));
    let saved = succeeded(&run(&["render", "--state", state.to_str().unwrap()]));
    let body = |s: &str| s.split_once("</text>").map(|(_, b)| b.to_owned()).unwrap();
    assert_eq!(body(&svg), body(&saved));
    // Move 0 is the deal: no tile yet.
    let start = succeeded(&run(&["render", log.to_str().unwrap(), "--move", "0"]));
    assert_eq!(start.matches("<circle").count(), 0);
    let out = run(&["render", log.to_str().unwrap(), "--move", "100000"]);
    assert_eq!(out.status.code(), Some(1));
}

/// `simulate` of random two-player Terraforming Mars games on seed 9, with `extra` arguments;
/// its standard output.
fn tm_simulate(games: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "simulate",
        "--game",
        "terraforming-mars",
        "--players",
        "2",
        "--bots",
        "random",
        "--games",
        games,
        "--seed",
        "9",
        "--jobs",
        "1",
    ];
    args.extend_from_slice(extra);
    succeeded(&run(&args))
}

/// Such a study written to `path` and read back.
fn tm_study(path: &std::path::Path, games: &str, extra: &[&str]) -> Value {
    let mut args = vec!["--out", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    tm_simulate(games, &args);
    read(path)
}

#[test]
fn studies_tally_corporations_and_cards_and_an_errata_shows_in_compare() {
    let dir = scratch("tm-study");
    let s = |p: &PathBuf| p.to_str().unwrap().to_owned();
    let base = dir.join("base.json");
    let v = tm_study(&base, "24", &[]);
    let games = v["games"].as_u64().expect("games");
    assert_eq!(games, 24);
    // One corporation played a seat, of the two dealt to it.
    let corps = v["items"]["corporation"].as_object().expect("corporations");
    let sum = |field: &str| -> u64 { corps.values().map(|t| t[field].as_u64().expect("n")).sum() };
    assert_eq!(sum("takers"), games * 2);
    assert_eq!(sum("seats_offered"), games * 2 * 2);
    // A corporation's takers are the seats that played it, as the faction tallies say.
    for (name, t) in corps {
        let played = v["factions"][name]["games"].as_u64().unwrap_or(0);
        assert_eq!(t["takers"].as_u64(), Some(played), "{name}");
    }
    // Cards' VP add up to the seats' card VP.
    let projects = v["items"]["project"].as_object().expect("projects");
    let card_vp: i64 = projects
        .values()
        .chain(corps.values())
        .map(|t| t["vp"].as_i64().expect("vp"))
        .sum();
    let source: i64 = v["factions"]
        .as_object()
        .expect("factions")
        .values()
        .map(|t| t["vp_by_source"]["cards"].as_i64().unwrap_or(0))
        .sum();
    assert_eq!(card_vp, source);
    assert!(projects.len() > 100, "{} cards met", projects.len());

    // The table names cards, the CSV holds one row per card, the chart draws them.
    let table = tm_simulate("4", &[]);
    assert!(table.contains("items: takers win most"), "{table}");
    assert!(table.contains("project "), "{table}");
    let csv = dir.join("base.csv");
    tm_simulate("4", &["--out", &s(&csv)]);
    let csv = fs::read_to_string(&csv).expect("csv");
    assert!(csv.lines().filter(|l| l.starts_with("project,")).count() > 50);
    assert!(csv.lines().any(|l| l.starts_with("corporation,")));
    let svg = succeeded(&run(&["chart", &s(&base)]));
    assert!(svg.contains("corporation "), "the chart draws corporations");

    // Shards merged are the whole study.
    let a = dir.join("a.json");
    let b = dir.join("b.json");
    tm_study(&a, "24", &["--shard", "1/2"]);
    tm_study(&b, "24", &["--shard", "2/2"]);
    let merged = dir.join("merged.json");
    succeeded(&run(&["merge", &s(&a), &s(&b), "--out", &s(&merged)]));
    let m = read(&merged);
    assert_eq!(m["items"], v["items"]);
    assert_eq!(m["factions"], v["factions"]);

    // An errata making a card free: on the same seeds, its take rate goes up, and `compare`
    // shows it.
    let overlay = dir.join("cheap.yaml");
    fs::write(
        &overlay,
        "name: cheap-soletta\ndescription: Soletta costs nothing.\nchanges:\n  - set: {kind: project, id: Soletta, path: cost, value: 0}\n",
    )
    .expect("written");
    let cheap = dir.join("cheap.json");
    let w = tm_study(&cheap, "24", &["--variant", &s(&overlay)]);
    let rate = |v: &Value| {
        let t = &v["items"]["project"]["Soletta"];
        t["takers"].as_f64().unwrap_or(0.0) / t["seats_offered"].as_f64().expect("offered")
    };
    assert!(rate(&w) > rate(&v), "{} then {}", rate(&v), rate(&w));
    let c: Value = serde_json::from_str(&succeeded(&run(&[
        "compare",
        &s(&base),
        &s(&cheap),
        "--json",
    ])))
    .expect("json");
    let d = &c["items"]["project"]["Soletta"];
    assert!(
        (d["take_rate"][0].as_f64().unwrap() - rate(&v)).abs() < 1e-9,
        "{d}"
    );
    assert!(
        (d["take_rate"][1].as_f64().unwrap() - rate(&w)).abs() < 1e-9,
        "{d}"
    );
    assert!(d["take_z"].as_f64().unwrap() > 0.0, "{d}");
    let table = succeeded(&run(&["compare", &s(&base), &s(&cheap)]));
    assert!(table.contains("items: take% changed most"), "{table}");
}

#[test]
fn play_shows_the_hand_with_each_cards_cost_and_requirements() {
    // Taking every card offered fills the hand.
    let out = play(&PLAY_TWO_SEATS, &"1\n".repeat(200));
    let text = succeeded(&out);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("#   hand (") && !l.starts_with("#   hand (0"))
        .unwrap_or_else(|| panic!("a hand with cards: {text}"));
    let count: usize = lines[at]
        .trim_start_matches("#   hand (")
        .trim_end_matches("):")
        .parse()
        .expect("a count");
    let cards = &lines[at + 1..at + 1 + count];
    // Each card with its cost to this seat, its requirements where it has any, and why it
    // cannot be played now where it cannot.
    for c in cards {
        let (name, rest) = c
            .trim_start_matches("#     ")
            .split_once(" (")
            .unwrap_or_else(|| panic!("{c}"));
        assert!(!name.is_empty() && !name.starts_with(' '), "{c}");
        let cost: String = rest.chars().take_while(char::is_ascii_digit).collect();
        assert!(!cost.is_empty(), "{c}");
        assert!(rest[cost.len()..].starts_with(" M€"), "{c}");
    }
    assert!(
        cards.iter().any(|c| c.contains(" M€; requires ")),
        "{cards:?}"
    );
    assert!(
        cards
            .iter()
            .any(|c| c.contains(" — not now: ") && c.contains("requirements are not met")),
        "{cards:?}"
    );
    // The listing after it is the legal parts.
    assert!(lines[at + 1 + count].contains("legal part"), "{text}");
    // `map FILE` draws Mars there.
    let dir = scratch("tm-play-map");
    let file = dir.join("mars.svg");
    let text = succeeded(&play(
        &PLAY_TWO_SEATS,
        &format!("map {}\nquit\n", file.display()),
    ));
    assert!(
        text.contains(&format!("# map written to {}", file.display())),
        "{text}"
    );
    let svg = fs::read_to_string(&file).expect("the map is written");
    assert!(svg.starts_with("<svg") && svg.contains("TR red"), "{svg}");
}
