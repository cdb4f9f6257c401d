//! The fixed integer action space that PettingZoo and OpenSpiel need: every
//! legal engine action has exactly one integer, and the choice of five poker
//! cards is split into five steps ("pick this card"), so no decision needs
//! more integers than there are cards or chips.
//!
//! Layout (`B` the largest bid, `L` the largest bet):
//!
//! | integers | meaning |
//! |---|---|
//! | 0..52 | a card (dense index, clubs 2 .. spades ace): lead it, or pick it into the poker five |
//! | 52..56 | keep, swap, auction the spare, swap and auction |
//! | 56 | pass |
//! | 57..61 | name clubs, diamonds, hearts, spades as the pay suit |
//! | 61..66 | check, call, fold, play the next card, withhold it |
//! | 66..66+L | bet 1..=L |
//! | 66+L..66+2L | raise 1..=L |
//! | 66+2L..66+2L+B | bid 1..=B |
//!
//! Picks of a five go in increasing card order, and a card may be picked only
//! while enough cards above it remain to finish the five: so every five of
//! the hand is exactly one sequence of picks, and the masks of the steps are
//! exactly the engine's legal choices.

use std::ops::Range;

use tripoley_cards::{Card, CardSet, Evaluator, HandRank, Suit};
use tripoley_engine::{Action, Decision, Rules};

use crate::observe::dense_bits;

/// The engine's action for "these five cards are my poker hand" (P1). With
/// [`chosen_five`] and [`ActionSpace::encode`], the only places the binding
/// names it.
pub const CHOOSE_FIVE: fn(CardSet) -> Action = Action::Choose;

/// The five of a choice of five, if `action` is one.
pub fn chosen_five(action: Action) -> Option<CardSet> {
    match action {
        Action::Choose(five) => Some(five),
        _ => None,
    }
}

/// The cards in a poker hand.
const FIVE: u32 = 5;
/// Card integers.
const CARDS: usize = 52;
const KEEP: usize = 52;
const SWAP: usize = 53;
const AUCTION_SPARE: usize = 54;
const SWAP_AND_AUCTION: usize = 55;
const PASS: usize = 56;
const NAME_SUIT: usize = 57;
const CHECK: usize = 61;
const CALL: usize = 62;
const FOLD: usize = 63;
const PLAY: usize = 64;
const WITHHOLD: usize = 65;
const AMOUNTS: usize = 66;

/// The most integers an action space may have: a house rule with a million
/// starting chips would otherwise ask learners for a million outputs.
pub const MAX_ACTIONS: usize = 100_000;

/// What one integer does at the current decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A whole engine action.
    Act(Action),
    /// One card picked into the poker five; more picks follow.
    Pick(Card),
}

/// The action space of a table: its size depends on the rules and seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    /// Largest bet or raise (`L`).
    bet_max: u32,
    /// Largest bid (`B`): every chip at the table.
    bid_max: u32,
}

impl ActionSpace {
    /// The space for `rules` at a table of `players`; refused when it would
    /// be larger than [`MAX_ACTIONS`].
    pub fn new(rules: &Rules, players: usize) -> Result<ActionSpace, String> {
        let total = u64::from(rules.starting_chips) * players as u64;
        let bet_max = u64::from(rules.bet_limit).min(total);
        let size = AMOUNTS as u64 + 2 * bet_max + total;
        if size > MAX_ACTIONS as u64 {
            return Err(format!(
                "{players} players with {} chips each make an action space of {size} integers; \
                 at most {MAX_ACTIONS} are supported (lower starting_chips or bet_limit)",
                rules.starting_chips
            ));
        }
        Ok(ActionSpace {
            bet_max: bet_max as u32,
            bid_max: total as u32,
        })
    }

    /// How many integers there are.
    pub fn size(self) -> usize {
        AMOUNTS + 2 * self.bet_max as usize + self.bid_max as usize
    }

    fn raises(self) -> usize {
        AMOUNTS + self.bet_max as usize
    }

    fn bids(self) -> usize {
        AMOUNTS + 2 * self.bet_max as usize
    }

