//! What a back end is ([`Backend`]): statements and queries with
//! parameters, and the server's every statement written once above it, in
//! the SQL both back ends understand; the values and rows they pass.

use std::fmt;

use crate::ServerError;

use super::{Caps, Fence, Over};

/// Why the database refused a request: its own words.
#[derive(Debug)]
pub(crate) struct DbError(pub String);

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<DbError> for ServerError {
    fn from(e: DbError) -> ServerError {
        ServerError::Storage(e.0)
    }
}

/// A table as a back end stores it, before it is decoded.
pub(crate) struct Row {
    pub settings: String,
    pub host_hash: Vec<u8>,
    pub status: String,
    pub names: Option<String>,
    /// Seat, name, token hash, by seat.
    pub seats: Vec<(u8, String, Vec<u8>)>,
    /// Each step as JSON, in order.
    pub steps: Vec<String>,
}

/// A parameter of a statement.
#[derive(Clone, Copy)]
pub(crate) enum Value<'a> {
    Int(i64),
    Text(&'a str),
    Blob(&'a [u8]),
}

/// A value read from a row.
#[derive(Debug, PartialEq)]
pub(crate) enum Cell {
    Null,
    Int(i64),
    Text(String),
    Blob(Vec<u8>),
}

impl Cell {
    fn unexpected(&self, want: &str) -> DbError {
        DbError(format!("the database holds {self:?} where {want} belongs"))
    }

    fn int(self) -> Result<i64, DbError> {
        match self {
            Cell::Int(i) => Ok(i),
            other => Err(other.unexpected("a number")),
        }
    }

    fn text(self) -> Result<String, DbError> {
        match self {
            Cell::Text(s) => Ok(s),
            other => Err(other.unexpected("text")),
        }
    }

    fn maybe_text(self) -> Result<Option<String>, DbError> {
        match self {
            Cell::Null => Ok(None),
            other => other.text().map(Some),
        }
    }

    fn blob(self) -> Result<Vec<u8>, DbError> {
        match self {
            Cell::Blob(b) => Ok(b),
            other => Err(other.unexpected("bytes")),
        }
    }
}

/// A row's `N` cells, in order.
fn cells<const N: usize>(row: Vec<Cell>) -> Result<[Cell; N], DbError> {
    <[Cell; N]>::try_from(row)
        .map_err(|row| DbError(format!("the database gave {} columns, not {N}", row.len())))
}

/// A database the server can keep its tables in: statements and queries
/// with the parameters `$1`, `$2`, ... Its methods run on the database
/// thread, inside the group's transaction. Every statement the server runs
/// is written once, below, in the SQL both back ends understand; only the
/// schema (each back end's migrations) differs.
pub(crate) trait Backend: Send {
    /// Runs statements that take no parameters.
    fn batch(&mut self, sql: &str) -> Result<(), DbError>;
    /// Runs a statement; returns the rows it changed.
    fn execute(&mut self, sql: &'static str, params: &[Value<'_>]) -> Result<u64, DbError>;
    /// Runs a query; returns its rows.
    fn query(&mut self, sql: &'static str, params: &[Value<'_>])
    -> Result<Vec<Vec<Cell>>, DbError>;

    /// Runs a statement that must change (a query: find) exactly `rows`
    /// rows; the request is refused with `refused` otherwise. While the
    /// group [pipelines](Backend::pipeline), a back end may send it and
    /// read its answer later, at the group's next call: then its failure
    /// is that call's.
    fn expect(
        &mut self,
        sql: &'static str,
        params: &[Value<'_>],
        rows: u64,
        refused: &'static str,
    ) -> Result<(), DbError> {
        expected(self.execute(sql, params)?, rows, refused)
    }
    /// Lets [`Backend::expect`] send statements before the answers of
    /// those sent earlier (`true`), or stops (`false`); either way first
    /// waits for every answer still due: the first failure among them. A
    /// back end whose calls cost no round trip (a file) runs each at once.
    fn pipeline(&mut self, _on: bool) -> Result<(), DbError> {
        Ok(())
    }

    /// Opens the group's transaction.
    fn begin(&mut self) -> Result<(), DbError> {
        self.batch("BEGIN")
    }
    /// Whether the last failure was the connection's, not a refusal: the
    /// database restarting or out of reach, so the group is tried again.
    fn lost(&self) -> bool {
        false
    }
    /// No call waits for the database past `deadline` (the end of a
    /// ride-out), if set, so that a group's retries end with it; a back
    /// end whose calls cannot hang (a file on this machine) ignores it.
    fn until(&mut self, _deadline: Option<std::time::Instant>) {}
    /// Commits it. An error means nothing of the group was stored, unless
    /// the connection was lost ([`Backend::lost`]) while it committed: then
    /// the outcome is unknown until [`Backend::committed`] says.
    fn commit(&mut self) -> Result<(), DbError> {
        self.batch("COMMIT")
    }
    /// Writes the group's `mark` in its transaction, just before the
    /// commit, so that a commit whose answer was lost can be told from one
    /// that failed. A database that cannot lose an answer (a file on this
    /// machine) writes none.
    fn mark(&mut self, _mark: &str) -> Result<(), DbError> {
        Ok(())
    }
    /// Whether the group marked `mark` was committed: asked, on a new
    /// connection, after its commit's answer was lost.
    fn committed(&mut self, _mark: &str) -> Result<bool, DbError> {
        Ok(false)
    }
    /// Marks where a request starts.
    fn savepoint(&mut self) -> Result<(), DbError> {
        self.batch("SAVEPOINT request")
    }
    /// Keeps what the request did.
    fn release(&mut self) -> Result<(), DbError> {
        self.batch("RELEASE SAVEPOINT request")
    }
    /// Undoes what the request did; the group goes on.
    fn rollback_to(&mut self) -> Result<(), DbError> {
        self.batch("ROLLBACK TO SAVEPOINT request; RELEASE SAVEPOINT request")
    }
}

