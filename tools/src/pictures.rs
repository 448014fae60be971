//! `render`, `view` and `chart`: pictures of boards, replays and studies. `render` and `view`
//! are written once for every game ([`Pictured`]): a log opened and stepped to a move, or a
//! saved game, drawn as layers; only how a game's files open and how its board is drawn is
//! the game's.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use orrery_core::game_module::GameModule;

use crate::render::Picture;
use crate::viewer::{page, Frame};
use crate::ContentArgs;

/// What `render` and `view` need of a game beyond [`GameModule`]: its logs opened (by default
/// as the commands over the trait read them) and its board drawn (by default its neutral
/// picture, [`GameModule::board_view`]).
pub trait Pictured: GameModule {
    /// A log opened: the game before its first move, the line that set it up when the page
    /// should show one, and the moves after it, as lines. Problems are printed (exit 1, or 2
    /// for usage).
    fn open(args: &ContentArgs, log: &Path) -> Result<Opened<Self>, ExitCode> {
        crate::records::open_log_as::<Self>(args, log).map(|(game, lines, _)| Opened {
            game,
            setup: None,
            lines,
        })
    }

    /// The board under `caption`, drawn in layers; `None` when the game does not draw one.
    fn draw(&self, caption: &str) -> Option<Picture> {
        self.board_view(caption)
            .map(|p| crate::render::neutral::draw(&p))
    }
}

/// Terraforming Mars: its logs, and the recorded games of the public engine (`.json.gz`,
/// [`orrery_tm::record::Record`]) whose inputs are its moves.
impl Pictured for orrery_tm::game::Game {
    fn open(args: &ContentArgs, log: &Path) -> Result<Opened<Self>, ExitCode> {
        if !log.to_string_lossy().ends_with(".json.gz") {
            return crate::records::open_log_as::<Self>(args, log).map(|(game, lines, _)| Opened {
                game,
                setup: None,
                lines,
            });
        }
        // The record's reader names the file in its errors.
        let record = orrery_tm::record::Record::load(log).map_err(|e| {
            errln!("error: {}", crate::out::clean(&e));
            ExitCode::from(1)
        })?;
        let invalid = |e: String| {
            errln!("error: {}: {}", log.display(), crate::out::clean(&e));
            ExitCode::from(1)
        };
        let (_, content) = args.load_stacked_as::<Self>(&[])?;
        let (game, lines) = orrery_tm::module::open_record(&std::sync::Arc::new(content), &record)
            .map_err(invalid)?;
        Ok(Opened {
            game,
            setup: None,
            lines,
        })
    }
}

/// Gaia Project: its platform's records and the logs of `simulate` (with the content each
/// names) opened with their setup line, and its own board drawing
/// ([`crate::render::view::BoardView`]).
impl Pictured for orrery_gp::game::Game {
    fn open(args: &ContentArgs, log: &Path) -> Result<Opened<Self>, ExitCode> {
        let (record, content) = crate::records::load_log(args, log)?;
        let printed = |e: String| {
            errln!("error: {e}");
            ExitCode::from(1)
        };
        let setup = record
            .game_setup(&content)
            .map_err(|e| printed(e.to_string()))?;
        let game = Self::new(content, setup).map_err(|e| printed(e.to_string()))?;
        Ok(Opened {
            game,
            setup: record.moves.first().cloned(),
            lines: record.moves.iter().skip(1).cloned().collect(),
        })
    }

    fn draw(&self, caption: &str) -> Option<Picture> {
        Some(crate::render::draw(
            &crate::render::view::BoardView::of_game(self, caption),
        ))
    }
}

/// A log opened for `render` and `view`.
pub struct Opened<G> {
    /// The game before the log's first move.
    pub game: G,
    /// The line that set the game up (move 0's line on the replay page), if the log shows one.
    pub setup: Option<String>,
    /// The moves, each a line the game plays ([`GameModule::play_line`]).
    pub lines: Vec<String>,
}

fn write_out(out: Option<&Path>, text: &str) -> ExitCode {
    match out {
        Some(p) => match crate::out::write_file(p, text.as_bytes()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                errln!("error: {e}");
                ExitCode::from(1)
            }
        },
        None => {
            out!("{text}");
            ExitCode::SUCCESS
        }
    }
}

fn stem(p: &Path) -> String {
    let name = p
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string());
    for ending in [".json.gz", ".json", ".gz"] {
        if let Some(s) = name.strip_suffix(ending).filter(|s| !s.is_empty()) {
            return s.to_string();
        }
    }
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or(name)
}

