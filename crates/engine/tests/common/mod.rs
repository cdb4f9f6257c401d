//! Helpers shared by the engine's integration tests.
#![allow(dead_code)]

use rand_core::Rng;
use tripoley_cards::{CardSet, GameRng, seeded_rng};
use tripoley_engine::{Action, DealChance, Decision, Event, Game, Pending, Record, Rules, Step};

/// A uniformly random answer to `decision`, built from its shape.
pub fn random_action(decision: &Decision, rng: &mut GameRng) -> Action {
    let below = |rng: &mut GameRng, n: u32| (u64::from(rng.next_u32()) * u64::from(n) >> 32) as u32;
    match *decision {
        Decision::ChooseFive { from } => {
            let mut cards = from.to_vec();
            let mut five = CardSet::EMPTY;
            for _ in 0..5 {
                let i = below(rng, cards.len() as u32) as usize;
                five.insert(cards.swap_remove(i));
            }
            Action::Show(five)
        }
        _ => {
            let all = decision.actions();
            all[below(rng, all.len() as u32) as usize]
        }
    }
}

/// Plays a whole game with random legal actions, calling `check` after every
/// step; returns the record, the game and every event.
pub fn play_random(
    rules: &Rules,
    players: usize,
    seed: u64,
    mut check: impl FnMut(&Game, &[Event]),
) -> (Record, Game, Vec<Event>) {
    let mut rng = seeded_rng(seed);
    let mut record = Record::new(
        rules.clone(),
        (0..players).map(|i| format!("P{i}")).collect(),
    );
    let mut events = Vec::new();
    let mut game = Game::start(rules.clone(), players, &mut events).expect("valid table");
    check(&game, &events);
    for _ in 0..100_000 {
        let step = match game.pending() {
            Pending::GameOver => return (record, game, events),
            Pending::Chance(_) => Step::Chance(DealChance::random(rules, &mut rng)),
            Pending::Decide { seat, decision } => Step::Act {
                seat,
                action: random_action(&decision, &mut rng),
            },
        };
        let before = events.len();
        game.step(&step, &mut events).expect("a legal step applies");
        record.steps.push(step);
        check(&game, &events[before..]);
    }
    panic!("the game did not end within 100,000 steps");
}
