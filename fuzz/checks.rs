//! The fuzz targets' checks, shared by the `cargo fuzz` targets (`fuzz_targets/`,
//! guided by coverage) and by `tests/fuzz_checks.rs`, which runs each on the seeds and
//! on mutations of them for a bounded time in every test run. Each takes arbitrary
//! bytes and panics where the library breaks a promise.

use std::io::Read;

use sudoku_batch::pipeline::input::compressed::{decode, Compression};
use sudoku_batch::pipeline::input::npy::NpyLines;
use sudoku_batch::pipeline::input::{
    cr_to_lf, detect_layout, for_each_record, for_each_record_of, lone_cr_line_ends, open, parquet,
    unclosed_quote_line, ColumnChoice, Fields, Format, HowToOpen, Opened, RecordScratch,
};
use sudoku_batch::pipeline::rows::{Cells, OutputFormat, Row, RowWriter};
use sudoku_batch::pipeline::{SliceChunks, StreamChunks};
use sudoku_batch::values::status::Status;
use sudoku_batch::{Classification, Grid, Solver};

#[path = "../tests/common/reference.rs"]
mod reference;

/// Record finding on arbitrary bytes, in both formats: never panics, every record has
/// a line number inside the input, lines come in order, and a record that parses is a
/// grid whose text round-trips.
pub fn parse_records(data: &[u8]) {
    let lines = data.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    for format in [None, Some(Format::Lines), Some(Format::Csv)] {
        let Ok(layout) = detect_layout(data, format, &ColumnChoice::Auto) else {
            continue;
        };
        let mut scratch = RecordScratch::default();
        let mut last = 0u64;
        let start = layout.data_start.min(data.len());
        for_each_record(
            &data[start..],
            layout.first_line,
            &layout,
            &mut scratch,
            |r| {
                assert!(r.line >= 1 && r.line <= lines, "line {} of {lines}", r.line);
                assert!(r.line > last || layout.format == Format::Csv && r.line == last);
                last = r.line;
                if let Ok(grid) = r.puzzle {
                    assert_eq!(grid.to_string().len(), 81);
                    assert_eq!(sudoku_batch::Grid::parse(&grid.to_line()), Ok(grid));
                }
            },
        );
    }
}

/// Parse-then-classify on arbitrary bytes. Grids with few empty cells are checked
/// against the independent reference counter; every solution must be valid and keep
/// the givens.
pub fn classify(data: &[u8]) {
    // Bytes map onto cells so most inputs are grids: 0-9 as they are, others empty.
    let mut cells = [0u8; 81];
    for (cell, &b) in cells.iter_mut().zip(data) {
        *cell = if b.is_ascii_digit() { b - b'0' } else { b % 10 };
    }
    let Some(grid) = Grid::from_cells(cells) else {
        return;
    };
    let mut solver = Solver::new();
    let class = solver.classify(&grid);
    if let Classification::Unique(s) | Classification::Multiple(s) = class {
        assert!(s.is_valid_solution() && s.keeps_givens_of(&grid));
    }
    assert_eq!(
        matches!(class, Classification::Invalid(_)),
        grid.find_clash().is_some()
    );
    let empties = cells.iter().filter(|&&v| v == 0).count();
    if empties <= 45 {
        let expected = reference::reference_count(&grid, 2);
        let got = match class {
            Classification::Unique(_) => 1,
            Classification::Multiple(_) => 2,
            _ => 0,
        };
        assert_eq!(got, expected, "{grid}");
    }
    // The line parser agrees with the cell mapping for the grid's own text.
    assert_eq!(Grid::parse(&grid.to_line()), Ok(grid));
}

/// A reader handing out at most `block` bytes a call.
struct Blocks<'a> {
    data: &'a [u8],
    block: usize,
}

impl Read for Blocks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.block).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// CSV quoting and line ends on arbitrary bytes: however the input is cut into chunks
/// (mapped slices of any size, or a stream read in small blocks), the records found are
/// the ones found in the whole input at once, chunks never split a record, and an
/// unclosed quote is reported on a line of the input. Lone-CR inputs read as their
/// `\n` conversion does.
pub fn csv_chunks(input: &[u8]) {
    let Some((&knob, data)) = input.split_first() else {
        return;
    };
    let mut data = data.to_vec();
    if lone_cr_line_ends(&data) {
        cr_to_lf(&mut data);
    }
    let Ok(layout) = detect_layout(&data, Some(Format::Csv), &ColumnChoice::Index(1)) else {
        return;
    };
    let mut whole = Vec::new();
    for_each_record_of(&data, &layout, |r| whole.push((r.line, r.raw.to_vec())));
    // Mapped chunks, cut for 1 to 256 threads.
    let mut scratch = RecordScratch::default();
    let mut cut = Vec::new();
    let mut joined = Vec::new();
    for chunk in SliceChunks::new(&data, &layout).spread(usize::from(knob) + 1) {
        let bytes = chunk.bytes.as_slice();
        joined.extend_from_slice(bytes);
        sudoku_batch::pipeline::input::for_each_record(
            bytes,
            chunk.first_line,
            &layout,
            &mut scratch,
            |r| cut.push((r.line, r.raw.to_vec())),
        );
    }
    assert_eq!(joined, data[layout.data_start.min(data.len())..]);
    assert_eq!(cut, whole);
    // A stream in blocks of 1 to 256 bytes.
    let reader = Blocks {
        data: &input[1..],
        block: usize::from(knob) + 1,
    };
    if let Ok(Ok((mut chunks, stream_layout))) = StreamChunks::start(
        reader,
        &sudoku_batch::pipeline::input::Choice {
            format: Some(Format::Csv),
            column: ColumnChoice::Index(1),
            delimiter: None,
        },
        usize::MAX,
    ) {
        let mut streamed = Vec::new();
        while let Ok(Some(chunk)) = chunks.next_chunk() {
            let bytes = chunk.bytes.as_slice();
            sudoku_batch::pipeline::input::for_each_record(
                bytes,
                chunk.first_line,
                &stream_layout,
                &mut scratch,
                |r| streamed.push((r.line, r.raw.to_vec())),
            );
        }
        assert_eq!(streamed, whole);
    }
    let lines = data.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    if let Some(line) = unclosed_quote_line(&data, 1) {
        assert!((1..=lines).contains(&line));
    }
}

