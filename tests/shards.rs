//! Parts of a run add up to the whole: shard outputs concatenate to the unsharded output
//! byte for byte (every bundled layout, CRLF, comments, quoted CSV newlines, blocks), and
//! merged reports equal the parts added up, histograms included.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use sudoku_batch::reports::{decode_histogram, new_histogram, Latency, RunReport};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
}

fn run(args: &[&str]) -> Output {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Files with every layout the reader knows, the bundled ones and a few built here.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = [
        "minimal.txt",
        "hard.txt",
        "quizzes.csv",
        "graded.csv",
        "hash-rating.txt",
        "pairs-hard.txt",
        "easy-50.txt",
        "cases.tsv",
        "cases/valid/minimal1.txt",
    ]
    .iter()
    .map(|n| common::data(n))
    .collect();
    // CSV whose fields are quoted and hold newlines, CRLF line ends.
    let quoted: String = common::load("extreme.txt")
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{i},\"note\r\nline two\",\"{}\"\r\n", r.puzzle))
        .collect();
    let path = dir.join("quoted.csv");
    std::fs::write(&path, format!("id,note,puzzle\r\n{quoted}")).unwrap();
    files.push(path);
    // Project Euler 96 blocks.
    let blocks: String = common::load("easy-50.txt")
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let p = r.puzzle.to_string().replace('.', "0");
            let rows: Vec<&str> = (0..9).map(|k| &p[k * 9..k * 9 + 9]).collect();
            format!("Grid {:02}\n{}\n", i + 1, rows.join("\n"))
        })
        .collect();
    let path = dir.join("pe96.txt");
    std::fs::write(&path, blocks).unwrap();
    files.push(path);
    files
}

#[test]
fn shard_outputs_concatenate_to_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    for file in inputs(dir.path()) {
        let f = file.to_str().unwrap();
        let whole = run(&["classify", f, "-q", "--no-header"]).stdout;
        let with_header = run(&["classify", f, "-q"]).stdout;
        for n in 1..=7u32 {
            let mut joined = Vec::new();
            let mut headed = Vec::new();
            for i in 1..=n {
                let shard = format!("{i}/{n}");
                let part = run(&["classify", f, "-q", "--no-header", "--shard", &shard]).stdout;
                joined.extend_from_slice(&part);
                if i == 1 {
                    headed.extend(run(&["classify", f, "-q", "--shard", &shard]).stdout);
                } else {
                    headed.extend_from_slice(&part);
                }
            }
            assert!(joined == whole, "{f}: {n} shards differ from the whole");
            assert!(headed == with_header, "{f}: {n} shards with a header");
        }
    }
}

fn report(path: &Path) -> RunReport {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn merged_reports_add_up_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let file = common::data("cases.tsv");
    let mixed = dir.path().join("mixed.txt");
    // A file with every status, repeated so that shards have several of each.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&mixed, text.repeat(40)).unwrap();
    let f = mixed.to_str().unwrap();
    let whole_path = dir.path().join("whole.json");
    run(&[
        "classify",
        f,
        "-q",
        "-o",
        "/dev/null",
        "--report",
        whole_path.to_str().unwrap(),
    ]);
    let whole = report(&whole_path);
    let mut parts = Vec::new();
    for i in 1..=5 {
        let path = dir.path().join(format!("part{i}.json"));
        let shard = format!("{i}/5");
        run(&[
            "classify",
            f,
            "-q",
            "-o",
            "/dev/null",
            "--shard",
            &shard,
            "--report",
            path.to_str().unwrap(),
        ]);
        parts.push(path);
    }
    let merged_path = dir.path().join("merged.json");
    let mut args = vec!["merge", "-q", "-o", merged_path.to_str().unwrap()];
    args.extend(parts.iter().map(|p| p.to_str().unwrap()));
    run(&args);
    let merged = report(&merged_path);
    assert_eq!(merged.records, whole.records);
    assert_eq!(merged.rows_written, whole.rows_written);
    assert_eq!(merged.counts, whole.counts);
    assert_eq!(merged.mismatches, whole.mismatches);
    assert_eq!(merged.first_not_unique, whole.first_not_unique);
    // The merged histogram is the parts' histograms added: same total, same percentiles.
    let mut sum = new_histogram();
    for p in &parts {
        sum.add(decode_histogram(&report(p).histogram).unwrap())
            .unwrap();
    }
    let merged_h = decode_histogram(&merged.histogram).unwrap();
    // Every record here parses, so every one was timed (clashing ones too).
    let timed = whole.records;
    assert_eq!(merged_h.len(), timed);
    assert_eq!(decode_histogram(&whole.histogram).unwrap().len(), timed);
    // Percentiles exactly; the mean to rounding (JSON's float parsing may be off by an
    // ulp).
    let (got, want) = (merged.latency_ns, Latency::from_histogram(&sum));
    assert_eq!(
        (got.p50, got.p90, got.p99, got.p999, got.max),
        (want.p50, want.p90, want.p99, want.p999, want.max)
    );
    assert!((got.mean - want.mean).abs() <= want.mean * 1e-12);
}

