//! Table, setup and the spare hand: T1-T6, D1-D6.

mod common;

use common::*;
use tripoley_cards::{Card, CardSet, Deck, Rank, Suit};
use tripoley_engine::{
    Account, Action, AuctionItem, AuctionPays, ChanceKind, DealChance, Decision, Event,
    FirstDealer, Game, Pending, Preset, Reason, Rules, RulesError, Space, Stage,
};

fn kept(rules: &Rules) -> Rules {
    Rules {
        deals: Some(3),
        ..rules.clone()
    }
}

#[test]
fn t1_a_deal_uses_one_52_card_deck() {
    let mut game = table(Rules::preset(Preset::Pagat), 4, 0);
    deal(&mut game, &["", "", "", ""], "");
    let (hands, spare, played) = game.card_locations();
    let all = hands.iter().fold(spare | played, |a, &h| a | h);
    assert_eq!(all, CardSet::FULL);
}

#[test]
fn t2_player_counts_by_preset() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let (min, max) = if preset == Preset::MichiganCasino {
            (3, 8)
        } else {
            (2, 9)
        };
        assert_eq!(
            (rules.min_players, rules.max_players),
            (min, max),
            "{preset}"
        );
        assert!(Game::new(rules.clone(), usize::from(min)).is_ok());
        assert!(Game::new(rules.clone(), usize::from(max)).is_ok());
        assert!(matches!(
            Game::new(rules.clone(), usize::from(min) - 1),
            Err(RulesError::Players { .. })
        ));
        let err = Game::new(rules, usize::from(max) + 1).unwrap_err();
        assert!(
            err.to_string().contains(&format!("{min} to {max} players")),
            "{err}"
        );
    }
}

#[test]
fn t2_equal_starting_stacks() {
    let mut rules = Rules::preset(Preset::Pagat);
    rules.starting_chips = 250;
    let game = Game::new(rules, 5).unwrap();
    assert_eq!(game.stacks(), &[250; 5]);
}

fn draw_deck(top: &[&str]) -> DealChance {
    let mut order: Vec<Card> = top.iter().map(|t| t.parse().unwrap()).collect();
    let rest: Vec<Card> = Deck::ordered()
        .cards()
        .iter()
        .copied()
        .filter(|c| !order.contains(c))
        .collect();
    order.extend(rest);
    DealChance::deck(Deck::from_cards(&order).unwrap())
}

#[test]
fn t3_highest_card_deals_ties_draw_again() {
    let mut game = Game::new(Rules::preset(Preset::Pagat), 4).unwrap();
    assert_eq!(game.pending(), Pending::Chance(ChanceKind::DrawForDealer));
    // Seats 1 and 3 tie with kings (suits do not count); seat 0's queen loses.
    let ev = game.chance(draw_deck(&["QS", "KH", "2C", "KC"])).unwrap();
    assert_eq!(ev.len(), 1, "only the draw so far: {ev:?}");
    assert_eq!(game.pending(), Pending::Chance(ChanceKind::DrawForDealer));
    // The tied players draw again from a fresh deck, in seat order: 1 then 3.
    let ev = game.chance(draw_deck(&["5D", "9S"])).unwrap();
    assert_eq!(
        ev[0],
        Event::DrewForDealer {
            draws: vec![(1, "5D".parse().unwrap()), (3, "9S".parse().unwrap())]
        }
    );
    assert_eq!(ev[1], Event::FirstDealer { seat: 3 });
    assert_eq!(game.dealer(), 3);
    assert_eq!(game.pending(), Pending::Chance(ChanceKind::Deal));
}

