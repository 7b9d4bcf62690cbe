//! Fixed-width bitsets of cells: the currency of move generation.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

/// A set of cell ids below `64 * W`, one bit per cell in `W` words. The program, the position
/// and the checker store [`CellSet`], wide enough for the largest board; both backends compute
/// in the fewest words the program's board needs ([`words_for`]; [`CellSet64`] for at most 64
/// cells), reading the first words of a stored set, so that a small board pays nothing for the
/// room of a large one.
///
/// Operations are written per word and unrolled by the compiler; sets of one and two words
/// keep their own paths where a loop would cost registers (`single`, `shifted`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellBits<const W: usize>([u64; W]);

/// Words of an engine [`CellSet`]: room for [`rulestone_base::MAX_CELLS`] cells.
pub const SET_WORDS: usize = 16;

const _: () = assert!(rulestone_base::MAX_CELLS <= 64 * SET_WORDS);

/// The words a set needs for a board of `cells` cells, among the widths both backends are
/// built for (1, 2, 4 and [`SET_WORDS`]): a small board pays nothing for a large one's room.
#[must_use]
pub const fn words_for(cells: usize) -> usize {
    match cells {
        0..=64 => 1,
        65..=128 => 2,
        129..=256 => 4,
        _ => SET_WORDS,
    }
}

