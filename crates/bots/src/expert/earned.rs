//! [`Earned`]: what a choice brought the searching seat in its playouts,
//! part by part of the deal, so that a verdict can say why one choice beats
//! another in the search's own numbers (issue 47: "you paid 50 for a spare
//! that brought back 9", "folding gave up a pot you win 83% of the time").
//!
//! A playout's chips are followed through the engine's transfers, each
//! sorted by its reason ([`tally`]); what the seat's share of the layout
//! gained or lost is the rest, so the parts add up to exactly what the
//! choice was worth.

use tripoley_engine::{Account, Event, Reason, Seat};

/// Chips a choice brought the seat, by part of the deal (won minus paid),
/// and how often it won the poker pot and went out first: one playout's,
/// or a mean over playouts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Earned {
    /// Auction prices paid or received (D4) and the pay suit's bid (H8).
    pub spare: f64,
    /// Pay spaces taken (H1-H6).
    pub pay_cards: f64,
    /// Bets, pots won, the Poker Pool (P4-P9).
    pub poker: f64,
    /// Michigan: the Kitty and the cards left (M7), blocked play (M5),
    /// misplays' prices (M9).
    pub michigan: f64,
    /// The seat's share of the chips left on the layout, to be won in later
    /// deals, and the final pots (E2).
    pub board: f64,
    /// The share of playouts in which the seat won (part of) the poker pot.
    pub pot_won: f64,
    /// The share of playouts in which the seat went out first (M7).
    pub went_out: f64,
}

impl Earned {
    /// The chips of every part together: what the choice was worth.
    pub fn total(&self) -> f64 {
        self.spare + self.pay_cards + self.poker + self.michigan + self.board
    }

    /// Adds another's figures to these (for a mean: then [`Earned::scaled`]).
    pub(crate) fn add(&mut self, o: &Earned) {
        self.spare += o.spare;
        self.pay_cards += o.pay_cards;
        self.poker += o.poker;
        self.michigan += o.michigan;
        self.board += o.board;
        self.pot_won += o.pot_won;
        self.went_out += o.went_out;
    }

    /// Every figure times `k`.
    pub(crate) fn scaled(&self, k: f64) -> Earned {
        Earned {
            spare: self.spare * k,
            pay_cards: self.pay_cards * k,
            poker: self.poker * k,
            michigan: self.michigan * k,
            board: self.board * k,
            pot_won: self.pot_won * k,
            went_out: self.went_out * k,
        }
    }
}

/// What `seat` earned in a playout that told `events` and took it from
/// being worth `before` to `after`: each transfer of its chips by reason,
/// and the change of its share of the layout as what the transfers do not
/// account for.
///
/// The events are collected whole (`Vec<Event>`, the sink the tables use)
/// rather than tallied by a sink of their own: a new sink type would be a
/// new copy of the engine in the browser's WebAssembly, some 5 KB of its
/// first load.
pub(crate) fn tally(events: &[Event], seat: Seat, before: f64, after: f64) -> Earned {
    let mine = Account::Stack(seat);
    let mut e = Earned::default();
    for event in events {
        match *event {
            Event::Transfer(t) => {
                let chips = if t.to == mine {
                    f64::from(t.amount)
                } else if t.from == mine {
                    -f64::from(t.amount)
                } else {
                    continue;
                };
                match t.reason {
                    Reason::AuctionPrice | Reason::PaySuitBid => e.spare += chips,
                    Reason::PayCard | Reason::KingQueen | Reason::Sequence => e.pay_cards += chips,
                    Reason::PotWon | Reason::PokerPool => {
                        e.poker += chips;
                        e.pot_won = 1.0;
                    }
                    Reason::Bet | Reason::Unmatched => e.poker += chips,
                    Reason::Blocked
                    | Reason::WentOut
                    | Reason::CardsLeft
                    | Reason::Misled
                    | Reason::Withheld => e.michigan += chips,
                    Reason::Ante | Reason::FinalPotGathered | Reason::FinalPot => e.board += chips,
                }
            }
            Event::WentOut { seat: s } if s == seat => e.went_out = 1.0,
            _ => {}
        }
    }
    e.board += after - before - e.total();
    e
}