    /// The integer of a whole engine action (a five has none: it is picked).
    pub fn encode(self, action: Action) -> Option<usize> {
        let amount =
            |base: usize, x: u32, max: u32| (1..=max).contains(&x).then(|| base + x as usize - 1);
        match action {
            Action::Keep => Some(KEEP),
            Action::Swap => Some(SWAP),
            Action::AuctionSpare => Some(AUCTION_SPARE),
            Action::SwapAndAuction => Some(SWAP_AND_AUCTION),
            Action::Pass => Some(PASS),
            Action::NameSuit(s) => Some(NAME_SUIT + usize::from(s.index())),
            Action::Check => Some(CHECK),
            Action::Call => Some(CALL),
            Action::Fold => Some(FOLD),
            Action::Play => Some(PLAY),
            Action::Withhold => Some(WITHHOLD),
            Action::Lead(c) => Some(c.index()),
            Action::Bet(x) => amount(AMOUNTS, x, self.bet_max),
            Action::Raise(x) => amount(self.raises(), x, self.bet_max),
            Action::Bid(x) => amount(self.bids(), x, self.bid_max),
            Action::Choose(_) => None,
        }
    }

    /// What integer `a` does at `decision`, with `picked` the cards picked
    /// into the five so far; `None` if it is not legal there. Inlined: a
    /// batched step decodes every learner's integer, and the call cost a
    /// fifth of the decoding.
    #[inline]
    pub fn decode(self, decision: &Decision, picked: CardSet, a: usize) -> Option<Step> {
        if let Decision::ChooseFive { from } = *decision {
            let card = Card::from_index((a < CARDS).then_some(a)?);
            if !pickable(from, picked).contains(card) {
                return None;
            }
            let mut now = picked;
            now.insert(card);
            return Some(if now.len() == FIVE {
                Step::Act(CHOOSE_FIVE(now))
            } else {
                Step::Pick(card)
            });
        }
        let action = self.action_at(a)?;
        decision.allows(action).then_some(Step::Act(action))
    }

    /// The engine action integer `a` stands for, outside a five.
    fn action_at(self, a: usize) -> Option<Action> {
        Some(match a {
            0..CARDS => Action::Lead(Card::from_index(a)),
            KEEP => Action::Keep,
            SWAP => Action::Swap,
            AUCTION_SPARE => Action::AuctionSpare,
            SWAP_AND_AUCTION => Action::SwapAndAuction,
            PASS => Action::Pass,
            NAME_SUIT..CHECK => Action::NameSuit(Suit::from_index((a - NAME_SUIT) as u8)),
            CHECK => Action::Check,
            CALL => Action::Call,
            FOLD => Action::Fold,
            PLAY => Action::Play,
            WITHHOLD => Action::Withhold,
            _ if a < self.raises() => Action::Bet((a - AMOUNTS + 1) as u32),
            _ if a < self.bids() => Action::Raise((a - self.raises() + 1) as u32),
            _ if a < self.size() => Action::Bid((a - self.bids() + 1) as u32),
            _ => return None,
        })
    }

    /// The legal integers at `decision`, ascending.
    pub fn legal(self, decision: &Decision, picked: CardSet) -> Vec<usize> {
        let mut out = Vec::new();
        self.legal_set(decision, picked).each(|a| out.push(a));
        out
    }

    /// The legal integers at `decision` as bits (see [`Legal`]), with
    /// `picked` the cards picked into the five so far.
    pub fn legal_set(self, decision: &Decision, picked: CardSet) -> Legal {
        let one = |a: usize| 1u128 << a;
        // Amounts `lo..=hi` (`lo` at least 1), empty when `hi < lo`.
        let amounts =
            |base: usize, lo: u32, hi: u32| base + lo as usize - 1..base + hi.max(lo - 1) as usize;
        let (low, amounts) = match *decision {
            Decision::ChooseFive { from } => (cards_bits(pickable(from, picked)), 0..0),
            Decision::Lead { cards } => (cards_bits(cards), 0..0),
            Decision::SpareOption {
                can_swap,
                can_auction,
                can_swap_and_auction,
            } => (
                one(KEEP)
                    | u128::from(can_swap) << SWAP
                    | u128::from(can_auction) << AUCTION_SPARE
                    | u128::from(can_swap_and_auction) << SWAP_AND_AUCTION,
                0..0,
            ),
            Decision::AuctionBid { min, max, .. } | Decision::PaySuitBid { min, max } => (
                one(PASS),
                amounts(self.bids(), min.max(1), max.min(self.bid_max)),
            ),
            Decision::NamePaySuit => (0b1111 << NAME_SUIT, 0..0),
            Decision::Open { max_bet } => {
                (one(CHECK), amounts(AMOUNTS, 1, max_bet.min(self.bet_max)))
            }
            Decision::Respond { max_raise, .. } => (
                one(CALL) | one(FOLD),
                amounts(self.raises(), 1, max_raise.min(self.bet_max)),
            ),
            Decision::Follow { .. } => (one(PLAY) | one(WITHHOLD), 0..0),
        };
        Legal { low, amounts }
    }

