//! Stage 2, poker: the choice of five (P1), betting (P3-P5), showdown and
//! side pots (P6-P8), the Poker Pool (P9), and the final pots of E2.

use tripoley_cards::{CardSet, HandRank};

use crate::action::{Action, DealChance, Decision};
use crate::event::{Event, EventSink, Reason};
use crate::game::{Game, MAX_SEATS, Phase, next_in, seat_mask, seats, seats_after, seats_from};
use crate::layout::{Account, Seat, Space};
use crate::rules::{FinalPot, PokerOpener};
use crate::view::PerSeat;

/// Which final pot a poker round plays for (E2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FinalRound {
    pub round: u32,
    pub rounds: u32,
    pub total: u32,
}

/// A betting round in progress.
///
/// Its seat masks are `u32`, not the `u16` used elsewhere: they are written
/// at every bet and read right after, and the compiler reads a `u16` field
/// with a four-byte load spanning its neighbour, which the processor cannot
/// serve from the two-byte store still in flight (a stall at every bet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Betting {
    /// `None` in a deal's stage 2; the final pot otherwise.
    pub final_round: Option<FinalRound>,
    /// Chips of the main pot before any bet (antes, earlier deals, or the final share).
    pub base: u32,
    /// Each seat's chips put in this round.
    pub contributed: [u32; MAX_SEATS],
    /// Seats in the hand, and those of them who folded.
    pub players: u32,
    pub folded: u32,
    /// The highest total put in.
    pub current: u32,
    /// Raises so far (P4's `max_raises`).
    pub raises: u32,
    pub turn: Seat,
    /// Seats that have acted since the last bet or raise.
    pub acted: u32,
    /// Seats in the hand with no chips left: they can no longer act.
    pub all_in: u32,
    /// The last to bet or raise.
    pub aggressor: Option<Seat>,
    /// Who opened (P3).
    pub opener: Seat,
}

impl Betting {
    /// Seats still in the hand.
    fn live(&self) -> u16 {
        (self.players & !self.folded) as u16
    }

    /// Seats that have put in less than the highest total.
    fn behind(&self) -> u16 {
        seat_mask(&self.contributed, |&c| c < self.current)
    }

    pub(crate) fn decision(&self, game: &Game) -> Decision {
        let t = usize::from(self.turn);
        let stack = game.stacks[t];
        let to_call = self.current - self.contributed[t];
        let may_raise = game.rules.max_raises.is_none_or(|cap| self.raises < cap);
        let limit = game.rules.bet_limit;
        if to_call == 0 {
            let max_bet = if self.current == 0 || may_raise {
                limit.min(stack)
            } else {
                0
            };
            Decision::Open { max_bet }
        } else {
            let max_raise = if may_raise && stack > to_call {
                limit.min(stack - to_call)
            } else {
                0
            };
            Decision::Respond { to_call, max_raise }
        }
    }
}

impl Game {
    /// P1: before any bet, every player still in chooses their five, in turn
    /// from the dealer's left.
    pub(crate) fn open_choose_five(&mut self, ev: &mut impl EventSink) {
        let first = self.left_of(self.dealer);
        self.phase = Phase::ChooseFive { turn: first };
        let from = self.deal.hands[usize::from(first)];
        self.await_decision(first, Decision::ChooseFive { from }, ev);
    }

    /// P1: a player sets five cards apart; the next chooses, or the betting
    /// opens once all have.
    pub(crate) fn choose_five_act(&mut self, action: Action, ev: &mut impl EventSink) {
        let (Phase::ChooseFive { turn: seat }, Action::Choose(five)) = (&self.phase, action) else {
            unreachable!("checked")
        };
        let seat = *seat;
        self.deal.fives[usize::from(seat)] = five;
        ev.push(Event::ChoseFive { seat, cards: five });
        ev.push(Event::SetFiveApart { seat });
        let waiting = self.active() & !seat_mask(&self.deal.fives, |f| !f.is_empty());
        match next_in(seat, waiting) {
            Some(next) => {
                self.phase = Phase::ChooseFive { turn: next };
                let from = self.deal.hands[usize::from(next)];
                self.await_decision(next, Decision::ChooseFive { from }, ev);
            }
            None => self.open_betting(None, ev),
        }
    }

