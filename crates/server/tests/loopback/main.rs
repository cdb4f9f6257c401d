//! The server over loopback: real servers on throwaway databases, driven by
//! test clients as players, spectators and attackers would drive them.
//!
//! One test binary, each concern a module: the tests share the server's
//! code as built once, where a binary per file compiled and linked the
//! whole server again for each (about 50 s apiece on a 2-core machine).

mod common;

mod analysis;
mod attacks;
mod bots;
mod crowding;
mod determined;
mod games;
mod hint;
mod leak;
mod loadtest;
mod napalm;
mod news;
mod rematch;
mod replay;
mod security;
mod slow;
mod social;
mod web;
