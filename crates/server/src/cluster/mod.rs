//! Several `tripoley serve` processes on one PostgreSQL database, behind an
//! ordinary reverse proxy, surviving the loss of any of them.
//!
//! - Each table is run by one process at a time: the one holding its lease
//!   (`lease.rs`). A lease lives as long as its owner's row in the process
//!   registry (`registry.rs`), which the owner renews at every beat (a
//!   quarter of the lease time) on a connection and a task of its own
//!   ([`renew`]), from the moment it joins: no other work (start-up,
//!   taking games over, a lock a frozen process holds) can hold a renewal
//!   up, and every database call has a time limit, on the database's side
//!   ([`Bounds`]) and on this one ([`Cluster::bounded`]), so that a
//!   network that swallows packets cannot hold a request for longer.
//! - Any process answers any request: one for a table another live process
//!   runs is forwarded there, websockets included (`forward.rs`); a new
//!   table is created on the least-loaded process. A forwarded request
//!   carries the cluster's secret, made once per database (`registry.rs`):
//!   only with it is its client's address, as its forwarder saw it, believed.
//! - A process that dies stops renewing: once its row expires, its leases
//!   are free, and at their next beat the others take its games in
//!   progress and public lobbies over, each its share, through the same
//!   path that resumes games at start-up (`App::table`: claim the lease,
//!   load the steps, replay).
//!   Clients reconnect (through the proxy) with their last event number.
//!   A process that stops cleanly gives its leases up at once.
//! - Fencing: a table's writes carry its lease's owner and epoch, checked
//!   in the same transaction (`Store::fenced`); a process that lost a table
//!   cannot store a step the new owner would not replay.
//! - The public table list is shared (`listing.rs`): each process writes
//!   its tables' entries to the database, and any process answers a list
//!   request with every live process's tables.
//! - The caps on one client address's creates (open lobbies, tables per
//!   hour) are counted in the database, for every process at once
//!   (`store::Caps`); the beat removes the counts that no longer count
//!   (`creations.rs`).
//! - A write whose answer is lost (the connection cut after the database
//!   took it) may be made again: each of this module's writes is one
//!   statement whose repeat does no harm. A claim made again by its owner
//!   only raises the epoch (a table task of its from before can no longer
//!   write), a renewal, a release or a purge is the same again, list
//!   entries are upserts, the secret is inserted only where there is none,
//!   a placement made twice counts a table twice until the next renewal
//!   rewrites the load, and a registration whose answer was lost is made
//!   again at the next beat under a new id (the lost one expires unused;
//!   at start-up the server stops, saying why). The store's writes are
//!   resolved by their group's mark instead (`store/groups.rs`).
//!
//! With SQLite there is one process and no cluster.

/// The tables whose owner's death moves them to another process, as SQL
/// over `tables t`: games in progress, and public tables waiting for
/// players (so they stay on the list). A private lobby is loaded again
/// when its link is opened.
macro_rules! moves {
    () => {
        "(t.status = 'playing' OR (t.status = 'lobby' AND t.settings::jsonb @> '{\"public\": true}'))"
    };
}

mod creations;
mod forward;
mod lease;
mod listing;
mod registry;

pub(crate) use forward::{moving, route};

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::http::HeaderValue;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_postgres::{Client, NoTls};

use crate::auth::{hash_token, same_hash};
use crate::store::{Bounds, Fence, TokenHash};
use crate::table::public::PublicTable;
use crate::{App, ServerError};

/// This process's part in a cluster.
pub(crate) struct Cluster {
    url: String,
    db: Mutex<Arc<Client>>,
    /// A call on `db` ran out of time: the connection may be cut without
    /// either end knowing (a partition), so the next beat makes another.
    stale: AtomicBool,
    /// Whether its registration was renewed within the lease: out of
    /// touch, it runs no table and takes none (see [`renew`]).
    in_touch: AtomicBool,
    /// Its id in the registry; a new one if it was taken for dead.
    me: Mutex<Arc<str>>,
    /// Where the others reach it.
    addr: String,
    lease: Duration,
    /// The tables it runs, as its renewals tell the registry.
    load: AtomicI64,
    /// The leases it holds, by invite. Dropping one stops its table.
    held: Mutex<HashMap<String, Held>>,
    /// The addresses of the live processes, as of the last beat (none
    /// before the first): a websocket relayed to a process that a later
    /// beat finds gone is cut (`forward.rs`).
    live: watch::Sender<Arc<HashSet<String>>>,
    /// The cluster's secret, the mark of the requests this process
    /// forwards (marked sensitive: never shown in a header's debug form).
    secret: HeaderValue,
    /// Its digest, which a received request's mark is compared with.
    secret_hash: TokenHash,
    shutdown: watch::Receiver<bool>,
}

