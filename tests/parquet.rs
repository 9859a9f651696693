//! Parquet input: files written by pyarrow (`data/parquet/`, see `data/README.md`) give
//! the rows their source text files give, a row per Parquet row with `line` its row
//! number; string, list-of-integer and fixed-size binary puzzle columns; snappy, zstd
//! and gzip; malformed rows and unreadable files as the other inputs treat them.

mod common;

use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .args(["--threads", "2"])
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn parquet(name: &str) -> String {
    common::data("parquet")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// The rows of a CSV output after its header: (line, puzzle, solution, status, reason,
/// mismatch).
fn rows(out: &[u8]) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .from_reader(out)
        .records()
        .map(|r| r.unwrap().iter().take(6).map(str::to_string).collect())
        .collect()
}

fn classify(path: &str) -> Vec<Vec<String>> {
    let out = run(&["classify", path, "-q"]);
    assert!(
        out.status.success(),
        "{path}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    rows(&out.stdout)
}

/// Rows of `text` (one record a line) classified, renumbered from 1 as Parquet rows are.
fn classify_text(dir: &tempfile::TempDir, text: &str) -> Vec<Vec<String>> {
    let path = dir.path().join("source.txt");
    std::fs::write(&path, text).unwrap();
    let mut rows = classify(path.to_str().unwrap());
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = (i + 1).to_string();
    }
    rows
}

#[test]
fn string_columns_give_the_rows_of_their_source() {
    let dir = tempfile::tempdir().unwrap();
    let source = std::fs::read_to_string(common::data("kaggle-3m-curated5000.csv")).unwrap();
    let text: String = source
        .lines()
        .skip(1)
        .take(2000)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            format!("{} {}\n", f[0], f[1])
        })
        .collect();
    let want = classify_text(&dir, &text);
    let path = parquet("kaggle-3m-first2000.snappy.parquet");
    assert_eq!(classify(&path), want);
    let out = run(&["classify", &path, "-o", "/dev/null"]);
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains("(Parquet): 2000 records in"), "{summary}");
    assert!(
        summary.contains(
            "read as Parquet: puzzles in \"puzzle\", solutions in \"solution\", 2000 rows in 4 row groups"
        ),
        "{summary}"
    );
    // Told by its bytes, not its name.
    let renamed = dir.path().join("puzzles.txt");
    std::fs::copy(&path, &renamed).unwrap();
    assert_eq!(classify(renamed.to_str().unwrap()), want);
    // `record` numbers rows from 0.
    let out = run(&["classify", &path, "-q", "--record-index"]);
    let numbered = csv::ReaderBuilder::new()
        .from_reader(&out.stdout[..])
        .records()
        .map(|r| r.unwrap()[6].parse::<usize>().unwrap())
        .collect::<Vec<_>>();
    assert_eq!(numbered, (0..2000).collect::<Vec<_>>());
}

#[test]
fn list_and_binary_columns_and_malformed_rows() {
    let dir = tempfile::tempdir().unwrap();
    // The file's rows 10, 20 and 30 (from 0) are a null, an empty list and 80 cells.
    let source = std::fs::read_to_string(common::data("kaggle-1m-first10k.csv")).unwrap();
    let text: String = source
        .lines()
        .skip(1)
        .take(1000)
        .enumerate()
        .map(|(i, l)| {
            let (quiz, solution) = l.split_once(',').unwrap();
            match i {
                10 | 20 => "null\n".to_string(),
                30 => format!("{}\n", &quiz[..80]),
                _ => format!("{quiz} {solution}\n"),
            }
        })
        .collect();
    let want = classify_text(&dir, &text);
    let got = classify(&parquet("kaggle-1m-first1000-lists.zstd.parquet"));
    assert_eq!(got, want);
    let invalid: Vec<&str> = got
        .iter()
        .filter(|r| r[3] == "invalid")
        .map(|r| r[0].as_str())
        .collect();
    assert_eq!(invalid, ["11", "21", "31"]);
    // 81-byte binary, no solution column.
    let source = std::fs::read_to_string(common::data("royle-17-clue.txt")).unwrap();
    let text: String = source
        .split_whitespace()
        .filter(|t| t.len() == 81)
        .take(500)
        .map(|t| format!("{t}\n"))
        .collect();
    let want = classify_text(&dir, &text);
    assert_eq!(
        classify(&parquet("royle-17-clue-first500-binary.gzip.parquet")),
        want
    );
}

#[test]
fn unreadable_files_and_unusable_columns_fail_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = parquet("kaggle-3m-first2000.snappy.parquet");
    let bytes = std::fs::read(&path).unwrap();
    let truncated = dir.path().join("truncated.parquet");
    std::fs::write(&truncated, &bytes[..100_000]).unwrap();
    let mut corrupt = bytes[..150_000].to_vec();
    corrupt.extend_from_slice(&bytes[bytes.len() - 60_000..]);
    let corrupt_path = dir.path().join("corrupt.parquet");
    std::fs::write(&corrupt_path, &corrupt).unwrap();
    let out_path = dir.path().join("rows.csv");
    let out = out_path.to_str().unwrap();
    for (args, says) in [
        (
            vec!["classify", truncated.to_str().unwrap()],
            "truncated.parquet: not a readable Parquet file",
        ),
        (
            vec!["classify", corrupt_path.to_str().unwrap()],
            "corrupt.parquet: Parquet row group",
        ),
        (
            vec!["classify", &path, "--column", "nope"],
            "--column nope: no such column; the file has: puzzle, solution, clues, difficulty",
        ),
        (
            vec!["classify", &path, "--column", "clues"],
            "column \"clues\" holds numbers",
        ),
        (
            vec!["classify", &path, "--keep-columns"],
            "a Parquet file's other columns are not read",
        ),
        (
            vec!["classify", &path, "--shard", "1/2"],
            "is Parquet, read as a stream",
        ),
    ] {
        let mut all = args.clone();
        all.extend(["-o", out]);
        let result = run(&all);
        assert_eq!(result.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!out_path.exists(), "{args:?} left an output file");
    }
    // On stdin there is no footer to seek to.
    let result = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(["classify", "-"])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&result.stderr).contains("a Parquet file is read from a file"));
}
