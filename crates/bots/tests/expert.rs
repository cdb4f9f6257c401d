//! The expert bot: reproducible for a seed and a playout budget, and
//! stronger than the heuristic bot in duplicate play.

use tripoley_bots::arena::{ArenaConfig, run_arena};
use tripoley_bots::{Bot, BotKind, BotOptions, Budget, ExpertBot, advise, hint, judge};
use tripoley_cards::seeded_rng;
use tripoley_engine::{Action, DealChance, Decision, Game, InfoSet, Pending, Preset, Rules, Stage};
use tripoley_game::{Bot as _, Dice};

/// Plays `rules` with heuristic bots from `seed` until the first decision in
/// `stage`, and returns the game there.
fn game_at(rules: &Rules, players: usize, seed: u64, stage: Stage) -> Game {
    let mut rng = seeded_rng(seed);
    let mut game = Game::new(rules.clone(), players).unwrap();
    let mut bot = BotKind::Heuristic.make(rules);
    loop {
        match game.pending() {
            Pending::Chance(_) => {
                game.chance(DealChance::random(rules, &mut rng)).unwrap();
            }
            Pending::Decide { seat, .. } => {
                if game.stage() == stage {
                    return game;
                }
                let a = bot.act_in(&InfoSet::new(&game, seat), &mut rng);
                game.apply(seat, a).unwrap();
            }
            Pending::GameOver => panic!("no decision in {stage:?}"),
        }
    }
}

fn seat_to_act(game: &Game) -> u8 {
    match game.pending() {
        Pending::Decide { seat, .. } => seat,
        _ => unreachable!(),
    }
}

#[test]
fn same_seed_and_budget_give_the_same_action() {
    let cases = [
        (Preset::Pagat, Stage::Spare),
        (Preset::Pagat, Stage::Betting),
        (Preset::Tripoley, Stage::Michigan),
        (Preset::MichiganCasino, Stage::Michigan),
    ];
    for (i, (preset, stage)) in cases.into_iter().enumerate() {
        let rules = Rules::preset(preset);
        let game = game_at(&rules, 4, 40 + i as u64, stage);
        let info = InfoSet::new(&game, seat_to_act(&game));
        let decide = |seed| {
            ExpertBot::new(&rules, Budget::playouts(120)).act_in(&info, &mut seeded_rng(seed))
        };
        let a = decide(9);
        assert_eq!(a, decide(9), "{preset} {stage:?}");
        assert!(game.check(info.seat(), a).is_ok());
        assert_eq!(
            hint(&info, &rules, Budget::playouts(60)),
            hint(&info, &rules, Budget::playouts(60))
        );
    }
}

#[test]
fn expert_games_replay_exactly_for_a_seed() {
    let rules = Rules::preset(Preset::Rummoli);
    let play = || {
        let mut bots: Vec<Box<dyn Bot>> = vec![
            Box::new(ExpertBot::new(&rules, Budget::playouts(40))),
            BotKind::Heuristic.make(&rules),
            Box::new(ExpertBot::new(&rules, Budget::playouts(40))),
        ];
        let mut steps = Vec::new();
        let rules1 = Rules {
            deals: Some(1),
            ..rules.clone()
        };
        let (mut chance, mut bot_rng) = (seeded_rng(5), seeded_rng(6));
        let dice = Dice {
            chance: &mut chance,
            bots: Some(&mut bot_rng),
        };
        tripoley_bots::play_game_with(&rules1, &mut bots, dice, |s, _| steps.push(s.clone()))
            .unwrap();
        steps
    };
    assert_eq!(play(), play());
}

