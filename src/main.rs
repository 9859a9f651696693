//! The `sudoku-batch` command: parses the command line and hands it to the library.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    sudoku_batch::app::run(sudoku_batch::cli::Cli::parse())
}
