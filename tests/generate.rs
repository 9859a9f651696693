//! `generate` through the binary: unique (classifier, and the independent reference
//! counter on a sample), minimal, symmetric, at most K givens, graded to the level asked,
//! identical across thread counts, and clean failures.

mod common;

use std::process::{Command, Output};

use sudoku_batch::engines::explainer::Rater;
use sudoku_batch::jobs::Graded;
use sudoku_batch::values::level::Level;
use sudoku_batch::{Grid, Solver};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
}

fn generate(args: &[&str]) -> Vec<u8> {
    common::stdout_of(&[&["generate"], args, &["--quiet"]].concat())
}

struct Made {
    line: u64,
    puzzle: Grid,
    solution: Grid,
    givens: usize,
    difficulty: String,
    rating: String,
}

fn made(csv_bytes: &[u8]) -> Vec<Made> {
    let mut reader = csv::Reader::from_reader(csv_bytes);
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        [
            "line",
            "puzzle",
            "solution",
            "status",
            "reason",
            "mismatch",
            "givens",
            "difficulty",
            "rating"
        ]
    );
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            assert_eq!((&r[3], &r[4], &r[5]), ("unique", "", ""));
            Made {
                line: r[0].parse().unwrap(),
                puzzle: Grid::parse(r[1].as_bytes()).unwrap(),
                solution: Grid::parse(r[2].as_bytes()).unwrap(),
                givens: r[6].parse().unwrap(),
                difficulty: r[7].to_string(),
                rating: r[8].to_string(),
            }
        })
        .collect()
}

/// `grade`'s difficulty and rating of a unique puzzle.
fn grades(rater: &mut Rater, puzzle: &Grid) -> (String, String) {
    let g = Graded::of_grid(rater, puzzle);
    let er = g.se.unwrap().er;
    let level = g.level().unwrap().name().to_string();
    (level, format!("{}.{}", er / 10, er % 10))
}

/// Unique with that solution (by the engine), graded as `grade` grades it where graded
/// (else not), numbered in order.
fn check_rows(rows: &[Made], count: u64) {
    let mut solver = Solver::new();
    let mut rater = Rater::new();
    assert_eq!(rows.len() as u64, count);
    for (i, m) in rows.iter().enumerate() {
        assert_eq!(m.line, i as u64 + 1);
        assert_eq!(m.givens, m.puzzle.given_count());
        assert!(m.solution.is_valid_solution() && m.solution.keeps_givens_of(&m.puzzle));
        let c = solver.count(&m.puzzle, 2);
        assert_eq!(
            (c.solutions, c.first),
            (1, Some(m.solution)),
            "line {}",
            m.line
        );
        if m.difficulty.is_empty() {
            assert!(m.rating.is_empty(), "line {}", m.line);
        } else {
            let graded = (m.difficulty.clone(), m.rating.clone());
            assert_eq!(graded, grades(&mut rater, &m.puzzle), "line {}", m.line);
        }
    }
}

/// The cells that must be given together with `cell` under a pattern.
fn images(pattern: &str, cell: usize) -> Vec<usize> {
    let (r, c) = (cell / 9, cell % 9);
    let at = |r: usize, c: usize| r * 9 + c;
    match pattern {
        "rot180" => vec![at(8 - r, 8 - c)],
        "rot90" => vec![at(c, 8 - r), at(8 - r, 8 - c), at(8 - c, r)],
        "mirror" => vec![at(r, 8 - c)],
        "diagonal" => vec![at(c, r)],
        _ => vec![],
    }
}

#[test]
fn minimal_puzzles_are_unique_and_minimal() {
    let rows = made(&generate(&["--count", "200", "--seed", "5"]));
    check_rows(&rows, 200);
    // Grading is asked for: without --grade the two columns stay empty.
    assert!(rows.iter().all(|m| m.difficulty.is_empty()));
    let mut solver = Solver::new();
    for m in &rows {
        for cell in (0..81).filter(|&c| m.puzzle.get(c) != 0) {
            let mut fewer = m.puzzle;
            fewer.set(cell, 0);
            assert_eq!(solver.count(&fewer, 2).solutions, 2, "line {}", m.line);
        }
    }
    // The independent reference counter agrees on a sample.
    for m in rows.iter().step_by(20) {
        assert_eq!(common::reference_count(&m.puzzle, 2), 1, "line {}", m.line);
    }
}

