//! [`Game`]: the state machine of a whole game, and its one way in:
//! [`Game::pending`], [`Game::legal`], [`Game::check`], [`Game::apply`] and
//! [`Game::chance`].

use serde::{Deserialize, Serialize};
use tripoley_cards::{CardSet, Rank, Suit};

use crate::action::{Action, ChanceKind, DealChance, Decision, Pending};
use crate::auction::Auction;
use crate::event::{Event, EventSink, Reason, Transfer};
use crate::layout::{Account, Layout, Seat, Space};
use crate::michigan::Michigan;
use crate::poker::Betting;
use crate::rules::{
    FirstDealer, PaySuitRule, PokerRule, Rules, RulesError, SequenceRule, SpareRule,
};
use crate::view::PerSeat;

/// The most seats a table has (T2).
pub const MAX_SEATS: usize = 9;

/// Why an action or a chance was refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// It is not this seat's turn (or the game waits for chance).
    #[error("it is not seat {0}'s turn")]
    NotYourTurn(Seat),
    /// The action does not answer the pending decision.
    #[error("{action:?} is not legal now: {why}")]
    NotLegal {
        /// The refused action.
        action: Action,
        /// Why, in words.
        why: String,
    },
    /// The game waits for a decision, not for chance, or the chance is malformed.
    #[error("chance refused: {0}")]
    Chance(String),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

/// What the game is doing now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// T3: waiting for a deck to draw for first dealer among these seats.
    DrawForDealer { contenders: u16 },
    /// Waiting for the deal's deck.
    AwaitDeal,
    /// D3: the dealer's choice (`after_unsold`: the spare auction found no buyer).
    SpareChoice { after_unsold: bool },
    /// D4 or H8.
    Auction(Auction),
    /// H8: the high bidder names the suit.
    NamePaySuit { seat: Seat },
    /// P1: `turn` chooses their five; the others in the deal follow, from
    /// the dealer's left (those who chose have [`Deal::fives`]).
    ChooseFive { turn: Seat },
    /// P4-P5, and E2's extra poker.
    Betting(Betting),
    /// Stage 3.
    Michigan(Michigan),
    /// E2: waiting for a fresh deck for final-pot round `round` of `rounds`.
    AwaitFinalDeck { round: u32, rounds: u32, total: u32 },
    /// E3.
    GameOver,
}

/// What happens in one deal: hands, the spare, and what is known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Deal {
    pub number: u32,
    pub hands: [CardSet; MAX_SEATS],
    pub spare: CardSet,
    pub pay_suit: Option<Suit>,
    pub sequence: Option<Rank>,
    /// D6: cards each seat knows to be in the spare.
    pub spare_known: [CardSet; MAX_SEATS],
    /// D6: `known_by[viewer][holder]`, cards a seat knows another holds
    /// (the dealer who auctioned their old hand knows who bought it).
    pub known_by: [[CardSet; MAX_SEATS]; MAX_SEATS],
    /// Cards shown to everyone (H1, P8).
    pub public: CardSet,
    /// Stage 3: every card played, and by whom.
    pub played: CardSet,
    pub played_by: [CardSet; MAX_SEATS],
    /// Deductions everyone can make from a seat's own turns (what it led,
    /// or could not lead): cards it cannot hold. Cards of the public spare,
    /// which nobody holds, are not repeated here: see
    /// [`Deal::known_not_held`].
    pub cannot_hold: [CardSet; MAX_SEATS],
    /// Cards everyone knows to be in the spare (a run stopped below them).
    pub public_spare: CardSet,
    /// P1: each seat's chosen five (empty until chosen). A final pot's
    /// five-card hands are their own five.
    pub fives: [CardSet; MAX_SEATS],
    /// P9: hands as stage 3 began.
    pub stage3_hands: [CardSet; MAX_SEATS],
    /// The cards in the players' hands once the spare and the pay suit are
    /// settled ([`Deal::index_hands`]): from then on cards leave hands only
    /// by play, so those in hands are these less the played ones.
    pub dealt: CardSet,
    /// Who holds each card of `dealt`, by [`tripoley_cards::Card::bit`] (meaningless for
    /// other cards): stage 1 and every card that follows a lead in stage 3
    /// ask who holds a card, and this answers with one look-up.
    pub holders: Holders,
    /// M9: seats that can collect no pay space this deal.
    pub barred: u16,
    /// M9a: seats that misled this deal (public, unlike a withheld card).
    pub misled: u16,
    /// M9a: for each misplay this deal, the leader and the cards of which it
    /// held one then (public, as the penalty is: see [`Deal::note_lead`]).
    pub misplay_proofs: crate::sample::Proofs,
    /// D5: what bids, dealer's swaps and auctions showed about bonus cards
    /// in the hands (public: see [`crate::sample::BonusProofs`]).
    pub bonus_proofs: crate::sample::BonusProofs,
    /// H3, H4: suits whose Sequence nobody claimed in stage 1 (a bit per
    /// suit index). Public: no hand held one whole as stage 1 began, so no
    /// sampled world may deal one ([`Game::deal_world`]).
    pub unclaimed_sequences: u8,
    /// M9b: suits each seat withheld in (bit per suit index).
    pub withheld_suits: [u8; MAX_SEATS],
    /// M9b: the withholders, in the order they first withheld (T8: they
    /// settle in that order).
    pub withholders: PerSeat<Seat>,
    /// M9b: the cards runs stopped below unplayed (see [`crate::withheld::Stops`]).
    pub stops: crate::withheld::Stops,
    /// M9b: what the settlement began from (`None` until then): with
    /// [`Deal::stops`] it tells a sampled world the withholding payments
    /// everyone saw.
    pub settled: Option<crate::withheld::Settled>,
    /// M2: the winner of the main poker pot.
    pub poker_winner: Option<Seat>,
}

