//! The `linkup` command: parse the command line, run it, report any error in one line.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = linkup::cli::Cli::parse();
    match linkup::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("linkup: {err:#}");
            ExitCode::from(linkup::cli::ERROR_EXIT)
        }
    }
}