    /// P3: opens a betting round, for the deal's poker or a final pot.
    pub(crate) fn open_betting(
        &mut self,
        final_round: Option<FinalRound>,
        ev: &mut impl EventSink,
    ) {
        let opener = match self.rules.poker_opener {
            PokerOpener::LeftOfDealer => self.left_of(self.dealer),
            PokerOpener::Dealer => self.dealer,
        };
        let base = match final_round {
            Some(f) => Game::final_share(f.round, f.rounds, f.total),
            None => self.layout.get(Space::Pot),
        };
        let players = self.active();
        let broke = seat_mask(self.stacks(), |&chips| chips == 0);
        let betting = Betting {
            final_round,
            base,
            contributed: [0; MAX_SEATS],
            players: players.into(),
            all_in: (players & broke).into(),
            folded: 0,
            current: 0,
            raises: 0,
            // Before anyone acts, the "previous" seat is the one right of the opener.
            turn: opener,
            acted: 0,
            aggressor: None,
            opener,
        };
        self.phase = Phase::Betting(betting);
        self.next_bettor(true, ev);
    }

    /// The betting round in progress.
    fn betting(&mut self) -> &mut Betting {
        let Phase::Betting(b) = &mut self.phase else {
            unreachable!("in a betting round")
        };
        b
    }

    /// P4, P5: one player's bet, call, raise, check or fold, made on the
    /// round in place (it is asked for at every other step of a deal).
    pub(crate) fn betting_act(&mut self, action: Action, ev: &mut impl EventSink) {
        let b = self.betting();
        let seat = b.turn;
        let bit = 1u32 << seat;
        let to_call = b.current - b.contributed[usize::from(seat)];
        let put_in = match action {
            Action::Check => {
                b.acted |= bit;
                ev.push(Event::Checked { seat });
                self.next_bettor(false, ev);
                return;
            }
            Action::Fold => {
                b.folded |= bit;
                b.acted |= bit;
                ev.push(Event::Folded { seat });
                self.next_bettor(false, ev);
                return;
            }
            Action::Call => to_call,
            Action::Bet(x) | Action::Raise(x) => to_call + x,
            _ => unreachable!("checked"),
        };
        let amount = self.transfer(
            Account::Stack(seat),
            Account::Space(Space::Pot),
            put_in,
            Reason::Bet,
            ev,
        );
        let all_in = self.stacks[usize::from(seat)] == 0;
        let b = self.betting();
        b.contributed[usize::from(seat)] += amount;
        if all_in {
            b.all_in |= bit;
        }
        if action == Action::Call {
            b.acted |= bit;
            ev.push(Event::Called {
                seat,
                amount,
                all_in,
            });
        } else {
            // A bet or a raise.
            if b.current > 0 {
                b.raises += 1;
            }
            b.current = b.contributed[usize::from(seat)];
            b.acted = bit;
            b.aggressor = Some(seat);
            ev.push(match action {
                Action::Raise(by) => Event::Raised { seat, amount, by },
                _ => Event::Bet { seat, amount },
            });
        }
        self.next_bettor(false, ev);
    }

    /// P5: the next seat to act in the round in progress, or the end of the round.
    fn next_bettor(&mut self, first: bool, ev: &mut impl EventSink) {
        let b = self.betting();
        let live = b.live();
        if live.count_ones() == 1 {
            let b = b.clone();
            self.fold_win(&b, live.trailing_zeros() as Seat, ev);
            return;
        }
        let can_act = live & !b.all_in as u16;
        // Whoever acted since the last bet or raise matched it (or is all
        // in), so the seats still to act are those that have not acted.
        let needs = can_act & !b.acted as u16;
        debug_assert_eq!(
            needs,
            can_act & (!b.acted as u16 | b.behind()),
            "a seat that acted has matched the bet"
        );
        // P5: with one player able to act and nothing to call, nobody is left to bet against.
        let lone = can_act.count_ones() == 1 && needs != 0 && {
            let s = needs.trailing_zeros() as usize;
            b.contributed[s] >= b.current
        };
        let next = if first {
            (needs >> b.opener & 1 == 1)
                .then_some(b.opener)
                .or_else(|| next_in(b.opener, needs))
        } else {
            next_in(b.turn, needs)
        };
        match next {
            Some(turn) if !lone => {
                b.turn = turn;
                let Phase::Betting(b) = &self.phase else {
                    unreachable!("in a betting round")
                };
                let decision = b.decision(self);
                self.await_decision(turn, decision, ev);
            }
            _ => {
                let b = b.clone();
                self.open_showdown(&b, ev);
            }
        }
    }

