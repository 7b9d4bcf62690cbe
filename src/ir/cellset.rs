//! A fixed-width bitset of cells: the currency of move generation.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

const WORDS: usize = 2;

/// A set of cell ids below [`crate::check::geometry::MAX_CELLS`] (128), one bit per cell in
/// two words (one `u128` measured slower: its single-bit shifts cost more than a word index).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CellSet([u64; WORDS]);

impl CellSet {
    pub const EMPTY: CellSet = CellSet([0; WORDS]);

    /// How many cell ids a set has room for.
    pub const CAPACITY: usize = 64 * WORDS;

    /// The set whose bit `64 * w + b` is bit `b` of `words[w]` (generated code spells constant
    /// sets this way).
    #[must_use]
    pub const fn from_words(words: [u64; WORDS]) -> CellSet {
        CellSet(words)
    }

    #[must_use]
    pub const fn words(&self) -> [u64; WORDS] {
        self.0
    }

    /// The cells `0..n`.
    #[must_use]
    #[inline]
    pub fn first_n(n: usize) -> CellSet {
        let mut words = [0u64; WORDS];
        for (i, w) in words.iter_mut().enumerate() {
            let below = n.saturating_sub(i * 64);
            *w = if below >= 64 {
                u64::MAX
            } else {
                (1u64 << below) - 1
            };
        }
        CellSet(words)
    }

    /// The one-cell set, built without indexing a word by the cell: sets changed and read
    /// this way can stay in registers (a word picked at run time must live in memory).
    #[inline]
    #[must_use]
    pub fn single(cell: usize) -> CellSet {
        let bit = 1u64 << (cell & 63);
        if cell < 64 {
            CellSet([bit, 0])
        } else {
            CellSet([0, bit])
        }
    }

    #[inline]
    pub fn insert(&mut self, cell: usize) {
        *self |= CellSet::single(cell);
    }

    #[inline]
    pub fn remove(&mut self, cell: usize) {
        *self = *self - CellSet::single(cell);
    }

    #[inline]
    #[must_use]
    pub fn contains(&self, cell: usize) -> bool {
        self.intersects(&CellSet::single(cell))
    }

    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        (self.0[0] | self.0[1]) == 0
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    #[must_use]
    pub fn is_subset(&self, other: &CellSet) -> bool {
        (self.0[0] & !other.0[0]) | (self.0[1] & !other.0[1]) == 0
    }

    #[inline]
    #[must_use]
    pub fn intersects(&self, other: &CellSet) -> bool {
        (self.0[0] & other.0[0]) | (self.0[1] & other.0[1]) != 0
    }

    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        (self.0[0].count_ones() + self.0[1].count_ones()) as usize
    }

    /// Every cell `c` moved to `c + by`; cells leaving `0..128` drop out. On boards whose
    /// cells are numbered row by row, one shift moves a whole set one step in a direction.
    #[inline]
    #[must_use]
    pub fn shifted(self, by: i32) -> CellSet {
        let bits = u128::from(self.0[0]) | u128::from(self.0[1]) << 64;
        let moved = match by {
            0 => bits,
            1..=127 => bits << by,
            -127..=-1 => bits >> -by,
            _ => 0,
        };
        #[allow(clippy::cast_possible_truncation)] // reason: splitting into the two words
        CellSet([moved as u64, (moved >> 64) as u64])
    }

    #[inline]
    #[must_use]
    pub fn iter(&self) -> CellIter {
        CellIter {
            low: self.0[0],
            high: self.0[1],
        }
    }
}

impl std::fmt::Debug for CellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterates set cells in increasing order.
pub struct CellIter {
    low: u64,
    high: u64,
}

impl Iterator for CellIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.low != 0 {
            let cell = self.low.trailing_zeros() as usize;
            self.low &= self.low - 1;
            Some(cell)
        } else if self.high != 0 {
            let cell = 64 + self.high.trailing_zeros() as usize;
            self.high &= self.high - 1;
            Some(cell)
        } else {
            None
        }
    }
}

macro_rules! bitop {
    ($trait:ident, $f:ident, $atrait:ident, $af:ident, $op:tt) => {
        impl $trait for CellSet {
            type Output = CellSet;
            #[inline]
            fn $f(self, rhs: CellSet) -> CellSet {
                CellSet([self.0[0] $op rhs.0[0], self.0[1] $op rhs.0[1]])
            }
        }
        impl $atrait for CellSet {
            #[inline]
            fn $af(&mut self, rhs: CellSet) {
                *self = *self $op rhs;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);

impl Sub for CellSet {
    type Output = CellSet;
    #[inline]
    fn sub(self, rhs: CellSet) -> CellSet {
        CellSet([self.0[0] & !rhs.0[0], self.0[1] & !rhs.0[1]])
    }
}

impl Not for CellSet {
    type Output = CellSet;
    #[inline]
    fn not(self) -> CellSet {
        CellSet([!self.0[0], !self.0[1]])
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn shifted_moves_cells_across_words_and_drops_the_rest() {
        let mut s = super::CellSet::EMPTY;
        for c in [0, 63, 64, 127] {
            s.insert(c);
        }
        let up: Vec<usize> = s.shifted(1).iter().collect();
        assert_eq!(up, vec![1, 64, 65]);
        let down: Vec<usize> = s.shifted(-64).iter().collect();
        assert_eq!(down, vec![0, 63]);
        assert!(s.shifted(200).is_empty());
    }

    use super::CellSet;

    #[test]
    fn iterates_in_order_across_words() {
        let mut s = CellSet::EMPTY;
        for c in [127, 0, 64, 63, 100] {
            s.insert(c);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63, 64, 100, 127]);
        assert_eq!(s.len(), 5);
        s.remove(64);
        assert!(!s.contains(64));
        assert!(CellSet::first_n(3).is_subset(&CellSet::first_n(4)));
    }
}
