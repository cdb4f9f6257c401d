//! The tables each client address created lately, which the cap on one
//! address's creates in a window counts across every process (`creations`,
//! written with each counted create: `store::Caps`; its open lobbies are
//! counted from the tables themselves). A row is kept for the window of
//! `max_tables_per_address`; then any process's beat removes it, so an
//! address is kept no longer than that.

use crate::clock::now_ms;
use tokio_postgres::Client;

use super::lease::failed;
use crate::ServerError;

/// Removes the creations older than `window_ms`.
pub(super) async fn forget_old(db: &Client, window_ms: i64) -> Result<u64, ServerError> {
    const FORGET: &str = concat!("DELETE FROM creations WHERE created < ", now_ms!(), " - $1");
    db.execute(FORGET, &[&window_ms])
        .await
        .map_err(|e| failed("removing old creations", &e))
}
