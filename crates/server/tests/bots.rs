//! Bots in empty seats decide on their seat's information set: an expert
//! table bot searches sampled worlds rather than playing like the heuristic.

mod common;

use common::{WAIT, join};
use tripoley_bots::{Bot, BotKind, HeuristicBot};
use tripoley_cards::seeded_rng;
use tripoley_engine::{Preset, Rules, Step};
use tripoley_server::client;
use tripoley_server::protocol::CreateTable;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expert_table_bot_searches_and_does_not_just_follow_the_heuristic() {
    let server = common::server().await;
    let addr = server.addr();
    let preset = Preset::Pagat;
    let created = client::create_table(
        addr,
        &CreateTable {
            preset: Some(preset),
            seats: Some(3),
            deals: Some(2),
            bot: Some(BotKind::Expert),
            ..CreateTable::default()
        },
    )
    .await
    .unwrap();
    let (mut watcher, _) = join(addr, &created.invite, None, None).await;
    client::start_table(addr, &created.invite, &created.host_token)
        .await
        .unwrap();
    loop {
        let msg = watcher.recv_timeout(WAIT).await.unwrap();
        if client::view_of(&msg).is_some_and(|v| v.standings.is_some()) {
            break;
        }
    }
    // Replay the game: at every bot decision, ask the heuristic what it
    // would have done from the same view.
    let record = server.record(&created.invite).await.unwrap();
    let rules = Rules::preset(preset);
    let mut heuristic = HeuristicBot::for_rules(&rules);
    let mut rng = seeded_rng(0);
    let mut ev = Vec::new();
    let mut game = record.start(&mut ev).unwrap();
    let (mut decisions, mut different) = (0, 0);
    for step in &record.steps {
        if let Step::Act { seat, action } = step {
            decisions += 1;
            if heuristic.act(&game.view(Some(*seat)), &mut rng) != *action {
                different += 1;
            }
        }
        game.step(step, &mut ev).unwrap();
    }
    assert!(decisions > 20, "the bots played {decisions} decisions");
    assert!(
        different > 0,
        "the expert differed from the heuristic in none of {decisions} decisions"
    );
    server.shutdown().await;
}
