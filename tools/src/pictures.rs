//! `render`, `view` and `chart`: pictures of boards, replays and studies.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use orrery_core::game_module::GameModule;
use orrery_gp::game::Game;

use crate::records::{load_log, load_saved};
use crate::render::{draw, view::BoardView};
use crate::viewer::{page, Frame};
use crate::ContentArgs;

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
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}

/// The game of a log after move `n` (the last move when `None`), with the number of moves.
fn game_after(args: &ContentArgs, log: &Path, n: Option<usize>) -> Result<(Game, usize), ExitCode> {
    let (record, content) = load_log(args, log)?;
    let total = record.moves.len().saturating_sub(1);
    let n = n.unwrap_or(total);
    if n > total {
        // The log is read and found shorter: refused input (exit 1), with the valid range.
        errln!(
            "error: {} has moves 0 to {total}; --move {n} is out of range",
            log.display()
        );
        return Err(ExitCode::from(1));
    }
    let game = step_through(&record, content, n, |_, _, _| {})?;
    Ok((game, total))
}

/// Replays a record up to move `last`, calling `f(game, index, line)` after each move (and
/// for the setup as move 0), and returns the game reached. A refused move is printed and ends
/// the replay with exit code 1.
fn step_through(
    record: &orrery_gp::record::Record,
    content: std::sync::Arc<orrery_gp::content::Content>,
    last: usize,
    mut f: impl FnMut(&Game, usize, &str),
) -> Result<Game, ExitCode> {
    let setup = record.game_setup(&content).map_err(|e| {
        errln!("error: {e}");
        ExitCode::from(1)
    })?;
    let mut game = Game::new(content, setup).map_err(|e| {
        errln!("error: {e}");
        ExitCode::from(1)
    })?;
    f(
        &game,
        0,
        record.moves.first().map(String::as_str).unwrap_or(""),
    );
    for (i, line) in record.moves.iter().enumerate().take(last + 1).skip(1) {
        if let Err(e) = game.apply_text(line) {
            errln!("move {i} \"{line}\": {}", e.0);
            return Err(ExitCode::from(1));
        }
        f(&game, i, line);
    }
    Ok(game)
}

/// `orrery render`: one state as SVG.
pub fn render(
    args: &ContentArgs,
    log: Option<&Path>,
    n: Option<usize>,
    state: Option<&Path>,
    out: Option<&Path>,
) -> ExitCode {
    let (game, label) = match (log, state) {
        (Some(log), None) => match game_after(args, log, n) {
            Ok((g, total)) => {
                let label = format!("{} · move {} of {total}", stem(log), n.unwrap_or(total));
                (g, label)
            }
            Err(code) => return code,
        },
        (None, Some(state)) if n.is_none() => match load_saved(args, state) {
            Ok((g, _)) => {
                let label = format!("{} · after {} moves", stem(state), g.state.moves);
                (g, label)
            }
            Err(code) => return code,
        },
        _ => {
            errln!("error: give a LOG (with --move N if wanted) or --state STATE.json");
            return ExitCode::from(2);
        }
    };
    write_out(out, &draw(&BoardView::of_game(&game, &label)).svg())
}

/// `orrery render` for a game `G` that draws its board as a neutral picture
/// ([`GameModule::board_view`]): a log's state after move `n` (default: the last), or a saved
/// state.
pub fn render_as<G: GameModule>(
    args: &ContentArgs,
    log: Option<&Path>,
    n: Option<usize>,
    state: Option<&Path>,
    out: Option<&Path>,
) -> ExitCode {
    let (game, label) = match (log, state) {
        (Some(log), None) => {
            let (mut game, lines, _) = match crate::records::open_log_as::<G>(args, log) {
                Ok(x) => x,
                Err(code) => return code,
            };
            let last = match crate::records::last_move(log, lines.len(), n) {
                Ok(k) => k,
                Err(code) => return code,
            };
            for (i, line) in lines.iter().enumerate().take(last) {
                if let Err(e) = game.play_line(line) {
                    errln!("move {} \"{line}\": {e}", i + 1);
                    return ExitCode::from(1);
                }
            }
            (
                game,
                format!("{} · move {last} of {}", stem(log), lines.len()),
            )
        }
        (None, Some(state)) if n.is_none() => match crate::records::load_saved_as::<G>(args, state)
        {
            Ok((g, _)) => (g, format!("{} · saved", stem(state))),
            Err(code) => return code,
        },
        _ => {
            errln!("error: give a LOG (with --move N if wanted) or --state STATE.json");
            return ExitCode::from(2);
        }
    };
    match game.board_view(&label) {
        Some(picture) => write_out(out, &crate::render::neutral::svg(&picture)),
        None => crate::usage(format!("{} does not draw its board", G::ID)),
    }
}

/// `orrery view`: the replay page of a whole log.
pub fn view(args: &ContentArgs, log: &Path, out: Option<&Path>) -> ExitCode {
    let (record, content) = match load_log(args, log) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let total = record.moves.len().saturating_sub(1);
    let title = stem(log);
    let mut frames = Vec::new();
    if let Err(code) = step_through(&record, content, total, |g, i, line| {
        frames.push(Frame::of(g, i, total, line, &title));
    }) {
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
