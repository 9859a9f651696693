//! Parquet input: files written by pyarrow (`data/parquet/`, see `data/README.md`) give
//! the rows their source text files give, a row per Parquet row with `line` its row
//! number; string, list-of-integer and fixed-size binary puzzle columns; snappy, zstd
//! and gzip; malformed rows and unreadable files as the other inputs treat them.

mod common;

use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .args(["--threads", "2"])
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn parquet(name: &str) -> String {
    common::data("parquet")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// The rows of a CSV output after its header: (line, puzzle, solution, status, reason,
/// mismatch).
fn rows(out: &[u8]) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .from_reader(out)
        .records()
        .map(|r| r.unwrap().iter().take(6).map(str::to_string).collect())
        .collect()
}

fn classify(path: &str) -> Vec<Vec<String>> {
    let out = run(&["classify", path, "-q"]);
    assert!(
        out.status.success(),
        "{path}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    rows(&out.stdout)
}

/// Rows of `text` (one record a line) classified, renumbered from 1 as Parquet rows are.
fn classify_text(dir: &tempfile::TempDir, text: &str) -> Vec<Vec<String>> {
    let path = dir.path().join("source.txt");
    std::fs::write(&path, text).unwrap();
    let mut rows = classify(path.to_str().unwrap());
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = (i + 1).to_string();
    }
    rows
}

#[test]
fn string_columns_give_the_rows_of_their_source() {
    let dir = tempfile::tempdir().unwrap();
    let source = std::fs::read_to_string(common::data("graded.csv")).unwrap();
    let text: String = source
        .lines()
        .skip(1)
        .take(2000)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            format!("{} {}\n", f[0], f[1])
        })
        .collect();
    let want = classify_text(&dir, &text);
    let path = parquet("graded-first2000.snappy.parquet");
    assert_eq!(classify(&path), want);
    let out = run(&["classify", &path, "-o", "/dev/null"]);
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains("(Parquet): 2000 records in"), "{summary}");
    assert!(
        summary.contains(
            "read as Parquet: puzzles in \"puzzle\", solutions in \"solution\", 2000 rows in 4 row groups"
        ),
        "{summary}"
    );
    // Told by its bytes, not its name.
    let renamed = dir.path().join("puzzles.txt");
    std::fs::copy(&path, &renamed).unwrap();
    assert_eq!(classify(renamed.to_str().unwrap()), want);
    // `record` numbers rows from 0.
    let out = run(&["classify", &path, "-q", "--record-index"]);
    let numbered = csv::ReaderBuilder::new()
        .from_reader(&out.stdout[..])
        .records()
        .map(|r| r.unwrap()[6].parse::<usize>().unwrap())
        .collect::<Vec<_>>();
    assert_eq!(numbered, (0..2000).collect::<Vec<_>>());
}

#[test]
fn list_and_binary_columns_and_malformed_rows() {
    let dir = tempfile::tempdir().unwrap();
    // The file's rows 10, 20 and 30 (from 0) are a null, an empty list and 80 cells.
    let source = std::fs::read_to_string(common::data("quizzes.csv")).unwrap();
    let text: String = source
        .lines()
        .skip(1)
        .take(1000)
        .enumerate()
        .map(|(i, l)| {
            let (quiz, solution) = l.split_once(',').unwrap();
            match i {
                10 | 20 => "null\n".to_string(),
                30 => format!("{}\n", &quiz[..80]),
                _ => format!("{quiz} {solution}\n"),
            }
        })
        .collect();
    let mut want = classify_text(&dir, &text);
    // A null value and an empty list are no puzzle, said so (the text `null` is not).
    for i in [10, 20] {
        want[i][1] = String::new();
        want[i][4] = "null value: no puzzle".to_string();
    }
    let got = classify(&parquet("quizzes-first1000-lists.zstd.parquet"));
    assert_eq!(got, want);
    let invalid: Vec<&str> = got
        .iter()
        .filter(|r| r[3] == "invalid")
        .map(|r| r[0].as_str())
        .collect();
    assert_eq!(invalid, ["11", "21", "31"]);
    // 81-byte binary, no solution column.
    let source = std::fs::read_to_string(common::data("minimal.txt")).unwrap();
    let text: String = source
        .split_whitespace()
        .filter(|t| t.len() == 81)
        .take(500)
        .map(|t| format!("{t}\n"))
        .collect();
    let want = classify_text(&dir, &text);
    assert_eq!(
        classify(&parquet("minimal-first500-binary.gzip.parquet")),
        want
    );
}

