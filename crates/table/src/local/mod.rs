//! A table played on one device: the browser's offline game (solo against
//! bots, or pass-and-play), driven by its caller with no clock and no I/O.
//!
//! It writes the same frames as the server's table (`welcome`, `state`,
//! `update`, `hint`, `error`), from the same journal and frame writers, so
//! the web client draws it through the same path. The caller keeps time:
//! [`Local::next`] says what is due (chance is dealt at once; a bot's move
//! and a held part of a step come after a pause of the caller's choosing).
//! The randomness of step `k` comes from the game's seed and `k`
//! ([`step_rng`]), so a game resumed from its record goes on exactly as it
//! would have, and a saved game is a record with a `play` field, the same
//! file `tripoley play --save` writes.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tripoley_bots::{BotKind, BotOptions, Budget};
use tripoley_cards::{GameRng, seeded_rng};
use tripoley_engine::{InfoSet, Record, Rules, Seat, Step};
use tripoley_napalm::{NapalmRecord, NapalmStep};

use crate::frames::{self, Turn};
use crate::journal::Catch;
use crate::played::{Due, Played, TableStep, napalm_hint, napalm_move};
use crate::protocol::{
    ErrorBody, ErrorCode, GameKind, SeatInfo, SeatKind, TableInfo, TableSettings, TableStatus,
};

/// The invite code an offline table answers to in its frames.
pub const OFFLINE: &str = "offline";

/// What a hint may spend on this device: a fixed count of playouts, so the
/// same position gets the same hint on every device and build.
pub const HINT_PLAYOUTS: u32 = 2000;

