//! Stage 3, Michigan (M1-M10), with pay cards collected in play (H5, H6).

use tripoley_cards::{Card, CardSet, Rank, Suit};

use crate::action::{Action, Decision};
use crate::event::{Event, EventSink, Reason, StopReason};
use crate::game::{Game, Phase, seat_mask, seats_after, seats_from};
use crate::layout::{Account, Seat, Space};
use crate::rules::{FirstLead, LeadColors, MichiganLeader, Misplays, PayCards, PokerRule};

/// Which cards a lead may be (M3, M5, M6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LeadRule {
    /// The lowest card of any suit held.
    AnySuit,
    /// The lowest card of any suit but this one (M5).
    NotSuit(Suit),
    /// The lowest card of a suit of this colour (`true` = red) (M6, casino).
    ColourEachSuit(bool),
    /// The lowest card of this colour, across its two suits (M3 `LowestBlack`, M6 strict).
    ColourLowest(bool),
    /// The lowest card in the hand (M3 `LowestOverall`).
    LowestOverall,
}

/// What stage 3 waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Turn {
    /// `seat` leads, under `rule`.
    Lead { seat: Seat, rule: LeadRule },
    /// M9b: `seat` holds the next card and may play or withhold it.
    Follow { seat: Seat, card: Card },
}

/// How the cards of a run ended (M4, M5, M7, M9b).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RunEnd {
    /// This seat played its last card (M7).
    WentOut(Seat),
    /// The run stopped before this card (none after an ace), for this reason (M5).
    Stopped(Option<Card>, StopReason),
    /// This seat holds the next card and may withhold it (M9b).
    Follow(Seat, Card),
}

/// Stage 3 in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Michigan {
    pub turn: Turn,
    /// The last card played, and by whom.
    pub last: Option<(Seat, Card)>,
    /// The last two cards the last player played in a row, oldest first
    /// (`None` where the streak is shorter): for H6.
    pub streak: [Option<Card>; 2],
}

impl Michigan {
    pub(crate) fn turn(&self) -> Seat {
        match self.turn {
            Turn::Lead { seat, .. } | Turn::Follow { seat, .. } => seat,
        }
    }

    pub(crate) fn decision(&self, game: &Game) -> Decision {
        match self.turn {
            Turn::Lead { seat, rule } => Decision::Lead {
                cards: game.lead_options(seat, rule).0,
            },
            Turn::Follow { card, .. } => Decision::Follow { card },
        }
    }
}

/// The follower of a run held short of a stop at a card nobody holds
/// ([`Game::step_to_unheld_stop`]): no seat, so no viewer is asked.
const NOBODY: Seat = Seat::MAX;

fn suit_colour(suit: Suit) -> bool {
    suit.is_red()
}

impl Game {
    /// The cards `seat` may lead under `rule`, and the proper ones among
    /// them (the others are misplays, M9a).
    pub(crate) fn lead_options(&self, seat: Seat, rule: LeadRule) -> (CardSet, CardSet) {
        let hand = self.deal.hands[usize::from(seat)];
        let proper = match rule {
            LeadRule::AnySuit => hand.lowest_of_each_suit(),
            LeadRule::NotSuit(x) => (hand - CardSet::suit(x)).lowest_of_each_suit(),
            LeadRule::ColourEachSuit(red) => (hand & colour(red)).lowest_of_each_suit(),
            LeadRule::ColourLowest(red) => {
                lowest_rank_only((hand & colour(red)).lowest_of_each_suit())
            }
            LeadRule::LowestOverall => lowest_rank_only(hand.lowest_of_each_suit()),
        };
        let allowed = match self.rules.misplays {
            Misplays::Forbidden => proper,
            Misplays::Penalised => hand & proper.whole_suits(),
        };
        (allowed, proper)
    }

    /// M5, M6: the seat asked to lead now, and the cards of which it must
    /// hold one (else the turn would have passed it by): public, so a
    /// sampled world keeps it ([`Game::deal_world`]).
    pub(crate) fn leader_holds_one_of(&self) -> Option<(Seat, CardSet)> {
        let Phase::Michigan(Michigan {
            turn: Turn::Lead { seat, rule },
            ..
        }) = self.phase
        else {
            return None;
        };
        let cards = match rule {
            LeadRule::AnySuit | LeadRule::LowestOverall => CardSet::FULL,
            LeadRule::NotSuit(x) => CardSet::FULL - CardSet::suit(x),
            LeadRule::ColourEachSuit(red) | LeadRule::ColourLowest(red) => colour(red),
        };
        Some((seat, cards))
    }

