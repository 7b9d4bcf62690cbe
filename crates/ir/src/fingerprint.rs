//! A program's fingerprint: what generated code records to know it still matches its program.

use std::hash::{Hash, Hasher};

use crate::Program;

/// A hash of everything in the program (FNV-1a over its `Hash`): equal fingerprints mean
/// generated code still matches the program. Stable for one build of Rulestone on one kind of
/// machine, which is where generated code runs.
#[must_use]
pub fn fingerprint(program: &Program) -> u64 {
    let mut hasher = Fnv(0xcbf2_9ce4_8422_2325);
    program.hash(&mut hasher);
    hasher.0
}

/// FNV-1a: a fixed hash (std's `DefaultHasher` may change between Rust releases).
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}
