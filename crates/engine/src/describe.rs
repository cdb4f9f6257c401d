//! The rules of a table in plain words, generated from [`Rules`] values so
//! the text can never disagree with the engine.
//!
//! Every field of [`Rules`] shows in the text: [`Rules::describe`] takes the
//! struct apart field by field (a new field does not compile until it is
//! described) and matches every enum variant (so does a new variant). An
//! option that has no effect under the other options (the auction's payee
//! when the spare is never used, say) is named at the end of its section,
//! so a house-rule file that sets it can see that it changes nothing.

use std::fmt::Write as _;

use tripoley_cards::{Rank, Suit};

use crate::layout::Space;
use crate::rules::{
    AuctionPays, FinalPot, FirstDealer, FirstLead, LeadColors, MichiganLeader, Misplays, PayCards,
    PaySuitRule, PokerOpener, PokerRule, Preset, Rules, SequenceRule, SpareRule,
};

/// "1 chip", "3 chips".
fn chips(n: u32) -> String {
    if n == 1 {
        "1 chip".to_owned()
    } else {
        format!("{n} chips")
    }
}

/// "1 deal", "4 deals".
fn deals(n: u32) -> String {
    if n == 1 {
        "1 deal".to_owned()
    } else {
        format!("{n} deals")
    }
}

/// The three ranks of a Sequence starting at `low`, as "8-9-10".
fn run_from(low: Rank) -> String {
    match low.next().and_then(|mid| Some((mid, mid.next()?))) {
        Some((mid, high)) => format!("{low}-{mid}-{high}"),
        None => format!("three ranks from {low} (impossible: they would run past the ace)"),
    }
}

/// The TOML value of an option, as a house-rule file writes it.
fn toml_auction_pays(v: AuctionPays) -> &'static str {
    match v {
        AuctionPays::Dealer => "\"dealer\"",
        AuctionPays::Kitty => "\"kitty\"",
    }
}

fn toml_poker_opener(v: PokerOpener) -> &'static str {
    match v {
        PokerOpener::LeftOfDealer => "\"left_of_dealer\"",
        PokerOpener::Dealer => "\"dealer\"",
    }
}

fn toml_max_raises(v: Option<u32>) -> String {
    v.map_or_else(|| "unset (no limit)".to_owned(), |k| k.to_string())
}

/// Text being built: headed sections of one sentence (or rule) per line.
struct Text(String);

impl Text {
    fn heading(&mut self, title: &str) {
        if !self.0.is_empty() {
            self.0.push('\n');
        }
        self.0.push_str(title);
        self.0.push('\n');
    }

    fn line(&mut self, line: impl AsRef<str>) {
        self.0.push_str("  ");
        self.0.push_str(line.as_ref());
        self.0.push('\n');
    }

    /// Options set to a value that changes nothing at this table.
    fn unused(&mut self, why: &str, options: &[String]) {
        if !options.is_empty() {
            self.line(format!(
                "Without effect here ({why}): {}.",
                options.join(", ")
            ));
        }
    }
}

