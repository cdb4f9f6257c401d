//! The spare hand (D3-D6) and the ascending auctions of D4 and H8.

use tripoley_cards::{CardSet, Rank, Suit};

use crate::action::{Action, AuctionItem, Decision};
use crate::event::{Event, EventSink, Reason};
use crate::game::{Game, Phase, next_in, seats};
use crate::layout::{Account, Seat, Space};
use crate::rules::AuctionPays;
use crate::sample::BonusFact;

/// What an auction sells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AuctionKind {
    /// A hand (D4).
    Hand(AuctionItem),
    /// The right to name the pay suit (H8).
    PaySuit,
}

/// An ascending auction in progress (D4, H8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Auction {
    pub kind: AuctionKind,
    /// Bidders who have not passed.
    pub eligible: u16,
    /// The high bid so far.
    pub high: Option<(Seat, u32)>,
    /// Whose turn it is.
    pub turn: Seat,
}

impl Auction {
    /// The decision of the seat whose turn it is.
    pub(crate) fn decision(&self, game: &Game) -> Decision {
        let min = self.high.map_or(1, |(_, bid)| bid + 1);
        if let AuctionKind::Hand(item) = self.kind {
            let max = game.hand_bid_limit(self.turn);
            Decision::AuctionBid { item, min, max }
        } else {
            let max = game.stacks[usize::from(self.turn)];
            Decision::PaySuitBid { min, max }
        }
    }
}

impl Game {
    /// D5: whether `hand` holds a bonus card.
    pub(crate) fn has_bonus_card(&self, hand: CardSet) -> bool {
        self.holds_bonus_card(hand, self.pay_bonus_cards())
    }

    /// D5: whether `hand` holds one of `pay` (the pay suit's bonus cards as
    /// judged then, [`Game::pay_bonus_cards`]) or a whole Sequence run: the
    /// sampler asks it of hands judged before the pay suit was named (H8).
    pub(crate) fn holds_bonus_card(&self, hand: CardSet, pay: CardSet) -> bool {
        !(hand & pay).is_empty()
            || Suit::ALL
                .into_iter()
                .any(|s| hand.contains_all(self.sequence_cards(s)))
    }

    /// D5: the pay suit's cards that have their own space (judged with
    /// hearts until the pay suit is known).
    pub(crate) fn pay_bonus_cards(&self) -> CardSet {
        let pay = self.deal.pay_suit.unwrap_or(Suit::Hearts);
        [Rank::Ace, Rank::King, Rank::Queen, Rank::Jack, Rank::Ten]
            .into_iter()
            .map(|r| CardSet::single(tripoley_cards::Card::new(r, pay)))
            .fold(CardSet::EMPTY, |a, b| a | b)
    }

    /// D5: the bonus cards in `hand` (judged with hearts until the pay suit
    /// is known), so a player told they may not bid or swap can see why.
    pub fn bonus_cards(&self, hand: CardSet) -> CardSet {
        Suit::ALL
            .into_iter()
            .map(|s| self.sequence_cards(s))
            .filter(|&run| hand.contains_all(run))
            .fold(hand & self.pay_bonus_cards(), |a, run| a | run)
    }

    /// The three cards of the Sequence in `suit` (H7).
    pub(crate) fn sequence_cards(&self, suit: Suit) -> CardSet {
        let low = self.deal.sequence.unwrap_or(Rank::Eight).index();
        CardSet::from_suit_mask(suit, 0b111 << low)
    }

    /// D3: the dealer's options.
    #[inline]
    pub(crate) fn spare_decision(&self, after_unsold: bool) -> Decision {
        let may_swap = !self.rules.bonus_card_limits
            || !self.has_bonus_card(self.deal.hands[usize::from(self.dealer)]);
        Decision::SpareOption {
            can_swap: may_swap,
            can_auction: !after_unsold,
            can_swap_and_auction: !after_unsold && may_swap,
        }
    }

