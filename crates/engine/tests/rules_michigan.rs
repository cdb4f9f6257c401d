//! Stage 3, Michigan (RULES.md M1-M10): one or more tests per rule id, each
//! built from an explicit deck that names all 52 cards, asserting who leads,
//! the exact order of the cards played, why runs stop, and every transfer.

mod common;

use common::{
    BLOCKED, PLAYED_EARLIER, STD, act, cards, choose_and_check, choose_fives, deal_owners,
    deal_owners_asked, michigan_rules, space, stack, table, tr, transfers, turn,
};
use tripoley_cards::{Card, CardSet};
use tripoley_engine::{
    Action, Decision, Event, FirstLead, Game, LeadColors, MichiganLeader, Misplays, Pending,
    Preset, Reason, Rules, Space, Stage, StopReason, Transfer,
};
use tripoley_testkit::play_random;

// ----- helpers -----

/// The stage 3 story of `events`, one token per event: `L0 2C` (seat 0
/// leads 2C, `!` for a misplay), `P1 3C` (played in the run), `W1 7H`
/// (withheld), `stop ace` / `stop 5C unplayed` / `stop 7C played`,
/// `pass 1` (cannot lead), `blocked`, `out 2`.
fn trace(events: &[Event]) -> String {
    let mut out = Vec::new();
    for e in events {
        out.push(match e {
            Event::Led {
                seat,
                card,
                misplay,
            } => format!("L{seat} {card}{}", if *misplay { "!" } else { "" }),
            Event::Played { seat, card } => format!("P{seat} {card}"),
            Event::Withheld { seat, card } => format!("W{seat} {card}"),
            Event::RunStopped { next, reason } => match (next, reason) {
                (None, StopReason::Ace) => "stop ace".to_owned(),
                (Some(c), StopReason::NotPlayed) => format!("stop {c} unplayed"),
                (Some(c), StopReason::AlreadyPlayed) => format!("stop {c} played"),
                other => format!("stop {other:?}"),
            },
            Event::CannotLead { seat } => format!("pass {seat}"),
            Event::PlayBlocked => "blocked".to_owned(),
            Event::WentOut { seat } => format!("out {seat}"),
            _ => continue,
        });
    }
    out.join(", ")
}

/// The seat that must lead now and the cards it may lead.
fn lead_turn(game: &Game) -> (u8, CardSet) {
    match turn(game) {
        (seat, Decision::Lead { cards }) => (seat, cards),
        other => panic!("a lead was expected, not {other:?}"),
    }
}

/// Leads `card` for whoever must lead, then (under penalised misplays)
/// plays every card that follows except those in `withhold`, which are
/// withheld; stops at the next lead or the end of the deal.
fn lead(game: &mut Game, card: &str, withhold: &str) -> Vec<Event> {
    let (seat, _) = lead_turn(game);
    let card: Card = card.parse().expect("a card");
    let mut ev = act(game, seat, Action::Lead(card));
    ev.extend(follow(game, withhold));
    ev
}

/// Answers every M9b follow decision: play, unless the card is in `withhold`.
fn follow(game: &mut Game, withhold: &str) -> Vec<Event> {
    let withhold = cards(withhold);
    let mut ev = Vec::new();
    while let Pending::Decide {
        seat,
        decision: Decision::Follow { card },
    } = game.pending()
    {
        let action = if withhold.contains(card) {
            Action::Withhold
        } else {
            Action::Play
        };
        ev.extend(act(game, seat, action));
    }
    ev
}

/// The transfers of `events` other than antes.
fn moves(events: &[Event]) -> Vec<Transfer> {
    transfers(events)
        .into_iter()
        .filter(|t| t.reason != Reason::Ante)
        .collect()
}

/// The events up to the end of the deal.
fn until_deal_end(events: &[Event]) -> &[Event] {
    let end = events
        .iter()
        .position(|e| matches!(e, Event::DealEnded { .. }))
        .unwrap_or(events.len());
    &events[..end]
}

fn hand(game: &Game, seat: u8) -> CardSet {
    game.card_locations().0[usize::from(seat)]
}

// ----- deals: owners of 2..A in clubs, diamonds, hearts, spades -----

/// Seat 0 holds the 2C and the 2D (and the top hearts).
const TWO_TWOS: [&str; 4] = [
    "0120120120120",
    "0201201201201",
    "1212121212000",
    ".............",
];

/// 4C is in the spare: a clubs run from 2C stops after 3C (seat 1), who
/// still holds clubs, diamonds and hearts.
const OTHER: [&str; 4] = [
    "01.120120120.",
    "1201201201201",
    "2012012012012",
    "02...........",
];

/// Diamonds in the spare; once the hearts are played nobody holds red.
const ALT: [&str; 4] = [
    "1002201201201",
    ".............",
    "0000111122222",
    "0000111112222",
];

/// Diamonds in the spare; seat 1 holds no hearts.
const ALT_PASS: [&str; 4] = [
    "0120120120121",
    ".............",
    "0000002222222",
    "0001111111122",
];

/// Diamonds in the spare; seat 0's lowest black card is 8C.
const STRICT: [&str; 4] = [
    "2121210120201",
    ".............",
    "1201201201202",
    "1111222000000",
];

/// Seat 0 holds all the hearts, diamonds are in the spare.
const COSMO_PASS: [&str; 4] = [
    "1212121212121",
    ".............",
    "0000000000000",
    "2121212121212",
];

/// Hearts: seat 0 plays 8H 9H 10H in a row, seat 2 plays QH then KH.
const PAY_IN_PLAY: [&str; 4] = [
    "1012010120120",
    ".............",
    "0120120001221",
    "0001111222222",
];

/// As `PAY_IN_PLAY` but the hearts alternate between the seats.
const PAY_SPLIT: [&str; 4] = [
    "1012010120120",
    ".............",
    "0120120120120",
    "0001111222222",
];

/// Seat 1: 2H 10H JH and 2C-JC. QH KH with seat 2, AH with seat 0.
const MISLEAD: [&str; 4] = [
    "1111111111000",
    ".............",
    "1202020211220",
    "0000002222222",
];

/// KH is in the spare; seat 1 (3H 7H 9H QH) will withhold 7H.
const WITHHOLD: [&str; 4] = [
    "2222222222000",
    "............0",
    "01202101201.0",
    "0000111111111",
];

/// Seat 1: 3C-KC, QH, AH. It will withhold 3C.
const WITHHOLD_OUT: [&str; 4] = [
    "0111111111112",
    ".............",
    "0000000000121",
    "2222222222200",
];

// ----- M1 -----