impl Rules {
    /// The rules in plain words, section by section: Table and setup, Spare
    /// hand, Pay cards, Poker, Michigan, End of the game. Each rule names
    /// its id in RULES.md, such as "(T5)".
    ///
    /// Works on any value, valid or not: rules that [`Rules::validate`]
    /// refuses say so in the first lines.
    #[allow(clippy::too_many_lines)] // one sentence per option, in RULES.md order
    pub fn describe(&self) -> String {
        // Taken apart so that a new field must be described to compile.
        let Rules {
            min_players,
            max_players,
            starting_chips,
            first_dealer,
            ante,
            dealer_ante,
            spare,
            bonus_card_limits,
            auction_pays,
            pay_cards,
            pay_suit,
            sequence,
            poker,
            poker_opener,
            bet_limit,
            max_raises,
            ace_always_high,
            michigan_leader,
            first_lead,
            lead_colors,
            misplays,
            final_pot,
            final_pot_rounds,
            deals: deal_count,
        } = *self;

        let mut t = Text(String::new());
        match Preset::ALL.into_iter().find(|&p| Rules::preset(p) == *self) {
            Some(p) => {
                let _ = writeln!(t.0, "The rules of the {p} preset.");
            }
            None => {
                t.0.push_str("House rules (they match none of the five presets).\n");
            }
        }
        if let Err(e) = self.validate() {
            let _ = writeln!(t.0, "These rules cannot be played: {e}");
        }

        let has_pot = poker != PokerRule::None;
        let space_count = Space::ALL
            .into_iter()
            .filter(|&s| has_pot || s != Space::Pot)
            .count() as u32;
        let pay_suit_name = match pay_suit {
            PaySuitRule::Fixed(s) => s.name(),
            PaySuitRule::Auction | PaySuitRule::RandomEachDeal => "the pay suit",
        };
        let final_poker = final_pot != FinalPot::Keep;
        let betting_somewhere = poker == PokerRule::Betting || final_pot == FinalPot::ExtraPoker;
        let poker_somewhere = has_pot || final_poker;

        // ----- Table and setup -----
        t.heading("Table and setup");
        t.line(
            "One 52-card deck, no jokers. Cards rank from 2 (low) up to 10, J, Q, K and A (high). (T1)",
        );
        t.line(format!(
            "Players: {min_players} to {max_players}. Each starts with {}. (T2)",
            chips(starting_chips)
        ));
        match first_dealer {
            FirstDealer::HighCard => t.line(
                "First dealer: everyone draws a card and the highest rank deals (suits do not \
                 count); players tied for highest draw again from a fresh deck. (T3)",
            ),
            FirstDealer::Seat(s) => t.line(format!("First dealer: seat {s}. (T3)")),
        }
        t.line("After each deal the deal passes to the left. (T3)");
        t.line(format!(
            "The layout has {space_count} spaces, in this order: the Ace, King, Queen, Jack and Ten \
             of {pay_suit_name}, the King-Queen of {pay_suit_name}, the Sequence, the Kitty{}. Chips on \
             a space stay there from deal to deal until someone takes them. (T4)",
            if has_pot { " and the Pot" } else { " (no Pot: there is no poker)" }
        ));
        if ante == dealer_ante {
            t.line(format!(
                "Before each deal every player puts {} on each of the {space_count} spaces. (T5)",
                chips(ante)
            ));
        } else {
            t.line(format!(
                "Before each deal every player puts {} on each of the {space_count} spaces (the \
                 dealer puts {}). (T5)",
                chips(ante),
                dealer_ante
            ));
        }
        t.line(format!(
            "A player who cannot pay their whole ante ({} a deal, {} when dealing) is out of the \
             game and keeps the chips they have; if they were to deal, the deal passes left. \
             Play goes on while at least two players remain. (T6)",
            chips(ante * space_count),
            chips(dealer_ante * space_count)
        ));
        t.line(
            "Nobody's stack goes below zero: a payment a player owes is capped at what they have, \
             and nobody can bet more than they have. (T6)",
        );
        t.line(
            "Chips are never created or lost: stacks plus the layout always add up to the chips \
             the game started with. (T7)",
        );
        t.line(
            "When several payments happen at once they go in turn, which matters when a payer \
             runs short: antes and blocked-play payments clockwise from the dealer's left; \
             pay spaces in layout order; a misplay's chips from the leader's left; going out, \
             the Kitty first, then the others from the winner's left; withholders in the order \
             they first withheld; split pots and spaces to the winners from the dealer's left. \
             (T8)",
        );

        // ----- Spare hand -----
        t.heading("Spare hand");
        t.line(
            "The whole deck is dealt one card at a time, clockwise from the player left of the \
             dealer, with one extra hand, the spare, taking its card right after the dealer. \
             The first hands in dealing order may get one card more than the others. (D1)",
        );
        match spare {
            SpareRule::Unused => {
                t.line("The spare hand stays face down all deal: nobody ever sees it. (D2)");
                t.unused(
                    "the spare is never swapped or sold",
                    &[
                        format!("bonus_card_limits = {bonus_card_limits}"),
                        format!("auction_pays = {}", toml_auction_pays(auction_pays)),
                    ],
                );
            }
            SpareRule::DealerSwapOrAuction => {
                t.line(
                    "After looking at their hand, the dealer chooses one of: a) keep it; b) swap \
                     it for the spare, unseen; c) auction the spare, unseen; d) swap, then \
                     auction their old hand. If nobody buys the spare, the dealer may still \
                     swap. Nobody ever swaps back; a hand given up becomes the spare. (D3)",
                );
                let payee = match auction_pays {
                    AuctionPays::Dealer => "to the dealer",
                    AuctionPays::Kitty => "into the Kitty",
                };
                t.line(format!(
                    "Auction: the players other than the dealer bid in turn, clockwise from the \
                     dealer's left, each bid higher than the last (at least 1, at most their \
                     stack), or pass for good. The last bidder left swaps their hand for the \
                     auctioned one and pays the price {payee}; if everybody passes, the hand is \
                     not sold. (D4)"
                ));
                if bonus_card_limits {
                    t.line(format!(
                        "The dealer may swap only if their hand holds no bonus card, and only \
                         players whose hand holds no bonus card may bid. A bonus card is the A, \
                         K, Q, J or 10 of {pay_suit_name}, or a card of a whole Sequence of one \
                         suit held in the hand. (D5)"
                    ));
                } else {
                    t.line(
                        "Anyone may swap or bid, whatever cards they hold (no bonus-card limits). \
                         (D5)",
                    );
                }
                t.line(
                    "The dealer knows the hand they gave up, a buyer knows the hand they gave up, \
                     and nobody else learns anything about the spare. (D6)",
                );
            }
        }

        // ----- Pay cards -----
        t.heading("Pay cards");
        match pay_suit {
            PaySuitRule::Fixed(s) => t.line(format!(
                "The pay suit is {}: its A, K, Q, J and 10 are the pay cards. (H1)",
                s.name()
            )),
            PaySuitRule::Auction => t.line(format!(
                "The pay suit is auctioned once the spare hand is settled: bidding starts with \
                 the dealer and goes round as often as needed until all but one have passed. The \
                 high bidder puts the bid into the Kitty and names the pay suit; if everybody \
                 passes, it is {}. (H8)",
                Suit::Hearts.name()
            )),
            PaySuitRule::RandomEachDeal => t.line(
                "The pay suit is drawn at random before each deal and shown to everyone. (H9)",
            ),
        }
        match sequence {
            SequenceRule::From(low) => t.line(format!(
                "The Sequence is {} of any one suit. (H7)",
                run_from(low)
            )),
            SequenceRule::RandomEachDeal => t.line(
                "The Sequence is three consecutive ranks (Q-K-A at the highest) drawn at random \
                 before each deal and shown to everyone; it may be of any one suit. (H9)",
            ),
        }
        match pay_cards {
            PayCards::Stage1 => {
                t.line(format!(
                    "Stage 1: whoever holds the A, K, Q, J or 10 of {pay_suit_name} shows it and \
                     takes all the chips on its space. The cards shown are public. (H1)"
                ));
                t.line(format!(
                    "A player holding both the K and the Q of {pay_suit_name} also takes the \
                     King-Queen space. (H2)"
                ));
                t.line(
                    "Every player holding the Sequence in one suit claims the Sequence space; \
                     with several claimants each takes an equal share, rounded down, and the \
                     remainder stays on the space. Holding it in two suits still makes one \
                     claimant. (H3)",
                );
                t.line(format!(
                    "Spaces nobody claims keep their chips; the Kitty{} never paid in stage 1. (H4)",
                    if has_pot { " and the Pot are" } else { " is" }
                ));
            }
            PayCards::InPlay => {
                t.line(
                    "There is no stage 1: pay cards are collected in stage 3. A player who plays \
                     a pay card takes its space at once. (H5)",
                );
                t.line(format!(
                    "A player who plays the Q and then the K of {pay_suit_name} as two consecutive \
                     cards takes the King-Queen space; one who plays the three cards of the \
                     Sequence of one suit consecutively takes the Sequence space. \"Consecutive\" \
                     means the very next cards played, all by that player. Pay cards still in a \
                     hand at the end of the deal take nothing. (H6)"
                ));
            }
        }

        // ----- Poker -----
        t.heading("Poker");
        let straights = if ace_always_high {
            "The ace is always high: A-2-3-4-5 is not a straight. (P2)"
        } else {
            "A-2-3-4-5 is the lowest straight. (P2)"
        };
        let opener = match poker_opener {
            PokerOpener::LeftOfDealer => "the player left of the dealer",
            PokerOpener::Dealer => "the dealer",
        };
        let raise_cap = match max_raises {
            None => "there is no limit on the number of raises".to_owned(),
            Some(0) => "no raises are allowed".to_owned(),
            Some(1) => "at most 1 raise is allowed in a round".to_owned(),
            Some(k) => format!("at most {k} raises are allowed in a round"),
        };
        match poker {
            PokerRule::Betting => {
                t.line(
                    "Stage 2: before any betting, each player still in picks exactly five cards \
                     of their hand as their poker hand, not necessarily their best, and sets them \
                     apart face down, in turn from the dealer's left; the bets are on those five, \
                     and nobody learns another player's five until it is shown. (P1)",
                );
                t.line(format!(
                    "Hands rank from straight flush down to high card, ties broken by kickers, \
                     never by suits. {straights}"
                ));
                t.line(format!(
                    "Betting starts with {opener} and goes clockwise. (P3)"
                ));
                t.line(format!(
                    "With no bet yet a player checks or bets 1 to {bet_limit}; after a bet a \
                     player folds, calls, or raises by 1 to {bet_limit} on top of the call; \
                     {raise_cap}. (P4)"
                ));
                t.line(
                    "All bets go on the Pot. If all but one fold, that player takes the Pot and \
                     nobody shows; otherwise the round ends when everyone still in has put in the \
                     same and acted since the last bet or raise. (P5)",
                );
                t.line(
                    "At the showdown the best hand takes the whole Pot; equal best hands split \
                     it and the remainder stays. Hands are shown from the last player who bet or \
                     raised (the opener if nobody did), clockwise; folded hands are never shown. \
                     (P6)",
                );
                t.line(
                    "A player who cannot match a bet may call with all they have; the others' \
                     excess makes side pots. Chips already on the Pot belong to the main pot. (P7)",
                );
                t.line("Cards shown at the showdown are public for the rest of the deal. (P8)");
            }
            PokerRule::PoolAfterMichigan => {
                t.line(
                    "There is no betting. After stage 3, the best five cards of the hand each \
                     player held when stage 3 began (chosen for them) are compared, and the best \
                     takes the Pot space, the Poker Pool; equal best hands split it and the \
                     remainder stays. (P9)",
                );
                t.line(format!(
                    "Hands rank from straight flush down to high card, ties broken by kickers, \
                     never by suits. {straights}"
                ));
            }
            PokerRule::None => {
                t.line("There is no poker in the deals and no Pot space. (T4)");
                if final_poker {
                    t.line(format!("For the final pot: {straights}"));
                }
            }
        }
        if !betting_somewhere {
            t.unused(
                "nobody bets at this table",
                &[
                    format!("poker_opener = {}", toml_poker_opener(poker_opener)),
                    format!("bet_limit = {bet_limit}"),
                    format!("max_raises = {}", toml_max_raises(max_raises)),
                ],
            );
        } else if poker != PokerRule::Betting {
            t.line(format!(
                "In the final pot, betting starts with {opener}; bets are 1 to {bet_limit} and \
                 {raise_cap}. (P3, P4)"
            ));
        }
        if !poker_somewhere {
            t.unused(
                "no poker hands are compared",
                &[format!("ace_always_high = {ace_always_high}")],
            );
        }

        // ----- Michigan -----
        t.heading("Michigan");
        t.line("Stage 3: every player takes back their whole hand. (M1)");
        match michigan_leader {
            MichiganLeader::PokerWinner => t.line(
                "The winner of the poker pot leads first (with side pots, the winner of the main \
                 pot; with a split pot, the first winner clockwise from the dealer's left). (M2)",
            ),
            MichiganLeader::Dealer => t.line("The dealer leads first. (M2)"),
            MichiganLeader::LeftOfDealer => {
                t.line("The player left of the dealer leads first. (M2)");
            }
        }
        t.line("A lead is the lowest card the leader holds in the suit they choose. (M3)");
        match first_lead {
            FirstLead::Any => t.line("The first lead of a deal is like any other. (M3)"),
            FirstLead::LowestOverall => t.line(
                "The first lead of a deal is the lowest card in the leader's hand; with equally \
                 low cards in several suits, the leader picks. (M3)",
            ),
            FirstLead::LowestBlack => t.line(
                "The first lead of a deal is the leader's lowest black card; if they hold none, \
                 the turn passes left, and if nobody holds one, play ends blocked. (M3)",
            ),
        }
        match misplays {
            Misplays::Forbidden => t.line(
                "Then whoever holds the next higher card of the same suit plays it, and so on; \
                 these cards are played for them. (M4)",
            ),
            Misplays::Penalised => t.line(
                "Then whoever holds the next higher card of the same suit plays it, and so on; \
                 the holder may also withhold it (see M9). (M4)",
            ),
        }
        t.line(
            "A run stops at an ace, or when the next card is in nobody's hand (it is in the spare \
             or was played earlier). The player of the last card leads next. (M5)",
        );
        match lead_colors {
            LeadColors::OtherSuit => t.line(
                "After a stop the lead is any suit but the one just played. If the leader holds \
                 only that suit, the turn to lead passes left to the first player holding another \
                 suit; if nobody does, play ends blocked. (M5)",
            ),
            LeadColors::Alternate => t.line(
                "After a stop the lead must be a suit of the other colour than the one just \
                 stopped (the leader picks the suit). If the leader holds none, the turn passes \
                 left; if no player holds that colour, the stop player leads again with any suit, \
                 the one just stopped included. (M6)",
            ),
            LeadColors::StrictAlternate => t.line(
                "After a stop the lead is the leader's lowest card of the other colour than the \
                 one just stopped (with equally low cards in both suits, the leader picks). If the \
                 leader holds none, the turn passes left; if nobody holds that colour, play ends \
                 blocked. (M6)",
            ),
        }
        t.line(
            "When play ends blocked, every player puts 1 chip per card they still hold into the \
             Kitty, which stays for the next deal. (M5)",
        );
        t.line(
            "The first player to play their last card ends play at once: they take the whole \
             Kitty and 1 chip for every card each other player still holds, from that player. (M7)",
        );
        match pay_cards {
            PayCards::InPlay => t.line(
                "Pay cards, King-Queen and the Sequence are collected as they are played (H5, H6). \
                 (M8)",
            ),
            PayCards::Stage1 => {
                t.line("Pay cards played here collect nothing: they were paid in stage 1. (M8)");
            }
        }
        match misplays {
            Misplays::Forbidden => t.line(
                "No misplays: every lead is the lowest card of its suit and following is \
                 automatic. Only leaders choose (which suit). (M9, M10)",
            ),
            Misplays::Penalised => {
                t.line(
                    "Misplays are allowed at a price. a) Leading a card that is not the lowest of \
                     its suit: the leader pays 1 chip to each other player still in the game at \
                     once and can collect no pay space for the rest of the deal. (M9a)",
                );
                t.line(
                    "b) Withholding the next card when it is yours to play stops the run: the \
                     withholder collects no pay space for the rest of the deal; once stage 3 is \
                     settled, for every A, K, Q, J or 10 space still holding chips whose card is \
                     of a suit they withheld in and is still in another player's hand, the \
                     withholder pays that player the chips on that space. A withholder who plays \
                     their last card collects nothing for going out, and play goes on without \
                     them. (M9b)",
                );
                t.line(format!(
                    "Settlement order: stage 3 (going out or blocked), then the withholding \
                     payments{}. Leaders choose their suit and whether to misplay; whoever holds \
                     the next card chooses to play or withhold it. (M9, M10)",
                    if poker == PokerRule::PoolAfterMichigan {
                        ", then the Poker Pool"
                    } else {
                        ""
                    }
                ));
            }
        }

        // ----- End of the game -----
        t.heading("End of the game");
        match deal_count {
            None => t.line(
                "A game is one round: as many deals as there were players at the start, unless \
                 the table stops earlier or fewer than two players remain. (E1)",
            ),
            Some(k) => t.line(format!(
                "A game is {}, unless the table stops earlier or fewer than two players remain. \
                 (E1)",
                deals(k)
            )),
        }
        let split = match final_pot_rounds {
            1 => " as one pot".to_owned(),
            k => format!(
                ", split into {k} equal pots played one after another (the remainder goes to the \
                 last)"
            ),
        };
        match final_pot {
            FinalPot::ExtraPoker => t.line(format!(
                "Chips left on the layout at the end are played for{split}: five cards each from \
                 a freshly shuffled deck and a betting round as in stage 2, with no new antes; \
                 the winner takes the pot. (E2)"
            )),
            FinalPot::ShowdownPoker => t.line(format!(
                "Chips left on the layout at the end are played for{split}: five cards face up \
                 to each player from a freshly shuffled deck, no betting; the best hand takes \
                 the pot. (E2)"
            )),
            FinalPot::Keep => {
                t.line("Chips left on the layout at the end stay there and count for nobody. (E2)");
            }
        }
        if final_poker {
            t.line(
                "Players who are out take no part; equal best hands split, the remainder going \
                 to the first tied player left of the last deal's dealer. The deal goes on \
                 passing left: the first final pot is dealt by the player left of the last \
                 deal's dealer, each further one by the next player on the left, one card at a \
                 time from the dealer's left. (E2)",
            );
        } else {
            t.unused(
                "no final pot is played",
                &[format!("final_pot_rounds = {final_pot_rounds}")],
            );
        }
        t.line(
            "The player with the most chips wins; players who went out count with the chips \
             they kept, and equal stacks share the win. (E3)",
        );
        t.0
    }
}

