//! [`Why`]: the reason a verdict gives, in the search's own numbers. Both
//! moves were played out in the same sample games ([`tripoley_bots::judge`]),
//! each followed part by part ([`Earned`]); the part that accounts for most
//! of the cost is the reason, and a part where the move made did better is
//! the trade-off. The words are the catalogue's (`why` and `why-but` in `why.ftl`),
//! shared by `tripoley analyse` and the browser's analysis.

use serde::Serialize;
use tripoley_bots::Earned;
use tripoley_engine::Action;

/// A part must differ by this many chips to be a reason or a trade-off.
const MATERIAL: f64 = 0.5;

/// Why the expert's choice beats the move made.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Why {
    /// What explains most of the cost (its words: the `kind` of the message `why`).
    pub kind: WhyKind,
    /// The chips it is worth: what the expert's choice gains there, or
    /// the extra price paid.
    pub chips: f64,
    /// For a price (`paid`, `unpaid`): what the rest brought back.
    pub back: f64,
    /// Percent of the sample games in which the expert's choice won the
    /// poker pot (`fold`, `poker`) or went out first (`michigan`).
    pub best_percent: u8,
    /// The same for the move made.
    pub played_percent: u8,
    /// A part in which the move made did better, when one did by
    /// `MATERIAL` chips or more.
    pub but: Option<Trade>,
}

/// What a reason is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WhyKind {
    /// A fold gave up a pot the hand wins often.
    Fold,
    /// A bet, call or raise put chips into a pot the hand rarely wins.
    Chased,
    /// The move made paid more (an auction's or the pay suit's price) than
    /// the expert's, for some of it back.
    Paid,
    /// The move made paid more for a hand worth less than the one it had.
    PaidWorse,
    /// The expert would have paid, and got more back.
    Unpaid,
    /// The expert's choice brings more from an auction (a dealer's sale).
    Sold,
    /// The poker pot won more often.
    Poker,
    /// The poker pot won as often, but bigger (or lost smaller).
    BiggerPots,
    /// Michigan: going out first more often.
    Michigan,
    /// Michigan: going out as often, for more (the cards left, the Kitty,
    /// blocked play).
    MichiganCards,
    /// The pay spaces.
    PayCards,
    /// The chips left on the layout for later deals.
    Board,
}

impl WhyKind {
    /// Its name as serialised: the `kind` of the message `why`.
    pub fn name(self) -> &'static str {
        match self {
            WhyKind::Fold => "fold",
            WhyKind::Chased => "chased",
            WhyKind::Paid => "paid",
            WhyKind::PaidWorse => "paid-worse",
            WhyKind::Unpaid => "unpaid",
            WhyKind::Sold => "sold",
            WhyKind::Poker => "poker",
            WhyKind::BiggerPots => "bigger-pots",
            WhyKind::Michigan => "michigan",
            WhyKind::MichiganCards => "michigan-cards",
            WhyKind::PayCards => "pay-cards",
            WhyKind::Board => "board",
        }
    }
}

/// A part of the deal in which the move made did better.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Trade {
    /// Which (its words: the `part` of `why-but`).
    pub part: WhyPart,
    /// By how many chips.
    pub chips: f64,
}

/// The parts of a deal a choice's chips come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WhyPart {
    /// Auction prices and the pay suit's bid.
    Spare,
    /// Pay spaces.
    PayCards,
    /// Bets and pots.
    Poker,
    /// Michigan.
    Michigan,
    /// The layout's chips for later deals.
    Board,
}

impl WhyPart {
    /// Its name as serialised: the `part` of the message `why-but`.
    pub fn name(self) -> &'static str {
        match self {
            WhyPart::Spare => "spare",
            WhyPart::PayCards => "pay-cards",
            WhyPart::Poker => "poker",
            WhyPart::Michigan => "michigan",
            WhyPart::Board => "board",
        }
    }

    const ALL: [WhyPart; 5] = [
        WhyPart::Spare,
        WhyPart::PayCards,
        WhyPart::Poker,
        WhyPart::Michigan,
        WhyPart::Board,
    ];

    fn of(self, e: &Earned) -> f64 {
        match self {
            WhyPart::Spare => e.spare,
            WhyPart::PayCards => e.pay_cards,
            WhyPart::Poker => e.poker,
            WhyPart::Michigan => e.michigan,
            WhyPart::Board => e.board,
        }
    }
}