#[test]
fn m1_players_take_back_their_whole_hand_after_the_poker() {
    let mut rules = Rules::preset(Preset::Tripoley);
    rules.deals = Some(1);
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, TWO_TWOS);
    let shows = ["2C 5C 8C JC AC", "3C 6C 9C QC 5D", "4C 7C 10C KC 3D"];
    let ev = choose_and_check(&mut game, &shows);
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Showed { .. }))
            .count(),
        3
    );
    // Stage 3 begins: every hand is whole again, the shown cards included.
    assert_eq!(game.stage(), Stage::Michigan);
    let (hands, _, played) = game.card_locations();
    assert!(played.is_empty());
    for (seat, shown) in shows.iter().enumerate() {
        assert_eq!(hands[seat].len(), 13, "seat {seat} holds 13 cards");
        assert!(hands[seat].contains_all(cards(shown)));
    }
    assert_eq!(lead_turn(&game), (0, cards("2C 2D")));
}

// ----- M2 -----

#[test]
fn m2_pagat_poker_winner_leads() {
    let mut rules = Rules::preset(Preset::Pagat);
    rules.deals = Some(1);
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, STD);
    act(&mut game, 0, Action::Keep);
    // Seat 2 shows its heart flush; the others show jack-high hands.
    let ev = choose_and_check(
        &mut game,
        &["2C 5C 8C JC 4D", "2D 5D 8D JD 3C", "2H 5H 8H JH AH"],
    );
    assert_eq!(
        moves(&ev),
        vec![tr(space(Space::Pot), stack(2), 3, Reason::PotWon)]
    );
    assert_eq!(lead_turn(&game), (2, cards("4C 3D 2H")));
}

#[test]
fn m2_pagat_uncontested_pot_winner_leads() {
    let mut rules = Rules::preset(Preset::Pagat);
    rules.deals = Some(1);
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, STD);
    act(&mut game, 0, Action::Keep);
    choose_fives(&mut game, &[]);
    // Seat 1 opens (left of the dealer) with a bet; both others fold.
    act(&mut game, 1, Action::Bet(1));
    act(&mut game, 2, Action::Fold);
    let ev = act(&mut game, 0, Action::Fold);
    assert!(!ev.iter().any(|e| matches!(e, Event::Showed { .. })));
    assert_eq!(
        moves(&ev),
        vec![tr(space(Space::Pot), stack(1), 4, Reason::PotWon)]
    );
    assert_eq!(lead_turn(&game), (1, cards("3C 2D 4H")));
}

#[test]
fn m2_split_pot_first_winner_clockwise_from_dealers_left_leads() {
    let mut rules = Rules::preset(Preset::Pagat);
    rules.deals = Some(1);
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, STD);
    act(&mut game, 0, Action::Keep);
    // Seats 0 and 2 show equal flushes A-J-8-5-2; seat 1 a jack high.
    let ev = choose_and_check(
        &mut game,
        &["2C 5C 8C JC AC", "2D 5D 8D JD 3C", "2H 5H 8H JH AH"],
    );
    assert_eq!(
        moves(&ev),
        vec![
            tr(space(Space::Pot), stack(2), 1, Reason::PotWon),
            tr(space(Space::Pot), stack(0), 1, Reason::PotWon),
        ]
    );
    assert_eq!(game.layout().get(Space::Pot), 1, "the remainder stays (P6)");
    // From the dealer's left: seat 1 (lost), seat 2 (won): seat 2 leads.
    assert_eq!(lead_turn(&game), (2, cards("4C 3D 2H")));
}

#[test]
fn m2_with_side_pots_the_winner_of_the_main_pot_leads() {
    let mut rules = Rules::preset(Preset::Pagat);
    rules.deals = Some(1);
    rules.starting_chips = 12;
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, STD);
    act(&mut game, 0, Action::Keep);
    // Stage 1: seat 0 took the Queen, seats 1 and 2 two spaces each.
    assert_eq!(game.stacks(), &[6, 9, 9]);
    // Seat 0's flush takes the main pot; seat 2's jack-eight-five-four
    // beats seat 1's jack-eight-five-three for the side pot.
    choose_fives(
        &mut game,
        &["2C 5C 8C JC AC", "2D 5D 8D JD 3C", "2H 5H 8H JH 4C"],
    );
    act(&mut game, 1, Action::Bet(9));
    act(&mut game, 2, Action::Call);
    let ev = act(&mut game, 0, Action::Call); // all in for 6
    assert_eq!(
        moves(&ev)[1..],
        [
            tr(space(Space::Pot), stack(0), 21, Reason::PotWon),
            tr(space(Space::Pot), stack(2), 6, Reason::PotWon),
        ]
    );
    assert_eq!(lead_turn(&game), (0, cards("2C 4D 3H")));
}

#[test]
fn m2_tripoley_dealer_leads() {
    let mut rules = Rules::preset(Preset::Tripoley);
    rules.deals = Some(1);
    let mut game = table(rules, 3, 1);
    deal_owners(&mut game, STD);
    // Seat 2 wins the poker, yet the dealer (seat 1) leads; its lowest card
    // is 2D, the only lowest, so the lead is forced (M3 LowestOverall).
    let ev = choose_and_check(
        &mut game,
        &["2C 5C 8C JC 4D", "2D 5D 8D JD 3C", "2H 5H 8H JH AH"],
    );
    assert!(moves(&ev).contains(&tr(space(Space::Pot), stack(2), 3, Reason::PotWon)));
    assert_eq!(
        trace(&ev),
        "L1 2D, P2 3D, P0 4D, P1 5D, P2 6D, P0 7D, P1 8D, P2 9D, P0 10D, P1 JD, P2 QD, \
         P0 KD, P1 AD, stop ace"
    );
    assert_eq!(lead_turn(&game), (1, cards("3C 4H")));
}

#[test]
fn m2_michigan_casino_left_of_dealer_leads() {
    let mut game = table(Rules::preset(Preset::MichiganCasino), 3, 0);
    deal_owners(&mut game, STD);
    act(&mut game, 0, Action::Keep);
    // No betting before Michigan (P9): seat 1 leads, and under penalised
    // misplays any card of its hand may be led (M9a).
    let (seat, leads) = lead_turn(&game);
    assert_eq!(seat, 1);
    assert_eq!(leads, hand(&game, 1));
}

// ----- M3 -----

#[test]
fn m3_lead_is_the_lowest_card_of_the_chosen_suit() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, STD);
    assert_eq!(lead_turn(&game), (0, cards("2C 4D 3H")));
    let five_clubs = Action::Lead("5C".parse().unwrap());
    assert!(game.check(0, five_clubs).is_err(), "not the lowest club");
    let copy = game.clone();
    assert!(game.apply(0, five_clubs).is_err());
    assert_eq!(game, copy, "a refused lead changes nothing");
    let ev = lead(&mut game, "4D", "");
    assert_eq!(
        ev[0],
        Event::Led {
            seat: 0,
            card: "4D".parse().unwrap(),
            misplay: false
        }
    );
}

