//! `Bot`: our random, heuristic and expert players (Napalm: random and
//! heuristic), asked on a game, a table, or a bare view.

use std::sync::Mutex;

use pyo3::prelude::*;
use tripoley_bots::{Bot as TripoleyBot, BotKind, BotOptions, Budget};
use tripoley_cards::{GameRng, seeded_rng};
use tripoley_engine::{InfoSet, Seat, View};
use tripoley_napalm::{HeuristicNapalmBot, NapalmGame, NapalmView, RandomNapalmBot};

use super::game::{Game, Inner};
use super::table::{AnyTable, Table};
use super::{json, napalm_rules_from_json, refused, rules_from_json};
use crate::napalm::napalm_integer;
use crate::table::{Turn, bot_steps};

enum Player {
    Tripoley(Box<dyn TripoleyBot>),
    Napalm(Box<dyn tripoley_game::Bot<NapalmGame>>),
}

/// One of our bots. It sees only the seat's view (the expert also samples
/// worlds consistent with it), so it never cheats.
#[pyclass(module = "tripoley._tripoley")]
pub struct Bot {
    player: Mutex<Player>,
    kind: String,
}

impl Bot {
    fn lock(&self) -> std::sync::MutexGuard<'_, Player> {
        self.player
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[pymethods]
impl Bot {
    /// A bot of `kind` ("random", "heuristic", "expert") for a table with
    /// these rules (JSON). The expert searches `millis` milliseconds a
    /// decision (10 by default) or exactly `playouts` playouts (deterministic).
    #[new]
    #[pyo3(signature = (kind, rules_json = "{}", napalm = false, millis = None, playouts = None))]
    fn new(
        kind: &str,
        rules_json: &str,
        napalm: bool,
        millis: Option<u32>,
        playouts: Option<u32>,
    ) -> PyResult<Bot> {
        let player = if napalm {
            napalm_rules_from_json(rules_json)?;
            Player::Napalm(match kind {
                "random" => Box::new(RandomNapalmBot),
                "heuristic" => Box::new(HeuristicNapalmBot),
                _ => {
                    return Err(refused(format!(
                        "unknown Napalm bot {kind:?}: choose random or heuristic"
                    )));
                }
            })
        } else {
            let rules = rules_from_json(rules_json)?;
            let kind: BotKind = kind.parse().map_err(refused)?;
            let budget = match (playouts, millis) {
                (Some(n), _) => Budget::playouts(n),
                (None, Some(ms)) => Budget::millis(ms),
                (None, None) => Budget::DEFAULT,
            };
            let options = BotOptions {
                budget,
                ..BotOptions::default()
            };
            Player::Tripoley(kind.make_with(&rules, &options))
        };
        Ok(Bot {
            player: Mutex::new(player),
            kind: kind.to_owned(),
        })
    }

    /// The bot's kind.
    #[getter]
    fn kind(&self) -> &str {
        &self.kind
    }

    /// The bot's action (JSON) for `seat`, whose turn it must be, in `game`.
    fn act(&self, py: Python<'_>, game: &Game, seat: Seat, seed: u64) -> PyResult<String> {
        let mut rng = seeded_rng(seed);
        // Without the GIL: an expert searches for a while, and a bot asked
        // from two threads waits for its lock without holding the GIL.
        py.detach(|| match (&mut *self.lock(), &game.inner) {
            (Player::Tripoley(bot), Inner::Tripoley(g, _)) => {
                ensure_turn(matches!(
                    g.pending(),
                    tripoley_engine::Pending::Decide { seat: s, .. } if s == seat
                ))?;
                Ok(json(&bot.act_in(&InfoSet::new(g, seat), &mut rng)))
            }
            (Player::Napalm(bot), Inner::Napalm(g, _)) => {
                let view = g.view(Some(seat));
                ensure_turn(view.decision.is_some())?;
                Ok(json(&bot.act(&view, &mut rng)))
            }
            _ => Err(refused("this bot plays the other game")),
        })
    }

    /// The bot's action (JSON) on a bare view (JSON) whose decision is set.
    /// The expert, given no game to sample, plays as its heuristic would.
    fn act_on_view(&self, py: Python<'_>, view_json: &str, seed: u64) -> PyResult<String> {
        let mut rng: GameRng = seeded_rng(seed);
        let bad = |e: serde_json::Error| refused(format!("view: {e}"));
        py.detach(|| match &mut *self.lock() {
            Player::Tripoley(bot) => {
                let view: View = serde_json::from_str(view_json).map_err(bad)?;
                ensure_turn(view.decision.is_some())?;
                Ok(json(&bot.act(&view, &mut rng)))
            }
            Player::Napalm(bot) => {
                let view: NapalmView = serde_json::from_str(view_json).map_err(bad)?;
                ensure_turn(view.decision.is_some())?;
                Ok(json(&bot.act(&view, &mut rng)))
            }
        })
    }

    /// The integers that play the bot's choice at `table`'s decision: one,
    /// or the picks of a poker five (those not yet picked). `seed` seeds the
    /// bot's randomness; without one it draws from the table's bots' generator
    /// (never from its deals').
    #[pyo3(signature = (table, seed = None))]
    fn steps(&self, py: Python<'_>, table: &mut Table, seed: Option<u64>) -> PyResult<Vec<usize>> {
        let seed = seed.unwrap_or_else(|| table.bot_seed());
        let mut rng = seeded_rng(seed);
        let table = &*table;
        py.detach(|| match (&mut *self.lock(), &table.inner) {
            (Player::Tripoley(bot), AnyTable::Tripoley(t)) => {
                let mut steps = Vec::new();
                bot_steps(bot.as_mut(), t, &mut rng, &mut steps).map_err(refused)?;
                Ok(steps)
            }
            (Player::Napalm(bot), AnyTable::Napalm(t)) => {
                let Turn::Seat(seat) = t.turn() else {
                    return Err(refused("no seat is to act now"));
                };
                Ok(vec![napalm_integer(bot.act(&t.view(Some(seat)), &mut rng))])
            }
            _ => Err(refused("this bot plays the other game")),
        })
    }
}

fn ensure_turn(ok: bool) -> PyResult<()> {
    if ok {
        Ok(())
    } else {
        Err(refused("the bot is asked only on its seat's turn"))
    }
}
