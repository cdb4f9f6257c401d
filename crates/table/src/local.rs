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

use std::collections::VecDeque;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tripoley_bots::{BotKind, BotOptions, Budget};
use tripoley_cards::{Deck, GameRng, seeded_rng};
use tripoley_engine::{
    Action, DealChance, Decision, Event, Game, InfoSet, Pending, Record, Rules, Seat, Step,
};
use tripoley_napalm::{
    HeuristicNapalmBot, NapalmBot, NapalmGame, NapalmRecord, NapalmStep, RandomNapalmBot,
};

use crate::frames::{self, Turn};
use crate::hold;
use crate::journal::{Catch, Journal};
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

/// The game being played, in either game. One per table: the size of the
/// larger variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
enum Played {
    Tripoley {
        game: Game,
        record: Record,
        /// Parts of the last step not yet shown (M9b), with the game each shows.
        held: VecDeque<(Game, Vec<Event>)>,
        log: Vec<Vec<Event>>,
    },
    Napalm {
        game: NapalmGame,
        record: NapalmRecord,
        log: Vec<Vec<tripoley_napalm::Event>>,
    },
}

/// A table played on one device.
pub struct Local {
    settings: TableSettings,
    meta: LocalMeta,
    played: Played,
    journal: Arc<Journal>,
    /// The log index where the current deal's entries begin.
    deal_start: usize,
    /// Whether the last step was decided by the table for a person.
    auto: bool,
}

fn invalid(message: impl Into<String>) -> ErrorBody {
    ErrorBody::new(ErrorCode::Invalid, message)
}

