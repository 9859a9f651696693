//! The solver on every bundled dataset: each solution valid and keeping its givens,
//! equal to the file's own solution where it has one, and the recorded class.

mod common;

use common::{load, reference_count};
use sudoku_batch::{Classification, Grid, Outcome, Solver};

/// Solves and classifies every record, checking solutions; returns the classes.
fn check_file(name: &str) -> Vec<Classification> {
    let records = load(name);
    assert!(!records.is_empty(), "{name}: no records");
    let mut solver = Solver::new();
    let mut classes = Vec::with_capacity(records.len());
    for r in &records {
        let at = format!("{name}:{}", r.line);
        let solved = match solver.solve(&r.puzzle) {
            Outcome::Solved(s) => Some(s),
            _ => None,
        };
        let class = solver.classify(&r.puzzle);
        let classified = match class {
            Classification::Unique(s) | Classification::Multiple(s) => Some(s),
            _ => None,
        };
        for s in [solved, classified].into_iter().flatten() {
            assert!(s.is_valid_solution(), "{at}: invalid solution {s}");
            assert!(s.keeps_givens_of(&r.puzzle), "{at}: solution drops givens");
        }
        assert_eq!(solved.is_some(), classified.is_some(), "{at}");
        if let Some(expected) = r.expected {
            assert!(
                expected.is_valid_solution(),
                "{at}: file's own solution invalid"
            );
            assert_eq!(solved, Some(expected), "{at}: solve differs from the file");
            assert_eq!(
                classified,
                Some(expected),
                "{at}: classify differs from the file"
            );
        }
        classes.push(class);
    }
    classes
}

fn assert_all_unique(name: &str, expected_records: usize) {
    let classes = check_file(name);
    assert_eq!(classes.len(), expected_records, "{name}: record count");
    for (i, c) in classes.iter().enumerate() {
        assert!(
            matches!(c, Classification::Unique(_)),
            "{name}: record {i} is {c:?}"
        );
    }
}

#[test]
fn royle_17_clue_all_unique() {
    assert_all_unique("royle-17-clue.txt", 49_158);
}

#[test]
fn magictour_top1465_all_unique() {
    assert_all_unique("magictour-top1465.txt", 1_465);
}

#[test]
fn kaggle_files_unique_and_match_their_solutions() {
    assert_all_unique("kaggle-1m-first10k.csv", 10_000);
    assert_all_unique("kaggle-3m-curated5000.csv", 5_000);
}

#[test]
fn sudoku_exchange_files() {
    assert_all_unique("sudoku-exchange-diabolical.txt", 39_719);
    assert_all_unique("sudoku-exchange-easy-with-solutions.txt", 500);
    assert_all_unique("sudoku-exchange-hard-with-solutions.txt", 500);
}

#[test]
fn norvig_files() {
    assert_all_unique("norvig-easy50.txt", 50);
    assert_all_unique("norvig-top95.txt", 95);
}

/// Every record of the multi-solution benchmark has two or more solutions, each one
/// found valid; one in 50 is counted to two by the independent reference as well.
#[test]
fn multi_solution_benchmark_all_multiple() {
    let name = "multi-solution-20k.txt";
    let classes = check_file(name);
    assert_eq!(classes.len(), 20_000, "{name}: record count");
    for (i, c) in classes.iter().enumerate() {
        assert!(
            matches!(c, Classification::Multiple(_)),
            "{name}: record {i} is {c:?}"
        );
    }
    for r in load(name).iter().step_by(50) {
        assert_eq!(reference_count(&r.puzzle, 2), 2, "{name}:{}", r.line);
    }
}

/// The Sudopedia cases: recorded class and exact solution counts.
#[test]
fn sudopedia_cases_classes_and_counts() {
    let text = std::fs::read_to_string(common::data("sudopedia-cases.tsv")).unwrap();
    let mut solver = Solver::new();
    let mut seen = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let (puzzle, case, expected, count) = (fields[0], fields[2], fields[3], fields[4]);
        let grid = Grid::parse(puzzle.as_bytes()).unwrap();
        let count: u64 = count.parse().unwrap();
        let class = solver.classify(&grid);
        match expected.split(':').next().unwrap() {
            "unique" => assert!(
                matches!(class, Classification::Unique(_)),
                "{case}: {class:?}"
            ),
            "multiple" => {
                assert!(
                    matches!(class, Classification::Multiple(_)),
                    "{case}: {class:?}"
                )
            }
            "invalid" => assert!(
                matches!(class, Classification::Invalid(_)),
                "{case}: {class:?}"
            ),
            "none" => assert_eq!(class, Classification::Unsolvable, "{case}"),
            other => panic!("{case}: unknown class {other}"),
        }
        // Exact counts with a limit above them; capped counts reach the cap.
        let limit = if count >= 1000 { 1000 } else { count + 5 };
        let counted = solver.count(&grid, limit);
        assert_eq!(
            counted.solutions,
            count.min(limit),
            "{case}: solution count"
        );
        if let Some(s) = counted.first {
            assert!(s.is_valid_solution() && s.keeps_givens_of(&grid), "{case}");
        }
        if count < 1000 {
            assert_eq!(reference_count(&grid, limit), count, "{case}: reference");
        }
        seen += 1;
    }
    assert_eq!(seen, 34);
}
