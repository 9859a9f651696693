//! CSV chunking in any cut (see `checks::csv_chunks`).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::csv_chunks(data));
