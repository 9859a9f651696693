//! `audit` end to end: its numbers equal those of `classify`, `dedupe --by canonical`,
//! `overlap` and `grade` run separately on the same files, its verdict gates a pipeline
//! (`--require-sound`), and its page holds a chart for each histogram.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .args(["--threads", "2"])
        .output()
        .unwrap()
}

fn ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `merge` (which takes no --threads).
fn merge_output(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .output()
        .unwrap()
}

fn merge(args: &[&str]) {
    let out = merge_output(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The audit's JSON of `args` (after `audit FILE`).
fn audit(file: &Path, args: &[&str], dir: &Path) -> Value {
    let out = dir.join("audit.json");
    let mut all = vec!["audit", text(file), "-q", "--json", text(&out)];
    all.extend_from_slice(args);
    let status = run(&all).status;
    assert!(
        status.code() == Some(0) || status.code() == Some(1),
        "{all:?}"
    );
    json(&out)
}

#[test]
fn validity_and_duplicates_equal_classify_and_dedupe() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "cases.tsv",
        "easy-50.txt",
        "multiple.txt",
        "quizzes.csv",
        "graded.csv",
    ] {
        let file = common::data(name);
        let report = audit(&file, &[], dir.path());
        let classified = dir.path().join("classify.json");
        ok(&[
            "classify",
            text(&file),
            "-q",
            "-o",
            "/dev/null",
            "--report",
            text(&classified),
        ]);
        let classified = json(&classified);
        let v = &report["validity"];
        assert_eq!(v["records"], classified["records"], "{name}");
        assert_eq!(v["counts"], classified["counts"], "{name}");
        assert_eq!(
            v["mismatches"], classified["mismatches"],
            "{name}: mismatches"
        );
        let deduped = dir.path().join("dedupe.json");
        ok(&[
            "dedupe",
            text(&file),
            "-q",
            "-o",
            "/dev/null",
            "--report",
            text(&deduped),
        ]);
        let deduped = json(&deduped);
        let d = &report["duplicates"];
        assert_eq!(d["classes"], deduped["classes"], "{name}: classes");
        assert_eq!(d["redundant"], deduped["duplicates"], "{name}: redundant");
        let by_text = dir.path().join("text.json");
        ok(&[
            "dedupe",
            text(&file),
            "--by",
            "text",
            "-q",
            "-o",
            "/dev/null",
            "--report",
            text(&by_text),
        ]);
        assert_eq!(
            d["identical"],
            json(&by_text)["duplicates"],
            "{name}: identical"
        );
        // The verdict: sound exactly when nothing above is wrong.
        let c = &classified["counts"];
        let all_unique = c["unique"] == classified["records"];
        let sound = all_unique && d["redundant"] == 0 && v["mismatches"] == 0;
        assert_eq!(report["verdict"]["sound"], sound, "{name}");
        let out = run(&["audit", text(&file), "-q", "--require-sound"]);
        assert_eq!(out.status.code(), Some(if sound { 0 } else { 1 }), "{name}");
    }
}

#[test]
fn leakage_equals_overlap() {
    let dir = tempfile::tempdir().unwrap();
    let hard = common::data("hard.txt");
    let hard_text = std::fs::read_to_string(&hard).unwrap();
    // A training set: 40 of hard.txt's puzzles under other transforms, and the extreme set.
    let some: String = hard_text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .step_by(12)
        .map(|l| format!("{l}\n"))
        .collect();
    let sources = dir.path().join("sources.txt");
    std::fs::write(&sources, some).unwrap();
    let train = dir.path().join("train.txt");
    let made = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(["corpus", text(&sources), "--count", "200", "--seed", "4"])
        .args(["-o", text(&train)])
        .output()
        .unwrap();
    assert!(made.status.success());
    let report = audit(&hard, &["--against", text(&train)], dir.path());
    let overlap = dir.path().join("overlap.csv");
    ok(&[
        "overlap",
        text(&train),
        text(&hard),
        "-q",
        "-o",
        text(&overlap),
    ]);
    let rows = std::fs::read_to_string(&overlap).unwrap();
    let leaked: Vec<u64> = rows
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (!f[1].is_empty()).then(|| f[0].parse().unwrap())
        })
        .collect();
    assert!(!leaked.is_empty());
    let leak = &report["leakage"][0];
    assert_eq!(leak["records"], leaked.len() as u64);
    let first: Vec<u64> = leak["first"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[0].as_u64().unwrap())
        .collect();
    assert_eq!(first, leaked[..first.len()].to_vec());
    assert_eq!(report["verdict"]["sound"], false);
    let against_extreme = audit(
        &hard,
        &["--against", text(&common::data("extreme.txt"))],
        dir.path(),
    );
    assert_eq!(against_extreme["leakage"][0]["records"], 0);
}

