//! House-rule files (TOML): read or refused with a message, never a panic;
//! rules that are read are valid, round-trip through TOML and JSON, and
//! their game starts with the fewest players they allow.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tripoley_engine::{Game, NoEvents, Rules};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rules) = Rules::from_toml(text) else {
        return;
    };
    rules.validate().expect("rules read are valid");
    assert_eq!(
        Rules::from_toml(&rules.to_toml()).ok().as_ref(),
        Some(&rules)
    );
    let json = serde_json::to_string(&rules).expect("rules serialise");
    assert_eq!(
        serde_json::from_str::<Rules>(&json).ok().as_ref(),
        Some(&rules)
    );
    let players = usize::from(rules.min_players);
    Game::start(rules, players, &mut NoEvents).expect("valid rules start");
});