#[test]
fn unreadable_files_and_unusable_columns_fail_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = parquet("graded-first2000.snappy.parquet");
    let bytes = std::fs::read(&path).unwrap();
    let truncated = dir.path().join("truncated.parquet");
    std::fs::write(&truncated, &bytes[..100_000]).unwrap();
    let mut corrupt = bytes[..150_000].to_vec();
    corrupt.extend_from_slice(&bytes[bytes.len() - 60_000..]);
    let corrupt_path = dir.path().join("corrupt.parquet");
    std::fs::write(&corrupt_path, &corrupt).unwrap();
    let out_path = dir.path().join("rows.csv");
    let out = out_path.to_str().unwrap();
    for (args, says) in [
        (
            vec!["classify", truncated.to_str().unwrap()],
            "truncated.parquet: not a readable Parquet file",
        ),
        (
            vec!["classify", corrupt_path.to_str().unwrap()],
            "corrupt.parquet: Parquet row group",
        ),
        (
            vec!["classify", &path, "--column", "nope"],
            "--column nope: no such column; the file has: puzzle, solution, clues, rating",
        ),
        (
            vec!["classify", &path, "--column", "clues"],
            "column \"clues\" holds numbers",
        ),
        (
            vec!["classify", &path, "--keep-columns"],
            "a Parquet file's other columns are not read",
        ),
    ] {
        let mut all = args.clone();
        all.extend(["-o", out]);
        let result = run(&all);
        assert_eq!(result.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!out_path.exists(), "{args:?} left an output file");
    }
    // On stdin there is no footer to seek to.
    let result = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(["classify", "-"])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&result.stderr).contains("a Parquet file is read from a file"));
}

/// `lines` (`puzzle solution` or `puzzle`) written as a Parquet file of row groups of
/// `group` rows and data pages of `page` rows, snappy, with an optional solution column
/// (null where a line has none) when a line has a solution.
fn write_pages(path: &std::path::Path, lines: &[&str], group: usize, page: usize) {
    let solved = lines.iter().any(|l| l.contains(' '));
    use parquet::basic::Compression;
    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;
    let schema = parse_message_type(if solved {
        "message m { required binary puzzle (UTF8); optional binary solution (UTF8); }"
    } else {
        "message m { required binary puzzle (UTF8); }"
    })
    .unwrap();
    let properties = WriterProperties::builder()
        .set_data_page_row_count_limit(page)
        .set_write_batch_size(page.min(64))
        .set_dictionary_enabled(false)
        .set_compression(Compression::SNAPPY)
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut writer =
        SerializedFileWriter::new(file, Arc::new(schema), Arc::new(properties)).unwrap();
    for rows in lines.chunks(group) {
        let mut row_group = writer.next_row_group().unwrap();
        let puzzles: Vec<ByteArray> = rows
            .iter()
            .map(|l| ByteArray::from(l.split(' ').next().unwrap()))
            .collect();
        let mut column = row_group.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&puzzles, None, None)
            .unwrap();
        column.close().unwrap();
        if !solved {
            row_group.close().unwrap();
            continue;
        }
        let solutions: Vec<ByteArray> = rows
            .iter()
            .filter_map(|l| l.split(' ').nth(1))
            .map(ByteArray::from)
            .collect();
        let defs: Vec<i16> = rows.iter().map(|l| i16::from(l.contains(' '))).collect();
        let mut column = row_group.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&solutions, Some(&defs), None)
            .unwrap();
        column.close().unwrap();
        row_group.close().unwrap();
    }
    writer.close().unwrap();
}

#[test]
fn row_groups_and_pages_are_shared_out_and_give_the_rows_in_order() {
    let dir = tempfile::tempdir().unwrap();
    // Puzzles with their solutions (the easy set's lines) and puzzles without (the
    // minimal ones, repeated),
    // and puzzles alone, each with a malformed row, enough for several pieces of many
    // pages in one row group (8,192 rows a piece at least, 32,768 with solutions).
    let solved = std::fs::read_to_string(common::data("pairs-easy.txt")).unwrap();
    let minimal = std::fs::read_to_string(common::data("minimal.txt")).unwrap();
    let mut mixed: Vec<&str> = solved.lines().cycle().take(2_000).collect();
    mixed.extend(minimal.lines().cycle().take(40_000));
    mixed.insert(700, "12x");
    let mut alone: Vec<&str> = minimal.lines().cycle().take(20_000).collect();
    alone.insert(9000, "12x");
    for (lines, name) in [(mixed, "mixed"), (alone, "alone")] {
        let text = lines.join("\n") + "\n";
        let want = classify_text(&dir, &text);
        assert_eq!(want.len(), lines.len());
        // One row group of many pages; many row groups of a few pages; one page a group.
        for (group, page) in [(lines.len(), 500), (4096, 1000), (300, 300)] {
            let path = dir.path().join(format!("{name}-{group}-{page}.parquet"));
            write_pages(&path, &lines, group, page);
            let path = path.to_str().unwrap();
            let got = classify(path);
            assert_eq!(got.len(), want.len(), "{name} {group}/{page}");
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g, w, "{name} {group}/{page}");
            }
            // Shards by row group: in order, together the whole, each row once.
            let mut joined = String::new();
            let groups = lines.len().div_ceil(group);
            for index in 1..=3 {
                let shard = format!("{index}/3");
                let out = run(&["classify", path, "-q", "--shard", &shard, "--no-header"]);
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let part = String::from_utf8(out.stdout).unwrap();
                // Whole row groups each: shard 1 of a one-group file holds none.
                let first_group = groups * (index - 1) / 3;
                let first = part
                    .lines()
                    .next()
                    .map(|l| l.split(',').next().unwrap().to_string());
                if groups * index / 3 > first_group {
                    assert_eq!(
                        first,
                        Some((first_group * group + 1).to_string()),
                        "{shard}"
                    );
                } else {
                    assert_eq!(first, None, "{shard}");
                }
                joined.push_str(&part);
            }
            let header = "line,puzzle,solution,status,reason,mismatch\n";
            assert_eq!(
                rows((header.to_string() + &joined).as_bytes()),
                want,
                "{name} {group}/{page}"
            );
        }
    }
}