#[test]
fn grades_and_givens_equal_grade() {
    let dir = tempfile::tempdir().unwrap();
    let file = common::data("extreme.txt");
    let report = audit(&file, &["--grade"], dir.path());
    let graded = dir.path().join("grade.json");
    let rows = dir.path().join("grade.csv");
    ok(&[
        "grade",
        text(&file),
        "-q",
        "-o",
        text(&rows),
        "--report",
        text(&graded),
    ]);
    let graded = json(&graded);
    let levels: Vec<(String, u64)> = report["shape"]["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_u64().unwrap()))
        .collect();
    for (level, n) in &levels {
        assert_eq!(
            graded["difficulty"][level].as_u64().unwrap_or(0),
            *n,
            "{level}"
        );
    }
    // ER and givens, counted here from grade's rows.
    let mut reader = csv::Reader::from_path(&rows).unwrap();
    let header = reader.headers().unwrap().clone();
    let rating = header.iter().position(|h| h == "rating").unwrap();
    let mut er = std::collections::BTreeMap::<u64, u64>::new();
    let mut givens = std::collections::BTreeMap::<u64, u64>::new();
    for record in reader.records() {
        let record = record.unwrap();
        let tenths = (record[rating].parse::<f64>().unwrap() * 10.0).round() as u64;
        *er.entry(tenths).or_default() += 1;
        let g = record[1].bytes().filter(|b| b.is_ascii_digit()).count() as u64;
        *givens.entry(g).or_default() += 1;
    }
    let from_report = |key: &str| -> std::collections::BTreeMap<u64, u64> {
        report["shape"][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()))
            .filter(|p| p.1 > 0)
            .collect()
    };
    assert_eq!(from_report("ratings"), er);
    assert_eq!(from_report("givens"), givens);
}

#[test]
fn the_page_draws_every_histogram_and_names_the_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let file = common::data("easy-50.txt");
    let page = dir.path().join("audit.html");
    let out = run(&["audit", text(&file), "--grade", "-q", "-o", text(&page)]);
    assert!(out.status.success());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!doctype html>"));
    // Nothing fetched from a network: the only URL is the SVG namespace.
    assert!(!html
        .replace("http://www.w3.org/2000/svg", "")
        .contains("http"));
    assert!(html.contains("Not sound"), "a repeated puzzle is a finding");
    for title in [
        "Givens",
        "Search effort",
        "Automorphisms",
        "Ratings",
        "Levels",
    ] {
        assert!(html.contains(&format!("aria-label=\"{title}\"")), "{title}");
    }
    assert_eq!(html.matches("<svg").count(), 5);
    assert!(html.matches("class=\"bar\"").count() >= 5);
    // The sha-256 of the input as stored.
    let sha = {
        use sha2::Digest;
        let digest = sha2::Sha256::digest(std::fs::read(&file).unwrap());
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    assert!(html.contains(&sha));
}

