//! Positions with known best answers, the expert's test suite (issue 47), as
//! chess engines are proven against suites of positions: each
//! [`Position`] is a game built from explicit hands and spare (the deck set
//! through [`DealChance`] so the deal gives exactly those hands), played by
//! an explicit script to a decision of a named seat, with the answers that
//! are right there and why that is known: the pot odds with a hand that
//! cannot lose or cannot win, a five that dominates every other, a Michigan
//! endgame solved exactly over every deal of the hidden cards ([`solve`]),
//! a spare or a bid whose value follows from the pay cards.
//!
//! [`ask`] puts a position to the expert through its public doors: the hint
//! ([`advise`]) must be one of the right answers, and the verdict ([`judge`])
//! on a known wrong answer must say it costs something. [`Tally`] counts
//! them per [`Kind`]. `tests/positions.rs` runs the fast ones; `tripoley
//! bench positions` runs them all. [`consistency`] is the other half of the
//! proof: verdicts against what the moves earn when the game is played on.

mod catalogue;
pub mod consistency;
pub mod solve;

pub use catalogue::all;

use std::collections::BTreeMap;
use std::fmt;

use tripoley_cards::{Card, CardSet, Category, Deck, Rank, Suit, seeded_rng};
use tripoley_engine::{
    Action, DealChance, Decision, FirstDealer, Game, InfoSet, Pending, Preset, Rules, Seat,
};

use tripoley_game::Bot as _;

use crate::{Budget, ExpertBot, Verdict, advise, judge};

/// The kinds of decision the suite counts separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Calls and folds (P4) where the pot odds decide: a hand that cannot
    /// lose, or one that cannot win.
    Betting,
    /// The five set apart for the poker (P1) where one five dominates.
    ChooseFive,
    /// Leads (and follows, M9b) in a Michigan endgame solved exactly.
    Michigan,
    /// The dealer's spare options (D3) and the auctions (D4, D5), valued by
    /// the pay cards.
    Spare,
}

impl Kind {
    /// Every kind, in the order tables print them.
    pub const ALL: [Kind; 4] = [Kind::Betting, Kind::ChooseFive, Kind::Michigan, Kind::Spare];

    /// The name tables print.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Betting => "betting",
            Kind::ChooseFive => "choose five",
            Kind::Michigan => "michigan",
            Kind::Spare => "spare/auction",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a position's deal is written.
#[derive(Clone, Copy, Debug)]
pub enum Cards {
    /// The owner of every card: one string per suit (clubs, diamonds,
    /// hearts, spades), 13 marks from the two up to the ace, each a seat
    /// digit or `.` for the spare (spaces ignored). Every hand exactly.
    Owners([&'static str; 4]),
    /// Each seat's hand and the spare, some cards named: the rest is
    /// filled, in dealing order, with the cards nobody was given, lowest
    /// first (the filler is hidden from the deciding seat, so it cannot
    /// change which answer is right).
    Hands(&'static [&'static str], &'static str),
}

/// A position: a game built from explicit cards and played to a decision
/// of `seat`, with the answers known to be right.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// A short unique name.
    pub name: &'static str,
    /// What kind of decision it is.
    pub kind: Kind,
    /// The rules (the preset, with the first dealer set to `dealer`).
    pub preset: Preset,
    /// Seats at the table.
    pub players: usize,
    /// Who deals the first deal.
    pub dealer: Seat,
    /// The deal.
    pub cards: Cards,
    /// The actions before the decision, `;`-separated, each by whoever
    /// must act (see [`Position::build`]); decisions with one answer (a
    /// lead with one card) are played without being written.
    pub script: &'static str,
    /// Who decides.
    pub seat: Seat,
    /// The right answers, `|`-separated: an action as in the script, or
    /// `raise`, `bet`, `bid` for any amount, or `five>=KEY` for any five of
    /// at least that category (`five>=full_house`).
    pub answer: &'static str,
    /// A wrong answer: the verdict on it must say it costs chips.
    pub wrong: &'static str,
    /// Why the answer is known.
    pub why: &'static str,
    /// A Michigan endgame whose right answers [`solve::solve`] proves.
    pub exact: bool,
    /// Cheap enough for the test command's subset.
    pub fast: bool,
}

/// A position built: the game at the decision, and every step that led there.
#[derive(Clone, Debug)]
pub struct Built {
    /// The game, `seat` to decide.
    pub game: Game,
    /// The deal's deck.
    pub deck: Deck,
    /// Every action applied after the deal, with its seat (the builder's
    /// one-answer leads included), in order.
    pub steps: Vec<(Seat, Action)>,
}

impl Position {
    /// The position's rules: its preset, the first dealer set.
    pub fn rules(&self) -> Rules {
        let mut rules = Rules::preset(self.preset);
        rules.first_dealer = FirstDealer::Seat(self.dealer);
        rules
    }