#[test]
fn m3_lowest_overall_first_lead_tripoley() {
    let mut rules = michigan_rules();
    rules.first_lead = FirstLead::LowestOverall;
    let mut game = table(rules, 3, 0);
    // Seat 0's lowest card is 2C: the first lead is forced and made at once.
    let ev = deal_owners(&mut game, STD);
    assert_eq!(
        trace(&ev),
        "L0 2C, P1 3C, P2 4C, P0 5C, P1 6C, P2 7C, P0 8C, P1 9C, P2 10C, P0 JC, P1 QC, \
         P2 KC, P0 AC, stop ace"
    );
    // Later leads are not held to the lowest card overall: 4D or 3H.
    assert_eq!(lead_turn(&game), (0, cards("4D 3H")));
}

#[test]
fn m10_m3_a_single_legal_lead_is_still_asked_and_the_leader_plays_it() {
    // Seat 0's lowest card is 2C, its only lead (M3 LowestOverall); it is
    // asked all the same (M10: leaders choose in stage 3), so the others
    // cannot tell an only lead from a chosen one by when it comes.
    let mut rules = michigan_rules();
    rules.first_lead = FirstLead::LowestOverall;
    let mut game = table(rules, 3, 0);
    let ev = deal_owners_asked(&mut game, STD);
    assert_eq!(trace(&ev), "", "nothing is played before the leader acts");
    assert_eq!(lead_turn(&game), (0, cards("2C")));
    assert_eq!(
        turn(&game).1.only(),
        Some(Action::Lead("2C".parse().unwrap()))
    );
    assert_eq!(turn(&game).1.forced(), None, "not made by the engine");
    assert!(game.check(1, Action::Lead("3C".parse().unwrap())).is_err());
    let ev = game.apply(0, Action::Lead("2C".parse().unwrap())).unwrap();
    assert!(trace(&ev).starts_with("L0 2C, P1 3C"), "{}", trace(&ev));
}

#[test]
fn m10_m5_a_leader_holding_one_other_suit_is_asked() {
    // Seat 1 plays the ace that stops the clubs and must lead another suit
    // (M5): it holds only diamonds besides, so 2D is its one lead, asked.
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(
        &mut game,
        [
            "0000000000011",
            "1111111111122",
            "2222222222200",
            ".............",
        ],
    );
    let ev = game.apply(0, Action::Lead("2C".parse().unwrap())).unwrap();
    assert!(trace(&ev).ends_with("P1 AC, stop ace"), "{}", trace(&ev));
    assert_eq!(lead_turn(&game), (1, cards("2D")));
    assert_eq!(turn(&game).1.forced(), None, "not made by the engine");
}

#[test]
fn m3_lowest_overall_tie_the_leader_picks() {
    let mut rules = michigan_rules();
    rules.first_lead = FirstLead::LowestOverall;
    let mut game = table(rules, 3, 0);
    let ev = deal_owners(&mut game, TWO_TWOS);
    assert_eq!(trace(&ev), "");
    assert_eq!(lead_turn(&game), (0, cards("2C 2D")));
}

#[test]
fn m3_lowest_black_first_lead_passes_left_cosmo() {
    // Cosmo: left of the dealer leads its lowest black card. Seat 0 holds
    // only hearts, so the turn passes to seat 1, whose lowest black is 2C.
    let mut game = table(Rules::preset(Preset::Cosmo), 3, 2);
    let ev = deal_owners(&mut game, COSMO_PASS);
    assert_eq!(
        trace(&ev),
        "pass 0, L1 2C, P2 3C, P1 4C, P2 5C, P1 6C, P2 7C, P1 8C, P2 9C, P1 10C, P2 JC, \
         P1 QC, P2 KC, P1 AC, stop ace, pass 1, pass 2, L0 2H, P0 3H, P0 4H, P0 5H, P0 6H, \
         P0 7H, P0 8H, P0 9H, P0 10H, P0 JH, P0 QH, P0 KH, P0 AH, out 0"
    );
}

#[test]
fn m3_lowest_black_equally_low_in_both_black_suits_the_leader_picks() {
    // As `COSMO_PASS`, but seat 1 holds both 2C and 2S.
    let mut game = table(Rules::preset(Preset::Cosmo), 3, 2);
    let ev = deal_owners(
        &mut game,
        [
            "1212121212121",
            ".............",
            "0000000000000",
            "1221212121212",
        ],
    );
    assert_eq!(trace(&ev), "pass 0");
    assert_eq!(lead_turn(&game), (1, cards("2C 2S")));
}

// ----- M4 -----

#[test]
fn m4_following_is_automatic() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, STD);
    // One decision plays the whole run: each holder of the next card plays it.
    let ev = act(&mut game, 0, Action::Lead("2C".parse().unwrap()));
    assert_eq!(
        trace(&ev),
        "L0 2C, P1 3C, P2 4C, P0 5C, P1 6C, P2 7C, P0 8C, P1 9C, P2 10C, P0 JC, P1 QC, \
         P2 KC, P0 AC, stop ace"
    );
    assert_eq!(lead_turn(&game), (0, cards("4D 3H")));
}

// ----- M5 -----

#[test]
fn m5_stop_at_an_ace() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, STD);
    let ev = lead(&mut game, "4D", "");
    assert_eq!(
        trace(&ev),
        "L0 4D, P1 5D, P2 6D, P0 7D, P1 8D, P2 9D, P0 10D, P1 JD, P2 QD, P0 KD, P1 AD, stop ace"
    );
    assert!(ev.contains(&Event::RunStopped {
        next: None,
        reason: StopReason::Ace
    }));
    // Seat 1 played the ace and leads: clubs or hearts, not diamonds.
    assert_eq!(lead_turn(&game), (1, cards("3C 4H")));
}

#[test]
fn m5_stop_at_a_card_in_the_spare() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, PLAYED_EARLIER);
    assert_eq!(lead_turn(&game), (0, cards("7C 2D 2H")));
    let ev = lead(&mut game, "7C", "");
    assert_eq!(trace(&ev), "L0 7C, P0 8C, P0 9C, stop 10C unplayed");
    assert!(ev.contains(&Event::RunStopped {
        next: Some("10C".parse().unwrap()),
        reason: StopReason::NotPlayed
    }));
    assert_eq!(lead_turn(&game), (0, cards("2D 2H")));
}

