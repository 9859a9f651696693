//! Adversarial input: every fixture (generated here) ends with a clear result: `invalid`
//! rows with a reason, or a one-line error and exit status 2; never a panic, a hang, or
//! a lost record. Invariants are checked on every input the binary accepts.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sudoku_batch::Grid;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
}

struct Fixture {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

fn fixture(name: &str, bytes: &[u8]) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    Fixture { _dir: dir, path }
}

#[derive(Debug)]
struct Row {
    line: u64,
    puzzle: String,
    solution: String,
    status: String,
    reason: String,
}

fn classify(path: &Path, extra: &[&str]) -> (Output, Vec<Row>) {
    let out = bin()
        .arg("classify")
        .arg(path)
        .args(["--quiet", "--threads", "2"])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let mut rows = Vec::new();
    if out.status.success() {
        let mut reader = csv::Reader::from_reader(&out.stdout[..]);
        for r in reader.records() {
            let r = r.unwrap();
            rows.push(Row {
                line: r[0].parse().unwrap(),
                puzzle: r[1].to_string(),
                solution: r[2].to_string(),
                status: r[3].to_string(),
                reason: r[4].to_string(),
            });
        }
    }
    (out, rows)
}

/// Records a lines-format file holds, counted here independently of the library.
fn expected_line_records(bytes: &[u8]) -> Vec<u64> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut out = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let text: Vec<u8> = line
            .iter()
            .copied()
            .skip_while(|b| b.is_ascii_whitespace())
            .collect();
        if text.is_empty() || text[0] == b'#' || text == b"\x1a" {
            continue;
        }
        out.push(i as u64 + 1);
    }
    out
}

/// The invariants: records in = rows out, in input order; solutions valid and keeping
/// their givens; statuses equal to the reference counter's for well-formed puzzles.
fn check(rows: &[Row], expected_lines: &[u64]) {
    let lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
    assert_eq!(
        lines, expected_lines,
        "rows out != records in, or out of order"
    );
    for r in rows {
        match Grid::parse(r.puzzle.as_bytes()) {
            Ok(puzzle) if r.status != "invalid" || r.reason.contains("given twice") => {
                let want = match common::reference_count(&puzzle, 2) {
                    0 if puzzle.find_clash().is_some() => "invalid",
                    0 => "unsolvable",
                    1 => "unique",
                    _ => "multiple",
                };
                assert_eq!(r.status, want, "line {}", r.line);
                if !r.solution.is_empty() {
                    let s = Grid::parse(r.solution.as_bytes()).unwrap();
                    assert!(
                        s.is_valid_solution() && s.keeps_givens_of(&puzzle),
                        "line {}",
                        r.line
                    );
                }
            }
            _ => {
                assert_eq!(r.status, "invalid", "line {}: {:?}", r.line, r);
                assert!(
                    !r.reason.is_empty(),
                    "line {}: invalid without reason",
                    r.line
                );
                assert!(r.solution.is_empty());
            }
        }
    }
}

/// Runs a lines-format fixture and checks every invariant; returns the rows.
fn lines_case(name: &str, bytes: &[u8]) -> Vec<Row> {
    let f = fixture(name, bytes);
    let (out, rows) = classify(&f.path, &["--format", "lines"]);
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    check(&rows, &expected_line_records(bytes));
    // The same bytes through stdin give the same rows.
    let mut child = bin()
        .args(["classify", "-", "--quiet", "--format", "lines"])
        .stdin(std::fs::File::open(&f.path).unwrap())
        .output()
        .unwrap();
    assert!(child.status.success());
    let (mapped, _) = classify(&f.path, &["--format", "lines"]);
    assert!(
        mapped.stdout == std::mem::take(&mut child.stdout),
        "{name}: stdin differs"
    );
    rows
}

const P: &str = "....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3";
const S: &str = "123456789456789123789123456312645978645978312978312645231564897564897231897231564";

#[test]
fn empty_comment_and_blank_files_have_no_records() {
    assert!(lines_case("empty.txt", b"").is_empty());
    assert!(lines_case("comments.txt", b"# one\n# two\r\n   # three").is_empty());
    assert!(lines_case("blank.txt", b"\n\n  \r\n\t\n").is_empty());
}

#[test]
fn line_ends_bom_and_eof_byte() {
    let rows = lines_case("crlf.txt", format!("{P}\r\n{S}\n{P}\r\n{S}").as_bytes());
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r.status == "unique"));
    let rows = lines_case("bom.txt", format!("\u{feff}{P}\n{P}\n\x1a").as_bytes());
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].status, "unique", "{:?}", rows[0]);
}