#[test]
fn t3_given_first_dealer_and_deal_passes_left() {
    let mut rules = Rules::preset(Preset::Tripoley);
    rules.poker = tripoley_engine::PokerRule::None;
    rules.final_pot = tripoley_engine::FinalPot::Keep;
    rules.michigan_leader = tripoley_engine::MichiganLeader::Dealer;
    rules.first_dealer = FirstDealer::Seat(2);
    let mut game = Game::new(rules, 3).unwrap();
    assert_eq!(game.dealer(), 2);
    deal(&mut game, &["", "", ""], "");
    // Play the deal out: every decision here is a lead.
    while let Pending::Decide { seat, decision } = game.pending() {
        let Decision::Lead { cards } = decision else {
            panic!("{decision:?}")
        };
        act(&mut game, seat, Action::Lead(cards.first().unwrap()));
        if game.deal_number() == 2 {
            break;
        }
    }
    assert_eq!(
        game.dealer(),
        0,
        "after seat 2 the deal passes left to seat 0"
    );
}

#[test]
fn t4_layout_has_nine_spaces_cosmo_eight() {
    let game = table(Rules::preset(Preset::Pagat), 3, 0);
    let spaces: Vec<Space> = game.view(None).layout.iter().map(|s| s.0).collect();
    assert_eq!(spaces, Space::ALL.to_vec());
    let game = table(Rules::preset(Preset::Cosmo), 3, 0);
    let spaces: Vec<Space> = game.view(None).layout.iter().map(|s| s.0).collect();
    assert_eq!(spaces, Space::ALL[..8].to_vec());
}

#[test]
fn t5_everyone_antes_one_on_each_space() {
    let mut ev = Vec::new();
    let mut rules = Rules::preset(Preset::Pagat);
    rules.first_dealer = FirstDealer::Seat(1);
    let game = Game::start(rules, 4, &mut ev).unwrap();
    let antes = transfers(&ev);
    assert_eq!(antes.len(), 36);
    assert!(
        antes
            .iter()
            .all(|t| t.amount == 1 && t.reason == Reason::Ante)
    );
    for space in Space::ALL {
        assert_eq!(game.layout().get(space), 4, "{space}");
    }
    assert_eq!(game.stacks(), &[91; 4]);
}

#[test]
fn t5_casino_dealer_antes_two() {
    let game = table(Rules::preset(Preset::MichiganCasino), 3, 2);
    assert_eq!(game.stacks(), &[91, 91, 82]);
    assert_eq!(game.layout().get(Space::Kitty), 4);
}

#[test]
fn t5_chips_on_a_space_stay_and_are_added_to() {
    let mut game = table(kept(&Rules::preset(Preset::Cosmo)), 3, 0);
    // Cosmo: nobody collects the Ace space unless its card is played.
    let before = game.layout().get(Space::Kitty);
    assert_eq!(before, 3);
    let mut chance = DealChance::random(game.rules(), &mut tripoley_cards::seeded_rng(5));
    chance.pay_suit = Some(Suit::Hearts);
    game.chance(chance).unwrap();
    assert!(game.layout().total() >= 24 - 1);
}

#[test]
fn t6_player_who_cannot_ante_is_out_and_keeps_chips() {
    let mut rules = Rules::preset(Preset::Tripoley);
    rules.starting_chips = 8; // less than 9 spaces x 1
    rules.first_dealer = FirstDealer::Seat(0);
    let mut ev = Vec::new();
    let game = Game::start(rules, 3, &mut ev).unwrap();
    assert!(ev.contains(&Event::PlayerOut { seat: 0, chips: 8 }));
    // Fewer than two players remain: the game ends at once; chips are kept.
    assert_eq!(game.stage(), Stage::GameOver);
    assert_eq!(game.stacks(), &[8, 8, 8]);
}

#[test]
fn t6_dealer_who_cannot_pay_double_ante_is_out_and_the_deal_passes_left() {
    let mut rules = Rules::preset(Preset::MichiganCasino);
    rules.starting_chips = 17; // 9 for one ante each, but not 18 for the dealer's double
    rules.first_dealer = FirstDealer::Seat(1);
    let mut ev = Vec::new();
    let game = Game::start(rules, 4, &mut ev).unwrap();
    // Seat 1 cannot pay 18 and is out; seat 2 must then deal, and cannot either.
    assert!(ev.contains(&Event::PlayerOut { seat: 1, chips: 17 }));
    assert!(ev.contains(&Event::PlayerOut { seat: 2, chips: 17 }));
    assert!(ev.contains(&Event::PlayerOut { seat: 3, chips: 17 }));
    assert!(game.is_out(1) && game.is_out(2) && game.is_out(3));
    assert_eq!(
        game.stage(),
        Stage::GameOver,
        "one player left: the game ends (T6)"
    );
}

