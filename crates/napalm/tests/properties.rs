//! Napalm over many random games, 2 to 7 players, random and heuristic
//! bots, random tables: chips conserved, cards dealt once, every game ends
//! within its hand limit, the pot never goes to a player who is out (N8),
//! illegal actions change nothing, replay equals the live game, views and
//! events hide cards.

use proptest::prelude::*;
use tripoley_cards::{CardSet, Deck, GameRng, seeded_rng};
use tripoley_napalm::{
    Account, Action, Event, HeuristicNapalmBot, NapalmBot, NapalmGame, NapalmRecord, NapalmRules,
    NapalmStep, Pending, RandomNapalmBot, Reason,
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

/// Who is out, as the events tell it; checks every payment of the pot
/// against it (N8).
#[derive(Default)]
struct OutWatch {
    out: Vec<u8>,
    /// Who went out since the last hand began.
    out_together: Vec<u8>,
    /// The pot's payments, in order.
    pot_paid: Vec<u32>,
}

impl OutWatch {
    fn see(&mut self, events: &[Event], game: &NapalmGame) {
        for e in events {
            match e {
                Event::HandStarted { .. } => self.out_together.clear(),
                Event::PlayerOut { seat, .. } => {
                    self.out.push(*seat);
                    self.out_together.push(*seat);
                }
                Event::Transfer(t) if t.reason == Reason::PotWon => {
                    let Account::Stack(to) = t.to else {
                        panic!("the pot is paid to a player")
                    };
                    let everyone_out = self.out.len() == game.players();
                    assert!(
                        !self.out.contains(&to) || everyone_out && self.out_together.contains(&to),
                        "the pot went to {to}, who is out"
                    );
                    self.pot_paid.push(t.amount);
                }
                Event::GameOver { winners } => self.game_over(winners, game),
                _ => {}
            }
        }
    }

    /// N1, N8: who takes the pot, by the way the game ended.
    fn game_over(&self, winners: &[u8], game: &NapalmGame) {
        let still_in: Vec<u8> = (0..game.players() as u8)
            .filter(|s| !self.out.contains(s))
            .collect();
        let tokens = game.tokens();
        let most = still_in.iter().map(|&s| tokens[usize::from(s)]).max();
        let expected: Vec<u8> = if game.hands_played() == game.rules().max_hands {
            // The hand limit: the most tokens among the players still in.
            still_in
                .iter()
                .copied()
                .filter(|&s| Some(tokens[usize::from(s)]) == most)
                .collect()
        } else if still_in.is_empty() {
            // All out at once: those who went out together share it.
            let mut together = self.out_together.clone();
            together.sort_unstable();
            together
        } else if still_in.len() == 1 {
            still_in
        } else {
            let winner = winners[0];
            assert!(tokens[usize::from(winner)] >= game.rules().tokens_to_win);
            vec![winner]
        };
        assert_eq!(winners, expected);
        // Equal shares, the odd chips to the first paid (T8).
        assert_eq!(self.pot_paid.len(), winners.len());
        let least = self.pot_paid.iter().min().copied().unwrap_or(0);
        assert!(
            self.pot_paid[1..].iter().all(|&p| p == least),
            "{:?}",
            self.pot_paid
        );
        assert!(
            self.pot_paid[0] - least < winners.len() as u32,
            "{:?}",
            self.pot_paid
        );
    }
}

fn play(players: usize, seed: u64, heuristic: bool, rules: NapalmRules) {
    let mut rng: GameRng = seeded_rng(seed);
    let mut all_events = Vec::new();
    let mut game = NapalmGame::start(rules.clone(), players, &mut all_events).unwrap();
    let mut watch = OutWatch::default();
    watch.see(&all_events, &game);
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
        watch.see(&ev, &game);
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
    assert!(game.hands_played() <= game.rules().max_hands);
    let (replayed, events) = record.replay().unwrap();
    assert_eq!(replayed, game);
    assert_eq!(events, all_events);
    let json = serde_json::to_string(&record).unwrap();
    assert_eq!(serde_json::from_str::<NapalmRecord>(&json).unwrap(), record);
}

/// Small tables, so that players run out of chips, tokens are won and the
/// hand limit is reached.
fn small_rules() -> impl Strategy<Value = NapalmRules> {
    (1..=40u32, 1..=4u32, 1..=6u32, 1..=30u32).prop_map(|(chips, ante, tokens, hands)| {
        NapalmRules {
            starting_chips: chips,
            ante: ante.min(chips),
            tokens_to_win: tokens.min(hands * 3),
            max_hands: hands,
            ..NapalmRules::default()
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn n1_n8_random_games_conserve_chips_and_end(
        players in 2..=7usize,
        seed in any::<u64>(),
        heuristic in any::<bool>(),
        rules in small_rules(),
    ) {
        play(players, seed, heuristic, rules);
    }
}
