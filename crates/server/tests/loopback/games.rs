//! Whole games over loopback websockets: people's seats driven by test
//! clients, the rest bots; reconnects mid-deal; a server killed and
//! restarted on the same database mid-game.

use crate::common;

use std::time::{Duration, Instant};

use common::{WAIT, chips, join, starting_total, table, until_decision};
use tripoley_bots::BotKind;
use tripoley_cards::seeded_rng;
use tripoley_engine::{Pending, Preset, Rules};
use tripoley_loadtest::client::{self, Socket};
use tripoley_server::protocol::ClientMsg;
use tripoley_server::{Database, ServerConfig};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_games_with_people_bots_and_a_spectator_for_every_preset() {
    let server = common::server().await;
    let addr = server.addr();
    let mut games = tokio::task::JoinSet::new();
    for (i, preset) in Preset::ALL.into_iter().enumerate() {
        let seats = 3 + (i % 2) as u8;
        let t = table(addr, preset, seats, &[0, 2], 0).await;
        games.spawn(async move {
            let mut players = Vec::new();
            for (seat, token) in &t.tokens {
                let (sock, welcome) = join(addr, &t.invite, Some(token), None).await;
                assert_eq!(welcome["role"], "player");
                assert_eq!(welcome["seat"], *seat);
                players.push(sock);
            }
            let (mut watcher, welcome) = join(addr, &t.invite, None, None).await;
            assert_eq!(welcome["role"], "spectator");
            client::start_table(addr, &t.invite, &t.host_token)
                .await
                .unwrap();
            let mut seats_play = tokio::task::JoinSet::new();
            for (k, mut sock) in players.into_iter().enumerate() {
                let kind = if k == 0 {
                    BotKind::Heuristic
                } else {
                    BotKind::Random
                };
                seats_play.spawn(async move {
                    let mut bot = kind.make(&Rules::preset(preset));
                    let mut rng = seeded_rng(k as u64);
                    client::play_seat(&mut sock, bot.as_mut(), &mut rng, Duration::ZERO, None)
                        .await
                        .unwrap()
                });
            }
            let mut finals = Vec::new();
            let mut actions = 0;
            while let Some(stats) = seats_play.join_next().await {
                let stats = stats.unwrap();
                assert!(stats.finished, "{preset}: the game ends");
                assert_eq!(stats.errors, 0, "{preset}: no action was refused");
                // Refused by the rate limit, then sent again: counted apart.
                assert!(stats.rate_limited <= stats.actions);
                actions += stats.actions;
                finals.push(stats.last_view.unwrap());
            }
            // Under cosmo every lead may be forced: no decision at all.
            assert!(
                actions > 0 || preset == Preset::Cosmo,
                "{preset}: people decided"
            );
            // The spectator sees the same end, and never a decision.
            let end = loop {
                let msg = watcher.recv_timeout(WAIT).await.unwrap();
                if let Some(v) = client::view_of(&msg) {
                    assert!(v.decision.is_none() && v.hand.is_empty());
                    if v.standings.is_some() {
                        break v;
                    }
                }
            };
            for v in &finals {
                assert_eq!(v.stacks, end.stacks, "{preset}");
                assert_eq!(chips(v), starting_total(preset, seats), "{preset}: T7");
            }
            (t.invite, preset, seats)
        });
    }
    while let Some(done) = games.join_next().await {
        let (invite, preset, seats) = done.unwrap();
        let record = server.record(&invite).await.expect("a record");
        let (game, _) = record.replay().expect("the record replays");
        assert_eq!(game.pending(), Pending::GameOver);
        assert_eq!(game.chips_in_play(), starting_total(preset, seats));
        let info = client::table_info(addr, &invite).await.unwrap();
        assert_eq!(
            info.status,
            tripoley_server::protocol::TableStatus::Finished
        );
    }
    server.shutdown().await;
}

