//! The network side, below the routes: the listener's limits per client
//! address (`limits`), the PROXY protocol that names a proxied client
//! (`proxy`), websocket connections (`ws`) and the embedded web client's
//! files (`web`).

pub(crate) mod limits;
pub mod proxy;
pub mod web;
pub(crate) mod ws;
