//! The Napalm side of a table (RULES.md section 7): the game, its record and
//! its event log, with the same order as Tripoley's: check a step, store it,
//! apply it, then send each viewer a frame built from that viewer's
//! [`NapalmView`](tripoley_napalm::NapalmView) and the events whose audience
//! includes them (a comparison goes only to the compared seats, N7).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tripoley_bots::BotKind;
use tripoley_cards::Deck;
use tripoley_napalm::{
    Action, Event, HeuristicNapalmBot, IllegalAction, NapalmBot, NapalmGame, NapalmRecord,
    NapalmStep, Pending, RandomNapalmBot,
};

use super::{ConnId, Table, storage};
use crate::protocol::{ErrorBody, ErrorCode, TableStatus};
use tripoley_engine::Seat;

/// A started Napalm game at a table.
pub(crate) struct NapalmTable {
    /// The game.
    pub game: NapalmGame,
    /// Its record: rules, names and every step.
    pub record: NapalmRecord,
    /// `log[k]`: the events of step `k` (`log[0]`: those of the start).
    pub log: Vec<Vec<Event>>,
    /// One bot per seat: plays bot seats, absent players and expired timers.
    bots: Vec<Box<dyn NapalmBot>>,
}

impl NapalmTable {
    /// `levels[seat]`: the level of the bot that plays that seat.
    fn new(
        game: NapalmGame,
        record: NapalmRecord,
        log: Vec<Vec<Event>>,
        levels: &[BotKind],
    ) -> Self {
        let bots = levels
            .iter()
            .map(|kind| -> Box<dyn NapalmBot> {
                match kind {
                    BotKind::Random => Box::new(RandomNapalmBot),
                    // Napalm has no search bot: the heuristic plays for it.
                    BotKind::Heuristic | BotKind::Expert => Box::new(HeuristicNapalmBot),
                }
            })
            .collect();
        NapalmTable {
            game,
            record,
            log,
            bots,
        }
    }
}

fn illegal(e: &IllegalAction) -> ErrorBody {
    let code = match e {
        IllegalAction::NotYourTurn(_) => ErrorCode::NotYourTurn,
        IllegalAction::GameOver => ErrorCode::GameOver,
        _ => ErrorCode::Illegal,
    };
    ErrorBody::new(code, e.to_string())
}

fn ends_hand(ev: &[Event]) -> bool {
    ev.iter().any(|e| matches!(e, Event::HandEnded { .. }))
}

impl Table {
    /// Rebuilds a Napalm game from its stored steps.
    pub(super) fn replay_napalm(
        &mut self,
        names: Vec<String>,
        steps: Vec<NapalmStep>,
    ) -> Result<(), crate::ServerError> {
        let bad = |e: String| {
            crate::ServerError::Unreadable(format!("table {} does not replay: {e}", self.invite))
        };
        let rules = self.settings.napalm.clone().unwrap_or_default();
        let mut ev = Vec::new();
        let mut game = NapalmGame::start(rules.clone(), names.len(), &mut ev)
            .map_err(|e| bad(e.to_string()))?;
        let mut log = vec![ev];
        self.deal_start = 0;
        for (i, step) in steps.iter().enumerate() {
            let ev = match step {
                NapalmStep::Deck(d) => game.deal(d),
                NapalmStep::Act { seat, action } => game.apply(*seat, *action),
            }
            .map_err(|e| bad(format!("step {i}: {e}")))?;
            if ends_hand(&ev) {
                self.deal_start = log.len();
            }
            log.push(ev);
        }
        self.status = if game.is_over() {
            TableStatus::Finished
        } else {
            TableStatus::Playing
        };
        self.n.store(steps.len() as u64, Ordering::Release);
        let record = NapalmRecord {
            steps,
            ..NapalmRecord::new(rules, names)
        };
        self.napalm = Some(NapalmTable::new(game, record, log, &self.levels()));
        Ok(())
    }

    /// Starts the Napalm game (the caller checked the host and the lobby).
    pub(super) async fn start_napalm(&mut self, names: Vec<String>) -> Result<(), ErrorBody> {
        let rules = self.settings.napalm.clone().unwrap_or_default();
        let mut ev = Vec::new();
        let game = NapalmGame::start(rules.clone(), names.len(), &mut ev)
            .map_err(|e| ErrorBody::new(ErrorCode::Invalid, e.to_string()))?;
        self.store
            .start(self.invite.clone(), &names)
            .await
            .map_err(|e| storage(&e))?;
        let record = NapalmRecord::new(rules, names);
        self.napalm = Some(NapalmTable::new(game, record, vec![ev], &self.levels()));
        self.deal_start = 0;
        Ok(())
    }

