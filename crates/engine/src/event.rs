//! [`Event`]: every change of a game, each knowing who may see it.

use serde::{Deserialize, Serialize};
use tripoley_cards::{Card, CardSet, HandRank, Rank, Suit};

use crate::action::AuctionItem;
use crate::layout::{Account, Seat};

/// Why chips moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// T5.
    Ante,
    /// H1, H5: the holder or player of a pay card takes its space.
    PayCard,
    /// H2, H6.
    KingQueen,
    /// H3, H6.
    Sequence,
    /// D4: the price of an auctioned hand.
    AuctionPrice,
    /// H8: the winning bid for naming the pay suit.
    PaySuitBid,
    /// P4: a bet, call or raise onto the Pot.
    Bet,
    /// P5, P6, P7: a poker pot won.
    PotWon,
    /// P7: chips a bettor put in that nobody matched (only an all-in
    /// answered them), returned to the bettor at the showdown.
    Unmatched,
    /// M5: one chip per card held when play is blocked.
    Blocked,
    /// M7: the Kitty to the player who went out.
    WentOut,
    /// M7: one chip per card still held, to the player who went out.
    CardsLeft,
    /// M9a: leading a card that is not the lowest of its suit.
    Misled,
    /// M9b: the price of withholding a card.
    Withheld,
    /// P9: the Poker Pool.
    PokerPool,
    /// E2: the layout gathered for the final pot.
    FinalPotGathered,
    /// E2: a final pot won.
    FinalPot,
}

/// One movement of chips between two accounts. The ledger of a deal is the
/// list of its transfers; conservation (T7) holds by construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Transfer {
    /// Where the chips come from.
    pub from: Account,
    /// Where they go.
    pub to: Account,
    /// How many.
    pub amount: u32,
    /// Why.
    pub reason: Reason,
}

/// Why a Michigan run stopped (M5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The run reached an ace.
    Ace,
    /// The next card was played earlier in the deal.
    AlreadyPlayed,
    /// Nobody played the next card: it is in the spare (or, under penalised
    /// misplays, someone withheld it).
    NotPlayed,
}

/// Who may see an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Audience {
    /// Every player and spectator.
    Everyone,
    /// Only this seat.
    Seat(Seat),
    /// Only the seats in this bit set (bit `s` for seat `s`).
    Seats(u16),
}

impl Audience {
    /// Whether `seat` (`None` for a spectator) may see it.
    pub fn includes(self, seat: Option<Seat>) -> bool {
        match (self, seat) {
            (Audience::Everyone, _) => true,
            (Audience::Seat(s), Some(v)) => s == v,
            (Audience::Seats(m), Some(v)) => m >> v & 1 == 1,
            _ => false,
        }
    }
}

/// Where the engine reports what happens. A `Vec<Event>` keeps every event
/// (tables, records, replays); [`NoEvents`] drops them, for self-play and
/// search, where nobody reads them and building them would cost a good share
/// of the time of a deal.
pub trait EventSink {
    /// Reports one event.
    fn push(&mut self, event: Event);

    /// Whether pushed events are kept: when not, the engine skips building
    /// the events that would allocate (a draw's cards, the winners).
    #[inline]
    fn is_listening(&self) -> bool {
        true
    }

    /// Whether a run under penalised misplays (M9b) that stops at a card
    /// nobody holds stops short of the stop instead, as it does for a
    /// hidden follow decision: see [`Game::step_to_unheld_stop`]. Asked only
    /// there; saying yes records that it happened.
    ///
    /// [`Game::step_to_unheld_stop`]: crate::Game::step_to_unheld_stop
    #[inline]
    fn holds_unheld_stop(&mut self) -> bool {
        false
    }
}

impl EventSink for Vec<Event> {
    #[inline]
    fn push(&mut self, event: Event) {
        Vec::push(self, event);
    }
}

/// An [`EventSink`] that drops every event: the game plays the same, only
/// silently.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoEvents;

impl EventSink for NoEvents {
    #[inline(always)]
    fn push(&mut self, _event: Event) {}

    #[inline(always)]
    fn is_listening(&self) -> bool {
        false
    }
}