    /// Exchanges `seat`'s hand with the spare (D3, D4). The hand given up goes
    /// face down as the spare; the player knows what it holds (D6).
    fn swap_with_spare(&mut self, seat: Seat, ev: &mut impl EventSink) {
        let s = usize::from(seat);
        std::mem::swap(&mut self.deal.hands[s], &mut self.deal.spare);
        self.deal.bonus_proofs.swap_with_spare(seat);
        let old = self.deal.spare;
        for known in &mut self.deal.spare_known {
            *known = CardSet::EMPTY;
        }
        self.deal.spare_known[s] = old;
        ev.push(Event::Swapped { seat });
        ev.push(Event::NewHand {
            seat,
            cards: self.deal.hands[s],
        });
    }

    pub(crate) fn spare_choice(&mut self, action: Action, ev: &mut impl EventSink) {
        let dealer = self.dealer;
        match action {
            Action::Keep => {
                ev.push(Event::DealerKept { seat: dealer });
                self.after_spare(ev);
            }
            Action::Swap => {
                self.note_swap_allowed();
                self.swap_with_spare(dealer, ev);
                self.after_spare(ev);
            }
            Action::AuctionSpare => self.open_hand_auction(AuctionItem::Spare, ev),
            Action::SwapAndAuction => {
                self.note_swap_allowed();
                self.swap_with_spare(dealer, ev);
                self.open_hand_auction(AuctionItem::DealersOldHand, ev);
            }
            _ => unreachable!("checked"),
        }
    }

    /// D5: a dealer who swaps shows everyone their hand held no bonus card.
    fn note_swap_allowed(&mut self) {
        if self.rules.bonus_card_limits {
            let pay = self.pay_bonus_cards();
            self.deal
                .bonus_proofs
                .note(BonusFact::None, 1 << self.dealer, pay);
        }
    }

    /// The most `seat` may bid for a hand: their stack, or nothing when D5
    /// forbids them to bid because their hand holds a bonus card.
    fn hand_bid_limit(&self, seat: Seat) -> u32 {
        let s = usize::from(seat);
        if self.rules.bonus_card_limits && self.has_bonus_card(self.deal.hands[s]) {
            0
        } else {
            self.stacks[s]
        }
    }

    /// D4: the players other than the dealer, from the dealer's left. When
    /// nobody may bid, the auction ends unsold at once; otherwise every
    /// bidder answers in turn, those whom D5 forbids to bid too (their only
    /// answer is a pass, but they give it themselves: passes made for them
    /// the moment the auction opens would tell the table who holds a bonus
    /// card).
    fn open_hand_auction(&mut self, item: AuctionItem, ev: &mut impl EventSink) {
        ev.push(Event::AuctionOpened { item });
        let bidders = self.active() & !(1 << self.dealer);
        let anyone_may_bid = seats(bidders).any(|seat| self.hand_bid_limit(seat) > 0);
        if self.rules.bonus_card_limits {
            // D5: those with chips may bid unless they hold a bonus card, so
            // an auction that ends at once shows each of them held one, and
            // one that runs shows one of them at least held none.
            let with_chips = seats(bidders)
                .filter(|&seat| self.stacks[usize::from(seat)] > 0)
                .fold(0, |mask, seat| mask | 1 << seat);
            let fact = if anyone_may_bid {
                BonusFact::NotAll
            } else {
                BonusFact::Each
            };
            let pay = self.pay_bonus_cards();
            self.deal.bonus_proofs.note(fact, with_chips, pay);
        }
        let first = next_in(self.dealer, bidders).filter(|_| anyone_may_bid);
        self.run_auction(AuctionKind::Hand(item), bidders, first, ev);
    }

    /// H8: every player, from the dealer.
    pub(crate) fn open_pay_suit_auction(&mut self, ev: &mut impl EventSink) {
        let bidders = self.active();
        self.run_auction(AuctionKind::PaySuit, bidders, Some(self.dealer), ev);
    }

    fn run_auction(
        &mut self,
        kind: AuctionKind,
        bidders: u16,
        first: Option<Seat>,
        ev: &mut impl EventSink,
    ) {
        match first {
            Some(turn) => {
                self.phase = Phase::Auction(Auction {
                    kind,
                    eligible: bidders,
                    high: None,
                    turn,
                });
                self.resolve_forced(ev);
            }
            None => self.auction_over(kind, None, ev),
        }
    }

