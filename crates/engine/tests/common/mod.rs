//! Helpers shared by the engine's integration tests; those other crates'
//! tests use too live in `tripoley-testkit`.
#![allow(dead_code)]

use tripoley_cards::{Card, CardSet, Rank, Suit};
use tripoley_engine::{
    Account, Action, DealChance, Decision, Event, FinalPot, Game, MichiganLeader, PayCards,
    PaySuitRule, Pending, PokerRule, Preset, Reason, Rules, SequenceRule, Space, SpareRule,
    Transfer,
};
pub use tripoley_testkit::{cards, deck_for};

/// A game of `players` with `dealer` dealing first (T3 `Seat`), before the
/// first deck is supplied.
pub fn table(mut rules: Rules, players: usize, dealer: u8) -> Game {
    rules.first_dealer = tripoley_engine::FirstDealer::Seat(dealer);
    Game::new(rules, players).expect("valid table")
}

/// Supplies the deal `deck_for` builds; returns its events.
pub fn deal(game: &mut Game, hands: &[&str], spare: &str) -> Vec<Event> {
    let deck = deck_for(game.dealer(), hands, spare);
    let mut ev = game
        .chance(DealChance::deck(deck))
        .expect("the game waits for a deal");
    play_only_leads(game, &mut ev);
    ev
}

/// Applies an action that must be legal, then every lead with one card the
/// game asks next (M10: the leader is asked, and can only play it), so the
/// rules tests follow whole runs; `asked_leads` tests the asking itself.
pub fn act(game: &mut Game, seat: u8, action: Action) -> Vec<Event> {
    let mut ev = game
        .apply(seat, action)
        .unwrap_or_else(|e| panic!("seat {seat} {action:?}: {e}"));
    play_only_leads(game, &mut ev);
    ev
}

/// Plays every lead with one card the game asks, one after the other,
/// appending their events to `ev`.
pub fn play_only_leads(game: &mut Game, ev: &mut Vec<Event>) {
    while let Pending::Decide {
        seat,
        decision: decision @ Decision::Lead { .. },
    } = game.pending()
        && let Some(only) = decision.only()
    {
        ev.extend(game.apply(seat, only).expect("the only lead is legal"));
    }
}

/// The transfers among `events`, as (from, to, amount, reason).
pub fn transfers(events: &[Event]) -> Vec<tripoley_engine::Transfer> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Transfer(t) => Some(*t),
            _ => None,
        })
        .collect()
}

/// The seat that must decide now, and the decision.
pub fn turn(game: &Game) -> (u8, Decision) {
    match game.pending() {
        Pending::Decide { seat, decision } => (seat, decision),
        other => panic!("no decision pending: {other:?}"),
    }
}

/// Rules that go straight from the deal to Michigan: no spare options, no
/// poker, pay cards collected in play, the dealer leads, one deal.
pub fn michigan_rules() -> Rules {
    let mut r = Rules::preset(Preset::Pagat);
    r.spare = SpareRule::Unused;
    r.pay_cards = PayCards::InPlay;
    r.poker = PokerRule::None;
    r.final_pot = FinalPot::Keep;
    r.michigan_leader = MichiganLeader::Dealer;
    r.deals = Some(1);
    r
}

/// Builds the deal from the owner of every card: one string per suit (clubs,
/// diamonds, hearts, spades), 13 owners from the two up to the ace, each a
/// seat digit or `.` for the spare. Under `cosmo` the drawn pay suit is
/// hearts and the Sequence 8-9-10.
pub fn deal_owners(game: &mut Game, suits: [&str; 4]) -> Vec<Event> {
    let mut ev = deal_owners_asked(game, suits);
    play_only_leads(game, &mut ev);
    ev
}

