//! Parse-then-classify against the reference counter (see `checks::classify`).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::classify(data));
