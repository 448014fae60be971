//! Shared helpers of the command-line tests: running `orrery`, checking its output, scratch
//! folders.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `orrery` binary, with no `$ORRERY_CONTENT` from the caller's environment.
pub fn orrery() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_orrery"));
    c.env_remove("ORRERY_CONTENT");
    c
}

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// [`orrery`] run from the repository's root.
pub fn in_repo() -> Command {
    let mut c = orrery();
    c.current_dir(repo());
    c
}

/// Runs `orrery` in `dir` with these arguments.
pub fn run_in<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(dir: &Path, args: I) -> Output {
    orrery().current_dir(dir).args(args).output().expect("runs")
}

/// Runs `orrery` in the repository with these arguments.
pub fn run_in_repo<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> Output {
    run_in(&repo(), args)
}

/// Runs `orrery` in the repository with these arguments.
pub fn run(args: &[&str]) -> Output {
    run_in_repo(args)
}

/// The standard output of a run that must have succeeded (its output is shown if not).
pub fn succeeded(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh scratch folder unique to one test of one test binary.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "orrery-{}-{name}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("old scratch folder removed");
    }
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Copies a folder with everything in it.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("dir");
    for e in std::fs::read_dir(from).expect("readable").flatten() {
        let p = e.path();
        let t = to.join(e.file_name());
        if p.is_dir() {
            copy_dir(&p, &t);
        } else {
            std::fs::copy(&p, &t).expect("copy");
        }
    }
}

/// The number of Terraforming Mars records in `tests/data/terraforming-mars/` (compressed JSON).
#[allow(dead_code)]
pub fn tm_record_count() -> usize {
    std::fs::read_dir(repo().join("tests/data/terraforming-mars"))
        .expect("the records folder")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".json.gz"))
        })
        .count()
}
