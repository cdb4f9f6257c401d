//! Leases, the registry and fencing against a real PostgreSQL (the
//! processes here are ids in the registry; `crates/cli/tests/cli/cluster/mod.rs`
//! runs real ones).

use crate::clock::now_ms;
use std::time::Duration;

use tokio::time::Instant;
use tokio_postgres::Client;

use super::{lease, listing, registry};
use crate::protocol::{ClientMsg, CreateTable};
use crate::store::relay::Relay;
use crate::store::testpg::TestPostgres;
use crate::store::tests::{started_table, steps};
use crate::store::{Database, Fence, Store, StoredSteps};
use tripoley_loadtest::client::{self, ClientError, Socket};

const MINUTE: i64 = 60_000;

/// A client of the database without the servers' time limits (a test's
/// session, or one that stands for a frozen server's).
async fn plain(url: &str) -> Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("connects");
    tokio::spawn(connection);
    client
}

/// A migrated database with processes `a` and `b` alive in its registry.
async fn two_processes(pg: &TestPostgres) -> (Store, Client) {
    let url = pg.new_database();
    let store = Store::open(&Database::Postgres(url.clone())).expect("opens");
    let db = plain(&url).await;
    registry::register(&db, "a", "127.0.0.1:1", MINUTE)
        .await
        .unwrap();
    registry::register(&db, "b", "127.0.0.1:2", MINUTE)
        .await
        .unwrap();
    (store, db)
}

fn fence(owner: &str, epoch: i64) -> Fence {
    Fence {
        invite: "FENCE1".into(),
        owner: owner.into(),
        epoch,
    }
}

async fn stored_steps(store: &Store) -> usize {
    match store.load("FENCE1".into()).await.unwrap().unwrap().steps {
        StoredSteps::Tripoley(s) => s.len(),
        StoredSteps::Napalm(_) => panic!("a Tripoley table"),
    }
}

/// A live owner keeps its table; once it is taken for dead another process
/// takes the lease under a higher epoch, and from then on the database
/// refuses the old owner's steps: no action is stored twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_that_lost_its_lease_cannot_store_a_step() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let (store, db) = two_processes(&pg).await;
    started_table(&store, "FENCE1").await;
    let moves = steps(2);
    assert_eq!(lease::claim(&db, "NOSUCH1", "a").await.unwrap(), None);
    assert_eq!(lease::claim(&db, "FENCE1", "a").await.unwrap(), Some(1));
    assert_eq!(
        lease::claim(&db, "FENCE1", "b").await.unwrap(),
        None,
        "a is alive"
    );
    assert_eq!(
        lease::owner(&db, "FENCE1", "b").await.unwrap().as_deref(),
        Some("127.0.0.1:1")
    );
    assert_eq!(
        lease::owner(&db, "FENCE1", "a").await.unwrap(),
        None,
        "a's own"
    );
    let a = store.fenced(fence("a", 1));
    a.append_step("FENCE1".into(), 0, &moves[0]).await.unwrap();
    // a stops answering: its row expires, and b takes the table over.
    db.execute("UPDATE processes SET expires = 0 WHERE id = 'a'", &[])
        .await
        .unwrap();
    assert_eq!(lease::claim(&db, "FENCE1", "b").await.unwrap(), Some(2));
    let refused = a
        .append_step("FENCE1".into(), 1, &moves[1])
        .await
        .expect_err("a's lease is gone");
    assert!(
        refused.to_string().contains("moved to another server"),
        "{refused}"
    );
    assert_eq!(stored_steps(&store).await, 1);
    let b = store.fenced(fence("b", 2));
    b.append_step("FENCE1".into(), 1, &moves[1]).await.unwrap();
    assert_eq!(stored_steps(&store).await, 2);
    // a's late release of its old lease leaves b's alone.
    lease::release(&db, "a", &[("FENCE1".into(), 1)])
        .await
        .unwrap();
    assert_eq!(
        lease::owner(&db, "FENCE1", "a").await.unwrap().as_deref(),
        Some("127.0.0.1:2")
    );
    // b takes it again (a table of its own restarted): the old epoch is fenced too.
    assert_eq!(lease::claim(&db, "FENCE1", "b").await.unwrap(), Some(3));
    assert!(b.append_step("FENCE1".into(), 2, &moves[1]).await.is_err());
}

