//! One output family for every command that writes records: tab-separated rows from the
//! record commands, and the dataset commands (`split`, `dedupe`) keeping their input's
//! format (Parquet, gzip) or refusing a name that asks for another. Everything written is
//! read back with an independent reader (the `parquet`, `csv` and `flate2` crates) and
//! compared with the input record for record.

mod common;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A multiset of strings.
fn counted<I: IntoIterator<Item = String>>(items: I) -> BTreeMap<String, usize> {
    let mut map = BTreeMap::new();
    for item in items {
        *map.entry(item).or_default() += 1;
    }
    map
}

/// The text columns `names` of every row of a Parquet file (null as "").
fn parquet_columns(path: &Path, names: &[&str]) -> Vec<Vec<String>> {
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            let row = row.unwrap();
            names
                .iter()
                .map(|name| {
                    match row
                        .get_column_iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, f)| f)
                    {
                        Some(Field::Str(s)) => s.clone(),
                        Some(Field::Null) | None => String::new(),
                        Some(other) => panic!("{name}: not text: {other:?}"),
                    }
                })
                .collect()
        })
        .collect()
}

/// Each record of a one-puzzle-per-line text (comments and blank lines are not records).
fn records(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

fn gunzip(path: &Path) -> String {
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text
}

#[test]
fn tsv_rows_hold_the_csv_rows() {
    let dir = tempfile::tempdir().unwrap();
    let input = common::data("quizzes.csv");
    let (csv, tsv) = (dir.path().join("rows.csv"), dir.path().join("rows.tsv"));
    for out in [&csv, &tsv] {
        let args = [
            "classify",
            text(&input),
            "--keep-columns",
            "-q",
            "-o",
            text(out),
        ];
        assert!(run_in(dir.path(), &args).status.success());
    }
    let read = |path: &Path, delimiter: u8| -> Vec<Vec<String>> {
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .from_path(path)
            .unwrap();
        let mut rows = vec![reader.headers().unwrap().iter().map(String::from).collect()];
        for record in reader.records() {
            rows.push(record.unwrap().iter().map(String::from).collect());
        }
        rows
    };
    let (by_comma, by_tab) = (read(&csv, b','), read(&tsv, b'\t'));
    assert_eq!(by_comma.len(), 2001);
    assert_eq!(by_comma, by_tab);
    assert!(!std::fs::read_to_string(&tsv).unwrap().contains(','));
    // Asked for by --output-format too, and compressed by the name.
    let zipped = dir.path().join("rows.tsv.gz");
    let args = [
        "classify",
        text(&input),
        "--keep-columns",
        "-q",
        "-o",
        text(&zipped),
    ];
    assert!(run_in(dir.path(), &args).status.success());
    assert_eq!(gunzip(&zipped), std::fs::read_to_string(&tsv).unwrap());
    let out = run_in(
        dir.path(),
        &[
            "classify",
            text(&input),
            "--keep-columns",
            "-q",
            "--output-format",
            "tsv",
        ],
    );
    assert_eq!(out.stdout, std::fs::read(&tsv).unwrap());
}

#[test]
fn split_of_parquet_writes_parquet_with_every_record() {
    let dir = tempfile::tempdir().unwrap();
    let input = common::data("parquet/graded-first2000.snappy.parquet");
    let out = run_in(dir.path(), &["split", text(&input), "--test", "0.1", "-q"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sides: Vec<PathBuf> = ["train", "test"]
        .iter()
        .map(|part| {
            dir.path()
                .join(format!("graded-first2000.{part}.snappy.parquet"))
        })
        .collect();
    let mut got = Vec::new();
    for side in &sides {
        let rows = parquet_columns(side, &["puzzle", "solution"]);
        assert!(!rows.is_empty(), "{}", side.display());
        got.extend(rows.into_iter().map(|r| r.join(" ")));
    }
    let want: Vec<String> = parquet_columns(&input, &["puzzle", "solution"])
        .into_iter()
        .map(|r| r.join(" "))
        .collect();
    assert_eq!(got.len(), 2000);
    assert_eq!(counted(got), counted(want));
}

#[test]
fn dedupe_writes_parquet_from_parquet_and_lines() {
    let dir = tempfile::tempdir().unwrap();
    let input = common::data("parquet/minimal-first500-binary.gzip.parquet");
    let out_path = dir.path().join("kept.parquet");
    let out = run_in(
        dir.path(),
        &["dedupe", text(&input), "-q", "-o", text(&out_path)],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = parquet_columns(&out_path, &["puzzle"]);
    let want = records(&std::fs::read_to_string(common::data("minimal.txt")).unwrap());
    assert_eq!(rows.len(), 500);
    let dots = |s: &str| s.replace('0', ".");
    assert_eq!(
        rows.iter().map(|r| dots(&r[0])).collect::<Vec<_>>(),
        want[..500].iter().map(|w| dots(w)).collect::<Vec<_>>()
    );
    // easy-50.txt holds one repeated puzzle: 49 records survive, as text columns.
    let easy = common::data("easy-50.txt");
    let out_path = dir.path().join("easy.parquet");
    let out = run_in(
        dir.path(),
        &["dedupe", text(&easy), "-q", "-o", text(&out_path)],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = parquet_columns(&out_path, &["puzzle", "solution"]);
    let all = records(&std::fs::read_to_string(&easy).unwrap());
    assert_eq!(rows.len(), all.len() - 1);
    for row in &rows {
        assert!(all.contains(&row[0]), "{row:?}");
    }
}

#[test]
fn split_of_gzip_writes_gzip_with_every_record() {
    let dir = tempfile::tempdir().unwrap();
    let source = std::fs::read(common::data("hard.txt")).unwrap();
    let input = dir.path().join("hard.txt.gz");
    let mut encoder = flate2::write::GzEncoder::new(
        std::fs::File::create(&input).unwrap(),
        flate2::Compression::fast(),
    );
    std::io::Write::write_all(&mut encoder, &source).unwrap();
    encoder.finish().unwrap();
    let out = run_in(dir.path(), &["split", text(&input), "--test", "0.2", "-q"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut got = Vec::new();
    for part in ["train", "test"] {
        let side = dir.path().join(format!("hard.{part}.txt.gz"));
        got.extend(records(&gunzip(&side)));
    }
    let want = records(&String::from_utf8(source).unwrap());
    assert_eq!(counted(got), counted(want));
}

#[test]
fn names_asking_for_another_format_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let lines = common::data("minimal.txt");
    let csv = common::data("quizzes.csv");
    for (input, name) in [
        (&lines, "out.csv"),
        (&lines, "out.ndjson"),
        (&csv, "out.tsv"),
        (&csv, "out.xlsx"),
        (&csv, "out.parquet.gz"),
    ] {
        let out_path = dir.path().join(name);
        let out = run_in(
            dir.path(),
            &["dedupe", text(input), "-q", "-o", text(&out_path)],
        );
        assert_eq!(out.status.code(), Some(2), "{name}");
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(message.contains(name), "{name}: {message}");
        assert!(!out_path.exists(), "{name}");
    }
    // What the input is stays writable under its own kind of name.
    let out_path = dir.path().join("out.csv");
    let out = run_in(
        dir.path(),
        &["dedupe", text(&csv), "-q", "-o", text(&out_path)],
    );
    assert!(out.status.success());
    assert!(std::fs::read_to_string(&out_path)
        .unwrap()
        .starts_with("quizzes,solutions\n"));
}

/// `--member` picks the member of a zip archive that `dedupe` and `split` read.
#[test]
fn member_of_a_zip_is_the_one_read() {
    let dir = tempfile::tempdir().unwrap();
    let hard = std::fs::read(common::data("hard.txt")).unwrap();
    let easy = std::fs::read(common::data("easy-50.txt")).unwrap();
    let path = dir.path().join("two.zip");
    let mut w = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, bytes) in [("hard.txt", &hard), ("easy.txt", &easy)] {
        w.start_file(name, options).unwrap();
        std::io::Write::write_all(&mut w, bytes).unwrap();
    }
    w.finish().unwrap();
    let out_path = dir.path().join("kept.txt");
    let args = [
        "dedupe",
        text(&path),
        "--member",
        "easy.txt",
        "-q",
        "-o",
        text(&out_path),
    ];
    let out = run_in(dir.path(), &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let kept = records(&std::fs::read_to_string(&out_path).unwrap());
    let all = records(&String::from_utf8(easy).unwrap());
    assert_eq!(kept.len(), all.len() - 1);
    assert!(kept.iter().all(|k| all.contains(k)));
}
