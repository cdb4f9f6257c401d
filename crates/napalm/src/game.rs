//! [`NapalmGame`]: the state machine, with the engine's shape: pending,
//! legal, check, apply and chance; every change an event that knows who may
//! see it.

use serde::{Deserialize, Serialize};
use tripoley_cards::{Card, CardSet, Deck, Evaluator, Rank};

use crate::rules::{NapalmRules, NapalmRulesError};

/// A seat, 0..n clockwise.
pub type Seat = u8;

/// Most seats at a Napalm table.
pub const MAX_SEATS: usize = 7;

/// The three rounds of a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Round {
    /// N2, N3: the best two cards.
    BestTwo,
    /// N4: the lowest five cards.
    LowestFive,
    /// N5: the best five of seven.
    BestOfSeven,
}

impl Round {
    /// Cards each player is dealt for this round.
    pub const fn cards_dealt(self) -> usize {
        match self {
            Round::BestTwo | Round::BestOfSeven => 2,
            Round::LowestFive => 3,
        }
    }

    /// What a Yes claims, in words.
    pub const fn claim(self) -> &'static str {
        match self {
            Round::BestTwo => "the best two cards",
            Round::LowestFive => "the lowest five-card hand",
            Round::BestOfSeven => "the best five cards of seven",
        }
    }

    fn next(self) -> Option<Round> {
        match self {
            Round::BestTwo => Some(Round::LowestFive),
            Round::LowestFive => Some(Round::BestOfSeven),
            Round::BestOfSeven => None,
        }
    }
}

/// A player's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// N2: "I hold the best (or lowest) hand."
    Yes,
    /// N2: "I do not."
    No,
    /// N2: change one's No to Yes against the dealer's lone Yes.
    Challenge,
    /// N2: keep one's No.
    Decline,
}

/// The shape of a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// `Yes` or `No`.
    Declare {
        /// The round.
        round: Round,
    },
    /// `Challenge` or `Decline`.
    Challenge {
        /// The round.
        round: Round,
    },
}

impl Decision {
    /// Every answer.
    pub fn actions(self) -> [Action; 2] {
        match self {
            Decision::Declare { .. } => [Action::Yes, Action::No],
            Decision::Challenge { .. } => [Action::Challenge, Action::Decline],
        }
    }
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pending {
    /// A shuffled deck for the next hand.
    Deck,
    /// A seat must decide.
    Decide {
        /// Who.
        seat: Seat,
        /// What.
        decision: Decision,
    },
    /// The game is over.
    GameOver,
}

/// Where chips are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Account {
    /// A player's chips.
    Stack(Seat),
    /// The pot.
    Pot,
}

/// Why chips moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// N1.
    Ante,
    /// N6: a side bet equal to the pot.
    SideBet,
    /// N1: the pot to the winner of the game.
    PotWon,
}

/// One movement of chips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Transfer {
    /// From.
    pub from: Account,
    /// To.
    pub to: Account,
    /// How many.
    pub amount: u32,
    /// Why.
    pub reason: Reason,
}

/// Everything that happens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A hand begins.
    HandStarted {
        /// 1 for the first.
        number: u32,
        /// The dealer.
        dealer: Seat,
    },
    /// A player who cannot ante leaves with their chips.
    PlayerOut {
        /// Who.
        seat: Seat,
        /// Chips kept.
        chips: u32,
    },
    /// Chips moved.
    Transfer(Transfer),
    /// Cards dealt to a player (only they see them).
    Dealt {
        /// Whose.
        seat: Seat,
        /// The new cards.
        cards: CardSet,
    },
    /// A round's declarations begin.
    RoundStarted {
        /// Which.
        round: Round,
    },
    /// A declaration.
    Declared {
        /// Who.
        seat: Seat,
        /// Yes or No.
        yes: bool,
    },
    /// N2: a challenge (or not) against the dealer's lone Yes.
    Challenged {
        /// Who.
        seat: Seat,
        /// Whether they changed to Yes.
        yes: bool,
    },
    /// N6, N7: the Yes hands compared privately; only those seats see it.
    Compared {
        /// The seats in the comparison (bit set).
        seats: u16,
        /// Each one's cards.
        hands: Vec<(Seat, CardSet)>,
        /// The best hand(s) (bit set).
        best: u16,
    },
    /// N6: the single Yes takes a token.
    Token {
        /// Who.
        seat: Seat,
        /// Their tokens now.
        tokens: u32,
    },
    /// A hand is over.
    HandEnded {
        /// Its number.
        number: u32,
    },
    /// The game is over.
    GameOver {
        /// Who took the pot (several share it: tied tokens at the hand
        /// limit, or the players who all went out at once, N8).
        winners: Vec<Seat>,
    },
}

