//! Variant boards (4x4 to 25x25, diagonal, windoku) through the real binary and the
//! library, checked against an independent reference counter and published solutions.

mod common;

use std::process::Command;

use common::{board_values as values, reference_count_board, reference_units};
use sudoku_batch::engines::dlx::BoardDlx;
use sudoku_batch::engines::variant::VariantSolver;
use sudoku_batch::values::board::Board;
use sudoku_batch::values::geometry::Variant;

/// (file, side, rules) of the bundled variant sets.
const SETS: &[(&str, usize, &str)] = &[
    ("variants/solo-4x4.txt", 4, "classic"),
    ("variants/solo-diagonal-9x9.txt", 9, "diagonal"),
    ("variants/solo-diagonal-9x9-advanced.txt", 9, "diagonal"),
    ("variants/wpf-gp-diagonal.txt", 9, "diagonal"),
    ("variants/solo-16x16.txt", 16, "classic"),
    ("variants/solo-diagonal-16x16.txt", 16, "diagonal"),
    ("variants/solo-25x25.txt", 25, "classic"),
];

fn rows_of(out: &[u8]) -> Vec<csv::StringRecord> {
    csv::Reader::from_reader(out)
        .records()
        .map(Result::unwrap)
        .collect()
}

/// True when `solution` fills every unit with 1..=side and keeps the givens.
fn solves(puzzle: &[u8], solution: &[u8], side: usize, units: &[Vec<usize>]) -> bool {
    let full: u64 = (1u64 << (side + 1)) - 2;
    solution.len() == side * side
        && puzzle.iter().zip(solution).all(|(&p, &s)| p == 0 || p == s)
        && units
            .iter()
            .all(|u| u.iter().fold(0u64, |m, &c| m | 1 << solution[c]) == full)
}