/// Who holds each card, by [`tripoley_cards::Card::bit`] (see [`Deal::holders`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Holders(pub [Seat; 64]);

impl Default for Holders {
    fn default() -> Holders {
        Holders([0; 64])
    }
}

impl Deal {
    /// Records who holds which card ([`Deal::dealt`], [`Deal::holders`]) as
    /// the hands now stand, the played cards counted as dealt.
    pub(crate) fn index_hands(&mut self, players: usize) {
        self.dealt = self.played | self.cards_in_hands(players);
        for (seat, &hand) in self.hands[..players].iter().enumerate() {
            for card in hand {
                self.holders.0[usize::from(card.bit())] = seat as Seat;
            }
        }
    }

    /// Every card in the hands of the first `players` seats.
    pub(crate) fn cards_in_hands(&self, players: usize) -> CardSet {
        self.hands[..players]
            .iter()
            .fold(CardSet::EMPTY, |all, &hand| all | hand)
    }

    /// Every card everyone can tell `seat` does not hold: its own turns'
    /// deductions, the public spare, and D5's pay cards when its hand was
    /// shown to hold no bonus card.
    pub fn known_not_held(&self, seat: usize) -> CardSet {
        self.cannot_hold[seat] | self.public_spare | self.bonus_proofs.not_held_by(seat)
    }
}

/// A game of Tripoley: the table's chips, the dealer, and the current deal.
///
/// Pure: no I/O, no clock, no randomness of its own. Chance (deck orders and
/// `cosmo`'s draws) comes in through [`Game::chance`]; decisions through
/// [`Game::apply`]. Forced moves are made by the engine and reported as
/// events, so callers only ever see real decisions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub(crate) rules: Rules,
    pub(crate) n: u8,
    pub(crate) stacks: [u32; MAX_SEATS],
    pub(crate) out: u16,
    pub(crate) layout: Layout,
    pub(crate) dealer: Seat,
    /// The dealer of the last deal played: E2's ties count from their left.
    pub(crate) last_dealer: Seat,
    pub(crate) deals_done: u32,
    pub(crate) deals_total: u32,
    pub(crate) total_chips: u32,
    pub(crate) phase: Phase,
    pub(crate) deal: Deal,
    /// What the game waits for, cached after every public change: bots,
    /// views and checks ask for it several times per decision.
    pending: Pending,
    /// Whether [`Game::resolve_forced`] stored `pending` as the last thing an
    /// action or chance did, so it need not be worked out again.
    pending_fresh: bool,
}

/// A player's standing at the end (E3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The seat.
    pub seat: Seat,
    /// Chips at the end (players who went out keep theirs).
    pub chips: u32,
    /// Whether the seat is among those with the most chips.
    pub winner: bool,
}

impl Game {
    /// A new game for `players` seats. The first dealer is drawn (chance asks
    /// for decks) or given by the rules (T3).
    pub fn new(rules: Rules, players: usize) -> Result<Game, RulesError> {
        Game::start(rules, players, &mut Vec::new())
    }

    /// [`Game::new`], reporting what happens before the first decision or
    /// chance (with a given first dealer: the antes of the first deal).
    pub fn start(
        rules: Rules,
        players: usize,
        ev: &mut impl EventSink,
    ) -> Result<Game, RulesError> {
        rules.check_players(players)?;
        let n = players as u8;
        let mut stacks = [0; MAX_SEATS];
        stacks[..players].fill(rules.starting_chips);
        let deals_total = rules.deals.unwrap_or(u32::from(n));
        let mut game = Game {
            n,
            stacks,
            out: 0,
            layout: Layout::default(),
            dealer: 0,
            last_dealer: 0,
            deals_done: 0,
            deals_total,
            total_chips: rules.starting_chips * u32::from(n),
            phase: Phase::AwaitDeal,
            deal: Deal::default(),
            pending: Pending::GameOver,
            pending_fresh: false,
            rules,
        };
        match game.rules.first_dealer {
            FirstDealer::HighCard => {
                game.phase = Phase::DrawForDealer {
                    contenders: (1 << n) - 1,
                }
            }
            FirstDealer::Seat(s) => {
                game.dealer = s;
                ev.push(Event::FirstDealer { seat: game.dealer });
                game.begin_deal(ev);
            }
        }
        game.pending = game.compute_pending();
        Ok(game)
    }

