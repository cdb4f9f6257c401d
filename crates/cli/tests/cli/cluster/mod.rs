//! Three `tripoley serve` processes on one PostgreSQL database behind
//! HAProxy, as `scripts/cluster up` runs them: whole games played by socket
//! clients through the proxy, while the process running most of them is
//! killed with SIGKILL, or while all three are restarted one after another.
//! Every game finishes, every chip is still there, and the record stored
//! in the database replays to the end the players saw.
//!
//! The tests start PostgreSQL and HAProxy themselves and fail, saying what
//! to install, when either is missing.
// PostgreSQL and HAProxy are names here, not code.
#![allow(clippy::doc_markdown)]

mod chaos;
#[path = "../../../../server/src/store/relay.rs"]
mod relay;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::Scratch;
use crate::common::pg::TestPostgres;
use relay::Relay;
use tripoley_bots::BotKind;
use tripoley_cards::seeded_rng;
use tripoley_engine::{Pending, Preset, Record, Rules, Step, View};
use tripoley_loadtest::client::{self, Socket};
use tripoley_server::protocol::TableSettings;

/// The lease: a killed process's tables move within about this time.
const LEASE_MS: u64 = 1500;
/// Games played at once.
const GAMES: usize = 6;
/// Time for everything: starting a process, playing a game.
const WAIT: Duration = Duration::from_secs(120);
/// How long a client thinks: games last long enough to be interrupted.
const THINK: Duration = Duration::from_millis(10);

/// A free loopback port (bound, then released).
fn free_addr() -> SocketAddr {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("its address")
}