/// Who may see an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everyone.
    Everyone,
    /// The seats in this bit set.
    Seats(u16),
}

impl Audience {
    /// Whether `seat` (`None`: a spectator) may see it.
    pub fn includes(self, seat: Option<Seat>) -> bool {
        match (self, seat) {
            (Audience::Everyone, _) => true,
            (Audience::Seats(m), Some(s)) => m >> s & 1 == 1,
            (Audience::Seats(_), None) => false,
        }
    }
}

impl Event {
    /// Who may see this event (N7).
    pub fn audience(&self) -> Audience {
        match self {
            Event::Dealt { seat, .. } => Audience::Seats(1 << seat),
            Event::Compared { seats, .. } => Audience::Seats(*seats),
            _ => Audience::Everyone,
        }
    }
}

/// Why an action or a deck was refused (nothing changed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// Not this seat's turn.
    #[error("it is not seat {0}'s turn")]
    NotYourTurn(Seat),
    /// Not an answer to the decision.
    #[error("{0:?} does not answer the decision pending")]
    NotLegal(Action),
    /// The game does not wait for a deck.
    #[error("the game does not wait for a deck")]
    NoDeckNeeded,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    AwaitDeck,
    Declaring { round: Round, turn: Seat },
    Challenging { round: Round, turn: Seat },
    GameOver,
}

/// A game of Napalm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NapalmGame {
    rules: NapalmRules,
    pub(crate) n: u8,
    stacks: [u32; MAX_SEATS],
    tokens: [u32; MAX_SEATS],
    out: u16,
    pot: u32,
    dealer: Seat,
    hands_played: u32,
    hand_number: u32,
    phase: Phase,
    pub(crate) deck: Vec<Card>,
    pub(crate) next_card: usize,
    pub(crate) cards: [CardSet; MAX_SEATS],
    /// The seats dealt this hand, in dealing order (from the dealer's
    /// left): who was dealt each card of `deck`, even once a seat out of
    /// chips has lost its cards (N8), so the hand can be sampled again
    /// after it ends ([`NapalmGame::sample_world`]).
    pub(crate) dealt_to: arrayvec::ArrayVec<Seat, MAX_SEATS>,
    /// Declarations of the current round, as bit sets.
    declared: u16,
    said_yes: u16,
    /// `seen[v][h]`: cards of `h` that `v` saw in a comparison (N7).
    pub(crate) seen: [[CardSet; MAX_SEATS]; MAX_SEATS],
    /// N6: this hand's comparisons, in order: the round, the Yes seats and
    /// the best of them. Who won is public (the side bets show it), so a
    /// sampled world keeps it ([`NapalmGame::sample_world`]).
    pub(crate) compared: arrayvec::ArrayVec<Comparison, 3>,
    total_chips: u32,
}

/// One comparison of a hand (N6): its round, the Yes seats, the best ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Comparison {
    pub round: Round,
    pub yes: u16,
    pub best: u16,
}

impl NapalmGame {
    /// A new game; seat 0 deals first. Waits for the first deck.
    pub fn new(rules: NapalmRules, players: usize) -> Result<NapalmGame, NapalmRulesError> {
        let mut ev = Vec::new();
        NapalmGame::start(rules, players, &mut ev)
    }

    /// [`NapalmGame::new`], reporting the first hand's antes.
    pub fn start(
        rules: NapalmRules,
        players: usize,
        ev: &mut Vec<Event>,
    ) -> Result<NapalmGame, NapalmRulesError> {
        rules.check_players(players)?;
        let n = players as u8;
        let mut stacks = [0; MAX_SEATS];
        stacks[..players].fill(rules.starting_chips);
        let mut g = NapalmGame {
            total_chips: rules.starting_chips * u32::from(n),
            rules,
            n,
            stacks,
            tokens: [0; MAX_SEATS],
            out: 0,
            pot: 0,
            dealer: 0,
            hands_played: 0,
            hand_number: 0,
            phase: Phase::AwaitDeck,
            deck: Vec::new(),
            next_card: 0,
            cards: [CardSet::EMPTY; MAX_SEATS],
            dealt_to: arrayvec::ArrayVec::new(),
            declared: 0,
            said_yes: 0,
            seen: [[CardSet::EMPTY; MAX_SEATS]; MAX_SEATS],
            compared: arrayvec::ArrayVec::new(),
        };
        g.begin_hand(ev);
        Ok(g)
    }

