//! The wire protocol (version [`PROTOCOL_VERSION`]): JSON messages over a
//! websocket, and the JSON bodies of the HTTP API. `docs/protocol.md`
//! describes it for client writers.
//!
//! Every server message carries `v` (the protocol version) and `n`, the
//! table's event number: how many steps the game has taken. A client keeps
//! the last `n` it saw and sends it in its `hello` when it reconnects.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tripoley_bots::BotKind;
use tripoley_engine::{Action, Preset, Rules, Seat};
use tripoley_napalm::NapalmRules;

/// The protocol version this server speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// The first message: who I am (a seat token, or none for a spectator)
    /// and the last event number I saw (none for a full state).
    Hello {
        /// Must be [`PROTOCOL_VERSION`].
        v: u32,
        /// The secret seat token (or the host's token).
        #[serde(default)]
        token: Option<String>,
        /// The last event number seen.
        #[serde(default)]
        last: Option<u64>,
    },
    /// Take an action in my seat.
    Act {
        /// The action.
        action: Action,
        /// An id echoed in the `ack` or `error` reply.
        #[serde(default)]
        id: Option<u64>,
        /// The seat the client believes it holds; refused if it is not.
        #[serde(default)]
        seat: Option<Seat>,
        /// The event number the action answers; refused if the game moved on.
        #[serde(default)]
        n: Option<u64>,
    },
    /// The host starts the game (empty seats become bots).
    Start {
        /// Echoed in the reply.
        #[serde(default)]
        id: Option<u64>,
    },
    /// What the expert bot would do in my seat now; answered by `hint`.
    Hint {
        /// Echoed in the reply.
        #[serde(default)]
        id: Option<u64>,
    },
    /// A line of table chat, sent to everyone at the table as `chat`.
    /// Only seated players may write; see [`clean_chat`] for what a line
    /// may hold.
    Chat {
        /// The line.
        text: String,
        /// Echoed in the `ack` or `error` reply.
        #[serde(default)]
        id: Option<u64>,
    },
    /// The host frees the seat of a player who is away: the seat's token no
    /// longer holds it (in the lobby the seat opens; during a game the
    /// table's bot plays it to the end).
    FreeSeat {
        /// The seat to free.
        seat: Seat,
        /// Echoed in the `ack` or `error` reply.
        #[serde(default)]
        id: Option<u64>,
    },
    /// The host puts a bot of level `bot` in an open lobby seat, changes
    /// the level of a lobby seat's bot, or (`bot: null`) opens the seat to
    /// players again.
    SeatBot {
        /// The seat.
        seat: Seat,
        /// Its bot's level, or none to open it.
        bot: Option<BotKind>,
        /// Echoed in the `ack` or `error` reply.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Keep-alive; answered by `pong`.
    Ping {
        /// Echoed in the reply.
        #[serde(default)]
        id: Option<u64>,
    },
}

/// `act` at a Napalm table: the same message as [`ClientMsg::Act`], with a
/// Napalm action (`"yes"`, `"no"`, `"challenge"`, `"decline"`). The server
/// reads a message as this when it is not a [`ClientMsg`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum NapalmClientMsg {
    /// Take a Napalm action in my seat.
    Act {
        /// The action.
        action: tripoley_napalm::Action,
        /// An id echoed in the `ack` or `error` reply.
        #[serde(default)]
        id: Option<u64>,
        /// The seat the client believes it holds; refused if it is not.
        #[serde(default)]
        seat: Option<Seat>,
        /// The event number the action answers; refused if the game moved on.
        #[serde(default)]
        n: Option<u64>,
    },
}

/// The game a table plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// Tripoley (RULES.md sections 1-6, 8), the default.
    #[default]
    Tripoley,
    /// Napalm poker (RULES.md section 7).
    Napalm,
}

impl GameKind {
    /// Both games.
    pub const ALL: [GameKind; 2] = [GameKind::Tripoley, GameKind::Napalm];

    /// The game's name in the protocol and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Tripoley => "tripoley",
            GameKind::Napalm => "napalm",
        }
    }
}