    /// The rules of this game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Number of seats.
    pub fn players(&self) -> usize {
        usize::from(self.n)
    }

    /// Each seat's chips.
    pub fn stacks(&self) -> &[u32] {
        &self.stacks[..usize::from(self.n)]
    }

    /// [`Game::stacks`] with 0 for the seats beyond the table's, up to
    /// [`MAX_SEATS`]: of a fixed length, so a batched step works out every
    /// seat's reward in one go rather than seat by seat.
    pub fn stacks_of_every_seat(&self) -> &[u32; MAX_SEATS] {
        &self.stacks
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The current (or last) dealer.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Whether `seat` is out of the game (T6).
    pub fn is_out(&self, seat: Seat) -> bool {
        self.out >> seat & 1 == 1
    }

    /// Deals finished so far.
    pub fn deals_done(&self) -> u32 {
        self.deals_done
    }

    /// Deals the game will have (E1).
    pub fn deals_total(&self) -> u32 {
        self.deals_total
    }

    /// The number of the current deal (1 for the first; 0 before it).
    pub fn deal_number(&self) -> u32 {
        self.deal.number
    }

    /// Chips on the table: every stack plus the layout, which never changes (T7).
    pub fn chips_in_play(&self) -> u32 {
        self.stacks().iter().sum::<u32>() + self.layout.total()
    }

    /// The chips the game started with.
    pub fn total_chips(&self) -> u32 {
        self.total_chips
    }

    /// Where each card is, for checks: each seat's hand, the spare, and the
    /// cards played in stage 3.
    pub fn card_locations(&self) -> (Vec<CardSet>, CardSet, CardSet) {
        (
            self.deal.hands[..usize::from(self.n)].to_vec(),
            self.deal.spare,
            self.deal.played,
        )
    }

    /// This deal's pay suit, once known.
    pub fn pay_suit(&self) -> Option<Suit> {
        self.deal.pay_suit
    }

    /// The final standings, once the game is over (E3).
    pub fn standings(&self) -> Option<Vec<Standing>> {
        (self.phase == Phase::GameOver).then(|| self.current_standings())
    }

    pub(crate) fn current_standings(&self) -> Vec<Standing> {
        let best = self.stacks().iter().copied().max().unwrap_or(0);
        (0..self.n)
            .map(|seat| Standing {
                seat,
                chips: self.stacks[usize::from(seat)],
                winner: self.stacks[usize::from(seat)] == best,
            })
            .collect()
    }

    /// What the game waits for.
    pub fn pending(&self) -> Pending {
        self.pending
    }

    /// [`Game::pending`] in place.
    pub(crate) fn pending_ref(&self) -> &Pending {
        &self.pending
    }

    /// Refreshes the cached [`Game::pending`] after a change made from outside
    /// the usual entry points (a sampled world).
    pub(crate) fn refresh_pending(&mut self) {
        self.pending = self.compute_pending();
    }

    /// What the game waits for, worked out from the phase (the cached
    /// [`Game::pending`] is refreshed from this after every change).
    fn compute_pending(&self) -> Pending {
        let decide = |seat, decision| Pending::Decide { seat, decision };
        match &self.phase {
            Phase::DrawForDealer { .. } => Pending::Chance(ChanceKind::DrawForDealer),
            Phase::AwaitDeal => Pending::Chance(ChanceKind::Deal),
            Phase::AwaitFinalDeck { .. } => Pending::Chance(ChanceKind::FinalPot),
            Phase::SpareChoice { after_unsold } => {
                decide(self.dealer, self.spare_decision(*after_unsold))
            }
            Phase::Auction(a) => decide(a.turn, a.decision(self)),
            Phase::NamePaySuit { seat } => decide(*seat, Decision::NamePaySuit),
            Phase::ChooseFive { turn } => decide(
                *turn,
                Decision::ChooseFive {
                    from: self.deal.hands[usize::from(*turn)],
                },
            ),
            Phase::Betting(b) => decide(b.turn, b.decision(self)),
            Phase::Michigan(m) => decide(m.turn(), m.decision(self)),
            Phase::GameOver => Pending::GameOver,
        }
    }

    /// Every legal action of `seat` now, enumerated (a five-card choice out
    /// of many cards has many answers: bots should work from
    /// [`Game::pending`]'s shape instead).
    pub fn legal(&self, seat: Seat) -> Vec<Action> {
        match &self.pending {
            Pending::Decide { seat: s, decision } if *s == seat => decision.actions(),
            _ => Vec::new(),
        }
    }

    /// Whether `seat` may take `action` now; the error says why not.
    #[inline]
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        // In place: copying the decision out would load it whole, which
        // stalls on the field-by-field stores that just wrote it.
        match &self.pending {
            Pending::GameOver => Err(IllegalAction::GameOver),
            Pending::Decide { seat: s, decision } if *s == seat => decision.check(action),
            _ => Err(IllegalAction::NotYourTurn(seat)),
        }
    }

