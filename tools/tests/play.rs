//! `orrery play` as a person reads it: a status line per seat, boosters with what they do,
//! conversions under one `convert` entry, counts in the right number, the map on request.

mod common;

use common::{in_repo, scratch, succeeded};

use std::process::Stdio;

/// A session of the Terrans (seat 1) against a greedy Xenos, fed `input`.
fn play(input: &str) -> String {
    let mut child = in_repo()
        .args(["play", "--factions", "terrans,xenos", "--bots", "greedy"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    succeeded(&child.wait_with_output().expect("ends"))
}

/// Through setup (mines, endturns, a booster) to the Terrans' first turn of round 1.
const TO_ROUND_ONE: &str = "1\n1\n1\n1\n1\n1\n";

#[test]
fn every_seat_has_a_status_line_and_counts_have_their_number() {
    let text = play("");
    let terrans = text
        .lines()
        .find(|l| l.starts_with("#   terrans (you)"))
        .unwrap_or_else(|| panic!("a status line for the person: {text}"));
    for field in [
        "Credits 15",
        "Ore 4",
        "Knowledge 3",
        "QIC 1",
        "Victory points 10",
        "power I 4 · II 4 · III 0 · Gaia 0",
    ] {
        assert!(terrans.contains(field), "{field}: {terrans}");
    }
    assert!(
        text.lines()
            .any(|l| l.starts_with("#   xenos ") && l.contains("QIC 2")),
        "{text}"
    );
    // After the first mine only `endturn` is left: one part, in the singular.
    let text = play("1\n");
    assert!(text.contains("# 1 legal part:\n   1  endturn"), "{text}");
    assert!(!text.contains("1 legal parts"), "{text}");
}

#[test]
fn conversions_are_one_entry_opened_by_number_or_name() {
    let text = play(TO_ROUND_ONE);
    let listing = &text[text.rfind("legal parts:").expect("a listing")..];
    let entries: Vec<&str> = listing
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .collect();
    let convert: Vec<&&str> = entries.iter().filter(|l| l.contains("convert …")).collect();
    assert_eq!(convert.len(), 1, "{listing}");
    assert!(
        !entries
            .iter()
            .any(|l| l.contains("  spend ") || l.contains("  burn ")),
        "no conversion is listed on its own: {listing}"
    );
    // The held booster and the boosters to pass for say what they give.
    assert!(
        text.lines()
            .any(|l| l.starts_with("#   terrans (you)") && l.contains("(income: ")),
        "{text}"
    );
    assert!(
        entries
            .iter()
            .any(|l| l.contains("pass booster") && l.contains("(income: ")),
        "{listing}"
    );
    // Opened by its number, the conversions are listed with what each pays and gets; a
    // number there plays that conversion.
    let number = convert[0].trim().split(' ').next().expect("a number");
    let text = play(&format!("{TO_ROUND_ONE}{number}\n1\n"));
    let sub = &text[text
        .rfind("conversions (a number")
        .expect("the conversions")..];
    let first = sub.lines().nth(1).expect("a conversion").trim();
    let (n, rest) = first.split_once("  ").expect("numbered");
    assert_eq!(n, "1");
    let (part, change) = rest.split_once("  (").expect("with its change");
    assert!(
        part.starts_with("spend ") || part.starts_with("burn "),
        "{first}"
    );
    assert!(change.ends_with(')') && change.contains(" +"), "{first}");
    assert!(text.contains(&format!("terrans: {part}\n")), "{text}");
    // `convert` opens them too, `back` returns to the whole listing.
    let text = play(&format!("{TO_ROUND_ONE}convert\nback\n"));
    let after = &text[text
        .rfind("conversions (a number")
        .expect("the conversions")..];
    assert!(
        after.contains("convert> # round 1\n# terrans to decide"),
        "{after}"
    );
}

#[test]
fn map_writes_the_board_and_names_the_file() {
    let dir = scratch("map");
    let file = dir.join("board.svg");
    let text = play(&format!("map {}\n", file.display()));
    assert!(
        text.contains(&format!("# map written to {}", file.display())),
        "{text}"
    );
    let svg = std::fs::read_to_string(&file).expect("the map is written");
    assert!(
        svg.starts_with("<svg") && svg.contains("class=\"hex\""),
        "{svg}"
    );
    // Without a name it goes to the temporary folder, named.
    let text = play("map\n");
    let line = text
        .lines()
        .find_map(|l| l.split("# map written to ").nth(1))
        .unwrap_or_else(|| panic!("{text}"));
    let path = std::path::Path::new(line.trim());
    assert!(path.is_file(), "{line}");
    std::fs::remove_file(path).expect("removed");
}

#[test]
fn with_a_number_of_seats_each_draws_its_faction_from_the_seed() {
    let session = |seed: &str| {
        let mut child = in_repo()
            .args(["play", "--players", "3", "--bots", "random", "--seed", seed])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts");
        drop(child.stdin.take());
        succeeded(&child.wait_with_output().expect("ends"))
    };
    let text = session("3");
    let seats: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("#   ") && l.contains("power I "))
        .map(|l| l.trim_start_matches("#   ").split(' ').next().unwrap_or(""))
        .collect();
    assert_eq!(seats.len(), 3, "{text}");
    // Each seat has a faction: none is named by its number (`p1`).
    let unnamed = |s: &str| {
        s.is_empty()
            || s.strip_prefix('p')
                .is_some_and(|n| n.parse::<u32>().is_ok())
    };
    assert!(!seats.iter().any(|s| unnamed(s)), "{seats:?}");
    // The same seed draws the same factions.
    assert_eq!(session("3"), text);
}
