//! `canon`, `dedupe` and `overlap` end to end, checked against the `canonical` column
//! sorted and grouped here, and against `corpus`'s isomorphs.

mod common;

use std::collections::HashMap;
use std::process::Command;

use common::{data, stdout_of};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
}

/// `(line, status, canonical, automorphisms)` of each row of `canon FILE`.
fn canon_rows(path: &str) -> Vec<(u64, String, String, String)> {
    let out = String::from_utf8(stdout_of(&["canon", path, "-q"])).unwrap();
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap(),
        "line,puzzle,solution,status,reason,mismatch,canonical,automorphisms"
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let n = f.len();
            (
                f[0].parse().unwrap(),
                f[3].to_string(),
                f[n - 2].to_string(),
                f[n - 1].to_string(),
            )
        })
        .collect()
}

#[test]
fn corpus_isomorphs_share_their_source_form() {
    let dir = tempfile::tempdir().unwrap();
    let sources = std::fs::read_to_string(data("hard.txt")).unwrap();
    for (i, source) in sources.lines().skip(3).step_by(290).enumerate() {
        let one = dir.path().join(format!("one{i}.txt"));
        std::fs::write(&one, format!("{source}\n")).unwrap();
        let copies = dir.path().join(format!("copies{i}.txt"));
        stdout_of(&[
            "corpus",
            "--from",
            one.to_str().unwrap(),
            "--count",
            "40",
            "--seed",
            &i.to_string(),
            "-o",
            copies.to_str().unwrap(),
        ]);
        let want = &canon_rows(one.to_str().unwrap())[0];
        let rows = canon_rows(copies.to_str().unwrap());
        assert_eq!(rows.len(), 40);
        let texts = std::fs::read_to_string(&copies).unwrap();
        assert!(
            texts.lines().any(|l| l != source),
            "corpus made no new texts"
        );
        for row in rows {
            assert_eq!((&row.2, &row.3), (&want.2, &want.3), "copy line {}", row.0);
        }
    }
}

/// For each line, the first line with the same canonical form (`None` for that first).
fn first_of_class(rows: &[(u64, String, String, String)]) -> Vec<(u64, Option<u64>)> {
    let mut first: HashMap<&str, u64> = HashMap::new();
    rows.iter()
        .map(|(line, _, form, _)| match first.get(form.as_str()) {
            Some(&f) => (*line, Some(f)),
            None => {
                first.insert(form, *line);
                (*line, None)
            }
        })
        .collect()
}

#[test]
fn dedupe_agrees_with_grouping_the_canonical_column() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus.txt");
    stdout_of(&[
        "corpus",
        "--from",
        data("extreme.txt").to_str().unwrap(),
        "--count",
        "3000",
        "--seed",
        "5",
        "-o",
        corpus.to_str().unwrap(),
    ]);
    let path = corpus.to_str().unwrap();
    let expected = first_of_class(&canon_rows(path));
    let rows_file = dir.path().join("rows.csv");
    let kept = stdout_of(&[
        "dedupe",
        path,
        "-q",
        "--threads",
        "2",
        "--rows",
        rows_file.to_str().unwrap(),
    ]);
    let rows = std::fs::read_to_string(&rows_file).unwrap();
    let got: Vec<(u64, Option<u64>)> = rows
        .lines()
        .skip(1)
        .map(|l| {
            let (a, b) = l.split_once(',').unwrap();
            (a.parse().unwrap(), b.parse().ok())
        })
        .collect();
    assert_eq!(got, expected);
    // The kept records are the input's lines of the first of each class, in order.
    let input = std::fs::read_to_string(&corpus).unwrap();
    let input_lines: Vec<&str> = input.lines().collect();
    let want: String = expected
        .iter()
        .filter(|(_, d)| d.is_none())
        .map(|(l, _)| format!("{}\n", input_lines[*l as usize - 1]))
        .collect();
    assert_eq!(String::from_utf8(kept).unwrap(), want);
    // The corpus draws from the 100 extreme puzzles, 100 classes.
    assert_eq!(want.lines().count(), 100);
}

/// Norvig's top95 (public, `../shared/data`) holds two equivalent puzzles: 94 classes.
#[test]
fn top95_holds_94_classes() {
    let Some(path) = common::public("norvig-top95.txt") else {
        return;
    };
    let kept = stdout_of(&["dedupe", path.to_str().unwrap(), "-q"]);
    assert_eq!(String::from_utf8(kept).unwrap().lines().count(), 94);
}