/// A footer whose row count disagrees with the pages fails the run naming the file and
/// the row group, as pyarrow does, instead of dropping or repeating rows. The files are
/// the tool's own Parquet output (100 rows) with the footer's row counts rewritten in
/// place (Thrift compact: field 3, an i64, zigzag varint), so nothing else moves.
#[test]
fn footer_row_counts_that_disagree_with_the_pages_fail_the_run() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.parquet");
    let input = common::data("extreme.txt");
    let args = [
        "solve",
        input.to_str().unwrap(),
        "-q",
        "-o",
        good.to_str().unwrap(),
    ];
    assert!(run(&args).status.success());
    let bytes = std::fs::read(&good).unwrap();
    let footer_len =
        u32::from_le_bytes(bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap());
    let footer_start = bytes.len() - 8 - footer_len as usize;
    let zigzag = |n: u8| -> [u8; 3] { [0x16, (n * 2) | 0x80, 0x01] };
    for declared in [90u8, 120] {
        let mut patched = bytes.clone();
        let footer = &mut patched[footer_start..bytes.len() - 8];
        let (from, to) = (zigzag(100 - 64), zigzag(declared - 64));
        let mut replaced = 0;
        for i in 0..footer.len() - 2 {
            if footer[i..i + 3] == from {
                footer[i..i + 3].copy_from_slice(&to);
                replaced += 1;
            }
        }
        assert!(replaced >= 1, "no row count found in the footer");
        let path = dir.path().join(format!("declares-{declared}.parquet"));
        std::fs::write(&path, &patched).unwrap();
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        assert_eq!(
            reader.metadata().row_group(0).num_rows(),
            i64::from(declared),
            "the patch changed the row group's count"
        );
        let out = run(&["classify", path.to_str().unwrap(), "-q"]);
        assert_eq!(out.status.code(), Some(2), "declares {declared}");
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(
            message.contains(path.to_str().unwrap()) && message.contains("row group 1"),
            "{message}"
        );
        assert_eq!(message.lines().count(), 1, "{message}");
    }
}

/// `values` (strings) written as one row group in one data page, snappy.
fn one_page(path: &std::path::Path, values: &[Vec<u8>]) {
    use parquet::basic::Compression;
    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;
    let schema = parse_message_type("message m { required binary puzzle (UTF8); }").unwrap();
    let properties = WriterProperties::builder()
        .set_data_page_size_limit(1 << 30)
        .set_data_page_row_count_limit(1 << 30)
        .set_dictionary_enabled(false)
        .set_compression(Compression::SNAPPY)
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut writer =
        SerializedFileWriter::new(file, Arc::new(schema), Arc::new(properties)).unwrap();
    let mut row_group = writer.next_row_group().unwrap();
    let values: Vec<ByteArray> = values.iter().map(|v| ByteArray::from(v.clone())).collect();
    let mut column = row_group.next_column().unwrap().unwrap();
    column
        .typed::<ByteArrayType>()
        .write_batch(&values, None, None)
        .unwrap();
    column.close().unwrap();
    row_group.close().unwrap();
    writer.close().unwrap();
}

