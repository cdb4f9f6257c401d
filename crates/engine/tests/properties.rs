//! Properties over many random games: every preset, 2-9 seats, random option
//! mixes. Chips are conserved (T7), every card is in exactly one place, every
//! game ends, legal actions apply and illegal ones change nothing, replay
//! equals the live game, and views hide what they must.

mod common;

use proptest::prelude::*;
use tripoley_cards::{Card, CardSet, Rank, Suit, seeded_rng};
use tripoley_engine::{
    Account, Action, AuctionPays, Event, FinalPot, FirstDealer, FirstLead, Game, InfoSet,
    LeadColors, MichiganLeader, Misplays, NoEvents, PayCards, PaySuitRule, Pending, PokerOpener,
    PokerRule, Preset, Reason, Rules, SequenceRule, Space, SpareRule, Stage, View,
};

/// Rules built from a preset with random options changed; `None` if the mix
/// is not valid (`validate()` must then say why).
fn mixed_rules(preset: Preset, bits: u64) -> Option<Rules> {
    let mut r = Rules::preset(preset);
    let pick = |k: u32, n: u64| (bits >> k) % n;
    if pick(0, 3) == 0 {
        r.spare = [SpareRule::Unused, SpareRule::DealerSwapOrAuction][pick(2, 2) as usize];
    }
    if pick(3, 3) == 0 {
        r.pay_cards = [PayCards::Stage1, PayCards::InPlay][pick(5, 2) as usize];
    }
    if pick(6, 4) == 0 {
        r.pay_suit = [
            PaySuitRule::Fixed(Suit::Spades),
            PaySuitRule::Auction,
            PaySuitRule::RandomEachDeal,
        ][pick(8, 3) as usize];
    }
    if pick(10, 4) == 0 {
        r.sequence = [
            SequenceRule::From(Rank::Six),
            SequenceRule::From(Rank::Queen),
            SequenceRule::RandomEachDeal,
        ][pick(12, 3) as usize];
    }
    if pick(14, 3) == 0 {
        r.poker = [
            PokerRule::Betting,
            PokerRule::PoolAfterMichigan,
            PokerRule::None,
        ][pick(16, 3) as usize];
    }
    if pick(18, 3) == 0 {
        r.poker_opener = [PokerOpener::Dealer, PokerOpener::LeftOfDealer][pick(20, 2) as usize];
    }
    if pick(21, 3) == 0 {
        r.max_raises = [None, Some(0), Some(2)][pick(23, 3) as usize];
        r.bet_limit = 1 + pick(25, 20) as u32;
    }
    if pick(30, 3) == 0 {
        r.michigan_leader = [
            MichiganLeader::PokerWinner,
            MichiganLeader::Dealer,
            MichiganLeader::LeftOfDealer,
        ][pick(32, 3) as usize];
    }
    if pick(34, 3) == 0 {
        r.first_lead = [
            FirstLead::Any,
            FirstLead::LowestOverall,
            FirstLead::LowestBlack,
        ][pick(36, 3) as usize];
    }
    if pick(38, 3) == 0 {
        r.lead_colors = [
            LeadColors::OtherSuit,
            LeadColors::Alternate,
            LeadColors::StrictAlternate,
        ][pick(40, 3) as usize];
    }
    if pick(42, 3) == 0 {
        r.misplays = [Misplays::Forbidden, Misplays::Penalised][pick(44, 2) as usize];
    }
    if pick(45, 3) == 0 {
        r.final_pot = [
            FinalPot::ExtraPoker,
            FinalPot::ShowdownPoker,
            FinalPot::Keep,
        ][pick(47, 3) as usize];
        r.final_pot_rounds = 1 + pick(49, 3) as u32;
    }
    if pick(51, 3) == 0 {
        r.auction_pays = AuctionPays::Kitty;
        r.bonus_card_limits = !r.bonus_card_limits;
        r.ace_always_high = !r.ace_always_high;
    }
    if pick(53, 4) == 0 {
        r.starting_chips = 10 + pick(55, 40) as u32;
        r.dealer_ante = 1 + pick(58, 2) as u32;
        r.first_dealer = FirstDealer::Seat(0);
    }
    if pick(60, 3) == 0 {
        // T5's chips of different values, on spaces this layout has.
        r.space_antes = [
            (Space::Pot, 1 + pick(61, 3) as u32),
            (Space::Kitty, 2),
            (Space::Ace, 1 + pick(63, 2) as u32),
        ]
        .into_iter()
        .filter(|&(s, _)| r.has_pot() || s != Space::Pot)
        .collect();
    }
    match r.validate() {
        Ok(()) => Some(r),
        Err(e) => {
            assert!(!e.to_string().is_empty());
            None
        }
    }
}

