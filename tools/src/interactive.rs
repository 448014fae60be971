//! `orrery play`: a person plays against bots in the terminal, part by part. The legal parts
//! are listed and numbered; a number, a part's text or any prefix that only one part starts
//! with plays it; `undo` takes back the person's last part (and the bots' replies since).
//! Reads standard input line by line, so a session can be scripted by piping.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use orrery_core::bot::{self, Bot};
use orrery_core::game_module::{GameModule, Start};
use orrery_core::play_api::Playable;
use orrery_core::rng::Rng;
use orrery_gp::game::{Game, Setup};
use orrery_gp::notation::Command;

use crate::ContentArgs;

/// The options of `play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub content: ContentArgs,
    /// Faction ids by seat, separated by commas (seat 1 first); Gaia Project needs them.
    #[arg(long)]
    pub factions: Option<String>,
    /// Seats, for a game whose seats choose their side in play (Terraforming Mars: each
    /// chooses a corporation among those dealt).
    #[arg(long, conflicts_with = "factions")]
    pub players: Option<usize>,
    /// Bots for the other seats, separated by commas (cycled if fewer than the seats).
    #[arg(long, default_value = "best")]
    pub bots: String,
    /// The seat the person plays (1-based).
    #[arg(long, default_value_t = 1)]
    pub seat: usize,
    /// Seed of the map, tiles and bots.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// After each of the person's parts, write the state here (readable by `orrery moves`).
    #[arg(long, value_name = "FILE")]
    pub save_state: Option<PathBuf>,
}

/// The longest line `play` reads, in bytes: a move line's bound (a part is shorter).
pub const MAX_INPUT_LINE: usize = orrery_gp::notation::MAX_LINE_BYTES;

