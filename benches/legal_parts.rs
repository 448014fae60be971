//! Listing legal next parts: `Game::legal_parts` in every state of every recorded game (each
//! point where a recorded line's next part is chosen). The figure to read is the mean time
//! per state: the reported time per iteration divided by the number of states (criterion's
//! throughput line gives states per second). Federation searches are remembered by their input
//! and shared along one game; the `cold` run forgets them before every state.
//! Run: `cargo bench --bench legal_parts`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use orrery::content::{Content, DirFiles, OverlaySource};
use orrery::game::Game;
use orrery::notation::{parse_line, Command, MoveLine};
use orrery::record::Record;

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

/// Every state of every record where a part is chosen.
fn states() -> Vec<Game> {
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
        let setup = record.game_setup(&content).expect("setup");
        let mut game = Game::new(content.clone(), setup).expect("game");
        for line in record.moves.iter().skip(1) {
            let Ok(MoveLine::Turn { mut parts, .. }) = parse_line(line) else {
                continue;
            };
            parts.push(Command::EndTurn);
            for part in &parts {
                if *part == Command::EndTurn && game.state.open.is_none() {
                    break;
                }
                out.push(game.clone());
                game.apply_part(part).expect("recorded part applies");
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let states = states();
    let mut group = c.benchmark_group("legal_parts");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function(format!("all {} recorded states", states.len()), |b| {
        b.iter(|| {
            let mut n = 0;
            for g in &states {
                n += std::hint::black_box(g.legal_parts()).len();
            }
            n
        })
    });
    // The same with the remembered federation searches forgotten before every state: the
    // cost when nothing was searched before.
    group.bench_function(format!("all {} recorded states, cold", states.len()), |b| {
        b.iter(|| {
            let mut n = 0;
            for g in &states {
                g.forget_memo();
                n += std::hint::black_box(g.legal_parts()).len();
            }
            n
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