    pub(crate) fn auction_act(&mut self, action: Action, ev: &mut impl EventSink) {
        let Phase::Auction(a) = &mut self.phase else {
            unreachable!("checked")
        };
        // Read before the change and the result kept in locals: a field read
        // back right after it is stored stalls until the store lands.
        let (seat, kind, mut eligible, mut high) = (a.turn, a.kind, a.eligible, a.high);
        match action {
            Action::Bid(amount) => {
                high = Some((seat, amount));
                ev.push(Event::Bid { seat, amount });
            }
            Action::Pass => {
                eligible &= !(1 << seat);
                ev.push(Event::Passed { seat });
            }
            _ => unreachable!("checked"),
        }
        (a.eligible, a.high) = (eligible, high);
        if self.rules.bonus_card_limits
            && matches!(kind, AuctionKind::Hand(_))
            && matches!(action, Action::Bid(_))
        {
            // D5: only a hand without a bonus card may bid.
            let pay = self.pay_bonus_cards();
            self.deal.bonus_proofs.note(BonusFact::None, 1 << seat, pay);
        }
        let finished = eligible == 0
            || (eligible.count_ones() == 1 && high.is_some_and(|(h, _)| eligible == 1 << h));
        if finished {
            self.auction_over(kind, high, ev);
        } else {
            let next = next_in(seat, eligible).expect("someone is still bidding");
            let Phase::Auction(a) = &mut self.phase else {
                unreachable!("in an auction")
            };
            a.turn = next;
            let Phase::Auction(a) = &self.phase else {
                unreachable!("in an auction")
            };
            let decision = a.decision(self);
            self.await_decision(next, decision, ev);
        }
    }

    fn auction_over(
        &mut self,
        kind: AuctionKind,
        high: Option<(Seat, u32)>,
        ev: &mut impl EventSink,
    ) {
        match (kind, high) {
            (AuctionKind::Hand(item), Some((buyer, price))) => {
                ev.push(Event::AuctionSold { seat: buyer, price });
                let to = match self.rules.auction_pays {
                    AuctionPays::Dealer => Account::Stack(self.dealer),
                    AuctionPays::Kitty => Account::Space(Space::Kitty),
                };
                self.transfer(Account::Stack(buyer), to, price, Reason::AuctionPrice, ev);
                self.swap_with_spare(buyer, ev);
                if item == AuctionItem::DealersOldHand {
                    // D6: the dealer knows the hand the buyer now holds.
                    self.deal.known_by[usize::from(self.dealer)][usize::from(buyer)] =
                        self.deal.hands[usize::from(buyer)];
                }
                self.after_spare(ev);
            }
            (AuctionKind::Hand(item), None) => {
                ev.push(Event::AuctionUnsold);
                if item == AuctionItem::Spare {
                    // D3: after an unsold spare the dealer may still swap.
                    self.phase = Phase::SpareChoice { after_unsold: true };
                    self.resolve_forced(ev);
                } else {
                    self.after_spare(ev);
                }
            }
            (AuctionKind::PaySuit, Some((seat, bid))) => {
                self.transfer(
                    Account::Stack(seat),
                    Account::Space(Space::Kitty),
                    bid,
                    Reason::PaySuitBid,
                    ev,
                );
                self.phase = Phase::NamePaySuit { seat };
            }
            (AuctionKind::PaySuit, None) => self.pay_suit_named(None, Suit::Hearts, ev),
        }
    }

    /// H8: the pay suit is set; stage 1 or the poker follows.
    pub(crate) fn pay_suit_named(
        &mut self,
        seat: Option<Seat>,
        suit: Suit,
        ev: &mut impl EventSink,
    ) {
        self.deal.pay_suit = Some(suit);
        ev.push(Event::PaySuitNamed { seat, suit });
        self.after_pay_suit(ev);
    }
}
