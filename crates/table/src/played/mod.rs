//! A started game at a table, in either game, behind one interface: the
//! game, its record, its event log (an entry per shown part of a step) and
//! the journal of what each viewer may see of each entry.
//!
//! The server's table actor and the device's [`Local`](crate::Local) table
//! both hold one. Each keeps its own clock and its own chance: the caller
//! asks what is [`Due`], checks a step ([`Played::check`]), stores it if it
//! stores anything, then applies it ([`Played::apply`]); a step whose stop
//! is held back (M9b, [`crate::hold`]) shows its later parts one by one at
//! [`Played::release`].

use std::collections::VecDeque;
use std::sync::Arc;

use serde::Serialize;
use tripoley_bots::BotKind;
use tripoley_cards::{Card, Deck, GameRng};
use tripoley_engine::{
    Action, DealChance, Decision, Event, Game, IllegalAction, Pending, Record, Seat, Step,
};
use tripoley_game::Bot as _;
use tripoley_napalm::{
    HeuristicNapalmBot, NapalmGame, NapalmRecord, NapalmStep, NapalmView, RandomNapalmBot,
};

use crate::frames::{self, Turn};
use crate::hold;
use crate::journal::Journal;
use crate::protocol::{ErrorBody, ErrorCode, GameKind, TableSettings};
use crate::shared_view::SharedView;

/// A step of either game, as its record keeps it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum TableStep {
    /// A Tripoley step.
    Tripoley(Step),
    /// A Napalm step.
    Napalm(NapalmStep),
}

/// What a started game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// Chance: a deal, or a deck ([`Played::chance`]).
    Chance,
    /// This seat decides.
    Decide(Seat),
    /// The rest of a held step ([`Played::release`]).
    Held,
    /// Nothing: the game is over.
    Over,
}

/// The game itself, in either game. One per table: the size of the larger
/// variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
enum Kind {
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

/// A started game at a table.
pub struct Played {
    kind: Kind,
    /// Each entry of the log serialised, with who may see each event;
    /// shared with the server's connections, which write catch-ups from it.
    journal: Arc<Journal>,
    /// The log index where the current deal's entries begin.
    deal_start: usize,
    seats: usize,
}

/// An engine's refusal as the player is told it.
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

fn tripoley_illegal(e: &IllegalAction) -> ErrorBody {
    illegal(
        e,
        matches!(e, IllegalAction::GameOver),
        matches!(e, IllegalAction::NotYourTurn(_)),
    )
}

fn napalm_illegal(e: &tripoley_napalm::IllegalAction) -> ErrorBody {
    illegal(
        e,
        matches!(e, tripoley_napalm::IllegalAction::GameOver),
        matches!(e, tripoley_napalm::IllegalAction::NotYourTurn(_)),
    )
}

/// A step of the other game than the table's.
fn wrong_game(kind: GameKind) -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Illegal,
        match kind {
            GameKind::Tripoley => {
                "this is a Tripoley table: yes, no, challenge and decline are Napalm actions"
            }
            GameKind::Napalm => {
                "this is a Napalm table: the actions are yes, no, challenge and decline"
            }
        },
    )
}

/// A Napalm bot's move: Napalm has no search bot, so the heuristic plays
/// for the expert.
pub fn napalm_move(kind: BotKind, view: &NapalmView, rng: &mut GameRng) -> tripoley_napalm::Action {
    match kind {
        BotKind::Random => RandomNapalmBot.act(view, rng),
        BotKind::Heuristic | BotKind::Expert => HeuristicNapalmBot.act(view, rng),
    }
}

/// The hint at a Napalm table: the heuristic's move, which ignores its
/// generator, so the same position gets the same hint.
pub fn napalm_hint(game: &NapalmGame, seat: Seat) -> tripoley_napalm::Action {
    HeuristicNapalmBot.act(&game.view(Some(seat)), &mut tripoley_cards::seeded_rng(0))
}

impl Played {
    /// Starts the game of a table with these settings, for these players.
    pub fn start(settings: &TableSettings, names: Vec<String>) -> Result<Played, ErrorBody> {
        let invalid = |e: String| ErrorBody::new(ErrorCode::Invalid, e);
        let seats = names.len();
        let kind = match settings.game {
            GameKind::Tripoley => {
                let record = Record::new(settings.rules.clone(), names);
                let mut ev = Vec::new();
                let game = record.start(&mut ev).map_err(|e| invalid(e.to_string()))?;
                Kind::Tripoley {
                    game,
                    record,
                    held: VecDeque::new(),
                    log: vec![ev],
                }
            }
            GameKind::Napalm => {
                let rules = settings.napalm.clone().unwrap_or_default();
                let mut ev = Vec::new();
                let game = NapalmGame::start(rules.clone(), seats, &mut ev)
                    .map_err(|e| invalid(e.to_string()))?;
                Kind::Napalm {
                    game,
                    record: NapalmRecord::new(rules, names),
                    log: vec![ev],
                }
            }
        };
        let mut played = Played {
            kind,
            journal: Arc::default(),
            deal_start: 0,
            seats,
        };
        played.sync_journal();
        Ok(played)
    }

