//! Command-line definition (clap derive). Only flags and help text live here: the
//! commands in this file, then one file per command or family of commands, as in `app`
//! (`record`, `generate`, `bench`, `dataset`, `corpus`, `merge`, `show`, `serve`,
//! `docs`), and the options they share: `inputs`, `outputs` and `config` (engine,
//! boards, shards).

use clap::{Parser, Subcommand};

mod audit;
mod bench;
mod config;
mod corpus;
mod dataset;
mod docs;
mod generate;
mod inputs;
mod merge;
mod outputs;
mod record;
mod serve;
mod show;

pub use audit::AuditArgs;
pub use bench::{BenchArgs, BenchFormatArg, BenchMode};
pub use config::{BoardArgs, EngineArg, VariantArg};
pub use corpus::CorpusArgs;
pub use dataset::{ByArg, DedupeArgs, OverlapArgs, SplitArgs, TableFormatArg};
pub use docs::CompletionsArgs;
pub use generate::{GenerateArgs, LevelArg, MadeFormatArg, SymmetryArg};
pub use inputs::{FormatArg, InputArgs, LayoutArgs};
pub use merge::MergeArgs;
pub use outputs::{OutputArgs, OutputFormatArg};
pub use record::{ClassifyArgs, GradeArgs, RatingArg, RatingArgs, RunArgs, StatusArg};
pub use serve::ServeArgs;
pub use show::ShowArgs;

