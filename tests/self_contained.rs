//! The repository stands alone: no content file, README or source points outside it, and
//! every Markdown file content and READMEs name exists in the repository.

mod common;

use std::path::{Path, PathBuf};

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable folder").flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "data" || name == "target" {
            continue;
        }
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Text files a reader or the build follows: content, docs, READMEs, sources, tests.
fn checked_files() -> Vec<PathBuf> {
    let root = common::root();
    let mut out = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    for dir in [
        "content", "docs", "engine", "tools", "tests", "benches", "schemas",
    ] {
        if root.join(dir).is_dir() {
            files_under(&root.join(dir), &mut out);
        }
    }
    out.retain(|p| {
        p.extension().is_some_and(|x| {
            ["md", "yaml", "yml", "rhai", "rs", "json", "toml"].contains(&x.to_str().unwrap_or(""))
        })
    });
    out
}

#[test]
fn nothing_points_into_the_shared_folder() {
    let needles = [
        ["..", "shared", ""].join("/"),
        ["", "work", "shared"].join("/"),
    ];
    let mut found = Vec::new();
    for f in checked_files() {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            if needles.iter().any(|n| line.contains(n.as_str())) {
                found.push(format!("{}:{}: {line}", f.display(), i + 1));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn markdown_files_named_in_content_and_readmes_exist() {
    let root = common::root();
    let mut known: Vec<String> = Vec::new();
    for f in checked_files() {
        if f.extension().is_some_and(|x| x == "md") {
            known.push(f.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    let mut named_from = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    files_under(&root.join("content"), &mut named_from);
    if root.join("docs").is_dir() {
        files_under(&root.join("docs"), &mut named_from);
    }
    let mut missing = Vec::new();
    for f in named_from {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for word in text.split(|c: char| !(c.is_alphanumeric() || "._-/".contains(c))) {
            if let Some(stem) = word.strip_suffix(".md") {
                let name = format!("{}.md", stem.rsplit('/').next().unwrap_or(stem));
                // A path from the repository's root names that file; a bare name, any file of
                // that name the repository has.
                let found = if word.contains('/') && root.join(word).is_file() {
                    true
                } else {
                    known.contains(&name)
                };
                if !stem.is_empty() && !found {
                    missing.push(format!("{}: {word}", f.display()));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
