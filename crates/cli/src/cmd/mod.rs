//! One module per subcommand.

pub mod bench;
pub mod eval;
pub mod replay;
pub mod rules;
pub mod sim;