    /// The deck that deals this position's cards.
    pub fn deck(&self) -> Result<Deck, String> {
        let n = self.players;
        let mut hands = vec![CardSet::EMPTY; n];
        let mut spare = CardSet::EMPTY;
        let mut exact = false;
        match self.cards {
            Cards::Owners(suits) => {
                exact = true;
                for (suit, text) in Suit::ALL.into_iter().zip(suits) {
                    let marks: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
                    if marks.len() != 13 {
                        return Err(format!("{suit}: {} owners, not 13", marks.len()));
                    }
                    for (rank, mark) in Rank::ALL.into_iter().zip(marks) {
                        let card = Card::new(rank, suit);
                        match mark {
                            '.' => spare.insert(card),
                            d => {
                                let s = d
                                    .to_digit(10)
                                    .filter(|&s| (s as usize) < n)
                                    .ok_or(format!("{card}: no seat {d:?}"))?;
                                hands[s as usize].insert(card)
                            }
                        };
                    }
                }
            }
            Cards::Hands(given, extra) => {
                if given.len() != n {
                    return Err(format!("{} hands for {n} players", given.len()));
                }
                for (h, text) in hands.iter_mut().zip(given) {
                    *h = parse_cards(text)?;
                }
                spare = parse_cards(extra)?;
            }
        }
        deck_of(self.dealer, &hands, spare, !exact)
    }

    /// Deals the position's cards and plays its script: the game at the
    /// decision of `seat`. Each step is an action by whoever must act
    /// (`keep`, `swap`, `auction`, `swapauction`, `bid N`, `pass`, `check`,
    /// `bet N`, `call`, `raise N`, `fold`, `choose CARDS`, `choose best`,
    /// `choose low`, `lead CARD`, `play`, `withhold`); `fives` has every
    /// seat asked for a five in turn choose its best, `run` has every
    /// follower (M9b) play until somebody must lead.
    pub fn build(&self) -> Result<Built, String> {
        let rules = self.rules();
        let deck = self.deck()?;
        let mut game = Game::new(rules.clone(), self.players).map_err(|e| e.to_string())?;
        let chance = DealChance {
            deck: deck.clone(),
            pay_suit: None,
            sequence: None,
        };
        game.chance(chance).map_err(|e| e.to_string())?;
        let mut steps = Vec::new();
        for text in self
            .script
            .split(';')
            .map(str::trim)
            .filter(|t| !t.is_empty())
        {
            play_forced(&mut game, &mut steps)?;
            if text == "fives" {
                while let Pending::Decide {
                    seat,
                    decision: Decision::ChooseFive { from },
                } = game.pending()
                {
                    let five = Action::Choose(rules.evaluator().best_five(from).1);
                    apply(&mut game, &mut steps, seat, five)?;
                }
                continue;
            }
            if text == "run" {
                while let Pending::Decide {
                    seat,
                    decision: Decision::Follow { .. },
                } = game.pending()
                {
                    apply(&mut game, &mut steps, seat, Action::Play)?;
                    play_forced(&mut game, &mut steps)?;
                }
                continue;
            }
            let Pending::Decide { seat, decision } = game.pending() else {
                return Err(format!("{text:?}: nobody is to act"));
            };
            let action = parse_action(text, &decision, &rules)?;
            apply(&mut game, &mut steps, seat, action)?;
        }
        play_forced(&mut game, &mut steps)?;
        match game.pending() {
            Pending::Decide { seat, decision } if seat == self.seat => {
                if decision.only().is_some() {
                    return Err("the decision has one answer".into());
                }
            }
            other => return Err(format!("seat {} is not to decide: {other:?}", self.seat)),
        }
        Ok(Built { game, deck, steps })
    }

