//! `corpus`: large test sets by validity-preserving transforms.

use super::error::AppError;
use super::inputs::load_puzzles;
use crate::cli;
use crate::pipeline::output;
use crate::pipeline::output::name::Named;
use crate::pipeline::output::tabular::Tabular;
use crate::pipeline::output::{Output, OutputError};
use crate::pipeline::progress::{Progress, ProgressUnit};
use crate::values::rules::BoardRules;
use std::process::ExitCode;

pub(super) fn run_corpus(args: &cli::CorpusArgs) -> Result<ExitCode, AppError> {
    let started = std::time::Instant::now();
    let source = args.source();
    if let Some(out) = &args.output {
        output::check_outputs(&[(source, "the input")], &[(out, "-o")])?;
    }
    // One puzzle per line; a table (a column `puzzle`) where the name asks for one.
    let path = args.output.as_deref();
    let table = Tabular::of_name(&Named::of(path)).is_some();
    let encoding = Tabular::rows_encoding(None, path, 0)?;
    let loaded = load_puzzles(source, None, &args.layout, &BoardRules::default())?;
    if loaded.puzzles.is_empty() {
        return Err(AppError::NoPuzzles {
            path: source.to_path_buf(),
            doing: "transform",
            invalid: None,
        });
    }
    let mut out = Output::open_as(path, encoding)?;
    let mut buf = Vec::with_capacity(1 << 20);
    if table {
        buf.extend_from_slice(b"puzzle\n");
    }
    let mut failed: Option<OutputError> = None;
    let shown = super::config::progress_shown(args.quiet, args.no_progress);
    let progress = Progress::new(args.count, ProgressUnit::Records, "", shown);
    let mut made = 0u64;
    crate::engines::corpus::generate(&loaded.puzzles, args.count, args.seed, |g| {
        if failed.is_some() {
            return;
        }
        buf.extend_from_slice(&g.to_line());
        buf.push(b'\n');
        made += 1;
        if buf.len() >= 1 << 20 {
            if let Err(e) = out.write_all(&buf) {
                failed = Some(e);
            }
            buf.clear();
            progress.set(made);
        }
    });
    progress.finish();
    if let Some(e) = failed {
        return Err(e.into());
    }
    out.write_all(&buf)?;
    out.finish()?;
    if !args.quiet {
        eprintln!(
            "corpus: {} records from {} puzzles of {} (seed {}) in {:.2} s",
            args.count,
            loaded.puzzles.len(),
            source.display(),
            args.seed,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}
