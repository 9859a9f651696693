//! `show`: a few records drawn for a person.

use super::config::{board_rules, layout_choice};
use super::error::AppError;
use super::inputs::read_input;
use crate::cli;
use crate::datasets::show::Pick;
use crate::pipeline::input;
use crate::pipeline::output::Output;
use std::io::IsTerminal;
use std::process::ExitCode;

pub(super) fn run_show(args: &cli::ShowArgs) -> Result<ExitCode, AppError> {
    let bytes = read_input(&args.input, false, args.member.as_deref())?;
    let layout = input::detect_layout_as(bytes.bytes(), &layout_choice(&args.layout)?)?;
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let rules = board_rules(&args.boards)?;
    let pick = if args.records.is_empty() {
        Pick::Lines(&args.lines)
    } else {
        Pick::Records(&args.records)
    };
    let text = crate::datasets::show::show(
        bytes.bytes(),
        &layout,
        pick,
        &rules,
        crate::datasets::show::Style {
            color,
            titles: !args.no_titles,
            solution: !args.no_solution,
        },
    )
    .map_err(|source| AppError::Show {
        path: args.input.clone(),
        source,
    })?;
    let mut out = Output::open(None)?;
    out.write_all(text.as_bytes())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
