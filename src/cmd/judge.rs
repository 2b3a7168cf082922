//! `linkup judge ...`: the online-judge programs from the seed documents.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::Context;

use crate::judge;

/// The judges.
#[derive(Debug, clap::Subcommand)]
pub enum Judge {
    /// HDOJ 1175: for each query, can the two tiles be linked with at most two turns?
    ///
    /// Reads cases of `n m`, n rows of m kinds (0 = empty), `q`, then q lines `x1 y1 x2 y2`
    /// (1-based row, column) until `0 0`; prints YES or NO per query. Paths stay on the board
    /// unless --border is given. Queries are independent: nothing is removed.
    Link {
        /// Let paths run through the ring just outside the board.
        #[arg(long)]
        border: bool,
    },
}

/// Reads all of stdin.
fn read_stdin() -> anyhow::Result<Vec<u8>> {
    let mut input = Vec::new();
    std::io::stdin()
        .read_to_end(&mut input)
        .context("cannot read standard input")?;
    Ok(input)
}

/// Runs a judge: the whole output on success; on bad input one error line and exit code 2.
pub fn run(which: Judge) -> anyhow::Result<ExitCode> {
    let input = read_stdin()?;
    let result = match which {
        Judge::Link { border } => judge::link::judge(&input, border),
    };
    match result {
        Ok(output) => {
            std::io::stdout().lock().write_all(output.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            eprintln!("linkup: stdin: {err}");
            Ok(ExitCode::from(crate::cli::ERROR_EXIT))
        }
    }
}