#[test]
fn symmetric_puzzles_keep_their_pattern_and_are_minimal_for_it() {
    let mut solver = Solver::new();
    for pattern in ["rot180", "rot90", "mirror", "diagonal"] {
        let rows = made(&generate(&[
            "--count",
            "40",
            "--symmetry",
            pattern,
            "--grade",
        ]));
        check_rows(&rows, 40);
        assert!(rows.iter().all(|m| !m.difficulty.is_empty()));
        for m in &rows {
            for cell in 0..81 {
                let given = m.puzzle.get(cell) != 0;
                for image in images(pattern, cell) {
                    assert_eq!(given, m.puzzle.get(image) != 0, "{pattern} line {}", m.line);
                }
                if given {
                    let mut fewer = m.puzzle;
                    fewer.set(cell, 0);
                    for image in images(pattern, cell) {
                        fewer.set(image, 0);
                    }
                    assert_eq!(solver.count(&fewer, 2).solutions, 2, "{pattern}");
                }
            }
        }
    }
}

#[test]
fn givens_target_is_an_upper_bound() {
    for k in [22u8, 30, 45] {
        let rows = made(&generate(&["--count", "50", "--givens", &k.to_string()]));
        check_rows(&rows, 50);
        assert!(rows.iter().all(|m| m.givens <= k as usize), "K = {k}");
        if k >= 30 {
            assert!(
                rows.iter().all(|m| m.givens == k as usize),
                "exactly K = {k}"
            );
        }
    }
}

#[test]
fn output_is_the_same_for_every_thread_count_and_seeded() {
    let args = |threads: &str, seed: &str| {
        generate(&["--count", "300", "--seed", seed, "--threads", threads])
    };
    let one = args("1", "9");
    assert_eq!(one, args("2", "9"));
    assert_eq!(one, args("3", "9"));
    assert_ne!(one, args("2", "10"));
}

#[test]
fn difficulty_filter_keeps_that_level() {
    for level in ["easy", "hard", "expert"] {
        let rows = made(&generate(&["--count", "15", "--difficulty", level]));
        check_rows(&rows, 15);
        assert!(rows.iter().all(|m| m.difficulty == level));
        assert!(Level::parse(level).is_some());
    }
    // A list keeps any of its levels, and both turn up in 30 puzzles.
    let rows = made(&generate(&["--count", "30", "--difficulty", "easy,expert"]));
    check_rows(&rows, 30);
    assert!(rows
        .iter()
        .all(|m| m.difficulty == "easy" || m.difficulty == "expert"));
    assert!(rows.iter().any(|m| m.difficulty == "easy"));
    assert!(rows.iter().any(|m| m.difficulty == "expert"));
}

#[test]
fn lines_format_writes_puzzle_and_solution() {
    let csv = made(&generate(&["--count", "30", "--seed", "4"]));
    let text = String::from_utf8(generate(&[
        "--count", "30", "--seed", "4", "--format", "lines",
    ]))
    .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 30);
    for (line, m) in lines.iter().zip(&csv) {
        assert_eq!(*line, format!("{} {}", m.puzzle, m.solution));
    }
}

fn fails(args: &[&str]) -> Output {
    let out = bin().arg("generate").args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty());
    out
}

#[test]
fn bad_options_are_one_line_errors() {
    for args in [
        &["--count", "0"][..],
        &["--count", "5", "--givens", "19"],
        &["--count", "5", "--givens", "82"],
        &["--count", "5", "--givens", "30", "--minimal"],
        &["--count", "5", "--symmetry", "spiral"],
        &["--count", "5", "--difficulty", "impossible"],
        &["--count", "x"],
    ] {
        let err = String::from_utf8_lossy(&fails(args).stderr).into_owned();
        let first = err.lines().next().unwrap_or_default();
        assert!(first.contains("error: "), "{args:?}: {err}");
    }
}

