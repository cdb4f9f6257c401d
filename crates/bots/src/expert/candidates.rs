//! The answers worth searching at a decision: every answer where there are
//! few (spare options, leads, follow or withhold, the pay suit), and a few
//! representative ones where there are many (bids, bets, five cards to show).

use arrayvec::ArrayVec;
use tripoley_engine::{Action, Decision, PayCards, Rules, View};

use crate::heuristic::live_pay_cards;

/// At most this many candidates (a two-player hand has 18 cards to lead).
pub(crate) const MAX_CANDIDATES: usize = 32;

/// The candidates, `first` (the heuristic's choice) first, without repeats,
/// every one legal.
pub(crate) fn candidates(
    view: &View,
    decision: Decision,
    first: Action,
    rules: &Rules,
) -> ArrayVec<Action, MAX_CANDIDATES> {
    let mut out = ArrayVec::new();
    let mut add = |a: Action| {
        if decision.check(a).is_ok() && !out.contains(&a) && !out.is_full() {
            out.push(a);
        }
    };
    add(first);
    match decision {
        Decision::SpareOption { .. } | Decision::NamePaySuit | Decision::Follow { .. } => {
            decision.actions().into_iter().for_each(&mut add);
        }
        Decision::AuctionBid { min, .. } | Decision::PaySuitBid { min, .. } => {
            add(Action::Pass);
            for extra in [0, 2, 5] {
                add(Action::Bid(min + extra));
            }
        }
        Decision::Open { max_bet } => {
            add(Action::Check);
            if max_bet > 0 {
                add(Action::Bet(1));
                add(Action::Bet(max_bet.div_ceil(3)));
                add(Action::Bet(max_bet));
            }
        }
        Decision::Respond { max_raise, .. } => {
            add(Action::Fold);
            add(Action::Call);
            if max_raise > 0 {
                add(Action::Raise(max_raise.div_ceil(3)));
                add(Action::Raise(max_raise));
            }
        }
        Decision::ChooseFive { from } => {
            let eval = rules.evaluator();
            add(Action::Choose(eval.best_five(from).1));
            // Conceding before the betting: the weakest five reveals the least if shown.
            add(Action::Choose(eval.lowest_five(from).1));
            // The best five that keeps live pay cards hidden (collected in play).
            if rules.pay_cards == PayCards::InPlay {
                let hidden = from - live_pay_cards(view);
                if hidden.len() >= 5 {
                    add(Action::Choose(eval.best_five(hidden).1));
                }
            }
        }
        Decision::Lead { cards } => cards.iter().map(Action::Lead).for_each(&mut add),
    }
    out
}
