//! A given solution is checked against its puzzle, with one meaning in every format:
//! `mismatch` is true when the given grid is not a solution of the puzzle, false when it
//! is (any of several), empty (`null`) when none was given or the record is invalid.
//! `--require-match` gates on it, `--only mismatch` selects those rows.

use std::process::{Command, Output};

const PUZZLE: &str =
    "....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3";
const SOLUTION: &str =
    "425631897169478325783925641678319452532764189941582736217853964396247518854196273";

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .output()
        .unwrap()
}

/// The puzzle with its first `n` givens emptied: it keeps SOLUTION as a solution.
fn fewer_givens(n: usize) -> String {
    let mut left = n;
    PUZZLE
        .chars()
        .map(|c| {
            if c != '.' && left > 0 {
                left -= 1;
                '.'
            } else {
                c
            }
        })
        .collect()
}

/// Records and what `mismatch` must say of each.
fn cases() -> Vec<(String, String, &'static str)> {
    let mut wrong = SOLUTION.to_string();
    wrong.replace_range(0..2, "52");
    vec![
        (PUZZLE.into(), SOLUTION.into(), "false"),
        (PUZZLE.into(), wrong, "true"),
        (fewer_givens(8), SOLUTION.into(), "false"),
        (PUZZLE.into(), "12345".into(), "true"),
        ("not a puzzle".into(), SOLUTION.into(), ""),
        (PUZZLE.into(), String::new(), ""),
    ]
}

fn write_input(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("given.csv");
    let mut text = String::from("puzzle,solution\n");
    for (p, s, _) in cases() {
        text.push_str(&format!("{p},{s}\n"));
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn mismatch_is_one_boolean_in_csv_ndjson_and_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path());
    let input = input.to_str().unwrap();
    let want: Vec<&str> = cases().iter().map(|c| c.2).collect();
    // CSV.
    let out = run(&["classify", input, "-q"]);
    assert!(out.status.success());
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let got: Vec<String> = reader
        .records()
        .map(|r| r.unwrap()[5].to_string())
        .collect();
    assert_eq!(got, want);
    assert!(String::from_utf8_lossy(&run(&["classify", input]).stderr)
        .contains("solution mismatches 2"));
    // NDJSON.
    let out = run(&["classify", input, "-q", "--output-format", "ndjson"]);
    let got: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["mismatch"].clone())
        .collect();
    let as_json: Vec<serde_json::Value> = want
        .iter()
        .map(|w| match *w {
            "true" => true.into(),
            "false" => false.into(),
            _ => serde_json::Value::Null,
        })
        .collect();
    assert_eq!(got, as_json);
    // Parquet: a boolean column, null where the CSV is empty.
    let pq = dir.path().join("rows.parquet");
    assert!(run(&["classify", input, "-q", "-o", pq.to_str().unwrap()])
        .status
        .success());
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;
    let reader = SerializedFileReader::new(std::fs::File::open(&pq).unwrap()).unwrap();
    let got: Vec<String> = reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            let row = row.unwrap();
            match row
                .get_column_iter()
                .find(|(n, _)| *n == "mismatch")
                .unwrap()
                .1
            {
                Field::Bool(b) => b.to_string(),
                Field::Null => String::new(),
                other => panic!("not a boolean: {other:?}"),
            }
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn require_match_and_only_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path());
    let input = input.to_str().unwrap();
    let out = run(&[
        "classify",
        input,
        "-q",
        "-o",
        "/dev/null",
        "--require-match",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(message.contains("first at lines 3, 5"), "{message}");
    let out = run(&["classify", input, "-q", "--only", "mismatch"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(lines, ["3", "5"]);
    // With a status named too, its rows come as well.
    let out = run(&["classify", input, "-q", "--only", "invalid,mismatch"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(lines, ["3", "5", "6"]);
    // Without given solutions nothing mismatches.
    let plain = dir.path().join("plain.txt");
    std::fs::write(&plain, format!("{PUZZLE}\n")).unwrap();
    let out = run(&["classify", plain.to_str().unwrap(), "-q", "--require-match"]);
    assert!(out.status.success());
}
