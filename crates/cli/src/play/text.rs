//! Events, chip movements and decisions in plain words, for the log, the
//! ledger and the prompts of `tripoley play`.

use std::fmt::Write as _;

use tripoley_cards::{Card, CardSet, Rank, Suit};
use tripoley_engine::{Account, AuctionItem, Event, Reason, Seat, Space, StopReason, Transfer};

/// A card as players write it: `10♥`.
pub fn card(c: Card) -> String {
    c.symbol()
}

/// Cards in a row, sorted for the eye: `2♣ 5♣ K♦`.
pub fn cards(set: CardSet) -> String {
    sorted_hand(set)
        .iter()
        .map(|&c| card(c))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The order suits are shown in: alternating colours.
pub const SUIT_ORDER: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Spades, Suit::Hearts];

/// A hand sorted by suit (clubs, diamonds, spades, hearts: black and red
/// alternate), low to high within each suit, as Michigan is played.
pub fn sorted_hand(set: CardSet) -> Vec<Card> {
    let mut v = set.to_vec();
    v.sort_by_key(|c| {
        let suit = SUIT_ORDER.iter().position(|&s| s == c.suit()).unwrap_or(0);
        (suit, c.rank())
    });
    v
}

/// The three ranks of the Sequence starting at `low`: `8-9-10`.
pub fn sequence(low: Rank) -> String {
    let mut out = low.short().to_owned();
    let mut r = low;
    for _ in 0..2 {
        match r.next() {
            Some(n) => {
                r = n;
                let _ = write!(out, "-{}", r.short());
            }
            None => break,
        }
    }
    out
}

/// Who is who: seat names, and which seat is "you".
#[derive(Clone, Debug)]
pub struct Words {
    /// Names by seat.
    pub names: Vec<String>,
    /// The human's seat.
    pub me: Seat,
}

impl Words {
    /// "You" for the human, the name for anyone else.
    pub fn who(&self, seat: Seat) -> String {
        if seat == self.me {
            "You".to_owned()
        } else {
            self.name(seat)
        }
    }

    /// The seat's name (the human's own name for the human).
    pub fn name(&self, seat: Seat) -> String {
        self.names
            .get(usize::from(seat))
            .cloned()
            .unwrap_or_else(|| format!("Seat {seat}"))
    }

    /// "You take" / "Bot 1 takes": the subject and its verb.
    pub(super) fn says(&self, seat: Seat, you: &str, they: &str) -> String {
        if seat == self.me {
            format!("You {you}")
        } else {
            format!("{} {they}", self.name(seat))
        }
    }

