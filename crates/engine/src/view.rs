//! [`View`]: exactly what one seat (or a spectator) may know.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};
use tripoley_cards::{Card, CardSet, Rank, Suit};

use crate::action::{AuctionItem, Decision, Pending};
use crate::auction::AuctionKind;
use crate::game::{Game, MAX_SEATS, Phase, Standing, seat_mask};
use crate::layout::{Seat, Space};

/// One item per seat (or per layout space), stored inline: building a view
/// allocates nothing, which keeps self-play fast.
pub type PerSeat<T> = ArrayVec<T, MAX_SEATS>;

/// The first `n` items of a per-seat array as an inline list. The whole
/// array is moved (a fixed-size copy) and then cut: copying just `n` items
/// would call `memcpy` with a run-time length, which costs more.
fn first<T: Copy>(items: [T; MAX_SEATS], n: usize) -> PerSeat<T> {
    let mut list = PerSeat::from(items);
    list.truncate(n);
    list
}

const _: () = assert!(
    matches!(Space::ALL[Space::ALL.len() - 1], Space::Pot),
    "views cut the Pot off the end of the layout"
);

/// Bit `s` of `mask` for each of the first `n` seats.
fn seat_flags(mask: u16, n: usize) -> PerSeat<bool> {
    let mut flags = [false; MAX_SEATS];
    for (s, flag) in flags.iter_mut().enumerate() {
        *flag = mask >> s & 1 == 1;
    }
    first(flags, n)
}

/// Where the game is, as anyone can see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// T3.
    DrawForDealer,
    /// Between deals: the next deck is awaited.
    Dealing,
    /// D3: the dealer decides about the spare.
    Spare,
    /// D4: a hand is auctioned.
    Auction,
    /// H8: the pay suit is auctioned or named.
    PaySuit,
    /// P1: players choose their five, before the betting.
    ChooseFive,
    /// P4: betting (the showdown, P6, follows at once when it ends).
    Betting,
    /// Stage 3.
    Michigan,
    /// E2.
    FinalPot,
    /// E3.
    GameOver,
}

/// The betting as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BettingView {
    /// Chips each seat put in this round.
    pub contributed: PerSeat<u32>,
    /// Seats that folded.
    pub folded: PerSeat<bool>,
    /// The highest total.
    pub current: u32,
    /// Raises so far.
    pub raises: u32,
}

/// An auction as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuctionView {
    /// What is sold (`None`: the right to name the pay suit, H8).
    pub item: Option<AuctionItem>,
    /// The high bid.
    pub high: Option<(Seat, u32)>,
    /// Seats still bidding.
    pub bidding: PerSeat<bool>,
}

/// One seat's information set, built field by field from what that seat has
/// seen: never a copy of the state with parts removed. A spectator's view
/// (`seat: None`) holds only what is public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Whose view (none for a spectator).
    pub seat: Option<Seat>,
    /// Seats at the table.
    pub players: u8,
    /// The dealer.
    pub dealer: Seat,
    /// The current deal (1 for the first).
    pub deal_number: u32,
    /// Deals in the game.
    pub deals_total: u32,
    /// Where the game is.
    pub stage: Stage,
    /// Each seat's chips.
    pub stacks: PerSeat<u32>,
    /// Seats out of the game (T6).
    pub out: PerSeat<bool>,
    /// Chips on each space of this table's layout, in T4 order.
    pub layout: PerSeat<(Space, u32)>,
    /// The pay suit, once known.
    pub pay_suit: Option<Suit>,
    /// The Sequence's lowest rank.
    pub sequence: Option<Rank>,
    /// The viewer's hand.
    pub hand: CardSet,
    /// Cards in each seat's hand.
    pub hand_sizes: PerSeat<u32>,
    /// The viewer's own five for this deal's poker, once chosen (P1).
    pub my_five: Option<CardSet>,
    /// Which seats have set their five apart this deal (public: what they
    /// chose is not, until shown).
    pub chose_five: PerSeat<bool>,
    /// Cards in the spare (or the undealt stock of a final pot).
    pub spare_size: u32,
    /// Cards the viewer knows to be in the spare (D6, M5).
    pub spare_known: CardSet,
    /// For each seat, the cards the viewer knows it holds (shown, or D6).
    pub known_cards: PerSeat<CardSet>,
    /// For each seat, cards everyone can tell it does not hold (a lead is
    /// the lowest of its suit; a run stopped below a card nobody holds).
    pub cannot_hold: PerSeat<CardSet>,
    /// Cards each seat played in stage 3.
    pub played: PerSeat<CardSet>,
    /// The last card played in stage 3.
    pub last_played: Option<(Seat, Card)>,
    /// Whose turn it is, when that is public.
    pub to_act: Option<Seat>,
    /// The viewer's own decision, when it is their turn.
    pub decision: Option<Decision>,
    /// The betting round, if one is on.
    pub betting: Option<BettingView>,
    /// The auction, if one is on.
    pub auction: Option<AuctionView>,
    /// The final standings, once the game is over.
    pub standings: Option<Vec<Standing>>,
}

