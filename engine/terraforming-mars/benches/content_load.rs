//! Loading Terraforming Mars content from its folder: the base files alone, and with the
//! example errata overlay stacked on them (reading, parsing with positions, schema checks,
//! decoding and the checks across files).
//! Run: `cargo bench -p orrery-terraforming-mars --bench content_load`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use orrery_core::files::{DirFiles, OverlaySource};
use orrery_core::game_module::GameModule;
use orrery_tm::content;
use orrery_tm::game::Game;

fn bench(c: &mut Criterion) {
    let dir = content::default_dir();
    let errata = dir.join("variants/errata.yaml");
    let overlay = OverlaySource {
        file: errata.display().to_string(),
        text: std::fs::read_to_string(&errata).expect("the example errata"),
        scripts: Vec::new(),
        problem: None,
    };
    let files = DirFiles::new(&dir);
    let mut group = c.benchmark_group("terraforming-mars content");
    group.sample_size(30);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("load base", |b| {
        b.iter(|| content::load_files(&files).expect("content loads"))
    });
    group.bench_function("load base + errata", |b| {
        b.iter(|| <Game as GameModule>::load(&files, std::slice::from_ref(&overlay)).is_ok())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