/// A lease held: its epoch, the switch that stops its table, and the one
/// that closes its connections. Two switches, because only the table's
/// actor holds the first, so that its sender sees when the table ended
/// (then the lease is given up, [`Cluster::tidy`]), while the second's
/// receivers live as long as the table's handle and connections do.
struct Held {
    epoch: i64,
    stop: watch::Sender<bool>,
    /// Dropped with the lease: never sent on.
    _cut: watch::Sender<bool>,
}

/// A lease just taken: the fence for the table's writes, the signal that
/// stops the table (the server stopping, or the lease lost) and the one
/// that closes its connections at the same moment, whatever the table is
/// waiting for.
pub(crate) struct Lease {
    pub fence: Fence,
    pub stop: watch::Receiver<bool>,
    pub cut: watch::Receiver<bool>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A fresh process id.
fn new_id() -> Result<Arc<str>, ServerError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| ServerError::Io(e.to_string()))?;
    Ok(format!("{:016x}", u64::from_le_bytes(bytes)).into())
}

/// The lease time in milliseconds, as the database stores it.
fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// The bounds of the cluster's sessions: a statement within half a lease,
/// a lock wait within a quarter (a claim waiting for a frozen process's
/// lock fails, and is tried again at a later beat), a connection whose
/// network went silent given up within the lease (a second at least: what
/// TCP's keepalive counts in).
fn bounds(lease: Duration) -> Bounds {
    Bounds {
        statement: lease / 2,
        lock: lease / 4,
        network: lease.max(Duration::from_secs(1)),
        ..Bounds::STORE
    }
}

async fn connect(url: &str, lease: Duration) -> Result<Client, ServerError> {
    let mut config: tokio_postgres::Config = url
        .parse()
        .map_err(|e| lease::failed("this is not a PostgreSQL URL", &e))?;
    bounds(lease).apply(&mut config);
    let (client, connection) = config
        .connect(NoTls)
        .await
        .map_err(|e| lease::failed("cannot connect to PostgreSQL", &e))?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            eprintln!("tripoley serve: the cluster's database connection failed: {e}");
        }
    });
    Ok(client)
}

impl Cluster {
    /// Joins the cluster on the database at `url`: registers this process,
    /// reachable at `addr`, alive for `lease` unless renewed, and starts
    /// renewing it (until the server stops).
    pub(crate) async fn join(
        url: &str,
        addr: SocketAddr,
        lease: Duration,
        shutdown: watch::Receiver<bool>,
    ) -> Result<Arc<Cluster>, ServerError> {
        let db = connect(url, lease).await?;
        let secret = registry::secret(&db).await?;
        let secret_hash = hash_token(&secret);
        let mut secret = HeaderValue::from_str(&secret)
            .map_err(|_| ServerError::Storage("the cluster's secret is not hex digits".into()))?;
        secret.set_sensitive(true);
        let me = new_id()?;
        let addr = addr.to_string();
        registry::register(&db, &me, &addr, millis(lease)).await?;
        let renewals = connect(url, lease).await?;
        let cluster = Arc::new(Cluster {
            url: url.to_owned(),
            db: Mutex::new(Arc::new(db)),
            stale: AtomicBool::new(false),
            in_touch: AtomicBool::new(true),
            me: Mutex::new(me),
            addr,
            lease,
            load: AtomicI64::new(0),
            held: Mutex::default(),
            live: watch::Sender::new(Arc::default()),
            secret,
            secret_hash,
            shutdown,
        });
        tokio::spawn(renew(Arc::clone(&cluster), renewals));
        Ok(cluster)
    }

    fn db(&self) -> Arc<Client> {
        Arc::clone(&lock(&self.db))
    }

    fn me(&self) -> Arc<str> {
        Arc::clone(&lock(&self.me))
    }