    /// "your" / "their".
    fn their(&self, seat: Seat) -> &'static str {
        if seat == self.me { "your" } else { "their" }
    }

    /// An account in short: a seat's name or a layout space's label.
    pub fn account(&self, a: Account, pay_suit: Option<Suit>) -> String {
        match a {
            Account::Stack(s) => self.who(s),
            Account::Space(sp) => space_label(sp, pay_suit),
        }
    }

    /// An account in a sentence: a seat's name, or "the Kitty", "the A♥ space".
    pub fn account_words(&self, a: Account, pay_suit: Option<Suit>) -> String {
        match a {
            Account::Stack(s) => self.who(s),
            Account::Space(sp) => space_words(sp, pay_suit),
        }
    }

    /// One event in plain words, from the human's point of view; `None` for
    /// events that need no line of their own (antes and bets are told by the
    /// deal and betting lines, hands by the hand on screen).
    #[allow(clippy::too_many_lines)] // one short arm per event
    pub fn event(&self, ev: &Event, ctx: &Context) -> Option<String> {
        Some(match ev {
            Event::DrewForDealer { draws } => {
                let list: Vec<String> = draws
                    .iter()
                    .map(|&(s, c)| format!("{} {}", self.who(s), card(c)))
                    .collect();
                format!("Draw for first dealer: {}.", list.join(", "))
            }
            Event::FirstDealer { seat } => format!("{} first.", self.says(*seat, "deal", "deals")),
            Event::PlayerOut { seat, chips } => format!(
                "{} the ante and {} the game with {chips} chips.",
                self.says(*seat, "cannot pay", "cannot pay"),
                if *seat == self.me { "leave" } else { "leaves" }
            ),
            Event::DealStarted {
                number,
                dealer,
                pay_suit,
                sequence: seq,
            } => {
                let suit = pay_suit.map_or_else(
                    || "to be auctioned".to_owned(),
                    |s| format!("{} {}", s.name(), s.symbol()),
                );
                format!(
                    "Deal {number} of {}: {}. Pay suit {suit}, Sequence {}.",
                    ctx.deals_total,
                    self.says(*dealer, "deal", "deals"),
                    sequence(*seq)
                )
            }
            Event::Transfer(t) => return self.transfer(t, ctx),
            Event::DealerKept { seat } => format!(
                "{} {} hand.",
                self.says(*seat, "keep", "keeps"),
                self.their(*seat)
            ),
            Event::Swapped { seat } => format!(
                "{} {} hand for the spare.",
                self.says(*seat, "swap", "swaps"),
                self.their(*seat)
            ),
            Event::AuctionOpened { item } => match item {
                AuctionItem::Spare => "The spare is auctioned, unseen.".to_owned(),
                AuctionItem::DealersOldHand => "The dealer's old hand is auctioned.".to_owned(),
            },
            Event::Bid { seat, amount } => {
                format!("{} {amount}.", self.says(*seat, "bid", "bids"))
            }
            Event::Passed { seat } => format!("{}.", self.says(*seat, "pass", "passes")),
            Event::AuctionSold { seat, price } => {
                format!("{} the hand for {price}.", self.says(*seat, "buy", "buys"))
            }
            Event::AuctionUnsold => "Nobody buys the hand.".to_owned(),
            Event::PaySuitNamed { seat, suit } => match seat {
                Some(s) => format!(
                    "{} {} as the pay suit.",
                    self.says(*s, "name", "names"),
                    suit.name()
                ),
                None => format!("Everybody passed: {} are the pay suit.", suit.name()),
            },
            Event::PayCardsShown { seat, cards: shown } => {
                format!("{} {}.", self.says(*seat, "show", "shows"), cards(*shown))
            }
            Event::SequenceShared {
                claimants,
                remainder,
            } => format!(
                "{} players share the Sequence; {remainder} chips stay on it.",
                claimants.count_ones()
            ),
            Event::SetFiveApart { seat } => format!(
                "{} five cards apart for the poker.",
                self.says(*seat, "set", "sets")
            ),
            Event::Checked { seat } => format!("{}.", self.says(*seat, "check", "checks")),
            Event::Bet { seat, amount } => format!("{} {amount}.", self.says(*seat, "bet", "bets")),
            Event::Called {
                seat,
                amount,
                all_in,
            } => format!(
                "{} {amount}{}.",
                self.says(*seat, "call", "calls"),
                if *all_in { ", all in" } else { "" }
            ),
            Event::Raised { seat, amount, by } => format!(
                "{} by {by} (puts in {amount}).",
                self.says(*seat, "raise", "raises")
            ),
            Event::Folded { seat } => format!("{}.", self.says(*seat, "fold", "folds")),
            Event::Showed {
                seat,
                cards: five,
                rank,
            } => format!(
                "{} {}: {rank}.",
                self.says(*seat, "show", "shows"),
                rank.arrange(*five)
                    .iter()
                    .map(|&c| card(c))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Event::Led {
                seat,
                card: c,
                misplay,
            } => format!(
                "{} {}{}.",
                self.says(*seat, "lead", "leads"),
                card(*c),
                if *misplay {
                    ", not the lowest of its suit (a misplay)"
                } else {
                    ""
                }
            ),
            Event::Played { seat, card: c } => {
                format!("{} {}.", self.says(*seat, "play", "plays"), card(*c))
            }
            Event::Withheld { seat, card: c } => {
                format!(
                    "{} {} (a misplay).",
                    self.says(*seat, "withhold", "withholds"),
                    card(*c)
                )
            }
            Event::RunStopped { next, reason } => {
                format!("The run stops: {}.", stop_reason(*next, *reason, ctx))
            }
            Event::CannotLead { seat } => format!(
                "{} lead; the lead passes left.",
                self.says(*seat, "cannot", "cannot")
            ),
            Event::PlayBlocked => "Nobody can lead: play is blocked.".to_owned(),
            Event::WentOut { seat } => format!(
                "{} {} last card and {} out!",
                self.says(*seat, "play", "plays"),
                self.their(*seat),
                if *seat == self.me { "go" } else { "goes" }
            ),
            Event::FinalPotRound { round, chips } => {
                format!("Final pot {round}: {chips} chips, five new cards each.")
            }
            Event::FaceUp { seat, cards: five } => {
                format!(
                    "{} {} face up.",
                    self.says(*seat, "get", "gets"),
                    cards(*five)
                )
            }
            Event::DealEnded { number } => format!("Deal {number} is over."),
            Event::GameOver { winners } => {
                let names: Vec<String> = winners.iter().map(|&s| self.who(s)).collect();
                format!("The game is over. Most chips: {}.", names.join(", "))
            }
            #[allow(unreachable_patterns)] // events added to the engine later
            _ => return None,
        })
    }

    /// A chip movement worth its own line; `None` for antes and bets (the
    /// deal and betting lines say them) and the final pot's gathering.
    fn transfer(&self, t: &Transfer, ctx: &Context) -> Option<String> {
        let from = || self.account_words(t.from, ctx.pay_suit);
        let to_seat = match t.to {
            Account::Stack(s) => Some(s),
            Account::Space(_) => None,
        };
        let n = t.amount;
        let took =
            |s: Seat, what: String| format!("{} {n} from {what}.", self.says(s, "take", "takes"));
        Some(match (t.reason, to_seat) {
            (Reason::Ante | Reason::Bet | Reason::FinalPotGathered, _) => return None,
            (Reason::PayCard | Reason::KingQueen | Reason::Sequence | Reason::WentOut, Some(s)) => {
                took(s, from())
            }
            (Reason::PotWon, Some(s)) => {
                format!("{} the Pot: {n} chips.", self.says(s, "win", "wins"))
            }
            (Reason::PokerPool, Some(s)) => {
                format!("{} the Poker Pool: {n} chips.", self.says(s, "win", "wins"))
            }
            (Reason::FinalPot, Some(s)) => {
                format!("{} the final pot: {n} chips.", self.says(s, "win", "wins"))
            }
            _ => format!(
                "{} {n} to {} ({}).",
                match t.from {
                    Account::Stack(s) => self.says(s, "pay", "pays"),
                    Account::Space(_) => format!("{} pays", from()),
                },
                self.account_words(t.to, ctx.pay_suit),
                reason_words(t.reason, ctx)
            ),
        })
    }

    /// The ledger of a deal in lines: the antes in one line, then each
    /// movement (summed when the same payer paid the same payee for the same
    /// reason), in the order they happened.
    pub fn ledger(&self, transfers: &[Transfer], ctx: &Context) -> Vec<String> {
        let mut lines = Vec::new();
        let mut antes: Vec<(Seat, u32)> = Vec::new();
        let mut rows: Vec<(Account, Account, Reason, u32)> = Vec::new();
        for t in transfers {
            if t.reason == Reason::Ante {
                if let Account::Stack(s) = t.from {
                    match antes.iter_mut().find(|a| a.0 == s) {
                        Some(a) => a.1 += t.amount,
                        None => antes.push((s, t.amount)),
                    }
                }
                continue;
            }
            match rows
                .iter_mut()
                .find(|r| r.0 == t.from && r.1 == t.to && r.2 == t.reason)
            {
                Some(r) => r.3 += t.amount,
                None => rows.push((t.from, t.to, t.reason, t.amount)),
            }
        }
        if !antes.is_empty() {
            antes.sort_by_key(|a| a.0);
            let list: Vec<String> = antes
                .iter()
                .map(|&(s, n)| format!("{} {n}", self.who(s)))
                .collect();
            lines.push(format!("Antes: {}", list.join(", ")));
        }
        for (from, to, reason, amount) in rows {
            lines.push(format!(
                "{} → {}: {amount}, {}",
                self.account(from, ctx.pay_suit),
                self.account(to, ctx.pay_suit),
                reason_words(reason, ctx)
            ));
        }
        lines
    }
}

