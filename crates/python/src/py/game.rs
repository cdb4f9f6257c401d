//! `Game`: the engine's own interface (actions, views, events, records as
//! JSON), for Tripoley and Napalm. Every step is recorded, so a game can be
//! saved and replayed in Rust exactly.

use pyo3::prelude::*;
use serde::Serialize;
use tripoley_cards::{Card, Deck, seeded_rng};
use tripoley_engine::{
    Action, DealChance, Game as Engine, InfoSet, RECORD_VERSION, Record, Seat, Step,
};
use tripoley_napalm::{
    Action as NapalmAction, NapalmGame, NapalmRecord, NapalmStep, Pending as NapalmPending,
};

use super::{json, napalm_rules_from_json, refused, rules_from_json};

/// The game behind a `Game`.
// One per Python object: boxing the larger game would only add a pointer
// to follow on every step.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub(crate) enum Inner {
    /// Tripoley, with its record (none for a sampled world, whose cards are
    /// not the recorded ones).
    Tripoley(Engine, Option<Record>),
    /// Napalm, with its record.
    Napalm(NapalmGame, NapalmRecord),
}

/// A game of Tripoley or Napalm, driven with the engine's actions.
#[pyclass(module = "tripoley._tripoley")]
#[derive(Clone)]
pub struct Game {
    pub(crate) inner: Inner,
}

/// The events a viewer may see (all of them for `None`), as JSON.
fn events_json<E: Serialize>(events: &[E], visible: impl Fn(&E) -> bool) -> String {
    let shown: Vec<&E> = events.iter().filter(|e| visible(e)).collect();
    json(&shown)
}

fn parse_deck(cards: &[String]) -> PyResult<Deck> {
    let cards = cards
        .iter()
        .map(|c| c.parse::<Card>().map_err(refused))
        .collect::<PyResult<Vec<_>>>()?;
    Deck::from_cards(&cards).map_err(refused)
}

/// A draw given as text ("H", "Q"), or the random one.
fn given_or<T: serde::de::DeserializeOwned>(
    given: Option<String>,
    random: Option<T>,
) -> PyResult<Option<T>> {
    match given {
        Some(text) => parse_json("draw", &json(&text)).map(Some),
        None => Ok(random),
    }
}

fn parse_json<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> PyResult<T> {
    serde_json::from_str(text).map_err(|e| refused(format!("{what}: {e}")))
}

#[pymethods]
impl Game {
    /// A new game: rules as JSON (Tripoley's, or Napalm's with `napalm`).
    #[new]
    #[pyo3(signature = (rules_json, players, napalm = false, names = None))]
    fn new(
        rules_json: &str,
        players: usize,
        napalm: bool,
        names: Option<Vec<String>>,
    ) -> PyResult<Game> {
        let names = names.unwrap_or_else(|| (0..players).map(|s| format!("player_{s}")).collect());
        if names.len() != players {
            return Err(refused(format!(
                "{} names for {players} players",
                names.len()
            )));
        }
        let inner = if napalm {
            let rules = napalm_rules_from_json(rules_json)?;
            let game = NapalmGame::new(rules.clone(), players).map_err(refused)?;
            Inner::Napalm(game, NapalmRecord::new(rules, names))
        } else {
            let rules = rules_from_json(rules_json)?;
            let game = Engine::new(rules.clone(), players).map_err(refused)?;
            Inner::Tripoley(game, Some(Record::new(rules, names)))
        };
        Ok(Game { inner })
    }

    /// The game a record (JSON) describes, every step replayed.
    #[staticmethod]
    fn from_record(text: &str) -> PyResult<Game> {
        let value: serde_json::Value = parse_json("record", text)?;
        let inner = if value.get("game").and_then(|g| g.as_str()) == Some("napalm") {
            let record: NapalmRecord = parse_json("record", text)?;
            let (game, _) = record.replay().map_err(refused)?;
            Inner::Napalm(game, record)
        } else {
            let record = Record::from_json(text).map_err(refused)?;
            let (game, _) = record.replay().map_err(refused)?;
            Inner::Tripoley(game, Some(record))
        };
        Ok(Game { inner })
    }

    /// The record of every step so far, as JSON.
    fn record(&self) -> PyResult<String> {
        match &self.inner {
            Inner::Tripoley(_, Some(r)) => Ok(r.to_json()),
            Inner::Tripoley(_, None) => Err(refused(
                "a sampled world has no record: its hidden cards were dealt again",
            )),
            Inner::Napalm(_, r) => Ok(serde_json::to_string_pretty(r).expect("records serialise")),
        }
    }

    /// The record format this build writes.
    #[staticmethod]
    fn record_version() -> u32 {
        RECORD_VERSION
    }

    /// Whether this is Napalm.
    #[getter]
    fn napalm(&self) -> bool {
        matches!(self.inner, Inner::Napalm(..))
    }

    /// Seats.
    #[getter]
    fn players(&self) -> usize {
        match &self.inner {
            Inner::Tripoley(g, _) => g.players(),
            Inner::Napalm(g, _) => g.players(),
        }
    }

    /// Each seat's chips.
    fn stacks(&self) -> Vec<u32> {
        match &self.inner {
            Inner::Tripoley(g, _) => g.stacks().to_vec(),
            Inner::Napalm(g, _) => g.stacks().to_vec(),
        }
    }

    /// The rules, as JSON.
    fn rules(&self) -> String {
        match &self.inner {
            Inner::Tripoley(g, _) => json(g.rules()),
            Inner::Napalm(g, _) => json(g.rules()),
        }
    }