/// The cause of the hangs of the test above: a client answering at once
/// outran the rate limit (30 messages at once, 10 a second); the refused
/// action changed nothing, so no frame followed, and the client waited for
/// its own turn forever. Here the limit is tight enough to refuse many
/// actions: the clients send them again and the game ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_refused_by_the_rate_limit_are_sent_again_and_the_game_ends() {
    let server = tripoley_server::start(ServerConfig {
        rate_burst: 1,
        rate_per_second: 40,
        ..ServerConfig::ephemeral()
    })
    .await
    .unwrap();
    let addr = server.addr();
    let preset = Preset::MichiganCasino;
    let t = table(addr, preset, 3, &[0, 1, 2], 0).await;
    let mut players = Vec::new();
    for (_, token) in &t.tokens {
        players.push(join(addr, &t.invite, Some(token), None).await.0);
    }
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let mut seats = tokio::task::JoinSet::new();
    for (k, mut sock) in players.into_iter().enumerate() {
        seats.spawn(async move {
            let mut bot = BotKind::Heuristic.make(&Rules::preset(preset));
            let mut rng = seeded_rng(k as u64);
            let play = client::play_seat(&mut sock, bot.as_mut(), &mut rng, Duration::ZERO, None);
            tokio::time::timeout(Duration::from_secs(60), play)
                .await
                .expect("the seat's game goes on to its end")
                .unwrap()
        });
    }
    let mut refused = 0;
    while let Some(stats) = seats.join_next().await {
        let stats = stats.unwrap();
        assert!(stats.finished);
        assert_eq!(stats.errors, 0);
        assert_eq!(chips(&stats.last_view.unwrap()), starting_total(preset, 3));
        refused += stats.rate_limited;
    }
    assert!(refused > 0, "the limit refused some actions");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_reconnects_mid_deal_and_gets_what_they_missed() {
    let server = common::server().await;
    let addr = server.addr();
    let t = table(addr, Preset::Pagat, 3, &[0, 1], 0).await;
    let (mut a, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    let (mut b, _) = join(addr, &t.invite, Some(&t.tokens[1].1), None).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let rules = Rules::preset(Preset::Pagat);
    // Play seat 1 in the background for the whole game.
    let b_task = tokio::spawn(async move {
        let mut bot = BotKind::Random.make(&rules);
        let mut rng = seeded_rng(9);
        client::play_seat(&mut b, bot.as_mut(), &mut rng, Duration::ZERO, None)
            .await
            .unwrap()
    });
    // Seat 0 plays a few decisions, then its connection drops mid-deal.
    let mut bot = BotKind::Heuristic.make(&Rules::preset(Preset::Pagat));
    let mut rng = seeded_rng(3);
    for _ in 0..3 {
        let (n, view) = until_decision(&mut a).await;
        assert!(view.standings.is_none());
        let action = bot.act(&view, &mut rng);
        a.send(&ClientMsg::Act {
            action,
            id: Some(n),
            seat: Some(0),
            n: Some(n),
        })
        .await
        .unwrap();
    }
    let last = a.last.expect("seat 0 saw events");
    a.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Back with the last event number: the missed events come in order,
    // then the current view.
    let (mut a, welcome) = join(addr, &t.invite, Some(&t.tokens[0].1), Some(last)).await;
    assert_eq!(welcome["role"], "player");
    let mut prev = last;
    let view = loop {
        let msg = a.recv_timeout(WAIT).await.unwrap();
        if msg["type"] == "update" {
            let n = msg["n"].as_u64().unwrap();
            assert!(
                n > prev,
                "events come in order, none twice: {n} after {prev}"
            );
            prev = n;
            if let Some(v) = client::view_of(&msg) {
                break v;
            }
        }
        assert_ne!(
            msg["type"], "state",
            "a short absence gets the events, not a reload"
        );
    };
    assert_eq!(view.seat, Some(0));
    if view.decision.is_some() {
        let action = bot.act(&view, &mut rng);
        a.send(&ClientMsg::Act {
            action,
            id: None,
            seat: Some(0),
            n: Some(prev),
        })
        .await
        .unwrap();
    }
    // A reconnect with no event number gets the full state.
    let (mut a2, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    let state = a2.recv_type("state", WAIT).await.unwrap();
    assert!(state["log"].as_array().is_some_and(|l| !l.is_empty()));
    a2.close().await;
    // Finish the game from the reconnected socket.
    let mut stats = client::play_seat(&mut a, bot.as_mut(), &mut rng, Duration::ZERO, None)
        .await
        .unwrap();
    if !stats.finished {
        stats = client::play_seat(&mut a, bot.as_mut(), &mut rng, Duration::ZERO, None)
            .await
            .unwrap();
    }
    assert!(stats.finished);
    assert_eq!(
        chips(&stats.last_view.unwrap()),
        starting_total(Preset::Pagat, 3)
    );
    assert!(b_task.await.unwrap().finished);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_away_past_the_grace_time_is_played_by_a_bot() {
    let server = tripoley_server::start(ServerConfig {
        grace: Duration::from_millis(300),
        ..ServerConfig::ephemeral()
    })
    .await
    .unwrap();
    let addr = server.addr();
    // Two people who never connect: bots play for them after the grace time.
    let t = table(addr, Preset::Tripoley, 3, &[0, 1], 0).await;
    let (mut watcher, _) = join(addr, &t.invite, None, None).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let started = Instant::now();
    let mut auto = 0;
    loop {
        let msg = watcher.recv_timeout(WAIT).await.unwrap();
        if msg["auto"] == true {
            auto += 1;
        }
        if client::view_of(&msg).is_some_and(|v| v.standings.is_some()) {
            break;
        }
    }
    assert!(auto > 0, "bots acted for the absent people");
    assert!(started.elapsed() < Duration::from_secs(60));
    let info = client::table_info(addr, &t.invite).await.unwrap();
    assert!(!info.seats[0].connected);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_turn_timer_is_enforced_by_the_server() {
    let server = common::server().await;
    let addr = server.addr();
    let t = table(addr, Preset::Pagat, 2, &[0, 1], 1).await;
    let (mut a, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    let (mut b, _) = join(addr, &t.invite, Some(&t.tokens[1].1), None).await;
    // Nobody acts: the first decision is made by the server 1 s after the
    // start (the clock starts before the request, so no delay in answering
    // it can make the wait look shorter).
    let started = Instant::now();
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let (n, view) = until_decision(&mut a).await;
    let waiting = view.decision.is_some();
    let msg = loop {
        let msg = if waiting {
            a.recv_timeout(WAIT).await.unwrap()
        } else {
            b.recv_timeout(WAIT).await.unwrap()
        };
        if msg["type"] == "update" && msg["n"].as_u64().unwrap() > n {
            break msg;
        }
    };
    assert_eq!(msg["auto"], true, "the server played for the slow player");
    assert!(started.elapsed() >= Duration::from_millis(900));
    assert!(started.elapsed() < Duration::from_secs(10));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_restarts_on_its_database_and_the_game_finishes() {
    let db = common::temp_db("restart");
    killed_and_restarted(db.clone().into()).await;
    common::remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_restarts_on_its_postgresql_database_and_the_game_finishes() {
    let Some(pg) = common::pg::TestPostgres::start() else {
        return;
    };
    killed_and_restarted(Database::Postgres(pg.new_database())).await;
}

/// A server on `db` is killed mid-game and started again on it: nothing
/// stored is lost, and the players come back and finish the game.
async fn killed_and_restarted(db: Database) {
    let config = ServerConfig {
        db,
        ..ServerConfig::ephemeral()
    };
    let server = tripoley_server::start(config.clone()).await.unwrap();
    let addr = server.addr();
    let preset = Preset::Rummoli;
    let t = table(addr, preset, 4, &[0, 1], 0).await;
    let (mut a, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    let (mut b, _) = join(addr, &t.invite, Some(&t.tokens[1].1), None).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let rules = Rules::preset(preset);
    let mut bots = [
        BotKind::Heuristic.make(&rules),
        BotKind::Random.make(&rules),
    ];
    let mut rng = seeded_rng(5);
    // Play until well into the game (the second deal), then kill.
    let mut acted = 0;
    let mut socks = [&mut a, &mut b];
    'play: loop {
        for (k, sock) in socks.iter_mut().enumerate() {
            let Ok(msg) = sock.recv_timeout(Duration::from_millis(20)).await else {
                continue;
            };
            let Some(view) = client::view_of(&msg) else {
                continue;
            };
            if view.deal_number >= 2 && acted >= 10 {
                break 'play;
            }
            if view.decision.is_some() {
                let n = msg["n"].as_u64().unwrap();
                let action = bots[k].act(&view, &mut rng);
                sock.send(&ClientMsg::Act {
                    action,
                    id: None,
                    seat: view.seat,
                    n: Some(n),
                })
                .await
                .unwrap();
                acted += 1;
            }
        }
    }
    let before = server.record(&t.invite).await.unwrap();
    let last = [a.last.unwrap(), b.last.unwrap()];
    server.kill().await;
    loop {
        match a.recv_timeout(WAIT).await {
            Ok(_) => {}
            Err(client::ClientError::Closed) => break,
            Err(e) => panic!("the socket should drop: {e}"),
        }
    }

    // At the same address: on PostgreSQL that tells the database the
    // killed server is gone, so its tables need not wait out its lease.
    let server = tripoley_server::start(ServerConfig { addr, ..config })
        .await
        .unwrap();
    let after = server.record(&t.invite).await.unwrap();
    assert!(
        after.steps.len() >= before.steps.len(),
        "nothing stored was lost"
    );
    assert_eq!(after.steps[..before.steps.len()], before.steps[..]);
    let (game, _) = after.replay().unwrap();
    assert_eq!(game.chips_in_play(), starting_total(preset, 4));
    // Both players come back with their tokens and last event numbers.
    let mut tasks = tokio::task::JoinSet::new();
    for (k, (seat, token)) in t.tokens.iter().enumerate() {
        let (mut sock, welcome): (Socket, _) =
            join(addr, &t.invite, Some(token), Some(last[k])).await;
        assert_eq!(welcome["seat"], *seat);
        let rules = rules.clone();
        tasks.spawn(async move {
            let mut bot = BotKind::Heuristic.make(&rules);
            let mut rng = seeded_rng(k as u64 + 40);
            client::play_seat(&mut sock, bot.as_mut(), &mut rng, Duration::ZERO, None)
                .await
                .unwrap()
        });
    }
    while let Some(stats) = tasks.join_next().await {
        let stats = stats.unwrap();
        assert!(stats.finished);
        assert_eq!(
            chips(&stats.last_view.unwrap()),
            starting_total(preset, 4),
            "T7"
        );
    }
    let record = server.record(&t.invite).await.unwrap();
    let (game, _) = record.replay().unwrap();
    assert_eq!(game.pending(), Pending::GameOver);
    server.shutdown().await;
}

/// A database from an older build holding a game this build cannot replay
/// (its five chosen at the showdown, under record version 1): the server
/// still starts, sets that table aside and plays new ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_game_that_no_longer_replays_is_set_aside_and_the_server_starts() {
    let db = common::temp_db("old-steps");
    let config = ServerConfig {
        db: db.clone().into(),
        ..ServerConfig::ephemeral()
    };
    let server = tripoley_server::start(config.clone()).await.unwrap();
    let t = table(server.addr(), Preset::Pagat, 3, &[], 0).await;
    client::start_table(server.addr(), &t.invite, &t.host_token)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.kill().await;
    // An action of the old format, as an older build stored it.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "INSERT INTO steps (invite, idx, step) VALUES (?1, 100000, ?2)",
        rusqlite::params![
            t.invite,
            r#"{"act":{"seat":0,"action":{"show":["2C","3C","4C","5C","6C"]}}}"#
        ],
    )
    .unwrap();
    drop(conn);
    let server = tripoley_server::start(config)
        .await
        .expect("the server starts all the same");
    assert!(server.record(&t.invite).await.is_none(), "set aside");
    let fresh = table(server.addr(), Preset::Pagat, 3, &[], 0).await;
    client::start_table(server.addr(), &fresh.invite, &fresh.host_token)
        .await
        .expect("new tables play");
    server.shutdown().await;
}
