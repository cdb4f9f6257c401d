//! Napalm in integers.
