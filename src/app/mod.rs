//! Runs the parsed command line: turns flags into library calls and errors into exit
//! codes. `main.rs` only calls [`run`].
//!
//! One file per command (or family of commands), beside the rooms they share:
//! `config` (flags into settings), `inputs`, `outputs` and `error` (typed errors and
//! exit codes).

use std::io::Write;
use std::process::ExitCode;

use crate::cli::{Cli, Command, EngineArg, RatingArg, RatingArgs};
use crate::engines::dlx::Dlx;
use crate::engines::explainer::Rules;
use crate::engines::Bitboards;
use crate::jobs::{Canon, Classify, CrossCheck, Grade, Minimize, Solve};
use crate::pipeline::output;

mod audit;
mod bench;
mod config;
mod corpus;
mod dataset;
mod docs;
mod error;
mod generate;
mod inputs;
mod merge;
mod outputs;
mod record;
mod serve;
mod show;

pub use error::AppError;
pub use merge::REPORT_LINE;

use error::EXIT_ERROR;

use audit::run_audit;
use bench::run_bench;
use corpus::run_corpus;
use dataset::{run_dedupe, run_overlap, run_split};
use docs::{run_completions, run_man};
use generate::run_generate;
use merge::run_merge;
use record::{run_job, run_record};
use serve::run_serve;
use show::run_show;

/// On SIGINT, SIGTERM or SIGHUP (Ctrl-C, `timeout`, systemd, Slurm, a closed terminal):
/// removes the temporary output files, then exits with 128 + the signal's number (130,
/// 143, 129), as a shell reports a process the signal killed.
#[cfg(unix)]
fn remove_outputs_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            output::remove_pending();
            std::process::exit(128 + signal);
        }
    });
}

/// Ctrl-C: removes the temporary output files, then exits as interrupted (130).
#[cfg(not(unix))]
fn remove_outputs_on_signals() {
    let _ = ctrlc::set_handler(|| {
        output::remove_pending();
        std::process::exit(130);
    });
}

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> ExitCode {
    // The server stops on SIGTERM or Ctrl-C by itself, after requests in flight.
    if let Command::Serve(args) = &cli.command {
        return report_error(run_serve(args));
    }
    remove_outputs_on_signals();
    let result = match cli.command {
        Command::Solve(args) => run_record::<Solve>(&args, false),
        Command::Classify(args) => {
            let unique = args.require_unique;
            match (args.run.engine, args.cross_check) {
                (_, false) => run_record::<Classify>(&args.run, unique),
                // The other family checks the one asked for.
                (EngineArg::Fast, true) => run_job(&CrossCheck::new(), &args.run, unique, None),
                (EngineArg::Dlx, true) => run_job(
                    &CrossCheck::<Dlx, Bitboards>::default(),
                    &args.run,
                    unique,
                    None,
                ),
            }
        }
        Command::Minimize(args) => run_record::<Minimize>(&args, false),
        Command::Canon(args) => run_record::<Canon>(&args, false),
        Command::Grade(args) => {
            let (rules, budget) = rating(&args.rating);
            let rated = rating_filter(&args);
            match args.run.engine {
                EngineArg::Fast => run_job(
                    &Grade::<Bitboards>::with(rules, budget),
                    &args.run,
                    false,
                    rated,
                ),
                EngineArg::Dlx => {
                    run_job(&Grade::<Dlx>::with(rules, budget), &args.run, false, rated)
                }
            }
        }
        Command::Dedupe(args) => run_dedupe(&args),
        Command::Audit(args) => run_audit(&args),
        Command::Split(args) => run_split(&args),
        Command::Overlap(args) => run_overlap(&args),
        Command::Generate(args) => run_generate(&args),
        Command::Show(args) => run_show(&args),
        Command::Merge(args) => run_merge(&args),
        Command::Bench(args) => run_bench(&args),
        Command::Corpus(args) => run_corpus(&args),
        Command::Completions(args) => run_completions(&args),
        Command::Man => run_man(),
        Command::Serve(_) => unreachable!("handled above"),
    };
    report_error(result)
}

/// The rows `grade` writes by rating: `--min-rating`, `--max-rating`, `--difficulty`,
/// `--top` (`None` when none is given).
fn rating_filter(args: &crate::cli::GradeArgs) -> Option<crate::pipeline::rows::RatingFilter> {
    let tenths = |r: f64| (r * 10.0).round().clamp(0.0, f64::from(u16::MAX)) as u16;
    let given = args.min_rating.is_some()
        || args.max_rating.is_some()
        || args.difficulty.is_some()
        || args.top.is_some();
    given.then(|| crate::pipeline::rows::RatingFilter {
        min: args.min_rating.map_or(0, tenths),
        max: args.max_rating.map_or(u16::MAX, tenths),
        levels: args.difficulty,
        top: args.top.and_then(std::num::NonZeroU64::new),
    })
}

/// The rules and budget of `--rating` and `--rating-budget`.
pub(super) fn rating(args: &RatingArgs) -> (Rules, u64) {
    let rules = match args.rating {
        RatingArg::Sukaku => Rules::SUKAKU,
        RatingArg::Bank => Rules::BANK,
        RatingArg::Se121 => Rules::SE121,
    };
    (rules, args.rating_budget)
}

