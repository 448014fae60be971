//! Checks that content which decodes can also be played: every number within the range the
//! game computes in, the round count and player counts bounded, enough tiles for the
//! player counts and rounds the content declares. Each problem names its file and line.

use super::kinds::{
    AdvancedTilesFile, BoostersFile, FinalScoringFile, ResearchFile, RoundScoringFile, Rules,
    SectorsFile,
};
use super::table::file;
use orrery_core::content::load::{numbers_within, push_index, push_key, Loaded};
use orrery_core::diagnostics::Diagnostic;
use orrery_core::located::{LKind, LNode};

/// Largest magnitude of any number in content (amounts, caps, counts, VP, power tokens): far
/// above the base game's largest (30), low enough that sums and products of them in the
/// kernel's `i32`/`u32` arithmetic stay far from overflowing.
pub const MAX_CONTENT_NUMBER: i64 = 10_000;
/// Most rounds a game may have.
pub const MAX_ROUNDS: u32 = 50;
/// Largest player count content may declare.
pub const MAX_PLAYERS: u8 = 8;
/// Largest distance of a map layout's slot centre from the origin, per axial coordinate.
pub const MAX_LAYOUT_COORD: i32 = 100;

/// The decoded files the checks read (each `None` when it did not decode).
pub(crate) struct Decoded<'a> {
    pub rules: Option<&'a Rules>,
    pub sectors: Option<&'a SectorsFile>,
    pub research: Option<&'a ResearchFile>,
    pub advanced_tiles: Option<&'a AdvancedTilesFile>,
    pub boosters: Option<&'a BoostersFile>,
    pub round_scoring: Option<&'a RoundScoringFile>,
    pub final_scoring: Option<&'a FinalScoringFile>,
}

fn diag(node: &LNode, pointer: &str, message: String) -> Diagnostic {
    Diagnostic {
        file: node.origin.file.to_string(),
        pos: node.origin.pos,
        pointer: pointer.to_string(),
        message,
    }
}