/// The Parquet library allocates a page's declared size before decompressing it, so a
/// page declaring more than 16 MiB (or twice `--max-record-bytes`) fails the run, one
/// line naming the file, the row group, the column and the page, before anything is
/// decoded: a small file whose header claims 100 MB, and a real 20 MiB page (read when
/// `--max-record-bytes` allows it, a row each).
#[test]
fn pages_declaring_more_than_a_page_may_hold_fail_the_run() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let dir = tempfile::tempdir().unwrap();
    // 1,500 values of 1,000 bytes: a page of 1,506,000 bytes, whose size is a
    // four-byte varint (zigzag) that a claim of 100,000,000 also takes.
    let path = dir.path().join("claims.parquet");
    one_page(&path, &vec![vec![b'1'; 1000]; 1500]);
    let offset = {
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        reader.metadata().row_group(0).column(0).data_page_offset() as usize
    };
    let varint = |n: u64| -> Vec<u8> {
        let mut z = n * 2;
        let mut out = Vec::new();
        while z >= 0x80 {
            out.push((z as u8) | 0x80);
            z >>= 7;
        }
        out.push(z as u8);
        out
    };
    let mut bytes = std::fs::read(&path).unwrap();
    // The header: field 1 (type, 0), then field 2 (uncompressed size).
    assert_eq!(bytes[offset..offset + 3], [0x15, 0x00, 0x15]);
    let real = varint(1_506_000);
    assert_eq!(bytes[offset + 3..offset + 7], real[..]);
    bytes[offset + 3..offset + 7].copy_from_slice(&varint(100_000_000));
    std::fs::write(&path, &bytes).unwrap();
    let out = run(&["classify", path.to_str().unwrap(), "-q"]);
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(
        message.contains(path.to_str().unwrap())
            && message.contains("row group 1: column \"puzzle\": page 1 declares 100000000 bytes"),
        "{message}"
    );
    assert_eq!(message.lines().count(), 1, "{message}");

    // A real page of 20 MiB: refused by default, read with a limit of 16 MiB a record.
    let path = dir.path().join("big-page.parquet");
    one_page(&path, &vec![vec![b'2'; 1 << 20]; 20]);
    let out = run(&["classify", path.to_str().unwrap(), "-q"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("over the 16 MiB a page may hold"));
    let out = run(&[
        "classify",
        path.to_str().unwrap(),
        "-q",
        "--max-record-bytes",
        "16777216",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = rows(&out.stdout);
    assert_eq!(rows.len(), 20);
    assert!(rows.iter().all(|r| r[3] == "invalid"));
}

/// A null or empty puzzle is an `invalid` row that says so, numbered in its place with
/// `--record-index` (rows handed on apart from their batch keep their record numbers);
/// a null solution is no solution (no mismatch).
#[test]
fn null_and_empty_values_are_rows_that_say_so() {
    use parquet::basic::Compression;
    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nulls.parquet");
    let text = std::fs::read_to_string(common::data("pairs-easy.txt")).unwrap();
    let (puzzle, solution) = text.lines().next().unwrap().split_once(' ').unwrap();
    let schema = parse_message_type(
        "message m { optional binary puzzle (UTF8); optional binary solution (UTF8); }",
    )
    .unwrap();
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build();
    let mut writer = SerializedFileWriter::new(
        std::fs::File::create(&path).unwrap(),
        Arc::new(schema),
        Arc::new(properties),
    )
    .unwrap();
    let mut group = writer.next_row_group().unwrap();
    // Rows: puzzle+solution, null, "", "null" (a text), puzzle with a null solution.
    let puzzles: Vec<ByteArray> = [puzzle, "", "null", puzzle]
        .iter()
        .map(|&p| ByteArray::from(p))
        .collect();
    let mut column = group.next_column().unwrap().unwrap();
    column
        .typed::<ByteArrayType>()
        .write_batch(&puzzles, Some(&[1, 0, 1, 1, 1]), None)
        .unwrap();
    column.close().unwrap();
    let mut column = group.next_column().unwrap().unwrap();
    column
        .typed::<ByteArrayType>()
        .write_batch(&[ByteArray::from(solution)], Some(&[1, 0, 0, 0, 0]), None)
        .unwrap();
    column.close().unwrap();
    group.close().unwrap();
    writer.close().unwrap();
    let out = run(&["classify", path.to_str().unwrap(), "-q", "--record-index"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Vec<String>> = csv::ReaderBuilder::new()
        .from_reader(&out.stdout[..])
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    let seen: Vec<[&str; 5]> = rows
        .iter()
        .map(|r| [&r[0], &r[3], &r[4], &r[5], &r[6]].map(String::as_str))
        .collect();
    assert_eq!(
        seen,
        [
            ["1", "unique", "", "false", "0"],
            ["2", "invalid", "null value: no puzzle", "", "1"],
            ["3", "invalid", "empty value: no puzzle", "", "2"],
            ["4", "invalid", "bad byte 'n' at column 1", "", "3"],
            ["5", "unique", "", "", "4"],
        ]
    );
}
