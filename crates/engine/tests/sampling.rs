//! Sampled worlds (determinizations) agree with every public fact of the
//! deal so far, not only with the deciding seat's view: over random games,
//! at every stage-3 decision, the leads everyone saw would have been the
//! same leads (misplays or not, M9a; the lowest card the rule asked for,
//! M3, M6) in the sampled hands.

mod common;

use tripoley_cards::{Card, CardSet, Rank, Suit, seeded_rng};
use tripoley_engine::{
    Account, Action, DealChance, Decision, Event, FirstLead, Game, InfoSet, LeadColors, Misplays,
    Pending, Preset, Reason, Rules, Space, Stage, StopReason, Transfer,
};

/// A lead seen by everyone: who, which card, whether it was penalised, and
/// whether it was the deal's first.
struct Lead {
    seat: u8,
    card: Card,
    misplay: bool,
    first: bool,
}

/// The deal's public play so far: each lead, and every card played after it
/// (by whom), in order.
#[derive(Default)]
struct Plays {
    leads: Vec<(Lead, Vec<(u8, Card)>)>,
}

impl Plays {
    fn note(&mut self, events: &[Event]) {
        for e in events {
            match *e {
                Event::DealStarted { .. } => self.leads.clear(),
                Event::Led {
                    seat,
                    card,
                    misplay,
                } => {
                    let first = self.leads.is_empty();
                    self.leads.push((
                        Lead {
                            seat,
                            card,
                            misplay,
                            first,
                        },
                        Vec::new(),
                    ));
                }
                Event::Played { seat, card } => {
                    if let Some((_, after)) = self.leads.last_mut() {
                        after.push((seat, card));
                    }
                }
                _ => {}
            }
        }
    }

    /// `seat`'s hand in `world` as lead `i` was made: what it holds now and
    /// every card it played from that lead on.
    fn hand_at(&self, world: &Game, i: usize, seat: u8) -> CardSet {
        let (hands, _, _) = world.card_locations();
        let mut hand = hands[usize::from(seat)];
        for (lead, after) in &self.leads[i..] {
            if lead.seat == seat {
                hand.insert(lead.card);
            }
            for &(s, c) in after {
                if s == seat {
                    hand.insert(c);
                }
            }
        }
        hand
    }
}

/// Whether `card` is the lowest card of its suit in `hand`.
fn lowest_of_suit(hand: CardSet, card: Card) -> bool {
    hand.iter()
        .filter(|c| c.suit() == card.suit())
        .all(|c| c.rank() >= card.rank())
}

/// Whether no card of `hand` of `card`'s colour (`None`: of any suit) is of a
/// lower rank than `card`.
fn lowest_rank(hand: CardSet, card: Card, colour_only: bool) -> bool {
    hand.iter()
        .filter(|c| !colour_only || c.suit().is_red() == card.suit().is_red())
        .all(|c| c.rank() >= card.rank())
}

/// Plays random games of `rules` and checks, at every stage-3 decision, that
/// a few sampled worlds for the deciding seat make every lead so far what
/// it was. Returns how many leads were checked.
fn leads_kept(rules: &Rules, games: u64) -> usize {
    let mut checked = 0;
    for seed in 0..games {
        let players = 3 + (seed % 4) as usize;
        let mut plays = Plays::default();
        let mut rng = seeded_rng(seed ^ 0x5a5a);
        tripoley_testkit::play_random(rules, players, seed, |game, events| {
            plays.note(events);
            let Pending::Decide { seat, .. } = game.pending() else {
                return;
            };
            if game.view(None).stage != Stage::Michigan {
                return;
            }
            let world = InfoSet::new(game, seat).sample(&mut rng);
            for (i, (lead, _)) in plays.leads.iter().enumerate() {
                let hand = plays.hand_at(&world, i, lead.seat);
                // M3, M6: some rules ask for the lowest rank (of a colour or
                // of the hand), the others for the lowest of the suit led.
                let by_rank = match (lead.first, rules.first_lead, rules.lead_colors) {
                    (true, FirstLead::LowestOverall, _) => Some(false),
                    (true, FirstLead::LowestBlack, _) | (false, _, LeadColors::StrictAlternate) => {
                        Some(true)
                    }
                    _ => None,
                };
                let proper = match by_rank {
                    Some(colour_only) => lowest_rank(hand, lead.card, colour_only),
                    None => lowest_of_suit(hand, lead.card),
                };
                assert_eq!(
                    !proper, lead.misplay,
                    "lead {i} ({} by seat {}, misplay: {}) is not what the sample's hand would lead",
                    lead.card, lead.seat, lead.misplay
                );
                checked += 1;
            }
        });
    }
    checked
}