#[test]
fn malformed_lines_say_what_and_where() {
    let short = &P[..80];
    let long = format!("{P}1");
    let lower = P.replacen('.', "a", 1);
    let x = P.replacen('4', "x", 1);
    let arabic = P.replacen('.', "\u{0663}", 1);
    let fullwidth = P.replacen('3', "\u{ff13}", 1);
    let text = format!("{short}\n{long}\n{lower}\n{x}\n{arabic}\n{fullwidth}\nhello world\n");
    let rows = lines_case("bad.txt", text.as_bytes());
    let reasons: Vec<&str> = rows.iter().map(|r| r.reason.as_str()).collect();
    assert_eq!(
        reasons,
        [
            "too short: 80 cells, need 81 at column 81",
            "too long: 82 cells, need 81 at column 82",
            "bad byte 'a' at column 1",
            "bad byte 'x' at column 63",
            "bad byte 0xd9 at column 1",
            "bad byte 0xef at column 5",
            "bad byte 'h' at column 1",
        ]
    );
}

#[test]
fn nul_bytes_utf16_and_random_binary() {
    let mut nul = P.as_bytes().to_vec();
    nul[10] = 0;
    nul.extend_from_slice(b"\n\0\0\0\n");
    nul.extend_from_slice(P.as_bytes());
    let rows = lines_case("nul.txt", &nul);
    assert_eq!(rows[0].reason, "bad byte 0x00 at column 11");
    assert_eq!(rows[2].status, "unique");

    let mut utf16 = vec![0xFF, 0xFE];
    for ch in format!("{P}\n{P}\n").encode_utf16() {
        utf16.extend_from_slice(&ch.to_le_bytes());
    }
    let rows = lines_case("utf16.txt", &utf16);
    assert!(rows.iter().all(|r| r.status == "invalid"));

    // 1 MB of deterministic pseudo-random bytes.
    let mut rng = sudoku_batch::engines::corpus::Rng::new(42);
    let binary: Vec<u8> = (0..1 << 20).map(|_| rng.next_u64() as u8).collect();
    let rows = lines_case("random.bin", &binary);
    assert!(rows.len() > 1000);
}

#[test]
fn a_50_mb_line_without_newline() {
    let mut big = vec![b'.'; 50 << 20];
    big.extend_from_slice(b" 7.2");
    // Over the record limit (1 MiB): one row, never parsed, the same through stdin.
    let rows = lines_case("huge-line.txt", &big);
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].reason,
        "record of 52428804 bytes, over the limit of 1048576 (--max-record-bytes)"
    );
    assert!(
        rows[0].puzzle.len() <= 103,
        "raw text is cut short in the output"
    );
    // Under a limit it fits, the parser says what is wrong with it.
    let f = fixture("huge-line-2.txt", &big);
    let (out, rows) = classify(
        &f.path,
        &["--format", "lines", "--max-record-bytes", "60000000"],
    );
    assert!(out.status.success());
    assert_eq!(
        rows[0].reason,
        "too long: 52428800 cells, need 81 at column 82"
    );
}

#[test]
fn edge_grids() {
    let clash = "11".repeat(40) + "1";
    let empty = ".".repeat(81);
    let eighty = format!(".{}", &S[1..]);
    let text = format!("{clash}\n{empty}\n{eighty}\n{S}\n");
    let rows = lines_case("edges.txt", text.as_bytes());
    let statuses: Vec<&str> = rows.iter().map(|r| r.status.as_str()).collect();
    assert_eq!(statuses, ["invalid", "multiple", "unique", "unique"]);
    assert_eq!(rows[0].reason, "digit 1 given twice in row 1");
    assert_eq!(rows[3].solution, S);
}

#[test]
fn more_than_one_grid_token_on_a_line() {
    // Puzzle then solution: the second is the expected solution. Two puzzles: the first
    // is the record, the second is ignored (it is not a complete solution).
    let solved = {
        let mut solver = sudoku_batch::Solver::new();
        let sudoku_batch::Outcome::Solved(s) = solver.solve(&Grid::parse(P.as_bytes()).unwrap())
        else {
            panic!()
        };
        s.to_string()
    };
    let text = format!("{P} {solved}\n{P} {P}\n{P} {S}\n");
    let f = fixture("two.txt", text.as_bytes());
    let out = bin()
        .args(["classify", f.path.to_str().unwrap()])
        .output()
        .unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    let mismatch: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    assert_eq!(mismatch, ["false", "", "true"]);
    let (_, rows) = classify(&f.path, &[]);
    check(&rows, &[1, 2, 3]);
}

fn csv_case(name: &str, text: &str, extra: &[&str]) -> (Output, Vec<Row>) {
    let f = fixture(name, text.as_bytes());
    classify(&f.path, extra)
}

