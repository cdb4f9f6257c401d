//! HTTP API bodies. `POST /api/tables`: a body either is refused or gives
//! settings that pass their own check, whose game starts and plays a few
//! deals without panicking (no overflow, no endless loop); the other
//! bodies parse or are refused.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tripoley_bots::{BotKind, play_game_quietly};
use tripoley_engine::{Game, NoEvents};
use tripoley_server::protocol::{CreateTable, GameKind, SitRequest, StartRequest};

fuzz_target!(|data: &[u8]| {
    let _ = serde_json::from_slice::<SitRequest>(data);
    let _ = serde_json::from_slice::<StartRequest>(data);
    let Ok(req) = serde_json::from_slice::<CreateTable>(data) else {
        return;
    };
    let Ok(settings) = req.settings() else {
        return;
    };
    settings
        .check()
        .expect("settings a request gives pass their check");
    if settings.game == GameKind::Napalm {
        return;
    }
    let players = usize::from(settings.seats);
    Game::start(settings.rules.clone(), players, &mut NoEvents).expect("checked rules start");
    // A few deals: enough to reach every stage, short enough to fuzz fast.
    let mut rules = settings.rules;
    rules.deals = Some(rules.deals.unwrap_or(2).min(2));
    let mut bots: Vec<_> = (0..players).map(|_| BotKind::Random.make(&rules)).collect();
    play_game_quietly(&rules, &mut bots, data.len() as u64).expect("the game plays");
});
