//! The chaos test (#30, #48): `tripoley loadtest` through the proxy while
//! the faults servers really meet are injected in turn: kill -9 of a
//! server, a commit whose answer is lost (the connection between a server
//! and PostgreSQL cut right after the `COMMIT` went through), a partition
//! between a server and PostgreSQL (nothing passes, nothing closes) longer
//! than the load test's bound on a frozen game, a server stopped (SIGSTOP)
//! for longer than its lease while idle and while caught inside a database
//! transaction, a PostgreSQL restart of 2 s, and a rolling restart. The
//! network's faults are made by the relay between server 0 and PostgreSQL
//! (`relay.rs`). After each: no game failed or froze, chips were
//! conserved, every stored game replays, each finished one to the end its
//! players saw, and no player saw an event the database does not hold (a
//! second owner's events would be such: its fence refuses to store them).
//! It prints how long the tables the fault hit stood still.
//!
//! The default run is short (CI's budget); `TRIPOLEY_CHAOS_TABLES` (up to
//! 300) and `TRIPOLEY_CHAOS_SECONDS` (each fault's load, at least 8) make
//! a longer one, whose figures docs/several-servers.md gives.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};
use tripoley_engine::{Pending, Preset, Rules};
use tripoley_loadtest::{GameSeen, LoadOptions, LoadReport};

use super::{TestCluster, runtime};

/// A game whose seats all go this long without news is frozen: the lease
/// (1.5 s), the time for the table to go on elsewhere and some slack for
/// a busy machine.
const FROZEN: Duration = Duration::from_secs(6);

/// A number from the environment, or `default`, bounded.
fn setting(name: &str, default: u64, bounds: std::ops::RangeInclusive<u64>) -> u64 {
    let value = std::env::var(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} is a whole number, not {v:?}"))
    });
    assert!(bounds.contains(&value), "{name} is in {bounds:?}");
    value
}

/// How long server 0 is cut off from PostgreSQL: longer than [`FROZEN`],
/// so that its games fail the load test unless they move while it lasts.
const PARTITION: Duration = Duration::from_secs(8);

/// One injected fault.
#[derive(Clone, Copy, Debug)]
enum Fault {
    Kill,
    CommitAnswerLost,
    Partition,
    StopIdle,
    StopInTransaction,
    PostgresRestart,
    RollingRestart,
}