/// The compressed, NumPy, Parquet and zip fronts on arbitrary bytes: decoding never
/// panics (it ends or fails with an error), a NumPy array that reads makes one line per
/// row, no Parquet value breaks its row's line, and a zip archive's member reads or
/// fails.
pub fn decode_inputs(data: &[u8]) {
    if let Some(compression) = Compression::detect(data) {
        if compression != Compression::Zip {
            let mut decoded = decode(std::io::Cursor::new(data.to_vec()), compression);
            let mut sink = Vec::new();
            // Bounded: a bomb in a few KiB of input stops at 64 MiB here.
            let _ = (&mut decoded).take(64 << 20).read_to_end(&mut sink);
        }
    }
    if let Ok(mut lines) = NpyLines::new(data) {
        let rows = lines.rows();
        let mut text = Vec::new();
        if lines.read_to_end(&mut text).is_ok() {
            let count = text.iter().filter(|&&b| b == b'\n').count() as u64;
            assert_eq!(count, rows);
        }
    }
    if data.starts_with(parquet::MAGIC) {
        let bytes = bytes::Bytes::from(data.to_vec());
        if let Ok(file) = parquet::open_from(bytes, &ColumnChoice::Auto) {
            if let Ok(pieces) = file.pieces(None, 1 << 20) {
                let rows: usize = pieces.iter().map(|p| p.rows).sum();
                let (mut lines, mut read) = (0usize, true);
                let mut scratch = parquet::Scratch::default();
                for piece in &pieces {
                    let decoded = file.decode(piece, usize::MAX, &mut scratch, |segment| {
                        match segment {
                            parquet::Segment::Lines { bytes, .. } => {
                                // Every line is one row: no value adds a line end.
                                assert!(!bytes.contains(&b'\r'));
                                lines += bytes.iter().filter(|&&b| b == b'\n').count();
                            }
                            parquet::Segment::NoValue { .. } => lines += 1,
                            parquet::Segment::TooLong { .. } => panic!("no row is that long"),
                        }
                    });
                    if decoded.is_err() {
                        read = false;
                        break;
                    }
                }
                if read {
                    assert_eq!(lines, rows);
                }
            }
        }
    }
    if Compression::detect(data) == Some(Compression::Zip) {
        // The zip reader needs a file (its index is at the end).
        let path = std::env::temp_dir().join(format!(
            "sudoku-batch-fuzz-{}-{:?}.zip",
            std::process::id(),
            std::thread::current().id()
        ));
        if std::fs::write(&path, data).is_ok() {
            if let Ok(Opened::Stream { mut reader, .. }) = open(&path, &HowToOpen::default()) {
                let mut sink = Vec::new();
                let _ = (&mut reader).take(64 << 20).read_to_end(&mut sink);
            }
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// The CSV field writer: fields of arbitrary bytes (the input cut at `0xff` into
/// fields, at `0xfe` into records) kept after a row's own columns read back with the
/// `csv` crate as they were, every record one row, in CSV and TSV.
pub fn csv_fields(data: &[u8]) {
    let records: Vec<csv::ByteRecord> = data
        .split(|&b| b == 0xfe)
        .map(|r| csv::ByteRecord::from(r.split(|&b| b == 0xff).collect::<Vec<_>>()))
        .collect();
    let width = records.iter().map(|r| r.len()).max().unwrap_or(0);
    let names: Vec<String> = (0..width).map(|i| format!("f{i}")).collect();
    for (format, separator) in [(OutputFormat::Csv, b','), (OutputFormat::Tsv, b'\t')] {
        let writer = RowWriter::new(format, None).keeping(names.clone());
        let mut out = Vec::new();
        writer.header::<()>(&mut out);
        for (i, record) in records.iter().enumerate() {
            let row = Row {
                line: i as u64 + 1,
                puzzle: Cells::Raw(b"x"),
                solution: None,
                status: Status::Invalid,
                reason: None,
                mismatch: None,
                extra: &(),
                fields: Fields::Read(record),
            };
            writer.row(&row, &mut out);
        }
        let read: Vec<csv::ByteRecord> = csv::ReaderBuilder::new()
            .delimiter(separator)
            .flexible(true)
            .from_reader(&out[..])
            .byte_records()
            .map(|r| r.expect("the writer's CSV reads back"))
            .collect();
        assert_eq!(read.len(), records.len(), "one row a record");
        for (row, record) in read.iter().zip(&records) {
            let kept: Vec<&[u8]> = row.iter().skip(6).collect();
            let mut want: Vec<&[u8]> = record.iter().collect();
            // A short record's row is filled to the header's width with empty fields.
            want.resize(width.max(want.len()), b"");
            assert_eq!(kept, want);
        }
    }
}
