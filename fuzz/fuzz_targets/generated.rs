//! Fuzz target `generated`: see `checks::generated`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| checks::generated(bytes));
