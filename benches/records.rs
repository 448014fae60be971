//! Recorded games: reading every record from its text (the duplicate-key check and the typed
//! decoding) and replaying every record with its snapshots checked, the criterion
//! counterpart of `orrery bench`'s replay figure.
//! Run: `cargo bench --bench records`.

use std::time::Duration;

mod shared;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use orrery_gp::record::{replay, Record};

fn bench(c: &mut Criterion) {
    let content = shared::platform_content();
    let texts = shared::record_texts();
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