#[cfg(test)]
mod tests {
    use tripoley_cards::{Rank, Suit};

    use crate::rules::{
        AuctionPays, FinalPot, FirstDealer, FirstLead, LeadColors, MichiganLeader, Misplays,
        PayCards, PaySuitRule, PokerOpener, PokerRule, Preset, Rules, SequenceRule, SpareRule,
    };

    fn each_preset() -> impl Iterator<Item = (Preset, Rules)> {
        Preset::ALL.into_iter().map(|p| (p, Rules::preset(p)))
    }

    /// The text of `rules` after `change`, which must differ from before.
    fn changed(rules: &Rules, change: impl FnOnce(&mut Rules)) -> String {
        let mut r = rules.clone();
        change(&mut r);
        let text = r.describe();
        assert_ne!(text, rules.describe(), "{r:?}");
        text
    }

    #[test]
    fn describe_has_the_six_sections_in_order_for_every_preset() {
        for (p, r) in each_preset() {
            let text = r.describe();
            let mut at = 0;
            for h in [
                "\nTable and setup\n",
                "\nSpare hand\n",
                "\nPay cards\n",
                "\nPoker\n",
                "\nMichigan\n",
                "\nEnd of the game\n",
            ] {
                let found = text[at..].find(h).unwrap_or_else(|| panic!("{p}: {h}"));
                at += found + h.len();
            }
            assert!(text.starts_with(&format!("The rules of the {p} preset.\n")));
            assert!(!text.contains("cannot be played"), "{p}");
        }
    }