    /// M9b: the card a run waits on while its holder decides to play or
    /// withhold it, and that holder. That someone holds it is public (the
    /// run did not stop); who, only the holder knows.
    pub(crate) fn followed_card(&self) -> Option<(Seat, Card)> {
        match self.phase {
            Phase::Michigan(Michigan {
                turn: Turn::Follow { seat, card },
                ..
            }) => Some((seat, card)),
            _ => None,
        }
    }

    /// M9b: in a sampled world, whoever was dealt the card the run waits on
    /// is the one who decides ([`Game::deal_world`]).
    pub(crate) fn follow_its_holder(&mut self) {
        if let Phase::Michigan(Michigan {
            turn: Turn::Follow { seat, card },
            ..
        }) = &mut self.phase
        {
            *seat = self.deal.holders.0[usize::from(card.bit())];
        }
    }

    /// M1, M2, M3: stage 3 begins with every hand taken back.
    pub(crate) fn start_michigan(&mut self, ev: &mut impl EventSink) {
        self.deal.stage3_hands = self.deal.hands;
        let leader = match self.rules.michigan_leader {
            MichiganLeader::PokerWinner => self
                .deal
                .poker_winner
                .unwrap_or_else(|| self.left_of(self.dealer)),
            MichiganLeader::Dealer => self.dealer,
            MichiganLeader::LeftOfDealer => self.left_of(self.dealer),
        };
        let rule = match self.rules.first_lead {
            FirstLead::Any => LeadRule::AnySuit,
            FirstLead::LowestOverall => LeadRule::LowestOverall,
            FirstLead::LowestBlack => LeadRule::ColourLowest(false),
        };
        self.phase = Phase::Michigan(Michigan {
            turn: Turn::Lead { seat: leader, rule },
            last: None,
            streak: [None; 2],
        });
        self.seek_leader(leader, rule, ev);
    }

    /// Seats that can still play: in the game and holding cards.
    fn holding(&self) -> u16 {
        seat_mask(&self.deal.hands[..usize::from(self.n)], |hand| {
            !hand.is_empty()
        }) & self.active()
    }

    /// M5, M6: the turn to lead starts at `seat` and passes left to the first
    /// player who can; if nobody can, the fallback of the rules applies.
    fn seek_leader(&mut self, seat: Seat, rule: LeadRule, ev: &mut impl EventSink) {
        if let Some((leader, cards)) = self.first_able_leader(seat, rule, ev) {
            self.michigan().turn = Turn::Lead { seat: leader, rule };
            self.await_decision(leader, Decision::Lead { cards }, ev);
            return;
        }
        let alternate = self.rules.lead_colors == LeadColors::Alternate
            && matches!(rule, LeadRule::ColourEachSuit(_));
        // M6 (casino): nobody holds the colour; the stop player leads any
        // suit, or, with no cards left (a withholder who went out, M9b), the
        // first player on their left who has cards.
        let fallback = match self.michigan().last {
            Some((stopper, _)) if alternate => seats_from(stopper, self.holding()).next(),
            _ => None,
        };
        match fallback {
            Some(seat) => self.set_turn(
                Turn::Lead {
                    seat,
                    rule: LeadRule::AnySuit,
                },
                ev,
            ),
            None => self.blocked(ev),
        }
    }

    /// The first seat from `seat` clockwise that can lead under `rule`, with
    /// the cards it may lead; every seat holding cards passed over on the way
    /// is reported and known to hold none of the rule's cards.
    fn first_able_leader(
        &mut self,
        seat: Seat,
        rule: LeadRule,
        ev: &mut impl EventSink,
    ) -> Option<(Seat, CardSet)> {
        // Most often `seat` itself can (a seat out of the game holds nothing).
        let cards = self.lead_options(seat, rule).0;
        if !cards.is_empty() {
            return Some((seat, cards));
        }
        for s in seats_from(seat, self.holding()) {
            let cards = self.lead_options(s, rule).0;
            if !cards.is_empty() {
                return Some((s, cards));
            }
            ev.push(Event::CannotLead { seat: s });
            self.deal.cannot_hold[usize::from(s)] |= rule_cards(rule);
        }
        None
    }

    fn michigan(&mut self) -> &mut Michigan {
        let Phase::Michigan(m) = &mut self.phase else {
            unreachable!("in stage 3")
        };
        m
    }

    fn set_turn(&mut self, turn: Turn, ev: &mut impl EventSink) {
        self.michigan().turn = turn;
        self.resolve_forced(ev);
    }

