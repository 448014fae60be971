//! Writing a command's output: a closed pipe (`orrery … | head -1`) or a full disk ends the
//! command with exit status 1 instead of a panic, quietly for the pipe (its reader has all it
//! wanted) and with one line on stderr otherwise.

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