/// The generator of step `k`'s randomness (chance, or a bot's choice) in a
/// game seeded with `seed`.
pub fn step_rng(seed: u64, step: usize) -> GameRng {
    seeded_rng(seed ^ (step as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// What a saved offline game needs besides its record (its `play` field).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocalMeta {
    /// Seeds chance and the bots ([`step_rng`]).
    pub seed: u64,
    /// A seat of a person on this device (the first, for the terminal).
    pub human: u8,
    /// The bot in each seat, `null` for a person's.
    pub bots: Vec<Option<BotKind>>,
    /// How the rules are called on screen.
    pub label: String,
    /// The language the game was played in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// The table's settings (the terminal has none: its record's rules are
    /// all it needs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<TableSettings>,
}

impl LocalMeta {
    /// The saved language, checked: an unknown one is refused, not guessed.
    pub fn language(&self) -> Result<Option<tripoley_i18n::Lang>, String> {
        self.lang
            .as_deref()
            .map(|code| {
                tripoley_i18n::Lang::parse(code)
                    .ok_or_else(|| format!("its language {code:?} is not one this version speaks"))
            })
            .transpose()
    }
}

/// What is due at a local table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A bot decides for this seat ([`Local::bot_acts`]), after a pause.
    Bot(Seat),
    /// The rest of a held step goes out ([`Local::release`]), after a pause.
    Held,
    /// A person on this device decides for this seat.
    Person(Seat),
    /// The game is over.
    Over,
}

/// A table played on one device.
pub struct Local {
    settings: TableSettings,
    meta: LocalMeta,
    played: Played,
}

fn invalid(message: impl Into<String>) -> ErrorBody {
    ErrorBody::new(ErrorCode::Invalid, message)
}

impl Local {
    /// A new game: `settings` (checked), the players' names, the bot of each
    /// seat (`None` for a person on this device) and the seed of chance.
    pub fn new(
        settings: TableSettings,
        names: Vec<String>,
        bots: Vec<Option<BotKind>>,
        seed: u64,
        lang: Option<String>,
    ) -> Result<Local, ErrorBody> {
        settings.check()?;
        if names.len() != usize::from(settings.seats) || bots.len() != names.len() {
            return Err(invalid("a name and a player for every seat"));
        }
        let human = bots
            .iter()
            .position(Option::is_none)
            .ok_or_else(|| invalid("an offline table needs a person on this device"))?
            as u8;
        let meta = LocalMeta {
            seed,
            human,
            bots,
            label: String::new(),
            lang,
            settings: Some(settings.clone()),
        };
        let played = Played::start(&settings, names)?;
        let mut table = Local {
            settings,
            meta,
            played,
        };
        table.deal_chance();
        Ok(table)
    }

    /// The next game at this table: the same settings, names and players,
    /// chance seeded with `seed`.
    pub fn again(&self, seed: u64) -> Result<Local, ErrorBody> {
        Local::new(
            self.settings.clone(),
            self.played.names().to_vec(),
            self.meta.bots.clone(),
            seed,
            self.meta.lang.clone(),
        )
    }

    /// A saved game (its record with a `play` field), replayed to where it
    /// stopped. A record saved by `tripoley play` resumes too.
    pub fn resume(saved: &str) -> Result<Local, ErrorBody> {
        let value: Value =
            serde_json::from_str(saved).map_err(|e| invalid(format!("not a saved game: {e}")))?;
        let meta: LocalMeta = value
            .get("play")
            .cloned()
            .ok_or_else(|| invalid("not a saved game: it has no \"play\" field"))
            .and_then(|p| {
                serde_json::from_value(p).map_err(|e| invalid(format!("not a saved game: {e}")))
            })?;
        let napalm = value.get("game").and_then(Value::as_str) == Some("napalm");
        let bad = |e: String| invalid(format!("not a saved game: {e}"));
        let (steps, rules, names): (Vec<TableStep>, _, _) = if napalm {
            let record: NapalmRecord =
                serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
            (
                record.steps.into_iter().map(TableStep::Napalm).collect(),
                (GameKind::Napalm, Rules::default(), Some(record.rules)),
                record.names,
            )
        } else {
            let record = Record::from_json(saved).map_err(|e| bad(e.to_string()))?;
            (
                record.steps.into_iter().map(TableStep::Tripoley).collect(),
                (GameKind::Tripoley, record.rules, None),
                record.names,
            )
        };
        // A terminal's saved game has no table settings: its record's rules.
        let settings = meta.settings.clone().unwrap_or_else(|| {
            let (game, rules, napalm) = rules;
            TableSettings {
                rules,
                seats: u8::try_from(names.len()).unwrap_or(u8::MAX),
                turn_seconds: 0,
                bot: BotKind::Heuristic,
                seat_bots: std::collections::BTreeMap::default(),
                game,
                napalm,
                public: false,
            }
        });
        settings.check()?;
        if meta.bots.len() != usize::from(settings.seats) || meta.bots.iter().all(Option::is_some) {
            return Err(invalid(
                "not a saved game: its seats do not match its players",
            ));
        }
        let replay = |settings: &TableSettings| {
            let mut played = Played::start(settings, names)?;
            played.replay(steps).map_err(invalid)?;
            Ok::<_, ErrorBody>(played)
        };
        let played = replay(&settings)
            .map_err(|e| invalid(format!("the saved game does not replay: {}", e.message)))?;
        let mut table = Local {
            settings,
            meta,
            played,
        };
        table.deal_chance();
        Ok(table)
    }

    /// The event number: entries in the log after the start's.
    pub fn n(&self) -> u64 {
        self.played.n()
    }

    /// Whether a person on this device plays `seat`.
    pub fn is_person(&self, seat: Seat) -> bool {
        self.meta
            .bots
            .get(usize::from(seat))
            .is_some_and(Option::is_none)
    }

    /// What is due now (chance is dealt as soon as it is due).
    pub fn next(&self) -> Next {
        match self.played.due() {
            Due::Held => Next::Held,
            Due::Decide(seat) => self.decider(seat),
            Due::Chance | Due::Over => Next::Over,
        }
    }

    fn decider(&self, seat: Seat) -> Next {
        if self.is_person(seat) {
            Next::Person(seat)
        } else {
            Next::Bot(seat)
        }
    }

    /// Deals chance while the game waits for it.
    fn deal_chance(&mut self) {
        while let Some(step) = self
            .played
            .chance(&mut step_rng(self.meta.seed, self.played.steps()))
        {
            if self.played.apply(step).is_err() {
                return;
            }
        }
    }

    /// A person on this device acts for `seat`: `action` as the protocol's
    /// `act` message carries it; `n`, the event it answers (refused when the
    /// game has moved on).
    pub fn act(&mut self, seat: Seat, action: &Value, n: Option<u64>) -> Result<(), ErrorBody> {
        if !self.is_person(seat) {
            return Err(ErrorBody::new(
                ErrorCode::WrongSeat,
                format!("seat {seat} is not played on this device"),
            ));
        }
        if let Some(k) = n
            && k != self.n()
        {
            return Err(ErrorBody::stale(k, self.n()));
        }
        let bad = |e: serde_json::Error| invalid(format!("not an action: {e}"));
        let step = match self.settings.game {
            GameKind::Tripoley => TableStep::Tripoley(Step::Act {
                seat,
                action: serde_json::from_value(action.clone()).map_err(bad)?,
            }),
            GameKind::Napalm => TableStep::Napalm(NapalmStep::Act {
                seat,
                action: serde_json::from_value(action.clone()).map_err(bad)?,
            }),
        };
        self.played.check(&step)?;
        self.played.apply(step)?;
        self.deal_chance();
        Ok(())
    }

    /// The bot of the seat to decide acts; false if no bot is to decide.
    pub fn bot_acts(&mut self) -> bool {
        let Next::Bot(seat) = self.next() else {
            return false;
        };
        let kind = self.meta.bots[usize::from(seat)].unwrap_or(BotKind::Heuristic);
        let mut rng = step_rng(self.meta.seed, self.played.steps());
        let step = if let Some(game) = self.played.tripoley() {
            // Playouts only, never the clock: the same move on every
            // device, however fast.
            let options = BotOptions {
                budget: Budget::playouts(Budget::DEFAULT.playouts),
                ..BotOptions::default()
            };
            let action = kind
                .make_with(game.rules(), &options)
                .act_in(&InfoSet::new(game, seat), &mut rng);
            TableStep::Tripoley(Step::Act { seat, action })
        } else if let Some(game) = self.played.napalm() {
            let action = napalm_move(kind, &game.view(Some(seat)), &mut rng);
            TableStep::Napalm(NapalmStep::Act { seat, action })
        } else {
            return false;
        };
        let acted = self
            .played
            .check(&step)
            .and_then(|()| self.played.apply(step))
            .is_ok();
        self.deal_chance();
        acted
    }

    /// Sends the next held part of the last step; false if none was held.
    pub fn release(&mut self) -> bool {
        if !self.played.release() {
            return false;
        }
        if self.next() != Next::Held {
            self.deal_chance();
        }
        true
    }

    /// What the expert would do for `seat`, a person to decide now.
    pub fn hint(&self, seat: Seat) -> Result<Value, ErrorBody> {
        if self.next() != Next::Person(seat) {
            return Err(ErrorBody::new(
                ErrorCode::NotYourTurn,
                "a hint is for your own turn",
            ));
        }
        let budget = Budget::playouts(HINT_PLAYOUTS);
        let action = if let Some(game) = self.played.tripoley() {
            serde_json::to_value(tripoley_bots::hint(
                &InfoSet::new(game, seat),
                game.rules(),
                budget,
            ))
        } else if let Some(game) = self.played.napalm() {
            serde_json::to_value(napalm_hint(game, seat))
        } else {
            unreachable!("a game is Tripoley or Napalm")
        };
        Ok(action.expect("actions serialise"))
    }

    /// The table as everyone sees it.
    pub fn info(&self) -> TableInfo {
        let over = self.next() == Next::Over;
        let names = self.played.names();
        TableInfo {
            invite: OFFLINE.to_owned(),
            status: if over {
                TableStatus::Finished
            } else {
                TableStatus::Playing
            },
            settings: self.settings.clone(),
            seats: self
                .meta
                .bots
                .iter()
                .zip(names)
                .enumerate()
                .map(|(i, (bot, name))| SeatInfo {
                    seat: i as Seat,
                    name: Some(name.clone()),
                    kind: if bot.is_some() {
                        SeatKind::Bot
                    } else {
                        SeatKind::Human
                    },
                    connected: bot.is_none(),
                    bot_playing: bot.is_some(),
                    bot: *bot,
                })
                .collect(),
            spectators: 0,
        }
    }

    /// Writes `"view":…,"turn":…` for `viewer`: nobody's turn while a
    /// step is held.
    fn write_view_and_turn(&self, viewer: Option<Seat>, out: &mut Vec<u8>) {
        let held = self.next() == Next::Held;
        self.played.write_view_and_turn(viewer, out, |seat| {
            (!held).then(|| Turn {
                seat,
                ms: None,
                bot: !self.is_person(seat),
            })
        });
    }

    /// The `welcome` for `viewer` (a seat on this device).
    pub fn welcome(&self, viewer: Option<Seat>) -> String {
        frames::welcome(self.n(), viewer, true, &self.info())
    }

    /// The full `state` for `viewer`: its view, the current deal's log.
    pub fn state(&self, viewer: Option<Seat>) -> String {
        let (head, tail) = frames::state_parts(self.n(), &self.info(), |out| {
            self.write_view_and_turn(viewer, out);
        });
        Catch::state(
            self.played.journal(),
            viewer,
            self.played.deal_span(),
            head,
            tail,
        )
        .frames()
        .pop()
        .expect("a state is one frame")
    }

    /// The `update` of the last entry of the log for `viewer`.
    pub fn update(&self, viewer: Option<Seat>) -> String {
        let events = self
            .played
            .journal()
            .step(self.played.log_len() - 1)
            .unwrap_or_default();
        frames::update(
            self.n(),
            frames::seen_by(&events, viewer),
            |out| self.write_view_and_turn(viewer, out),
            false,
        )
    }

    /// The game so far as a saved game: its record with a `play` field.
    pub fn saved(&self) -> String {
        let mut value = self.played.record_json();
        if let Value::Object(m) = &mut value {
            m.insert(
                "play".into(),
                serde_json::to_value(&self.meta).expect("the play field serialises"),
            );
        }
        serde_json::to_string(&value).expect("values serialise")
    }
}

#[cfg(test)]
mod tests;