    #[test]
    fn describe_marks_house_rules_and_invalid_ones() {
        let mut r = Rules::preset(Preset::Pagat);
        r.starting_chips = 250;
        let text = r.describe();
        assert!(text.starts_with("House rules"));
        r.final_pot_rounds = 0;
        assert!(r.describe().contains("cannot be played: final_pot_rounds"));
    }

    /// Every field of `Rules` changes the text, under every preset.
    #[test]
    #[allow(clippy::too_many_lines)] // one change per field
    fn every_field_influences_the_text_of_every_preset() {
        type Change = fn(&mut Rules);
        let changes: [(&str, Change); 24] = [
            ("min_players", |r| r.min_players += 1),
            ("max_players", |r| r.max_players -= 1),
            ("starting_chips", |r| r.starting_chips += 17),
            ("first_dealer", |r| {
                r.first_dealer = match r.first_dealer {
                    FirstDealer::HighCard => FirstDealer::Seat(1),
                    FirstDealer::Seat(_) => FirstDealer::HighCard,
                }
            }),
            ("ante", |r| r.ante += 2),
            ("dealer_ante", |r| r.dealer_ante += 3),
            ("spare", |r| {
                r.spare = match r.spare {
                    SpareRule::Unused => SpareRule::DealerSwapOrAuction,
                    SpareRule::DealerSwapOrAuction => SpareRule::Unused,
                }
            }),
            ("bonus_card_limits", |r| {
                r.bonus_card_limits = !r.bonus_card_limits;
            }),
            ("auction_pays", |r| {
                r.auction_pays = match r.auction_pays {
                    AuctionPays::Dealer => AuctionPays::Kitty,
                    AuctionPays::Kitty => AuctionPays::Dealer,
                }
            }),
            ("pay_cards", |r| {
                r.pay_cards = match r.pay_cards {
                    PayCards::Stage1 => PayCards::InPlay,
                    PayCards::InPlay => PayCards::Stage1,
                }
            }),
            ("pay_suit", |r| {
                r.pay_suit = match r.pay_suit {
                    PaySuitRule::Fixed(Suit::Hearts) => PaySuitRule::Fixed(Suit::Spades),
                    _ => PaySuitRule::Fixed(Suit::Hearts),
                }
            }),
            ("sequence", |r| {
                r.sequence = match r.sequence {
                    SequenceRule::From(Rank::Six) => SequenceRule::From(Rank::Eight),
                    _ => SequenceRule::From(Rank::Six),
                }
            }),
            ("poker", |r| {
                r.poker = match r.poker {
                    PokerRule::Betting => PokerRule::PoolAfterMichigan,
                    _ => PokerRule::Betting,
                }
            }),
            ("poker_opener", |r| {
                r.poker_opener = match r.poker_opener {
                    PokerOpener::LeftOfDealer => PokerOpener::Dealer,
                    PokerOpener::Dealer => PokerOpener::LeftOfDealer,
                }
            }),
            ("bet_limit", |r| r.bet_limit += 5),
            ("max_raises", |r| {
                r.max_raises = match r.max_raises {
                    None => Some(3),
                    Some(_) => None,
                }
            }),
            ("ace_always_high", |r| {
                r.ace_always_high = !r.ace_always_high;
            }),
            ("michigan_leader", |r| {
                r.michigan_leader = match r.michigan_leader {
                    MichiganLeader::Dealer => MichiganLeader::LeftOfDealer,
                    MichiganLeader::PokerWinner | MichiganLeader::LeftOfDealer => {
                        MichiganLeader::Dealer
                    }
                }
            }),
            ("first_lead", |r| {
                r.first_lead = match r.first_lead {
                    FirstLead::Any => FirstLead::LowestOverall,
                    FirstLead::LowestOverall | FirstLead::LowestBlack => FirstLead::Any,
                }
            }),
            ("lead_colors", |r| {
                r.lead_colors = match r.lead_colors {
                    LeadColors::OtherSuit => LeadColors::Alternate,
                    LeadColors::Alternate | LeadColors::StrictAlternate => LeadColors::OtherSuit,
                }
            }),
            ("misplays", |r| {
                r.misplays = match r.misplays {
                    Misplays::Forbidden => Misplays::Penalised,
                    Misplays::Penalised => Misplays::Forbidden,
                }
            }),
            ("final_pot", |r| {
                r.final_pot = match r.final_pot {
                    FinalPot::Keep => FinalPot::ShowdownPoker,
                    FinalPot::ExtraPoker | FinalPot::ShowdownPoker => FinalPot::Keep,
                }
            }),
            ("final_pot_rounds", |r| r.final_pot_rounds += 1),
            ("deals", |r| {
                r.deals = match r.deals {
                    None => Some(12),
                    Some(_) => None,
                }
            }),
        ];
        for (p, r) in each_preset() {
            for (field, change) in changes {
                let mut c = r.clone();
                change(&mut c);
                assert_ne!(c, r, "{p}: {field} did not change");
                assert_ne!(
                    c.describe(),
                    r.describe(),
                    "{p}: changing {field} does not change the description"
                );
            }
        }
    }