/// Everything that happens in a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// T3: a round of the draw for first dealer: each seat's card.
    DrewForDealer {
        /// Seat and card drawn.
        draws: Vec<(Seat, Card)>,
    },
    /// T3: the first dealer.
    FirstDealer {
        /// The dealer.
        seat: Seat,
    },
    /// T6: a player who cannot pay the ante leaves the game with their chips.
    PlayerOut {
        /// Who.
        seat: Seat,
        /// The chips they keep.
        chips: u32,
    },
    /// A deal begins.
    DealStarted {
        /// 1 for the first deal.
        number: u32,
        /// The dealer.
        dealer: Seat,
        /// The pay suit; `None` while it is still to be auctioned (H8).
        pay_suit: Option<Suit>,
        /// The Sequence's lowest rank (H7).
        sequence: Rank,
    },
    /// Chips moved.
    Transfer(Transfer),
    /// D1: a player's hand. Only that player sees it.
    Dealt {
        /// Whose hand.
        seat: Seat,
        /// The cards.
        cards: CardSet,
    },
    /// D3a.
    DealerKept {
        /// The dealer.
        seat: Seat,
    },
    /// D3, D4: a player exchanged their hand for the spare (or the auctioned hand).
    Swapped {
        /// Who.
        seat: Seat,
    },
    /// The new hand of a player who swapped. Only that player sees it.
    NewHand {
        /// Whose hand.
        seat: Seat,
        /// The cards.
        cards: CardSet,
    },
    /// D4: an auction opens.
    AuctionOpened {
        /// What is sold.
        item: AuctionItem,
    },
    /// D4, H8: a bid.
    Bid {
        /// Who.
        seat: Seat,
        /// How much.
        amount: u32,
    },
    /// D4, H8: a pass.
    Passed {
        /// Who.
        seat: Seat,
    },
    /// D4: the auctioned hand is sold.
    AuctionSold {
        /// The buyer.
        seat: Seat,
        /// The price.
        price: u32,
    },
    /// D4: nobody bought.
    AuctionUnsold,
    /// H8: the pay suit of this deal.
    PaySuitNamed {
        /// The high bidder, or `None` if everybody passed (hearts).
        seat: Option<Seat>,
        /// The suit.
        suit: Suit,
    },
    /// H1, H3: cards shown to claim pay spaces; they are public from now on.
    PayCardsShown {
        /// Who.
        seat: Seat,
        /// The cards.
        cards: CardSet,
    },
    /// H3: the Sequence space was shared and this remainder stays.
    SequenceShared {
        /// Claimants.
        claimants: u16,
        /// Chips left on the space.
        remainder: u32,
    },
    /// P4.
    Checked {
        /// Who.
        seat: Seat,
    },
    /// P4: the first bet of a round.
    Bet {
        /// Who.
        seat: Seat,
        /// Chips put in now.
        amount: u32,
    },
    /// P4, P7: a call (`all_in` when it takes the whole stack).
    Called {
        /// Who.
        seat: Seat,
        /// Chips put in now.
        amount: u32,
        /// Whether the stack is now empty.
        all_in: bool,
    },
    /// P4.
    Raised {
        /// Who.
        seat: Seat,
        /// Chips put in now (call plus raise).
        amount: u32,
        /// The raise on top of the call.
        by: u32,
    },
    /// P4.
    Folded {
        /// Who.
        seat: Seat,
    },
    /// P1: a player set five cards apart as their poker hand. Only they see
    /// which; everyone else learns only that a choice was made
    /// ([`Event::SetFiveApart`]).
    ChoseFive {
        /// Who.
        seat: Seat,
        /// The five cards.
        cards: CardSet,
    },
    /// P1: a player set their five apart, face down (what everyone sees).
    SetFiveApart {
        /// Who.
        seat: Seat,
    },
    /// P6: a poker hand shown; public from now on (P8).
    Showed {
        /// Who.
        seat: Seat,
        /// The five cards.
        cards: CardSet,
        /// Their value.
        rank: HandRank,
    },
    /// M3: a lead.
    Led {
        /// Who.
        seat: Seat,
        /// The card.
        card: Card,
        /// M9a: not the lowest of its suit.
        misplay: bool,
    },
    /// M4: a card played in a run.
    Played {
        /// Who.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// M9b: this seat withheld the next card. Only they see it.
    Withheld {
        /// Who.
        seat: Seat,
        /// The card withheld.
        card: Card,
    },
    /// M5: the run stopped.
    RunStopped {
        /// The card that would have come next (none after an ace).
        next: Option<Card>,
        /// Why.
        reason: StopReason,
    },
    /// M5, M6: the turn to lead passed over a seat that could not lead.
    CannotLead {
        /// Who.
        seat: Seat,
    },
    /// M5, M6: nobody can lead; play ends blocked.
    PlayBlocked,
    /// M7: a player played their last card.
    WentOut {
        /// Who.
        seat: Seat,
    },
    /// E2: a final pot is played for these chips.
    FinalPotRound {
        /// 1 for the first.
        round: u32,
        /// Chips in this pot.
        chips: u32,
    },
    /// E2 (`ShowdownPoker`): five cards dealt face up.
    FaceUp {
        /// Whose.
        seat: Seat,
        /// The cards.
        cards: CardSet,
    },
    /// The deal is over.
    DealEnded {
        /// Its number.
        number: u32,
    },
    /// E3: the game is over.
    GameOver {
        /// Seats with the most chips (ties share the win).
        winners: Vec<Seat>,
    },
}

impl Event {
    /// Who may see this event.
    pub fn audience(&self) -> Audience {
        match self {
            Event::Dealt { seat, .. }
            | Event::NewHand { seat, .. }
            | Event::ChoseFive { seat, .. }
            | Event::Withheld { seat, .. } => Audience::Seat(*seat),
            _ => Audience::Everyone,
        }
    }
}
