//! The end of the game (RULES.md E1-E3): how many deals a game has, what
//! becomes of the chips left on the layout, and who wins. Deals are built
//! from explicit decks naming all 52 cards; the final pots from explicit
//! fresh decks.

mod common;

use common::{
    BLOCKED, PLAYED_EARLIER, STD, act, cards, choose_and_check, deal_owners, michigan_rules, space,
    stack, table, tr, transfers, turn,
};
use tripoley_cards::{Card, CardSet, Deck, seeded_rng};
use tripoley_engine::{
    Account, Action, ChanceKind, DealChance, Decision, Event, Game, Pending, Preset, Reason, Rules,
    Space, Standing, Transfer,
};
use tripoley_testkit::play_random;

// ----- helpers -----

/// Leads `card` for whoever must lead; returns the events.
fn lead(game: &mut Game, card: &str) -> Vec<Event> {
    let (seat, decision) = turn(game);
    assert!(matches!(decision, Decision::Lead { .. }), "{decision:?}");
    act(game, seat, Action::Lead(card.parse().expect("a card")))
}

/// Plays on with a fixed simple policy (first answer; the first five cards
/// for a poker hand; random decks from `seed`) until the game is over.
fn autoplay(game: &mut Game, seed: u64) -> Vec<Event> {
    let mut rng = seeded_rng(seed);
    let rules = game.rules().clone();
    let mut ev = Vec::new();
    loop {
        match game.pending() {
            Pending::GameOver => return ev,
            Pending::Chance(_) => ev.extend(
                game.chance(DealChance::random(&rules, &mut rng))
                    .expect("chance"),
            ),
            Pending::Decide { seat, decision } => {
                let action = match decision {
                    Decision::ChooseFive { from } => Action::Choose(from.iter().take(5).collect()),
                    d => d.actions()[0],
                };
                ev.extend(act(game, seat, action));
            }
        }
    }
}

/// A fresh deck for a final pot giving each seat the five cards named for
/// it (E2): the round is dealt by the next player in the game left of the
/// previous dealer, one card at a time from that dealer's left; the rest of
/// the deck follows.
fn final_deck(game: &Game, fives: &[&str]) -> DealChance {
    let n = game.players();
    let next_in_game = |from: usize| {
        (1..=n)
            .map(|i| (from + i) % n)
            .find(|&s| !game.is_out(s as u8))
            .expect("players in the game")
    };
    let dealer = next_in_game(usize::from(game.dealer()));
    let mut order = vec![next_in_game(dealer)];
    while order.len() < n && next_in_game(order[order.len() - 1]) != order[0] {
        order.push(next_in_game(order[order.len() - 1]));
    }
    let hands: Vec<Vec<Card>> = order.iter().map(|&s| cards(fives[s]).to_vec()).collect();
    let mut deck: Vec<Card> = (0..5)
        .flat_map(|j| hands.iter().map(move |h| h[j]))
        .collect();
    let used: CardSet = deck.iter().copied().collect();
    deck.extend(CardSet::FULL - used);
    DealChance::deck(Deck::from_cards(&deck).expect("52 cards"))
}

/// Supplies a final-pot deck and checks each seat got the five named for it.
fn final_round(game: &mut Game, fives: &[&str]) -> Vec<Event> {
    assert_eq!(game.pending(), Pending::Chance(ChanceKind::FinalPot));
    let ev = game
        .chance(final_deck(game, fives))
        .expect("a final-pot deck");
    for e in &ev {
        if let Event::FaceUp { seat, cards: five } | Event::Dealt { seat, cards: five } = e {
            assert_eq!(
                *five,
                cards(fives[usize::from(*seat)]),
                "seat {seat}'s five"
            );
        }
    }
    ev
}

/// Chips each seat received from the Pot as final-pot winnings.
fn final_winnings(events: &[Event], players: usize) -> Vec<u32> {
    let mut won = vec![0; players];
    for t in transfers(events) {
        if let (Account::Space(Space::Pot), Account::Stack(s), Reason::FinalPot) =
            (t.from, t.to, t.reason)
        {
            won[usize::from(s)] += t.amount;
        }
    }
    won
}

fn game_over_winners(events: &[Event]) -> Vec<u8> {
    events
        .iter()
        .find_map(|e| match e {
            Event::GameOver { winners } => Some(winners.clone()),
            _ => None,
        })
        .expect("the game is over")
}

fn standing(seat: u8, chips: u32, winner: bool) -> Standing {
    Standing {
        seat,
        chips,
        winner,
    }
}

// ----- deals: owners of 2..A in clubs, diamonds, hearts, spades -----

