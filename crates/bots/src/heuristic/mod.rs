//! [`HeuristicBot`]: plays like a sound human.

mod lead;
mod odds;
mod value;

use tripoley_cards::{CardSet, Evaluator, GameRng};
use tripoley_engine::{Action, AuctionItem, Decision, InfoSet, PayCards, Space, View};

use crate::Bot;
use odds::OddsTable;
pub(crate) use value::live_pay_cards;
use value::{best_pay_suit, chips, expected_value, hand_value};

/// The most raises in a betting round after which the heuristic only calls
/// or folds. Two strong hands would otherwise raise each other until one is
/// all-in: at a million chips a stake that is a few hundred thousand steps of
/// the same two moves (a table broadcasting each). Card rooms cap raises at
/// three or four for the same reason.
const RAISE_CAP: u32 = 4;

/// A player with sound habits and no search:
/// - values its hand (pay cards it holds, poker strength) against what an
///   unseen hand is worth before swapping or bidding, and bids no more than
///   the difference;
/// - chooses its best five before the betting (under pay cards collected in
///   play, a five of the same kind of hand that leaves live pay cards out, so
///   a showdown does not reveal them for Michigan);
/// - bets from its chosen five's chance of winning the showdown against the
///   hands still in, read from precomputed tables, raising at most until a
///   round holds [`RAISE_CAP`] raises;
/// - leads in Michigan the card that sheds the most cards in a row, keeping
///   the lead when the next card is known to be gone, collecting pay cards.
///
/// It needs to know the table's rules for collecting pay cards and ranking
/// hands; [`HeuristicBot::for_rules`] sets them.
#[derive(Clone, Copy, Debug)]
pub struct HeuristicBot {
    eval: Evaluator,
    pay_cards: PayCards,
}

impl Default for HeuristicBot {
    fn default() -> HeuristicBot {
        HeuristicBot {
            eval: Evaluator::STANDARD,
            pay_cards: PayCards::Stage1,
        }
    }
}

impl HeuristicBot {
    /// A bot for a table with these rules (the rules are public knowledge).
    pub fn for_rules(rules: &tripoley_engine::Rules) -> HeuristicBot {
        HeuristicBot {
            eval: rules.evaluator(),
            pay_cards: rules.pay_cards,
        }
    }

    /// Builds the tables the bot reads (once per process), so that its first
    /// decision is as quick as the others.
    pub(crate) fn prepare(self) {
        let _ = self.odds();
    }