    /// Applies `seat`'s `action`, then every forced move after it; returns
    /// the events. An illegal action changes nothing.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        let mut ev = Vec::new();
        self.apply_into(seat, action, &mut ev)?;
        Ok(ev)
    }

    /// [`Game::apply`], appending the events to `ev` (no allocation when
    /// `ev` has room: the self-play path).
    pub fn apply_into(
        &mut self,
        seat: Seat,
        action: Action,
        ev: &mut impl EventSink,
    ) -> Result<(), IllegalAction> {
        self.check(seat, action)?;
        self.pending_fresh = false;
        self.act(action, ev);
        self.settle_pending();
        Ok(())
    }

    /// Brings the cached [`Game::pending`] up to date after an action or a
    /// chance, unless [`Game::resolve_forced`] already did as its last step
    /// (the common case: it is worked out once per step, not twice).
    fn settle_pending(&mut self) {
        if !self.pending_fresh {
            self.pending = self.compute_pending();
        }
        self.pending_fresh = false;
        debug_assert_eq!(
            self.pending,
            self.compute_pending(),
            "the state changed after resolve_forced stored what is pending"
        );
    }

    /// Carries out a legal action (checked by the caller).
    fn act(&mut self, action: Action, ev: &mut impl EventSink) {
        match &self.phase {
            Phase::SpareChoice { .. } => self.spare_choice(action, ev),
            Phase::Auction(_) => self.auction_act(action, ev),
            Phase::NamePaySuit { seat } => {
                let seat = *seat;
                let Action::NameSuit(suit) = action else {
                    unreachable!("checked")
                };
                self.pay_suit_named(Some(seat), suit, ev);
            }
            Phase::ChooseFive { .. } => self.choose_five_act(action, ev),
            Phase::Betting(_) => self.betting_act(action, ev),
            Phase::Michigan(_) => self.michigan_act(action, ev),
            _ => unreachable!("check refuses actions outside decisions"),
        }
    }

    /// E1: the table asks to end the game. A deal in progress is played to
    /// its end; then (or at once, between deals) the final pot (E2) and the
    /// standings follow. Returns the events of ending now, if any.
    pub fn end_after_this_deal(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        match self.phase {
            Phase::GameOver | Phase::AwaitFinalDeck { .. } => {}
            Phase::DrawForDealer { .. } | Phase::AwaitDeal => {
                self.deals_total = self.deals_done;
                self.end_game(&mut ev);
            }
            Phase::Betting(ref b) if b.final_round.is_some() => {}
            _ => self.deals_total = self.deals_done + 1,
        }
        self.pending = self.compute_pending();
        ev
    }

    /// Supplies what chance decides (a deck, and `cosmo`'s draws); returns the
    /// events. Refused, with nothing changed, when the game is not waiting
    /// for chance or the chance does not fit the rules.
    #[allow(clippy::needless_pass_by_value)] // callers hand the chance over; it is not reused
    pub fn chance(&mut self, chance: DealChance) -> Result<Vec<Event>, IllegalAction> {
        let mut ev = Vec::new();
        self.chance_into(&chance, &mut ev)?;
        Ok(ev)
    }

    /// [`Game::chance`], appending the events to `ev`.
    pub fn chance_into(
        &mut self,
        chance: &DealChance,
        ev: &mut impl EventSink,
    ) -> Result<(), IllegalAction> {
        match self.phase {
            Phase::DrawForDealer { contenders } => {
                self.pending_fresh = false;
                self.draw_for_dealer(contenders, chance, ev);
                self.settle_pending();
                Ok(())
            }
            Phase::AwaitDeal => {
                let random_suit = self.rules.pay_suit == PaySuitRule::RandomEachDeal;
                let random_seq = self.rules.sequence == SequenceRule::RandomEachDeal;
                if random_suit != chance.pay_suit.is_some()
                    || random_seq != chance.sequence.is_some()
                {
                    return Err(IllegalAction::Chance(
                        "a pay suit and a Sequence are drawn exactly when the rules say so (H9)"
                            .into(),
                    ));
                }
                if chance.sequence.is_some_and(|r| r > Rank::Queen) {
                    return Err(IllegalAction::Chance(
                        "the Sequence starts at Q at the highest".into(),
                    ));
                }
                self.pending_fresh = false;
                self.start_deal(chance, ev);
                self.settle_pending();
                Ok(())
            }
            Phase::AwaitFinalDeck {
                round,
                rounds,
                total,
            } => {
                self.pending_fresh = false;
                self.final_round(round, rounds, total, chance, ev);
                self.settle_pending();
                Ok(())
            }
            Phase::GameOver => Err(IllegalAction::GameOver),
            _ => Err(IllegalAction::Chance(
                "the game waits for a decision, not for chance".into(),
            )),
        }
    }

    // ----- seats -----

    /// Seats still in the game, as a bit set.
    pub(crate) fn active(&self) -> u16 {
        ((1u16 << self.n) - 1) & !self.out
    }

    /// The next active seat left of `seat` (T6: players who are out are skipped).
    pub(crate) fn left_of(&self, seat: Seat) -> Seat {
        next_in(seat, self.active()).unwrap_or(seat)
    }

    /// Active seats in order starting left of the dealer.
    pub(crate) fn seats_from_dealers_left(&self) -> impl Iterator<Item = Seat> + use<> {
        seats_after(self.dealer, self.active())
    }

    // ----- chips -----

    fn account(&mut self, a: Account) -> &mut u32 {
        match a {
            Account::Stack(s) => &mut self.stacks[usize::from(s)],
            Account::Space(sp) => self.layout.get_mut(sp),
        }
    }

    /// Moves up to `amount` chips (capped at what `from` holds, T6) and
    /// reports it; returns the amount moved.
    pub(crate) fn transfer(
        &mut self,
        from: Account,
        to: Account,
        amount: u32,
        reason: Reason,
        ev: &mut impl EventSink,
    ) -> u32 {
        let amount = amount.min(*self.account(from));
        if amount == 0 || from == to {
            return 0;
        }
        *self.account(from) -= amount;
        *self.account(to) += amount;
        ev.push(Event::Transfer(Transfer {
            from,
            to,
            amount,
            reason,
        }));
        amount
    }

    /// Moves every chip of a space to a seat.
    pub(crate) fn take_space(
        &mut self,
        seat: Seat,
        space: Space,
        reason: Reason,
        ev: &mut impl EventSink,
    ) {
        let chips = self.layout.get(space);
        self.transfer(
            Account::Space(space),
            Account::Stack(seat),
            chips,
            reason,
            ev,
        );
    }

    /// The spaces of this table's layout (T4): all of them, or all but the
    /// Pot (the last) when the rules play no poker pot.
    pub(crate) fn spaces(&self) -> &'static [Space] {
        self.rules.spaces()
    }

    // ----- the flow of a game -----

    fn draw_for_dealer(&mut self, contenders: u16, chance: &DealChance, ev: &mut impl EventSink) {
        let draws = || {
            (0..self.n)
                .filter(|&s| contenders >> s & 1 == 1)
                .zip(chance.deck.cards().iter().copied())
        };
        let best = draws()
            .map(|(_, card)| card.rank())
            .max()
            .expect("two or more players");
        let tied = draws()
            .filter(|(_, card)| card.rank() == best)
            .fold(0u16, |m, (seat, _)| m | 1 << seat);
        if ev.is_listening() {
            ev.push(Event::DrewForDealer {
                draws: draws().collect(),
            });
        }
        if tied.count_ones() == 1 {
            self.dealer = tied.trailing_zeros() as Seat;
            ev.push(Event::FirstDealer { seat: self.dealer });
            self.begin_deal(ev);
        } else {
            self.phase = Phase::DrawForDealer { contenders: tied };
        }
    }

    /// T5, T6: players who cannot ante leave; the rest ante; then the game
    /// waits for the deck. Ends the game when fewer than two remain.
    pub(crate) fn begin_deal(&mut self, ev: &mut impl EventSink) {
        loop {
            for seat in 0..self.n {
                if self.is_out(seat) {
                    continue;
                }
                let chips = self.stacks[usize::from(seat)];
                if u64::from(chips) < self.rules.full_ante(seat == self.dealer) {
                    self.out |= 1 << seat;
                    ev.push(Event::PlayerOut { seat, chips });
                }
            }
            if self.active().count_ones() < 2 {
                self.end_game(ev);
                return;
            }
            if !self.is_out(self.dealer) {
                break;
            }
            // T6: the deal passes left; the new dealer's double ante is checked again.
            self.dealer = self.left_of(self.dealer);
        }
        // T8: clockwise from the dealer's left, each player's spaces in layout order.
        for seat in self.seats_from_dealers_left() {
            for &space in self.spaces() {
                self.transfer(
                    Account::Stack(seat),
                    Account::Space(space),
                    self.rules.ante_on(space, seat == self.dealer),
                    Reason::Ante,
                    ev,
                );
            }
        }
        self.phase = Phase::AwaitDeal;
    }

    /// D1 and what follows it, up to the first decision.
    fn start_deal(&mut self, chance: &DealChance, ev: &mut impl EventSink) {
        let pay_suit = match self.rules.pay_suit {
            PaySuitRule::Fixed(s) => Some(s),
            PaySuitRule::RandomEachDeal => chance.pay_suit,
            PaySuitRule::Auction => None,
        };
        let sequence = match self.rules.sequence {
            SequenceRule::From(r) => r,
            SequenceRule::RandomEachDeal => chance.sequence.expect("checked"),
        };
        self.deal = Deal {
            number: self.deals_done + 1,
            pay_suit,
            sequence: Some(sequence),
            ..Deal::default()
        };
        ev.push(Event::DealStarted {
            number: self.deal.number,
            dealer: self.dealer,
            pay_suit,
            sequence,
        });
        // D1: left of the dealer first, the spare right after the dealer.
        let order: PerSeat<Seat> = self.seats_from_dealers_left().collect();
        let mut hands = [CardSet::EMPTY; MAX_SEATS + 1];
        chance.deck.deal_into(&mut hands[..=order.len()]);
        for (i, &seat) in order.iter().enumerate() {
            self.deal.hands[usize::from(seat)] = hands[i];
            ev.push(Event::Dealt {
                seat,
                cards: hands[i],
            });
        }
        self.deal.spare = hands[order.len()];
        if self.rules.spare == SpareRule::DealerSwapOrAuction {
            self.phase = Phase::SpareChoice {
                after_unsold: false,
            };
            self.await_decision(self.dealer, self.spare_decision(false), ev);
        } else {
            self.after_spare(ev);
        }
    }

    /// After the spare hand is settled: the pay-suit auction (H8) or stage 1.
    pub(crate) fn after_spare(&mut self, ev: &mut impl EventSink) {
        if self.rules.pay_suit == PaySuitRule::Auction {
            self.open_pay_suit_auction(ev);
        } else {
            self.after_pay_suit(ev);
        }
    }

    /// The pay suit is fixed: stage 1, then poker or Michigan.
    pub(crate) fn after_pay_suit(&mut self, ev: &mut impl EventSink) {
        self.deal.index_hands(usize::from(self.n));
        if self.rules.pay_cards == crate::rules::PayCards::Stage1 {
            self.stage1(ev);
        }
        if self.rules.poker == PokerRule::Betting {
            self.open_choose_five(ev);
        } else {
            self.start_michigan(ev);
        }
    }

    /// The deal is over: next deal, or the end of the game (E1).
    pub(crate) fn end_deal(&mut self, ev: &mut impl EventSink) {
        self.deals_done += 1;
        self.last_dealer = self.dealer;
        ev.push(Event::DealEnded {
            number: self.deal.number,
        });
        self.dealer = self.left_of(self.dealer);
        if self.deals_done >= self.deals_total {
            self.end_game(ev);
        } else {
            self.begin_deal(ev);
        }
    }

    /// E1-E3: the final pot, then the standings.
    fn end_game(&mut self, ev: &mut impl EventSink) {
        if self.deals_done > 0 {
            // E2 counts from the last deal's dealer.
            self.dealer = self.last_dealer;
        }
        let total = self.layout.total();
        let rounds = self.rules.final_pot_rounds;
        if self.rules.final_pot == crate::rules::FinalPot::Keep || total == 0 || self.active() == 0
        {
            self.finish(ev);
            return;
        }
        // Gather the layout on the Pot; each round plays for its share.
        for &space in self.spaces() {
            if space != Space::Pot {
                let chips = self.layout.get(space);
                self.transfer(
                    Account::Space(space),
                    Account::Space(Space::Pot),
                    chips,
                    Reason::FinalPotGathered,
                    ev,
                );
            }
        }
        self.phase = Phase::AwaitFinalDeck {
            round: 1,
            rounds,
            total,
        };
    }

    /// E2: round `round`'s share of the layout.
    pub(crate) fn final_share(round: u32, rounds: u32, total: u32) -> u32 {
        total / rounds + if round == rounds { total % rounds } else { 0 }
    }

    /// After a final-pot round: the next one, or the end.
    pub(crate) fn after_final_round(
        &mut self,
        round: u32,
        rounds: u32,
        total: u32,
        ev: &mut impl EventSink,
    ) {
        if round < rounds && self.layout.get(Space::Pot) > 0 {
            self.phase = Phase::AwaitFinalDeck {
                round: round + 1,
                rounds,
                total,
            };
        } else {
            self.finish(ev);
        }
    }

    fn finish(&mut self, ev: &mut impl EventSink) {
        self.phase = Phase::GameOver;
        if ev.is_listening() {
            let winners = self
                .current_standings()
                .into_iter()
                .filter(|s| s.winner)
                .map(|s| s.seat)
                .collect();
            ev.push(Event::GameOver { winners });
        }
    }

    /// The phase now waits for `seat`'s `decision`, which the caller has
    /// just worked out: stored as pending without working it out again, or,
    /// when it has a single answer, made at once like any forced move.
    ///
    /// Inlined, so the decision's fields go from the caller's registers
    /// straight into `pending`: stored whole from a temporary, it would be
    /// read back wider than it was written, which stalls the processor
    /// (no store-to-load forwarding) at every step of self-play.
    #[inline(always)]
    pub(crate) fn await_decision(
        &mut self,
        seat: Seat,
        decision: Decision,
        ev: &mut impl EventSink,
    ) {
        debug_assert_eq!(
            Pending::Decide { seat, decision },
            self.compute_pending(),
            "the decision awaited is the one the phase asks for"
        );
        if let Some(action) = decision.forced() {
            self.make_forced(action, ev);
        } else {
            self.pending = Pending::Decide { seat, decision };
            self.pending_fresh = true;
        }
    }

    /// Makes a forced move; whatever follows settles what is pending next.
    #[inline(never)]
    fn make_forced(&mut self, action: Action, ev: &mut impl EventSink) {
        self.pending_fresh = false;
        self.act(action, ev);
        if !self.pending_fresh {
            self.resolve_forced(ev);
        }
    }

    /// Applies forced moves (a decision with a single answer) until a real
    /// decision, chance, or the end.
    pub(crate) fn resolve_forced(&mut self, ev: &mut impl EventSink) {
        loop {
            let pending = self.compute_pending();
            if let Pending::Decide { decision, .. } = pending
                && let Some(action) = decision.forced()
            {
                debug_assert!(decision.check(action).is_ok(), "a forced action is legal");
                self.act(action, ev);
            } else {
                self.pending = pending;
                self.pending_fresh = true;
                return;
            }
        }
    }
}

