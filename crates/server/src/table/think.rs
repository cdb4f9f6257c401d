//! Bots think off the table's task. A bot in an empty seat (or standing in
//! for an absent person) decides on its seat's information set, and the
//! expert searches it for `expert_ms` (10 by default): long enough to hold
//! up every connection of the table if the table's task waited. So the bot
//! and a copy of the game go to tokio's blocking pool, and the answer comes
//! back to the table's actor as a message tagged with the event number it
//! answers; an answer to a state that has passed is dropped. Expert searches hold one
//! of the server's `max_expert_searches` slots: an expert that finds none
//! free in time plays the heuristic's move for that decision, so tables of
//! experts cannot take every core from the other tables.
//!
//! Hints are searched there too, under two budgets: a table searches one
//! position at a time and keeps the answer for that position (every
//! connection asking about it gets the same one), and the whole server runs
//! at most `max_hint_searches` at once; a hint asked while they are all busy
//! is refused with "try again", so hints can never starve the tables' bots
//! and timers of threads (issue 15, finding 3).
//!
//! A person whose turn timer ran out gets a stand-in that spends nothing
//! ([`stand_in`]): keep, pass, check, else fold (finding 8).

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand_core::Rng;
use serde_json::json;
use tripoley_bots::{Bot, BotKind, HeuristicBot};
use tripoley_cards::{Evaluator, Suit, seeded_rng};
use tripoley_engine::{Action, Decision, InfoSet, Pending, Seat, View};
use tripoley_game::Bot as _;

use tokio::time::timeout;

use tripoley_table::Played;

use super::{ConnId, HINT_BUDGET, Out, Table, error_frame};

use crate::protocol::{ErrorBody, ErrorCode};

/// What comes back from the blocking pool.
pub(crate) enum Thought {
    /// A bot's move.
    Move(Answer),
    /// A hint for `seat` at event `n`, as the `action` JSON (`None` if the
    /// search panicked).
    Hint {
        n: u64,
        seat: Seat,
        action: Option<serde_json::Value>,
    },
}

/// A bot's move, back from the blocking pool.
pub(crate) struct Answer {
    /// The event number the bot was asked at.
    n: u64,
    seat: Seat,
    /// When the answer may be shown: the bot delay after it was due.
    at: Instant,
    /// The bot (it travels with its question) and its action; `None` if
    /// the bot panicked.
    moved: Option<(Box<dyn Bot>, Action)>,
}

/// Connections waiting for a hint, with the ids they asked with.
type Waiting = Vec<(ConnId, Option<u64>)>;

/// A table's hints: the position being searched and who waits for it, and
/// the last answer.
#[derive(Default)]
pub(super) struct Hints {
    /// The position (event number, seat) being searched, and who asked.
    searching: Option<(u64, Seat, Waiting)>,
    /// The last position searched and its answer.
    known: Option<(u64, Seat, serde_json::Value)>,
}

/// The action of a person whose turn timer ran out: the cheapest safe one,
/// never spending a chip. Keep the hand, pass a bid, check, else fold; in
/// Michigan the lowest card that may be led, and play (not withhold) the
/// next card; shown five cards are the best five; a pay suit (already paid
/// for) is the suit the hand holds most of.
pub(crate) fn stand_in(decision: &Decision, view: &View, evaluator: Evaluator) -> Action {
    match *decision {
        Decision::SpareOption { .. } => Action::Keep,
        Decision::AuctionBid { .. } | Decision::PaySuitBid { .. } => Action::Pass,
        Decision::Open { .. } => Action::Check,
        Decision::Respond { .. } => Action::Fold,
        Decision::ChooseFive { from } => Action::Choose(evaluator.best_five(from).1),
        Decision::Lead { cards } => Action::Lead(cards.lowest().expect("a lead has a card")),
        Decision::Follow { .. } => Action::Play,
        Decision::NamePaySuit => Action::NameSuit(
            Suit::ALL
                .into_iter()
                .max_by_key(|&s| view.hand.count_suit(s))
                .unwrap_or(Suit::Hearts),
        ),
    }
}