#[test]
fn t6_players_who_are_out_are_skipped() {
    let mut rules = Rules::preset(Preset::Tripoley);
    rules.first_dealer = FirstDealer::Seat(0);
    rules.starting_chips = 9;
    let mut game = Game::new(rules, 3).unwrap();
    // Everyone had exactly 9: all ante, stacks are 0; they stay in for this deal.
    assert_eq!(game.stacks(), &[0, 0, 0]);
    deal(&mut game, &["", "", ""], "");
    assert!(matches!(game.pending(), Pending::Decide { .. }));
    assert_eq!(game.chips_in_play(), 27);
}

#[test]
fn d1_dealing_starts_left_of_dealer_spare_after_dealer() {
    let mut game = table(Rules::preset(Preset::Pagat), 4, 2);
    let deck = Deck::shuffled(&mut tripoley_cards::seeded_rng(11));
    let ev = game.chance(DealChance::deck(deck.clone())).unwrap();
    let dealt: Vec<(u8, CardSet)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Dealt { seat, cards } => Some((*seat, *cards)),
            _ => None,
        })
        .collect();
    assert_eq!(
        dealt.iter().map(|d| d.0).collect::<Vec<_>>(),
        vec![3, 0, 1, 2]
    );
    // Five hands: the first card to seat 3, the fifth to the spare; 52 = 11+11+10+10+10.
    assert!(dealt[0].1.contains(deck.cards()[0]));
    assert!(dealt[3].1.contains(deck.cards()[3]));
    let sizes: Vec<u32> = dealt.iter().map(|d| d.1.len()).collect();
    assert_eq!(sizes, vec![11, 11, 10, 10]);
    let (_, spare, _) = game.card_locations();
    assert!(spare.contains(deck.cards()[4]));
    assert_eq!(spare.len(), 10);
}

#[test]
fn d2_unused_spare_is_never_seen_and_offers_no_choice() {
    let mut game = table(Rules::preset(Preset::Tripoley), 3, 0);
    deal(&mut game, &["", "", ""], "2S 3S");
    assert_ne!(game.stage(), Stage::Spare);
    for seat in 0..3 {
        assert!(game.view(Some(seat)).spare_known.is_empty());
    }
}

fn pagat3() -> Game {
    table(Rules::preset(Preset::Pagat), 3, 0)
}

#[test]
fn d3_dealer_decides_after_seeing_hand_and_may_keep() {
    let mut game = pagat3();
    deal(&mut game, &["", "", ""], "");
    let (seat, decision) = turn(&game);
    assert_eq!(seat, 0);
    assert_eq!(
        decision,
        Decision::SpareOption {
            can_swap: true,
            can_auction: true,
            can_swap_and_auction: true
        }
    );
    // Nobody sees the spare before the choice.
    assert!(game.view(Some(0)).spare_known.is_empty());
    let ev = act(&mut game, 0, Action::Keep);
    assert_eq!(ev[0], Event::DealerKept { seat: 0 });
    assert_eq!(game.stage(), Stage::ChooseFive);
}

#[test]
fn d3_swap_gives_the_spare_and_the_old_hand_becomes_the_spare() {
    let mut game = pagat3();
    deal(&mut game, &["2C 3C", "", ""], "AS KS");
    let (hands, spare, _) = game.card_locations();
    let (old, spare_before) = (hands[0], spare);
    let ev = act(&mut game, 0, Action::Swap);
    assert!(ev.contains(&Event::Swapped { seat: 0 }));
    let (hands, spare, _) = game.card_locations();
    assert_eq!(hands[0], spare_before);
    assert_eq!(spare, old);
    // D6: the dealer knows the hand given up; the others know only what
    // stage 1 told everyone (H4: a pay card nobody took lies in the spare).
    let public = game.view(None).spare_known;
    assert_eq!(game.view(Some(0)).spare_known, old | public);
    assert_eq!(game.view(Some(1)).spare_known, public);
    let pay_cards: CardSet = "AH KH QH JH 10H".parse().unwrap();
    assert!(pay_cards.contains_all(public) && !(public & old).is_empty());
}

