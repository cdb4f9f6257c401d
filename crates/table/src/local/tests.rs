//! The offline table: whole games of every preset, house rules that hold a
//! run's stop, and Napalm; resuming a saved game goes on exactly as the game
//! would have; and two games that differ only in a card a seat may not know
//! send that seat the same frames.

use serde_json::Value;
use tripoley_bots::{BotKind, HeuristicBot};
use tripoley_engine::{Misplays, Preset, Rules, Seat};
use tripoley_game::Bot as _;
use tripoley_napalm::{HeuristicNapalmBot, NapalmRules};

use super::{Local, Next, step_rng};
use crate::protocol::{GameKind, TableSettings, TableStatus};

fn settings(game: GameKind, rules: Rules, seats: u8) -> TableSettings {
    TableSettings {
        rules,
        seats,
        turn_seconds: 0,
        bot: BotKind::Heuristic,
        seat_bots: std::collections::BTreeMap::default(),
        game,
        napalm: (game == GameKind::Napalm).then(NapalmRules::default),
        public: false,
    }
}

/// A table of `seats` with people in `people` and heuristic bots elsewhere.
fn table(settings: TableSettings, people: &[Seat], seed: u64) -> Local {
    let seats = usize::from(settings.seats);
    let names = (0..seats).map(|s| format!("P{s}")).collect();
    let bots = (0..seats)
        .map(|s| (!people.contains(&(s as Seat))).then_some(BotKind::Heuristic))
        .collect();
    Local::new(settings, names, bots, seed, None).expect("a valid table")
}

/// What a person at the table would do: the heuristic's choice.
fn person_move(t: &Local, seat: Seat) -> Value {
    let mut rng = step_rng(1, t.played.steps());
    if let Some(game) = t.played.tripoley() {
        let a = HeuristicBot::for_rules(game.rules()).act(&game.view(Some(seat)), &mut rng);
        serde_json::to_value(a).unwrap()
    } else {
        let game = t.played.napalm().unwrap();
        let a = HeuristicNapalmBot.act(&game.view(Some(seat)), &mut rng);
        serde_json::to_value(a).unwrap()
    }
}

/// Plays the table to its end (or `limit` moves), checking every frame the
/// person's seats are sent; returns the `update`s of seat 0.
fn play_out(t: &mut Local, limit: usize) -> Vec<String> {
    let mut frames = Vec::new();
    for _ in 0..limit {
        let before = t.n();
        match t.next() {
            Next::Over => break,
            Next::Person(seat) => {
                let action = person_move(t, seat);
                t.act(seat, &action, Some(t.n())).expect("a legal move");
            }
            Next::Bot(_) => assert!(t.bot_acts()),
            Next::Held => assert!(t.release()),
        }
        // Each step (chance dealt after it included) moves the event number on.
        assert!(t.n() > before, "a step moves the game on");
        let update: Value = serde_json::from_str(&t.update(Some(0))).unwrap();
        assert_eq!(update["type"], "update");
        assert_eq!(update["n"], t.n());
        frames.push(t.update(Some(0)));
    }
    frames
}

fn every_table() -> Vec<(String, TableSettings)> {
    let mut all: Vec<_> = Preset::ALL
        .iter()
        .map(|&p| {
            (
                p.name().to_owned(),
                settings(GameKind::Tripoley, Rules::preset(p), 4),
            )
        })
        .collect();
    let penalised = Rules {
        misplays: Misplays::Penalised,
        ..Rules::preset(Preset::Pagat)
    };
    all.push((
        "pagat, penalised misplays".into(),
        settings(GameKind::Tripoley, penalised, 5),
    ));
    all.push((
        "napalm".into(),
        settings(GameKind::Napalm, Rules::default(), 4),
    ));
    all
}

#[test]
fn every_preset_house_rules_and_napalm_play_to_the_end() {
    for (name, s) in every_table() {
        let mut t = table(s, &[0], 7);
        let frames = play_out(&mut t, 20_000);
        assert_eq!(t.next(), Next::Over, "{name}: over");
        assert_eq!(t.info().status, TableStatus::Finished, "{name}");
        assert!(frames.len() > 20, "{name}: {} steps", frames.len());
        // The game's end is in seat 0's view: standings (Tripoley) or the
        // game-over event (Napalm).
        let state: Value = serde_json::from_str(&t.state(Some(0))).unwrap();
        assert_eq!(state["type"], "state", "{name}");
    }
}

