//! [`NapalmRecord`]: a whole game as rules, decks and actions; replay rebuilds it.

use serde::{Deserialize, Serialize};
use tripoley_cards::Deck;

use crate::game::{Action, Event, IllegalAction, NapalmGame, Seat};
use crate::rules::{NapalmRules, NapalmRulesError};

/// One step: a deck for a hand, or a seat's action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NapalmStep {
    /// The next hand's deck.
    Deck(Deck),
    /// A decision.
    Act {
        /// Who.
        seat: Seat,
        /// What.
        action: Action,
    },
}

/// Everything needed to replay a Napalm game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NapalmRecord {
    /// The game, always "napalm" (tells records of the two games apart).
    pub game: String,
    /// The rules.
    pub rules: NapalmRules,
    /// Players' names by seat.
    pub names: Vec<String>,
    /// Every step.
    pub steps: Vec<NapalmStep>,
}

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NapalmReplayError {
    /// Bad table.
    #[error(transparent)]
    Rules(#[from] NapalmRulesError),
    /// A step was refused.
    #[error("step {index}: {error}")]
    Step {
        /// Which.
        index: usize,
        /// Why.
        error: IllegalAction,
    },
}

impl NapalmRecord {
    /// An empty record.
    pub fn new(rules: NapalmRules, names: Vec<String>) -> NapalmRecord {
        NapalmRecord {
            game: "napalm".into(),
            rules,
            names,
            steps: Vec::new(),
        }
    }

    /// Replays every step: the game and all its events.
    pub fn replay(&self) -> Result<(NapalmGame, Vec<Event>), NapalmReplayError> {
        let mut ev = Vec::new();
        let mut game = NapalmGame::start(self.rules.clone(), self.names.len(), &mut ev)?;
        for (index, step) in self.steps.iter().enumerate() {
            let more = match step {
                NapalmStep::Deck(d) => game.deal(d),
                NapalmStep::Act { seat, action } => game.apply(*seat, *action),
            }
            .map_err(|error| NapalmReplayError::Step { index, error })?;
            ev.extend(more);
        }
        Ok((game, ev))
    }
}
