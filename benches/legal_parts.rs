//! Listing legal next parts: `Game::legal_parts` in every state of every recorded game (each
//! point where a recorded line's next part is chosen). The figure to read is the mean time
//! per state: the reported time per iteration divided by the number of states (criterion's
//! throughput line gives states per second). Federation searches are remembered by their input
//! and shared along one game; the `cold` run forgets them before every state. The run that
//! lists each state twice in a row, less the first, times listing a state just listed: its
//! memory in cache, its branches and code as the listing before left them, nothing to work
//! out again.
//! Run: `cargo bench --bench legal_parts`.

use std::time::Duration;

mod shared;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use orrery_gp::game::Game;

fn bench(c: &mut Criterion) {
    let content = shared::platform_content();
    let states: Vec<Game> = shared::decision_points(&content, usize::MAX)
        .into_iter()
        .map(|(g, _)| g)
        .collect();
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
    // Each state listed twice in a row: less the first case, the time of a listing of a state
    // just listed (in cache, with its branches and code warm and nothing to work out again).
    group.bench_function(
        format!("all {} recorded states, each listed twice", states.len()),
        |b| {
            b.iter(|| {
                let mut n = 0;
                for g in &states {
                    n += std::hint::black_box(g.legal_parts()).len();
                    n += std::hint::black_box(g.legal_parts()).len();
                }
                n
            })
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
