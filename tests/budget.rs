//! The work budget per record: every engine gives up after the branches it is allowed,
//! the record is `undecided` with the budget in its reason, and nothing stalls a batch.

mod common;

use std::process::Command;

use sudoku_batch::engines::dlx::Dlx;
use sudoku_batch::engines::{Bitboards, Engine};
use sudoku_batch::values::board::Board;
use sudoku_batch::values::geometry::Variant;
use sudoku_batch::values::search::Budget;
use sudoku_batch::{Classification, Grid, Outcome};

/// A top95 puzzle whose first solution takes `engine` more than one branch.
fn hard_grid<E: Engine>(engine: &mut E) -> Grid {
    common::load("extreme.txt")
        .into_iter()
        .map(|r| r.puzzle)
        .find(|p| {
            engine.solve(p);
            engine.stats().guesses > 1
        })
        .expect("top95 has puzzles that need branching")
}

fn check_engine<E: Engine>() {
    let mut engine = E::new(Variant::Classic);
    let puzzle = hard_grid(&mut *engine);
    engine.set_budget(Budget::guesses(1));
    assert_eq!(engine.solve(&puzzle), Outcome::Undecided);
    assert!(matches!(
        engine.classify(&puzzle),
        Classification::Undecided(_)
    ));
    let count = engine.count(&puzzle, 2);
    assert!(count.spent && count.solutions < 2, "{count:?}");
    // A puzzle that propagation alone solves needs no branch, so no budget.
    let easy = common::load("easy-50.txt")[0].puzzle;
    assert!(matches!(engine.classify(&easy), Classification::Unique(_)));
    // The default budget settles it, and the answer is the reference's.
    engine.set_budget(Budget::DEFAULT);
    match engine.classify(&puzzle) {
        Classification::Unique(s) => assert!(s.is_valid_solution() && s.keeps_givens_of(&puzzle)),
        other => panic!("{other:?}"),
    }
    assert!(!engine.count(&puzzle, 2).spent);
}

#[test]
fn grid_engines_give_up_at_their_budget() {
    check_engine::<Bitboards>();
    check_engine::<Dlx>();
}

fn check_board_engine<E: Engine>() {
    let board = Board::parse(common::hard_boards()[0].as_bytes(), None, None).unwrap();
    let mut engine = E::new(Variant::Classic);
    engine.set_budget(Budget::guesses(500));
    let count = engine.count_board(&board, 2).unwrap().unwrap();
    assert!(count.spent && count.solutions < 2, "{count:?}");
    // The bundled board itself is unique within the budget.
    let text = std::fs::read_to_string(common::data("variants/solo-25x25.txt")).unwrap();
    let whole = Board::parse(text.lines().next().unwrap().as_bytes(), None, None).unwrap();
    let count = engine.count_board(&whole, 2).unwrap().unwrap();
    assert_eq!((count.solutions, count.spent), (1, false));
}

#[test]
fn board_engines_give_up_at_their_budget() {
    check_board_engine::<Bitboards>();
    check_board_engine::<Dlx>();
}

fn sudoku_batch(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn undecided_records_get_one_row_each_with_the_budget_as_reason() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("hard.txt");
    std::fs::write(&input, common::hard_boards().join("\n") + "\n").unwrap();
    let input = input.to_str().unwrap();
    let report = dir.path().join("report.json");
    for engine in ["fast", "dlx"] {
        let out = sudoku_batch(&[
            "classify",
            input,
            "--engine",
            engine,
            "--budget",
            "2000",
            "--report",
            report.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let rows = String::from_utf8(out.stdout).unwrap();
        let rows: Vec<Vec<&str>> = rows
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        assert_eq!(rows.len(), 20, "one row per record");
        let undecided: Vec<&Vec<&str>> = rows.iter().filter(|r| r[3] == "undecided").collect();
        assert!(
            undecided.len() >= 10,
            "{engine}: {} undecided",
            undecided.len()
        );
        for row in &undecided {
            assert_eq!(row[4], "search budget of 2000 branches spent", "{row:?}");
        }
        for row in rows.iter().filter(|r| r[3] != "undecided") {
            assert_eq!(row[3], "multiple", "{engine}: {row:?}");
        }
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        assert_eq!(
            json["counts"]["undecided"],
            undecided.len() as u64,
            "{json}"
        );
        let summary = String::from_utf8(out.stderr).unwrap();
        assert!(
            summary.contains(&format!("undecided {}", undecided.len())),
            "{summary}"
        );
    }
    // Undecided is not unique, and --only picks the undecided rows.
    let out = sudoku_batch(&[
        "classify",
        input,
        "--budget",
        "2000",
        "--require-unique",
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let out = sudoku_batch(&[
        "solve",
        input,
        "--budget",
        "100",
        "--only",
        "undecided",
        "-q",
    ]);
    assert!(out.status.success());
    let rows = String::from_utf8(out.stdout).unwrap();
    assert!(
        rows.lines().skip(1).all(|l| l.contains(",undecided,")),
        "{rows}"
    );
    assert!(rows.lines().count() > 1);
    // Two engines that give up on different records do not disagree: an undecided
    // record is not compared.
    let out = sudoku_batch(&["classify", input, "--budget", "2000", "--cross-check", "-q"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = String::from_utf8(out.stdout).unwrap();
    for row in rows.lines().skip(1) {
        let fields: Vec<&str> = row.split(',').collect();
        let engines = fields.last().unwrap();
        if fields[3] == "undecided" {
            assert_eq!(*engines, "", "{row}");
        } else {
            assert!(["agree", ""].contains(engines), "{row}");
        }
    }
    // A budget of nothing is refused.
    assert_eq!(
        sudoku_batch(&["classify", input, "--budget", "0"])
            .status
            .code(),
        Some(2)
    );
}

/// The default budget bounds a record that would otherwise take minutes (this board's
/// search does not end in 60 s without one).
#[test]
fn the_default_budget_ends_a_board_that_would_stall_the_batch() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("one.txt");
    std::fs::write(&input, format!("{}\n", common::hard_boards()[0])).unwrap();
    let out = sudoku_batch(&["classify", input.to_str().unwrap(), "-q"]);
    assert!(out.status.success());
    let rows = String::from_utf8(out.stdout).unwrap();
    assert!(
        rows.contains(&format!(
            ",undecided,search budget of {} branches spent",
            Budget::DEFAULT.get()
        )),
        "{rows}"
    );
}
