//! Every example command in `sudoku-batch --help` and in the README runs, from a
//! checkout's root, as a user would type it: exit status 0 (or 1 where the example is
//! `--require-unique` on a file with non-unique records), never an error.

use std::path::Path;
use std::process::Command;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_sudoku-batch")
}

/// The example lines of `--help`.
fn help_examples() -> Vec<String> {
    let out = Command::new(bin()).arg("--help").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let examples = text.split("Examples:").nth(1).expect("--help has examples");
    // The exit codes follow the examples.
    let examples = examples.split("Exit status:").next().unwrap_or(examples);
    examples
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// Commands in the README's code blocks (syntax summaries with `[options]` excepted, and
/// `serve`, which runs until stopped: `tests/serve.rs` covers it).
fn readme_examples() -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let mut out = Vec::new();
    let mut in_code = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let line = line.trim_start_matches("$ ").trim();
        let runs = line.starts_with("sudoku-batch ")
            || line.starts_with("cargo run --release -- ")
            || line.starts_with("target/release/sudoku-batch ");
        let serves = line.contains("sudoku-batch serve");
        if in_code && runs && !serves && !line.contains('[') && !line.contains("target/corpus") {
            out.push(line.replace("cargo run --release --", "sudoku-batch"));
        }
    }
    out
}

#[test]
fn every_documented_example_runs() {
    let help = help_examples();
    let readme = readme_examples();
    assert!(help.len() >= 6 && readme.len() >= 8, "{help:?} {readme:?}");
    let dir = tempfile::tempdir().unwrap();
    let tools = dir.path().join("bin");
    std::fs::create_dir(&tools).unwrap();
    std::os::unix::fs::symlink(bin(), tools.join("sudoku-batch")).unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir_all(work.join("target/release")).unwrap();
    std::os::unix::fs::symlink(bin(), work.join("target/release/sudoku-batch")).unwrap();
    std::os::unix::fs::symlink(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
        work.join("data"),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        tools.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for example in help.iter().chain(&readme) {
        let out = Command::new("sh")
            .args(["-c", example])
            .current_dir(&work)
            .env("PATH", &path)
            // An example never touches the real home folder.
            .env("HOME", dir.path())
            .output()
            .unwrap();
        let code = out.status.code();
        let allowed = if example.contains("--require-unique") && example.contains("cases.tsv") {
            Some(1)
        } else {
            Some(0)
        };
        assert_eq!(
            code,
            allowed,
            "{example}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