/// Reads one line of at most `limit` bytes (without its line end). A longer line is read to its
/// end and dropped, holding no more than `limit` bytes; it and a line that is not UTF-8 are
/// `Some(Err(why))`. `None` at the end of the input.
fn read_line(
    input: &mut impl BufRead,
    limit: usize,
) -> std::io::Result<Option<Result<String, String>>> {
    let mut line: Vec<u8> = Vec::new();
    let mut long = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|b| *b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if line.len() + chunk.len() > limit {
            long = true;
        } else {
            line.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if long {
        return Ok(Some(Err(format!(
            "line too long (at most {limit} bytes); ignored"
        ))));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(String::from_utf8(line).map_err(|_| {
        "the line is not UTF-8 text; ignored".to_string()
    })))
}

/// What a typed line asks for.
enum Input {
    Part(Command),
    /// Open the list of conversions (the `convert …` entry).
    Convert,
    /// Leave the list of conversions.
    Back,
    Undo,
    List,
    /// Write the board as SVG (to the file named, else a file in the temporary folder).
    Map(Option<PathBuf>),
    Quit,
    Help,
}

/// One numbered entry of the listing: a part, or every conversion folded into one.
enum Entry {
    Part(Command),
    Convert(Vec<Command>),
}

/// Whether a part is a free conversion (`spend …`, `burn …`), listed under `convert`.
fn is_conversion(part: &Command) -> bool {
    matches!(part, Command::Spend { .. } | Command::Burn(_))
}

/// The listing's entries: the parts in order, the conversions folded into one `convert`
/// entry where the first of them stood (when there are two or more).
fn entries(legal: &[Command]) -> Vec<Entry> {
    let conversions: Vec<Command> = legal.iter().filter(|p| is_conversion(p)).cloned().collect();
    if conversions.len() < 2 {
        return legal.iter().cloned().map(Entry::Part).collect();
    }
    let mut out = Vec::new();
    let mut folded = Some(conversions);
    for p in legal {
        if !is_conversion(p) {
            out.push(Entry::Part(p.clone()));
        } else if let Some(all) = folded.take() {
            out.push(Entry::Convert(all));
        }
    }
    out
}

/// Reads a typed line against the entries listed and the legal parts (`parts`): a number
/// picks an entry, a part's text or a prefix only one part starts with picks that part,
/// wherever it is listed. `inside` says the conversions are listed (`back` leaves them).
fn interpret(
    line: &str,
    listed: &[Entry],
    parts: &[Command],
    inside: bool,
) -> Result<Input, String> {
    let t = line.trim();
    match t {
        "undo" => return Ok(Input::Undo),
        "list" | "ls" | "?" => return Ok(Input::List),
        "quit" | "exit" => return Ok(Input::Quit),
        "help" => return Ok(Input::Help),
        "map" => return Ok(Input::Map(None)),
        "back" if inside => return Ok(Input::Back),
        "convert" if inside => return Ok(Input::Convert),
        "convert" if listed.iter().any(|e| matches!(e, Entry::Convert(_))) => {
            return Ok(Input::Convert)
        }
        "" if inside => return Ok(Input::Back),
        "" => {
            return Err(
                "type a part, its number, a prefix, `convert`, `map`, `undo`, `list` or `quit`"
                    .into(),
            )
        }
        _ => {}
    }
    if let Some(file) = t.strip_prefix("map ") {
        return Ok(Input::Map(Some(PathBuf::from(file.trim()))));
    }
    if let Ok(n) = t.parse::<usize>() {
        return match n.checked_sub(1).and_then(|i| listed.get(i)) {
            Some(Entry::Part(p)) => Ok(Input::Part(p.clone())),
            Some(Entry::Convert(_)) => Ok(Input::Convert),
            None => Err(format!("no entry numbered {n} (1 to {})", listed.len())),
        };
    }
    let texts: Vec<String> = parts.iter().map(ToString::to_string).collect();
    if let Some(i) = texts.iter().position(|x| x == t) {
        return Ok(Input::Part(parts[i].clone()));
    }
    let matches: Vec<usize> = (0..texts.len())
        .filter(|&i| texts[i].starts_with(t))
        .collect();
    match matches.len() {
        0 => Err(format!("no legal part starts with `{t}`")),
        1 => Ok(Input::Part(parts[matches[0]].clone())),
        n => {
            let shown: Vec<&str> = matches
                .iter()
                .take(12)
                .map(|&i| texts[i].as_str())
                .collect();
            Err(format!(
                "`{t}` starts {n} parts: {}{}",
                shown.join(" | "),
                if n > 12 { " | …" } else { "" }
            ))
        }
    }
}

/// One line per seat ([`Game::seat_status`]): resources by name, power areas, the booster
/// held and what it does.
fn status(game: &Game, you: usize, out: &mut impl Write) -> std::io::Result<()> {
    let names: Vec<String> = (0..game.state.players.len())
        .map(|s| {
            if s == you {
                format!("{} (you)", game.seat_name(s))
            } else {
                game.seat_name(s)
            }
        })
        .collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    for (seat, name) in names.iter().enumerate() {
        writeln!(out, "#   {name:<width$}  {}", game.seat_status(seat))?;
    }
    Ok(())
}

fn list(game: &Game, legal: &[Command], you: usize, out: &mut impl Write) -> std::io::Result<()> {
    let seat = game.deciding_seat().unwrap_or(0);
    writeln!(
        out,
        "# round {}, {} to decide",
        game.state.round,
        game.seat_name(seat)
    )?;
    status(game, you, out)?;
    writeln!(
        out,
        "# {}:",
        crate::out::count(legal.len(), "legal part", "legal parts")
    )?;
    for (i, entry) in entries(legal).iter().enumerate() {
        match entry {
            Entry::Part(part) => match part_note(game, part) {
                Some(note) => writeln!(out, "{:>4}  {part}  ({note})", i + 1)?,
                None => writeln!(out, "{:>4}  {part}", i + 1)?,
            },
            Entry::Convert(all) => writeln!(
                out,
                "{:>4}  convert …  ({}: spend resources or power, burn power)",
                i + 1,
                crate::out::count(all.len(), "conversion", "conversions")
            )?,
        }
    }
    Ok(())
}

/// The conversions, numbered, each with what it pays and gets.
fn list_conversions(game: &Game, all: &[Command], out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "# {} (a number, a text or a prefix; `back` returns):",
        crate::out::count(all.len(), "conversion", "conversions")
    )?;
    for (i, part) in all.iter().enumerate() {
        match game.part_delta(part) {
            Ok(d) => writeln!(out, "{:>4}  {part}  ({d})", i + 1)?,
            Err(_) => writeln!(out, "{:>4}  {part}", i + 1)?,
        }
    }
    Ok(())
}

