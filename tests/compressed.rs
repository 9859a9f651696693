//! Compressed inputs as users hold them: told by their first bytes, streamed through
//! the record pipeline in bounded memory, the same rows as the plain file, and a clear
//! error for a truncated or corrupt one.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn sudoku_batch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .output()
        .unwrap()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn zstd(data: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(data, 3).unwrap()
}

fn xz(data: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn zip_of(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in members {
        w.start_file(*name, options).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

struct Files {
    dir: tempfile::TempDir,
}

impl Files {
    fn new() -> Files {
        Files {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn write(&self, name: &str, data: &[u8]) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, data).unwrap();
        path
    }
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn every_format_gives_the_plain_files_rows() {
    let plain = std::fs::read(common::data("graded.csv")).unwrap();
    let files = Files::new();
    let expected = common::stdout_of(&["classify", s(&common::data("graded.csv")), "-q"]);
    // Two gzip members, as `cat a.gz b.gz` and BGZF make.
    let half = &plain[..plain.len() / 2];
    let cut = half.iter().rposition(|&x| x == b'\n').unwrap() + 1;
    let (a, b) = plain.split_at(cut);
    let mut members = gzip(a);
    members.extend(gzip(b));
    let inputs = [
        ("k.csv.gz", gzip(&plain)),
        ("two-members.gz", members),
        ("k.csv.zst", zstd(&plain)),
        ("k.csv.xz", xz(&plain)),
        ("k.zip", zip_of(&[("k.csv", &plain)])),
        // Told by content, not by name.
        ("gzip-named.txt", gzip(&plain)),
    ];
    for (name, data) in &inputs {
        let path = files.write(name, data);
        let out = sudoku_batch(&["classify", s(&path)]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout == expected,
            "{name}: rows differ from the plain file's"
        );
        let summary = String::from_utf8_lossy(&out.stderr);
        assert!(summary.contains("2000 records in"), "{name}: {summary}");
    }
    // A plain file with a compressed name is read as plain.
    let path = files.write("plain-named.gz", &plain);
    assert!(common::stdout_of(&["classify", s(&path), "-q"]) == expected);
    // Through stdin.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(["classify", "-", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let gz = gzip(&plain);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&gz).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success());
    assert!(out.stdout == expected, "stdin gzip rows differ");
    // The dataset commands read them too.
    let path = files.write("dupes.gz", &gzip(&plain));
    let out = sudoku_batch(&["dedupe", s(&path), "-q"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn zip_archives_with_several_files_need_member() {
    let plain = std::fs::read(common::data("extreme.txt")).unwrap();
    let easy = std::fs::read(common::data("easy-50.txt")).unwrap();
    let files = Files::new();
    let path = files.write(
        "two.zip",
        &zip_of(&[("top95.txt", &plain), ("easy50.txt", &easy)]),
    );
    let out = sudoku_batch(&["classify", s(&path)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--member") && err.contains("easy50.txt"),
        "{err}"
    );
    let out = sudoku_batch(&["classify", s(&path), "--member", "easy50.txt", "-q"]);
    assert!(out.status.success());
    let expected = common::stdout_of(&["classify", s(&common::data("easy-50.txt")), "-q"]);
    assert!(out.stdout == expected);
    let out = sudoku_batch(&["classify", s(&path), "--member", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no member \"nope\""));
    // Every command that reads a file takes --member: show, bench and overlap (one a
    // side) read the member as they read the file itself.
    let easy_path = common::data("easy-50.txt");
    let easy_file = s(&easy_path);
    let from_zip = sudoku_batch(&["show", s(&path), "--member", "easy50.txt", "--line", "3"]);
    assert!(
        from_zip.status.success(),
        "{}",
        String::from_utf8_lossy(&from_zip.stderr)
    );
    assert!(from_zip.stdout == common::stdout_of(&["show", easy_file, "--line", "3"]));
    let bench = sudoku_batch(&[
        "bench",
        s(&path),
        "--member",
        "easy50.txt",
        "--rounds",
        "1",
        "--warmup",
        "0",
        "--threads",
        "1",
        "--markdown",
        "-q",
    ]);
    assert!(
        bench.status.success(),
        "{}",
        String::from_utf8_lossy(&bench.stderr)
    );
    assert!(String::from_utf8_lossy(&bench.stdout).contains("| 50 |"));
    let rows = |train_member: &str| {
        sudoku_batch(&[
            "overlap",
            s(&path),
            s(&path),
            "--train-member",
            train_member,
            "--test-member",
            "easy50.txt",
            "-q",
        ])
    };
    let same = rows("easy50.txt");
    assert!(
        same.status.success(),
        "{}",
        String::from_utf8_lossy(&same.stderr)
    );
    assert!(same.stdout == common::stdout_of(&["overlap", easy_file, easy_file, "-q"]));
    let other = rows("top95.txt");
    assert!(other.stdout != same.stdout);

    // Two entries under one name: refused, whichever is asked for.
    let mut twice = zip_of(&[("a.txt", &easy), ("b.txt", &plain)]);
    for at in 0..twice.len() - 5 {
        if &twice[at..at + 5] == b"b.txt" {
            twice[at..at + 5].copy_from_slice(b"a.txt");
        }
    }
    let path = files.write("twice.zip", &twice);
    for member in [None, Some("a.txt")] {
        let mut args = vec!["classify", s(&path)];
        args.extend(member.map(|m| ["--member", m]).into_iter().flatten());
        let out = sudoku_batch(&args);
        assert_eq!(out.status.code(), Some(2), "{member:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("2 entries under 1 name"), "{err}");
    }
}

#[test]
fn truncated_and_corrupt_inputs_fail_naming_the_file_and_commit_nothing() {
    let plain = std::fs::read(common::data("quizzes.csv")).unwrap();
    let files = Files::new();
    let mut cases = Vec::new();
    for (name, data) in [
        ("cut.gz", gzip(&plain)),
        ("cut.zst", zstd(&plain)),
        ("cut.xz", xz(&plain)),
    ] {
        cases.push((name, data[..data.len() / 2].to_vec(), "truncated"));
    }
    let mut corrupt = gzip(&plain);
    let middle = corrupt.len() / 2;
    corrupt[middle..middle + 64].fill(0x55);
    cases.push(("corrupt.gz", corrupt, "gzip data"));
    let mut zip = zip_of(&[("k.csv", &plain)]);
    let end = zip.len();
    zip[end - 22..].fill(0);
    cases.push(("corrupt.zip", zip, "zip"));
    for (name, data, says) in cases {
        let path = files.write(name, &data);
        let out_path = files.dir.path().join(format!("{name}.out"));
        let out = sudoku_batch(&["classify", s(&path), "-o", s(&out_path)]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(name) && err.contains(says), "{name}: {err}");
        assert!(!out_path.exists(), "{name}: an output was committed");
    }
    // --shard cannot split a compressed stream.
    let path = files.write("whole.gz", &gzip(&plain));
    let out = sudoku_batch(&["classify", s(&path), "--shard", "1/2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is gzip, read as a stream"));
}

/// Peak resident memory of a finished child, from /proc while it ran (Linux).
fn peak_kib(mut child: std::process::Child) -> (std::process::ExitStatus, Option<u64>) {
    let mut peak = None;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status, peak);
        }
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()));
        if let Some(kib) = status.ok().and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        }) {
            peak = Some(kib);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// `dedupe`, `overlap` and `split` read a compressed input a chunk at a time (`split`
/// twice): 60 MB of text in a small zstd file stays far under its size in memory, and
/// the rows, kept records and sides are those of the same text read from a plain file
/// (and from stdin). A line longer than a stream's records may be fails naming it, in
/// bounded memory.
#[test]
fn dataset_commands_stream_compressed_input_in_bounded_memory() {
    let files = Files::new();
    let one = std::fs::read(common::data("hard.txt")).unwrap();
    let plain: Vec<u8> = one.repeat(60_000_000 / one.len());
    let plain_path = files.write("big.txt", &plain);
    let zst = files.write("big.txt.zst", &zstd::encode_all(&plain[..], 3).unwrap());
    let run_peak = |args: &[&str]| {
        let (ok, peak, message) = run_peak_from(args, None);
        assert!(ok, "{args:?}: {message}");
        Some(peak)
    };
    let out = |name: &str| files.dir.path().join(name);
    for (input, tag) in [(&plain_path, "plain"), (&zst, "zst")] {
        let kept = out(&format!("{tag}.kept"));
        let rows = out(&format!("{tag}.rows"));
        let peak = run_peak(&[
            "dedupe",
            s(input),
            "-q",
            "--by",
            "text",
            "-o",
            s(&kept),
            "--rows",
            s(&rows),
            "--record-index",
        ]);
        let leaks = out(&format!("{tag}.leaks"));
        let overlap_peak = run_peak(&[
            "overlap",
            s(&zst),
            s(input),
            "-q",
            "--by",
            "text",
            "-o",
            s(&leaks),
        ]);
        let (train, test) = (out(&format!("{tag}.train")), out(&format!("{tag}.test")));
        let split_peak = run_peak(&[
            "split",
            s(input),
            "-q",
            "--by",
            "text",
            "--test",
            "0.2",
            "--train-out",
            s(&train),
            "--test-out",
            s(&test),
        ]);
        if tag == "zst" {
            let peaks = [
                ("dedupe", peak),
                ("overlap", overlap_peak),
                ("split", split_peak),
            ];
            for (what, peak) in peaks {
                let kib = peak.expect("the run was seen in /proc");
                eprintln!("{what}: peak {kib} KiB for 60 MB of zstd-compressed text");
                assert!(kib < 40 << 10, "{what}: {kib} KiB for 60 MB of text");
            }
        }
    }
    for suffix in ["kept", "rows", "leaks", "train", "test"] {
        assert_eq!(
            std::fs::read(out(&format!("plain.{suffix}"))).unwrap(),
            std::fs::read(out(&format!("zst.{suffix}"))).unwrap(),
            "{suffix}"
        );
    }
    // The same classes from three copies on stdin.
    let kept = std::fs::read(out("zst.kept")).unwrap();
    let three = Some(&plain[..one.len() * 3]);
    let piped = common::run_piped(&["dedupe", "-", "-q", "--by", "text"], three);
    assert!(piped.status.success());
    assert_eq!(piped.stdout, kept);
    // One line of 3 MB in the stream: a named error, never held whole.
    let mut long = one.clone();
    long.extend(std::iter::repeat_n(b'1', 3 << 20));
    long.push(b'\n');
    let long = files.write("long.txt.gz", &gzip(&long));
    let refused = sudoku_batch(&["dedupe", s(&long), "-q"]);
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    let line = one.iter().filter(|&&b| b == b'\n').count() + 1;
    assert!(
        message.contains("long.txt.gz") && message.contains(&format!("line {line}:")),
        "{message}"
    );
}

#[test]
fn a_gzip_bomb_of_one_line_or_of_newlines_stays_in_bounded_memory() {
    let files = Files::new();
    let size = 300 << 20;
    let line = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let block = vec![b'x'; 1 << 20];
        for _ in 0..size >> 20 {
            e.write_all(&block).unwrap();
        }
        e.write_all(b"\n....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3\n").unwrap();
        e.finish().unwrap()
    };
    let newlines = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let block = vec![b'\n'; 1 << 20];
        for _ in 0..size >> 20 {
            e.write_all(&block).unwrap();
        }
        e.finish().unwrap()
    };
    for (name, data, rows) in [("line.gz", line, 2), ("newlines.gz", newlines, 0)] {
        let path = files.write(name, &data);
        let out_path = files.dir.path().join("rows.csv");
        let child = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
            .args(["classify", s(&path), "-o", s(&out_path), "-q"])
            .spawn()
            .unwrap();
        let (status, peak) = peak_kib(child);
        assert!(status.success(), "{name}");
        let text = std::fs::read_to_string(&out_path).unwrap();
        assert_eq!(text.lines().count(), rows + 1, "{name}");
        if rows > 0 {
            assert!(
                text.contains(&format!(
                    "1,{},,invalid,\"record of {size} bytes, over the limit of 1048576",
                    "x".repeat(100)
                )),
                "{text}"
            );
            assert!(
                text.contains("\n2,....318"),
                "the next line keeps its number"
            );
        }
        if let Some(kib) = peak {
            assert!(kib < 200 * 1024, "{name}: peak RSS {kib} KiB");
        }
    }
}

/// Outputs are compressed as their names ask (`.gz`, `.zst` after the format's
/// extension), by every command that writes records; names of formats the tool does not
/// write are refused (exit 2, one line naming the file) before any work.
#[test]
fn outputs_are_written_as_their_names_ask() {
    use std::io::Read as _;
    let files = Files::new();
    let input = common::data("graded.csv");
    let input = s(&input);
    let plain = common::stdout_of(&["classify", input, "-q"]);
    let ndjson = common::stdout_of(&["classify", input, "-q", "--output-format", "ndjson"]);
    let gunzip = |bytes: &[u8]| {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(bytes)
            .read_to_end(&mut out)
            .unwrap();
        out
    };
    let unzstd = |bytes: &[u8]| zstd::stream::decode_all(bytes).unwrap();
    for (name, want, decode) in [
        ("rows.csv.gz", &plain, &gunzip as &dyn Fn(&[u8]) -> Vec<u8>),
        ("rows.ndjson.zst", &ndjson, &unzstd),
        ("rows.GZ", &plain, &gunzip),
    ] {
        let out = files.dir.path().join(name);
        common::stdout_of(&["classify", input, "-q", "-o", s(&out)]);
        let written = std::fs::read(&out).unwrap();
        assert!(
            &decode(&written) == want,
            "{name}: not the rows, compressed"
        );
    }
    // The dataset commands too: a gzip input's split keeps gzip on both sides.
    let gz = files.write("k.csv.gz", &gzip(&std::fs::read(input).unwrap()));
    let out = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(["split", s(&gz), "--test", "0.2", "--by", "text", "-q"])
        .current_dir(files.dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let train = gunzip(&std::fs::read(files.dir.path().join("k.train.csv.gz")).unwrap());
    let test = gunzip(&std::fs::read(files.dir.path().join("k.test.csv.gz")).unwrap());
    assert_eq!(train.iter().filter(|&&b| b == b'\n').count(), 1 + 1600);
    assert_eq!(test.iter().filter(|&&b| b == b'\n').count(), 1 + 400);
    let deduped = files.dir.path().join("kept.csv.zst");
    common::stdout_of(&["dedupe", s(&gz), "--by", "text", "-q", "-o", s(&deduped)]);
    assert_eq!(
        unzstd(&std::fs::read(&deduped).unwrap()),
        std::fs::read(input).unwrap()
    );
    // Refused, before any file is made.
    for (args, says) in [
        (
            vec!["classify", input, "-o"],
            "cannot write Excel workbooks",
        ),
        (
            vec!["generate", "--count", "3", "-o"],
            "cannot write Excel workbooks",
        ),
        (vec!["dedupe", input, "-o"], "cannot write Excel workbooks"),
    ] {
        let out_path = files.dir.path().join("rows.xlsx");
        let mut all = args.clone();
        all.push(s(&out_path));
        let out = sudoku_batch(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("rows.xlsx: ") && stderr.contains(says),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(!out_path.exists());
    }
    for (args, name, says) in [
        (vec!["classify", input], "rows.json", "JSON documents"),
        (vec!["classify", input], "rows.csv.xz", "xz compression"),
        (
            vec!["classify", input],
            "rows.parquet.gz",
            "compressed Parquet",
        ),
        (vec!["dedupe", input], "kept.json", "JSON documents"),
        (
            vec!["overlap", input, input],
            "leaks.parquet.zst",
            "compressed Parquet",
        ),
    ] {
        let out_path = files.dir.path().join(name);
        let mut all = args.clone();
        all.extend(["-o", s(&out_path)]);
        let out = sudoku_batch(&all);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{name}"
        );
    }
}

/// An xz stream whose block declares a 4 GiB dictionary: refused by the decoder's
/// memory limit (exit 2, naming the file), not allocated.
#[test]
fn an_xz_stream_declaring_a_huge_dictionary_is_refused_in_bounded_memory() {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut h = flate2::Crc::new();
        h.update(bytes);
        h.sum()
    }
    let files = Files::new();
    let mut xz = vec![0xfd, b'7', b'z', b'X', b'Z', 0];
    let flags = [0u8, 1]; // CRC32 check
    xz.extend_from_slice(&flags);
    xz.extend_from_slice(&crc32(&flags).to_le_bytes());
    // Block header: its size / 4 - 1, no sizes, one filter: LZMA2 (0x21) with the
    // dictionary property 40 (4 GiB - 1), padded to 8 bytes, then its CRC32.
    let header = [2u8, 0, 0x21, 1, 40, 0, 0, 0];
    xz.extend_from_slice(&header);
    xz.extend_from_slice(&crc32(&header).to_le_bytes());
    xz.extend(std::iter::repeat_n(0x55u8, 150_000));
    let path = files.write("huge-dictionary.xz", &xz);
    let child = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(["classify", s(&path), "-o", "/dev/null", "-q"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, peak) = peak_kib(child);
    assert_eq!(status.code(), Some(2));
    if let Some(kib) = peak {
        assert!(kib < 200 * 1024, "peak RSS {kib} KiB");
    }
    let out = sudoku_batch(&["classify", s(&path), "-o", "/dev/null"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("huge-dictionary.xz") && stderr.contains("more memory"),
        "{stderr}"
    );
}

/// A zstd stream made with a long window is not "corrupt": the message says what it
/// needs; a Parquet file inside gzip says to decompress it (both exit 2, naming the file).
#[test]
fn long_zstd_windows_and_wrapped_parquet_say_what_they_are() {
    use std::io::Write as _;
    let plain = std::fs::read(common::data("easy-50.txt")).unwrap();
    let files = Files::new();
    let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    encoder.window_log(31).unwrap();
    encoder.long_distance_matching(true).unwrap();
    encoder.include_contentsize(false).unwrap();
    encoder.write_all(&plain).unwrap();
    let long = files.write("long.zst", &encoder.finish().unwrap());
    let out = sudoku_batch(&["classify", s(&long)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("long.zst") && err.contains("--long"), "{err}");
    assert!(!err.contains("corrupt"), "{err}");

    let parquet = std::fs::read(common::data("parquet/graded-first2000.snappy.parquet")).unwrap();
    let wrapped = files.write("graded.parquet.gz", &gzip(&parquet));
    let out = sudoku_batch(&["classify", s(&wrapped), "-q"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("graded.parquet.gz") && err.contains("a Parquet file inside gzip"),
        "{err}"
    );
}

/// `show` reads a compressed input record by record and stops after the last record
/// asked for: a record near the start of 150 MB of zstd takes a few MB, and a stream cut
/// short after it still shows it (the cut is never reached); asking past the cut fails
/// naming the file.
#[test]
fn show_decodes_a_compressed_input_only_as_far_as_it_needs() {
    let files = Files::new();
    let text = std::fs::read_to_string(common::data("extreme.txt")).unwrap();
    let block: String = text.lines().take(100).map(|l| format!("{l}\n")).collect();
    let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    let blocks = (150 << 20) / block.len();
    for _ in 0..blocks {
        encoder.write_all(block.as_bytes()).unwrap();
    }
    let data = encoder.finish().unwrap();
    let path = files.write("big.zst", &data);
    let child = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(["show", s(&path), "--line", "3", "--no-solution"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, peak) = peak_kib(child);
    assert!(status.success());
    if let Some(kib) = peak {
        assert!(kib < 64 * 1024, "peak RSS {kib} KiB");
    }
    let cut = files.write("cut.zst", &data[..data.len() / 2]);
    let shown = sudoku_batch(&["show", s(&cut), "--line", "3"]);
    assert!(
        shown.status.success(),
        "{}",
        String::from_utf8_lossy(&shown.stderr)
    );
    assert!(String::from_utf8_lossy(&shown.stdout).starts_with("line 3: "));
    let last = (blocks * 100).to_string();
    let past = sudoku_batch(&["show", s(&cut), "--line", &last]);
    assert_eq!(past.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&past.stderr).contains(s(&cut)));
}

/// Runs the tool with `stdin` (a file, or nothing), its stdout dropped; answers its
/// exit status, peak memory and stderr.
fn run_peak_from(args: &[&str], stdin: Option<&Path>) -> (bool, u64, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"));
    command
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(path) = stdin {
        command.stdin(std::fs::File::open(path).unwrap());
    }
    let mut child = command.spawn().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).unwrap();
        text
    });
    let (status, peak) = peak_kib(child);
    let message = reader.join().unwrap();
    (
        status.success(),
        peak.expect("the run was seen in /proc"),
        message,
    )
}

/// The parts of an audit's JSON report that depend on the records only.
fn audit_findings(path: &Path) -> serde_json::Value {
    let mut report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let found = report.as_object_mut().unwrap();
    found.remove("provenance");
    serde_json::Value::Object(found.clone())
}

/// `audit` (its input and `--against`), `split` of stdin (copied to a temporary file to
/// be read twice) and `bench` read a compressed input as it is decoded, never the
/// decoded text whole: 40 MB of text in a small zstd file stays far under its size, and
/// the findings, sides and hashes are those of the plain file.
#[test]
fn audit_split_of_stdin_and_bench_stream_compressed_input() {
    let files = Files::new();
    let one = std::fs::read(common::data("easy-50.txt")).unwrap();
    let plain: Vec<u8> = one.repeat(40_000_000 / one.len());
    let plain_path = files.write("many.txt", &plain);
    let zst = files.write("many.txt.zst", &zstd(&plain));
    let out = |name: &str| files.dir.path().join(name);
    let bound = 40 << 10;
    // audit: the same findings as the plain file's, in bounded memory, from a file and
    // from stdin (whose SHA-256 is of the bytes read).
    let (ok, _, _) = run_peak_from(
        &[
            "audit",
            s(&plain_path),
            "-q",
            "--json",
            s(&out("plain.json")),
        ],
        None,
    );
    assert!(ok);
    let (ok, peak, message) = run_peak_from(
        &[
            "audit",
            s(&zst),
            "--against",
            s(&zst),
            "-q",
            "--json",
            s(&out("zst.json")),
        ],
        None,
    );
    assert!(ok, "{message}");
    eprintln!("audit: peak {peak} KiB for 40 MB of zstd-compressed text, twice");
    assert!(peak < bound, "audit: {peak} KiB");
    let (ok, peak, message) = run_peak_from(
        &["audit", "-", "-q", "--json", s(&out("stdin.json"))],
        Some(&zst),
    );
    assert!(ok, "{message}");
    assert!(peak < bound, "audit of stdin: {peak} KiB");
    let plain_found = audit_findings(&out("plain.json"));
    assert_eq!(audit_findings(&out("stdin.json")), plain_found);
    let mut zst_found = audit_findings(&out("zst.json"));
    let leakage = zst_found
        .as_object_mut()
        .unwrap()
        .remove("leakage")
        .unwrap();
    let records = plain_found["validity"]["records"].as_u64().unwrap();
    assert_eq!(records, (plain.len() / one.len() * 50) as u64);
    assert_eq!(leakage[0]["records"].as_u64(), Some(records), "{leakage}");
    let mut without_leaks = plain_found.clone();
    without_leaks.as_object_mut().unwrap().remove("leakage");
    for part in ["validity", "duplicates", "shape"] {
        assert_eq!(zst_found[part], without_leaks[part], "{part}");
    }
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out("stdin.json")).unwrap()).unwrap();
    let input = &report["provenance"]["inputs"][0];
    use sha2::Digest;
    let want: String = sha2::Sha256::digest(&plain)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(input["sha256"].as_str(), Some(want.as_str()));
    assert_eq!(input["bytes"].as_u64(), Some(plain.len() as u64));
    assert_eq!(input["records"].as_u64(), Some(records));
    let zst_report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out("zst.json")).unwrap()).unwrap();
    assert_eq!(
        zst_report["provenance"]["inputs"][1]["records"].as_u64(),
        Some(records)
    );
    // split of stdin: the sides of the plain file, in bounded memory.
    let split = |input: &str, tag: &str, stdin: Option<&Path>| {
        let (train, test) = (out(&format!("{tag}.train")), out(&format!("{tag}.test")));
        let args = [
            "split",
            input,
            "-q",
            "--by",
            "text",
            "--test",
            "0.3",
            "--train-out",
            s(&train),
            "--test-out",
            s(&test),
        ];
        let (ok, peak, message) = run_peak_from(&args, stdin);
        assert!(ok, "{message}");
        (
            peak,
            std::fs::read(train).unwrap(),
            std::fs::read(test).unwrap(),
        )
    };
    let (_, train, test) = split(s(&plain_path), "plain", None);
    let (peak, stdin_train, stdin_test) = split("-", "stdin", Some(&zst));
    eprintln!("split of stdin: peak {peak} KiB for 40 MB of zstd-compressed text");
    assert!(peak < bound, "split of stdin: {peak} KiB");
    assert!(!train.is_empty() && !test.is_empty());
    assert!(train == stdin_train && test == stdin_test);
    // bench holds its puzzles (81 bytes each), never the text: records of 1 KB each.
    let mut wide = b"puzzle,note\n".to_vec();
    let note = "n".repeat(1000);
    for line in one.split(|&b| b == b'\n').filter(|l| l.len() == 81) {
        for _ in 0..800 {
            wide.extend_from_slice(line);
            wide.extend_from_slice(format!(",{note}\n").as_bytes());
        }
    }
    let wide_zst = files.write("wide.csv.zst", &zstd(&wide));
    let (ok, peak, message) = run_peak_from(
        &[
            "bench",
            s(&wide_zst),
            "-q",
            "--threads",
            "1",
            "--rounds",
            "1",
            "--warmup",
            "0",
        ],
        None,
    );
    assert!(ok, "{message}");
    eprintln!(
        "bench: peak {peak} KiB for {} MB of zstd-compressed CSV",
        wide.len() >> 20
    );
    assert!(peak < bound, "bench: {peak} KiB");
}