#[test]
fn interrupted_generation_leaves_no_file() {
    // Ctrl-C, `timeout`/systemd/Slurm, a closed terminal: each removes the temporary
    // file and exits as the shell reports the signal.
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("made.csv");
        let child = bin()
            .args([
                "generate",
                "--count",
                "100000000",
                "--threads",
                "1",
                "-q",
                "-o",
            ])
            .arg(&out)
            .spawn()
            .unwrap();
        // Wait until the temporary file holds rows.
        let started = std::time::Instant::now();
        while std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(Result::ok)
            .all(|e| e.metadata().map_or(true, |m| m.len() == 0))
        {
            assert!(started.elapsed().as_secs() < 20, "no output after 20 s");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let killed = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        assert_eq!(
            child.wait_with_output().unwrap().status.code(),
            Some(code),
            "SIG{signal}"
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "SIG{signal}"
        );
    }
}

/// Variant boards: every size and rule set, unique by the independent reference counter
/// (up to 16x16; 25x25 by the engine's classifier), the solution valid and keeping the
/// givens, the same whatever the thread count, `--givens` reached.
/// `--engine dlx` makes puzzles through the same interface: unique (by the band
/// solver and the reference counter), minimal, the same on every thread count, and
/// boards as well as grids.
#[test]
fn dancing_links_make_unique_minimal_puzzles_too() {
    let run = |threads: &str| {
        generate(&[
            "--count",
            "60",
            "--seed",
            "11",
            "--engine",
            "dlx",
            "--threads",
            threads,
        ])
    };
    let out = run("2");
    assert_eq!(out, run("1"), "thread count changed the output");
    assert_ne!(
        out,
        generate(&["--count", "60", "--seed", "11"]),
        "each engine follows its own search order"
    );
    let rows = made(&out);
    check_rows(&rows, 60);
    let mut solver = Solver::new();
    for m in &rows {
        assert_eq!(common::reference_count(&m.puzzle, 2), 1, "line {}", m.line);
        for cell in (0..81).filter(|&c| m.puzzle.get(c) != 0) {
            let mut fewer = m.puzzle;
            fewer.set(cell, 0);
            assert_eq!(solver.count(&fewer, 2).solutions, 2, "line {}", m.line);
        }
    }
    let boards = generate(&[
        "--count",
        "20",
        "--size",
        "4",
        "--variant",
        "diagonal",
        "--engine",
        "dlx",
    ]);
    let units = common::reference_units(4, true, false);
    let mut reader = csv::Reader::from_reader(&boards[..]);
    let mut n = 0;
    for record in reader.records() {
        let r = record.unwrap();
        let puzzle = common::board_values(&r[1]);
        assert_eq!(&r[3], "unique");
        assert_eq!(common::reference_count_board(&puzzle, 4, &units, 2), 1);
        n += 1;
    }
    assert_eq!(n, 20);
}

