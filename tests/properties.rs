//! Property tests: puzzles derived from real ones, checked against the independent
//! reference counter in `common`.

mod common;

use std::sync::OnceLock;

use proptest::prelude::*;
use sudoku_batch::engines::corpus::{Rng, Symmetry};
use sudoku_batch::{Classification, Grid, Solver};

/// Real solutions (Kaggle files carry them).
fn solutions() -> &'static Vec<Grid> {
    static S: OnceLock<Vec<Grid>> = OnceLock::new();
    S.get_or_init(|| {
        common::load("graded.csv")
            .into_iter()
            .filter_map(|r| r.expected)
            .collect()
    })
}

/// Real hard puzzles.
fn hard_puzzles() -> &'static Vec<Grid> {
    static S: OnceLock<Vec<Grid>> = OnceLock::new();
    S.get_or_init(|| {
        common::load("hard.txt")
            .into_iter()
            .map(|r| r.puzzle)
            .collect()
    })
}

/// Keeps the cells whose random key is below `keep` (out of 81).
fn thin(solution: &Grid, keys: &[u8], keep: u8) -> Grid {
    let mut g = *solution;
    for (i, &k) in keys.iter().enumerate() {
        if k >= keep {
            g.set(i, 0);
        }
    }
    g
}

fn class_count(c: &Classification) -> u64 {
    match c {
        Classification::Unique(_) => 1,
        Classification::Multiple(_) => 2,
        Classification::Unsolvable | Classification::Invalid(_) => 0,
        Classification::Undecided(_) => panic!("no 9x9 puzzle spends the default budget"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Removing givens from a real solution: counts agree with the reference, and any
    /// solution found is valid and keeps the givens.
    #[test]
    fn thinned_solutions_match_reference(
        which in 0usize..5000,
        keys in proptest::collection::vec(0u8..81, 81),
        keep in 18u8..81,
    ) {
        let solution = solutions()[which % solutions().len()];
        let puzzle = thin(&solution, &keys, keep);
        let mut solver = Solver::new();
        let class = solver.classify(&puzzle);
        prop_assert_eq!(class_count(&class), common::reference_count(&puzzle, 2));
        let counted = solver.count(&puzzle, 4);
        prop_assert_eq!(counted.solutions, common::reference_count(&puzzle, 4));
        let s = counted.first.unwrap();
        prop_assert!(s.is_valid_solution() && s.keeps_givens_of(&puzzle));
    }

    /// Corrupting one or two givens makes clashes and unsolvable puzzles: still exact.
    #[test]
    fn corrupted_puzzles_match_reference(
        which in 0usize..5000,
        keys in proptest::collection::vec(0u8..81, 81),
        keep in 25u8..60,
        edits in proptest::collection::vec((0usize..81, 1u8..10), 1..3),
    ) {
        let solution = solutions()[which % solutions().len()];
        let mut puzzle = thin(&solution, &keys, keep);
        for (cell, digit) in edits {
            puzzle.set(cell, digit);
        }
        let mut solver = Solver::new();
        let class = solver.classify(&puzzle);
        let reference = common::reference_count(&puzzle, 2);
        prop_assert_eq!(class_count(&class), reference);
        prop_assert_eq!(matches!(class, Classification::Invalid(_)), puzzle.find_clash().is_some());
    }

    /// Relabelling digits and permuting rows/columns of a hard puzzle maps its unique
    /// solution to the transformed puzzle's unique solution.
    #[test]
    fn symmetries_of_hard_puzzles(which in 0usize..500, seed in any::<u64>()) {
        let puzzle = hard_puzzles()[which % hard_puzzles().len()];
        let symmetry = Symmetry::random(&mut Rng::new(seed));
        let moved = symmetry.apply(&puzzle);
        let mut solver = Solver::new();
        let Classification::Unique(original) = solver.classify(&puzzle) else {
            return Err(TestCaseError::fail("original not unique"));
        };
        prop_assert_eq!(solver.classify(&moved), Classification::Unique(symmetry.apply(&original)));
        prop_assert_eq!(common::reference_count(&moved, 2), 1);
    }
}

/// Fields with quotes, commas and newlines, written as RFC 4180 CSV.
fn csv_text(rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    for row in rows {
        let fields: Vec<String> = row
            .iter()
            .map(|f| {
                if f.contains([',', '"', '\n']) {
                    format!("\"{}\"", f.replace('"', "\"\""))
                } else {
                    f.clone()
                }
            })
            .collect();
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

fn parse_all(bytes: &[u8]) -> Vec<Vec<Vec<u8>>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    reader
        .byte_records()
        .map(|r| r.unwrap().iter().map(|f| f.to_vec()).collect())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Chunks of CSV end on record boundaries: parsing chunk by chunk gives the same
    /// records as parsing the whole, whatever the target sizes.
    #[test]
    fn csv_chunks_end_on_record_boundaries(
        rows in proptest::collection::vec(
            proptest::collection::vec("[a-c,\"\n]{0,6}", 1..4), 1..30),
        targets in proptest::collection::vec(0usize..40, 1..10),
    ) {
        use sudoku_batch::pipeline::input::{chunk_end, Format};
        let text = csv_text(&rows);
        let bytes = text.as_bytes();
        let mut pos = 0;
        let mut quoted = false;
        let mut chunked = Vec::new();
        let mut i = 0;
        while pos < bytes.len() {
            let end = chunk_end(&bytes[pos..], targets[i % targets.len()], Format::Csv, &mut quoted);
            prop_assert!(end > 0);
            chunked.extend(parse_all(&bytes[pos..pos + end]));
            pos += end;
            i += 1;
        }
        prop_assert!(!quoted);
        prop_assert_eq!(chunked, parse_all(bytes));
    }
}

/// Every record of a CSV text as (line, puzzle or error, raw, expected).
fn csv_records(text: &str) -> Vec<String> {
    use sudoku_batch::pipeline::input::{ColumnChoice, Format};
    let mut out = Vec::new();
    common::each_record(
        text.as_bytes(),
        Some(Format::Csv),
        &ColumnChoice::Index(2),
        |r| {
            out.push(format!(
                "{} {:?} {:?} {:?}",
                r.line, r.puzzle, r.raw, r.expected
            ))
        },
    );
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The quote-free fast path finds the same records, lines and errors as the CSV
    /// reader (forced by a quote in a comment line, which adds one line).
    #[test]
    fn unquoted_csv_fast_path_matches_the_reader(
        lines in proptest::collection::vec(
            prop_oneof![
                Just(String::new()),
                Just("# note".to_string()),
                Just("  ".to_string()),
                "[0-9.]{0,3}",
                "[a-z0-9. #]{0,4},[0-9.]{79,82}(,[0-9]{0,81})?",
                Just(format!("x,{},{}", "....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3", "1".repeat(81))),
            ],
            1..20),
        crlf in any::<bool>(),
    ) {
        let end = if crlf { "\r\n" } else { "\n" };
        let header = format!("id,puzzle,solution{end}");
        let body = lines.join(end);
        let fast = csv_records(&format!("{header}{body}"));
        // A quote anywhere in the chunk (here a comment line after the header) sends it
        // through the CSV reader.
        let slow = csv_records(&format!("{header}#\"{end}{body}"));
        let shifted: Vec<String> = fast
            .iter()
            .map(|r| {
                let (line, rest) = r.split_once(' ').unwrap();
                format!("{} {rest}", line.parse::<u64>().unwrap() + 1)
            })
            .collect();
        prop_assert_eq!(shifted, slow);
    }
}
