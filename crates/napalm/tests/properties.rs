//! Napalm over many random games, 2 to 7 players, random and heuristic
//! bots, random tables: the properties every game keeps (the suite of
//! `tripoley-testkit`: chips conserved, the game ends, illegal actions
//! change nothing, replay equals the live game), and Napalm's own: cards
//! dealt once, every game ends within its hand limit, the pot never goes to
//! a player who is out (N8), views and events hide cards.

use proptest::prelude::*;
use tripoley_cards::CardSet;
use tripoley_game::Bot;
use tripoley_napalm::{
    Account, Action, Event, HeuristicNapalmBot, NapalmGame, NapalmRecord, NapalmRules,
    RandomNapalmBot, Reason,
};
use tripoley_testkit::properties::check_random_game;

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
    let mut start_events = Vec::new();
    let start = NapalmGame::start(rules.clone(), players, &mut start_events).unwrap();
    let mut watch = OutWatch::default();
    watch.see(&start_events, &start);
    let mut bots: Vec<Box<dyn Bot<NapalmGame>>> = (0..players)
        .map(|i| {
            if heuristic && i % 2 == 0 {
                Box::new(HeuristicNapalmBot) as Box<dyn Bot<NapalmGame>>
            } else {
                Box::new(RandomNapalmBot)
            }
        })
        .collect();
    let mut step = 0;
    let played = check_random_game(
        &start,
        seed,
        &[Action::Yes, Action::No, Action::Challenge, Action::Decline],
        1,
        &mut bots,
        |game, events| {
            watch.see(events, game);
            let dealt = game.cards().iter().fold(CardSet::EMPTY, |a, &h| {
                assert!((a & h).is_empty(), "a card in two hands");
                a | h
            });
            assert!(dealt.len() <= 52);
            if step % 5 == 0 {
                check_views(game);
            }
            step += 1;
        },
    );
    let game = played.game;
    assert!(game.is_over(), "the game ends");
    assert!(game.hands_played() <= game.rules().max_hands);
    let mut record = NapalmRecord::new(rules, (0..players).map(|i| format!("P{i}")).collect());
    record.steps = played.steps;
    let (replayed, events) = record.replay().unwrap();
    assert_eq!(replayed, game);
    start_events.extend(played.events);
    assert_eq!(events, start_events);
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