/// Each card is in exactly one place: a hand, the spare, or played.
fn cards_accounted(game: &Game) {
    if game.deal_number() == 0 {
        return;
    }
    let (hands, spare, played) = game.card_locations();
    let mut all = CardSet::EMPTY;
    for part in hands.iter().copied().chain([spare, played]) {
        assert!((all & part).is_empty(), "a card is in two places");
        all |= part;
    }
    assert_eq!(all, CardSet::FULL, "a card is missing");
}

/// No view holds a card its seat may not see, not even inside its JSON.
fn views_hide(game: &Game) {
    let (hands, spare, _) = game.card_locations();
    for viewer in (0..game.players() as u8).map(Some).chain([None]) {
        let view = game.view(viewer);
        let mut visible = view.spare_known | view.hand;
        for (h, known) in view.known_cards.iter().enumerate() {
            assert!(
                hands[h].contains_all(*known),
                "a known card is not in that hand"
            );
            visible |= *known;
        }
        for p in &view.played {
            visible |= *p;
        }
        assert!(spare.contains_all(view.spare_known));
        if let Some(s) = viewer {
            assert_eq!(view.hand, hands[usize::from(s)]);
        } else {
            assert!(view.hand.is_empty());
        }
        // Deductions must be true, and only they may name hidden cards.
        for (h, cannot) in view.cannot_hold.iter().enumerate() {
            assert!(
                (*cannot & hands[h]).is_empty(),
                "seat {h} holds a card it cannot hold"
            );
        }
        // A public sight laid out from a seat's place knows exactly what a
        // spectator does.
        if viewer.is_none() {
            for seat in 0..game.players() as u8 {
                let public = game.public_sight_at(seat).view();
                assert_eq!(
                    public,
                    View {
                        seat: Some(seat),
                        ..view.clone()
                    }
                );
            }
        }
        let mut view = view;
        view.cannot_hold.clear();
        let hidden = (hands.iter().fold(CardSet::EMPTY, |a, &h| a | h) | spare) - visible;
        let json = serde_json::to_string(&view).unwrap();
        for card in hidden {
            // Shown cards of earlier stages (public) may legitimately appear;
            // a hidden card never does.
            assert!(
                !json.contains(&format!("\"{card}\"")),
                "{card} leaks to {viewer:?}"
            );
        }
    }
}

/// Sampled worlds hold every card once and keep what stage 1 proved (that
/// they look like the real one from each seat, and play on legally, the
/// shared suite checks: `tripoley_testkit::properties`).
fn samples_consistent(game: &Game, seed: u64) {
    let Pending::Decide { seat, .. } = game.pending() else {
        return;
    };
    let info = InfoSet::new(game, seat);
    let mut rng = seeded_rng(seed);
    for _ in 0..2 {
        let world = info.sample(&mut rng);
        cards_accounted(&world);
        stage1_deductions_kept(game, &world);
    }
}

