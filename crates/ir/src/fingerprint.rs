//! A program's fingerprint: what generated code records to know it still matches its program.

use std::hash::{Hash, Hasher};

use rulestone_base::hash::Fnv;

use crate::Program;

/// A hash of everything in the program (FNV-1a over its `Hash`, a fixed hash where std's may
/// change between Rust releases): equal fingerprints mean generated code still matches the
/// program. Stable for one build of Rulestone on one kind of machine, which is where generated
/// code runs.
#[must_use]
pub fn fingerprint(program: &Program) -> u64 {
    let mut hasher = Fnv::default();
    program.hash(&mut hasher);
    hasher.finish()
}
