//! The `sudoku-batch` binary on real files: row counts, order, statuses, solutions,
//! stdin, errors and exit codes, atomic output.

mod common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use sudoku_batch::Grid;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// One parsed output row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    line: u64,
    puzzle: String,
    solution: String,
    status: String,
    reason: String,
    mismatch: String,
}

fn rows(csv_bytes: &[u8]) -> Vec<Row> {
    let mut reader = csv::Reader::from_reader(csv_bytes);
    let header = reader.headers().unwrap().clone();
    assert_eq!(
        header.iter().collect::<Vec<_>>(),
        ["line", "puzzle", "solution", "status", "reason", "mismatch"]
    );
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            Row {
                line: r[0].parse().unwrap(),
                puzzle: r[1].to_string(),
                solution: r[2].to_string(),
                status: r[3].to_string(),
                reason: r[4].to_string(),
                mismatch: r[5].to_string(),
            }
        })
        .collect()
}

/// Classifies a bundled file through the CLI and checks it against the library's view
/// of the records: same lines in order, `unique`, valid solutions matching the file's.
fn check_dataset(name: &str, command: &str, status: &str) {
    let path = common::data(name);
    let out = run(&[command, path.to_str().unwrap(), "--quiet", "--threads", "2"]);
    assert!(out.status.success(), "{name}: {}", stderr(&out));
    let got = rows(&out.stdout);
    let want = common::load(name);
    assert_eq!(got.len(), want.len(), "{name}: rows out != records in");
    for (row, rec) in got.iter().zip(&want) {
        assert_eq!(row.line, rec.line, "{name}: order");
        assert_eq!(row.status, status, "{name}:{}", row.line);
        assert_eq!(row.puzzle, rec.puzzle.to_string(), "{name}:{}", row.line);
        let solution = Grid::parse(row.solution.as_bytes()).unwrap();
        assert!(solution.is_valid_solution() && solution.keeps_givens_of(&rec.puzzle));
        if let Some(expected) = rec.expected {
            assert_eq!(solution, expected, "{name}:{}", row.line);
        }
        let given = if rec.expected.is_some() { "false" } else { "" };
        assert_eq!(row.mismatch, given, "{name}:{}", row.line);
    }
}

#[test]
fn classify_every_bundled_dataset() {
    for name in common::UNIQUE_DATASETS {
        check_dataset(name, "classify", "unique");
    }
}

#[test]
fn solve_writes_solved_rows() {
    check_dataset("graded.csv", "solve", "solved");
    check_dataset("hard.txt", "solve", "solved");
}

#[test]
fn edge_cases_get_their_classes() {
    let path = common::data("cases.tsv");
    let out = run(&["classify", path.to_str().unwrap(), "-q"]);
    assert!(out.status.success());
    let got = rows(&out.stdout);
    let text = std::fs::read_to_string(&path).unwrap();
    let expected: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').nth(3).unwrap().split(':').next().unwrap())
        .collect();
    assert_eq!(got.len(), 21);
    for (row, want) in got.iter().zip(expected) {
        let want = if want == "none" { "unsolvable" } else { want };
        assert_eq!(row.status, want, "line {}", row.line);
        if want == "invalid" {
            assert!(row.reason.contains("given twice in"), "{}", row.reason);
        }
        if want == "multiple" || want == "unique" {
            assert_eq!(row.solution.len(), 81);
        } else {
            assert_eq!(row.solution, "");
        }
    }
}

