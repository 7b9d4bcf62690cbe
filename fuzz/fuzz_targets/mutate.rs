//! Fuzz target `mutate`: see `checks::mutate`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| checks::mutate(bytes));
