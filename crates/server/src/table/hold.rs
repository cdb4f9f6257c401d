//! The server's side of held stops ([`tripoley_table::hold`]) and of the
//! secret follow-or-withhold under penalised misplays (M9b): when a stop
//! is shown must tell nobody whether the card was withheld or is in the
//! spare (issue 49, defect 1).
//!
//! Whenever a run waits at a card (its holder deciding in secret, or a
//! step held short of a stop at a card nobody holds), the table opens a
//! window whose end depends on public facts only: if a person might hold
//! the card (a seat of a person with cards, none of them ruled out in
//! public), the server's `withhold_window` from the moment the waiting
//! update goes out; otherwise the bot delay, when a bot's answer would be
//! shown. A stop, withheld or at a card in the spare, is shown exactly
//! when the window ends, by the same path: a withhold is stored and applied
//! when given, but held whole ([`tripoley_table::Played::hold`]) until
//! then, so no store write tells it either, and a restart inside the
//! window loses no answer. A follow shows its card anyway and goes out when
//! decided (a bot's when the bot delay has passed). A person holding the
//! card sees the window's clock as their turn's `ms`; with no answer by its
//! end the stand-in plays the card.
//!
//! A bot is asked as soon as its decision is due, and its answer waits
//! for the bot delay counted from then: how long it searched (nothing for
//! a forced answer) never shows (issue 49).

use std::time::{Duration, Instant};

use tripoley_engine::{Action, Seat, Step};
use tripoley_table::{Due, Played, TableStep};

use super::Table;
use crate::protocol::{ErrorBody, ErrorCode};

/// When a stop at the card a run waits at is shown.
#[derive(Clone, Copy, Debug)]
pub(super) struct Window {
    /// The window's end.
    pub until: Instant,
    /// Whether a person might hold the card (public): the holder's answer
    /// is time-boxed to the window, on a clock they see.
    pub person: bool,
}

/// A bot's answer taken but not yet applied: it is applied (and shown)
/// at `at`, when the bot delay has passed since it was due.
#[derive(Clone, Copy, Debug)]
pub(super) struct Parked {
    pub at: Instant,
    pub seat: Seat,
    pub action: Action,
    pub auto: bool,
}

impl Table {
    /// Opens the window of the card the shown game waits at, if any, as
    /// its update is about to go out; a held stop is shown when it ends.
    /// Worked out from public facts only (the seats' kinds, hand sizes
    /// and what everyone can tell they do not hold).
    pub(super) fn open_window(&mut self) {
        self.window = None;
        self.parked = None;
        let Some(played) = &self.played else {
            return;
        };
        let Some(card) = played.waits_at() else {
            return;
        };
        let held = played.due() == Due::Held;
        let people: Vec<bool> = self.seats.iter().map(|s| s.hash.is_some()).collect();
        let w = self.cfg.withhold_window;
        let person = !w.is_zero() && played.person_might_hold(card, &people);
        let until = self.turn_started + if person { w } else { self.cfg.bot_delay };
        self.window = Some(Window { until, person });
        if held {
            self.held_until = Some(until);
        }
    }

    /// The open window, while the decision due is a secret follow.
    pub(super) fn secret_window(&self) -> Option<Window> {
        self.window
            .filter(|_| self.played.as_ref().is_some_and(Played::decision_is_secret))
    }

    /// Takes `seat`'s `action`. A withhold at a secret follow is stored and
    /// held until the window ends (when a stop at a card in the spare would
    /// be shown); a bot's other answers (`release`: when they may be shown)
    /// are parked until then.
    pub(super) async fn decide(
        &mut self,
        seat: Seat,
        action: Action,
        release: Option<Instant>,
        auto: bool,
    ) -> Result<(), ErrorBody> {
        let step = TableStep::Tripoley(Step::Act { seat, action });
        if action == Action::Withhold
            && let Some(w) = self.secret_window()
        {
            self.store_step(&step).await?;
            self.played.as_mut().expect("stored").hold(step)?;
            self.held_until = Some(w.until);
            return Ok(());
        }
        if let Some(at) = release.filter(|&at| Instant::now() < at) {
            if let Some(played) = &self.played {
                played.check(&step)?;
            }
            self.parked = Some(Parked {
                at,
                seat,
                action,
                auto,
            });
            return Ok(());
        }
        self.take_step(step, auto).await
    }

    /// Refuses a second answer from a seat whose answer is parked.
    pub(super) fn check_parked(&self, seat: Seat) -> Result<(), ErrorBody> {
        match self.parked {
            Some(p) if p.seat == seat => Err(ErrorBody::new(
                ErrorCode::NotYourTurn,
                "the bot playing for you has answered: the game goes on in a moment",
            )),
            _ => Ok(()),
        }
    }

    /// Applies the parked answer once it is due; whether one was parked.
    pub(super) async fn take_parked(&mut self) -> bool {
        let Some(p) = self.parked else {
            return false;
        };
        if Instant::now() < p.at {
            return true;
        }
        self.parked = None;
        let step = TableStep::Tripoley(Step::Act {
            seat: p.seat,
            action: p.action,
        });
        if self.take_step(step, p.auto).await.is_err() {
            self.parked = Some(p);
            self.retry_at = Some(Instant::now() + Duration::from_secs(1));
        }
        true
    }

    /// Shows the next held part as the next event once it is due; whether
    /// parts were held.
    pub(super) async fn release(&mut self) -> bool {
        let Some(until) = self.held_until else {
            return false;
        };
        if Instant::now() < until {
            return true;
        }
        let Some(played) = &mut self.played else {
            return false;
        };
        played.release();
        let (n, due) = (played.n(), played.due());
        self.held_until = None;
        self.step_taken(n, due == Due::Over, false).await;
        true
    }
}