/// The exit code for a command's result, with the error on stderr.
fn report_error(result: Result<ExitCode, AppError>) -> ExitCode {
    match result {
        Ok(code) => code,
        // The reader of our stdout went away (`| head`): stop quietly, as cat does.
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "sudoku-batch: error: {e}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::error::EXIT_DISAGREE;
    use super::*;
    use crate::reports::RunReport;
    use crate::values::geometry::Variant;
    use crate::values::search::Budget;

    /// The bitboard engines, except that they call every puzzle whose first cell is given
    /// `multiple`: a planted engine bug for `--cross-check` to find.
    struct Faulty(Box<Bitboards>);

    impl crate::engines::Engine for Faulty {
        fn new(variant: Variant) -> Box<Self> {
            Box::new(Faulty(Bitboards::new(variant)))
        }
        fn solve(&mut self, p: &crate::Grid) -> crate::Outcome {
            self.0.solve(p)
        }
        fn solve_excluding(&mut self, p: &crate::Grid, cell: usize, digit: u8) -> crate::Outcome {
            self.0.solve_excluding(p, cell, digit)
        }
        fn count(&mut self, p: &crate::Grid, limit: u64) -> crate::Count {
            self.0.count(p, limit)
        }
        fn classify(&mut self, p: &crate::Grid) -> crate::Classification {
            match self.0.classify(p) {
                crate::Classification::Unique(s) if p.get(0) != 0 => {
                    crate::Classification::Multiple(s)
                }
                other => other,
            }
        }
        fn count_board(
            &mut self,
            board: &crate::values::board::Board,
            limit: u64,
        ) -> Result<
            Result<crate::values::search::BoardCount, crate::values::search::BoardClash>,
            crate::values::geometry::GeometryError,
        > {
            let mut counted = self.0.count_board(board, limit);
            if let Ok(Ok(count)) = &mut counted {
                if board.get(0) != 0 && count.solutions == 1 && limit > 1 {
                    count.solutions = 2;
                }
            }
            counted
        }
        fn stats(&self) -> crate::SearchStats {
            self.0.stats()
        }
        fn set_budget(&mut self, budget: Budget) {
            self.0.set_budget(budget);
        }
    }

    /// What `classify FILE --cross-check` did with the planted bug as second engine, and
    /// then with dancing links.
    struct Planted {
        /// Lines whose record has r1c1 given (the planted disagreements).
        lines: Vec<u64>,
        /// Records in the file.
        records: u64,
        faulty: (ExitCode, RunReport, String),
        sound: (ExitCode, String),
    }

    fn planted_run(file: &str) -> Planted {
        use clap::Parser;
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let text = std::fs::read_to_string(&data).unwrap();
        let lines: Vec<u64> = (1..)
            .zip(text.lines())
            .filter(|(_, l)| !l.starts_with('.') && !l.starts_with('0'))
            .map(|(n, _)| n)
            .collect();
        assert!(lines.len() > 10, "{file} must hold puzzles with r1c1 given");
        let dir = tempfile::tempdir().unwrap();
        let (rows, report) = (dir.path().join("rows.csv"), dir.path().join("r.json"));
        let cli = Cli::parse_from([
            "sudoku-batch",
            "classify",
            data.to_str().unwrap(),
            "--cross-check",
            "-q",
            "-o",
            rows.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ]);
        let Command::Classify(args) = cli.command else {
            panic!("not classify")
        };
        let read = |path: &Path| std::fs::read_to_string(path).unwrap();
        let code = run_job(
            &CrossCheck::<Bitboards, Faulty>::default(),
            &args.run,
            false,
            None,
        )
        .unwrap();
        let faulty = (
            code,
            serde_json::from_str(&read(&report)).unwrap(),
            read(&rows),
        );
        let code = run_job(&CrossCheck::new(), &args.run, false, None).unwrap();
        Planted {
            lines,
            records: text.lines().count() as u64,
            faulty,
            sound: (code, read(&rows)),
        }
    }

    #[test]
    fn a_disagreement_is_counted_listed_and_exits_3() {
        let run = planted_run("data/extreme.txt");
        let (code, report, written) = &run.faulty;
        assert_eq!(*code, ExitCode::from(EXIT_DISAGREE));
        assert_eq!(report.disagree, Some(run.lines.len() as u64));
        assert_eq!(report.first_disagree, run.lines[..10]);
        // The rows are the first engine's; column `engines` marks the planted records.
        let disagreeing: Vec<u64> = written
            .lines()
            .skip(1)
            .filter(|l| l.ends_with(",disagree"))
            .map(|l| l.split(',').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(disagreeing, run.lines);
        assert!(written.lines().skip(1).all(|l| l.contains(",unique,")));
        // Without the planted bug, the same run agrees everywhere and exits 0.
        assert_eq!(run.sound.0, ExitCode::SUCCESS);
    }

    #[test]
    fn a_disagreement_on_variant_boards_is_found_too() {
        let run = planted_run("data/variants/solo-16x16.txt");
        let (code, report, _) = &run.faulty;
        assert_eq!(*code, ExitCode::from(EXIT_DISAGREE));
        assert_eq!(report.disagree, Some(run.lines.len() as u64));
        assert_eq!(report.cross_checked, Some(run.records));
        assert_eq!(report.first_disagree, run.lines[..10]);
        // Variant engine checked by dancing links: all agree.
        let (code, written) = &run.sound;
        assert_eq!(*code, ExitCode::SUCCESS);
        assert!(
            written
                .lines()
                .skip(1)
                .all(|l| l.ends_with(",unique,,,agree")),
            "{written}"
        );
    }
}