    /// `call` on `db`, given up after half a lease (the database's own
    /// limit on a statement, [`bounds`], kept on this side too): a request
    /// waiting on a database cut off from this server is answered "try
    /// again" in time to reach another server, and the connection that
    /// did not answer is replaced at the next beat.
    async fn bounded<T>(
        &self,
        call: impl Future<Output = Result<T, ServerError>>,
    ) -> Result<T, ServerError> {
        self.within(self.lease / 2, call).await
    }

    /// `call` on `db`, given up after `limit` (see [`Cluster::bounded`]).
    async fn within<T>(
        &self,
        limit: Duration,
        call: impl Future<Output = Result<T, ServerError>>,
    ) -> Result<T, ServerError> {
        let answer = tokio::time::timeout(limit, call).await;
        answer.unwrap_or_else(|_| {
            self.stale.store(true, Ordering::Relaxed);
            Err(not_in_time())
        })
    }

    /// Takes the lease of the stored table `invite`; `None` if there is no
    /// such table. A table another live process runs (the request came
    /// here while it moves) is refused as `busy`: try again.
    pub(crate) async fn lease(&self, invite: &str) -> Result<Option<Lease>, ServerError> {
        let me = self.me();
        let db = self.db();
        let Some(epoch) = self.bounded(lease::claim(&db, invite, &me)).await? else {
            return if self.bounded(lease::stored(&db, invite)).await? {
                Err(ServerError::Refused(forward::moving()))
            } else {
                Ok(None)
            };
        };
        let (stop, stop_rx) = watch::channel(*self.shutdown.borrow());
        let (cut, cut_rx) = watch::channel(*self.shutdown.borrow());
        // A table of ours still running under an older epoch (it cannot
        // write any more) stops as its switches are dropped here.
        let held = Held {
            epoch,
            stop,
            _cut: cut,
        };
        lock(&self.held).insert(invite.to_owned(), held);
        Ok(Some(Lease {
            fence: Fence {
                invite: invite.to_owned(),
                owner: me,
                epoch,
            },
            stop: stop_rx,
            cut: cut_rx,
        }))
    }

    /// Where the live process running `invite` listens, if it is another.
    async fn owner(&self, invite: &str) -> Result<Option<String>, ServerError> {
        self.bounded(lease::owner(&self.db(), invite, &self.me()))
            .await
    }

    /// Where a new table goes: the least-loaded live process, or `None`
    /// for this one.
    async fn place(&self) -> Result<Option<String>, ServerError> {
        let me = self.me();
        Ok(self
            .bounded(registry::place(&self.db()))
            .await?
            .and_then(|(id, addr)| (*id != *me).then_some(addr)))
    }

    /// Renews this process on `db` with its load; notices whether it was
    /// taken for dead (then every table it runs stops, and it joins again
    /// under a new id).
    async fn renew_once(&self, db: &Client) -> Result<(), ServerError> {
        let me = self.me();
        let load = self.load.load(Ordering::Relaxed);
        if !registry::beat(db, &me, load, millis(self.lease)).await? {
            eprintln!(
                "tripoley serve: this server lost touch with the database for longer than its \
                 lease; its tables go to the other servers"
            );
            lock(&self.held).clear();
            let id = new_id()?;
            registry::register(db, &id, &self.addr, millis(self.lease)).await?;
            *lock(&self.me) = id;
        }
        Ok(())
    }

    /// Whether this process's registration was renewed within the lease.
    /// Out of touch, it answers a table's requests "try again" at once
    /// (`forward.rs`): it could neither run the table nor find who does,
    /// and its clients are better served by another process at once.
    pub(super) fn in_touch(&self) -> bool {
        self.in_touch.load(Ordering::Relaxed)
    }

    /// Whether `mark` is the cluster's secret. Digests are compared, without
    /// an early exit: how long the answer takes tells nothing of the secret.
    fn is_secret(&self, mark: &HeaderValue) -> bool {
        mark.to_str()
            .is_ok_and(|m| same_hash(&hash_token(m), &self.secret_hash))
    }

    /// Resolves once a beat finds the process at `addr` no longer among
    /// the live ones (its registration expired: it died or hangs), or this
    /// one stops. The addresses known now are not asked: they may predate
    /// the process (it joined since the last beat, and has just answered).
    pub(super) async fn gone(&self, addr: &str) {
        let mut live = self.live.subscribe();
        let mut stop = self.shutdown.clone();
        loop {
            tokio::select! {
                changed = live.changed() => if changed.is_err() { return },
                _ = stop.changed() => return,
            }
            if !live.borrow_and_update().contains(addr) && !live.borrow().is_empty() {
                return;
            }
        }
    }