impl std::str::FromStr for GameKind {
    type Err = String;
    fn from_str(s: &str) -> Result<GameKind, String> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name() == s.trim())
            .ok_or_else(|| format!("no game {s:?}: choose tripoley or napalm"))
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a message was refused: the `code` of an `error` message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not a message of this protocol.
    BadMessage,
    /// A protocol version this server does not speak.
    Version,
    /// Larger than the message size cap.
    TooLarge,
    /// Too many messages, or tables created this hour: slow down.
    RateLimited,
    /// A wrong token, a spectator acting, or not the host.
    Unauthorized,
    /// The message names a seat that is not the sender's.
    WrongSeat,
    /// It is not the sender's turn.
    NotYourTurn,
    /// The action is not legal now.
    Illegal,
    /// The action answers an earlier state (`n` is old).
    Stale,
    /// The game has not started.
    NotStarted,
    /// The game has started or is over.
    AlreadyStarted,
    /// The game is over.
    GameOver,
    /// No such table.
    NoTable,
    /// The seat is taken, or every seat is.
    SeatTaken,
    /// A name or a table setting that cannot be used.
    Invalid,
    /// Too many spectators or tables.
    Full,
    /// The server could not store the action; nothing changed.
    Storage,
    /// The server is busy (hints, or tables created from one address): try
    /// again later.
    Busy,
    /// An HTTP request that is not JSON, or comes from a page of another site.
    Forbidden,
    /// The host freed the seat this token held, while its player was away.
    SeatFreed,
}

/// A table's phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Seats are being taken.
    Lobby,
    /// The game is on.
    Playing,
    /// The game is over.
    Finished,
}

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// Nobody yet (lobby): a bot will play it if nobody takes it.
    Open,
    /// A person.
    Human,
    /// A bot.
    Bot,
}

/// One seat as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// The seat number.
    pub seat: Seat,
    /// The player's name.
    pub name: Option<String>,
    /// Who sits there.
    pub kind: SeatKind,
    /// Whether the player has a connection open.
    pub connected: bool,
    /// A person away longer than the grace time: a bot plays for them.
    pub bot_playing: bool,
    /// A bot seat's level (a lobby seat the host gave a bot, or any seat a
    /// bot plays once the game started); none for people and open seats.
    #[serde(default)]
    pub bot: Option<BotKind>,
}

/// The settings chosen when the table was created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSettings {
    /// The rules (a preset, changed by house rules).
    pub rules: Rules,
    /// Seats at the table.
    pub seats: u8,
    /// Seconds a player has for a decision; 0 for no limit.
    pub turn_seconds: u32,
    /// The bot that plays empty seats, and players away or out of time.
    pub bot: BotKind,
    /// The seats the host gave a bot of another level in the lobby, by
    /// seat (empty for a table stored before there were any).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub seat_bots: BTreeMap<Seat, BotKind>,
    /// The game (a table stored without this field plays Tripoley).
    #[serde(default)]
    pub game: GameKind,
    /// A Napalm table's rules (`rules` is then unused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub napalm: Option<NapalmRules>,
    /// Listed on `GET /api/tables` while it waits for players (a table
    /// stored without this field is private).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub public: bool,
}

/// A table as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableInfo {
    /// The invite code (`/t/<invite>` is its link).
    pub invite: String,
    /// Lobby, playing or finished.
    pub status: TableStatus,
    /// The settings.
    pub settings: TableSettings,
    /// The seats.
    pub seats: Vec<SeatInfo>,
    /// Spectators watching.
    pub spectators: usize,
}

/// `POST /api/tables`: a new table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// The game (default Tripoley).
    #[serde(default)]
    pub game: Option<GameKind>,
    /// The preset the rules start from (default `pagat`).
    #[serde(default)]
    pub preset: Option<Preset>,
    /// House rules: any `Rules` fields, overriding the preset's.
    #[serde(default)]
    pub rules: Option<serde_json::Map<String, serde_json::Value>>,
    /// Seats (default 4).
    #[serde(default)]
    pub seats: Option<u8>,
    /// Each player's starting chips (default: the preset's).
    #[serde(default)]
    pub starting_chips: Option<u32>,
    /// Deals in the game (default: one per player).
    #[serde(default)]
    pub deals: Option<u32>,
    /// Seconds per decision; 0 for none (default 60).
    #[serde(default)]
    pub turn_seconds: Option<u32>,
    /// The bot for empty seats (default heuristic).
    #[serde(default)]
    pub bot: Option<BotKind>,
    /// The host's name: when given, the host takes seat 0.
    #[serde(default)]
    pub host_name: Option<String>,
    /// Napalm: tokens that win the game (default 5).
    #[serde(default)]
    pub tokens_to_win: Option<u32>,
    /// List the table on `GET /api/tables` while it has open seats
    /// (default: private, reached only by its link).
    #[serde(default)]
    pub public: Option<bool>,
}