/// A dead process's games are split between the live ones; new tables go
/// to the least-loaded live process; a process restarted at a dead one's
/// address frees its tables, and the dead one learns it at its next beat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_registry_places_tables_and_hands_out_orphans() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let (store, db) = two_processes(&pg).await;
    registry::register(&db, "c", "127.0.0.1:3", MINUTE)
        .await
        .unwrap();
    for i in 0..6 {
        started_table(&store, &format!("ORPH{i}")).await;
        lease::claim(&db, &format!("ORPH{i}"), "c").await.unwrap();
    }
    // Lobbies: a public one moves with the games, a private one does not.
    for (invite, public) in [("PUBLIC1", true), ("PRIVATE", false)] {
        let settings = CreateTable {
            public: Some(public),
            ..CreateTable::default()
        };
        let settings = settings.settings().expect("settings");
        store
            .create_table(invite.into(), &settings, [1; 32])
            .await
            .unwrap();
        lease::claim(&db, invite, "c").await.unwrap();
    }
    assert!(
        lease::orphans(&db, "a").await.unwrap().is_empty(),
        "c runs them"
    );
    // c leaves: its games in progress and public lobby are found by its
    // leases.
    registry::leave(&db, "c").await.unwrap();
    let mut moving = lease::orphans(&db, "a").await.unwrap();
    moving.extend(lease::orphans(&db, "b").await.unwrap());
    assert!(moving.contains(&"PUBLIC1".to_owned()), "{moving:?}");
    assert!(!moving.contains(&"PRIVATE".to_owned()), "{moving:?}");
    lease::claim(&db, "PUBLIC1", "b").await.unwrap();
    assert_eq!(
        lease::claim(&db, "NOSUCH1", "c").await.unwrap(),
        None,
        "a process that left takes nothing"
    );
    let a = lease::orphans(&db, "a").await.unwrap();
    let b = lease::orphans(&db, "b").await.unwrap();
    assert_eq!(a.len() + b.len(), 6, "a share each: {a:?} {b:?}");
    assert!(
        a.iter().all(|i| !b.contains(i)),
        "never the same: {a:?} {b:?}"
    );
    for i in 0..6 {
        lease::claim(&db, &format!("ORPH{i}"), "a").await.unwrap();
    }
    assert!(
        lease::orphans(&db, "b").await.unwrap().is_empty(),
        "a runs them"
    );
    assert!(registry::beat(&db, "a", 6, MINUTE).await.unwrap());
    assert!(registry::beat(&db, "b", 1, MINUTE).await.unwrap());
    let (id, addr) = registry::place(&db).await.unwrap().unwrap();
    assert_eq!((id.as_str(), addr.as_str()), ("b", "127.0.0.1:2"));
    // a is killed and started again at its address: its tables are free
    // at once, without waiting for its row to expire.
    registry::register(&db, "a2", "127.0.0.1:1", MINUTE)
        .await
        .unwrap();
    let mut orphans = lease::orphans(&db, "a2").await.unwrap();
    orphans.extend(lease::orphans(&db, "b").await.unwrap());
    assert_eq!(orphans.len(), 6, "a is dead");
    assert!(
        lease::orphans(&db, "a").await.unwrap().is_empty(),
        "a takes none"
    );
    assert!(
        !registry::beat(&db, "a", 6, MINUTE).await.unwrap(),
        "a hears it"
    );
    registry::leave(&db, "a2").await.unwrap();
    registry::leave(&db, "b").await.unwrap();
    assert_eq!(registry::place(&db).await.unwrap(), None);
}

/// A server on `url` with a short lease, and a client of the database.
async fn server(url: &str) -> (crate::RunningServer, Client) {
    let server = crate::start(crate::ServerConfig {
        addr: "127.0.0.1:0".parse().expect("an address"),
        db: Database::Postgres(url.to_owned()),
        lease: LEASE,
        ..crate::ServerConfig::default()
    })
    .await
    .expect("the server starts");
    (server, plain(url).await)
}

const LEASE: Duration = Duration::from_millis(800);

/// A new table on `server` and its host's socket, welcomed.
async fn hosted_table(server: &crate::RunningServer) -> (String, Socket) {
    let created = client::create_table(
        server.addr(),
        &CreateTable {
            seats: Some(3),
            host_name: Some("Ann".into()),
            ..CreateTable::default()
        },
    )
    .await
    .expect("a table");
    let mut sock = Socket::connect(server.addr(), &created.invite)
        .await
        .unwrap();
    sock.hello(Some(&created.host_token), None).await.unwrap();
    sock.recv_type("welcome", Duration::from_secs(5))
        .await
        .unwrap();
    (created.invite, sock)
}

/// A server whose renewals do not get through (here the registry is
/// locked, as a database that stops answering leaves it: nothing fails,
/// everything waits) stops its tables once its lease is over, and its
/// lease is free for another server, whose epoch fences out the old
/// owner's writes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_out_of_touch_for_longer_than_its_lease_stops_its_tables() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let (server, db) = server(&url).await;
    let (invite, mut sock) = hosted_table(&server).await;
    db.batch_execute("BEGIN; LOCK TABLE processes IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    let locked = Instant::now();
    // The table stops: its player's connection is closed.
    loop {
        match sock.recv_timeout(Duration::from_millis(100)).await {
            Err(ClientError::Timeout) => {
                assert!(locked.elapsed() < LEASE * 4, "the table stops in time");
            }
            Err(_) => break,
            Ok(_) => {}
        }
    }
    let stopped = locked.elapsed();
    // Its lease was renewed at most a quarter lease before the lock (less
    // the renewal's own time on a loaded machine).
    assert!(
        stopped > LEASE / 4,
        "not before its lease is over: {stopped:?}"
    );
    db.batch_execute("ROLLBACK").await.unwrap();
    // Another server takes the table over under a new epoch.
    registry::register(&db, "b", "127.0.0.1:2", MINUTE)
        .await
        .unwrap();
    assert_eq!(lease::claim(&db, &invite, "b").await.unwrap(), Some(2));
    let old = Store::open(&Database::Postgres(url)).expect("opens");
    let old = old.fenced(Fence {
        invite: invite.clone(),
        owner: lease_owner_before(&db, "b").await,
        epoch: 1,
    });
    assert!(old.append_step(invite, 0, &steps(1)[0]).await.is_err());
    server.shutdown().await;
}

