//! One module per subcommand: its arguments and the code that runs it.

/// `print!` to stdout that hands back the write error (a closed pipe, say) instead of
/// panicking; use it with `?`.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `println!` to stdout that hands back the write error instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

pub mod bench;
pub mod calibrate;
pub mod judge;
pub mod plan;
pub mod play;
pub mod profiles;
pub mod solve;