fn illegal(e: &impl ToString, over: bool, not_yours: bool) -> ErrorBody {
    let code = if over {
        ErrorCode::GameOver
    } else if not_yours {
        ErrorCode::NotYourTurn
    } else {
        ErrorCode::Illegal
    };
    ErrorBody::new(code, e.to_string())
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
        let played = match settings.game {
            GameKind::Tripoley => Played::Tripoley {
                game: Game::new(settings.rules.clone(), names.len())
                    .map_err(|e| invalid(e.to_string()))?,
                record: Record::new(settings.rules.clone(), names),
                held: VecDeque::new(),
                log: Vec::new(),
            },
            GameKind::Napalm => {
                let rules = settings.napalm.clone().unwrap_or_default();
                Played::Napalm {
                    game: NapalmGame::new(rules.clone(), names.len())
                        .map_err(|e| invalid(e.to_string()))?,
                    record: NapalmRecord::new(rules, names),
                    log: Vec::new(),
                }
            }
        };
        let mut table = Local {
            settings,
            meta,
            played,
            journal: Arc::default(),
            deal_start: 0,
            auto: false,
        };
        table.begin(&[]).map_err(invalid)?;
        Ok(table)
    }

    /// The next game at this table: the same settings, names and players,
    /// chance seeded with `seed`.
    pub fn again(&self, seed: u64) -> Result<Local, ErrorBody> {
        let names = match &self.played {
            Played::Tripoley { record, .. } => record.names.clone(),
            Played::Napalm { record, .. } => record.names.clone(),
        };
        Local::new(
            self.settings.clone(),
            names,
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
        // Each game starts afresh; `begin` replays its steps.
        let (played, steps, rules, names) = if napalm {
            let record: NapalmRecord =
                serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
            let steps: Vec<_> = record.steps.iter().cloned().map(Replayed::Napalm).collect();
            let played = Played::Napalm {
                game: NapalmGame::new(record.rules.clone(), record.names.len())
                    .map_err(|e| invalid(e.to_string()))?,
                record: NapalmRecord {
                    steps: Vec::new(),
                    ..record.clone()
                },
                log: Vec::new(),
            };
            (
                played,
                steps,
                (GameKind::Napalm, Rules::default(), Some(record.rules)),
                record.names,
            )
        } else {
            let record = Record::from_json(saved).map_err(|e| bad(e.to_string()))?;
            let steps = record
                .steps
                .iter()
                .cloned()
                .map(Replayed::Tripoley)
                .collect();
            let played = Played::Tripoley {
                game: Game::new(record.rules.clone(), record.names.len())
                    .map_err(|e| invalid(e.to_string()))?,
                record: Record {
                    steps: Vec::new(),
                    ..record.clone()
                },
                held: VecDeque::new(),
                log: Vec::new(),
            };
            (
                played,
                steps,
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
        let mut table = Local {
            settings,
            meta,
            played,
            journal: Arc::default(),
            deal_start: 0,
            auto: false,
        };
        table
            .begin(&steps)
            .map_err(|e| invalid(format!("the saved game does not replay: {e}")))?;
        Ok(table)
    }

    /// Starts the game and replays `steps` (a resumed game's), each logged
    /// as it was shown live; then deals whatever chance is due.
    fn begin(&mut self, steps: &[Replayed]) -> Result<(), String> {
        match &mut self.played {
            Played::Tripoley {
                game, record, log, ..
            } => {
                let mut ev = Vec::new();
                *game = record.start(&mut ev).map_err(|e| e.to_string())?;
                log.push(ev);
            }
            Played::Napalm { game, record, log } => {
                let mut ev = Vec::new();
                *game = NapalmGame::start(record.rules.clone(), record.names.len(), &mut ev)
                    .map_err(|e| e.to_string())?;
                log.push(ev);
            }
        }
        self.sync_journal();
        for (i, step) in steps.iter().enumerate() {
            let done = match step {
                Replayed::Tripoley(s) => self.tripoley_step(s.clone(), false),
                Replayed::Napalm(s) => self.napalm_step(s.clone(), false),
            };
            done.map_err(|e| format!("step {i}: {e}"))?;
            while self.release() {}
        }
        self.deal_chance();
        Ok(())
    }

    /// The event number: entries in the log after the start's.
    pub fn n(&self) -> u64 {
        self.log_len() as u64 - 1
    }

    fn log_len(&self) -> usize {
        match &self.played {
            Played::Tripoley { log, .. } => log.len(),
            Played::Napalm { log, .. } => log.len(),
        }
    }

    /// Whether a person on this device plays `seat`.
    pub fn is_person(&self, seat: Seat) -> bool {
        self.meta
            .bots
            .get(usize::from(seat))
            .is_some_and(Option::is_none)
    }

    /// What is due now.
    pub fn next(&self) -> Next {
        match &self.played {
            Played::Tripoley { game, held, .. } => {
                if !held.is_empty() {
                    return Next::Held;
                }
                match game.pending() {
                    Pending::Decide { seat, .. } => self.decider(seat),
                    // Chance is dealt as soon as it is due.
                    Pending::Chance(_) | Pending::GameOver => Next::Over,
                }
            }
            Played::Napalm { game, .. } => match game.pending() {
                tripoley_napalm::Pending::Decide { seat, .. } => self.decider(seat),
                _ => Next::Over,
            },
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
        loop {
            let k = self.steps();
            let step = match &self.played {
                Played::Tripoley { game, held, .. } if held.is_empty() => match game.pending() {
                    Pending::Chance(_) => Replayed::Tripoley(Step::Chance(DealChance::random(
                        game.rules(),
                        &mut step_rng(self.meta.seed, k),
                    ))),
                    _ => return,
                },
                Played::Napalm { game, .. } if game.pending() == tripoley_napalm::Pending::Deck => {
                    Replayed::Napalm(NapalmStep::Deck(Deck::shuffled(&mut step_rng(
                        self.meta.seed,
                        k,
                    ))))
                }
                _ => return,
            };
            let dealt = match step {
                Replayed::Tripoley(s) => self.tripoley_step(s, false),
                Replayed::Napalm(s) => self.napalm_step(s, false),
            };
            if dealt.is_err() {
                return;
            }
        }
    }

    /// Steps in the record.
    fn steps(&self) -> usize {
        match &self.played {
            Played::Tripoley { record, .. } => record.steps.len(),
            Played::Napalm { record, .. } => record.steps.len(),
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
            return Err(ErrorBody::new(
                ErrorCode::Stale,
                format!(
                    "this answers event {k}, but the game is at event {}",
                    self.n()
                ),
            ));
        }
        if self.next() == Next::Held {
            return Err(ErrorBody::new(ErrorCode::NotYourTurn, "wait for the table"));
        }
        let bad = |e: serde_json::Error| invalid(format!("not an action: {e}"));
        let done = match &self.played {
            Played::Tripoley { .. } => {
                let action: Action = serde_json::from_value(action.clone()).map_err(bad)?;
                self.tripoley_step(Step::Act { seat, action }, false)
            }
            Played::Napalm { .. } => {
                let action: tripoley_napalm::Action =
                    serde_json::from_value(action.clone()).map_err(bad)?;
                self.napalm_step(NapalmStep::Act { seat, action }, false)
            }
        };
        done?;
        self.deal_chance();
        Ok(())
    }

    /// The bot of the seat to decide acts; false if no bot is to decide.
    pub fn bot_acts(&mut self) -> bool {
        let Next::Bot(seat) = self.next() else {
            return false;
        };
        let kind = self.meta.bots[usize::from(seat)].unwrap_or(BotKind::Heuristic);
        let mut rng = step_rng(self.meta.seed, self.steps());
        let done = match &self.played {
            Played::Tripoley { game, .. } => {
                // Playouts only, never the clock: the same move on every
                // device, however fast.
                let options = BotOptions {
                    budget: Budget::playouts(Budget::DEFAULT.playouts),
                    ..BotOptions::default()
                };
                let action = kind
                    .make_with(game.rules(), &options)
                    .act_in(&InfoSet::new(game, seat), &mut rng);
                self.tripoley_step(Step::Act { seat, action }, false)
            }
            Played::Napalm { game, .. } => {
                let view = game.view(Some(seat));
                let action = match kind {
                    BotKind::Random => RandomNapalmBot.act(&view, &mut rng),
                    // Napalm has no search bot: the heuristic plays for it.
                    BotKind::Heuristic | BotKind::Expert => HeuristicNapalmBot.act(&view, &mut rng),
                };
                self.napalm_step(NapalmStep::Act { seat, action }, false)
            }
        };
        let acted = done.is_ok();
        self.deal_chance();
        acted
    }

    /// Sends the next held part of the last step; false if none was held.
    pub fn release(&mut self) -> bool {
        let Played::Tripoley {
            game, held, log, ..
        } = &mut self.played
        else {
            return false;
        };
        let Some((shown, part)) = held.pop_front() else {
            return false;
        };
        *game = shown;
        if part.iter().any(|e| matches!(e, Event::DealEnded { .. })) {
            self.deal_start = log.len();
        }
        log.push(part);
        self.sync_journal();
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
        Ok(match &self.played {
            Played::Tripoley { game, .. } => {
                let action = tripoley_bots::hint(&InfoSet::new(game, seat), game.rules(), budget);
                serde_json::to_value(action).expect("actions serialise")
            }
            Played::Napalm { game, .. } => {
                // The heuristic ignores its generator: the same position
                // gets the same hint.
                let action = HeuristicNapalmBot.act(&game.view(Some(seat)), &mut seeded_rng(0));
                serde_json::to_value(action).expect("actions serialise")
            }
        })
    }

    fn tripoley_step(&mut self, step: Step, auto: bool) -> Result<(), ErrorBody> {
        let Played::Tripoley {
            game,
            record,
            held,
            log,
        } = &mut self.played
        else {
            return Err(invalid("this is a Napalm table"));
        };
        if let Step::Act { seat, action } = &step {
            game.check(*seat, *action).map_err(|e| {
                illegal(
                    &e,
                    game.pending() == Pending::GameOver,
                    matches!(e, tripoley_engine::IllegalAction::NotYourTurn(_)),
                )
            })?;
        }
        let stops = hold::stops(game, &step);
        // Who follows under M9b is hidden: nobody is told the table decided.
        self.auto = auto
            && !matches!(
                game.pending(),
                Pending::Decide {
                    decision: Decision::Follow { .. },
                    ..
                }
            );
        let mut ev = Vec::new();
        game.step(&step, &mut ev)
            .map_err(|e| illegal(&e, false, false))?;
        record.steps.push(step);
        let mut parts = hold::parts(ev, stops, game.clone());
        let (shown, first) = parts.pop_front().expect("a first part");
        *game = shown;
        *held = parts;
        if first.iter().any(|e| matches!(e, Event::DealEnded { .. })) {
            self.deal_start = log.len();
        }
        log.push(first);
        self.sync_journal();
        Ok(())
    }

    fn napalm_step(&mut self, step: NapalmStep, auto: bool) -> Result<(), ErrorBody> {
        let Played::Napalm { game, record, log } = &mut self.played else {
            return Err(invalid("this is a Tripoley table"));
        };
        let ev = match &step {
            NapalmStep::Deck(d) => game.deal(d),
            NapalmStep::Act { seat, action } => game.apply(*seat, *action),
        }
        .map_err(|e| {
            illegal(
                &e,
                game.is_over(),
                matches!(e, tripoley_napalm::IllegalAction::NotYourTurn(_)),
            )
        })?;
        self.auto = auto;
        record.steps.push(step);
        if ev
            .iter()
            .any(|e| matches!(e, tripoley_napalm::Event::HandEnded { .. }))
        {
            self.deal_start = log.len();
        }
        log.push(ev);
        self.sync_journal();
        Ok(())
    }

    /// Writes the journal's entries for the log's entries it lacks.
    fn sync_journal(&mut self) {
        let viewers = frames::viewers(usize::from(self.settings.seats));
        for k in self.journal.len()..self.log_len() {
            let entries = match &self.played {
                Played::Tripoley { log, .. } => frames::entries(
                    &log[k],
                    &viewers,
                    |e, v| e.audience().includes(v),
                    |e| matches!(e, Event::DealEnded { .. }),
                ),
                Played::Napalm { log, .. } => frames::entries(
                    &log[k],
                    &viewers,
                    |e, v| e.audience().includes(v),
                    |e| matches!(e, tripoley_napalm::Event::HandEnded { .. }),
                ),
            };
            self.journal.push(entries);
        }
    }

    /// The table as everyone sees it.
    pub fn info(&self) -> TableInfo {
        let over = self.next() == Next::Over;
        let names = match &self.played {
            Played::Tripoley { record, .. } => &record.names,
            Played::Napalm { record, .. } => &record.names,
        };
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

    /// The public turn as `viewer` may see it: nobody's while a step is
    /// held, and none for a decision the viewer may not know about (M9b).
    fn turn(&self, viewer: Option<Seat>) -> Option<Turn> {
        let seat = match self.next() {
            Next::Bot(s) | Next::Person(s) => s,
            Next::Held | Next::Over => return None,
        };
        if let Played::Tripoley { game, .. } = &self.played
            && game.view(viewer).to_act != Some(seat)
        {
            return None;
        }
        Some(Turn {
            seat,
            ms: None,
            bot: !self.is_person(seat),
        })
    }

    fn write_view_and_turn(&self, viewer: Option<Seat>, out: &mut Vec<u8>) {
        let turn = self.turn(viewer);
        match &self.played {
            Played::Tripoley { game, .. } => {
                frames::write_view_and_turn(out, &Some(game.view(viewer)), turn.as_ref());
            }
            Played::Napalm { game, .. } => {
                frames::write_view_and_turn(out, &game.view(viewer), turn.as_ref());
            }
        }
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
        let steps = (self.deal_start, self.log_len());
        Catch::state(&self.journal, viewer, steps, head, tail)
            .frames()
            .pop()
            .expect("a state is one frame")
    }

    /// The `update` of the last entry of the log for `viewer`.
    pub fn update(&self, viewer: Option<Seat>) -> String {
        let events = self.journal.step(self.log_len() - 1).unwrap_or_default();
        frames::update(
            self.n(),
            frames::seen_by(&events, viewer),
            |out| self.write_view_and_turn(viewer, out),
            self.auto,
        )
    }

    /// The game so far as a saved game: its record with a `play` field.
    pub fn saved(&self) -> String {
        let mut value = match &self.played {
            Played::Tripoley { record, .. } => serde_json::to_value(record),
            Played::Napalm { record, .. } => serde_json::to_value(record),
        }
        .expect("records serialise");
        if let Value::Object(m) = &mut value {
            m.insert(
                "play".into(),
                serde_json::to_value(&self.meta).expect("the play field serialises"),
            );
        }
        serde_json::to_string(&value).expect("values serialise")
    }
}

/// A step of either game, replayed from a saved record.
enum Replayed {
    Tripoley(Step),
    Napalm(NapalmStep),
}

#[cfg(test)]
mod tests;
