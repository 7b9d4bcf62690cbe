//! Fuzz target `parse_check`: see `checks::parse_check`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| checks::parse_check(bytes));
