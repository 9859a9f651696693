//! The compressed, NumPy and Parquet fronts on arbitrary bytes: decoding never panics
//! (it ends or fails with an error), a NumPy array that reads makes one line per row,
//! and no Parquet value breaks its row's line.
#![no_main]

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use sudoku_batch::input::compressed::{decode, Compression};
use sudoku_batch::input::npy::NpyLines;
use sudoku_batch::input::{parquet, ColumnChoice};

fuzz_target!(|data: &[u8]| {
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
            let mut text = Vec::new();
            if file.read_all(&mut text).is_ok() {
                // Every line is one row: no value may add a line end of its own.
                assert!(text.split(|&b| b == b'\n').all(|line| !line.contains(&b'\r')));
                let rows: usize = file.pieces(None).unwrap().iter().map(|p| p.rows).sum();
                assert_eq!(text.iter().filter(|&&b| b == b'\n').count(), rows);
            }
        }
    }
});
