//! The solver on every bundled dataset: each solution valid and keeping its givens,
//! equal to the file's own solution where it has one, and the recorded class.

mod common;

use std::path::Path;

use common::{load_path, reference_count};
use sudoku_batch::{Classification, Grid, Outcome, Solver};

/// Solves and classifies every record, checking solutions; returns the classes.
fn check_file(path: &Path) -> Vec<Classification> {
    let name = path.display();
    let records = load_path(path);
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

fn assert_all_unique(path: &Path, expected_records: usize) {
    let name = path.display();
    let classes = check_file(path);
    assert_eq!(classes.len(), expected_records, "{name}: record count");
    for (i, c) in classes.iter().enumerate() {
        assert!(
            matches!(c, Classification::Unique(_)),
            "{name}: record {i} is {c:?}"
        );
    }
}

#[test]
fn bundled_sets_all_unique() {
    for (name, records) in [
        ("minimal.txt", 5_000),
        ("hard.txt", 500),
        ("extreme.txt", 100),
        ("quizzes.csv", 2_000),
        ("graded.csv", 2_000),
        ("hash-rating.txt", 2_000),
        ("pairs-easy.txt", 500),
        ("pairs-hard.txt", 500),
        ("easy-50.txt", 50),
        ("sample-10k.csv", 10_000),
    ] {
        assert_all_unique(&common::data(name), records);
    }
}

/// The public sets (`../shared/data`): every record unique, solutions equal to the
/// files' own.
#[test]
fn public_sets_all_unique() {
    for &(name, records) in common::PUBLIC_UNIQUE_DATASETS {
        if let Some(path) = common::public(name) {
            assert_all_unique(&path, records);
        }
    }
}

/// Every record of a set of puzzles with several solutions (the bundled one, and the
/// public benchmark where present) has two or more, each one found valid; one in 50 is
/// counted to two by the independent reference as well.
#[test]
fn multi_solution_sets_all_multiple() {
    let mut sets = vec![(common::data("multiple.txt"), 3_000)];
    sets.extend(common::public("multi-solution-20k.txt").map(|p| (p, 20_000)));
    for (path, records) in sets {
        let name = path.display();
        let classes = check_file(&path);
        assert_eq!(classes.len(), records, "{name}: record count");
        for (i, c) in classes.iter().enumerate() {
            assert!(
                matches!(c, Classification::Multiple(_)),
                "{name}: record {i} is {c:?}"
            );
        }
        for r in load_path(&path).iter().step_by(50) {
            assert_eq!(reference_count(&r.puzzle, 2), 2, "{name}:{}", r.line);
        }
    }
}

/// The edge cases (bundled), and Sudopedia's where present: recorded class and exact
/// solution counts.
#[test]
fn edge_cases_classes_and_counts() {
    check_cases(&common::data("cases.tsv"), 21);
    if let Some(path) = common::public("sudopedia-cases.tsv") {
        check_cases(&path, 34);
    }
}

fn check_cases(path: &Path, cases: usize) {
    let text = std::fs::read_to_string(path).unwrap();
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
    assert_eq!(seen, cases);
}
