//! Hand-written Pylos move generator: a speed baseline and an independent perft oracle.
//!
//! Written from `shared/rules/pylos.md` only. Cells are indexed level by level, then by file
//! (x), then by rank (y), so index order is notation order. Occupancy is one bitboard per
//! colour; a `u128` is used because base 6 has 91 cells. Support / resting-on masks and the
//! per-cell 2x2 blocks and lines are precomputed once per base.
#![allow(dead_code)]

use std::sync::OnceLock;

type Bits = u128;

/// "No cell" marker in a [`Move`] (a place has no source; unused take-back slots).
const NONE: u8 = u8::MAX;

/// Random playouts stop after this many plies and count as "other" (take-backs allow cycles).
const MAX_PLIES: u64 = 1000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variant {
    Basic,
    Standard,
    Advanced,
}

/// One whole turn: a place (`from == NONE`) or a raise, plus 0..=2 take-backs in lift order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub take: [u8; 2],
    pub ntake: u8,
}

struct Tables {
    ncells: usize,
    top: u8,
    level: Vec<u8>,
    file: Vec<u8>,
    rank: Vec<u8>,
    /// The four cells a cell rests on (0 on level 1).
    supp: Vec<Bits>,
    /// The cells resting on a cell.
    above: Vec<Bits>,
    /// `higher[l]`: every cell of a level strictly above `l`.
    higher: Vec<Bits>,
    level1: Bits,
    /// The 2x2 blocks (as masks) containing each cell.
    blocks: Vec<Vec<Bits>>,
    /// The full rows / columns of level 1 or 2 containing each cell (advanced variant).
    lines: Vec<Vec<Bits>>,
}

#[inline]
fn bit(c: u8) -> Bits {
    1 << c
}

/// Pops the lowest set bit's index.
#[inline]
fn pop(b: &mut Bits) -> u8 {
    #[allow(clippy::cast_possible_truncation)] // reason: a u128 has at most 128 bit positions
    let c = b.trailing_zeros() as u8;
    *b &= *b - 1;
    c
}

impl Tables {
    #[allow(clippy::cast_possible_truncation)] // reason: base <= 6, so every index fits in u8
    fn build(base: usize) -> Tables {
        let mut offset = vec![0usize; base + 2];
        for l in 1..=base {
            let n = base - l + 1;
            offset[l + 1] = offset[l] + n * n;
        }
        let ncells = offset[base + 1];
        let idx = |l: usize, x: usize, y: usize| offset[l] + x * (base - l + 1) + y;
        let mut t = Tables {
            ncells,
            top: (ncells - 1) as u8,
            level: vec![0; ncells],
            file: vec![0; ncells],
            rank: vec![0; ncells],
            supp: vec![0; ncells],
            above: vec![0; ncells],
            higher: vec![0; base + 1],
            level1: 0,
            blocks: vec![Vec::new(); ncells],
            lines: vec![Vec::new(); ncells],
        };
        for l in 1..=base {
            let n = base - l + 1;
            for x in 0..n {
                for y in 0..n {
                    let c = idx(l, x, y);
                    t.level[c] = l as u8;
                    t.file[c] = x as u8;
                    t.rank[c] = y as u8;
                    if l == 1 {
                        t.level1 |= 1 << c;
                    } else {
                        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                            let s = idx(l - 1, x + dx, y + dy);
                            t.supp[c] |= 1 << s;
                            t.above[s] |= 1 << c;
                        }
                    }
                    for lower in 0..l {
                        t.higher[lower] |= 1 << c;
                    }
                }
            }
            // 2x2 blocks of this level.
            for x in 0..n.saturating_sub(1) {
                for y in 0..n - 1 {
                    let cells = [
                        idx(l, x, y),
                        idx(l, x + 1, y),
                        idx(l, x, y + 1),
                        idx(l, x + 1, y + 1),
                    ];
                    let mask = cells.iter().fold(0, |m, &c| m | (1 << c));
                    for c in cells {
                        t.blocks[c].push(mask);
                    }
                }
            }
            // Rows and columns of levels 1 and 2 (only when the level is not the 1x1 top).
            if l <= 2 && n >= 2 {
                for i in 0..n {
                    let col: Vec<usize> = (0..n).map(|j| idx(l, i, j)).collect();
                    let row: Vec<usize> = (0..n).map(|j| idx(l, j, i)).collect();
                    for line in [col, row] {
                        let mask = line.iter().fold(0, |m, &c| m | (1 << c));
                        for c in line {
                            t.lines[c].push(mask);
                        }
                    }
                }
            }
        }
        t
    }
}

