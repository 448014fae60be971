//! `orrery bench`: the speed figures of the engine, measured in this process — content load,
//! replaying the recorded games with snapshot checks, listing, cloning and applying parts in
//! every recorded state, and complete random four-player games. The criterion benchmarks
//! (`cargo bench`) measure the same operations more carefully; this is the quick summary.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use orrery_core::bot::RandomBot;
use orrery_core::game_module::{GameModule, Start};
use orrery_core::rng::Rng;
use orrery_gp::content::Content;
use orrery_gp::game::Game;
use orrery_gp::notation::Command;
use orrery_gp::record::{replay, Record};

use crate::records::PLATFORM_VARIANT;
use crate::ContentArgs;

/// One figure: what, how long, the target (none where no target is set).
struct Figure {
    name: &'static str,
    value: f64,
    unit: &'static str,
    target: Option<f64>,
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    if xs.is_empty() {
        0.0
    } else {
        xs[xs.len() / 2]
    }
}

/// Times `f` `runs` times; the median in seconds.
fn time_median(runs: usize, mut f: impl FnMut()) -> f64 {
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

fn read_records(paths: &[PathBuf]) -> Result<Vec<Record>, String> {
    let mut files = Vec::new();
    for p in paths {
        crate::records::collect(p, &mut files);
    }
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
            Record::from_json_text(&text).map_err(|e| format!("{}: {e}", f.display()))
        })
        .collect()
}

/// Every state of every record where a part is chosen, with the part chosen there; and where
/// each record's states start among them.
fn states(content: &Arc<Content>, records: &[Record]) -> (Vec<(Game, Command)>, Vec<usize>) {
    let mut out = Vec::new();
    let mut starts = Vec::new();
    for (n, record) in records.iter().enumerate() {
        starts.push(out.len());
        let walked = record.walk_parts(content, |game, at| {
            out.push((game.clone(), at.part.clone()));
            Ok::<(), String>(())
        });
        // A record the content cannot replay to its end still gives its states up to there.
        if let Err(e) = walked {
            errln!(
                "note: record {} stops early ({e}); its states up to there are timed",
                n + 1
            );
        }
    }
    (out, starts)
}

/// How long random games of `players` seats take, one per seed of `0..seeds` that finishes,
/// each from its start (setup and seats' identities drawn from the seed) to its end.
fn random_games<G: GameModule>(content: &Arc<G::Content>, players: usize, seeds: u64) -> Vec<f64> {
    let mut games = Vec::new();
    for seed in 0..seeds {
        let t = Instant::now();
        let mut rng = Rng::new(seed);
        let how = Start {
            players,
            setup: None,
            identities: None,
            hook_budget: orrery_core::script::DEFAULT_HOOK_BUDGET,
        };
        let mut lines = Vec::new();
        let Ok(mut game) = G::start(
            content,
            how,
            &mut rng,
            &mut G::Scribe::default(),
            &mut lines,
        ) else {
            continue;
        };
        let mut bot = RandomBot::new(seed, orrery_core::bot::MAX_FREE);
        if bot.play_out(&mut game, 50_000).is_ok() {
            games.push(t.elapsed().as_secs_f64());
        }
    }
    games
}