    fn odds(self) -> &'static OddsTable {
        OddsTable::get(self.eval)
    }

    /// The chance that the seat's five (its chosen five, or before choosing
    /// its best five) wins a showdown against the hands still in.
    pub(crate) fn win_chance(self, view: &View) -> f32 {
        let me = view.seat.map(usize::from);
        let folded = |s: usize| view.betting.as_ref().is_some_and(|b| b.folded[s]);
        let sizes = (0..view.hand_sizes.len())
            .filter(|&s| Some(s) != me && !folded(s) && view.hand_sizes[s] > 0 && !view.out[s])
            .map(|s| view.hand_sizes[s]);
        self.odds()
            .win_chance(view.my_five.unwrap_or(view.hand), sizes)
    }

    fn own_value(self, view: &View) -> f32 {
        hand_value(view, view.hand, self.odds(), self.pay_cards)
    }

    fn unseen_value(self, view: &View) -> f32 {
        expected_value(view, view.hand.len(), self.pay_cards)
    }

    fn bet(self, view: &View, decision: Decision) -> Action {
        let p = self.win_chance(view);
        let pot = chips(view, Space::Pot) as f32;
        match decision {
            Decision::Open { max_bet } => {
                if max_bet == 0 || p < 0.55 {
                    Action::Check
                } else {
                    let size = if p > 0.8 {
                        max_bet
                    } else {
                        max_bet.div_ceil(3)
                    };
                    Action::Bet(size.max(1))
                }
            }
            Decision::Respond { to_call, max_raise } => {
                let raises = view.betting.as_ref().map_or(0, |b| b.raises);
                if p > 0.8 && max_raise > 0 && raises < RAISE_CAP {
                    Action::Raise(max_raise.div_ceil(2))
                } else if p * (pot + to_call as f32) >= to_call as f32 {
                    Action::Call
                } else {
                    Action::Fold
                }
            }
            _ => unreachable!("betting decisions only"),
        }
    }

    fn spare_option(self, view: &View, decision: Decision) -> Action {
        let Decision::SpareOption {
            can_swap,
            can_auction,
            can_swap_and_auction,
        } = decision
        else {
            unreachable!("spare decision")
        };
        let worse_than_unseen = self.own_value(view) + 1.0 < self.unseen_value(view);
        match (
            worse_than_unseen,
            can_swap_and_auction,
            can_swap,
            can_auction,
        ) {
            // A weak hand: take the spare, and sell the weak hand if possible.
            (true, true, _, _) => Action::SwapAndAuction,
            (true, false, true, _) => Action::Swap,
            // A good hand: auctioning the spare costs nothing and may earn chips.
            (false, _, _, true) => Action::AuctionSpare,
            _ => Action::Keep,
        }
    }

    fn auction_bid(self, view: &View, item: AuctionItem, min: u32, max: u32) -> Action {
        let mut gain = self.unseen_value(view) - self.own_value(view);
        if item == AuctionItem::DealersOldHand {
            // The dealer gave it up: probably below average.
            gain *= 0.5;
        }
        let stack = view.seat.map_or(0, |s| view.stacks[usize::from(s)]);
        let limit = (gain * 0.8).floor().min(stack as f32 / 4.0);
        if limit >= min as f32 && min <= max {
            Action::Bid(min)
        } else {
            Action::Pass
        }
    }

    /// P1: the best five; under pay cards collected in play, the best five
    /// without the live pay cards when it is the same kind of hand, so that
    /// a showdown does not tell the table where they are.
    fn choose_five(self, view: &View, from: CardSet) -> Action {
        let (best_rank, best) = self.eval.best_five(from);
        if self.pay_cards == PayCards::InPlay {
            let kept_back = from - live_pay_cards(view);
            if kept_back.len() >= 5 {
                let (rank, five) = self.eval.best_five(kept_back);
                if rank.category() == best_rank.category() {
                    return Action::Choose(five);
                }
            }
        }
        Action::Choose(best)
    }
}

impl Bot for HeuristicBot {
    fn name(&self) -> &'static str {
        "heuristic"
    }

    fn act(&mut self, view: &View, _rng: &mut GameRng) -> Action {
        let decision = view.decision.expect("the bot is asked only on its turn");
        match decision {
            Decision::SpareOption { .. } => self.spare_option(view, decision),
            Decision::AuctionBid { item, min, max } => self.auction_bid(view, item, min, max),
            Decision::PaySuitBid { min, max } => pay_suit_bid(view, min, max),
            Decision::NamePaySuit => Action::NameSuit(best_pay_suit(view.hand).0),
            Decision::Open { .. } | Decision::Respond { .. } => self.bet(view, decision),
            Decision::ChooseFive { from } => self.choose_five(view, from),
            // It always plays on under M9b.
            Decision::Follow { .. } => Action::Play,
            Decision::Lead { cards } => {
                let pay = if self.pay_cards == PayCards::InPlay {
                    live_pay_cards(view)
                } else {
                    CardSet::EMPTY
                };
                Action::Lead(lead::choose_lead(view, cards, pay))
            }
        }
    }

    /// Decisions answered from the question alone (M9b, a lead with one
    /// card) skip building the view.
    fn act_in(&mut self, info: &InfoSet<'_>, rng: &mut GameRng) -> Action {
        let decision = info
            .decision()
            .copied()
            .expect("the bot is asked only on its turn");
        if let Some(only) = decision.only() {
            return only;
        }
        match decision {
            Decision::Follow { .. } => Action::Play,
            _ => self.act(&info.view(), rng),
        }
    }
}

/// H8: bid the minimum while half the pay cards held in the best suit pay for it.
fn pay_suit_bid(view: &View, min: u32, max: u32) -> Action {
    let (_, held) = best_pay_suit(view.hand);
    let per_space = Space::PAY_CARDS
        .iter()
        .map(|&s| chips(view, s))
        .sum::<u32>() as f32
        / 5.0;
    let value = held as f32 * per_space * 0.5;
    if value >= min as f32 + 1.0 && min <= max {
        Action::Bid(min)
    } else {
        Action::Pass
    }
}
