//! Answers of outside bots (`exec:`, docs/bot-protocol.md): a line is read
//! as an action and checked against the decision asked, as `ExecBot` does;
//! any line is accepted or refused, never a panic. The first byte picks the
//! decision from a fixed game played by random bots.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tripoley_bots::{BotKind, record_game};
use tripoley_engine::{Action, Decision, Pending, Preset, Rules};

/// Every decision of a few games of every preset.
fn decisions() -> &'static [Decision] {
    static ALL: OnceLock<Vec<Decision>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::new();
        for preset in Preset::ALL {
            let mut rules = Rules::preset(preset);
            rules.deals = Some(1);
            let mut bots: Vec<_> = (0..4).map(|_| BotKind::Random.make(&rules)).collect();
            let names = (1..=4).map(|i| format!("Bot {i}")).collect();
            let record = record_game(&rules, &mut bots, names, 7).expect("a game");
            let mut ev = Vec::new();
            let mut g = record.start(&mut ev).expect("it starts");
            for step in &record.steps {
                if let Pending::Decide { decision, .. } = g.pending() {
                    all.push(decision);
                }
                g.step(step, &mut ev).expect("it replays");
            }
        }
        all
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, line)) = data.split_first() else {
        return;
    };
    let Ok(line) = std::str::from_utf8(line) else {
        return;
    };
    let all = decisions();
    let decision = all[usize::from(pick) % all.len()];
    if let Ok(action) = serde_json::from_str::<Action>(line.trim()) {
        let legal = decision.check(action).is_ok();
        if !matches!(decision, Decision::ChooseFive { .. }) {
            assert_eq!(
                legal,
                decision.actions().contains(&action),
                "{decision:?} {action:?}"
            );
        }
    }
});
