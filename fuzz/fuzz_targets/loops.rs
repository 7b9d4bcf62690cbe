//! Fuzz target `loops`: see `checks::loops`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| checks::loops(bytes));