/// What the words need to know about the deal.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context {
    /// The pay suit, once known.
    pub pay_suit: Option<Suit>,
    /// Deals in the game.
    pub deals_total: u32,
    /// Cards known to be in the spare.
    pub spare_known: CardSet,
    /// Whether misplays are allowed (a run can stop at a withheld card).
    pub misplays: bool,
}

/// Why chips moved, in a few words.
pub fn reason_words(reason: Reason, ctx: &Context) -> String {
    let suit = ctx
        .pay_suit
        .map_or(String::new(), |s| s.symbol().to_string());
    match reason {
        Reason::Ante => "ante".to_owned(),
        Reason::PayCard => "pay card".to_owned(),
        Reason::KingQueen => format!("king and queen of {suit}"),
        Reason::Sequence => "the Sequence".to_owned(),
        Reason::AuctionPrice => "price of the auctioned hand".to_owned(),
        Reason::PaySuitBid => "bid to name the pay suit".to_owned(),
        Reason::Bet => "poker bets".to_owned(),
        Reason::PotWon => "won the poker pot".to_owned(),
        Reason::Blocked => "cards held at the block".to_owned(),
        Reason::WentOut => "went out: the Kitty".to_owned(),
        Reason::CardsLeft => "cards left at going out".to_owned(),
        Reason::Misled => "misplay: lead not the lowest".to_owned(),
        Reason::Withheld => "misplay: withheld a card".to_owned(),
        Reason::PokerPool => "the Poker Pool".to_owned(),
        Reason::FinalPotGathered => "gathered for the final pot".to_owned(),
        Reason::FinalPot => "won the final pot".to_owned(),
    }
}

