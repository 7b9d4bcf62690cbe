//! Hashing for keys that are hashes already (Zobrist keys, loop keys): a set or map of them
//! needs no second hash; and the one fixed hash of bytes ([`Fnv`]) that whatever is hashed
//! across builds (program fingerprints, the runtime's ABI key, game files in records) shares.

use std::hash::{BuildHasherDefault, Hasher};

/// A hasher that takes a `u64` key as its own hash, and mixes any other bytes it is given.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(*b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Builds [`KeyHasher`]s, for `HashMap::with_hasher` and friends.
pub type BuildKeyHasher = BuildHasherDefault<KeyHasher>;

/// A set of keys that are hashes already.
pub type KeySet = std::collections::HashSet<u64, BuildKeyHasher>;

/// FNV-1a, 64 bits: a fixed hash, unlike std's `DefaultHasher`, which may change between Rust
/// releases; for hashes stored or compared across builds.
#[derive(Clone, Copy, Debug)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_its_own_hash() {
        let mut h = KeyHasher::default();
        h.write_u64(0xDEAD_BEEF);
        assert_eq!(h.finish(), 0xDEAD_BEEF);
        let set: KeySet = [1, 2, 2].into_iter().collect();
        assert_eq!(set.len(), 2);
    }

    #[test]
    fn fnv_is_fnv_1a() {
        // The published test vectors of 64-bit FNV-1a.
        let hash = |bytes: &[u8]| {
            let mut h = Fnv::default();
            h.write(bytes);
            h.finish()
        };
        assert_eq!(hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