/// The answer to `POST /api/tables`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Created {
    /// The invite code.
    pub invite: String,
    /// The invite link's path: `/t/<invite>`.
    pub path: String,
    /// The host's secret: it starts the game. When the host took a seat it
    /// is also that seat's token.
    pub host_token: String,
    /// The host's seat, when `host_name` was given.
    pub seat: Option<Seat>,
}

/// `POST /api/tables/<invite>/sit`: take a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SitRequest {
    /// The seat wanted (default: the first open one).
    #[serde(default)]
    pub seat: Option<Seat>,
    /// The player's name.
    pub name: String,
}

/// The answer to a `sit`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seated {
    /// The seat taken.
    pub seat: Seat,
    /// The secret seat token: keep it to act and to reconnect.
    pub token: String,
}

/// `POST /api/tables/<invite>/start`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartRequest {
    /// The host's token.
    pub token: String,
}

/// An error body of the HTTP API (and the payload of a websocket `error`).
/// A client words it from `code` and `detail` in its player's language;
/// `message` is English, for logs and tools, and never holds a parser's or
/// the database's text (issue 26, point 14).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// What kind of refusal.
    pub code: ErrorCode,
    /// In English words a player understands.
    pub message: String,
    /// Exactly what was refused, with its numbers, where the code alone
    /// does not say it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Detail>,
}

/// What exactly a table's settings or a request got wrong: a `reason` and
/// its parameters, which a client puts in its own words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Detail {
    /// A house rule that does not exist or whose value does not fit.
    HouseRule {
        /// The house rule's name as the request gave it (at most 40
        /// characters of it).
        field: String,
    },
    /// House rules that each fit but not together (or a preset's limits).
    HouseRules,
    /// A game for `min` to `max` players.
    Seats {
        /// The fewest players.
        min: u8,
        /// The most players.
        max: u8,
    },
    /// Starting chips are 1 to `max`.
    StartingChips {
        /// The most starting chips.
        max: u32,
    },
    /// The turn timer is 0 (none) to `max` seconds.
    TurnSeconds {
        /// The longest turn timer, in seconds.
        max: u32,
    },
    /// A setting of the other game.
    OtherGame {
        /// `tokens_to_win` (Napalm's) at Tripoley, `preset` or `deals` at
        /// Napalm.
        field: String,
    },
    /// A player's name the table does not take.
    Name {
        /// What is wrong with it.
        problem: NameProblem,
    },
    /// A chat line the table does not take.
    Chat {
        /// What is wrong with it.
        problem: ChatProblem,
    },
    /// A seat the host may not free.
    FreeSeat {
        /// Why not.
        problem: FreeSeatProblem,
    },
    /// A seat the host may not give a bot (`seat_bot`).
    SeatBot {
        /// Why not.
        problem: SeatBotProblem,
    },
    /// Why a `hello`'s seat is gone (`seat_freed`).
    SeatFreed {
        /// Who freed it, and when.
        cause: FreedCause,
    },
    /// A seat the table does not have (a `sit` asking for seat 9 of 3).
    NoSeat {
        /// The table's seats (numbered 0 to `seats` - 1).
        seats: u8,
    },
    /// A record file the replay viewer cannot open.
    Record {
        /// What is wrong with it.
        problem: RecordProblem,
    },
}

/// Why an uploaded record file is refused (`POST /api/replays`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordProblem {
    /// Larger than a record may be (4 MiB).
    TooBig,
    /// More steps than a record may hold.
    TooLong,
    /// More steps than the server analyses of an uploaded record (the
    /// browser analyses it on the device).
    TooLongToAnalyse,
    /// A Napalm game: the viewer draws only Tripoley.
    Napalm,
    /// Not a Tripoley record, or one that does not replay (the message says
    /// where).
    NotARecord,
}

/// Why a name is refused ([`clean_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NameProblem {
    /// Wider than 16 columns (a CJK character or an emoji counts two).
    TooLong,
    /// A control, separator or invisible formatting character.
    Invisible,
    /// Nothing visible.
    Empty,
    /// "(you)", which the web client writes after the reader's own name.
    You,
    /// A name like the table's bots' ("Bot 3").
    BotName,
    /// More combining marks on one character than any script needs.
    Marks,
    /// A name that looks like another player's at the table.
    Taken,
}

/// Why a chat line is refused ([`clean_chat`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatProblem {
    /// More than [`MAX_CHAT_CHARS`] characters.
    TooLong,
    /// More than one line, or a control character.
    Control,
    /// Nothing visible.
    Empty,
}

