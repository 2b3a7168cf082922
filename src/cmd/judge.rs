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
    /// Glow Puzzle (seed 003): the fewest strokes that draw every edge of each graph.
    ///
    /// Reads cases of `n m` (vertices 1..n) and m lines `a b` (undirected edges) until the end of
    /// input. A stroke is one continuous pen path; every edge must be drawn exactly once. Loops
    /// and parallel edges are edges (a loop adds 2 to its vertex's degree); vertices without
    /// edges need nothing. Prints one line per case: the fewest strokes, which per connected
    /// component with edges is 1 if every degree is even, else (odd-degree vertices) / 2. A case
    /// without edges prints 0. Limits: n <= 100000, m <= 200000 per case.
    Strokes {
        /// Print 1 if one closed stroke draws every edge (all edges in one component, every
        /// degree even), else 0. Vertices without edges do not matter, and a case without edges
        /// prints 1: there is nothing left undrawn.
        #[arg(long, conflicts_with = "paths")]
        circuit: bool,
        /// After each case's count, print that many lines, one per stroke: the vertices it
        /// visits in order, separated by spaces (at least two; a closed stroke repeats its first
        /// vertex at the end). Together they draw every edge exactly once.
        #[arg(long)]
        paths: bool,
    },
    /// HDOJ 2699 (seed 004): can the side to move make five in a row with one stone?
    ///
    /// Reads T, then T boards of 15 rows; a row is one line of exactly 15 cells `.` (empty), `W`
    /// or `B`. Trailing spaces, tabs and `\r` after a row are ignored, leading ones are not;
    /// blank lines may stand before a board but not inside one; nothing but white space may
    /// follow the last board. White moves when black has more stones, otherwise black. Prints
    /// YES per board when the side to move can place one stone on an empty cell so that it lies
    /// in a row, column or diagonal of exactly five of its stones (six or more is not five),
    /// else NO. Fives already on the board do not count.
    Gomoku {
        /// Count five or more stones in a row as a win.
        #[arg(long)]
        overline: bool,
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
        Judge::Strokes { circuit, paths } => {
            let report = if circuit {
                judge::strokes::Report::Circuit
            } else if paths {
                judge::strokes::Report::Paths
            } else {
                judge::strokes::Report::Count
            };
            judge::strokes::judge(&input, report)
        }
        Judge::Gomoku { overline } => judge::gomoku::judge(&input, overline),
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