/// A set of any board's cell ids, in [`SET_WORDS`] words.
pub type CellSet = CellBits<SET_WORDS>;

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

    /// Word `i`, zero past the set's room.
    #[inline]
    fn word(&self, i: usize) -> u64 {
        self.0.get(i).copied().unwrap_or(0)
    }

    /// The same cells in another width; cells past its room are dropped.
    #[inline]
    #[must_use]
    pub fn resized<const V: usize>(self) -> CellBits<V> {
        CellBits(std::array::from_fn(|i| self.word(i)))
    }

    /// The same cells as an engine [`CellSet`].
    #[inline]
    #[must_use]
    pub fn to_set(self) -> CellSet {
        self.resized()
    }

    /// The cells of an engine [`CellSet`] that this width has room for.
    #[inline]
    #[must_use]
    pub fn from_set(set: CellSet) -> Self {
        set.resized()
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
    /// this way can stay in registers (a word picked at run time must live in memory). A
    /// cell past the set's room gives the empty set.
    #[inline]
    #[must_use]
    pub fn single(cell: usize) -> Self {
        let bit = 1u64 << (cell & 63);
        let word = cell >> 6;
        CellBits(std::array::from_fn(|i| if i == word { bit } else { 0 }))
    }

    /// Adds a cell by indexing its word: for sets kept in memory (the engine's position),
    /// where a wide set would cost one operation per word through [`CellBits::single`].
    #[inline]
    pub fn insert_in_place(&mut self, cell: usize) {
        if let Some(w) = self.0.get_mut(cell >> 6) {
            *w |= 1u64 << (cell & 63);
        }
    }

    /// Removes a cell by indexing its word (see [`CellBits::insert_in_place`]).
    #[inline]
    pub fn remove_in_place(&mut self, cell: usize) {
        if let Some(w) = self.0.get_mut(cell >> 6) {
            *w &= !(1u64 << (cell & 63));
        }
    }

    /// Writes `narrow` over the first `V` words and leaves the others: a set stored wide and
    /// worked on in `V` words, whose other words stay empty on a board that fits `V` words.
    #[inline]
    pub fn store<const V: usize>(&mut self, narrow: CellBits<V>) {
        for (w, n) in self.0.iter_mut().zip(narrow.0) {
            *w = n;
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
        self.0.iter().fold(0, |acc, w| acc | w) == 0
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    #[must_use]
    pub fn is_subset(&self, other: &Self) -> bool {
        (*self - *other).is_empty()
    }

    #[inline]
    #[must_use]
    pub fn intersects(&self, other: &Self) -> bool {
        !(*self & *other).is_empty()
    }

    /// The lowest cell, if any.
    #[inline]
    #[must_use]
    pub fn first(&self) -> Option<usize> {
        let (i, w) = self.0.iter().enumerate().find(|(_, w)| **w != 0)?;
        Some(64 * i + w.trailing_zeros() as usize)
    }

    /// The highest cell, if any.
    #[inline]
    #[must_use]
    pub fn last(&self) -> Option<usize> {
        let (i, w) = self.0.iter().enumerate().rev().find(|(_, w)| **w != 0)?;
        Some(64 * i + 63 - w.leading_zeros() as usize)
    }

    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Every cell `c` moved to `c + by`; cells leaving the set's room drop out. On boards
    /// whose cells are numbered row by row, one shift moves a whole set one step in a
    /// direction.
    #[inline]
    #[must_use]
    pub fn shifted(self, by: i32) -> Self {
        match W {
            1 => {
                let bits = self.word(0);
                let moved = match by {
                    0 => bits,
                    1..=63 => bits << by,
                    -63..=-1 => bits >> -by,
                    _ => 0,
                };
                CellBits(std::array::from_fn(|_| moved))
            }
            2 => {
                let bits = u128::from(self.word(0)) | u128::from(self.word(1)) << 64;
                let moved = match by {
                    0 => bits,
                    1..=127 => bits << by,
                    -127..=-1 => bits >> -by,
                    _ => 0,
                };
                #[allow(clippy::cast_possible_truncation)] // reason: splitting into the two words
                CellBits(std::array::from_fn(|i| (moved >> (64 * i)) as u64))
            }
            4 => self.shifted_halves(by),
            _ => self.shifted_words(by),
        }
    }

    /// [`CellBits::shifted`] for four words, as two `u128` halves: a shift within a half and
    /// the bits crossing between halves, with no loop over words.
    #[inline]
    fn shifted_halves(self, by: i32) -> Self {
        let lo = u128::from(self.word(0)) | u128::from(self.word(1)) << 64;
        let hi = u128::from(self.word(2)) | u128::from(self.word(3)) << 64;
        let (lo, hi) = match by {
            0 => (lo, hi),
            1..=127 => (lo << by, (hi << by) | (lo >> (128 - by))),
            128 => (0, lo),
            129..=255 => (0, lo << (by - 128)),
            -127..=-1 => ((lo >> -by) | (hi << (128 + by)), hi >> -by),
            -128 => (hi, 0),
            -255..=-129 => (hi >> (-by - 128), 0),
            _ => (0, 0),
        };
        #[allow(clippy::cast_possible_truncation)] // reason: splitting halves into words
        CellBits(std::array::from_fn(|i| {
            let half = if i < 2 { lo } else { hi };
            (half >> (64 * (i % 2))) as u64
        }))
    }

    /// [`CellBits::shifted`] for any width: whole words first, then the bits within words.
    #[inline]
    fn shifted_words(self, by: i32) -> Self {
        let distance = by.unsigned_abs() as usize;
        if distance >= Self::CAPACITY {
            return Self::EMPTY;
        }
        let (words, bits) = (distance / 64, (distance % 64) as u32);
        let at = |i: usize| self.word(i);
        CellBits(std::array::from_fn(|i| {
            if by >= 0 {
                let Some(from) = i.checked_sub(words) else {
                    return 0;
                };
                let carry = match (bits, from.checked_sub(1)) {
                    (1..=63, Some(below)) => at(below) >> (64 - bits),
                    _ => 0,
                };
                (at(from) << bits) | carry
            } else {
                let from = i + words;
                let carry = if bits > 0 {
                    at(from + 1) << (64 - bits)
                } else {
                    0
                };
                (at(from) >> bits) | carry
            }
        }))
    }

    #[inline]
    #[must_use]
    pub fn iter(&self) -> CellIter<W> {
        CellIter {
            current: self.0.first().copied().unwrap_or(0),
            base: 0,
            next_word: 1,
            words: self.0,
        }
    }
}

impl<const W: usize> FromIterator<usize> for CellBits<W> {
    /// The set of the cells given (each below [`Self::CAPACITY`]).
    fn from_iter<I: IntoIterator<Item = usize>>(cells: I) -> Self {
        let mut set = Self::EMPTY;
        cells.into_iter().for_each(|c| set.insert(c));
        set
    }
}

impl<const W: usize> std::fmt::Debug for CellBits<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterates set cells in increasing order.
pub struct CellIter<const W: usize> {
    /// The bits of word `next_word - 1` not yet returned.
    current: u64,
    /// The cell of bit 0 of `current`.
    base: usize,
    next_word: usize,
    words: [u64; W],
}

impl<const W: usize> Iterator for CellIter<W> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            if self.current != 0 {
                let cell = self.base + self.current.trailing_zeros() as usize;
                self.current &= self.current - 1;
                return Some(cell);
            }
            let word = *self.words.get(self.next_word)?;
            self.current = word;
            self.base = 64 * self.next_word;
            self.next_word += 1;
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
    use super::{CellBits, CellSet, CellSet64};

    /// A set of any width moved cell by cell: what `shifted` must agree with.
    fn shifted_one_by_one<const W: usize>(s: CellBits<W>, by: i32) -> CellBits<W> {
        let mut out = CellBits::EMPTY;
        for c in s.iter() {
            if let Ok(to) = usize::try_from(c as i64 + i64::from(by)) {
                out.insert(to);
            }
        }
        out
    }

    #[test]
    fn wide_sets_shift_iterate_and_count_like_cell_lists() {
        let cells = [0, 1, 63, 64, 65, 127, 128, 191, 200, 255];
        let mut s = CellBits::<4>::EMPTY;
        for c in cells {
            s.insert(c);
        }
        s.insert(256);
        assert_eq!(s.iter().collect::<Vec<_>>(), cells, "no room for cell 256");
        assert_eq!(s.len(), cells.len());
        for by in [
            -300, -256, -255, -200, -129, -128, -127, -64, -63, -1, 0, 1, 7, 63, 64, 65, 127, 128,
            129, 200, 255, 256,
        ] {
            assert_eq!(s.shifted(by), shifted_one_by_one(s, by), "shifted by {by}");
            assert_eq!(s.shifted_words(by), s.shifted(by), "word by word, by {by}");
        }
        let mut big = CellBits::<16>::EMPTY;
        big.insert(1023);
        big.insert(500);
        assert_eq!(big.iter().collect::<Vec<_>>(), vec![500, 1023]);
        assert_eq!(big.shifted(-500), shifted_one_by_one(big, -500));
        assert!(CellBits::<16>::first_n(1000).is_subset(&CellBits::<16>::first_n(1024)));
        assert_eq!(CellBits::<16>::first_n(1024), !CellBits::<16>::EMPTY);
        assert_eq!(
            big.resized::<4>().iter().collect::<Vec<_>>(),
            Vec::<usize>::new()
        );
    }

    #[test]
    fn shifted_moves_cells_across_words_and_drops_the_rest() {
        let mut s = CellBits::<2>::EMPTY;
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