#[test]
fn m5_stop_at_a_card_played_earlier() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, PLAYED_EARLIER);
    lead(&mut game, "7C", "");
    let ev = lead(&mut game, "2D", "");
    assert_eq!(
        trace(&ev),
        "L0 2D, P0 3D, P0 4D, P0 5D, P0 6D, P0 7D, P1 8D, P1 9D, P1 10D, P1 JD, P1 QD, \
         P1 KD, P1 AD, stop ace"
    );
    assert_eq!(lead_turn(&game), (1, cards("2C 2S")));
    // 2C to 6C are in hands, 7C was played in the first run: the run stops
    // there and does not look for 7C in the hands or the spare.
    let ev = lead(&mut game, "2C", "");
    assert!(ev.contains(&Event::RunStopped {
        next: Some("7C".parse().unwrap()),
        reason: StopReason::AlreadyPlayed
    }));
    assert_eq!(
        trace(&ev),
        "L1 2C, P2 3C, P1 4C, P2 5C, P1 6C, stop 7C played, L1 2S, P1 3S, P1 4S, out 1"
    );
}

#[test]
fn m5_stop_player_leads_another_suit() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, OTHER);
    assert_eq!(lead_turn(&game), (0, cards("2C 4D 3H 2S")));
    let ev = lead(&mut game, "2C", "");
    assert_eq!(trace(&ev), "L0 2C, P1 3C, stop 4C unplayed");
    // Seat 1 played the stop card and still holds 5C, but leads another suit.
    assert!(hand(&game, 1).contains("5C".parse().unwrap()));
    assert_eq!(lead_turn(&game), (1, cards("2D 4H")));
    assert!(game.check(1, Action::Lead("5C".parse().unwrap())).is_err());
}

#[test]
fn m5_turn_to_lead_passes_left_when_stop_player_holds_only_the_stopped_suit() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, BLOCKED);
    assert_eq!(lead_turn(&game), (0, cards("2C 2D 2H AS")));
    let ev = lead(&mut game, "2D", "");
    assert_eq!(
        trace(&ev),
        "L0 2D, P0 3D, P0 4D, P0 5D, P1 6D, P1 7D, P1 8D, P1 9D, P2 10D, P2 JD, P2 QD, \
         P2 KD, P2 AD, stop ace"
    );
    assert_eq!(lead_turn(&game), (2, cards("6C 10H")));
    // After 6C seat 2 holds only KC AC: the lead passes to seat 0.
    let ev = lead(&mut game, "10H", "");
    assert_eq!(
        trace(&ev),
        "L2 10H, P2 JH, P2 QH, P2 KH, P2 AH, stop ace, L2 6C, stop 7C unplayed, pass 2"
    );
    assert_eq!(lead_turn(&game), (0, cards("2H AS")));
    // After the 6C stop seat 1 holds only JC QC and seat 2 only KC AC: the
    // lead passes twice, to seat 0.
    let ev = lead(&mut game, "2H", "");
    assert_eq!(
        trace(&ev),
        "L0 2H, P0 3H, P0 4H, P0 5H, P1 6H, P1 7H, P1 8H, P1 9H, stop 10H played, \
         L1 3C, P1 4C, P1 5C, stop 6C played, pass 1, pass 2, L0 AS, stop ace, \
         L0 2C, stop 3C played, pass 0, pass 1, pass 2, blocked"
    );
}

#[test]
fn m5_blocked_play_pays_one_chip_per_card_into_the_kitty() {
    let mut rules = michigan_rules();
    rules.deals = Some(2);
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, BLOCKED);
    let mut ev = lead(&mut game, "2D", "");
    ev.extend(lead(&mut game, "10H", ""));
    let last = lead(&mut game, "2H", "");
    assert!(trace(&last).ends_with("stop 3C played, pass 0, pass 1, pass 2, blocked"));
    ev.extend(last.iter().cloned());
    // Seat 2 collected the pay cards it played (M8); then the block: seat 0
    // holds 8C 9C 10C, seat 1 JC QC, seat 2 KC AC.
    assert_eq!(
        moves(until_deal_end(&ev)),
        vec![
            tr(space(Space::Ten), stack(2), 3, Reason::PayCard),
            tr(space(Space::Jack), stack(2), 3, Reason::PayCard),
            tr(space(Space::Queen), stack(2), 3, Reason::PayCard),
            tr(space(Space::King), stack(2), 3, Reason::PayCard),
            tr(space(Space::KingQueen), stack(2), 3, Reason::KingQueen),
            tr(space(Space::Ace), stack(2), 3, Reason::PayCard),
            // T8: blocked payments from the dealer's left (seat 0 deals).
            tr(stack(1), space(Space::Kitty), 2, Reason::Blocked),
            tr(stack(2), space(Space::Kitty), 2, Reason::Blocked),
            tr(stack(0), space(Space::Kitty), 3, Reason::Blocked),
        ]
    );
    // The Kitty stays for the next deal, and the next antes add to it.
    assert!(last.contains(&Event::DealEnded { number: 1 }));
    assert_eq!(
        game.pending(),
        Pending::Chance(tripoley_engine::ChanceKind::Deal)
    );
    assert_eq!(game.layout().get(Space::Kitty), 3 + 7 + 3);
    assert_eq!(game.stacks(), &[81, 82, 100]);
}

// ----- M6 -----

fn alternate_rules() -> Rules {
    let mut rules = michigan_rules();
    rules.lead_colors = LeadColors::Alternate;
    rules
}

#[test]
fn m6_alternate_next_lead_is_of_the_other_colour() {
    let mut game = table(alternate_rules(), 3, 0);
    deal_owners(&mut game, ALT);
    assert_eq!(lead_turn(&game), (0, cards("3C 2H 2S")));
    let ev = lead(&mut game, "2H", "");
    assert_eq!(
        trace(&ev),
        "L0 2H, P0 3H, P0 4H, P0 5H, P1 6H, P1 7H, P1 8H, P1 9H, P2 10H, P2 JH, P2 QH, \
         P2 KH, P2 AH, stop ace"
    );
    // A red run stopped: seat 2 picks a black suit and leads its lowest card.
    assert_eq!(lead_turn(&game), (2, cards("5C JS")));
}

#[test]
fn m6_alternate_turn_passes_left_when_the_leader_has_no_card_of_the_colour() {
    let mut game = table(alternate_rules(), 3, 0);
    deal_owners(&mut game, ALT_PASS);
    assert_eq!(lead_turn(&game), (0, cards("2C 2H 2S")));
    let ev = lead(&mut game, "2C", "");
    assert_eq!(
        trace(&ev),
        "L0 2C, P1 3C, P2 4C, P0 5C, P1 6C, P2 7C, P0 8C, P1 9C, P2 10C, P0 JC, P1 QC, \
         P2 KC, P1 AC, stop ace, pass 1, L2 8H, P2 9H, P2 10H, P2 JH, P2 QH, P2 KH, P2 AH, \
         stop ace, L2 KS, P2 AS, out 2"
    );
}