#[test]
fn d3_unsold_spare_dealer_may_still_swap_but_not_auction_again() {
    let mut game = pagat3();
    deal(&mut game, &["", "", ""], "");
    act(&mut game, 0, Action::AuctionSpare);
    act(&mut game, 1, Action::Pass);
    let ev = act(&mut game, 2, Action::Pass);
    assert!(ev.contains(&Event::AuctionUnsold));
    assert_eq!(
        turn(&game),
        (
            0,
            Decision::SpareOption {
                can_swap: true,
                can_auction: false,
                can_swap_and_auction: false
            }
        )
    );
    act(&mut game, 0, Action::Swap);
    assert_eq!(game.stage(), Stage::ChooseFive);
}

#[test]
fn d3_swap_then_auction_the_old_hand() {
    let mut game = pagat3();
    deal(&mut game, &["AH KH", "", ""], "");
    let old = game.card_locations().0[0];
    act(&mut game, 0, Action::SwapAndAuction);
    let (seat, decision) = turn(&game);
    assert_eq!(seat, 1);
    assert!(matches!(
        decision,
        Decision::AuctionBid {
            item: AuctionItem::DealersOldHand,
            min: 1,
            ..
        }
    ));
    act(&mut game, 1, Action::Bid(5));
    act(&mut game, 2, Action::Pass);
    let (hands, spare, _) = game.card_locations();
    assert_eq!(hands[1], old, "the buyer holds the dealer's old hand");
    // D6: the buyer knows the hand it gave up; the dealer knows what the buyer holds.
    assert_eq!(game.view(Some(1)).spare_known, spare);
    assert!(game.view(Some(0)).spare_known.is_empty());
    assert_eq!(game.view(Some(0)).known_cards[1], old);
    // The others know only what stage 1 showed (H1, H3): part of it.
    let shown = game.view(Some(2)).known_cards[1];
    assert!(old.contains_all(shown) && shown.contains_all(cards("AH KH")) && shown != old);
}

#[test]
fn d4_auction_goes_clockwise_ends_with_one_bidder_and_pays_the_dealer() {
    let mut game = table(Rules::preset(Preset::Pagat), 4, 3);
    deal(&mut game, &["", "", "", ""], "");
    act(&mut game, 3, Action::AuctionSpare);
    assert_eq!(turn(&game).0, 0, "the dealer's left bids first");
    act(&mut game, 0, Action::Bid(2));
    assert!(matches!(
        turn(&game),
        (1, Decision::AuctionBid { min: 3, .. })
    ));
    assert!(
        game.apply(1, Action::Bid(2)).is_err(),
        "a bid must be higher"
    );
    act(&mut game, 1, Action::Bid(4));
    act(&mut game, 2, Action::Pass);
    act(&mut game, 0, Action::Bid(6));
    let spare = game.card_locations().1;
    let stacks = game.stacks().to_vec();
    let ev = act(&mut game, 1, Action::Pass);
    assert!(ev.contains(&Event::AuctionSold { seat: 0, price: 6 }));
    let paid = transfers(&ev);
    assert_eq!(paid[0].from, Account::Stack(0));
    assert_eq!(paid[0].to, Account::Stack(3));
    assert_eq!((paid[0].amount, paid[0].reason), (6, Reason::AuctionPrice));
    assert_eq!(stacks, vec![91; 4]);
    assert_eq!(game.card_locations().0[0], spare);
}

