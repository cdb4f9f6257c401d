//! A step held back (M9b) takes no action while it is held, and a game
//! replayed from its steps is the game played live.

use tripoley_bots::{BotKind, record_game};
use tripoley_engine::{Misplays, Preset, Rules, Step};

use super::*;
use tripoley_engine::Action;

fn penalised(seats: u8) -> TableSettings {
    TableSettings {
        rules: Rules {
            misplays: Misplays::Penalised,
            deals: Some(3),
            ..Rules::preset(Preset::Pagat)
        },
        seats,
        turn_seconds: 0,
        bot: BotKind::Random,
        seat_bots: std::collections::BTreeMap::default(),
        game: GameKind::Tripoley,
        napalm: None,
        public: false,
    }
}

/// M9b: while a stop is held, no seat's action is taken, whatever the
/// game shown meanwhile would take; nothing of the record or the log moves.
#[test]
fn m9b_a_held_step_takes_no_action_until_it_is_released() {
    let mut holds = 0;
    for seed in 0..12 {
        let settings = penalised(4);
        let names: Vec<String> = (0..4).map(|s| format!("P{s}")).collect();
        let mut bots: Vec<_> = (0..4)
            .map(|_| BotKind::Random.make(&settings.rules))
            .collect();
        let record = record_game(&settings.rules, &mut bots, names.clone(), seed).expect("a game");
        let mut played = Played::start(&settings, names).expect("it starts");
        for step in record.steps {
            played
                .check(&TableStep::Tripoley(step.clone()))
                .expect("legal");
            played.apply(TableStep::Tripoley(step)).expect("applied");
            while played.due() == Due::Held {
                holds += 1;
                let (n, steps) = (played.n(), played.steps());
                let shown = played.tripoley().expect("Tripoley").clone();
                for seat in 0..4 {
                    let mut tried = shown.legal(seat);
                    tried.extend([Action::Play, Action::Withhold, Action::Pass]);
                    for action in tried {
                        let act = TableStep::Tripoley(Step::Act { seat, action });
                        assert!(played.check(&act).is_err(), "seed {seed}: {action:?} taken");
                    }
                }
                assert_eq!((played.n(), played.steps()), (n, steps));
                assert!(played.release());
                assert_eq!(played.n(), n + 1, "a released part is the next event");
            }
        }
        assert_eq!(played.due(), Due::Over, "seed {seed}");
    }
    assert!(holds > 5, "the games held {holds} stops");
}

/// A game rebuilt from its stored steps has the live game's log, journal
/// and frames: the server reloads a table this way.
#[test]
fn a_replayed_game_is_the_game_played_live() {
    let settings = penalised(5);
    let names: Vec<String> = (0..5).map(|s| format!("P{s}")).collect();
    let mut bots: Vec<_> = (0..5)
        .map(|_| BotKind::Heuristic.make(&settings.rules))
        .collect();
    let record = record_game(&settings.rules, &mut bots, names.clone(), 3).expect("a game");
    let steps: Vec<_> = record.steps.into_iter().map(TableStep::Tripoley).collect();
    let mut live = Played::start(&settings, names.clone()).expect("it starts");
    for step in steps.clone() {
        live.apply(step).expect("applied");
        while live.release() {}
    }
    let mut replayed = Played::start(&settings, names).expect("it starts");
    replayed.replay(steps).expect("it replays");
    assert_eq!(replayed.n(), live.n());
    assert_eq!(replayed.deal_span(), live.deal_span());
    assert_eq!(replayed.record_json(), live.record_json());
    for viewer in [None, Some(0), Some(4)] {
        let frame = |p: &Played| {
            let mut out = Vec::new();
            p.write_view_and_turn(viewer, &mut out, |_| None);
            out
        };
        assert_eq!(frame(&replayed), frame(&live));
        for k in 0..live.log_len() {
            let seen = |p: &Played| {
                let entries = p.journal().step(k).expect("an entry");
                frames::seen_by(&entries, viewer)
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            };
            assert_eq!(seen(&replayed), seen(&live), "entry {k}");
        }
    }
}