    /// P5: everyone else folded; the last player takes the pot unseen.
    fn fold_win(&mut self, b: &Betting, winner: Seat, ev: &mut impl EventSink) {
        match b.final_round {
            None => {
                self.take_space(winner, Space::Pot, Reason::PotWon, ev);
                self.deal.poker_winner = Some(winner);
                self.start_michigan(ev);
            }
            Some(f) => {
                let pot = b.base + b.contributed.iter().sum::<u32>();
                self.transfer(
                    Account::Space(Space::Pot),
                    Account::Stack(winner),
                    pot,
                    Reason::FinalPot,
                    ev,
                );
                self.after_final_round(f.round, f.rounds, f.total, ev);
            }
        }
    }

    /// P6, P8: the players still in show the fives they chose, from the
    /// last aggressor (the opener if nobody bet) clockwise; then the pots
    /// are settled. Nothing is left to decide, so it all happens at once.
    fn open_showdown(&mut self, b: &Betting, ev: &mut impl EventSink) {
        let live = b.live();
        let start = b.aggressor.unwrap_or(b.opener);
        let eval = self.rules.evaluator();
        let mut ranks = [None; MAX_SEATS];
        for seat in seats_from(start, live) {
            let five = self.deal.fives[usize::from(seat)];
            let rank = eval.best(five);
            ranks[usize::from(seat)] = Some(rank);
            self.deal.public |= five;
            ev.push(Event::Showed {
                seat,
                cards: five,
                rank,
            });
        }
        self.settle_showdown(b, &ranks, ev);
    }

    /// P6, P7: the main pot and side pots to the best hands among those in them.
    fn settle_showdown(
        &mut self,
        b: &Betting,
        ranks: &[Option<HandRank>; MAX_SEATS],
        ev: &mut impl EventSink,
    ) {
        let live = b.live();
        let contributed = self.return_unmatched(b, ev);
        // The distinct totals put in by players still in: one pot per level.
        let mut levels: PerSeat<u32> = PerSeat::new();
        for x in seats(live) {
            let c = contributed[usize::from(x)];
            if !levels.contains(&c) {
                levels.push(c);
            }
        }
        levels.sort_unstable();
        let mut prev = 0;
        let mut main_winners = 0u16;
        for (i, &level) in levels.iter().enumerate() {
            let mut amount: u32 = contributed
                .iter()
                .map(|&c| c.min(level) - c.min(prev))
                .sum();
            if i == 0 {
                amount += b.base;
            }
            if i + 1 == levels.len() {
                // Anything put in above the last live level (never, in practice).
                amount += contributed
                    .iter()
                    .map(|&c| c.saturating_sub(level))
                    .sum::<u32>();
            }
            let mut eligible = 0u16;
            for x in seats(live) {
                eligible |= u16::from(contributed[usize::from(x)] >= level) << x;
            }
            let winners = self.award(
                amount,
                eligible,
                ranks,
                if b.final_round.is_some() {
                    Reason::FinalPot
                } else {
                    Reason::PotWon
                },
                ev,
            );
            if i == 0 {
                main_winners = winners;
            }
            prev = level;
        }
        match b.final_round {
            None => {
                // M2: the main pot's winner; with a split, the first from the dealer's left.
                self.deal.poker_winner = next_in(self.dealer, main_winners);
                self.start_michigan(ev);
            }
            Some(f) => self.after_final_round(f.round, f.rounds, f.total, ev),
        }
    }

