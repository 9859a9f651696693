//! `show`: a few records drawn for a person.

use std::io::IsTerminal;
use std::process::ExitCode;

use super::config::{board_rules, layout_choice};
use super::error::AppError;
use super::inputs::open_input;
use crate::cli;
use crate::datasets::show::{Pick, Picker, Style};
use crate::pipeline::input::DEFAULT_MAX_RECORD;
use crate::pipeline::output::Output;
use crate::pipeline::records::each_record;

pub(super) fn run_show(args: &cli::ShowArgs) -> Result<ExitCode, AppError> {
    let choice = layout_choice(&args.layout)?;
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let rules = board_rules(&args.boards)?;
    let pick = if args.records.is_empty() {
        Pick::Lines(&args.lines)
    } else {
        Pick::Records(&args.records)
    };
    // Read record by record up to the last one asked for: a compressed input is decoded
    // only that far.
    let opened = open_input(
        &args.input,
        false,
        args.member.as_deref(),
        &choice.column,
        None,
        None,
    )?;
    let mut picker = Picker::new(pick, &rules);
    let layout = each_record(opened, &args.input, &choice, DEFAULT_MAX_RECORD, |_, r| {
        picker.take(r)
    })?;
    let style = Style {
        color,
        titles: !args.no_titles,
        solution: !args.no_solution,
    };
    let text = picker
        .draw(&layout, style)
        .map_err(|source| AppError::Show {
            path: args.input.clone(),
            source,
        })?;
    let mut out = Output::open(None)?;
    out.write_all(text.as_bytes())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
