//! Table leases: the `leases` table says which process runs each table and
//! under which epoch. A lease is live while its owner's registry row is
//! (`registry.rs`): owners renew their row, not each lease, so renewing
//! costs one statement however many tables a process runs, and takes no
//! lock a table's step could wait for.

use crate::clock::now_ms;
use tokio_postgres::Client;

use crate::ServerError;

/// A lease's owner is alive: its registry row has not expired.
macro_rules! owner_alive {
    ($owner:literal) => {
        concat!(
            "EXISTS (SELECT 1 FROM processes p WHERE p.id = ",
            $owner,
            " AND p.expires > ",
            now_ms!(),
            ")"
        )
    };
}

pub(super) fn failed(what: &str, e: &tokio_postgres::Error) -> ServerError {
    let detail = e
        .as_db_error()
        .map_or_else(|| e.to_string(), |d| d.message().to_owned());
    ServerError::Storage(format!("{what}: {detail}"))
}

/// Takes the lease of the stored table `invite` for process `me`, unless
/// a live process holds it; returns the new epoch. `None` if another live
/// process holds it, there is no such table or `me` is dead (it learns so
/// at its next beat, and joins again). The epoch goes up even when `me`
/// held the lease already: a table task of ours left from before (a lease
/// given up and taken again) can no longer write.
///
/// The table's public entry, if it has one, passes to `me` in the same
/// statement: it stays on the list while the table moves (`listing.rs`),
/// until `me` writes its own or takes it off.
pub(super) async fn claim(db: &Client, invite: &str, me: &str) -> Result<Option<i64>, ServerError> {
    const CLAIM: &str = concat!(
        "WITH claimed AS (INSERT INTO leases (invite, owner, epoch) \
         SELECT $1, $2, 1 WHERE EXISTS (SELECT 1 FROM tables WHERE invite = $1) AND ",
        owner_alive!("$2"),
        " ON CONFLICT (invite) DO UPDATE SET owner = EXCLUDED.owner, epoch = leases.epoch + 1 \
         WHERE leases.owner = EXCLUDED.owner OR NOT ",
        owner_alive!("leases.owner"),
        " RETURNING epoch), \
         listed AS (UPDATE public_tables SET owner = $2 \
         WHERE invite = $1 AND EXISTS (SELECT 1 FROM claimed)) \
         SELECT epoch FROM claimed"
    );
    first_cell(db, CLAIM, invite, me, "taking a table's lease").await
}

/// Whether a table `invite` is stored (and not set aside).
pub(super) async fn stored(db: &Client, invite: &str) -> Result<bool, ServerError> {
    let row = db
        .query_opt(
            "SELECT 1 FROM tables WHERE invite = $1 AND status <> 'refused'",
            &[&invite],
        )
        .await
        .map_err(|e| failed("finding a table", &e))?;
    Ok(row.is_some())
}

/// The address of the live process other than `me` that runs `invite`, if
/// any.
pub(super) async fn owner(
    db: &Client,
    invite: &str,
    me: &str,
) -> Result<Option<String>, ServerError> {
    const OWNER: &str = concat!(
        "SELECT p.addr FROM leases l JOIN processes p ON p.id = l.owner \
         WHERE l.invite = $1 AND p.id <> $2 AND p.expires > ",
        now_ms!()
    );
    first_cell(db, OWNER, invite, me, "finding a table's server").await
}

/// The first column of the one row `sql` gives for a table and a process,
/// if it gives one.
async fn first_cell<T: for<'a> tokio_postgres::types::FromSql<'a>>(
    db: &Client,
    sql: &str,
    invite: &str,
    me: &str,
    what: &str,
) -> Result<Option<T>, ServerError> {
    let row = db
        .query_opt(sql, &[&invite, &me])
        .await
        .map_err(|e| failed(what, &e))?;
    row.map(|r| r.try_get(0))
        .transpose()
        .map_err(|e| failed(what, &e))
}

/// Gives up the leases `me` holds with these epochs (tables that stopped):
/// another process may take them at once. A lease taken again since (a
/// higher epoch) is kept.
pub(super) async fn release(
    db: &Client,
    me: &str,
    leases: &[(String, i64)],
) -> Result<(), ServerError> {
    let (invites, epochs): (Vec<&str>, Vec<i64>) =
        leases.iter().map(|(i, e)| (i.as_str(), *e)).unzip();
    db.execute(
        "DELETE FROM leases l USING unnest($2::text[], $3::bigint[]) AS r(invite, epoch) \
         WHERE l.owner = $1 AND l.invite = r.invite AND l.epoch = r.epoch",
        &[&me, &invites, &epochs],
    )
    .await
    .map_err(|e| failed("giving up leases", &e))?;
    Ok(())
}

/// Tables that move (`moves!`: games in progress, public lobbies) whose
/// owner died or left and that fall to `me`: the live processes, in the
/// order of their ids, split them by a hash of the invite, so that at one
/// beat each takes its own share and none waits for another's. A process
/// taken for dead takes none.
///
/// Only the leases of dead processes are read (the few rows of
/// `processes` not renewed, then their leases by the `leases_owner`
/// index), not every game in progress: a dead process keeps its row while
/// it holds leases of such tables (`registry.rs`), so each one it ran is
/// found here.
pub(super) async fn orphans(db: &Client, me: &str) -> Result<Vec<String>, ServerError> {
    const ORPHANS: &str = concat!(
        "WITH live AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS rank, \
         count(*) OVER () AS n FROM processes WHERE expires > ",
        now_ms!(),
        ") SELECT l.invite FROM processes dead JOIN leases l ON l.owner = dead.id \
         JOIN tables t ON t.invite = l.invite, live me \
         WHERE dead.expires <= ",
        now_ms!(),
        " AND me.id = $1 AND ",
        moves!(),
        " AND mod(hashtext(l.invite)::bigint + 2147483648, me.n) = me.rank"
    );
    let rows = db
        .query(ORPHANS, &[&me])
        .await
        .map_err(|e| failed("finding tables without a server", &e))?;
    rows.iter()
        .map(|r| r.try_get(0).map_err(|e| failed("reading a table", &e)))
        .collect()
}

/// Removes the lobby tables created before `before` (seconds since 1970,
/// as `tables.created`) that no live process runs, with their seats,
/// leases and public entries; returns how many went. A lobby a live
/// process runs stays: its players may be in it. One statement, so a
/// process taking such a table at the same moment finds it whole or gone.
pub(super) async fn forget_old_lobbies(db: &Client, before: i64) -> Result<u64, ServerError> {
    const FORGET: &str = concat!(
        "WITH old AS (SELECT invite FROM tables t WHERE status = 'lobby' AND created < $1 \
         AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.invite = t.invite AND ",
        owner_alive!("l.owner"),
        ")), seats_gone AS (DELETE FROM seats WHERE invite IN (SELECT invite FROM old)), \
         leases_gone AS (DELETE FROM leases WHERE invite IN (SELECT invite FROM old)), \
         listed_gone AS (DELETE FROM public_tables WHERE invite IN (SELECT invite FROM old)) \
         DELETE FROM tables WHERE invite IN (SELECT invite FROM old)"
    );
    db.execute(FORGET, &[&before])
        .await
        .map_err(|e| failed("removing old lobby tables", &e))
}
