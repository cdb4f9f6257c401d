//! [`Record`]: a whole game as rules, seats, chance and actions; replaying it
//! rebuilds the identical game.

use serde::{Deserialize, Serialize};

use crate::action::{Action, DealChance, Pending};
use crate::event::{Event, EventSink, NoEvents};
use crate::game::{Game, IllegalAction};
use crate::layout::Seat;
use crate::rules::{Rules, RulesError};

/// One step of a game: what chance supplied or what a seat did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// A deck (and draws) supplied by chance.
    Chance(DealChance),
    /// A seat's action.
    Act {
        /// Who.
        seat: Seat,
        /// What.
        action: Action,
    },
}

/// Everything needed to replay a game exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Format version, for readers of stored records.
    pub version: u32,
    /// The rules.
    pub rules: Rules,
    /// The players' names, by seat.
    pub names: Vec<String>,
    /// Every step, in order.
    pub steps: Vec<Step>,
}

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The rules or the seats are not playable.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A step was refused.
    #[error("step {index}: {error}")]
    Step {
        /// Which step (0 for the first).
        index: usize,
        /// Why it was refused.
        error: IllegalAction,
    },
    /// The file is not a record.
    #[error("not a game record: {0}")]
    Format(String),
    /// A step is a move of a seat the record names no player for.
    #[error(
        "step {index} is a move of seat {seat}, but the record names {players} players only \
         (seats 0 to {last}): a name is missing",
        last = players.saturating_sub(1)
    )]
    Seat {
        /// Which step (0 for the first).
        index: usize,
        /// Its seat.
        seat: Seat,
        /// The names the record holds.
        players: usize,
    },
}

/// The current record format. Version 5: a decision with one answer whose
/// cause is hidden (a lead with one card, a dealer who may only keep) is
/// asked, a step of its own; before, the engine made it, so an older
/// record has no step for it and gets one when read
/// ([`Record::from_json`]). Version 4: the rules may carry `space_antes`
/// (T5's chips per space); a record without it, version 3 or 4, was played
/// with `ante` on every space and reads as it is. Version 3: a bidder whom the bonus-card limits
/// (D5) forbid to bid passes by themselves, a step of their own; version 2
/// made that pass for them, so its steps fit only games without those limits,
/// which read as they are. Version 2 also brought the poker five chosen
/// before the betting (P1, `Action::Choose`); version 1 chose them at the
/// showdown, after the betting, so its steps do not fit this game's order.
pub const RECORD_VERSION: u32 = 5;

impl Record {
    /// An empty record for a table.
    pub fn new(rules: Rules, names: Vec<String>) -> Record {
        Record {
            version: RECORD_VERSION,
            rules,
            names,
            steps: Vec::new(),
        }
    }

    /// Starts the game this record describes, with no steps applied.
    pub fn start(&self, ev: &mut impl EventSink) -> Result<Game, ReplayError> {
        Ok(Game::start(self.rules.clone(), self.names.len(), ev)?)
    }

    /// Replays every step; returns the game and all its events.
    pub fn replay(&self) -> Result<(Game, Vec<Event>), ReplayError> {
        let mut ev = Vec::new();
        let mut game = self.start(&mut ev)?;
        for (index, step) in self.steps.iter().enumerate() {
            game.step(step, &mut ev)
                .map_err(|error| ReplayError::Step { index, error })?;
        }
        Ok((game, ev))
    }

    /// Reads a record from JSON.
    pub fn from_json(text: &str) -> Result<Record, ReplayError> {
        // The version first: an older record's steps may not parse at all.
        #[derive(Deserialize)]
        struct Version {
            version: u32,
        }
        let format = |e: serde_json::Error| ReplayError::Format(e.to_string());
        let Version { version } = serde_json::from_str(text).map_err(format)?;
        Record::read_version(text, version)?.with_every_seat_named()
    }

    /// A record read as its version wrote it.
    fn read_version(text: &str, version: u32) -> Result<Record, ReplayError> {
        let format = |e: serde_json::Error| ReplayError::Format(e.to_string());
        match version {
            RECORD_VERSION => serde_json::from_str(text).map_err(format),
            4 => {
                let record: Record = serde_json::from_str(text).map_err(format)?;
                Ok(record.with_one_answer_steps())
            }
            // Version 3 knew no `space_antes`: its games had none.
            3 => {
                let record: Record = serde_json::from_str(text).map_err(format)?;
                if !record.rules.space_antes.is_empty() {
                    return Err(ReplayError::Format(
                        "this record (version 3) names chips per space, which version 3 \
                         records never held (they came with version 4)"
                            .into(),
                    ));
                }
                Ok(record.with_one_answer_steps())
            }
            2 => {
                let record: Record = serde_json::from_str(text).map_err(format)?;
                if record.rules.bonus_card_limits {
                    return Err(ReplayError::Format(
                        "this record (version 2) was played with the passes of bidders holding \
                         a bonus card made for them; since version 3 they pass by themselves \
                         (rule D5), so its moves cannot be replayed in order"
                            .into(),
                    ));
                }
                Ok(record.with_one_answer_steps())
            }
            1 => Err(ReplayError::Format(
                "this record (version 1) was played with the poker five chosen at the \
                 showdown, after the betting; since version 2 they are chosen before the \
                 first bet (rule P1), so its moves cannot be replayed in order"
                    .into(),
            )),
            v => Err(ReplayError::Format(format!(
                "record version {v} is not supported (this build reads version {RECORD_VERSION})"
            ))),
        }
    }