#[test]
fn m6_alternate_nobody_holds_the_colour_stop_player_leads_any_suit() {
    let mut game = table(alternate_rules(), 3, 0);
    deal_owners(&mut game, ALT);
    lead(&mut game, "2H", "");
    let ev = lead(&mut game, "5C", "");
    assert_eq!(
        trace(&ev),
        "L2 5C, P2 6C, P0 7C, P1 8C, P2 9C, P0 10C, P1 JC, P2 QC, P0 KC, P1 AC, stop ace, \
         pass 1, pass 2, pass 0"
    );
    // No red card is left in any hand: seat 1, who played AC, leads any
    // suit, clubs (the suit just stopped) included.
    assert_eq!(lead_turn(&game), (1, cards("2C 6S")));
    let ev = lead(&mut game, "2C", "");
    assert_eq!(
        trace(&ev),
        "L1 2C, P0 3C, P0 4C, stop 5C played, pass 0, pass 1, pass 2, L0 2S, P0 3S, P0 4S, \
         P0 5S, out 0"
    );
}

#[test]
fn m6_casino_preset_nobody_holds_the_colour_stop_player_leads_any_suit() {
    let mut rules = Rules::preset(Preset::MichiganCasino);
    rules.deals = Some(1);
    let mut game = table(rules, 3, 2);
    deal_owners(&mut game, ALT);
    act(&mut game, 2, Action::Keep);
    assert_eq!(lead_turn(&game).0, 0, "left of the dealer leads");
    lead(&mut game, "2H", "");
    // After a red stop the lead must be black: any club or spade of seat 2
    // (the higher ones are misplays, M9a).
    assert_eq!(lead_turn(&game), (2, cards("5C 6C 9C QC JS QS KS AS")));
    let ev = lead(&mut game, "5C", "");
    assert_eq!(
        trace(&ev),
        "L2 5C, P2 6C, P0 7C, P1 8C, P2 9C, P0 10C, P1 JC, P2 QC, P0 KC, P1 AC, stop ace, \
         pass 1, pass 2, pass 0"
    );
    assert_eq!(lead_turn(&game), (1, cards("2C 6S 7S 8S 9S 10S")));
}

#[test]
fn m6_strict_alternate_lowest_card_of_the_colour_then_blocked_cosmo() {
    // Cosmo: seat 0 (left of the dealer) leads its lowest black card, 8C.
    // Each later lead is the lowest card of the other colour, so every lead
    // here is forced. After the last black stop nobody holds a red card:
    // play ends blocked.
    let mut game = table(Rules::preset(Preset::Cosmo), 3, 2);
    let ev = deal_owners(&mut game, STRICT);
    assert_eq!(
        trace(&ev),
        "L0 8C, P1 9C, P2 10C, P0 JC, P2 QC, P0 KC, P1 AC, stop ace, \
         L1 2H, P2 3H, P0 4H, P1 5H, P2 6H, P0 7H, P1 8H, P2 9H, P0 10H, P1 JH, P2 QH, \
         P0 KH, P2 AH, stop ace, \
         L2 2C, P1 3C, P2 4C, P1 5C, P2 6C, P1 7C, stop 8C played, pass 1, pass 2, pass 0, \
         blocked"
    );
    assert_eq!(
        moves(until_deal_end(&ev)),
        vec![
            tr(space(Space::Ten), stack(0), 3, Reason::PayCard),
            tr(space(Space::Jack), stack(1), 3, Reason::PayCard),
            tr(space(Space::Queen), stack(2), 3, Reason::PayCard),
            tr(space(Space::King), stack(0), 3, Reason::PayCard),
            tr(space(Space::Ace), stack(2), 3, Reason::PayCard),
            tr(stack(0), space(Space::Kitty), 6, Reason::Blocked),
            tr(stack(1), space(Space::Kitty), 4, Reason::Blocked),
            tr(stack(2), space(Space::Kitty), 3, Reason::Blocked),
        ]
    );
}

#[test]
fn m6_strict_alternate_leader_without_the_colour_passes_left() {
    // Same deal, but with StrictAlternate set on its own: after the red run
    // the lead must be black and the lowest black card of the leader.
    let mut rules = michigan_rules();
    rules.lead_colors = LeadColors::StrictAlternate;
    rules.first_lead = FirstLead::LowestBlack;
    rules.michigan_leader = MichiganLeader::LeftOfDealer;
    let mut game = table(rules, 3, 2);
    let ev = deal_owners(&mut game, COSMO_PASS);
    assert!(trace(&ev).starts_with("pass 0, L1 2C,"));
    assert!(trace(&ev).contains("P1 AC, stop ace, pass 1, pass 2, L0 2H,"));
}

// ----- M7 -----

#[test]
fn m7_going_out_takes_the_kitty_and_a_chip_per_card_from_each_player() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, PLAYED_EARLIER);
    let mut ev = lead(&mut game, "7C", "");
    ev.extend(lead(&mut game, "2D", ""));
    ev.extend(lead(&mut game, "2C", ""));
    // Seat 1 played 8D 9D 10D in a row (the Sequence, M8), then went out
    // with 4S. Seat 0 holds 2H-5H (4), seat 2 holds 6H-AH 5S 6S (11).
    assert_eq!(
        moves(until_deal_end(&ev)),
        vec![
            tr(space(Space::Sequence), stack(1), 3, Reason::Sequence),
            tr(space(Space::Kitty), stack(1), 3, Reason::WentOut),
            // T8: the others pay from the winner's left.
            tr(stack(2), stack(1), 11, Reason::CardsLeft),
            tr(stack(0), stack(1), 4, Reason::CardsLeft),
        ]
    );
    assert_eq!(game.stacks(), &[88, 113, 81]);
    assert_eq!(game.pending(), Pending::GameOver);
}

#[test]
fn m7_payment_per_card_is_capped_at_the_stack() {
    let mut rules = michigan_rules();
    rules.starting_chips = 10;
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, PLAYED_EARLIER);
    assert_eq!(game.stacks(), &[2, 2, 2], "eight antes paid");
    let mut ev = lead(&mut game, "7C", "");
    ev.extend(lead(&mut game, "2D", ""));
    ev.extend(lead(&mut game, "2C", ""));
    // Seats 0 and 2 owe 4 and 11 chips but have 2 each (T6).
    assert_eq!(
        moves(until_deal_end(&ev)),
        vec![
            tr(space(Space::Sequence), stack(1), 3, Reason::Sequence),
            tr(space(Space::Kitty), stack(1), 3, Reason::WentOut),
            tr(stack(2), stack(1), 2, Reason::CardsLeft),
            tr(stack(0), stack(1), 2, Reason::CardsLeft),
        ]
    );
    assert_eq!(game.stacks(), &[0, 12, 0]);
    assert_eq!(game.chips_in_play(), 30);
}

// ----- M8 -----

