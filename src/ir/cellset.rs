//! A fixed-width bitset of cells: the currency of move generation.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

const WORDS: usize = 2;

/// A set of cell ids below [`crate::check::geometry::MAX_CELLS`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CellSet([u64; WORDS]);

impl CellSet {
    pub const EMPTY: CellSet = CellSet([0; WORDS]);

    /// The cells `0..n`.
    #[must_use]
    pub fn first_n(n: usize) -> CellSet {
        let mut s = CellSet::EMPTY;
        for c in 0..n {
            s.insert(c);
        }
        s
    }

    #[inline]
    pub fn insert(&mut self, cell: usize) {
        self.0[cell >> 6] |= 1 << (cell & 63);
    }

    #[inline]
    pub fn remove(&mut self, cell: usize) {
        self.0[cell >> 6] &= !(1 << (cell & 63));
    }

    #[inline]
    #[must_use]
    pub fn contains(&self, cell: usize) -> bool {
        self.0[cell >> 6] >> (cell & 63) & 1 != 0
    }

    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    #[must_use]
    pub fn is_subset(&self, other: &CellSet) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }

    #[inline]
    #[must_use]
    pub fn intersects(&self, other: &CellSet) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    #[inline]
    #[must_use]
    pub fn iter(&self) -> CellIter {
        CellIter {
            words: self.0,
            index: 0,
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
    words: [u64; WORDS],
    index: usize,
}

impl Iterator for CellIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.index < WORDS {
            let w = self.words[self.index];
            if w != 0 {
                self.words[self.index] = w & (w - 1);
                return Some(self.index * 64 + w.trailing_zeros() as usize);
            }
            self.index += 1;
        }
        None
    }
}

macro_rules! bitop {
    ($trait:ident, $f:ident, $atrait:ident, $af:ident, $aop:tt) => {
        impl $trait for CellSet {
            type Output = CellSet;
            #[inline]
            fn $f(self, rhs: CellSet) -> CellSet {
                let mut out = self;
                for (a, b) in out.0.iter_mut().zip(rhs.0) {
                    *a $aop b;
                }
                out
            }
        }
        impl $atrait for CellSet {
            #[inline]
            fn $af(&mut self, rhs: CellSet) {
                for (a, b) in self.0.iter_mut().zip(rhs.0) {
                    *a $aop b;
                }
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |=);

impl Sub for CellSet {
    type Output = CellSet;
    #[inline]
    fn sub(self, rhs: CellSet) -> CellSet {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(rhs.0) {
            *a &= !b;
        }
        out
    }
}

impl Not for CellSet {
    type Output = CellSet;
    #[inline]
    fn not(self) -> CellSet {
        let mut out = self;
        for a in &mut out.0 {
            *a = !*a;
        }
        out
    }
}

#[cfg(test)]
mod tests {
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
