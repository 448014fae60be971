//! Bounded loading through the command line: links, FIFOs, oversize files, pseudo-files and
//! hostile scripts in content, overlays, records and saved states end with a clear error
//! naming the file, quickly, never a hang.

mod common;

use std::ffi::OsStr;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{copy_dir, orrery, repo, scratch, succeeded};
use orrery_core::files::{MAX_CONTENT_FILE_BYTES, MAX_RECORD_BYTES};
use orrery_core::script::{MAX_SCRIPT_BYTES, MAX_SCRIPT_FUNCTIONS};

/// Runs a command, failing the test (and killing the child) if it takes more than 30 s: the
/// inputs here used to hang `orrery`.
fn run_bounded(mut cmd: Command) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let start = Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            child.kill().expect("killed");
            panic!("orrery did not finish within 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn validate(content: &Path, variants: &[&Path]) -> Output {
    let mut cmd = orrery();
    cmd.arg("validate").arg("--content").arg(content);
    for v in variants {
        cmd.arg("--variant").arg(v);
    }
    run_bounded(cmd)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
        + String::from_utf8_lossy(&out.stdout).as_ref()
}

/// Asserts a refusal: not success, no panic, and a message containing each of `words`.
fn refused(out: &Output, code: i32, words: &[&str]) -> String {
    let text = stderr(out);
    assert_eq!(out.status.code(), Some(code), "{text}");
    assert!(!text.contains("panicked"), "{text}");
    for w in words {
        assert!(text.contains(w), "{w:?} not in:\n{text}");
    }
    text
}

/// A copy of the repository's content folder (base and variants).
fn content_copy(dir: &Path) -> std::path::PathBuf {
    let content = dir.join("content");
    copy_dir(&repo().join("content/base"), &content.join("base"));
    content
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(ok.success(), "mkfifo {}", path.display());
}

/// An overlay folder that adds the example faction, with its script beside it.
fn example_overlay(dir: &Path) -> std::path::PathBuf {
    let ov = dir.join("faction");
    copy_dir(&repo().join("content/examples/cartographers"), &ov);
    ov
}

#[test]
fn a_symlink_loop_in_the_content_folder_is_named() {
    let dir = scratch("content-loop");
    let content = content_copy(&dir);
    symlink("..", content.join("base/factions/loop")).expect("link");
    let out = validate(&content, &[]);
    refused(&out, 1, &["factions/loop", "symbolic link"]);
}

#[test]
fn a_symlink_loop_in_an_overlay_folder_is_not_followed() {
    let dir = scratch("overlay-loop");
    let ov = example_overlay(&dir);
    symlink(".", ov.join("again")).expect("link");
    symlink("../faction", ov.join("parent")).expect("link");
    let out = validate(&repo().join("content"), &[&ov]);
    assert!(succeeded(&out).starts_with("15 factions"));
}

#[test]
fn a_script_beside_an_overlay_that_is_a_link_is_refused() {
    let dir = scratch("script-link");
    let ov = example_overlay(&dir);
    let script = ov.join("cartographers.rhai");
    std::fs::rename(&script, dir.join("elsewhere.rhai")).expect("moved");
    symlink(dir.join("elsewhere.rhai"), &script).expect("link");
    let out = validate(&repo().join("content"), &[&ov]);
    refused(&out, 1, &["cartographers.rhai", "symbolic link"]);
}