fn tables(base: usize) -> &'static Tables {
    static TABLES: OnceLock<Vec<Tables>> = OnceLock::new();
    assert!((2..=6).contains(&base), "base must be 2..=6, got {base}");
    &TABLES.get_or_init(|| (2..=6).map(Tables::build).collect())[base - 2]
}

#[derive(Clone)]
pub struct Pylos {
    t: &'static Tables,
    variant: Variant,
    balls: [Bits; 2],
    reserve: [u32; 2],
    /// 0 = Light, 1 = Dark.
    side: u8,
    /// Set when a ball was put on the top cell.
    won: Option<u8>,
}

impl Pylos {
    #[must_use]
    pub fn new(variant: Variant, base: usize, reserve: u32) -> Self {
        Pylos {
            t: tables(base),
            variant,
            balls: [0; 2],
            reserve: [reserve; 2],
            side: 0,
            won: None,
        }
    }

    /// Empty cells on level 1, or whose four supports are occupied.
    #[inline]
    fn available(&self, occ: Bits) -> Bits {
        let t = self.t;
        let empty = !occ & (Bits::MAX >> (128 - t.ncells));
        let mut avail = empty & t.level1;
        let mut upper = empty & !t.level1;
        while upper != 0 {
            let c = pop(&mut upper);
            let s = t.supp[c as usize];
            if occ & s == s {
                avail |= bit(c);
            }
        }
        avail
    }

    /// The balls of `mine` with nothing resting on them.
    #[inline]
    fn free(&self, mine: Bits, occ: Bits) -> Bits {
        let mut blocked = 0;
        let mut upper = occ & !self.t.level1;
        while upper != 0 {
            blocked |= self.t.supp[pop(&mut upper) as usize];
        }
        mine & !blocked
    }

    /// Does the ball just put on `to` complete a take-back pattern of `mine`?
    #[inline]
    fn completes(&self, to: u8, mine: Bits) -> bool {
        let t = self.t;
        t.blocks[to as usize].iter().any(|&m| m & !mine == 0)
            || (self.variant == Variant::Advanced
                && t.lines[to as usize].iter().any(|&m| m & !mine == 0))
    }

