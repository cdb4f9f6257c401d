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
    /// For each seat, cards everyone can tell it does not hold ([`Sight::cannot_hold`]).
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

/// What one seat (or a spectator) may know, read from the game where it
/// lies instead of copied out: [`Game::view`] builds a [`View`] from it, and
/// a learner's observation reads it directly (a `View` is some 600 bytes,
/// written field by field for each observation). The secrecy rules live
/// here, once: each method answers only what its viewer may know.
#[derive(Clone, Copy, Debug)]
pub struct Sight<'a> {
    game: &'a Game,
    /// Whose knowledge (none for a spectator).
    viewer: Option<Seat>,
    /// The seat it is reported as (see [`Game::public_sight_at`]).
    place: Option<Seat>,
}

impl Game {
    /// What `seat` may know (a spectator's view for `None`).
    pub fn view(&self, seat: Option<Seat>) -> View {
        self.sight(seat).view()
    }

    /// What `seat` may know, read in place (a spectator's for `None`).
    pub fn sight(&self, seat: Option<Seat>) -> Sight<'_> {
        Sight {
            game: self,
            viewer: seat,
            place: seat,
        }
    }

    /// What everyone knows, reported as `seat`'s: a public observation laid
    /// out from that seat's place, with nothing only it knows.
    pub fn public_sight_at(&self, seat: Seat) -> Sight<'_> {
        Sight {
            game: self,
            viewer: None,
            place: Some(seat),
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

impl<'a> Sight<'a> {
    /// The seat it is reported as (none for a spectator).
    pub fn seat(self) -> Option<Seat> {
        self.place
    }

    /// Seats at the table.
    pub fn players(self) -> usize {
        usize::from(self.game.n)
    }

    /// The dealer.
    pub fn dealer(self) -> Seat {
        self.game.dealer
    }

    /// The current deal (1 for the first).
    pub fn deal_number(self) -> u32 {
        self.game.deal.number
    }

    /// Deals in the game.
    pub fn deals_total(self) -> u32 {
        self.game.deals_total
    }

    /// Where the game is.
    pub fn stage(self) -> Stage {
        self.game.stage()
    }

    /// Each seat's chips.
    pub fn stacks(self) -> &'a [u32] {
        &self.game.stacks[..self.players()]
    }

    /// Whether seat `s` is out of the game (T6).
    pub fn out(self, s: usize) -> bool {
        self.game.out >> s & 1 == 1
    }

    /// The seats out of the game (T6), as bits.
    pub fn out_seats(self) -> u16 {
        self.game.out
    }

    /// Chips on each space in T4's order, 0 on a space this table's
    /// layout lacks (the Pot, without poker: the last of T4's order).
    pub fn space_chips(self) -> [u32; Space::ALL.len()] {
        let layout = &self.game.layout;
        let mut chips = Space::ALL.map(|s| layout.get(s));
        if !self.game.rules.has_pot() {
            chips[Space::Pot.index()] = 0;
        }
        chips
    }

    /// How many spaces of T4's order this table's layout shows.
    fn spaces(self) -> usize {
        Space::ALL.len() - usize::from(!self.game.rules.has_pot())
    }

    /// The pay suit, once known.
    pub fn pay_suit(self) -> Option<Suit> {
        self.game.deal.pay_suit
    }

    /// The Sequence's lowest rank.
    pub fn sequence(self) -> Option<Rank> {
        self.game.deal.sequence
    }

    /// The viewer's hand.
    pub fn hand(self) -> CardSet {
        self.viewer
            .map_or(CardSet::EMPTY, |s| self.game.deal.hands[usize::from(s)])
    }

    /// Cards in seat `s`'s hand.
    pub fn hand_size(self, s: usize) -> u32 {
        self.game.deal.hands[s].len()
    }

    /// The viewer's own five for this deal's poker, once chosen (P1).
    pub fn my_five(self) -> Option<CardSet> {
        let fives = &self.game.deal.fives;
        self.viewer
            .map(|s| fives[usize::from(s)])
            .filter(|f| !f.is_empty())
    }

    /// Which seats have set their five apart this deal, as bits (public:
    /// what they chose is not, until shown).
    pub fn chose_five(self) -> u16 {
        seat_mask(&self.game.deal.fives, |f| !f.is_empty())
    }

    /// Cards in the spare (or the undealt stock of a final pot).
    pub fn spare_size(self) -> u32 {
        self.game.deal.spare.len()
    }

    /// Cards the viewer knows to be in the spare (D6, M5).
    pub fn spare_known(self) -> CardSet {
        let d = &self.game.deal;
        let own = self
            .viewer
            .map_or(CardSet::EMPTY, |s| d.spare_known[usize::from(s)]);
        (d.public_spare | own) & d.spare
    }

    /// The cards the viewer knows seat `h` holds (shown, or D6): all of
    /// them for its own hand.
    pub fn known_cards(self, h: usize) -> CardSet {
        let d = &self.game.deal;
        match self.viewer.map(usize::from) {
            Some(v) if v == h => d.hands[h],
            Some(v) => (d.public | d.known_by[v][h]) & d.hands[h],
            None => d.public & d.hands[h],
        }
    }

    /// Cards everyone can tell seat `s` does not hold (a lead is the
    /// lowest of its suit; a run stopped below a card nobody holds; D5: a
    /// bid or a dealer's swap shows a hand without the pay suit's honours).
    pub fn cannot_hold(self, s: usize) -> CardSet {
        self.game.deal.known_not_held(s)
    }

    /// Cards seat `s` played in stage 3.
    pub fn played(self, s: usize) -> CardSet {
        self.game.deal.played_by[s]
    }

    /// The last card played in stage 3.
    pub fn last_played(self) -> Option<(Seat, Card)> {
        match &self.game.phase {
            Phase::Michigan(m) => m.last,
            _ => None,
        }
    }

    /// Whose turn it is, when that is public, and the viewer's own
    /// decision, when it is their turn.
    pub fn turn(self) -> (Option<Seat>, Option<Decision>) {
        match self.game.pending() {
            Pending::Decide { seat: s, decision } => {
                // Who must follow under M9b is not public: they may withhold.
                let public_turn = !matches!(decision, Decision::Follow { .. });
                let mine = self.viewer == Some(s);
                ((mine || public_turn).then_some(s), mine.then_some(decision))
            }
            _ => (None, None),
        }
    }

    /// The seats that folded in the betting round on (none if none is
    /// on), as bits: [`Sight::betting`]'s flags without building its lists.
    pub fn folded(self) -> u16 {
        match &self.game.phase {
            Phase::Betting(b) => b.folded as u16,
            _ => 0,
        }
    }

    /// The seats still bidding in the auction on (none if none is on), as
    /// bits: [`Sight::auction`]'s flags without building its list.
    pub fn bidding(self) -> u16 {
        match &self.game.phase {
            Phase::Auction(a) => a.eligible,
            _ => 0,
        }
    }

    /// The betting round, if one is on.
    pub fn betting(self) -> Option<BettingView> {
        let n = self.players();
        match &self.game.phase {
            Phase::Betting(b) => Some(BettingView {
                contributed: first(b.contributed, n),
                folded: seat_flags(self.folded(), n),
                current: b.current,
                raises: b.raises,
            }),
            _ => None,
        }
    }

    /// The auction, if one is on.
    pub fn auction(self) -> Option<AuctionView> {
        match &self.game.phase {
            Phase::Auction(a) => Some(AuctionView {
                item: match a.kind {
                    AuctionKind::Hand(item) => Some(item),
                    AuctionKind::PaySuit => None,
                },
                high: a.high,
                bidding: seat_flags(self.bidding(), self.players()),
            }),
            _ => None,
        }
    }

    /// All of it, copied out. (The per-seat lists are filled for the
    /// seats at the table only, and whole arrays are cut, as `first`
    /// says: a view is built for every message and bot decision.)
    pub fn view(self) -> View {
        let n = self.players();
        let g = self.game;
        let (to_act, decision) = self.turn();
        let mut known_cards = [CardSet::EMPTY; MAX_SEATS];
        let mut hand_sizes = [0; MAX_SEATS];
        let mut out = [false; MAX_SEATS];
        for h in 0..n {
            known_cards[h] = self.known_cards(h);
            hand_sizes[h] = self.hand_size(h);
            out[h] = self.out(h);
        }
        let layout = &g.layout;
        View {
            seat: self.place,
            players: g.n,
            dealer: self.dealer(),
            deal_number: self.deal_number(),
            deals_total: self.deals_total(),
            stage: self.stage(),
            stacks: first(g.stacks, n),
            out: first(out, n),
            layout: first(Space::ALL.map(|s| (s, layout.get(s))), self.spaces()),
            pay_suit: self.pay_suit(),
            sequence: self.sequence(),
            hand: self.hand(),
            hand_sizes: first(hand_sizes, n),
            my_five: self.my_five(),
            chose_five: seat_flags(self.chose_five(), n),
            spare_size: self.spare_size(),
            spare_known: self.spare_known(),
            known_cards: first(known_cards, n),
            cannot_hold: first(std::array::from_fn(|s| self.cannot_hold(s)), n),
            played: first(g.deal.played_by, n),
            last_played: self.last_played(),
            to_act,
            decision,
            betting: self.betting(),
            auction: self.auction(),
            standings: g.standings(),
        }
    }
}
