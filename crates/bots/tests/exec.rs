//! Outside bots (docs/bot-protocol.md): a good one plays whole games; one
//! that answers garbage, an illegal move, hangs or exits is replaced by the
//! heuristic bot, and the reason is kept.

use std::path::PathBuf;
use std::time::Duration;

use tripoley_bots::{BotKind, BotSpec, ExecBot};
use tripoley_cards::seeded_rng;
use tripoley_engine::{DealChance, Game, Pending, Preset, Rules};
use tripoley_game::Bot as _;

/// A temporary folder with `name` holding `script`.
fn script(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tripoley-exec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn python(path: &std::path::Path) -> String {
    format!("python3 {}", path.display())
}

/// A game waiting for seat `seat`'s first decision, and that seat.
fn first_decision() -> (Game, Rules) {
    let rules = Rules::preset(Preset::Pagat);
    let mut game = Game::new(rules.clone(), 4).unwrap();
    let mut rng = seeded_rng(3);
    while let Pending::Chance(_) = game.pending() {
        game.chance(DealChance::random(&rules, &mut rng)).unwrap();
    }
    (game, rules)
}

/// What the bot answers at the first decision, and why it failed (if it did).
fn ask(command: &str) -> (bool, Option<String>) {
    let (game, rules) = first_decision();
    let Pending::Decide { seat, .. } = game.pending() else {
        unreachable!()
    };
    let mut bot = ExecBot::new(command, &rules, Duration::from_millis(700));
    let action = bot.act(&game.view(Some(seat)), &mut seeded_rng(1));
    (
        game.check(seat, action).is_ok(),
        bot.failure().map(str::to_owned),
    )
}

#[test]
fn the_example_bot_plays_whole_games() {
    let example =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/lowest_card_bot.py");
    for preset in [Preset::Pagat, Preset::MichiganCasino] {
        let rules = Rules {
            deals: Some(1),
            ..Rules::preset(preset)
        };
        let mut exec = ExecBot::new(&python(&example), &rules, Duration::from_secs(20));
        let mut heuristic = BotKind::Heuristic.make(&rules);
        let mut game = Game::new(rules.clone(), 3).unwrap();
        let mut rng = seeded_rng(8);
        let mut asked = 0;
        loop {
            match game.pending() {
                Pending::Chance(_) => {
                    game.chance(DealChance::random(&rules, &mut rng)).unwrap();
                }
                Pending::Decide { seat: 1, .. } => {
                    asked += 1;
                    let a = exec.act(&game.view(Some(1)), &mut rng);
                    game.apply(1, a).unwrap();
                }
                Pending::Decide { seat, .. } => {
                    let a = heuristic.act(&game.view(Some(seat)), &mut rng);
                    game.apply(seat, a).unwrap();
                }
                Pending::GameOver => break,
            }
        }
        assert!(asked > 0);
        assert_eq!(exec.failure(), None, "{preset}");
    }
}

#[test]
fn garbage_is_reported_and_the_heuristic_plays_on() {
    let s = script(
        "garbage.py",
        "import sys\nfor line in sys.stdin:\n    print('hello there', flush=True)\n",
    );
    let (legal, failure) = ask(&python(&s));
    assert!(legal);
    let why = failure.expect("garbage is a failure");
    assert!(why.contains("not an action"), "{why}");
}

#[test]
fn an_illegal_action_is_reported() {
    let s = script(
        "illegal.py",
        "import sys\nfor line in sys.stdin:\n    print('{\"bid\": 100000}', flush=True)\n",
    );
    let (legal, failure) = ask(&python(&s));
    assert!(legal);
    assert!(failure.expect("illegal").contains("illegal"));
}

#[test]
fn a_hanging_bot_times_out() {
    let s = script(
        "hang.py",
        "import sys, time\nfor line in sys.stdin:\n    time.sleep(60)\n",
    );
    let start = std::time::Instant::now();
    let (legal, failure) = ask(&python(&s));
    assert!(legal);
    assert!(
        failure
            .expect("timeout")
            .contains("no answer within 700 ms")
    );
    assert!(start.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_bot_that_exits_is_reported() {
    let s = script("exit.py", "import sys\nsys.exit(3)\n");
    let (legal, failure) = ask(&python(&s));
    assert!(legal);
    let why = failure.expect("exit");
    assert!(
        why.contains("closed its output") || why.contains("cannot write"),
        "{why}"
    );
    let (legal, failure) = ask("/nonexistent/tripoley-bot-program");
    assert!(legal);
    assert!(failure.is_some());
}

#[test]
fn exec_bots_parse_and_play_in_duplicate_matches() {
    let spec: BotSpec = "exec:python3 my_bot.py".parse().unwrap();
    assert_eq!(spec, BotSpec::Exec("python3 my_bot.py".into()));
    assert_eq!(spec.to_string(), "exec:python3 my_bot.py");
    assert!("exec:".parse::<BotSpec>().is_err());
    assert_eq!("expert".parse::<BotSpec>().unwrap(), BotKind::Expert);
    let s = script(
        "crash_later.py",
        "import sys\nfor i, line in enumerate(sys.stdin):\n    if i == 2:\n        sys.exit(1)\n    print('\"pass\"' if '\"pass\"' in line else ('\"check\"' if '\"check\"' in line else '\"keep\"'), flush=True)\n",
    );
    let config = tripoley_bots::arena::ArenaConfig {
        rules: Rules::preset(Preset::Pagat),
        players: 3,
        bots: vec![BotSpec::Exec(python(&s)), BotKind::Heuristic.into()],
        deals: 3,
        seed: 1,
        options: tripoley_bots::BotOptions {
            exec_timeout: Duration::from_secs(5),
            ..Default::default()
        },
    };
    let summary = tripoley_bots::arena::run_arena(&config, &|_| {}).unwrap();
    assert_eq!(summary.deals, 3);
    // It crashed after two answers: the fallback made the rest, counted.
    let outside = summary.bots[0].outside.clone().expect("an outside bot");
    assert!(outside.fallback_decisions > 0, "{outside:?}");
    assert!(
        outside.fallback_decisions + 2 <= outside.decisions,
        "{outside:?}"
    );
    assert!(summary.bots[1].outside.is_none());
}