    /// Whether `action` is one of the right answers at `decision`.
    pub fn is_right(&self, action: Action, decision: &Decision) -> Result<bool, String> {
        let rules = self.rules();
        for alt in self.answer.split('|').map(str::trim) {
            if matches(alt, action, decision, &rules)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The wrong answer the verdict is asked about, at `decision`.
    pub fn wrong_action(&self, decision: &Decision) -> Result<Action, String> {
        parse_action(self.wrong, decision, &self.rules())
    }
}

/// The deck that deals `hands` (by seat) and `spare` when `dealer` deals
/// (D1: from the dealer's left, the spare right after the dealer); with
/// `fill`, hands short of their size get the cards nobody was given, lowest
/// first, in dealing order.
pub fn deck_of(
    dealer: Seat,
    hands: &[CardSet],
    spare: CardSet,
    fill: bool,
) -> Result<Deck, String> {
    let n = hands.len();
    let mut order: Vec<CardSet> = (1..=n)
        .map(|i| hands[(usize::from(dealer) + i) % n])
        .collect();
    order.push(spare);
    let sizes: Vec<usize> = (0..=n)
        .map(|i| 52 / (n + 1) + usize::from(i < 52 % (n + 1)))
        .collect();
    let named = order.iter().try_fold(CardSet::EMPTY, |all, &h| {
        if (all & h).is_empty() {
            Ok(all | h)
        } else {
            Err(format!("{} named twice", all & h))
        }
    })?;
    let mut free = (CardSet::FULL - named).iter();
    for (i, (h, &size)) in order.iter_mut().zip(&sizes).enumerate() {
        let got = h.len() as usize;
        if got > size || (!fill && got != size) {
            return Err(format!(
                "hand {i} in dealing order has {got} cards, not {size}: {h}"
            ));
        }
        while (h.len() as usize) < size {
            h.insert(free.next().ok_or("not enough cards")?);
        }
    }
    let mut deck = Vec::with_capacity(52);
    let lists: Vec<Vec<Card>> = order.iter().map(|h| h.to_vec()).collect();
    for round in 0..sizes[0] {
        for list in &lists {
            if let Some(&c) = list.get(round) {
                deck.push(c);
            }
        }
    }
    Deck::from_cards(&deck).map_err(|e| e.to_string())
}

/// Plays every decision with one answer, as the engine's tests do.
fn play_forced(game: &mut Game, steps: &mut Vec<(Seat, Action)>) -> Result<(), String> {
    while let Pending::Decide { seat, decision } = game.pending()
        && let Some(only) = decision.only()
    {
        apply(game, steps, seat, only)?;
    }
    Ok(())
}

fn apply(
    game: &mut Game,
    steps: &mut Vec<(Seat, Action)>,
    seat: Seat,
    action: Action,
) -> Result<(), String> {
    game.apply(seat, action)
        .map_err(|e| format!("seat {seat} {}: {e}", show(action)))?;
    steps.push((seat, action));
    Ok(())
}

fn parse_cards(text: &str) -> Result<CardSet, String> {
    if text.trim().is_empty() {
        return Ok(CardSet::EMPTY);
    }
    text.parse().map_err(|e| format!("{text:?}: {e}"))
}

fn number(word: Option<&str>, text: &str) -> Result<u32, String> {
    word.and_then(|w| w.parse().ok())
        .ok_or(format!("{text:?}: a number is missing"))
}

/// An action written as in a position's script, at `decision`.
pub fn parse_action(text: &str, decision: &Decision, rules: &Rules) -> Result<Action, String> {
    let mut words = text.split_whitespace();
    let head = words.next().unwrap_or("");
    let rest: Vec<&str> = words.collect();
    let arg = rest.first().copied();
    Ok(match head {
        "keep" => Action::Keep,
        "swap" => Action::Swap,
        "auction" => Action::AuctionSpare,
        "swapauction" => Action::SwapAndAuction,
        "pass" => Action::Pass,
        "check" => Action::Check,
        "call" => Action::Call,
        "fold" => Action::Fold,
        "play" => Action::Play,
        "withhold" => Action::Withhold,
        "bid" => Action::Bid(number(arg, text)?),
        "bet" => Action::Bet(number(arg, text)?),
        "raise" => Action::Raise(number(arg, text)?),
        "lead" => Action::Lead(
            arg.unwrap_or("")
                .parse::<Card>()
                .map_err(|e| format!("{text:?}: {e}"))?,
        ),
        "choose" => {
            let Decision::ChooseFive { from } = *decision else {
                return Err(format!("{text:?}: not a choice of five"));
            };
            match arg {
                Some("best") => Action::Choose(rules.evaluator().best_five(from).1),
                Some("low") => Action::Choose(rules.evaluator().lowest_five(from).1),
                _ => Action::Choose(parse_cards(&rest.join(" "))?),
            }
        }
        _ => return Err(format!("{text:?}: unknown action")),
    })
}

/// Whether `action` is what the answer `alt` names.
fn matches(alt: &str, action: Action, decision: &Decision, rules: &Rules) -> Result<bool, String> {
    Ok(match (alt, action) {
        ("raise", Action::Raise(_)) | ("bet", Action::Bet(_)) | ("bid", Action::Bid(_)) => true,
        ("raise" | "bet" | "bid", _) => false,
        (a, Action::Choose(five)) if a.starts_with("five>=") => {
            let key = &a["five>=".len()..];
            let min = Category::ALL
                .into_iter()
                .find(|c| c.key() == key)
                .ok_or(format!("{a:?}: no such category"))?;
            five.len() == 5 && rules.evaluator().best(five).category() >= min
        }
        (a, _) if a.starts_with("five>=") => false,
        (a, _) => parse_action(a, decision, rules)? == action,
    })
}

/// An action in the script's words (`choose 9C 9D 9H 9S 2C`, `raise 3`).
pub fn show(action: Action) -> String {
    match action {
        Action::Keep => "keep".into(),
        Action::Swap => "swap".into(),
        Action::AuctionSpare => "auction".into(),
        Action::SwapAndAuction => "swapauction".into(),
        Action::Bid(n) => format!("bid {n}"),
        Action::Pass => "pass".into(),
        Action::NameSuit(s) => format!("name {s}"),
        Action::Check => "check".into(),
        Action::Bet(n) => format!("bet {n}"),
        Action::Call => "call".into(),
        Action::Raise(n) => format!("raise {n}"),
        Action::Fold => "fold".into(),
        Action::Choose(five) => format!("choose {five}"),
        Action::Lead(c) => format!("lead {c}"),
        Action::Play => "play".into(),
        Action::Withhold => "withhold".into(),
    }
}

/// What the expert answered at a position.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The position.
    pub position: &'static Position,
    /// The hint's answer.
    pub hint: Action,
    /// Whether it is one of the right answers.
    pub hint_right: bool,
    /// The candidates' means behind the hint.
    pub means: Vec<(Action, f64)>,
    /// The verdict on the position's wrong answer.
    pub verdict: Verdict,
    /// Whether the verdict names a right answer as the best, against which
    /// the wrong answer is not measured better (its cost is not below 0 by
    /// two standard errors). The cost is measured in worlds other than
    /// those that chose the best, so where a right answer is only a little
    /// better (a straight against a high-card five when the others' fives
    /// are mostly stronger) it may come out a little below 0.
    pub verdict_right: bool,
}

impl Outcome {
    /// Both the hint and the verdict are right.
    pub fn right(&self) -> bool {
        self.hint_right && self.verdict_right
    }
}

/// The seed of a position's verdict: its name hashed (FNV-1a), so adding
/// a position changes no other's.
fn seed_of(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Asks the expert at `position`: the hint within `budget`, and the
/// verdict on the position's wrong answer within the same budget.
pub fn ask(position: &'static Position, budget: Budget) -> Result<Outcome, String> {
    let built = position.build()?;
    let rules = position.rules();
    let info = InfoSet::new(&built.game, position.seat);
    let decision = *info.decision().ok_or("no decision")?;
    let advice = advise(&info, &rules, budget);
    let hint_right = position.is_right(advice.best, &decision)?;
    let wrong = position.wrong_action(&decision)?;
    if position.is_right(wrong, &decision)? {
        return Err(format!("{}: the wrong answer is right", position.name));
    }
    let verdict = judge(&info, &rules, wrong, budget, seed_of(position.name));
    let verdict_right = verdict.cost > -2.0 * verdict.std_error
        && verdict.best != wrong
        && position.is_right(verdict.best, &decision)?;
    Ok(Outcome {
        position,
        hint: advice.best,
        hint_right,
        means: advice.means,
        verdict,
        verdict_right,
    })
}

/// How many of the expert bot's answers at `position` are right, asked
/// with its generator seeded 1 to `seeds` (the hint always uses one seed):
/// how often it gets the position right, not only whether it did once.
pub fn bot_right(position: &Position, budget: Budget, seeds: u32) -> Result<u32, String> {
    let built = position.build()?;
    let rules = position.rules();
    let info = InfoSet::new(&built.game, position.seat);
    let decision = *info.decision().ok_or("no decision")?;
    let mut right = 0;
    for seed in 1..=u64::from(seeds) {
        let mut bot = ExpertBot::new(&rules, budget);
        let a = bot.act_in(&info, &mut seeded_rng(seed));
        right += u32::from(position.is_right(a, &decision)?);
    }
    Ok(right)
}

/// Counts of one kind: positions, right hints, right verdicts, both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Positions asked.
    pub total: u32,
    /// Hints that were right.
    pub hints: u32,
    /// Verdicts on the wrong answer that found its cost.
    pub verdicts: u32,
    /// Positions with both right.
    pub both: u32,
}

/// The suite's figures per kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Per kind.
    pub kinds: BTreeMap<Kind, Count>,
}

impl Tally {
    /// Counts the outcomes.
    pub fn of(outcomes: &[Outcome]) -> Tally {
        let mut kinds = BTreeMap::new();
        for o in outcomes {
            let c: &mut Count = kinds.entry(o.position.kind).or_default();
            c.total += 1;
            c.hints += u32::from(o.hint_right);
            c.verdicts += u32::from(o.verdict_right);
            c.both += u32::from(o.right());
        }
        Tally { kinds }
    }

