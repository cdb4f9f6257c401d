//! One module per subcommand.

pub mod analyse;
pub mod arena;
pub mod bench;
pub mod eval;
pub mod proof;
pub mod replay;
pub mod rules;
pub mod serve;
pub mod sim;
pub mod site;
