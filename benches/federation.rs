//! Federation search on real boards: `available_federations` in the state right before every
//! recorded `federation` move (the public engine once needed over 10 s on large boards).
//! Run: `cargo bench --bench federation`.

mod shared;

use criterion::{criterion_group, criterion_main, Criterion};
use orrery_gp::game::Game;
use orrery_gp::record::replay;

/// States (with the seat to move) right before each recorded federation.
fn states() -> Vec<(Game, usize)> {
    let content = shared::platform_content();
    let mut out = Vec::new();
    for record in shared::records() {
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