/// Why a run stopped (M5), in words.
pub fn stop_reason(next: Option<Card>, reason: StopReason, ctx: &Context) -> String {
    match (reason, next) {
        (StopReason::Ace, _) | (_, None) => "it reached the ace".to_owned(),
        (StopReason::AlreadyPlayed, Some(c)) => format!("{} was played earlier", card(c)),
        (StopReason::NotPlayed, Some(c)) if ctx.spare_known.contains(c) => {
            format!("{} is in the spare", card(c))
        }
        (StopReason::NotPlayed, Some(c)) if ctx.misplays => {
            format!("nobody played {} (in the spare, or withheld)", card(c))
        }
        (StopReason::NotPlayed, Some(c)) => format!("{} is in the spare", card(c)),
    }
}

/// A layout space's short label: `A♥`, `K♥Q♥`, `Sequence`.
pub fn space_label(space: Space, pay_suit: Option<Suit>) -> String {
    let suit = pay_suit.map_or('?', Suit::symbol);
    match space {
        Space::Ace => format!("A{suit}"),
        Space::King => format!("K{suit}"),
        Space::Queen => format!("Q{suit}"),
        Space::Jack => format!("J{suit}"),
        Space::Ten => format!("10{suit}"),
        Space::KingQueen => format!("K{suit}Q{suit}"),
        Space::Sequence => "Sequence".to_owned(),
        Space::Kitty => "Kitty".to_owned(),
        Space::Pot => "Pot".to_owned(),
    }
}