/// Runs the measurements and prints them (or JSON).
pub fn run(args: &ContentArgs, paths: &[PathBuf], json: bool) -> ExitCode {
    let stack = match args.stack(&[PLATFORM_VARIANT]) {
        Ok(x) => x,
        Err(e) => return crate::usage(e),
    };
    errln!("{}", stack.describe());
    let overlays = stack.overlays();
    let files = stack.base_files();
    let mut loaded = None;
    let load = time_median(9, || {
        loaded = <Game as GameModule>::load(files.as_ref(), &overlays).ok()
    });
    let Some(content) = loaded.map(Arc::new) else {
        errln!("error: the content does not load (run `orrery validate`)");
        return ExitCode::from(1);
    };
    let records = match read_records(paths) {
        Ok(r) => r,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let mut failed = 0;
    let conformance = time_median(3, || {
        failed = records
            .iter()
            .filter(|r| replay(content.clone(), r, None, true).is_err())
            .count();
    });
    let (states, starts) = states(&content, &records);
    let n = states.len().max(1) as f64;
    let list = list_mean(states.iter().map(|(g, _)| g));
    let list_in_play = list_in_play_mean(&content, &records);
    // The hooks path: the same records with content that names hooks (no seat's faction
    // names one there, so no part is tried on a copy); as a ratio to the hook-free listing
    // above.
    let hooked_content = hooked_content(&stack, files.as_ref(), &overlays);
    let hooked = hooked_content.as_ref().map(|content| {
        let (states, _) = self::states(content, &records);
        list_mean(states.iter().map(|(g, _)| g))
    });
    // Where the faction whose abilities name hooks plays, its cost hook is asked per
    // candidate hex and the parts its hooks' answers can decide (its special action, upgrades
    // owing a tech tile, …) are tried on a copy: random games with it in seat 1 against the
    // same games with a base faction there. The states were listed while the games were
    // played, so the hooks' returns are remembered (`docs/scripting.md`): this is the cost of
    // the few trials and of matching what hooks are asked with what they answered before.
    let seated = hooked_content.as_ref().and_then(|hooked| {
        let added = hooked
            .factions
            .iter()
            .find(|f| content.faction(&f.id).is_none())?;
        let with = random_states(hooked, &added.id, true, SEATED_GAMES);
        let without = random_states(hooked, &added.id, false, SEATED_GAMES);
        Some(list_mean(with.iter()) / list_mean(without.iter()))
    });
    let clone = time_median(5, || {
        for (g, _) in &states {
            std::hint::black_box(g.clone());
        }
    }) / n;
    let clone_apply = time_median(3, || {
        for (g, p) in &states {
            let mut g = g.clone();
            std::hint::black_box(g.apply_part(p).is_ok());
        }
    }) / n;
    // A bot's trial (and a study's or a replay's move): the copy is given up on error, so the
    // part is applied with no undo copy.
    let clone_trial = time_median(3, || {
        for (g, p) in &states {
            std::hint::black_box(g.clone().with_part(p).is_ok());
        }
    }) / n;
    // A game playing on (a server's, or `orrery play`'s): each record applied part by part
    // in order, with the undo copy, to a game of its own (its first state saved and loaded
    // again, so no stored state shares its lists).
    let runs = in_order(&states, &starts);
    let applied: usize = runs.iter().map(|(_, parts)| parts.len()).sum();
    let in_order = median((0..3).map(|_| apply_in_order(&runs)).collect()) / applied.max(1) as f64;
    let games = random_games::<Game>(&content, 4, 21);
    let figures = [
        Figure {
            name: "content load + validate",
            value: load * 1e3,
            unit: "ms",
            target: Some(5.0),
        },
        Figure {
            name: "replay every record, snapshots checked",
            value: conformance * 1e3,
            unit: "ms",
            target: Some(50.0),
        },
        Figure {
            name: "list legal parts, mean per state",
            value: list * 1e6,
            unit: "µs",
            target: Some(1.0),
        },
        Figure {
            name: "list legal parts as a replay reaches each state, mean",
            value: list_in_play * 1e6,
            unit: "µs",
            target: None,
        },
        Figure {
            name: "list legal parts, hooks path / hook-free",
            value: hooked.map_or(f64::NAN, |h| h / list),
            unit: "×",
            target: Some(3.0),
        },
        Figure {
            name: "list, a hooked faction seated / not seated",
            value: seated.unwrap_or(f64::NAN),
            unit: "×",
            target: Some(3.0),
        },
        Figure {
            name: "clone a state, mean",
            value: clone * 1e6,
            unit: "µs",
            target: Some(0.5),
        },
        Figure {
            name: "apply one part, mean (clone excluded)",
            value: (clone_apply - clone).max(0.0) * 1e6,
            unit: "µs",
            target: Some(1.5),
        },
        Figure {
            name: "apply one part to a copy given up on error, mean (clone excluded)",
            value: (clone_trial - clone).max(0.0) * 1e6,
            unit: "µs",
            target: Some(1.5),
        },
        Figure {
            name: "apply one part in order to a game of its own, mean",
            value: in_order * 1e6,
            unit: "µs",
            target: Some(1.5),
        },
        Figure {
            name: "random 4-player game, median",
            value: median(games.clone()) * 1e3,
            unit: "ms",
            target: Some(0.7),
        },
    ];
    print(
        &figures,
        json,
        (records.len(), failed, states.len(), games.len()),
    );
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Each record's first state, saved and loaded again (so it shares no list with a stored
/// state), with the record's parts in order, up to where the content stops replaying it:
/// read from the stored `states`, each record's starting at its place in `starts`.
fn in_order(states: &[(Game, Command)], starts: &[usize]) -> Vec<(Game, Vec<Command>)> {
    let ends = starts.iter().skip(1).copied().chain([states.len()]);
    starts
        .iter()
        .zip(ends)
        .filter(|(start, end)| *start < end)
        .filter_map(|(&start, end)| {
            let first = own_copy(&states[start].0).ok()?;
            let parts = states[start..end].iter().map(|(_, p)| p.clone()).collect();
            Some((first, parts))
        })
        .collect()
}

/// A copy of a game that shares no list with it: its state saved and restored, as a saved
/// game is.
fn own_copy(game: &Game) -> Result<Game, String> {
    Game::restore(game.content.clone(), game.save_state()?)
}

/// The seconds spent applying every run's parts in order with `Game::apply_part`, each run
/// to a copy of its own made untimed; a run stops at a part refused.
fn apply_in_order(runs: &[(Game, Vec<Command>)]) -> f64 {
    let mut spent = 0.0;
    for (first, parts) in runs {
        let Ok(mut game) = own_copy(first) else {
            continue;
        };
        let t = Instant::now();
        for p in parts {
            if game.apply_part(p).is_err() {
                break;
            }
        }
        spent += t.elapsed().as_secs_f64();
        std::hint::black_box(&game);
    }
    spent
}

/// The mean time to list the legal parts of each state, in seconds (median of 3 runs), into
/// one buffer as a bot lists.
fn list_mean<'a>(states: impl Iterator<Item = &'a Game> + Clone) -> f64 {
    let n = states.clone().count().max(1) as f64;
    let mut out = Vec::new();
    time_median(3, || {
        for g in states.clone() {
            g.legal_parts_into(&mut out);
            std::hint::black_box(&out);
        }
    }) / n
}

/// The mean time to list the legal parts of each state of the records as a replay reaches
/// it (median of 3 replays), in seconds: what a bot listing its options pays. The state was
/// just made, so its memory is in cache, but the federations a seat can form are searched
/// the first time a state asks; the stored states [`list_mean`] lists find those searches
/// remembered by the runs before (a seat's grants and place on the map are worked out again
/// after a change in both), and their memory comes from RAM. Each listing is timed alone,
/// less what reading the clock twice costs.
fn list_in_play_mean(content: &Arc<Content>, records: &[Record]) -> f64 {
    let clock = median(
        (0..1001)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(t.elapsed().as_secs_f64())
            })
            .collect(),
    );
    let mut out = Vec::new();
    median(
        (0..3)
            .map(|_| {
                let (mut spent, mut listed) = (0.0, 0usize);
                for record in records {
                    let walked = record.walk_parts(content, |game, _| {
                        let t = Instant::now();
                        game.legal_parts_into(&mut out);
                        spent += t.elapsed().as_secs_f64() - clock;
                        std::hint::black_box(&out);
                        listed += 1;
                        Ok::<(), String>(())
                    });
                    if walked.is_err() {
                        // Noted with the stored states; its states up to the stop are timed.
                        continue;
                    }
                }
                spent.max(0.0) / listed.max(1) as f64
            })
            .collect(),
    )
}

