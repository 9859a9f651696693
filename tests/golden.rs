//! Pins the bytes of `solve` and `classify` output on every bundled file: a change to the
//! pipeline, the jobs or the row formats that alters a single byte of any row fails here.
//!
//! `tests/golden/outputs.tsv` holds, per command and file, the row count and an FNV-1a
//! hash of the whole output. It was written by this test (`GOLDEN_UPDATE=1`) from the
//! code before the pipeline was split into jobs, engines and row formats; regenerate it
//! only for a deliberate change of output, and say so in the commit.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const GOLDEN: &str = "tests/golden/outputs.tsv";

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Every bundled data file (the README excepted), as paths relative to `data/`, sorted.
fn bundled_files() -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.file_name().is_some_and(|n| n != "README.md") {
                let rel = path.strip_prefix(root).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let root = common::data("");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out.sort();
    out
}

/// `command<TAB>file<TAB>rows<TAB>hash` for the current binary, one line per pair.
fn current(threads: &str) -> String {
    let mut text = String::new();
    for command in ["solve", "classify"] {
        for file in bundled_files() {
            let path: PathBuf = common::data(&file);
            let out = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
                .args([command, path.to_str().unwrap(), "--quiet"])
                .args(["--threads", threads])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{command} {file}: exit {}",
                out.status
            );
            let rows = out.stdout.iter().filter(|&&b| b == b'\n').count();
            let hash = fnv1a(&out.stdout);
            text.push_str(&format!("{command}\t{file}\t{rows}\t{hash:016x}\n"));
        }
    }
    text
}

#[test]
fn outputs_are_byte_identical_to_the_pinned_ones() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    let now = current("2");
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        std::fs::write(&golden, &now).unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(&golden).unwrap();
    for (want, got) in pinned.lines().zip(now.lines()) {
        assert_eq!(got, want, "output changed (command, file, rows, hash)");
    }
    assert_eq!(
        now.lines().count(),
        pinned.lines().count(),
        "files added or removed"
    );
    // Thread count never changes a byte.
    assert_eq!(current("1"), now);
}