impl Table {
    /// Asks `seat`'s bot for its move on the blocking pool, its decision
    /// having been due `since`; the answer arrives through the table's
    /// answer channel ([`Table::on_answer`]) and is shown the bot delay
    /// after `since`, however long the bot took.
    pub(super) fn ask_bot(&mut self, seat: Seat, since: Instant) {
        let Some(game) = self.played.as_ref().and_then(Played::tripoley).cloned() else {
            return;
        };
        let Some(mut bot) = self.seats[usize::from(seat)].bot.take() else {
            return;
        };
        let n = self.n();
        let at = since + self.cfg.bot_delay;
        let mut rng = seeded_rng(self.rng.next_u64());
        let answers = self.answers.clone();
        // An expert searches only with one of the server's expert slots,
        // waiting for one at most as long as a search lasts; with none free
        // in time it plays the heuristic's move this once. So tables of
        // experts never hold every core (nor the blocking pool) from the
        // rest, and a table's bot takes about as long either way.
        let experts =
            (self.seat_level(seat) == BotKind::Expert).then(|| Arc::clone(&self.cfg.experts));
        let wait = self.cfg.bots.budget.time.unwrap_or_default();
        self.thinking = true;
        tokio::spawn(async move {
            let (slot, mut stand_by) = match experts {
                None => (None, None),
                Some(experts) => match timeout(wait, experts.acquire_owned()).await {
                    Ok(Ok(slot)) => (Some(slot), None),
                    _ => (None, Some(HeuristicBot::for_rules(game.rules()))),
                },
            };
            let thought = tokio::task::spawn_blocking(move || {
                let moved = std::panic::catch_unwind(AssertUnwindSafe(move || {
                    let info = InfoSet::new(&game, seat);
                    let action = match &mut stand_by {
                        Some(heuristic) => heuristic.act_in(&info, &mut rng),
                        None => bot.act_in(&info, &mut rng),
                    };
                    drop(slot);
                    (bot, action)
                }))
                .ok();
                Thought::Move(Answer { n, seat, at, moved })
            })
            .await;
            // The table may have stopped meanwhile: nobody waits then.
            if let Ok(thought) = thought {
                let _ = answers.send(thought);
            }
        });
    }

    /// A bot's answer: played if the game still waits for it at the same
    /// event and the seat is still the server's to play.
    pub(super) async fn on_answer(&mut self, answer: Answer) {
        self.thinking = false;
        let s = usize::from(answer.seat);
        let Some((bot, action)) = answer.moved else {
            // A bot that panicked is replaced; the move is tried again later.
            self.seats[s].bot = Some(
                self.seat_level(answer.seat)
                    .make_with(&self.settings.rules, &self.cfg.bots),
            );
            self.retry_at = Some(Instant::now() + Duration::from_secs(1));
            return;
        };
        self.seats[s].bot = Some(bot);
        let current = answer.n == self.n() && self.to_decide() == Some(answer.seat);
        if !current || self.due().is_none_or(|due| Instant::now() < due) {
            return;
        }
        let auto = self.seats[s].hash.is_some();
        if self
            .decide(answer.seat, action, Some(answer.at), auto)
            .await
            .is_err()
        {
            self.retry_at = Some(Instant::now() + Duration::from_secs(1));
        }
    }

    /// The stand-in's move for a person whose turn timer ran out, played at
    /// once (it needs no search).
    pub(super) async fn stand_in_acts(&mut self, seat: Seat) {
        let Some(game) = self.played.as_ref().and_then(Played::tripoley) else {
            return;
        };
        let Pending::Decide { decision, .. } = game.pending() else {
            return;
        };
        let action = stand_in(&decision, &game.view(Some(seat)), game.rules().evaluator());
        if self.decide(seat, action, None, true).await.is_err() {
            self.retry_at = Some(Instant::now() + Duration::from_secs(1));
        }
    }

    /// Something back from the blocking pool.
    pub(super) async fn on_thought(&mut self, thought: Thought) {
        match thought {
            Thought::Move(answer) => self.on_answer(answer).await,
            Thought::Hint { n, seat, action } => {
                let waiting = match self.hints.searching.take() {
                    Some((at, s, waiting)) if (at, s) == (n, seat) => waiting,
                    other => {
                        self.hints.searching = other;
                        Vec::new()
                    }
                };
                let failed = ErrorBody::new(
                    ErrorCode::Busy,
                    "no hint could be worked out: ask again in a moment",
                );
                for (conn, id) in waiting {
                    let reply = match &action {
                        Some(action) => hint_frame(n, id, action),
                        None => error_frame(n, id, &failed),
                    };
                    self.send(conn, reply);
                }
                if let Some(action) = action {
                    self.hints.known = Some((n, seat, action));
                }
            }
        }
    }