#[test]
fn stdin_matches_the_mapped_file() {
    for name in ["graded.csv", "hash-rating.txt"] {
        let path = common::data(name);
        let mapped = run(&["classify", path.to_str().unwrap(), "-q"]);
        let mut child = bin()
            .args(["classify", "-", "-q"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let data = std::fs::read(&path).unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || stdin.write_all(&data));
        let streamed = child.wait_with_output().unwrap();
        writer.join().unwrap().unwrap();
        assert!(streamed.status.success());
        assert!(
            mapped.stdout == streamed.stdout,
            "{name}: stdin output differs"
        );
    }
}

#[test]
fn mismatching_given_solutions_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(common::data("pairs-easy.txt")).unwrap();
    // Swap two digits in the first record's given solution.
    let mut lines: Vec<String> = src.lines().map(String::from).collect();
    let first = lines[0].clone();
    let (p, s) = first.split_once(' ').unwrap();
    let swapped: String = s
        .chars()
        .map(|c| match c {
            '1' => '2',
            '2' => '1',
            c => c,
        })
        .collect();
    lines[0] = format!("{p} {swapped}");
    let path = dir.path().join("in.txt");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let report = dir.path().join("r.json");
    let out = run(&[
        "classify",
        path.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let got = rows(&out.stdout);
    assert_eq!(got[0].mismatch, "true");
    assert_eq!(got[0].status, "unique");
    assert!(got[1..].iter().all(|r| r.mismatch == "false"));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(report).unwrap()).unwrap();
    assert_eq!(json["mismatches"], 1);
    assert!(stderr(&out).contains("solution mismatches 1"));
}

#[test]
fn require_unique_sets_exit_status() {
    let ok = run(&[
        "classify",
        common::data("extreme.txt").to_str().unwrap(),
        "--require-unique",
        "-q",
    ]);
    assert_eq!(ok.status.code(), Some(0));
    let bad = run(&[
        "classify",
        common::data("cases.tsv").to_str().unwrap(),
        "--require-unique",
        "-o",
        "/dev/null",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    let msg = stderr(&bad);
    assert!(
        msg.contains("records are not unique; first at lines 12, 13, 14"),
        "{msg}"
    );
}

#[test]
fn report_and_histogram_files() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let hgrm = dir.path().join("h.hgrm");
    let out = run(&[
        "classify",
        common::data("hard.txt").to_str().unwrap(),
        "-o",
        "/dev/null",
        "--report",
        report.to_str().unwrap(),
        "--histogram",
        hgrm.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(json["records"], 500);
    assert_eq!(json["rows_written"], 500);
    assert_eq!(json["counts"]["unique"], 500);
    let l = &json["latency_ns"];
    let p = |k: &str| l[k].as_u64().unwrap();
    assert!(
        p("p50") > 0
            && p("p50") <= p("p90")
            && p("p90") <= p("p99")
            && p("p99") <= p("p999")
            && p("p999") <= p("max")
    );
    let text = std::fs::read_to_string(&hgrm).unwrap();
    assert!(text.contains("Total count    =          500]"), "{text}");
    let summary = stderr(&out);
    assert!(
        summary.contains("500 records in, 500 rows out"),
        "{summary}"
    );
    assert!(summary.contains("latency us: p50"), "{summary}");
}

/// Into a regular file, the wall time counts the commit after the last row (fsync and
/// rename), and puzzles/s is taken over that whole time, in the report and the summary.
#[test]
fn wall_time_and_rate_include_the_commit() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let rows = dir.path().join("rows.csv");
    let out = run(&[
        "classify",
        common::data("minimal.txt").to_str().unwrap(),
        "-o",
        rows.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(rows.exists());
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let (records, wall) = (
        json["records"].as_f64().unwrap(),
        json["wall_seconds"].as_f64().unwrap(),
    );
    let rate = json["puzzles_per_sec"].as_f64().unwrap();
    assert!(wall > 0.0);
    assert!(
        (rate * wall - records).abs() < 1e-6 * records,
        "{rate} x {wall} != {records}"
    );
    let summary = stderr(&out);
    let shown = format!("{wall:.3} s wall, {rate:.0} puzzles/s");
    assert!(summary.contains(&shown), "{summary} lacks {shown}");
}

/// `/dev/stdout` and `/dev/stderr` name this process's descriptors: with stdout
/// redirected to a regular file (a shell's `> out`), what is written there extends that
/// file: it does not replace it, nor the `/dev/stdout` link.
#[cfg(target_os = "linux")]
#[test]
fn dev_stdout_on_a_regular_file_is_extended_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let input = common::data("extreme.txt");
    let shell_out = dir.path().join("out.txt");
    let classify = |args: &[&str]| {
        let file = std::fs::File::create(&shell_out).unwrap();
        let out = bin()
            .args(["classify", input.to_str().unwrap(), "--quiet"])
            .args(args)
            .stdout(Stdio::from(file))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        std::fs::read_to_string(&shell_out).unwrap()
    };
    // Rows on stdout, then the report through /dev/stdout after them.
    let text = classify(&["--report", "/dev/stdout"]);
    let (rows_part, report) = text.split_at(text.find("{\n").expect("a report"));
    assert_eq!(rows_part.lines().count(), 101, "{text}");
    let json: serde_json::Value = serde_json::from_str(report).unwrap();
    assert_eq!(json["records"], 100);
    // Rows through /dev/stdout, the report through /dev/fd/1.
    let text = classify(&["-o", "/dev/stdout", "--report", "/dev/fd/1"]);
    assert!(text.starts_with("line,puzzle"), "{text}");
    assert_eq!(text.matches("\"records\": 100").count(), 1, "{text}");
    // /dev/stderr likewise: the report lands after nothing else, in the stderr file.
    let err_path = dir.path().join("err.txt");
    let out = bin()
        .args([
            "classify",
            input.to_str().unwrap(),
            "--quiet",
            "-o",
            "/dev/null",
        ])
        .args(["--report", "/dev/stderr"])
        .stderr(Stdio::from(std::fs::File::create(&err_path).unwrap()))
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&err_path).unwrap()).unwrap();
    assert_eq!(json["records"], 100);
    for link in ["/dev/stdout", "/dev/stderr"] {
        if let Ok(meta) = std::fs::symlink_metadata(link) {
            assert!(!meta.is_file(), "{link} was replaced by a regular file");
        }
    }
    no_temp_files(dir.path());
}

fn no_temp_files(dir: &Path) {
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}

#[test]
fn output_file_is_replaced_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("out.csv");
    std::fs::write(&out_path, "old contents\n").unwrap();
    let input = common::data("easy-50.txt");
    // A failing run (bad column) leaves the old file alone.
    let bad = run(&[
        "classify",
        common::data("graded.csv").to_str().unwrap(),
        "--column",
        "nope",
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("--column nope: no such column"),
        "{}",
        stderr(&bad)
    );
    assert_eq!(
        std::fs::read_to_string(&out_path).unwrap(),
        "old contents\n"
    );
    let ok = run(&[
        "classify",
        input.to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
        "-q",
    ]);
    assert!(ok.status.success());
    assert_eq!(rows(&std::fs::read(&out_path).unwrap()).len(), 50);
    no_temp_files(dir.path());
}

#[test]
fn errors_are_one_line_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["classify".into(), missing.display().to_string()],
            "missing.txt",
        ),
        (
            vec!["classify".into(), dir.path().display().to_string()],
            "is a directory",
        ),
        (
            vec![
                "classify".into(),
                common::data("easy-50.txt").display().to_string(),
                "-o".into(),
                dir.path().join("no/such/dir/out.csv").display().to_string(),
            ],
            "cannot create output",
        ),
        (
            vec![
                "classify".into(),
                "x".into(),
                "--threads".into(),
                "0".into(),
            ],
            "--threads",
        ),
        (
            vec![
                "classify".into(),
                "x".into(),
                "--format".into(),
                "xml".into(),
            ],
            "--format",
        ),
    ];
    for (args, needle) in cases {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let msg = stderr(&out);
        assert!(msg.contains(needle), "{args:?}: {msg}");
        assert!(!msg.contains("panicked"), "{msg}");
    }
}

#[test]
fn help_and_version() {
    let none = run(&[]);
    assert!(!none.status.success());
    assert!(stderr(&none).contains("Usage: sudoku-batch"));
    let v = run(&["--version"]);
    assert!(v.status.success());
    assert!(String::from_utf8_lossy(&v.stdout).starts_with("sudoku-batch "));
}

#[test]
fn special_files_are_written_directly() {
    let out = run(&[
        "solve",
        common::data("extreme.txt").to_str().unwrap(),
        "-o",
        "/dev/null",
        "-q",
    ]);
    assert!(out.status.success());
    assert!(Path::new("/dev/null").exists());
    if Path::new("/dev/full").exists() {
        let full = run(&[
            "solve",
            common::data("minimal.txt").to_str().unwrap(),
            "-o",
            "/dev/full",
            "-q",
        ]);
        assert_eq!(full.status.code(), Some(2));
        assert!(
            stderr(&full).contains("/dev/full: write failed"),
            "{}",
            stderr(&full)
        );
    }
}

