//! Fuzz target `shot`: see `checks::shot`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| checks::shot(bytes));