/// Why the host may not free a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FreeSeatProblem {
    /// The table has no such seat.
    NoSuchSeat,
    /// Nobody holds it.
    Empty,
    /// The host's own seat.
    Own,
    /// Its player is here (during a game).
    Here,
    /// Its player left a moment ago: a bot does not play for them yet.
    JustLeft,
}

/// Why the host may not give a seat a bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatBotProblem {
    /// The table has no such seat.
    NoSuchSeat,
    /// A person holds it.
    Taken,
}

/// Why a seat's token holds nothing any more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FreedCause {
    /// The host removed its player from the lobby.
    Removed,
    /// The host gave the seat to a bot while its player was away.
    Away,
}

impl ErrorBody {
    /// An action that answers event `k` while the game is at event `n`.
    pub fn stale(k: u64, n: u64) -> ErrorBody {
        ErrorBody::new(
            ErrorCode::Stale,
            format!("this answers event {k}, but the game is at event {n}"),
        )
    }

    /// An error with a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ErrorBody {
        ErrorBody {
            code,
            message: message.into(),
            detail: None,
        }
    }

    /// The same error, saying exactly what was refused.
    #[must_use]
    pub fn with(self, detail: Detail) -> ErrorBody {
        ErrorBody {
            detail: Some(detail),
            ..self
        }
    }
}

impl std::fmt::Display for ErrorBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}: {}", self.code, self.message)
    }
}

/// A player's name, trimmed, by the one rule for names
/// ([`tripoley_i18n::names::chosen_problem`]: 16 columns, visible, no hidden
/// character or tower of marks, nothing that passes for a bot's name or
/// for the "(you)" the web client writes after the reader's own name).
pub fn clean_name(name: &str) -> Result<String, ErrorBody> {
    use tripoley_i18n::names::{self, Problem};
    let name = names::trimmed(name);
    let Some(problem) = names::chosen_problem(name) else {
        return Ok(name.to_owned());
    };
    let (problem, message) = match problem {
        Problem::TooWide => (
            NameProblem::TooLong,
            "a name is at most 16 columns wide (Chinese, Japanese and Korean characters and emoji count two)",
        ),
        Problem::Hidden => (
            NameProblem::Invisible,
            "a name cannot hold control, separator or invisible formatting characters",
        ),
        Problem::Empty => (
            NameProblem::Empty,
            "a name needs at least one visible character",
        ),
        Problem::Marks => (
            NameProblem::Marks,
            "a name cannot stack more than four marks on one letter",
        ),
        Problem::You => (
            NameProblem::You,
            "a name cannot contain \"(you)\" or \"(tú)\": the table adds it after your own name",
        ),
        Problem::BotName => (
            NameProblem::BotName,
            "names like \"Bot 3\" are kept for the table's bots",
        ),
    };
    Err(ErrorBody::new(ErrorCode::Invalid, message).with(Detail::Name { problem }))
}

/// The refusal of a name that looks like another player's at the table.
pub fn name_taken() -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Invalid,
        "another player at this table has a name that looks the same",
    )
    .with(Detail::Name {
        problem: NameProblem::Taken,
    })
}

/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 200;

/// A chat line: at most [`MAX_CHAT_CHARS`] characters and one line (a
/// control character or a line or paragraph separator is refused: a
/// browser's text field cannot send one). Other hidden characters
/// ([`tripoley_i18n::glyphs::hidden`]) are dropped rather than refused: a
/// bidi control could mirror the chat and a zero-width one hide words. An
/// emoji's own joiners and variation selectors stay (one picture, 👨‍👩‍👧).
/// Combining marks past four on one character are dropped. What is left,
/// trimmed, must show something.
pub fn clean_chat(text: &str) -> Result<String, ErrorBody> {
    use tripoley_i18n::glyphs::{breaks_line, visible, without_hidden, without_towers};
    let invalid = |m: &str, problem| {
        Err(ErrorBody::new(ErrorCode::Invalid, m).with(Detail::Chat { problem }))
    };
    if text.chars().count() > MAX_CHAT_CHARS {
        return invalid(
            "a chat message has at most 200 characters",
            ChatProblem::TooLong,
        );
    }
    if text.chars().any(breaks_line) {
        return invalid(
            "a chat message is one line, without control characters",
            ChatProblem::Control,
        );
    }
    let shown = without_hidden(text);
    let kept = without_towers(&shown);
    let kept = kept.trim();
    if !kept.chars().any(visible) {
        return invalid(
            "a chat message needs at least one visible character",
            ChatProblem::Empty,
        );
    }
    Ok(kept.to_owned())
}

