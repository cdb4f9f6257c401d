//! M9b's settlement as the table saw it, so a sampled world can be held to
//! it: who paid whom for withholding is public, who withheld is not.

use arrayvec::ArrayVec;
use tripoley_cards::{Card, CardSet, Suit};

use crate::game::{Game, MAX_SEATS};
use crate::layout::{Seat, Space};

/// M9b: the cards the runs stopped below without anyone playing them, in
/// order (public: each was withheld, or lay in the spare). Distinct, so a
/// deal has 52 at most; held in place, so a game clones without allocating.
pub(crate) type Stops = ArrayVec<Card, 52>;

/// Each withholding payment of a settlement: payer, payee, chips paid
/// (seats as [`Seat`]s: a settlement copies the list out, so it is kept small).
pub(crate) type Payments = ArrayVec<(Seat, Seat, u32), { MAX_SEATS * 5 }>;

/// M9b: what a settlement began from: the chips on each single-card pay
/// space ([`Space::PAY_CARDS`] order) and the stacks (a payer running short
/// pays what they have, T6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Settled {
    pub chips: [u32; 5],
    pub stacks: [u32; MAX_SEATS],
}

/// M9b's settlement of a world in which seat `h` held `held[h]` at some
/// time of the deal (its hand and every card it played) and holds
/// `hands[h]` as stage 3 ends: each stop card a seat held it withheld, so
/// withholders come in the order of their first stop card, and each that
/// withheld in the pay suit `pay` pays, space by space, the holder of each
/// pay card whose space held chips, as much as they still have (`from`).
pub(crate) fn payments(
    stops: &[Card],
    held: &[CardSet],
    hands: &[CardSet],
    pay: Suit,
    from: Settled,
) -> Payments {
    let Settled { chips, mut stacks } = from;
    let mut suits = [0u8; MAX_SEATS];
    let mut order: ArrayVec<usize, MAX_SEATS> = ArrayVec::new();
    for &card in stops {
        if let Some(w) = held.iter().position(|h| h.contains(card)) {
            if suits[w] == 0 {
                order.push(w);
            }
            suits[w] |= 1 << card.suit().index();
        }
    }
    let mut out = Payments::new();
    for w in order
        .into_iter()
        .filter(|&w| suits[w] >> pay.index() & 1 == 1)
    {
        for (space, &on) in Space::PAY_CARDS.iter().zip(&chips) {
            let card = space.pay_card(pay).expect("a pay-card space");
            let paid = on.min(stacks[w]);
            if let Some(holder) = hands.iter().position(|h| h.contains(card))
                && holder != w
                && paid > 0
            {
                stacks[w] -= paid;
                stacks[holder] += paid;
                // Seats are below MAX_SEATS, so each fits a `Seat`.
                out.push((w as Seat, holder as Seat, paid));
            }
        }
    }
    out
}

impl Game {
    /// The withholding payments of this deal, once settled, in a world
    /// where seat `h` holds `hand(h)` at the end (and played what it did):
    /// each stop card is withheld by whoever holds it there. `None` before
    /// the settlement, which alone makes them public.
    pub(crate) fn withholding_paid(&self, hand: &dyn Fn(usize) -> CardSet) -> Option<Payments> {
        let from = self.deal.settled?;
        let n = usize::from(self.n);
        let hands: [CardSet; MAX_SEATS] =
            std::array::from_fn(|h| if h < n { hand(h) } else { CardSet::EMPTY });
        let held: [CardSet; MAX_SEATS] = std::array::from_fn(|h| hands[h] | self.deal.played_by[h]);
        let pay = self.pay_suit_now();
        Some(payments(
            &self.deal.stops,
            &held[..n],
            &hands[..n],
            pay,
            from,
        ))
    }
}