impl Decision {
    /// The answer the engine makes by itself, with no turn: only where
    /// everyone can see that there was no choice. A move made for a player
    /// reaches every viewer with the move before it, while a chosen one waits
    /// for its turn; so a forced move whose cause lies in a hidden hand would
    /// tell the others about that hand (issue 31). Such one-answer decisions
    /// are asked like any other ([`Decision::only`]).
    #[inline]
    pub fn forced(&self) -> Option<Action> {
        match *self {
            // A player with no chips left passes for the pay suit by
            // themselves: their stack is public. A bidder for a hand is
            // always asked (see `open_hand_auction`).
            Decision::PaySuitBid { min, max } if min > max => Some(Action::Pass),
            // Five cards to choose five from: hand sizes are public (D1, and
            // a swap with the spare keeps the size).
            Decision::ChooseFive { from } if from.len() == 5 => Some(Action::Choose(from)),
            // Asked although there is one answer, for their cause is hidden:
            // a lead with one card (the leader's hand, M10 says leaders
            // choose), and a dealer who may only keep after an unsold spare
            // (their hand holds a bonus card, D5).
            _ => None,
        }
    }

    /// The only answer, when there is just one: a forced move, or a
    /// decision still asked although it has one answer (a lead with one
    /// card, a dealer who may only keep). Bots, hints and analyses answer
    /// these at once, with no search.
    #[inline]
    pub fn only(&self) -> Option<Action> {
        match *self {
            Decision::SpareOption {
                can_swap: false,
                can_auction: false,
                can_swap_and_auction: false,
            } => Some(Action::Keep),
            Decision::Lead { cards } if cards.len() == 1 => cards.first().map(Action::Lead),
            _ => self.forced(),
        }
    }