impl CreateTable {
    /// The table settings this request asks for, checked, the host's name
    /// among them.
    pub fn settings(&self) -> Result<TableSettings, ErrorBody> {
        if let Some(name) = &self.host_name {
            clean_name(name)?;
        }
        self.game_settings()
    }

    /// The table settings this request asks for, checked, its names aside:
    /// the offline table's (whose names never leave the device, and whose
    /// WebAssembly would otherwise carry the Unicode tables names are
    /// checked with).
    pub fn game_settings(&self) -> Result<TableSettings, ErrorBody> {
        if self.game == Some(GameKind::Napalm) {
            return self.napalm_settings();
        }
        if self.tokens_to_win.is_some() {
            return Err(other_game(
                "tokens_to_win is a Napalm setting",
                "tokens_to_win",
            ));
        }
        let base = Rules::preset(self.preset.unwrap_or(Preset::Pagat));
        let mut rules = base;
        if let Some(over) = &self.rules {
            rules = with_overrides(&rules, over)?;
        }
        if let Some(chips) = self.checked_starting_chips()? {
            rules.starting_chips = chips;
        }
        if let Some(deals) = self.deals {
            rules.deals = Some(deals);
        }
        let settings = TableSettings {
            rules,
            seats: self.seats.unwrap_or(4),
            turn_seconds: self.turn_seconds(),
            bot: self.bot.unwrap_or(BotKind::Heuristic),
            seat_bots: BTreeMap::new(),
            game: GameKind::Tripoley,
            napalm: None,
            public: self.public.unwrap_or(false),
        };
        settings.check()?;
        Ok(settings)
    }

    /// The starting chips asked for, if any: 1 to 1,000,000 (both games).
    fn checked_starting_chips(&self) -> Result<Option<u32>, ErrorBody> {
        match self.starting_chips {
            Some(chips) if chips == 0 || chips > Rules::MAX_STARTING_CHIPS => Err(ErrorBody::new(
                ErrorCode::Invalid,
                "starting chips must be 1 to 1,000,000",
            )
            .with(Detail::StartingChips {
                max: Rules::MAX_STARTING_CHIPS,
            })),
            chips => Ok(chips),
        }
    }

    /// The turn timer, 60 s by default ([`TableSettings::check`] bounds it).
    fn turn_seconds(&self) -> u32 {
        self.turn_seconds.unwrap_or(60)
    }

    /// The settings of a Napalm table: `rules` overrides [`NapalmRules`]
    /// fields; there are no presets and no deal count.
    fn napalm_settings(&self) -> Result<TableSettings, ErrorBody> {
        if self.preset.is_some() || self.deals.is_some() {
            let field = if self.preset.is_some() {
                "preset"
            } else {
                "deals"
            };
            return Err(other_game(
                "a Napalm table has no preset and no deal count",
                field,
            ));
        }
        let mut rules = NapalmRules::default();
        if let Some(over) = &self.rules {
            rules = with_overrides(&rules, over)?;
        }
        if let Some(chips) = self.checked_starting_chips()? {
            rules.starting_chips = chips;
        }
        if let Some(tokens) = self.tokens_to_win {
            rules.tokens_to_win = tokens;
        }
        let settings = TableSettings {
            rules: Rules::preset(Preset::Pagat),
            seats: self.seats.unwrap_or(4),
            turn_seconds: self.turn_seconds(),
            bot: self.bot.unwrap_or(BotKind::Heuristic),
            seat_bots: BTreeMap::new(),
            game: GameKind::Napalm,
            napalm: Some(rules),
            public: self.public.unwrap_or(false),
        };
        settings.check()?;
        Ok(settings)
    }
}