    /// All kinds together.
    pub fn total(&self) -> Count {
        self.kinds.values().fold(Count::default(), |a, c| Count {
            total: a.total + c.total,
            hints: a.hints + c.hints,
            verdicts: a.verdicts + c.verdicts,
            both: a.both + c.both,
        })
    }
}

/// The expert's default budget without its clock: the playouts
/// [`Budget::DEFAULT`] buys on an idle core, so the suite's answers do not
/// depend on the machine's load.
pub const SUITE_BUDGET: Budget = Budget::playouts(Budget::DEFAULT.playouts);

/// The seat's worth at the end of a continuation, as the search counts it.
pub(crate) use crate::expert::worth;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_builds_and_its_answers_are_legal() {
        let mut names = std::collections::HashSet::new();
        for p in all() {
            assert!(names.insert(p.name), "{} named twice", p.name);
            let built = p.build().unwrap_or_else(|e| panic!("{}: {e}", p.name));
            let decision = *InfoSet::new(&built.game, p.seat).decision().unwrap();
            let wrong = p.wrong_action(&decision).unwrap();
            assert!(
                decision.check(wrong).is_ok(),
                "{}: wrong is illegal",
                p.name
            );
            assert!(!p.is_right(wrong, &decision).unwrap(), "{}", p.name);
            // Some legal answer is right, and not every one.
            let legal = decision.actions();
            let right = legal
                .iter()
                .filter(|&&a| p.is_right(a, &decision).unwrap())
                .count();
            if !matches!(decision, Decision::ChooseFive { .. }) {
                assert!(right > 0 && right < legal.len(), "{}: {right}", p.name);
            }
        }
    }
}