#[test]
fn variant_boards_are_unique_and_valid() {
    use common::{board_values, reference_count_board, reference_units};
    for (args, side, diagonal, windoku, count) in [
        (&["--size", "4"][..], 4, false, false, "50"),
        (
            &["--variant", "diagonal", "--symmetry", "rot180"],
            9,
            true,
            false,
            "30",
        ),
        (&["--variant", "windoku"], 9, false, true, "30"),
        (&["--size", "16", "--givens", "160"], 16, false, false, "5"),
        (
            &["--size", "16", "--variant", "diagonal"],
            16,
            true,
            false,
            "3",
        ),
        (&["--size", "25"], 25, false, false, "1"),
    ] {
        let run = |threads: &str| {
            generate(
                &[
                    args,
                    &["--count", count, "--seed", "7", "--threads", threads],
                ]
                .concat(),
            )
        };
        let out = run("2");
        assert_eq!(out, run("1"), "{args:?}: thread count changed the output");
        let units = reference_units(side, diagonal, windoku);
        let mut reader = csv::Reader::from_reader(&out[..]);
        let mut n = 0;
        for record in reader.records() {
            let r = record.unwrap();
            n += 1;
            assert_eq!(
                (&r[3], &r[4], &r[5], &r[7]),
                ("unique", "", "", ""),
                "{args:?}"
            );
            let (puzzle, solution) = (board_values(&r[1]), board_values(&r[2]));
            assert_eq!(puzzle.len(), side * side);
            let givens = puzzle.iter().filter(|&&v| v != 0).count();
            assert_eq!(r[6].parse::<usize>().unwrap(), givens);
            assert!(puzzle
                .iter()
                .zip(&solution)
                .all(|(&p, &s)| p == 0 || p == s));
            let full: u64 = (1u64 << (side + 1)) - 2;
            for unit in &units {
                assert_eq!(unit.iter().fold(0u64, |m, &c| m | 1 << solution[c]), full);
            }
            if side <= 16 {
                assert_eq!(
                    reference_count_board(&puzzle, side, &units, 2),
                    1,
                    "{args:?}"
                );
            }
            if args.contains(&"--givens") {
                assert!(givens <= 160);
            }
            if args.contains(&"rot180") {
                let last = side * side - 1;
                assert!((0..=last).all(|c| (puzzle[c] == 0) == (puzzle[last - c] == 0)));
            }
        }
        assert_eq!(n, count.parse::<usize>().unwrap());
        // classify agrees that every made board is unique.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("made.csv");
        std::fs::write(&file, &out).unwrap();
        let variant = if diagonal {
            "diagonal"
        } else if windoku {
            "windoku"
        } else {
            "classic"
        };
        let classified = common::stdout_of(&[
            "classify",
            file.to_str().unwrap(),
            "-q",
            "--variant",
            variant,
            "--cross-check",
        ]);
        let classified = String::from_utf8(classified).unwrap();
        assert!(classified
            .lines()
            .skip(1)
            .all(|l| l.ends_with(",unique,,,agree") || l.ends_with(",unique,,false,agree")));
    }
}

#[test]
fn variant_board_options_fail_cleanly() {
    for args in [
        &["--count", "2", "--size", "16", "--difficulty", "hard"][..],
        &["--count", "2", "--size", "4", "--grade"],
        &["--count", "2", "--size", "4", "--givens", "17"],
        &["--count", "2", "--size", "12"],
        &["--count", "2", "--size", "16", "--variant", "windoku"],
        &["--count", "2", "--size", "16", "--symbols", "0123456789"],
    ] {
        let err = String::from_utf8_lossy(&fails(args).stderr).into_owned();
        let first = err.lines().next().unwrap_or_default();
        assert!(first.contains("error: "), "{args:?}: {err}");
    }
    // Too few givens to reach: a clean failure naming the record, not a hang.
    let out = bin()
        .args([
            "generate", "--count", "1", "--size", "4", "--givens", "1", "-q",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("record 1: no puzzle after 100 attempts"));
}

#[test]
fn variant_boards_in_custom_symbols_and_lines() {
    let out = generate(&[
        "--count",
        "3",
        "--size",
        "16",
        "--symbols",
        "0123456789abcdef",
        "--format",
        "lines",
    ]);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 3);
    for line in text.lines() {
        let (puzzle, solution) = line.split_once(' ').unwrap();
        assert_eq!(puzzle.len(), 256);
        // Written in the alphabet as given; `0` is a symbol there, `.` the empty cell.
        assert!(solution.bytes().all(|b| b"0123456789abcdef".contains(&b)));
        assert!(puzzle
            .bytes()
            .all(|b| b == b'.' || b"0123456789abcdef".contains(&b)));
        assert!(puzzle.contains('0') || solution.contains('0'));
    }
}

#[test]
fn unreachable_targets_fail_with_a_message_instead_of_running_forever() {
    for args in [
        &["--givens", "20", "--symmetry", "rot90"][..],
        &["--givens", "21", "--symmetry", "mirror"][..],
    ] {
        let started = std::time::Instant::now();
        let out = bin()
            .args([
                "generate",
                "--count",
                "1",
                "--threads",
                "2",
                "-q",
                "-o",
                "/dev/null",
            ])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(
            message.contains("no puzzle") && message.contains("givens"),
            "{message}"
        );
        assert!(
            started.elapsed().as_secs() < 60,
            "{args:?} took {:?}",
            started.elapsed()
        );
    }
}
