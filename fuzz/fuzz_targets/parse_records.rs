//! Record finding on arbitrary bytes, in both formats: never panics, every record has
//! a line number inside the input, lines come in order, and a record that parses is a
//! grid whose text round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::input::{detect_layout, for_each_record, ColumnChoice, Format, RecordScratch};

fuzz_target!(|data: &[u8]| {
    let lines = data.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    for format in [None, Some(Format::Lines), Some(Format::Csv)] {
        let Ok(layout) = detect_layout(data, format, &ColumnChoice::Auto) else {
            continue;
        };
        let mut scratch = RecordScratch::default();
        let mut last = 0u64;
        let start = layout.data_start.min(data.len());
        for_each_record(&data[start..], layout.first_line, &layout, &mut scratch, |r| {
            assert!(r.line >= 1 && r.line <= lines, "line {} of {lines}", r.line);
            assert!(r.line > last || layout.format == Format::Csv && r.line == last);
            last = r.line;
            if let Ok(grid) = r.puzzle {
                assert_eq!(grid.to_string().len(), 81);
                assert_eq!(sudoku_batch::Grid::parse(&grid.to_line()), Ok(grid));
            }
        });
    }
});
