//! NumPy `.npy` arrays as the Kaggle 1M set first shipped (`sudoku_quizzes.npy`, shape
//! (n, 9, 9), 0 for empty): every integer width and byte order and string arrays give
//! the rows of the same puzzles as a lines file, `line` counting rows from 1.

mod common;

use std::io::Write;
use std::process::{Command, Output};

fn sudoku_batch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .output()
        .unwrap()
}

use common::npy;

#[test]
fn arrays_give_the_rows_of_the_same_puzzles_as_lines() {
    let records = common::load("quizzes.csv");
    let n = records.len();
    let dir = tempfile::tempdir().unwrap();
    let mut lines = String::new();
    let mut cells = Vec::new();
    for r in &records {
        let line = String::from_utf8(r.puzzle.to_line().to_vec()).unwrap();
        lines.push_str(&line);
        lines.push('\n');
        cells.extend(line.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }));
    }
    let text = dir.path().join("puzzles.txt");
    std::fs::write(&text, &lines).unwrap();
    let expected = common::stdout_of(&["classify", text.to_str().unwrap(), "-q"]);
    let wide: Vec<u8> = cells
        .iter()
        .flat_map(|&v| i64::from(v).to_le_bytes())
        .collect();
    let big: Vec<u8> = cells
        .iter()
        .flat_map(|&v| u32::from(v).to_be_bytes())
        .collect();
    let strings: Vec<u8> = lines.bytes().filter(|&b| b != b'\n').collect();
    let gz = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&npy("|i1", &format!("({n}, 9, 9)"), &cells))
            .unwrap();
        e.finish().unwrap()
    };
    for (name, bytes) in [
        ("u8.npy", npy("|u1", &format!("({n}, 9, 9)"), &cells)),
        ("i8.npy", npy("<i8", &format!("({n}, 81)"), &wide)),
        ("be.npy", npy(">u4", &format!("({n}, 81)"), &big)),
        ("s81.npy", npy("|S81", &format!("({n},)"), &strings)),
        ("u8.npy.gz", gz),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = sudoku_batch(&["classify", path.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout == expected,
            "{name}: rows differ from the lines file's"
        );
        let summary = String::from_utf8_lossy(&out.stderr);
        assert!(
            summary.contains("NumPy") && summary.contains(&format!("{n} records in")),
            "{summary}"
        );
    }
}

#[test]
fn arrays_that_are_not_puzzles_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes, says) in [
        ("f8.npy", npy("<f8", "(1, 81)", &[0; 648]), "dtype \"<f8\""),
        (
            "shape.npy",
            npy("|u1", "(2, 80)", &[0; 160]),
            "shape (2, 80)",
        ),
        (
            "short.npy",
            npy("|u1", "(3, 81)", &[0; 100]),
            "row 2 of 3 is missing",
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let out_path = dir.path().join("rows.csv");
        let out = sudoku_batch(&[
            "classify",
            path.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(name) && err.contains(says), "{name}: {err}");
        assert!(!out_path.exists(), "{name}: an output was committed");
    }
}

/// Every array row is a record, an empty, blank or `#` one too: rows out equal rows in,
/// a row's `line` is its index counted from 1 and its `record` (`--record-index`) the
/// index from 0, so it joins back to the array (`df.iloc[record]`).
#[test]
fn every_row_is_a_record_blank_and_comment_rows_too() {
    let puzzle =
        "....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3";
    let rows = [puzzle, "", "   ", "# not a comment", puzzle, "\t", puzzle];
    let mut data = Vec::new();
    for row in rows {
        let mut cell = row.as_bytes().to_vec();
        cell.resize(200, 0);
        data.extend_from_slice(&cell);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.npy");
    std::fs::write(&path, npy("|S200", "(7,)", &data)).unwrap();
    let out = sudoku_batch(&["classify", path.to_str().unwrap(), "--record-index"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let got: Vec<(String, String, String)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].to_string(),
                f[3].to_string(),
                f[f.len() - 1].to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String, String)> = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let status = if *row == puzzle { "unique" } else { "invalid" };
            ((i + 1).to_string(), status.to_string(), i.to_string())
        })
        .collect();
    assert_eq!(got, want, "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("7 records in, 7 rows out"));
}