    /// Every answer, enumerated.
    pub fn actions(&self) -> Vec<Action> {
        match *self {
            Decision::SpareOption {
                can_swap,
                can_auction,
                can_swap_and_auction,
            } => {
                let mut v = vec![Action::Keep];
                if can_swap {
                    v.push(Action::Swap);
                }
                if can_auction {
                    v.push(Action::AuctionSpare);
                }
                if can_swap_and_auction {
                    v.push(Action::SwapAndAuction);
                }
                v
            }
            Decision::AuctionBid { min, max, .. } | Decision::PaySuitBid { min, max } => {
                std::iter::once(Action::Pass)
                    .chain((min..=max).map(Action::Bid))
                    .collect()
            }
            Decision::NamePaySuit => Suit::ALL.into_iter().map(Action::NameSuit).collect(),
            Decision::Open { max_bet } => std::iter::once(Action::Check)
                .chain((1..=max_bet).map(Action::Bet))
                .collect(),
            Decision::Respond { max_raise, .. } => [Action::Fold, Action::Call]
                .into_iter()
                .chain((1..=max_raise).map(Action::Raise))
                .collect(),
            Decision::ChooseFive { from } => five_subsets(from).map(Action::Choose).collect(),
            Decision::Lead { cards } => cards.iter().map(Action::Lead).collect(),
            Decision::Follow { .. } => vec![Action::Play, Action::Withhold],
        }
    }

