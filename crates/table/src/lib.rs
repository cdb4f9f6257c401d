//! The game side of a Tripoley table, with no I/O and no clock: the
//! protocol's messages, the frames each viewer is sent (from each step's
//! events, journaled once with who may see each), the held stops that keep
//! a withhold secret, [`Played`], a started game of either kind behind one
//! interface, and [`Local`], a table played on one device.
//!
//! The server's table actor and the browser's offline table (the `web`
//! crate, in a worker) both build their frames here, so the web client
//! draws an offline game and an online one from the same messages.

pub mod frames;
pub mod hold;
pub mod journal;
pub mod local;
pub mod message;
pub mod played;
pub mod protocol;
pub mod replay;
pub mod shared_view;

pub use local::Local;
pub use played::{Due, Played, TableStep, Views};
