//! The database's clock, as SQL. A leaf: the store and the cluster both
//! read it, and it depends on neither.

/// The database's clock in milliseconds, as SQL: every process reads the
/// same clock, so leases (and the counts of one address's creates,
/// `store::Caps`) do not depend on the machines' clocks agreeing.
macro_rules! now_ms {
    () => {
        "(extract(epoch from clock_timestamp()) * 1000)::bigint"
    };
}
pub(crate) use now_ms;