    #[test]
    fn t1_describe_names_the_deck_and_rank_order() {
        for (_, r) in each_preset() {
            assert!(r.describe().contains("One 52-card deck, no jokers"));
        }
    }

    #[test]
    fn t2_describe_states_players_and_starting_chips() {
        for (p, r) in each_preset() {
            let text = r.describe();
            let want = if p == Preset::MichiganCasino {
                "Players: 3 to 8. Each starts with 100 chips. (T2)"
            } else {
                "Players: 2 to 9. Each starts with 100 chips. (T2)"
            };
            assert!(text.contains(want), "{p}");
            let text = changed(&r, |r| {
                r.min_players = 4;
                r.max_players = 6;
                r.starting_chips = 1;
            });
            assert!(text.contains("Players: 4 to 6. Each starts with 1 chip. (T2)"));
        }
    }

    #[test]
    fn t3_describe_first_dealer_draw_or_seat() {
        for (p, r) in each_preset() {
            assert!(r.describe().contains("highest rank deals"), "{p}");
            let text = changed(&r, |r| r.first_dealer = FirstDealer::Seat(2));
            assert!(text.contains("First dealer: seat 2. (T3)"));
            assert!(!text.contains("highest rank deals"));
        }
    }

    #[test]
    fn t4_describe_layout_has_nine_spaces_or_eight_without_poker() {
        for (p, r) in each_preset() {
            let text = r.describe();
            if p == Preset::Cosmo {
                assert!(text.contains("The layout has 8 spaces"), "{p}");
                assert!(text.contains("no Pot"), "{p}");
            } else {
                assert!(text.contains("The layout has 9 spaces"), "{p}");
                assert!(text.contains("the Kitty and the Pot."), "{p}");
            }
        }
    }

