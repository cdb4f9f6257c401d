//! [`HeuristicBot`]: plays like a sound human.

mod lead;
mod odds;
mod value;

use tripoley_cards::{CardSet, Evaluator, GameRng};
use tripoley_engine::{Action, AuctionItem, Decision, Game, InfoSet, PayCards, Space, View};

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

/// The chance of winning the showdown at which the bot opens the betting.
const BET_AT: f32 = 0.55;
/// The chance of winning the showdown at which the bot raises.
const RAISE_AT: f32 = 0.8;

/// A player with sound habits and no search:
/// - values its hand (pay cards it holds, poker strength) against what an
///   unseen hand is worth before swapping or bidding, and bids no more than
///   the difference;
/// - chooses its best five before the betting (under pay cards collected in
///   play, a five of the same kind of hand that leaves live pay cards out, so
///   a showdown does not reveal them for Michigan);
/// - bets from its chosen five's chance of winning the showdown against the
///   hands still in, read from precomputed tables, raising at most until a
///   round holds `RAISE_CAP` raises;
/// - leads in Michigan the card that sheds the most cards (in a row, and in
///   the whole sequence when others fill the gaps), that nobody else could
///   lead into, that keeps the lead when the next card is known to be gone,
///   or that collects pay cards.
///
/// Its betting does not read the opponents' bets: one that does folds to
/// every bluff (against random players it won 51 chips a deal in pagat
/// where this one wins 83). The expert's playouts give the searching seat
/// one that does (`reading_bets`), where every opponent is
/// a heuristic that bets its hand.
///
/// It needs to know the table's rules for collecting pay cards and ranking
/// hands; [`HeuristicBot::for_rules`] sets them.
#[derive(Clone, Copy, Debug)]
pub struct HeuristicBot {
    eval: Evaluator,
    pay_cards: PayCards,
    /// Whether its betting reads the opponents' chips in the round
    /// ([`HeuristicBot::betting_chance`]): only in the expert's playouts.
    reads_bets: bool,
    /// Leads as it did until 2026-11 ([`HeuristicBot::anchor`]).
    anchor_leads: bool,
}

impl Default for HeuristicBot {
    fn default() -> HeuristicBot {
        HeuristicBot {
            eval: Evaluator::STANDARD,
            pay_cards: PayCards::Stage1,
            reads_bets: false,
            anchor_leads: false,
        }
    }
}

impl HeuristicBot {
    /// A bot for a table with these rules (the rules are public knowledge).
    pub fn for_rules(rules: &tripoley_engine::Rules) -> HeuristicBot {
        HeuristicBot {
            eval: rules.evaluator(),
            pay_cards: rules.pay_cards,
            reads_bets: false,
            anchor_leads: false,
        }
    }

    /// The bot as it played until 2026-11: its leads counted only the run
    /// in its own hand. Kept as the anchor the bots' progress is measured
    /// against (`tripoley arena --bots heuristic,heuristic-2026-11`).
    pub fn anchor(rules: &tripoley_engine::Rules) -> HeuristicBot {
        HeuristicBot {
            anchor_leads: true,
            ..HeuristicBot::for_rules(rules)
        }
    }

    /// This bot with its betting reading the opponents' bets or not: the
    /// expert's playouts give the searching seat a player that does and its
    /// opponents players that do not (see `expert::search::playout`), as
    /// the real bot does not.
    pub(crate) fn reading_bets(self, reads_bets: bool) -> HeuristicBot {
        HeuristicBot { reads_bets, ..self }
    }

    /// Builds the tables the bot reads (once per process), so that its first
    /// decision is as quick as the others.
    pub(crate) fn prepare(self) {
        let _ = self.odds();
    }

    fn odds(self) -> &'static OddsTable {
        OddsTable::get(self.eval)
    }

    /// The opponents still in the hand: seated, not out, not folded.
    fn opponents(view: &View) -> impl Iterator<Item = usize> + Clone + '_ {
        let me = view.seat.map(usize::from);
        let folded = |s: usize| view.betting.as_ref().is_some_and(|b| b.folded[s]);
        (0..view.hand_sizes.len())
            .filter(move |&s| Some(s) != me && !folded(s) && view.hand_sizes[s] > 0 && !view.out[s])
    }

    /// The chance that the seat's five (its chosen five, or before choosing
    /// its best five) wins a showdown against the hands still in, each a
    /// random hand of its size.
    pub(crate) fn win_chance(self, view: &View) -> f32 {
        let sizes = Self::opponents(view).map(|s| view.hand_sizes[s]);
        self.odds()
            .win_chance(view.my_five.unwrap_or(view.hand), sizes)
    }

    /// The chance the betting goes by: [`HeuristicBot::win_chance`], with
    /// the opponents' chips in this round read as a sound player reads
    /// them. An opponent who put chips in holds a hand good enough to bet
    /// at this bot's threshold, one level with the highest total after a
    /// raise a hand good enough to raise; so the bot no longer calls and
    /// raises a bettor with a hand that only beats random ones.
    fn betting_chance(self, view: &View) -> f32 {
        let (Some(b), true) = (view.betting.as_ref(), self.reads_bets) else {
            return self.win_chance(view);
        };
        let opponents = Self::opponents(view);
        // The bot's thresholds are for beating every opponent: one
        // opponent's share is their root.
        let root = 1.0 / opponents.clone().count().max(1) as f32;
        let (bet_floor, raise_floor) = (BET_AT.powf(root), RAISE_AT.powf(root));
        let floor = |s: usize| match b.contributed[s] {
            0 => 0.0,
            c if b.raises > 0 && c == b.current => raise_floor,
            _ => bet_floor,
        };
        self.odds().win_chance_against(
            view.my_five.unwrap_or(view.hand),
            opponents.map(|s| (view.hand_sizes[s], floor(s))),
        )
    }

    fn own_value(self, view: &View) -> f32 {
        hand_value(view, view.hand, self.odds(), self.pay_cards)
    }

    fn unseen_value(self, view: &View) -> f32 {
        expected_value(view, view.hand.len(), self.pay_cards)
    }

    fn bet(self, view: &View, decision: Decision) -> Action {
        let p = self.betting_chance(view);
        let pot = chips(view, Space::Pot) as f32;
        match decision {
            Decision::Open { max_bet } => {
                if max_bet == 0 || p < BET_AT {
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
                if p > RAISE_AT && max_raise > 0 && raises < RAISE_CAP {
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
        match (
            self.would_swap(view),
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

    /// Whether the hand in `view` is worse than an unseen one: a dealer
    /// holding it takes the spare (D3). The expert's search reads the same
    /// rule backwards: a dealer who gave a hand up held such a hand.
    pub(crate) fn would_swap(self, view: &View) -> bool {
        self.own_value(view) + 1.0 < self.unseen_value(view)
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

impl tripoley_game::Bot<Game> for HeuristicBot {
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
                Action::Lead(lead::choose_lead(view, cards, pay, self.anchor_leads))
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

impl Bot for HeuristicBot {}

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