    /// [`ActionSpace::legal`] as a 0/1 mask over the whole space.
    pub fn mask(self, decision: &Decision, picked: CardSet) -> Vec<u8> {
        let mut mask = vec![0; self.size()];
        self.legal_set(decision, picked).each(|a| mask[a] = 1);
        mask
    }

    /// Integer `a` in words, for people ("bid 3", "pick 10♥").
    pub fn describe(self, a: usize) -> String {
        match self.action_at(a) {
            Some(Action::Lead(c)) => format!("card {c:#}"),
            Some(Action::NameSuit(s)) => format!("name {}", s.name()),
            Some(Action::Bid(x)) => format!("bid {x}"),
            Some(Action::Bet(x)) => format!("bet {x}"),
            Some(Action::Raise(x)) => format!("raise {x}"),
            Some(other) => words(other).to_owned(),
            None => format!("no action {a}"),
        }
    }
}

/// The legal integers at a decision, as bits: every decision's are some
/// of the integers below `AMOUNTS` (cards, or the fixed actions) and one
/// run of amounts (bets, raises or bids), so a mask's bits are written
/// at once, never integer by integer (a bid's run is up to every chip at
/// the table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Legal {
    /// Bit `a` for each legal integer `a` below [`AMOUNTS`].
    low: u128,
    /// The legal amounts' integers (empty for a decision without amounts).
    amounts: Range<usize>,
}

impl Legal {
    /// No integer legal (at chance, at the end, or another seat's turn).
    pub const NONE: Legal = Legal {
        low: 0,
        amounts: 0..0,
    };

    /// Calls `f` with each legal integer, ascending.
    pub fn each(&self, mut f: impl FnMut(usize)) {
        let mut low = self.low;
        while low != 0 {
            f(low.trailing_zeros() as usize);
            low &= low - 1;
        }
        self.amounts.clone().for_each(f);
    }

    /// The legal integers below the amounts, as bits (integer `a` at bit
    /// `a`).
    pub fn low(&self) -> u128 {
        self.low
    }

    /// The legal amounts' integers.
    pub fn amounts(&self) -> Range<usize> {
        self.amounts.clone()
    }
}

/// A set's cards as the bits of their integers (card `c` at bit
/// `c.index()`).
fn cards_bits(cards: CardSet) -> u128 {
    u128::from(dense_bits(cards))
}

/// The simple actions in words.
fn words(action: Action) -> &'static str {
    match action {
        Action::Keep => "keep",
        Action::Swap => "swap",
        Action::AuctionSpare => "auction the spare",
        Action::SwapAndAuction => "swap and auction",
        Action::Pass => "pass",
        Action::Check => "check",
        Action::Call => "call",
        Action::Fold => "fold",
        Action::Play => "play",
        Action::Withhold => "withhold",
        _ => "",
    }
}

/// The best five of `from` that the picks so far can still become: it holds
/// `picked` and, picks going in increasing card order, its other cards lie
/// above the last pick. What a bot plays when another policy began its five
/// and the bot's own choice does not hold those picks (`None` when no five
/// is reachable, which the masks never allow).
pub fn best_completion(from: CardSet, picked: CardSet, eval: Evaluator) -> Option<CardSet> {
    let need = FIVE.checked_sub(picked.len())?;
    let above = above_picks(from, picked);
    if above.len() == need {
        // One five only, with nothing to compare: the usual case, a bot's own
        // five (its picks, if any, in it) asked for the picks it still needs.
        return Some(CardSet::from_bits(picked.bits() | above.bits()));
    }
    let mut best: Option<(HandRank, CardSet)> = None;
    each_subset(above, need, picked, &mut |five| {
        let rank = eval.best_five(five).0;
        if best.is_none_or(|(b, _)| rank > b) {
            best = Some((rank, five));
        }
    });
    best.map(|(_, five)| five)
}

/// Calls `f` with `base` plus every `k` cards of `cards`.
fn each_subset(cards: CardSet, k: u32, base: CardSet, f: &mut impl FnMut(CardSet)) {
    if k == 0 {
        return f(base);
    }
    let mut rest = cards;
    while rest.len() >= k {
        let Some(c) = rest.iter().next() else { return };
        rest.remove(c);
        let mut with = base;
        with.insert(c);
        each_subset(rest, k - 1, with, f);
    }
}