impl TestCluster {
    /// Every table stored so far.
    fn all_tables(&self) -> HashSet<String> {
        self.psql("SELECT invite FROM tables")
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// Steps stored so far for each table in play, but the `old` ones (the
    /// games an earlier load left unfinished).
    fn in_play(&self, old: &HashSet<String>) -> HashMap<String, u64> {
        self.psql(
            "SELECT t.invite, count(s.idx) FROM tables t LEFT JOIN steps s USING (invite) \
             WHERE t.status = 'playing' GROUP BY t.invite",
        )
        .lines()
        .filter_map(|line| {
            let (invite, n) = line.split_once('|')?;
            Some((invite.to_owned(), n.parse().ok()?))
        })
        .filter(|(invite, _)| !old.contains(invite))
        .collect()
    }

    /// The server running most of the tables in play.
    fn busiest(&self, old: &HashSet<String>) -> usize {
        let owners = self.owners();
        let playing = self.in_play(old);
        (0..3)
            .filter(|&s| self.servers[s].is_some())
            .max_by_key(|&s| {
                playing
                    .keys()
                    .filter(|i| owners.get(*i) == Some(&s))
                    .count()
            })
            .expect("a server")
    }

    /// Whether server `i` is stopped inside a transaction: one of its
    /// sessions (named after it) has one open.
    fn in_transaction(&self, i: usize) -> bool {
        self.psql(&format!(
            "SELECT count(*) FROM pg_stat_activity \
             WHERE application_name = 'tripoley-{i}' AND xact_start IS NOT NULL"
        ))
        .trim()
            != "0"
    }

    /// Stops server `i` (SIGSTOP) inside a database transaction or out
    /// of one (`inside`): stopped and let go again until caught so.
    /// Returns the tries.
    fn stop_caught(&self, i: usize, inside: bool) -> usize {
        for tries in 1..=500 {
            self.signal(i, "-STOP");
            if self.in_transaction(i) == inside {
                return tries;
            }
            self.signal(i, "-CONT");
            std::thread::sleep(Duration::from_millis(3));
        }
        panic!("server {i} was never caught (inside a transaction: {inside})");
    }
}

/// How a fault went for the tables it hit.
struct Hit {
    /// From the fault until each hit table stored its next step.
    stood: Vec<Duration>,
    /// The longest any other table went without a step while the fault
    /// lasted (a hang only: the other servers' games should not notice).
    others_longest: Option<Duration>,
}

/// Waits until every table of `before` (steps stored after the fault) has
/// stored another or ended, and at least until `watch`, sampling every
/// 20 ms; fails at `until`. Returns how long after `at` each went on, and
/// the longest time a table of `others` went without a step meanwhile.
fn until_they_go_on(
    cluster: &TestCluster,
    old: &HashSet<String>,
    before: &HashMap<String, u64>,
    others: &HashSet<String>,
    (at, watch, until): (Instant, Instant, Instant),
) -> (Vec<Duration>, Duration) {
    let mut stood = HashMap::new();
    let mut last_step: HashMap<String, (u64, Instant)> = HashMap::new();
    let mut longest = Duration::ZERO;
    while stood.len() < before.len() || Instant::now() < watch {
        assert!(
            Instant::now() < until,
            "tables stood still: {:?} of {before:?}",
            before
                .keys()
                .filter(|i| !stood.contains_key(*i))
                .collect::<Vec<_>>()
        );
        let now = cluster.in_play(old);
        let seen = Instant::now();
        for (invite, &n) in before {
            if !stood.contains_key(invite) && now.get(invite).is_none_or(|&m| m > n) {
                stood.insert(invite.clone(), seen - at);
            }
        }
        for invite in others {
            let Some(&n) = now.get(invite) else { continue };
            let entry = last_step.entry(invite.clone()).or_insert((n, at));
            if n > entry.0 {
                *entry = (n, seen);
            }
            longest = longest.max(seen - entry.1);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut stood: Vec<Duration> = stood.into_values().collect();
    stood.sort();
    (stood, longest)
}

/// Injects `fault` and waits until the tables it hit go on (before
/// `until`).
fn inject(
    rt: &tokio::runtime::Runtime,
    cluster: &mut TestCluster,
    old: &HashSet<String>,
    fault: Fault,
    until: Instant,
) -> Hit {
    let lease = Duration::from_millis(super::LEASE_MS);
    match fault {
        Fault::Kill | Fault::StopIdle | Fault::StopInTransaction => {
            let victim = cluster.busiest(old);
            let owners = cluster.owners();
            let mut at = Instant::now();
            let hang = !matches!(fault, Fault::Kill);
            if hang {
                let inside = matches!(fault, Fault::StopInTransaction);
                let tries = cluster.stop_caught(victim, inside);
                at = Instant::now();
                eprintln!(
                    "chaos: server {victim} stopped, inside a transaction: {inside} ({tries} tries)"
                );
            } else {
                cluster.stop(victim, "-KILL");
            }
            // What was stored before the fault (and is so still: a hung
            // server's open transaction is not).
            let (hit, others): (HashMap<_, _>, HashMap<_, _>) = cluster
                .in_play(old)
                .into_iter()
                .partition(|(i, _)| owners.get(i) == Some(&victim));
            let others: HashSet<String> = others.into_keys().collect();
            // A hang is watched for its whole length.
            let watch = if hang { at + lease * 2 } else { at };
            let (stood, longest) =
                until_they_go_on(cluster, old, &hit, &others, (at, watch, until));
            if hang {
                // Stopped for longer than its lease, then let go: it finds
                // it lost its tables and must not write to them.
                std::thread::sleep((at + lease * 2).saturating_duration_since(Instant::now()));
                cluster.signal(victim, "-CONT");
            } else {
                let server = rt.block_on(cluster.serve(victim));
                cluster.servers[victim] = Some(server);
            }
            Hit {
                stood,
                others_longest: hang.then_some(longest),
            }
        }
        Fault::CommitAnswerLost | Fault::Partition => network_fault(cluster, old, fault, until),
        Fault::PostgresRestart => {
            let before = cluster.in_play(old);
            let at = Instant::now();
            cluster.pg.restart(Duration::from_secs(2));
            let (stood, _) =
                until_they_go_on(cluster, old, &before, &HashSet::new(), (at, at, until));
            Hit {
                stood,
                others_longest: None,
            }
        }
        Fault::RollingRestart => {
            let mut stood = Vec::new();
            for i in 0..3 {
                let owners = cluster.owners();
                let at = Instant::now();
                cluster.stop(i, "-TERM");
                let hit: HashMap<String, u64> = cluster
                    .in_play(old)
                    .into_iter()
                    .filter(|(t, _)| owners.get(t) == Some(&i))
                    .collect();
                stood.extend(
                    until_they_go_on(cluster, old, &hit, &HashSet::new(), (at, at, until)).0,
                );
                let server = rt.block_on(cluster.serve(i));
                cluster.servers[i] = Some(server);
            }
            stood.sort();
            Hit {
                stood,
                others_longest: None,
            }
        }
    }
}

/// Injects a fault of the network between server 0 and PostgreSQL (the
/// relay's) and waits until the tables it hit go on (before `until`).
fn network_fault(
    cluster: &TestCluster,
    old: &HashSet<String>,
    fault: Fault,
    until: Instant,
) -> Hit {
    let ours = |cluster: &TestCluster| -> HashMap<String, u64> {
        let owners = cluster.owners();
        cluster
            .in_play(old)
            .into_iter()
            .filter(|(t, _)| owners.get(t) == Some(&0))
            .collect()
    };
    let (hit, at, watch) = if let Fault::Partition = fault {
        // The tables' steps are counted once the network is cut: counted
        // before, the steps stored while the count was read (a psql
        // process, tens of milliseconds) would pass for steps made after
        // the cut, and every table would seem to go on at once.
        cluster.relay.hold(true);
        let at = Instant::now();
        (ours(cluster), at, at + PARTITION)
    } else {
        let cuts = cluster.relay.cuts();
        cluster.relay.arm();
        while cluster.relay.cuts() == cuts {
            assert!(
                Instant::now() < until,
                "a commit of server 0's goes through"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let at = Instant::now();
        // As stored: the group whose answer was lost is there.
        (ours(cluster), at, at)
    };
    let (stood, _) = until_they_go_on(cluster, old, &hit, &HashSet::new(), (at, watch, until));
    cluster.relay.hold(false);
    Hit {
        stood,
        others_longest: None,
    }
}

/// The load's games checked against the database: each stored record
/// replays; a finished game's to the stacks every seat saw at its end,
/// with exactly the events they saw; no seat saw an event not stored.
fn check_games(
    cluster: &TestCluster,
    fault: Fault,
    seen: &mut UnboundedReceiver<GameSeen>,
) -> usize {
    let start = Rules::preset(Preset::Pagat).starting_chips;
    let mut games = 0;
    while let Ok(game) = seen.try_recv() {
        games += 1;
        let (record, replayed) = cluster.replay(&game.invite);
        let stored = record.steps.len() as u64;
        for (last, end) in &game.seats {
            assert!(
                last.unwrap_or(0) <= stored,
                "{fault:?}, {}: a seat saw event {last:?}, {stored} are stored",
                game.invite
            );
            if let Some(stacks) = end {
                assert_eq!(
                    replayed.pending(),
                    Pending::GameOver,
                    "{fault:?}, {}",
                    game.invite
                );
                assert_eq!(*last, Some(stored), "{fault:?}, {}", game.invite);
                assert_eq!(
                    stacks.as_slice(),
                    replayed.stacks(),
                    "{fault:?}, {}",
                    game.invite
                );
                assert_eq!(
                    stacks.iter().sum::<u32>(),
                    start * stacks.len() as u32,
                    "{fault:?}, {}: T7, no chip lost",
                    game.invite
                );
            }
        }
    }
    games
}

/// Every fault in turn under load through the proxy; see the module's
/// comment. Prints a line per fault.
#[test]
fn chaos_under_load_through_the_proxy() {
    let tables = setting("TRIPOLEY_CHAOS_TABLES", 16, 1..=300);
    let seconds = setting("TRIPOLEY_CHAOS_SECONDS", 8, 8..=600);
    let rt = runtime();
    let Some(mut cluster) = rt.block_on(TestCluster::start("chaos")) else {
        return;
    };
    let faults = [
        Fault::Kill,
        Fault::CommitAnswerLost,
        Fault::Partition,
        Fault::StopIdle,
        Fault::StopInTransaction,
        Fault::PostgresRestart,
        Fault::RollingRestart,
    ];
    let mut lines = Vec::new();
    for fault in faults {
        let length = match fault {
            Fault::RollingRestart => Duration::from_secs(seconds * 2),
            Fault::Partition => Duration::from_secs(seconds) + PARTITION,
            _ => Duration::from_secs(seconds),
        };
        let old = cluster.all_tables();
        let (tx, mut seen) = unbounded_channel();
        let started = Instant::now();
        let load = rt.spawn(tripoley_loadtest::loadtest_with(LoadOptions {
            tables: tables as usize,
            think: Duration::from_millis(20),
            duration: length,
            addr: Some(cluster.proxy_addr),
            frozen_after: FROZEN,
            seen: Some(tx),
            ..LoadOptions::default()
        }));
        // The games under way before the fault.
        while cluster.in_play(&old).values().filter(|&&n| n > 8).count() < tables as usize * 3 / 4 {
            assert!(
                started.elapsed() < length / 2,
                "{fault:?}: the games get under way"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let hit = inject(&rt, &mut cluster, &old, fault, started + length);
        let report: LoadReport = rt
            .block_on(load)
            .expect("the load runs")
            .expect("the load reports");
        assert_eq!(
            report.failures, 0,
            "{fault:?}: no game failed or froze\n{report}"
        );
        assert!(report.chips_conserved, "{fault:?}\n{report}");
        let games = check_games(&cluster, fault, &mut seen);
        // The other servers' games do not notice a hung one: none of their
        // tables waits for a step as long as a hung server's lease.
        if let Some(longest) = hit.others_longest {
            assert!(
                longest < Duration::from_secs(1),
                "{fault:?}: another server's game stood still {longest:?}"
            );
        }
        let secs = |d: &Duration| format!("{:.2}", d.as_secs_f64());
        let line = format!(
            "chaos: {fault:?}: {} tables hit, next step after {} s (max); others' longest pause {}; \
             {games} games checked, {} finished, {} reconnects, failed 0, frozen 0",
            hit.stood.len(),
            hit.stood.last().map_or("-".into(), secs),
            hit.others_longest
                .as_ref()
                .map_or("-".into(), |d| format!("{} s", secs(d))),
            report.games_finished,
            report.reconnects,
        );
        eprintln!("{line}");
        lines.push((line, hit));
    }
    for (line, _) in &lines {
        eprintln!("{line}");
    }
}
