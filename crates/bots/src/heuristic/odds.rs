//! Precomputed poker odds: how a hand's best five ranks among random hands of
//! the same size, so betting needs a table lookup, not a simulation.

use std::sync::OnceLock;

use tripoley_cards::{CardSet, Evaluator, seeded_rng};

/// Hand sizes the tables cover (a Tripoley hand has 5 to 26 cards).
const MIN_CARDS: usize = 5;
const MAX_CARDS: usize = 26;
/// Random hands sampled per size when the tables are built.
const SAMPLES: usize = 40_000;

/// For each hand size, the distribution of the best hand's ordinal.
pub(crate) struct OddsTable {
    eval: Evaluator,
    /// `cdf[size][k]`: the share of random hands of `size` cards whose best
    /// five have an ordinal below `k` (1-based ordinals, 7,462 values).
    cdf: Vec<Vec<f32>>,
}

impl OddsTable {
    /// The table for `eval`'s rules, built on first use (deterministic).
    pub(crate) fn get(eval: Evaluator) -> &'static OddsTable {
        static TABLES: [OnceLock<OddsTable>; 2] = [OnceLock::new(), OnceLock::new()];
        TABLES[usize::from(eval.ace_always_high)].get_or_init(|| OddsTable::build(eval))
    }

    fn build(eval: Evaluator) -> OddsTable {
        let mut rng = seeded_rng(0x0DD5);
        let values = eval.all_values().len();
        let cdf = (0..=MAX_CARDS)
            .map(|size| {
                if size < MIN_CARDS {
                    return Vec::new();
                }
                let mut counts = vec![0u32; values + 2];
                for _ in 0..SAMPLES {
                    let hand = CardSet::random(&mut rng, size);
                    counts[eval.ordinal(eval.best(hand)) as usize] += 1;
                }
                let mut acc = 0u32;
                counts
                    .iter()
                    .map(|&c| {
                        let below = acc as f32 / SAMPLES as f32;
                        acc += c;
                        below
                    })
                    .collect()
            })
            .collect();
        OddsTable { eval, cdf }
    }

    /// The chance that `hand` beats every opponent, each holding a random
    /// hand of the given size (independence assumed). The hand is evaluated
    /// once, whatever the number of opponents.
    pub(crate) fn win_chance(
        &self,
        hand: CardSet,
        opponent_sizes: impl Iterator<Item = u32>,
    ) -> f32 {
        self.win_chance_against(hand, opponent_sizes.map(|size| (size, 0.0)))
    }

    /// [`OddsTable::win_chance`] against opponents whose hands are known to
    /// be among the best of their size: each `(size, floor)` holds a random
    /// hand that beats at least the share `floor` of random hands (what a
    /// bet says). Beating such a hand is beating one drawn from the top
    /// `1 - floor` of the distribution.
    pub(crate) fn win_chance_against(
        &self,
        hand: CardSet,
        opponents: impl Iterator<Item = (u32, f32)>,
    ) -> f32 {
        let ordinal = self.eval.ordinal(self.eval.best(hand)) as usize;
        opponents
            .map(|(size, floor)| {
                let below = self.cdf[(size as usize).clamp(MIN_CARDS, MAX_CARDS)][ordinal];
                if floor <= 0.0 {
                    below
                } else {
                    ((below - floor) / (1.0 - floor)).max(0.0)
                }
            })
            .product()
    }

    /// The chance that a random hand of `size` cards is beaten by `hand`'s best five.
    #[cfg(test)]
    fn beats(&self, hand: CardSet, size: u32) -> f32 {
        self.win_chance(hand, std::iter::once(size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stronger_hands_win_more_often() {
        let t = OddsTable::get(Evaluator::STANDARD);
        let royal: CardSet = "10H JH QH KH AH".parse().unwrap();
        let junk: CardSet = "2C 4D 6H 8S 9C".parse().unwrap();
        assert!(t.beats(royal, 5) > 0.99);
        assert!(t.beats(junk, 5) < 0.2);
        // Against bigger hands the same five are worth less.
        let pair: CardSet = "AC AD 4H 6S 8C".parse().unwrap();
        assert!(t.beats(pair, 5) > t.beats(pair, 13));
        assert!(t.win_chance(pair, [5, 5].into_iter()) < t.beats(pair, 5));
    }
}
