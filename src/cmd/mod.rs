//! One module per subcommand: its arguments and the code that runs it.

pub mod bench;
pub mod calibrate;
pub mod judge;
pub mod plan;
pub mod play;
pub mod solve;