/// Every check; problems are added to `diags`.
pub(crate) fn check(c: &Decoded, loaded: &Loaded, diags: &mut Vec<Diagnostic>) {
    let sectors = loaded.table.file_index(file::SECTORS);
    for doc in &loaded.docs {
        numbers_within(&doc.tree, "", MAX_CONTENT_NUMBER, diags);
        if Some(doc.file) != sectors {
            ids_writable(&doc.tree, &mut String::new(), diags);
        } else if let Some(LKind::Seq(sectors)) = doc.tree.at("/sectors").map(|n| &n.kind) {
            sector_labels(sectors, diags);
        }
    }
    let doc = |path: &str| loaded.doc_of(path);
    // At `pointer` of the first document of `kind` (the document itself when absent).
    let at = |path: &str, pointer: &str, message: String, diags: &mut Vec<Diagnostic>| {
        if let Some(d) = doc(path) {
            let node = d.tree.at(pointer).unwrap_or(&d.tree);
            diags.push(diag(node, pointer, message));
        }
    };
    let Some(rules) = c.rules else { return };
    if !(1..=MAX_ROUNDS).contains(&rules.rounds) {
        at(
            file::RULES,
            "/rounds",
            format!(
                "{} rounds: a game has 1 to {MAX_ROUNDS} rounds",
                rules.rounds
            ),
            diags,
        );
    }
    for (i, &p) in rules.players.iter().enumerate() {
        if !(1..=MAX_PLAYERS).contains(&p) {
            at(
                file::RULES,
                &format!("/players/{i}"),
                format!("player count {p}: content supports 1 to {MAX_PLAYERS} players"),
                diags,
            );
        }
    }
    for (i, r) in rules.resources.iter().enumerate() {
        if let Some(cap) = r.cap.filter(|&cap| cap < 0) {
            at(
                file::RULES,
                &format!("/resources/{i}/cap"),
                format!("a cap of {cap}: caps are 0 or more"),
                diags,
            );
        }
    }
    let most_players = rules.players.iter().copied().max().unwrap_or(0);
    if let Some(boosters) = c.boosters {
        let needed = u64::from(most_players) + u64::from(rules.extra_boosters);
        if (boosters.boosters.len() as u64) < needed {
            at(
                file::BOOSTERS,
                "/boosters",
                format!(
                    "{} boosters, but a game of {most_players} players uses {needed} \
                     (players + extra_boosters {} in rules.yaml)",
                    boosters.boosters.len(),
                    rules.extra_boosters
                ),
                diags,
            );
        }
    }
    if let Some(round) = c.round_scoring {
        if (round.tiles.len() as u64) < u64::from(rules.rounds) {
            at(
                file::ROUND_SCORING,
                "/tiles",
                format!(
                    "{} round scoring tiles for {} rounds (one is drawn per round)",
                    round.tiles.len(),
                    rules.rounds
                ),
                diags,
            );
        }
    }
    if let Some(finals) = c.final_scoring {
        if (finals.tiles.len() as u64) < u64::from(finals.per_game) {
            at(
                file::FINAL_SCORING,
                "/per_game",
                format!(
                    "{} final scoring tiles, but per_game draws {}",
                    finals.tiles.len(),
                    finals.per_game
                ),
                diags,
            );
        }
    }
    if let (Some(adv), Some(research)) = (c.advanced_tiles, c.research) {
        if adv.tiles.len() < research.tracks.len() {
            at(
                file::ADVANCED_TILES,
                "/tiles",
                format!(
                    "{} advanced tech tiles for {} research tracks (one is drawn per track)",
                    adv.tiles.len(),
                    research.tracks.len()
                ),
                diags,
            );
        }
    }
    if let Some(sectors) = c.sectors {
        for (i, l) in sectors.layouts.iter().enumerate() {
            for (j, slot) in l.slots.iter().enumerate() {
                if slot
                    .iter()
                    .any(|v| v.unsigned_abs() > MAX_LAYOUT_COORD as u32)
                {
                    at(
                        file::SECTORS,
                        &format!("/layouts/{i}/slots/{j}"),
                        format!(
                            "slot centre {slot:?} is farther than {MAX_LAYOUT_COORD} from the \
                             origin"
                        ),
                        diags,
                    );
                }
            }
        }
    }
}

/// Reports every `id` and `verb` the move notation could not write (see
/// [`crate::notation::unwritable_id`]) at its own position: a game with such an id would play,
/// but its log would not replay.
fn ids_writable(node: &LNode, at: &mut String, diags: &mut Vec<Diagnostic>) {
    match &node.kind {
        LKind::Scalar(_) => {}
        LKind::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = push_index(at, i);
                ids_writable(item, at, diags);
                at.truncate(len);
            }
        }
        LKind::Map(entries) => {
            for e in entries {
                let len = push_key(at, &e.key);
                match (&e.key[..], &e.value.kind) {
                    ("id" | "verb", LKind::Scalar(serde_json::Value::String(id))) => {
                        if let Some(why) = crate::notation::unwritable_id(id) {
                            diags.push(diag(&e.value, at, why));
                        }
                    }
                    _ => ids_writable(&e.value, at, diags),
                }
                at.truncate(len);
            }
        }
    }
}

/// Reports sector labels that a hex name cannot hold: hex names start with the label, one or
/// two digits (`4B2`, `10A11`).
fn sector_labels(sectors: &[LNode], diags: &mut Vec<Diagnostic>) {
    for (i, s) in sectors.iter().enumerate() {
        let Some(label) = s.get("label") else {
            continue;
        };
        if let LKind::Scalar(serde_json::Value::String(text)) = &label.kind {
            if !(1..=2).contains(&text.len()) || !text.bytes().all(|b| b.is_ascii_digit()) {
                diags.push(diag(
                    label,
                    &format!("/sectors/{i}/label"),
                    format!(
                        "sector label {text:?} cannot start a hex name: a label is one or two \
                         digits"
                    ),
                ));
            }
        }
    }
}