#[test]
fn duplicate_play_sees_the_same_decks_in_every_rotation() {
    let config = ArenaConfig {
        rules: Rules::preset(Preset::Pagat),
        players: 3,
        bots: vec![BotKind::Heuristic.into()],
        deals: 200,
        seed: 4,
        options: BotOptions::default(),
    };
    let s = run_arena(&config, &|_| {}).unwrap();
    // One bot in every seat: a single line-up.
    assert_eq!(s.lineups.len(), 1);
    assert_eq!(s.games, 200);
    // Two bots at four seats: two line-ups, each bot in every seat once.
    let config = ArenaConfig {
        bots: vec![BotKind::Heuristic.into(), BotKind::Random.into()],
        players: 4,
        ..config
    };
    let s = run_arena(&config, &|_| {}).unwrap();
    assert_eq!(s.lineups.len(), 2);
    let d = &s.differences[0].chips_per_deal;
    assert!(d.mean - d.ci95 > 0.0, "heuristic beats random: {d:?}");
    // Zero-sum over the same decks: the two bots' means are opposite.
    let (h, r) = (
        &s.bots[0].chips.chips_per_deal,
        &s.bots[1].chips.chips_per_deal,
    );
    assert!((h.mean + r.mean).abs() < 1e-9, "{h:?} {r:?}");
}

#[test]
fn expert_beats_heuristic_in_a_small_duplicate_match() {
    let config = ArenaConfig {
        rules: Rules::preset(Preset::Tripoley),
        players: 4,
        bots: vec![BotKind::Expert.into(), BotKind::Heuristic.into()],
        deals: 300,
        seed: 12,
        options: BotOptions {
            budget: Budget::playouts(300),
            ..BotOptions::default()
        },
    };
    let s = run_arena(&config, &|_| {}).unwrap();
    let d = &s.differences[0];
    assert_eq!(d.bot, BotKind::Expert);
    // With 300 playouts a decision the expert wins about 0.9 chips a deal
    // here (the run is deterministic: a playout budget and a seed). Against
    // the heuristic as it played until 2026-11 it won 4 with 24 playouts:
    // the heuristic reads bets and leads better since.
    let total = d.chips_per_deal;
    assert!(total.mean - total.ci95 > 0.0, "{total:?}");
    // It wins in Michigan, where the search sees furthest.
    let stage = |i: usize| s.bots[i].chips.by_stage[&tripoley_bots::sim::Stage::Michigan];
    let (e, h) = (stage(0), stage(1));
    assert!(
        e.mean - h.mean > 0.0,
        "expert {e:?} vs heuristic {h:?} in Michigan; total {:?}",
        d.chips_per_deal
    );
    assert!(s.search[0].playouts > 0);
}

/// M10: a lead with one card is asked (its cause is hidden), yet there is
/// nothing to think about: the expert, its hint and its verdict answer it
/// at once, with no sampled world, however large the budget.
#[test]
fn m10_a_lead_with_one_card_is_answered_without_a_search() {
    let rules = Rules::preset(Preset::Tripoley);
    let mut rng = seeded_rng(31);
    let mut game = Game::new(rules.clone(), 4).unwrap();
    let mut bot = BotKind::Heuristic.make(&rules);
    let (seat, card) = loop {
        match game.pending() {
            Pending::Chance(_) => {
                game.chance(DealChance::random(&rules, &mut rng)).unwrap();
            }
            Pending::Decide {
                seat,
                decision: Decision::Lead { cards },
            } if cards.len() == 1 => break (seat, cards.lowest().unwrap()),
            Pending::Decide { seat, .. } => {
                let a = bot.act_in(&InfoSet::new(&game, seat), &mut rng);
                game.apply(seat, a).unwrap();
            }
            Pending::GameOver => panic!("no lead with one card"),
        }
    };
    let info = InfoSet::new(&game, seat);
    let huge = Budget::playouts(10_000_000);
    let mut expert = ExpertBot::new(&rules, huge);
    assert_eq!(expert.act_in(&info, &mut rng), Action::Lead(card));
    let stats = expert.take_stats().unwrap();
    assert_eq!((stats.decisions, stats.searched, stats.playouts), (1, 0, 0));
    let advice = advise(&info, &rules, huge);
    assert_eq!(advice.best, Action::Lead(card));
    assert!(advice.means.is_empty());
    let verdict = judge(&info, &rules, Action::Lead(card), huge, 1);
    assert_eq!((verdict.cost, verdict.worlds), (0.0, 0));
    for kind in [BotKind::Random, BotKind::Heuristic] {
        let mut bot = kind.make(&rules);
        assert_eq!(bot.act_in(&info, &mut rng), Action::Lead(card), "{kind:?}");
    }
}