#[test]
fn m8_rummoli_pay_cards_are_collected_when_played() {
    let mut rules = Rules::preset(Preset::Rummoli);
    rules.deals = Some(1);
    let mut game = table(rules, 3, 0);
    let mut ev = deal_owners(&mut game, PAY_IN_PLAY);
    ev.extend(act(&mut game, 0, Action::Keep));
    // Seat 0 wins the poker with a heart flush and leads.
    ev.extend(choose_and_check(
        &mut game,
        &["2H 5H 8H 9H 10H", "3H 6H JH AH 2C", "4H 7H QH KH 5C"],
    ));
    // No stage 1: nothing but the Pot has been taken.
    assert_eq!(
        moves(&ev),
        vec![tr(space(Space::Pot), stack(0), 3, Reason::PotWon)]
    );
    assert_eq!(lead_turn(&game), (0, cards("3C 2H 2S")));
    let ev = lead(&mut game, "2H", "");
    assert_eq!(
        trace(&ev),
        "L0 2H, P1 3H, P2 4H, P0 5H, P1 6H, P2 7H, P0 8H, P0 9H, P0 10H, P1 JH, P2 QH, \
         P2 KH, P1 AH, stop ace"
    );
    assert_eq!(
        moves(&ev),
        vec![
            tr(space(Space::Ten), stack(0), 3, Reason::PayCard),
            tr(space(Space::Sequence), stack(0), 3, Reason::Sequence),
            tr(space(Space::Jack), stack(1), 3, Reason::PayCard),
            tr(space(Space::Queen), stack(2), 3, Reason::PayCard),
            tr(space(Space::King), stack(2), 3, Reason::PayCard),
            tr(space(Space::KingQueen), stack(2), 3, Reason::KingQueen),
            tr(space(Space::Ace), stack(1), 3, Reason::PayCard),
        ]
    );
}

#[test]
fn m8_king_queen_and_sequence_when_one_player_plays_them_in_a_row() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, PAY_IN_PLAY);
    let mut ev = lead(&mut game, "2H", "");
    assert_eq!(
        moves(&ev),
        vec![
            tr(space(Space::Ten), stack(0), 3, Reason::PayCard),
            tr(space(Space::Sequence), stack(0), 3, Reason::Sequence),
            tr(space(Space::Jack), stack(1), 3, Reason::PayCard),
            tr(space(Space::Queen), stack(2), 3, Reason::PayCard),
            tr(space(Space::King), stack(2), 3, Reason::PayCard),
            tr(space(Space::KingQueen), stack(2), 3, Reason::KingQueen),
            tr(space(Space::Ace), stack(1), 3, Reason::PayCard),
        ]
    );
    // 8C 9C 10C are played by seats 0, 1, 2: no Sequence for clubs (it is
    // gone anyway). Seat 0 goes out with 4S.
    assert_eq!(lead_turn(&game), (1, cards("2C 5S")));
    ev = lead(&mut game, "2C", "");
    assert_eq!(
        trace(&ev),
        "L1 2C, P0 3C, P1 4C, P2 5C, P0 6C, P1 7C, P0 8C, P1 9C, P2 10C, P0 JC, P1 QC, \
         P2 KC, P0 AC, stop ace, L0 2S, P0 3S, P0 4S, out 0"
    );
    assert_eq!(
        moves(until_deal_end(&ev)),
        vec![
            tr(space(Space::Kitty), stack(0), 3, Reason::WentOut),
            tr(stack(1), stack(0), 4, Reason::CardsLeft),
            tr(stack(2), stack(0), 6, Reason::CardsLeft),
        ]
    );
}

#[test]
fn m8_king_queen_and_sequence_need_a_single_player() {
    let mut game = table(michigan_rules(), 3, 0);
    deal_owners(&mut game, PAY_SPLIT);
    let ev = lead(&mut game, "2H", "");
    assert_eq!(
        trace(&ev),
        "L0 2H, P1 3H, P2 4H, P0 5H, P1 6H, P2 7H, P0 8H, P1 9H, P2 10H, P0 JH, P1 QH, \
         P2 KH, P0 AH, stop ace"
    );
    // QH (seat 1) then KH (seat 2), 8H 9H 10H by three seats: only the
    // single cards are collected.
    assert_eq!(
        moves(&ev),
        vec![
            tr(space(Space::Ten), stack(2), 3, Reason::PayCard),
            tr(space(Space::Jack), stack(0), 3, Reason::PayCard),
            tr(space(Space::Queen), stack(1), 3, Reason::PayCard),
            tr(space(Space::King), stack(2), 3, Reason::PayCard),
            tr(space(Space::Ace), stack(0), 3, Reason::PayCard),
        ]
    );
    assert_eq!(game.layout().get(Space::KingQueen), 3);
    assert_eq!(game.layout().get(Space::Sequence), 3);
}

// ----- M9 -----

#[test]
fn m9a_misleading_pays_each_other_player_and_bars_pay_spaces() {
    let mut rules = Rules::preset(Preset::MichiganCasino);
    rules.deals = Some(1);
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, MISLEAD);
    act(&mut game, 0, Action::Keep);
    assert_eq!(game.stacks(), &[82, 91, 91], "the dealer antes two a space");
    assert_eq!(lead_turn(&game), (1, hand(&game, 1)));
    // Seat 1 leads 10H although it holds 2H.
    let ev = lead(&mut game, "10H", "");
    assert_eq!(trace(&ev), "L1 10H!, P1 JH, P2 QH, P2 KH, P0 AH, stop ace");
    // One chip to each other player at once; seat 1 takes neither the Ten
    // nor the Jack; the others collect as usual.
    assert_eq!(
        moves(&ev),
        vec![
            // T8: from the leader's left.
            tr(stack(1), stack(2), 1, Reason::Misled),
            tr(stack(1), stack(0), 1, Reason::Misled),
            tr(space(Space::Queen), stack(2), 4, Reason::PayCard),
            tr(space(Space::King), stack(2), 4, Reason::PayCard),
            tr(space(Space::KingQueen), stack(2), 4, Reason::KingQueen),
            tr(space(Space::Ace), stack(0), 4, Reason::PayCard),
        ]
    );
    assert_eq!(game.stacks(), &[87, 89, 104]);
    assert_eq!(game.layout().get(Space::Ten), 4);
    assert_eq!(game.layout().get(Space::Jack), 4);
    // The misplay is a lead the rules allow in suit: after a red stop the
    // next lead is black, high cards included, never red.
    assert_eq!(lead_turn(&game), (0, cards("QC KC AC 2S 3S 4S 5S 6S 7S")));
}