/// H1, H3, H4: once stage 1 is over, everyone knows that a pay card nobody
/// took lies in the spare and that no hand held a Sequence nobody claimed;
/// a sampled world keeps both.
fn stage1_deductions_kept(game: &Game, world: &Game) {
    let view = game.view(None);
    let after_stage1 = matches!(
        view.stage,
        Stage::ChooseFive | Stage::Betting | Stage::Michigan
    );
    if game.rules().pay_cards != PayCards::Stage1 || !after_stage1 {
        return;
    }
    let pay = game.pay_suit().expect("named by stage 1");
    let (hands, spare, _) = game.card_locations();
    let (world_hands, world_spare, _) = world.card_locations();
    for card in Space::PAY_CARDS.iter().filter_map(|s| s.pay_card(pay)) {
        if spare.contains(card) {
            assert!(
                world_spare.contains(card),
                "H4: {card} nobody took is dealt to a hand"
            );
        }
    }
    // Hands as stage 1 saw them: in hand now or played since (public).
    let stage1_hands = |hands: &[CardSet]| -> Vec<CardSet> {
        (0..hands.len())
            .map(|h| hands[h] | view.played.get(h).copied().unwrap_or(CardSet::EMPTY))
            .collect()
    };
    let (real, sampled) = (stage1_hands(&hands), stage1_hands(&world_hands));
    let low = view.sequence.unwrap_or(Rank::Eight).index();
    for suit in Suit::ALL {
        let seq = CardSet::from_suit_mask(suit, 0b111 << low);
        if !real.iter().any(|h| h.contains_all(seq)) {
            assert!(
                !sampled.iter().any(|h| h.contains_all(seq)),
                "H4: the Sequence in {suit:?} nobody claimed is dealt whole to a hand"
            );
        }
    }
}

/// Actions tried at every decision: those that do not answer it must be
/// refused (the property suite of `tripoley-testkit`).
const PROBES: [Action; 9] = [
    Action::Bid(0),
    Action::Bid(u32::MAX),
    Action::Bet(0),
    Action::Raise(u32::MAX),
    Action::Choose(CardSet::EMPTY),
    Action::Lead(Card::new(Rank::Two, Suit::Clubs)),
    Action::NameSuit(Suit::Clubs),
    Action::Play,
    Action::Keep,
];

/// P1 over a whole game's events: in every deal with betting, each player
/// still in sets five apart, in turn from the dealer's left, before the
/// first bet; a showdown shows exactly the five chosen; a folded five is
/// never shown.
fn fives_chosen_before_betting(players: usize, events: &[Event]) {
    let mut out = 0u16;
    let mut dealer = 0;
    let mut chosen: Vec<Option<CardSet>> = vec![None; players];
    let mut order = Vec::new();
    let mut folded = 0u16;
    let mut betting_seen = false;
    let mut final_pot = false;
    for e in events {
        match e {
            Event::PlayerOut { seat, .. } => out |= 1 << seat,
            Event::DealStarted { dealer: d, .. } => {
                dealer = usize::from(*d);
                chosen.fill(None);
                order.clear();
                folded = 0;
                betting_seen = false;
            }
            Event::FinalPotRound { .. } => final_pot = true,
            Event::ChoseFive { seat, cards } => {
                assert_eq!(cards.len(), 5);
                assert!(!betting_seen, "a five chosen after a bet");
                chosen[usize::from(*seat)] = Some(*cards);
            }
            Event::SetFiveApart { seat } => order.push(usize::from(*seat)),
            Event::Checked { seat }
            | Event::Bet { seat, .. }
            | Event::Called { seat, .. }
            | Event::Raised { seat, .. }
            | Event::Folded { seat }
                if !final_pot =>
            {
                if !betting_seen {
                    let expected: Vec<usize> = (1..=players)
                        .map(|i| (dealer + i) % players)
                        .filter(|&s| out >> s & 1 == 0)
                        .collect();
                    assert_eq!(
                        order, expected,
                        "P1: every player in, from the dealer's left"
                    );
                }
                betting_seen = true;
                if matches!(e, Event::Folded { .. }) {
                    folded |= 1 << seat;
                }
            }
            Event::Showed { seat, cards, .. } if betting_seen && !final_pot => {
                assert_eq!(folded >> seat & 1, 0, "a folded five is never shown");
                assert_eq!(
                    chosen[usize::from(*seat)],
                    Some(*cards),
                    "the chosen five is shown"
                );
            }
            _ => {}
        }
    }
}

