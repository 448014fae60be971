//! Embeds a copy of `content/` in the binary so an installed `orrery` works anywhere.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, rel: &str, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let r = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        let p = e.path();
        if p.is_dir() {
            walk(&p, &r, out);
        } else if name.ends_with(".yaml") || name.ends_with(".yml") || name.ends_with(".rhai") {
            out.push((r, p));
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let content = manifest.join("..").join("content");
    println!("cargo:rerun-if-changed={}", content.display());
    let mut files = Vec::new();
    walk(&content, "", &mut files);
    files.sort();
    let mut src = String::from("/// Content files embedded at build time: (path under content/, text).\npub static FILES: &[(&str, &str)] = &[\n");
    for (rel, path) in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let abs = path.canonicalize().expect("file exists");
        writeln!(
            src,
            "    ({rel:?}, include_str!({:?})),",
            abs.display().to_string()
        )
        .expect("writing to a String cannot fail");
    }
    src.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("embedded.rs");
    std::fs::write(out, src).expect("write embedded.rs");
}