#[test]
fn d4_last_player_who_has_not_bid_still_gets_a_turn() {
    let mut game = table(Rules::preset(Preset::Pagat), 4, 0);
    deal(&mut game, &["", "", "", ""], "");
    act(&mut game, 0, Action::AuctionSpare);
    act(&mut game, 1, Action::Pass);
    act(&mut game, 2, Action::Pass);
    let (seat, _) = turn(&game);
    assert_eq!(seat, 3);
    act(&mut game, 3, Action::Bid(1));
    assert_ne!(game.stage(), Stage::Auction, "one bidder left: sold");
    assert_eq!(game.layout().get(Space::Kitty), 4);
}

#[test]
fn d4_auction_price_into_the_kitty_option() {
    let mut rules = Rules::preset(Preset::Pagat);
    rules.auction_pays = AuctionPays::Kitty;
    let mut game = table(rules, 3, 0);
    deal(&mut game, &["", "", ""], "");
    act(&mut game, 0, Action::AuctionSpare);
    act(&mut game, 1, Action::Bid(7));
    let ev = act(&mut game, 2, Action::Pass);
    let paid = transfers(&ev);
    assert_eq!(paid[0].to, Account::Space(Space::Kitty));
    assert_eq!(game.layout().get(Space::Kitty), 3 + 7);
}

#[test]
fn d4_bid_at_most_the_stack() {
    let mut game = pagat3();
    deal(&mut game, &["", "", ""], "");
    act(&mut game, 0, Action::AuctionSpare);
    let (_, decision) = turn(&game);
    assert_eq!(
        decision,
        Decision::AuctionBid {
            item: AuctionItem::Spare,
            min: 1,
            max: 91
        }
    );
    assert!(game.apply(1, Action::Bid(92)).is_err());
}

#[test]
fn d5_bonus_cards_forbid_swapping_and_bidding() {
    // Casino: 4 players. The dealer (0) holds the A of hearts: no swap.
    let mut game = table(Rules::preset(Preset::MichiganCasino), 4, 0);
    // Every other bonus card is with the dealer or in the spare.
    deal(
        &mut game,
        &["AH KH QH JH 10H 7D 7H 7S", "7C 8C 9C", "2C 3C", "4C 5C"],
        "8D 8H 8S 9D 9H 9S",
    );
    assert_eq!(
        turn(&game),
        (
            0,
            Decision::SpareOption {
                can_swap: false,
                can_auction: true,
                can_swap_and_auction: false
            }
        )
    );
    assert!(game.apply(0, Action::Swap).is_err());
    act(&mut game, 0, Action::AuctionSpare);
    // Seat 1 holds the casino Sequence 7-8-9 of clubs: a bonus card; it may
    // only pass, and it is asked like everyone else: a pass made for it as the
    // auction opens would tell the table it holds a bonus card.
    assert_eq!(game.view(Some(2)).stage, Stage::Auction);
    let blocked = Decision::AuctionBid {
        item: AuctionItem::Spare,
        min: 1,
        max: 0,
    };
    assert_eq!(turn(&game), (1, blocked));
    assert_eq!(blocked.actions(), vec![Action::Pass]);
    assert!(game.apply(1, Action::Bid(1)).is_err());
    let ev = act(&mut game, 1, Action::Pass);
    assert_eq!(ev, vec![Event::Passed { seat: 1 }], "nothing else happens");
    let (seat, decision) = turn(&game);
    assert_eq!(seat, 2);
    assert!(matches!(
        decision,
        Decision::AuctionBid {
            min: 1,
            max: 91,
            ..
        }
    ));
}

#[test]
fn d5_a_bidder_with_a_bonus_card_is_on_turn_like_any_other() {
    // Seats 1 and 3 hold bonus cards, seat 2 does not: each is asked in turn,
    // so no view tells them apart before they answer.
    let mut game = table(Rules::preset(Preset::MichiganCasino), 4, 0);
    deal(
        &mut game,
        &["", "AH", "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2S", "KH"],
        "",
    );
    let ev = act(&mut game, 0, Action::AuctionSpare);
    assert!(!ev.iter().any(|e| matches!(e, Event::Passed { .. })));
    for seat in 1..4u8 {
        assert_eq!(turn(&game).0, seat);
        let view = game.view(Some(0));
        assert_eq!(view.stage, Stage::Auction);
        act(&mut game, seat, Action::Pass);
    }
    assert_ne!(game.stage(), Stage::Auction);
}