    /// The rules.
    pub fn rules(&self) -> &NapalmRules {
        &self.rules
    }

    /// Seats.
    pub fn players(&self) -> usize {
        usize::from(self.n)
    }

    /// Each seat's chips.
    pub fn stacks(&self) -> &[u32] {
        &self.stacks[..usize::from(self.n)]
    }

    /// Each seat's tokens.
    pub fn tokens(&self) -> &[u32] {
        &self.tokens[..usize::from(self.n)]
    }

    /// Chips in the pot.
    pub fn pot(&self) -> u32 {
        self.pot
    }

    /// The dealer.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Hands finished.
    pub fn hands_played(&self) -> u32 {
        self.hands_played
    }

    /// Every chip: stacks plus the pot (conserved).
    pub fn chips_in_play(&self) -> u32 {
        self.stacks().iter().sum::<u32>() + self.pot
    }

    /// The chips the game started with.
    pub fn total_chips(&self) -> u32 {
        self.total_chips
    }

    /// Each seat's cards (for checks and tests).
    pub fn cards(&self) -> &[CardSet] {
        &self.cards[..usize::from(self.n)]
    }

    /// The deck of the hand being played, in dealing order (none before
    /// the first): a sampled world's deals its new cards in the same rounds
    /// ([`NapalmGame::sample_world`]).
    pub fn hand_deck(&self) -> Option<Deck> {
        Deck::from_cards(&self.deck).ok()
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }

    fn active(&self) -> u16 {
        ((1u16 << self.n) - 1) & !self.out
    }

    fn next_in(&self, seat: Seat, among: u16) -> Option<Seat> {
        self.clockwise_from(seat, among).next()
    }

    /// The seats of `among` clockwise from the left of `seat` (T8's order
    /// when several are paid at once, N8), `seat` itself last.
    fn clockwise_from(&self, seat: Seat, among: u16) -> impl Iterator<Item = Seat> + use<> {
        let n = self.n;
        (1..=n)
            .map(move |i| (seat + i) % n)
            .filter(move |&s| among >> s & 1 == 1)
    }

    /// What the game waits for.
    pub fn pending(&self) -> Pending {
        match self.phase {
            Phase::AwaitDeck => Pending::Deck,
            Phase::Declaring { round, turn } => Pending::Decide {
                seat: turn,
                decision: Decision::Declare { round },
            },
            Phase::Challenging { round, turn } => Pending::Decide {
                seat: turn,
                decision: Decision::Challenge { round },
            },
            Phase::GameOver => Pending::GameOver,
        }
    }

