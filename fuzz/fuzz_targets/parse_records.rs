//! Record finding on arbitrary bytes (see `checks::parse_records`).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::parse_records(data));