/// A server cut off from its database (a partition: nothing passes, nothing
/// closes) while its table waits for a write drops that table's sockets
/// once its lease is over, not when the network heals: its players
/// reconnect to wherever the table runs now.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_cut_off_from_its_database_drops_its_tables_sockets_at_its_lease() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let relay = Relay::start(pg.port());
    let (server, _db) = server(&relay.through(&url)).await;
    let (invite, mut sock) = hosted_table(&server).await;
    relay.hold(true);
    let cut = Instant::now();
    // The start's write waits on the cut connection, and the table with it.
    sock.send(&ClientMsg::Start { id: None }).await.unwrap();
    let heals = cut + LEASE * 8;
    let closed = loop {
        match sock.recv_timeout(Duration::from_millis(100)).await {
            Err(ClientError::Timeout) if Instant::now() < heals => {}
            Err(ClientError::Timeout) => break None,
            Err(_) => break Some(cut.elapsed()),
            Ok(_) => {}
        }
    };
    let closed = closed.expect("the socket is dropped before the network heals");
    assert!(
        closed < LEASE * 3,
        "dropped within its lease and a beat or two: {closed:?}"
    );
    // Coming back, its player is told to try again at once (another server
    // would run the table), not kept waiting on the cut connection.
    let asked = Instant::now();
    let again = client::table_info(server.addr(), &invite).await;
    assert!(
        matches!(again, Err(ClientError::Refused { status: 503, .. })),
        "{again:?}"
    );
    assert!(
        asked.elapsed() < LEASE / 4,
        "at once: {:?}",
        asked.elapsed()
    );
    relay.hold(false);
    server.shutdown().await;
}

/// The id of the registered process other than `not`.
async fn lease_owner_before(db: &Client, not: &str) -> std::sync::Arc<str> {
    let row = db
        .query_one("SELECT id FROM processes WHERE id <> $1", &[&not])
        .await
        .unwrap();
    row.get::<_, String>(0).into()
}

/// A game whose owner died is taken over at the next beat; one whose
/// stored record does not decode is set aside once (no longer a game in
/// progress, so no beat tries it again), while the good one goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_cannot_be_taken_over_is_set_aside_once() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let (server, db) = server(&url).await;
    let store = Store::open(&Database::Postgres(url)).expect("opens");
    registry::register(&db, "dead", "127.0.0.1:9", MINUTE)
        .await
        .unwrap();
    for invite in ["GOOD01", "BROKEN"] {
        started_table(&store, invite).await;
        lease::claim(&db, invite, "dead").await.unwrap();
    }
    store
        .fenced(Fence {
            invite: "BROKEN".into(),
            owner: "dead".into(),
            epoch: 1,
        })
        .append_step("BROKEN".into(), 0, &steps(1)[0])
        .await
        .unwrap();
    db.execute(
        "UPDATE steps SET step = '{\"no\":1}' WHERE invite = 'BROKEN'",
        &[],
    )
    .await
    .unwrap();
    registry::leave(&db, "dead").await.unwrap();
    let status = |invite: &'static str| {
        let db = &db;
        async move {
            db.query_one("SELECT status FROM tables WHERE invite = $1", &[&invite])
                .await
                .unwrap()
                .get::<_, String>(0)
        }
    };
    let asked = Instant::now();
    while status("BROKEN").await != "refused" {
        assert!(asked.elapsed() < LEASE * 10, "set aside in time");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let me = lease_owner_before(&db, "dead").await;
    assert_eq!(
        lease::owner(&db, "GOOD01", "dead")
            .await
            .unwrap()
            .as_deref(),
        Some(server.addr().to_string().as_str()),
        "the good game was taken over"
    );
    assert!(
        lease::orphans(&db, &me).await.unwrap().is_empty(),
        "nothing is tried again"
    );
    assert!(server.record("GOOD01").await.is_some());
    server.shutdown().await;
}

/// A server starting in a cluster removes the old lobby tables that never
/// started, as a single server does, but only those no live server runs:
/// one a live server holds stays, and so does a recent one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_lobby_tables_without_a_live_owner_are_removed_at_start_up() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let store = Store::open(&Database::Postgres(url.clone())).expect("opens");
    let db = plain(&url).await;
    for (id, addr) in [("a", "127.0.0.1:1"), ("b", "127.0.0.1:2")] {
        registry::register(&db, id, addr, MINUTE).await.unwrap();
    }
    let settings = CreateTable::default().settings().expect("settings");
    for invite in ["OLDFREE", "OLDDEAD", "OLDLIVE", "RECENT1"] {
        store
            .create_table(invite.into(), &settings, [1; 32])
            .await
            .unwrap();
        store
            .sit(invite.into(), 0, "Ann".into(), [2; 32])
            .await
            .unwrap();
    }
    db.execute(
        "UPDATE tables SET created = created - 1000000 WHERE invite LIKE 'OLD%'",
        &[],
    )
    .await
    .unwrap();
    lease::claim(&db, "OLDDEAD", "a").await.unwrap();
    lease::claim(&db, "OLDLIVE", "b").await.unwrap();
    registry::leave(&db, "a").await.unwrap();
    let (server, _) = server(&url).await;
    let left: Vec<String> = db
        .query(
            "SELECT t.invite FROM tables t JOIN seats s ON s.invite = t.invite ORDER BY 1",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(left, ["OLDLIVE", "RECENT1"]);
    for (sql, rows) in [
        ("SELECT count(*) FROM seats", 2),
        ("SELECT count(*) FROM leases WHERE invite = 'OLDDEAD'", 0),
    ] {
        let n: i64 = db.query_one(sql, &[]).await.unwrap().get(0);
        assert_eq!(n, rows, "{sql}");
    }
    server.shutdown().await;
}