/// Three leads, then blocked: seats 0 and 1 hold two clubs, seat 2 three.
/// No pay card and no Sequence is collected.
const BLOCKED_TIE: [&str; 4] = [
    "012.0011222..",
    "0000221222111",
    "1110002......",
    "222110010....",
];

/// Plays the one deal of a `tripoley` game on `STD` (dealer 0): seats 0 and
/// 1 split the poker pot (the odd chip stays), seat 0 goes out. The layout
/// keeps 7 chips (King-Queen 3, Sequence 3, Pot 1).
fn tripoley_to_final_pot(rounds: u32) -> Game {
    let mut rules = Rules::preset(Preset::Tripoley);
    rules.deals = Some(1);
    rules.final_pot_rounds = rounds;
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, STD);
    choose_and_check(
        &mut game,
        &["2C 5C 8C JC AC", "2D 5D 8D JD AD", "2H 5H 8H JH 4C"],
    );
    // 2C (forced, the lowest card) ran to AC; seat 0 picks hearts.
    let ev = lead(&mut game, "3H");
    assert!(ev.contains(&Event::WentOut { seat: 0 }));
    assert!(ev.contains(&Event::DealEnded { number: 1 }));
    assert_eq!(game.stacks(), &[101, 96, 96]);
    // E2: the whole layout is gathered for the final pot.
    let gathered: Vec<Transfer> = transfers(&ev)
        .into_iter()
        .filter(|t| t.reason == Reason::FinalPotGathered)
        .collect();
    assert_eq!(
        gathered,
        vec![
            tr(
                space(Space::KingQueen),
                space(Space::Pot),
                3,
                Reason::FinalPotGathered
            ),
            tr(
                space(Space::Sequence),
                space(Space::Pot),
                3,
                Reason::FinalPotGathered
            ),
        ]
    );
    assert_eq!(game.layout().get(Space::Pot), 7);
    assert_eq!(game.layout().total(), 7);
    game
}

/// Five-card hands for final pots.
const PAIR_OF_ACES: &str = "AS AD 3C 7H 9S";
const QUEEN_HIGH: &str = "QS JD 8C 6H 3D";
const KING_HIGH: &str = "KC 10D 7S 5H 2C";

// ----- E1 -----

#[test]
fn e1_a_game_has_one_deal_per_starting_player_by_default() {
    for players in [3usize, 4] {
        let mut rules = michigan_rules();
        rules.deals = None;
        let mut game = table(rules, players, 0);
        assert_eq!(game.deals_total(), players as u32);
        let ev = autoplay(&mut game, 7);
        let started: Vec<(u32, u8)> = ev
            .iter()
            .filter_map(|e| match e {
                Event::DealStarted { number, dealer, .. } => Some((*number, *dealer)),
                _ => None,
            })
            .collect();
        // The deal passes to the left after each deal (T3).
        let expected: Vec<(u32, u8)> = (0..players as u8).map(|d| (u32::from(d) + 1, d)).collect();
        assert_eq!(started, expected);
        assert_eq!(game.deals_done(), players as u32);
        assert_eq!(game.pending(), Pending::GameOver);
        assert!(matches!(ev.last(), Some(Event::GameOver { .. })));
        assert!(!ev.iter().any(|e| matches!(e, Event::PlayerOut { .. })));
    }
}

#[test]
fn e1_the_deals_option_sets_the_length_of_the_game() {
    let mut rules = michigan_rules();
    rules.deals = Some(2);
    let mut game = table(rules, 4, 0);
    let ev = autoplay(&mut game, 3);
    let ended = ev
        .iter()
        .filter(|e| matches!(e, Event::DealEnded { .. }))
        .count();
    assert_eq!(ended, 2);
    assert_eq!(game.deals_done(), 2);
    assert!(game.standings().is_some());
}

#[test]
fn e1_the_game_ends_when_fewer_than_two_players_can_ante() {
    let mut rules = michigan_rules();
    rules.deals = None;
    rules.starting_chips = 9;
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, PLAYED_EARLIER);
    assert_eq!(game.stacks(), &[1, 1, 1]);
    lead(&mut game, "7C");
    lead(&mut game, "2D");
    let ev = lead(&mut game, "2C");
    // Seat 1 went out: the Kitty, the Sequence it played, one chip from each.
    assert!(ev.contains(&Event::WentOut { seat: 1 }));
    assert_eq!(game.stacks(), &[0, 9, 0]);
    // The second deal cannot start: seats 0 and 2 cannot ante eight chips.
    let after: Vec<&Event> = ev
        .iter()
        .skip_while(|e| !matches!(e, Event::DealEnded { .. }))
        .collect();
    assert_eq!(
        after,
        vec![
            &Event::DealEnded { number: 1 },
            &Event::PlayerOut { seat: 0, chips: 0 },
            &Event::PlayerOut { seat: 2, chips: 0 },
            &Event::GameOver { winners: vec![1] },
        ]
    );
    assert_eq!(game.deals_done(), 1);
    assert_eq!(game.deals_total(), 3);
}