    /// Supplies a shuffled deck whenever the game waits for one.
    pub(super) async fn advance_napalm(&mut self) {
        while self.status == TableStatus::Playing {
            let Some(t) = &self.napalm else { return };
            if t.game.pending() != Pending::Deck {
                return;
            }
            let deck = Deck::shuffled(&mut self.rng);
            if self
                .napalm_step(NapalmStep::Deck(deck), false)
                .await
                .is_err()
            {
                self.retry_at = Some(Instant::now() + Duration::from_secs(1));
                return;
            }
        }
    }

    /// The seat's bot decides (a bot seat, an absent player, a timer run out).
    pub(super) async fn napalm_bot_acts(&mut self) {
        let Some(t) = &mut self.napalm else { return };
        let Pending::Decide { seat, .. } = t.game.pending() else {
            return;
        };
        let view = t.game.view(Some(seat));
        let action = t.bots[usize::from(seat)].act(&view, &mut self.rng);
        let auto = self.seats[usize::from(seat)].hash.is_some();
        if self
            .napalm_step(NapalmStep::Act { seat, action }, auto)
            .await
            .is_err()
        {
            self.retry_at = Some(Instant::now() + Duration::from_secs(1));
        }
    }

    /// Checks, stores, applies and broadcasts one Napalm step.
    async fn napalm_step(&mut self, step: NapalmStep, auto: bool) -> Result<(), ErrorBody> {
        let t = self
            .napalm
            .as_ref()
            .ok_or_else(|| ErrorBody::new(ErrorCode::NotStarted, "the game has not started"))?;
        if let NapalmStep::Act { seat, action } = &step {
            t.game.check(*seat, *action).map_err(|e| illegal(&e))?;
        }
        let idx = t.record.steps.len();
        self.store
            .append_step(self.invite.clone(), idx, &step)
            .await
            .map_err(|e| storage(&e))?;
        let t = self.napalm.as_mut().expect("checked above");
        // Checked before storing, so this cannot fail; if it did, the stored
        // step would make the table fail to replay, which is reported then.
        let ev = match &step {
            NapalmStep::Deck(d) => t.game.deal(d),
            NapalmStep::Act { seat, action } => t.game.apply(*seat, *action),
        }
        .map_err(|e| illegal(&e))?;
        t.record.steps.push(step);
        if ends_hand(&ev) {
            self.deal_start = t.log.len();
        }
        t.log.push(ev);
        let over = t.game.is_over();
        self.step_taken(idx as u64 + 1, over, auto).await;
        Ok(())
    }

    /// A seated connection's Napalm action.
    pub(super) async fn napalm_act(
        &mut self,
        conn: ConnId,
        action: Action,
        seat_claim: Option<Seat>,
        n_claim: Option<u64>,
    ) -> Result<(), ErrorBody> {
        let seat = self.acting_seat(conn, seat_claim, n_claim)?;
        if self.napalm.is_none() {
            return Err(ErrorBody::new(
                ErrorCode::Illegal,
                "this is a Tripoley table: yes, no, challenge and decline are Napalm actions",
            ));
        }
        self.napalm_step(NapalmStep::Act { seat, action }, false)
            .await
    }

    /// The heuristic bot's answer for `conn`'s seat, on that seat's turn.
    pub(super) fn napalm_hint(&self, conn: ConnId) -> Result<Action, ErrorBody> {
        let seat = self.conns.get(&conn).and_then(|c| c.seat).ok_or_else(|| {
            ErrorBody::new(
                ErrorCode::Unauthorized,
                "only a seated player can ask for a hint",
            )
        })?;
        let t = self
            .napalm
            .as_ref()
            .ok_or_else(|| ErrorBody::new(ErrorCode::NotStarted, "the game has not started"))?;
        match t.game.pending() {
            Pending::Decide { seat: s, .. } if s == seat => {
                let view = t.game.view(Some(seat));
                // The heuristic ignores its generator: the same position
                // gets the same hint.
                let mut rng = tripoley_cards::seeded_rng(0);
                Ok(HeuristicNapalmBot.act(&view, &mut rng))
            }
            _ => Err(ErrorBody::new(
                ErrorCode::NotYourTurn,
                "a hint is for your own turn",
            )),
        }
    }
}