/// Writes the board as SVG to `file` (default: a file in the temporary folder) and names it.
fn write_map(game: &Game, file: Option<PathBuf>, out: &mut impl Write) -> std::io::Result<()> {
    let path = file.unwrap_or_else(|| {
        std::env::temp_dir().join(format!("orrery-play-{}.svg", std::process::id()))
    });
    let label = format!("play · round {}", game.state.round);
    let svg = crate::render::draw(&crate::render::view::BoardView::of_game(game, &label)).svg();
    match crate::out::write_file(&path, svg.as_bytes()) {
        Ok(()) => writeln!(out, "# map written to {}", path.display()),
        Err(e) => writeln!(out, "# {}", crate::out::clean(&e)),
    }
}

/// What the tile, booster, token or board action a part names does, from its effects.
fn part_note(game: &Game, part: &Command) -> Option<String> {
    let setup = &game.state.setup;
    let id = match part {
        Command::Booster(id) | Command::Pass(Some(id)) | Command::Action(id) => id.to_string(),
        Command::FedTile(id) => id.to_string(),
        Command::Federation { token, .. } => token.to_string(),
        Command::Tech(pos) | Command::Cover(pos) => setup
            .techs
            .get(pos.as_str())
            .cloned()
            .or_else(|| game.state.adv_left.get(pos.as_str()).map(|w| w.to_string()))?,
        _ => return None,
    };
    orrery_gp::content::describe::by_id(&game.content, &id).filter(|d| !d.is_empty())
}

pub fn run(args: &PlayArgs) -> ExitCode {
    match session(args) {
        Ok(code) => code,
        Err((msg, code)) => {
            errln!("error: {msg}");
            ExitCode::from(code)
        }
    }
}

