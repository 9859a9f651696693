//! Input block layouts and output formats, on files built from the bundled datasets:
//! every block layout reads as the same records as the one-line file it came from,
//! printed grids read back as the same records, NDJSON and lines carry the CSV's fields.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
}

/// Runs the binary with `args` (and `stdin` when given); returns stdout.
fn run(args: &[&str], stdin: Option<&[u8]>) -> Vec<u8> {
    let mut all = args.to_vec();
    all.extend(["--quiet", "--threads", "2"]);
    let out = common::run_piped(&all, stdin);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// (line, puzzle, solution, status, reason) of CSV rows.
fn rows(csv_bytes: &[u8]) -> Vec<(u64, String, String, String, String)> {
    csv::Reader::from_reader(csv_bytes)
        .records()
        .map(|r| {
            let r = r.unwrap();
            (
                r[0].parse().unwrap(),
                r[1].to_string(),
                r[2].to_string(),
                r[3].to_string(),
                r[4].to_string(),
            )
        })
        .collect()
}

fn puzzles(name: &str, take: usize) -> Vec<String> {
    common::load(name)
        .into_iter()
        .take(take)
        .map(|r| r.puzzle.to_string())
        .collect()
}

/// Nine rows of a puzzle, drawn by `row`, with `band` between bands when given.
fn draw(p: &str, row: impl Fn(&str) -> String, band: Option<&str>) -> String {
    let mut out = String::new();
    for r in 0..9 {
        if let (Some(b), 3 | 6) = (band, r) {
            out.push_str(b);
            out.push('\n');
        }
        out.push_str(&row(&p[r * 9..r * 9 + 9]));
        out.push('\n');
    }
    out
}

/// Writes `text` to a temporary file and classifies it; also through stdin.
fn classify_text(text: &str) -> Vec<(u64, String, String, String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("blocks.txt");
    std::fs::write(&path, text).unwrap();
    let mapped = run(&["classify", path.to_str().unwrap()], None);
    let streamed = run(&["classify", "-"], Some(text.as_bytes()));
    assert_eq!(mapped, streamed, "stdin and mapped file agree");
    rows(&mapped)
}

#[test]
fn block_layouts_read_as_the_same_records() {
    let ps = puzzles("easy-50.txt", 50);
    let mut hard = puzzles("hard.txt", 200);
    hard.extend(ps.iter().cloned());
    let digits = |s: &str| s.replace('.', "0");
    let spaced = |s: &str| {
        let c: Vec<String> = s.chars().map(String::from).collect();
        format!(
            "{} | {} | {}",
            c[..3].join(" "),
            c[3..6].join(" "),
            c[6..].join(" ")
        )
    };
    let layouts: Vec<(&str, String, u64)> = vec![
        // Project Euler 96: a title, then nine lines of digits.
        (
            "pe96",
            hard.iter()
                .enumerate()
                .map(|(i, p)| format!("Grid {:02}\n{}", i + 1, draw(p, digits, None)))
                .collect(),
            10,
        ),
        // Simple Sudoku .ss: `|` between boxes, `-----------` between bands, blank line.
        (
            "ss",
            hard.iter()
                .map(|p| {
                    let row = |s: &str| format!("{}|{}|{}", &s[..3], &s[3..6], &s[6..]);
                    draw(p, row, Some("-----------")) + "\n"
                })
                .collect(),
            12,
        ),
        // Nine-line blocks back to back, no separators at all.
        (
            "sdk",
            hard.iter()
                .map(|p| draw(p, |s| s.to_string(), None))
                .collect(),
            9,
        ),
        // Drawn grids with spaces, `|` and `+`, blank-line separated.
        (
            "drawn",
            hard.iter()
                .map(|p| draw(p, spaced, Some("------+-------+------")) + "\n")
                .collect(),
            12,
        ),
    ];
    let want = rows(&run(&["classify", "-"], Some(hard.join("\n").as_bytes())));
    for (name, text, stride) in layouts {
        let got = classify_text(&text);
        assert_eq!(got.len(), want.len(), "{name}: records");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g.0, 1 + i as u64 * stride, "{name}: line of record {i}");
            assert_eq!((&g.1, &g.2, &g.3), (&w.1, &w.2, &w.3), "{name}: record {i}");
        }
    }
}

#[test]
fn malformed_blocks_are_one_invalid_row_each() {
    let p = &puzzles("extreme.txt", 1)[0];
    let good = draw(p, |s| s.to_string(), None);
    let rows9: Vec<&str> = good.lines().collect();
    let eight = rows9[..8].join("\n");
    let ten = format!("{good}{}", rows9[0]);
    let wide = good.replacen(rows9[4], &format!("{}1", rows9[4]), 1);
    let text = format!("Grid A\n{eight}\nGrid B\n{ten}\nGrid C\n{wide}Grid D\n{good}");
    let got = classify_text(&text);
    let summary: Vec<(u64, &str, &str)> = got
        .iter()
        .map(|r| (r.0, r.3.as_str(), r.4.as_str()))
        .collect();
    assert_eq!(
        summary,
        [
            (1, "invalid", "block has 8 rows of cells, need 9"),
            (10, "invalid", "block has 10 rows of cells, need 9"),
            (21, "invalid", "row on line 26 has 10 cells, need 9"),
            (31, "unique", ""),
        ]
    );
}