/// The reason for a verdict whose best is not the move made: `moves` are
/// the move made and the best, `played` and `best` what each brought in the
/// same sample games. `None` when the
/// difference is too small to name a part.
pub fn why(moves: (Action, Action), played: &Earned, best: &Earned) -> Option<Why> {
    let (played_action, best_action) = moves;
    let gain = |p: WhyPart| p.of(best) - p.of(played);
    let cost: f64 = WhyPart::ALL.iter().map(|&p| gain(p)).sum();
    if cost < MATERIAL {
        return None;
    }
    // A share of playouts is in 0..=1: its percentage fits a u8.
    #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
    let percent = |x: f64| (x * 100.0).round().clamp(0.0, 100.0) as u8;
    let pot = (percent(best.pot_won), percent(played.pot_won));
    let out = (percent(best.went_out), percent(played.went_out));
    let price = gain(WhyPart::Spare);
    let biggest = WhyPart::ALL
        .into_iter()
        .max_by(|&a, &b| gain(a).total_cmp(&gain(b)))
        .expect("parts");
    let (kind, chips, back, (best_percent, played_percent)) =
        if price >= MATERIAL && played.spare < 0.0 {
            // The move made bought dearer: the rest brought back
            // `price - cost`.
            let back = price - cost;
            let kind = if back >= MATERIAL {
                WhyKind::Paid
            } else {
                WhyKind::PaidWorse
            };
            (kind, price, back.max(0.0), (0, 0))
        } else if -price >= MATERIAL && best.spare < 0.0 {
            (WhyKind::Unpaid, -price, cost - price, (0, 0))
        } else {
            let chips = gain(biggest);
            match biggest {
                WhyPart::Spare => (WhyKind::Sold, chips, 0.0, (0, 0)),
                WhyPart::Poker if played_action == Action::Fold => (WhyKind::Fold, chips, 0.0, pot),
                WhyPart::Poker if puts_in(played_action) && !puts_in(best_action) => {
                    (WhyKind::Chased, chips, 0.0, pot)
                }
                WhyPart::Poker if pot.0 != pot.1 => (WhyKind::Poker, chips, 0.0, pot),
                WhyPart::Poker => (WhyKind::BiggerPots, chips, 0.0, pot),
                WhyPart::Michigan if out.0 != out.1 => (WhyKind::Michigan, chips, 0.0, out),
                WhyPart::Michigan => (WhyKind::MichiganCards, chips, 0.0, out),
                WhyPart::PayCards => (WhyKind::PayCards, chips, 0.0, (0, 0)),
                WhyPart::Board => (WhyKind::Board, chips, 0.0, (0, 0)),
            }
        };
    // A price is weighed against everything else together: no trade-off.
    let but = if matches!(kind, WhyKind::Paid | WhyKind::Unpaid) {
        None
    } else {
        WhyPart::ALL
            .into_iter()
            .min_by(|&a, &b| gain(a).total_cmp(&gain(b)))
            .filter(|&p| -gain(p) >= MATERIAL)
            .map(|part| Trade {
                part,
                chips: -gain(part),
            })
    };
    Some(Why {
        kind,
        chips,
        back,
        best_percent,
        played_percent,
        but,
    })
}