/// T5: each player's ante on each space is `space_antes` or `ante`, the
/// dealer's `dealer_ante - ante` more (antes come before the deal names
/// its dealer).
fn antes_as_t5_says(rules: &Rules, events: &[Event]) {
    let mut antes = Vec::new();
    for e in events {
        match e {
            Event::Transfer(t) if t.reason == Reason::Ante => antes.push(*t),
            Event::DealStarted { dealer, .. } => {
                for t in antes.drain(..) {
                    let (Account::Stack(seat), Account::Space(space)) = (t.from, t.to) else {
                        panic!("an ante goes from a stack to a space: {t:?}");
                    };
                    assert_eq!(t.amount, rules.ante_on(space, seat == *dealer), "T5: {t:?}");
                }
            }
            _ => {}
        }
    }
}

fn check_game(rules: &Rules, players: usize, seed: u64, deep: bool) {
    let mut events = Vec::new();
    let start = Game::start(rules.clone(), players, &mut events).expect("valid table");
    let mut steps = 0;
    let mut check = |g: &Game, ev: &[Event]| {
        steps += 1;
        cards_accounted(g);
        if deep || steps % 7 == 0 {
            views_hide(g);
            samples_consistent(g, steps);
        }
        for e in ev {
            if let Event::Transfer(t) = e {
                assert!(t.amount > 0);
            }
        }
    };
    assert_eq!(
        start.chips_in_play(),
        start.total_chips(),
        "T7: chips conserved"
    );
    check(&start, &events);
    let every = if deep { 1 } else { 7 };
    let played = tripoley_testkit::properties::check_random_game(
        &start,
        seed,
        &PROBES,
        every,
        &mut tripoley_testkit::random_players(players),
        check,
    );
    let game = played.game;
    events.extend(played.events);
    assert!(game.standings().is_some(), "the game ended");
    fives_chosen_before_betting(players, &events);
    antes_as_t5_says(rules, &events);
    let mut record = tripoley_engine::Record::new(
        rules.clone(),
        (0..players).map(|i| format!("P{i}")).collect(),
    );
    record.steps = played.steps;
    let (replayed, replay_events) = record.replay().expect("the record replays");
    assert_eq!(replayed, game, "replay reproduces the game");
    assert_eq!(replay_events, events, "replay reproduces every event");
    let mut quiet = record.start(&mut NoEvents).expect("the record starts");
    for step in &record.steps {
        quiet
            .step(step, &mut NoEvents)
            .expect("a recorded step applies");
    }
    assert_eq!(quiet, game, "a game played without events is the same game");
    let json = record.to_json();
    assert_eq!(tripoley_engine::Record::from_json(&json).unwrap(), record);
}

#[test]
fn t7_every_preset_every_table_size() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        for players in rules.min_players..=rules.max_players {
            for seed in 0..6 {
                check_game(&rules, usize::from(players), seed, seed == 0);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn t7_random_option_mixes(preset in 0..5usize, bits in any::<u64>(), players in 2..=9usize, seed in any::<u64>()) {
        if let Some(rules) = mixed_rules(Preset::ALL[preset], bits)
            && rules.check_players(players).is_ok()
        {
            check_game(&rules, players, seed, false);
        }
    }
}

#[test]
fn t6_short_stacks_never_soft_lock() {
    // Tiny stacks: players drop out (T6), the dealer may be out, and games
    // still end with chips conserved.
    for preset in Preset::ALL {
        let mut rules = Rules::preset(preset);
        rules.starting_chips = 12;
        rules.deals = Some(30);
        for seed in 0..40 {
            let players = usize::from(rules.min_players) + (seed as usize % 3);
            check_game(&rules, players, seed, false);
        }
    }
    let _ = seeded_rng(0);
}