#[test]
fn a_resumed_game_goes_on_exactly_as_it_would_have() {
    for (name, s) in every_table() {
        let mut whole = table(s.clone(), &[0, 2], 11);
        play_out(&mut whole, 60);
        let saved = whole.saved();
        let mut resumed = Local::resume(&saved).expect("a saved game resumes");
        assert_eq!(resumed.state(Some(0)), whole.state(Some(0)), "{name}");
        assert_eq!(resumed.state(Some(2)), whole.state(Some(2)), "{name}");
        assert_eq!(resumed.n(), whole.n(), "{name}");
        let a = play_out(&mut whole, 20_000);
        let b = play_out(&mut resumed, 20_000);
        assert_eq!(a, b, "{name}: the same frames after the resume");
        assert_eq!(whole.saved(), resumed.saved(), "{name}");
    }
}

#[test]
fn a_saved_game_is_a_record_tripoley_reads() {
    let mut t = table(settings(GameKind::Tripoley, Rules::default(), 4), &[0], 3);
    play_out(&mut t, 40);
    let record = tripoley_engine::Record::from_json(&t.saved()).expect("a record");
    assert_eq!(record.names.len(), 4);
    let (game, _) = record.replay().expect("it replays");
    let live = t.played.tripoley().unwrap();
    assert_eq!(game.view(None).stacks, live.view(None).stacks);
}

#[test]
fn a_bad_saved_game_is_refused_with_a_reason() {
    for bad in [
        "",
        "{}",
        "[]",
        r#"{"play": {"seed": 1, "human": 0, "bots": [], "label": ""}}"#,
    ] {
        let e = Local::resume(bad).err().expect("refused");
        assert!(!e.message.is_empty(), "{bad:?}");
    }
    // Every seat a bot: nobody on this device plays it.
    let mut t = table(settings(GameKind::Tripoley, Rules::default(), 4), &[0], 3);
    play_out(&mut t, 5);
    let mut v: Value = serde_json::from_str(&t.saved()).unwrap();
    v["play"]["bots"][0] = "heuristic".into();
    assert!(Local::resume(&v.to_string()).is_err());
}

#[test]
fn a_person_acts_only_for_their_seat_and_at_the_current_event() {
    let mut t = table(settings(GameKind::Tripoley, Rules::default(), 4), &[0], 5);
    while !matches!(t.next(), Next::Person(0)) {
        assert!(t.bot_acts() || t.release());
    }
    let action = person_move(&t, 0);
    let n = t.n();
    assert!(t.act(1, &action, Some(n)).is_err(), "a bot's seat");
    assert!(t.act(0, &action, Some(n + 1)).is_err(), "a stale event");
    assert!(t.act(0, &Value::from("nonsense"), Some(n)).is_err());
    assert_eq!(t.n(), n, "nothing refused changed the game");
    t.act(0, &action, Some(n)).expect("legal");
}

/// Two games that differ only in which of two other seats holds which of
/// two cards: seat 0's frames are the same, byte for byte.
#[test]
fn seat_zero_cannot_tell_two_games_apart_by_other_hands() {
    let mut t = table(settings(GameKind::Tripoley, Rules::default(), 4), &[0], 9);
    // The deal on the table came with the record's last step (a chance).
    let saved: Value = serde_json::from_str(&t.saved()).unwrap();
    let game = t.played.tripoley().unwrap();
    let one = game.view(Some(1)).hand.iter().next().unwrap().to_string();
    let two = game.view(Some(2)).hand.iter().next().unwrap().to_string();
    let mut swapped = saved.clone();
    let steps = swapped["steps"].as_array_mut().unwrap();
    let deck = steps.last_mut().unwrap()["chance"]["deck"]
        .as_array_mut()
        .expect("the last step dealt a deck");
    let i = deck
        .iter()
        .position(|c| c == &Value::from(one.clone()))
        .unwrap();
    let j = deck
        .iter()
        .position(|c| c == &Value::from(two.clone()))
        .unwrap();
    deck.swap(i, j);
    let other = Local::resume(&swapped.to_string()).expect("the other game resumes");
    assert_ne!(
        other.state(Some(1)),
        t.state(Some(1)),
        "seat 1 sees its card"
    );
    assert_eq!(other.state(Some(0)), t.state(Some(0)));
    assert_eq!(other.state(None), t.state(None));
    play_out(&mut t, 1);
}