/// [`deal_owners`], stopping at the first decision even when it is a lead
/// with one card.
pub fn deal_owners_asked(game: &mut Game, suits: [&str; 4]) -> Vec<Event> {
    let mut hands = vec![String::new(); game.players()];
    let mut spare = String::new();
    for (suit, text) in Suit::ALL.into_iter().zip(suits) {
        let marks: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(marks.len(), 13, "{suit}: name the owner of all 13 cards");
        for (rank, mark) in Rank::ALL.into_iter().zip(marks) {
            let target = match mark {
                '.' => &mut spare,
                d => &mut hands[d.to_digit(10).expect("a seat digit") as usize],
            };
            target.push_str(&Card::new(rank, suit).to_string());
            target.push(' ');
        }
    }
    let named: Vec<&str> = hands.iter().map(String::as_str).collect();
    let deck = deck_for(game.dealer(), &named, &spare);
    let rules = game.rules().clone();
    let chance = DealChance {
        deck,
        pay_suit: (rules.pay_suit == PaySuitRule::RandomEachDeal).then_some(Suit::Hearts),
        sequence: (rules.sequence == SequenceRule::RandomEachDeal).then_some(Rank::Eight),
    };
    let ev = game.chance(chance).expect("the game waits for a deal");
    // Every hand is exactly as named: nothing was filled in.
    let (held, _, _) = game.card_locations();
    let dealt: Vec<CardSet> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Dealt { seat, cards } => Some((*seat, *cards)),
            _ => None,
        })
        .fold(vec![CardSet::EMPTY; held.len()], |mut v, (s, c)| {
            v[usize::from(s)] = c;
            v
        });
    for (seat, text) in hands.iter().enumerate() {
        assert_eq!(dealt[seat], cards(text), "seat {seat} was dealt as named");
    }
    ev
}

/// Answers stage 2: each seat chooses the five cards given for it (P1),
/// then everyone checks.
pub fn choose_and_check(game: &mut Game, shows: &[&str]) -> Vec<Event> {
    let mut ev = Vec::new();
    loop {
        match game.pending() {
            Pending::Decide {
                seat,
                decision: Decision::Open { .. },
            } => ev.extend(act(game, seat, Action::Check)),
            Pending::Decide {
                seat,
                decision: Decision::ChooseFive { .. },
            } => ev.extend(act(
                game,
                seat,
                Action::Choose(cards(shows[usize::from(seat)])),
            )),
            _ => return ev,
        }
    }
}

/// P1: every seat chooses its five, in the order the game asks: the cards
/// given for it, or its five lowest cards where none are given.
pub fn choose_fives(game: &mut Game, fives: &[&str]) -> Vec<Event> {
    let mut ev = Vec::new();
    while let Pending::Decide {
        seat,
        decision: Decision::ChooseFive { from },
    } = game.pending()
    {
        let given = fives.get(usize::from(seat)).copied().unwrap_or("");
        let five = if given.is_empty() {
            from.iter().take(5).collect()
        } else {
            cards(given)
        };
        ev.extend(act(game, seat, Action::Choose(five)));
    }
    ev
}

pub fn tr(from: Account, to: Account, amount: u32, reason: Reason) -> Transfer {
    Transfer {
        from,
        to,
        amount,
        reason,
    }
}

pub fn stack(seat: u8) -> Account {
    Account::Stack(seat)
}

pub fn space(space: Space) -> Account {
    Account::Space(space)
}

/// A deal by the owner of every card (see `deal_owners`), shared by several tests.
pub const STD: [&str; 4] = [
    "0120120120120",
    "1201201201201",
    "2012012012012",
    ".............",
];

/// A deal by the owner of every card (see `deal_owners`), shared by several tests.
pub const PLAYED_EARLIER: [&str; 4] = [
    "12121000.....",
    "0000001111111",
    "0000222222222",
    "11122........",
];

/// A deal by the owner of every card (see `deal_owners`), shared by several tests.
pub const BLOCKED: [&str; 4] = [
    "01112.0001122",
    "0000111122222",
    "0000111122222",
    "............0",
];