fn session(args: &PlayArgs) -> Result<ExitCode, (String, u8)> {
    let usage = |m: String| (m, 2u8);
    let factions: Vec<String> = args
        .factions
        .as_deref()
        .ok_or_else(|| usage("gaia-project: give each seat's faction with --factions".into()))?
        .split(',')
        .map(|f| f.trim().to_string())
        .collect();
    let players = factions.len();
    if args.seat == 0 || args.seat > players {
        return Err(usage(format!("--seat must be 1 to {players}")));
    }
    let bot_names: Vec<String> = args.bots.split(',').map(|b| b.trim().to_string()).collect();
    let (stack, content) = args.content.load_stacked(&[]).map_err(|_| {
        (
            "the content does not load (problems above)".to_string(),
            1u8,
        )
    })?;
    let content = Arc::new(content);
    let model = if bot_names
        .iter()
        .any(|b| b == "best" || b.starts_with("best:"))
    {
        crate::train::load_model::<Game>(&stack, &content, players, None).map_err(|e| (e, 1))?
    } else {
        None
    };
    for f in &factions {
        if content.faction(f).is_none() {
            return Err(usage(format!("unknown faction `{f}`")));
        }
    }
    let mut bots: Vec<Option<Box<dyn Bot<Game> + Send>>> = Vec::new();
    for s in 0..players {
        if s + 1 == args.seat {
            bots.push(None);
            continue;
        }
        let name = &bot_names[s % bot_names.len()];
        let b =
            bot::by_name_with::<Game>(name, args.seed.wrapping_add(s as u64 + 1), model.as_ref())
                .ok_or_else(|| usage(format!("unknown bot `{name}`")))?;
        bots.push(Some(b));
    }
    let mut rng = Rng::new(args.seed);
    let setup = Setup::random(&content, players, &mut rng).map_err(|e| (e.to_string(), 1))?;
    let mut game = Game::new(content, setup).map_err(|e| (e.to_string(), 1))?;
    for f in &factions {
        for part in [Command::Faction(f.as_str().into()), Command::EndTurn] {
            game.apply_part(&part)
                .map_err(|e| usage(format!("`{part}`: {e}")))?;
        }
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let io = |e: std::io::Error| (e.to_string(), 1u8);
    let mut history: Vec<Game> = Vec::new();
    let mut listed = false;
    // The conversions listed for a sub-choice, while they are.
    let mut converting: Option<Vec<Command>> = None;
    let you = args.seat - 1;
    while let Some(seat) = game.deciding_seat() {
        if let Some(b) = bots[seat].as_mut() {
            let legal = game.legal();
            let part = b
                .choose(&game, &legal)
                .ok_or_else(|| (format!("{} has no legal part", game.seat_name(seat)), 1))?;
            writeln!(out, "{}: {part}", game.seat_name(seat)).map_err(io)?;
            game.apply_part(&part)
                .map_err(|e| (format!("a bot's part `{part}` was refused: {e}"), 1))?;
            listed = false;
            continue;
        }
        let legal = game.legal();
        if !listed {
            list(&game, &legal, you, &mut out).map_err(io)?;
            listed = true;
        }
        write!(
            out,
            "{}",
            if converting.is_some() {
                "convert> "
            } else {
                "> "
            }
        )
        .map_err(io)?;
        out.flush().map_err(io)?;
        let line = match read_line(&mut input, MAX_INPUT_LINE).map_err(io)? {
            None => {
                writeln!(out, "\n# input ended before the game did").map_err(io)?;
                return Ok(ExitCode::SUCCESS);
            }
            Some(Err(e)) => {
                writeln!(out, "# {e}").map_err(io)?;
                continue;
            }
            Some(Ok(line)) => line,
        };
        let input = match &converting {
            Some(all) => {
                let listed: Vec<Entry> = all.iter().cloned().map(Entry::Part).collect();
                interpret(&line, &listed, all, true)
            }
            None => interpret(&line, &entries(&legal), &legal, false),
        };
        match input {
            Ok(Input::Part(part)) => {
                converting = None;
                let before = game.clone();
                match game.apply_part(&part) {
                    Ok(()) => {
                        writeln!(out, "{}: {part}", game.seat_name(seat)).map_err(io)?;
                        history.push(before);
                        listed = false;
                        if let Some(path) = &args.save_state {
                            crate::stack::save_game(&stack, &game, path).map_err(|e| (e, 1))?;
                        }
                    }
                    Err(e) => writeln!(out, "refused: {}", crate::out::clean(&e.to_string()))
                        .map_err(io)?,
                }
            }
            Ok(Input::Convert) => {
                let all: Vec<Command> =
                    legal.iter().filter(|p| is_conversion(p)).cloned().collect();
                list_conversions(&game, &all, &mut out).map_err(io)?;
                converting = Some(all);
            }
            Ok(Input::Back) => {
                converting = None;
                list(&game, &legal, you, &mut out).map_err(io)?;
            }
            Ok(Input::Undo) => match history.pop() {
                Some(g) => {
                    game = g;
                    listed = false;
                    converting = None;
                    writeln!(out, "# undone").map_err(io)?;
                    if let Some(path) = &args.save_state {
                        crate::stack::save_game(&stack, &game, path).map_err(|e| (e, 1))?;
                    }
                }
                None => writeln!(out, "# nothing to undo").map_err(io)?,
            },
            Ok(Input::List) => match &converting {
                Some(all) => list_conversions(&game, all, &mut out).map_err(io)?,
                None => list(&game, &legal, you, &mut out).map_err(io)?,
            },
            Ok(Input::Map(file)) => write_map(&game, file, &mut out).map_err(io)?,
            Ok(Input::Help) => writeln!(
                out,
                "# a part's number, its text or a prefix only it starts with; convert (the \
                 conversions), back; map [FILE] (the board as SVG); undo; list; quit"
            )
            .map_err(io)?,
            Ok(Input::Quit) => return Ok(ExitCode::SUCCESS),
            Err(e) => {
                writeln!(out, "# {}", crate::out::clean(&e)).map_err(io)?;
                // A part may be missing because its hook fails: say why.
                for line in game.hook_error_lines() {
                    writeln!(out, "# {}", crate::out::clean(&line)).map_err(io)?;
                }
            }
        }
    }
    writeln!(out, "# the game is over").map_err(io)?;
    for (s, vp) in game.score().iter().enumerate() {
        writeln!(out, "{} {vp}", game.seat_name(s)).map_err(io)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `play` for a game `G` whose seats choose their side in play: `--players` seats, the
/// person at `--seat`, bots at the others. The listing shows the board, each seat's public
/// holdings and the person's own hidden ones (its hand); a number, a part's text, a whole
/// input in the notation or a prefix only one part starts with plays it; `undo`, `list`,
/// `help`, `quit`.
pub fn run_as<G: GameModule>(args: &PlayArgs) -> ExitCode {
    match session_as::<G>(args) {
        Ok(code) => code,
        Err((msg, code)) => {
            errln!("error: {msg}");
            ExitCode::from(code)
        }
    }
}

fn session_as<G: GameModule>(args: &PlayArgs) -> Result<ExitCode, (String, u8)> {
    let usage = |m: String| (m, 2u8);
    if args.factions.is_some() {
        return Err(usage(format!(
            "{}: seats choose their side in play; give --players N, not --factions",
            G::ID
        )));
    }
    let players = args.players.ok_or_else(|| {
        usage(format!(
            "{}: give the number of seats with --players",
            G::ID
        ))
    })?;
    if args.seat == 0 || args.seat > players {
        return Err(usage(format!("--seat must be 1 to {players}")));
    }
    let bot_names: Vec<String> = args.bots.split(',').map(|b| b.trim().to_string()).collect();
    let (stack, content) = args.content.load_stacked_as::<G>(&[]).map_err(|_| {
        (
            "the content does not load (problems above)".to_string(),
            1u8,
        )
    })?;
    let content = Arc::new(content);
    let mut bots: Vec<Option<Box<dyn Bot<G> + Send>>> = Vec::new();
    for s in 0..players {
        if s + 1 == args.seat {
            bots.push(None);
            continue;
        }
        let name = &bot_names[s % bot_names.len()];
        let b = bot::by_name::<G>(name, args.seed.wrapping_add(s as u64 + 1))
            .ok_or_else(|| usage(format!("unknown bot `{name}`")))?;
        bots.push(Some(b));
    }
    let mut rng = Rng::new(args.seed);
    let how = Start {
        players,
        setup: None,
        identities: None,
        hook_budget: orrery_core::script::DEFAULT_HOOK_BUDGET,
    };
    let mut scribe = G::Scribe::default();
    let mut lines = Vec::new();
    let mut game = G::start(&content, how, &mut rng, &mut scribe, &mut lines).map_err(usage)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let io = |e: std::io::Error| (e.to_string(), 1u8);
    let mut history: Vec<G> = Vec::new();
    let mut listed = false;
    let you = args.seat - 1;
    let save = |game: &G| match &args.save_state {
        Some(path) => crate::records::save_game_as(&stack, game, path).map_err(|e| (e, 1)),
        None => Ok(()),
    };
    while let Some(seat) = game.to_decide() {
        let legal = game.legal();
        if let Some(b) = bots[seat].as_mut() {
            let part = b
                .choose(&game, &legal)
                .ok_or_else(|| (format!("{} has no legal part", game.seat_name(seat)), 1))?;
            writeln!(out, "{}", echo(&game, seat, &part)).map_err(io)?;
            game.play(&part)
                .map_err(|e| (format!("a bot's part `{part}` was refused: {e}"), 1))?;
            listed = false;
            continue;
        }
        if !listed {
            list_as(&game, &legal, you, &mut out).map_err(io)?;
            listed = true;
        }
        write!(out, "> ").map_err(io)?;
        out.flush().map_err(io)?;
        let line = match read_line(&mut input, MAX_INPUT_LINE).map_err(io)? {
            None => {
                writeln!(out, "\n# input ended before the game did").map_err(io)?;
                return Ok(ExitCode::SUCCESS);
            }
            Some(Err(e)) => {
                writeln!(out, "# {e}").map_err(io)?;
                continue;
            }
            Some(Ok(line)) => line,
        };
        match line.trim() {
            "undo" => {
                match history.pop() {
                    Some(g) => {
                        game = g;
                        listed = false;
                        writeln!(out, "# undone").map_err(io)?;
                        save(&game)?;
                    }
                    None => writeln!(out, "# nothing to undo").map_err(io)?,
                }
                continue;
            }
            "list" | "ls" | "?" => {
                list_as(&game, &legal, you, &mut out).map_err(io)?;
                continue;
            }
            "quit" | "exit" => return Ok(ExitCode::SUCCESS),
            "help" => {
                writeln!(
                    out,
                    "# a part's number, its text, a whole input in the notation or a prefix \
                     only one part starts with; undo; list; quit"
                )
                .map_err(io)?;
                continue;
            }
            _ => {}
        }
        let part = match pick(&game, &legal, &line) {
            Ok(p) => p,
            Err(e) => {
                writeln!(out, "# {}", crate::out::clean(&e)).map_err(io)?;
                continue;
            }
        };
        let before = game.clone();
        match game.play(&part) {
            Ok(()) => {
                writeln!(out, "{}", echo(&before, seat, &part)).map_err(io)?;
                history.push(before);
                listed = false;
                save(&game)?;
            }
            Err(e) => writeln!(out, "refused: {}", crate::out::clean(&e)).map_err(io)?,
        }
    }
    writeln!(out, "# the game is over").map_err(io)?;
    for (s, vp) in game.score().iter().enumerate() {
        writeln!(out, "{} {vp}", game.seat_name(s)).map_err(io)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A part played, as the session shows it: its text, after the seat's name unless the text
/// starts with it (a line of the notation names its seat).
fn echo<G: GameModule>(game: &G, seat: usize, part: &G::Action) -> String {
    let name = game.seat_name(seat);
    let text = part.to_string();
    if text.starts_with(&format!("{name}: ")) {
        crate::out::clean(&text).into_owned()
    } else {
        format!("{name}: {}", crate::out::clean(&text))
    }
}

/// The part a typed line names: a number in the listing, a part's text, an input the game
/// reads ([`GameModule::parse_action`]), or a prefix only one part starts with.
fn pick<G: GameModule>(game: &G, legal: &[G::Action], line: &str) -> Result<G::Action, String> {
    let t = line.trim();
    if t.is_empty() {
        return Err("type a part, its number, a prefix, `undo`, `list` or `quit`".into());
    }
    if let Ok(n) = t.parse::<usize>() {
        return n
            .checked_sub(1)
            .and_then(|i| legal.get(i))
            .cloned()
            .ok_or_else(|| format!("no part numbered {n} (1 to {})", legal.len()));
    }
    let texts: Vec<String> = legal.iter().map(ToString::to_string).collect();
    if let Some(i) = texts.iter().position(|x| x == t) {
        return Ok(legal[i].clone());
    }
    if let Ok(a) = game.parse_action(t) {
        return Ok(a);
    }
    let matches: Vec<usize> = (0..texts.len())
        .filter(|&i| texts[i].starts_with(t))
        .collect();
    match matches.as_slice() {
        [] => Err(format!("no legal part starts with `{t}`")),
        [i] => Ok(legal[*i].clone()),
        many => {
            let shown: Vec<&str> = many.iter().take(12).map(|&i| texts[i].as_str()).collect();
            Err(format!(
                "`{t}` starts {} parts: {}{}",
                many.len(),
                shown.join(" | "),
                if many.len() > 12 { " | …" } else { "" }
            ))
        }
    }
}

/// The board, each seat's public holdings, the person's hidden ones, and the legal parts
/// numbered (with a note where a part needs one).
fn list_as<G: GameModule>(
    game: &G,
    legal: &[G::Action],
    you: usize,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let seat = game.to_decide().unwrap_or(you);
    if let Some(board) = game.board_status() {
        writeln!(out, "# {}", crate::out::clean(&board))?;
    }
    writeln!(out, "# {} to decide", game.seat_name(seat))?;
    let names: Vec<String> = (0..game.seat_count())
        .map(|s| {
            if s == you {
                format!("{} (you)", game.seat_name(s))
            } else {
                game.seat_name(s)
            }
        })
        .collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    for (s, name) in names.iter().enumerate() {
        writeln!(
            out,
            "#   {name:<width$}  {}",
            crate::out::clean(&game.seat_status(s))
        )?;
    }
    for l in game.seat_private(you) {
        writeln!(out, "#   {}", crate::out::clean(&l))?;
    }
    writeln!(
        out,
        "# {}:",
        crate::out::count(legal.len(), "legal part", "legal parts")
    )?;
    for (i, part) in legal.iter().enumerate() {
        match game.action_note(part) {
            Some(note) => writeln!(out, "{:>4}  {part}  ({})", i + 1, crate::out::clean(&note))?,
            None => writeln!(out, "{:>4}  {part}", i + 1)?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{entries, interpret, read_line, Entry, Input};
    use orrery_gp::notation::Command;

    #[test]
    fn lines_are_read_within_a_bound() {
        let long = "x".repeat(100);
        let text = format!("a\r\n{long}\nb\n\u{ff}\n\nlast");
        let mut text = text.into_bytes();
        let bad = text.iter().position(|b| *b == 0xc3).expect("the encoded ÿ");
        text[bad] = 0xff;
        let mut input = std::io::BufReader::with_capacity(7, &text[..]);
        let mut next = || read_line(&mut input, 10).expect("reads");
        assert_eq!(next(), Some(Ok("a".into())));
        assert!(next().expect("a line").unwrap_err().contains("too long"));
        assert_eq!(next(), Some(Ok("b".into())));
        assert!(next().expect("a line").unwrap_err().contains("not UTF-8"));
        assert_eq!(next(), Some(Ok(String::new())));
        assert_eq!(next(), Some(Ok("last".into())));
        assert_eq!(next(), None);
    }

    /// A part from its text.
    fn part(text: &str) -> Command {
        match orrery_gp::notation::parse_line(&format!("terrans {text}")) {
            Ok(orrery_gp::notation::MoveLine::Turn { parts, .. }) => parts[0].clone(),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn conversions_fold_into_one_entry_and_still_play_by_text() {
        let parts: Vec<Command> = [
            "build m 1A1",
            "spend 1o for 1c",
            "pass booster1",
            "burn 1",
            "spend 1q for 1o",
        ]
        .iter()
        .map(|t| part(t))
        .collect();
        let listed = entries(&parts);
        assert_eq!(listed.len(), 3);
        assert!(matches!(&listed[0], Entry::Part(p) if p.to_string() == "build m 1A1"));
        match &listed[1] {
            Entry::Convert(all) => {
                let texts: Vec<String> = all.iter().map(ToString::to_string).collect();
                assert_eq!(texts, ["spend 1o for 1c", "burn 1", "spend 1q for 1o"]);
            }
            Entry::Part(p) => panic!("{p} is not the conversions"),
        }
        assert!(matches!(
            interpret("2", &listed, &parts, false),
            Ok(Input::Convert)
        ));
        assert!(matches!(
            interpret("convert", &listed, &parts, false),
            Ok(Input::Convert)
        ));
        assert!(
            matches!(interpret("3", &listed, &parts, false), Ok(Input::Part(p)) if p.to_string() == "pass booster1")
        );
        // A conversion's text plays it from the top listing too.
        assert!(
            matches!(interpret("burn 1", &listed, &parts, false), Ok(Input::Part(p)) if p.to_string() == "burn 1")
        );
        assert!(interpret("4", &listed, &parts, false).is_err_and(|e| e.contains("1 to 3")));
        assert!(matches!(
            interpret("back", &listed, &parts, true),
            Ok(Input::Back)
        ));
        assert!(interpret("back", &listed, &parts, false).is_err());
        assert!(matches!(
            interpret("map", &listed, &parts, false),
            Ok(Input::Map(None))
        ));
        assert!(
            matches!(interpret("map b.svg", &listed, &parts, false), Ok(Input::Map(Some(f))) if f.to_str() == Some("b.svg"))
        );
        // One conversion alone is listed as itself.
        let one: Vec<Command> = parts[..2].to_vec();
        assert!(entries(&one).iter().all(|e| matches!(e, Entry::Part(_))));
    }
}