    /// The record, unless a step moves a seat it names no player for (a
    /// name missing: the steps would be refused later as "not seat 3's
    /// turn", which says nothing of the cause).
    fn with_every_seat_named(self) -> Result<Record, ReplayError> {
        let players = self.names.len();
        // Too few players for any table: the rules say so when it starts.
        if players < 2 {
            return Ok(self);
        }
        for (index, step) in self.steps.iter().enumerate() {
            if let Step::Act { seat, .. } = *step
                && usize::from(seat) >= players
            {
                return Err(ReplayError::Seat {
                    index,
                    seat,
                    players,
                });
            }
        }
        Ok(self)
    }

    /// An older record (version 2 to 4) as the current version: the engine
    /// made one-answer decisions by itself then, so their steps are added
    /// where the game asks them now. From the first step that does not
    /// replay on, the steps stay as they are (replaying says why).
    fn with_one_answer_steps(self) -> Record {
        let mut steps = Vec::with_capacity(self.steps.len());
        let mut game = self.start(&mut NoEvents).ok();
        let fill = |game: &mut Game, steps: &mut Vec<Step>| {
            while let Pending::Decide { seat, decision } = game.pending()
                && let Some(action) = decision.only()
            {
                game.apply_into(seat, action, &mut NoEvents)
                    .expect("the only answer is legal");
                steps.push(Step::Act { seat, action });
            }
        };
        for step in self.steps {
            if let Some(g) = &mut game {
                fill(g, &mut steps);
                if g.step(&step, &mut NoEvents).is_err() {
                    game = None;
                }
            }
            steps.push(step);
        }
        if let Some(g) = &mut game {
            fill(g, &mut steps);
        }
        Record {
            version: RECORD_VERSION,
            steps,
            ..self
        }
    }

    /// The record as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("records serialise")
    }
}

/// Tripoley as one of the project's games: the drivers, simulators and
/// property suite written once for every game play it through this.
impl tripoley_game::Game for Game {
    type Action = Action;
    type Chance = DealChance;
    type Step = Step;
    type View = crate::view::View;
    type Event = Event;
    type Error = IllegalAction;

    fn players(&self) -> usize {
        Game::players(self)
    }

    fn turn(&self) -> tripoley_game::Turn {
        match self.pending() {
            Pending::Chance(_) => tripoley_game::Turn::Chance,
            Pending::Decide { seat, .. } => tripoley_game::Turn::Seat(seat),
            Pending::GameOver => tripoley_game::Turn::Over,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.pending() {
            Pending::Decide { seat, .. } => self.legal(seat),
            Pending::Chance(_) | Pending::GameOver => Vec::new(),
        }
    }

    fn random_chance(&self, rng: &mut tripoley_cards::GameRng) -> DealChance {
        DealChance::random(self.rules(), rng)
    }

    fn chance_step(chance: DealChance) -> Step {
        Step::Chance(chance)
    }

    fn act_step(seat: Seat, action: Action) -> Step {
        Step::Act { seat, action }
    }

    fn take_step(&mut self, step: &Step, events: &mut Vec<Event>) -> Result<(), IllegalAction> {
        self.step(step, events)
    }

    fn take_step_quietly(&mut self, step: &Step) -> Result<(), IllegalAction> {
        self.step(step, &mut NoEvents)
    }

    fn view(&self, seat: Option<Seat>) -> crate::view::View {
        Game::view(self, seat)
    }

    type Information<'a> = crate::sample::InfoSet<'a>;

    fn information(&self, seat: Seat) -> crate::sample::InfoSet<'_> {
        crate::sample::InfoSet::new(self, seat)
    }

    fn information_view<'a>(
        information: &'a crate::sample::InfoSet<'_>,
    ) -> std::borrow::Cow<'a, crate::view::View> {
        std::borrow::Cow::Owned(information.view())
    }

    fn sample_world(&self, seat: Seat, rng: &mut tripoley_cards::GameRng) -> Game {
        crate::sample::InfoSet::new(self, seat).sample(rng)
    }

    fn only_action(&self) -> Option<Action> {
        match self.pending() {
            Pending::Decide { decision, .. } => decision.only(),
            Pending::Chance(_) | Pending::GameOver => None,
        }
    }

    fn chips_in_play(&self) -> u32 {
        Game::chips_in_play(self)
    }

    fn total_chips(&self) -> u32 {
        Game::total_chips(self)
    }
}