    /// What the game waits for, as JSON: `{"decide": {"seat", "decision"}}`,
    /// `{"chance": kind}` (Napalm: `"deck"`), or `"game_over"`.
    fn pending(&self) -> String {
        match &self.inner {
            Inner::Tripoley(g, _) => json(&g.pending()),
            Inner::Napalm(g, _) => json(&g.pending()),
        }
    }

    /// Every legal action of `seat` now, as a JSON list (empty when it is
    /// not that seat's turn). A choice of five out of many cards lists every
    /// five.
    fn legal(&self, seat: Seat) -> String {
        match &self.inner {
            Inner::Tripoley(g, _) => json(&g.legal(seat)),
            Inner::Napalm(g, _) => match g.pending() {
                NapalmPending::Decide { seat: s, decision } if s == seat => {
                    json(&decision.actions())
                }
                _ => "[]".into(),
            },
        }
    }

    /// Applies `seat`'s action (JSON, e.g. `"keep"`, `{"bid": 3}`); returns
    /// the events as JSON, those `viewer` may see when given (all of them
    /// otherwise). An illegal action raises and changes nothing.
    #[pyo3(signature = (seat, action_json, viewer = None))]
    fn apply(&mut self, seat: Seat, action_json: &str, viewer: Option<Seat>) -> PyResult<String> {
        let everyone = viewer.is_none();
        match &mut self.inner {
            Inner::Tripoley(g, record) => {
                let action: Action = parse_json("action", action_json)?;
                let events = g.apply(seat, action).map_err(refused)?;
                if let Some(r) = record {
                    r.steps.push(Step::Act { seat, action });
                }
                Ok(events_json(&events, |e| {
                    everyone || e.audience().includes(viewer)
                }))
            }
            Inner::Napalm(g, record) => {
                let action: NapalmAction = parse_json("action", action_json)?;
                let events = g.apply(seat, action).map_err(refused)?;
                record.steps.push(NapalmStep::Act { seat, action });
                Ok(events_json(&events, |e| {
                    everyone || e.audience().includes(viewer)
                }))
            }
        }
    }

    /// Supplies chance: a deck shuffled from `seed`, or an explicit `deck`
    /// (52 card texts, dealt from the first), with the pay suit and the
    /// Sequence's lowest rank when the rules draw them (random from `seed`
    /// if not given). Returns the events as [`Game::apply`] does.
    #[pyo3(signature = (seed = None, deck = None, pay_suit = None, sequence = None, viewer = None))]
    fn chance(
        &mut self,
        seed: Option<u64>,
        deck: Option<Vec<String>>,
        pay_suit: Option<String>,
        sequence: Option<String>,
        viewer: Option<Seat>,
    ) -> PyResult<String> {
        let mut rng = seeded_rng(seed.unwrap_or(0));
        let deck = match (&deck, seed) {
            (Some(cards), _) => parse_deck(cards)?,
            (None, Some(_)) => Deck::shuffled(&mut rng),
            (None, None) => return Err(refused("chance needs a seed or a deck")),
        };
        let everyone = viewer.is_none();
        match &mut self.inner {
            Inner::Tripoley(g, record) => {
                let drawn = DealChance::random(g.rules(), &mut rng);
                let chance = DealChance {
                    deck,
                    pay_suit: given_or(pay_suit, drawn.pay_suit)?,
                    sequence: given_or(sequence, drawn.sequence)?,
                };
                let events = g.chance(chance.clone()).map_err(refused)?;
                if let Some(r) = record {
                    r.steps.push(Step::Chance(chance));
                }
                Ok(events_json(&events, |e| {
                    everyone || e.audience().includes(viewer)
                }))
            }
            Inner::Napalm(g, record) => {
                let events = g.deal(&deck).map_err(refused)?;
                record.steps.push(NapalmStep::Deck(deck));
                Ok(events_json(&events, |e| {
                    everyone || e.audience().includes(viewer)
                }))
            }
        }
    }

    /// What `seat` may know (a spectator's view for `None`), as JSON.
    #[pyo3(signature = (seat = None))]
    fn view(&self, seat: Option<Seat>) -> String {
        match &self.inner {
            Inner::Tripoley(g, _) => json(&g.view(seat)),
            Inner::Napalm(g, _) => json(&g.view(seat)),
        }
    }

    /// Where every card is, which no player may see (for checks): each
    /// seat's hand, then the spare and the cards played (Tripoley).
    fn card_locations(&self) -> (Vec<Vec<String>>, Vec<String>, Vec<String>) {
        let texts = |set: tripoley_cards::CardSet| set.iter().map(|c| c.to_string()).collect();
        match &self.inner {
            Inner::Tripoley(g, _) => {
                let (hands, spare, played) = g.card_locations();
                (
                    hands.into_iter().map(texts).collect(),
                    texts(spare),
                    texts(played),
                )
            }
            Inner::Napalm(g, _) => (
                g.cards().iter().map(|&c| texts(c)).collect(),
                Vec::new(),
                Vec::new(),
            ),
        }
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        match &self.inner {
            Inner::Tripoley(g, _) => g.standings().is_some(),
            Inner::Napalm(g, _) => g.is_over(),
        }
    }

    /// A game that looks exactly the same from `seat`, every card hidden
    /// from it dealt again at random (Tripoley; it has no record).
    fn sample_world(&self, seat: Seat, seed: u64) -> PyResult<Game> {
        match &self.inner {
            Inner::Tripoley(g, _) => {
                let sample = InfoSet::new(g, seat).sample(&mut seeded_rng(seed));
                Ok(Game {
                    inner: Inner::Tripoley(sample, None),
                })
            }
            Inner::Napalm(..) => Err(refused("sampling worlds is for Tripoley only")),
        }
    }

    /// An independent copy.
    fn clone(&self) -> Game {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Game {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        Clone::clone(self)
    }
}
