//! Results that join back to the user's data: tab- and semicolon-separated files read
//! as their comma-separated twins, `--keep-columns` carrying the input's fields,
//! `--record-index` numbering records, `--puzzle-as-read` echoing the puzzle text, all
//! checked against the input as read here by the csv crate, on the bundled Kaggle sets.

mod common;

use std::process::Output;

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut all = args.to_vec();
    all.extend(["--threads", "2"]);
    common::run_piped(&all, stdin)
}

fn ok(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let out = run(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Every row of a CSV text, header first, fields unquoted.
fn csv_rows(text: &[u8]) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text)
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

fn temp_file(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn tab_and_semicolon_files_read_as_their_comma_twins() {
    let dir = tempfile::tempdir().unwrap();
    let comma = std::fs::read(common::data("graded.csv")).unwrap();
    let want = ok(
        &[
            "classify",
            common::data("graded.csv").to_str().unwrap(),
            "-q",
        ],
        None,
    )
    .stdout;
    for (delimiter, word, flag) in [
        (b'\t', "tab-separated", None),
        (b';', "semicolon-separated", None),
        (b'|', "separated by '|'", Some("|")),
    ] {
        let text: Vec<u8> = comma
            .iter()
            .map(|&b| if b == b',' { delimiter } else { b })
            .collect();
        let path = temp_file(&dir, "twin.txt", &text);
        let mut args = vec!["classify", path.as_str()];
        if let Some(flag) = flag {
            args.extend(["--delimiter", flag]);
        }
        let out = ok(&args, None);
        assert_eq!(out.stdout, want, "{word}");
        let summary = String::from_utf8_lossy(&out.stderr);
        assert!(
            summary.contains(&format!("read as CSV ({word}) with a header on line 1")),
            "{summary}"
        );
        // Streamed, the same.
        args[1] = "-";
        assert_eq!(ok(&args, Some(&text)).stdout, want, "{word} on stdin");
    }
    // A semicolon file without a header: `grid;rating`, the forum lists' shape.
    let lines: String = comma
        .split(|&b| b == b'\n')
        .skip(1)
        .filter(|l| !l.is_empty())
        .take(50)
        .map(|l| {
            let fields: Vec<&[u8]> = l.split(|&b| b == b',').collect();
            format!(
                "{};{}\n",
                String::from_utf8_lossy(fields[0]),
                String::from_utf8_lossy(fields[2])
            )
        })
        .collect();
    let path = temp_file(&dir, "rated.txt", lines.as_bytes());
    let out = ok(&["classify", &path], None);
    let rows = csv_rows(&out.stdout);
    assert_eq!(rows.len(), 51);
    assert!(rows[1..].iter().all(|r| r[3] == "unique"), "{rows:?}");
    // A delimiter with another format, or one that is a cell symbol, is refused.
    let out = run(
        &["classify", &path, "--format", "lines", "--delimiter", ";"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--delimiter applies to CSV"));
    let out = run(&["classify", &path, "--delimiter", "."], None);
    assert_eq!(out.status.code(), Some(2));
}

/// The input's records as the csv crate reads them: header, then rows.
fn input_rows(name: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read(common::data(name)).unwrap();
    let mut rows = csv_rows(&text);
    let header = rows.remove(0);
    (header, rows)
}

#[test]
fn kept_columns_record_numbers_and_puzzles_as_read_join_back() {
    for name in ["quizzes.csv", "graded.csv"] {
        let (header, input) = input_rows(name);
        let path = common::data(name);
        let path = path.to_str().unwrap();
        let text = std::fs::read(path).unwrap();
        let args = [
            "grade",
            path,
            "--keep-columns",
            "--record-index",
            "--puzzle-as-read",
            "-q",
        ];
        for stdin in [None, Some(&text[..])] {
            let mut args = args.to_vec();
            if stdin.is_some() {
                args[1] = "-";
            }
            let rows = csv_rows(&ok(&args, stdin).stdout);
            let names = &rows[0];
            let ours = [
                "line",
                "puzzle",
                "solution",
                "status",
                "reason",
                "mismatch",
                "difficulty",
                "rating",
                "pearl",
                "diamond",
                "technique",
                "techniques",
                "bound",
                "record",
            ];
            assert_eq!(&names[..ours.len()], &ours, "{name}");
            // The input's names after ours, `input_` before the ones we use.
            let kept: Vec<String> = header
                .iter()
                .map(|n| match ours.contains(&n.as_str()) {
                    true => format!("input_{n}"),
                    false => n.clone(),
                })
                .collect();
            assert_eq!(&names[ours.len()..], &kept[..], "{name}");
            assert_eq!(rows.len() - 1, input.len(), "{name}");
            for (i, (row, fields)) in rows[1..].iter().zip(&input).enumerate() {
                assert_eq!(row[ours.len() - 1], i.to_string(), "{name} record");
                assert_eq!(row[0], (i + 2).to_string(), "{name} line");
                assert_eq!(&row[ours.len()..], &fields[..], "{name} fields");
                assert_eq!(row[1], fields[0], "{name} puzzle as read");
            }
        }
    }
}

#[test]
fn record_numbers_count_records_not_lines_and_survive_only() {
    // Comments, blank lines and malformed records among 10,000 puzzles (the 5,000
    // minimal ones twice), over many
    // chunks: `record` counts every record (the invalid ones too), `line` the lines.
    let source = std::fs::read_to_string(common::data("minimal.txt")).unwrap();
    let mut text = String::new();
    let mut records = Vec::new();
    let mut line = 0u64;
    for (i, puzzle) in source.lines().cycle().take(10_000).enumerate() {
        if i % 997 == 0 {
            text.push_str("# a comment\n\n");
            line += 2;
        }
        line += 1;
        if i % 1_009 == 5 {
            text.push_str("not a puzzle\n");
        } else {
            text.push_str(puzzle);
            text.push('\n');
        }
        records.push(line);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "mixed.txt", text.as_bytes());
    for (only, stdin) in [
        (None, false),
        (Some("unique"), false),
        (Some("invalid"), true),
    ] {
        let mut args = vec!["classify", path.as_str(), "--record-index", "-q"];
        if let Some(only) = only {
            args.extend(["--only", only]);
        }
        if stdin {
            args[1] = "-";
        }
        let out = ok(&args, stdin.then_some(text.as_bytes()));
        let rows = csv_rows(&out.stdout);
        assert_eq!(rows[0][6], "record");
        let mut seen = 0;
        for row in &rows[1..] {
            let record: usize = row[6].parse().unwrap();
            assert_eq!(row[0], records[record].to_string(), "{only:?}");
            if let Some(only) = only {
                assert_eq!(row[3], only);
            }
            seen += 1;
        }
        let want = match only {
            None => 10_000,
            Some("invalid") => 10,
            _ => 9_990,
        };
        assert_eq!(seen, want, "{only:?}");
    }
    // NDJSON carries it as a number.
    let out = ok(
        &[
            "solve",
            &path,
            "--record-index",
            "--keep-columns",
            "-q",
            "--output-format",
            "ndjson",
        ],
        None,
    );
    for (i, line) in out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .enumerate()
    {
        let value: serde_json::Value = serde_json::from_slice(line).unwrap();
        assert_eq!(value["record"], i as u64);
        assert_eq!(value["line"], records[i]);
        assert!(value["input"].is_string());
    }
}

#[test]
fn kept_fields_keep_quotes_commas_and_line_ends() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle =
        ".476....2..6...9.83...7....7......3..9....1.......76....3.5.......1.2..6.65....8.";
    let text = format!(
        "id,puzzle,note\n1,{puzzle},\"a, b\"\n2,{puzzle},\"two\nlines \"\"quoted\"\"\"\n3,{puzzle}\n4,{puzzle},x,extra\n"
    );
    let path = temp_file(&dir, "notes.csv", text.as_bytes());
    let rows = csv_rows(&ok(&["solve", &path, "--keep-columns", "-q"], None).stdout);
    assert_eq!(&rows[0][6..], ["id", "input_puzzle", "note"]);
    assert_eq!(&rows[1][6..], ["1", puzzle, "a, b"]);
    assert_eq!(&rows[2][6..], ["2", puzzle, "two\nlines \"quoted\""]);
    // A short row is filled out; a long one keeps every field.
    assert_eq!(&rows[3][6..], ["3", puzzle, ""]);
    assert_eq!(&rows[4][6..], ["4", puzzle, "x", "extra"]);
    // Without a header the fields are numbered.
    let text = format!("{puzzle},a\n{puzzle},b\n");
    let path = temp_file(&dir, "bare.csv", text.as_bytes());
    let rows = csv_rows(&ok(&["solve", &path, "--keep-columns", "-q"], None).stdout);
    assert_eq!(&rows[0][6..], ["input_1", "input_2"]);
    assert_eq!(&rows[2][6..], [puzzle, "b"]);
}

#[test]
fn options_that_rows_cannot_carry_are_refused() {
    let path = common::data("graded.csv");
    let path = path.to_str().unwrap();
    for (args, says) in [
        (
            vec!["--keep-columns", "--output-format", "lines"],
            "--keep-columns adds to CSV and NDJSON rows only",
        ),
        (
            vec!["--puzzle-as-read", "--output-format", "grid"],
            "--puzzle-as-read adds to CSV and NDJSON rows only",
        ),
        (
            vec!["--record-index", "--shard", "1/2"],
            "a shard does not read the records before it",
        ),
    ] {
        let mut all = vec!["classify", path];
        all.extend(args);
        let out = run(&all, None);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{all:?}"
        );
        assert!(out.stdout.is_empty());
    }
    let dir = tempfile::tempdir().unwrap();
    let mut drawn = String::new();
    for row in std::fs::read_to_string(common::data("easy-50.txt"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .as_bytes()
        .chunks(9)
    {
        drawn.push_str(std::str::from_utf8(row).unwrap());
        drawn.push('\n');
    }
    let path = temp_file(&dir, "drawn.sdk", drawn.as_bytes());
    let out = run(&["classify", &path, "--keep-columns"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no fields to keep"));
}

/// Kept fields holding line ends (`\n`, `\r\n`, a lone `\r`) are quoted, so the
/// output reads back as one row per record with the values as read, by the csv crate
/// as by any CSV reader.
#[test]
fn kept_fields_with_line_ends_stay_one_row_each() {
    let puzzles: Vec<String> = common::load("minimal.txt")
        .iter()
        .take(3)
        .map(|r| r.puzzle.to_string())
        .collect();
    let notes = ["multi\nline", "two\r\nends", "lone\rcr"];
    let mut text = "puzzle,note\n".to_string();
    for (p, n) in puzzles.iter().zip(notes) {
        text.push_str(&format!("{p},\"{n}\"\n"));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.csv");
    std::fs::write(&path, &text).unwrap();
    let out = ok(
        &["classify", path.to_str().unwrap(), "--keep-columns", "-q"],
        None,
    );
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header.last().map(String::as_str), Some("note"));
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 3, "{}", String::from_utf8_lossy(&out.stdout));
    for ((row, p), n) in rows.iter().zip(&puzzles).zip(notes) {
        assert_eq!((&row[1], &row[3]), (p.as_str(), "unique"));
        assert_eq!(&row[row.len() - 1], n);
    }
}