impl TableSettings {
    /// Checks the settings however they arrived: from a request, or from
    /// storage written by an older server. Every number, top-level or among
    /// the house rules, is bounded here (`Rules::validate` and
    /// `NapalmRules::validate`).
    pub fn check(&self) -> Result<(), ErrorBody> {
        let invalid = |m: String| ErrorBody::new(ErrorCode::Invalid, m);
        // The engines' own words name options and rule ids: the player is
        // told which limit, in the client's words.
        let rules_refused = |e: String| invalid(e).with(Detail::HouseRules);
        let seats = usize::from(self.seats);
        let (min, max) = match (self.game, &self.napalm) {
            (GameKind::Tripoley, _) => (self.rules.min_players, self.rules.max_players),
            (GameKind::Napalm, Some(rules)) => (rules.min_players, rules.max_players),
            (GameKind::Napalm, None) => {
                return Err(
                    invalid("a Napalm table needs its rules".into()).with(Detail::HouseRules)
                );
            }
        };
        if seats < usize::from(min) || seats > usize::from(max) {
            return Err(invalid(format!("this game is for {min} to {max} players"))
                .with(Detail::Seats { min, max }));
        }
        match &self.napalm {
            None => self
                .rules
                .check_players(seats)
                .map_err(|e| rules_refused(e.to_string()))?,
            // Napalm's own validate bounds its every number.
            Some(rules) => rules
                .check_players(seats)
                .map_err(|e| rules_refused(e.to_string()))?,
        }
        if self.turn_seconds > MAX_TURN_SECONDS {
            return Err(invalid(format!(
                "the turn timer is at most {MAX_TURN_SECONDS} seconds"
            ))
            .with(Detail::TurnSeconds {
                max: MAX_TURN_SECONDS,
            }));
        }
        if let Some((seat, _)) = self.seat_bots.range(self.seats..).next() {
            return Err(
                invalid(format!("this table has no seat {seat} for a bot")).with(Detail::SeatBot {
                    problem: SeatBotProblem::NoSuchSeat,
                }),
            );
        }
        Ok(())
    }
}

/// The presets with their rules, as `GET /api/presets` answers (and the
/// offline app asks its worker).
pub fn presets() -> serde_json::Value {
    Preset::ALL
        .iter()
        .map(|&p| serde_json::json!({"name": p.name(), "rules": Rules::preset(p)}))
        .collect()
}

/// The longest turn timer, in seconds (an hour).
pub const MAX_TURN_SECONDS: u32 = 3600;

/// A setting of the other game, refused.
fn other_game(message: &str, field: &str) -> ErrorBody {
    ErrorBody::new(ErrorCode::Invalid, message).with(Detail::OtherGame {
        field: field.to_owned(),
    })
}

