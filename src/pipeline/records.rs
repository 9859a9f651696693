//! Every record of an opened input, one at a time, in input order and bounded memory,
//! for the commands that look at records themselves instead of running a job over them
//! (`show`): a mapped file as it is, a stream (compressed, NumPy, stdin) a chunk at a
//! time, a Parquet file a piece at a time. The walk stops when the caller says so, so a
//! record near the start of a large compressed file costs only what comes before it.

use std::io;
use std::ops::ControlFlow;
use std::path::Path;

use crate::pipeline::chunks::{SliceChunks, StreamChunks};
use crate::pipeline::input::parquet::{Scratch, Segment};
use crate::pipeline::input::{
    detect_layout_as, for_each_record, no_value_record, rows_as_lines, too_long_record, Choice,
    InputError, Layout, Opened, Record, RecordScratch,
};

/// Calls `each` with the layout found and every record of `opened` (named `path` in
/// errors), read as `choice` says, until it answers `Break`; records over `max_record`
/// bytes come as `invalid` ones, cut short, never held. Answers the layout.
pub fn each_record(
    opened: Opened,
    path: &Path,
    choice: &Choice,
    max_record: usize,
    mut each: impl FnMut(&Layout, &Record<'_>) -> ControlFlow<()>,
) -> Result<Layout, InputError> {
    let named = |source: io::Error| InputError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut scratch = RecordScratch::default();
    let mut stopped = false;
    match opened {
        Opened::Mapped(bytes) => {
            let data = bytes.bytes();
            let mut layout = detect_layout_as(data, choice)?;
            layout.max_record = max_record;
            for chunk in SliceChunks::new(data, &layout) {
                let bytes = chunk.bytes.as_slice();
                for_each_record(bytes, chunk.first_line, &layout, &mut scratch, |r| {
                    stopped = stopped || each(&layout, &r).is_break()
                });
                if stopped {
                    break;
                }
            }
            Ok(layout)
        }
        Opened::Stream {
            reader, array_rows, ..
        } => {
            let (mut chunks, mut layout) =
                StreamChunks::start(reader, choice, max_record).map_err(named)??;
            layout.every_line = array_rows;
            while !stopped {
                let Some(chunk) = chunks.next_chunk().map_err(named)? else {
                    break;
                };
                let bytes = chunk.bytes.as_slice();
                match chunk.too_long {
                    Some(length) => {
                        let record = too_long_record(bytes, chunk.first_line, length, max_record);
                        stopped = each(&layout, &record).is_break();
                    }
                    None => for_each_record(bytes, chunk.first_line, &layout, &mut scratch, |r| {
                        stopped = stopped || each(&layout, &r).is_break()
                    }),
                }
            }
            Ok(layout)
        }
        Opened::Parquet { file, pieces } => {
            let layout = rows_as_lines(max_record)?;
            let mut decoding = Scratch::default();
            for piece in &pieces {
                if stopped {
                    break;
                }
                file.decode(piece, max_record, &mut decoding, |segment| {
                    if stopped {
                        return;
                    }
                    match segment {
                        Segment::Lines { bytes, first_row } => {
                            for_each_record(bytes, first_row, &layout, &mut scratch, |r| {
                                stopped = stopped || each(&layout, &r).is_break()
                            })
                        }
                        Segment::TooLong { echo, row, length } => {
                            let record = too_long_record(echo, row, length, max_record);
                            stopped = each(&layout, &record).is_break();
                        }
                        Segment::NoValue { row, null } => {
                            stopped = each(&layout, &no_value_record(row, null)).is_break();
                        }
                    }
                })
                .map_err(named)?;
            }
            Ok(layout)
        }
    }
}