#[test]
fn m9a_a_sampled_world_keeps_whether_each_lead_was_a_misplay() {
    let rules = Rules::preset(Preset::MichiganCasino);
    assert_eq!(rules.misplays, Misplays::Penalised);
    assert!(leads_kept(&rules, 12) > 1000);
    // Penalised misplays with every other way of leading.
    for preset in [Preset::Tripoley, Preset::Cosmo, Preset::Pagat] {
        let mut rules = Rules::preset(preset);
        rules.misplays = Misplays::Penalised;
        assert!(leads_kept(&rules, 4) > 100, "{preset}");
    }
}

#[test]
fn m3_m6_a_sampled_world_keeps_leads_of_the_lowest_rank_the_rule_asked_for() {
    for preset in [Preset::Tripoley, Preset::Cosmo] {
        assert!(leads_kept(&Rules::preset(preset), 16) > 200, "{preset}");
    }
}

/// Where a hand judged under D5 is now: a seat's hand (with the cards it
/// played since), or the spare (`None`).
type Place = Option<u8>;

/// What a D5 event proved about the hands at `places` as it happened.
#[derive(Clone, Copy, PartialEq, Debug)]
enum BonusFact {
    /// Each held a bonus card (an auction nobody could bid in).
    Each,
    /// None held one (a bid, a dealer's swap).
    None,
    /// One at least held none (an auction somebody could bid in).
    NotAll,
}

/// The deal's public D5 facts, their places followed through every swap.
#[derive(Default)]
struct BonusFacts {
    facts: Vec<(BonusFact, Vec<Place>)>,
    /// Since the hand auction opened: whether anybody answered, and whether
    /// it has been sold (the swap that follows is the buyer's).
    auction: Option<bool>,
    sold: bool,
}

