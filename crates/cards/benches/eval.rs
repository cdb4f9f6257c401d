//! Poker evaluation throughput on pre-generated random hands, side by side
//! with `rs_poker` 5.0's perfect-hash 7-card evaluator on the same 7-card
//! hands. After criterion's report, prints our throughput as a ratio of
//! `rs_poker`'s.
//!
//! Run: `cargo bench -p tripoley-cards --bench eval`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, Throughput};
use rs_poker::core::{Card as RsCard, Rankable, SevenCardAccum, Suit as RsSuit, Value as RsValue};
use tripoley_cards::{CardSet, Evaluator, seeded_rng};

/// Hands per size: large enough that branch predictors cannot learn them.
const HANDS: usize = 1 << 16;
const SIZES: [usize; 5] = [5, 7, 13, 18, 26];

fn hands(cards: usize) -> Vec<CardSet> {
    let mut rng = seeded_rng(cards as u64);
    (0..HANDS)
        .map(|_| CardSet::random(&mut rng, cards))
        .collect()
}

fn to_rs_poker(hand: CardSet) -> [RsCard; 7] {
    let cards: Vec<RsCard> = hand
        .iter()
        .map(|c| {
            RsCard::new(
                RsValue::from_u8(c.rank().index()),
                RsSuit::from_u8(c.suit().index()),
            )
        })
        .collect();
    cards.try_into().expect("seven cards")
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(HANDS as u64));
    for size in SIZES {
        let data = hands(size);
        group.bench_with_input(BenchmarkId::new("tripoley", size), &data, |b, data| {
            b.iter(|| {
                let eval = Evaluator::STANDARD;
                data.iter().fold(0u32, |acc, &h| {
                    acc.wrapping_add(eval.best(black_box(h)).value())
                })
            });
        });
        if size == 7 {
            let rs: Vec<[RsCard; 7]> = data.iter().map(|&h| to_rs_poker(h)).collect();
            group.bench_with_input(BenchmarkId::new("rs_poker", size), &rs, |b, data| {
                b.iter(|| {
                    data.iter().fold(0u32, |acc, h| {
                        acc.wrapping_add(u32::from(black_box(&h[..]).rank().value_bits()))
                    })
                });
            });
            // The same perfect-hash lookup with each hand's key folded in
            // advance: the evaluator's ceiling, not a path a caller with
            // cards in hand can take.
            let accs: Vec<SevenCardAccum> = rs
                .iter()
                .map(|h| h.iter().fold(SevenCardAccum::new(), |a, &c| a + c))
                .collect();
            group.bench_with_input(
                BenchmarkId::new("rs_poker_prefolded", size),
                &accs,
                |b, data| {
                    b.iter(|| {
                        data.iter().fold(0u32, |acc, a| {
                            acc.wrapping_add(u32::from(black_box(a).rank().value_bits()))
                        })
                    });
                },
            );
        }
    }
    group.finish();
}

/// Mean time per iteration criterion measured for `eval/{name}/{size}`.
fn mean_ns(name: &str, size: usize) -> Option<f64> {
    let dir = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        PathBuf::from,
    );
    let path = dir.join(format!("criterion/eval/{name}/{size}/new/estimates.json"));
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["mean"]["point_estimate"].as_f64()
}

fn print_ratios() {
    let Some(peer) = mean_ns("rs_poker", 7) else {
        return;
    };
    let peer_rate = HANDS as f64 / peer * 1e9;
    println!("\nthroughput, millions of hands/s (ratio to rs_poker 5.0.0 on 7 cards):");
    println!("  rs_poker   7 cards: {:7.1}", peer_rate / 1e6);
    if let Some(ns) = mean_ns("rs_poker_prefolded", 7) {
        println!(
            "  rs_poker   7 cards, keys folded in advance: {:7.1}",
            HANDS as f64 / ns * 1e9 / 1e6
        );
    }
    for size in SIZES {
        if let Some(ns) = mean_ns("tripoley", size) {
            let rate = HANDS as f64 / ns * 1e9;
            println!(
                "  tripoley {size:>2} cards: {:7.1}  ({:.2}x)",
                rate / 1e6,
                rate / peer_rate
            );
        }
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
    print_ratios();
}
