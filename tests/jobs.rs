//! Jobs beyond solve and classify, and the in-memory entry point, on real data:
//! `minimize` keeps the solution and uniqueness and its output is minimal; the
//! in-memory path gives what the file pipeline gives.

mod common;

use sudoku_batch::jobs::{Classify, Minimize, Solve};
use sudoku_batch::pipeline::batch::{run_puzzles, write_rows};
use sudoku_batch::pipeline::rows::{OutputFormat, RowWriter};
use sudoku_batch::pipeline::BoardSetup;
use sudoku_batch::values::status::Status;
use sudoku_batch::{Grid, Solver};

fn cli(args: &[&str]) -> Vec<u8> {
    common::stdout_of(&[args, &["--quiet", "--threads", "2"]].concat())
}

/// Checks one `minimize` row: a unique record's `minimal` puzzle keeps a subset of its
/// givens, has the same unique solution, and loses uniqueness when any given goes.
fn check_minimal(row: &csv::StringRecord, solver: &mut Solver) -> Option<Grid> {
    let (puzzle, solution, status) = (&row[1], &row[2], &row[3]);
    let (minimal, givens) = (&row[6], &row[7]);
    if status != "unique" {
        assert_eq!((minimal, givens), ("", ""), "line {}", &row[0]);
        return None;
    }
    let puzzle = Grid::parse(puzzle.as_bytes()).unwrap();
    let solution = Grid::parse(solution.as_bytes()).unwrap();
    let minimal = Grid::parse(minimal.as_bytes()).unwrap();
    assert_eq!(givens.parse::<usize>().unwrap(), minimal.given_count());
    for cell in 0..81 {
        let v = minimal.get(cell);
        assert!(
            v == 0 || v == puzzle.get(cell),
            "line {}: not a subset",
            &row[0]
        );
    }
    let count = solver.count(&minimal, 2);
    assert_eq!((count.solutions, count.first), (1, Some(solution)));
    for cell in (0..81).filter(|&c| minimal.get(c) != 0) {
        let mut fewer = minimal;
        fewer.set(cell, 0);
        assert_eq!(solver.count(&fewer, 2).solutions, 2, "line {}", &row[0]);
    }
    Some(minimal)
}

#[test]
fn minimize_keeps_solution_and_uniqueness_and_is_minimal() {
    let mut solver = Solver::new();
    for (name, expect_unique) in [
        ("pairs-easy.txt", 500),
        ("easy-50.txt", 50),
        ("cases.tsv", 9),
    ] {
        let out = cli(&["minimize", common::data(name).to_str().unwrap()]);
        let mut reader = csv::Reader::from_reader(&out[..]);
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(
            header,
            [
                "line",
                "puzzle",
                "solution",
                "status",
                "reason",
                "mismatch",
                "minimal",
                "minimal_givens"
            ]
        );
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(
            rows.len(),
            common::load(name).len(),
            "{name}: rows out != records in"
        );
        let minimal: Vec<Grid> = rows
            .iter()
            .filter_map(|r| check_minimal(r, &mut solver))
            .collect();
        assert_eq!(minimal.len(), expect_unique, "{name}");
        // The independent reference counter agrees on a sample.
        for m in minimal.iter().step_by(25) {
            assert_eq!(common::reference_count(m, 2), 1);
        }
    }
}

#[test]
fn minimize_passes_other_records_through_with_their_status() {
    let out = cli(&["minimize", common::data("cases.tsv").to_str().unwrap()]);
    let classified = cli(&["classify", common::data("cases.tsv").to_str().unwrap()]);
    let mut a = csv::Reader::from_reader(&out[..]);
    let mut b = csv::Reader::from_reader(&classified[..]);
    for (m, c) in a.records().zip(b.records()) {
        let (m, c) = (m.unwrap(), c.unwrap());
        // The contract's six columns are those of classify.
        assert_eq!(
            m.iter().take(6).collect::<Vec<_>>(),
            c.iter().collect::<Vec<_>>()
        );
    }
}

/// Puzzle texts of a lines file without comments, one per line.
fn lines_of(name: &str) -> Vec<String> {
    std::fs::read_to_string(common::data(name))
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn in_memory_rows_equal_the_file_pipeline() {
    for name in ["extreme.txt", "minimal.txt"] {
        let puzzles = lines_of(name);
        let path = common::data(name);
        let rows = RowWriter::new(OutputFormat::Csv, None);
        let mut out = Vec::new();
        rows.header::<()>(&mut out);
        write_rows(
            &rows,
            &puzzles,
            &run_puzzles(&Classify::new(), &puzzles),
            &BoardSetup::default(),
            1,
            &mut out,
        );
        assert_eq!(
            out,
            cli(&["classify", path.to_str().unwrap()]),
            "{name} classify"
        );
        out.clear();
        rows.header::<()>(&mut out);
        write_rows(
            &rows,
            &puzzles,
            &run_puzzles(&Solve::new(), &puzzles),
            &BoardSetup::default(),
            1,
            &mut out,
        );
        assert_eq!(out, cli(&["solve", path.to_str().unwrap()]), "{name} solve");
        out.clear();
        let first: Vec<&String> = puzzles.iter().take(500).collect();
        rows.header::<sudoku_batch::jobs::Minimal>(&mut out);
        write_rows(
            &rows,
            &first,
            &run_puzzles(&Minimize::new(), &first),
            &BoardSetup::default(),
            1,
            &mut out,
        );
        let file = cli(&["minimize", path.to_str().unwrap()]);
        let file_head: Vec<&[u8]> = file.split(|&b| b == b'\n').take(first.len() + 1).collect();
        let mem: Vec<&[u8]> = out.split(|&b| b == b'\n').take(first.len() + 1).collect();
        assert_eq!(mem, file_head, "{name} minimize");
    }
}

#[test]
fn in_memory_records_report_bad_input_as_invalid() {
    let p = "....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3";
    let clash = format!("44{}", &p[2..]);
    let puzzles = [
        p.to_string(),
        String::new(),
        "12x".into(),
        clash,
        format!("  {p}\n"),
    ];
    let results = run_puzzles(&Classify::new(), &puzzles);
    let statuses: Vec<Status> = results.iter().map(|r| r.status).collect();
    use Status::*;
    assert_eq!(statuses, [Unique, Invalid, Invalid, Invalid, Unique]);
    let reasons: Vec<String> = results
        .iter()
        .map(|r| r.reason.map(|r| r.to_string()).unwrap_or_default())
        .collect();
    assert_eq!(reasons[1], "no puzzle on the line");
    assert_eq!(reasons[2], "bad byte 'x' at column 3");
    assert_eq!(reasons[3], "digit 4 given twice in row 1");
    assert_eq!(results[0].solution, results[4].solution);
}

#[test]
fn only_writes_the_rows_of_the_statuses_named_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.txt");
    let unique =
        ".476....2..6...9.83...7....7......3..9....1.......76....3.5.......1.2..6.65....8.";
    let multiple = ".".repeat(81);
    std::fs::write(&file, format!("{unique}\n{multiple}\nbad\n{unique}\n")).unwrap();
    let report = dir.path().join("r.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args([
            "classify",
            file.to_str().unwrap(),
            "--only",
            "unique,invalid",
            "--report",
        ])
        .arg(&report)
        .output()
        .unwrap();
    assert!(out.status.success());
    let rows = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = rows
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(lines, ["1", "3", "4"]);
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(
        (json["records"].as_u64(), json["rows_written"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(json["left_out"].as_u64(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("1 left out by --only"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A status the command never writes is refused.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(["solve", file.to_str().unwrap(), "--only", "unique"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