#[test]
fn m9b_withholding_stops_the_run_and_the_stop_card_player_leads() {
    let mut rules = michigan_rules();
    rules.misplays = Misplays::Penalised;
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, WITHHOLD);
    assert_eq!(lead_turn(&game), (0, hand(&game, 0)));
    let ev = lead(&mut game, "2H", "7H");
    assert_eq!(
        trace(&ev),
        "L0 2H, P1 3H, P2 4H, P0 5H, P2 6H, W1 7H, stop 7H unplayed"
    );
    assert!(hand(&game, 1).contains("7H".parse().unwrap()));
    // Seat 2 played 6H, the last card: it leads, not hearts.
    assert_eq!(
        lead_turn(&game),
        (2, cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC"))
    );
}

#[test]
fn m9b_withholder_pays_the_holder_of_a_pay_card_after_stage_3() {
    let mut rules = michigan_rules();
    rules.misplays = Misplays::Penalised;
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, WITHHOLD);
    lead(&mut game, "2H", "7H");
    let ev = lead(&mut game, "2C", "");
    assert_eq!(
        trace(&ev),
        "L2 2C, P2 3C, P2 4C, P2 5C, P2 6C, P2 7C, P2 8C, P2 9C, P2 10C, P2 JC, P0 QC, \
         P0 KC, P0 AC, stop ace"
    );
    assert_eq!(
        moves(&ev),
        vec![tr(space(Space::Sequence), stack(2), 3, Reason::Sequence)]
    );
    assert_eq!(lead_turn(&game), (0, cards("8H JH AH AD 2S 3S 4S 5S")));
    let ev = lead(&mut game, "8H", "");
    assert_eq!(trace(&ev), "L0 8H, P1 9H, P2 10H, out 2");
    // Seat 1 withheld in hearts. JH and AH are still in seat 0's hand and
    // their spaces hold 3 chips each: seat 1 pays seat 0 those chips. KH is
    // in the spare and QH is seat 1's own: nothing for them; the Ten was
    // collected by seat 2.
    assert_eq!(
        moves(until_deal_end(&ev)),
        vec![
            tr(space(Space::Ten), stack(2), 3, Reason::PayCard),
            tr(space(Space::Kitty), stack(2), 3, Reason::WentOut),
            tr(stack(0), stack(2), 7, Reason::CardsLeft),
            tr(stack(1), stack(2), 11, Reason::CardsLeft),
            tr(stack(1), stack(0), 3, Reason::Withheld),
            tr(stack(1), stack(0), 3, Reason::Withheld),
        ]
    );
    assert_eq!(game.stacks(), &[91, 75, 119]);
    // The spaces keep their chips: the withholder pays from its stack.
    assert_eq!(game.layout().get(Space::Ace), 3);
    assert_eq!(game.layout().get(Space::Jack), 3);
}

#[test]
fn m9b_settlement_order_stage_3_then_withholding_then_poker_pool() {
    let mut rules = Rules::preset(Preset::MichiganCasino);
    rules.deals = Some(1);
    let mut game = table(rules, 3, 2);
    deal_owners(&mut game, WITHHOLD);
    act(&mut game, 2, Action::Keep);
    lead(&mut game, "2H", "7H");
    // Red stopped: black next; seat 2 holds clubs.
    let ev = lead(&mut game, "2C", "");
    assert_eq!(
        moves(&ev),
        vec![tr(space(Space::Sequence), stack(2), 4, Reason::Sequence)],
        "the casino Sequence is 7-8-9"
    );
    // Black stopped: red next.
    assert_eq!(lead_turn(&game), (0, cards("8H JH AH AD")));
    let ev = lead(&mut game, "8H", "");
    assert_eq!(trace(&ev), "L0 8H, P1 9H, P2 10H, out 2");
    // Seat 1 holds the royal flush among the hands as stage 3 began. (The
    // engine labels the pool's transfer `PotWon`, although `Reason` has a
    // `PokerPool`; either label is accepted here.)
    let mut settled = moves(until_deal_end(&ev));
    if let Some(pool) = settled.last_mut()
        && pool.reason == Reason::PotWon
    {
        pool.reason = Reason::PokerPool;
    }
    assert_eq!(
        settled,
        vec![
            tr(space(Space::Ten), stack(2), 4, Reason::PayCard),
            tr(space(Space::Kitty), stack(2), 4, Reason::WentOut),
            tr(stack(0), stack(2), 7, Reason::CardsLeft),
            tr(stack(1), stack(2), 11, Reason::CardsLeft),
            tr(stack(1), stack(0), 4, Reason::Withheld),
            tr(stack(1), stack(0), 4, Reason::Withheld),
            tr(space(Space::Pot), stack(1), 4, Reason::PokerPool),
        ]
    );
    assert_eq!(game.stacks(), &[92, 76, 112]);
}

#[test]
fn m9b_withholder_is_barred_and_collects_nothing_for_going_out() {
    let mut rules = michigan_rules();
    rules.misplays = Misplays::Penalised;
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, WITHHOLD_OUT);
    let ev = lead(&mut game, "2C", "3C");
    assert_eq!(trace(&ev), "L0 2C, W1 3C, stop 3C unplayed");
    // Seat 0 played the stop card and leads again, not clubs.
    assert_eq!(
        lead_turn(&game),
        (0, cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH KS AS"))
    );
    let ev = lead(&mut game, "2H", "");
    assert_eq!(
        trace(&ev),
        "L0 2H, P0 3H, P0 4H, P0 5H, P0 6H, P0 7H, P0 8H, P0 9H, P0 10H, P0 JH, P1 QH, \
         P2 KH, P1 AH, stop ace"
    );
    // Seat 1 plays QH and AH but is barred: the Queen, Ace and King-Queen
    // spaces keep their chips.
    assert_eq!(
        moves(&ev),
        vec![
            tr(space(Space::Ten), stack(0), 3, Reason::PayCard),
            tr(space(Space::Sequence), stack(0), 3, Reason::Sequence),
            tr(space(Space::Jack), stack(0), 3, Reason::PayCard),
            tr(space(Space::King), stack(2), 3, Reason::PayCard),
        ]
    );
    // Seat 1 plays its last card, KC: it does not go out, and the run goes on.
    let ev = lead(&mut game, "3C", "");
    assert_eq!(
        trace(&ev),
        "L1 3C, P1 4C, P1 5C, P1 6C, P1 7C, P1 8C, P1 9C, P1 10C, P1 JC, P1 QC, P1 KC, \
         P2 AC, stop ace"
    );
    assert!(moves(&ev).is_empty());
    assert!(hand(&game, 1).is_empty());
    assert_eq!(lead_turn(&game).0, 2);
    let ev = lead(&mut game, "2S", "");
    assert_eq!(
        trace(&ev),
        "L2 2S, P2 3S, P2 4S, P2 5S, P2 6S, P2 7S, P2 8S, P2 9S, P2 10S, P2 JS, P2 QS, out 2"
    );
    // Seat 1 withheld in clubs only: no payment for pay spaces.
    assert_eq!(
        moves(until_deal_end(&ev)),
        vec![
            tr(space(Space::Kitty), stack(2), 3, Reason::WentOut),
            tr(stack(0), stack(2), 2, Reason::CardsLeft),
        ]
    );
    assert_eq!(game.stacks(), &[99, 92, 100]);
    assert_eq!(game.layout().get(Space::Queen), 3);
    assert_eq!(game.layout().get(Space::Ace), 3);
    assert_eq!(game.layout().get(Space::KingQueen), 3);
}