// ----- E2 -----

#[test]
fn e2_showdown_poker_best_face_up_hand_takes_the_layout() {
    let mut game = tripoley_to_final_pot(1);
    let ev = final_round(&mut game, &[QUEEN_HIGH, PAIR_OF_ACES, KING_HIGH]);
    assert!(ev.contains(&Event::FinalPotRound { round: 1, chips: 7 }));
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::FaceUp { .. }))
            .count(),
        3
    );
    // No betting, no antes.
    assert!(!ev.iter().any(|e| matches!(
        e,
        Event::Checked { .. } | Event::Bet { .. } | Event::Called { .. } | Event::Folded { .. }
    )));
    assert_eq!(
        transfers(&ev),
        vec![tr(space(Space::Pot), stack(1), 7, Reason::FinalPot)]
    );
    assert_eq!(game.stacks(), &[101, 103, 96]);
    assert_eq!(game.layout().total(), 0);
    assert_eq!(game_over_winners(&ev), vec![1]);
}

#[test]

fn e2_final_pot_tie_remainder_to_first_tied_player_left_of_last_dealer() {
    let mut game = tripoley_to_final_pot(1);
    // Seats 0 and 1 hold A-K-Q-J-9 high in different suits; seat 2 an
    // eight high. The last deal was dealt by seat 0: from its left the
    // first tied player is seat 1, who takes the odd chip.
    let ev = final_round(
        &mut game,
        &["AC KD QH JS 9C", "AD KS QC JH 9D", "2S 3H 5D 7C 8S"],
    );
    assert_eq!(final_winnings(&ev, 3), vec![3, 4, 0]);
    assert_eq!(game.stacks(), &[104, 100, 96]);
    assert_eq!(game_over_winners(&ev), vec![0]);
}

#[test]
fn e2_final_pot_tie_splits_equally() {
    let mut game = tripoley_to_final_pot(1);
    let ev = final_round(
        &mut game,
        &["AC KD QH JS 9C", "AD KS QC JH 9D", "2S 3H 5D 7C 8S"],
    );
    // 7 chips between two equal hands: 3 each, the odd chip to one of them.
    let won = final_winnings(&ev, 3);
    assert_eq!(won[2], 0);
    assert_eq!(won[0] + won[1], 7);
    assert!(won[0].min(won[1]) == 3, "{won:?}");
    assert_eq!(game.layout().total(), 0);
}

#[test]
fn e2_final_pot_rounds_divide_the_layout_remainder_to_the_last() {
    let mut game = tripoley_to_final_pot(2);
    let first = final_round(&mut game, &[QUEEN_HIGH, KING_HIGH, PAIR_OF_ACES]);
    assert!(first.contains(&Event::FinalPotRound { round: 1, chips: 3 }));
    assert_eq!(
        transfers(&first),
        vec![tr(space(Space::Pot), stack(2), 3, Reason::FinalPot)]
    );
    assert_eq!(game.layout().get(Space::Pot), 4);
    let second = final_round(&mut game, &[QUEEN_HIGH, PAIR_OF_ACES, KING_HIGH]);
    assert!(second.contains(&Event::FinalPotRound { round: 2, chips: 4 }));
    assert_eq!(
        transfers(&second),
        vec![tr(space(Space::Pot), stack(1), 4, Reason::FinalPot)]
    );
    assert_eq!(game.stacks(), &[101, 100, 99]);
    assert_eq!(game_over_winners(&second), vec![0]);
}

#[test]
fn e2_three_final_pots_of_two_two_and_three() {
    let mut game = tripoley_to_final_pot(3);
    let mut won = vec![0; 3];
    for (round, winner) in [(1u32, 0usize), (2, 1), (3, 2)] {
        let mut fives = [QUEEN_HIGH, KING_HIGH, KING_HIGH];
        fives[(winner + 1) % 3] = QUEEN_HIGH;
        fives[(winner + 2) % 3] = KING_HIGH;
        fives[winner] = PAIR_OF_ACES;
        let ev = final_round(&mut game, &fives);
        // E2: the last deal's dealer was seat 0; each round is dealt by the
        // next player on the left, one card at a time from their left.
        let dealer = round as u8 % 3;
        assert_eq!(game.dealer(), dealer, "round {round}'s dealer");
        let first_face_up = ev.iter().find_map(|e| match e {
            Event::FaceUp { seat, .. } => Some(*seat),
            _ => None,
        });
        assert_eq!(first_face_up, Some((dealer + 1) % 3));
        let chips = if round == 3 { 3 } else { 2 };
        assert!(ev.contains(&Event::FinalPotRound { round, chips }));
        for (w, got) in won.iter_mut().zip(final_winnings(&ev, 3)) {
            *w += got;
        }
    }
    assert_eq!(won, vec![2, 2, 3]);
    assert_eq!(game.pending(), Pending::GameOver);
    assert_eq!(game.stacks(), &[103, 98, 99]);
}