/// The shared public list: entries of both processes newest first, paged,
/// with their total; an entry keeps its place when it changes, leaves when
/// withdrawn, stays while its dead owner's table waits to move and moves
/// with the lease, is hidden once its writer no longer holds the table's
/// lease, and such stale rows are removed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_public_list_is_shared_and_shows_lease_holders_tables_only() {
    use std::collections::HashMap;

    use crate::table::public::PublicTable;

    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let (store, db) = two_processes(&pg).await;
    let settings = CreateTable::default().settings().expect("settings");
    let entry = |invite: &str, taken| Some(PublicTable::new(invite, &settings, taken));
    for (invite, owner) in [("LIST01", "a"), ("LIST02", "b"), ("LIST03", "a")] {
        store
            .create_table(invite.into(), &settings, [1; 32])
            .await
            .unwrap();
        lease::claim(&db, invite, owner).await.unwrap();
        let one = HashMap::from([(invite.to_owned(), entry(invite, 1))]);
        listing::write(&db, owner, &one).await.unwrap();
    }
    let shown = |page: (Vec<PublicTable>, usize)| {
        let invites: Vec<(String, u8)> = page.0.into_iter().map(|t| (t.invite, t.taken)).collect();
        (invites, page.1)
    };
    let listed = |offset, size| {
        let db = &db;
        async move { shown(listing::page(db, offset, size).await.unwrap()) }
    };
    assert_eq!(
        listed(0, 2).await,
        (vec![("LIST03".into(), 1), ("LIST02".into(), 1)], 3)
    );
    assert_eq!(listed(2, 2).await, (vec![("LIST01".into(), 1)], 3));
    // A seat taken at LIST01: it keeps its place. LIST03 leaves the list.
    let changes = HashMap::from([
        ("LIST01".to_owned(), entry("LIST01", 2)),
        ("LIST03".to_owned(), None),
    ]);
    listing::write(&db, "a", &changes).await.unwrap();
    assert_eq!(
        listed(0, 20).await,
        (vec![("LIST02".into(), 1), ("LIST01".into(), 2)], 2)
    );
    // b dies: its table stays listed while it waits to move. a's table
    // moves to a new process c, its entry with it: listed all along.
    db.execute("UPDATE processes SET expires = 0 WHERE id = 'b'", &[])
        .await
        .unwrap();
    let both = (vec![("LIST02".into(), 1), ("LIST01".into(), 2)], 2);
    assert_eq!(listed(0, 20).await, both);
    registry::register(&db, "c", "127.0.0.1:3", MINUTE)
        .await
        .unwrap();
    db.execute("UPDATE processes SET expires = 0 WHERE id = 'a'", &[])
        .await
        .unwrap();
    lease::claim(&db, "LIST01", "c").await.unwrap();
    assert_eq!(listed(0, 20).await, both);
    listing::forget_stale(&db).await.unwrap();
    assert_eq!(
        listed(0, 20).await,
        both,
        "rows whose owner holds the lease stay"
    );
    // A write of a's that raced c's claim: a stale row, hidden, then removed.
    listing::write(
        &db,
        "a",
        &HashMap::from([("LIST01".to_owned(), entry("LIST01", 3))]),
    )
    .await
    .unwrap();
    assert_eq!(listed(0, 20).await, (vec![("LIST02".into(), 1)], 1));
    listing::forget_stale(&db).await.unwrap();
    let rows: i64 = db
        .query_one("SELECT count(*) FROM public_tables", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(
        rows, 1,
        "b's row stays while b holds its lease; a's stale one went"
    );
}

/// The registered processes other than `not` whose registration is live.
async fn live_ids(db: &Client, not: &str) -> Vec<String> {
    let rows = db
        .query(
            concat!(
                "SELECT id FROM processes WHERE id <> $1 AND expires > ",
                now_ms!()
            ),
            &[&not],
        )
        .await
        .unwrap();
    rows.iter().map(|r| r.get(0)).collect()
}

/// A frozen process's session, left inside a transaction holding the lock
/// its fence check takes on the lease of its game `invite` (a server
/// stopped with SIGSTOP in the middle of a step's write).
async fn frozen_in_a_transaction(url: &str, db: &Client, invite: &str) -> Client {
    let store = Store::open(&Database::Postgres(url.to_owned())).expect("opens");
    registry::register(db, "frozen", "127.0.0.1:9", MINUTE)
        .await
        .unwrap();
    started_table(&store, invite).await;
    assert_eq!(lease::claim(db, invite, "frozen").await.unwrap(), Some(1));
    let frozen = plain(url).await;
    frozen
        .batch_execute(&format!(
            "BEGIN; SELECT epoch FROM leases WHERE invite = '{invite}' FOR SHARE"
        ))
        .await
        .unwrap();
    // It stops renewing: its games are free to move.
    db.execute("UPDATE processes SET expires = 0 WHERE id = 'frozen'", &[])
        .await
        .unwrap();
    frozen
}

