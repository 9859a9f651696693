//! The dancing-links engine against the band solver on every bundled file: the same
//! status for every record and the same solution for every unique one (for `multiple`
//! records the engines may find different first solutions; each must be valid).

mod common;

use sudoku_batch::engines::dlx::Dlx;
use sudoku_batch::values::geometry::Variant;
use sudoku_batch::{Bitboards, Engine, Grid};

fn classify(file: &str, engine: &str) -> Vec<csv::StringRecord> {
    let out = common::stdout_of(&["classify", file, "--quiet", "--engine", engine]);
    csv::Reader::from_reader(&out[..])
        .records()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn dlx_agrees_with_the_band_solver_on_every_bundled_file() {
    for &name in common::UNIQUE_DATASETS.iter().chain(&["cases.tsv"]) {
        let path = common::data(name);
        let fast = classify(path.to_str().unwrap(), "fast");
        let dlx = classify(path.to_str().unwrap(), "dlx");
        assert_eq!(fast.len(), dlx.len(), "{name}");
        for (f, d) in fast.iter().zip(&dlx) {
            assert_eq!((&f[0], &f[3], &f[4]), (&d[0], &d[3], &d[4]), "{name}");
            if &f[3] == "unique" {
                assert_eq!(&f[2], &d[2], "{name} line {}", &f[0]);
            }
            if &d[3] == "multiple" {
                let p = Grid::parse(d[1].as_bytes()).unwrap();
                let s = Grid::parse(d[2].as_bytes()).unwrap();
                assert!(s.is_valid_solution() && s.keeps_givens_of(&p));
            }
        }
    }
}

#[test]
fn dlx_counts_match_on_puzzles_with_many_solutions() {
    let mut dlx = Dlx::new(Variant::Classic);
    let mut fast = Bitboards::new(Variant::Classic);
    for r in common::load("cases.tsv") {
        for limit in [1, 2, 10, 1000] {
            assert_eq!(
                Engine::count(&mut *dlx, &r.puzzle, limit).solutions,
                Engine::count(&mut *fast, &r.puzzle, limit).solutions,
                "line {} limit {limit}",
                r.line
            );
        }
    }
}

/// `classify --cross-check` on every bundled file, with either engine first: exit 0, the
/// rows of plain `classify` with that engine plus `engines` = `agree` (empty for
/// malformed records, which no engine sees), and the report says 0 disagreements.
#[test]
fn cross_check_agrees_everywhere_and_keeps_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    for &name in common::UNIQUE_DATASETS.iter().chain(&["cases.tsv"]) {
        let path = common::data(name);
        let path = path.to_str().unwrap();
        for (engine, big) in [("fast", true), ("dlx", false)] {
            if !big && name.starts_with("kaggle") {
                continue; // dlx first on 15,000 easy records adds nothing but time
            }
            let plain = common::stdout_of(&["classify", path, "-q", "--engine", engine]);
            let checked = common::stdout_of(&[
                "classify",
                path,
                "-q",
                "--engine",
                engine,
                "--cross-check",
                "--report",
                report.to_str().unwrap(),
            ]);
            let plain = String::from_utf8(plain).unwrap();
            let checked = String::from_utf8(checked).unwrap();
            assert_eq!(plain.lines().count(), checked.lines().count(), "{name}");
            for (p, c) in plain.lines().zip(checked.lines()).skip(1) {
                let expected = if p.contains(",invalid,") && !p.contains("given twice") {
                    format!("{p},")
                } else {
                    format!("{p},agree")
                };
                assert_eq!(c, expected, "{name} {engine}");
            }
            let report: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
            assert_eq!(report["disagree"], 0, "{name}");
        }
    }
}

/// `classify --cross-check` on every bundled variant set: the variant engine checked by
/// dancing links, and the other way round; every board `agree`, exit 0.
#[test]
fn cross_check_covers_variant_boards() {
    for (file, rules) in [
        ("variants/solo-4x4.txt", "classic"),
        ("variants/solo-diagonal-9x9-advanced.txt", "diagonal"),
        ("variants/wpf-gp-diagonal.txt", "diagonal"),
        ("variants/solo-16x16.txt", "classic"),
        ("variants/solo-diagonal-16x16.txt", "diagonal"),
        ("variants/solo-25x25.txt", "classic"),
    ] {
        let path = common::data(file);
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        for engine in ["fast", "dlx"] {
            let out = common::stdout_of(&[
                "classify",
                path.to_str().unwrap(),
                "-q",
                "--variant",
                rules,
                "--engine",
                engine,
                "--cross-check",
            ]);
            let out = String::from_utf8(out).unwrap();
            assert_eq!(out.lines().count(), lines + 1, "{file}");
            assert!(
                out.lines()
                    .skip(1)
                    .all(|l| l.ends_with(",unique,,,agree") || l.ends_with(",unique,,false,agree")),
                "{file} {engine}: {out}"
            );
        }
    }
}
