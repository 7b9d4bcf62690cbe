//! Fuzz target `typed`: see `checks::typed`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| checks::typed(bytes));
