//! A command whose output cannot be written — a closed pipe (`orrery … | head -1`) or a full
//! disk (`/dev/full`) — ends with exit status 1 and no panic.

mod common;

use std::io::Read;
use std::process::Stdio;

use common::in_repo;

/// Commands that print data on stdout.
const COMMANDS: &[&[&str]] = &[
    &["validate"],
    &["schema"],
    &["explain", "faction", "terrans", "--json"],
    &["diff", "--against", "--variant", "beta-0"],
    &["conformance", "tests/data/conformance/dev"],
    &[
        "simulate",
        "--games",
        "2",
        "--players",
        "2",
        "--bots",
        "random",
    ],
];

#[test]
fn a_full_disk_is_an_error_not_a_panic() {
    for args in COMMANDS {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = in_repo().args(*args).stdout(full).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains("cannot write the output"), "{args:?}: {err}");
    }
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    for args in COMMANDS {
        let mut child = in_repo()
            .args(*args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        // Close the reading end before the command writes (it loads content first).
        drop(child.stdout.take());
        let mut err = String::new();
        child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut err)
            .expect("stderr is text");
        let status = child.wait().expect("ends");
        assert_eq!(status.code(), Some(1), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("cannot write"), "{args:?}: {err}");
    }
}