/// Random four-player games listed for the hooks-path figure with a hooked faction seated.
const SEATED_GAMES: u64 = 4;

/// Every state of `games` random four-player games of `content` (seeds `0..games`), with
/// `faction` in seat 1 when `seated`, in no seat otherwise; every other choice drawn from the
/// seed.
fn random_states(content: &Arc<Content>, faction: &str, seated: bool, games: u64) -> Vec<Game> {
    let mut out = Vec::new();
    let other = |p: &Command| !matches!(p, Command::Faction(f) if f == faction);
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let Ok(setup) = orrery_gp::game::Setup::random(content, 4, &mut rng) else {
            continue;
        };
        let Ok(mut g) = Game::new(content.clone(), setup) else {
            continue;
        };
        if seated {
            let chosen = [Command::Faction(faction.into()), Command::EndTurn];
            if chosen.iter().any(|p| g.apply_part(p).is_err()) {
                continue;
            }
        }
        while !g.finished() && out.len() < 50_000 {
            let mut legal = g.legal_parts();
            legal.retain(other);
            let Some(part) = legal.get(rng.below(legal.len().max(1))) else {
                break;
            };
            out.push(g.clone());
            if g.apply_part(part).is_err() {
                break;
            }
        }
    }
    out
}

/// Prints the figures (or JSON) after the counts: records, of them failed, recorded states,
/// random games.
fn print(figures: &[Figure], json: bool, counts: (usize, usize, usize, usize)) {
    let (records, failed, states, games) = counts;
    if json {
        let out = serde_json::json!({
            "records": records,
            "states": states,
            "failed_records": failed,
            "figures": figures.iter().map(|f| serde_json::json!({
                "name": f.name, "value": f.value, "unit": f.unit, "target": f.target,
            })).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        outln!(
            "{} records ({} failed), {} recorded states, {} random games",
            records,
            failed,
            states,
            games
        );
        for f in figures {
            match f.target {
                Some(target) => {
                    let mark = if f.value <= target { "ok  " } else { "SLOW" };
                    outln!(
                        "{mark} {:<42} {:>9.3} {} (target ≤ {} {})",
                        f.name,
                        f.value,
                        f.unit,
                        target,
                        f.unit
                    );
                }
                None => outln!("     {:<42} {:>9.3} {}", f.name, f.value, f.unit),
            }
        }
    }
}

/// The content with the example faction whose abilities name hooks
/// (`examples/cartographers` of the content folder) stacked last, for the listing figure of
/// the hooks path; `None` for the built-in content or when the example does not load (the
/// figure is then NaN).
fn hooked_content(
    stack: &crate::stack::Stack,
    files: &dyn orrery_core::files::ContentFiles,
    overlays: &[orrery_core::files::OverlaySource],
) -> Option<Arc<Content>> {
    let crate::source::ContentSource::Dir(dir) = &stack.source else {
        return None;
    };
    let example = dir.join("examples").join("cartographers");
    let overlay = stack.overlay(example.to_str()?).ok()?;
    let mut all = overlays.to_vec();
    all.push(overlay);
    <Game as GameModule>::load(files, &all).ok().map(Arc::new)
}

/// The default records: the conformance folder of the repository, when run inside it.
pub fn default_paths() -> Vec<PathBuf> {
    vec![Path::new("tests/data/conformance").to_path_buf()]
}

/// Every state of every Terraforming Mars record where an input is given, with that input;
/// a record is followed up to its first input the engine refuses.
fn tm_states(
    content: &Arc<orrery_tm::content::Content>,
    records: &[orrery_tm::record::Record],
) -> Vec<(orrery_tm::game::Game, orrery_tm::notation::Line)> {
    use orrery_tm::record::DeckEvent;
    let mut out = Vec::new();
    for r in records {
        let Ok(mut game) = orrery_tm::conformance::deal(content.clone(), r) else {
            continue;
        };
        for m in &r.moves {
            for e in &m.events {
                if let DeckEvent::Reshuffle { order } = e {
                    if game.plan_reshuffle(order).is_err() {
                        break;
                    }
                }
            }
            let Ok(line) = orrery_tm::notation::Line::parse(&m.line) else {
                break;
            };
            let before = game.clone();
            if game.apply_line(&line).is_err() {
                break;
            }
            out.push((before, line));
        }
    }
    out
}

/// `orrery bench --game terraforming-mars`: content load, replaying the records (`*.json.gz`)
/// with every snapshot checked, listing, cloning and applying inputs in every recorded state,
/// and random 2- and 4-player games. A record that does not replay identically is counted as
/// failed and replayed to its first difference (`conformance` says where); exit 1 only when
/// the content or a record cannot be read.
pub fn run_tm(args: &ContentArgs, paths: &[PathBuf], json: bool) -> ExitCode {
    type Tm = orrery_tm::game::Game;
    let stack = match args.stack(&[]) {
        Ok(x) => x.for_game::<Tm>(),
        Err(e) => return crate::usage(e),
    };
    errln!("{}", stack.describe());
    let overlays = stack.overlays();
    let files = stack.base_files();
    let mut loaded = None;
    let load = time_median(9, || {
        loaded = <Tm as GameModule>::load(files.as_ref(), &overlays).ok()
    });
    let Some(content) = loaded.map(Arc::new) else {
        errln!("error: the content does not load (run `orrery validate`)");
        return ExitCode::from(1);
    };
    let mut files = Vec::new();
    for p in paths {
        if !p.exists() {
            errln!("error: {} does not exist", p.display());
            return ExitCode::from(2);
        }
        crate::records::collect_ending(p, &[".json.gz", ".json"], &mut files);
    }
    let records: Vec<orrery_tm::record::Record> = match files
        .iter()
        .map(|f| orrery_tm::record::Record::load(f))
        .collect()
    {
        Ok(r) => r,
        Err(e) => {
            errln!("error: {}", crate::out::clean(&e));
            return ExitCode::from(1);
        }
    };
    let mut failed = 0;
    let conformance = time_median(3, || {
        failed = records
            .iter()
            .filter(|r| {
                orrery_tm::conformance::replay(content.clone(), r)
                    .difference
                    .is_some()
            })
            .count();
    });
    let states = tm_states(&content, &records);
    let n = states.len().max(1) as f64;
    let list = time_median(3, || {
        for (g, _) in &states {
            std::hint::black_box(g.legal_parts());
        }
    }) / n;
    let clone = time_median(5, || {
        for (g, _) in &states {
            std::hint::black_box(g.clone());
        }
    }) / n;
    // `apply_line` clones the game itself (to leave it unchanged on error): the figure is the
    // whole input, that clone included.
    let apply = time_median(3, || {
        for (g, l) in &states {
            let mut g = g.clone();
            std::hint::black_box(g.apply_line(l).is_ok());
        }
    }) / n;
    let two = random_games::<Tm>(&content, 2, 21);
    let four = random_games::<Tm>(&content, 4, 21);
    let model = match crate::train::load_model::<Tm>(&stack, &content, 2, None) {
        Ok(m) => m,
        Err(e) => {
            errln!("error: {}", crate::out::clean(&e));
            return ExitCode::from(1);
        }
    };
    let best = tm_bot_games(&content, "best", model.as_ref(), TM_BEST_GAMES);
    let figures = [
        Figure {
            name: "content load + validate",
            value: load * 1e3,
            unit: "ms",
            target: None,
        },
        Figure {
            name: "replay every record, snapshots checked",
            value: conformance * 1e3,
            unit: "ms",
            target: None,
        },
        Figure {
            name: "list legal parts, mean per state",
            value: list * 1e6,
            unit: "µs",
            target: None,
        },
        Figure {
            name: "clone a state, mean",
            value: clone * 1e6,
            unit: "µs",
            target: None,
        },
        Figure {
            name: "apply one input, mean (clone excluded)",
            value: (apply - clone).max(0.0) * 1e6,
            unit: "µs",
            target: None,
        },
        Figure {
            name: "random 2-player game, median",
            value: median(two.clone()) * 1e3,
            unit: "ms",
            target: Some(2.0),
        },
        Figure {
            name: "random 4-player game, median",
            value: median(four.clone()) * 1e3,
            unit: "ms",
            target: Some(5.0),
        },
        Figure {
            name: "best 2-player game, median of 5",
            value: median(best.clone()),
            unit: "s",
            target: Some(3.0),
        },
    ];
    print(
        &figures,
        json,
        (records.len(), failed, states.len(), two.len() + four.len()),
    );
    ExitCode::SUCCESS
}

/// Terraforming Mars games timed with `best` in both seats.
const TM_BEST_GAMES: u64 = 5;

/// How long 2-player Terraforming Mars games take with the bot `name` in every seat (as
/// `simulate` names it, `best` with `model`), one per seed of `0..seeds` that finishes.
fn tm_bot_games(
    content: &Arc<orrery_tm::content::Content>,
    name: &str,
    model: Option<&Arc<orrery_core::bot::Model>>,
    seeds: u64,
) -> Vec<f64> {
    type Tm = orrery_tm::game::Game;
    let mut games = Vec::new();
    for seed in 0..seeds {
        let t = Instant::now();
        let Ok(mut game) = Tm::random(content.clone(), 2, seed) else {
            continue;
        };
        let bots: Option<Vec<_>> = (0..2u64)
            .map(|s| orrery_core::bot::by_name_with::<Tm>(name, seed * 2 + s + 1, model))
            .collect();
        let Some(mut bots) = bots else {
            continue;
        };
        if orrery_core::bot::play_game(&mut game, &mut bots, 50_000, |_, _, _| {}).is_ok() {
            games.push(t.elapsed().as_secs_f64());
        }
    }
    games
}
