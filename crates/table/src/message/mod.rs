//! What a table says to a connection: every server message of the protocol
//! (`docs/protocol.md`, "Server messages") as one type. The two that go to
//! every viewer at every step, `update` and `state`, are written by
//! [`crate::frames`] straight from the journal (each event serialised once);
//! everything else is a [`ServerMsg`], which carries `v` and `n` like them.

use serde::Serialize;
use tripoley_engine::Seat;

use crate::protocol::{Detail, ErrorBody, ErrorCode, PROTOCOL_VERSION, TableInfo};

/// A line of the table's chat, as it is sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatLine {
    /// The line's number at this table (from 1), so a client can tell a
    /// line it already shows.
    pub id: u64,
    /// Who said it.
    pub seat: Seat,
    /// Their name.
    pub name: String,
    /// What they said.
    pub text: String,
}

/// Who a connection is at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// It plays a seat.
    Player,
    /// It watches.
    Spectator,
}

/// A server message other than `update` and `state`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg<'a> {
    /// The answer to a good `hello`.
    Welcome {
        /// Player or spectator.
        role: Role,
        /// The seat played, if any.
        seat: Option<Seat>,
        /// Whether the connection is the host's.
        host: bool,
        /// The table.
        table: &'a TableInfo,
    },
    /// The seats, presence or status changed.
    Table {
        /// The table.
        table: &'a TableInfo,
    },
    /// A request done.
    Ack {
        /// The request's id.
        id: Option<u64>,
    },
    /// A request refused.
    Error {
        /// The request's id, if it had one.
        id: Option<u64>,
        /// What kind of refusal.
        code: ErrorCode,
        /// Why, in English.
        message: &'a str,
        /// Why, as data for the client's words.
        detail: Option<&'a Detail>,
    },
    /// A rematch of this finished table was made.
    Rematch {
        /// The new table's invite.
        invite: &'a str,
        /// Its page.
        path: String,
        /// Who asked (`None`: the host without a seat).
        by: Option<&'a str>,
    },
    /// The expert's choice for the asker's seat.
    Hint {
        /// The request's id.
        id: Option<u64>,
        /// The action, as an `act` carries it.
        action: &'a serde_json::Value,
    },
    /// A line of chat.
    Chat {
        /// The line.
        line: &'a ChatLine,
    },
    /// The recent lines, after a `welcome`.
    ChatHistory {
        /// Oldest first.
        lines: Vec<&'a ChatLine>,
    },
    /// The answer to a `ping`.
    Pong {
        /// The ping's id.
        id: Option<u64>,
    },
}

impl<'a> ServerMsg<'a> {
    /// Every message's `type`, in the order above.
    pub const TYPES: [&'static str; 9] = [
        "welcome",
        "table",
        "ack",
        "error",
        "rematch",
        "hint",
        "chat",
        "chat_history",
        "pong",
    ];

    /// This message's `type`.
    pub fn kind(&self) -> &'static str {
        let i = match self {
            ServerMsg::Welcome { .. } => 0,
            ServerMsg::Table { .. } => 1,
            ServerMsg::Ack { .. } => 2,
            ServerMsg::Error { .. } => 3,
            ServerMsg::Rematch { .. } => 4,
            ServerMsg::Hint { .. } => 5,
            ServerMsg::Chat { .. } => 6,
            ServerMsg::ChatHistory { .. } => 7,
            ServerMsg::Pong { .. } => 8,
        };
        Self::TYPES[i]
    }

    /// The refusal `err` of request `id`.
    pub fn error(id: Option<u64>, err: &'a ErrorBody) -> ServerMsg<'a> {
        ServerMsg::Error {
            id,
            code: err.code,
            message: &err.message,
            detail: err.detail.as_ref(),
        }
    }

    /// The message as the table sends it at event number `n`.
    pub fn text(&self, n: u64) -> String {
        #[derive(Serialize)]
        struct Sent<'m, 'a> {
            v: u32,
            n: u64,
            #[serde(flatten)]
            msg: &'m ServerMsg<'a>,
        }
        serde_json::to_string(&Sent {
            v: PROTOCOL_VERSION,
            n,
            msg: self,
        })
        .expect("messages serialise")
    }
}

#[cfg(test)]
mod tests;