#[test]
fn printed_grids_read_back_as_the_same_records() {
    for name in ["cases.tsv", "minimal.txt"] {
        let path = common::data(name);
        let csv = run(&["grade", path.to_str().unwrap()], None);
        let printed = run(
            &["grade", path.to_str().unwrap(), "--output-format", "grid"],
            None,
        );
        let text = String::from_utf8(printed).unwrap();
        assert!(text.contains("------+-------+------    ------+-------+------"));
        let back = classify_text(&text);
        let first = rows(&csv);
        assert_eq!(back.len(), first.len(), "{name}: records");
        for (b, f) in back.iter().zip(&first) {
            if f.3 != "invalid" {
                assert_eq!(
                    (&b.1, &b.2, &b.3),
                    (&f.1, &f.2, &f.3),
                    "{name}: line {}",
                    f.0
                );
            }
        }
    }
}

#[test]
fn ndjson_and_lines_carry_the_csv_fields() {
    for name in ["cases.tsv", "graded.csv"] {
        let path = common::data(name);
        let csv = run(&["grade", path.to_str().unwrap()], None);
        let ndjson = run(
            &["grade", path.to_str().unwrap(), "--output-format", "ndjson"],
            None,
        );
        let lines = run(
            &["grade", path.to_str().unwrap(), "--output-format", "lines"],
            None,
        );
        let mut reader = csv::Reader::from_reader(&csv[..]);
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        let objects: Vec<serde_json::Value> = ndjson
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        let text = String::from_utf8(lines).unwrap();
        assert_eq!(objects.len(), records.len());
        assert_eq!(text.lines().count(), records.len());
        for ((record, object), line) in records.iter().zip(&objects).zip(text.lines()) {
            let fields: Vec<&str> = line.split(' ').collect();
            assert_eq!(fields[2], &record[3], "lines: status");
            for (i, column) in header.iter().enumerate() {
                let value = &object[column.as_str()];
                let csv_value = &record[i];
                let as_text = match value {
                    serde_json::Value::Null => String::new(),
                    serde_json::Value::Bool(true) => "true".into(),
                    serde_json::Value::Bool(false) => "false".into(),
                    serde_json::Value::String(s) => s.clone(),
                    serde_json::Value::Number(n) => {
                        if column == "rating" {
                            format!("{:.1}", n.as_f64().unwrap())
                        } else {
                            n.to_string()
                        }
                    }
                    serde_json::Value::Object(map) => map
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(" "),
                    other => panic!("{other}"),
                };
                if column == "techniques" {
                    // Same counts; JSON objects come back in key order.
                    let mut a: Vec<&str> = as_text.split(' ').collect();
                    let mut b: Vec<&str> = csv_value.split(' ').collect();
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b);
                } else {
                    assert_eq!(&as_text, csv_value, "{name}: {column}");
                }
            }
        }
    }
}

#[test]
fn large_block_files_chunk_at_block_boundaries() {
    let ps = puzzles("sample-10k.csv", 6000);
    let text: String = ps
        .iter()
        .enumerate()
        .map(|(i, p)| format!("Grid {i}\n{}", draw(p, |s| s.to_string(), None)))
        .collect();
    assert!(text.len() > 4 * 128 * 1024, "several chunks");
    let got = classify_text(&text);
    assert_eq!(got.len(), ps.len());
    for (i, (g, p)) in got.iter().zip(&ps).enumerate() {
        assert_eq!((g.0, &g.1, g.3.as_str()), (1 + 10 * i as u64, p, "unique"));
    }
}

#[test]
fn edge_case_grid_files_read_as_one_record_each() {
    let index = std::fs::read_to_string(common::data("cases.tsv")).unwrap();
    let mut seen = 0;
    for line in index.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let (puzzle, category, case) = (f[0], f[1], f[2]);
        let path = common::data(&format!("cases/{category}/{case}.txt"));
        let got = rows(&run(&["classify", path.to_str().unwrap()], None));
        assert_eq!(got.len(), 1, "{case}");
        assert_eq!(got[0].0, 1, "{case}");
        let want = rows(&run(&["classify", "-"], Some(puzzle.as_bytes())));
        assert_eq!((&got[0].1, &got[0].3), (&want[0].1, &want[0].3), "{case}");
        seen += 1;
    }
    assert_eq!(seen, 21);
}