#[test]
fn fifos_are_refused_not_opened() {
    let dir = scratch("fifo");
    // A FIFO in the content folder.
    let content = content_copy(&dir);
    mkfifo(&content.join("base/factions/pipe.yaml"));
    let out = validate(&content, &[]);
    refused(&out, 1, &["factions/pipe.yaml", "not a plain file"]);
    // A FIFO named as the variant.
    let pipe = dir.join("variant.yaml");
    mkfifo(&pipe);
    let out = validate(&repo().join("content"), &[&pipe]);
    refused(&out, 1, &["variant.yaml", "not a plain file"]);
    // A FIFO as the script an overlay names.
    let ov = example_overlay(&dir);
    std::fs::remove_file(ov.join("cartographers.rhai")).expect("removed");
    mkfifo(&ov.join("cartographers.rhai"));
    let out = validate(&repo().join("content"), &[&ov]);
    refused(&out, 1, &["cartographers.rhai", "not a plain file"]);
    // A FIFO as a record.
    let record = dir.join("record.json");
    mkfifo(&record);
    let mut cmd = orrery();
    cmd.current_dir(repo()).arg("replay").arg(&record);
    let out = run_bounded(cmd);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a plain file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_overlay_in_a_big_folder_reads_only_what_it_names() {
    // A folder full of things an old recursive scan would have choked on: a FIFO named like a
    // script, a link loop, a deep tree of files. The overlay beside them names no script.
    let dir = scratch("big-folder");
    mkfifo(&dir.join("stuck.rhai"));
    symlink(".", dir.join("loop")).expect("link");
    let mut deep = dir.join("tree");
    for level in 0..20 {
        deep = deep.join(format!("level{level}"));
        std::fs::create_dir_all(&deep).expect("dir");
        for i in 0..10 {
            std::fs::write(deep.join(format!("f{i}.rhai")), "fn f() { 1 }\n").expect("write");
        }
    }
    let overlay = dir.join("errata.yaml");
    std::fs::write(
        &overlay,
        "name: errata\nchanges:\n  - set: {kind: rules, path: satellites, value: 20}\n",
    )
    .expect("write");
    let out = validate(&repo().join("content"), &[&overlay]);
    assert!(succeeded(&out).starts_with("14 factions"));
}

#[test]
fn an_overlay_that_is_not_utf8_exits_one_like_a_base_file() {
    let dir = scratch("not-utf8");
    let bytes = b"name: x\nchanges: []\n# \xff\xfe\n";
    let content = content_copy(&dir);
    std::fs::write(content.join("base/factions/bad.yaml"), bytes).expect("write");
    let out = validate(&content, &[]);
    refused(&out, 1, &["factions/bad.yaml", "not UTF-8"]);
    let overlay = dir.join("bad.yaml");
    std::fs::write(&overlay, bytes).expect("write");
    let out = validate(&repo().join("content"), &[&overlay]);
    refused(&out, 1, &["bad.yaml", "not UTF-8"]);
    // A variant that is not there at all is still a usage error.
    let out = validate(&repo().join("content"), &[&dir.join("missing.yaml")]);
    refused(&out, 2, &["missing.yaml", "not found"]);
}

#[test]
fn oversize_files_are_refused_with_the_limit() {
    let dir = scratch("oversize");
    let padding = "#".repeat(MAX_CONTENT_FILE_BYTES as usize + 10);
    // A content file.
    let content = content_copy(&dir);
    let boosters = content.join("base/boosters.yaml");
    let text = std::fs::read_to_string(&boosters).expect("read");
    std::fs::write(&boosters, format!("{text}\n{padding}\n")).expect("write");
    let out = validate(&content, &[]);
    refused(
        &out,
        1,
        &[
            "boosters.yaml",
            &format!("limit of {MAX_CONTENT_FILE_BYTES} bytes"),
        ],
    );
    // An overlay file.
    let overlay = dir.join("big.yaml");
    std::fs::write(&overlay, format!("name: big\nchanges: []\n{padding}\n")).expect("write");
    let out = validate(&repo().join("content"), &[&overlay]);
    refused(
        &out,
        1,
        &[
            "big.yaml",
            &format!("limit of {MAX_CONTENT_FILE_BYTES} bytes"),
        ],
    );
    // A record: refused before it is parsed (a 35 MB record used to take 907 MB).
    let record = dir.join("record.json");
    std::fs::write(&record, " ".repeat(MAX_RECORD_BYTES as usize + 1)).expect("write");
    let mut cmd = orrery();
    cmd.current_dir(repo()).arg("replay").arg(&record);
    let out = run_bounded(cmd);
    assert!(!out.status.success());
    let text = stderr(&out);
    assert!(
        text.contains("record.json") && text.contains(&format!("limit of {MAX_RECORD_BYTES}")),
        "{text}"
    );
}

#[test]
fn a_saved_state_naming_a_pseudo_file_as_variant_is_refused() {
    let dir = scratch("proc-variant");
    let state = dir.join("state.json");
    let record = repo().join("tests/data/conformance/dev/dev-001.json");
    succeeded(&common::run_in_repo([
        OsStr::new("replay"),
        record.as_os_str(),
        OsStr::new("--until"),
        OsStr::new("5"),
        OsStr::new("--save-state"),
        state.as_os_str(),
    ]));
    let mut saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).expect("read")).expect("JSON");
    saved["content"]["variants"] = serde_json::json!([
        {"name": "status", "file": "/proc/self/status"}
    ]);
    std::fs::write(&state, saved.to_string()).expect("write");
    let mut cmd = orrery();
    cmd.current_dir(repo()).arg("moves").arg(&state);
    let out = run_bounded(cmd);
    refused(&out, 1, &["/proc/self/status", "pseudo-file"]);
    // A FIFO there is refused the same way, without blocking on it.
    let pipe = dir.join("pipe.yaml");
    mkfifo(&pipe);
    saved["content"]["variants"] = serde_json::json!([
        {"name": "pipe", "file": pipe.display().to_string()}
    ]);
    std::fs::write(&state, saved.to_string()).expect("write");
    let mut cmd = orrery();
    cmd.current_dir(repo()).arg("moves").arg(&state);
    let out = run_bounded(cmd);
    refused(&out, 1, &["pipe.yaml", "not a plain file"]);
}

