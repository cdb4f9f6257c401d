//! Events, chip movements and decisions in plain words, for the log, the
//! ledger and the prompts of `tripoley play`.

use std::fmt::Write as _;

use tripoley_cards::{Card, CardSet, Rank, Suit};
use tripoley_engine::{Account, AuctionItem, Event, Reason, Seat, Space, StopReason, Transfer};
use tripoley_i18n::words::hand_rank;
use tripoley_i18n::{Lang, Value};

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

/// Who is who: seat names, which seat is "you", and the language the
/// words are in (the catalogue's `terminal.ftl` and `words.ftl`).
#[derive(Clone, Debug)]
pub struct Words {
    /// Names by seat.
    pub names: Vec<String>,
    /// The human's seat.
    pub me: Seat,
    /// The language of every line.
    pub lang: Lang,
}

impl Words {
    fn t(&self, id: &str, args: &[(&str, Value<'_>)]) -> String {
        self.lang.t(id, args)
    }

    /// The human as "you" inside a sentence ("between you and Bot 3",
    /// "entre tú y Bot 3"), anyone else by name.
    pub fn who(&self, seat: Seat) -> String {
        self.you_or_name(seat, "within")
    }

    /// The human as "You" standing alone (a ledger row starts with it),
    /// anyone else by name.
    fn who_alone(&self, seat: Seat) -> String {
        self.you_or_name(seat, "start")
    }

    /// `term-you` at `at` (`start` or `within`) for the human, else the name.
    fn you_or_name(&self, seat: Seat, at: &str) -> String {
        if seat == self.me {
            self.t("you", &[("at", at.into())])
        } else {
            self.name(seat)
        }
    }

    /// The seat's name (the human's own name for the human).
    pub fn name(&self, seat: Seat) -> String {
        self.names
            .get(usize::from(seat))
            .cloned()
            .unwrap_or_else(|| self.t("seat-n", &[("n", (seat + 1).into())]))
    }

    /// The human's name among the players: "Ann (you)"; but "You" alone
    /// when that is the name, the one a player who gave none gets (in any
    /// language: a game resumed in another keeps it), not "You (you)".
    pub fn own_name(&self) -> String {
        let name = self.name(self.me);
        if tripoley_i18n::names::is_you_word(&name) {
            name
        } else {
            self.t("name-you", &[("name", name.into())])
        }
    }

    /// `"yes"` for the human's seat, `"no"` for anyone else's: the value of
    /// a message's `$you` / `$to_you`, which picks the second person's own
    /// verb forms and pronouns ("Cerraste", "para ti").
    pub fn you(&self, seat: Seat) -> Value<'static> {
        Value::from(if seat == self.me { "yes" } else { "no" })
    }

    /// The message `id` said by `seat`: "You take" / "Bot 1 takes" (the
    /// message chooses by `$you`, and names `$who`), with `args` besides.
    pub(super) fn says(&self, id: &str, seat: Seat, args: &[(&str, Value<'_>)]) -> String {
        let mut all = vec![
            ("who", Value::from(self.name(seat))),
            ("you", self.you(seat)),
        ];
        all.extend(args.iter().cloned());
        self.t(id, &all)
    }

    /// An account in short: a seat's name or a layout space's label.
    pub fn account(&self, a: Account, pay_suit: Option<Suit>) -> String {
        match a {
            Account::Stack(s) => self.who_alone(s),
            Account::Space(sp) => space_label(sp, pay_suit, self.lang),
        }
    }

    /// An account in a sentence: a seat's name, or "the Kitty", "the A♥ space".
    pub fn account_words(&self, a: Account, pay_suit: Option<Suit>) -> String {
        match a {
            Account::Stack(s) => self.who(s),
            Account::Space(sp) => space_words(sp, pay_suit, self.lang),
        }
    }

    /// A count of chips as the language writes numbers ("20.000"), as
    /// the messages do, for the lines and cells written here.
    pub fn number(&self, n: u32) -> String {
        self.lang.integer(u64::from(n))
    }

    fn chips(&self, n: u32) -> String {
        self.t("words-chips", &[("n", n.into())])
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
                self.t("term-drew", &[("draws", list.join(", ").into())])
            }
            Event::FirstDealer { seat } => self.says("term-first-dealer", *seat, &[]),
            Event::PlayerOut { seat, chips } => self.says(
                "term-player-out",
                *seat,
                &[("chips", self.chips(*chips).into())],
            ),
            Event::DealStarted {
                number,
                dealer,
                pay_suit,
                sequence: seq,
            } => self.says(
                "term-deal-started",
                *dealer,
                &[
                    ("number", (*number).into()),
                    ("total", ctx.deals_total.into()),
                    ("suit", pay_suit.map_or("none", Suit::name).into()),
                    (
                        "symbol",
                        pay_suit
                            .map_or(String::new(), |s| s.symbol().to_string())
                            .into(),
                    ),
                    ("sequence", sequence(*seq).into()),
                ],
            ),
            Event::Transfer(t) => return self.transfer(t, ctx),
            Event::DealerKept { seat } => self.says("term-dealer-kept", *seat, &[]),
            Event::Swapped { seat } => self.says("term-swapped", *seat, &[]),
            Event::AuctionOpened { item } => {
                let item = match item {
                    AuctionItem::Spare => "spare",
                    AuctionItem::DealersOldHand => "old",
                };
                self.t("term-auction-opened", &[("item", item.into())])
            }
            Event::Bid { seat, amount } => {
                self.says("term-bid", *seat, &[("amount", (*amount).into())])
            }
            Event::Passed { seat } => self.says("term-passed", *seat, &[]),
            Event::AuctionSold { seat, price } => {
                self.says("term-auction-sold", *seat, &[("price", (*price).into())])
            }
            Event::AuctionUnsold => self.t("term-auction-unsold", &[]),
            Event::PaySuitNamed { seat, suit } => match seat {
                Some(s) => self.says("term-pay-suit-named", *s, &[("suit", suit.name().into())]),
                None => self.t("term-pay-suit-default", &[("suit", suit.name().into())]),
            },
            Event::PayCardsShown { seat, cards: shown } => {
                self.says("term-shows", *seat, &[("cards", cards(*shown).into())])
            }
            Event::SequenceShared {
                claimants,
                remainder,
            } => self.t(
                "term-sequence-shared",
                &[
                    ("players", claimants.count_ones().into()),
                    ("remainder", (*remainder).into()),
                ],
            ),
            Event::SetFiveApart { seat } => self.says("term-set-five-apart", *seat, &[]),
            Event::Checked { seat } => self.says("term-checked", *seat, &[]),
            Event::Bet { seat, amount } => {
                self.says("term-bet", *seat, &[("amount", (*amount).into())])
            }
            Event::Called {
                seat,
                amount,
                all_in,
            } => self.says(
                "term-called",
                *seat,
                &[
                    ("amount", (*amount).into()),
                    ("allin", if *all_in { "yes" } else { "no" }.into()),
                ],
            ),
            Event::Raised { seat, amount, by } => self.says(
                "term-raised",
                *seat,
                &[("by", (*by).into()), ("amount", (*amount).into())],
            ),
            Event::Folded { seat } => self.says("term-folded", *seat, &[]),
            Event::Showed {
                seat,
                cards: five,
                rank,
            } => {
                let shown: Vec<String> = rank.arrange(*five).iter().map(|&c| card(c)).collect();
                self.says(
                    "term-showed",
                    *seat,
                    &[
                        ("cards", shown.join(" ").into()),
                        ("hand", hand_rank(*rank, self.lang).into()),
                    ],
                )
            }
            Event::Led {
                seat,
                card: c,
                misplay,
            } => self.says(
                "term-led",
                *seat,
                &[
                    ("card", card(*c).into()),
                    ("misplay", if *misplay { "yes" } else { "no" }.into()),
                ],
            ),
            Event::Played { seat, card: c } => {
                self.says("term-played", *seat, &[("card", card(*c).into())])
            }
            Event::Withheld { seat, card: c } => {
                self.says("term-withheld", *seat, &[("card", card(*c).into())])
            }
            Event::RunStopped { next, reason } => self.t(
                "term-run-stopped",
                &[("why", stop_reason(*next, *reason, ctx, self.lang).into())],
            ),
            Event::CannotLead { seat } => self.says("term-cannot-lead", *seat, &[]),
            Event::PlayBlocked => self.t("ev-play-blocked", &[]),
            Event::WentOut { seat } => self.says("term-went-out", *seat, &[]),
            Event::FinalPotRound { round, chips } => self.t(
                "term-final-pot-round",
                &[
                    ("round", (*round).into()),
                    ("chips", self.chips(*chips).into()),
                ],
            ),
            Event::FaceUp { seat, cards: five } => {
                self.says("term-face-up", *seat, &[("cards", cards(*five).into())])
            }
            Event::DealEnded { number } => self.t("ev-deal-ended", &[("number", (*number).into())]),
            Event::GameOver { winners } => {
                let names: Vec<String> = winners.iter().map(|&s| self.who(s)).collect();
                self.t("term-game-over", &[("winners", names.join(", ").into())])
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
        Some(match (t.reason, to_seat) {
            (Reason::Ante | Reason::Bet | Reason::FinalPotGathered, _) => return None,
            (Reason::PayCard | Reason::KingQueen | Reason::Sequence | Reason::WentOut, Some(s)) => {
                self.says("term-took", s, &[("n", n.into()), ("what", from().into())])
            }
            (Reason::Unmatched, Some(s)) => {
                self.says("term-took-back", s, &[("chips", self.chips(n).into())])
            }
            (reason @ (Reason::PotWon | Reason::PokerPool | Reason::FinalPot), Some(s)) => {
                let pot = match reason {
                    Reason::PokerPool => "poker_pool",
                    Reason::FinalPot => "final_pot",
                    _ => "pot",
                };
                self.says(
                    "term-won",
                    s,
                    &[("pot", pot.into()), ("chips", self.chips(n).into())],
                )
            }
            _ => {
                let args = [
                    ("n", Value::from(n)),
                    ("to", self.account_words(t.to, ctx.pay_suit).into()),
                    ("reason", reason_words(t.reason, ctx, self.lang).into()),
                    ("to_you", to_seat.map_or("no".into(), |s| self.you(s))),
                ];
                match t.from {
                    Account::Stack(s) => self.says("term-pays", s, &args),
                    Account::Space(_) => {
                        let mut args = args.to_vec();
                        args.push(("what", from().into()));
                        self.t("term-space-pays", &args)
                    }
                }
            }
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
                .map(|&(s, n)| format!("{} {}", self.who(s), self.number(n)))
                .collect();
            lines.push(self.t("term-antes", &[("list", list.join(", ").into())]));
        }
        for (from, to, reason, amount) in rows {
            lines.push(format!(
                "{} → {}: {}, {}",
                self.account(from, ctx.pay_suit),
                self.account(to, ctx.pay_suit),
                self.number(amount),
                reason_words(reason, ctx, self.lang)
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
pub fn reason_words(reason: Reason, ctx: &Context, lang: Lang) -> String {
    let symbol = ctx
        .pay_suit
        .map_or(String::new(), |s| s.symbol().to_string());
    let key = match reason {
        Reason::Ante => "ante",
        Reason::PayCard => "pay_card",
        Reason::KingQueen => "king_queen",
        Reason::Sequence => "sequence",
        Reason::AuctionPrice => "auction_price",
        Reason::PaySuitBid => "pay_suit_bid",
        Reason::Bet => "bet",
        Reason::PotWon => "pot_won",
        Reason::Unmatched => "unmatched",
        Reason::Blocked => "blocked",
        Reason::WentOut => "went_out",
        Reason::CardsLeft => "cards_left",
        Reason::Misled => "misled",
        Reason::Withheld => "withheld",
        Reason::PokerPool => "poker_pool",
        Reason::FinalPotGathered => "final_pot_gathered",
        Reason::FinalPot => "final_pot",
    };
    lang.t(
        "term-reason",
        &[("reason", key.into()), ("symbol", symbol.into())],
    )
}

/// Why a run stopped (M5), in words.
pub fn stop_reason(next: Option<Card>, reason: StopReason, ctx: &Context, lang: Lang) -> String {
    let why = match (reason, next) {
        (StopReason::Ace, _) | (_, None) => "ace",
        (StopReason::AlreadyPlayed, Some(_)) => "played",
        (StopReason::NotPlayed, Some(c)) if ctx.spare_known.contains(c) => "spare",
        // Short enough for the layout panel's status line.
        (StopReason::NotPlayed, Some(_)) if ctx.misplays => "spare_or_withheld",
        (StopReason::NotPlayed, Some(_)) => "spare",
    };
    lang.t(
        "term-stop",
        &[
            ("why", why.into()),
            ("card", next.map_or(String::new(), card).into()),
        ],
    )
}

/// A layout space's short label: `A♥`, `K♥Q♥`, `Sequence`.
pub fn space_label(space: Space, pay_suit: Option<Suit>, lang: Lang) -> String {
    let suit = pay_suit.map_or('?', Suit::symbol);
    match space {
        Space::Ace => format!("A{suit}"),
        Space::King => format!("K{suit}"),
        Space::Queen => format!("Q{suit}"),
        Space::Jack => format!("J{suit}"),
        Space::Ten => format!("10{suit}"),
        Space::KingQueen => format!("K{suit}Q{suit}"),
        Space::Sequence | Space::Kitty | Space::Pot => {
            lang.t("space", &[("space", space.key().into())])
        }
    }
}

/// A layout space in a sentence: "the A♥ space", "the Kitty".
pub fn space_words(space: Space, pay_suit: Option<Suit>, lang: Lang) -> String {
    match space {
        Space::Ace | Space::King | Space::Queen | Space::Jack | Space::Ten => lang.t(
            "term-space-card",
            &[("label", space_label(space, pay_suit, lang).into())],
        ),
        Space::KingQueen => lang.t("term-space-king-queen", &[]),
        other => lang.t("account-space", &[("space", other.key().into())]),
    }
}

/// A line cut at spaces into pieces of at most `width` terminal columns
/// (a name in CJK or emoji is wider than its characters), the pieces after
/// the first indented by two spaces.
pub fn wrap(line: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in line.split(' ') {
        let room = if out.is_empty() { width } else { width - 2 };
        let used = tripoley_i18n::names::width(&current);
        if used > 0 && used + 1 + tripoley_i18n::names::width(word) > room {
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

/// The start of `s` that fits in `width` terminal columns (CJK and emoji
/// take two).
pub fn clip(s: &str, width: usize) -> String {
    tripoley_i18n::names::clip(s, width)
}

/// `s` padded with spaces to `width` terminal columns, for a column of
/// names (`{:<n$}` would count characters, not columns).
pub fn pad(s: &str, width: usize) -> String {
    tripoley_i18n::names::pad(s, width)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> Words {
        Words {
            names: vec!["Ann".into(), "Bot 1".into()],
            me: 0,
            lang: Lang::En,
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
        let raise = |seat| Event::Raised {
            seat,
            amount: 15,
            by: 10,
        };
        assert_eq!(
            w.event(&raise(0), &ctx).as_deref(),
            Some("You raise by 10 (you put in 15).")
        );
        assert_eq!(
            w.event(&raise(1), &ctx).as_deref(),
            Some("Bot 1 raises by 10 (puts in 15).")
        );
    }

    #[test]
    fn run_stops_say_why() {
        let ctx = Context::default();
        let six: Card = "6C".parse().expect("a card");
        assert_eq!(
            stop_reason(Some(six), StopReason::AlreadyPlayed, &ctx, Lang::En),
            "6♣ was played earlier"
        );
        assert_eq!(
            stop_reason(None, StopReason::Ace, &ctx, Lang::En),
            "it reached the ace"
        );
        assert_eq!(
            stop_reason(Some(six), StopReason::NotPlayed, &ctx, Lang::En),
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
        // "you" inside the sentence, "You" where a row starts (issue 50).
        assert_eq!(lines[0], "Antes: you 2, Bot 1 1");
        assert_eq!(lines[1], "Bot 1 → You: 4, cards left at going out");
    }

    /// Issue 50: the ledger's amounts are numbers as the language writes
    /// them, as the messages around them do ("20.000", "3000", "3,000").
    #[test]
    fn ledger_amounts_are_written_the_language_s_way() {
        let paid = |amount| Transfer {
            from: Account::Stack(1),
            to: Account::Space(Space::Pot),
            amount,
            reason: Reason::Bet,
        };
        for (lang, amount, want) in [
            (Lang::En, 20_000, "Antes: Bot 1 20,000"),
            (Lang::Es, 20_000, "Apuestas iniciales: Bot 1 20.000"),
            (Lang::Es, 3000, "Apuestas iniciales: Bot 1 3000"),
        ] {
            let w = Words { lang, ..words() };
            let ante = Transfer {
                reason: Reason::Ante,
                ..paid(amount)
            };
            let lines = w.ledger(&[ante, paid(amount)], &Context::default());
            assert_eq!(lines[0], want);
            assert!(
                lines[1].contains(&want[want.rfind(' ').unwrap()..]),
                "{lines:?}"
            );
        }
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
        // Measured in columns: a wide name takes two a character.
        let wide = wrap("Ana 漢字漢字 paga 3 fichas", 10);
        assert_eq!(wide, vec!["Ana", "  漢字漢字", "  paga 3", "  fichas"]);
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

    #[test]
    fn every_stop_reason_fits_the_layout_panel() {
        // At 80 columns the layout panel's inner width is 34 (the players'
        // panel takes 44, the borders 2); "Stopped: " comes first.
        let c = Card::new(Rank::Ten, Suit::Diamonds);
        for misplays in [false, true] {
            for spare_known in [CardSet::EMPTY, CardSet::from_iter([c])] {
                let ctx = Context {
                    pay_suit: Some(Suit::Hearts),
                    deals_total: 4,
                    spare_known,
                    misplays,
                };
                for reason in [
                    StopReason::Ace,
                    StopReason::AlreadyPlayed,
                    StopReason::NotPlayed,
                ] {
                    for lang in Lang::ALL {
                        let stopped = lang.t("term-stopped", &[]);
                        let line =
                            format!("{stopped} {}", stop_reason(Some(c), reason, &ctx, lang));
                        assert!(line.chars().count() <= 34, "{line}");
                    }
                }
            }
        }
    }
}