/// The cards of `from` not picked and above the last pick. A card's bit
/// rises with its dense index (suit, then rank), so "above" is a mask of
/// the higher bits: no list is made (this runs at every pick a policy or
/// bot makes).
fn above_picks(from: CardSet, picked: CardSet) -> CardSet {
    let above = match picked.bits() {
        0 => u64::MAX,
        bits => u64::MAX.checked_shl(64 - bits.leading_zeros()).unwrap_or(0),
    };
    CardSet::from_bits(from.bits() & above & !picked.bits())
}

/// The cards that may be picked next into a five from `from`, `picked`
/// already in: above the last pick, with enough left above to finish.
pub fn pickable(from: CardSet, picked: CardSet) -> CardSet {
    let need_after = FIVE.saturating_sub(picked.len() + 1);
    let mut left = above_picks(from, picked).bits();
    // The highest `need_after` cards must stay to finish the five.
    for _ in 0..need_after {
        left &= !(1u64 << 63).checked_shr(left.leading_zeros()).unwrap_or(0);
    }
    CardSet::from_bits(left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tripoley_engine::{AuctionItem, Preset};

    fn space() -> ActionSpace {
        ActionSpace::new(&Rules::preset(Preset::Pagat), 4).unwrap()
    }

    #[test]
    fn p1_the_best_completion_holds_the_picks_and_only_cards_above_them() {
        let hand: CardSet = "2C 5C 9D JD QH AH 3S 8S AS AC".parse().unwrap();
        let eval = Rules::preset(Preset::Pagat).evaluator();
        // Nothing picked: the best five of the hand (three aces).
        let best = best_completion(hand, CardSet::EMPTY, eval).unwrap();
        assert_eq!(best, eval.best_five(hand).1);
        // 9D picked first: its five holds it and four cards above it in card order.
        let picked: CardSet = "9D".parse().unwrap();
        let five = best_completion(hand, picked, eval).unwrap();
        assert!(five.contains_all(picked) && five.len() == 5);
        let nine = "9D".parse::<Card>().unwrap().index();
        assert!((five - picked).iter().all(|c| c.index() > nine));
        assert!(
            five.contains_all("AH AS".parse().unwrap()),
            "the aces above it pair"
        );
        // Picks leaving too few cards above them: no five.
        assert_eq!(best_completion(hand, "AS".parse().unwrap(), eval), None);
    }

    /// [`pickable`] by its definition, with lists: the cards above the last
    /// pick in card order, less the highest ones needed to finish the five.
    fn pickable_by_definition(from: CardSet, picked: CardSet) -> CardSet {
        let last = picked.iter().map(Card::index).max();
        let mut above: Vec<Card> = from
            .iter()
            .filter(|c| !picked.contains(*c) && last.is_none_or(|l| c.index() > l))
            .collect();
        above.sort_unstable_by_key(|c| c.index());
        let need_after = 5usize.saturating_sub(picked.len() as usize + 1);
        above.truncate(above.len().saturating_sub(need_after));
        above.into_iter().collect()
    }

    #[test]
    fn p1_pickable_and_best_completion_agree_with_their_definitions_on_random_hands() {
        use rand_core::Rng;
        let deck: CardSet = (0..52).map(Card::from_index).collect();
        let eval = Rules::preset(Preset::Pagat).evaluator();
        let mut rng = tripoley_cards::seeded_rng(7);
        for _ in 0..3000 {
            let from = CardSet::from_bits(rng.next_u64() & rng.next_u64() & deck.bits());
            let picks = (rng.next_u64() % 5) as usize;
            let picked: CardSet = from
                .iter()
                .filter(|_| rng.next_u64() % 3 == 0)
                .take(picks)
                .collect();
            assert_eq!(
                pickable(from, picked),
                pickable_by_definition(from, picked),
                "from {from}, picked {picked}"
            );
            if let Some(five) = best_completion(from, picked, eval) {
                assert!(five.contains_all(picked) && five.len() == 5 && from.contains_all(five));
                let mut step = picked;
                for c in five - picked {
                    assert!(
                        pickable(from, step).contains(c),
                        "{five} is reachable by picks"
                    );
                    step.insert(c);
                }
            } else {
                assert!(pickable(from, picked).is_empty() || picked.len() >= 5);
            }
        }
    }

    fn every_decision() -> Vec<Decision> {
        let hand: CardSet = "2C 5C 9D JD QH AH 3S 8S".parse().unwrap();
        vec![
            Decision::SpareOption {
                can_swap: true,
                can_auction: false,
                can_swap_and_auction: true,
            },
            Decision::AuctionBid {
                item: AuctionItem::Spare,
                min: 3,
                max: 40,
            },
            Decision::PaySuitBid { min: 1, max: 0 },
            Decision::NamePaySuit,
            Decision::Open { max_bet: 7 },
            Decision::Respond {
                to_call: 4,
                max_raise: 10,
            },
            Decision::Lead { cards: hand },
            Decision::Follow {
                card: "9D".parse().unwrap(),
            },
            Decision::ChooseFive { from: hand },
        ]
    }

    #[test]
    fn every_legal_integer_decodes_to_an_action_the_engine_allows() {
        let space = space();
        for decision in every_decision() {
            let engine = decision.actions();
            let mut decoded = Vec::new();
            for a in space.legal(&decision, CardSet::EMPTY) {
                match space.decode(&decision, CardSet::EMPTY, a) {
                    Some(Step::Act(action)) => decoded.push(action),
                    Some(Step::Pick(_)) => {}
                    None => panic!("{a} is in the mask of {decision:?} but does not decode"),
                }
            }
            if !matches!(decision, Decision::ChooseFive { .. }) {
                let key = |a: &Action| format!("{a:?}");
                let mut engine_sorted = engine.clone();
                engine_sorted.sort_by_key(key);
                decoded.sort_by_key(key);
                assert_eq!(decoded, engine_sorted, "{decision:?}");
                for action in engine {
                    let a = space.encode(action).unwrap();
                    assert_eq!(
                        space.decode(&decision, CardSet::EMPTY, a),
                        Some(Step::Act(action))
                    );
                }
            }
        }
    }

    #[test]
    fn p1_each_five_of_the_hand_is_exactly_one_sequence_of_picks() {
        let space = space();
        let hand: CardSet = "2C 5C 9D JD QH AH 3S 8S".parse().unwrap();
        let decision = Decision::ChooseFive { from: hand };
        let mut fives = Vec::new();
        // Depth-first over every sequence the masks allow.
        let mut stack = vec![CardSet::EMPTY];
        while let Some(picked) = stack.pop() {
            for a in space.legal(&decision, picked) {
                match space.decode(&decision, picked, a).unwrap() {
                    Step::Pick(c) => {
                        let mut next = picked;
                        next.insert(c);
                        stack.push(next);
                    }
                    Step::Act(action) => fives.push(action),
                }
            }
        }
        let mut engine = decision.actions();
        let key = |a: &Action| format!("{a:?}");
        fives.sort_by_key(key);
        engine.sort_by_key(key);
        assert_eq!(fives.len(), 56);
        assert_eq!(fives, engine);
    }

    #[test]
    fn p1_a_pick_out_of_order_or_outside_the_hand_is_refused() {
        let space = space();
        let hand: CardSet = "2C 5C 9D JD QH AH 3S 8S".parse().unwrap();
        let decision = Decision::ChooseFive { from: hand };
        let picked: CardSet = "9D".parse().unwrap();
        let five_clubs = "5C".parse::<Card>().unwrap().index();
        assert_eq!(space.decode(&decision, picked, five_clubs), None);
        let king = "KH".parse::<Card>().unwrap().index();
        assert_eq!(space.decode(&decision, CardSet::EMPTY, king), None);
        // 3S and 8S are the last two cards: picking 3S first leaves too few.
        let three = "3S".parse::<Card>().unwrap().index();
        assert_eq!(space.decode(&decision, CardSet::EMPTY, three), None);
    }

    #[test]
    fn amounts_outside_the_decision_are_refused() {
        let space = space();
        let open = Decision::Open { max_bet: 3 };
        assert_eq!(
            space.decode(&open, CardSet::EMPTY, space.encode(Action::Bet(4)).unwrap()),
            None
        );
        assert_eq!(space.decode(&open, CardSet::EMPTY, space.size()), None);
        assert_eq!(space.encode(Action::Bid(401)), None);
        assert_eq!(
            space.describe(space.encode(Action::Bid(12)).unwrap()),
            "bid 12"
        );
    }

    #[test]
    fn a_huge_house_rule_table_is_refused_with_a_reason() {
        let rules = Rules {
            starting_chips: 1_000_000,
            ..Rules::preset(Preset::Pagat)
        };
        let err = ActionSpace::new(&rules, 4).unwrap_err();
        assert!(err.contains("at most 100000"), "{err}");
    }
}