    /// Whether `seat` may take `action`.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        match self.pending() {
            Pending::GameOver => Err(IllegalAction::GameOver),
            Pending::Decide { seat: s, decision } if s == seat => {
                if decision.actions().contains(&action) {
                    Ok(())
                } else {
                    Err(IllegalAction::NotLegal(action))
                }
            }
            _ => Err(IllegalAction::NotYourTurn(seat)),
        }
    }

    /// Applies an action; returns its events. An illegal one changes nothing.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        self.check(seat, action)?;
        let mut ev = Vec::new();
        match (self.phase.clone(), action) {
            (Phase::Declaring { round, turn }, Action::Yes | Action::No) => {
                let yes = action == Action::Yes;
                self.declared |= 1 << turn;
                if yes {
                    self.said_yes |= 1 << turn;
                }
                ev.push(Event::Declared { seat, yes });
                if turn == self.dealer {
                    // N2: a lone Yes from the dealer may be challenged.
                    if self.said_yes == 1 << self.dealer && self.active().count_ones() > 1 {
                        let first = self
                            .next_in(self.dealer, self.active())
                            .expect("two players");
                        self.phase = Phase::Challenging { round, turn: first };
                    } else {
                        self.resolve(round, &mut ev);
                    }
                } else {
                    let next = self
                        .next_in(turn, self.active())
                        .expect("the dealer declares last");
                    self.phase = Phase::Declaring { round, turn: next };
                }
            }
            (Phase::Challenging { round, turn }, Action::Challenge | Action::Decline) => {
                let yes = action == Action::Challenge;
                if yes {
                    self.said_yes |= 1 << turn;
                }
                ev.push(Event::Challenged { seat, yes });
                match self.next_in(turn, self.active()) {
                    Some(next) if next != self.dealer => {
                        self.phase = Phase::Challenging { round, turn: next }
                    }
                    _ => self.resolve(round, &mut ev),
                }
            }
            _ => unreachable!("checked"),
        }
        Ok(ev)
    }

    /// Supplies the next hand's shuffled deck.
    pub fn deal(&mut self, deck: &Deck) -> Result<Vec<Event>, IllegalAction> {
        match self.phase {
            Phase::AwaitDeck => {}
            Phase::GameOver => return Err(IllegalAction::GameOver),
            _ => return Err(IllegalAction::NoDeckNeeded),
        }
        let mut ev = Vec::new();
        self.deck = deck.cards().to_vec();
        self.next_card = 0;
        self.cards = [CardSet::EMPTY; MAX_SEATS];
        self.dealt_to = self.clockwise_from(self.dealer, self.active()).collect();
        self.seen = [[CardSet::EMPTY; MAX_SEATS]; MAX_SEATS];
        self.compared.clear();
        self.start_round(Round::BestTwo, &mut ev);
        Ok(ev)
    }

    fn transfer(
        &mut self,
        from: Account,
        to: Account,
        amount: u32,
        reason: Reason,
        ev: &mut Vec<Event>,
    ) -> u32 {
        let have = match from {
            Account::Stack(s) => self.stacks[usize::from(s)],
            Account::Pot => self.pot,
        };
        let amount = amount.min(have);
        if amount == 0 {
            return 0;
        }
        match from {
            Account::Stack(s) => self.stacks[usize::from(s)] -= amount,
            Account::Pot => self.pot -= amount,
        }
        match to {
            Account::Stack(s) => self.stacks[usize::from(s)] += amount,
            Account::Pot => self.pot += amount,
        }
        ev.push(Event::Transfer(Transfer {
            from,
            to,
            amount,
            reason,
        }));
        amount
    }

    /// N1: players who cannot ante leave; the rest ante; a deck is awaited.
    fn begin_hand(&mut self, ev: &mut Vec<Event>) {
        let mut going_out = 0u16;
        for seat in 0..self.n {
            if self.out >> seat & 1 == 0 && self.stacks[usize::from(seat)] < self.rules.ante {
                self.out |= 1 << seat;
                going_out |= 1 << seat;
                // Out of the game, out of cards: no view shows the last
                // hand's as theirs while the others play on.
                self.cards[usize::from(seat)] = CardSet::EMPTY;
                ev.push(Event::PlayerOut {
                    seat,
                    chips: self.stacks[usize::from(seat)],
                });
            }
        }
        if self.active().count_ones() < 2 {
            // N8: the last player still in takes the pot; when nobody is,
            // those who went out together share it as tied winners, counted
            // from the left of the last hand's dealer.
            let winners = if self.active() == 0 {
                going_out
            } else {
                self.active()
            };
            self.finish(winners, ev);
            return;
        }
        // The deal passes left, to the next player still in (the first
        // hand's dealer was drawn, or is out already).
        if self.hand_number > 0 || self.out >> self.dealer & 1 == 1 {
            self.dealer = self
                .next_in(self.dealer, self.active())
                .expect("two players");
        }
        self.hand_number += 1;
        ev.push(Event::HandStarted {
            number: self.hand_number,
            dealer: self.dealer,
        });
        // T8 (as N8 asks): antes clockwise from the dealer's left.
        for seat in self.clockwise_from(self.dealer, self.active()) {
            self.transfer(
                Account::Stack(seat),
                Account::Pot,
                self.rules.ante,
                Reason::Ante,
                ev,
            );
        }
        self.phase = Phase::AwaitDeck;
    }

    /// Deals the round's cards one at a time from the dealer's left and opens declarations.
    fn start_round(&mut self, round: Round, ev: &mut Vec<Event>) {
        let order: Vec<Seat> = self.clockwise_from(self.dealer, self.active()).collect();
        let mut new = [CardSet::EMPTY; MAX_SEATS];
        for _ in 0..round.cards_dealt() {
            for &s in &order {
                let c = self.deck[self.next_card];
                self.next_card += 1;
                new[usize::from(s)].insert(c);
            }
        }
        for &s in &order {
            self.cards[usize::from(s)] |= new[usize::from(s)];
            ev.push(Event::Dealt {
                seat: s,
                cards: new[usize::from(s)],
            });
        }
        self.declared = 0;
        self.said_yes = 0;
        ev.push(Event::RoundStarted { round });
        self.phase = Phase::Declaring {
            round,
            turn: order[0],
        };
    }

    /// N6: the round's outcome, then the next round, hand or the end.
    fn resolve(&mut self, round: Round, ev: &mut Vec<Event>) {
        let yes = self.said_yes;
        match yes.count_ones() {
            0 => {}
            1 => {
                let seat = yes.trailing_zeros() as Seat;
                self.tokens[usize::from(seat)] += 1;
                ev.push(Event::Token {
                    seat,
                    tokens: self.tokens[usize::from(seat)],
                });
                if self.tokens[usize::from(seat)] >= self.rules.tokens_to_win {
                    self.finish(1 << seat, ev);
                    return;
                }
            }
            _ => self.compare(round, yes, ev),
        }
        if let Some(next) = round.next() {
            self.start_round(next, ev);
        } else {
            self.hands_played += 1;
            ev.push(Event::HandEnded {
                number: self.hand_number,
            });
            if self.hands_played >= self.rules.max_hands {
                // N8: no further ante is due, so nobody goes out now; the
                // split counts from this hand's dealer.
                self.end_at_hand_limit(ev);
                return;
            }
            self.begin_hand(ev);
        }
    }

    /// N6, N7: the Yes hands compared privately; side bets equal to the pot.
    fn compare(&mut self, round: Round, yes: u16, ev: &mut Vec<Event>) {
        let seats: Vec<Seat> = (0..self.n).filter(|&s| yes >> s & 1 == 1).collect();
        let strength = |s: Seat| hand_strength(round, self.cards[usize::from(s)]);
        let best_value = seats
            .iter()
            .map(|&s| strength(s))
            .max()
            .expect("two or more");
        let best = seats
            .iter()
            .filter(|&&s| strength(s) == best_value)
            .fold(0u16, |m, &s| m | 1 << s);
        for &v in &seats {
            for &h in &seats {
                self.seen[usize::from(v)][usize::from(h)] = self.cards[usize::from(h)];
            }
        }
        self.compared.push(Comparison { round, yes, best });
        ev.push(Event::Compared {
            seats: yes,
            hands: seats
                .iter()
                .map(|&s| (s, self.cards[usize::from(s)]))
                .collect(),
            best,
        });
        let pot = self.pot;
        // N8, T8: each loser pays the best hands clockwise from the dealer's
        // left, so a short payer pays the nearest first.
        for loser in self.clockwise_from(self.dealer, yes & !best) {
            for winner in self.clockwise_from(self.dealer, best) {
                self.transfer(
                    Account::Stack(loser),
                    Account::Stack(winner),
                    pot,
                    Reason::SideBet,
                    ev,
                );
            }
        }
    }

    /// N8's hand limit: the pot to the player(s) still in with the most tokens.
    fn end_at_hand_limit(&mut self, ev: &mut Vec<Event>) {
        let active = self.active();
        let still_in = |s: &Seat| active >> s & 1 == 1;
        let most = (0..self.n)
            .filter(still_in)
            .map(|s| self.tokens[usize::from(s)])
            .max()
            .unwrap_or(0);
        let winners = (0..self.n)
            .filter(still_in)
            .filter(|&s| self.tokens[usize::from(s)] == most)
            .fold(0u16, |m, s| m | 1 << s);
        self.finish(winners, ev);
    }

    /// The pot shared by `winners`, the odd chips to the first of them from
    /// the dealer's left (N8).
    fn finish(&mut self, winners: u16, ev: &mut Vec<Event>) {
        let list: Vec<Seat> = self.clockwise_from(self.dealer, winners).collect();
        let k = (list.len() as u32).max(1);
        let share = self.pot / k;
        let odd = self.pot % k;
        for (i, &w) in list.iter().enumerate() {
            let amount = share + if i == 0 { odd } else { 0 };
            self.transfer(Account::Pot, Account::Stack(w), amount, Reason::PotWon, ev);
        }
        let mut sorted = list;
        sorted.sort_unstable();
        ev.push(Event::GameOver { winners: sorted });
        self.phase = Phase::GameOver;
    }

    /// What `seat` may know (`None`: a spectator).
    pub fn view(&self, seat: Option<Seat>) -> NapalmView {
        let n = usize::from(self.n);
        let me = seat.map(usize::from);
        let (round, to_act, decision) = match self.pending() {
            Pending::Decide { seat: s, decision } => {
                let round = match decision {
                    Decision::Declare { round } | Decision::Challenge { round } => round,
                };
                (Some(round), Some(s), (seat == Some(s)).then_some(decision))
            }
            _ => (None, None, None),
        };
        NapalmView {
            seat,
            players: self.n,
            dealer: self.dealer,
            hand_number: self.hand_number,
            round,
            stacks: self.stacks[..n].iter().copied().collect(),
            tokens: self.tokens[..n].iter().copied().collect(),
            out: (0..self.n).map(|s| self.out >> s & 1 == 1).collect(),
            pot: self.pot,
            cards: me.map_or(CardSet::EMPTY, |s| self.cards[s]),
            card_counts: self.cards[..n].iter().map(|c| c.len()).collect(),
            seen: (0..n)
                .map(|h| {
                    me.map_or(CardSet::EMPTY, |v| {
                        if v == h {
                            CardSet::EMPTY
                        } else {
                            self.seen[v][h]
                        }
                    })
                })
                .collect(),
            declared: (0..self.n)
                .map(|s| (self.declared >> s & 1 == 1).then_some(self.said_yes >> s & 1 == 1))
                .collect(),
            to_act,
            decision,
        }
    }
}

