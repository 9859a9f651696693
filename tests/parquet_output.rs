//! Parquet output: `--output-format parquet` (or `-o NAME.parquet`) holds the CSV's rows
//! as typed columns. Each case runs the same command twice, to CSV and to Parquet, and
//! compares every field, read back with the `parquet` crate's row reader and the `csv`
//! crate: an empty CSV field is null, numbers are typed, the rest is the same text.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use parquet::basic::Type as Physical;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;

fn run(args: &[&str]) -> Output {
    common::run_piped(&[args, &["--threads", "2"]].concat(), None)
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-batch-pq-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The CSV's header and rows as the `csv` crate reads them.
fn csv_rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// The Parquet file's column names, physical types and rows.
fn parquet_rows(path: &Path) -> (Vec<String>, Vec<Physical>, Vec<Vec<Field>>) {
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    let names = schema
        .columns()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    let types = schema.columns().iter().map(|c| c.physical_type()).collect();
    let rows = reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            row.unwrap()
                .get_column_iter()
                .map(|(_, f)| f.clone())
                .collect()
        })
        .collect();
    (names, types, rows)
}

/// Runs `args` to CSV and to Parquet and checks that they hold the same rows; returns
/// the Parquet file's column types by name.
fn same_rows(name: &str, args: &[&str]) -> Vec<(String, Physical)> {
    let csv_path = temp(&format!("{name}.csv"));
    let pq_path = temp(&format!("{name}.parquet"));
    for path in [&csv_path, &pq_path] {
        let mut all = args.to_vec();
        all.extend(["-o", path.to_str().unwrap()]);
        let out = run(&all);
        assert!(
            out.status.success() || out.status.code() == Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (header, rows) = csv_rows(&csv_path);
    let (names, types, got) = parquet_rows(&pq_path);
    assert_eq!(names, header);
    assert_eq!(got.len(), rows.len());
    assert!(!rows.is_empty());
    for (i, (want, got)) in rows.iter().zip(&got).enumerate() {
        for ((text, field), column) in want.iter().zip(got).zip(&header) {
            let same = match field {
                Field::Null => text.is_empty(),
                Field::Str(s) => s == text,
                Field::ULong(n) => n.to_string() == *text,
                Field::Double(x) => text.parse::<f64>().unwrap() == *x,
                Field::Bool(b) => b.to_string() == *text,
                other => panic!("{column}: unexpected {other:?}"),
            };
            assert!(same, "row {i}, {column}: CSV {text:?}, Parquet {field:?}");
        }
    }
    names.into_iter().zip(types).collect()
}

fn kind_of(types: &[(String, Physical)], name: &str) -> Physical {
    types.iter().find(|(n, _)| n == name).unwrap().1
}

#[test]
fn classify_rows_with_invalid_records_and_reasons() {
    // Records that are invalid for different reasons (quotes and commas in the reason).
    let input = temp("mixed.txt");
    let mut text = std::fs::read_to_string(common::data("extreme.txt")).unwrap();
    text.push_str(
        "123\n11.......................................................................\n",
    );
    text.push_str(
        "x,\"y\"...........................................................................\n",
    );
    std::fs::write(&input, text).unwrap();
    let types = same_rows("classify", &["classify", input.to_str().unwrap()]);
    assert_eq!(kind_of(&types, "line"), Physical::INT64);
    assert_eq!(kind_of(&types, "status"), Physical::BYTE_ARRAY);
}

#[test]
fn grade_with_kept_columns_and_record_numbers() {
    let input = common::data("graded.csv");
    let types = same_rows(
        "grade",
        &[
            "grade",
            input.to_str().unwrap(),
            "--keep-columns",
            "--record-index",
        ],
    );
    assert_eq!(kind_of(&types, "rating"), Physical::DOUBLE);
    assert_eq!(kind_of(&types, "record"), Physical::INT64);
    // The input's own `clues` and `difficulty` stay text.
    assert_eq!(kind_of(&types, "clues"), Physical::BYTE_ARRAY);
    assert_eq!(kind_of(&types, "input_difficulty"), Physical::BYTE_ARRAY);
}

#[test]
fn canon_and_generate() {
    let input = common::data("minimal.txt");
    let types = same_rows("canon", &["canon", input.to_str().unwrap()]);
    assert_eq!(kind_of(&types, "automorphisms"), Physical::INT64);
    let types = same_rows("generate", &["generate", "--count", "40", "--seed", "3"]);
    assert_eq!(kind_of(&types, "givens"), Physical::INT64);
}

#[test]
fn the_format_is_asked_or_taken_from_the_name() {
    let input = common::data("extreme.txt");
    // Asked, to stdout.
    let out = run(&[
        "solve",
        input.to_str().unwrap(),
        "--output-format",
        "parquet",
        "-q",
    ]);
    assert!(out.status.success());
    assert!(out.stdout.starts_with(b"PAR1") && out.stdout.ends_with(b"PAR1"));
    // An explicit CSV format wins over the name.
    let path = temp("asked-csv.parquet");
    let out = run(&[
        "solve",
        input.to_str().unwrap(),
        "--output-format",
        "csv",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(std::fs::read(&path).unwrap().starts_with(b"line,"));
}

#[test]
fn a_report_line_is_refused_and_leaves_no_file() {
    let input = common::data("extreme.txt");
    let path = temp("refused.parquet");
    let out = run(&[
        "classify",
        input.to_str().unwrap(),
        "--report-line",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--report-line"));
    assert!(!path.exists());
}
