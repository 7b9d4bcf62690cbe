//! Fixed-width bitsets of cells: the currency of move generation.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

/// A set of cell ids below `64 * W`, one bit per cell in `W` words (`W` is 1 or 2). The
/// engine and the checker use [`CellSet`]; compiled move generation for a board of at most
/// 64 cells uses [`CellSet64`], whose operations are one word each.
///
/// Every operation is written for a low and a high word; with one word the high word is a
/// constant zero and folds away.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellBits<const W: usize>([u64; W]);

/// A set of cell ids below [`crate::check::geometry::MAX_CELLS`] (128), in two words (one
/// `u128` measured slower: its single-bit shifts cost more than a word index).
pub type CellSet = CellBits<2>;

/// A set of cell ids below 64, in one word.
pub type CellSet64 = CellBits<1>;

impl<const W: usize> Default for CellBits<W> {
    fn default() -> Self {
        CellBits([0; W])
    }
}

impl<const W: usize> CellBits<W> {
    pub const EMPTY: CellBits<W> = CellBits([0; W]);

    /// How many cell ids a set has room for.
    pub const CAPACITY: usize = 64 * W;

    /// The set from its low and high words (the high word is dropped with one word).
    #[inline]
    fn from_pair(low: u64, high: u64) -> Self {
        let mut words = [0; W];
        if let Some(w) = words.first_mut() {
            *w = low;
        }
        if let Some(w) = words.get_mut(1) {
            *w = high;
        }
        CellBits(words)
    }

    #[inline]
    fn low(&self) -> u64 {
        self.0.first().copied().unwrap_or(0)
    }

    #[inline]
    fn high(&self) -> u64 {
        self.0.get(1).copied().unwrap_or(0)
    }

    /// The set whose bit `64 * w + b` is bit `b` of `words[w]` (generated code spells constant
    /// sets this way).
    #[must_use]
    pub const fn from_words(words: [u64; W]) -> Self {
        CellBits(words)
    }

    #[must_use]
    pub const fn words(&self) -> [u64; W] {
        self.0
    }

    /// The same cells as an engine [`CellSet`].
    #[inline]
    #[must_use]
    pub fn to_set(self) -> CellSet {
        CellBits([self.low(), self.high()])
    }

    /// The cells of an engine [`CellSet`] that this width has room for.
    #[inline]
    #[must_use]
    pub fn from_set(set: CellSet) -> Self {
        Self::from_pair(set.low(), set.high())
    }

    /// The cells `0..n`.
    #[must_use]
    #[inline]
    pub fn first_n(n: usize) -> Self {
        let mut words = [0u64; W];
        for (i, w) in words.iter_mut().enumerate() {
            let below = n.saturating_sub(i * 64);
            *w = if below >= 64 {
                u64::MAX
            } else {
                (1u64 << below) - 1
            };
        }
        CellBits(words)
    }

    /// The one-cell set, built without indexing a word by the cell: sets changed and read
    /// this way can stay in registers (a word picked at run time must live in memory).
    #[inline]
    #[must_use]
    pub fn single(cell: usize) -> Self {
        let bit = 1u64 << (cell & 63);
        // With one word a cell past 63 lands in the dropped high word: no cell.
        if cell < 64 {
            Self::from_pair(bit, 0)
        } else {
            Self::from_pair(0, bit)
        }
    }

    #[inline]
    pub fn insert(&mut self, cell: usize) {
        *self |= Self::single(cell);
    }

    #[inline]
    pub fn remove(&mut self, cell: usize) {
        *self = *self - Self::single(cell);
    }

    #[inline]
    #[must_use]
    pub fn contains(&self, cell: usize) -> bool {
        self.intersects(&Self::single(cell))
    }

    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        (self.low() | self.high()) == 0
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    #[must_use]
    pub fn is_subset(&self, other: &Self) -> bool {
        (self.low() & !other.low()) | (self.high() & !other.high()) == 0
    }

