//! The CSV field writer, read back by the `csv` crate (see `checks::csv_fields`).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::csv_fields(data));
