//! The tables each client address created lately, which the caps on one
//! address's creates count across every process (`creations`, written with
//! each counted create: `store::Caps`). A row is kept while it counts: for
//! the window of `max_tables_per_address`, and while its table is a lobby
//! (the cap on open lobbies); then any process's beat removes it, so an
//! address is kept no longer than that.

use crate::clock::now_ms;
use tokio_postgres::Client;

use super::lease::failed;
use crate::ServerError;

/// Removes the creations older than `window_ms` whose table is no longer a
/// lobby (started, or removed).
pub(super) async fn forget_old(db: &Client, window_ms: i64) -> Result<u64, ServerError> {
    const FORGET: &str = concat!(
        "DELETE FROM creations c WHERE c.created < ",
        now_ms!(),
        " - $1 AND NOT EXISTS (SELECT 1 FROM tables t WHERE t.invite = c.invite \
         AND t.status = 'lobby')"
    );
    db.execute(FORGET, &[&window_ms])
        .await
        .map_err(|e| failed("removing old creations", &e))
}