    /// Applies a stored game's steps, each logged as it was shown live
    /// (every held part at once), but the last: its stop stays held, a
    /// withhold's whole step with it ([`Played::hold`]), for the caller to
    /// show when a window from now ends. A table restarted inside a window
    /// cannot know whether its stop was shown, so it shows it again a
    /// window later, withheld or at a card in the spare alike (issue 49).
    /// The message says which step failed.
    pub fn replay(&mut self, steps: impl IntoIterator<Item = TableStep>) -> Result<(), String> {
        let mut steps = steps.into_iter().enumerate().peekable();
        while let Some((i, step)) = steps.next() {
            let last = steps.peek().is_none();
            let withhold = matches!(
                step,
                TableStep::Tripoley(Step::Act {
                    action: Action::Withhold,
                    ..
                })
            );
            self.check(&step)
                .and_then(|()| {
                    if last && withhold {
                        self.hold(step)
                    } else {
                        self.apply(step)
                    }
                })
                .map_err(|e| format!("step {i}: {}", e.message))?;
            if !last {
                while self.release() {}
            }
        }
        Ok(())
    }

    /// Which game this is.
    pub fn game_kind(&self) -> GameKind {
        match self.kind {
            Kind::Tripoley { .. } => GameKind::Tripoley,
            Kind::Napalm { .. } => GameKind::Napalm,
        }
    }

    /// What the game waits for.
    pub fn due(&self) -> Due {
        match &self.kind {
            Kind::Tripoley { game, held, .. } => {
                if !held.is_empty() {
                    return Due::Held;
                }
                match game.pending() {
                    Pending::Decide { seat, .. } => Due::Decide(seat),
                    Pending::Chance(_) => Due::Chance,
                    Pending::GameOver => Due::Over,
                }
            }
            Kind::Napalm { game, .. } => match game.pending() {
                tripoley_napalm::Pending::Decide { seat, .. } => Due::Decide(seat),
                tripoley_napalm::Pending::Deck => Due::Chance,
                tripoley_napalm::Pending::GameOver => Due::Over,
            },
        }
    }

    /// The chance step due now, drawn from `rng`; `None` if none is due.
    pub fn chance(&self, rng: &mut GameRng) -> Option<TableStep> {
        if self.due() != Due::Chance {
            return None;
        }
        Some(match &self.kind {
            Kind::Tripoley { game, .. } => {
                TableStep::Tripoley(Step::Chance(DealChance::random(game.rules(), rng)))
            }
            Kind::Napalm { .. } => TableStep::Napalm(NapalmStep::Deck(Deck::shuffled(rng))),
        })
    }

    /// Whether `step` may be applied now.
    ///
    /// While a step is held, an action is checked against the game its
    /// viewers see, held short of the stop, which takes none (tested): its
    /// refusal reads as at any decision that is not the actor's.
    pub fn check(&self, step: &TableStep) -> Result<(), ErrorBody> {
        match (&self.kind, step) {
            // A withhold held whole shows the game before it, which would
            // take its seat's answer again.
            (Kind::Tripoley { held, .. }, TableStep::Tripoley(Step::Act { seat, .. }))
                if !held.is_empty() =>
            {
                Err(tripoley_illegal(&IllegalAction::NotYourTurn(*seat)))
            }
            (Kind::Tripoley { game, .. }, TableStep::Tripoley(Step::Act { seat, action })) => {
                game.check(*seat, *action).map_err(|e| tripoley_illegal(&e))
            }
            (Kind::Napalm { game, .. }, TableStep::Napalm(NapalmStep::Act { seat, action })) => {
                game.check(*seat, *action).map_err(|e| napalm_illegal(&e))
            }
            (Kind::Tripoley { .. }, TableStep::Tripoley(_))
            | (Kind::Napalm { .. }, TableStep::Napalm(_)) => Ok(()),
            _ => Err(wrong_game(self.game_kind())),
        }
    }

    /// Whether the decision due is one nobody but its seat may know about
    /// (a follow under M9b): nobody is told the table decided it.
    pub fn decision_is_secret(&self) -> bool {
        matches!(
            &self.kind,
            Kind::Tripoley { game, .. } if matches!(
                game.pending(),
                Pending::Decide { decision: Decision::Follow { .. }, .. }
            )
        )
    }