#[test]
fn report_lines_travel_with_the_rows_and_merge() {
    let file = common::data("hard.txt");
    let mut parts = Vec::new();
    let dir = tempfile::tempdir().unwrap();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let out = run(&[
            "classify",
            file.to_str().unwrap(),
            "-q",
            "--no-header",
            "--shard",
            &shard,
            "--report-line",
        ]);
        let text = String::from_utf8(out.stdout).unwrap();
        let last = text.lines().last().unwrap();
        assert!(last.starts_with("#sudoku-batch-report {"), "{last}");
        let path = dir.path().join(format!("rows{i}.csv"));
        std::fs::write(&path, &text).unwrap();
        parts.push(path);
    }
    let mut args = vec!["merge", "-q"];
    args.extend(parts.iter().map(|p| p.to_str().unwrap()));
    let merged: RunReport = serde_json::from_slice(&run(&args).stdout).unwrap();
    assert_eq!(merged.records, 500);
    assert_eq!(merged.counts.unique, 500);
}

#[test]
fn stdin_parts_keep_their_line_numbers() {
    let mut child = bin()
        .args(["classify", "-", "-q", "--no-header", "--first-line", "1001"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let p = "....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("# note\n{p}\n{p}\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(lines, ["1002", "1003"]);
}

#[test]
fn bad_shards_are_errors() {
    for shard in ["0/3", "4/3", "1/0", "x/3", "3"] {
        let out = bin()
            .args(["classify", common::data("extreme.txt").to_str().unwrap()])
            .args(["--shard", shard])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{shard}");
    }
    let out = bin()
        .args(["classify", "-", "--shard", "1/2"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--shard needs a file"));
    let out = bin().args(["merge", "/nonexistent.json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn slurm_array_script_runs_its_tasks_and_merges() {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm/classify-array.sh");
    let input = common::data("graded.csv");
    let out = dir.path().join("out");
    let task = |env: &[(&str, &str)]| {
        let status = Command::new("bash")
            .arg(&script)
            .arg(&input)
            .arg(&out)
            .arg(env!("CARGO_BIN_EXE_sudoku-batch"))
            .envs(env.iter().copied())
            .status()
            .unwrap();
        assert!(status.success(), "{env:?}");
    };
    for i in ["1", "2", "3", "4"] {
        task(&[("SLURM_ARRAY_TASK_ID", i), ("SLURM_ARRAY_TASK_COUNT", "4")]);
    }
    task(&[("MERGE", "1")]);
    let mut joined = Vec::new();
    for i in 1..=4 {
        joined.extend(std::fs::read(out.join(format!("rows-{i:05}.csv"))).unwrap());
    }
    let whole = run(&["classify", input.to_str().unwrap(), "-q"]).stdout;
    assert!(
        joined == whole,
        "the parts' rows concatenate to a single run's"
    );
    let merged = report(&out.join("report.json"));
    assert_eq!((merged.records, merged.counts.unique), (2000, 2000));
    assert!(out.join("latency.hgrm").exists());
}

/// `merge` believes nothing a report claims that would make it allocate without bound
/// or add up numbers that contradict each other: a histogram declaring a payload of
/// gigabytes, or other bounds than the tool's, and counts that are not the record total
/// are refused (exit 2, naming the report) at once and in little memory.
#[test]
fn reports_that_claim_too_much_are_refused() {
    use base64::Engine as _;
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.json");
    let input = common::data("extreme.txt");
    let args = [
        "classify",
        input.to_str().unwrap(),
        "-q",
        "-o",
        "/dev/null",
        "--report",
    ];
    let out = run(&[&args[..], &[good.to_str().unwrap()]].concat());
    assert!(out.status.success());
    let text = std::fs::read_to_string(&good).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    // An uncompressed V2 histogram header declaring a 2 GB payload.
    let mut claim = Vec::new();
    claim.extend_from_slice(&0x1c84_9313u32.to_be_bytes());
    claim.extend_from_slice(&2_000_000_000u32.to_be_bytes());
    claim.extend_from_slice(&0u32.to_be_bytes());
    claim.extend_from_slice(&3u32.to_be_bytes());
    claim.extend_from_slice(&1u64.to_be_bytes());
    claim.extend_from_slice(&60_000_000_000u64.to_be_bytes());
    claim.extend_from_slice(&1f64.to_bits().to_be_bytes());
    let huge = base64::engine::general_purpose::STANDARD.encode(&claim);
    let mut wide = claim.clone();
    wide[24..32].copy_from_slice(&u64::MAX.to_be_bytes());
    wide[4..8].copy_from_slice(&16u32.to_be_bytes());
    let wide = base64::engine::general_purpose::STANDARD.encode(&wide);
    let cases: Vec<(&str, serde_json::Value, &str)> = vec![
        (
            "payload",
            {
                let mut v = value.clone();
                v["histogram"] = huge.into();
                v
            },
            "payload",
        ),
        (
            "bounds",
            {
                let mut v = value.clone();
                v["histogram"] = wide.into();
                v
            },
            "not one of this tool's",
        ),
        (
            "counts",
            {
                let mut v = value.clone();
                v["counts"]["unique"] = 7.into();
                v
            },
            "counted by status",
        ),
    ];
    for (name, report, says) in cases {
        let path = dir.path().join(format!("{name}.json"));
        std::fs::write(&path, report.to_string()).unwrap();
        let out = bin()
            .args([
                "merge",
                "-q",
                good.to_str().unwrap(),
                path.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(
            message.contains("report 2") && message.contains(says),
            "{name}: {message}"
        );
    }
}
