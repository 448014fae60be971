//! The example faction in `content/examples/cartographers/`: a fifteenth faction written only
//! in content (an overlay and a Rhai script). It validates, plays complete random games
//! against base factions with every listed part applying and every build that applies listed,
//! its hooks visibly change the outcome (compared with an overlay that drops them), and hostile
//! versions of its script are stopped with an error naming script, function and line, leaving
//! the state byte-identical.
//!
//! `ORRERY_EXAMPLE_GAMES=N` plays N random games per player count (default 4).

mod common;

use std::sync::Arc;

use orrery_core::bot::{Bot, RandomBot};
use orrery_core::rng::Rng;
use orrery_gp::content::{Content, DirFiles, OverlaySource};
use orrery_gp::game::{Decision, Game, Setup};
use orrery_gp::notation::{parse_amounts, Command, HexRef};

const FACTION: &str = "cartographers";

fn example_dir() -> std::path::PathBuf {
    common::root().join("content/examples/cartographers")
}

/// The overlay and script as shipped, with `edit` applied to the overlay text and `script`
/// replacing the script when given.
fn overlay(edit: impl Fn(String) -> String, script: Option<&str>) -> OverlaySource {
    let dir = example_dir();
    let text = std::fs::read_to_string(dir.join("overlay.yaml")).expect("overlay");
    let src = match script {
        Some(s) => s.to_string(),
        None => std::fs::read_to_string(dir.join("cartographers.rhai")).expect("script"),
    };
    OverlaySource {
        file: dir.join("overlay.yaml").display().to_string(),
        text: edit(text),
        scripts: vec![("cartographers.rhai".into(), src)],
        problem: None,
    }
}