    /// The card a run waits at under penalised misplays (M9b), as every
    /// viewer sees it: its holder decides in secret whether to follow, or
    /// (a step held short of a stop) nobody holds it. `None` otherwise.
    pub fn waits_at(&self) -> Option<Card> {
        match &self.kind {
            Kind::Tripoley { held, .. } if !held.is_empty() => {
                held[0].1.iter().find_map(|e| match e {
                    Event::RunStopped { next, .. } => *next,
                    _ => None,
                })
            }
            Kind::Tripoley { game, .. } => match game.pending() {
                Pending::Decide {
                    decision: Decision::Follow { card },
                    ..
                } => Some(card),
                _ => None,
            },
            Kind::Napalm { .. } => None,
        }
    }

    /// Whether a seat of `people` might hold `card` as everyone can tell:
    /// it has cards, and nothing public rules the card out of its hand.
    pub fn person_might_hold(&self, card: Card, people: &[bool]) -> bool {
        let Kind::Tripoley { game, .. } = &self.kind else {
            return false;
        };
        let sight = game.sight(None);
        people.iter().enumerate().any(|(s, &person)| {
            person && sight.hand_size(s) > 0 && !sight.cannot_hold(s).contains(card)
        })
    }

    /// Applies a checked step: its record grows by it and its log by its
    /// first part; the parts after a held stop wait for [`Played::release`].
    pub fn apply(&mut self, step: TableStep) -> Result<(), ErrorBody> {
        self.take(step, false)
    }

    /// Applies a checked withhold (M9b) and holds all of it back: the
    /// record grows by it (so it is stored when given, issue 49), but its
    /// viewers see the game before it until [`Played::release`] shows its
    /// stop, when a stop at a card in the spare would be shown.
    pub fn hold(&mut self, step: TableStep) -> Result<(), ErrorBody> {
        self.take(step, true)
    }

    /// [`Played::apply`], or with `whole` [`Played::hold`].
    fn take(&mut self, step: TableStep, whole: bool) -> Result<(), ErrorBody> {
        match (&mut self.kind, step) {
            (
                Kind::Tripoley {
                    game,
                    record,
                    held,
                    log,
                },
                TableStep::Tripoley(step),
            ) => {
                let stops = hold::stops(game, &step);
                let before = whole.then(|| game.clone());
                let mut ev = Vec::new();
                game.step(&step, &mut ev)
                    .map_err(|e| tripoley_illegal(&e))?;
                record.steps.push(step);
                // Most steps hold nothing back: no copy of the game then.
                let first = if stops.is_empty() && before.is_none() {
                    Some(ev)
                } else {
                    *held = hold::parts(ev, stops, game.clone());
                    if let Some(before) = before {
                        *game = before;
                        None
                    } else {
                        let (shown, first) = held.pop_front().expect("a first part");
                        *game = shown;
                        Some(first)
                    }
                };
                if let Some(first) = first {
                    if first.iter().any(|e| matches!(e, Event::DealEnded { .. })) {
                        self.deal_start = log.len();
                    }
                    log.push(first);
                }
            }
            (Kind::Napalm { game, record, log }, TableStep::Napalm(step)) => {
                let ev = match &step {
                    NapalmStep::Deck(d) => game.deal(d),
                    NapalmStep::Act { seat, action } => game.apply(*seat, *action),
                }
                .map_err(|e| napalm_illegal(&e))?;
                record.steps.push(step);
                if ev
                    .iter()
                    .any(|e| matches!(e, tripoley_napalm::Event::HandEnded { .. }))
                {
                    self.deal_start = log.len();
                }
                log.push(ev);
            }
            _ => return Err(wrong_game(self.game_kind())),
        }
        self.sync_journal();
        Ok(())
    }

    /// Shows the next held part of the last step; false if none was held.
    pub fn release(&mut self) -> bool {
        let Kind::Tripoley {
            game, held, log, ..
        } = &mut self.kind
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
        true
    }

    /// Writes the journal's entries for the log's entries it lacks.
    fn sync_journal(&mut self) {
        let viewers = frames::viewers(self.seats);
        for k in self.journal.len()..self.log_len() {
            let entries = match &self.kind {
                Kind::Tripoley { log, .. } => frames::entries(
                    &log[k],
                    &viewers,
                    |e, v| e.audience().includes(v),
                    |e| matches!(e, Event::DealEnded { .. }),
                ),
                Kind::Napalm { log, .. } => frames::entries(
                    &log[k],
                    &viewers,
                    |e, v| e.audience().includes(v),
                    |e| matches!(e, tripoley_napalm::Event::HandEnded { .. }),
                ),
            };
            self.journal.push(entries);
        }
    }

    /// Entries in the log (the start's, then one per shown part of a step).
    pub fn log_len(&self) -> usize {
        match &self.kind {
            Kind::Tripoley { log, .. } => log.len(),
            Kind::Napalm { log, .. } => log.len(),
        }
    }