/// How strong a hand is for a round's comparison; larger is better.
pub fn hand_strength(round: Round, cards: CardSet) -> u32 {
    match round {
        Round::BestTwo => two_card_value(cards),
        // N4: the weakest hand by P2, ace high, wins the round.
        Round::LowestFive => u32::MAX - Evaluator::ACE_HIGH.lowest_five(cards).0.value(),
        Round::BestOfSeven => Evaluator::ACE_HIGH.best(cards).value(),
    }
}

/// N3: a pair beats any two different cards; otherwise the higher card,
/// then the lower.
pub fn two_card_value(cards: CardSet) -> u32 {
    let mut ranks: Vec<Rank> = cards.iter().map(Card::rank).collect();
    ranks.sort_unstable();
    match ranks.as_slice() {
        [a, b] if a == b => 1000 + u32::from(a.index()),
        [lo, hi] => u32::from(hi.index()) * 13 + u32::from(lo.index()),
        _ => 0,
    }
}

/// What one seat may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NapalmView {
    /// Whose view (`None`: a spectator).
    pub seat: Option<Seat>,
    /// Seats.
    pub players: u8,
    /// The dealer.
    pub dealer: Seat,
    /// The current hand (1 for the first).
    pub hand_number: u32,
    /// The round being declared.
    pub round: Option<Round>,
    /// Chips.
    pub stacks: arrayvec::ArrayVec<u32, MAX_SEATS>,
    /// Tokens.
    pub tokens: arrayvec::ArrayVec<u32, MAX_SEATS>,
    /// Seats out of the game.
    pub out: arrayvec::ArrayVec<bool, MAX_SEATS>,
    /// The pot.
    pub pot: u32,
    /// The viewer's cards.
    pub cards: CardSet,
    /// Cards each seat holds.
    pub card_counts: arrayvec::ArrayVec<u32, MAX_SEATS>,
    /// Cards of other seats the viewer saw in a comparison this hand (N7).
    pub seen: arrayvec::ArrayVec<CardSet, MAX_SEATS>,
    /// This round's declarations so far (`None`: not yet).
    pub declared: arrayvec::ArrayVec<Option<bool>, MAX_SEATS>,
    /// Whose turn it is.
    pub to_act: Option<Seat>,
    /// The viewer's decision, on their turn.
    pub decision: Option<Decision>,
}