/// An overlay folder adding `big.rhai` with this source.
fn script_overlay(dir: &Path, source: &str) -> std::path::PathBuf {
    let ov = dir.join("script");
    std::fs::create_dir_all(&ov).expect("dir");
    std::fs::write(
        ov.join("overlay.yaml"),
        "name: script\nchanges:\n  - script: {file: big.rhai}\n",
    )
    .expect("write");
    std::fs::write(ov.join("big.rhai"), source).expect("write");
    ov
}

#[test]
fn a_script_of_20000_functions_is_refused_quickly() {
    let dir = scratch("functions");
    // 20,000 functions used to compile for about 19 s; now the size limit refuses them.
    let source: String = (0..20_000)
        .map(|i| format!("fn f{i}(x) {{ x + {i} }}\n"))
        .collect();
    assert!(source.len() > MAX_SCRIPT_BYTES);
    let ov = script_overlay(&dir, &source);
    let out = validate(&repo().join("content"), &[&ov]);
    // A file that is there but refused is invalid content (exit 1), as in a base folder.
    refused(
        &out,
        1,
        &["big.rhai", &format!("limit of {MAX_SCRIPT_BYTES} bytes")],
    );
    // Within the size limit, the function count bounds compiling.
    let source: String = (0..MAX_SCRIPT_FUNCTIONS + 1)
        .map(|i| format!("fn f{i}() {{ 1 }}\n"))
        .collect();
    assert!(source.len() < MAX_SCRIPT_BYTES);
    std::fs::write(ov.join("big.rhai"), source).expect("write");
    let out = validate(&repo().join("content"), &[&ov]);
    refused(
        &out,
        1,
        &[
            "big.rhai",
            &format!("more than {MAX_SCRIPT_FUNCTIONS} functions"),
        ],
    );
}

#[test]
fn content_without_enough_boosters_exits_one() {
    let dir = scratch("no-boosters");
    let overlay = dir.join("no-boosters.yaml");
    let removes: String = (1..=10)
        .map(|i| format!("  - remove: {{kind: booster, id: booster{i}}}\n"))
        .collect();
    std::fs::write(&overlay, format!("name: none\nchanges:\n{removes}")).expect("write");
    let out = validate(&repo().join("content"), &[&overlay]);
    refused(&out, 1, &["boosters.yaml", "0 boosters", "uses 7"]);
}
