//! Playing through the small game interface: cloning a state and applying one part in every
//! recorded state, the features the `best` bot values every seat of every recorded state by,
//! complete random four-player games, and a game between `greedy` bots; plus loading the
//! content. `orrery bench` summarises the same figures quickly (the features aside).
//! Run: `cargo bench --bench play`.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

mod shared;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use orrery_core::bot::{self, RandomBot};
use orrery_core::play_api::{Evaluate, Playable};
use orrery_core::rng::Rng;
use orrery_gp::content::{Content, DirFiles};
use orrery_gp::game::{Game, Setup};
use orrery_gp::notation::Command;

/// A random game of `players` seats from a seed, factions chosen, ready to play.
fn new_game(content: &Arc<Content>, players: usize, seed: u64) -> Game {
    let mut rng = Rng::new(seed);
    let setup = Setup::random(content, players, &mut rng).expect("setup");
    let mut game = Game::new(content.clone(), setup).expect("game");
    for _ in 0..players {
        let legal = game.legal();
        game.play(&legal[rng.below(legal.len())]).expect("faction");
        game.play(&Command::EndTurn).expect("chosen");
    }
    game
}

fn bench(c: &mut Criterion) {
    let content = shared::platform_content();
    let states = shared::decision_points(&content, usize::MAX);
    let mut group = c.benchmark_group("play");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function(format!("clone all {} recorded states", states.len()), |b| {
        b.iter(|| {
            for (g, _) in &states {
                std::hint::black_box(g.clone());
            }
        })
    });
    group.bench_function(
        format!("clone and apply one part in all {} states", states.len()),
        |b| {
            b.iter(|| {
                for (g, p) in &states {
                    let mut g = g.clone();
                    std::hint::black_box(g.apply_part(p).is_ok());
                }
            })
        },
    );
    // What `best` reads of a position for each seat (its learned evaluation's features);
    // a study spends most of its time here.
    let seats: usize = states.iter().map(|(g, _)| g.state.players.len()).sum();
    group.throughput(Throughput::Elements(seats as u64));
    group.bench_function(
        format!("features of every seat in all {} states", states.len()),
        |b| {
            b.iter(|| {
                for (g, _) in &states {
                    for seat in 0..g.state.players.len() {
                        std::hint::black_box(g.value_and_features(seat));
                    }
                }
            })
        },
    );
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("random 4-player game", |b| {
        b.iter(|| {
            seed += 1;
            let mut game = new_game(&content, 4, seed);
            RandomBot::new(seed, bot::MAX_FREE)
                .play_out(&mut game, 50_000)
                .expect("ends")
        })
    });
    group.bench_function("greedy 2-player game", |b| {
        b.iter(|| {
            seed += 1;
            let mut game = new_game(&content, 2, seed);
            let mut bots: Vec<_> = (0..2)
                .map(|s| bot::by_name::<Game>("greedy", seed + s).expect("bot"))
                .collect();
            bot::play_game(&mut game, &mut bots, 50_000, |_, _, _| {}).expect("ends")
        })
    });
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    group.bench_function("load and validate the base content", |b| {
        b.iter(|| Content::load(&DirFiles::new(root.join("content/base")), &[]).expect("loads"))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
