//! A move: the decisions taken at each choice point of one turn, in order.

/// The most decisions one turn may take (the IR's limit, which `check` enforces).
pub use rulestone_ir::MAX_DECISIONS;

/// One whole turn, as the sequence of choices that replays it. Small and `Copy`, so move lists
/// are flat buffers with no allocation per move. Equality, hashing and printing see only the
/// decisions taken: bytes past the length are left over from other moves of the same walk.
///
/// Three words: byte 0 is the length, byte `i + 1` decision `i` (little-endian within each
/// word). A decision is written by recomputing whole words in registers, never by a one-byte
/// store: a move is copied right after it grows, and a wide read of bytes just written one at
/// a time would wait for them (a store-forwarding stall).
#[derive(Clone, Copy, Default)]
pub struct Move {
    words: [u64; 3],
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.len() == other.len() && self.taken() == other.taken()
    }
}

impl Eq for Move {}

impl std::hash::Hash for Move {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.taken().hash(state);
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Move{:?}", self.decisions().collect::<Vec<_>>())
    }
}

impl Move {
    /// Appends a decision; false when the move is full.
    #[inline]
    pub fn push(&mut self, d: u8) -> bool {
        let i = self.len();
        if i >= MAX_DECISIONS {
            return false;
        }
        let byte = i + 1;
        let shift = (byte % 8) * 8;
        let word = byte / 8;
        let clear = !(0xff_u64 << shift);
        let set = u64::from(d) << shift;
        // Each word is chosen by value, so the move stays in registers.
        let [a, b, c] = self.words;
        let a = if word == 0 { (a & clear) | set } else { a };
        let b = if word == 1 { (b & clear) | set } else { b };
        let c = if word == 2 { (c & clear) | set } else { c };
        // The length is at most 23, so adding one stays in byte 0.
        self.words = [a + 1, b, c];
        true
    }

    /// The move with its words past the first cleared: the same move when it holds at most
    /// seven decisions (bytes past the length are no part of it). Generated code lists such
    /// moves this way: a copy of all the words right after the walk wrote the first would
    /// read it back with a wider load than the store, which waits for the store to finish
    /// (a store-forwarding stall), where a copy of the first word alone does not.
    #[inline]
    #[must_use]
    pub fn short(self) -> Move {
        Move {
            words: [self.words[0], 0, 0],
        }
    }

    /// This move, which holds exactly `D` decisions, with `d` appended: the byte's place is
    /// known when the code is compiled, so appending is a masked write and a new length
    /// (generated code uses it where every walk reaching a choice has taken `D` decisions).
    #[inline]
    #[must_use]
    pub fn pushed_at<const D: usize>(self, d: u8) -> Move {
        const { assert!(D < MAX_DECISIONS) };
        let byte = D + 1;
        let shift = (byte % 8) * 8;
        let mut words = self.words;
        words[byte / 8] = (words[byte / 8] & !(0xff_u64 << shift)) | (u64::from(d) << shift);
        words[0] = (words[0] & !0xff) | (byte as u64);
        Move { words }
    }

    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        (self.words[0] & 0xff) as usize
    }

    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    pub fn truncate(&mut self, len: usize) {
        let len = len.min(MAX_DECISIONS) as u64;
        self.words[0] = (self.words[0] & !0xff) | len;
    }

    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> Option<u8> {
        (i < self.len()).then(|| self.byte(i + 1))
    }

    /// Decision `i` without checking the length: a byte left over from another move (or 0)
    /// past it, and 0 past the last a move can hold. For replaying moves the same walk
    /// generated, which reads exactly the decisions it took.
    #[inline]
    #[must_use]
    pub fn raw_decision(&self, i: usize) -> u8 {
        if i < MAX_DECISIONS {
            self.byte(i + 1)
        } else {
            0
        }
    }

    /// The decisions taken, in order.
    pub fn decisions(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.len()).map(|i| self.byte(i + 1))
    }

    #[inline]
    fn byte(&self, byte: usize) -> u8 {
        (self.words[byte / 8] >> ((byte % 8) * 8)) as u8
    }

    /// The words with the bytes past the length cleared (what equality and hashing compare).
    fn taken(&self) -> [u64; 3] {
        let end = self.len() + 1;
        let mut out = self.words;
        for (w, word) in out.iter_mut().enumerate() {
            let keep = end.saturating_sub(w * 8).min(8);
            *word &= if keep == 8 {
                u64::MAX
            } else {
                (1u64 << (keep * 8)) - 1
            };
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_round_trip_and_leftovers_do_not_count() {
        let mut long = Move::default();
        for d in 0..MAX_DECISIONS as u8 {
            assert!(long.push(d.wrapping_mul(37)));
        }
        assert!(!long.push(1), "a full move takes no more");
        assert_eq!(long.len(), MAX_DECISIONS);
        for i in 0..MAX_DECISIONS {
            assert_eq!(long.get(i), Some((i as u8).wrapping_mul(37)));
        }
        assert_eq!(long.get(MAX_DECISIONS), None);
        let mut short = long;
        short.truncate(3);
        let mut fresh = Move::default();
        for i in 0..3 {
            assert!(fresh.push((i as u8).wrapping_mul(37)));
        }
        assert_eq!(short, fresh, "bytes past the length are ignored");
        assert_eq!(short.raw_decision(3), 3 * 37, "but still there unchecked");
        assert_eq!(short.raw_decision(MAX_DECISIONS), 0);
        assert_eq!(format!("{short:?}"), "Move[0, 37, 74]");
        short.push(9);
        assert_eq!(short.get(3), Some(9));
        assert_ne!(short, fresh);
    }
}
