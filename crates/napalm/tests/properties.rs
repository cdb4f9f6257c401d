//! Napalm over many random games, 2 to 7 players, random and heuristic
//! bots: chips conserved, cards dealt once, every game ends, illegal actions
//! change nothing, replay equals the live game, views and events hide cards.

use proptest::prelude::*;
use tripoley_cards::{CardSet, Deck, GameRng, seeded_rng};
use tripoley_napalm::{
    Action, HeuristicNapalmBot, NapalmBot, NapalmGame, NapalmRecord, NapalmRules, NapalmStep,
    Pending, RandomNapalmBot,
};

fn check_views(g: &NapalmGame) {
    for viewer in (0..g.players() as u8).map(Some).chain([None]) {
        let v = g.view(viewer);
        let json = serde_json::to_string(&v).unwrap();
        for (h, &hand) in g.cards().iter().enumerate() {
            if Some(h as u8) == viewer {
                assert_eq!(v.cards, hand);
                continue;
            }
            for c in hand - v.seen[h] {
                assert!(
                    !json.contains(&format!("\"{c}\"")),
                    "{c} leaks to {viewer:?}"
                );
            }
        }
    }
}

fn play(players: usize, seed: u64, heuristic: bool) {
    let rules = NapalmRules {
        tokens_to_win: 3,
        max_hands: 30,
        starting_chips: 30,
        ..NapalmRules::default()
    };
    let mut rng: GameRng = seeded_rng(seed);
    let mut all_events = Vec::new();
    let mut game = NapalmGame::start(rules.clone(), players, &mut all_events).unwrap();
    let mut record = NapalmRecord::new(rules, (0..players).map(|i| format!("P{i}")).collect());
    let mut bots: Vec<Box<dyn NapalmBot>> = (0..players)
        .map(|i| {
            if heuristic && i % 2 == 0 {
                Box::new(HeuristicNapalmBot) as Box<dyn NapalmBot>
            } else {
                Box::new(RandomNapalmBot)
            }
        })
        .collect();
    for step in 0..10_000 {
        let s = match game.pending() {
            Pending::GameOver => break,
            Pending::Deck => NapalmStep::Deck(Deck::shuffled(&mut rng)),
            Pending::Decide { seat, .. } => {
                let view = game.view(Some(seat));
                let action = bots[usize::from(seat)].act(&view, &mut rng);
                // An answer to another decision, or out of turn, changes nothing.
                let before = game.clone();
                let wrong = if matches!(action, Action::Yes | Action::No) {
                    Action::Challenge
                } else {
                    Action::Yes
                };
                assert!(game.apply(seat, wrong).is_err());
                assert!(game.apply((seat + 1) % players as u8, action).is_err());
                assert_eq!(game, before);
                NapalmStep::Act { seat, action }
            }
        };
        let ev = match &s {
            NapalmStep::Deck(d) => game.deal(d),
            NapalmStep::Act { seat, action } => game.apply(*seat, *action),
        }
        .expect("a legal step");
        all_events.extend(ev);
        record.steps.push(s);
        assert_eq!(game.chips_in_play(), game.total_chips(), "chips conserved");
        let dealt = game.cards().iter().fold(CardSet::EMPTY, |a, &h| {
            assert!((a & h).is_empty(), "a card in two hands");
            a | h
        });
        assert!(dealt.len() <= 52);
        if step % 5 == 0 {
            check_views(&game);
        }
    }
    assert!(game.is_over(), "the game ends");
    let (replayed, events) = record.replay().unwrap();
    assert_eq!(replayed, game);
    assert_eq!(events, all_events);
    let json = serde_json::to_string(&record).unwrap();
    assert_eq!(serde_json::from_str::<NapalmRecord>(&json).unwrap(), record);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]
    #[test]
    fn n1_n6_random_games_conserve_chips_and_end(players in 2..=7usize, seed in any::<u64>(), heuristic in any::<bool>()) {
        play(players, seed, heuristic);
    }
}
