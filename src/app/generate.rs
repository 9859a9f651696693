//! `generate`: new puzzles from a seed.

use super::config::{
    board_rules, default_threads, encoding, named_outputs, row_format, show_progress,
};
use super::error::{AppError, Usage};
use super::outputs::write_results;
use crate::cli::{EngineArg, GenerateArgs, LevelArg, MadeFormatArg, SymmetryArg};
use crate::engines::dlx::Dlx;
use crate::engines::generate::{BoardPlan, Pattern, Spec, Target, MIN_GIVENS};
use crate::engines::grader::Levels;
use crate::engines::Bitboards;
use crate::jobs::Generate;
use crate::pipeline;
use crate::pipeline::output;
use crate::pipeline::output::{Encoding, Output};
use crate::pipeline::rows::OutputFormat;
use crate::pipeline::MakeOptions;
use crate::values::board::Symbols;
use crate::values::level::Level;
use std::process::ExitCode;

pub(super) fn run_generate(args: &GenerateArgs) -> Result<ExitCode, AppError> {
    let pattern = match args.symmetry {
        SymmetryArg::None => Pattern::None,
        SymmetryArg::Rot180 => Pattern::Rot180,
        SymmetryArg::Rot90 => Pattern::Rot90,
        SymmetryArg::Mirror => Pattern::Mirror,
        SymmetryArg::Diagonal => Pattern::Diagonal,
    };
    let target = args.givens.map_or(Target::Minimal, Target::Givens);
    let levels: Vec<Level> = args
        .difficulty
        .iter()
        .map(|l| match l {
            LevelArg::Easy => Level::Easy,
            LevelArg::Medium => Level::Medium,
            LevelArg::Hard => Level::Hard,
            LevelArg::Expert => Level::Expert,
            LevelArg::Extreme => Level::Extreme,
        })
        .collect();
    let level = (!levels.is_empty()).then(|| Levels::of(&levels));
    let rules = board_rules(&args.boards)?;
    let generate = if rules.all_boards() {
        let side = rules
            .size
            .or(rules.symbols.as_ref().map(Symbols::side))
            .unwrap_or(9);
        if level.is_some() || args.grade {
            return Err(Usage::DifficultyOfBoards.into());
        }
        if let Some(k) = args.givens.filter(|&k| usize::from(k) > side * side) {
            return Err(Usage::GivensOverCells { givens: k, side }.into());
        }
        let plan =
            BoardPlan::new(side, rules.variant, pattern, target).map_err(AppError::Geometry)?;
        Generate::boards(plan, args.seed)
    } else {
        if let Some(k) = args.givens.filter(|k| !(MIN_GIVENS..=81).contains(k)) {
            return Err(Usage::GivensOutOfRange(k).into());
        }
        Generate::new(Spec { pattern, target }, args.seed, level, args.grade)
    };
    let options = MakeOptions {
        count: args.count,
        threads: args.threads.map_or_else(default_threads, usize::from),
        output_format: made_format(args),
        progress: show_progress(&args.out),
        symbols: generate
            .board_plan()
            .map(|plan| rules.symbols_for(plan.side())),
        no_solution: args.no_solution,
    };
    output::check_outputs(&[], &named_outputs(&args.out))?;
    let encoding = match args.format {
        Some(_) => Encoding::Plain,
        None => encoding(args.output_format, args.out.output.as_deref(), usize::MAX)?,
    };
    let mut out = Output::open_as(args.out.output.as_deref(), encoding)?;
    let (mut report, histogram) = match args.engine {
        EngineArg::Fast => pipeline::generate_records::<Bitboards>(&generate, &options, &mut out),
        EngineArg::Dlx => pipeline::generate_records::<Dlx>(&generate, &options, &mut out),
    }?;
    report.input = match generate.board_plan() {
        None => format!("generate (seed {})", args.seed),
        Some(plan) => format!(
            "generate {0}x{0} {1} (seed {2})",
            plan.side(),
            plan.variant().name(),
            args.seed
        ),
    };
    report.add_commit(out.finish_timed()?);
    write_results(&report, &histogram, &args.out)?;
    Ok(ExitCode::SUCCESS)
}

/// `generate`'s row format: `--output-format`, or the older `--format csv|lines`
/// (`lines` then meant pairs), else the output's name.
pub(super) fn made_format(args: &GenerateArgs) -> OutputFormat {
    match args.format {
        Some(MadeFormatArg::Csv) => OutputFormat::Csv,
        Some(MadeFormatArg::Lines) => OutputFormat::Pairs,
        None => row_format(args.output_format, args.out.output.as_deref()),
    }
}
