//! The public table list shared by every process: `public_tables(invite,
//! owner, listed, entry)` holds each listed table's entry as its owner last
//! published it, so a list request through a round-robin proxy gets the same
//! answer from whichever process it reaches.
//!
//! Why snapshots in the database rather than asking the other processes
//! at each request: a list request is then one query whatever the number
//! of processes, never waits for a slow or dead one, and gets one order
//! (`listed`, a sequence) that does not depend on the processes' clocks.
//! Entries change rarely (a table listed, a seat taken, a game started),
//! and each change is written once, off the table's path.
//!
//! An entry counts only while its owner holds the table's lease. A process
//! that dies keeps its lease, so its public tables stay listed while they
//! wait to move (nothing about them can change meanwhile); the process that
//! takes a table's lease takes its entry in the same statement (`claim`),
//! so a moving table is never off the list, and writes its own entry once
//! it has loaded the table. A row whose table's lease has gone (the table
//! stopped) or is another process's (a claim raced a write) is never
//! shown, then removed at a beat.

use std::collections::HashMap;

use tokio_postgres::Client;

use super::lease::failed;
use crate::ServerError;
use crate::table::public::PublicTable;

/// Entries whose owner holds their table's lease, as SQL over
/// `public_tables pt`.
macro_rules! live_entries {
    () => {
        "FROM public_tables pt JOIN leases l ON l.invite = pt.invite AND l.owner = pt.owner"
    };
}

/// Writes what changed on `me`'s list since the last write: each table's
/// new entry, or `None` for a table taken off the list. Entries keep their
/// place in the list when they change.
pub(super) async fn write(
    db: &Client,
    me: &str,
    changes: &HashMap<String, Option<PublicTable>>,
) -> Result<(), ServerError> {
    let mut listed = (Vec::new(), Vec::new());
    let mut withdrawn = Vec::new();
    for (invite, entry) in changes {
        match entry {
            Some(entry) => {
                let json = serde_json::to_string(entry)
                    .map_err(|e| ServerError::Storage(format!("a public table: {e}")))?;
                listed.0.push(invite.as_str());
                listed.1.push(json);
            }
            None => withdrawn.push(invite.as_str()),
        }
    }
    if !listed.0.is_empty() {
        db.execute(
            "INSERT INTO public_tables (invite, owner, entry) \
             SELECT invite, $1, entry FROM unnest($2::text[], $3::text[]) AS c(invite, entry) \
             ON CONFLICT (invite) DO UPDATE SET owner = EXCLUDED.owner, entry = EXCLUDED.entry",
            &[&me, &listed.0, &listed.1],
        )
        .await
        .map_err(|e| failed("listing public tables", &e))?;
    }
    if !withdrawn.is_empty() {
        db.execute(
            "DELETE FROM public_tables WHERE owner = $1 AND invite = ANY($2)",
            &[&me, &withdrawn],
        )
        .await
        .map_err(|e| failed("taking tables off the public list", &e))?;
    }
    Ok(())
}

/// One page of the list, newest first, and the number of entries in all.
pub(super) async fn page(
    db: &Client,
    offset: usize,
    size: usize,
) -> Result<(Vec<PublicTable>, usize), ServerError> {
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let size = i64::try_from(size).unwrap_or(i64::MAX);
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 2] = [&offset, &size];
    let (rows, total) = tokio::join!(
        db.query(
            concat!(
                "SELECT pt.entry ",
                live_entries!(),
                " ORDER BY pt.listed DESC OFFSET $1 LIMIT $2"
            ),
            &params,
        ),
        db.query_one(concat!("SELECT count(*) ", live_entries!()), &[]),
    );
    let what = "reading the public tables";
    let total: i64 = total
        .and_then(|r| r.try_get(0))
        .map_err(|e| failed(what, &e))?;
    let tables = rows
        .map_err(|e| failed(what, &e))?
        .iter()
        .map(|r| {
            let json: &str = r.try_get(0).map_err(|e| failed(what, &e))?;
            serde_json::from_str(json)
                .map_err(|e| ServerError::Storage(format!("a stored public table: {e}")))
        })
        .collect::<Result<_, _>>()?;
    Ok((tables, usize::try_from(total).unwrap_or(0)))
}

/// Removes the rows no process will show again: those whose table's lease
/// has gone or is another process's now.
pub(super) async fn forget_stale(db: &Client) -> Result<(), ServerError> {
    db.execute(
        "DELETE FROM public_tables pt WHERE NOT EXISTS \
         (SELECT 1 FROM leases l WHERE l.invite = pt.invite AND l.owner = pt.owner)",
        &[],
    )
    .await
    .map_err(|e| failed("removing stale public tables", &e))?;
    Ok(())
}
