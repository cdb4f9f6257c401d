//! Pay cards: stage 1 (H1-H4) and collection in play (H5, H6).

use tripoley_cards::{Card, CardSet, Rank, Suit};

use crate::event::{Event, EventSink, Reason};
use crate::game::{Game, seats_after};
use crate::layout::{Account, Seat, Space};

impl Game {
    /// The pay suit of the deal (hearts until named).
    pub(crate) fn pay_suit_now(&self) -> Suit {
        self.deal.pay_suit.unwrap_or(Suit::Hearts)
    }

    /// The holder of `card` among the players, if any, once the hands are
    /// settled (stage 1 on): one look-up in [`crate::game::Deal::holders`].
    pub(crate) fn holder(&self, card: Card) -> Option<Seat> {
        let held = (self.deal.dealt - self.deal.played).contains(card);
        let holder = held.then(|| self.deal.holders.0[usize::from(card.bit())]);
        debug_assert_eq!(
            holder,
            self.holder_by_search(card),
            "the holders are up to date"
        );
        holder
    }

    /// [`Game::holder`] by looking at every hand (what the index must agree with).
    fn holder_by_search(&self, card: Card) -> Option<Seat> {
        (0..self.n).find(|&s| self.deal.hands[usize::from(s)].contains(card))
    }

    /// Marks `cards` of `seat` as shown to everyone.
    fn show(&mut self, seat: Seat, cards: CardSet, ev: &mut impl EventSink) {
        if cards.is_empty() {
            return;
        }
        self.deal.public |= cards;
        ev.push(Event::PayCardsShown { seat, cards });
    }

    /// Stage 1 (H1-H4): holders show their pay cards and take the spaces.
    pub(crate) fn stage1(&mut self, ev: &mut impl EventSink) {
        let pay = self.pay_suit_now();
        let mut shown = [CardSet::EMPTY; crate::game::MAX_SEATS];
        // H1: each single-card pay space.
        for space in Space::PAY_CARDS {
            let card = space.pay_card(pay).expect("a pay-card space");
            if let Some(seat) = self.holder(card) {
                shown[usize::from(seat)].insert(card);
                self.take_space(seat, space, Reason::PayCard, ev);
            } else {
                // H4: nobody holds it, and the whole deck is dealt (D1):
                // everyone now knows it lies in the spare.
                self.deal.public_spare.insert(card);
            }
        }
        // H2: both king and queen.
        let king_queen = CardSet::single(Card::new(Rank::King, pay))
            | CardSet::single(Card::new(Rank::Queen, pay));
        if let Some(seat) =
            (0..self.n).find(|&s| self.deal.hands[usize::from(s)].contains_all(king_queen))
        {
            self.take_space(seat, Space::KingQueen, Reason::KingQueen, ev);
        }
        // H3: every holder of a Sequence, in any suit, shares the space.
        let mut claimants = 0u16;
        let mut claimed_suits = 0u8;
        for seat in 0..self.n {
            let hand = self.deal.hands[usize::from(seat)];
            for suit in Suit::ALL {
                let seq = self.sequence_cards(suit);
                if hand.contains_all(seq) {
                    claimants |= 1 << seat;
                    claimed_suits |= 1 << suit.index();
                    shown[usize::from(seat)] |= seq;
                }
            }
        }
        self.deal.unclaimed_sequences = !claimed_suits & 0b1111;
        for seat in 0..self.n {
            self.show(seat, shown[usize::from(seat)], ev);
        }
        let k = claimants.count_ones();
        if let Some(share) = self.layout.get(Space::Sequence).checked_div(k) {
            // T8: claimants paid clockwise from the dealer's left.
            for seat in seats_after(self.dealer, claimants) {
                self.transfer(
                    Account::Space(Space::Sequence),
                    Account::Stack(seat),
                    share,
                    Reason::Sequence,
                    ev,
                );
            }
            if k > 1 {
                ev.push(Event::SequenceShared {
                    claimants,
                    remainder: self.layout.get(Space::Sequence),
                });
            }
        }
    }

    /// H5, H6: what `seat` collects for playing `card`, given the two cards
    /// it played in a row just before (oldest first, `None` where the streak
    /// is shorter).
    pub(crate) fn collect_in_play(
        &mut self,
        seat: Seat,
        card: Card,
        before: [Option<Card>; 2],
        ev: &mut impl EventSink,
    ) {
        if self.deal.barred >> seat & 1 == 1 {
            return;
        }
        let pay = self.pay_suit_now();
        if let Some(space) = Space::of_pay_card(card, pay) {
            self.take_space(seat, space, Reason::PayCard, ev);
        }
        // H6: the queen and then the king of the pay suit, consecutively.
        if card == Card::new(Rank::King, pay) && before[1] == Some(Card::new(Rank::Queen, pay)) {
            self.take_space(seat, Space::KingQueen, Reason::KingQueen, ev);
        }
        // H6: the three Sequence cards of one suit, consecutively.
        if let [Some(a), Some(b)] = before {
            let three = CardSet::single(a) | CardSet::single(b) | CardSet::single(card);
            if three == self.sequence_cards(card.suit()) {
                self.take_space(seat, Space::Sequence, Reason::Sequence, ev);
            }
        }
    }
}
