//! Tripoley for Python. The pure-Rust core ([`space`], [`table`],
//! [`napalm`]) turns the engine into what learning libraries expect: a fixed
//! integer action space with masks, observations as flat vectors built from
//! one seat's view, and chance either seeded or drawn outcome by outcome.
//! The PyO3 binding (`py`, behind the `python` feature that maturin turns
//! on) exposes it, with the engine, bots and simulator, as the `tripoley`
//! Python package.

// The Python libraries' names (OpenSpiel, PettingZoo) read better as words.
#![allow(clippy::doc_markdown)]

mod crew;
pub mod draw;
pub mod int_game;
pub mod napalm;
pub mod observe;
pub mod pool;
pub mod space;
pub mod table;
pub mod vector;
pub mod world;

#[cfg(feature = "python")]
mod py;