/// HAProxy's program, or a failure saying how to install it.
fn haproxy() -> PathBuf {
    [
        "/usr/sbin/haproxy",
        "/usr/bin/haproxy",
        "/usr/local/sbin/haproxy",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
    .unwrap_or_else(|| panic!("the cluster tests need HAProxy: apt-get install haproxy"))
}

/// PostgreSQL, three servers and the proxy; all stopped when dropped.
struct TestCluster {
    pg: TestPostgres,
    url: String,
    /// Between server 0 and PostgreSQL: the network faults (a commit's
    /// answer lost, a partition) are injected there.
    relay: Relay,
    dir: Scratch,
    servers: Vec<Option<Child>>,
    addrs: Vec<SocketAddr>,
    proxy: Child,
    proxy_addr: SocketAddr,
}

impl TestCluster {
    async fn start(name: &str) -> Option<TestCluster> {
        let haproxy = haproxy();
        let pg = TestPostgres::start()?;
        let url = pg.new_database();
        let dir = Scratch::new(name);
        let addrs: Vec<SocketAddr> = (0..3).map(|_| free_addr()).collect();
        let proxy_addr = free_addr();
        let config = dir.file("haproxy.cfg", &haproxy_config(proxy_addr, &addrs));
        let log = std::fs::File::create(dir.0.join("haproxy.log")).expect("a log file");
        let mut cluster = TestCluster {
            proxy: Command::new(haproxy)
                .args(["-db", "-f", &config])
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .expect("haproxy starts"),
            relay: Relay::start(pg.port()),
            pg,
            url,
            dir,
            servers: Vec::new(),
            addrs,
            proxy_addr,
        };
        for i in 0..3 {
            let server = cluster.serve(i).await;
            cluster.servers.push(Some(server));
        }
        if let Ok(Some(status)) = cluster.proxy.try_wait() {
            panic!(
                "haproxy stopped ({status}): {}",
                std::fs::read_to_string(cluster.dir.0.join("haproxy.log")).unwrap_or_default()
            );
        }
        wait_healthy(cluster.proxy_addr).await;
        Some(cluster)
    }

    /// Starts server `i` on its port; returns once it answers.
    async fn serve(&self, i: usize) -> Child {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.0.join(format!("server{i}.log")))
            .expect("a log file");
        let url = if i == 0 {
            self.relay.through(&self.url)
        } else {
            self.url.clone()
        };
        let child = Command::new(env!("CARGO_BIN_EXE_tripoley"))
            .args(["serve", "--addr", &self.addrs[i].to_string()])
            // Its sessions named after it (the chaos test finds them).
            .args(["--db", &format!("{url}?application_name=tripoley-{i}")])
            .args(["--lease-ms", &LEASE_MS.to_string()])
            // The proxy names each client (scripts/haproxy.cfg), but
            // the clients here all come from one address.
            .args(["--proxy-from", "127.0.0.2"])
            .args(["--max-connections-per-address", "10000"])
            .args(["--max-tables-per-address", "100000"])
            .args(["--max-lobbies-per-address", "100000"])
            .args(["--max-games-per-address", "100000"])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("tripoley serve starts");
        wait_healthy(self.addrs[i]).await;
        child
    }

    /// The database's name on the test server.
    fn db_name(&self) -> &str {
        self.url.rsplit('/').next().expect("a database name")
    }

    fn psql(&self, sql: &str) -> String {
        self.pg.psql(self.db_name(), sql)
    }

    /// The server (its index) running each table, by invite.
    fn owners(&self) -> HashMap<String, usize> {
        self.psql(
            "SELECT l.invite, p.addr FROM leases l JOIN processes p ON p.id = l.owner \
             WHERE p.expires > (extract(epoch from clock_timestamp()) * 1000)::bigint",
        )
        .lines()
        .filter_map(|line| {
            let (invite, addr) = line.split_once('|')?;
            let i = self.addrs.iter().position(|a| a.to_string() == addr)?;
            Some((invite.to_owned(), i))
        })
        .collect()
    }

    /// Steps stored for a table.
    fn stored_steps(&self, invite: &str) -> u64 {
        self.psql(&format!(
            "SELECT count(*) FROM steps WHERE invite = '{invite}'"
        ))
        .trim()
        .parse()
        .expect("a count")
    }

    /// The record stored for a table, replayed by the engine.
    fn replay(&self, invite: &str) -> (Record, tripoley_engine::Game) {
        let table = self.psql(&format!(
            "SELECT settings || E'\\n' || names FROM tables WHERE invite = '{invite}'"
        ));
        let mut lines = table.lines();
        let settings: TableSettings =
            serde_json::from_str(lines.next().expect("settings")).expect("settings read");
        let names: Vec<String> =
            serde_json::from_str(lines.next().expect("names")).expect("names read");
        let steps: Vec<Step> = self
            .psql(&format!(
                "SELECT step FROM steps WHERE invite = '{invite}' ORDER BY idx"
            ))
            .lines()
            .map(|s| serde_json::from_str(s).expect("a step"))
            .collect();
        let record = Record {
            steps,
            ..Record::new(settings.rules, names)
        };
        let (game, _) = record.replay().expect("the stored record replays");
        (record, game)
    }

    /// Stops server `i`: `SIGKILL` (as a crash) or `SIGTERM` (as a
    /// service manager does); waits until it has gone.
    fn stop(&mut self, i: usize, signal: &str) {
        self.signal(i, signal);
        let mut child = self.servers[i].take().expect("running");
        let asked = Instant::now();
        while child.try_wait().expect("waits").is_none() {
            assert!(asked.elapsed() < WAIT, "server {i} stops on {signal}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends `signal` to server `i` (which goes on running, or not).
    fn signal(&self, i: usize, signal: &str) {
        let child = self.servers[i].as_ref().expect("running");
        let sent = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
    }

    /// The log of server `i` so far (shown when something fails).
    fn log(&self, i: usize) -> String {
        std::fs::read_to_string(self.dir.0.join(format!("server{i}.log"))).unwrap_or_default()
    }
}

impl Drop for TestCluster {
    fn drop(&mut self) {
        for child in self.servers.iter_mut().flatten().chain([&mut self.proxy]) {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The proxy's configuration: round robin over the servers, websockets
/// passed through, a server found dead by its health check within a
/// second or two and a connection it refuses tried on the next one. The
/// same configuration as `scripts/cluster`'s.
fn haproxy_config(front: SocketAddr, servers: &[SocketAddr]) -> String {
    let template = include_str!("../../../../../scripts/haproxy.cfg");
    let mut lines = String::new();
    for (i, a) in servers.iter().enumerate() {
        writeln!(lines, "    server s{i} {a}").expect("a string");
    }
    template
        .replace("FRONT", &front.to_string())
        .replace("    # SERVERS\n", &lines)
}

async fn wait_healthy(addr: SocketAddr) {
    let asked = Instant::now();
    loop {
        if let Ok((200, _)) = client::request(addr, "GET", "/api/health", None).await {
            return;
        }
        assert!(asked.elapsed() < WAIT, "{addr} answers");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Chips on the table in a view: every stack plus the layout.
fn chips(view: &View) -> u32 {
    view.stacks.iter().sum::<u32>() + view.layout.iter().map(|(_, c)| c).sum::<u32>()
}

/// Every frame's event number as the clients saw it, with when: how long a
/// moved table's game stood still.
type Seen = Arc<Mutex<Vec<(String, Instant, u64)>>>;

/// A table of three people created through the proxy and started, for a
/// game of `deals` deals; returns its invite and the seats' tokens.
async fn new_game(proxy: SocketAddr, deals: u32) -> (String, Vec<String>) {
    let (invite, host_token, tokens) =
        crate::common::three_seated(proxy, Preset::Pagat, deals).await;
    client::start_table(proxy, &invite, &host_token)
        .await
        .expect("started through the proxy");
    (invite, tokens)
}

/// Plays a seat to the end of its game through the proxy, as the browser
/// does: when the connection drops, it connects again with the last event
/// it saw and goes on. Returns the game's end as this seat saw it.
async fn play_to_the_end(
    proxy: SocketAddr,
    invite: String,
    token: String,
    seat: u64,
    seen: Seen,
) -> View {
    let rules = Rules::preset(Preset::Pagat);
    let mut bot = BotKind::Heuristic.make(&rules);
    let mut rng = seeded_rng(seat);
    let until = Instant::now() + WAIT;
    let mut last = None;
    loop {
        assert!(Instant::now() < until, "the game at {invite} ends in time");
        let Ok(mut sock) = Socket::connect(proxy, &invite).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        if sock.hello(Some(&token), last).await.is_err()
            || sock
                .recv_type("welcome", Duration::from_secs(5))
                .await
                .is_err()
        {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        let played = client::play_seat_observed(
            &mut sock,
            bot.as_mut(),
            &mut rng,
            THINK,
            Some(until),
            |msg| {
                if let Some(n) = msg["n"].as_u64() {
                    let mut seen = seen.lock().expect("the log");
                    seen.push((invite.clone(), Instant::now(), n));
                }
            },
        )
        .await;
        last = sock.last.or(last);
        match played {
            Ok(stats) if stats.finished => return stats.last_view.expect("the end"),
            Ok(_) => panic!("the game at {invite} did not end in time"),
            // The connection dropped (its server stopped): connect again.
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// Starts `GAMES` games and their players; returns the games' invites,
/// the players' tasks and the log of what they see.
async fn start_games(
    proxy: SocketAddr,
    deals: u32,
) -> (Vec<String>, tokio::task::JoinSet<(String, View)>, Seen) {
    let seen = Seen::default();
    let mut invites = Vec::new();
    let mut players = tokio::task::JoinSet::new();
    for g in 0..GAMES {
        let (invite, tokens) = new_game(proxy, deals).await;
        for (k, token) in tokens.into_iter().enumerate() {
            let (invite, seen) = (invite.clone(), Arc::clone(&seen));
            let seat = (g * 3 + k) as u64;
            players.spawn(async move {
                let end = play_to_the_end(proxy, invite.clone(), token, seat, seen).await;
                (invite, end)
            });
        }
        invites.push(invite);
    }
    (invites, players, seen)
}

/// Waits until every game has stored at least `steps` steps.
async fn until_under_way(cluster: &TestCluster, invites: &[String], steps: u64) {
    let asked = Instant::now();
    while invites.iter().any(|i| cluster.stored_steps(i) < steps) {
        assert!(asked.elapsed() < WAIT, "the games get under way");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every game ended; everyone saw the same end with every chip there, and
/// the record in the database replays to it, one step per event.
async fn all_finish(
    cluster: &TestCluster,
    invites: &[String],
    mut players: tokio::task::JoinSet<(String, View)>,
    seen: &Seen,
) {
    let mut ends: HashMap<String, Vec<View>> = HashMap::new();
    while let Some(done) = players.join_next().await {
        let (invite, end) = done.unwrap_or_else(|e| {
            panic!(
                "a player failed: {e}\nserver logs:\n{}\n{}\n{}",
                cluster.log(0),
                cluster.log(1),
                cluster.log(2)
            )
        });
        ends.entry(invite).or_default().push(end);
    }
    let start = Rules::preset(Preset::Pagat).starting_chips * 3;
    for invite in invites {
        let views = &ends[invite];
        assert_eq!(views.len(), 3);
        let (record, game) = cluster.replay(invite);
        assert_eq!(
            game.pending(),
            Pending::GameOver,
            "{invite}: the record is whole"
        );
        for view in views {
            assert_eq!(chips(view), start, "{invite}: T7, no chip lost");
            assert_eq!(
                view.stacks.as_slice(),
                game.stacks(),
                "{invite}: the record replays to the end seen"
            );
        }
        // Every event the players saw is a stored step, and the last one
        // they saw is the last stored: nothing acknowledged was lost.
        let last_seen = seen
            .lock()
            .expect("the log")
            .iter()
            .filter(|(i, ..)| i == invite)
            .map(|&(.., n)| n)
            .max();
        assert_eq!(last_seen, Some(record.steps.len() as u64), "{invite}");
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

#[test]
fn games_go_on_when_the_server_running_them_is_killed() {
    games_move_off_a_failed_server("cluster-kill", "-KILL");
}

/// A hung server (SIGSTOP, for longer than its lease) is taken out of the
/// proxy, its clients' connections are cut, and its games go on elsewhere
/// as a dead server's do; it cannot take the healthy ones down.
#[test]
fn games_go_on_when_the_server_running_them_hangs() {
    games_move_off_a_failed_server("cluster-stop", "-STOP");
}

/// Six games on three servers; the busiest server fails mid-game with
/// `signal` (`-KILL`, a crash; `-STOP`, a hang, lifted once the games have
/// ended); every game ends, whole, and the failed server holds none of
/// the games it ran. Prints how long each moved game stood still.
fn games_move_off_a_failed_server(name: &str, signal: &str) {
    runtime().block_on(async {
        let Some(mut cluster) = TestCluster::start(name).await else {
            return;
        };
        let (invites, players, seen) = start_games(cluster.proxy_addr, 6).await;
        let owners = cluster.owners();
        let used: std::collections::HashSet<_> = invites.iter().map(|i| owners[i]).collect();
        assert_eq!(
            used.len(),
            3,
            "new tables spread over the servers: {owners:?}"
        );
        until_under_way(&cluster, &invites, 12).await;
        // The busiest server dies mid-game.
        let victim = (0..3)
            .max_by_key(|&s| invites.iter().filter(|i| owners[*i] == s).count())
            .expect("a server");
        let moved: Vec<&String> = invites.iter().filter(|i| owners[*i] == victim).collect();
        let at_kill: HashMap<&String, u64> = moved
            .iter()
            .map(|i| (*i, cluster.stored_steps(i)))
            .collect();
        let killed = Instant::now();
        if signal == "-STOP" {
            cluster.signal(victim, "-STOP");
        } else {
            cluster.stop(victim, signal);
        }
        all_finish(&cluster, &invites, players, &seen).await;
        // How long each moved game stood still: from the kill to the first
        // event after the last step stored before it.
        let seen = seen.lock().expect("the log");
        let mut stood: Vec<Duration> = moved
            .iter()
            .map(|invite| {
                seen.iter()
                    .filter(|(i, at, n)| i == *invite && *at > killed && *n > at_kill[invite])
                    .map(|(_, at, _)| *at - killed)
                    .min()
                    .expect("the moved game went on")
            })
            .collect();
        stood.sort();
        eprintln!(
            "failover ({signal}): {} tables moved; from the fault to their next event: {:?}",
            moved.len(),
            stood
        );
        let owners = cluster.owners();
        assert!(
            moved
                .iter()
                .all(|i| owners.get(*i).is_none_or(|&s| s != victim)),
            "the failed server holds no lease"
        );
        if signal == "-STOP" {
            cluster.signal(victim, "-CONT");
        }
    });
}

#[test]
fn games_go_on_through_a_rolling_restart() {
    runtime().block_on(async {
        let Some(mut cluster) = TestCluster::start("cluster-rolling").await else {
            return;
        };
        // Games long enough to be in progress through all three restarts
        // however fast the bots play.
        let (invites, players, seen) = start_games(cluster.proxy_addr, 12).await;
        until_under_way(&cluster, &invites, 12).await;
        for i in 0..3 {
            assert!(
                invites.iter().any(|t| !finished(&cluster, t)),
                "games are in progress as server {i} restarts"
            );
            let before: u64 = invites.iter().map(|t| cluster.stored_steps(t)).sum();
            let stopped = Instant::now();
            cluster.stop(i, "-TERM");
            // Handed over at once, not after the lease: the others run
            // every table within a beat or two.
            let asked = Instant::now();
            let unowned = |t: &String| {
                let owner = cluster.owners().get(t).copied();
                (owner.is_none() || owner == Some(i)) && !finished(&cluster, t)
            };
            while invites.iter().any(unowned) {
                assert!(asked.elapsed() < WAIT, "the tables move");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            eprintln!(
                "rolling restart: server {i}'s tables moved in {:?}",
                stopped.elapsed()
            );
            let server = cluster.serve(i).await;
            cluster.servers[i] = Some(server);
            // The games went on meanwhile.
            let asked = Instant::now();
            while invites.iter().map(|t| cluster.stored_steps(t)).sum::<u64>() <= before
                && !invites.iter().all(|t| finished(&cluster, t))
            {
                assert!(asked.elapsed() < WAIT, "the games go on");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        all_finish(&cluster, &invites, players, &seen).await;
    });
}

/// Whether a table's game is over, by its status in the database.
fn finished(cluster: &TestCluster, invite: &str) -> bool {
    cluster
        .psql(&format!(
            "SELECT status FROM tables WHERE invite = '{invite}'"
        ))
        .trim()
        == "finished"
}

/// `tripoley loadtest` aimed at the proxy plays through a `kill -9` of one
/// server: its clients reconnect as the browser does, and no game fails.
#[test]
fn the_load_generator_through_the_proxy_rides_out_a_kill() {
    runtime().block_on(async {
        let Some(mut cluster) = TestCluster::start("cluster-load").await else {
            return;
        };
        let load = Command::new(env!("CARGO_BIN_EXE_tripoley"))
            .args(["loadtest", "--addr", &cluster.proxy_addr.to_string()])
            .args([
                "--tables",
                "12",
                "--think-ms",
                "20",
                "--duration",
                "8",
                "--json",
            ])
            .stdout(Stdio::piped())
            .spawn()
            .expect("tripoley loadtest starts");
        tokio::time::sleep(Duration::from_secs(3)).await;
        cluster.stop(1, "-KILL");
        let out = load.wait_with_output().expect("the load test ends");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a report");
        assert!(out.status.success(), "{report}");
        assert_eq!(report["failures"], 0, "{report}");
        assert_eq!(report["chips_conserved"], true, "{report}");
        assert!(report["reconnects"].as_u64() > Some(0), "{report}");
        assert!(report["games_finished"].as_u64() > Some(0), "{report}");
    });
}

/// The invites of the public tables a server lists, sorted, and the
/// number it says it lists.
async fn listed(addr: SocketAddr) -> (Vec<String>, usize) {
    let page = client::public_tables(addr, 0).await.expect("the list");
    let mut invites: Vec<String> = page.tables.into_iter().map(|t| t.invite).collect();
    invites.sort();
    (invites, page.total)
}

/// Waits until the list through the proxy shows exactly `expected`, then
/// asks every server directly and the proxy again a few times: each
/// answers the same list, whichever server runs which table.
async fn everyone_lists(cluster: &TestCluster, expected: &[String], servers: &[usize]) {
    let mut expected = expected.to_vec();
    expected.sort();
    let asked = Instant::now();
    while listed(cluster.proxy_addr).await.0 != expected {
        assert!(
            asked.elapsed() < Duration::from_secs(10),
            "the list shows {expected:?}, not {:?}",
            listed(cluster.proxy_addr).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut answers: Vec<SocketAddr> = servers.iter().map(|&i| cluster.addrs[i]).collect();
    answers.extend([cluster.proxy_addr; 6]);
    for addr in answers {
        assert_eq!(
            listed(addr).await,
            (expected.clone(), expected.len()),
            "{addr}"
        );
    }
}

/// The home page's list is the same from every server: public tables
/// created on different servers are all listed by each of them (their
/// seats as they change), private ones never, a started one no more; the
/// public tables of a server that dies move to the others and stay listed.
#[test]
fn every_server_lists_every_public_table() {
    runtime().block_on(async {
        let Some(mut cluster) = TestCluster::start("cluster-list").await else {
            return;
        };
        let proxy = cluster.proxy_addr;
        let mut public = Vec::new();
        let mut hosts = Vec::new();
        for k in 0..9 {
            let created = client::create_table(
                proxy,
                &tripoley_server::protocol::CreateTable {
                    seats: Some(3),
                    public: Some(k % 4 != 0),
                    host_name: Some("Ann".into()),
                    ..Default::default()
                },
            )
            .await
            .expect("a table");
            if k % 4 != 0 {
                public.push(created.invite.clone());
                hosts.push(created.host_token);
            }
        }
        let owners = cluster.owners();
        let used: std::collections::HashSet<_> = public.iter().map(|i| owners[i]).collect();
        assert!(used.len() > 1, "spread over the servers: {owners:?}");
        everyone_lists(&cluster, &public, &[0, 1, 2]).await;
        // A seat taken shows on every server; a started table leaves the list.
        client::sit(proxy, &public[0], Some(1), "Bea")
            .await
            .expect("a seat");
        let asked = Instant::now();
        loop {
            let page = client::public_tables(cluster.addrs[(owners[&public[0]] + 1) % 3], 0)
                .await
                .expect("the list");
            let taken = page.tables.iter().find(|t| t.invite == public[0]);
            if taken.is_some_and(|t| t.taken == 2) {
                break;
            }
            assert!(asked.elapsed() < Duration::from_secs(10), "{taken:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        client::start_table(proxy, &public[1], &hosts[1])
            .await
            .expect("started");
        let waiting: Vec<String> = public[..1].iter().chain(&public[2..]).cloned().collect();
        everyone_lists(&cluster, &waiting, &[0, 1, 2]).await;
        // A server dies: once its lease ends, the others take its tables
        // over. Its tables stay on the list all the while: asked every
        // 25 ms, each live server lists every waiting table.
        let victim = owners[&public[2]];
        cluster.stop(victim, "-KILL");
        let alive: Vec<usize> = (0..3).filter(|&s| s != victim).collect();
        let mut expected = waiting.clone();
        expected.sort();
        let asked = Instant::now();
        let mut polls = 0;
        while !waiting
            .iter()
            .all(|i| cluster.owners().get(i).is_some_and(|&s| s != victim))
        {
            assert!(asked.elapsed() < Duration::from_secs(10), "the tables move");
            for &s in &alive {
                let (invites, total) = listed(cluster.addrs[s]).await;
                assert_eq!(
                    (&invites, total),
                    (&expected, expected.len()),
                    "server {s}'s list {:?} after the kill",
                    asked.elapsed()
                );
                polls += 1;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        eprintln!(
            "the dead server's tables moved in {:?}, listed at all {polls} asks",
            asked.elapsed()
        );
        everyone_lists(&cluster, &waiting, &alive).await;
    });
}

/// Issue 26, point 7, in a cluster: a rematch asked of a server that does
/// not run the finished table is forwarded to the one that does, so the
/// screens still at that table hear of it at once.
#[test]
fn a_rematch_asked_of_another_server_is_announced_at_the_finished_table() {
    runtime().block_on(async {
        let Some(cluster) = TestCluster::start("cluster-rematch").await else {
            return;
        };
        let (invite, tokens) = new_game(cluster.proxy_addr, 1).await;
        let seen = Seen::default();
        let players: Vec<_> = tokens
            .iter()
            .enumerate()
            .map(|(seat, token)| {
                tokio::spawn(play_to_the_end(
                    cluster.proxy_addr,
                    invite.clone(),
                    token.clone(),
                    seat as u64,
                    Arc::clone(&seen),
                ))
            })
            .collect();
        for player in players {
            player.await.expect("a player plays to the end");
        }
        let owner = *cluster.owners().get(&invite).expect("a live owner");
        let mut watcher = Socket::connect(cluster.addrs[owner], &invite)
            .await
            .expect("the owner answers");
        watcher.hello(None, None).await.expect("hello");
        watcher
            .recv_type("welcome", Duration::from_secs(10))
            .await
            .expect("welcome");
        let other = cluster.addrs[(owner + 1) % cluster.addrs.len()];
        let (status, made) = client::request(
            other,
            "POST",
            &format!("/api/tables/{invite}/rematch"),
            Some(&serde_json::json!({ "token": tokens[0] })),
        )
        .await
        .expect("the other server answers");
        assert_eq!(status, 200, "{made}");
        let news = watcher
            .recv_type("rematch", Duration::from_secs(10))
            .await
            .expect("the finished table hears of the rematch");
        assert_eq!(news["invite"], made["invite"]);
    });
}