/// Candidates left by the givens (each given alone in its cell, peers' digits removed).
fn marks_after_givens(p: &sudoku_batch::Grid) -> sudoku_batch::values::marks::Marks {
    let mut marks = sudoku_batch::values::marks::Marks::of_grid(p);
    for cell in 0..81 {
        if p.get(cell) != 0 {
            continue;
        }
        for other in 0..81 {
            let (r, c, r2, c2) = (cell / 9, cell % 9, other / 9, other % 9);
            let peer = r == r2 || c == c2 || (r / 3 == r2 / 3 && c / 3 == c2 / 3);
            if peer && p.get(other) != 0 {
                marks.remove(cell, p.get(other));
            }
        }
    }
    marks
}

fn marks_line(m: &sudoku_batch::values::marks::Marks) -> String {
    let mut text = [0u8; sudoku_batch::values::marks::MARKS_LEN];
    m.write_line(&mut text);
    String::from_utf8(text.to_vec()).unwrap()
}

#[test]
fn pencil_mark_records_classify_as_their_originals() {
    let originals = common::load("hard.txt");
    let mut lines = Vec::new();
    let mut expect = Vec::new();
    let mut solver = sudoku_batch::Solver::new();
    for (i, rec) in originals.iter().take(300).enumerate() {
        let solution = solver.count(&rec.puzzle, 2).first.unwrap();
        let mut marks = marks_after_givens(&rec.puzzle);
        // Thin out candidates that are not the solution's: still the same puzzle.
        for cell in (i % 7..81).step_by(5) {
            for d in 1..=9u8 {
                if d != solution.get(cell) && (cell + d as usize + i) % 3 == 0 {
                    marks.remove(cell, d);
                }
            }
        }
        lines.push(marks_line(&marks));
        expect.push(("unique", solution.to_string()));
        // Without the solution's digit in a cell that keeps other candidates, no
        // solution is left.
        let empty = (0..81)
            .find(|&c| marks.candidates(c).count_ones() >= 2)
            .unwrap();
        marks.remove(empty, solution.get(empty));
        lines.push(marks_line(&marks));
        expect.push(("unsolvable", String::new()));
    }
    // A puzzle with several solutions keeps them as marks.
    let several = sudoku_batch::Grid::parse(
        b"......6..5..8..3....3.....43.2....6..49.....57..154...2..7319.....6.........9..3.",
    )
    .unwrap();
    lines.push(marks_line(&marks_after_givens(&several)));
    expect.push(("multiple", String::new()));
    // A cell with no candidate is a malformed record.
    lines.push(format!("{}{}", ".".repeat(9 * 4), "123456789".repeat(77)));
    let text = lines.join("\n") + "\n";
    let got = rows(&run(&["classify", "-"], Some(text.as_bytes())));
    assert_eq!(got.len(), expect.len() + 1);
    for (i, ((_, puzzle, solution, status, _), (want, want_solution))) in
        got.iter().zip(&expect).enumerate()
    {
        assert_eq!(puzzle, &lines[i], "the marks are written back as read");
        assert_eq!(status, want, "record {i}");
        if *want == "unique" {
            assert_eq!(solution, want_solution, "record {i}");
        }
    }
    let last = got.last().unwrap();
    assert_eq!(
        (last.3.as_str(), last.4.as_str()),
        ("invalid", "cell r1c1 has no candidates")
    );
    // The first-solution path agrees.
    let solved = rows(&run(&["solve", "-"], Some(text.as_bytes())));
    for (s, c) in solved.iter().zip(&got) {
        if c.3 == "unique" {
            assert_eq!((s.3.as_str(), &s.2), ("solved", &c.2));
        }
    }
}

#[test]
fn lone_cr_line_ends_are_line_ends() {
    // Old Mac OS files: every record found, with the lines a `\n` file gives.
    for name in ["hard.txt", "graded.csv"] {
        let path = common::data(name);
        let lf = std::fs::read(&path).unwrap();
        let want = run(&["classify", path.to_str().unwrap()], None);
        let cr: Vec<u8> = String::from_utf8(lf)
            .unwrap()
            .replace("\r\n", "\n")
            .replace('\n', "\r")
            .into_bytes();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(name);
        std::fs::write(&file, &cr).unwrap();
        let file = file.to_str().unwrap();
        for got in [
            run(&["classify", file], None),
            run(&["classify", file, "--no-mmap"], None),
            run(&["classify", "-"], Some(&cr)),
        ] {
            assert!(got == want, "{name}: rows differ from the \\n file's");
        }
    }
}

#[test]
fn an_unclosed_quote_fails_naming_the_line_it_opened_on() {
    let csv = std::fs::read_to_string(common::data("graded.csv")).unwrap();
    let mut lines: Vec<String> = csv.split_inclusive('\n').map(String::from).collect();
    lines[2].insert(0, '"');
    let broken: String = lines.concat();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.csv");
    std::fs::write(&file, &broken).unwrap();
    let out_path = dir.path().join("rows.csv");
    let out = bin()
        .args([
            "classify",
            file.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(
        message.contains("line 3") && message.contains("never closed"),
        "{message}"
    );
    assert!(!out_path.exists(), "no output committed");
    // The same from a stream.
    let mut child = bin()
        .args(["classify", "-", "-q", "-o", "/dev/null"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || stdin.write_all(broken.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 3"));
}
