//! Hands of at most seven cards without a flush: one perfect-hash lookup.
//!
//! Without a flush a hand's value depends only on how many cards of each rank
//! it holds. That histogram, written in base 5 (a rank is held 0 to 4 times),
//! is a `u32` key, and it is additive over suits: the key of a hand is the sum
//! of a precomputed key for each suit's 13-bit rank mask. The 73,775 keys of
//! hands of five to seven cards are mapped without collision into a table of
//! 2^17 values by a two-level "hash and displace" perfect hash, built once on
//! first use from the general evaluator. With at most seven cards a flush is
//! always the best hand there is (quads or a full house beside it would need
//! eight cards), so flushes never reach this table.

use std::sync::OnceLock;

use super::Evaluator;

/// `5^r` summed over the ranks `r` of a mask's low seven ranks (`LOW_KEY`)
/// and of its high six (`HIGH_KEY`, ranks 7 and up): a mask's key is one of
/// each added. One table of all 8,192 masks would save an addition a suit,
/// but cost the browser's first load about 10 KB of its download.
static LOW_KEY: [u32; 128] = rank_keys(0);
static HIGH_KEY: [u32; 64] = rank_keys(7);

/// `t[m]` = sum of `5^(first + r)` over the bits `r` of `m`.
const fn rank_keys<const N: usize>(first: u32) -> [u32; N] {
    let mut t = [0u32; N];
    let mut m = 0;
    while m < N {
        let mut r = 0;
        while 1 << r < N {
            if m >> r & 1 == 1 {
                t[m] += 5u32.pow(first + r);
            }
            r += 1;
        }
        m += 1;
    }
    t
}

/// The histogram key of one suit's 13-bit rank mask.
#[inline(always)]
fn suit_key(mask: u32) -> u32 {
    LOW_KEY[mask as usize & 127] + HIGH_KEY[(mask as usize >> 7) & 63]
}

const BUCKET_BITS: u32 = 14;
const SLOT_BITS: u32 = 17;

/// A perfect hash from histogram keys to hand values.
pub(super) struct SmallTable {
    /// Seeds of the two multiplicative hashes (odd numbers).
    seeds: (u32, u32),
    /// Per bucket, the XOR displacement that separates its keys.
    displacement: Vec<u16>,
    /// Hand values by slot.
    values: Vec<u32>,
}

/// The histogram key of a hand given as four suit masks.
#[inline(always)]
pub(super) fn key(s: [u32; 4]) -> u32 {
    suit_key(s[0])
        .wrapping_add(suit_key(s[1]))
        .wrapping_add(suit_key(s[2]))
        .wrapping_add(suit_key(s[3]))
}

impl SmallTable {
    /// The table for `eval`'s rules, built on first use.
    pub(super) fn get(eval: Evaluator) -> &'static SmallTable {
        static TABLES: [OnceLock<SmallTable>; 2] = [OnceLock::new(), OnceLock::new()];
        TABLES[usize::from(eval.ace_always_high)].get_or_init(|| SmallTable::build(eval))
    }

    #[inline(always)]
    fn bucket(seeds: (u32, u32), key: u32) -> usize {
        (key.wrapping_mul(seeds.0) >> (32 - BUCKET_BITS)) as usize
    }

    #[inline(always)]
    fn slot(seeds: (u32, u32), key: u32) -> usize {
        (key.wrapping_mul(seeds.1) >> (32 - SLOT_BITS)) as usize
    }

    /// The value of the non-flush hand with histogram key `key`.
    #[inline(always)]
    pub(super) fn lookup(&self, key: u32) -> u32 {
        let d =
            self.displacement[Self::bucket(self.seeds, key) & ((1 << BUCKET_BITS) - 1)] as usize;
        self.values[(Self::slot(self.seeds, key) ^ d) & ((1 << SLOT_BITS) - 1)]
    }

    fn build(eval: Evaluator) -> SmallTable {
        let entries = histograms(eval);
        // Try seed pairs until every bucket finds a displacement; the first
        // nearly always works.
        let mut seed = 0x9E37_79B9u32;
        loop {
            let seeds = (seed | 1, seed.rotate_left(16).wrapping_mul(0x85EB_CA6B) | 1);
            if let Some(table) = Self::try_build(seeds, &entries) {
                return table;
            }
            seed = seed.wrapping_add(0x6A09_E667);
        }
    }

    fn try_build(seeds: (u32, u32), entries: &[(u32, u32)]) -> Option<SmallTable> {
        let mut buckets: Vec<Vec<(u32, u32)>> = vec![Vec::new(); 1 << BUCKET_BITS];
        for &(k, v) in entries {
            buckets[Self::bucket(seeds, k)].push((k, v));
        }
        let mut order: Vec<usize> = (0..buckets.len()).collect();
        order.sort_by_key(|&b| std::cmp::Reverse(buckets[b].len()));
        let mut displacement = vec![0u16; 1 << BUCKET_BITS];
        let mut values = vec![0u32; 1 << SLOT_BITS];
        let mut used = vec![false; 1 << SLOT_BITS];
        for b in order {
            let keys = &buckets[b];
            if keys.is_empty() {
                break;
            }
            let d = (0..1usize << SLOT_BITS).find(|&d| {
                let mut slots: Vec<usize> = keys
                    .iter()
                    .map(|&(k, _)| Self::slot(seeds, k) ^ d)
                    .collect();
                slots.sort_unstable();
                slots.windows(2).all(|w| w[0] != w[1]) && slots.iter().all(|&s| !used[s])
            })?;
            displacement[b] = d as u16;
            for &(k, v) in keys {
                let s = Self::slot(seeds, k) ^ d;
                used[s] = true;
                values[s] = v;
            }
        }
        Some(SmallTable {
            seeds,
            displacement,
            values,
        })
    }
}

/// Every rank histogram of five to seven cards, with its value: each as a
/// (key, value) pair, the value from the general evaluator on a hand with
/// that histogram and no flush.
fn histograms(eval: Evaluator) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut counts = [0u8; 13];
    fill(eval, &mut counts, 0, 0, &mut out);
    out
}

fn fill(eval: Evaluator, counts: &mut [u8; 13], rank: usize, total: u8, out: &mut Vec<(u32, u32)>) {
    if rank == 13 {
        if total >= 5 {
            // Deal the copies of each rank round the suits: no suit gets five.
            let mut masks = [0u32; 4];
            let mut suit = 0;
            for (r, &n) in counts.iter().enumerate() {
                for _ in 0..n {
                    masks[suit % 4] |= 1 << r;
                    suit += 1;
                }
            }
            let value = eval.general(masks).0;
            out.push((key(masks), value));
        }
        return;
    }
    for n in 0..=4u8.min(7 - total) {
        counts[rank] = n;
        fill(eval, counts, rank + 1, total + n, out);
    }
    counts[rank] = 0;
}
