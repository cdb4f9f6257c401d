//! The process registry: each `tripoley serve` on the database has a row
//! (`processes(id, addr, load, expires)`) that it renews at every beat.
//! Processes find each other there: a table's owner by its lease, the
//! least-loaded process for a new table. A row not renewed within the lease
//! time marks its process dead, and its leases free. A dead process's row
//! stays while it holds leases of tables that move (games in progress,
//! public lobbies): the others find those by it (`lease::orphans`).
//!
//! The database also holds the cluster's secret (`cluster_secret`, one
//! row), which the processes' forwarded requests carry (`forward.rs`).

use crate::clock::now_ms;
use std::collections::HashSet;

use tokio_postgres::Client;

use super::lease::failed;
use crate::ServerError;

/// The length of the cluster's secret: 256 random bits as hex digits.
const SECRET_LEN: usize = 64;

/// The cluster's secret: made by the first process that finds none (two
/// starting at once both insert one; the database keeps the first, and
/// both read that one back).
pub(super) async fn secret(db: &Client) -> Result<String, ServerError> {
    let fresh = format!(
        "{}{}",
        crate::secret::new_token(),
        crate::secret::new_token()
    );
    db.execute(
        "INSERT INTO cluster_secret (secret) VALUES ($1) ON CONFLICT DO NOTHING",
        &[&fresh],
    )
    .await
    .map_err(|e| failed("making the cluster's secret", &e))?;
    let secret: String = db
        .query_one("SELECT secret FROM cluster_secret", &[])
        .await
        .and_then(|row| row.try_get(0))
        .map_err(|e| failed("reading the cluster's secret", &e))?;
    // Hand-edited into something weaker, or what no header can carry.
    if secret.len() != SECRET_LEN || !secret.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ServerError::Storage(format!(
            "the cluster's secret in the database (table cluster_secret) is not \
             {SECRET_LEN} hex digits: delete its row, and restart the servers"
        )));
    }
    Ok(secret)
}

/// Rows of processes dead this long (milliseconds) are removed.
const FORGET_DEAD_MS: i64 = 60_000;

/// Adds process `me` at `addr`, alive for `lease_ms`. A process registered
/// at the same address is dead (this one listens there now: it was
/// killed and this is its restart), so it is marked so and its tables are
/// free at once, without waiting for its lease.
pub(super) async fn register(
    db: &Client,
    me: &str,
    addr: &str,
    lease_ms: i64,
) -> Result<(), ServerError> {
    db.execute("UPDATE processes SET expires = 0 WHERE addr = $1", &[&addr])
        .await
        .map_err(|e| failed("registering this server", &e))?;
    db.execute(
        concat!(
            "INSERT INTO processes (id, addr, load, expires) VALUES ($1, $2, 0, ",
            now_ms!(),
            " + $3)"
        ),
        &[&me, &addr, &lease_ms],
    )
    .await
    .map_err(|e| failed("registering this server", &e))?;
    Ok(())
}

/// Renews `me` for `lease_ms` with its current load (tables it runs). False
/// if `me` had already expired: other processes may have taken its tables.
/// One statement on one row that no other work locks for longer than a
/// statement.
pub(super) async fn beat(
    db: &Client,
    me: &str,
    load: i64,
    lease_ms: i64,
) -> Result<bool, ServerError> {
    let renewed = db
        .execute(
            concat!(
                "UPDATE processes SET load = $2, expires = ",
                now_ms!(),
                " + $3 WHERE id = $1 AND expires > ",
                now_ms!()
            ),
            &[&me, &load, &lease_ms],
        )
        .await
        .map_err(|e| failed("renewing this server's registration", &e))?;
    Ok(renewed == 1)
}

/// Removes long-dead processes once no table that moves is theirs (their
/// leases of other tables go with them).
pub(super) async fn forget_dead(db: &Client) -> Result<(), ServerError> {
    db.execute(
        concat!(
            "WITH gone AS (SELECT id FROM processes p WHERE expires < ",
            now_ms!(),
            " - $1 AND NOT EXISTS (SELECT 1 FROM leases l JOIN tables t ON t.invite = l.invite \
             WHERE l.owner = p.id AND ",
            moves!(),
            ")), \
             freed AS (DELETE FROM leases WHERE owner IN (SELECT id FROM gone)) \
             DELETE FROM processes WHERE id IN (SELECT id FROM gone)"
        ),
        &[&FORGET_DEAD_MS],
    )
    .await
    .map_err(|e| failed("removing dead servers", &e))?;
    Ok(())
}

/// The addresses of the live processes.
pub(super) async fn live(db: &Client) -> Result<HashSet<String>, ServerError> {
    let rows = db
        .query(
            concat!("SELECT addr FROM processes WHERE expires > ", now_ms!()),
            &[],
        )
        .await
        .map_err(|e| failed("reading the live servers", &e))?;
    rows.iter()
        .map(|r| r.try_get(0).map_err(|e| failed("reading a server", &e)))
        .collect()
}

/// The least-loaded live process, for a new table: its id and address. Its
/// load goes up by one at once, so that tables created between two beats
/// spread out.
pub(super) async fn place(db: &Client) -> Result<Option<(String, String)>, ServerError> {
    let row = db
        .query_opt(
            concat!(
                "UPDATE processes SET load = load + 1 WHERE id = \
                 (SELECT id FROM processes WHERE expires > ",
                now_ms!(),
                " ORDER BY load, id LIMIT 1) RETURNING id, addr"
            ),
            &[],
        )
        .await
        .map_err(|e| failed("choosing a server for a table", &e))?;
    row.map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .transpose()
        .map_err(|e: tokio_postgres::Error| failed("reading a server", &e))
}

/// Marks `me` dead: a server leaving hands its tables over at once (the
/// others take its games in progress at their next beat).
pub(super) async fn leave(db: &Client, me: &str) -> Result<(), ServerError> {
    db.execute("UPDATE processes SET expires = 0 WHERE id = $1", &[&me])
        .await
        .map_err(|e| failed("leaving the registry", &e))?;
    Ok(())
}
