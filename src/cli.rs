//! The command line: one subcommand enum, each subcommand's arguments and code in `src/cmd/`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::cmd;

/// Exit code for an error: bad input, a missing file, a failed stage.
pub const ERROR_EXIT: u8 = 2;

/// Plays link-up tile games (Lianliankan, Onet, Shisen-Sho) by reading the screen and clicking.
#[derive(Debug, Parser)]
#[command(name = "linkup", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a clearing sequence for a board given as text.
    Plan(cmd::plan::Args),
    /// Dry run on a screenshot: find the board, read the grid, print the move plan.
    Solve(cmd::solve::Args),
    /// Find the board in a screenshot and write a calibration profile.
    Calibrate(cmd::calibrate::Args),
    /// Play a real game window until the board is empty.
    Play(cmd::play::Args),
    /// Online-judge programs from the seed documents (read stdin, write verdicts).
    #[command(subcommand)]
    Judge(cmd::judge::Judge),
    /// Measure the solvers on random deals.
    Bench(cmd::bench::Bench),
    /// List the profiles `--profile NAME` finds, with where each comes from.
    Profiles(cmd::profiles::Args),
}

/// Runs a parsed command line; the exit code on success, an error chain otherwise.
///
/// Output cut short by a closed pipe (`linkup plan b.txt | head`) is a quiet success, as for
/// other command-line tools.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match run_command(cli.command) {
        Err(err) if is_broken_pipe(&err) => Ok(ExitCode::SUCCESS),
        other => other,
    }
}

fn run_command(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Plan(args) => cmd::plan::run(args),
        Command::Solve(args) => cmd::solve::run(args),
        Command::Calibrate(args) => cmd::calibrate::run(args),
        Command::Play(args) => cmd::play::run(args),
        Command::Judge(judge) => cmd::judge::run(judge),
        Command::Bench(bench) => cmd::bench::run(bench),
        Command::Profiles(args) => cmd::profiles::run(args),
    }
}

/// Whether the error comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