/// Seat 2 withholds 3H, then seat 1 withholds 5H; seat 0 goes out with a
/// run of clubs. Seat 1 holds the AH, seat 2 the KH; the other hearts of
/// note are in the spare.
const TWO_WITHHOLDERS: [&str; 4] = [
    "0000000000...",
    "1111111111122",
    "0201.......21",
    "0...222222222",
];

#[test]
fn t8_withholders_settle_in_the_order_they_first_withheld() {
    let mut rules = michigan_rules();
    rules.misplays = Misplays::Penalised;
    let mut game = table(rules, 3, 0);
    deal_owners(&mut game, TWO_WITHHOLDERS);
    assert_eq!(
        trace(&lead(&mut game, "2H", "3H")),
        "L0 2H, W2 3H, stop 3H unplayed"
    );
    lead(&mut game, "2S", "");
    assert_eq!(
        trace(&lead(&mut game, "4H", "5H")),
        "L0 4H, W1 5H, stop 5H unplayed"
    );
    let ev = lead(&mut game, "2C", "");
    assert!(ev.contains(&Event::WentOut { seat: 0 }));
    let withheld: Vec<Transfer> = moves(until_deal_end(&ev))
        .into_iter()
        .filter(|t| t.reason == Reason::Withheld)
        .collect();
    // Seat 2 withheld first: it pays seat 1 the Ace space's chips before seat
    // 1 pays seat 2 the King's (seat-number order would put seat 1 first).
    assert_eq!(
        withheld,
        vec![
            tr(stack(2), stack(1), 3, Reason::Withheld),
            tr(stack(1), stack(2), 3, Reason::Withheld),
        ]
    );
}

/// Casino rules with penalised misplays, the dealer leading, no poker.
fn casino_michigan() -> Rules {
    let mut rules = michigan_rules();
    rules.lead_colors = LeadColors::Alternate;
    rules.misplays = Misplays::Penalised;
    rules
}

/// Seat 1 withholds 3C; the diamonds, then the hearts, are all played;
/// seat 1's last card, 3C, stops a run with no red card left in any hand.
const WITHHOLDER_EMPTIES: [&str; 4] = [
    "01...........",
    "0000001111222",
    "2222211111111",
    "2.0000002222.",
];

#[test]
fn m6_m9b_stop_player_with_no_cards_the_next_player_with_cards_leads_any_suit() {
    let mut game = table(casino_michigan(), 3, 0);
    deal_owners(&mut game, WITHHOLDER_EMPTIES);
    assert_eq!(
        trace(&lead(&mut game, "2C", "3C")),
        "L0 2C, W1 3C, stop 3C unplayed"
    );
    lead(&mut game, "2D", "");
    lead(&mut game, "2S", "");
    // Seat 1's only card, 3C, is then led for it (its only lead): having
    // withheld, it does not go out, and the run stops at once.
    let ev = lead(&mut game, "2H", "");
    assert_eq!(
        trace(&ev),
        "L2 2H, P2 3H, P2 4H, P2 5H, P2 6H, P1 7H, P1 8H, P1 9H, P1 10H, P1 JH, P1 QH, P1 KH, \
         P1 AH, stop ace, L1 3C, stop 4C unplayed, pass 2, pass 0"
    );
    assert!(hand(&game, 1).is_empty());
    // Nobody holds a red card and the stop player has none at all: the first
    // player on their left with cards leads, any suit (not blocked).
    assert_eq!(lead_turn(&game), (2, cards("10S JS QS KS")));
}

// ----- M10 -----

#[test]
fn m10_every_card_played_is_recorded_as_an_event() {
    let mut game = table(michigan_rules(), 3, 0);
    let mut ev = deal_owners(&mut game, BLOCKED);
    for card in ["2D", "10H", "2H"] {
        ev.extend(lead(&mut game, card, ""));
    }
    let played: Vec<(u8, Card)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Led { seat, card, .. } | Event::Played { seat, card } => Some((*seat, *card)),
            _ => None,
        })
        .collect();
    let (_, _, on_table) = game.card_locations();
    assert_eq!(played.len(), on_table.len() as usize);
    assert_eq!(played.iter().map(|p| p.1).collect::<CardSet>(), on_table);
    // Each card is reported with the seat it was dealt to.
    let dealt = |seat: u8, card: Card| {
        ev.iter().any(
            |e| matches!(e, Event::Dealt { seat: s, cards } if *s == seat && cards.contains(card)),
        )
    };
    assert!(played.iter().all(|&(seat, card)| dealt(seat, card)));
}

#[test]
fn m10_random_games_record_every_card_and_only_leads_and_follows_are_decided() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let penalised = rules.misplays == Misplays::Penalised;
        for seed in 0..3 {
            let mut prev = CardSet::EMPTY;
            let mut deal = 0;
            let mut total = 0;
            play_random(&rules, 4, seed, |game, events| {
                if game.deal_number() != deal {
                    deal = game.deal_number();
                    prev = CardSet::EMPTY;
                }
                let (_, _, played) = game.card_locations();
                let reported: Vec<(u8, Card)> = events
                    .iter()
                    .filter_map(|e| match e {
                        Event::Led { seat, card, .. } | Event::Played { seat, card } => {
                            Some((*seat, *card))
                        }
                        _ => None,
                    })
                    .collect();
                let new = played - prev;
                assert_eq!(
                    reported.len(),
                    new.len() as usize,
                    "{preset}: one event a card"
                );
                assert_eq!(reported.iter().map(|r| r.1).collect::<CardSet>(), new);
                if !new.is_empty() {
                    let view = game.view(None);
                    for (seat, card) in &reported {
                        assert!(view.played[usize::from(*seat)].contains(*card));
                    }
                }
                total += reported.len();
                prev = played;
                if game.stage() == Stage::Michigan
                    && let Pending::Decide { decision, .. } = game.pending()
                {
                    match decision {
                        Decision::Lead { cards } => {
                            // Asked even with one card (its cause is hidden).
                            assert!(!cards.is_empty(), "{preset}: a lead has a card");
                        }
                        Decision::Follow { .. } => assert!(penalised, "{preset}: follow is forced"),
                        other => panic!("{preset}: {other:?} in stage 3"),
                    }
                }
            });
            assert!(total > 0, "{preset}: cards were played");
        }
    }
}