#[test]
fn e2_extra_poker_five_cards_each_betting_winner_takes_the_layout() {
    let mut rules = Rules::preset(Preset::Pagat);
    rules.deals = Some(1);
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, STD);
    act(&mut game, 0, Action::Keep);
    choose_and_check(
        &mut game,
        &["2C 5C 8C JC 4D", "2D 5D 8D JD 3C", "2H 5H 8H JH AH"],
    );
    // Seat 2 won the poker and leads hearts, then diamonds; it goes out.
    lead(&mut game, "2H");
    let ev = lead(&mut game, "3D");
    assert!(ev.contains(&Event::WentOut { seat: 2 }));
    assert_eq!(game.stacks(), &[92, 96, 106]);
    assert_eq!(game.layout().total(), 6);
    // Five cards each from a fresh deck, dealt face down; seat 1 (three
    // kings) folds to a bet, seat 0 (aces) calls seat 2 (queen high).
    let mut ev = final_round(&mut game, &[PAIR_OF_ACES, "KS KD KC 2H 4S", QUEEN_HIGH]);
    assert!(ev.contains(&Event::FinalPotRound { round: 1, chips: 6 }));
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Dealt { .. }))
            .count(),
        3
    );
    loop {
        let action = match game.pending() {
            Pending::Decide {
                seat,
                decision: Decision::Open { .. },
            } => (
                seat,
                if seat == 1 {
                    Action::Check
                } else {
                    Action::Bet(2)
                },
            ),
            Pending::Decide {
                seat,
                decision: Decision::Respond { .. },
            } => (
                seat,
                if seat == 1 {
                    Action::Fold
                } else {
                    Action::Call
                },
            ),
            Pending::Decide {
                seat,
                decision: Decision::ChooseFive { from },
            } => (seat, Action::Choose(from)),
            _ => break,
        };
        ev.extend(act(&mut game, action.0, action.1));
    }
    assert!(ev.contains(&Event::Folded { seat: 1 }));
    let moved = transfers(&ev);
    assert!(
        moved.iter().all(|t| t.reason != Reason::Ante),
        "no new antes"
    );
    assert_eq!(moved.iter().filter(|t| t.reason == Reason::Bet).count(), 2);
    assert_eq!(
        moved.last(),
        Some(&tr(space(Space::Pot), stack(0), 10, Reason::FinalPot))
    );
    assert_eq!(game.stacks(), &[100, 96, 104]);
    assert_eq!(game.layout().total(), 0);
    assert_eq!(game_over_winners(&ev), vec![2]);
}

#[test]
fn e2_keep_leaves_the_chips_on_the_layout() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, BLOCKED);
    lead(&mut game, "2D");
    lead(&mut game, "10H");
    let ev = lead(&mut game, "2H");
    assert!(ev.contains(&Event::PlayBlocked));
    assert!(
        !transfers(&ev)
            .iter()
            .any(|t| t.reason == Reason::FinalPotGathered)
    );
    assert!(!ev.iter().any(|e| matches!(e, Event::FinalPotRound { .. })));
    assert_eq!(game.pending(), Pending::GameOver);
    assert_eq!(game.layout().get(Space::Sequence), 3);
    assert_eq!(game.layout().get(Space::Kitty), 10);
    assert_eq!(game.layout().total(), 13);
    assert_eq!(game.stacks(), &[89, 90, 108]);
}

