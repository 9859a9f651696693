//! Pins the bytes of `solve` and `classify` output on every bundled file (`data/`) and
//! every public one (`../shared/data`, its `reference-sets/` included): a change to the
//! pipeline, the jobs or the row formats that alters a single byte of any row fails here.
//!
//! `tests/golden/outputs.tsv` holds, per command and file (`data/NAME` or `shared/NAME`),
//! the row count and an FNV-1a hash of the whole output. The public files' pins were
//! written from the code before the pipeline was split into jobs, engines and row
//! formats (those of `reference-sets/` at `e6d3789`), the bundled files' when they were
//! made. Regenerate (`GOLDEN_UPDATE=1`, with `../shared` present) only for a deliberate
//! change of output, and say so in the commit. Where `../shared` is absent, the public
//! files' pins are skipped with a note.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const GOLDEN: &str = "tests/golden/outputs.tsv";

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Every file below `root` but READMEs and the public folder's `expected/`, as paths
/// relative to it, sorted.
fn files_under(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "expected") {
                    walk(&path, root, out);
                }
            } else if path.file_name().is_some_and(|n| n != "README.md") {
                let rel = path.strip_prefix(root).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

/// The files to pin: `data/NAME` for each bundled file, then `shared/NAME` for each
/// public one where `../shared/data` is present.
fn pinned_files() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = files_under(&common::data(""))
        .into_iter()
        .map(|f| (format!("data/{f}"), common::data(&f)))
        .collect();
    let shared = common::shared_data();
    if shared.is_dir() {
        out.extend(
            files_under(&shared)
                .into_iter()
                .map(|f| (format!("shared/{f}"), shared.join(&f))),
        );
    }
    out
}

/// `command<TAB>file<TAB>rows<TAB>hash` for the current binary, one line per pair.
fn current(files: &[(String, PathBuf)], threads: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for command in ["solve", "classify"] {
        for (name, path) in files {
            let out = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
                .args([command, path.to_str().unwrap(), "--quiet"])
                .args(["--threads", threads])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{command} {name}: exit {}",
                out.status
            );
            let rows = out.stdout.iter().filter(|&&b| b == b'\n').count();
            let hash = fnv1a(&out.stdout);
            lines.push(format!("{command}\t{name}\t{rows}\t{hash:016x}"));
        }
    }
    lines
}

#[test]
fn outputs_are_byte_identical_to_the_pinned_ones() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    let files = pinned_files();
    let now = current(&files, "2");
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        assert!(
            common::shared_data().is_dir(),
            "GOLDEN_UPDATE needs ../shared/data, whose files are pinned too"
        );
        std::fs::write(&golden, now.join("\n") + "\n").unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(&golden).unwrap();
    let mut want: Vec<&str> = pinned.lines().collect();
    if !common::shared_data().is_dir() {
        let public = want.iter().filter(|l| l.contains("\tshared/")).count();
        common::skipped(&format!(
            "tests/golden.rs: the pins of {public} outputs of public files (../shared/data is absent)"
        ));
        want.retain(|l| !l.contains("\tshared/"));
    }
    for (want, got) in want.iter().zip(&now) {
        assert_eq!(got, want, "output changed (command, file, rows, hash)");
    }
    assert_eq!(now.len(), want.len(), "files added or removed");
    // Thread count never changes a byte.
    assert_eq!(current(&files, "1"), now);
}
