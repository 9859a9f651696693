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

/// The columns `names` of every row of a Parquet file as text (null as "", unsigned
/// integers in decimal).
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
                        Some(Field::ULong(n)) => n.to_string(),
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

/// The rows of a table file, header first, read by an independent reader for its
/// format (csv, serde_json, parquet; gzip undone first); `names` orders JSON keys.
fn table_rows(path: &Path, names: &[String]) -> Vec<Vec<String>> {
    let name = path.file_name().unwrap().to_str().unwrap();
    let bytes = match name.ends_with(".gz") {
        true => gunzip(path).into_bytes(),
        false => std::fs::read(path).unwrap(),
    };
    let mut rows = vec![names.to_vec()];
    if name.contains(".parquet") {
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        rows.extend(parquet_columns(path, &refs));
    } else if name.contains(".ndjson") || name.contains(".jsonl") {
        for line in std::str::from_utf8(&bytes).unwrap().lines() {
            let object: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(object.as_object().unwrap().len(), names.len(), "{line}");
            rows.push(
                names
                    .iter()
                    .map(|n| match &object[n] {
                        serde_json::Value::Null => String::new(),
                        serde_json::Value::String(s) => s.clone(),
                        other => panic!("{n}: {other} is not text"),
                    })
                    .collect(),
            );
        }
    } else {
        let delimiter = if name.contains(".tsv") { b'\t' } else { b',' };
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .has_headers(false)
            .from_reader(&bytes[..]);
        rows = reader
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect();
    }
    rows
}