/// Whether a move puts chips on the Pot.
fn puts_in(a: Action) -> bool {
    matches!(a, Action::Bet(_) | Action::Call | Action::Raise(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn earned(spare: f64, pay_cards: f64, poker: f64, michigan: f64, board: f64) -> Earned {
        Earned {
            spare,
            pay_cards,
            poker,
            michigan,
            board,
            ..Earned::default()
        }
    }

    #[test]
    fn a_price_paid_is_weighed_against_what_came_back() {
        // Bid 50 for a hand whose pay cards brought 9 more than passing.
        let w = why(
            (Action::Bid(50), Action::Pass),
            &earned(-50.0, 12.0, 0.0, 1.0, 0.0),
            &earned(0.0, 3.0, 0.0, 1.0, 0.0),
        )
        .expect("a reason");
        assert_eq!(w.kind, WhyKind::Paid);
        assert!((w.chips - 50.0).abs() < 1e-9 && (w.back - 9.0).abs() < 1e-9);
        // The same price for a hand worth less than the one given up.
        let w = why(
            (Action::Bid(50), Action::Pass),
            &earned(-50.0, 2.0, 0.0, 1.0, 0.0),
            &earned(0.0, 8.0, 0.0, 1.0, 0.0),
        )
        .expect("a reason");
        assert_eq!((w.kind, w.back), (WhyKind::PaidWorse, 0.0));
        assert_eq!(w.but, None);
    }

    #[test]
    fn a_sale_missed_is_no_price_paid() {
        // The dealer kept a spare the expert would have auctioned for 20.
        let w = why(
            (Action::Keep, Action::AuctionSpare),
            &earned(0.0, 6.0, 0.0, 0.0, 0.0),
            &earned(20.0, 0.0, 0.0, 0.0, 0.0),
        )
        .expect("a reason");
        assert_eq!(w.kind, WhyKind::Sold);
        let but = w.but.expect("the pay cards went the other way");
        assert_eq!(but.part, WhyPart::PayCards);
    }

    #[test]
    fn a_fold_names_the_pot_given_up() {
        let mut call = earned(0.0, 0.0, 8.0, 0.0, 0.0);
        call.pot_won = 0.83;
        let w = why(
            (Action::Fold, Action::Call),
            &earned(0.0, 0.0, -2.0, 0.0, 0.0),
            &call,
        )
        .expect("a reason");
        assert_eq!(
            (w.kind, w.best_percent, w.played_percent),
            (WhyKind::Fold, 83, 0)
        );
    }

    #[test]
    fn a_call_names_the_pot_it_rarely_wins() {
        let mut call = earned(0.0, 0.0, -10.0, 0.0, 0.0);
        call.pot_won = 0.05;
        let w = why(
            (Action::Call, Action::Fold),
            &call,
            &earned(0.0, 0.0, -2.0, 0.0, 0.0),
        )
        .expect("a reason");
        assert_eq!((w.kind, w.played_percent), (WhyKind::Chased, 5));
        assert!((w.chips - 8.0).abs() < 1e-9);
    }

    #[test]
    fn the_biggest_part_is_the_reason_and_the_other_way_a_trade_off() {
        let mut played = earned(0.0, 0.0, 3.0, 1.0, 0.0);
        played.went_out = 0.2;
        let mut best = earned(0.0, 0.0, 1.5, 5.0, 0.0);
        best.went_out = 0.45;
        let w = why((Action::Check, Action::Bet(5)), &played, &best).expect("a reason");
        assert_eq!(w.kind, WhyKind::Michigan);
        assert!((w.chips - 4.0).abs() < 1e-9);
        assert_eq!((w.best_percent, w.played_percent), (45, 20));
        let but = w.but.expect("poker went the other way");
        assert_eq!(but.part, WhyPart::Poker);
        assert!((but.chips - 1.5).abs() < 1e-9);
    }

    #[test]
    fn the_words_are_named_as_serialised() {
        let kinds = [
            WhyKind::Fold,
            WhyKind::Chased,
            WhyKind::Paid,
            WhyKind::PaidWorse,
            WhyKind::Unpaid,
            WhyKind::Sold,
            WhyKind::Poker,
            WhyKind::BiggerPots,
            WhyKind::Michigan,
            WhyKind::MichiganCards,
            WhyKind::PayCards,
            WhyKind::Board,
        ];
        for k in kinds {
            assert_eq!(serde_json::to_value(k).expect("serialises"), k.name());
        }
        for p in WhyPart::ALL {
            assert_eq!(serde_json::to_value(p).expect("serialises"), p.name());
        }
    }

    #[test]
    fn a_difference_of_less_than_half_a_chip_gives_no_reason() {
        assert_eq!(
            why(
                (Action::Check, Action::Bet(2)),
                &earned(0.0, 0.0, 1.0, 0.0, 0.0),
                &earned(0.0, 0.0, 1.3, 0.0, 0.0)
            ),
            None
        );
    }
}
