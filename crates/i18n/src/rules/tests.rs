//! The English rules text per rule id (moved here from the engine with the
//! wording), and the Spanish text's own checks.

use tripoley_cards::{Rank, Suit};
use tripoley_engine::{
    AuctionPays, FinalPot, FirstDealer, FirstLead, LeadColors, MichiganLeader, Misplays, PayCards,
    PaySuitRule, PokerOpener, PokerRule, Preset, Rules, SequenceRule, Space, SpareRule,
};

use crate::Lang;

/// The English text of `rules`: what these tests read (the Spanish
/// catalogue is held to the same messages by `tests/catalogue.rs`).
trait Describe {
    fn describe(&self) -> String;
}

impl Describe for Rules {
    fn describe(&self) -> String {
        super::describe(self, Lang::En)
    }
}

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
    let changes: [(&str, Change); 25] = [
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
        ("space_antes", |r| {
            r.space_antes = [(Space::Kitty, 2)].into();
        }),
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
            for lang in Lang::ALL {
                assert_ne!(
                    super::describe(&c, lang),
                    super::describe(&r, lang),
                    "{p}: changing {field} does not change the {lang:?} description"
                );
            }
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
fn t5_describe_space_antes_in_both_languages() {
    let mut pagat = Rules::preset(Preset::Pagat);
    pagat.space_antes = [(Space::Pot, 2), (Space::Kitty, 2)].into();
    let text = pagat.describe();
    assert!(
        text.contains(
            "every player puts 2 chips on the Kitty, 2 chips on the Pot, and 1 chip on each \
             other space. (T5)"
        ),
        "{text}"
    );
    // T6's whole ante is the sum over the spaces.
    assert!(
        text.contains("(11 chips a deal, 11 chips when dealing)"),
        "{text}"
    );
    let es = super::describe(&pagat, Lang::Es);
    assert!(
        es.contains("pone 2 fichas en el Pozo, 2 fichas en el Bote, y 1 ficha en cada una de las demás casillas."),
        "{es}"
    );
    let mut casino = Rules::preset(Preset::MichiganCasino);
    casino.space_antes = Space::ALL.into_iter().map(|s| (s, 3)).collect();
    let text = casino.describe();
    assert!(
        text.contains("3 chips on the Pot (the dealer puts 1 chip more on every space)."),
        "{text}"
    );
    assert!(!text.contains("each other space"), "{text}");
    assert!(
        text.contains("(27 chips a deal, 36 chips when dealing)"),
        "{text}"
    );
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
            Preset::MichiganCasino | Preset::Cosmo => "The player left of the dealer leads first.",
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

/// No placeable left unfilled, no message id, in any language.
fn assert_clean(text: &str) {
    for leak in ["{", "}", "rules-", "words-", "napalm-rules"] {
        assert!(!text.contains(leak), "{leak:?} in {text}");
    }
}

#[test]
fn spanish_has_the_six_sections_in_order_for_every_preset() {
    for (p, r) in each_preset() {
        let text = super::describe(&r, Lang::Es);
        assert_clean(&text);
        assert!(
            text.starts_with(&format!("Las reglas de la variante {p}.\n")),
            "{text}"
        );
        let mut at = 0;
        for h in [
            "\nMesa y preparación\n",
            "\nMano extra\n",
            "\nCartas de pago\n",
            "\nPóquer\n",
            "\nMichigan\n",
            "\nFin de la partida\n",
        ] {
            let found = text[at..].find(h).unwrap_or_else(|| panic!("{p}: {h}"));
            at += found + h.len();
        }
        // The same rules, line for line, each with the same ids.
        let english = r.describe();
        assert_eq!(text.lines().count(), english.lines().count(), "{p}");
        let ids = |l: &str| l.rfind(" (").map(|i| l[i..].to_owned());
        for (es, en) in text.lines().zip(english.lines()) {
            if en.starts_with("  ") && !en.starts_with("  Without effect") {
                assert_eq!(ids(es), ids(en), "{p}: {es}");
            }
        }
    }
}

#[test]
fn spanish_says_the_values_in_card_game_words() {
    let r = Rules::preset(Preset::MichiganCasino);
    let text = super::describe(&r, Lang::Es);
    for want in [
        "Jugadores: de 3 a 8. Cada uno empieza con 100 fichas. (T2)",
        "cada jugador pone 1 ficha en cada una de las 9 casillas (el repartidor pone 2). (T5)",
        "el As, el Rey, la Reina, la Jota y el Diez de corazones",
        "La Secuencia es 7-8-9 de un mismo palo",
        "El as es siempre alto: A-2-3-4-5 no es escalera. (P2)",
        "la Bolsa de póquer",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
    let mut r = Rules::preset(Preset::Pagat);
    r.deals = Some(1);
    r.max_raises = Some(1);
    let text = super::describe(&r, Lang::Es);
    assert!(text.contains("Una partida es 1 reparto,"), "{text}");
    assert!(
        text.contains("se permite como mucho 1 subida por ronda"),
        "{text}"
    );
    r.deals = Some(3);
    r.pay_cards = PayCards::InPlay;
    r.pay_suit = PaySuitRule::Auction;
    let text = super::describe(&r, Lang::Es);
    assert!(text.contains("Una partida es 3 repartos,"), "{text}");
    assert!(text.contains("del palo de pago"), "{text}");
    assert!(
        text.contains("si todos pasan, es corazones. (H8)"),
        "{text}"
    );
}

#[test]
fn players_are_not_shown_options_that_change_nothing() {
    let r = Rules::preset(Preset::Tripoley);
    for lang in Lang::ALL {
        let full = super::describe(&r, lang);
        let players = super::describe_for_players(&r, lang);
        assert!(full.contains("bonus_card_limits = false"), "{lang:?}");
        assert!(!players.contains("bonus_card_limits"), "{lang:?}");
        assert!(players.lines().count() < full.lines().count(), "{lang:?}");
    }
}

#[test]
fn napalm_in_both_languages() {
    let r = tripoley_napalm::NapalmRules::default();
    let en = super::describe_napalm(&r, Lang::En);
    assert!(
        en.starts_with("Napalm poker\n  Players: 2 to 7. Each starts with"),
        "{en}"
    );
    assert!(
        en.contains("The first player to hold 5 tokens wins the game"),
        "{en}"
    );
    let es = super::describe_napalm(&r, Lang::Es);
    assert_clean(&es);
    assert!(
        es.starts_with("Póquer Napalm\n  Jugadores: de 2 a 7."),
        "{es}"
    );
    assert!(
        es.contains("El primero que reúne 5 puntos gana la partida"),
        "{es}"
    );
    assert_eq!(en.lines().count(), es.lines().count());
}
