//! The command line's tests, in one binary (one link instead of one per
//! command): each module runs the built `tripoley` program as a person
//! would, or drives its library, and checks what it prints and writes.
//! `cargo test -p tripoley --test cli MODULE` runs one module (`sim`,
//! `play`, `cluster`, ...).

mod common;

mod analyse;
mod cluster;
mod eval;
mod loadtest;
mod napalm;
mod outside_bots;
mod play;
mod replay;
mod rules;
mod serve;
mod sim;