    /// Pushes the move putting a ball on `to` (from `from`), expanded with its take-backs.
    /// `mine` / `occ` are the boards after the ball was put down.
    fn push_with_takebacks(&self, out: &mut Vec<Move>, from: u8, to: u8, mine: Bits, occ: Bits) {
        let mut mv = Move {
            from,
            to,
            take: [NONE; 2],
            ntake: 0,
        };
        if to == self.t.top || self.variant == Variant::Basic || !self.completes(to, mine) {
            out.push(mv);
            return;
        }
        let free1 = self.free(mine, occ);
        let mut firsts = free1;
        while firsts != 0 {
            let b1 = pop(&mut firsts);
            mv.take = [b1, NONE];
            mv.ntake = 1;
            out.push(mv);
            let mut seconds = self.free(mine & !bit(b1), occ & !bit(b1));
            while seconds != 0 {
                let b2 = pop(&mut seconds);
                // Both orders legal (b2 was free already): keep only notation order.
                if free1 & bit(b2) != 0 && b2 < b1 {
                    continue;
                }
                mv.take = [b1, b2];
                mv.ntake = 2;
                out.push(mv);
            }
        }
    }

    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.won.is_some() {
            return;
        }
        let t = self.t;
        let me = self.side as usize;
        let mine = self.balls[me];
        let occ = self.balls[0] | self.balls[1];
        let avail = self.available(occ);
        if self.reserve[me] > 0 {
            let mut targets = avail;
            while targets != 0 {
                let to = pop(&mut targets);
                self.push_with_takebacks(out, NONE, to, mine | bit(to), occ | bit(to));
            }
        }
        let mut sources = self.free(mine, occ);
        while sources != 0 {
            let s = pop(&mut sources);
            let mut targets = avail & !t.above[s as usize] & t.higher[t.level[s as usize] as usize];
            let (mine2, occ2) = (mine & !bit(s), occ & !bit(s));
            while targets != 0 {
                let to = pop(&mut targets);
                self.push_with_takebacks(out, s, to, mine2 | bit(to), occ2 | bit(to));
            }
        }
    }

    #[allow(clippy::trivially_copy_pass_by_ref)] // reason: the shared API takes `&Move`
    pub fn play(&mut self, m: &Move) {
        let me = self.side as usize;
        if m.from == NONE {
            self.reserve[me] -= 1;
        } else {
            self.balls[me] &= !bit(m.from);
        }
        self.balls[me] |= bit(m.to);
        for &b in &m.take[..m.ntake as usize] {
            self.balls[me] &= !bit(b);
            self.reserve[me] += 1;
        }
        if m.to == self.t.top {
            self.won = Some(self.side);
        }
        self.side ^= 1;
    }

    /// Whether the side to move has any legal turn (assuming no ball is on the top cell).
    fn has_move(&self) -> bool {
        if self.reserve[self.side as usize] > 0 {
            // The top cell is empty, so the lowest non-full level has an available cell.
            return true;
        }
        let t = self.t;
        let mine = self.balls[self.side as usize];
        let occ = self.balls[0] | self.balls[1];
        let avail = self.available(occ);
        let mut sources = self.free(mine, occ);
        while sources != 0 {
            let s = pop(&mut sources) as usize;
            if avail & !t.above[s] & t.higher[t.level[s] as usize] != 0 {
                return true;
            }
        }
        false
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.won.is_some() || !self.has_move()
    }

    #[must_use]
    pub fn winner(&self) -> Option<u8> {
        if self.won.is_some() {
            self.won
        } else if self.has_move() {
            None
        } else {
            Some(self.side ^ 1)
        }
    }

    fn cell_name(&self, c: u8) -> String {
        let c = c as usize;
        format!(
            "{}{}{}",
            self.t.level[c],
            char::from(b'a' + self.t.file[c]),
            self.t.rank[c] + 1
        )
    }

    #[must_use]
    #[allow(clippy::trivially_copy_pass_by_ref)] // reason: the shared API takes `&Move`
    pub fn move_to_string(&self, m: &Move) -> String {
        let mut s = String::new();
        if m.from != NONE {
            s.push_str(&self.cell_name(m.from));
            s.push('-');
        }
        s.push_str(&self.cell_name(m.to));
        for &b in &m.take[..m.ntake as usize] {
            s.push_str(" x");
            s.push_str(&self.cell_name(b));
        }
        s
    }
}

fn perft_rec(pos: &Pylos, depth: u32, bufs: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
    pos.legal_moves(buf);
    let mut nodes = 0;
    for m in buf.iter() {
        let mut child = pos.clone();
        child.play(m);
        nodes += perft_rec(&child, depth - 1, rest);
    }
    nodes
}

/// Leaf count at `depth`; every leaf move is applied (no bulk counting).
#[must_use]
pub fn perft(pos: &Pylos, depth: u32) -> u64 {
    let mut bufs: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    perft_rec(pos, depth, &mut bufs)
}

/// `SplitMix64`, enough for uniform random playouts.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (multiply-shift).
    #[allow(clippy::cast_possible_truncation)] // reason: the result is < n, which is a usize
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// Plays `games` uniformly random games; returns total plies and
/// `[Light wins, Dark wins, other]` ("other": stopped after `MAX_PLIES` plies).
#[must_use]
pub fn random_playouts(
    variant: Variant,
    base: usize,
    reserve: u32,
    games: u64,
    seed: u64,
) -> (u64, [u64; 3]) {
    let mut rng = Rng(seed);
    let mut moves = Vec::with_capacity(256);
    let mut plies = 0;
    let mut results = [0u64; 3];
    for _ in 0..games {
        let mut pos = Pylos::new(variant, base, reserve);
        let mut n = 0;
        let outcome = loop {
            if let Some(w) = pos.won {
                break w as usize;
            }
            if n == MAX_PLIES {
                break 2;
            }
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break (pos.side ^ 1) as usize;
            }
            let m = moves[rng.below(moves.len())];
            pos.play(&m);
            n += 1;
        };
        plies += n;
        results[outcome] += 1;
    }
    (plies, results)
}
