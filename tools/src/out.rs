//! Writing a command's output: a closed pipe (`orrery … | head -1`) or a full disk ends the
//! command with exit status 1 instead of a panic, quietly for the pipe (its reader has all it
//! wanted) and with one line on stderr otherwise. Every error and diagnostic line goes through
//! [`clean`] ([`error_line`], the `errln!` macro), so text from a file (a record's move, a
//! faction id) cannot put control characters on the user's terminal.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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

/// A count with its noun in the right number: `1 legal part`, `3 legal parts`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Writes `bytes` to `path` whole or not at all: into a new temporary file beside it, flushed
/// to disk, then renamed over it. A failure (a full disk, a folder in the way) leaves what was
/// at `path` as it was and removes the temporary file. Every file a command writes goes
/// through here.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let cannot = |e: &dyn fmt::Display| format!("cannot write {}: {e}", path.display());
    if path.is_dir() {
        return Err(cannot(&"it is a folder"));
    }
    let name = path
        .file_name()
        .ok_or_else(|| cannot(&"not a file name"))?
        .to_string_lossy();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let temp = dir.join(format!(".{name}.{}.orrery-tmp", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_data()
        })
        .and_then(|()| std::fs::rename(&temp, path));
    written.map_err(|e| {
        // The temporary file may not exist (it could not be made); one left behind is named.
        if std::fs::remove_file(&temp).is_err() && temp.exists() {
            return format!(
                "{}; the partial file {} is left",
                cannot(&e),
                temp.display()
            );
        }
        cannot(&e)
    })
}

/// What names a file for comparison: its device and inode when it exists (hard links and
/// other spellings included), else its folder's canonical path joined with its name.
#[derive(PartialEq, Eq, Debug)]
enum FileId {
    Node(u64, u64),
    Path(PathBuf),
}

fn file_id(path: &Path) -> FileId {
    use std::os::unix::fs::MetadataExt;
    if let Ok(m) = std::fs::metadata(path) {
        return FileId::Node(m.dev(), m.ino());
    }
    FileId::Path(canonical(path))
}

/// `path` with links and `..` resolved as far as it exists (a missing file keeps its name).
fn canonical(path: &Path) -> PathBuf {
    if let Ok(c) = std::fs::canonicalize(path) {
        return c;
    }
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (abs.parent(), abs.file_name()) {
        (Some(parent), Some(name)) => canonical(parent).join(name),
        _ => abs,
    }
}

/// The files a command reads and writes, checked before it runs: no output is an input or
/// another output, and none lies inside a folder the command fills (`simulate --logs`).
#[derive(Default)]
pub struct Paths<'a> {
    /// Files read (a log, a state, a study, a variant named on the command line).
    pub inputs: Vec<&'a Path>,
    /// Files written.
    pub outputs: Vec<(&'a str, &'a Path)>,
    /// Folders written into, which no other output may be inside.
    pub folders: Vec<(&'a str, &'a Path)>,
}

impl Paths<'_> {
    /// The first clash, as a sentence naming both.
    pub fn clash(&self) -> Option<String> {
        for (i, (flag, out)) in self.outputs.iter().enumerate() {
            let id = file_id(out);
            if let Some(input) = self.inputs.iter().find(|p| file_id(p) == id) {
                return Some(format!(
                    "{flag} {} would overwrite the input {}; write to another file",
                    out.display(),
                    input.display()
                ));
            }
            if let Some((other, _)) = self.outputs[..i].iter().find(|(_, o)| file_id(o) == id) {
                return Some(format!(
                    "{flag} {} is also {other}; give each output its own file",
                    out.display()
                ));
            }
            let at = canonical(out);
            if let Some((folder_flag, dir)) = self
                .folders
                .iter()
                .find(|(_, d)| at.starts_with(canonical(d)))
            {
                return Some(format!(
                    "{flag} {} is inside {folder_flag} {}; write it elsewhere",
                    out.display(),
                    dir.display()
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{clean, write_file, Paths};
    use std::path::Path;

    #[test]
    fn hidden_characters_are_escaped() {
        assert_eq!(clean("plain — ünïcode"), "plain — ünïcode");
        assert_eq!(
            clean("a\u{1b}[2Jb\u{7}c\u{0}d\u{202e}e\u{2066}f\nx\u{9b}"),
            "a\\u{1b}[2Jb\\u{7}c\\u{0}d\\u{202e}e\\u{2066}f\\u{a}x\\u{9b}"
        );
    }

    #[test]
    fn a_file_is_replaced_whole_or_kept() {
        let dir = std::env::temp_dir().join(format!("orrery-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("a.svg");
        write_file(&target, b"first").unwrap();
        write_file(&target, b"second").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"second");
        // A folder in the way: refused, nothing left behind.
        let e = write_file(&dir, b"x").unwrap_err();
        assert!(e.contains("it is a folder"), "{e}");
        // A missing folder: refused, the old file untouched.
        assert!(write_file(&dir.join("no/such.svg"), b"x").is_err());
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        assert_eq!(left.len(), 1, "only a.svg: {left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_output_may_not_be_an_input_another_output_or_inside_a_filled_folder() {
        let dir = std::env::temp_dir().join(format!("orrery-clash-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("logs")).unwrap();
        let input = dir.join("r.json");
        std::fs::write(&input, "{}").unwrap();
        std::fs::hard_link(&input, dir.join("link.json")).unwrap();
        let spelled = dir.join("logs/../r.json");
        let check = |outputs: Vec<(&'static str, &Path)>| {
            Paths {
                inputs: vec![input.as_path()],
                outputs,
                folders: vec![("--logs", dir.join("logs").as_path())],
            }
            .clash()
        };
        assert!(check(vec![("-o", &input)])
            .unwrap()
            .contains("would overwrite the input"));
        assert!(check(vec![("-o", &spelled)]).is_some());
        assert!(
            check(vec![("-o", &dir.join("link.json"))]).is_some(),
            "a hard link"
        );
        let new = dir.join("new.svg");
        let e = check(vec![("--out", &new), ("--chart", &new)]).unwrap();
        assert!(e.contains("is also --out"), "{e}");
        let e = check(vec![("--out", &dir.join("logs/study.json"))]).unwrap();
        assert!(e.contains("inside --logs"), "{e}");
        assert_eq!(
            check(vec![("--out", &new), ("--chart", &dir.join("c.svg"))]),
            None
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
