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

/// What a Parquet file cannot carry (a kept field that is not UTF-8, a row wider than
/// the header, a puzzle as read that is not UTF-8) makes that record `invalid` with the
/// reason, never the run's failure; line ends in kept fields and in the puzzle as read
/// are carried. Every record gives one row, in CSV as in Parquet.
#[test]
fn fields_a_parquet_file_cannot_carry_make_the_record_invalid() {
    let text = std::fs::read_to_string(common::data("extreme.txt")).unwrap();
    let puzzles: Vec<&str> = text.lines().take(4).collect();
    let mut csv = b"puzzle,note,x\n".to_vec();
    csv.extend(format!("{},\"multi\nline\",a\n", puzzles[0]).bytes());
    csv.extend(format!("{},\"two\r\nends\",b\n", puzzles[1]).bytes());
    csv.extend(format!("{},ok,c,extra\n", puzzles[2]).bytes());
    csv.extend(format!("{},", puzzles[3]).bytes());
    csv.extend(b"\xff\xfe bad,d\n");
    let input = temp("unfit.csv");
    std::fs::write(&input, &csv).unwrap();
    let path = temp("unfit.parquet");
    let out = run(&[
        "classify",
        input.to_str().unwrap(),
        "--keep-columns",
        "-q",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (names, _, rows) = parquet_rows(&path);
    assert_eq!(names[6..], ["input_puzzle", "note", "x"]);
    assert_eq!(rows.len(), 4);
    let text = |f: &Field| match f {
        Field::Str(s) => s.clone(),
        other => format!("{other:?}"),
    };
    assert_eq!(text(&rows[0][7]), "multi\nline");
    assert_eq!(text(&rows[1][7]), "two\r\nends");
    assert_eq!(text(&rows[0][3]), "unique");
    assert_eq!(text(&rows[2][3]), "invalid");
    assert!(text(&rows[2][4]).starts_with("row has 4 fields, the header 3"));
    assert_eq!(text(&rows[2][8]), "c");
    assert_eq!(text(&rows[3][3]), "invalid");
    assert!(text(&rows[3][4]).starts_with("field 2 is not UTF-8"));
    assert_eq!(text(&rows[3][7]), "\u{FFFD}\u{FFFD} bad");
    // CSV output carries them all as they are (its longer row ragged).
    let out = run(&["classify", input.to_str().unwrap(), "--keep-columns", "-q"]);
    assert!(out.status.success());
    let read: Vec<csv::ByteRecord> = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(&out.stdout[..])
        .byte_records()
        .map(Result::unwrap)
        .collect();
    assert_eq!(read.len(), 4);
    assert_eq!(&read[1][7], b"two\r\nends");
    assert_eq!(&read[3][7], b"\xff\xfe bad");

    // The puzzle as read: a line end inside it (quoted), and bytes that are not UTF-8.
    let mut csv = format!("puzzle\n{}\n\"{}\n\"\n", puzzles[0], puzzles[1]).into_bytes();
    csv.extend([0xff]);
    csv.extend(format!("{}\n", puzzles[2]).bytes());
    std::fs::write(&input, &csv).unwrap();
    for output in [None, Some(temp("as-read.parquet"))] {
        let mut args = vec![
            "classify",
            input.to_str().unwrap(),
            "--puzzle-as-read",
            "-q",
        ];
        if let Some(path) = &output {
            args.extend(["-o", path.to_str().unwrap()]);
        }
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let statuses: Vec<String> = match &output {
            None => csv::ReaderBuilder::new()
                .from_reader(&out.stdout[..])
                .byte_records()
                .map(|r| String::from_utf8_lossy(&r.unwrap()[3]).into_owned())
                .collect(),
            Some(path) => parquet_rows(path).2.iter().map(|r| text(&r[3])).collect(),
        };
        assert_eq!(statuses, ["unique", "invalid", "invalid"], "{output:?}");
    }
}
