//! `--plot` charts: valid SVG (parsed as XML) holding the series and marks they promise.

mod common;

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
}

/// The texts and the number of drawn lines (polylines) of an SVG file.
fn svg_contents(path: &std::path::Path) -> (Vec<String>, usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the chart is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(|t| t.trim().to_string()))
        .collect();
    let lines = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .count();
    (texts, lines)
}

#[test]
fn run_plot_marks_the_percentiles() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("latency.svg");
    let status = bin()
        .args(["classify", common::data("minimal.txt").to_str().unwrap()])
        .args(["-q", "-o", "/dev/null", "--plot"])
        .arg(&svg)
        .status()
        .unwrap();
    assert!(status.success());
    let (texts, lines) = svg_contents(&svg);
    for mark in ["p50 ", "p99 ", "p99.9 ", "max "] {
        assert!(
            texts.iter().any(|t| t.starts_with(mark)),
            "{mark} in {texts:?}"
        );
    }
    assert!(texts.iter().any(|t| t == "classify"), "legend");
    assert!(texts.iter().any(|t| t == "99%"), "percentile axis");
    assert!(lines >= 2, "the latency line and the legend's");
}

#[test]
fn bench_plot_has_scaling_and_one_latency_line_per_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("bench.svg");
    let status = bin()
        .args(["bench", common::data("extreme.txt").to_str().unwrap()])
        .args([
            "--threads",
            "1,2",
            "--rounds",
            "2",
            "--warmup",
            "0",
            "--plot",
        ])
        .arg(&svg)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let (texts, lines) = svg_contents(&svg);
    for label in [
        "ideal (linear)",
        "measured (mean; bars: min … max)",
        "1 thread",
        "2 threads",
        "threads",
    ] {
        assert!(texts.iter().any(|t| t == label), "{label} in {texts:?}");
    }
    // Ideal, measured, two latency lines, and their four legend samples.
    assert!(lines >= 8, "{lines} lines");
}