    /// The housekeeping of a beat: reads which processes are live, gives
    /// up the leases of tables that stopped, removes long-dead processes
    /// and stale list entries.
    async fn tidy(&self) -> Result<(), ServerError> {
        if self.db().is_closed() || self.stale.load(Ordering::Relaxed) {
            let fresh = connect(&self.url, self.lease).await?;
            *lock(&self.db) = Arc::new(fresh);
            self.stale.store(false, Ordering::Relaxed);
        }
        let db = self.db();
        self.live.send_replace(Arc::new(registry::live(&db).await?));
        let me = self.me();
        let ended: Vec<(String, i64)> = {
            let mut held = lock(&self.held);
            let ended: Vec<_> = held
                .iter()
                .filter(|(_, h)| h.stop.is_closed())
                .map(|(invite, h)| (invite.clone(), h.epoch))
                .collect();
            for (invite, _) in &ended {
                held.remove(invite);
            }
            ended
        };
        if !ended.is_empty() {
            lease::release(&db, &me, &ended).await?;
        }
        registry::forget_dead(&db).await?;
        listing::forget_stale(&db).await
    }

    /// Removes the lobby tables that never started, created more than
    /// `idle` ago, that no live process runs (as a single server does at
    /// start-up with all of them); returns how many went.
    pub(crate) async fn forget_old_lobbies(&self, idle: Duration) -> Result<u64, ServerError> {
        let idle = i64::try_from(idle.as_secs()).unwrap_or(i64::MAX);
        let before = crate::store::unix_now().saturating_sub(idle);
        self.bounded(lease::forget_old_lobbies(&self.db(), before))
            .await
    }

    /// A page of every live process's public tables, and their number.
    pub(crate) async fn public_page(
        &self,
        offset: usize,
        size: usize,
    ) -> Result<(Vec<PublicTable>, usize), ServerError> {
        self.bounded(listing::page(&self.db(), offset, size)).await
    }

    /// Tables that move whose owner died, this process's share.
    async fn orphans(&self) -> Result<Vec<String>, ServerError> {
        lease::orphans(&self.db(), &self.me()).await
    }

    /// Leaves the cluster: every lease given up, so the other processes
    /// take the tables over at once (the tables have stopped).
    pub(crate) async fn leave(&self) {
        lock(&self.held).clear();
        if let Err(e) = registry::leave(&self.db(), &self.me()).await {
            eprintln!("tripoley serve: {e}; its tables move once its lease expires");
        }
    }
}

/// The renewals, on connection `db`, until the server stops: every quarter
/// of the lease time. Nothing else runs on this task or this connection,
/// so no other work (start-up, taking games over, a lock a frozen process
/// holds) can hold a renewal up.
///
/// Out of touch for longer than the lease (the renewal failed, or the
/// database did not answer: a renewal waits no longer than what is left of
/// the lease), the others may have taken these tables over, and the
/// database would refuse their writes anyway: every table here stops, so
/// its clients reconnect to where it runs now.
async fn renew(cluster: Arc<Cluster>, db: Client) {
    let mut stop = cluster.shutdown.clone();
    let every = cluster.lease / 4;
    let mut db = Some(db);
    let mut failing = false;
    let mut renewed = Instant::now();
    loop {
        tokio::select! {
            _ = stop.changed() => return,
            () = tokio::time::sleep(every) => {}
        }
        // At least a beat's time, even once the lease is over: a renewal
        // that gets through then tells this process it was taken for dead.
        let wait = cluster.lease.saturating_sub(renewed.elapsed()).max(every);
        let renewal = tokio::time::timeout(wait, async {
            let conn = match db.take() {
                Some(conn) if !conn.is_closed() => conn,
                _ => connect(&cluster.url, cluster.lease).await?,
            };
            let renewed = cluster.renew_once(&conn).await;
            db = Some(conn);
            renewed
        })
        .await
        .unwrap_or_else(|_| Err(not_in_time()));
        match renewal {
            Ok(()) => {
                renewed = Instant::now();
                cluster.in_touch.store(true, Ordering::Relaxed);
                failing = false;
            }
            Err(e) => {
                if renewed.elapsed() > cluster.lease {
                    cluster.in_touch.store(false, Ordering::Relaxed);
                    lock(&cluster.held).clear();
                }
                // Said once until it works again, not at every beat.
                if !failing {
                    eprintln!("tripoley serve: this server's registration was not renewed: {e}");
                    failing = true;
                }
            }
        }
    }
}