    pub(crate) fn michigan_act(&mut self, action: Action, ev: &mut impl EventSink) {
        match self.michigan().turn {
            Turn::Lead { seat, rule } => {
                let Action::Lead(card) = action else {
                    unreachable!("checked")
                };
                // Only penalised misplays let a lead be anything but proper.
                let misplay = self.rules.misplays == Misplays::Penalised
                    && !self.lead_options(seat, rule).1.contains(card);
                if misplay {
                    // M9a: one chip to each other player, clockwise from the
                    // leader's left (T8), and no pay space this deal.
                    self.deal.barred |= 1 << seat;
                    self.deal.misled |= 1 << seat;
                    for other in seats_after(seat, self.active() & !(1 << seat)) {
                        self.transfer(
                            Account::Stack(seat),
                            Account::Stack(other),
                            1,
                            Reason::Misled,
                            ev,
                        );
                    }
                }
                self.deal.note_lead(seat, rule, card, misplay);
                ev.push(Event::Led {
                    seat,
                    card,
                    misplay,
                });
                self.play_run(seat, card, ev);
            }
            Turn::Follow { seat, card } if action == Action::Play => {
                ev.push(Event::Played { seat, card });
                self.play_run(seat, card, ev);
            }
            Turn::Follow { seat, card } => {
                debug_assert_eq!(action, Action::Withhold, "checked");
                // M9b: the run stops; the withholder is barred and owes later.
                self.deal.barred |= 1 << seat;
                if self.deal.withheld_suits[usize::from(seat)] == 0 {
                    self.deal.withholders.push(seat);
                }
                self.deal.withheld_suits[usize::from(seat)] |= 1 << card.suit().index();
                ev.push(Event::Withheld { seat, card });
                self.stop(Some(card), StopReason::NotPlayed, ev);
            }
        }
    }

    /// M4: `card` is played by `seat`, and the run goes on by itself as long
    /// as the next card is in a hand (each holder plays it, M10), until a
    /// stop (M5), a decision (M9b), or someone goes out (M7).
    ///
    /// Stage 3's hot loop: the cards in hands, the last player and their
    /// streak are kept in locals, who plays each next card is looked up in
    /// `Deal::holders`, and the stage's state is written once, when
    /// the run ends.
    fn play_run(&mut self, seat: Seat, card: Card, ev: &mut impl EventSink) {
        let n = usize::from(self.n);
        let in_play = self.rules.pay_cards == PayCards::InPlay;
        let penalised = self.rules.misplays == Misplays::Penalised;
        let mut in_hands = (self.deal.dealt - self.deal.played).bits();
        debug_assert_eq!(
            in_hands,
            self.deal.cards_in_hands(n).bits(),
            "stage 3 hands change only by play"
        );
        let (mut last_seat, mut streak) = match self.michigan().last {
            Some((s, _)) => (Some(s), self.michigan().streak),
            None => (None, [None; 2]),
        };
        let (mut seat, mut card) = (seat, card);
        let end = loop {
            // The card leaves its holder's hand for the played cards.
            let s = usize::from(seat);
            let bit = CardSet::single(card);
            self.deal.hands[s] -= bit;
            self.deal.played |= bit;
            self.deal.played_by[s] |= bit;
            in_hands &= !bit.bits();
            // H6's streak: the cards this player played in a row.
            let before = if last_seat == Some(seat) {
                streak
            } else {
                [None; 2]
            };
            streak = [before[1], Some(card)];
            last_seat = Some(seat);
            if in_play {
                self.collect_in_play(seat, card, before, ev);
            }
            if self.deal.hands[s].is_empty() && self.deal.withheld_suits[s] == 0 {
                break RunEnd::WentOut(seat);
            }
            let Some(next) = card.next_in_suit() else {
                break RunEnd::Stopped(None, StopReason::Ace);
            };
            if in_hands >> next.bit() & 1 == 0 {
                let reason = if self.deal.played.contains(next) {
                    StopReason::AlreadyPlayed
                } else {
                    StopReason::NotPlayed
                };
                break RunEnd::Stopped(Some(next), reason);
            }
            let holder = self.holder(next).expect("the card is in a hand");
            if penalised {
                break RunEnd::Follow(holder, next);
            }
            ev.push(Event::Played {
                seat: holder,
                card: next,
            });
            seat = holder;
            card = next;
        };
        let m = self.michigan();
        m.last = Some((seat, card));
        m.streak = streak;
        match end {
            RunEnd::WentOut(seat) => self.went_out(seat, ev),
            RunEnd::Stopped(Some(next), StopReason::NotPlayed)
                if penalised && ev.holds_unheld_stop() =>
            {
                // Short of the stop, as if someone decided whether to
                // follow with `next`: nobody does.
                self.michigan().turn = Turn::Follow {
                    seat: NOBODY,
                    card: next,
                };
            }
            RunEnd::Stopped(next, reason) => self.stop(next, reason, ev),
            RunEnd::Follow(seat, card) => self.set_turn(Turn::Follow { seat, card }, ev),
        }
    }