/// A hung process must not take the healthy ones down: while the lock a
/// frozen server's transaction holds keeps its game from moving, the
/// healthy server goes on renewing its registration and running its own
/// tables; once the frozen session is gone, the game moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_servers_lock_does_not_take_a_healthy_server_down() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let (server, db) = server(&url).await;
    let (_, mut sock) = hosted_table(&server).await;
    let healthy = live_ids(&db, "frozen").await;
    assert_eq!(healthy.len(), 1);
    let frozen = frozen_in_a_transaction(&url, &db, "FROZE1").await;
    let until = Instant::now() + LEASE * 5;
    while Instant::now() < until {
        match sock.recv_timeout(Duration::from_millis(100)).await {
            Ok(_) | Err(ClientError::Timeout) => {}
            Err(e) => panic!("the healthy server dropped its own table: {e}"),
        }
    }
    assert_eq!(
        live_ids(&db, "frozen").await,
        healthy,
        "the healthy server stayed registered under the same id"
    );
    drop(frozen);
    let moved = Instant::now();
    loop {
        let owner: Option<String> = db
            .query_opt("SELECT owner FROM leases WHERE invite = 'FROZE1'", &[])
            .await
            .unwrap()
            .map(|r| r.get(0));
        if owner.as_deref() == Some(healthy[0].as_str()) {
            break;
        }
        assert!(moved.elapsed() < LEASE * 5, "the game moves once it can");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.shutdown().await;
}

/// A starting server renews its registration from the moment it joins:
/// start-up work (here resuming a game whose lease a frozen server's lock
/// holds) never lets it expire, and does not hang.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_up_work_never_delays_the_renewal() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    Store::open(&Database::Postgres(url.clone())).expect("migrates");
    let db = plain(&url).await;
    let frozen = frozen_in_a_transaction(&url, &db, "FROZE2").await;
    let starting = tokio::spawn({
        let url = url.clone();
        async move { server(&url).await }
    });
    let until = Instant::now() + LEASE * 5;
    let mut seen = None;
    while Instant::now() < until {
        tokio::time::sleep(LEASE / 4).await;
        let ids = live_ids(&db, "frozen").await;
        match &seen {
            None if ids.is_empty() => {}
            None => seen = Some(ids),
            Some(first) => assert_eq!(&ids, first, "the starting server's registration held"),
        }
    }
    assert!(seen.is_some(), "the server registered");
    drop(frozen);
    let (server, _) = tokio::time::timeout(LEASE * 10, starting)
        .await
        .expect("start-up is bounded")
        .unwrap();
    server.shutdown().await;
}

/// A table another live server holds (the request reached a server that
/// does not run it: the table is moving) is "busy, try again", not "no
/// such table".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moving_table_is_busy_not_missing() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let (server, db) = server(&url).await;
    let store = Store::open(&Database::Postgres(url)).expect("opens");
    registry::register(&db, "other", "127.0.0.1:9", MINUTE)
        .await
        .unwrap();
    started_table(&store, "MOVING").await;
    lease::claim(&db, "MOVING", "other").await.unwrap();
    for (head, upgrade) in [
        ("GET /api/tables/MOVING", ""),
        (
            "GET /ws/MOVING",
            "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
        ),
    ] {
        let answer = forwarded(&server, &format!("{head} HTTP/1.1\r\n{upgrade}")).await;
        assert!(answer.starts_with("HTTP/1.1 503"), "{head}: {answer}");
        assert!(answer.contains("\"code\":\"busy\""), "{head}: {answer}");
    }
    server.shutdown().await;
}

/// The answer to a request another server forwarded to `server` (so it is
/// served where it arrives): `head` is its request line and any headers.
async fn forwarded(server: &crate::RunningServer, head: &str) -> String {
    let head = format!("{head}{}", mark(server));
    request_from([127, 0, 0, 1].into(), server.addr(), &head, "").await
}

/// The mark of a request a server forwarded: the cluster's secret, as its
/// servers read it from the database.
fn mark(server: &crate::RunningServer) -> String {
    let cluster = server.app.cluster.as_ref().expect("a cluster");
    let secret = cluster.secret.to_str().expect("hex digits");
    format!("x-tripoley-forwarded: {secret}\r\n")
}

/// The headers of a create a server forwarded for the client 10.9.8.7.
fn for_him(server: &crate::RunningServer) -> String {
    format!("{}x-tripoley-client: 10.9.8.7\r\n", mark(server))
}

/// The answer to a request from the address `from`: `head` is its request
/// line and any headers.
async fn request_from(
    from: std::net::IpAddr,
    addr: std::net::SocketAddr,
    head: &str,
    body: &str,
) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind((from, 0).into()).unwrap();
    let mut stream = socket.connect(addr).await.unwrap();
    let request = format!("{head}Host: {addr}\r\nConnection: close\r\n\r\n{body}");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("an answer in time")
        .unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

/// A request the database cannot serve just now (here a lock a frozen
/// session holds keeps the table's lease from being taken) is answered in
/// time with 503 `storage` and when to try again, without the database's
/// own words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_that_cannot_answer_is_try_again_not_an_internal_error() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let (server, db) = server(&url).await;
    let store = Store::open(&Database::Postgres(url.clone())).expect("opens");
    started_table(&store, "LOCKED").await;
    let frozen = plain(&url).await;
    frozen
        .batch_execute("BEGIN; LOCK TABLE leases IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    let answer = forwarded(&server, "GET /api/tables/LOCKED HTTP/1.1\r\n").await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("retry-after: "),
        "{answer}"
    );
    assert!(answer.contains("\"code\":\"storage\""), "{answer}");
    assert!(!answer.contains("lock"), "no database text: {answer}");
    drop(frozen);
    drop(db);
    server.shutdown().await;
}