#[test]
fn csv_quoting_ragged_rows_and_header_case() {
    let text = format!(
        "id,note,PUZZLE\r\n1,\"a, \"\"quoted\"\" note\",{P}\r\n2,\"multi\nline\",\"{P}\"\r\n3\r\n4,x,{S}"
    );
    let (out, rows) = csv_case("q.csv", &text, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check(&rows, &[2, 3, 5, 6]);
    let statuses: Vec<&str> = rows.iter().map(|r| r.status.as_str()).collect();
    assert_eq!(statuses, ["unique", "unique", "invalid", "unique"]);
    assert_eq!(rows[2].reason, "row has 1 fields, no PUZZLE column");
}

#[test]
fn csv_header_only_missing_column_and_huge_field() {
    let (out, rows) = csv_case("h.csv", "puzzle,solution\n", &[]);
    assert!(out.status.success());
    assert!(rows.is_empty());

    let (out, _) = csv_case("m.csv", "a,b\n1,2\n", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no CSV column holds 81-cell puzzles"));

    let (out, _) = csv_case("c.csv", &format!("a,b\n1,{P}\n"), &["--column", "9"]);
    assert_eq!(out.status.code(), Some(2));

    let huge = format!("puzzle\n\"{}\"\n{P}\n", ".".repeat(10 << 20));
    let (out, rows) = csv_case("big.csv", &huge, &[]);
    assert!(out.status.success());
    check(&rows, &[2, 3]);
    assert_eq!(
        rows[0].reason,
        "record of 10485760 bytes, over the limit of 1048576 (--max-record-bytes)"
    );
    assert_eq!(rows[1].status, "unique");
    let (out, rows) = csv_case("big2.csv", &huge, &["--max-record-bytes", "20000000"]);
    assert!(out.status.success());
    assert_eq!(
        rows[0].reason,
        "puzzle: too long: 10485760 cells, need 81 at column 82"
    );
}

#[test]
fn column_option_needs_csv() {
    let f = fixture("lines.txt", format!("{P}\n").as_bytes());
    let (out, _) = classify(&f.path, &["--column", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let msg = String::from_utf8_lossy(&out.stderr);
    assert!(msg.contains("--column applies to CSV input"), "{msg}");
    // Forced CSV: a one-column file without a header reads fine.
    let (out, rows) = classify(&f.path, &["--column", "1", "--format", "csv"]);
    assert!(out.status.success());
    check(&rows, &[1]);
}

#[test]
fn csv_column_by_index_and_name() {
    let text = format!("x,y\n{S},{P}\n");
    for col in ["2", "y", "Y"] {
        let (out, rows) = csv_case("i.csv", &text, &["--column", col]);
        assert!(out.status.success());
        assert_eq!(rows[0].puzzle, P, "--column {col}");
    }
}

#[test]
fn file_changed_while_mapped_is_detected() {
    use sudoku_batch::pipeline::input::{open_file, InputError};
    let f = fixture("grow.txt", format!("{P}\n").as_bytes());
    let mapped = open_file(&f.path, false).unwrap();
    assert!(mapped.check_unchanged(&f.path).is_ok());
    std::fs::write(&f.path, format!("{P}\n{P}\n")).unwrap();
    assert!(matches!(
        mapped.check_unchanged(&f.path),
        Err(InputError::Changed(_))
    ));
    // --no-mmap reads a private copy, which no later change can affect.
    let read = open_file(&f.path, true).unwrap();
    std::fs::write(&f.path, "").unwrap();
    assert!(read.check_unchanged(&f.path).is_ok());
    assert_eq!(read.bytes().len(), 164);
}

#[test]
fn output_failures_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let input = common::data("extreme.txt");
    // A path under a regular file cannot be created, even by root.
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let out = bin()
        .args(["classify", input.to_str().unwrap(), "-o"])
        .arg(file.join("out.csv"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot create output"));
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["file"]);
}

#[test]
fn ctrl_c_leaves_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus.txt");
    let made = bin()
        .args([
            "corpus",
            "--from",
            common::data("minimal.txt").to_str().unwrap(),
            "--count",
            "2000000",
            "-o",
        ])
        .arg(&corpus)
        .output()
        .unwrap();
    assert!(made.status.success());
    let out_path = dir.path().join("out.csv");
    let child = bin()
        .args([
            "classify",
            corpus.to_str().unwrap(),
            "--threads",
            "1",
            "-q",
            "-o",
        ])
        .arg(&out_path)
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait_with_output().unwrap().status;
    assert_eq!(status.code(), Some(130), "interrupted run must fail");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["corpus.txt"], "no temporary or partial output");
}

#[test]
fn full_disk_fails_cleanly() {
    let input = common::data("minimal.txt");
    // stdout on a full device.
    let out = bin()
        .args(["classify", input.to_str().unwrap(), "-q"])
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let msg = String::from_utf8_lossy(&out.stderr);
    assert!(
        msg.contains("stdout: write failed: No space left on device"),
        "{msg}"
    );

    // A regular file on a small tmpfs, where mounting is permitted (root in CI).
    let dir = tempfile::tempdir().unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(dir.path())
        .output()
        .is_ok_and(|o| o.status.success());
    if !mounted {
        eprintln!("full_disk_fails_cleanly: tmpfs not mountable here; /dev/full case only");
        return;
    }
    let out = bin()
        .args(["classify", input.to_str().unwrap(), "-q", "-o"])
        .arg(dir.path().join("out.csv"))
        .output()
        .unwrap();
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    let _ = Command::new("umount").arg(dir.path()).status();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("No space left on device"));
    assert!(left.is_empty(), "partial output left behind");
}