    #[test]
    fn t5_describe_mentions_dealer_double_ante() {
        for (p, r) in each_preset() {
            let text = r.describe();
            let spaces = if p == Preset::Cosmo { 8 } else { 9 };
            let each = format!("every player puts 1 chip on each of the {spaces} spaces");
            assert!(text.contains(&each), "{p}");
            assert_eq!(
                text.contains("(the dealer puts 2)"),
                p == Preset::MichiganCasino,
                "{p}"
            );
            let text = changed(&r, |r| {
                r.ante = 3;
                r.dealer_ante = 5;
            });
            assert!(text.contains(&format!(
                "every player puts 3 chips on each of the {spaces} spaces (the dealer puts 5)"
            )));
            let text = changed(&r, |r| {
                r.ante = 2;
                r.dealer_ante = 2;
            });
            assert!(!text.contains("the dealer puts"));
        }
    }

    #[test]
    fn t6_describe_says_what_an_ante_costs_and_who_goes_out() {
        for (p, r) in each_preset() {
            let spaces = if p == Preset::Cosmo { 8 } else { 9 };
            let dealer = if p == Preset::MichiganCasino {
                18
            } else {
                spaces
            };
            assert!(
                r.describe().contains(&format!(
                    "({spaces} chips a deal, {dealer} chips when dealing) is out of the game"
                )),
                "{p}"
            );
        }
    }