fn not_in_time() -> ServerError {
    ServerError::Storage("the database did not answer in time".into())
}

/// The beat's other work, until the server stops: every quarter of the
/// lease time this process tells the renewals its load, tidies up, and
/// takes over its share of tables nobody runs. When the server stops,
/// every table's switch is dropped.
pub(crate) async fn keep(app: Arc<App>, cluster: Arc<Cluster>) {
    let mut stop = app.shutdown.clone();
    let every = cluster.lease / 4;
    let mut failing = false;
    loop {
        tokio::select! {
            _ = stop.changed() => {
                lock(&cluster.held).clear();
                return;
            }
            () = tokio::time::sleep(every) => {}
        }
        let load = app.live_tables().await;
        cluster
            .load
            .store(i64::try_from(load).unwrap_or(i64::MAX), Ordering::Relaxed);
        let tidied = cluster.within(every, cluster.tidy()).await;
        // Its own time limit: a slow purge holds the takeovers up no more.
        let window = millis(app.config.table_window);
        let forgot = cluster
            .within(every, creations::forget_old(&cluster.db(), window))
            .await;
        let tidied = tidied.and(forgot.map(drop));
        let beat = match tidied {
            Ok(()) => take_over(&app, &cluster, every).await,
            Err(e) => Err(e),
        };
        match beat {
            Ok(()) => failing = false,
            // Said once until it works again, not at every beat.
            Err(e) if !failing => {
                eprintln!("tripoley serve: the cluster's beat failed: {e}");
                failing = true;
            }
            Err(_) => {}
        }
    }
}

/// Takes over this process's share of the tables whose owner died (games
/// in progress, public lobbies), for about `budget` (the rest wait for the
/// next beat: renewals stay on time). A game whose record cannot be
/// rebuilt is set aside, said once: no process tries it again.
async fn take_over(app: &App, cluster: &Cluster, budget: Duration) -> Result<(), ServerError> {
    let started = Instant::now();
    let orphans = cluster.within(budget, cluster.orphans()).await?;
    for invite in orphans {
        if started.elapsed() > budget {
            break;
        }
        // Another process may take it first: then this is no table of
        // ours, and nothing happens.
        match app.table(&invite).await {
            Ok(_) => {}
            Err(ServerError::Unreadable(why)) => {
                eprintln!(
                    "tripoley serve: table {invite} cannot be taken over and is set aside: {why}"
                );
                app.store.refuse(invite).await?;
            }
            Err(e) => eprintln!("tripoley serve: table {invite} could not be taken over: {e}"),
        }
    }
    Ok(())
}

/// Sends this process's changes to the public list to the shared one, in
/// order, until the server stops. Changes that could not be written are
/// tried again a beat later, with those made meanwhile: the shared list
/// catches up once the database answers again.
pub(crate) async fn share_list(
    cluster: Arc<Cluster>,
    mut changes: UnboundedReceiver<(String, Option<PublicTable>)>,
) {
    let mut stop = cluster.shutdown.clone();
    let mut pending = HashMap::new();
    let mut failing = false;
    loop {
        if pending.is_empty() {
            tokio::select! {
                _ = stop.changed() => return,
                change = changes.recv() => match change {
                    Some((invite, entry)) => { pending.insert(invite, entry); }
                    None => return,
                },
            }
        }
        while let Ok((invite, entry)) = changes.try_recv() {
            pending.insert(invite, entry);
        }
        let written = cluster
            .bounded(listing::write(&cluster.db(), &cluster.me(), &pending))
            .await;
        match written {
            Ok(()) => {
                pending.clear();
                failing = false;
            }
            Err(e) => {
                if !failing {
                    eprintln!("tripoley serve: the public list could not be shared: {e}");
                    failing = true;
                }
                tokio::select! {
                    _ = stop.changed() => return,
                    () = tokio::time::sleep(cluster.lease / 4) => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
