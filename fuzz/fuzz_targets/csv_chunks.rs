//! CSV quoting and line ends on arbitrary bytes: however the input is cut into chunks
//! (mapped slices of any size, or a stream read in small blocks), the records found are
//! the ones found in the whole input at once, chunks never split a record, and an
//! unclosed quote is reported on a line of the input. Lone-CR inputs read as their
//! `\n` conversion does.
#![no_main]

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use sudoku_batch::input::{
    cr_to_lf, detect_layout, for_each_record_of, lone_cr_line_ends, unclosed_quote_line,
    ColumnChoice, Format, RecordScratch,
};
use sudoku_batch::pipeline::{SliceChunks, StreamChunks};

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

fuzz_target!(|input: &[u8]| {
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
        sudoku_batch::input::for_each_record(bytes, chunk.first_line, &layout, &mut scratch, |r| {
            cut.push((r.line, r.raw.to_vec()))
        });
    }
    assert_eq!(joined, data[layout.data_start.min(data.len())..]);
    assert_eq!(cut, whole);
    // A stream in blocks of 1 to 256 bytes.
    let reader = Blocks {
        data: &input[1..],
        block: usize::from(knob) + 1,
    };
    if let Ok(Ok((mut chunks, stream_layout))) =
        StreamChunks::start(
            reader,
            &sudoku_batch::input::Choice {
                format: Some(Format::Csv),
                column: ColumnChoice::Index(1),
                delimiter: None,
            },
            usize::MAX,
        )
    {
        let mut streamed = Vec::new();
        while let Ok(Some(chunk)) = chunks.next_chunk() {
            let bytes = chunk.bytes.as_slice();
            sudoku_batch::input::for_each_record(
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
});