#[test]
fn closed_stdout_is_quiet() {
    let mut child = bin()
        .args([
            "classify",
            common::data("minimal.txt").to_str().unwrap(),
            "--no-progress",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

/// `bench` writes its results as a table too (`--output-format`, or -o's name): one row
/// per thread count whose numbers are the JSON report's of the same run, in CSV,
/// JSON lines and Parquet; a table's name for the readable table is refused.
#[test]
fn bench_results_as_a_table_match_its_json() {
    let dir = tempfile::tempdir().unwrap();
    let input = common::data("extreme.txt");
    let input = input.to_str().unwrap();
    for name in ["b.csv", "b.ndjson", "b.parquet"] {
        let (table, json) = (dir.path().join(name), dir.path().join("b.json"));
        let out = run(&[
            "bench",
            input,
            "-q",
            "--rounds",
            "2",
            "--threads",
            "1,2",
            "-o",
            table.to_str().unwrap(),
            "--report",
            json.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
        let j: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        // Each row as (threads, median, mean, p99 us, guesses per puzzle).
        let rows: Vec<(u64, f64, f64, f64, f64)> = match name {
            "b.csv" => csv::Reader::from_path(&table)
                .unwrap()
                .deserialize::<std::collections::HashMap<String, String>>()
                .map(|r| {
                    let r = r.unwrap();
                    let f = |k: &str| r[k].parse::<f64>().unwrap();
                    (
                        r["threads"].parse().unwrap(),
                        f("puzzles_per_sec"),
                        f("puzzles_per_sec_mean"),
                        f("latency_us_p99"),
                        f("guesses_per_puzzle"),
                    )
                })
                .collect(),
            "b.ndjson" => std::fs::read_to_string(&table)
                .unwrap()
                .lines()
                .map(|l| {
                    let r: serde_json::Value = serde_json::from_str(l).unwrap();
                    let f = |k: &str| r[k].as_f64().unwrap();
                    (
                        r["threads"].as_u64().unwrap(),
                        f("puzzles_per_sec"),
                        f("puzzles_per_sec_mean"),
                        f("latency_us_p99"),
                        f("guesses_per_puzzle"),
                    )
                })
                .collect(),
            _ => {
                use parquet::file::reader::{FileReader, SerializedFileReader};
                use parquet::record::Field;
                let reader =
                    SerializedFileReader::new(std::fs::File::open(&table).unwrap()).unwrap();
                reader
                    .get_row_iter(None)
                    .unwrap()
                    .map(|row| {
                        let row = row.unwrap();
                        let get = |k: &str| {
                            row.get_column_iter()
                                .find(|(n, _)| n.as_str() == k)
                                .map(|(_, v)| v.clone())
                                .unwrap()
                        };
                        let f = |k: &str| match get(k) {
                            Field::Double(v) => v,
                            other => panic!("{k}: {other:?}"),
                        };
                        let Field::ULong(threads) = get("threads") else {
                            panic!("threads not an integer")
                        };
                        (
                            threads,
                            f("puzzles_per_sec"),
                            f("puzzles_per_sec_mean"),
                            f("latency_us_p99"),
                            f("guesses_per_puzzle"),
                        )
                    })
                    .collect()
            }
        };
        let results = j["results"].as_array().unwrap();
        assert_eq!(rows.len(), results.len(), "{name}");
        // serde_json reads numbers to within an ulp (its float_roundtrip feature is
        // off); the rows' own are exact.
        let near = |a: f64, b: f64| (a - b).abs() <= a.abs().max(b.abs()) * 4.0 * f64::EPSILON;
        for (row, r) in rows.iter().zip(results) {
            let rate = &r["puzzles_per_sec"];
            assert_eq!(row.0, r["threads"].as_u64().unwrap(), "{name}");
            let pairs = [
                (row.1, rate["median"].as_f64().unwrap()),
                (row.2, rate["mean"].as_f64().unwrap()),
                (row.3, r["latency_ns"]["p99"].as_f64().unwrap() / 1e3),
                (row.4, j["effort"]["guesses_per_puzzle"].as_f64().unwrap()),
            ];
            for (got, want) in pairs {
                assert!(near(got, want), "{name}: {got} against {want}");
            }
        }
    }
    let refused = run(&["bench", input, "--output-format", "text", "-o", "b.csv"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr(&refused).contains("b.csv"), "{}", stderr(&refused));
    let csv_out = run(&[
        "bench",
        input,
        "-q",
        "--rounds",
        "1",
        "--output-format",
        "csv",
    ]);
    assert!(String::from_utf8_lossy(&csv_out.stdout).starts_with("dataset,records,mode,threads,"));
}

#[test]
fn bench_json_is_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let json_path = dir.path().join("b.json");
    let hgrm = dir.path().join("lat.hgrm");
    let input = dir.path().join("in.txt");
    // Two invalid records among real ones: counted, excluded from timing.
    let mut text = std::fs::read_to_string(common::data("extreme.txt")).unwrap();
    text.push_str("not a puzzle\n11.......\n");
    std::fs::write(&input, text).unwrap();
    let out = run(&[
        "bench",
        input.to_str().unwrap(),
        "--rounds",
        "3",
        "--warmup",
        "1",
        "--threads",
        "1,2",
        "--json",
        json_path.to_str().unwrap(),
        "--histogram",
        hgrm.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("102 records (100 timed, 2 invalid excluded)"),
        "{table}"
    );
    assert!(
        table.contains("mean ± σ") && table.contains("min …"),
        "{table}"
    );
    assert!(
        table.contains("  1 thread ") && table.contains(" 2 threads "),
        "{table}"
    );
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    assert_eq!(j["records"], 102);
    assert_eq!(j["timed"], 100);
    assert_eq!(j["invalid"], 2);
    assert_eq!(j["mode"], "count");
    let results = j["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for (r, threads) in results.iter().zip([1, 2]) {
        assert_eq!(r["threads"], threads);
        let rate = &r["puzzles_per_sec"];
        let f = |v: &serde_json::Value| v.as_f64().unwrap();
        assert!(f(&rate["min"]) <= f(&rate["median"]) && f(&rate["median"]) <= f(&rate["max"]));
        assert!(f(&rate["min"]) <= f(&rate["mean"]) && f(&rate["mean"]) <= f(&rate["max"]));
        assert!(f(&rate["stddev"]) >= 0.0);
        assert!(f(&rate["min"]) > 0.0);
        let l = &r["latency_ns"];
        let p = |k: &str| l[k].as_u64().unwrap();
        assert!(p("p50") > 0);
        assert!(
            p("p50") <= p("p90")
                && p("p90") <= p("p99")
                && p("p99") <= p("p999")
                && p("p999") <= p("max")
        );
        // Every timed puzzle of every round is in the histogram.
        let text =
            std::fs::read_to_string(dir.path().join(format!("lat.t{threads}.hgrm"))).unwrap();
        assert!(
            text.contains(&format!("Total count    = {:>12}]", 100 * 3)),
            "{text}"
        );
    }
    assert_eq!(results[0]["speedup"], 1.0);
    // The table shows what the speedup is made of: the medians, and the speedup itself.
    let two = table.lines().find(|l| l.contains(" 2 threads ")).unwrap();
    let rate = &results[1]["puzzles_per_sec"];
    let median = format!("{:.0}", rate["median"].as_f64().unwrap());
    let speedup = format!("{:.2}", results[1]["speedup"].as_f64().unwrap());
    assert!(two.contains(&median) && two.contains(&speedup), "{two}");
    let expected = rate["median"].as_f64().unwrap()
        / results[0]["puzzles_per_sec"]["median"].as_f64().unwrap();
    assert!((results[1]["speedup"].as_f64().unwrap() - expected).abs() < 1e-9);
    assert!(table.contains("of the medians"), "{table}");
    // 100 puzzles a round take about a millisecond: too short to time, and said so.
    assert!(
        stderr(&out).contains("too short to time well"),
        "{}",
        stderr(&out)
    );
    let e = &j["effort"];
    assert!(e["guesses_per_puzzle"].as_f64().unwrap() > 0.0);
    let no_guess = e["no_guess_percent"].as_f64().unwrap();
    assert!((0.0..=100.0).contains(&no_guess));
}

#[test]
fn corpus_is_deterministic_and_unique() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::data("hard.txt");
    let make = |name: &str, seed: &str| {
        let path = dir.path().join(name);
        let out = run(&[
            "corpus",
            src.to_str().unwrap(),
            "--count",
            "3000",
            "--seed",
            seed,
            "-o",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success());
        std::fs::read(path).unwrap()
    };
    let a = make("a.txt", "5");
    assert_eq!(a, make("b.txt", "5"));
    assert_ne!(a, make("c.txt", "6"));
    let out = run(&[
        "classify",
        dir.path().join("a.txt").to_str().unwrap(),
        "--require-unique",
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(rows(&out.stdout).len(), 3000);
}

#[test]
fn outputs_that_name_an_input_or_each_other_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::copy(common::data("extreme.txt"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    let r = dir.path().join("r.json");
    for args in [
        vec!["classify".into(), s(&input), "-o".into(), s(&input)],
        vec!["classify".into(), s(&input), "-o".into(), s(&link)],
        vec!["classify".into(), s(&input), "--report".into(), s(&input)],
        vec![
            "classify".into(),
            s(&input),
            "--histogram".into(),
            s(&input),
        ],
        vec![
            "grade".into(),
            s(&input),
            "--report".into(),
            s(&r),
            "--plot".into(),
            s(&r),
        ],
        vec!["dedupe".into(), s(&input), "-o".into(), s(&input)],
        vec![
            "corpus".into(),
            "--from".into(),
            s(&input),
            "--count".into(),
            "5".into(),
            "-o".into(),
            s(&input),
        ],
        vec![
            "generate".into(),
            "--count".into(),
            "2".into(),
            "-o".into(),
            s(&r),
            "--report".into(),
            s(&r),
        ],
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("would overwrite"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert_eq!(std::fs::read(&input).unwrap(), before, "{args:?}");
    }
    // Stdin redirected from the file named as the output: the same file.
    for command in ["classify", "dedupe"] {
        let out = bin()
            .args([command, "-", "-o", &s(&input)])
            .stdin(std::fs::File::open(&input).unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(
            stderr(&out).contains("would overwrite the input"),
            "{command}: {}",
            stderr(&out)
        );
        assert_eq!(std::fs::read(&input).unwrap(), before, "{command}");
    }
    assert!(!r.exists());
    // Special files may repeat.
    let out = run(&[
        "classify",
        &s(&input),
        "-o",
        "/dev/null",
        "--report",
        "/dev/null",
        "-q",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_bad_report_path_fails_before_the_output_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("rows.csv");
    let input = common::data("extreme.txt");
    let out = run(&[
        "classify",
        input.to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
        "--report",
        "/no/such/dir/r.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("/no/such/dir/r.json"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn outputs_are_written_through_links_and_keep_their_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("rows.csv");
    std::fs::write(&target, "old\n").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("rows.csv", &link).unwrap();
    let input = common::data("extreme.txt");
    let out = run(&[
        "classify",
        input.to_str().unwrap(),
        "-o",
        link.to_str().unwrap(),
        "-q",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let meta = std::fs::metadata(&target).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert_eq!(rows(&std::fs::read(&target).unwrap()).len(), 100);
}

#[test]
fn fifos_and_dev_stdin_are_streamed_like_stdin() {
    let input = common::data("graded.csv");
    let want = run(&["classify", input.to_str().unwrap(), "-q"]).stdout;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("puzzles.fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let writer = {
        let (fifo, input) = (fifo.clone(), input.clone());
        std::thread::spawn(move || {
            let mut pipe = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
            pipe.write_all(&std::fs::read(input).unwrap()).unwrap();
        })
    };
    let out = run(&["classify", fifo.to_str().unwrap(), "-q"]);
    writer.join().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout == want, "a FIFO gives other rows than the file");
    // A FIFO has no byte ranges to share out.
    let out = run(&["classify", fifo.to_str().unwrap(), "--shard", "1/2"]);
    assert_eq!(out.status.code(), Some(2));
    // /dev/stdin, as a shell's `<(...)` or a redirect gives it.
    let mut child = bin()
        .args(["classify", "/dev/stdin", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let bytes = std::fs::read(&input).unwrap();
    let feeder = std::thread::spawn(move || stdin.write_all(&bytes).unwrap());
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(
        out.stdout == want,
        "/dev/stdin gives other rows than the file"
    );
}

#[test]
fn the_summary_says_how_the_input_was_read() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let csv = common::data("graded.csv");
    let summary = run(&["classify", csv.to_str().unwrap(), "-o", "/dev/null"]);
    assert!(
        summary.contains(
            "read as CSV with a header on line 1: puzzles in \"puzzle\" (column 1), \
             solutions in \"solution\" (column 2)"
        ),
        "{summary}"
    );
    assert!(!summary.contains("every record is invalid"));
    // The wrong column: every record invalid, and the summary says what to check.
    let summary = run(&[
        "classify",
        csv.to_str().unwrap(),
        "--column",
        "clues",
        "-o",
        "/dev/null",
    ]);
    assert!(
        summary.contains("puzzles in \"clues\" (column 3)"),
        "{summary}"
    );
    assert!(summary.contains("every record is invalid"), "{summary}");
    let lines = common::data("extreme.txt");
    let summary = run(&["classify", lines.to_str().unwrap(), "-o", "/dev/null"]);
    assert!(summary.contains("read as one puzzle per line"), "{summary}");
}

#[test]
fn an_ndjson_output_name_picks_the_format_unless_told_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let input = common::data("extreme.txt");
    let run = |out: &Path, extra: &[&str]| {
        let mut args = vec!["classify", input.to_str().unwrap(), "-q", "-o"];
        args.push(out.to_str().unwrap());
        args.extend_from_slice(extra);
        let status = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
            .args(&args)
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::read_to_string(out).unwrap()
    };
    for name in ["rows.ndjson", "rows.JSONL"] {
        let text = run(&dir.path().join(name), &[]);
        assert_eq!(text.lines().count(), 100, "{name}");
        for line in text.lines() {
            let row: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(row["status"], "unique");
        }
    }
    let told = run(&dir.path().join("told.ndjson"), &["--output-format", "csv"]);
    assert!(told.starts_with("line,puzzle,solution,status"), "{told}");
    let csv = run(&dir.path().join("rows.txt"), &[]);
    assert!(csv.starts_with("line,puzzle,solution,status"));
}

/// The everyday flags mean the same on every command: `--output-format` is the row
/// format (on `generate` too, `--format` kept as before), `--report` the JSON summary
/// (`bench --json` kept), `-q` silence, and `corpus` takes its input as the others do.
#[test]
fn everyday_flags_mean_the_same_on_every_command() {
    let ok = |args: &[&str]| {
        let out = run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        out
    };
    let ndjson = ok(&[
        "generate",
        "--count",
        "4",
        "--output-format",
        "ndjson",
        "-q",
    ]);
    let lines: Vec<serde_json::Value> = String::from_utf8(ndjson.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert!(lines
        .iter()
        .all(|v| v["status"] == "unique" && v["givens"].is_u64()));
    let pairs = ok(&["generate", "--count", "4", "--output-format", "pairs", "-q"]);
    assert_eq!(
        pairs.stdout,
        ok(&["generate", "--count", "4", "--format", "lines", "-q"]).stdout
    );
    let dir = tempfile::tempdir().unwrap();
    let named = dir.path().join("made.ndjson");
    ok(&[
        "generate",
        "--count",
        "2",
        "-q",
        "-o",
        named.to_str().unwrap(),
    ]);
    assert!(std::fs::read_to_string(&named)
        .unwrap()
        .starts_with("{\"line\":1,"));

    let report = dir.path().join("bench.json");
    let input = common::data("extreme.txt");
    let quiet = ok(&[
        "bench",
        input.to_str().unwrap(),
        "--threads",
        "1,64",
        "--rounds",
        "1",
        "--warmup",
        "0",
        "-q",
        "--report",
        report.to_str().unwrap(),
    ]);
    // -q means no notes on stderr, as on every command; the table is the result.
    assert!(quiet.stderr.is_empty(), "{}", stderr(&quiet));
    assert!(String::from_utf8_lossy(&quiet.stdout).contains("puzzles/s: median"));
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(j["results"].as_array().unwrap().len(), 2);
    let loud = ok(&[
        "bench",
        input.to_str().unwrap(),
        "--threads",
        "64",
        "--rounds",
        "1",
        "--warmup",
        "0",
    ]);
    assert!(stderr(&loud).contains("64 threads on"), "{}", stderr(&loud));

    let corpus = ok(&["corpus", input.to_str().unwrap(), "--count", "10"]);
    assert_eq!(corpus.stdout.iter().filter(|&&b| b == b'\n').count(), 10);
    assert!(stderr(&corpus).starts_with("corpus: 10 records from 100 puzzles"));
    let from = ok(&[
        "corpus",
        "--from",
        input.to_str().unwrap(),
        "--count",
        "10",
        "-q",
    ]);
    assert_eq!(from.stdout, corpus.stdout);
    assert!(from.stderr.is_empty());

    // minimize and canon take classic grids only: the board options are not offered in
    // their help, and are refused with a reason when given.
    let help = String::from_utf8(ok(&["minimize", "--help"]).stdout).unwrap();
    assert!(
        !help.contains("--size") && help.contains("--engine"),
        "{help}"
    );
    let refused = run(&["canon", input.to_str().unwrap(), "--size", "16"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr(&refused).contains("classic 9x9 puzzles only"));
}

/// Shell completions and the manual page come from the parser's own definition: every
/// command is in them.
#[test]
fn completions_and_man_page_cover_every_command() {
    let commands = [
        "solve", "classify", "grade", "minimize", "canon", "dedupe", "overlap", "split",
        "generate", "bench", "corpus", "show", "merge", "serve",
    ];
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        for command in commands {
            assert!(text.contains(command), "{shell} completions lack {command}");
        }
        assert!(text.contains("output-format"), "{shell}");
    }
    let bad = run(&["completions", "tcsh"]);
    assert_eq!(bad.status.code(), Some(2));
    let man = run(&["man"]);
    assert!(man.status.success(), "{}", stderr(&man));
    let page = String::from_utf8(man.stdout).unwrap();
    assert!(
        page.starts_with(".ie") || page.contains(".TH sudoku-batch 1"),
        "{page:.200}"
    );
    for command in commands {
        assert!(
            page.contains(&format!(".TH sudoku-batch-{command} 1")),
            "the manual has no page for {command}"
        );
    }
}

/// Help for people: every command's help ends with an example and its exit codes, and
/// the record commands group their options under headings.
#[test]
fn every_command_has_examples_and_exit_codes_in_its_help() {
    let top = String::from_utf8(run(&["--help"]).stdout).unwrap();
    let commands: Vec<&str> = top
        .split("Commands:")
        .nth(1)
        .unwrap()
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        // A command's line starts two spaces in; wrapped descriptions further.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 16, "{commands:?}");
    for command in &commands {
        let help = String::from_utf8(run(&[command, "--help"]).stdout).unwrap();
        assert!(
            help.contains("Examples:\n  sudoku-batch "),
            "{command}: no example"
        );
        assert!(help.contains("Exit status: 0"), "{command}: no exit codes");
    }
    let help = String::from_utf8(run(&["classify", "--help"]).stdout).unwrap();
    for heading in ["Input:", "Boards:", "Engines:", "Output:", "Distribution:"] {
        assert!(
            help.contains(&format!("\n{heading}\n")),
            "classify --help: {heading}"
        );
    }
}

/// Runs the binary with `args`, writing `data` to its stdin.
fn run_with_stdin(args: &[&str], data: Vec<u8>) -> std::process::Output {
    common::run_piped(args, Some(&data))
}

#[test]
fn show_and_bench_read_stdin_as_they_read_the_file() {
    let path = common::data("extreme.txt");
    let file = path.to_str().unwrap();
    let data = std::fs::read(&path).unwrap();
    let drawn = run(&["show", file, "--line", "2", "--line", "7"]);
    let streamed = run_with_stdin(&["show", "-", "--line", "2", "--line", "7"], data.clone());
    assert!(streamed.status.success(), "{streamed:?}");
    assert_eq!(drawn.stdout, streamed.stdout);
    // --no-titles: the same drawings without the title lines.
    let quiet = run_with_stdin(
        &["show", "-", "--no-titles", "--line", "2", "--line", "7"],
        data.clone(),
    );
    let text = String::from_utf8(drawn.stdout).unwrap();
    let titles: Vec<&str> = text.lines().filter(|l| l.starts_with("line ")).collect();
    assert_eq!(titles.len(), 2, "{text}");
    let untitled: String = text
        .lines()
        .filter(|l| !l.starts_with("line "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(String::from_utf8(quiet.stdout).unwrap(), untitled);

    let dir = tempfile::tempdir().unwrap();
    let report = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (a, b) = (report("file.json"), report("stdin.json"));
    let timing = ["--rounds", "1", "--warmup", "0", "--threads", "1", "-q"];
    let mut args = vec!["bench", file, "--report", &a];
    args.extend(timing);
    assert!(run(&args).status.success());
    let mut args = vec!["bench", "-", "--report", &b];
    args.extend(timing);
    let out = run_with_stdin(&args, data);
    assert!(out.status.success(), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    let read = |p: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let (a, b) = (read(&a), read(&b));
    for key in ["records", "timed", "invalid", "effort"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    assert_eq!(a["records"], 100);
}

/// A regular output file takes each chunk's rows at its offset, written by the pool:
/// on a run of many chunks (the minimal puzzles four times over) the file holds
/// exactly what stdout gets, on one thread and on more than the cores (where the pool
/// writes), with record numbers put in
/// (written by the ordered writer itself) and without, and with a grid format whose
/// rows span lines. The outputs (about 10 MB) also cross the 8 MB steps at which a
/// file written in order starts its writeback.
#[test]
fn positional_writes_match_stdout_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    // The minimal puzzles four times over: 1.6 MB, 13 chunks.
    let input = dir.path().join("minimal-x4.txt");
    std::fs::write(
        &input,
        std::fs::read(common::data("minimal.txt"))
            .unwrap()
            .repeat(4),
    )
    .unwrap();
    let input = input.to_str().unwrap();
    let out_path = dir.path().join("out.csv");
    let out = out_path.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["classify"],
        &["solve", "--record-index"],
        &["solve", "--output-format", "grid"],
    ];
    for args in cases {
        let want = common::stdout_of(&[args, &[input, "-q", "--threads", "2"][..]].concat());
        assert!(
            want.len() > 20 * 128 * 1024,
            "{args:?}: {} bytes",
            want.len()
        );
        // Positional writes take a worker for every core: one more than the cores here.
        let every_core = std::thread::available_parallelism().map_or(1, |n| n.get()) + 1;
        for threads in ["1".to_string(), "2".to_string(), every_core.to_string()] {
            let threads = threads.as_str();
            let ran = run(&[args, &[input, "-q", "--threads", threads, "-o", out][..]].concat());
            assert!(ran.status.success(), "{args:?}: {}", stderr(&ran));
            let got = std::fs::read(&out_path).unwrap();
            assert!(
                got == want,
                "{args:?} on {threads} threads: {} bytes, want {}",
                got.len(),
                want.len()
            );
        }
    }
    no_temp_files(dir.path());
}

/// The bash completion script offers every command's own options: bash itself is driven
/// through the generated function with the words typed so far, for each command and a
/// few of its options (and the commands at the top level).
#[test]
fn bash_completion_offers_each_commands_options() {
    if Command::new("bash").arg("--version").output().is_err() {
        eprintln!("bash is not installed: completion not driven");
        return;
    }
    let script = run(&["completions", "bash"]).stdout;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("complete.bash");
    std::fs::write(&path, script).unwrap();
    let offered = |words: &[&str]| -> Vec<String> {
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        let program = format!(
            "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; \
             _sudoku__batch sudoku-batch '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            path.display(),
            quoted.join(" "),
            words.len() - 1,
            words[words.len() - 1],
            words[words.len() - 2],
        );
        let out = Command::new("bash")
            .args(["-c", &program])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    };
    for (command, option) in [
        ("classify", "--require-unique"),
        ("grade", "--rating"),
        ("generate", "--difficulty"),
        ("bench", "--mode"),
        ("dedupe", "--rows"),
        ("split", "--test"),
        ("serve", "--max-inflight"),
        ("show", "--line"),
    ] {
        let got = offered(&["sudoku-batch", command, "--"]);
        assert!(
            got.iter().any(|o| o == option),
            "{command}: {option} not in {got:?}"
        );
    }
    let top = offered(&["sudoku-batch", ""]);
    assert!(top.iter().any(|o| o == "classify"), "{top:?}");
    let modes = offered(&["sudoku-batch", "bench", "--mode", ""]);
    assert!(modes.iter().any(|o| o == "count"), "{modes:?}");
}

/// What each shell's completion is driven with: the words typed after `sudoku-batch`
/// (a prefix only one candidate has) and the word Tab must complete them to: a command,
/// each command's own options, an option's values.
const COMPLETED: &[(&str, &str)] = &[
    ("gr", "grade"),
    ("classify --require-u", "--require-unique"),
    ("grade --rating-b", "--rating-budget"),
    ("grade --to", "--top"),
    ("generate --difficu", "--difficulty"),
    ("bench --mo", "--mode"),
    ("bench --mode co", "count"),
    ("dedupe --row", "--rows"),
    ("split --test-o", "--test-out"),
    ("serve --max-in", "--max-inflight"),
    ("show --lin", "--line"),
];

/// True when `shell` runs here; else the test that needs it is noted as skipped.
fn shell_at_hand(shell: &str, test: &str) -> bool {
    let found = Command::new(shell)
        .args(["-c", "exit 0"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        common::skipped(&format!(
            "{test}: {shell} is not installed (scripts/test.sh installs it)"
        ));
    }
    found
}

/// The zsh completion script, installed as `_sudoku-batch` in a folder of `fpath`,
/// completes each command and option in an interactive zsh driven through a
/// pseudo-terminal (`tests/shells/complete.zsh`: types the words, presses Tab, waits
/// for the completed word on the line).
#[test]
fn zsh_completion_completes_each_commands_options() {
    if !shell_at_hand("zsh", "zsh_completion_completes_each_commands_options") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("_sudoku-batch"),
        run(&["completions", "zsh"]).stdout,
    )
    .unwrap();
    let driver = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/shells/complete.zsh");
    let mut args = vec![
        "-f".to_string(),
        driver.to_string(),
        dir.path().display().to_string(),
    ];
    for (typed, want) in COMPLETED {
        args.push(format!("sudoku-batch {typed}"));
        args.push(want.to_string());
    }
    // A prefix with no completion: the driver must say so (the test can fail).
    args.push("sudoku-batch classify --nope".into());
    args.push("--nopeless".into());
    let out = Command::new("zsh").args(&args).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    let mut want: Vec<String> = COMPLETED.iter().map(|(_, w)| format!("ok {w}")).collect();
    want.push("missing --nopeless".into());
    assert_eq!(said.lines().collect::<Vec<_>>(), want, "{}", stderr(&out));
}

/// The fish completion script offers each command, its own options and an option's
/// values, as fish's `complete -C` (what Tab shows) lists them.
#[test]
fn fish_completion_offers_each_commands_options() {
    if !shell_at_hand("fish", "fish_completion_offers_each_commands_options") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("sudoku-batch.fish");
    std::fs::write(&script, run(&["completions", "fish"]).stdout).unwrap();
    for (typed, want) in COMPLETED {
        let program = format!(
            "source '{}'; complete -C 'sudoku-batch {typed}'",
            script.display()
        );
        let out = Command::new("fish")
            .args(["-c", &program])
            .output()
            .unwrap();
        let offered: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.split('\t').next().unwrap_or("").to_string())
            .collect();
        assert_eq!(offered, [*want], "sudoku-batch {typed}: {}", stderr(&out));
    }
}

/// `--no-solution` writes puzzles without their solutions (for printing), in every
/// format and on `generate` and `show`; `show` gives the ratings `grade` gives.
#[test]
fn no_solution_hides_solutions_and_show_rates_as_grade() {
    let input = common::data("extreme.txt");
    let input = input.to_str().unwrap();
    let grids = run(&[
        "classify",
        input,
        "-q",
        "--output-format",
        "grid",
        "--no-solution",
    ]);
    assert!(grids.status.success());
    let text = String::from_utf8(grids.stdout).unwrap();
    let drawn: Vec<&str> = text.lines().filter(|l| l.contains('|')).collect();
    assert_eq!(drawn.len(), 100 * 9);
    assert!(drawn.iter().all(|l| l.len() == 21), "one grid a line");
    let csv = run(&["classify", input, "-q", "--no-solution"]);
    let rows = rows(&csv.stdout);
    assert!(rows
        .iter()
        .all(|r| r.solution.is_empty() && r.status == "unique"));
    let made = run(&[
        "generate",
        "--count",
        "3",
        "--seed",
        "2",
        "-q",
        "--output-format",
        "pairs",
        "--no-solution",
    ]);
    let made = String::from_utf8(made.stdout).unwrap();
    assert_eq!(made.lines().count(), 3);
    assert!(
        made.lines().all(|l| l.ends_with(" -") && l.len() == 83),
        "{made}"
    );
    // show: ER as grade writes it, and the puzzle alone.
    let hard = common::data("hard.txt");
    let hard = hard.to_str().unwrap();
    let shown =
        String::from_utf8(run(&["show", hard, "--line", "4", "--no-solution"]).stdout).unwrap();
    let graded = String::from_utf8(run(&["grade", hard, "-q"]).stdout).unwrap();
    let mut reader = csv::Reader::from_reader(graded.as_bytes());
    let header = reader.headers().unwrap().clone();
    let at = header.iter().position(|h| h == "rating").unwrap();
    let first = reader.records().next().unwrap().unwrap();
    assert_eq!(&first[0], "4");
    assert!(shown.contains(&format!("ER {}", &first[at])), "{shown}");
    assert!(shown.lines().skip(1).all(|l| l.len() <= 21), "{shown}");
}

/// Settings are checked by the library's one settings check before anything is read:
/// the words the server and Python give, the flag named as written.
#[test]
fn settings_are_refused_in_the_libraries_words() {
    for (args, expected) in [
        (
            &["classify", "--delimiter", "ab", "data/minimal.txt"][..],
            "--delimiter \"ab\": give one character, or `tab`",
        ),
        (
            &["dedupe", "--delimiter", "9", "data/minimal.txt"][..],
            "--delimiter \"9\" cannot separate fields",
        ),
        (
            &[
                "classify",
                "--size",
                "16",
                "--symbols",
                "123456789",
                "data/minimal.txt",
            ][..],
            "--symbols has 9 symbols but --size is 16",
        ),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// An output that cannot be made says why in words: a missing folder, or a folder that
/// takes no new file (the system says "No such file or directory" for both).
#[test]
fn unwritable_outputs_say_why() {
    let out = run(&[
        "classify",
        "data/easy-50.txt",
        "-o",
        "/nonexistent-dir/x.csv",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no such folder: /nonexistent-dir"),
        "{}",
        stderr(&out)
    );
    if std::path::Path::new("/proc/version").is_file() {
        let out = run(&["classify", "data/easy-50.txt", "-o", "/proc/version"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("/proc takes no new file"),
            "{}",
            stderr(&out)
        );
    }
}

/// `show --record N` picks records by number as `generate` numbers them; variant boards
/// are drawn by the board options (and by their length), boxes ruled.
#[test]
fn show_picks_records_by_number_and_draws_boards() {
    let hard = common::data("hard.txt");
    let hard = hard.to_str().unwrap();
    // hard.txt starts with comment lines: record 2 is not on line 2.
    let by_record = run(&["show", hard, "--record", "2"]);
    assert!(by_record.status.success(), "{}", stderr(&by_record));
    let text = String::from_utf8(by_record.stdout).unwrap();
    let line: u64 = text
        .strip_prefix("line ")
        .and_then(|t| t.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(line > 2, "{text}");
    let by_line = run(&["show", hard, "--line", &line.to_string()]);
    assert_eq!(String::from_utf8(by_line.stdout).unwrap(), text);
    let beyond = run(&["show", hard, "--record", "501"]);
    assert_eq!(beyond.status.code(), Some(2));
    assert!(stderr(&beyond).contains("--record 501: the input holds 500 records"));
    let both = run(&["show", hard, "--record", "1", "--line", "3"]);
    assert_eq!(both.status.code(), Some(2));

    for (file, args, side) in [
        ("variants/solo-4x4.txt", &[][..], 4),
        ("variants/solo-16x16.txt", &[][..], 16),
        (
            "variants/solo-diagonal-9x9.txt",
            &["--variant", "diagonal"][..],
            9,
        ),
    ] {
        let path = common::data(file);
        let mut all = vec!["show", path.to_str().unwrap()];
        all.extend_from_slice(args);
        let out = run(&all);
        assert!(out.status.success(), "{file}: {}", stderr(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.starts_with("line 1: unique"), "{file}: {text}");
        let rows: Vec<&str> = text
            .lines()
            .skip(1)
            .filter(|l| !l.is_empty() && !l.starts_with('-'))
            .collect();
        assert_eq!(rows.len(), side, "{file}: {text}");
        // Puzzle and solution side by side: side cells each, the solution full.
        let solution = rows[0].split("    ").nth(1).unwrap();
        assert_eq!(
            solution.split_whitespace().filter(|c| *c != "|").count(),
            side
        );
        assert!(!solution.contains('.'), "{file}: {text}");
    }
    // The diagonal rules change the answer of a diagonal puzzle read as classic.
    let path = common::data("variants/solo-diagonal-9x9.txt");
    let classic = run(&["show", path.to_str().unwrap()]);
    let diagonal = run(&["show", path.to_str().unwrap(), "--variant", "diagonal"]);
    assert_ne!(classic.stdout, diagonal.stdout);
}

/// True when util-linux `script` can make a pseudo-terminal here; else `test` is noted
/// as skipped.
fn script_at_hand(test: &str) -> bool {
    let found = Command::new("script").arg("--version").output().is_ok();
    if !found {
        common::skipped(&format!("{test}: needs util-linux script for a terminal"));
    }
    found
}

/// What the command `line` shows when run on a pseudo-terminal (util-linux `script`),
/// which must succeed.
fn on_a_terminal(line: &str) -> String {
    let out = Command::new("script")
        .args(["-qec", line, "/dev/null"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{line}: {shown}");
    shown
}

/// Dataset commands draw a progress bar on a terminal (here a pseudo-terminal made by
/// util-linux `script`), never with `--no-progress` or `-q`, and never into a pipe.
#[test]
fn dataset_commands_show_progress_on_a_terminal_only() {
    if !script_at_hand("dataset_commands_show_progress_on_a_terminal_only") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus.txt");
    let corpus = corpus.to_str().unwrap();
    let made = run(&[
        "corpus",
        "--from",
        "data/minimal.txt",
        "--count",
        "30000",
        "--seed",
        "2",
        "-o",
        corpus,
        "-q",
    ]);
    assert!(made.status.success(), "{}", stderr(&made));
    let bin = env!("CARGO_BIN_EXE_sudoku-batch");
    let out = dir.path().join("out.txt");
    let out = out.to_str().unwrap();
    for (command, extra) in [
        ("dedupe", format!("-o {out}")),
        ("audit", String::new()),
        (
            "split",
            format!("--test 0.2 --train-out {out} --test-out {out}.test"),
        ),
        ("overlap", format!("{corpus} -o {out}")),
    ] {
        let on_terminal = |flags: &str| {
            on_a_terminal(&format!(
                "{bin} {command} {corpus} {extra} --threads 2 {flags}"
            ))
        };
        let shown = on_terminal("");
        assert!(
            shown.contains("MiB") && shown.contains(command),
            "{command}: {shown}"
        );
        for flags in ["--no-progress", "-q"] {
            let hidden = on_terminal(flags);
            assert!(!hidden.contains("MiB"), "{command} {flags}: {hidden}");
        }
        let mut args = vec![command, corpus];
        let extra: Vec<&str> = extra.split_whitespace().collect();
        args.extend(extra);
        let piped = run(&args);
        assert!(
            !stderr(&piped).contains("MiB"),
            "{command}: {}",
            stderr(&piped)
        );
    }
}

/// Help says what the output holds: `bench --markdown`'s columns are the table's, and
/// `generate`'s `--size` default is what it makes.
#[test]
fn help_statements_hold() {
    let help = String::from_utf8(run(&["bench", "--help"]).stdout).unwrap();
    let said: String = help
        .split("--markdown")
        .nth(1)
        .and_then(|t| t.split('(').nth(1))
        .and_then(|t| t.split(')').next())
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let table = run(&[
        "bench",
        "data/easy-50.txt",
        "--rounds",
        "1",
        "--warmup",
        "0",
        "--threads",
        "1",
        "--markdown",
        "-q",
    ]);
    let header = String::from_utf8(table.stdout).unwrap();
    let columns: Vec<&str> = header
        .lines()
        .next()
        .unwrap()
        .split('|')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(said, columns.join(", "), "bench --help says other columns");

    let help = String::from_utf8(run(&["generate", "--help"]).stdout).unwrap();
    assert!(help.contains("(default: 9)"), "{help}");
    let made = run(&["generate", "--count", "1", "--output-format", "pairs"]);
    let line = String::from_utf8(made.stdout).unwrap();
    assert_eq!(line.split_whitespace().next().unwrap().len(), 81);
}

/// `bench` counts its passes on a terminal (a pseudo-terminal from `script`, where the
/// machine has it), and `--no-progress` and `-q` draw nothing.
#[test]
fn bench_shows_its_passes_on_a_terminal_only_when_asked() {
    if !script_at_hand("bench_shows_its_passes_on_a_terminal_only_when_asked") {
        return;
    }
    let input = common::data("extreme.txt");
    let on_terminal = |extra: &str| {
        on_a_terminal(&format!(
            "{} bench {} --rounds 2 --warmup 1 --threads 1 --threads 2 {extra}",
            env!("CARGO_BIN_EXE_sudoku-batch"),
            input.display()
        ))
    };
    // 1 pass for the effort, then 1 + 2 for each of two thread counts.
    assert!(on_terminal("").contains("/7 passes"));
    assert!(!on_terminal("--no-progress").contains("passes"));
    assert!(!on_terminal("-q").contains("passes"));
}

/// `corpus` counts the records it makes on a terminal, and not with `--no-progress`
/// or `-q`.
#[test]
fn corpus_shows_its_records_on_a_terminal_only_when_asked() {
    if !script_at_hand("corpus_shows_its_records_on_a_terminal_only_when_asked") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("corpus.txt");
    let on_terminal = |extra: &str| {
        on_a_terminal(&format!(
            "{} corpus {} --count 100000 -o {} {extra}",
            env!("CARGO_BIN_EXE_sudoku-batch"),
            common::data("hard.txt").display(),
            out_path.display(),
        ))
    };
    assert!(on_terminal("").contains("/100000 records"));
    assert!(!on_terminal("--no-progress").contains("/100000 records"));
    assert!(!on_terminal("-q").contains("/100000 records"));
    let made = std::fs::read_to_string(&out_path).unwrap();
    assert_eq!(made.lines().count(), 100_000);
}