    /// Whether `action` answers this decision; the error says why not.
    #[inline]
    pub fn check(&self, action: Action) -> Result<(), IllegalAction> {
        if self.allows(action) {
            Ok(())
        } else {
            Err(self.refusal(action))
        }
    }

    /// Whether `action` answers this decision: [`Decision::check`] without
    /// the reason, cheap enough for every step of self-play. Always
    /// inlined: a test of a few instructions, which its two callers in a
    /// step (the binding's decoding, the engine's check) paid as much again
    /// to call out of line.
    #[inline(always)]
    pub fn allows(&self, action: Action) -> bool {
        // Decision first, then the action: one small test per arm.
        match *self {
            Decision::Respond { max_raise, .. } => match action {
                Action::Fold | Action::Call => true,
                Action::Raise(x) => (1..=max_raise).contains(&x),
                _ => false,
            },
            Decision::Lead { cards } => matches!(action, Action::Lead(c) if cards.contains(c)),
            Decision::Open { max_bet } => match action {
                Action::Check => true,
                Action::Bet(x) => (1..=max_bet).contains(&x),
                _ => false,
            },
            Decision::AuctionBid { min, max, .. } | Decision::PaySuitBid { min, max } => {
                match action {
                    Action::Pass => true,
                    Action::Bid(x) => (min..=max).contains(&x),
                    _ => false,
                }
            }
            Decision::ChooseFive { from } => {
                matches!(action, Action::Choose(five) if five.len() == 5 && from.contains_all(five))
            }
            Decision::SpareOption {
                can_swap,
                can_auction,
                can_swap_and_auction,
            } => match action {
                Action::Keep => true,
                Action::Swap => can_swap,
                Action::AuctionSpare => can_auction,
                Action::SwapAndAuction => can_swap_and_auction,
                _ => false,
            },
            Decision::NamePaySuit => matches!(action, Action::NameSuit(_)),
            Decision::Follow { .. } => matches!(action, Action::Play | Action::Withhold),
        }
    }