impl Game {
    /// What `seat` may know (a spectator's view for `None`).
    pub fn view(&self, seat: Option<Seat>) -> View {
        let n = usize::from(self.n);
        let d = &self.deal;
        let me = seat.map(usize::from);
        let hand = me.map_or(CardSet::EMPTY, |s| d.hands[s]);
        let mut known_cards = [CardSet::EMPTY; MAX_SEATS];
        let mut hand_sizes = [0; MAX_SEATS];
        let mut out = [false; MAX_SEATS];
        for h in 0..n {
            let private = me.map_or(CardSet::EMPTY, |v| d.known_by[v][h]);
            known_cards[h] = if Some(h) == me {
                d.hands[h]
            } else {
                (d.public | private) & d.hands[h]
            };
            hand_sizes[h] = d.hands[h].len();
            out[h] = self.out >> h & 1 == 1;
        }
        let spare_known =
            (d.public_spare | me.map_or(CardSet::EMPTY, |s| d.spare_known[s])) & d.spare;
        let (to_act, decision) = match self.pending() {
            Pending::Decide { seat: s, decision } => {
                // Who must follow under M9b is not public: they may withhold.
                let public_turn = !matches!(decision, Decision::Follow { .. });
                let mine = seat == Some(s);
                ((mine || public_turn).then_some(s), mine.then_some(decision))
            }
            _ => (None, None),
        };
        let betting = match &self.phase {
            Phase::Betting(b) => Some(b),
            _ => None,
        }
        .map(|b| BettingView {
            contributed: first(b.contributed, n),
            folded: seat_flags(b.folded as u16, n),
            current: b.current,
            raises: b.raises,
        });
        let auction = match &self.phase {
            Phase::Auction(a) => Some(AuctionView {
                item: match a.kind {
                    AuctionKind::Hand(item) => Some(item),
                    AuctionKind::PaySuit => None,
                },
                high: a.high,
                bidding: seat_flags(a.eligible, n),
            }),
            _ => None,
        };
        let last_played = match &self.phase {
            Phase::Michigan(m) => m.last,
            _ => None,
        };
        View {
            seat,
            players: self.n,
            dealer: self.dealer,
            deal_number: d.number,
            deals_total: self.deals_total,
            stage: self.stage(),
            stacks: first(self.stacks, n),
            out: first(out, n),
            // The Pot is the last space of T4's order: a table without one
            // shows the first eight.
            layout: first(
                Space::ALL.map(|s| (s, self.layout.get(s))),
                Space::ALL.len() - usize::from(!self.rules.has_pot()),
            ),
            pay_suit: d.pay_suit,
            sequence: d.sequence,
            hand,
            hand_sizes: first(hand_sizes, n),
            my_five: me.map(|s| d.fives[s]).filter(|f| !f.is_empty()),
            chose_five: seat_flags(seat_mask(&d.fives, |f| !f.is_empty()), n),
            spare_size: d.spare.len(),
            spare_known,
            known_cards: first(known_cards, n),
            cannot_hold: first(std::array::from_fn(|s| d.known_not_held(s)), n),
            played: first(d.played_by, n),
            last_played,
            to_act,
            decision,
            betting,
            auction,
            standings: self.standings(),
        }
    }

    /// The stage, as anyone can see it.
    pub fn stage(&self) -> Stage {
        match &self.phase {
            Phase::DrawForDealer { .. } => Stage::DrawForDealer,
            Phase::AwaitDeal => Stage::Dealing,
            Phase::SpareChoice { .. } => Stage::Spare,
            Phase::Auction(a) if a.kind == AuctionKind::PaySuit => Stage::PaySuit,
            Phase::Auction(_) => Stage::Auction,
            Phase::NamePaySuit { .. } => Stage::PaySuit,
            Phase::Betting(b) if b.final_round.is_some() => Stage::FinalPot,
            Phase::AwaitFinalDeck { .. } => Stage::FinalPot,
            Phase::ChooseFive { .. } => Stage::ChooseFive,
            Phase::Betting(_) => Stage::Betting,
            Phase::Michigan(_) => Stage::Michigan,
            Phase::GameOver => Stage::GameOver,
        }
    }
}