#[test]
fn e2_players_who_are_out_take_no_part_in_the_final_pot() {
    let mut seen = 0;
    for preset in [Preset::Pagat, Preset::Tripoley] {
        let mut rules = Rules::preset(preset);
        rules.starting_chips = 14;
        rules.deals = Some(6);
        for seed in 0..60 {
            let (_, game, events) = play_random(&rules, 4, seed, |_, _| {});
            let Some(start) = events
                .iter()
                .position(|e| matches!(e, Event::FinalPotRound { .. }))
            else {
                continue;
            };
            let out: Vec<u8> = (0..4).filter(|&s| game.is_out(s)).collect();
            if out.is_empty() {
                continue;
            }
            seen += 1;
            for e in &events[start..] {
                match e {
                    Event::FaceUp { seat, .. }
                    | Event::Dealt { seat, .. }
                    | Event::Showed { seat, .. }
                    | Event::Checked { seat }
                    | Event::Bet { seat, .. }
                    | Event::Called { seat, .. }
                    | Event::Raised { seat, .. }
                    | Event::Folded { seat } => {
                        assert!(
                            !out.contains(seat),
                            "{preset} seed {seed}: seat {seat} is out"
                        );
                    }
                    Event::Transfer(t) => {
                        if let Account::Stack(s) = t.to {
                            assert!(!out.contains(&s), "{preset} seed {seed}: {t:?}");
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(seen > 0, "some final pot was played with a player out");
}

// ----- E3 -----

#[test]
fn e3_the_player_with_the_most_chips_wins() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, BLOCKED);
    lead(&mut game, "2D");
    lead(&mut game, "10H");
    let ev = lead(&mut game, "2H");
    assert_eq!(game_over_winners(&ev), vec![2]);
    assert_eq!(
        game.standings(),
        Some(vec![
            standing(0, 89, false),
            standing(1, 90, false),
            standing(2, 108, true),
        ])
    );
}

#[test]
fn e3_equal_stacks_share_the_win() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, BLOCKED_TIE);
    lead(&mut game, "2D");
    lead(&mut game, "2H");
    let ev = lead(&mut game, "2S");
    assert!(ev.contains(&Event::PlayBlocked));
    assert_eq!(
        transfers(&ev),
        // T8: from the dealer's left.
        vec![
            tr(stack(1), space(Space::Kitty), 2, Reason::Blocked),
            tr(stack(2), space(Space::Kitty), 3, Reason::Blocked),
            tr(stack(0), space(Space::Kitty), 2, Reason::Blocked),
        ]
    );
    assert_eq!(game_over_winners(&ev), vec![0, 1]);
    assert_eq!(
        game.standings(),
        Some(vec![
            standing(0, 90, true),
            standing(1, 90, true),
            standing(2, 89, false),
        ])
    );
}

#[test]
fn e3_players_who_went_out_count_with_the_chips_they_kept() {
    let mut rules = michigan_rules();
    rules.deals = None;
    rules.starting_chips = 15;
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, PLAYED_EARLIER);
    lead(&mut game, "7C");
    lead(&mut game, "2D");
    let ev = lead(&mut game, "2C");
    // Seat 0 keeps 3 chips, too few for the next antes; seat 2 has none.
    assert!(ev.contains(&Event::PlayerOut { seat: 0, chips: 3 }));
    assert!(ev.contains(&Event::PlayerOut { seat: 2, chips: 0 }));
    assert_eq!(
        game.standings(),
        Some(vec![
            standing(0, 3, false),
            standing(1, 24, true),
            standing(2, 0, false),
        ])
    );
    assert_eq!(game.chips_in_play(), 45);
}

#[test]
fn e1_the_table_asks_to_end_after_the_current_deal() {
    let mut rules = Rules::preset(Preset::Tripoley);
    rules.first_dealer = tripoley_engine::FirstDealer::Seat(0);
    // Mid-deal: the deal is played out, then the final pot and the standings.
    let mut game = Game::new(rules.clone(), 3).unwrap();
    game.chance(DealChance::random(&rules, &mut seeded_rng(1)))
        .unwrap();
    assert!(game.end_after_this_deal().is_empty());
    assert_eq!(game.deals_total(), 1);
    let mut rng = seeded_rng(2);
    while let tripoley_engine::Pending::Decide { seat, decision } = game.pending() {
        let action = tripoley_testkit::random_action(&decision, &mut rng);
        game.apply(seat, action).unwrap();
    }
    assert_eq!(game.deals_done(), 1);
    // Between deals (the next deck not yet dealt): the game ends at once,
    // with the final pot (E2) for the antes already on the layout.
    let mut game = Game::new(rules.clone(), 3).unwrap();
    let ev = game.end_after_this_deal();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Transfer(t) if t.reason == Reason::FinalPotGathered))
    );
    assert_eq!(
        game.pending(),
        tripoley_engine::Pending::Chance(tripoley_engine::ChanceKind::FinalPot)
    );
    game.chance(DealChance::random(&rules, &mut rng)).unwrap();
    assert!(game.standings().is_some());
    assert_eq!(
        game.chips_in_play(),
        300,
        "the antes went to the final pot, chips conserved"
    );
}
