//! `orrery play`: a person plays against bots in the terminal, part by part, written once for
//! every game over [`GameModule`]. The board, each seat's public holdings and the person's
//! hidden ones are shown, the legal parts listed and numbered (a family of many, the
//! conversions say, folded into one entry its word opens); a number, a part's text, an input
//! in the game's notation or any prefix that only one part starts with plays it; `undo` takes
//! back the person's last part (and the bots' replies since); `map` draws the board. Reads
//! standard input line by line, so a session can be scripted by piping.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use orrery_core::bot::{self, Bot};
use orrery_core::game_module::{ActionGroup, GameModule, Start};
use orrery_core::rng::Rng;

use crate::ContentArgs;

/// The options of `play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub content: ContentArgs,
    /// Faction ids by seat, separated by commas (seat 1 first), for a game whose seats are
    /// given their side (Gaia Project).
    #[arg(long)]
    pub factions: Option<String>,
    /// Seats, each side then drawn from the seed (Gaia Project) or chosen in play
    /// (Terraforming Mars: each seat chooses a corporation among those dealt).
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

/// Draws a game's board as SVG under a caption, for `map`; `None` when the game draws none.
pub type Draw<G> = fn(&G, &str) -> Option<String>;

/// The board as the game draws it ([`crate::pictures::Pictured::draw`]).
pub fn board_svg<G: crate::pictures::Pictured>(game: &G, caption: &str) -> Option<String> {
    game.draw(caption).map(|p| p.svg())
}

/// What a typed line asks for.
enum Input<A> {
    Part(A),
    /// Open a family of parts listed as one entry (its word, `convert`).
    Open(ActionGroup),
    /// Leave the family listed.
    Back,
    Undo,
    List,
    /// Write the board as SVG (to the file named, else a file in the temporary folder).
    Map(Option<PathBuf>),
    Quit,
    Help,
}

/// One numbered entry of the listing: a part, or a family of parts folded into one.
enum Entry<A> {
    Part(A),
    Group(ActionGroup, Vec<A>),
}

/// The listing's entries: the parts in order, each family ([`GameModule::action_group`], as
/// `group` tells) of two or more folded into one entry where its first part stood.
fn entries<A: Clone>(legal: &[A], group: impl Fn(&A) -> Option<ActionGroup>) -> Vec<Entry<A>> {
    let groups: Vec<Option<ActionGroup>> = legal.iter().map(&group).collect();
    let members = |g: &ActionGroup| -> Vec<A> {
        legal
            .iter()
            .zip(&groups)
            .filter(|(_, h)| h.as_ref() == Some(g))
            .map(|(p, _)| p.clone())
            .collect()
    };
    let mut out = Vec::new();
    let mut opened: Vec<ActionGroup> = Vec::new();
    for (p, g) in legal.iter().zip(&groups) {
        match g {
            Some(g) if members(g).len() >= 2 => {
                if !opened.contains(g) {
                    opened.push(*g);
                    out.push(Entry::Group(*g, members(g)));
                }
            }
            _ => out.push(Entry::Part(p.clone())),
        }
    }
    out
}