    #[inline]
    #[must_use]
    pub fn intersects(&self, other: &Self) -> bool {
        (self.low() & other.low()) | (self.high() & other.high()) != 0
    }

    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        (self.low().count_ones() + self.high().count_ones()) as usize
    }

    /// Every cell `c` moved to `c + by`; cells leaving the set's room drop out. On boards
    /// whose cells are numbered row by row, one shift moves a whole set one step in a
    /// direction.
    #[inline]
    #[must_use]
    pub fn shifted(self, by: i32) -> Self {
        if W == 1 {
            let bits = self.low();
            let moved = match by {
                0 => bits,
                1..=63 => bits << by,
                -63..=-1 => bits >> -by,
                _ => 0,
            };
            return Self::from_pair(moved, 0);
        }
        let bits = u128::from(self.low()) | u128::from(self.high()) << 64;
        let moved = match by {
            0 => bits,
            1..=127 => bits << by,
            -127..=-1 => bits >> -by,
            _ => 0,
        };
        #[allow(clippy::cast_possible_truncation)] // reason: splitting into the two words
        Self::from_pair(moved as u64, (moved >> 64) as u64)
    }

    #[inline]
    #[must_use]
    pub fn iter(&self) -> CellIter {
        CellIter {
            low: self.low(),
            high: self.high(),
        }
    }
}

impl<const W: usize> std::fmt::Debug for CellBits<W> {
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
        impl<const W: usize> $trait for CellBits<W> {
            type Output = CellBits<W>;
            #[inline]
            fn $f(self, rhs: CellBits<W>) -> CellBits<W> {
                CellBits(std::array::from_fn(|i| self.0[i] $op rhs.0[i]))
            }
        }
        impl<const W: usize> $atrait for CellBits<W> {
            #[inline]
            fn $af(&mut self, rhs: CellBits<W>) {
                *self = *self $op rhs;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);

impl<const W: usize> Sub for CellBits<W> {
    type Output = CellBits<W>;
    #[inline]
    fn sub(self, rhs: CellBits<W>) -> CellBits<W> {
        CellBits(std::array::from_fn(|i| self.0[i] & !rhs.0[i]))
    }
}

impl<const W: usize> Not for CellBits<W> {
    type Output = CellBits<W>;
    #[inline]
    fn not(self) -> CellBits<W> {
        CellBits(self.0.map(|w| !w))
    }
}

#[cfg(test)]
mod tests {
    use super::{CellSet, CellSet64};

    #[test]
    fn shifted_moves_cells_across_words_and_drops_the_rest() {
        let mut s = CellSet::EMPTY;
        for c in [0, 63, 64, 127] {
            s.insert(c);
        }
        let up: Vec<usize> = s.shifted(1).iter().collect();
        assert_eq!(up, vec![1, 64, 65]);
        let down: Vec<usize> = s.shifted(-64).iter().collect();
        assert_eq!(down, vec![0, 63]);
        assert!(s.shifted(200).is_empty());
    }

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

    #[test]
    fn one_word_sets_agree_with_two_word_sets_below_64() {
        let cells = [0, 5, 31, 62, 63];
        let mut wide = CellSet::EMPTY;
        let mut narrow = CellSet64::EMPTY;
        for c in cells {
            wide.insert(c);
            narrow.insert(c);
        }
        narrow.insert(64);
        assert_eq!(
            narrow.to_set(),
            wide,
            "a one-word set has no room for cell 64"
        );
        assert_eq!(CellSet64::from_set(wide), narrow);
        for by in [-70, -64, -9, -1, 0, 1, 8, 63, 64] {
            let moved = CellSet64::from_set(wide.shifted(by));
            assert_eq!(narrow.shifted(by), moved, "shifted by {by}");
        }
        assert_eq!(CellSet64::first_n(64), !CellSet64::EMPTY);
        assert_eq!(narrow.iter().collect::<Vec<_>>(), cells);
        assert_eq!((narrow - CellSet64::single(5)).len(), 4);
    }
}
