//! The rules of a table in plain words, in English or Spanish, generated
//! from [`Rules`] values so the text can never disagree with the engine.
//!
//! The engine holds the rules as values and stays free of wording; the
//! sentences are messages of `locales/<lang>/rules.ftl`, chosen here by
//! the values. Every field of [`Rules`] shows in the text: [`describe`]
//! takes the struct apart field by field (a new field does not compile
//! until it is described) and matches every enum variant (so does a new
//! variant). An option that has no effect under the other options (the
//! auction's payee when the spare is never used, say) is named at the end
//! of its section, so a house-rule file that sets it can see that it
//! changes nothing. Each rule ends with its id in RULES.md, such as "(T5)".

use tripoley_cards::Suit;
use tripoley_engine::{
    AuctionPays, FinalPot, FirstDealer, FirstLead, LeadColors, MichiganLeader, Misplays, PayCards,
    PaySuitRule, PokerOpener, PokerRule, Preset, Rules, SequenceRule, Space, SpareRule,
};
use tripoley_napalm::NapalmRules;

use crate::{Lang, Value};

/// Text being built: headed sections of one sentence (or rule) per line.
struct Text {
    lang: Lang,
    out: String,
    /// Whether to name the options that change nothing here: a house-rule
    /// file's author needs them, players at a table do not.
    options: bool,
}

impl Text {
    fn new(lang: Lang, options: bool) -> Text {
        Text {
            lang,
            out: String::new(),
            options,
        }
    }

