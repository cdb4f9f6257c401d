//! What players decide ([`Action`]), what the game waits for ([`Pending`]),
//! and what chance supplies ([`DealChance`]).

use rand_core::Rng;
use serde::{Deserialize, Serialize};
use tripoley_cards::{Card, CardSet, Deck, Rank, Suit};

use crate::layout::Seat;
use crate::rules::{PaySuitRule, Rules, SequenceRule};

/// A player's decision. Each variant names the rule it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// D3a: the dealer keeps their hand.
    Keep,
    /// D3b: the dealer swaps their hand for the spare, unseen.
    Swap,
    /// D3c: the dealer auctions the spare, unseen.
    AuctionSpare,
    /// D3d: the dealer swaps, then auctions their old hand.
    SwapAndAuction,
    /// D4, H8: bid this many chips (more than the current bid).
    Bid(u32),
    /// D4, H8: pass; a pass is final.
    Pass,
    /// H8: the high bidder names the pay suit.
    NameSuit(Suit),
    /// P4: no bet yet, and none made.
    Check,
    /// P4: open the betting with this many chips.
    Bet(u32),
    /// P4, P7: match the highest total (all-in if the stack is short).
    Call,
    /// P4: call and put in this many more.
    Raise(u32),
    /// P4: give up the pot.
    Fold,
    /// P1: these five cards are my poker hand, set apart face down before
    /// the betting and shown at the showdown.
    Choose(CardSet),
    /// M3: lead this card.
    Lead(Card),
    /// M9b: play the next card of the run (under penalised misplays).
    Play,
    /// M9b: withhold the next card, stopping the run.
    Withhold,
}

/// Which hand an auction sells (D3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuctionItem {
    /// The spare, unseen by everyone (D3c).
    Spare,
    /// The dealer's old hand after a swap (D3d).
    DealersOldHand,
}

/// What kind of randomness the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChanceKind {
    /// A deck for a round of the draw for first dealer (T3).
    DrawForDealer,
    /// The deck (and, under `cosmo`, the pay suit and Sequence) of a deal.
    Deal,
    /// A fresh deck for a final-pot round (E2).
    FinalPot,
}

/// What the game waits for next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pending {
    /// Chance must supply a [`DealChance`].
    Chance(ChanceKind),
    /// A seat must decide.
    Decide {
        /// Who decides.
        seat: Seat,
        /// The shape of the decision.
        decision: Decision,
    },
    /// The game is over.
    GameOver,
}

/// The shape of a decision: everything needed to enumerate or check answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// D3: keep, and whichever of swap / auction / swap-and-auction are allowed.
    SpareOption {
        /// `Swap` is legal.
        can_swap: bool,
        /// `AuctionSpare` is legal.
        can_auction: bool,
        /// `SwapAndAuction` is legal.
        can_swap_and_auction: bool,
    },
    /// D4: `Bid(min..=max)` or `Pass`.
    AuctionBid {
        /// What is being sold.
        item: AuctionItem,
        /// Smallest bid.
        min: u32,
        /// Largest bid (the stack).
        max: u32,
    },
    /// H8: `Bid(min..=max)` or `Pass`.
    PaySuitBid {
        /// Smallest bid.
        min: u32,
        /// Largest bid.
        max: u32,
    },
    /// H8: `NameSuit`.
    NamePaySuit,
    /// P4 with no bet yet: `Check` or `Bet(1..=max_bet)` (no bet if `max_bet` is 0).
    Open {
        /// Largest bet.
        max_bet: u32,
    },
    /// P4 facing a bet: `Fold`, `Call`, or `Raise(1..=max_raise)` (none if 0).
    Respond {
        /// Chips needed to call (more than the stack: an all-in call).
        to_call: u32,
        /// Largest raise on top of the call.
        max_raise: u32,
    },
    /// P1: `Choose` five cards out of `from` as the poker hand, before any bet.
    ChooseFive {
        /// The hand.
        from: CardSet,
    },
    /// M3, M5, M6: `Lead` one of `cards`.
    Lead {
        /// The cards that may be led.
        cards: CardSet,
    },
    /// M9b: `Play` the card, or `Withhold` it.
    Follow {
        /// The next card of the run, in this seat's hand.
        card: Card,
    },
}

/// What chance decides for a deal: the deck order, and under `cosmo` (H9)
/// the pay suit and the lowest rank of the Sequence.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DealChance {
    /// The shuffled deck, dealt from the top.
    pub deck: Deck,
    /// The drawn pay suit, when the rules draw one each deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pay_suit: Option<Suit>,
    /// The drawn Sequence's lowest rank, when the rules draw one each deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence: Option<Rank>,
}

impl DealChance {
    /// Just a deck.
    pub fn deck(deck: Deck) -> DealChance {
        DealChance {
            deck,
            pay_suit: None,
            sequence: None,
        }
    }

    /// A uniformly random deal for `rules`, drawing from `rng`: the deck, and
    /// the pay suit and Sequence when the rules draw them.
    pub fn random(rules: &Rules, rng: &mut (impl Rng + ?Sized)) -> DealChance {
        let deck = Deck::shuffled(rng);
        let pay_suit = (rules.pay_suit == PaySuitRule::RandomEachDeal)
            .then(|| Suit::from_index((rng.next_u32() >> 30) as u8));
        let sequence = (rules.sequence == SequenceRule::RandomEachDeal)
            .then(|| Rank::from_index(((u64::from(rng.next_u32()) * 11) >> 32) as u8));
        DealChance {
            deck,
            pay_suit,
            sequence,
        }
    }
}
