//! Federation search on real boards: `available_federations` in the state right before every
//! recorded `federation` move (the public engine once needed over 10 s on large boards).
//! Run: `cargo bench --bench federation`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use orrery::content::{Content, DirFiles, OverlaySource};
use orrery::game::Game;
use orrery::record::{replay, Record};

fn records(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("records").flatten() {
        let p = e.path();
        if p.is_dir() {
            records(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

/// States (with the seat to move) right before each recorded federation.
fn states() -> Vec<(Game, usize)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let variant = root.join("content/variants/boardgamers.yaml");
    let overlay = OverlaySource {
        file: variant.display().to_string(),
        text: std::fs::read_to_string(&variant).expect("variant"),
        scripts: Vec::new(),
    };
    let content = Arc::new(
        Content::load(&DirFiles::new(root.join("content/base")), &[overlay]).expect("content"),
    );
    let mut files = Vec::new();
    records(&root.join("tests/data/conformance"), &mut files);
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&f).expect("read")).expect("json");
        let record = Record::from_json(&json).expect("record");
        for (i, m) in record.moves.iter().enumerate() {
            if m.contains(" federation ") {
                if let Ok(game) = replay(content.clone(), &record, Some(i - 1), false) {
                    let seat = game.next_decision().map(|d| d.seat()).unwrap_or(0);
                    out.push((game, seat));
                }
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let states = states();
    let mut group = c.benchmark_group("federation");
    group.bench_function(
        format!(
            "available_federations over {} recorded states",
            states.len()
        ),
        |b| {
            let mut k = 0;
            b.iter(|| {
                let (game, seat) = &states[k % states.len()];
                k += 1;
                std::hint::black_box(game.available_federations(*seat).len())
            })
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