/// P1, issue 47: the expert called full houses 5-chip mistakes in favour of
/// high-card fives, because its playouts made the seat's own later bets
/// with a heuristic that called bettors by its hand's odds against random
/// hands (so a strong five lost more in the betting than a five that folds
/// at once) and led in Michigan by the run in its own hand. Every
/// straight-or-better five chosen in three recorded games (heuristic
/// players, seed 9 of `tripoley sim`: pagat, tripoley, rummoli), judged as
/// the analysis judges it: none may be called a mistake in favour of a
/// weaker kind of five by more than two standard errors. Before the fix, 13
/// of these 34 were called mistakes, of up to 3.3 chips.
#[test]
fn p1_a_strong_five_is_not_called_a_mistake_for_a_weaker_kind() {
    use tripoley_cards::Category;
    use tripoley_engine::{Record, Step};
    let mut wrong = Vec::new();
    let mut judged = 0;
    for text in [
        include_str!("data/fives-pagat.json"),
        include_str!("data/fives-tripoley.json"),
        include_str!("data/fives-rummoli.json"),
    ] {
        let record = Record::from_json(text).unwrap();
        let rules = record.rules.clone();
        let eval = rules.evaluator();
        let mut game = Game::new(rules.clone(), record.names.len()).unwrap();
        for (i, step) in record.steps.iter().enumerate() {
            match *step {
                Step::Act { seat, action } => {
                    if let Action::Choose(five) = action
                        && eval.best(five).category() >= Category::Straight
                    {
                        judged += 1;
                        let seed = 0x5EED ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        let v = judge(
                            &InfoSet::new(&game, seat),
                            &rules,
                            action,
                            Budget::playouts(800),
                            seed,
                        );
                        let Action::Choose(best) = v.best else {
                            unreachable!("a five answers a five")
                        };
                        if eval.best(best).category() < eval.best(five).category()
                            && v.cost > 2.0 * v.std_error
                        {
                            wrong.push(format!("step {i}: {five} -> {best}: {v:?}"));
                        }
                    }
                    game.apply(seat, action).unwrap();
                }
                Step::Chance(ref c) => {
                    game.chance(c.clone()).unwrap();
                }
            }
        }
    }
    assert_eq!(judged, 34);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The heuristic reads bets and counts whole sequences in its leads since
/// issue 47: in duplicate play it beats itself as it played until 2026-11
/// (`heuristic-2026-11`) in every preset that asks those decisions, and in
/// Michigan, where the new leads play.
#[test]
fn the_heuristic_beats_its_anchor() {
    for preset in [Preset::Pagat, Preset::Tripoley, Preset::Rummoli] {
        let config = ArenaConfig {
            rules: Rules::preset(preset),
            players: 4,
            bots: vec![
                BotKind::Heuristic.into(),
                "heuristic-2026-11".parse().unwrap(),
            ],
            deals: 2000,
            seed: 5,
            options: BotOptions::default(),
        };
        let s = run_arena(&config, &|_| {}).unwrap();
        let d = s.differences[0].chips_per_deal;
        assert!(d.mean - d.ci95 > 0.0, "{preset}: {d:?}");
        let stage = |i: usize| s.bots[i].chips.by_stage[&tripoley_bots::sim::Stage::Michigan];
        assert!(stage(0).mean > stage(1).mean, "{preset}");
    }
}