/// Reads a typed line against the entries listed and the legal parts (`parts`): a number
/// picks an entry, a part's text, an input the game reads (`parse`) or a prefix only one part
/// starts with picks that part, wherever it is listed. `inside` is the family listed, if one
/// is (`back` leaves it).
fn interpret<A: Clone + std::fmt::Display>(
    line: &str,
    listed: &[Entry<A>],
    parts: &[A],
    inside: Option<ActionGroup>,
    parse: impl Fn(&str) -> Result<A, String>,
) -> Result<Input<A>, String> {
    let t = line.trim();
    let opens = |w: &str| {
        listed.iter().find_map(|e| match e {
            Entry::Group(g, _) if g.word == w => Some(*g),
            _ => None,
        })
    };
    match t {
        "undo" => return Ok(Input::Undo),
        "list" | "ls" | "?" => return Ok(Input::List),
        "quit" | "exit" => return Ok(Input::Quit),
        "help" => return Ok(Input::Help),
        "map" => return Ok(Input::Map(None)),
        "back" if inside.is_some() => return Ok(Input::Back),
        "" if inside.is_some() => return Ok(Input::Back),
        "" => {
            let words: Vec<String> = listed
                .iter()
                .filter_map(|e| match e {
                    Entry::Group(g, _) => Some(format!("`{}`, ", g.word)),
                    Entry::Part(_) => None,
                })
                .collect();
            return Err(format!(
                "type a part, its number, a prefix, {}`map`, `undo`, `list` or `quit`",
                words.concat()
            ));
        }
        _ => {}
    }
    if let Some(g) = inside.filter(|g| g.word == t).or_else(|| opens(t)) {
        return Ok(Input::Open(g));
    }
    if let Some(file) = t.strip_prefix("map ") {
        return Ok(Input::Map(Some(PathBuf::from(file.trim()))));
    }
    if let Ok(n) = t.parse::<usize>() {
        return match n.checked_sub(1).and_then(|i| listed.get(i)) {
            Some(Entry::Part(p)) => Ok(Input::Part(p.clone())),
            Some(Entry::Group(g, _)) => Ok(Input::Open(*g)),
            None => Err(format!("no entry numbered {n} (1 to {})", listed.len())),
        };
    }
    let texts: Vec<String> = parts.iter().map(ToString::to_string).collect();
    if let Some(i) = texts.iter().position(|x| x == t) {
        return Ok(Input::Part(parts[i].clone()));
    }
    if let Ok(a) = parse(t) {
        return Ok(Input::Part(a));
    }
    let matches: Vec<usize> = (0..texts.len())
        .filter(|&i| texts[i].starts_with(t))
        .collect();
    match matches.as_slice() {
        [] => Err(format!("no legal part starts with `{t}`")),
        [i] => Ok(Input::Part(parts[*i].clone())),
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

/// `play` for a game `G`: the person at `--seat`, bots at the other seats; the seats given
/// their side (`--factions`) or their number (`--players`, each side then drawn or chosen in
/// play as the game does). `draw` draws the board for `map`.
pub fn run_as<G: GameModule>(args: &PlayArgs, draw: Draw<G>) -> ExitCode {
    match session_as::<G>(args, draw) {
        Ok(code) => code,
        Err((msg, code)) => {
            errln!("error: {msg}");
            ExitCode::from(code)
        }
    }
}

fn session_as<G: GameModule>(args: &PlayArgs, draw: Draw<G>) -> Result<ExitCode, (String, u8)> {
    let usage = |m: String| (m, 2u8);
    let identities: Option<Vec<String>> = args
        .factions
        .as_deref()
        .map(|f| f.split(',').map(|f| f.trim().to_string()).collect());
    let players = match (&identities, args.players) {
        (Some(list), _) => list.len(),
        (None, Some(n)) => n,
        (None, None) => {
            return Err(usage(format!(
                "{}: give the number of seats with --players N, or each seat's faction with \
                 --factions",
                G::ID
            )))
        }
    };
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
    if let Some(list) = &identities {
        let known = G::identities(&content);
        if let Some(f) = list.iter().find(|f| !known.contains(f)) {
            return Err(usage(format!("unknown faction `{f}`")));
        }
    }
    let model = if bot_names
        .iter()
        .any(|b| b == "best" || b.starts_with("best:"))
    {
        crate::train::load_model::<G>(&stack, &content, players, None).map_err(|e| (e, 1))?
    } else {
        None
    };
    let mut bots: Vec<Option<Box<dyn Bot<G> + Send>>> = Vec::new();
    for s in 0..players {
        if s + 1 == args.seat {
            bots.push(None);
            continue;
        }
        let name = &bot_names[s % bot_names.len()];
        let b = bot::by_name_with::<G>(name, args.seed.wrapping_add(s as u64 + 1), model.as_ref())
            .ok_or_else(|| usage(format!("unknown bot `{name}`")))?;
        bots.push(Some(b));
    }
    let mut rng = Rng::new(args.seed);
    let how = Start {
        players,
        setup: None,
        identities: identities.as_deref(),
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
    // The family of parts listed on its own, while it is.
    let mut inside: Option<ActionGroup> = None;
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
        let all = entries(&legal, |p| game.action_group(p));
        // The family listed, if one is and still has parts.
        let members: Option<Vec<G::Action>> = inside.and_then(|g| {
            all.iter().find_map(|e| match e {
                Entry::Group(h, m) if *h == g => Some(m.clone()),
                _ => None,
            })
        });
        if members.is_none() {
            inside = None;
        }
        if !listed {
            list_as(&game, &all, you, &mut out).map_err(io)?;
            listed = true;
        }
        match inside {
            Some(g) => write!(out, "{}> ", g.word),
            None => write!(out, "> "),
        }
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
        let typed = match &members {
            Some(m) => {
                let sub: Vec<Entry<G::Action>> = m.iter().cloned().map(Entry::Part).collect();
                interpret(&line, &sub, m, inside, |t| game.parse_action(t))
            }
            None => interpret(&line, &all, &legal, None, |t| game.parse_action(t)),
        };
        match typed {
            Ok(Input::Part(part)) => {
                let before = game.clone();
                match game.play(&part) {
                    Ok(()) => {
                        writeln!(out, "{}", echo(&before, seat, &part)).map_err(io)?;
                        history.push(before);
                        listed = false;
                        inside = None;
                        save(&game)?;
                    }
                    Err(e) => writeln!(out, "refused: {}", crate::out::clean(&e)).map_err(io)?,
                }
            }
            Ok(Input::Open(g)) => {
                let m: Vec<G::Action> = legal
                    .iter()
                    .filter(|p| game.action_group(p) == Some(g))
                    .cloned()
                    .collect();
                list_group(&game, g, &m, &mut out).map_err(io)?;
                inside = Some(g);
            }
            Ok(Input::Back) => {
                inside = None;
                list_as(&game, &all, you, &mut out).map_err(io)?;
            }
            Ok(Input::Undo) => match history.pop() {
                Some(g) => {
                    game = g;
                    listed = false;
                    inside = None;
                    writeln!(out, "# undone").map_err(io)?;
                    save(&game)?;
                }
                None => writeln!(out, "# nothing to undo").map_err(io)?,
            },
            Ok(Input::List) => match (inside, &members) {
                (Some(g), Some(m)) => list_group(&game, g, m, &mut out).map_err(io)?,
                _ => list_as(&game, &all, you, &mut out).map_err(io)?,
            },
            Ok(Input::Map(file)) => write_map(&game, draw, file, &mut out).map_err(io)?,
            Ok(Input::Help) => {
                let words: Vec<String> = all
                    .iter()
                    .filter_map(|e| match e {
                        Entry::Group(g, _) => Some(format!("{} (the {}), back; ", g.word, g.many)),
                        Entry::Part(_) => None,
                    })
                    .collect();
                writeln!(
                    out,
                    "# a part's number, its text, a whole input in the notation or a prefix \
                     only one part starts with; {}map [FILE] (the board as SVG); undo; list; quit",
                    words.concat()
                )
                .map_err(io)?
            }
            Ok(Input::Quit) => return Ok(ExitCode::SUCCESS),
            Err(e) => {
                writeln!(out, "# {}", crate::out::clean(&e)).map_err(io)?;
                // A part may be missing because its script fails: say why.
                for line in game.notices() {
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

/// The board, each seat's public holdings, the person's hidden ones, and the entries
/// numbered (a part with a note where it needs one; a family with its count).
fn list_as<G: GameModule>(
    game: &G,
    listed: &[Entry<G::Action>],
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
    let parts: usize = listed
        .iter()
        .map(|e| match e {
            Entry::Part(_) => 1,
            Entry::Group(_, m) => m.len(),
        })
        .sum();
    writeln!(
        out,
        "# {}:",
        crate::out::count(parts, "legal part", "legal parts")
    )?;
    for (i, entry) in listed.iter().enumerate() {
        match entry {
            Entry::Part(part) => match game.action_note(part) {
                Some(note) => {
                    writeln!(out, "{:>4}  {part}  ({})", i + 1, crate::out::clean(&note))?
                }
                None => writeln!(out, "{:>4}  {part}", i + 1)?,
            },
            Entry::Group(g, m) => writeln!(
                out,
                "{:>4}  {} …  ({}: {})",
                i + 1,
                g.word,
                crate::out::count(m.len(), g.one, g.many),
                g.about
            )?,
        }
    }
    Ok(())
}

/// A family's parts, numbered, each with what it changes for the seat deciding.
fn list_group<G: GameModule>(
    game: &G,
    g: ActionGroup,
    parts: &[G::Action],
    out: &mut impl Write,
) -> std::io::Result<()> {
    writeln!(
        out,
        "# {} (a number, a text or a prefix; `back` returns):",
        crate::out::count(parts.len(), g.one, g.many)
    )?;
    for (i, part) in parts.iter().enumerate() {
        match game.explain_action(part) {
            Some(Ok(c)) => writeln!(
                out,
                "{:>4}  {part}  ({})",
                i + 1,
                crate::out::clean(&c.text)
            )?,
            _ => writeln!(out, "{:>4}  {part}", i + 1)?,
        }
    }
    Ok(())
}

/// Writes the board as SVG to `file` (default: a file in the temporary folder) and names it.
fn write_map<G: GameModule>(
    game: &G,
    draw: Draw<G>,
    file: Option<PathBuf>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let label = match game.board_status() {
        Some(b) => format!("play · {b}"),
        None => "play".to_string(),
    };
    let Some(svg) = draw(game, &label) else {
        return writeln!(out, "# {} does not draw its board", G::ID);
    };
    let path = file.unwrap_or_else(|| {
        std::env::temp_dir().join(format!("orrery-play-{}.svg", std::process::id()))
    });
    match crate::out::write_file(&path, svg.as_bytes()) {
        Ok(()) => writeln!(out, "# map written to {}", path.display()),
        Err(e) => writeln!(out, "# {}", crate::out::clean(&e)),
    }
}

#[cfg(test)]
mod tests {
    use super::{entries, interpret, read_line, Entry, Input};
    use orrery_gp::commands::action_group;
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

    /// A line read against a listing, at the top (`inside` false) or in the conversions.
    fn read(
        line: &str,
        listed: &[Entry<Command>],
        parts: &[Command],
        inside: bool,
    ) -> Result<Input<Command>, String> {
        let group = action_group(&part("burn 1"));
        let inside = if inside { group } else { None };
        interpret(line, listed, parts, inside, |t| {
            parts
                .iter()
                .find(|p| p.to_string() == t)
                .cloned()
                .ok_or_else(|| "not legal".to_string())
        })
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
        let listed = entries(&parts, action_group);
        assert_eq!(listed.len(), 3);
        assert!(matches!(&listed[0], Entry::Part(p) if p.to_string() == "build m 1A1"));
        match &listed[1] {
            Entry::Group(g, all) => {
                assert_eq!(g.word, "convert");
                let texts: Vec<String> = all.iter().map(ToString::to_string).collect();
                assert_eq!(texts, ["spend 1o for 1c", "burn 1", "spend 1q for 1o"]);
            }
            Entry::Part(p) => panic!("{p} is not the conversions"),
        }
        assert!(matches!(
            read("2", &listed, &parts, false),
            Ok(Input::Open(g)) if g.word == "convert"
        ));
        assert!(matches!(
            read("convert", &listed, &parts, false),
            Ok(Input::Open(_))
        ));
        assert!(
            matches!(read("3", &listed, &parts, false), Ok(Input::Part(p)) if p.to_string() == "pass booster1")
        );
        // A conversion's text plays it from the top listing too.
        assert!(
            matches!(read("burn 1", &listed, &parts, false), Ok(Input::Part(p)) if p.to_string() == "burn 1")
        );
        assert!(read("4", &listed, &parts, false).is_err_and(|e| e.contains("1 to 3")));
        assert!(matches!(
            read("back", &listed, &parts, true),
            Ok(Input::Back)
        ));
        assert!(read("back", &listed, &parts, false).is_err());
        assert!(read("", &listed, &parts, false).is_err_and(|e| e.contains("`convert`")));
        assert!(matches!(
            read("map", &listed, &parts, false),
            Ok(Input::Map(None))
        ));
        assert!(
            matches!(read("map b.svg", &listed, &parts, false), Ok(Input::Map(Some(f))) if f.to_str() == Some("b.svg"))
        );
        // One conversion alone is listed as itself.
        let one: Vec<Command> = parts[..2].to_vec();
        assert!(entries(&one, action_group)
            .iter()
            .all(|e| matches!(e, Entry::Part(_))));
    }
}