impl Game {
    /// Applies one recorded step.
    pub fn step(&mut self, step: &Step, ev: &mut impl EventSink) -> Result<(), IllegalAction> {
        match step {
            Step::Chance(c) => self.chance_into(c, ev),
            Step::Act { seat, action } => self.apply_into(*seat, *action, ev),
        }
    }

    /// M9b, for a server hiding withheld cards: under penalised misplays a
    /// run waits for its next card's holder to play or withhold it, and a
    /// withheld card stops the run exactly as a card nobody holds does. So
    /// the viewers who may not know which it was must see a run that stops
    /// at a card nobody holds wait as it waits for a hidden decision. This
    /// is `step` applied to a copy of the game, held where such a stop
    /// comes: the game the others see while "someone" decides (nobody is
    /// asked), with the number of `step`'s events before the stop. A step
    /// may hold several (a forced lead starts another run): this holds the
    /// one after `passed` others. `None` when `step` holds no such stop (or
    /// is illegal).
    pub fn step_to_unheld_stop(&self, step: &Step, passed: usize) -> Option<(Self, usize)> {
        /// Counts the events and holds the stop after `passed` others.
        struct Hold {
            events: usize,
            passed: usize,
            held: bool,
        }
        impl EventSink for Hold {
            fn push(&mut self, _: Event) {
                self.events += 1;
            }
            fn holds_unheld_stop(&mut self) -> bool {
                self.held = self.passed == 0;
                self.passed = self.passed.wrapping_sub(1);
                self.held
            }
        }
        let mut game = self.clone();
        let mut hold = Hold {
            events: 0,
            passed,
            held: false,
        };
        game.step(step, &mut hold).ok()?;
        hold.held.then_some((game, hold.events))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Preset;

    fn stored(version: u32, preset: Preset) -> String {
        let record = Record {
            version,
            ..Record::new(
                Rules::preset(preset),
                vec!["A".into(), "B".into(), "C".into()],
            )
        };
        record.to_json()
    }

    /// Issue 50, point 5: a record missing a name was refused as "step 3:
    /// it is not seat 3's turn"; it now says a name is missing.
    #[test]
    fn a_record_that_names_too_few_players_says_a_name_is_missing() {
        let mut record = Record::new(
            Rules::preset(Preset::Pagat),
            vec!["A".into(), "B".into(), "C".into(), "D".into()],
        );
        record.steps.push(Step::Act {
            seat: 3,
            action: crate::Action::Keep,
        });
        assert!(Record::from_json(&record.to_json()).is_ok());
        record.names.pop();
        let e = Record::from_json(&record.to_json()).unwrap_err();
        assert!(
            matches!(
                e,
                ReplayError::Seat {
                    index: 0,
                    seat: 3,
                    players: 3
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("a name is missing"), "{e}");
    }

    #[test]
    fn d5_a_version_2_record_reads_unless_it_has_bonus_card_limits() {
        let pagat = Record::from_json(&stored(2, Preset::Pagat)).expect("version 2 reads");
        assert_eq!(pagat.version, RECORD_VERSION, "read as the current version");
        let casino = Record::from_json(&stored(2, Preset::MichiganCasino));
        assert!(
            matches!(&casino, Err(ReplayError::Format(why)) if why.contains("bonus card")),
            "{casino:?}"
        );
        assert!(Record::from_json(&stored(3, Preset::MichiganCasino)).is_ok());
        assert!(Record::from_json(&stored(1, Preset::Pagat)).is_err());
    }

    #[test]
    fn t5_records_without_space_antes_still_replay_the_version_says_which() {
        // Version 3: no chips per space, read as the current version.
        let old = Record::from_json(&stored(3, Preset::Pagat)).expect("version 3 reads");
        assert_eq!(old.version, RECORD_VERSION);
        assert!(old.rules.space_antes.is_empty());
        // Without the field, the rules' JSON is as before.
        assert!(!stored(RECORD_VERSION, Preset::Pagat).contains("space_antes"));
        // With it: written and read back by version 4 only.
        let mut rules = Rules::preset(Preset::Pagat);
        rules.space_antes = [(crate::Space::Pot, 2), (crate::Space::Kitty, 2)].into();
        let record = Record::new(rules, vec!["A".into(), "B".into()]);
        let json = record.to_json();
        assert!(json.contains("\"space_antes\""), "{json}");
        assert_eq!(Record::from_json(&json).unwrap(), record);
        let as_v3 = json.replacen(
            &format!("\"version\": {RECORD_VERSION}"),
            "\"version\": 3",
            1,
        );
        assert!(
            matches!(Record::from_json(&as_v3), Err(ReplayError::Format(why)) if why.contains("version 4")),
            "{as_v3}"
        );
    }
}