impl BonusFacts {
    fn note(&mut self, game: &Game, events: &[Event]) {
        let dealer = game.dealer();
        let out = game.view(None).out;
        let bidders = || {
            (0..game.players() as u8)
                .filter(|&s| {
                    s != dealer && !out[usize::from(s)] && game.stacks()[usize::from(s)] > 0
                })
                .map(Some)
                .collect::<Vec<_>>()
        };
        for e in events {
            match *e {
                Event::DealStarted { .. } => *self = BonusFacts::default(),
                Event::AuctionOpened { .. } => self.auction = Some(false),
                Event::Bid { seat, .. } if self.auction.is_some() => {
                    self.auction = Some(true);
                    self.facts.push((BonusFact::None, vec![Some(seat)]));
                }
                Event::Passed { .. } if self.auction.is_some() => self.auction = Some(true),
                Event::AuctionSold { .. } => {
                    self.auction = None;
                    self.sold = true;
                }
                Event::AuctionUnsold => {
                    let fact = match self.auction.take() {
                        Some(false) => BonusFact::Each,
                        _ => BonusFact::NotAll,
                    };
                    self.facts.push((fact, bidders()));
                }
                Event::Swapped { seat } => {
                    if !std::mem::take(&mut self.sold) {
                        self.facts.push((BonusFact::None, vec![Some(seat)]));
                    }
                    for (_, places) in &mut self.facts {
                        for p in places.iter_mut() {
                            *p = match *p {
                                Some(s) if s == seat => None,
                                None => Some(seat),
                                other => other,
                            };
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The first fact `world` breaks, if any.
    fn broken(&self, world: &Game) -> Option<(BonusFact, Vec<Place>)> {
        let (hands, spare, _) = world.card_locations();
        let played = world.view(None).played;
        let bonus = |p: Place| {
            let cards = p.map_or(spare, |s| hands[usize::from(s)] | played[usize::from(s)]);
            !world.bonus_cards(cards).is_empty()
        };
        self.facts
            .iter()
            .find(|(fact, places)| match fact {
                BonusFact::Each => !places.iter().all(|&p| bonus(p)),
                BonusFact::None => places.iter().any(|&p| bonus(p)),
                BonusFact::NotAll => places.iter().all(|&p| bonus(p)),
            })
            .cloned()
    }
}

#[test]
fn d5_a_sampled_world_keeps_what_bids_swaps_and_unsold_auctions_proved_about_bonus_cards() {
    let rules = Rules::preset(Preset::MichiganCasino);
    assert!(rules.bonus_card_limits);
    let (mut checked, mut kinds) = (0, [0; 3]);
    for seed in 0..24 {
        let players = 3 + (seed % 6) as usize;
        let mut facts = BonusFacts::default();
        let mut rng = seeded_rng(seed ^ 0xd5);
        let mut decisions = 0u32;
        tripoley_testkit::play_random(&rules, players, seed, |game, events| {
            facts.note(game, events);
            let Pending::Decide { seat, .. } = game.pending() else {
                return;
            };
            decisions += 1;
            if facts.facts.is_empty() || facts.auction.is_some() || decisions % 3 != 0 {
                return;
            }
            // The facts are the real deal's.
            assert_eq!(facts.broken(game), None, "seed {seed}");
            for _ in 0..4 {
                let world = InfoSet::new(game, seat).sample(&mut rng);
                if let Some(broken) = facts.broken(&world) {
                    panic!("seed {seed}: a world sampled for seat {seat} breaks {broken:?}");
                }
                checked += 1;
            }
            for (fact, _) in &facts.facts {
                kinds[*fact as usize] += 1;
            }
        });
    }
    assert!(
        checked > 500 && kinds.iter().all(|&k| k > 10),
        "{checked} {kinds:?}"
    );
}

/// M9b as RULES.md says it, in `world`: each card a run stopped below
/// unplayed (`stops`, in order) was withheld by whoever held it (now or
/// among its played cards), and each withholder in hearts, in the order
/// they first withheld, pays the holder of each of the pay cards whose
/// space held chips (`chips`, A K Q J 10) at the settlement, as much as
/// they still have (`stacks`, T6).
fn withholding_payments(
    world: &Game,
    stops: &[Card],
    chips: [u32; 5],
    mut stacks: Vec<u32>,
) -> Vec<(u8, u8, u32)> {
    let (hands, _, _) = world.card_locations();
    let played = world.view(None).played;
    let holder = |card: Card, with_played: bool| {
        (0..hands.len())
            .find(|&h| hands[h].contains(card) || (with_played && played[h].contains(card)))
    };
    let mut withholders: Vec<(usize, bool)> = Vec::new();
    for &card in stops {
        if let Some(w) = holder(card, true) {
            let hearts = card.suit() == Suit::Hearts;
            match withholders.iter_mut().find(|(s, _)| *s == w) {
                Some((_, any)) => *any |= hearts,
                None => withholders.push((w, hearts)),
            }
        }
    }
    let ranks = [Rank::Ace, Rank::King, Rank::Queen, Rank::Jack, Rank::Ten];
    let mut paid = Vec::new();
    for (w, _) in withholders.into_iter().filter(|&(_, hearts)| hearts) {
        for (rank, on) in ranks.into_iter().zip(chips) {
            let amount = on.min(stacks[w]);
            match holder(Card::new(rank, Suit::Hearts), false) {
                Some(h) if h != w && amount > 0 => {
                    stacks[w] -= amount;
                    stacks[h] += amount;
                    paid.push((w as u8, h as u8, amount));
                }
                _ => {}
            }
        }
    }
    paid
}

/// M9b's payments: payer, payee and amount each.
type Payments = Vec<(u8, u8, u32)>;

const PAY_SPACES: [Space; 5] = [
    Space::Ace,
    Space::King,
    Space::Queen,
    Space::Jack,
    Space::Ten,
];

/// Follows a deal step by step for M9b: the cards its runs stopped below
/// unplayed, and the chips before each step.
#[derive(Clone)]
struct Withholding {
    stops: Vec<Card>,
    /// The pay spaces' chips and the stacks after the last step.
    chips: [u32; 5],
    stacks: Vec<u32>,
}

/// A deal's settlement: the withholding payments made, and what M9b's
/// payments are worked out from.
struct Settlement {
    seen: Payments,
    stops: Vec<Card>,
    chips: [u32; 5],
    stacks: Vec<u32>,
}

impl Settlement {
    /// The payments RULES.md asks for in `world` (settled as the game was).
    fn due(&self, world: &Game) -> Payments {
        withholding_payments(world, &self.stops, self.chips, self.stacks.clone())
    }
}

impl Withholding {
    fn new(game: &Game) -> Withholding {
        Withholding {
            stops: Vec::new(),
            chips: PAY_SPACES.map(|space| game.layout().get(space)),
            stacks: game.stacks().to_vec(),
        }
    }

    /// After a step of `game` that told `events`: the settlement, when the
    /// step settled a deal whose runs stopped below unplayed cards.
    fn step(&mut self, game: &Game, events: &[Event]) -> Option<Settlement> {
        // The pay spaces' chips as the settlement began, and what it paid.
        let (mut chips, mut stacks) = (self.chips, self.stacks.clone());
        let mut seen = Vec::new();
        for e in events {
            match *e {
                Event::DealStarted { .. } => self.stops.clear(),
                Event::RunStopped {
                    next: Some(card),
                    reason: StopReason::NotPlayed,
                } => self.stops.push(card),
                Event::Transfer(Transfer {
                    from: Account::Stack(w),
                    to: Account::Stack(h),
                    amount,
                    reason: Reason::Withheld,
                }) => seen.push((w, h, amount)),
                Event::Transfer(Transfer {
                    from, to, amount, ..
                }) if seen.is_empty() => {
                    if let Account::Stack(s) = from {
                        stacks[usize::from(s)] -= amount;
                    }
                    if let Account::Stack(s) = to {
                        stacks[usize::from(s)] += amount;
                    }
                    for (i, &space) in PAY_SPACES.iter().enumerate() {
                        if from == Account::Space(space) {
                            chips[i] -= amount;
                        }
                        if to == Account::Space(space) {
                            chips[i] += amount;
                        }
                    }
                }
                _ => {}
            }
        }
        self.chips = PAY_SPACES.map(|space| game.layout().get(space));
        self.stacks = game.stacks().to_vec();
        let settled = events.iter().any(|e| matches!(e, Event::DealEnded { .. }));
        (settled && !self.stops.is_empty()).then(|| Settlement {
            seen,
            stops: self.stops.clone(),
            chips,
            stacks,
        })
    }
}

#[test]
fn m9b_a_sampled_settled_deal_makes_the_withholding_payments_everyone_saw() {
    let rules = Rules::preset(Preset::MichiganCasino);
    let mut checked = 0;
    for seed in 0..16 {
        let players = 3 + (seed % 4) as usize;
        let mut rng = seeded_rng(seed ^ 0x9b);
        let mut watch: Option<Withholding> = None;
        tripoley_testkit::play_random(&rules, players, seed, |game, events| {
            let watch = watch.get_or_insert_with(|| Withholding::new(game));
            let Some(settled) = watch.step(game, events) else {
                return;
            };
            assert_eq!(settled.due(game), settled.seen, "seed {seed}");
            for seat in 0..players as u8 {
                let world = InfoSet::new(game, seat).sample(&mut rng);
                assert_eq!(
                    settled.due(&world),
                    settled.seen,
                    "seed {seed}: a world sampled for seat {seat}"
                );
                checked += 1;
            }
        });
    }
    assert!(checked > 100, "{checked}");
}

/// Plays `world` on at random to the end of its deal, followed from
/// `watch`: the world then, and its settlement.
fn settle(
    mut world: Game,
    mut watch: Withholding,
    rng: &mut tripoley_cards::GameRng,
) -> (Game, Settlement) {
    let mut events = Vec::new();
    loop {
        let Pending::Decide { seat, decision } = world.pending() else {
            panic!("a deal whose runs stopped below unplayed cards ends with their settlement");
        };
        let action = tripoley_testkit::random_action(&decision, rng);
        events.clear();
        world
            .step(&tripoley_engine::Step::Act { seat, action }, &mut events)
            .expect("a legal step applies");
        if let Some(settled) = watch.step(&world, &events) {
            return (world, settled);
        }
    }
}

#[test]
fn m9b_in_a_sampled_world_whoever_holds_a_card_a_run_stopped_below_withheld_it() {
    // At stage-3 decisions after a run stopped below an unplayed card, a
    // world sampled for the deciding seat is played on to its settlement: it pays
    // what M9b asks of the world's own hands, in which whoever holds such a
    // card withheld it.
    let rules = Rules::preset(Preset::MichiganCasino);
    let mut checked = 0;
    for seed in 0..24 {
        let players = 3 + (seed % 4) as usize;
        let mut rng = seeded_rng(seed ^ 0x9b9b);
        let mut watch: Option<Withholding> = None;
        tripoley_testkit::play_random(&rules, players, seed, |game, events| {
            let watch = watch.get_or_insert_with(|| Withholding::new(game));
            watch.step(game, events);
            // Worlds are sampled for the seat that decides, as bots do.
            let Pending::Decide { seat, .. } = game.pending() else {
                return;
            };
            if watch.stops.is_empty() || game.view(None).stage != Stage::Michigan {
                return;
            }
            let world = InfoSet::new(game, seat).sample(&mut rng);
            let (end, settled) = settle(world, watch.clone(), &mut rng);
            assert_eq!(
                settled.seen,
                settled.due(&end),
                "seed {seed}: a world sampled for seat {seat}"
            );
            checked += 1;
        });
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn m9b_a_likely_world_puts_the_cards_runs_stopped_below_in_the_spare() {
    // Random games in which nobody withholds, as bots and most people play:
    // every card a run stopped below lies in the spare. A likely world puts
    // each there too, where a uniform one puts most in hands (whose holders
    // it must then make withholders).
    let rules = Rules::preset(Preset::MichiganCasino);
    let (mut checked, mut stops, mut uniform_in_hands) = (0, 0, 0);
    for seed in 0..24u64 {
        let players = 3 + (seed % 4) as usize;
        let mut rng = seeded_rng(seed ^ 0x5b5b);
        let mut events = Vec::new();
        let mut game = Game::start(rules.clone(), players, &mut events).expect("a table");
        let mut watch = Withholding::new(&game);
        loop {
            let step = match game.pending() {
                Pending::GameOver => break,
                Pending::Chance(_) => {
                    tripoley_engine::Step::Chance(DealChance::random(&rules, &mut rng))
                }
                Pending::Decide { seat, decision } => {
                    let action = match decision {
                        Decision::Follow { .. } => Action::Play,
                        _ => tripoley_testkit::random_action(&decision, &mut rng),
                    };
                    tripoley_engine::Step::Act { seat, action }
                }
            };
            events.clear();
            game.step(&step, &mut events).expect("a legal step applies");
            watch.step(&game, &events);
            let Pending::Decide { seat, .. } = game.pending() else {
                continue;
            };
            if watch.stops.is_empty() || game.view(None).stage != Stage::Michigan {
                continue;
            }
            let spare = game.card_locations().1;
            assert!(
                watch.stops.iter().all(|&c| spare.contains(c)),
                "nobody withheld"
            );
            let info = InfoSet::new(&game, seat);
            let likely = info.sample_likely(&mut rng).card_locations().1;
            assert!(
                watch.stops.iter().all(|&c| likely.contains(c)),
                "seed {seed}: stops {:?}, a likely spare {likely:?}",
                watch.stops
            );
            let uniform = info.sample(&mut rng).card_locations().1;
            stops += watch.stops.len();
            uniform_in_hands += watch
                .stops
                .iter()
                .filter(|&&c| !uniform.contains(c))
                .count();
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked}");
    assert!(
        uniform_in_hands * 3 > stops,
        "{uniform_in_hands} of {stops}"
    );
}

/// M5, M6: a seat asked to lead holds a card it may lead, or the turn would
/// have passed it by; everyone can tell. So a world sampled for any other
/// seat keeps a lead it can make: over random games of every preset, at
/// every stage-3 lead, worlds for the other seats ask the same seat to lead
/// and give it a card to lead.
#[test]
fn m5_m6_a_world_sampled_by_another_seat_leaves_the_leader_a_card_to_lead() {
    let mut checked = 0;
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        for seed in 0..6 {
            let players = 3 + (seed % 4) as usize;
            let mut rng = seeded_rng(seed ^ 0xa5a5);
            tripoley_testkit::play_random(&rules, players, seed, |game, _| {
                let Pending::Decide {
                    seat: leader,
                    decision: Decision::Lead { .. },
                } = game.pending()
                else {
                    return;
                };
                for other in (0..players as u8).filter(|&s| s != leader) {
                    let world = InfoSet::new(game, other).sample(&mut rng);
                    match world.pending() {
                        Pending::Decide {
                            seat,
                            decision: Decision::Lead { cards },
                        } if seat == leader && !cards.is_empty() => checked += 1,
                        pending => panic!(
                            "{preset:?}: seat {leader} leads, but in seat {other}'s world: {pending:?}"
                        ),
                    }
                }
            });
        }
    }
    assert!(checked > 1000, "{checked} worlds checked");
}

/// M9b: while a run waits on a card's holder (to play or withhold it),
/// everyone can tell that a hand holds it, not whose. A world sampled for
/// another seat deals the card to a hand, and that hand decides: over
/// random games of penalised misplays, at every such wait, each other
/// seat's world asks the card's holder in that world, who may play it.
#[test]
fn m9b_a_world_sampled_by_another_seat_while_a_run_waits_asks_the_cards_holder() {
    let rules = Rules::preset(Preset::MichiganCasino);
    let mut checked = 0;
    for seed in 0..12 {
        let players = 3 + (seed % 4) as usize;
        let mut rng = seeded_rng(seed ^ 0x9b9b);
        tripoley_testkit::play_random(&rules, players, seed, |game, _| {
            let Pending::Decide {
                seat: follower,
                decision: Decision::Follow { card },
            } = game.pending()
            else {
                return;
            };
            for other in (0..players as u8).filter(|&s| s != follower) {
                let mut world = InfoSet::new(game, other).sample(&mut rng);
                let (hands, _, _) = world.card_locations();
                match world.pending() {
                    Pending::Decide {
                        seat,
                        decision: Decision::Follow { card: waited },
                    } if waited == card && hands[usize::from(seat)].contains(card) => {
                        world
                            .apply(seat, Action::Play)
                            .expect("the holder plays the card");
                        checked += 1;
                    }
                    pending => panic!(
                        "seat {follower} may follow with {card}, but in seat {other}'s world: \
                         {pending:?}, {card} in hands {hands:?}"
                    ),
                }
            }
        });
    }
    assert!(checked > 50, "{checked} worlds checked");
}