    /// Answers `conn`'s hint request: the expert's move for its seat. A
    /// position already searched is answered from memory; one being searched
    /// adds the asker to those waiting; otherwise a search starts on the
    /// blocking pool if the server's budget allows. The search stops at its
    /// playouts or its time, whichever comes first; the answer is kept, so
    /// everyone asking about one position gets the same hint.
    pub(super) fn hint(&mut self, conn: ConnId, id: Option<u64>) {
        let n = self.n();
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        if self.is_napalm() {
            let reply = match self.napalm_hint(conn) {
                Ok(action) => hint_frame(n, id, &json!(action)),
                Err(e) => error_frame(n, id, &e),
            };
            self.send(conn, reply);
            return;
        }
        let game = match (c.seat, self.played.as_ref().and_then(Played::tripoley)) {
            (None, _) => Err(ErrorBody::new(
                ErrorCode::Unauthorized,
                "only a seated player can ask for a hint",
            )),
            (_, None) => Err(ErrorBody::new(
                ErrorCode::NotStarted,
                "the game has not started",
            )),
            (Some(seat), Some(game)) => match game.pending() {
                Pending::Decide { seat: s, .. } if s == seat => Ok((seat, game)),
                _ => Err(ErrorBody::new(
                    ErrorCode::NotYourTurn,
                    "a hint is for your own turn",
                )),
            },
        };
        let (seat, game) = match game {
            Ok(found) => found,
            Err(e) => return self.send(conn, error_frame(n, id, &e)),
        };
        if let Some((at, s, action)) = &self.hints.known
            && (*at, *s) == (n, seat)
        {
            let reply = hint_frame(n, id, action);
            return self.send(conn, reply);
        }
        if let Some((at, s, waiting)) = &mut self.hints.searching
            && (*at, *s) == (n, seat)
        {
            waiting.push((conn, id));
            return;
        }
        let Ok(permit) = Arc::clone(&self.cfg.hints).try_acquire_owned() else {
            let busy = ErrorBody::new(
                ErrorCode::Busy,
                "the server is busy working out hints: ask again in a moment",
            );
            return self.send(conn, error_frame(n, id, &busy));
        };
        let game = game.clone();
        let answers = self.answers.clone();
        // Those still waiting for an older position's hint will not get it:
        // the game has moved on since they asked.
        if let Some((at, _, waiting)) = self.hints.searching.replace((n, seat, vec![(conn, id)])) {
            let moved = ErrorBody::new(
                ErrorCode::Stale,
                format!("the game has moved on since event {at}: ask again"),
            );
            for (c, id) in waiting {
                self.send(c, error_frame(n, id, &moved));
            }
        }
        tokio::task::spawn_blocking(move || {
            let action = std::panic::catch_unwind(AssertUnwindSafe(|| {
                tripoley_bots::hint(&InfoSet::new(&game, seat), game.rules(), HINT_BUDGET)
            }))
            .ok();
            drop(permit);
            let _ = answers.send(Thought::Hint {
                n,
                seat,
                action: action.map(|a| json!(a)),
            });
        });
    }
}

fn hint_frame(n: u64, id: Option<u64>, action: &serde_json::Value) -> Out {
    Out::Text(tripoley_table::frames::hint(n, id, action).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tripoley_bots::{BotKind, record_game};
    use tripoley_engine::{Preset, Rules};

    /// Over random games of every preset, at every decision: the stand-in's
    /// action is legal and spends no chip (no bid, bet, call, raise, swap or
    /// auction of the spare).
    #[test]
    fn the_stand_in_is_always_legal_and_never_spends() {
        for (k, preset) in Preset::ALL.into_iter().enumerate() {
            let mut rules = Rules::preset(preset);
            rules.deals = Some(2);
            rules.misplays = tripoley_engine::Misplays::Penalised;
            let players = 4;
            let mut bots: Vec<_> = (0..players).map(|_| BotKind::Random.make(&rules)).collect();
            let names = (0..players).map(|i| format!("P{i}")).collect();
            let record = record_game(&rules, &mut bots, names, k as u64).expect("a game");
            let mut ev = Vec::new();
            let mut game = record.start(&mut ev).expect("it starts");
            let mut seen = 0;
            for step in &record.steps {
                if let Pending::Decide { seat, decision } = game.pending() {
                    let view = game.view(Some(seat));
                    let action = stand_in(&decision, &view, rules.evaluator());
                    assert!(decision.check(action).is_ok(), "{decision:?}: {action:?}");
                    assert!(
                        !matches!(
                            action,
                            Action::Swap
                                | Action::AuctionSpare
                                | Action::SwapAndAuction
                                | Action::Bid(_)
                                | Action::Bet(_)
                                | Action::Call
                                | Action::Raise(_)
                        ),
                        "{decision:?}: {action:?}"
                    );
                    seen += 1;
                }
                game.step(step, &mut ev).expect("it replays");
            }
            assert!(seen > 10, "{preset}: {seen} decisions");
        }
    }
}