/// A layout space in a sentence: "the A♥ space", "the Kitty".
pub fn space_words(space: Space, pay_suit: Option<Suit>) -> String {
    match space {
        Space::Ace | Space::King | Space::Queen | Space::Jack | Space::Ten => {
            format!("the {} space", space_label(space, pay_suit))
        }
        Space::KingQueen => "the King-Queen space".to_owned(),
        other => format!("the {other}"),
    }
}

/// A line cut at spaces into pieces of at most `width` characters, the
/// pieces after the first indented by two spaces.
pub fn wrap(line: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in line.split(' ') {
        let room = if out.is_empty() { width } else { width - 2 };
        let used = current.chars().count();
        if used > 0 && used + 1 + word.chars().count() > room {
            out.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    out.push(current);
    for piece in out.iter_mut().skip(1) {
        piece.insert_str(0, "  ");
    }
    out
}

/// At most `width` characters of `s`.
pub fn clip(s: &str, width: usize) -> String {
    s.chars().take(width).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> Words {
        Words {
            names: vec!["Ann".into(), "Bot 1".into()],
            me: 0,
        }
    }

    #[test]
    fn verbs_agree_with_you_and_them() {
        let w = words();
        let ctx = Context::default();
        assert_eq!(
            w.event(&Event::Bet { seat: 0, amount: 3 }, &ctx).as_deref(),
            Some("You bet 3.")
        );
        assert_eq!(
            w.event(&Event::Bet { seat: 1, amount: 3 }, &ctx).as_deref(),
            Some("Bot 1 bets 3.")
        );
        assert_eq!(
            w.event(&Event::DealerKept { seat: 1 }, &ctx).as_deref(),
            Some("Bot 1 keeps their hand.")
        );
    }

    #[test]
    fn run_stops_say_why() {
        let ctx = Context::default();
        let six: Card = "6C".parse().expect("a card");
        assert_eq!(
            stop_reason(Some(six), StopReason::AlreadyPlayed, &ctx),
            "6♣ was played earlier"
        );
        assert_eq!(
            stop_reason(None, StopReason::Ace, &ctx),
            "it reached the ace"
        );
        assert_eq!(
            stop_reason(Some(six), StopReason::NotPlayed, &ctx),
            "6♣ is in the spare"
        );
    }

    #[test]
    fn ledger_sums_antes_and_repeats() {
        let w = words();
        let ante = |s| Transfer {
            from: Account::Stack(s),
            to: Account::Space(Space::Kitty),
            amount: 1,
            reason: Reason::Ante,
        };
        let left = Transfer {
            from: Account::Stack(1),
            to: Account::Stack(0),
            amount: 2,
            reason: Reason::CardsLeft,
        };
        let lines = w.ledger(
            &[ante(0), ante(1), ante(0), left, left],
            &Context::default(),
        );
        assert_eq!(lines[0], "Antes: You 2, Bot 1 1");
        assert_eq!(lines[1], "Bot 1 → You: 4, cards left at going out");
    }

    #[test]
    fn long_lines_wrap_at_spaces() {
        assert_eq!(wrap("short", 20), vec!["short"]);
        assert_eq!(
            wrap("Antes to the layout: You 9, Bot 1 9, Bot 2 9", 24),
            vec!["Antes to the layout: You", "  9, Bot 1 9, Bot 2 9"]
        );
        // A word longer than the line stays whole.
        let long = "x".repeat(30);
        assert_eq!(wrap(&long, 20), vec![long]);
    }

    #[test]
    fn hands_sort_by_suit_then_rank() {
        let set: CardSet = ["AH", "2H", "KC", "3S", "9D"]
            .iter()
            .map(|c| c.parse::<Card>().expect("a card"))
            .collect();
        assert_eq!(cards(set), "K♣ 9♦ 3♠ 2♥ A♥");
        assert_eq!(sequence(Rank::Eight), "8-9-10");
        assert_eq!(sequence(Rank::Queen), "Q-K-A");
    }
}