fn load(ov: OverlaySource) -> Arc<Content> {
    match Content::load(&DirFiles::new(common::base_dir()), &[ov]) {
        Ok(c) => Arc::new(c),
        Err(d) => panic!(
            "{}",
            d.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

fn shipped() -> Arc<Content> {
    load(overlay(|t| t, None))
}

/// Base factions to play against: different home planets, varied by `k`.
fn opponents(content: &Content, n: usize, k: usize) -> Vec<String> {
    let home = &content.faction(FACTION).expect("the example faction").home;
    let mut out: Vec<&orrery_gp::content::Faction> = Vec::new();
    let others: Vec<_> = content
        .factions
        .iter()
        .filter(|f| f.id != FACTION)
        .collect();
    for f in others.iter().cycle().skip(k * 3).take(others.len()) {
        if out.len() < n && &f.home != home && out.iter().all(|x| x.home != f.home) {
            out.push(f);
        }
    }
    out.iter().map(|f| f.id.clone()).collect()
}

/// A new game with these factions in seat order.
fn start(content: &Arc<Content>, factions: &[String], seed: u64) -> Game {
    let setup = Setup::random(content, factions.len(), &mut Rng::new(seed)).expect("setup");
    let mut g = Game::new(content.clone(), setup).expect("game");
    for f in factions {
        g.apply_part(&Command::Faction(f.as_str().into()))
            .expect("faction");
        g.apply_part(&Command::EndTurn).expect("faction chosen");
    }
    g
}

fn lineup(content: &Content, players: usize, k: usize) -> Vec<String> {
    let mut f = opponents(content, players - 1, k);
    f.insert(k % players, FACTION.to_string());
    f
}

/// Every mine build on every hex.
fn every_mine(g: &Game) -> Vec<Command> {
    g.state
        .map
        .spaces
        .iter()
        .map(|s| Command::Build {
            building: "m".into(),
            hex: HexRef::Axial {
                q: s.hex.q,
                r: s.hex.r,
            },
        })
        .collect()
}

/// Whether a listed part is this build (hexes compared on the map).
fn lists(g: &Game, listed: &[Command], part: &Command) -> bool {
    listed.iter().any(|c| match (c, part) {
        (
            Command::Build { building, hex },
            Command::Build {
                building: b,
                hex: h,
            },
        ) => building == b && g.hex(hex).ok() == g.hex(h).ok(),
        _ => c == part,
    })
}

/// Plays one random game; with `check`, every listed part must apply, and at the example
/// faction's turns every mine that applies must be listed. Returns the final scores and every
/// seat's final resources.
fn play(
    content: &Arc<Content>,
    factions: &[String],
    seed: u64,
    check: bool,
) -> (Vec<i32>, Vec<Vec<i32>>) {
    let mut g = start(content, factions, seed);
    let seat = factions.iter().position(|f| f == FACTION).expect("seated");
    let mut bot = RandomBot::new(seed, 3);
    let mut n = 0;
    while !g.finished() {
        if check {
            let listed = g.legal_parts();
            for part in &listed {
                g.clone()
                    .apply_part(part)
                    .unwrap_or_else(|e| panic!("seed {seed}: listed {part} refused: {e}"));
            }
            let turn = matches!(g.state.open, None | Some(Decision::Turn(_)))
                && g.deciding_seat() == Some(seat)
                && matches!(
                    g.state.open.as_ref().or(g.next_decision()),
                    Some(Decision::Turn(_))
                );
            if turn && n % 3 == 0 {
                for part in every_mine(&g) {
                    if g.clone().apply_part(&part).is_ok() {
                        assert!(lists(&g, &listed, &part), "seed {seed}: {part} not listed");
                    }
                }
            }
        }
        bot.step(&mut g)
            .unwrap_or_else(|e| panic!("seed {seed} {factions:?}: {e}"));
        n += 1;
        assert!(n < 50_000, "seed {seed}: no end");
    }
    assert_eq!(g.state.round, g.content.rules.rounds);
    let resources = g
        .state
        .players
        .iter()
        .map(|p| p.resources.to_vec())
        .collect();
    (g.scores(), resources)
}

fn games() -> usize {
    std::env::var("ORRERY_EXAMPLE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4)
}

#[test]
fn the_example_faction_validates_and_names_no_rust() {
    let c = shipped();
    let f = c.faction(FACTION).expect("added by the overlay");
    assert_eq!(f.home, "desert");
    assert!(c.scripts.has_function("cartographers.rhai", "chart"));
    assert_eq!(c.factions.len(), common::base().factions.len() + 1);
}

#[test]
fn random_games_with_the_example_faction_finish_and_list_soundly() {
    let content = shipped();
    for players in [2, 3, 4] {
        for k in 0..games() {
            let factions = lineup(&content, players, k);
            // The full listing check on the first game of each player count.
            play(
                &content,
                &factions,
                500 + (players * 100 + k) as u64,
                k == 0,
            );
        }
    }
}

/// The example overlay without its cost hook.
fn without_cost_hook() -> Arc<Content> {
    load(overlay(
        |t| {
            let cut = "            modifiers:\n              - cost_hook: {script: cartographers.rhai, function: welcome_discount}\n";
            assert!(t.contains(cut), "the overlay names its cost hook");
            t.replace(cut, "")
        },
        None,
    ))
}

/// The example overlay with a special action that does nothing instead of its hook.
fn without_action_hook() -> Arc<Content> {
    load(overlay(
        |t| {
            let cut = "                - script: {script: cartographers.rhai, function: chart}\n";
            assert!(t.contains(cut), "the overlay names its action hook");
            t.replace(cut, "                - gain: {c: 0}\n")
        },
        None,
    ))
}

#[test]
fn the_hooks_change_the_outcome() {
    let with = shipped();
    let dropped = [
        ("cost hook", without_cost_hook()),
        ("special action hook", without_action_hook()),
    ];
    for (what, other) in &dropped {
        let (mut scores, mut holdings) = (0, 0);
        // Enough seeds that a random seat spends what the hooks give (credits sit at their
        // cap in many random games).
        for k in 0..24 {
            // Four seats: mines next to rivals are common.
            let factions = lineup(&with, 4, k);
            let seed = 900 + k as u64;
            let a = play(&with, &factions, seed, false);
            let b = play(other, &factions, seed, false);
            scores += usize::from(a.0 != b.0);
            holdings += usize::from(a.1 != b.1);
        }
        // The same seeds end differently: in what the seats hold at the end, and for some
        // games in the scores.
        assert!(
            holdings > 0,
            "without the {what}, the same games end the same"
        );
        assert!(
            scores > 0,
            "without the {what}, the same games score the same"
        );
    }
}

#[test]
fn the_cost_hook_takes_one_ore_next_to_a_rival() {
    // Find a mine the example faction may build next to a rival, and compare what it pays
    // with and without the hook.
    let with = shipped();
    let without = without_cost_hook();
    for seed in 0..40u64 {
        let factions = lineup(&with, 2, seed as usize);
        let seat = factions.iter().position(|f| f == FACTION).expect("seated");
        let mut a = start(&with, &factions, seed);
        let mut b = start(&without, &factions, seed);
        let mut bot = RandomBot::new(seed, 0);
        while !a.finished() && a.state.round < 3 {
            if a.deciding_seat() == Some(seat) && a.state.open.is_none() {
                if let Some(Decision::Turn(_)) = a.next_decision() {
                    for part in a.legal_parts() {
                        let Command::Build { building, hex } = &part else {
                            continue;
                        };
                        if building != "m" {
                            continue;
                        }
                        let h = a.hex(hex).expect("hex");
                        let rival = a.state.structures.iter().any(|(i, l)| {
                            a.state.map.spaces[*i].hex.distance(h) <= 2
                                && l.iter().any(|s| s.seat != seat)
                        });
                        let (mut a2, mut b2) = (a.clone(), b.clone());
                        if a2.apply_part(&part).is_err() || b2.apply_part(&part).is_err() {
                            continue;
                        }
                        let c = |g: &Game| g.state.players[seat].resource(&g.content, "o");
                        assert_eq!(c(&a2) - c(&b2), i32::from(rival), "{part}");
                        if rival {
                            return;
                        }
                    }
                }
            }
            let Some(part) = bot.choose(&a, &a.legal_parts()) else {
                break;
            };
            a.apply_part(&part).expect("listed part applies");
            if b.apply_part(&part).is_err() {
                break;
            }
        }
    }
    panic!("no mine next to a rival was found in 40 games");
}

/// A game at the example faction's first turn, with the given script.
fn at_first_turn(script: &str) -> Game {
    let content = load(overlay(|t| t, Some(script)));
    let factions = lineup(&content, 2, 0);
    let seat = factions.iter().position(|f| f == FACTION).expect("seated");
    let mut g = start(&content, &factions, 11);
    while !(g.deciding_seat() == Some(seat)
        && g.state.open.is_none()
        && matches!(g.next_decision(), Some(Decision::Turn(_))))
    {
        let part = g.legal_parts().into_iter().next().expect("a part");
        g.apply_part(&part).expect("applies");
    }
    g
}

#[test]
fn hostile_versions_of_the_script_are_stopped_and_change_nothing() {
    let shipped_src =
        std::fs::read_to_string(example_dir().join("cartographers.rhai")).expect("script");
    let body = "fn chart(view) {";
    assert!(shipped_src.contains(body));
    let chart = Command::Special(parse_amounts("chart").expect("key"));
    // The shipped action works.
    let mut g = at_first_turn(&shipped_src);
    assert!(g.legal_parts().contains(&chart));
    g.apply_part(&chart).expect("the shipped action applies");
    for (name, hostile, says) in [
        (
            "loop",
            "fn chart(view) {\n    loop { }\n",
            "too many operations",
        ),
        (
            "recursion",
            "fn chart(view) {\n    chart(view)\n",
            "nested too deeply",
        ),
        (
            "huge string",
            "fn chart(view) {\n    let s = \"map\";\n    loop { s += s; }\n",
            "too large",
        ),
        (
            "huge array",
            "fn chart(view) {\n    let a = [];\n    loop { a.push(view); }\n",
            "too large",
        ),
        (
            "runtime error",
            "fn chart(view) {\n    view.planet_types.len() / 0\n",
            "Division by zero",
        ),
    ] {
        // The hostile body replaces the shipped one: renamed, the old one stays as dead code.
        let src = shipped_src.replace(body, &format!("{hostile}}}\nfn old_chart(view) {{"));
        let mut g = at_first_turn(&src);
        let before = serde_json::to_string(&g.state).expect("state");
        // A failing hook is a content error: the action is listed, and playing it fails.
        assert!(g.legal_parts().contains(&chart), "{name}: not listed");
        let e = g.apply_part(&chart).unwrap_err();
        assert!(e.0.contains(says), "{name}: {e}");
        assert!(
            e.0.contains("script cartographers.rhai, function chart, line "),
            "{name}: {e}"
        );
        assert_eq!(
            serde_json::to_string(&g.state).expect("state"),
            before,
            "{name}: the state changed"
        );
    }
}
