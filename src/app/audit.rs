//! `audit`: one pass over a dataset, its report written as a page and as JSON.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use sha2::{Digest, Sha256};

use crate::reports::audit::hex;

use super::config::{dataset_progress, given, pool};
use super::error::{AppError, EXIT_NOT_UNIQUE};
use super::inputs::{read_dataset, read_input};
use super::outputs::{write_json_report, written_error};
use crate::cli::AuditArgs;
use crate::datasets::audit::{audit, AuditOptions};
use crate::pipeline::input;
use crate::pipeline::input::is_stdin;
use crate::pipeline::output;
use crate::reports::audit::{sha256_hex, utc_now, InputFacts, COMMIT};

pub(super) fn run_audit(args: &AuditArgs) -> Result<ExitCode, AppError> {
    let started = Instant::now();
    let json_out = args.json.as_deref().filter(|p| *p != Path::new("-"));
    let outputs = given(&[(args.output.as_deref(), "-o"), (json_out, "--json")]);
    let mut inputs = vec![(args.input.input.as_path(), "the input")];
    inputs.extend(args.against.iter().map(|p| (p.as_path(), "--against")));
    output::check_outputs(&inputs, &outputs)?;
    let (bytes, layout) = read_dataset(&args.input)?;
    let mut against = Vec::with_capacity(args.against.len());
    for path in &args.against {
        let data = read_input(path, false, None)?;
        let layout = input::detect_layout_as(data.bytes(), &input::Choice::default())?;
        against.push((path, data, layout));
    }
    let grade = args.grade.then(|| super::rating(&args.rating));
    let options = AuditOptions {
        grade,
        minimality: args.minimality,
        ..AuditOptions::default()
    };
    let named: Vec<(String, &[u8], input::Layout)> = against
        .iter()
        .map(|(p, d, l)| (p.display().to_string(), d.bytes(), l.clone()))
        .collect();
    let total = bytes.bytes().len() as u64 + named.iter().map(|n| n.1.len() as u64).sum::<u64>();
    let progress = dataset_progress(total, "audit", args.quiet, args.no_progress);
    let mut report = pool(args.input.threads)?
        .install(|| audit(bytes.bytes(), &layout, &named, &options, &progress));
    progress.finish();
    bytes.check_unchanged(&args.input.input)?;
    let p = &mut report.provenance;
    p.tool = format!("sudoku-batch {}", env!("CARGO_PKG_VERSION"));
    p.commit = COMMIT.to_string();
    p.command_line = std::env::args().collect();
    let l = &args.input.layout;
    p.options.insert("format".into(), l.format.name().into());
    if let Some(column) = &l.column {
        p.options.insert("column".into(), column.clone());
    }
    if let Some(d) = &l.delimiter {
        p.options.insert("delimiter".into(), d.clone());
    }
    p.options
        .insert("classes".into(), "canonical (minlex)".into());
    p.options.insert(
        "search budget".into(),
        format!("{} branches", options.budget.get()),
    );
    if args.minimality {
        p.options
            .insert("minimality".into(), "checked (a count a given)".into());
    }
    if let Some((_, budget)) = grade {
        let rules = format!("{:?}", args.rating.rating).to_lowercase();
        p.rating_rules = Some(format!("--rating {rules} (rating budget {budget} steps)"));
    }
    let records = report.validity.records;
    p.inputs
        .push(facts(&args.input.input, bytes.bytes(), &layout, records)?);
    for (path, data, layout) in &against {
        let count = count_records(data.bytes(), layout);
        p.inputs.push(facts(path, data.bytes(), layout, count)?);
    }
    p.made_at = utc_now();
    p.seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &args.output {
        output::write_file(path, report.page().as_bytes())?;
    }
    match args.json.as_deref() {
        Some(path) if path == Path::new("-") => {
            let json = serde_json::to_vec_pretty(&report).map_err(AppError::Encode)?;
            let mut out = output::Output::open(None)?;
            std::io::Write::write_all(&mut out, &json)
                .and_then(|()| std::io::Write::write_all(&mut out, b"\n"))
                .map_err(|e| written_error(None, e))?;
            out.finish()?;
        }
        Some(path) => write_json_report(path, &report)?,
        None => {}
    }
    if !args.quiet {
        let _ = report.write_summary(&mut std::io::stderr());
    }
    if args.require_sound && !report.verdict.sound {
        return Ok(ExitCode::from(EXIT_NOT_UNIQUE));
    }
    Ok(ExitCode::SUCCESS)
}

/// Records of a file, as the audit counts them.
fn count_records(data: &[u8], layout: &input::Layout) -> u64 {
    let mut n = 0;
    input::for_each_record_of(data, layout, |_| n += 1);
    n
}

/// A file's size and SHA-256 as stored (a compressed file's own bytes, read again in
/// blocks); for stdin, of the bytes read.
fn facts(
    path: &Path,
    read: &[u8],
    layout: &input::Layout,
    records: u64,
) -> Result<InputFacts, AppError> {
    let (bytes, sha256) = if is_stdin(path) {
        (read.len() as u64, sha256_hex(read))
    } else {
        let mut hasher = Sha256::new();
        let io = |source| input::InputError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = std::fs::File::open(path).map_err(io)?;
        let mut buf = vec![0u8; 1 << 16];
        let mut total = 0u64;
        loop {
            let n = file.read(&mut buf).map_err(io)?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
            total += n as u64;
        }
        (total, hex(&hasher.finalize()))
    };
    Ok(InputFacts {
        path: path.display().to_string(),
        bytes,
        sha256,
        layout: layout.describe(),
        records,
    })
}
