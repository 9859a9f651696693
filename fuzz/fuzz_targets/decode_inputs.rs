//! The compressed, NumPy, Parquet and zip fronts (see `checks::decode_inputs`).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::decode_inputs(data));
