//! `completions` and `man`: generated from the parser's own definition.

use super::error::{render, AppError};
use crate::cli;
use crate::cli::Cli;
use crate::pipeline::output::Output;
use std::process::ExitCode;

/// `completions SHELL`: the script clap_complete makes from the parser's definition.
pub(super) fn run_completions(args: &cli::CompletionsArgs) -> Result<ExitCode, AppError> {
    let mut text = Vec::new();
    clap_complete::generate(
        args.shell,
        &mut <Cli as clap::CommandFactory>::command(),
        "sudoku-batch",
        &mut text,
    );
    if args.shell == clap_complete::Shell::Bash {
        text = bash_names_agree(&text);
    }
    let mut out = Output::open(None)?;
    out.write_all(&text)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// clap_complete's bash script names a hyphenated binary's commands two ways: the loop
/// over the words sets `cmd="sudoku__batch__subcmd__classify"`, the options' `case`
/// matches `sudoku__subcmd__batch__subcmd__classify)`, so no command's options were ever
/// offered. The `case` labels are given the loop's names.
fn bash_names_agree(script: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(script)
        .replace("sudoku__subcmd__batch", "sudoku__batch")
        .into_bytes()
}

/// `man`: the manual page clap_mangen makes from the parser's definition, with a page
/// section per command.
pub(super) fn run_man() -> Result<ExitCode, AppError> {
    let command = <Cli as clap::CommandFactory>::command();
    let mut text = Vec::new();
    clap_mangen::Man::new(command.clone())
        .render(&mut text)
        .map_err(render)?;
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("sudoku-batch-{}", sub.get_name());
        let page = sub
            .clone()
            .display_name(name.clone())
            .bin_name(name.replace('-', " "));
        text.extend_from_slice(b"\n");
        clap_mangen::Man::new(page)
            .render(&mut text)
            .map_err(render)?;
    }
    let mut out = Output::open(None)?;
    out.write_all(&text)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