/// Issue 49: a game stored up to a withhold (M9b) replays with it held
/// whole, as the server holds it live until its window ends: the game shown
/// is the one before it, which takes no action, not even its seat's answer
/// again; released, it is the next event, as live.
#[test]
fn m9b_a_replay_that_ends_in_a_withhold_holds_it_until_released() {
    let settings = penalised(4);
    let names: Vec<String> = (0..4).map(|s| format!("P{s}")).collect();
    let mut bots: Vec<_> = (0..4)
        .map(|_| BotKind::Random.make(&settings.rules))
        .collect();
    let record = record_game(&settings.rules, &mut bots, names.clone(), 7).expect("a game");
    let k = record
        .steps
        .iter()
        .position(|s| {
            matches!(
                s,
                Step::Act {
                    action: Action::Withhold,
                    ..
                }
            )
        })
        .expect("a withhold");
    let steps: Vec<_> = record.steps[..=k]
        .iter()
        .cloned()
        .map(TableStep::Tripoley)
        .collect();
    let mut live = Played::start(&settings, names.clone()).expect("it starts");
    for step in steps[..k].iter().cloned() {
        live.apply(step).expect("applied");
        while live.release() {}
    }
    let mut replayed = Played::start(&settings, names).expect("it starts");
    replayed.replay(steps.clone()).expect("it replays");
    assert_eq!(replayed.due(), Due::Held);
    assert_eq!(replayed.n(), live.n(), "nothing of the withhold is shown");
    assert_eq!(replayed.tripoley(), live.tripoley());
    assert!(
        replayed.check(&steps[k]).is_err(),
        "its seat cannot answer again"
    );
    assert!(replayed.release());
    while replayed.release() {}
    live.apply(steps[k].clone()).expect("applied");
    while live.release() {}
    assert_eq!(replayed.n(), live.n());
    assert_eq!(replayed.tripoley(), live.tripoley());
}

/// Issue 53: the views written for a step's whole audience (what everyone
/// sees serialised once and shared) are serde's text of each viewer's own
/// view, byte for byte, at every moment of random games of every preset,
/// penalised misplays (M9b's secret follow) and a finished game included.
#[test]
fn views_written_for_an_audience_are_each_viewer_s_own() {
    let mut checked = 0;
    for (k, preset) in Preset::ALL.into_iter().enumerate() {
        for (seats, misplays) in [
            (4, Misplays::Penalised),
            (5, Rules::preset(preset).misplays),
        ] {
            let settings = TableSettings {
                rules: Rules {
                    misplays,
                    deals: Some(2),
                    ..Rules::preset(preset)
                },
                ..penalised(seats)
            };
            let names: Vec<String> = (0..seats).map(|s| format!("P{s}")).collect();
            let mut bots: Vec<_> = (0..seats)
                .map(|_| BotKind::Random.make(&settings.rules))
                .collect();
            let record =
                record_game(&settings.rules, &mut bots, names.clone(), k as u64).expect("a game");
            let mut played = Played::start(&settings, names).expect("it starts");
            let viewers = frames::viewers(usize::from(seats));
            let mut check = |played: &Played| {
                let views = played.views();
                let game = played.tripoley().expect("Tripoley");
                for &v in &viewers {
                    let mut written = Vec::new();
                    views.write_view_and_turn(v, &mut written, |_| None);
                    let own = serde_json::to_string(&game.view(v)).unwrap();
                    let serde = format!("\"view\":{own},\"turn\":null");
                    assert_eq!(
                        String::from_utf8(written).unwrap(),
                        serde,
                        "{preset:?}, viewer {v:?}"
                    );
                    checked += 1;
                }
            };
            check(&played);
            for step in record.steps {
                played.apply(TableStep::Tripoley(step)).expect("applied");
                check(&played);
                while played.release() {
                    check(&played);
                }
            }
            assert_eq!(played.due(), Due::Over);
        }
    }
    assert!(checked > 3_000, "{checked} views checked");
}
