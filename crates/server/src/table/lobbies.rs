//! The tables this server created, by age and creator address, until
//! their games are over (issue 31, finding 3; issue 49, finding 2): a
//! creator already holding `max_lobbies_per_address` open lobbies, or
//! `max_games_per_address` tables not finished (lobbies and games being
//! played), creates no more; and when the server holds `max_tables` a new
//! table reclaims the oldest one that serves nobody: a lobby nobody has
//! opened (none younger than [`JOINING`] where a person holds a seat: they
//! are on the way), or a game of bots alone nobody watches. So a flood of creates from many
//! addresses, each under its own limits, cannot lock honest hosts out: it
//! only recycles its own tables, and a table someone is in is never taken.
//!
//! Each table's actor decides for itself (`Cmd::Reclaim`), so a table that
//! has just started or been opened is not taken by mistake.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::protocol::TableStatus;
use crate::table::{Cmd, Reclaim};

/// How long a new lobby where a person holds a seat (its host, named at the
/// create, or a rematch's players) is not reclaimed, though nobody is
/// connected yet: they are opening it (an honest host's fresh lobby was
/// reclaimed by a flood before the host connected).
const JOINING: Duration = Duration::from_secs(60);

/// A cap of a creator's that a create would pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Crowded {
    /// It holds its open lobbies.
    Lobbies,
    /// It holds its tables not finished.
    Games,
}

/// Lobbies asked per create at most: a create's cost stays bounded however
/// many lobbies people are sitting in.
const TRIES: usize = 32;

/// One table: its invite, its creator's address, when it was made and its
/// actor's channel.
struct Lobby {
    invite: String,
    creator: IpAddr,
    made: Instant,
    tx: mpsc::Sender<Cmd>,
}

/// The tables created here, oldest first. An entry goes when its table is
/// found finished or stopped.
#[derive(Default)]
pub(crate) struct Lobbies {
    open: Mutex<VecDeque<Lobby>>,
}

impl Lobbies {
    /// Remembers a lobby just created by `creator`; forgets tables that
    /// have stopped meanwhile (an expired lobby), so the list stays as long
    /// as the tables in memory.
    pub(crate) fn add(&self, invite: String, creator: IpAddr, tx: mpsc::Sender<Cmd>) {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.retain(|l| !l.tx.is_closed());
        open.push_back(Lobby {
            invite,
            creator,
            made: Instant::now(),
            tx,
        });
    }

    /// Which of `creator`'s caps a create would pass, if any: `lobbies`
    /// unstarted lobbies here (`None`: counted elsewhere, the database),
    /// `games` tables not finished. Asks each of its tables, forgetting
    /// those that finished or stopped.
    pub(crate) async fn crowded(
        &self,
        creator: IpAddr,
        lobbies: Option<usize>,
        games: usize,
    ) -> Option<Crowded> {
        let theirs: Vec<_> = {
            let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
            open.iter()
                .filter(|l| l.creator == creator)
                .map(|l| (l.invite.clone(), l.tx.clone()))
                .collect()
        };
        if theirs.len() < lobbies.unwrap_or(usize::MAX).min(games) {
            return None;
        }
        let (mut waiting, mut going) = (0, 0);
        for (invite, tx) in theirs {
            match ask(&tx, |reply| Cmd::Status { reply }).await {
                Some(TableStatus::Lobby) => {
                    waiting += 1;
                    going += 1;
                }
                Some(TableStatus::Playing) => going += 1,
                Some(TableStatus::Finished) | None => self.forget(&invite),
            }
        }
        if lobbies.is_some_and(|cap| waiting >= cap) {
            Some(Crowded::Lobbies)
        } else if going >= games {
            Some(Crowded::Games)
        } else {
            None
        }
    }

    /// Reclaims the oldest table that serves nobody, if there is one among
    /// the oldest [`TRIES`]: its actor removes it from storage and stops. Tables found
    /// finished or stopped on the way are forgotten, those in use go to the
    /// back of the line.
    pub(crate) async fn reclaim_oldest(&self) -> bool {
        let candidates: Vec<_> = {
            let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
            open.iter()
                .take(TRIES)
                .map(|l| (l.invite.clone(), l.made, l.tx.clone()))
                .collect()
        };
        for (invite, made, tx) in candidates {
            let young = made.elapsed() < JOINING;
            match ask(&tx, |reply| Cmd::Reclaim { young, reply }).await {
                Some(Reclaim::InUse) => self.to_back(&invite),
                Some(Reclaim::Reclaimed) => {
                    self.forget(&invite);
                    return true;
                }
                Some(Reclaim::Finished) | None => self.forget(&invite),
            }
        }
        false
    }

    fn to_back(&self, invite: &str) {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = open.iter().position(|l| l.invite == invite)
            && let Some(lobby) = open.remove(i)
        {
            open.push_back(lobby);
        }
    }

    fn forget(&self, invite: &str) {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.retain(|l| l.invite != invite);
    }
}

/// Asks a table's actor; `None` if it has stopped.
async fn ask<T>(tx: &mpsc::Sender<Cmd>, make: impl FnOnce(oneshot::Sender<T>) -> Cmd) -> Option<T> {
    let (reply, answer) = oneshot::channel();
    tx.send(make(reply)).await.ok()?;
    answer.await.ok()
}