#[test]
fn d5_everyone_can_tell_a_bidders_hand_holds_no_pay_honour() {
    // The dealer (0), without a bonus card, swaps and auctions their old
    // hand; seat 1 bids and buys it, seats 2 and 3 pass (3 must: it holds
    // the hearts' honours). Hearts judge the hands (no pay suit yet).
    let mut game = table(Rules::preset(Preset::MichiganCasino), 4, 0);
    deal(
        &mut game,
        &[
            "3S 4S 5S 6S 7S 8S 10S JS QS KS",
            "2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D",
            "8C 9C 10C JC QC KC AC 7D 8D 10D JD",
            "AH KH QH JH 10H 9D QD KD AD 2S",
        ],
        "2H 3H 4H 5H 6H 7H 8H 9H 9S AS",
    );
    let honours = cards("AH KH QH JH 10H");
    let told = |game: &Game| -> Vec<bool> {
        let views = [None, Some(0), Some(2)].map(|viewer| game.view(viewer).cannot_hold);
        assert!(
            views.iter().all(|v| *v == views[0]),
            "everyone can tell the same"
        );
        views[0].iter().map(|&c| c.contains_all(honours)).collect()
    };
    assert_eq!(told(&game), [false; 4]);
    act(&mut game, 0, Action::SwapAndAuction);
    // The dealer's hand held none, but it is the spare now: the dealer holds
    // the old spare, which nobody judged.
    assert_eq!(told(&game), [false; 4]);
    act(&mut game, 1, Action::Bid(2));
    assert_eq!(
        told(&game),
        [false, true, false, false],
        "a bid shows a hand without one"
    );
    act(&mut game, 2, Action::Pass);
    act(&mut game, 3, Action::Pass);
    // Seat 1 holds the dealer's old hand now, judged without one too; a pass
    // shows nothing.
    assert_eq!(told(&game), [false, true, false, false]);
    assert_eq!(
        game.card_locations().0[1],
        cards("3S 4S 5S 6S 7S 8S 10S JS QS KS")
    );
}

#[test]
fn d4_d5_nobody_may_bid_auction_ends_unsold_at_once() {
    let mut game = table(Rules::preset(Preset::MichiganCasino), 3, 0);
    deal(&mut game, &["2C", "AH", "KH"], "");
    let ev = act(&mut game, 0, Action::AuctionSpare);
    assert!(ev.contains(&Event::AuctionUnsold));
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Passed { .. })),
        "D4: it ends at once, with no passes"
    );
}

#[test]
fn d5_a_dealer_who_may_only_keep_after_an_unsold_spare_is_asked() {
    // The dealer holds the A of hearts (a bonus card): after the unsold
    // auction they may only keep, and are asked all the same, as a dealer
    // who may swap would be: a keep made for them would tell the table.
    let mut game = table(Rules::preset(Preset::MichiganCasino), 3, 0);
    deal(&mut game, &["AH", "KH", "QH"], "");
    act(&mut game, 0, Action::AuctionSpare);
    let only_keep = Decision::SpareOption {
        can_swap: false,
        can_auction: false,
        can_swap_and_auction: false,
    };
    assert_eq!(turn(&game), (0, only_keep));
    assert_eq!(only_keep.only(), Some(Action::Keep));
    assert_eq!(only_keep.forced(), None);
    assert!(game.apply(0, Action::Swap).is_err());
    let ev = act(&mut game, 0, Action::Keep);
    assert!(ev.contains(&Event::DealerKept { seat: 0 }), "{ev:?}");
}