    /// M5: the run stopped; the player of the last card leads next.
    /// Inlined into its two callers: most runs end here.
    #[inline]
    fn stop(&mut self, next: Option<Card>, reason: StopReason, ev: &mut impl EventSink) {
        ev.push(Event::RunStopped { next, reason });
        if reason == StopReason::NotPlayed
            && let Some(card) = next
        {
            if self.rules.misplays == Misplays::Forbidden {
                // Nobody holds it and it was not played: it is in the spare.
                self.deal.public_spare.insert(card);
            } else {
                // M9b: withheld, or in the spare.
                self.deal.stops.push(card);
            }
        }
        let (stopper, last) = self.michigan().last.expect("a card was played");
        let suit = last.suit();
        let rule = match self.rules.lead_colors {
            LeadColors::OtherSuit => LeadRule::NotSuit(suit),
            LeadColors::Alternate => LeadRule::ColourEachSuit(!suit_colour(suit)),
            LeadColors::StrictAlternate => LeadRule::ColourLowest(!suit_colour(suit)),
        };
        self.seek_leader(stopper, rule, ev);
    }

    /// M7: `seat` played their last card and ends play: the Kitty first,
    /// then each other player from the winner's left pays (T8).
    fn went_out(&mut self, seat: Seat, ev: &mut impl EventSink) {
        ev.push(Event::WentOut { seat });
        self.take_space(seat, Space::Kitty, Reason::WentOut, ev);
        for other in seats_after(seat, self.active() & !(1 << seat)) {
            let held = self.deal.hands[usize::from(other)].len();
            self.transfer(
                Account::Stack(other),
                Account::Stack(seat),
                held,
                Reason::CardsLeft,
                ev,
            );
        }
        self.end_michigan(ev);
    }

    /// M5: nobody can lead; one chip per card held goes into the Kitty,
    /// clockwise from the dealer's left (T8).
    fn blocked(&mut self, ev: &mut impl EventSink) {
        ev.push(Event::PlayBlocked);
        for seat in self.seats_from_dealers_left() {
            let held = self.deal.hands[usize::from(seat)].len();
            self.transfer(
                Account::Stack(seat),
                Account::Space(Space::Kitty),
                held,
                Reason::Blocked,
                ev,
            );
        }
        self.end_michigan(ev);
    }

    /// Settlement after stage 3: M9b payments, withholder by withholder in
    /// the order they first withheld (T8), then the Poker Pool (P9). What
    /// M9b pays is [`crate::withheld::payments`]'s to say (a sampled world
    /// is held to the same function); this applies it.
    fn end_michigan(&mut self, ev: &mut impl EventSink) {
        self.deal.settled = Some(crate::withheld::Settled {
            chips: Space::PAY_CARDS.map(|space| self.layout.get(space)),
            stacks: self.stacks,
        });
        // Nobody withheld: nothing to work out.
        let paid = if self.deal.withholders.is_empty() {
            crate::withheld::Payments::new()
        } else {
            let hands = self.deal.hands;
            self.withholding_paid(&|h| hands[h])
                .expect("settled just now")
        };
        for (w, holder, chips) in paid {
            self.transfer(
                Account::Stack(w),
                Account::Stack(holder),
                chips,
                Reason::Withheld,
                ev,
            );
        }
        if self.rules.poker == PokerRule::PoolAfterMichigan {
            self.poker_pool(ev);
        }
        self.end_deal(ev);
    }
}

/// The cards a lead rule looks at, for the deduction that a seat that cannot
/// lead holds none of them.
fn rule_cards(rule: LeadRule) -> CardSet {
    match rule {
        LeadRule::AnySuit | LeadRule::LowestOverall => CardSet::FULL,
        LeadRule::NotSuit(s) => !CardSet::suit(s),
        LeadRule::ColourEachSuit(red) | LeadRule::ColourLowest(red) => colour(red),
    }
}

/// The cards of `lows` (one per suit) whose rank is the lowest among them.
fn lowest_rank_only(lows: CardSet) -> CardSet {
    let ranks = lows.rank_mask();
    if ranks == 0 {
        return CardSet::EMPTY;
    }
    lows & CardSet::rank(Rank::from_index(ranks.trailing_zeros() as u8))
}

/// Every card of the red (`true`) or the black suits.
pub(crate) fn colour(red: bool) -> CardSet {
    Suit::ALL
        .into_iter()
        .filter(|&s| suit_colour(s) == red)
        .fold(CardSet::EMPTY, |a, s| a | CardSet::suit(s))
}