/// What [`Backend::expect`] answers once a statement `changed` rows.
pub(super) fn expected(changed: u64, rows: u64, refused: &'static str) -> Result<(), DbError> {
    if changed == rows {
        Ok(())
    } else {
        Err(DbError(refused.into()))
    }
}

/// What one address holds against its caps ([`Caps`]): its open lobbies
/// (their own index holds only lobbies, by address), and its creates in
/// the last `$2` milliseconds (the clock read once, so the index on
/// address and time bounds the range; read per row, it cannot, and every
/// create of the address not yet forgotten was read).
pub(super) const CAPS_COUNT: &str = concat!(
    "SELECT (SELECT count(*) FROM tables WHERE address = $1 AND status = 'lobby'), \
     (SELECT count(*) FROM creations WHERE address = $1 AND created > (SELECT ",
    crate::clock::now_ms!(),
    " - $2::bigint))"
);

/// The server's statements, on either back end.
impl dyn Backend + '_ {
    /// Stores a new table in the lobby.
    pub(super) fn create_table(
        &mut self,
        invite: &str,
        created: i64,
        settings: &str,
        host_hash: &[u8],
    ) -> Result<(), DbError> {
        use Value::{Blob, Int, Text};
        self.execute(
            "INSERT INTO tables (invite, created, settings, host_hash, status) \
             VALUES ($1, $2, $3, $4, 'lobby')",
            &[Text(invite), Int(created), Text(settings), Blob(host_hash)],
        )
        .map(drop)
    }

    /// Stores a new lobby unless its creator's address is over one of
    /// `caps` (then nothing is written, and the answer says which).
    /// PostgreSQL only: the address's advisory lock, held until the group
    /// commits, makes one address's creates on every server wait for each
    /// other, so two at once cannot both take its last slot.
    pub(super) fn create_counted(
        &mut self,
        invite: &str,
        created: i64,
        settings: &str,
        host_hash: &[u8],
        caps: &Caps,
    ) -> Result<Option<Over>, DbError> {
        use Value::{Int, Text};
        let address = Text(&caps.address);
        self.execute(
            concat!(
                "SELECT 1 FROM pg_advisory_xact_lock(",
                caps_lock!(),
                ", hashtext($1))"
            ),
            &[address],
        )?;
        let row = self
            .query(CAPS_COUNT, &[address, Int(caps.window_ms)])?
            .pop()
            .ok_or_else(|| DbError("the count of an address's tables was empty".into()))?;
        let [lobbies, recent] = cells(row)?;
        if lobbies.int()? >= caps.lobbies {
            return Ok(Some(Over::Lobbies));
        }
        if recent.int()? >= caps.tables {
            return Ok(Some(Over::Tables));
        }
        self.execute(
            concat!(
                "INSERT INTO creations (invite, address, created) VALUES ($1, $2, ",
                crate::clock::now_ms!(),
                ")"
            ),
            &[Text(invite), address],
        )?;
        self.create_table(invite, created, settings, host_hash)?;
        self.execute(
            "UPDATE tables SET address = $2 WHERE invite = $1",
            &[Text(invite), address],
        )?;
        Ok(None)
    }

    /// Stores a claimed seat.
    pub(super) fn sit(
        &mut self,
        invite: &str,
        seat: u8,
        name: &str,
        hash: &[u8],
    ) -> Result<(), DbError> {
        use Value::{Blob, Int, Text};
        self.execute(
            "INSERT INTO seats (invite, seat, name, token_hash) VALUES ($1, $2, $3, $4)",
            &[Text(invite), Int(seat.into()), Text(name), Blob(hash)],
        )
        .map(drop)
    }

    /// Frees a claimed seat: its token holds it no more.
    pub(super) fn free_seat(&mut self, invite: &str, seat: u8) -> Result<(), DbError> {
        self.execute(
            "DELETE FROM seats WHERE invite = $1 AND seat = $2",
            &[Value::Text(invite), Value::Int(seat.into())],
        )
        .map(drop)
    }

    /// Replaces a lobby table's settings (JSON): the host's bot seats.
    pub(super) fn set_settings(&mut self, invite: &str, settings: &str) -> Result<(), DbError> {
        self.execute(
            "UPDATE tables SET settings = $2 WHERE invite = $1",
            &[Value::Text(invite), Value::Text(settings)],
        )
        .map(drop)
    }

    /// Marks a game started with these names (JSON). Its creator's
    /// address, kept while it was a lobby, goes.
    pub(super) fn start(&mut self, invite: &str, names: &str) -> Result<(), DbError> {
        self.execute(
            "UPDATE tables SET status = 'playing', names = $2, address = NULL WHERE invite = $1",
            &[Value::Text(invite), Value::Text(names)],
        )
        .map(drop)
    }

    /// Appends step `idx` (JSON); refused if the table already has it.
    pub(super) fn append_step(
        &mut self,
        invite: &str,
        idx: i64,
        step: &str,
    ) -> Result<(), DbError> {
        use Value::{Int, Text};
        self.expect(
            "INSERT INTO steps (invite, idx, step) VALUES ($1, $2, $3)",
            &[Text(invite), Int(idx), Text(step)],
            1,
            "the step was not stored",
        )
    }

    /// Sets a table's status (`finished`, `refused`); its creator's
    /// address goes, as at [`start`](Self::start).
    pub(super) fn set_status(&mut self, invite: &str, status: &str) -> Result<(), DbError> {
        self.execute(
            "UPDATE tables SET status = $2, address = NULL WHERE invite = $1",
            &[Value::Text(invite), Value::Text(status)],
        )
        .map(drop)
    }

    /// Refuses a write unless the lease is still `fence`'s, and keeps it
    /// so until the group commits (`FOR SHARE`: another server taking the
    /// table over waits for that commit, then replays what it stored). So
    /// a server that lost a table cannot store a step the new owner would
    /// not replay: no action is applied twice. PostgreSQL only.
    pub(super) fn check_fence(&mut self, fence: &Fence) -> Result<(), DbError> {
        use Value::{Int, Text};
        self.expect(
            "SELECT epoch FROM leases WHERE invite = $1 AND owner = $2 AND epoch = $3 FOR SHARE",
            &[Text(&fence.invite), Text(&fence.owner), Int(fence.epoch)],
            1,
            "this table has moved to another server; reconnect to go on",
        )
    }

    /// Removes a table, its seats and steps.
    pub(super) fn forget(&mut self, invite: &str) -> Result<(), DbError> {
        for sql in [
            "DELETE FROM analyses WHERE invite = $1",
            "DELETE FROM shares WHERE invite = $1",
            "DELETE FROM steps WHERE invite = $1",
            "DELETE FROM seats WHERE invite = $1",
            "DELETE FROM tables WHERE invite = $1",
        ] {
            self.execute(sql, &[Value::Text(invite)])?;
        }
        Ok(())
    }

    /// Removes finished tables created before `finished_before` and lobby
    /// tables created before `lobby_before` (seconds since 1970); returns
    /// how many went.
    pub(super) fn forget_old(
        &mut self,
        finished_before: i64,
        lobby_before: i64,
    ) -> Result<usize, DbError> {
        let cutoffs = [Value::Int(finished_before), Value::Int(lobby_before)];
        for sql in [
            concat!("DELETE FROM analyses WHERE invite IN (", old_tables!(), ")"),
            concat!("DELETE FROM shares WHERE invite IN (", old_tables!(), ")"),
            concat!("DELETE FROM steps WHERE invite IN (", old_tables!(), ")"),
            concat!("DELETE FROM seats WHERE invite IN (", old_tables!(), ")"),
        ] {
            self.execute(sql, &cutoffs)?;
        }
        let gone = self.execute(
            concat!("DELETE FROM tables WHERE invite IN (", old_tables!(), ")"),
            &cutoffs,
        )?;
        Ok(usize::try_from(gone).unwrap_or(usize::MAX))
    }

    /// The share id of a finished game's replay, if it has one; with
    /// `fresh`, made from it if it had none.
    pub(super) fn share(
        &mut self,
        invite: &str,
        fresh: Option<&str>,
    ) -> Result<Option<String>, DbError> {
        use Value::Text;
        if let Some(fresh) = fresh {
            self.execute(
                "INSERT INTO shares (share, invite) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[Text(fresh), Text(invite)],
            )?;
        }
        let Some(row) = self
            .query(
                "SELECT share FROM shares WHERE invite = $1",
                &[Text(invite)],
            )?
            .pop()
        else {
            return match fresh {
                Some(_) => Err(DbError("the share was not stored".into())),
                None => Ok(None),
            };
        };
        let [share] = cells(row)?;
        share.text().map(Some)
    }

    /// The invite a share id stands for.
    pub(super) fn shared(&mut self, share: &str) -> Result<Option<String>, DbError> {
        let Some(row) = self
            .query(
                "SELECT invite FROM shares WHERE share = $1",
                &[Value::Text(share)],
            )?
            .pop()
        else {
            return Ok(None);
        };
        let [invite] = cells(row)?;
        invite.text().map(Some)
    }

    /// Keeps an analysis (its JSON) of `seat`'s decisions (-1: everyone's).
    pub(super) fn keep_analysis(
        &mut self,
        invite: &str,
        seat: i64,
        body: &str,
    ) -> Result<(), DbError> {
        use Value::{Int, Text};
        self.execute(
            "INSERT INTO analyses (invite, seat, body) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            &[Text(invite), Int(seat), Text(body)],
        )
        .map(drop)
    }

    /// A kept analysis.
    pub(super) fn analysis(&mut self, invite: &str, seat: i64) -> Result<Option<String>, DbError> {
        let Some(row) = self
            .query(
                "SELECT body FROM analyses WHERE invite = $1 AND seat = $2",
                &[Value::Text(invite), Value::Int(seat)],
            )?
            .pop()
        else {
            return Ok(None);
        };
        let [body] = cells(row)?;
        body.text().map(Some)
    }

    /// Invites of the tables with this status (`playing`, `lobby`).
    pub(super) fn invites_in(&mut self, status: &str) -> Result<Vec<String>, DbError> {
        self.query(
            "SELECT invite FROM tables WHERE status = $1",
            &[Value::Text(status)],
        )?
        .into_iter()
        .map(|row| {
            let [invite] = cells(row)?;
            invite.text()
        })
        .collect()
    }

    /// A table not set aside, as stored.
    pub(super) fn load(&mut self, invite: &str) -> Result<Option<Row>, DbError> {
        let invite = [Value::Text(invite)];
        let Some(table) = self
            .query(
                "SELECT settings, host_hash, status, names FROM tables \
                 WHERE invite = $1 AND status != 'refused'",
                &invite,
            )?
            .pop()
        else {
            return Ok(None);
        };
        let [settings, host_hash, status, names] = cells(table)?;
        let seats = self
            .query(
                "SELECT seat, name, token_hash FROM seats WHERE invite = $1 ORDER BY seat",
                &invite,
            )?
            .into_iter()
            .map(|row| {
                let [seat, name, hash] = cells(row)?;
                let seat = seat.int()?;
                let seat = u8::try_from(seat)
                    .map_err(|_| DbError(format!("seat {seat} is out of range")))?;
                Ok((seat, name.text()?, hash.blob()?))
            })
            .collect::<Result<_, DbError>>()?;
        let steps = self
            .query(
                "SELECT step FROM steps WHERE invite = $1 ORDER BY idx",
                &invite,
            )?
            .into_iter()
            .map(|row| {
                let [step] = cells(row)?;
                step.text()
            })
            .collect::<Result<_, DbError>>()?;
        Ok(Some(Row {
            settings: settings.text()?,
            host_hash: host_hash.blob()?,
            status: status.text()?,
            names: names.maybe_text()?,
            seats,
            steps,
        }))
    }
}

/// The migrations a database at schema `version` still needs, with the
/// version each one brings it to; or why this build cannot use it.
/// `migrations[k]` brings a database from version `k` to `k + 1`.
pub(crate) fn pending<'a>(
    version: i64,
    migrations: &'a [&'a str],
) -> Result<impl Iterator<Item = (i64, &'a str)> + 'a, DbError> {
    let known = i64::try_from(migrations.len()).unwrap_or(i64::MAX);
    if version > known {
        return Err(DbError(format!(
            "the database was written by a newer tripoley (its schema is version {version}, \
             this build knows versions up to {known}): run the newer build, or use another database"
        )));
    }
    let version = version.max(0);
    let done = usize::try_from(version)
        .unwrap_or(usize::MAX)
        .min(migrations.len());
    Ok((version + 1..).zip(migrations[done..].iter().copied()))
}