    #[test]
    fn d2_d3_describe_spare_unused_or_dealer_options() {
        for (p, r) in each_preset() {
            let text = r.describe();
            let unused = matches!(p, Preset::Tripoley | Preset::Cosmo);
            assert_eq!(text.contains("nobody ever sees it. (D2)"), unused, "{p}");
            assert_eq!(text.contains("auction the spare, unseen"), !unused, "{p}");
            let flipped = changed(&r, |r| {
                r.spare = if unused {
                    SpareRule::DealerSwapOrAuction
                } else {
                    SpareRule::Unused
                };
            });
            assert_eq!(flipped.contains("auction the spare, unseen"), unused, "{p}");
        }
    }

    #[test]
    fn d4_describe_auction_payee() {
        for (p, r) in each_preset() {
            let mut r = r;
            r.spare = SpareRule::DealerSwapOrAuction;
            r.auction_pays = AuctionPays::Dealer;
            assert!(r.describe().contains("pays the price to the dealer"), "{p}");
            let text = changed(&r, |r| r.auction_pays = AuctionPays::Kitty);
            assert!(text.contains("pays the price into the Kitty"), "{p}");
        }
    }

    #[test]
    fn d5_describe_bonus_card_limits_only_for_the_casino() {
        for (p, r) in each_preset() {
            let text = r.describe();
            assert_eq!(
                text.contains("only players whose hand holds no bonus card may bid"),
                p == Preset::MichiganCasino,
                "{p}"
            );
        }
        let r = Rules::preset(Preset::Tripoley);
        assert!(r.describe().contains(
            "Without effect here (the spare is never swapped or sold): bonus_card_limits = false, \
             auction_pays = \"dealer\"."
        ));
    }

    #[test]
    fn h1_h4_describe_stage1_or_in_play() {
        for (p, r) in each_preset() {
            let text = r.describe();
            let stage1 = matches!(p, Preset::Pagat | Preset::Tripoley);
            assert_eq!(text.contains("Stage 1: whoever holds"), stage1, "{p}");
            assert_eq!(text.contains("There is no stage 1"), !stage1, "{p}");
            let flipped = changed(&r, |r| {
                r.pay_cards = if stage1 {
                    PayCards::InPlay
                } else {
                    PayCards::Stage1
                };
            });
            assert_eq!(flipped.contains("Stage 1: whoever holds"), !stage1, "{p}");
        }
    }

    #[test]
    fn h7_describe_sequence_ranks() {
        for (p, r) in each_preset() {
            let text = r.describe();
            let want = match p {
                Preset::MichiganCasino => "The Sequence is 7-8-9 of any one suit.",
                Preset::Cosmo => "drawn at random before each deal",
                _ => "The Sequence is 8-9-10 of any one suit.",
            };
            assert!(text.contains(want), "{p}");
            let text = changed(&r, |r| r.sequence = SequenceRule::From(Rank::Queen));
            assert!(
                text.contains("The Sequence is Q-K-A of any one suit."),
                "{p}"
            );
        }
        let mut r = Rules::preset(Preset::Pagat);
        r.sequence = SequenceRule::From(Rank::King);
        assert!(r.describe().contains("impossible"));
    }

    #[test]
    fn h8_describe_pay_suit_auction() {
        for (p, r) in each_preset() {
            assert!(!r.describe().contains("(H8)"), "{p}");
            let text = changed(&r, |r| {
                r.pay_cards = PayCards::InPlay;
                r.pay_suit = PaySuitRule::Auction;
            });
            assert!(text.contains("The pay suit is auctioned"), "{p}");
            assert!(
                text.contains("if everybody passes, it is hearts. (H8)"),
                "{p}"
            );
        }
    }

    #[test]
    fn h9_describe_cosmo_draws_pay_suit_and_sequence() {
        for (p, r) in each_preset() {
            let text = r.describe();
            assert_eq!(
                text.contains("The pay suit is drawn at random before each deal"),
                p == Preset::Cosmo,
                "{p}"
            );
            assert_eq!(
                text.contains("The pay suit is hearts: its A, K, Q, J and 10"),
                p != Preset::Cosmo,
                "{p}"
            );
            let text = changed(&r, |r| r.pay_suit = PaySuitRule::Fixed(Suit::Diamonds));
            assert!(text.contains("The pay suit is diamonds: its A, K, Q, J and 10"));
            assert!(text.contains("the Ace, King, Queen, Jack and Ten of diamonds"));
        }
    }

    #[test]
    fn p2_describe_ace_always_high() {
        for (p, r) in each_preset() {
            let text = r.describe();
            match p {
                Preset::MichiganCasino => assert!(text.contains("A-2-3-4-5 is not a straight")),
                Preset::Cosmo => {
                    assert!(text.contains("ace_always_high = false"));
                    assert!(!text.contains("straight."));
                }
                _ => assert!(text.contains("A-2-3-4-5 is the lowest straight"), "{p}"),
            }
        }
    }

    #[test]
    fn p3_describe_poker_opener() {
        for (p, r) in each_preset() {
            let text = r.describe();
            match p {
                Preset::Pagat | Preset::Rummoli => {
                    assert!(text.contains("Betting starts with the player left of the dealer"));
                }
                Preset::Tripoley => assert!(text.contains("Betting starts with the dealer")),
                Preset::MichiganCasino | Preset::Cosmo => {
                    assert!(!text.contains("Betting starts"), "{p}");
                }
            }
            let (to, want) = if r.poker_opener == PokerOpener::Dealer {
                (PokerOpener::LeftOfDealer, "the player left of the dealer")
            } else {
                (PokerOpener::Dealer, "the dealer and")
            };
            let text = changed(&r, |r| {
                r.poker = PokerRule::Betting;
                r.poker_opener = to;
            });
            assert!(text.contains(&format!("Betting starts with {want}")), "{p}");
        }
    }

