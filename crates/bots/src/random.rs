//! [`RandomBot`]: a uniformly random legal action.

use tripoley_cards::{CardSet, GameRng, Suit};
use tripoley_engine::{Action, Decision, Game, InfoSet, View};

use crate::{Bot, below};

/// Picks uniformly among the legal answers of each decision (a random five
/// of the hand for a poker hand). The baseline every other bot must beat.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl tripoley_game::Bot<Game> for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn act(&mut self, view: &View, rng: &mut GameRng) -> Action {
        let decision = view.decision.expect("the bot is asked only on its turn");
        random_action(&decision, rng)
    }

    /// The decision alone is enough: no view is built (fast self-play).
    fn act_in(&mut self, info: &InfoSet<'_>, rng: &mut GameRng) -> Action {
        let decision = info.decision().expect("the bot is asked only on its turn");
        random_action(decision, rng)
    }
}

impl Bot for RandomBot {}

/// A uniformly random answer to `decision`, without listing large choices.
pub(crate) fn random_action(decision: &Decision, rng: &mut GameRng) -> Action {
    match *decision {
        Decision::ChooseFive { from } => Action::Choose(random_subset(from, 5, rng)),
        // One card: no draw, so games play as when the engine led it.
        Decision::Lead { cards } if cards.len() == 1 => Action::Lead(pick(cards, 0)),
        Decision::Lead { cards } => Action::Lead(pick(cards, below(rng, cards.len()))),
        Decision::AuctionBid { min, max, .. } | Decision::PaySuitBid { min, max } => {
            let bids = if max >= min { max - min + 1 } else { 0 };
            match below(rng, bids + 1) {
                0 => Action::Pass,
                k => Action::Bid(min + k - 1),
            }
        }
        Decision::Open { max_bet } => match below(rng, max_bet + 1) {
            0 => Action::Check,
            k => Action::Bet(k),
        },
        Decision::Respond { max_raise, .. } => match below(rng, max_raise + 2) {
            0 => Action::Fold,
            1 => Action::Call,
            k => Action::Raise(k - 1),
        },
        Decision::SpareOption {
            can_swap,
            can_auction,
            can_swap_and_auction,
        } => random_spare_option([can_swap, can_auction, can_swap_and_auction], rng),
        Decision::NamePaySuit => Action::NameSuit(Suit::ALL[below(rng, 4) as usize]),
        Decision::Follow { .. } => {
            if below(rng, 2) == 0 {
                Action::Play
            } else {
                Action::Withhold
            }
        }
    }
}

/// The `i`-th card of `cards`, which has more than `i`.
fn pick(cards: CardSet, i: u32) -> tripoley_cards::Card {
    cards.nth(i).expect("index below the set's size")
}

/// One of the dealer's open spare options (D3), uniformly: keep, and those
/// of swap / auction / swap-and-auction that are open. Out of line, like
/// [`random_subset`]: a decision once a deal keeps the bot's hot path small.
#[inline(never)]
fn random_spare_option(open: [bool; 3], rng: &mut GameRng) -> Action {
    // A constant table, not one built on the stack per call: reading an
    // answer back from freshly stored pairs stalls the processor.
    const OPTIONS: [Action; 3] = [Action::Swap, Action::AuctionSpare, Action::SwapAndAuction];
    let count = 1 + open.iter().filter(|&&o| o).count() as u32;
    let mut pick = below(rng, count);
    if pick == 0 {
        return Action::Keep;
    }
    for (option, is_open) in OPTIONS.into_iter().zip(open) {
        if is_open {
            pick -= 1;
            if pick == 0 {
                return option;
            }
        }
    }
    unreachable!("the pick is below the count")
}

/// `k` cards of `from`, uniformly.
#[inline(never)]
fn random_subset(from: CardSet, k: u32, rng: &mut GameRng) -> CardSet {
    let mut left = from;
    let mut out = CardSet::EMPTY;
    for _ in 0..k {
        let c = pick(left, below(rng, left.len()));
        left.remove(c);
        out.insert(c);
    }
    out
}