#[test]
fn dedupe_keeps_a_csv_header_and_its_columns() {
    let path = data("graded.csv");
    let kept = stdout_of(&["dedupe", path.to_str().unwrap(), "--by", "text", "-q"]);
    let input = std::fs::read(&path).unwrap();
    // No two records repeat: the output is the input, byte for byte (CRLF kept).
    assert_eq!(kept, input);
}

#[test]
fn overlap_agrees_with_the_canonical_columns() {
    let dir = tempfile::tempdir().unwrap();
    let test = dir.path().join("test.txt");
    // Test set: isomorphs of top95 plus puzzles that are not in it.
    let mut text = String::from_utf8(stdout_of(&[
        "corpus",
        "--from",
        data("extreme.txt").to_str().unwrap(),
        "--count",
        "200",
        "--seed",
        "9",
    ]))
    .unwrap();
    let easy = std::fs::read_to_string(data("easy-50.txt")).unwrap();
    text.extend(easy.lines().take(20).map(|l| format!("{l}\n")));
    std::fs::write(&test, &text).unwrap();
    let train = data("extreme.txt");
    let train_rows = canon_rows(train.to_str().unwrap());
    let test_rows = canon_rows(test.to_str().unwrap());
    let mut train_first: HashMap<&str, u64> = HashMap::new();
    for (line, _, form, _) in &train_rows {
        train_first.entry(form).or_insert(*line);
    }
    let dups = first_of_class(&test_rows);
    let out = bin()
        .args(["overlap", train.to_str().unwrap(), test.to_str().unwrap()])
        .args(["--require-disjoint", "-q"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let rows = String::from_utf8(out.stdout).unwrap();
    let mut lines = rows.lines();
    assert_eq!(lines.next(), Some("line,train_line,test_duplicate_of"));
    let mut leaks = 0;
    for ((row, (line, _, form, _)), (_, dup)) in lines.zip(&test_rows).zip(&dups) {
        let train_line = train_first.get(form.as_str()).copied();
        leaks += usize::from(train_line.is_some());
        let field = |v: Option<u64>| v.map_or(String::new(), |l| l.to_string());
        assert_eq!(row, format!("{line},{},{}", field(train_line), field(*dup)));
    }
    assert_eq!(leaks, 200);
    // The same files the other way round: still leaking; disjoint from itself never.
    let out = bin()
        .args(["overlap", data("minimal.txt").to_str().unwrap()])
        .arg(data("easy-50.txt"))
        .args(["--require-disjoint", "-q", "-o"])
        .arg(dir.path().join("none.csv"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn malformed_records_get_one_invalid_row_without_a_form() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.txt");
    let good = ".476....2..6...9.83...7....7......3..9....1.......76....3.5.......1.2..6.65....8.";
    std::fs::write(&file, format!("{good}\n12345\n{good}x\n{good}\n")).unwrap();
    let rows = canon_rows(file.to_str().unwrap());
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0].1, "unique");
    assert_eq!((rows[1].1.as_str(), rows[1].2.as_str()), ("invalid", ""));
    assert_eq!((rows[2].1.as_str(), rows[2].2.as_str()), ("invalid", ""));
    assert_eq!(rows[3].2, rows[0].2);
    // dedupe keeps each distinct malformed text, and the first good one.
    let kept = stdout_of(&["dedupe", file.to_str().unwrap(), "-q"]);
    assert_eq!(
        String::from_utf8(kept).unwrap(),
        format!("{good}\n12345\n{good}x\n")
    );
}

#[test]
fn refusals_name_what_is_wrong() {
    let out = bin()
        .args([
            "overlap",
            data("extreme.txt").to_str().unwrap(),
            "/no/such/test.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/test.txt"));
    let out = bin()
        .args([
            "canon",
            data("variants/solo-4x4.txt").to_str().unwrap(),
            "--size",
            "4",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("classic 9x9"));
}

/// Runs `split` on `input` with `args`; returns the train and test files' texts.
fn split_of(input: &std::path::Path, args: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let (train, test) = (dir.path().join("train"), dir.path().join("test"));
    let out = bin()
        .arg("split")
        .arg(input)
        .args(args)
        .arg("--train-out")
        .arg(&train)
        .arg("--test-out")
        .arg(&test)
        .arg("-q")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        std::fs::read_to_string(train).unwrap(),
        std::fs::read_to_string(test).unwrap(),
    )
}

#[test]
fn split_keeps_classes_whole_and_order_and_is_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus.txt");
    stdout_of(&[
        "corpus",
        "--from",
        data("hard.txt").to_str().unwrap(),
        "--count",
        "4000",
        "--seed",
        "2",
        "-o",
        corpus.to_str().unwrap(),
    ]);
    let rows = canon_rows(corpus.to_str().unwrap());
    let input = std::fs::read_to_string(&corpus).unwrap();
    let lines: Vec<&str> = input.lines().collect();
    let (train, test) = split_of(&corpus, &["--test", "0.25", "--seed", "11"]);
    // Every record on exactly one side, each side in input order: the two sides merge
    // back into the input by line, so mark each input line with its side.
    let (train_lines, test_lines): (Vec<&str>, Vec<&str>) =
        (train.lines().collect(), test.lines().collect());
    assert_eq!(train_lines.len() + test_lines.len(), lines.len());
    let (mut a, mut b) = (0, 0);
    let mut side_of_form: HashMap<&str, bool> = HashMap::new();
    for (text, (_, _, form, _)) in lines.iter().zip(&rows) {
        let in_test = if a < train_lines.len() && train_lines[a] == *text {
            a += 1;
            false
        } else {
            assert_eq!(test_lines[b], *text, "records out of order");
            b += 1;
            true
        };
        // No class on both sides.
        assert_eq!(*side_of_form.entry(form).or_insert(in_test), in_test);
    }
    // About a quarter on the test side, short of it by less than the largest class.
    let target = 1000;
    let mut sizes: HashMap<&str, usize> = HashMap::new();
    for (_, _, form, _) in &rows {
        *sizes.entry(form).or_default() += 1;
    }
    let largest = *sizes.values().max().unwrap();
    assert!(test_lines.len() >= target && test_lines.len() < target + largest);
    // The same seed, the same split; another seed, another one.
    assert_eq!(
        split_of(&corpus, &["--test", "0.25", "--seed", "11"]),
        (train.clone(), test)
    );
    assert_ne!(
        split_of(&corpus, &["--test", "0.25", "--seed", "12"]).0,
        train
    );
    // No leak, as overlap sees it.
    let (train_file, test_file) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    let (train, test) = split_of(&corpus, &["--test", "0.25", "--seed", "11"]);
    std::fs::write(&train_file, train).unwrap();
    std::fs::write(&test_file, test).unwrap();
    let out = bin()
        .arg("overlap")
        .args([&train_file, &test_file])
        .args(["--require-disjoint", "-q", "-o", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn split_of_a_csv_puts_the_header_on_both_sides() {
    let path = data("graded.csv");
    let (train, test) = split_of(&path, &["--test", "0.1", "--by", "text"]);
    let input = std::fs::read_to_string(&path).unwrap();
    let header = input.lines().next().unwrap();
    assert_eq!(train.lines().next(), Some(header));
    assert_eq!(test.lines().next(), Some(header));
    assert_eq!(train.lines().count() + test.lines().count(), 2000 + 2);
    assert_eq!(test.lines().count() - 1, 200);
}

#[test]
fn split_refuses_a_fraction_outside_zero_to_one_and_unnamed_stdin_sides() {
    for fraction in ["0", "1", "1.5", "-0.1", "NaN"] {
        let out = bin()
            .args([
                "split",
                data("extreme.txt").to_str().unwrap(),
                "--test",
                fraction,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--test {fraction}");
    }
    let out = bin()
        .args(["split", "-", "--test", "0.5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--train-out"));
}

/// `overlap` reads each file with its own column (`--train-column`, `--test-column`,
/// else `--column`), and a column one file lacks is an error naming that file.
#[test]
fn overlap_takes_a_column_per_file_and_names_the_file_it_cannot_read() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(data("extreme.txt")).unwrap();
    let puzzles: Vec<&str> = text.lines().take(20).collect();
    let train = dir.path().join("train.csv");
    let test = dir.path().join("test.csv");
    let mut rows = String::from("id,quiz\n");
    for (i, p) in puzzles.iter().enumerate() {
        rows.push_str(&format!("{i},{p}\n"));
    }
    std::fs::write(&train, rows).unwrap();
    // The test file: its puzzles in a column of another name, the first five from TRAIN.
    let mut rows = String::from("board,note\n");
    for p in &puzzles[..5] {
        rows.push_str(&format!("{p},seen\n"));
    }
    std::fs::write(&test, rows).unwrap();
    let (train, test) = (train.to_str().unwrap(), test.to_str().unwrap());
    let out = bin()
        .args(["overlap", train, test, "-q", "--train-column", "quiz"])
        .args(["--test-column", "1"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = String::from_utf8(out.stdout).unwrap();
    let leaked: Vec<&str> = rows
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(leaked, ["2", "3", "4", "5", "6"]);
    // One --column both files lack in part: the error names the test file.
    let out = bin()
        .args(["overlap", train, test, "-q", "--column", "quiz"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(
        message.contains(&format!("{test}: ")) && message.contains("quiz"),
        "{message}"
    );
}
