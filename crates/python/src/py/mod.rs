//! The PyO3 binding: the `tripoley._tripoley` extension module. Values
//! cross as JSON text in the engine's own serde forms (rules, actions,
//! views, records, events), which the Python package turns into dicts; the
//! integer interface ([`table`]) crosses as ints and little-endian buffers
//! so environment steps stay cheap.

// PyO3 extracts arguments as owned values (a list arrives as a Vec).
#![allow(clippy::needless_pass_by_value)]

mod aec;
mod bots;
mod game;
mod out;
mod pool;
mod table;
mod vector;

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyFloat;
use serde::Serialize;
use tripoley_bots::sim::{SimConfig, simulate as run_simulation};
use tripoley_bots::{BotKind, BotOptions, BotSpec};
use tripoley_cards::{CardSet, Evaluator};
use tripoley_engine::{Preset, Rules};
use tripoley_napalm::NapalmRules;

use crate::space::CHOOSE_FIVE;

pyo3::create_exception!(
    _tripoley,
    TripoleyError,
    PyException,
    "The engine refused something: an illegal action, bad rules, a bad record. The message is the engine's."
);

/// A refusal as a Python exception.
pub(crate) fn refused(message: impl std::fmt::Display) -> PyErr {
    TripoleyError::new_err(message.to_string())
}

/// An integer of the action space (or a chance outcome) as every interface
/// takes it: a Python or NumPy integer of 0 or more. Anything else (a
/// float, a string, a negative number) is refused here, never cast: `1.7`
/// is not action 1.
pub(crate) fn action_index(action: &Bound<'_, PyAny>) -> PyResult<usize> {
    let whole = if action.is_instance_of::<PyFloat>() {
        None
    } else {
        action.extract::<i64>().ok()
    };
    whole.and_then(|a| usize::try_from(a).ok()).ok_or_else(|| {
        refused(format!(
            "an action is an integer of the action space (0 or more), not {}",
            action
                .repr()
                .map_or_else(|_| "this".to_owned(), |r| r.to_string())
        ))
    })
}

/// A value as JSON text.
pub(crate) fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("engine values serialise")
}

/// Rules from a preset name, or from JSON options over a preset (a `preset`
/// key names the starting point, as in house-rule files), validated.
pub(crate) fn rules_from_json(text: &str) -> PyResult<Rules> {
    let mut options: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(text).map_err(|e| refused(format!("rules: {e}")))?;
    let base = match options.remove("preset") {
        Some(serde_json::Value::String(name)) => name.parse::<Preset>().map_err(refused)?,
        Some(_) => return Err(refused("rules: preset must be a name such as \"pagat\"")),
        None => Preset::Pagat,
    };
    let serde_json::Value::Object(mut merged) =
        serde_json::to_value(Rules::preset(base)).expect("rules serialise")
    else {
        unreachable!("rules serialise to an object")
    };
    merged.extend(options);
    let rules: Rules = serde_json::from_value(serde_json::Value::Object(merged))
        .map_err(|e| refused(format!("rules: {e}")))?;
    rules.validate().map_err(refused)?;
    Ok(rules)
}

/// Napalm rules from JSON options over the defaults.
pub(crate) fn napalm_rules_from_json(text: &str) -> PyResult<NapalmRules> {
    serde_json::from_str(text).map_err(|e| refused(format!("napalm rules: {e}")))
}

/// Validated rules as JSON: from options over a preset (`options_json`).
#[pyfunction]
fn rules_json(options_json: &str) -> PyResult<String> {
    Ok(json(&rules_from_json(options_json)?))
}

/// Validated rules as JSON, from a house-rule file's text (TOML).
#[pyfunction]
fn rules_from_toml(text: &str) -> PyResult<String> {
    Ok(json(&Rules::from_toml(text).map_err(refused)?))
}

/// Rules (JSON) as the text of a house-rule file.
#[pyfunction]
fn rules_to_toml(rules_json: &str) -> PyResult<String> {
    Ok(rules_from_json(rules_json)?.to_toml())
}

/// The names of the presets.
#[pyfunction]
fn presets() -> Vec<&'static str> {
    Preset::ALL.iter().map(|p| p.name()).collect()
}

/// The JSON key of the engine's "these five are my poker hand" action
/// (`{"show": [...]}` today), so Python names it in one place too.
#[pyfunction]
fn choose_five_key() -> String {
    let value = serde_json::to_value(CHOOSE_FIVE(CardSet::EMPTY)).expect("actions serialise");
    value
        .as_object()
        .and_then(|o| o.keys().next().cloned())
        .expect("the five is an action with cards")
}

/// The best five of `cards` (card texts such as "10H"): the five, the
/// hand's name and its value (larger is better).
#[pyfunction]
#[pyo3(signature = (cards, ace_always_high = false))]
fn best_five(cards: Vec<String>, ace_always_high: bool) -> PyResult<(Vec<String>, String, u32)> {
    let set: CardSet = cards.join(" ").parse().map_err(refused)?;
    if set.len() < 5 || set.len() as usize != cards.len() {
        return Err(refused(format!(
            "the best five needs at least five different cards, not {}",
            cards.len()
        )));
    }
    let evaluator = if ace_always_high {
        Evaluator::ACE_HIGH
    } else {
        Evaluator::STANDARD
    };
    let (rank, five) = evaluator.best_five(set);
    let five = rank.arrange(five).iter().map(ToString::to_string).collect();
    Ok((five, rank.name(), rank.value()))
}

/// Plays `deals` deals between bots on every core and returns the
/// simulator's statistics as JSON.
#[pyfunction]
fn simulate(
    py: Python<'_>,
    rules_json: &str,
    bots: Vec<String>,
    deals: u64,
    seed: u64,
) -> PyResult<String> {
    let rules = rules_from_json(rules_json)?;
    let bots = bots
        .iter()
        .map(|b| b.parse::<BotKind>().map(BotSpec::Kind).map_err(refused))
        .collect::<PyResult<Vec<_>>>()?;
    let config = SimConfig {
        rules,
        bots,
        options: BotOptions::default(),
        deals,
        seed,
        series_deals: 0,
        save_records: None,
    };
    let summary = py
        .detach(|| run_simulation(&config, &|_| {}))
        .map_err(refused)?;
    Ok(json(&summary))
}

/// The extension module.
#[pymodule]
fn _tripoley(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TripoleyError", m.py().get_type::<TripoleyError>())?;
    m.add_function(wrap_pyfunction!(rules_json, m)?)?;
    m.add_function(wrap_pyfunction!(rules_from_toml, m)?)?;
    m.add_function(wrap_pyfunction!(rules_to_toml, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(best_five, m)?)?;
    m.add_function(wrap_pyfunction!(choose_five_key, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_class::<game::Game>()?;
    m.add_class::<table::Table>()?;
    m.add_class::<bots::Bot>()?;
    m.add_class::<aec::Aec>()?;
    m.add_class::<aec::AgentIter>()?;
    m.add_class::<vector::VecTables>()?;
    m.add_class::<pool::VecPool>()?;
    Ok(())
}