/// `dedupe` writes its kept records as any table asked for, by name or by
/// `--output-format`: CSV, tab-separated, JSON lines (plain, gzip), Parquet; each read
/// back by an independent reader holds the records the same run writes as read, field
/// by field (a CSV input's columns; `puzzle,solution` for one puzzle per line). What
/// cannot become a table (grids drawn over nine lines; CSV not separated by commas)
/// and names of formats not written are refused before any file is made.
#[test]
fn kept_records_become_any_table() {
    let dir = tempfile::tempdir().unwrap();
    let lines = common::data("minimal.txt");
    let csv_input = common::data("quizzes.csv");
    for input in [&lines, &csv_input] {
        let as_read = dir.path().join("as-read");
        let out = run_in(
            dir.path(),
            &[
                "dedupe",
                text(input),
                "-q",
                "--by",
                "text",
                "-o",
                text(&as_read),
            ],
        );
        assert!(out.status.success());
        let read = std::fs::read_to_string(&as_read).unwrap();
        let want: Vec<Vec<String>> = match input == &lines {
            true => std::iter::once(vec!["puzzle".to_string(), "solution".to_string()])
                .chain(records(&read).iter().map(|r| {
                    let mut parts = r.splitn(2, char::is_whitespace);
                    let puzzle = parts.next().unwrap_or("").to_string();
                    vec![puzzle, parts.next().unwrap_or("").trim().to_string()]
                }))
                .collect(),
            false => csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(read.as_bytes())
                .records()
                .map(|r| r.unwrap().iter().map(String::from).collect())
                .collect(),
        };
        assert!(want.len() > 100, "{}", want.len());
        for (name, asked) in [
            ("kept.tsv", None),
            ("kept.ndjson", None),
            ("kept.jsonl.gz", None),
            ("kept.parquet", None),
            ("kept.txt", Some("ndjson")),
            ("kept.out", Some("csv")),
            ("kept.out", Some("parquet")),
        ] {
            let path = dir.path().join(name);
            let mut args = vec![
                "dedupe",
                text(input),
                "-q",
                "--by",
                "text",
                "-o",
                text(&path),
            ];
            if let Some(format) = asked {
                args.extend(["--output-format", format]);
            }
            let out = run_in(dir.path(), &args);
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let shown = match asked {
                Some("ndjson") => dir.path().join("shown.ndjson"),
                Some("parquet") => dir.path().join("shown.parquet"),
                Some(_) => dir.path().join("shown.csv"),
                None => path.clone(),
            };
            std::fs::rename(&path, &shown).unwrap();
            assert_eq!(
                table_rows(&shown, &want[0]),
                want,
                "{} as {name} {asked:?}",
                input.display()
            );
            std::fs::remove_file(&shown).unwrap();
        }
    }
    let blocks = common::data("cases/valid/given80.txt");
    let tab = dir.path().join("tab.tsv");
    std::fs::write(&tab, "quiz\tnote\n1.3\tx\n").unwrap();
    for (input, name) in [
        (&blocks, "out.csv"),
        (&tab, "out.ndjson"),
        (&csv_input, "out.xlsx"),
        (&csv_input, "out.parquet.gz"),
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
    // `split --output-format` names both sides for the format and writes every record.
    let out = run_in(
        dir.path(),
        &[
            "split",
            text(&lines),
            "-q",
            "--test",
            "0.3",
            "--output-format",
            "parquet",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names = ["puzzle".to_string(), "solution".to_string()];
    let sides: usize = ["minimal.train.parquet", "minimal.test.parquet"]
        .iter()
        .map(|side| table_rows(&dir.path().join(side), &names).len() - 1)
        .sum();
    let all = records(&std::fs::read_to_string(&lines).unwrap()).len();
    assert_eq!(sides, all);
    // What the input is stays as read under its own kind of name.
    let out_path = dir.path().join("out.csv");
    let out = run_in(
        dir.path(),
        &["dedupe", text(&csv_input), "-q", "-o", text(&out_path)],
    );
    assert!(out.status.success());
    assert!(std::fs::read_to_string(&out_path)
        .unwrap()
        .starts_with("quizzes,solutions\n"));
}

/// `dedupe --rows` and `overlap` write their own rows in every table format (by name
/// or `--output-format`), with `--record-index` numbering the records from 0 and
/// `overlap --keep-columns` carrying the test record's fields: the same rows, read
/// back by independent readers, as the CSV of the same run, and the columns as the
/// input's.
#[test]
fn dataset_rows_in_every_table_format() {
    let dir = tempfile::tempdir().unwrap();
    let train = common::data("hard.txt");
    let test = common::data("quizzes.csv");
    let csv_rows = |args: &[&str]| -> Vec<Vec<String>> {
        let path = dir.path().join("rows.csv");
        let mut all = args.to_vec();
        all.extend(["-o", text(&path)]);
        assert!(run_in(dir.path(), &all).status.success());
        table_rows(&path, &[])
    };
    let overlap = [
        "overlap",
        text(&train),
        text(&test),
        "-q",
        "--record-index",
        "--keep-columns",
    ];
    let want = csv_rows(&overlap);
    assert_eq!(
        want[0],
        [
            "line",
            "train_line",
            "test_duplicate_of",
            "record",
            "quizzes",
            "solutions"
        ]
    );
    // Every test record, numbered from 0, its fields as the input has them.
    let input: Vec<Vec<String>> = table_rows(&test, &[]);
    assert_eq!(want.len(), input.len());
    for (i, (row, record)) in want.iter().zip(&input).enumerate().skip(1) {
        assert_eq!(row[3], (i - 1).to_string());
        assert_eq!(row[4..], record[..], "row {i}");
    }
    for (name, asked) in [
        ("rows.tsv", None),
        ("rows.ndjson.zst", None),
        ("rows.parquet", None),
        ("rows.out", Some("ndjson")),
    ] {
        let path = dir.path().join(name);
        let mut args = overlap.to_vec();
        args.extend(["-o", text(&path)]);
        if let Some(format) = asked {
            args.extend(["--output-format", format]);
        }
        assert!(run_in(dir.path(), &args).status.success(), "{name}");
        let shown = match (name, asked) {
            (_, Some(_)) => dir.path().join("shown.ndjson"),
            ("rows.ndjson.zst", _) => {
                let plain = dir.path().join("shown.ndjson");
                let bytes = zstd::decode_all(std::fs::File::open(&path).unwrap()).unwrap();
                std::fs::write(&plain, bytes).unwrap();
                plain
            }
            _ => path.clone(),
        };
        if asked.is_some() {
            std::fs::rename(&path, &shown).unwrap();
        }
        if name.contains("ndjson") || asked.is_some() {
            // Line numbers are numbers in JSON: compare the text columns, then those.
            let lines = std::fs::read_to_string(&shown).unwrap();
            let first: serde_json::Value =
                serde_json::from_str(lines.lines().next().unwrap()).unwrap();
            assert_eq!(first["line"], want[1][0].parse::<u64>().unwrap());
            assert_eq!(first["record"], 0);
            assert!(first["train_line"].is_null() || first["train_line"].is_u64());
            assert_eq!(first["quizzes"], want[1][4]);
            assert_eq!(lines.lines().count(), want.len() - 1);
            continue;
        }
        assert_eq!(table_rows(&shown, &want[0]), want, "{name}");
    }
    // dedupe --rows, numbered, as JSON lines: one per record, `record` counting them.
    let rows = dir.path().join("dups.ndjson");
    let out = run_in(
        dir.path(),
        &[
            "dedupe",
            text(&train),
            "-q",
            "-o",
            "/dev/null",
            "--rows",
            text(&rows),
            "--record-index",
        ],
    );
    assert!(out.status.success());
    let text_rows = std::fs::read_to_string(&rows).unwrap();
    let records = records(&std::fs::read_to_string(&train).unwrap()).len();
    assert_eq!(text_rows.lines().count(), records);
    for (i, line) in text_rows.lines().enumerate() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(row["record"], i as u64, "{line}");
        assert!(
            row["line"].is_u64() && (row["duplicate_of"].is_null() || row["duplicate_of"].is_u64())
        );
    }
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