    #[test]
    fn p4_describe_bet_limit_and_raise_cap() {
        for (p, r) in each_preset() {
            let mut r = r;
            r.poker = PokerRule::Betting;
            let text = r.describe();
            assert!(text.contains("bets 1 to 10"), "{p}");
            assert!(text.contains("no limit on the number of raises"), "{p}");
            let text = changed(&r, |r| {
                r.bet_limit = 4;
                r.max_raises = Some(2);
            });
            assert!(text.contains("bets 1 to 4"), "{p}");
            assert!(text.contains("at most 2 raises"), "{p}");
        }
    }

    #[test]
    fn p9_describe_poker_pool_without_betting() {
        for (p, r) in each_preset() {
            let text = r.describe();
            assert_eq!(
                text.contains("the Poker Pool"),
                p == Preset::MichiganCasino,
                "{p}"
            );
            assert_eq!(
                text.contains("There is no poker"),
                p == Preset::Cosmo,
                "{p}"
            );
        }
        let text = Rules::preset(Preset::MichiganCasino).describe();
        assert!(text.contains("Without effect here (nobody bets at this table)"));
        assert!(text.contains("then the Poker Pool"));
    }

    #[test]
    fn m2_describe_first_leader() {
        for (p, r) in each_preset() {
            let text = r.describe();
            let want = match p {
                Preset::Pagat | Preset::Rummoli => "The winner of the poker pot leads first",
                Preset::Tripoley => "The dealer leads first.",
                Preset::MichiganCasino | Preset::Cosmo => {
                    "The player left of the dealer leads first."
                }
            };
            assert!(text.contains(want), "{p}");
        }
    }

    #[test]
    fn m3_describe_first_lead() {
        for (p, r) in each_preset() {
            let text = r.describe();
            let want = match p {
                Preset::Tripoley => "the lowest card in the leader's hand",
                Preset::Cosmo => "the leader's lowest black card",
                _ => "The first lead of a deal is like any other.",
            };
            assert!(text.contains(want), "{p}");
            let (to, now) = if p == Preset::Cosmo {
                (
                    FirstLead::Any,
                    "The first lead of a deal is like any other.",
                )
            } else {
                (FirstLead::LowestBlack, "the leader's lowest black card")
            };
            let text = changed(&r, |r| r.first_lead = to);
            assert!(text.contains(now), "{p}");
            assert!(!text.contains(want), "{p}");
        }
    }

    #[test]
    fn m5_m6_describe_lead_colours() {
        for (p, r) in each_preset() {
            let text = r.describe();
            let want = match p {
                Preset::MichiganCasino => "the stop player leads again with any suit",
                Preset::Cosmo => "lowest card of the other colour",
                _ => "any suit but the one just played",
            };
            assert!(text.contains(want), "{p}");
            assert!(text.contains("into the Kitty, which stays for the next deal. (M5)"));
        }
    }

    #[test]
    fn m7_describe_going_out() {
        for (_, r) in each_preset() {
            assert!(r.describe().contains("they take the whole Kitty"));
        }
    }

    #[test]
    fn m9_describe_penalised_misplays() {
        for (p, r) in each_preset() {
            let text = r.describe();
            let penalised = p == Preset::MichiganCasino;
            assert_eq!(text.contains("(M9a)"), penalised, "{p}");
            assert_eq!(text.contains("No misplays"), !penalised, "{p}");
            let flipped = changed(&r, |r| {
                r.misplays = if penalised {
                    Misplays::Forbidden
                } else {
                    Misplays::Penalised
                };
            });
            assert_eq!(flipped.contains("(M9b)"), !penalised, "{p}");
        }
    }

    #[test]
    fn e1_describe_number_of_deals() {
        for (p, r) in each_preset() {
            assert!(r.describe().contains("A game is one round"), "{p}");
            assert!(changed(&r, |r| r.deals = Some(1)).contains("A game is 1 deal,"));
            assert!(changed(&r, |r| r.deals = Some(7)).contains("A game is 7 deals,"));
        }
    }

    #[test]
    fn e2_describe_final_pot() {
        for (p, r) in each_preset() {
            let text = r.describe();
            let want = match p {
                Preset::Pagat | Preset::Rummoli => "a betting round as in stage 2",
                Preset::Tripoley | Preset::MichiganCasino => "five cards face up",
                Preset::Cosmo => "stay there and count for nobody",
            };
            assert!(text.contains(want), "{p}");
            if p == Preset::Cosmo {
                assert!(text.contains("final_pot_rounds = 1"));
            } else {
                assert!(text.contains("played for as one pot"), "{p}");
                let text = changed(&r, |r| r.final_pot_rounds = 3);
                assert!(text.contains("split into 3 equal pots"), "{p}");
            }
        }
    }

    #[test]
    fn e3_describe_winner() {
        for (_, r) in each_preset() {
            assert!(r.describe().contains("The player with the most chips wins"));
        }
    }
}
