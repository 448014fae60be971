//! A random 2-player game of Terraforming Mars from deal to final score, through the bots'
//! interface (listing and playing every part), and a random 4-player game; plus listing the
//! legal inputs once. The target: a 2-player game in 2 ms or less (median).
//! Run: `cargo bench -p orrery-terraforming-mars --bench random_game`.

use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use orrery_core::bot::RandomBot;
use orrery_tm::content::{self, Content};
use orrery_tm::game::Game;

fn content() -> Arc<Content> {
    Arc::new(content::load(&content::default_dir()).expect("content loads"))
}

fn play(content: &Arc<Content>, players: usize, seed: u64) -> usize {
    let mut g = Game::random(content.clone(), players, seed).expect("deal");
    let mut bot = RandomBot::new(seed, 0);
    bot.play_out(&mut g, 1_000_000).expect("the game finishes")
}

fn bench(c: &mut Criterion) {
    let content = content();
    let mut group = c.benchmark_group("terraforming-mars");
    group.sample_size(50);
    group.measurement_time(Duration::from_secs(10));
    for players in [2, 4] {
        let mut seed = 0;
        group.bench_function(format!("random {players}-player game"), |b| {
            b.iter(|| {
                seed += 1;
                std::hint::black_box(play(&content, players, seed))
            })
        });
    }
    let g = Game::random(content.clone(), 2, 7).expect("deal");
    group.bench_function("list the legal parts of a new game", |b| {
        b.iter(|| std::hint::black_box(g.legal_parts().len()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