    fn t(&self, id: &str, args: &[(&str, Value<'_>)]) -> String {
        self.lang.t(id, args)
    }

    fn heading(&mut self, id: &str) {
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        let title = self.t(id, &[]);
        self.out.push_str(&title);
        self.out.push('\n');
    }

    /// A rule: the message `id` and, after it, the rule ids it states.
    fn rule(&mut self, id: &str, args: &[(&str, Value<'_>)], refs: &str) {
        let line = self.t(id, args);
        self.line(&line, refs);
    }

    fn line(&mut self, line: &str, refs: &str) {
        self.out.push_str("  ");
        self.out.push_str(line);
        if !refs.is_empty() {
            self.out.push_str(" (");
            self.out.push_str(refs);
            self.out.push(')');
        }
        self.out.push('\n');
    }

    /// Options set to a value that changes nothing at this table (named as a
    /// house-rule file writes them, which is the same in every language).
    fn unused(&mut self, why: &str, options: &[String]) {
        if self.options && !options.is_empty() {
            let why = self.t(why, &[]);
            self.rule(
                "rules-unused",
                &[("why", why.into()), ("options", options.join(", ").into())],
                "",
            );
        }
    }

    fn chips(&self, n: u32) -> String {
        self.t("words-chips", &[("n", n.into())])
    }
}

/// T5 with chips of different values: the spaces named, then the others,
/// then what the dealer adds.
fn t5_space_antes(t: &mut Text, rules: &Rules, space_count: u32) {
    let named: Vec<String> = rules
        .space_antes
        .iter()
        .filter(|(space, _)| rules.spaces().contains(space))
        .map(|(space, &chips)| {
            let chips = t.chips(chips);
            let space = t.t("account-space", &[("space", space.key().into())]);
            t.t(
                "rules-t5-on-space",
                &[("chips", chips.into()), ("space", space.into())],
            )
        })
        .collect();
    let others = space_count.saturating_sub(named.len() as u32);
    let (dealer, by) = match rules.dealer_ante.cmp(&rules.ante) {
        std::cmp::Ordering::Equal => ("same", 0),
        std::cmp::Ordering::Greater => ("more", rules.dealer_ante - rules.ante),
        std::cmp::Ordering::Less => ("less", rules.ante - rules.dealer_ante),
    };
    let (chips, by) = (t.chips(rules.ante), t.chips(by));
    t.rule(
        "rules-t5-spaces",
        &[
            ("named", named.join(", ").into()),
            ("others", others.into()),
            ("chips", chips.into()),
            ("dealer", dealer.into()),
            ("by", by.into()),
        ],
        "T5",
    );
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

/// The rules of a Tripoley table in plain words, section by section: Table
/// and setup, Spare hand, Pay cards, Poker, Michigan, End of the game; with
/// the options that change nothing under the others named at the end of
/// their section (what `tripoley rules` prints).
///
/// Works on any value, valid or not: rules that [`Rules::validate`]
/// refuses say so in the first lines (with the engine's reason, which is
/// English).
pub fn describe(rules: &Rules, lang: Lang) -> String {
    describe_with(rules, lang, true)
}

/// [`describe`] for the players at a table: without the lines naming
/// options that change nothing there (they are named by their settings).
pub fn describe_for_players(rules: &Rules, lang: Lang) -> String {
    describe_with(rules, lang, false)
}

#[allow(clippy::too_many_lines)] // one sentence per option, in RULES.md order
fn describe_with(rules: &Rules, lang: Lang, options: bool) -> String {
    // Taken apart so that a new field must be described to compile.
    let Rules {
        min_players,
        max_players,
        starting_chips,
        first_dealer,
        ante,
        dealer_ante,
        ref space_antes,
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
    } = *rules;

    let mut t = Text::new(lang, options);
    let head = match Preset::ALL
        .into_iter()
        .find(|&p| Rules::preset(p) == *rules)
    {
        Some(p) => t.t("rules-preset", &[("preset", p.name().into())]),
        None => t.t("rules-house", &[]),
    };
    t.out.push_str(&head);
    t.out.push('\n');
    if let Err(e) = rules.validate() {
        let why = t.t("rules-invalid", &[("error", e.to_string().into())]);
        t.out.push_str(&why);
        t.out.push('\n');
    }

    let has_pot = poker != PokerRule::None;
    let space_count = Space::ALL
        .into_iter()
        .filter(|&s| has_pot || s != Space::Pot)
        .count() as u32;
    // "of hearts", or "of the pay suit" when it changes from deal to deal.
    let suit = t.t(
        "rules-of-suit",
        &[(
            "suit",
            match pay_suit {
                PaySuitRule::Fixed(s) => s.name(),
                PaySuitRule::Auction | PaySuitRule::RandomEachDeal => "any",
            }
            .into(),
        )],
    );
    let suit = suit.as_str();
    let final_poker = final_pot != FinalPot::Keep;
    let betting_somewhere = poker == PokerRule::Betting || final_pot == FinalPot::ExtraPoker;
    let poker_somewhere = has_pot || final_poker;
    let yes_no = |b: bool| if b { "yes" } else { "no" };

    // ----- Table and setup -----
    t.heading("rules-heading-setup");
    t.rule("rules-t1", &[], "T1");
    let start = t.chips(starting_chips);
    t.rule(
        "rules-t2",
        &[
            ("min", min_players.into()),
            ("max", max_players.into()),
            ("chips", start.into()),
        ],
        "T2",
    );
    match first_dealer {
        FirstDealer::HighCard => t.rule("rules-t3-draw", &[], "T3"),
        FirstDealer::Seat(s) => t.rule("rules-t3-seat", &[("seat", s.into())], "T3"),
    }
    t.rule("rules-t3-passes", &[], "T3");
    t.rule(
        "rules-t4",
        &[
            ("spaces", space_count.into()),
            ("of_suit", suit.into()),
            ("pot", yes_no(has_pot).into()),
        ],
        "T4",
    );
    let each = t.chips(ante);
    if !space_antes.is_empty() {
        t5_space_antes(&mut t, rules, space_count);
    } else if ante == dealer_ante {
        t.rule(
            "rules-t5",
            &[("chips", each.into()), ("spaces", space_count.into())],
            "T5",
        );
    } else {
        t.rule(
            "rules-t5-dealer",
            &[
                ("chips", each.into()),
                ("spaces", space_count.into()),
                ("dealer", dealer_ante.into()),
            ],
            "T5",
        );
    }
    let full = |dealer| u32::try_from(rules.full_ante(dealer)).unwrap_or(u32::MAX);
    let (a_deal, dealing) = (t.chips(full(false)), t.chips(full(true)));
    t.rule(
        "rules-t6-out",
        &[("deal", a_deal.into()), ("dealing", dealing.into())],
        "T6",
    );
    t.rule("rules-t6-zero", &[], "T6");
    t.rule("rules-t7", &[], "T7");
    t.rule("rules-t8", &[], "T8");

    // ----- Spare hand -----
    t.heading("rules-heading-spare");
    t.rule("rules-d1", &[], "D1");
    match spare {
        SpareRule::Unused => {
            t.rule("rules-d2", &[], "D2");
            t.unused(
                "rules-unused-spare",
                &[
                    format!("bonus_card_limits = {bonus_card_limits}"),
                    format!("auction_pays = {}", toml_auction_pays(auction_pays)),
                ],
            );
        }
        SpareRule::DealerSwapOrAuction => {
            t.rule("rules-d3", &[], "D3");
            let payee = match auction_pays {
                AuctionPays::Dealer => "dealer",
                AuctionPays::Kitty => "kitty",
            };
            t.rule("rules-d4", &[("payee", payee.into())], "D4");
            if bonus_card_limits {
                t.rule("rules-d5-limits", &[("of_suit", suit.into())], "D5");
            } else {
                t.rule("rules-d5-none", &[], "D5");
            }
            t.rule("rules-d6", &[], "D6");
        }
    }

    // ----- Pay cards -----
    t.heading("rules-heading-pay");
    match pay_suit {
        PaySuitRule::Fixed(s) => t.rule("rules-h1-suit", &[("suit", s.name().into())], "H1"),
        PaySuitRule::Auction => t.rule("rules-h8", &[("suit", Suit::Hearts.name().into())], "H8"),
        PaySuitRule::RandomEachDeal => t.rule("rules-h9-suit", &[], "H9"),
    }
    match sequence {
        SequenceRule::From(low) => match low.next().and_then(|mid| Some((mid, mid.next()?))) {
            Some((mid, high)) => t.rule(
                "rules-h7",
                &[("run", format!("{low}-{mid}-{high}").into())],
                "H7",
            ),
            None => t.rule(
                "rules-h7-impossible",
                &[("low", low.to_string().into())],
                "H7",
            ),
        },
        SequenceRule::RandomEachDeal => t.rule("rules-h9-sequence", &[], "H9"),
    }
    match pay_cards {
        PayCards::Stage1 => {
            t.rule("rules-h1", &[("of_suit", suit.into())], "H1");
            t.rule("rules-h2", &[("of_suit", suit.into())], "H2");
            t.rule("rules-h3", &[], "H3");
            t.rule("rules-h4", &[("pot", yes_no(has_pot).into())], "H4");
        }
        PayCards::InPlay => {
            t.rule("rules-h5", &[], "H5");
            t.rule("rules-h6", &[("of_suit", suit.into())], "H6");
        }
    }

    // ----- Poker -----
    t.heading("rules-heading-poker");
    let straights = t.t("rules-p2", &[("high", yes_no(ace_always_high).into())]) + " (P2)";
    let opener = match poker_opener {
        PokerOpener::LeftOfDealer => "left",
        PokerOpener::Dealer => "dealer",
    };
    let raise_cap = match max_raises {
        None => t.t("rules-raises-unlimited", &[]),
        Some(k) => t.t("rules-raises-at-most", &[("n", k.into())]),
    };
    match poker {
        PokerRule::Betting => {
            t.rule("rules-p1", &[], "P1");
            t.rule(
                "rules-hand-ranks",
                &[("straights", straights.as_str().into())],
                "",
            );
            t.rule("rules-p3", &[("opener", opener.into())], "P3");
            t.rule(
                "rules-p4",
                &[
                    ("limit", bet_limit.into()),
                    ("raises", raise_cap.as_str().into()),
                ],
                "P4",
            );
            t.rule("rules-p5", &[], "P5");
            t.rule("rules-p6", &[], "P6");
            t.rule("rules-p7", &[], "P7");
            t.rule("rules-p8", &[], "P8");
        }
        PokerRule::PoolAfterMichigan => {
            t.rule("rules-p9", &[], "P9");
            t.rule(
                "rules-hand-ranks",
                &[("straights", straights.as_str().into())],
                "",
            );
        }
        PokerRule::None => {
            t.rule("rules-no-poker", &[], "T4");
            if final_poker {
                t.rule(
                    "rules-final-straights",
                    &[("straights", straights.as_str().into())],
                    "",
                );
            }
        }
    }
    if !betting_somewhere {
        let raises = max_raises.map_or_else(|| t.t("rules-unset", &[]), |k| k.to_string());
        t.unused(
            "rules-unused-betting",
            &[
                format!("poker_opener = {}", toml_poker_opener(poker_opener)),
                format!("bet_limit = {bet_limit}"),
                format!("max_raises = {raises}"),
            ],
        );
    } else if poker != PokerRule::Betting {
        t.rule(
            "rules-final-betting",
            &[
                ("opener", opener.into()),
                ("limit", bet_limit.into()),
                ("raises", raise_cap.as_str().into()),
            ],
            "P3, P4",
        );
    }
    if !poker_somewhere {
        t.unused(
            "rules-unused-poker",
            &[format!("ace_always_high = {ace_always_high}")],
        );
    }

    // ----- Michigan -----
    t.heading("rules-heading-michigan");
    t.rule("rules-m1", &[], "M1");
    let leader = match michigan_leader {
        MichiganLeader::PokerWinner => "rules-m2-winner",
        MichiganLeader::Dealer => "rules-m2-dealer",
        MichiganLeader::LeftOfDealer => "rules-m2-left",
    };
    t.rule(leader, &[], "M2");
    t.rule("rules-m3", &[], "M3");
    let first = match first_lead {
        FirstLead::Any => "rules-m3-any",
        FirstLead::LowestOverall => "rules-m3-lowest",
        FirstLead::LowestBlack => "rules-m3-black",
    };
    t.rule(first, &[], "M3");
    let penalised = misplays == Misplays::Penalised;
    t.rule("rules-m4", &[("withhold", yes_no(penalised).into())], "M4");
    t.rule("rules-m5", &[], "M5");
    match lead_colors {
        LeadColors::OtherSuit => t.rule("rules-m5-other-suit", &[], "M5"),
        LeadColors::Alternate => t.rule("rules-m6-alternate", &[], "M6"),
        LeadColors::StrictAlternate => t.rule("rules-m6-strict", &[], "M6"),
    }
    t.rule("rules-m5-blocked", &[], "M5");
    t.rule("rules-m7", &[], "M7");
    match pay_cards {
        PayCards::InPlay => t.rule("rules-m8-in-play", &[], "M8"),
        PayCards::Stage1 => t.rule("rules-m8-stage1", &[], "M8"),
    }
    if penalised {
        t.rule("rules-m9a", &[], "M9a");
        t.rule("rules-m9b", &[], "M9b");
        let pool = poker == PokerRule::PoolAfterMichigan;
        t.rule(
            "rules-m9-order",
            &[("pool", yes_no(pool).into())],
            "M9, M10",
        );
    } else {
        t.rule("rules-m9-none", &[], "M9, M10");
    }

    // ----- End of the game -----
    t.heading("rules-heading-end");
    match deal_count {
        None => t.rule("rules-e1-round", &[], "E1"),
        Some(k) => t.rule("rules-e1-deals", &[("n", k.into())], "E1"),
    }
    match final_pot {
        FinalPot::ExtraPoker => t.rule(
            "rules-e2-betting",
            &[("rounds", final_pot_rounds.into())],
            "E2",
        ),
        FinalPot::ShowdownPoker => t.rule(
            "rules-e2-showdown",
            &[("rounds", final_pot_rounds.into())],
            "E2",
        ),
        FinalPot::Keep => t.rule("rules-e2-keep", &[], "E2"),
    }
    if final_poker {
        t.rule("rules-e2-who", &[], "E2");
    } else {
        t.unused(
            "rules-unused-final",
            &[format!("final_pot_rounds = {final_pot_rounds}")],
        );
    }
    t.rule("rules-e3", &[], "E3");
    t.out
}

/// Napalm's rules in plain words, generated from the values, each
/// paragraph with its rule id.
pub fn describe_napalm(rules: &NapalmRules, lang: Lang) -> String {
    let mut t = Text::new(lang, false);
    t.out.push_str(&t.t("napalm-rules-title", &[]));
    t.out.push('\n');
    let start = t.chips(rules.starting_chips);
    t.rule(
        "napalm-rules-players",
        &[
            ("min", rules.min_players.into()),
            ("max", rules.max_players.into()),
            ("chips", start.into()),
        ],
        "",
    );
    let ante = t.chips(rules.ante);
    t.rule(
        "napalm-rules-n1",
        &[
            ("ante", ante.into()),
            ("tokens", rules.tokens_to_win.into()),
        ],
        "N1",
    );
    for (id, refs) in [
        ("napalm-rules-n2", "N2"),
        ("napalm-rules-n3", "N3"),
        ("napalm-rules-n4", "N4"),
        ("napalm-rules-n5", "N5"),
        ("napalm-rules-n6", "N6"),
        ("napalm-rules-n7", "N7"),
        ("napalm-rules-n8-out", "N8"),
    ] {
        t.rule(id, &[], refs);
    }
    t.rule(
        "napalm-rules-n8-hands",
        &[("hands", rules.max_hands.into())],
        "N8",
    );
    t.rule("napalm-rules-n8-order", &[], "N8");
    t.out
}

#[cfg(test)]
mod tests;
