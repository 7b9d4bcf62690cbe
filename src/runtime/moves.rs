//! A move: the decisions taken at each choice point of one turn, in order.

/// The most decisions one turn may take.
pub const MAX_DECISIONS: usize = 23;

/// One whole turn, as the sequence of choices that replays it. Small and `Copy`, so move lists
/// are flat buffers with no allocation per move. Equality, hashing and printing see only the
/// decisions taken: bytes past `len` are left over from other moves of the same walk.
#[derive(Clone, Copy)]
pub struct Move {
    len: u8,
    decisions: [u8; MAX_DECISIONS],
}

impl Default for Move {
    fn default() -> Self {
        Move {
            len: 0,
            decisions: [0; MAX_DECISIONS],
        }
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.decisions() == other.decisions()
    }
}

impl Eq for Move {}

impl std::hash::Hash for Move {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.decisions().hash(state);
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Move{:?}", self.decisions())
    }
}

impl Move {
    /// Appends a decision; false when the move is full.
    #[inline]
    pub fn push(&mut self, d: u8) -> bool {
        let i = usize::from(self.len);
        if i >= MAX_DECISIONS {
            return false;
        }
        self.decisions[i] = d;
        self.len += 1;
        true
    }

    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = u8::try_from(len.min(MAX_DECISIONS)).unwrap_or(0);
    }

    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> Option<u8> {
        (i < self.len()).then(|| self.decisions[i])
    }

    #[must_use]
    pub fn decisions(&self) -> &[u8] {
        &self.decisions[..self.len()]
    }
}