/// Loads waiting on the database (here lease claims waiting on a lock a
/// frozen session holds) hold up neither the health check the proxy
/// decides by nor the tables already running: a server busy taking games
/// over is not taken for hung.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_loads_do_not_hold_the_health_check_up() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let (server, db) = server(&url).await;
    let store = Store::open(&Database::Postgres(url.clone())).expect("opens");
    let slow: Vec<String> = (0..6).map(|k| format!("SLOW{k}")).collect();
    for invite in &slow {
        started_table(&store, invite).await;
    }
    let frozen = plain(&url).await;
    frozen
        .batch_execute("BEGIN; LOCK TABLE leases IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    let mut loads = tokio::task::JoinSet::new();
    for invite in slow {
        let (addr, mark) = (server.addr(), mark(&server));
        let head = format!("GET /api/tables/{invite} HTTP/1.1\r\n{mark}");
        loads.spawn(async move { request_from([127, 0, 0, 1].into(), addr, &head, "").await });
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let asked = Instant::now();
    let (status, _) = client::request(server.addr(), "GET", "/api/health", None)
        .await
        .expect("an answer");
    assert_eq!(status, 200);
    assert!(
        asked.elapsed() < Duration::from_millis(150),
        "the health check waited {:?} for the loads",
        asked.elapsed()
    );
    drop(frozen);
    while loads.join_next().await.is_some() {}
    drop(db);
    server.shutdown().await;
}

/// Two servers on `url` with the default caps on one address's creates,
/// except `config`'s changes.
async fn two_servers(
    url: &str,
    config: impl Fn(crate::ServerConfig) -> crate::ServerConfig,
) -> [crate::RunningServer; 2] {
    let start = || {
        crate::start(config(crate::ServerConfig {
            addr: "127.0.0.1:0".parse().expect("an address"),
            db: Database::Postgres(url.to_owned()),
            lease: LEASE,
            ..crate::ServerConfig::default()
        }))
    };
    let a = start().await.expect("a starts");
    let b = start().await.expect("b starts");
    [a, b]
}

/// A create served by `server` itself (as a proxy spreading an address's
/// requests would have it): its status and its answer.
async fn create_here(
    server: &crate::RunningServer,
    body: &serde_json::Value,
) -> (u16, serde_json::Value) {
    create_from([127, 0, 0, 1].into(), &mark(server), server.addr(), body).await
}

/// A create from the address `from` with the headers `extra`.
async fn create_from(
    from: std::net::IpAddr,
    extra: &str,
    addr: std::net::SocketAddr,
    body: &serde_json::Value,
) -> (u16, serde_json::Value) {
    let body = body.to_string();
    let head = format!(
        "POST /api/tables HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}",
        body.len()
    );
    let answer = request_from(from, addr, &head, &body).await;
    let (head, json) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, serde_json::from_str(json).unwrap_or_default())
}

/// One address creating lobbies on two servers in turn holds at most
/// `max_lobbies_per_address` of them in the whole cluster: the next is
/// refused as a single server refuses it, on either server, until one of
/// its lobbies starts or is removed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cap_on_one_address_s_open_lobbies_holds_across_the_cluster() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let servers = two_servers(&url, |c| c).await;
    let cap = crate::ServerConfig::default().max_lobbies_per_address;
    let lobby = serde_json::json!({"seats": 2, "host_name": "Ann"});
    let mut created = Vec::new();
    for k in 0..cap {
        let on = &servers[k % 2];
        let (status, answer) = create_here(on, &lobby).await;
        assert_eq!(status, 201, "lobby {k}: {answer}");
        created.push((on.addr(), answer));
    }
    for server in &servers {
        let (status, answer) = create_here(server, &lobby).await;
        assert_eq!(status, 503, "{answer}");
        assert_eq!(answer["code"], "busy", "{answer}");
        assert_eq!(
            answer["message"],
            crate::api::tables::TOO_MANY_LOBBIES,
            "{answer}"
        );
    }
    // One lobby starts: room for one more, on either server.
    let (on, first) = &created[0];
    client::start_table(
        *on,
        first["invite"].as_str().unwrap(),
        first["host_token"].as_str().unwrap(),
    )
    .await
    .expect("the lobby starts");
    assert_eq!(create_here(&servers[1], &lobby).await.0, 201);
    assert_eq!(create_here(&servers[0], &lobby).await.0, 503);
    // One is removed (as when it idles out or is reclaimed): room again.
    let second = &created[1].1;
    let db = plain(&url).await;
    let invite = second["invite"].as_str().unwrap();
    db.execute("DELETE FROM tables WHERE invite = $1", &[&invite])
        .await
        .unwrap();
    assert_eq!(create_here(&servers[0], &lobby).await.0, 201);
    for server in servers {
        server.shutdown().await;
    }
}