/// Replays a log up to move `last` (0: before its first move), calling `f(game, index,
/// line)` for move 0 (with the setup line `first`) and after each move; returns the game
/// reached. A refused move is printed and ends the replay with exit code 1.
fn step_through<G: Pictured>(
    mut game: G,
    first: &str,
    lines: &[String],
    last: usize,
    mut f: impl FnMut(&G, usize, &str),
) -> Result<G, ExitCode> {
    f(&game, 0, first);
    for (i, line) in lines.iter().enumerate().take(last) {
        if let Err(e) = game.play_line(line) {
            errln!("move {} \"{line}\": {}", i + 1, crate::out::clean(&e));
            return Err(ExitCode::from(1));
        }
        f(&game, i + 1, line);
    }
    Ok(game)
}

/// The picture of a game, or exit 2 when the game draws none.
fn drawn<G: Pictured>(game: &G, caption: &str) -> Result<Picture, ExitCode> {
    game.draw(caption)
        .ok_or_else(|| crate::usage(format!("{} does not draw its board", G::ID)))
}

/// `orrery render`: one state as SVG, a log's after move `n` (default: the last) or a saved
/// game's.
pub fn render<G: Pictured>(
    args: &ContentArgs,
    log: Option<&Path>,
    n: Option<usize>,
    state: Option<&Path>,
    out: Option<&Path>,
) -> ExitCode {
    let (game, label) = match (log, state) {
        (Some(log), None) => {
            let Opened { game, lines, .. } = match G::open(args, log) {
                Ok(x) => x,
                Err(code) => return code,
            };
            let total = lines.len();
            let n = n.unwrap_or(total);
            if n > total {
                // The log is read and found shorter: refused input (exit 1), with the range.
                errln!(
                    "error: {} has moves 0 to {total}; --move {n} is out of range",
                    log.display()
                );
                return ExitCode::from(1);
            }
            match step_through(game, "", &lines, n, |_, _, _| {}) {
                Ok(g) => (g, format!("{} · move {n} of {total}", stem(log))),
                Err(code) => return code,
            }
        }
        (None, Some(state)) if n.is_none() => match crate::records::load_saved_as::<G>(args, state)
        {
            Ok((g, _)) => {
                let label = format!("{} · after {} moves", stem(state), g.decisions_done());
                (g, label)
            }
            Err(code) => return code,
        },
        _ => {
            errln!("error: give a LOG (with --move N if wanted) or --state STATE.json");
            return ExitCode::from(2);
        }
    };
    match drawn(&game, &label) {
        Ok(picture) => write_out(out, &picture.svg()),
        Err(code) => code,
    }
}

/// `orrery view`: the replay page of a whole log, a frame per move.
pub fn view<G: Pictured>(args: &ContentArgs, log: &Path, out: Option<&Path>) -> ExitCode {
    let Opened { game, setup, lines } = match G::open(args, log) {
        Ok(x) => x,
        Err(code) => return code,
    };
    // Move 0 shows the line that set the game up, else says it is the setup.
    let shows_setup = setup.is_some();
    let first = setup.unwrap_or_else(|| "(the setup)".to_string());
    let total = lines.len();
    let title = stem(log);
    let mut frames = Vec::new();
    let mut refused = None;
    let stepped = step_through(game, &first, &lines, total, |g, i, line| {
        if refused.is_some() {
            return;
        }
        match drawn(g, &format!("{title} · move {i} of {total}")) {
            Ok(picture) => frames.push(Frame {
                line: line.to_string(),
                parts: if i == 0 && !shows_setup {
                    Vec::new()
                } else {
                    g.line_parts(line)
                },
                vp: g.score(),
                picture,
            }),
            Err(code) => refused = Some(code),
        }
    });
    if let Some(code) = refused {
        return code;
    }
    if let Err(code) = stepped {
        return code;
    }
    write_out(out, &page(&title, &frames))
}

/// `orrery chart`: study charts, one study or several side by side.
pub fn chart(studies: &[PathBuf], out: Option<&Path>) -> ExitCode {
    let mut loaded = Vec::new();
    for p in studies {
        if !p.exists() {
            errln!("error: {} does not exist", p.display());
            return ExitCode::from(2);
        }
        // Read and checked as merge reads it; the chart draws the checked study.
        match crate::merge::read(p).and_then(|s| {
            serde_json::from_str(&s.to_json()).map_err(|e| format!("{}: {e}", p.display()))
        }) {
            Ok(v) => loaded.push((stem(p), v)),
            Err(e) => {
                errln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    }
    match crate::chart::study_charts_svg(&loaded) {
        Ok(svg) => write_out(out, &svg),
        Err(e) => {
            errln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