/// The dataset commands read a Parquet input a piece at a time: 500,000 rows that are
/// 41 MB as lines, in a small dictionary-encoded file, stay far under that in memory.
#[test]
fn dataset_commands_read_parquet_a_piece_at_a_time() {
    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;
    let files = Files::new();
    let one = std::fs::read_to_string(common::data("easy-50.txt")).unwrap();
    let puzzles: Vec<&str> = one.lines().filter(|l| l.len() == 81).collect();
    let schema = parse_message_type("message m { required binary puzzle (UTF8); }").unwrap();
    let mut bytes = Vec::new();
    let mut writer = SerializedFileWriter::new(
        &mut bytes,
        Arc::new(schema),
        Arc::new(WriterProperties::builder().build()),
    )
    .unwrap();
    let rows = 500_000;
    for group in 0..5 {
        let values: Vec<ByteArray> = (0..rows / 5)
            .map(|i| ByteArray::from(puzzles[(group + i) % puzzles.len()]))
            .collect();
        let mut row_group = writer.next_row_group().unwrap();
        let mut column = row_group.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&values, None, None)
            .unwrap();
        column.close().unwrap();
        row_group.close().unwrap();
    }
    writer.close().unwrap();
    let path = files.write("many.parquet", &bytes);
    let out = |name: &str| files.dir.path().join(name);
    let bound = 40 << 10;
    let kept = out("kept.txt");
    let rows_out = out("rows.csv");
    let (train, test, audit_json) = (out("train.txt"), out("test.txt"), out("audit.json"));
    let runs: [Vec<&str>; 4] = [
        vec![
            "dedupe",
            s(&path),
            "-q",
            "--by",
            "text",
            "-o",
            s(&kept),
            "--rows",
            s(&rows_out),
        ],
        vec!["overlap", s(&path), s(&path), "-q", "--by", "text"],
        vec![
            "split",
            s(&path),
            "-q",
            "--test",
            "0.2",
            "--train-out",
            s(&train),
            "--test-out",
            s(&test),
        ],
        vec!["audit", s(&path), "-q", "--json", s(&audit_json)],
    ];
    for args in &runs {
        let (ok, peak, message) = run_peak_from(args, None);
        assert!(ok, "{args:?}: {message}");
        eprintln!("{}: peak {peak} KiB for 500,000 Parquet rows", args[0]);
        assert!(peak < bound, "{}: {peak} KiB", args[0]);
    }
    let kept = std::fs::read_to_string(kept).unwrap();
    let distinct: std::collections::HashSet<&&str> = puzzles.iter().collect();
    assert_eq!(kept.lines().count(), distinct.len());
    let rows_text = std::fs::read_to_string(rows_out).unwrap();
    assert_eq!(rows_text.lines().count(), rows + 1);
    assert!(rows_text
        .lines()
        .nth(rows)
        .unwrap()
        .starts_with(&format!("{rows},")));
    let sides: usize = ["train.txt", "test.txt"]
        .iter()
        .map(|side| std::fs::read_to_string(out(side)).unwrap().lines().count())
        .sum();
    assert_eq!(sides, rows);
    let audit = audit_findings(&audit_json);
    assert_eq!(audit["validity"]["records"].as_u64(), Some(rows as u64));
}