/// One address creating tables on two servers in turn creates at most
/// `max_tables_per_address` in the window in the whole cluster: two
/// creates at once on both servers for its last slot get one table, the
/// other is refused as a single server refuses it; once the window has
/// passed it creates again. A database that cannot count refuses the
/// create with "try again", and the server goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cap_on_one_address_s_tables_per_hour_holds_across_the_cluster() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let window = Duration::from_secs(3);
    let servers = two_servers(&url, |c| crate::ServerConfig {
        max_tables_per_address: 4,
        table_window: window,
        ..c
    })
    .await;
    let [a, b] = &servers;
    let table = serde_json::json!({"seats": 2});
    let began = Instant::now();
    let mut first = None;
    for k in 0..3 {
        let (status, answer) = create_here(&servers[k % 2], &table).await;
        assert_eq!(status, 201, "table {k}: {answer}");
        // The first create is stored by now: its window ends a window on.
        first.get_or_insert_with(Instant::now);
    }
    let first = first.expect("three creates");
    let (on_a, on_b) = tokio::join!(create_here(a, &table), create_here(b, &table));
    let mut answers = [on_a, on_b];
    answers.sort_by_key(|(status, _)| *status);
    assert_eq!(answers[0].0, 201, "{answers:?}");
    assert_eq!(answers[1].0, 429, "{answers:?}");
    assert_eq!(answers[1].1["code"], "rate_limited", "{answers:?}");
    assert_eq!(answers[1].1["message"], crate::api::tables::TOO_MANY_TABLES);
    assert!(began.elapsed() < window, "the window has not passed yet");
    tokio::time::sleep_until(first + window).await;
    assert_eq!(create_here(a, &table).await.0, 201);
    // Counts that no longer count are removed at a beat: here the old
    // tables are gone, so only the last create's address stays.
    let db = plain(&url).await;
    db.execute("DELETE FROM tables WHERE invite IN (SELECT invite FROM creations WHERE created < (SELECT max(created) FROM creations))", &[])
        .await
        .unwrap();
    let kept = async || -> i64 {
        let row = db
            .query_one("SELECT count(*) FROM creations", &[])
            .await
            .unwrap();
        row.get(0)
    };
    let asked = Instant::now();
    while kept().await > 1 {
        assert!(asked.elapsed() < LEASE * 4, "the old creations are removed");
        tokio::time::sleep(LEASE / 8).await;
    }
    // The database cannot count (here its table of creations is gone).
    db.batch_execute("DROP TABLE creations").await.unwrap();
    let (status, answer) = create_here(b, &table).await;
    assert_eq!(status, 503, "{answer}");
    assert_eq!(answer["code"], "storage", "{answer}");
    let (status, _) = client::request(b.addr(), "GET", "/api/health", None)
        .await
        .expect("the server answers");
    assert_eq!(status, 200);
    for server in servers {
        server.shutdown().await;
    }
}

/// A create another server forwarded (with the cluster's secret) counts as
/// its client's, the address that server saw, not the forwarder's. Without
/// the secret no client can name another address: not one connecting from
/// a server's own address (a reverse proxy on that host that sends no
/// PROXY headers), which hits the cap as itself, nor any other. A client's
/// creates that the servers spread between them all count as its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forwarded_create_counts_as_its_client_s() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    // Forwarded creates are believed from the start, not from a beat: the
    // secret proves them.
    let servers = two_servers(&url, |c| c).await;
    let process = [127, 0, 0, 1].into();
    let lobby = serde_json::json!({"seats": 2, "host_name": "Ann"});
    let cap = crate::ServerConfig::default().max_lobbies_per_address;
    let for_him = for_him(&servers[0]);
    for k in 0..cap {
        let on = servers[k % 2].addr();
        let (status, answer) = create_from(process, &for_him, on, &lobby).await;
        assert_eq!(status, 201, "lobby {k}: {answer}");
    }
    let (status, answer) = create_from(process, &for_him, servers[1].addr(), &lobby).await;
    assert_eq!(
        answer["message"],
        crate::api::tables::TOO_MANY_LOBBIES,
        "{status}"
    );
    // The forwarding process's own address holds none of them.
    assert_eq!(create_here(&servers[0], &lobby).await.0, 201);
    // Its own address naming others, with a wrong secret or none: all its own.
    let wrong = format!("x-tripoley-forwarded: {}\r\n", "0".repeat(64));
    for k in 1..=cap {
        let mark = if k % 2 == 0 { wrong.as_str() } else { "" };
        let named = format!("{mark}x-tripoley-client: 10.9.7.{k}\r\n");
        let (status, answer) = create_from(process, &named, servers[k % 2].addr(), &lobby).await;
        if k < cap {
            assert_eq!(status, 201, "lobby {k}: {answer}");
        } else {
            assert_eq!(
                answer["message"],
                crate::api::tables::TOO_MANY_LOBBIES,
                "{status}"
            );
        }
    }
    // A client naming the full address with a mark that is not the secret
    // (the one servers sent before they had a secret) is counted as itself.
    let stranger = [127, 0, 0, 9].into();
    let unproven = "x-tripoley-forwarded: 1\r\nx-tripoley-client: 10.9.8.7\r\n";
    let (status, answer) = create_from(stranger, unproven, servers[0].addr(), &lobby).await;
    assert_eq!(status, 201, "{answer}");
    // A client's own creates, spread by the servers themselves (each new
    // table goes to the least-loaded one), count as the client's wherever
    // they are stored.
    let client = [127, 0, 0, 10].into();
    for k in 0..cap {
        let (status, answer) = create_from(client, "", servers[0].addr(), &lobby).await;
        assert_eq!(status, 201, "lobby {k}: {answer}");
    }
    let (status, answer) = create_from(client, "", servers[0].addr(), &lobby).await;
    assert_eq!(
        answer["message"],
        crate::api::tables::TOO_MANY_LOBBIES,
        "{status}"
    );
    for server in servers {
        server.shutdown().await;
    }
}