    /// Why `action`, which [`Decision::allows`] refused, does not answer
    /// this decision.
    #[cold]
    fn refusal(&self, action: Action) -> IllegalAction {
        let why = match (*self, action) {
            (Decision::SpareOption { .. }, Action::Swap) => {
                "the dealer may not swap now (D3, D5)".to_owned()
            }
            (Decision::SpareOption { .. }, Action::AuctionSpare) => {
                "the spare cannot be auctioned now (D3)".to_owned()
            }
            (Decision::SpareOption { .. }, Action::SwapAndAuction) => {
                "the dealer may not swap and auction now (D3, D5)".to_owned()
            }
            (
                Decision::AuctionBid { min, max, .. } | Decision::PaySuitBid { min, max },
                Action::Bid(_),
            ) => format!("a bid must be from {min} to {max}"),
            (Decision::Open { max_bet }, Action::Bet(_)) => {
                format!("a bet must be from 1 to {max_bet} (P4)")
            }
            (Decision::Respond { max_raise: 0, .. }, Action::Raise(_)) => {
                "no raise is possible now (P4: raise cap or stack)".to_owned()
            }
            (Decision::Respond { max_raise, .. }, Action::Raise(_)) => {
                format!("a raise must be from 1 to {max_raise} (P4)")
            }
            (Decision::ChooseFive { .. }, Action::Choose(_)) => {
                "choose exactly five cards of your hand (P1)".to_owned()
            }
            (Decision::Lead { .. }, Action::Lead(_)) => {
                "that card may not be led now (M3, M5, M6)".to_owned()
            }
            _ => "it does not answer the decision pending".to_owned(),
        };
        IllegalAction::NotLegal { action, why }
    }
}

/// The bit set of the seats whose entry in `per_seat` (seat 0 first)
/// satisfies `test`, built without branches.
pub(crate) fn seat_mask<T>(per_seat: &[T], test: impl Fn(&T) -> bool) -> u16 {
    per_seat
        .iter()
        .enumerate()
        .fold(0, |mask, (s, x)| mask | u16::from(test(x)) << s)
}

/// The seats in a bit set, lowest first.
pub(crate) fn seats(mask: u16) -> impl Iterator<Item = Seat> {
    seats_after(MAX_SEATS as Seat, mask)
}

/// The next seat clockwise from `seat` that is in `among` (`seat` itself
/// when it is the only one).
pub(crate) fn next_in(seat: Seat, among: u16) -> Option<Seat> {
    seats_after(seat, among).next()
}

/// The seats of `mask` clockwise from `seat` itself (first, when in `mask`).
pub(crate) fn seats_from(seat: Seat, mask: u16) -> impl Iterator<Item = Seat> {
    seats_after(seat.checked_sub(1).unwrap_or(MAX_SEATS as Seat), mask)
}

/// The seats of `mask` clockwise after `seat`: those above it, then from
/// seat 0 round to `seat` itself (last, if in `mask`). Bit arithmetic, no
/// division: seat order is asked for at almost every step.
pub(crate) fn seats_after(seat: Seat, mask: u16) -> impl Iterator<Item = Seat> {
    let up_to_seat = (2u16 << seat).wrapping_sub(1);
    let mut above = mask & !up_to_seat;
    let mut rest = mask & up_to_seat;
    std::iter::from_fn(move || {
        let bits = if above != 0 { &mut above } else { &mut rest };
        if *bits == 0 {
            return None;
        }
        let s = bits.trailing_zeros() as Seat;
        *bits &= *bits - 1;
        Some(s)
    })
}

/// Every five-card subset of `cards`.
pub(crate) fn five_subsets(cards: CardSet) -> impl Iterator<Item = CardSet> {
    let list = cards.to_vec();
    let n = list.len();
    let mut idx = [0usize, 1, 2, 3, 4];
    let mut done = n < 5;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let five: CardSet = idx.iter().map(|&i| list[i]).collect();
        match (0..5).rev().find(|&i| idx[i] < n - 5 + i) {
            Some(i) => {
                idx[i] += 1;
                for j in i + 1..5 {
                    idx[j] = idx[j - 1] + 1;
                }
            }
            None => done = true,
        }
        Some(five)
    })
}