/// `--minimality`: a unique record is minimal exactly when `minimize` (which drops
/// every given it can, in cell order) gives it back unchanged; the page says the share.
#[test]
fn minimality_equals_minimize() {
    let dir = tempfile::tempdir().unwrap();
    // Minimal puzzles interleaved with puzzles that are not (easy ones with spare
    // givens) and a record with two solutions (not checked).
    let minimal = std::fs::read_to_string(common::data("minimal.txt")).unwrap();
    let easy = std::fs::read_to_string(common::data("easy-50.txt")).unwrap();
    let multiple = std::fs::read_to_string(common::data("multiple.txt")).unwrap();
    let mut mixed = String::new();
    for (a, b) in minimal
        .lines()
        .take(60)
        .zip(easy.lines().chain(easy.lines()))
    {
        mixed.push_str(&format!("{a}\n{b}\n"));
    }
    mixed.push_str(multiple.lines().next().unwrap());
    mixed.push('\n');
    let file = dir.path().join("mixed.txt");
    std::fs::write(&file, &mixed).unwrap();

    let report = audit(&file, &["--minimality"], dir.path());
    let m = &report["shape"]["minimality"];

    let rows = dir.path().join("minimized.csv");
    ok(&["minimize", text(&file), "-o", text(&rows), "-q"]);
    let mut reader = csv::Reader::from_path(&rows).unwrap();
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (line, puzzle, status, minimal_col) =
        (at("line"), at("puzzle"), at("status"), at("minimal"));
    let (mut checked, mut kept, mut first_not) = (0u64, 0u64, Vec::new());
    for row in reader.records() {
        let row = row.unwrap();
        if &row[status] != "unique" {
            continue;
        }
        checked += 1;
        if row[minimal_col] == row[puzzle] {
            kept += 1;
        } else if first_not.len() < 10 {
            first_not.push(row[line].parse::<u64>().unwrap());
        }
    }
    assert_eq!(m["checked"], checked);
    assert_eq!(m["minimal"], kept);
    assert_eq!(kept, 60, "the minimal.txt records");
    assert_eq!(m["undecided"], 0);
    let first: Vec<u64> = m["first_not_minimal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(first, first_not);

    let page = dir.path().join("page.html");
    ok(&[
        "audit",
        text(&file),
        "--minimality",
        "-q",
        "-o",
        text(&page),
    ]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("Minimal: 60 of 120 unique records (50.0%)"),
        "{html}"
    );
    // Off by default.
    let plain = audit(&file, &[], dir.path());
    assert!(plain["shape"]["minimality"].is_null());
}

/// `merge` of the audit reports of a file's shards: counts, reasons and histograms
/// equal the whole file's audit, leaked records too; duplicates are not known (the
/// verdict is never sound, and says why); shards audited differently are refused.
#[test]
fn shard_reports_merge_where_the_numbers_allow() {
    let dir = tempfile::tempdir().unwrap();
    let hard = std::fs::read_to_string(common::data("hard.txt")).unwrap();
    let lines: Vec<&str> = hard.lines().collect();
    let cases = std::fs::read_to_string(common::data("multiple.txt")).unwrap();
    // The whole: hard.txt, a few records with two solutions and two malformed ones.
    let mut whole: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    whole.extend(cases.lines().take(7).map(String::from));
    whole.push("12x".into());
    whole.push("1".repeat(81));
    let write = |name: &str, lines: &[String]| {
        let path = dir.path().join(name);
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        path
    };
    let all = write("all.txt", &whole);
    let against = write("against.txt", &whole[100..140]);
    let cut = [0, 170, 333, whole.len()];
    let mut shard_reports = Vec::new();
    for i in 0..3 {
        let shard = write(&format!("s{i}.txt"), &whole[cut[i]..cut[i + 1]]);
        let json = dir.path().join(format!("s{i}.json"));
        let status = run(&[
            "audit",
            text(&shard),
            "--against",
            text(&against),
            "--minimality",
            "-q",
            "--json",
            text(&json),
        ])
        .status;
        assert!(status.code() == Some(0) || status.code() == Some(1));
        shard_reports.push(json);
    }
    let whole_report = audit(
        &all,
        &["--against", text(&against), "--minimality"],
        dir.path(),
    );
    let merged_path = dir.path().join("merged.json");
    let mut args = vec!["merge", "-q", "-o", text(&merged_path)];
    args.extend(shard_reports.iter().map(|p| text(p)));
    merge(&args);
    let merged = json(&merged_path);
    let v = &merged["validity"];
    let w = &whole_report["validity"];
    for key in ["records", "counts", "mismatches", "with_solution"] {
        assert_eq!(v[key], w[key], "{key}");
    }
    let reasons = |r: &Value| -> Vec<(String, u64)> {
        let mut all: Vec<(String, u64)> = r["invalid_reasons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                (
                    g["what"].as_str().unwrap().to_string(),
                    g["count"].as_u64().unwrap(),
                )
            })
            .collect();
        all.sort();
        all
    };
    assert_eq!(reasons(v), reasons(w));
    for key in ["givens", "guesses", "automorphisms"] {
        assert_eq!(merged["shape"][key], whole_report["shape"][key], "{key}");
    }
    for key in ["checked", "minimal", "undecided"] {
        assert_eq!(
            merged["shape"]["minimality"][key], whole_report["shape"]["minimality"][key],
            "{key}"
        );
    }
    assert_eq!(
        merged["leakage"][0]["records"],
        whole_report["leakage"][0]["records"]
    );
    assert_eq!(merged["leakage"][0]["records"], 40);
    assert_eq!(merged["verdict"]["sound"], false);
    let problems = merged["verdict"]["problems"].to_string();
    assert!(problems.contains("duplicates not known"), "{problems}");
    assert_eq!(merged["merged"]["shards"], 3);
    assert!(merged["merged"]["not_merged"][0]
        .as_str()
        .unwrap()
        .starts_with("duplicates"));
    assert!(whole_report.get("merged").is_none());
    // The page says so too.
    let page = dir.path().join("merged.html");
    let mut args = vec!["merge", "-q", "-o", text(&page)];
    args.extend(shard_reports.iter().map(|p| text(p)));
    merge(&args);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("Merged from 3 shard reports: not known"));
    // A shard audited otherwise is refused, naming it.
    let graded = dir.path().join("graded.json");
    let s0 = dir.path().join("s0.txt");
    let _ = run(&["audit", text(&s0), "--grade", "-q", "--json", text(&graded)]);
    let out = merge_output(&["merge", text(&shard_reports[1]), text(&graded)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("audited alike"), "{err}");
}