#[test]
fn d6_nobody_learns_the_spare_from_a_plain_swap() {
    let mut game = pagat3();
    deal(&mut game, &["", "", ""], "");
    act(&mut game, 0, Action::AuctionSpare);
    act(&mut game, 1, Action::Bid(1));
    act(&mut game, 2, Action::Pass);
    let given_up = game.card_locations().1;
    assert_eq!(game.view(Some(1)).spare_known, given_up);
    assert!(game.view(Some(0)).spare_known.is_empty());
    assert!(game.view(Some(2)).spare_known.is_empty());
    assert_eq!(
        game.view(Some(0)).known_cards[1],
        game.view(Some(2)).known_cards[1],
        "the spare was unseen: the dealer knows no more than anyone"
    );
    let _ = Rank::Two;
}

#[test]
fn t8_antes_clockwise_from_the_dealers_left_spaces_in_layout_order() {
    let mut ev = Vec::new();
    let mut rules = Rules::preset(Preset::Pagat);
    rules.first_dealer = FirstDealer::Seat(1);
    Game::start(rules, 4, &mut ev).unwrap();
    let order: Vec<(Account, Account)> = transfers(&ev).iter().map(|t| (t.from, t.to)).collect();
    let expected: Vec<(Account, Account)> = [2u8, 3, 0, 1]
        .into_iter()
        .flat_map(|s| Space::ALL.map(|sp| (Account::Stack(s), Account::Space(sp))))
        .collect();
    assert_eq!(order, expected);
}

/// Pagat with 2 chips on the Pot and the Kitty (T5's `space_antes`).
fn two_on_pot_and_kitty(mut rules: Rules) -> Rules {
    rules.space_antes = [(Space::Pot, 2), (Space::Kitty, 2)].into();
    rules
}

#[test]
fn t5_space_antes_replace_ante_on_the_spaces_named_for_every_player() {
    let mut rules = two_on_pot_and_kitty(Rules::preset(Preset::Pagat));
    rules.first_dealer = FirstDealer::Seat(1);
    let game = table(rules, 4, 1);
    for space in Space::ALL {
        let each = if matches!(space, Space::Pot | Space::Kitty) {
            2
        } else {
            1
        };
        assert_eq!(game.layout().get(space), 4 * each, "{space}");
    }
    // 7 spaces at 1 and 2 at 2: 11 from everyone, the dealer too.
    assert_eq!(game.stacks(), &[89; 4]);
}

#[test]
fn t5_space_antes_the_dealer_puts_dealer_ante_minus_ante_more() {
    let mut rules = Rules::preset(Preset::MichiganCasino);
    rules.space_antes = [(Space::Pot, 2), (Space::Kitty, 3)].into();
    let game = table(rules, 3, 2);
    // Others: 7 x 1 + 2 + 3 = 12; the dealer one more on each of 9: 21.
    assert_eq!(game.stacks(), &[88, 88, 79]);
    assert_eq!(game.layout().get(Space::Kitty), 3 + 3 + 4);
    assert_eq!(game.layout().get(Space::Pot), 2 + 2 + 3);
    assert_eq!(game.layout().get(Space::Ace), 1 + 1 + 2);
}

#[test]
fn t5_t6_space_antes_the_whole_ante_is_the_full_ante() {
    // 7 + 2 + 2 = 11 chips a deal: 11 stay in (with nothing left), 10 do not.
    for (chips, out) in [(11, false), (10, true)] {
        let mut rules = two_on_pot_and_kitty(Rules::preset(Preset::Tripoley));
        rules.starting_chips = chips;
        rules.first_dealer = FirstDealer::Seat(0);
        assert_eq!(rules.full_ante(false), 11);
        assert_eq!(rules.first_ante_shortfall().is_some(), out, "{chips}");
        let mut ev = Vec::new();
        let game = Game::start(rules, 3, &mut ev).unwrap();
        let gone = ev
            .iter()
            .filter(|e| matches!(e, Event::PlayerOut { .. }))
            .count();
        assert_eq!(gone, if out { 3 } else { 0 }, "{chips}");
        assert_eq!(game.stacks(), &[if out { chips } else { 0 }; 3]);
    }
}
