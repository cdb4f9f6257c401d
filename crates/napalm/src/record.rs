//! [`NapalmRecord`]: a whole game as rules, decks and actions; replay rebuilds it.

use serde::{Deserialize, Serialize};
use tripoley_cards::{Deck, GameRng};
use tripoley_game::{Game, Turn};

use crate::game::{Action, Event, IllegalAction, NapalmGame, NapalmView, Pending, Seat};
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
            game.take_step(step, &mut ev)
                .map_err(|error| NapalmReplayError::Step { index, error })?;
        }
        Ok((game, ev))
    }
}

/// Napalm as one of the project's games: the drivers, simulators and
/// property suite written once for every game play it through this.
impl Game for NapalmGame {
    type Action = Action;
    type Chance = Deck;
    type Step = NapalmStep;
    type View = NapalmView;
    type Event = Event;
    type Error = IllegalAction;

    fn players(&self) -> usize {
        NapalmGame::players(self)
    }

    fn turn(&self) -> Turn {
        match self.pending() {
            Pending::Deck => Turn::Chance,
            Pending::Decide { seat, .. } => Turn::Seat(seat),
            Pending::GameOver => Turn::Over,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.pending() {
            Pending::Decide { decision, .. } => decision.actions().to_vec(),
            Pending::Deck | Pending::GameOver => Vec::new(),
        }
    }

    fn random_chance(&self, rng: &mut GameRng) -> Deck {
        Deck::shuffled(rng)
    }

    fn chance_step(deck: Deck) -> NapalmStep {
        NapalmStep::Deck(deck)
    }

    fn act_step(seat: Seat, action: Action) -> NapalmStep {
        NapalmStep::Act { seat, action }
    }

    fn take_step(
        &mut self,
        step: &NapalmStep,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalAction> {
        events.extend(match step {
            NapalmStep::Deck(deck) => self.deal(deck),
            NapalmStep::Act { seat, action } => self.apply(*seat, *action),
        }?);
        Ok(())
    }

    fn view(&self, seat: Option<Seat>) -> NapalmView {
        NapalmGame::view(self, seat)
    }

    /// A seat's view is all it knows: Napalm's bots do not search.
    type Information<'a> = NapalmView;

    fn information(&self, seat: Seat) -> NapalmView {
        NapalmGame::view(self, Some(seat))
    }

    fn information_view(view: &NapalmView) -> std::borrow::Cow<'_, NapalmView> {
        std::borrow::Cow::Borrowed(view)
    }

    fn sample_world(&self, seat: Seat, rng: &mut tripoley_cards::GameRng) -> NapalmGame {
        NapalmGame::sample_world(self, seat, rng)
    }

    fn chips_in_play(&self) -> u32 {
        NapalmGame::chips_in_play(self)
    }

    fn total_chips(&self) -> u32 {
        NapalmGame::total_chips(self)
    }
}
