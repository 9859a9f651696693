//! The sets the benches time: the public ones of `../shared/data` where that folder is
//! beside the checkout (the sets the README's figures name), else the bundled sets the
//! tool made that stand in for them (`data/README.md`), said on stderr.

use std::path::PathBuf;

/// The file for a public set, or its bundled stand-in where the public one is absent;
/// with the name to report it by.
pub fn set(public: &str, bundled: &str) -> (String, PathBuf) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = std::env::var_os("SUDOKU_BATCH_SHARED_DATA")
        .map_or_else(|| root.join("../shared/data"), PathBuf::from)
        .join(public);
    if shared.is_file() {
        (public.to_string(), shared)
    } else {
        eprintln!(
            "{public}: not beside the checkout (../shared/data); timing data/{bundled} instead"
        );
        (bundled.to_string(), root.join("data").join(bundled))
    }
}
