//! The unstarted lobbies this server created, by age and creator address
//! (issue 31, finding 3): a creator already holding
//! `max_lobbies_per_address` open lobbies creates no more, and when the
//! server holds `max_tables` a new table reclaims the oldest lobby nobody
//! has opened. So a flood of creates from many addresses, each under its
//! own limits, cannot lock honest hosts out: it only recycles its own
//! lobbies, and a lobby someone is in is never taken.
//!
//! Each table's actor decides for itself (`Cmd::Reclaim`), so a lobby that
//! has just started or been opened is not taken by mistake.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};

use tokio::sync::{mpsc, oneshot};

use crate::table::{Cmd, Reclaim};

/// Lobbies asked per create at most: a create's cost stays bounded however
/// many lobbies people are sitting in.
const TRIES: usize = 32;

/// One lobby: its invite, its creator's address and its actor's channel.
struct Lobby {
    invite: String,
    creator: IpAddr,
    tx: mpsc::Sender<Cmd>,
}

/// The lobbies created here, oldest first. An entry goes when its table is
/// found started or stopped.
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
            tx,
        });
    }

    /// Whether `creator` holds fewer than `cap` unstarted lobbies here.
    /// Asks each of its lobbies, forgetting those that started or stopped.
    pub(crate) async fn may_create(&self, creator: IpAddr, cap: usize) -> bool {
        let theirs: Vec<_> = {
            let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
            open.iter()
                .filter(|l| l.creator == creator)
                .map(|l| (l.invite.clone(), l.tx.clone()))
                .collect()
        };
        if theirs.len() < cap {
            return true;
        }
        let mut still = 0;
        for (invite, tx) in theirs {
            match ask(&tx, |reply| Cmd::IsLobby { reply }).await {
                Some(true) => still += 1,
                _ => self.forget(&invite),
            }
        }
        still < cap
    }

    /// Reclaims the oldest lobby nobody is in, if there is one among the
    /// oldest [`TRIES`]: its actor removes it from storage and stops.
    /// Lobbies found started or stopped on the way are forgotten, those in
    /// use go to the back of the line.
    pub(crate) async fn reclaim_oldest(&self) -> bool {
        let candidates: Vec<_> = {
            let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
            open.iter()
                .take(TRIES)
                .map(|l| (l.invite.clone(), l.tx.clone()))
                .collect()
        };
        for (invite, tx) in candidates {
            match ask(&tx, |reply| Cmd::Reclaim { reply }).await {
                Some(Reclaim::InUse) => self.to_back(&invite),
                Some(Reclaim::Reclaimed) => {
                    self.forget(&invite);
                    return true;
                }
                Some(Reclaim::NotALobby) | None => self.forget(&invite),
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
