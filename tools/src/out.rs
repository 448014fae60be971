//! Writing a command's output: a closed pipe (`orrery … | head -1`) or a full disk ends the
//! command with exit status 1 instead of a panic, quietly for the pipe (its reader has all it
//! wanted) and with one line on stderr otherwise. Every error and diagnostic line goes through
//! [`clean`] ([`error_line`], the `errln!` macro), so text from a file (a record's move, a
//! faction id) cannot put control characters on the user's terminal.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};

/// Writes `args` to stdout and flushes it; on failure, ends the process (status 1).
pub fn write(args: fmt::Arguments) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        fail(&e);
    }
}

/// Ends the process after a failed write to stdout.
pub fn fail(e: &io::Error) -> ! {
    if e.kind() != io::ErrorKind::BrokenPipe {
        eprintln!("error: cannot write the output: {e}");
    }
    std::process::exit(1)
}

/// Writes one error or diagnostic line to stderr, [`clean`]ed.
pub fn error_line(args: fmt::Arguments) {
    let text = args.to_string();
    eprintln!("{}", clean(&text));
}

/// Whether a character would act on a terminal or reorder text instead of showing: control
/// characters (C0, DEL, C1) and the invisible format characters that steer bidirectional text
/// or hide between letters.
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

/// `text` with every hidden character written as an escape (`\u{1b}`), so an error shows what
/// a file holds instead of acting on the terminal. Text without one is borrowed.
pub fn clean(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn hidden_characters_are_escaped() {
        assert_eq!(clean("plain — ünïcode"), "plain — ünïcode");
        assert_eq!(
            clean("a\u{1b}[2Jb\u{7}c\u{0}d\u{202e}e\u{2066}f\nx\u{9b}"),
            "a\\u{1b}[2Jb\\u{7}c\\u{0}d\\u{202e}e\\u{2066}f\\u{a}x\\u{9b}"
        );
    }
}