/// An answer relayed back through a forwarder, an API answer and a
/// websocket's upgrade alike, carries neither the cluster's secret nor
/// its headers. A websocket relayed to a process the forwarder has not
/// yet seen at a beat (here the owner started after the forwarder, whose
/// first beat, with a long lease, comes later) lasts: it is cut only once
/// a beat finds its owner gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relayed_answers_carry_no_secret_and_relayed_websockets_last() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let servers = two_servers(&url, |c| crate::ServerConfig {
        lease: Duration::from_secs(8),
        ..c
    })
    .await;
    let [relay, owner] = &servers;
    let (status, table) = create_here(owner, &serde_json::json!({"seats": 2})).await;
    assert_eq!(status, 201, "{table}");
    let (invite, token) = (table["invite"].as_str().unwrap(), &table["host_token"]);
    let secret = mark(relay);
    let secret = secret.trim_end().rsplit(' ').next().expect("a secret");
    let answer = request_from(
        [127, 0, 0, 1].into(),
        relay.addr(),
        &format!("GET /api/tables/{invite} HTTP/1.1\r\n"),
        "",
    )
    .await;
    let upgrade = format!(
        "GET /ws/{invite} HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
        relay.addr()
    );
    let mut stream = tokio::net::TcpStream::connect(relay.addr()).await.unwrap();
    stream.write_all(upgrade.as_bytes()).await.unwrap();
    let mut switched = Vec::new();
    while !switched.ends_with(b"\r\n\r\n") {
        let mut byte = [0];
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut byte));
        assert_eq!(read.await.expect("the upgrade in time").unwrap(), 1);
        switched.push(byte[0]);
    }
    let switched = String::from_utf8_lossy(&switched);
    for (what, answer) in [("answer", answer.as_str()), ("upgrade", &switched)] {
        let status = if what == "answer" { " 200 " } else { " 101 " };
        assert!(answer.contains(status), "{what}: {answer}");
        assert!(!answer.contains(secret), "{what}: {answer}");
        assert!(
            !answer.to_ascii_lowercase().contains("x-tripoley"),
            "{what}: {answer}"
        );
    }
    drop(stream);
    let mut sock = Socket::connect(relay.addr(), invite).await.unwrap();
    sock.hello(token.as_str(), None).await.unwrap();
    sock.recv_type("welcome", Duration::from_secs(5))
        .await
        .expect("the relayed websocket lasts");
    drop(sock);
    for server in servers {
        server.shutdown().await;
    }
}

/// The cluster's secret is made once per database: processes joining at
/// once all read the same one; a database whose secret was edited into
/// something weaker is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_process_reads_the_same_secret() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let _store = Store::open(&Database::Postgres(url.clone())).expect("migrates");
    let (one, two) = (plain(&url).await, plain(&url).await);
    let (a, b) = tokio::join!(registry::secret(&one), registry::secret(&two));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a, b);
    assert_eq!(a.len(), 64);
    assert!(a.bytes().all(|c| c.is_ascii_hexdigit()), "{a}");
    one.execute("UPDATE cluster_secret SET secret = 'abc'", &[])
        .await
        .unwrap();
    assert!(registry::secret(&two).await.is_err());
}

/// A server registers the address it advertises (where the others forward
/// requests for its tables), not the one it listens on; without one, a
/// server listening on every interface registers this machine's loopback
/// with its port.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_registers_the_address_it_advertises() {
    let Some(pg) = TestPostgres::start() else {
        return;
    };
    let url = pg.new_database();
    let advertised: std::net::SocketAddr = "10.20.30.40:7000".parse().unwrap();
    let server = crate::start(crate::ServerConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: Database::Postgres(url.clone()),
        lease: LEASE,
        advertise: Some(advertised),
        ..crate::ServerConfig::default()
    })
    .await
    .expect("the server starts");
    let anywhere = crate::start(crate::ServerConfig {
        addr: "0.0.0.0:0".parse().unwrap(),
        db: Database::Postgres(url.clone()),
        lease: LEASE,
        ..crate::ServerConfig::default()
    })
    .await
    .expect("the server starts");
    let db = plain(&url).await;
    let live = registry::live(&db).await.unwrap();
    let loopback = format!("127.0.0.1:{}", anywhere.addr().port());
    assert!(live.contains("10.20.30.40:7000"), "{live:?}");
    assert!(live.contains(&loopback), "{live:?}");
    assert!(!live.contains(&server.addr().to_string()), "{live:?}");
    server.shutdown().await;
    anywhere.shutdown().await;
}

/// An advertised address nobody can reach (every interface, port 0), or one
/// given without a shared database, is refused with its reason.
#[test]
fn an_address_no_server_can_reach_is_refused() {
    let config = |advertise: &str, db: Database| crate::ServerConfig {
        db,
        advertise: Some(advertise.parse().unwrap()),
        ..crate::ServerConfig::default()
    };
    let pg = || Database::Postgres("postgres://x@127.0.0.1/y".into());
    for bad in ["0.0.0.0:7000", "10.0.0.1:0"] {
        let err = config(bad, pg()).check().unwrap_err().to_string();
        assert!(
            err.contains("advertise must name an address and a port"),
            "{err}"
        );
    }
    let err = config("10.0.0.1:7000", Database::Sqlite(":memory:".into()))
        .check()
        .unwrap_err()
        .to_string();
    assert!(err.contains("PostgreSQL"), "{err}");
    config("10.0.0.1:7000", pg()).check().unwrap();
}