    /// The event number: entries in the log after the start's.
    pub fn n(&self) -> u64 {
        self.log_len() as u64 - 1
    }

    /// Steps in the record.
    pub fn steps(&self) -> usize {
        match &self.kind {
            Kind::Tripoley { record, .. } => record.steps.len(),
            Kind::Napalm { record, .. } => record.steps.len(),
        }
    }

    /// The players' names.
    pub fn names(&self) -> &[String] {
        match &self.kind {
            Kind::Tripoley { record, .. } => &record.names,
            Kind::Napalm { record, .. } => &record.names,
        }
    }

    /// The journal of the log.
    pub fn journal(&self) -> &Arc<Journal> {
        &self.journal
    }

    /// The log entries of the current deal (a `state` carries them).
    pub fn deal_span(&self) -> (usize, usize) {
        (self.deal_start, self.log_len())
    }

    /// The Tripoley game (as its viewers see it now), if this is one.
    pub fn tripoley(&self) -> Option<&Game> {
        match &self.kind {
            Kind::Tripoley { game, .. } => Some(game),
            Kind::Napalm { .. } => None,
        }
    }

    /// The Tripoley record, if this is one.
    pub fn tripoley_record(&self) -> Option<&Record> {
        match &self.kind {
            Kind::Tripoley { record, .. } => Some(record),
            Kind::Napalm { .. } => None,
        }
    }

    /// The Napalm game, if this is one.
    pub fn napalm(&self) -> Option<&NapalmGame> {
        match &self.kind {
            Kind::Napalm { game, .. } => Some(game),
            Kind::Tripoley { .. } => None,
        }
    }

    /// The Napalm record, if this is one.
    pub fn napalm_record(&self) -> Option<&NapalmRecord> {
        match &self.kind {
            Kind::Napalm { record, .. } => Some(record),
            Kind::Tripoley { .. } => None,
        }
    }

    /// The record as JSON, in either game.
    pub fn record_json(&self) -> serde_json::Value {
        match &self.kind {
            Kind::Tripoley { record, .. } => serde_json::to_value(record),
            Kind::Napalm { record, .. } => serde_json::to_value(record),
        }
        .expect("records serialise")
    }

    /// Writes `"view":…,"turn":…` for `viewer` alone ([`Views`]).
    pub fn write_view_and_turn(
        &self,
        viewer: Option<Seat>,
        out: &mut Vec<u8>,
        turn_of: impl Fn(Seat) -> Option<Turn>,
    ) {
        let one = Views {
            played: self,
            shared: None,
        };
        one.write_view_and_turn(viewer, out, turn_of);
    }

    /// This moment's views, to write every viewer's frame of a step: what
    /// everyone sees of a Tripoley view is serialised once, not per viewer.
    pub fn views(&self) -> Views<'_> {
        let shared = match &self.kind {
            Kind::Tripoley { game, .. } => Some(SharedView::new(game)),
            Kind::Napalm { .. } => None,
        };
        Views {
            played: self,
            shared,
        }
    }
}

/// A moment of a started game as its viewers see it ([`Played::views`]).
pub struct Views<'a> {
    played: &'a Played,
    /// A Tripoley view's fields everyone sees, when written for many.
    shared: Option<SharedView>,
}

impl Views<'_> {
    /// Writes `"view":…,"turn":…` for `viewer`: its view and the public
    /// turn, which `turn_of` makes for the seat that decides. A decision the
    /// viewer may not know about (M9b) has no public turn.
    pub fn write_view_and_turn(
        &self,
        viewer: Option<Seat>,
        out: &mut Vec<u8>,
        turn_of: impl Fn(Seat) -> Option<Turn>,
    ) {
        match &self.played.kind {
            Kind::Tripoley { game, .. } => {
                let (to_act, _) = game.sight(viewer).turn();
                let turn = match game.pending() {
                    Pending::Decide { seat, .. } if to_act == Some(seat) => turn_of(seat),
                    _ => None,
                };
                let write_view = |out: &mut Vec<u8>| match (&self.shared, viewer) {
                    (Some(shared), None) => out.extend_from_slice(shared.spectators()),
                    (Some(shared), Some(_)) => shared.write(out, &game.view(viewer)),
                    (None, _) => frames::write_json(out, &game.view(viewer)),
                };
                frames::write_view_and_turn(out, write_view, turn.as_ref());
            }
            Kind::Napalm { game, .. } => {
                let turn = match game.pending() {
                    tripoley_napalm::Pending::Decide { seat, .. } => turn_of(seat),
                    _ => None,
                };
                let view = game.view(viewer);
                frames::write_view_and_turn(
                    out,
                    |out| frames::write_json(out, &view),
                    turn.as_ref(),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests;
