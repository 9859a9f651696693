//! `audit`: one pass over a dataset, its report written as a page and as JSON.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use sha2::{Digest, Sha256};

use crate::reports::audit::hex;

use super::config::{given, pool, windows_progress};
use super::error::{AppError, EXIT_NOT_UNIQUE};
use super::inputs::{open_dataset, open_dataset_as, windows_error};
use super::outputs::{write_json_report, written_error};
use crate::cli::AuditArgs;
use crate::datasets::audit::{audit_windows, AuditOptions, Audited};
use crate::pipeline::input;
use crate::pipeline::input::is_stdin;
use crate::pipeline::output;
use crate::pipeline::windows::{Window, Windowed, Windows, WindowsError};
use crate::reports::audit::{utc_now, InputFacts, COMMIT};

pub(super) fn run_audit(args: &AuditArgs) -> Result<ExitCode, AppError> {
    let started = Instant::now();
    let json_out = args.json.as_deref().filter(|p| *p != Path::new("-"));
    let outputs = given(&[(args.output.as_deref(), "-o"), (json_out, "--json")]);
    let mut inputs = vec![(args.input.input.as_path(), "the input")];
    inputs.extend(args.against.iter().map(|p| (p.as_path(), "--against")));
    output::check_outputs(&inputs, &outputs)?;
    // Every input is read a window at a time (a compressed one decoded as it is read);
    // one that cannot be read again (stdin, a FIFO) is hashed as it passes.
    let a = &args.input;
    let mut main = open_dataset(&a.input, a.no_mmap, a.member.as_deref(), &a.layout)?;
    let mut others = Vec::with_capacity(args.against.len());
    for path in &args.against {
        others.push(open_dataset_as(
            path,
            false,
            None,
            &input::Choice::default(),
        )?);
    }
    let all: Vec<&Windows> = std::iter::once(&main).chain(&others).collect();
    let progress = windows_progress(&all, "audit", args.quiet, args.no_progress);
    let grade = args.grade.then(|| super::rating(&args.rating));
    let options = AuditOptions {
        grade,
        minimality: args.minimality,
        ..AuditOptions::default()
    };
    let mut main_read = Hashed::new(&mut main, streamed(&a.input));
    let mut others_read: Vec<Hashed<'_>> = others
        .iter_mut()
        .zip(&args.against)
        .map(|(w, path)| Hashed::new(w, streamed(path)))
        .collect();
    let names: Vec<String> = args
        .against
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut named: Vec<(&str, &mut dyn Windowed)> = names
        .iter()
        .zip(others_read.iter_mut())
        .map(|(name, w)| (name.as_str(), w as &mut dyn Windowed))
        .collect();
    let audited = pool(args.input.threads)?
        .install(|| audit_windows(&mut main_read, &mut named, &options, &progress));
    progress.finish();
    let Audited {
        mut report,
        against_records,
    } = audited.map_err(|e| windows_error(None, e))?;
    drop(named);
    let main_sha = main_read.finish();
    let others_sha: Vec<Option<(u64, String)>> =
        others_read.into_iter().map(Hashed::finish).collect();
    main.check_unchanged(&a.input)?;
    for (windows, path) in others.iter().zip(&args.against) {
        windows.check_unchanged(path)?;
    }
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
        .push(facts(&a.input, main_sha, main.layout(), records)?);
    for (((path, windows), sha), count) in args
        .against
        .iter()
        .zip(&others)
        .zip(others_sha)
        .zip(against_records)
    {
        p.inputs.push(facts(path, sha, windows.layout(), count)?);
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

/// Whether `path` can be read only once (stdin, a FIFO): its hash is taken as it is
/// read.
fn streamed(path: &Path) -> bool {
    is_stdin(path) || input::is_special(path)
}

/// An input's windows, hashed (SHA-256) as they pass where it cannot be read again.
struct Hashed<'a> {
    windows: &'a mut Windows,
    hasher: Option<(u64, Sha256)>,
}

impl<'a> Hashed<'a> {
    fn new(windows: &'a mut Windows, hashed: bool) -> Hashed<'a> {
        Hashed {
            windows,
            hasher: hashed.then(|| (0, Sha256::new())),
        }
    }

    /// The bytes read and their SHA-256, where they were hashed.
    fn finish(self) -> Option<(u64, String)> {
        self.hasher.map(|(n, h)| (n, hex(&h.finalize())))
    }
}

impl Windowed for Hashed<'_> {
    fn layout(&self) -> &input::Layout {
        self.windows.layout()
    }

    fn head(&self) -> &[u8] {
        self.windows.head()
    }

    fn each_window(
        &mut self,
        each: &mut dyn FnMut(Window<'_>) -> std::io::Result<()>,
    ) -> Result<(), WindowsError> {
        let Some(hasher) = self.hasher.as_mut() else {
            return self.windows.each(each);
        };
        let head = self.windows.head();
        hasher.0 += head.len() as u64;
        hasher.1.update(head);
        self.windows.each(|window| {
            hasher.0 += window.bytes.len() as u64;
            hasher.1.update(window.bytes);
            each(window)
        })
    }
}

/// A file's size and SHA-256 as stored (a compressed file's own bytes, read again in
/// blocks); for stdin or a FIFO, of the bytes read (`read`).
fn facts(
    path: &Path,
    read: Option<(u64, String)>,
    layout: &input::Layout,
    records: u64,
) -> Result<InputFacts, AppError> {
    let (bytes, sha256) = match read {
        Some(read) => read,
        None => {
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
        }
    };
    Ok(InputFacts {
        path: path.display().to_string(),
        bytes,
        sha256,
        layout: layout.describe(),
        records,
    })
}
