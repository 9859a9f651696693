//! Records the commit the tool is built from, for `audit`'s provenance: `git describe`
//! of the checkout (with `-dirty` when it has changes), or `unknown` where there is no
//! git or no checkout (a crate tarball).

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["describe", "--always", "--dirty", "--abbrev=12"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SUDOKU_BATCH_COMMIT={commit}");
    // Rerun when HEAD moves (a commit, a checkout), not on every source edit.
    println!("cargo:rerun-if-changed=.git/HEAD");
    if let Ok(head) = std::fs::read_to_string(".git/HEAD") {
        if let Some(reference) = head.trim().strip_prefix("ref: ") {
            println!("cargo:rerun-if-changed=.git/{reference}");
        }
    }
}