/// `base` with the fields of `over` replaced (house rules on a preset, for
/// either game). The error names the first house rule that does not fit
/// (tried one at a time on `base`), never the parser's text, which lists
/// every field name.
fn with_overrides<R: Serialize + serde::de::DeserializeOwned>(
    base: &R,
    over: &serde_json::Map<String, serde_json::Value>,
) -> Result<R, ErrorBody> {
    let serde_json::Value::Object(base) = serde_json::to_value(base).expect("rules serialise")
    else {
        unreachable!("rules serialise to an object")
    };
    let with = |fields: &mut dyn Iterator<Item = (&String, &serde_json::Value)>| {
        let mut merged = base.clone();
        for (k, v) in fields {
            merged.insert(k.clone(), v.clone());
        }
        serde_json::from_value::<R>(serde_json::Value::Object(merged))
    };
    with(&mut over.iter()).map_err(|_| {
        let field = over
            .iter()
            .find(|one| with(&mut std::iter::once(*one)).is_err())
            .map_or("", |(k, _)| k.as_str());
        ErrorBody::new(
            ErrorCode::Invalid,
            format!("the house rule {field:?} does not exist or its value does not fit"),
        )
        .with(Detail::HouseRule {
            field: field.chars().take(40).collect(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_has_one_name_in_the_protocol_and_on_the_command_line() {
        for game in GameKind::ALL {
            let json = serde_json::to_string(&game).unwrap();
            assert_eq!(json, format!("\"{}\"", game.name()));
            assert_eq!(game.name().parse::<GameKind>(), Ok(game));
        }
        assert!("poker".parse::<GameKind>().is_err());
    }

    #[test]
    fn unknown_fields_and_types_are_refused() {
        for text in [
            r#"{"type":"act","action":"check","extra":1}"#,
            r#"{"type":"shout"}"#,
            r#"{"type":"act","action":{"bid":"ten"}}"#,
            r#"{"type":"hello"}"#,
            "[]",
        ] {
            assert!(serde_json::from_str::<ClientMsg>(text).is_err(), "{text}");
        }
        let ok: ClientMsg =
            serde_json::from_str(r#"{"type":"act","action":{"bid":3},"id":4}"#).unwrap();
        assert_eq!(
            ok,
            ClientMsg::Act {
                action: Action::Bid(3),
                id: Some(4),
                seat: None,
                n: None
            }
        );
    }

    #[test]
    fn house_rules_override_a_preset() {
        let req = CreateTable {
            preset: Some(Preset::Tripoley),
            rules: Some(serde_json::from_str(r#"{"bet_limit":5}"#).expect("a JSON object")),
            seats: Some(3),
            starting_chips: Some(50),
            ..CreateTable::default()
        };
        let s = req.settings().unwrap();
        assert_eq!(s.rules.bet_limit, 5);
        assert_eq!(s.rules.starting_chips, 50);
        assert_eq!(s.rules.spare, Rules::preset(Preset::Tripoley).spare);
        let bad = CreateTable {
            rules: Some(serde_json::from_str(r#"{"bet_limt":5}"#).unwrap()),
            ..CreateTable::default()
        };
        assert_eq!(bad.settings().unwrap_err().code, ErrorCode::Invalid);
        let too_many = CreateTable {
            seats: Some(12),
            ..CreateTable::default()
        };
        assert!(too_many.settings().is_err());
    }

    #[test]
    fn napalm_tables_have_their_own_settings() {
        let req: CreateTable = serde_json::from_str(
            r#"{"game":"napalm","seats":3,"tokens_to_win":2,"starting_chips":30,"rules":{"ante":2}}"#,
        )
        .unwrap();
        let s = req.settings().unwrap();
        assert_eq!(s.game, GameKind::Napalm);
        let r = s.napalm.unwrap();
        assert_eq!((r.tokens_to_win, r.starting_chips, r.ante), (2, 30, 2));
        for bad in [
            r#"{"game":"napalm","seats":8}"#,
            r#"{"game":"napalm","preset":"pagat"}"#,
            r#"{"game":"napalm","deals":3}"#,
            r#"{"game":"napalm","rules":{"antes":1}}"#,
            r#"{"tokens_to_win":3}"#,
        ] {
            let req: CreateTable = serde_json::from_str(bad).unwrap();
            assert!(req.settings().is_err(), "{bad}");
        }
        // A table stored before there were two games plays Tripoley.
        let mut old = serde_json::to_value(CreateTable::default().settings().unwrap()).unwrap();
        old.as_object_mut().unwrap().remove("game");
        let old: TableSettings = serde_json::from_value(old).unwrap();
        assert_eq!((old.game, old.napalm), (GameKind::Tripoley, None));
        let act: NapalmClientMsg =
            serde_json::from_str(r#"{"type":"act","action":"challenge","n":4}"#).unwrap();
        assert!(matches!(act, NapalmClientMsg::Act { n: Some(4), .. }));
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"act","action":"yes"}"#).is_err());
    }

    #[test]
    fn names_cannot_mirror_vanish_or_pass_for_a_bot_or_you() {
        for bad in [
            "",
            "   ",
            "\u{202E}Ann",
            "An\u{2067}n",
            "\u{200B}\u{200B}",
            "\u{3164}",
            "\u{2800}",
            "\u{0301}\u{0301}",
            "Bot 4",
            "bot4",
            "BOT  12",
            "Bot",
            "Ann (you)",
            "Ann (YOU)",
            "Ann \u{FF08}you\u{FF09}",
            "tab\there",
            "a name far too long for the table",
        ] {
            assert_eq!(
                clean_name(bad).unwrap_err().code,
                ErrorCode::Invalid,
                "{bad:?}"
            );
        }
        for good in [
            "Ann",
            "  Bob  ",
            "Botany",
            "Bot 4 fan",
            "Zoë",
            "李雷",
            "Ann (yours)",
        ] {
            assert_eq!(clean_name(good).unwrap(), good.trim(), "{good:?}");
        }
        assert_eq!(clean_name(&"é".repeat(16)).unwrap().chars().count(), 16);
    }

    /// Issue 28 pt 8 and issue 31 pt 8: the web table takes names by the
    /// terminal's rule (16 columns, so 16 CJK characters are too wide), by
    /// Unicode properties (separators, format characters the old list
    /// missed, towers of marks) and by what a name looks like (a Cyrillic
    /// "о" does not make "Bot 1" or "(you)" a new name).
    #[test]
    fn names_follow_the_one_rule_by_columns_and_properties() {
        let problem = |name: &str| match clean_name(name).unwrap_err().detail {
            Some(Detail::Name { problem }) => problem,
            other => panic!("{name:?}: {other:?}"),
        };
        assert_eq!(problem(&"漢".repeat(16)), NameProblem::TooLong);
        assert_eq!(problem(&"a".repeat(17)), NameProblem::TooLong);
        assert_eq!(clean_name(&"漢".repeat(8)).unwrap(), "漢".repeat(8));
        for hidden in [
            "Ann\u{2028}Bob",
            "Ann\u{2029}",
            "\u{1D173}",
            "\u{13430}",
            "\u{0600}",
            "Ann\u{E000}",
            "Ann\u{0378}",
        ] {
            assert_eq!(problem(hidden), NameProblem::Invisible, "{hidden:?}");
        }
        assert_eq!(
            problem(&format!("a{}", "\u{0301}".repeat(23))),
            NameProblem::Marks
        );
        assert_eq!(problem("B\u{043E}t 1"), NameProblem::BotName);
        assert_eq!(problem("\u{0412}ot 1"), NameProblem::BotName);
        assert_eq!(problem("Bot I"), NameProblem::BotName);
        assert_eq!(problem("Ann (y\u{043E}u)"), NameProblem::You);
        assert_eq!(problem("Ann (t\u{00FA})"), NameProblem::You);
        assert_eq!(problem("Ann (tu\u{0301})"), NameProblem::You);
        for good in [
            "Zoë",
            "Nguyễn Văn",
            "Ann (yours)",
            "Botany",
            "Dmitri Иванов",
        ] {
            assert_eq!(clean_name(good).unwrap(), good, "{good:?}");
        }
    }

    #[test]
    fn chat_lines_are_one_short_visible_line() {
        for bad in [
            "",
            "   ",
            "\u{200B}\u{200B}\u{FEFF}",
            "\u{202E}\u{2066}",
            "\u{2800}\u{3164}",
            "two\nlines",
            "a\ttab",
            "bell\u{7}",
            "\u{85}next line",
            "two\u{2028}lines",
            "two\u{2029}paragraphs",
            "\u{1D173}\u{13430}\u{0600}",
        ] {
            assert_eq!(
                clean_chat(bad).unwrap_err().code,
                ErrorCode::Invalid,
                "{bad:?}"
            );
        }
        assert!(clean_chat(&"x".repeat(MAX_CHAT_CHARS + 1)).is_err());
        assert_eq!(
            clean_chat(&"é".repeat(MAX_CHAT_CHARS))
                .unwrap()
                .chars()
                .count(),
            MAX_CHAT_CHARS
        );
        // Bidi and zero-width characters go; what they hid or turned stays.
        assert_eq!(clean_chat("\u{202E}gg wp").unwrap(), "gg wp");
        // An emoji's joiners and selectors stay: one picture, not three.
        let family = "gg 👨\u{200D}👩\u{200D}👧 ❤\u{FE0F}";
        assert_eq!(clean_chat(family).unwrap(), family);
        assert_eq!(clean_chat("g\u{200D}g").unwrap(), "gg");
        assert_eq!(clean_chat("  ni\u{200B}ce  ").unwrap(), "nice");
        assert_eq!(
            clean_chat("\u{2764}\u{FE0F} Zoë 李雷").unwrap(),
            "\u{2764}\u{FE0F} Zoë 李雷"
        );
        // A tower of marks keeps four of them.
        let tower = format!("a{}b", "\u{0301}".repeat(40));
        assert_eq!(
            clean_chat(&tower).unwrap(),
            format!("a{}b", "\u{0301}".repeat(4))
        );
    }

    #[test]
    fn nested_house_rules_are_bounded_like_top_level_settings() {
        for bad in [
            r#"{"rules":{"final_pot_rounds":4294967295}}"#,
            r#"{"rules":{"starting_chips":4294967295}}"#,
            r#"{"rules":{"bet_limit":4294967295}}"#,
            r#"{"rules":{"deals":1000000000}}"#,
            r#"{"rules":{"ante":4294967295}}"#,
            r#"{"rules":{"max_raises":4294967295}}"#,
            r#"{"deals":1001}"#,
            r#"{"starting_chips":1000001}"#,
            r#"{"game":"napalm","rules":{"tokens_to_win":1000000}}"#,
            r#"{"game":"napalm","tokens_to_win":101}"#,
            r#"{"game":"napalm","rules":{"max_hands":4294967295}}"#,
            r#"{"game":"napalm","rules":{"starting_chips":4294967295}}"#,
            r#"{"game":"napalm","rules":{"ante":101}}"#,
        ] {
            let req: CreateTable = serde_json::from_str(bad).unwrap();
            let err = req.settings().unwrap_err();
            assert_eq!(err.code, ErrorCode::Invalid, "{bad}");
            assert!(
                !err.message.contains("(E") && !err.message.contains("(P"),
                "{bad}: {err}"
            );
        }
        let largest: CreateTable = serde_json::from_str(
            r#"{"seats":9,"rules":{"starting_chips":1000000,"bet_limit":1000000,"final_pot_rounds":10,"deals":1000}}"#,
        )
        .unwrap();
        assert!(largest.settings().is_ok());
    }
}
