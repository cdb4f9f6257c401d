//! #4: self-play must not allocate per decision. A whole game played
//! without events allocates nothing at all: the only events that need the
//! heap (the draw for first dealer, the winners) are not built when nobody
//! listens. This test binary replaces the global allocator to count
//! (allocation-counter).

use tripoley_bots::{BotKind, play_game_quietly};
use tripoley_engine::{Preset, Rules};

/// Deals per game: long enough to tell per-deal costs from per-game ones.
const DEALS: u32 = 12;

#[test]
fn self_play_allocates_nothing() {
    for preset in Preset::ALL {
        let mut rules = Rules::preset(preset);
        rules.deals = Some(DEALS);
        for kind in [BotKind::Random, BotKind::Heuristic] {
            let mut bots: Vec<_> = (0..4).map(|_| kind.make(&rules)).collect();
            // The first game builds the tables the evaluator and the bot read.
            play_game_quietly(&rules, &mut bots, 0).expect("legal play");
            for seed in 1..30 {
                let mut deals = 0;
                let counted = allocation_counter::measure(|| {
                    let game = play_game_quietly(&rules, &mut bots, seed).expect("legal play");
                    deals = game.deals_done();
                });
                assert!(deals >= 1, "{preset:?}: the game played deals");
                assert_eq!(
                    counted.count_total,
                    0,
                    "{preset:?}, {} bots, seed {seed}: allocations in a game of {deals} deals",
                    kind.name(),
                );
            }
        }
    }
}
