//! The analysis finds a known blunder: a player dealt a royal flush who
//! folds it to a bet (P4) gives up the Pot space (P5, P6) that no hand can
//! take from it; that fold is ranked first among their decisions.

use tripoley_analysis::{Options, analyse};
use tripoley_bots::HeuristicBot;
use tripoley_cards::{Card, CardSet, Deck, seeded_rng};
use tripoley_engine::{
    Action, DealChance, Decision, Game, InfoSet, Pending, Preset, Record, Rules, Step,
};
use tripoley_game::Bot as _;

/// The royal flush seat 0 is dealt (spades: not the pay suit, so stage 1
/// leaves it whole).
fn royal() -> CardSet {
    ["AS", "KS", "QS", "JS", "TS"]
        .iter()
        .map(|c| c.parse::<Card>().expect("a card"))
        .collect()
}

/// A shuffled deck rearranged so that seat 0's hand holds the royal flush.
fn stacked(game: &Game, seed: u64) -> DealChance {
    let deck = Deck::shuffled(&mut seeded_rng(seed));
    let mut probe = game.clone();
    probe
        .chance(DealChance::deck(deck.clone()))
        .expect("a deck deals");
    let hand = probe.card_locations().0[0];
    let mut cards = *deck.cards();
    let spare = hand - royal();
    for (want, give) in (royal() - hand).iter().zip(spare.iter()) {
        let a = cards.iter().position(|&c| c == want).expect("in the deck");
        let b = cards.iter().position(|&c| c == give).expect("in the deck");
        cards.swap(a, b);
    }
    DealChance::deck(Deck::from_cards(&cards).expect("the same 52 cards"))
}

/// A one-deal game where seat 0, dealt a royal flush, checks and then folds
/// it to a bet while heuristic bots play every other decision (the final
/// pot's poker too); `None` when nobody bet into it.
fn blundered_game(seed: u64) -> Option<(Record, usize)> {
    let mut rules = Rules::preset(Preset::Pagat);
    rules.deals = Some(1);
    let names = ["Ana", "Ben", "Cy", "Di"].map(String::from).to_vec();
    let mut record = Record::new(rules.clone(), names);
    let mut game = record.start(&mut Vec::new()).expect("it starts");
    let mut bot = HeuristicBot::for_rules(&rules);
    let mut rng = seeded_rng(seed);
    let mut blunder = None;
    loop {
        let step = match game.pending() {
            Pending::GameOver => return blunder.map(|at| (record, at)),
            Pending::Chance(_) => Step::Chance(stacked(&game, seed)),
            Pending::Decide { seat, decision } => {
                let action = match decision {
                    Decision::Open { .. } if seat == 0 && blunder.is_none() => Action::Check,
                    Decision::Respond { .. } if seat == 0 && blunder.is_none() => {
                        blunder = Some(record.steps.len());
                        Action::Fold
                    }
                    _ => bot.act_in(&InfoSet::new(&game, seat), &mut rng),
                };
                Step::Act { seat, action }
            }
        };
        game.step(&step, &mut Vec::new()).expect("a legal step");
        record.steps.push(step);
    }
}

#[test]
fn p4_folding_a_royal_flush_to_a_bet_ranks_first() {
    let (record, step) = (0..100)
        .find_map(blundered_game)
        .expect("someone bets into seat 0 in one of 100 deals");
    let options = Options {
        seat: Some(0),
        playouts: 600,
    };
    let analysis = analyse(&record, &options, &mut |_, _| true).expect("it analyses");
    let worst = &analysis.decisions[0];
    assert_eq!(worst.step, step, "{:#?}", analysis.decisions);
    assert_eq!(worst.played, Action::Fold);
    assert_ne!(worst.best, Action::Fold);
    assert!(
        worst.cost > 3.0 * worst.std_error && worst.cost >= 2.0,
        "{worst:?}"
    );
    // Reproducible: the same verdicts again.
    let again = analyse(&record, &options, &mut |_, _| true).expect("it analyses");
    assert_eq!(again, analysis);
}