#[test]
fn every_bundled_variant_puzzle_is_unique_and_solved_correctly() {
    for &(file, side, rules) in SETS {
        let path = common::data(file);
        let out =
            common::stdout_of(&["classify", path.to_str().unwrap(), "--variant", rules, "-q"]);
        let rows = rows_of(&out);
        let units = reference_units(side, rules == "diagonal", false);
        let lines = std::fs::read_to_string(&path).unwrap();
        assert_eq!(rows.len(), lines.lines().count(), "{file}");
        for (row, line) in rows.iter().zip(lines.lines()) {
            assert_eq!(&row[3], "unique", "{file} line {}", &row[0]);
            let puzzle = values(&row[1]);
            let solution = values(&row[2]);
            assert_eq!(row[1].len(), side * side);
            assert!(
                solves(&puzzle, &solution, side, &units),
                "{file} line {}",
                &row[0]
            );
            let given = line.split_whitespace().nth(1).is_some();
            let want = if given { "false" } else { "" };
            assert_eq!(&row[5], want, "mismatch on {file} line {}", &row[0]);
            // The input's own solution, where it gives one, is the one found.
            if let Some(published) = line.split_whitespace().nth(1) {
                assert_eq!(&row[2], published);
            }
            // The independent counter agrees that it is unique.
            assert_eq!(reference_count_board(&puzzle, side, &units, 2), 1, "{file}");
        }
        // Dancing links writes the same rows.
        let dlx = common::stdout_of(&[
            "classify",
            path.to_str().unwrap(),
            "--variant",
            rules,
            "-q",
            "--engine",
            "dlx",
        ]);
        assert_eq!(
            String::from_utf8(dlx).unwrap(),
            String::from_utf8(out).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn classic_9x9_through_the_variant_engine_gives_the_band_solvers_rows() {
    // `--symbols 123456789` forces every record through the variant engine.
    for name in ["hard.txt", "graded.csv", "cases.tsv"] {
        let path = common::data(name);
        let path = path.to_str().unwrap();
        let band = common::stdout_of(&["classify", path, "-q"]);
        let masks = common::stdout_of(&["classify", path, "-q", "--symbols", "123456789"]);
        let (band, masks) = (rows_of(&band), rows_of(&masks));
        assert_eq!(band.len(), masks.len());
        for (b, m) in band.iter().zip(&masks) {
            assert_eq!((&b[0], &b[3]), (&m[0], &m[3]), "{name}");
            if &b[3] == "unique" {
                assert_eq!(&b[2], &m[2], "{name} line {}", &b[0]);
            }
        }
    }
}

#[test]
fn counts_match_the_reference_on_boards_with_cells_removed() {
    // Property test on real data: bundled puzzles with givens removed at random (a fifth
    // of them up to 9x9, three on 16x16, where the reference would take minutes on boards
    // with many solutions; 25x25 boards are left to the uniqueness test above for the
    // same reason), so often with several solutions, counted to 3 by the engine and by
    // the reference.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut checked = 0;
    for &(file, side, rules) in &SETS[..6] {
        let variant = Variant::parse(rules).unwrap();
        let units = reference_units(side, rules == "diagonal", false);
        let mut engine = VariantSolver::new(variant);
        let mut dlx = BoardDlx::new(variant);
        let text = std::fs::read_to_string(common::data(file)).unwrap();
        for line in text.lines().take(40) {
            let puzzle = line.split_whitespace().next().unwrap();
            let mut board = Board::parse(puzzle.as_bytes(), None, None).unwrap();
            if side <= 9 {
                for cell in 0..side * side {
                    if board.get(cell) != 0 && next() % 5 == 0 {
                        board.set(cell, 0);
                    }
                }
            } else {
                for _ in 0..3 {
                    board.set(next() as usize % (side * side), 0);
                }
            }
            let ours = engine.count(&board, 3).unwrap().unwrap();
            let reference = reference_count_board(board.values(), side, &units, 3);
            assert_eq!(ours.solutions, reference, "{file}: {:?}", board);
            let links = dlx.count(&board, 3).unwrap().unwrap();
            assert_eq!(links.solutions, reference, "dlx on {file}: {:?}", board);
            for first in [ours.first, links.first].into_iter().flatten() {
                assert!(solves(board.values(), first.values(), side, &units));
            }
            checked += 1;
        }
    }
    assert!(checked >= 200);
}

#[test]
fn the_empty_4x4_grid_has_exactly_288_solutions() {
    let units = reference_units(4, false, false);
    assert_eq!(reference_count_board(&[0; 16], 4, &units, 10_000), 288);
    let mut engine = VariantSolver::new(Variant::Classic);
    let count = engine.count(&Board::empty(4), 10_000).unwrap().unwrap();
    assert_eq!(count.solutions, 288);
    let mut dlx = BoardDlx::new(Variant::Classic);
    let count = dlx.count(&Board::empty(4), 10_000).unwrap().unwrap();
    assert_eq!(count.solutions, 288);
    // Windoku on an empty 9x9: the reference and the engine agree on a count cap.
    let windows = reference_units(9, false, true);
    let mut windoku = VariantSolver::new(Variant::Windoku);
    let board = Board::parse(
        b"1........2........3........4........5........6........7........8........9........",
        None,
        None,
    )
    .unwrap();
    let ours = windoku.count(&board, 50).unwrap().unwrap();
    assert_eq!(
        ours.solutions,
        reference_count_board(board.values(), 9, &windows, 50)
    );
    let links = BoardDlx::new(Variant::Windoku).count(&board, 50).unwrap();
    assert_eq!(links.unwrap().solutions, ours.solutions);
    assert!(solves(
        board.values(),
        ours.first.unwrap().values(),
        9,
        &windows
    ));
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_boards_are_invalid_rows_with_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.txt");
    let sixteen = std::fs::read_to_string(common::data("variants/solo-16x16.txt")).unwrap();
    let first = sixteen.lines().next().unwrap();
    let mut clash16 = first.as_bytes().to_vec();
    // Two of the same symbol in row 1 of the 16x16 puzzle.
    let (a, b) = (
        clash16.iter().position(|&c| c != b'.').unwrap(),
        clash16[..16].iter().rposition(|&c| c == b'.').unwrap(),
    );
    clash16[b] = clash16[a];
    let mut diag = vec![b'.'; 81];
    diag[0] = b'5';
    diag[80] = b'5';
    let lines = [
        "1234......".to_string(),            // fits no size
        format!("H{}", &first[1..]),         // outside 1-9, A-G
        String::from_utf8(clash16).unwrap(), // clash in a row
        String::from_utf8(diag).unwrap(),    // clash on the diagonal
        first.to_ascii_lowercase(),          // lowercase: fine
    ];
    std::fs::write(&file, lines.join("\n")).unwrap();
    let (code, out, _) = run(&[
        "classify",
        file.to_str().unwrap(),
        "--variant",
        "diagonal",
        "-q",
    ]);
    assert_eq!(code, Some(0));
    let rows = rows_of(out.as_bytes());
    let reasons: Vec<&str> = rows.iter().map(|r| &r[4]).collect();
    assert_eq!(
        reasons[0],
        "10 cells fit no size: 16 (4x4), 81 (9x9), 256 (16x16) or 625 (25x25)"
    );
    assert_eq!(reasons[1], "'H' at column 1 is not a symbol of 16x16");
    assert!(
        reasons[2].ends_with("given twice in row 1"),
        "{}",
        reasons[2]
    );
    assert_eq!(reasons[3], "5 given twice in the main diagonal");
    // Under the classic rules the lowercase copy of a 16x16 puzzle reads as the puzzle.
    let (_, out, _) = run(&["classify", file.to_str().unwrap(), "-q"]);
    let classic = rows_of(out.as_bytes());
    assert_eq!((&classic[4][1], &classic[4][3]), (first, "unique"));
    assert_eq!(&classic[3][3], "multiple", "no diagonal rule, no clash");
    // --size 16 on a 9x9 file: every record invalid, naming the sizes.
    let (code, out, _) = run(&[
        "classify",
        common::data("extreme.txt").to_str().unwrap(),
        "--size",
        "16",
        "-q",
    ]);
    assert_eq!(code, Some(0));
    let rows = rows_of(out.as_bytes());
    assert_eq!(rows.len(), 100);
    assert!(rows
        .iter()
        .all(|r| &r[3] == "invalid" && &r[4] == "81 cells, but size 16 needs 256"));
    // A window clash.
    let mut window = vec![b'.'; 81];
    window[10] = b'4';
    window[30] = b'4';
    std::fs::write(&file, &window).unwrap();
    let (_, out, _) = run(&[
        "classify",
        file.to_str().unwrap(),
        "--variant",
        "windoku",
        "-q",
    ]);
    assert_eq!(&rows_of(out.as_bytes())[0][4], "4 given twice in window 1");
}

#[test]
fn bad_options_exit_2_with_one_line() {
    let file = common::data("variants/solo-4x4.txt");
    let file = file.to_str().unwrap();
    for args in [
        vec!["classify", file, "--size", "12"],
        vec!["classify", file, "--variant", "killer"],
        vec!["classify", file, "--size", "16", "--variant", "windoku"],
        vec!["classify", file, "--symbols", "1234567"],
        vec!["classify", file, "--symbols", "ABCD", "--size", "9"],
        vec!["minimize", file, "--size", "4"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        let first = err.lines().find(|l| l.contains("error")).unwrap_or("");
        assert!(!first.is_empty(), "{args:?}: {err}");
    }
}

/// `grade` on variant boards: the classify rows (same first six columns, same solutions)
/// plus a difficulty, a rating and the techniques used; the 4x4 set falls to singles
/// (easy), boards beyond the listed techniques are `extreme` with a `guess` step.
#[test]
fn grade_rates_variant_boards() {
    for &(file, _, rules) in SETS {
        let path = common::data(file);
        let path = path.to_str().unwrap();
        let classified = common::stdout_of(&["classify", path, "--variant", rules, "-q"]);
        let graded = common::stdout_of(&["grade", path, "--variant", rules, "-q"]);
        let (classified, graded) = (rows_of(&classified), rows_of(&graded));
        assert_eq!(classified.len(), graded.len(), "{file}");
        for (c, g) in classified.iter().zip(&graded) {
            assert_eq!(
                c.iter().take(6).collect::<Vec<_>>(),
                g.iter().take(6).collect::<Vec<_>>()
            );
            let level = &g[6];
            assert!(
                ["easy", "medium", "hard", "expert", "extreme"].contains(&level),
                "{file}: {level:?}"
            );
            let rating: f64 = g[7].parse().unwrap();
            assert!(rating >= 1.2, "{file}");
            assert_eq!(level == "extreme", g[11].contains("guess=1"), "{file}");
            if file.ends_with("4x4.txt") {
                assert_eq!(level, "easy", "{file}");
            }
        }
    }
}

#[test]
fn custom_symbols_read_and_write_the_same_alphabet() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hex.txt");
    // The 16x16 set in 0-F instead of 1-9A-G.
    let sixteen = std::fs::read_to_string(common::data("variants/solo-16x16.txt")).unwrap();
    let hex: String = sixteen
        .lines()
        .take(20)
        .map(|l| {
            l.bytes()
                .map(|b| match values(&(b as char).to_string())[0] {
                    0 => '.',
                    v => b"0123456789ABCDEF"[usize::from(v - 1)] as char,
                })
                .collect::<String>()
                + "\n"
        })
        .collect();
    std::fs::write(&file, &hex).unwrap();
    let (code, out, err) = run(&[
        "solve",
        file.to_str().unwrap(),
        "--symbols",
        "0123456789ABCDEF",
        "-q",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let rows = rows_of(out.as_bytes());
    for (row, line) in rows.iter().zip(hex.lines()) {
        assert_eq!(&row[1], line);
        assert_eq!(&row[3], "solved");
        assert!(row[2].bytes().all(|b| b"0123456789ABCDEF".contains(&b)));
    }
}

#[test]
fn bench_times_variant_boards_on_the_variant_engine() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("bench.json");
    for (file, extra) in [
        ("variants/solo-16x16.txt", vec![]),
        (
            "variants/solo-diagonal-9x9.txt",
            vec!["--variant", "diagonal"],
        ),
    ] {
        let path = common::data(file);
        let mut args = vec![
            "bench",
            path.to_str().unwrap(),
            "--threads",
            "1",
            "--rounds",
            "1",
            "--warmup",
            "0",
            "--json",
            json.to_str().unwrap(),
        ];
        args.extend(extra);
        let (code, _, err) = run(&args);
        assert_eq!(code, Some(0), "{err}");
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let lines = std::fs::read_to_string(&path).unwrap().lines().count() as u64;
        assert_eq!(report["timed"], lines, "{file}");
        assert_eq!(report["invalid"], 0, "{file}");
        assert!(
            report["results"][0]["puzzles_per_sec"]["median"]
                .as_f64()
                .unwrap()
                > 0.0
        );
    }
}
