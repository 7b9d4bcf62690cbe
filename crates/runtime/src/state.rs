//! The position: flat per-cell piece codes plus bitsets kept in step with them, counters, the
//! player to move, and an incremental Zobrist hash.

use rulestone_ir::{CellSet, Program};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Win(u8),
    Draw,
}

/// A position. Piece code 0 is an empty cell; code `1 + 2 * kind + owner` is a piece.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    pub board: Vec<u8>,
    pub occupied: CellSet,
    pub by_player: [CellSet; 2],
    /// Cells holding each piece code: `by_code[k]` holds code `k + 1`.
    pub by_code: Vec<CellSet>,
    pub counters: Vec<i32>,
    pub mover: u8,
    pub result: Option<GameResult>,
    pub hash: u64,
    /// Turns played so far.
    pub ply: u32,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            board: self.board.clone(),
            occupied: self.occupied,
            by_player: self.by_player,
            by_code: self.by_code.clone(),
            counters: self.counters.clone(),
            mover: self.mover,
            result: self.result,
            hash: self.hash,
            ply: self.ply,
        }
    }

    /// Copies into the existing buffers: playouts save and restore the start position once
    /// each, and the derived version would allocate three vectors every time.
    fn clone_from(&mut self, source: &State) {
        self.board.clone_from(&source.board);
        self.occupied = source.occupied;
        self.by_player = source.by_player;
        self.by_code.clone_from(&source.by_code);
        self.counters.clone_from(&source.counters);
        self.mover = source.mover;
        self.result = source.result;
        self.hash = source.hash;
        self.ply = source.ply;
    }
}

/// Random keys for the incremental hash, fixed per program shape.
#[derive(Clone, Debug)]
pub struct Zobrist {
    codes: usize,
    cell: Vec<u64>,
    mover: [u64; 2],
    /// Keys of counter values in `0..COUNTER_TABLE`, per slot; others are computed.
    counter: Vec<u64>,
}

const COUNTER_TABLE: usize = 128;

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl Zobrist {
    #[must_use]
    pub fn new(p: &Program) -> Zobrist {
        let codes = 1 + 2 * p.pieces.len();
        let cell = (0..p.board.len() * codes)
            .map(|i| {
                if i % codes == 0 {
                    0
                } else {
                    splitmix(i as u64 + 1)
                }
            })
            .collect();
        let counter = (0..p.counters.len() * COUNTER_TABLE)
            .map(|i| Zobrist::counter_key(i / COUNTER_TABLE, (i % COUNTER_TABLE) as i32))
            .collect();
        Zobrist {
            codes,
            cell,
            mover: [0, splitmix(u64::MAX)],
            counter,
        }
    }

    #[inline]
    #[must_use]
    pub fn cell(&self, cell: usize, code: u8) -> u64 {
        self.cell[cell * self.codes + usize::from(code)]
    }

    #[inline]
    #[must_use]
    pub fn mover(&self, player: u8) -> u64 {
        self.mover[usize::from(player & 1)]
    }

    /// The key for a counter slot holding a value.
    #[inline]
    #[must_use]
    pub fn counter(&self, slot: usize, value: i32) -> u64 {
        match usize::try_from(value) {
            Ok(v) if v < COUNTER_TABLE => self.counter[slot * COUNTER_TABLE + v],
            _ => Zobrist::counter_key(slot, value),
        }
    }

    fn counter_key(slot: usize, value: i32) -> u64 {
        splitmix(((slot as u64) << 32) ^ u64::from(value as u32) ^ 0xC0FF_EE00_0000_0000)
    }
}

impl State {
    /// The empty board with counters at their initial values, the first player to move.
    #[must_use]
    pub fn empty(p: &Program, z: &Zobrist) -> State {
        let counters: Vec<i32> = p.counters.iter().map(|c| c.initial).collect();
        let mut s = State {
            board: vec![0; p.board.len()],
            occupied: CellSet::EMPTY,
            by_player: [CellSet::EMPTY; 2],
            by_code: vec![CellSet::EMPTY; 2 * p.pieces.len()],
            counters,
            mover: 0,
            result: None,
            hash: 0,
            ply: 0,
        };
        s.hash = s.compute_hash(z);
        s
    }

    /// The hash computed from scratch (tests compare it with the incremental one).
    #[must_use]
    pub fn compute_hash(&self, z: &Zobrist) -> u64 {
        let mut h = z.mover(self.mover);
        for (c, &code) in self.board.iter().enumerate() {
            h ^= z.cell(c, code);
        }
        for (i, &v) in self.counters.iter().enumerate() {
            h ^= z.counter(i, v);
        }
        h
    }

    /// Puts `code` on a cell (0 clears it), keeping bitsets and hash in step.
    #[inline]
    pub fn set_cell(&mut self, z: &Zobrist, cell: usize, code: u8) {
        self.hash ^= z.cell(cell, self.board[cell]) ^ z.cell(cell, code);
        self.set_cell_unhashed(cell, code);
    }

    /// [`State::set_cell`] without the hash: the caller restores the cell before the hash is
    /// read again.
    #[inline]
    pub fn set_cell_unhashed(&mut self, cell: usize, code: u8) {
        let old = self.board[cell];
        if old == code {
            return;
        }
        // The sets live in memory and are as wide as the largest board: only the cell's own
        // word changes.
        if old != 0 {
            self.occupied.remove_in_place(cell);
            self.by_player[usize::from((old - 1) & 1)].remove_in_place(cell);
            if let Some(b) = self.by_code.get_mut(usize::from(old) - 1) {
                b.remove_in_place(cell);
            }
        }
        if code != 0 {
            self.occupied.insert_in_place(cell);
            self.by_player[usize::from((code - 1) & 1)].insert_in_place(cell);
            if let Some(b) = self.by_code.get_mut(usize::from(code) - 1) {
                b.insert_in_place(cell);
            }
        }
        self.board[cell] = code;
    }

    #[inline]
    pub fn set_counter(&mut self, z: &Zobrist, slot: usize, value: i32) {
        let old = self.counters[slot];
        self.hash ^= z.counter(slot, old) ^ z.counter(slot, value);
        self.counters[slot] = value;
    }

    #[inline]
    pub fn set_mover(&mut self, z: &Zobrist, player: u8) {
        self.hash ^= z.mover(self.mover) ^ z.mover(player);
        self.mover = player;
    }

    /// The owner of the piece on a cell.
    #[inline]
    #[must_use]
    pub fn owner(&self, cell: usize) -> Option<u8> {
        match self.board[cell] {
            0 => None,
            code => Some((code - 1) & 1),
        }
    }
}