/// Solve, classify and benchmark Sudoku puzzle datasets at hardware speed.
///
/// Inputs are one-puzzle-per-line files (81 cells, `.` or `0` for empty, text around the
/// grid allowed) or CSV files with a puzzle column. Output is CSV with the columns
/// line,puzzle,solution,status,reason,mismatch, one row per input record, in input order.
#[derive(Debug, Parser)]
#[command(
    name = "sudoku-batch",
    version,
    arg_required_else_help = true,
    max_term_width = 100
)]
#[command(after_help = "Examples:\n  \
    sudoku-batch solve data/extreme.txt -o solutions.csv\n  \
    sudoku-batch classify data/graded.csv --require-unique --report r.json\n  \
    cat data/extreme.txt | sudoku-batch classify - --threads 2 | head\n  \
    sudoku-batch bench data/hard.txt --mode count --threads 1,2\n  \
    sudoku-batch grade data/pairs-hard.txt -o graded.csv\n  \
    sudoku-batch generate --count 1000 --symmetry rot180 --seed 7 -o new.csv\n  \
    sudoku-batch corpus data/minimal.txt --count 1000000 --seed 1 -o big.txt\n\n\
    Exit status:\n  \
    0    success\n  \
    1    classify --require-unique found a record that is not unique; overlap\n       \
    --require-disjoint found a test record with an equivalent in training\n  \
    2    an error (bad input, options or output): one line on stderr\n  \
    3    classify --cross-check found a record the two engines disagree on\n  \
    130, 143, 129  stopped by SIGINT, SIGTERM or SIGHUP (temporary outputs removed)")]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write the first solution of every record (status `solved`, `unsolvable` or `invalid`).
    #[command(after_help = "Examples:\n  \
        sudoku-batch solve data/extreme.txt -o solutions.csv\n  \
        sudoku-batch solve data/variants/solo-16x16.txt --output-format grid\n\n\
        Exit status: 0 on success, 2 on bad input, options or output (one line on stderr), \
        130, 143 or 129 when stopped by SIGINT, SIGTERM or SIGHUP.")]
    Solve(RunArgs),
    /// Count solutions up to two per record (status `unique`, `multiple`, `unsolvable`,
    /// `invalid`).
    #[command(after_help = "Examples:\n  \
        sudoku-batch classify data/graded.csv -o classified.csv\n  \
        sudoku-batch classify data/cases.tsv --require-unique -o /dev/null\n  \
        sudoku-batch classify data/variants/solo-16x16.txt --cross-check\n\n\
        Exit status: 0 on success, 1 with --require-unique when a record is not unique, \
        3 with --cross-check when the engines disagree on a record, 2 on bad input, \
        options or output, 130, 143 or 129 when stopped by SIGINT, SIGTERM or SIGHUP.")]
    Classify(ClassifyArgs),
    /// Add up the JSON reports of a run's parts (shards, partitions) into one.
    #[command(after_help = "Examples:\n  \
        sudoku-batch merge part1.json part2.json -o whole.json --histogram whole.hgrm\n\n\
        Exit status: 0 on success, 2 when a report cannot be read or parts do not fit \
        together (another command, or sums past 2^64).")]
    Merge(MergeArgs),
    /// Draw a few records as grids: givens, solution, status and grade.
    #[command(after_help = "Examples:\n  \
        sudoku-batch show data/hard.txt --line 4 --line 5\n\n\
        Exit status: 0 on success, 2 on bad input or a --line where no record starts.")]
    Show(ShowArgs),
    /// Make new unique puzzles: random full grids, givens dug out while the puzzle stays
    /// unique (minimal by default), graded.
    #[command(after_help = "Examples:\n  \
        sudoku-batch generate --count 1000 --symmetry rot180 --seed 7 -o new.csv\n  \
        sudoku-batch generate --count 10 --difficulty expert --output-format pairs\n  \
        sudoku-batch generate --count 5 --size 16 --variant diagonal --engine dlx\n\n\
        Exit status: 0 on success, 2 on bad options or output, or when a record cannot be \
        made (a target no puzzle meets), 130, 143 or 129 when stopped by a signal.")]
    Generate(GenerateArgs),
    /// Rate every unique record as a person would solve it (columns `difficulty`,
    /// `rating` on Sukaku Explainer's scale, `techniques` after the usual six).
    #[command(after_help = "Examples:\n  \
        sudoku-batch grade data/pairs-hard.txt -o graded.csv\n  \
        sudoku-batch grade data/variants/wpf-gp-diagonal.txt --variant diagonal\n\n\
        Exit status: 0 on success, 2 on bad input, options or output (one line on stderr), \
        130, 143 or 129 when stopped by SIGINT, SIGTERM or SIGHUP.")]
    Grade(GradeArgs),
    /// For every unique record, a minimal puzzle with the same solution (columns
    /// `minimal`, `minimal_givens` after the usual six; classic 9x9 only); other records
    /// keep their status.
    #[command(mut_arg("size", |a| a.hide(true)), mut_arg("variant", |a| a.hide(true)),
              mut_arg("symbols", |a| a.hide(true)))]
    #[command(after_help = "Examples:\n  \
        sudoku-batch minimize data/easy-50.txt --output-format lines\n\n\
        Exit status: 0 on success, 2 on bad input, options or output (one line on stderr), \
        130, 143 or 129 when stopped by SIGINT, SIGTERM or SIGHUP.")]
    Minimize(RunArgs),
    /// Add each record's canonical (minlex) form and automorphism count (columns
    /// `canonical`, `automorphisms` after the usual six; classic 9x9 only): equivalent
    /// puzzles, under any relabelling, band, row, stack or column shuffle or
    /// transposition, share one form.
    #[command(after_help = "Examples:\n  \
        sudoku-batch canon data/extreme.txt -o canon.csv\n  \
        sudoku-batch canon data/minimal.txt --output-format lines --threads 2\n\n\
        Exit status: 0 on success, 2 on bad input, options or output.")]
    #[command(mut_arg("size", |a| a.hide(true)), mut_arg("variant", |a| a.hide(true)),
              mut_arg("symbols", |a| a.hide(true)))]
    Canon(RunArgs),
    /// Write the first record of each class of equivalent puzzles (or of identical
    /// texts, `--by text`), in input order, with the input's own bytes.
    #[command(after_help = "Examples:\n  \
        sudoku-batch dedupe data/extreme.txt -o unique.txt --rows dups.csv\n  \
        sudoku-batch dedupe data/easy-50.txt --by text --report r.json\n\n\
        Exit status: 0 on success, 2 on bad input, options or output.")]
    Dedupe(DedupeArgs),
    /// A dataset's health in one pass: statuses and reasons, given solutions that are
    /// not the puzzle's, identical and equivalent records, leakage into other files,
    /// histograms, and how the numbers were made; as a page (-o) and JSON (--json).
    #[command(after_help = "Examples:\n  \
        sudoku-batch audit data/sample-10k.csv -o audit.html --json audit.json\n  \
        sudoku-batch audit data/hard.txt --against data/extreme.txt --require-sound\n  \
        sudoku-batch audit data/hard.txt --grade -o hard.html\n\n\
        Exit status: 0 on success, 1 with --require-sound when the dataset is not sound, \
        2 on bad input, options or output.")]
    Audit(AuditArgs),
    /// For every TEST record, the first equivalent record in TRAIN (leakage between
    /// dataset splits), and repeats inside TEST.
    #[command(after_help = "Examples:\n  \
        sudoku-batch overlap data/hard.txt data/extreme.txt -o leaks.csv\n\n\
        Exit status: 0 on success, 1 with --require-disjoint when a test record leaks, \
        2 on bad input, options or output.")]
    Overlap(OverlapArgs),
    /// Cut a dataset into training and test files with every class of equivalent puzzles
    /// wholly on one side (leak-free by construction), reproducibly from the seed.
    #[command(after_help = "Examples:\n  \
        sudoku-batch split data/hard.txt --test 0.1 --seed 7 \
        --train-out train.txt --test-out test.txt\n\n\
        The test side gets whole classes, in an order drawn from the seed and the classes' \
        canonical forms, until it holds the asked share of records (so it overshoots by less \
        than one class). Records keep their input order and bytes; a CSV header goes to both.\n\n\
        Exit status: 0 on success, 2 on bad input, options or output.")]
    Split(SplitArgs),
    /// Time repeated passes of the solver over the records, for each thread count.
    #[command(after_help = "Examples:\n  \
        sudoku-batch bench data/hard.txt --mode count --threads 1,2\n  \
        sudoku-batch bench data/minimal.txt --engine dlx --report bench.json -q\n\n\
        The spread is given as hyperfine gives it: mean ± σ and min … max over the timed \
        rounds, per thread count.\n\n\
        Exit status: 0 on success, 2 on bad input, options or output, or no valid puzzle \
        to time.")]
    Bench(BenchArgs),
    /// Build a large corpus by validity-preserving random transforms of real puzzles.
    #[command(after_help = "Examples:\n  \
        sudoku-batch corpus data/minimal.txt --count 1000000 --seed 1 -o big.txt\n\n\
        Exit status: 0 on success, 2 on bad input, options or output.")]
    Corpus(CorpusArgs),
    /// Serve solve, classify, grade, validate and generate over HTTP (JSON for single
    /// boards, streamed rows for whole datasets), with /metrics and a page at /.
    #[command(after_help = "Examples:\n  \
        sudoku-batch serve --listen 127.0.0.1:8080 --threads 4\n  \
        curl -s localhost:8080/v1/classify -H 'content-type: application/json' \
        -d '{\"puzzle\": \"...\"}'\n\n\
        Exit status: 0 after SIGTERM or Ctrl-C (requests in flight finish first), 2 when \
        the address cannot be bound.")]
    Serve(ServeArgs),
    /// Print a shell's completion script on stdout.
    #[command(after_help = "Examples:\n  \
        sudoku-batch completions bash > ~/.local/share/bash-completion/completions/sudoku-batch\n  \
        sudoku-batch completions zsh > ~/.zfunc/_sudoku-batch\n  \
        sudoku-batch completions fish > ~/.config/fish/completions/sudoku-batch.fish\n\n\
        Exit status: 0 on success, 2 when stdout cannot be written.")]
    Completions(CompletionsArgs),
    /// Print the manual page (roff) on stdout.
    #[command(after_help = "Examples:\n  \
        sudoku-batch man > sudoku-batch.1 && man ./sudoku-batch.1\n\n\
        Exit status: 0 on success, 2 when stdout cannot be written.")]
    Man,
}
