//! Recorded games: reading every record from its text (the duplicate-key check and the typed
//! decoding) and replaying every record with its snapshots checked, the criterion
//! counterpart of `orrery bench`'s replay figure.
//! Run: `cargo bench --bench records`.

use std::path::{Path, PathBuf};
use std::time::Duration;

mod shared;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use orrery_gp::record::{replay, Record};

fn texts() -> Vec<String> {
    fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("records").flatten() {
            let p = e.path();
            if p.is_dir() {
                collect(&p, out);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    collect(&root.join("tests/data/conformance"), &mut files);
    files.sort();
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("read"))
        .collect()
}

fn bench(c: &mut Criterion) {
    let content = shared::platform_content();
    let texts = texts();
    let records: Vec<Record> = texts
        .iter()
        .map(|t| Record::from_json_text(t).expect("record"))
        .collect();
    let mut group = c.benchmark_group("records");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(records.len() as u64));
    group.bench_function(format!("read all {} records", texts.len()), |b| {
        b.iter(|| {
            for t in &texts {
                std::hint::black_box(Record::from_json_text(t).expect("record"));
            }
        })
    });
    group.bench_function(
        format!("replay all {} records, snapshots checked", records.len()),
        |b| {
            b.iter(|| {
                records
                    .iter()
                    .filter(|r| replay(content.clone(), r, None, true).is_err())
                    .count()
            })
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