    /// P7: the chips a player put in above what anyone else did (a bet or
    /// raise only an all-in answered) were never matched, so nobody won
    /// them: they go back to their owner as `Unmatched`, not as a pot won.
    /// Returns the contributions that remain at stake.
    fn return_unmatched(&mut self, b: &Betting, ev: &mut impl EventSink) -> [u32; MAX_SEATS] {
        let mut contributed = b.contributed;
        let Some((top, &most)) = contributed.iter().enumerate().max_by_key(|&(_, c)| c) else {
            return contributed;
        };
        let next = contributed
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != top)
            .map(|(_, &c)| c)
            .max()
            .unwrap_or(0);
        if most > next {
            let seat = Seat::try_from(top).expect("a seat index");
            self.transfer(
                Account::Space(Space::Pot),
                Account::Stack(seat),
                most - next,
                Reason::Unmatched,
                ev,
            );
            contributed[top] = next;
        }
        contributed
    }

    /// Pays `amount` from the Pot to the best of `eligible`; equal hands split,
    /// paid clockwise from the dealer's left (T8), and the remainder stays on
    /// the Pot (P6), or in a final pot goes to the first tied player left of
    /// the last deal's dealer (E2). Returns the winners.
    fn award(
        &mut self,
        amount: u32,
        eligible: u16,
        ranks: &[Option<HandRank>; MAX_SEATS],
        reason: Reason,
        ev: &mut impl EventSink,
    ) -> u16 {
        let final_pot = reason == Reason::FinalPot;
        let mut best = None;
        for x in seats(eligible) {
            best = best.max(ranks[usize::from(x)]);
        }
        let Some(best) = best else { return 0 };
        let mut winners = 0u16;
        for x in seats(eligible) {
            winners |= u16::from(ranks[usize::from(x)] == Some(best)) << x;
        }
        let k = winners.count_ones();
        let share = amount / k;
        // Winners are paid from the dealer's left (they are all in the game).
        for w in seats_after(self.dealer, winners) {
            self.transfer(
                Account::Space(Space::Pot),
                Account::Stack(w),
                share,
                reason,
                ev,
            );
        }
        if final_pot && let Some(first) = next_in(self.last_dealer, winners) {
            self.transfer(
                Account::Space(Space::Pot),
                Account::Stack(first),
                amount % k,
                reason,
                ev,
            );
        }
        winners
    }

    /// P9: after stage 3, the best hand of the cards held as it began takes
    /// the Pot space; ties split, the remainder stays.
    pub(crate) fn poker_pool(&mut self, ev: &mut impl EventSink) {
        let eval = self.rules.evaluator();
        let mut ranks = [None; MAX_SEATS];
        let seats: PerSeat<Seat> = self.seats_from_dealers_left().collect();
        for &seat in &seats {
            let hand = self.deal.stage3_hands[usize::from(seat)];
            if hand.len() >= 5 {
                let (rank, five) = eval.best_five(hand);
                ranks[usize::from(seat)] = Some(rank);
                ev.push(Event::Showed {
                    seat,
                    cards: five,
                    rank,
                });
            }
        }
        let eligible = seats.iter().fold(0u16, |m, &x| m | 1 << x);
        let pot = self.layout.get(Space::Pot);
        self.award(pot, eligible, &ranks, Reason::PokerPool, ev);
    }

    /// E2: one final pot, five cards each from a fresh deck, dealt one at a
    /// time by the next dealer in turn (left of the previous round's dealer,
    /// the first round left of the last deal's).
    pub(crate) fn final_round(
        &mut self,
        round: u32,
        rounds: u32,
        total: u32,
        chance: &DealChance,
        ev: &mut impl EventSink,
    ) {
        let f = FinalRound {
            round,
            rounds,
            total,
        };
        ev.push(Event::FinalPotRound {
            round,
            chips: Game::final_share(round, rounds, total).min(self.layout.get(Space::Pot)),
        });
        self.dealer = self.left_of(self.dealer);
        let seats: PerSeat<Seat> = self.seats_from_dealers_left().collect();
        let number = self.deal.number;
        self.deal = crate::game::Deal {
            number,
            pay_suit: self.deal.pay_suit,
            sequence: self.deal.sequence,
            ..crate::game::Deal::default()
        };
        let mut rest = CardSet::FULL;
        let face_up = self.rules.final_pot == FinalPot::ShowdownPoker;
        let cards = chance.deck.cards();
        for (i, &seat) in seats.iter().enumerate() {
            // One card at a time: the i-th player of the round gets every
            // `seats.len()`-th card from the i-th.
            let five: CardSet = cards[i..]
                .iter()
                .step_by(seats.len())
                .take(5)
                .copied()
                .collect();
            rest -= five;
            self.deal.hands[usize::from(seat)] = five;
            // Five cards leave nothing to choose (P1).
            self.deal.fives[usize::from(seat)] = five;
            if face_up {
                self.deal.public |= five;
                ev.push(Event::FaceUp { seat, cards: five });
            } else {
                ev.push(Event::Dealt { seat, cards: five });
            }
        }
        // The undealt cards stay in the stock, face down like a spare.
        self.deal.spare = rest;
        if face_up {
            let b = Betting {
                final_round: Some(f),
                base: Game::final_share(round, rounds, total),
                contributed: [0; MAX_SEATS],
                players: self.active().into(),
                folded: 0,
                current: 0,
                raises: 0,
                turn: self.dealer,
                acted: 0,
                // Nobody bets on a face-up final deal.
                all_in: 0,
                aggressor: None,
                opener: self.left_of(self.dealer),
            };
            self.open_showdown(&b, ev);
        } else {
            self.open_betting(Some(f), ev);
        }
    }
}
