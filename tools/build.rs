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

/// FNV-1a (64 bits) over each file's path and text, in path order: a check that the files are
/// the ones pinned, not a defence against someone forging content.
fn digest(files: &[(String, PathBuf)]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes.iter().chain([0u8].iter()) {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (rel, path) in files {
        eat(rel.as_bytes());
        eat(&std::fs::read(path).expect("content file readable"));
    }
    format!("{h:016x}")
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
    // The content the project's tests have loaded with every check is pinned by its digest
    // in `known-good-content.txt`; a binary built from other content trusts none of it.
    let digest = digest(&files);
    let pinned_file = manifest.join("known-good-content.txt");
    println!("cargo:rerun-if-changed={}", pinned_file.display());
    let pinned = std::fs::read_to_string(&pinned_file).unwrap_or_default();
    let pinned = pinned
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .to_string();
    writeln!(
        src,
        "/// The digest of the embedded files.\npub const DIGEST: &str = {digest:?};\n\
         /// The digest of the content the tests last loaded with every check.\n\
         pub const PINNED: &str = {pinned:?};"
    )
    .expect("writing to a String cannot fail");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("embedded.rs");
    std::fs::write(out, src).expect("write embedded.rs");
}
