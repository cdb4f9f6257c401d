//! Self-play throughput: whole `pagat` games between bots of one kind, played
//! without events (as `tripoley bench deals` does), reported as deals per
//! second. No other engine plays Tripoley, so there is no peer to compare
//! with: the figures are tracked against earlier runs of this bench.
//!
//! Run: `cargo bench -p tripoley-bots --bench selfplay`.

use criterion::{BenchmarkId, Criterion, Throughput};
use tripoley_bots::{BotKind, play_game_quietly};
use tripoley_engine::{Preset, Rules};

/// Games per measured iteration: the same seeds every time, so every
/// iteration plays the same deals.
const GAMES: u64 = 64;

fn bench(c: &mut Criterion) {
    let rules = Rules::preset(Preset::Pagat);
    let mut group = c.benchmark_group("selfplay_pagat");
    for players in [4, 9] {
        for kind in [BotKind::Random, BotKind::Heuristic] {
            let mut bots: Vec<_> = (0..players).map(|_| kind.make(&rules)).collect();
            let play_all = |bots: &mut [Box<dyn tripoley_bots::Bot>]| {
                (0..GAMES)
                    .map(|seed| {
                        let game = play_game_quietly(&rules, bots, seed).expect("legal play");
                        u64::from(game.deals_done())
                    })
                    .sum::<u64>()
            };
            let deals = play_all(&mut bots);
            group.throughput(Throughput::Elements(deals));
            group.bench_function(BenchmarkId::new(kind.name(), format!("{players}p")), |b| {
                b.iter(|| play_all(&mut bots));
            });
        }
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
