//! A verdict says why (issue 47), and its reason is right where the answer
//! is known: over the expert's proof positions (`tripoley_bots::positions`),
//! the verdict on each position's wrong answer names the part of the deal
//! that makes it wrong, with figures that add up to its cost.

use tripoley_analysis::{WhyKind, why};
use tripoley_bots::positions::{self, Kind, SUITE_BUDGET};
use tripoley_bots::{Earned, judge};
use tripoley_engine::{Action, InfoSet};

/// The chips of every part together.
fn total(e: &Earned) -> f64 {
    e.spare + e.pay_cards + e.poker + e.michigan + e.board
}

#[test]
fn the_reason_for_each_known_wrong_answer_is_the_part_that_makes_it_wrong() {
    let mut wrong = Vec::new();
    for p in positions::all() {
        let built = p.build().unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let decision = built.game.view(Some(p.seat)).decision.expect("a decision");
        let played = p.wrong_action(&decision).expect("a wrong answer");
        let v = judge(
            &InfoSet::new(&built.game, p.seat),
            &p.rules(),
            played,
            SUITE_BUDGET,
            7,
        );
        // The parts add up to the verdict: every chip the seat won or paid
        // in the playouts is in one of them.
        let parts = total(&v.best_earned) - total(&v.played_earned);
        assert!(
            (parts - v.cost).abs() < 1e-6,
            "{}: parts {parts} for a cost of {}",
            p.name,
            v.cost
        );
        let Some(w) = why((v.played, v.best), &v.played_earned, &v.best_earned) else {
            // Only a near tie has no reason.
            assert!(
                v.cost < 0.5,
                "{}: a cost of {} with no reason",
                p.name,
                v.cost
            );
            continue;
        };
        let right = match (p.kind, played) {
            // A fold gives up a pot the hand wins most of the time; a call
            // pays into one it almost never wins.
            (Kind::Betting, Action::Fold) => w.kind == WhyKind::Fold && w.best_percent >= 70,
            (Kind::Betting, _) => w.kind == WhyKind::Chased && w.played_percent <= 5,
            // A weaker five wins the pot less often.
            (Kind::ChooseFive, _) => w.kind == WhyKind::Poker && w.best_percent > w.played_percent,
            // Too high a bid: the price, for less than it brings back.
            (Kind::Spare, Action::Bid(bid)) => {
                matches!(w.kind, WhyKind::Paid | WhyKind::PaidWorse)
                    && (w.chips - f64::from(bid)).abs() < 1.0
                    && w.back < w.chips
            }
            // Giving up the honours: the pay cards, or the poker hand.
            (Kind::Spare, _) => matches!(w.kind, WhyKind::PayCards | WhyKind::Poker),
            (Kind::Michigan, _) => matches!(w.kind, WhyKind::Michigan | WhyKind::MichiganCards),
        };
        if !right {
            wrong.push(format!("{}: {w:?} (cost {:.2})", p.name, v.cost));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
