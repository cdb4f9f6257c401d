//! Helpers the project's tests share, so that no crate's tests keep a copy:
//! decks that deal the hands a test names, a uniformly random legal answer,
//! whole seeded random games, and [`properties`], the property suite every
//! game keeps, written once for Tripoley and Napalm. Only tests depend on
//! this crate.

pub mod properties;

use rand_core::Rng;
use tripoley_cards::{CardSet, Deck, GameRng};
use tripoley_engine::{Action, Decision, Event, Game, InfoSet, Record, Rules, View};
use tripoley_game::Bot;

/// A uniformly random answer to `decision`, built from its shape.
pub fn random_action(decision: &Decision, rng: &mut GameRng) -> Action {
    let below =
        |rng: &mut GameRng, n: u32| ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
    // One answer: no draw, so a game plays as it did when the engine made
    // such moves itself (records and seeds stay comparable).
    if let Some(only) = decision.only() {
        return only;
    }
    if let Decision::ChooseFive { from } = *decision {
        let mut cards = from.to_vec();
        let mut five = CardSet::EMPTY;
        for _ in 0..5 {
            let i = below(rng, cards.len() as u32) as usize;
            five.insert(cards.swap_remove(i));
        }
        Action::Choose(five)
    } else {
        let all = decision.actions();
        all[below(rng, all.len() as u32) as usize]
    }
}

/// Plays a whole Tripoley game with random legal actions ([`random_players`]),
/// calling `check` after the start and after every step; returns the record,
/// the game and every event.
pub fn play_random(
    rules: &Rules,
    players: usize,
    seed: u64,
    mut check: impl FnMut(&Game, &[Event]),
) -> (Record, Game, Vec<Event>) {
    let mut record = Record::new(
        rules.clone(),
        (0..players).map(|i| format!("P{i}")).collect(),
    );
    let mut events = Vec::new();
    let mut game = Game::start(rules.clone(), players, &mut events).expect("valid table");
    check(&game, &events);
    let mut bots = random_players(players);
    record.steps = properties::play_out(&mut game, seed, &mut bots, |game, _, step_events| {
        check(game, step_events);
        events.extend_from_slice(step_events);
    });
    (record, game, events)
}

/// Tripoley's players of testkit's random games, one per seat: each answers
/// with [`random_action`]. Not the bots' `RandomBot`, which draws
/// differently: the games tests have stored (goldens, records) were played
/// with these draws.
pub fn random_players(players: usize) -> Vec<Box<dyn Bot<Game>>> {
    (0..players)
        .map(|_| Box::new(RandomAnswers) as Box<dyn Bot<Game>>)
        .collect()
}

/// See [`random_players`].
struct RandomAnswers;

impl Bot<Game> for RandomAnswers {
    fn name(&self) -> &'static str {
        "random answers"
    }

    fn act(&mut self, view: &View, rng: &mut GameRng) -> Action {
        random_action(&view.decision.expect("asked on its turn"), rng)
    }

    fn act_in(&mut self, info: &InfoSet<'_>, rng: &mut GameRng) -> Action {
        random_action(info.decision().expect("asked on its turn"), rng)
    }
}

/// Parses "AH KH 10C".
pub fn cards(text: &str) -> CardSet {
    text.parse().expect("card text")
}

/// The deck that deals exactly `hands` (by seat) and `spare` when `dealer`
/// deals (D1: left of the dealer first, the spare right after the dealer).
/// Hands given incompletely are filled, in dealing order, with the cards no
/// hand names, lowest first: tests name every card that matters.
pub fn deck_for(dealer: u8, hands: &[&str], spare: &str) -> Deck {
    let n = hands.len();
    let order: Vec<usize> = (1..=n).map(|i| (usize::from(dealer) + i) % n).collect();
    let mut wanted: Vec<CardSet> = order.iter().map(|&s| cards(hands[s])).collect();
    wanted.push(cards(spare));
    let sizes: Vec<usize> = (0..=n)
        .map(|i| 52 / (n + 1) + usize::from(i < 52 % (n + 1)))
        .collect();
    let named = wanted.iter().fold(CardSet::EMPTY, |a, &h| {
        assert!((a & h).is_empty(), "a card named twice");
        a | h
    });
    let mut free = (CardSet::FULL - named).iter();
    for (h, size) in wanted.iter_mut().zip(&sizes) {
        assert!(
            h.len() as usize <= *size,
            "hand {h} has more than {size} cards"
        );
        while (h.len() as usize) < *size {
            h.insert(free.next().expect("enough cards"));
        }
    }
    let lists: Vec<Vec<tripoley_cards::Card>> = wanted.iter().map(|h| h.to_vec()).collect();
    let mut deck = Vec::with_capacity(52);
    for round in 0..sizes[0] {
        for list in &lists {
            if let Some(&c) = list.get(round) {
                deck.push(c);
            }
        }
    }
    Deck::from_cards(&deck).expect("52 cards")
}
