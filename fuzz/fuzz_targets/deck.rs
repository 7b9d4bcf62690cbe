//! Fuzz target `deck`: see `checks::deck`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| checks::deck(bytes));
