//! An independent reference move generator ("oracle") for Steinplatz v1.0, written only from the
//! binding rules in `/work/shared/rules/steinplatz.md`, in plain Rust with no dependencies beyond
//! std. Include it with `#[path = "steinplatz/oracle.rs"] mod oracle;`.
//!
//! The board is 9 files (`a`–`i`, east is towards `i`) by 10 ranks (`1`–`10`, north is towards
//! rank 10). A cell index is `rank * 9 + file` with both counted from 0.
#![allow(dead_code)]

use std::collections::HashSet;
use std::fmt;
use std::sync::OnceLock;

/// Files `a`–`i`.
pub const FILES: usize = 9;
/// Ranks `1`–`10`.
pub const RANKS: usize = 10;
/// Cells of the field.
pub const CELLS: usize = FILES * RANKS;
/// No cell may rise above this height.
pub const MAX_HEIGHT: i32 = 5;
/// Direction names in notation order; index 0 = n, 1 = e, 2 = s, 3 = w.
pub const DIRECTIONS: [char; 4] = ['n', 'e', 's', 'w'];

/// A player; Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    Black,
    Blue,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::Black => Player::Blue,
            Player::Blue => Player::Black,
        }
    }

    /// 0 for Black, 1 for Blue.
    pub fn index(self) -> usize {
        match self {
            Player::Black => 0,
            Player::Blue => 1,
        }
    }
}

/// One cell of a stone in its own frame: offset, solid span `[bottom, top)` and whether it is a foot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeCell {
    pub dx: i32,
    pub dy: i32,
    pub bottom: i32,
    pub top: i32,
    pub foot: bool,
}

const fn sc(dx: i32, dy: i32, bottom: i32, top: i32, foot: bool) -> ShapeCell {
    ShapeCell {
        dx,
        dy,
        bottom,
        top,
        foot,
    }
}

/// A row of the stone table.
#[derive(Debug)]
pub struct StoneDef {
    pub name: &'static str,
    pub count: u8,
    pub points: u32,
    /// Step, Arch and Bridge may be placed upside down (`!`).
    pub reversible: bool,
    pub cells: &'static [ShapeCell],
}

/// The stone table, in table order (which is also notation order).
pub const STONES: [StoneDef; 10] = [
    StoneDef {
        name: "Block",
        count: 6,
        points: 1,
        reversible: false,
        cells: &[sc(0, 0, 0, 1, true)],
    },
    StoneDef {
        name: "Brick",
        count: 4,
        points: 4,
        reversible: false,
        cells: &[sc(0, 0, 0, 1, true), sc(1, 0, 0, 1, true)],
    },
    StoneDef {
        name: "Post",
        count: 3,
        points: 4,
        reversible: false,
        cells: &[sc(0, 0, 0, 2, true)],
    },
    StoneDef {
        name: "Beam",
        count: 3,
        points: 9,
        reversible: false,
        cells: &[
            sc(0, 0, 0, 1, true),
            sc(1, 0, 0, 1, false),
            sc(2, 0, 0, 1, true),
        ],
    },
    StoneDef {
        name: "Step",
        count: 2,
        points: 9,
        reversible: true,
        cells: &[sc(0, 0, 0, 2, true), sc(1, 0, 0, 1, true)],
    },
    StoneDef {
        name: "Corner",
        count: 2,
        points: 9,
        reversible: false,
        cells: &[
            sc(0, 0, 0, 1, false),
            sc(1, 0, 0, 1, true),
            sc(0, 1, 0, 1, true),
        ],
    },
    StoneDef {
        name: "Pillar",
        count: 2,
        points: 9,
        reversible: false,
        cells: &[sc(0, 0, 0, 3, true)],
    },
    StoneDef {
        name: "Span",
        count: 1,
        points: 16,
        reversible: false,
        cells: &[
            sc(0, 0, 0, 1, true),
            sc(1, 0, 0, 1, false),
            sc(2, 0, 0, 1, false),
            sc(3, 0, 0, 1, true),
        ],
    },
    StoneDef {
        name: "Arch",
        count: 1,
        points: 25,
        reversible: true,
        cells: &[
            sc(0, 0, 0, 2, true),
            sc(1, 0, 1, 2, false),
            sc(2, 0, 0, 2, true),
        ],
    },
    StoneDef {
        name: "Bridge",
        count: 1,
        points: 36,
        reversible: true,
        cells: &[
            sc(0, 0, 0, 2, true),
            sc(1, 0, 1, 2, false),
            sc(2, 0, 1, 2, false),
            sc(3, 0, 0, 2, true),
        ],
    },
];

/// Cell index of (file, rank), both from 0.
pub fn cell_index(file: usize, rank: usize) -> usize {
    rank * FILES + file
}

/// (file, rank) of a cell index, both from 0.
pub fn cell_coords(cell: usize) -> (usize, usize) {
    (cell % FILES, cell / FILES)
}

/// `a1` … `i10`.
pub fn cell_name(cell: usize) -> String {
    let (f, r) = cell_coords(cell);
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// Parses `a1` … `i10` (no leading zeros).
pub fn parse_cell(s: &str) -> Option<usize> {
    let mut chars = s.chars();
    let file_char = chars.next()?;
    if !('a'..='i').contains(&file_char) {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.starts_with('0') || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let rank: usize = digits.parse().ok()?;
    if !(1..=RANKS).contains(&rank) {
        return None;
    }
    Some(cell_index(file_char as usize - 'a' as usize, rank - 1))
}

/// The stone's cells turned upside down (if `flipped`) and then turned so that its +x axis points
/// in direction `dir` (0 = n, 1 = e, 2 = s, 3 = w); +y is +x turned a quarter anticlockwise.
/// Offsets of the result are (file, rank) deltas.
pub fn oriented_shape(stone: usize, flipped: bool, dir: usize) -> Vec<ShapeCell> {
    let def = &STONES[stone];
    let height = def.cells.iter().map(|c| c.top).max().unwrap_or(0);
    def.cells
        .iter()
        .map(|c| {
            let (bottom, top) = if flipped {
                (height - c.top, height - c.bottom)
            } else {
                (c.bottom, c.top)
            };
            // Images of +x and +y: e: (1,0),(0,1); n: (0,1),(-1,0); w: (-1,0),(0,-1); s: (0,-1),(1,0).
            let (dx, dy) = match dir {
                0 => (-c.dy, c.dx),
                1 => (c.dx, c.dy),
                2 => (c.dy, -c.dx),
                _ => (-c.dx, -c.dy),
            };
            ShapeCell {
                dx,
                dy,
                bottom,
                top,
                foot: c.foot,
            }
        })
        .collect()
}

/// One covered field cell of a placement, with the span relative to the stone's base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Covered {
    pub cell: usize,
    pub bottom: i32,
    pub top: i32,
    pub foot: bool,
}

/// A placement as spelled: stone (table index), upside down or not, anchor cell, direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub stone: usize,
    pub flipped: bool,
    pub anchor: usize,
    pub dir: usize,
}

impl Placement {
    /// The covered cells, or `None` when some cell is off the field (rule 1).
    pub fn cover(&self) -> Option<Vec<Covered>> {
        let (af, ar) = cell_coords(self.anchor);
        oriented_shape(self.stone, self.flipped, self.dir)
            .into_iter()
            .map(|c| {
                let f = af as i32 + c.dx;
                let r = ar as i32 + c.dy;
                if (0..FILES as i32).contains(&f) && (0..RANKS as i32).contains(&r) {
                    Some(Covered {
                        cell: cell_index(f as usize, r as usize),
                        bottom: c.bottom,
                        top: c.top,
                        foot: c.foot,
                    })
                } else {
                    None
                }
            })
            .collect()
    }
}

/// A move: a placement or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Place(Placement),
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pass => write!(f, "pass"),
            Move::Place(p) => write!(
                f,
                "{}{} {} {}",
                STONES[p.stone].name,
                if p.flipped { "!" } else { "" },
                cell_name(p.anchor),
                DIRECTIONS[p.dir]
            ),
        }
    }
}

/// Parses a move in notation: `pass`, or `Stone[!] anchor direction`.
pub fn parse_move(s: &str) -> Result<Move, String> {
    let words: Vec<&str> = s.split_whitespace().collect();
    if words == ["pass"] {
        return Ok(Move::Pass);
    }
    let [name, anchor, dir] = words[..] else {
        return Err(format!("malformed move `{s}`"));
    };
    let (name, flipped) = match name.strip_suffix('!') {
        Some(n) => (n, true),
        None => (name, false),
    };
    let stone = STONES
        .iter()
        .position(|d| d.name == name)
        .ok_or_else(|| format!("unknown stone `{name}` in `{s}`"))?;
    if flipped && !STONES[stone].reversible {
        return Err(format!("{name} cannot be turned upside down"));
    }
    let anchor = parse_cell(anchor).ok_or_else(|| format!("bad cell `{anchor}` in `{s}`"))?;
    let dir = match dir {
        "n" => 0,
        "e" => 1,
        "s" => 2,
        "w" => 3,
        _ => return Err(format!("bad direction `{dir}` in `{s}`")),
    };
    Ok(Move::Place(Placement {
        stone,
        flipped,
        anchor,
        dir,
    }))
}

/// A placement in the precomputed fast table (cells known to be on the field).
#[derive(Clone, Copy, Debug)]
struct FastPlacement {
    len: usize,
    cells: [Covered; 4],
}

/// All on-field placements of one stone in one orientation; orientations that cover the same
/// cells with the same spans (up to translation) share one class, so every move counts once.
#[derive(Debug)]
struct Class {
    stone: usize,
    /// Legal on bare board: with every `H = 0` the stone settles at `z = 0` (every shape has a cell
    /// with bottom 0), so it is legal exactly when every foot has bottom 0 and no top exceeds 5.
    flat_legal: bool,
    placements: Vec<FastPlacement>,
}

/// The fast tables: the classes, and for every cell the (class, placement) pairs covering it.
#[derive(Debug)]
struct Tables {
    classes: Vec<Class>,
    by_cell: Vec<Vec<(usize, usize)>>,
}

/// Orientation key of a shape, translated so that its smallest offsets are 0.
fn shape_key(shape: &[ShapeCell], with_feet: bool) -> Vec<(i32, i32, i32, i32, bool)> {
    let min_x = shape.iter().map(|c| c.dx).min().unwrap_or(0);
    let min_y = shape.iter().map(|c| c.dy).min().unwrap_or(0);
    let mut key: Vec<_> = shape
        .iter()
        .map(|c| {
            (
                c.dx - min_x,
                c.dy - min_y,
                c.bottom,
                c.top,
                with_feet && c.foot,
            )
        })
        .collect();
    key.sort();
    key
}

/// Every (flipped, dir) orientation allowed for a stone.
fn orientations(stone: usize) -> Vec<(bool, usize)> {
    let flips: &[bool] = if STONES[stone].reversible {
        &[false, true]
    } else {
        &[false]
    };
    let mut out = Vec::new();
    for dir in 0..4 {
        for &flipped in flips {
            out.push((flipped, dir));
        }
    }
    out
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut classes = Vec::new();
        for stone in 0..STONES.len() {
            let mut seen = HashSet::new();
            for (flipped, dir) in orientations(stone) {
                if !seen.insert(shape_key(&oriented_shape(stone, flipped, dir), false)) {
                    continue;
                }
                let mut placements = Vec::new();
                for anchor in 0..CELLS {
                    let p = Placement {
                        stone,
                        flipped,
                        anchor,
                        dir,
                    };
                    if let Some(cover) = p.cover() {
                        let mut cells = [cover[0]; 4];
                        cells[..cover.len()].copy_from_slice(&cover);
                        placements.push(FastPlacement {
                            len: cover.len(),
                            cells,
                        });
                    }
                }
                let shape = oriented_shape(stone, flipped, dir);
                let flat_legal = shape
                    .iter()
                    .all(|c| (!c.foot || c.bottom == 0) && c.top <= MAX_HEIGHT);
                classes.push(Class {
                    stone,
                    flat_legal,
                    placements,
                });
            }
        }
        let mut by_cell = vec![Vec::new(); CELLS];
        for (k, class) in classes.iter().enumerate() {
            for (i, p) in class.placements.iter().enumerate() {
                for c in &p.cells[..p.len] {
                    by_cell[c.cell].push((k, i));
                }
            }
        }
        Tables { classes, by_cell }
    })
}

/// A Steinplatz position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Height `H` of every cell (0 = bare board).
    pub heights: [u8; CELLS],
    /// Top colour `T` of every cell.
    pub tops: [Option<Player>; CELLS],
    /// Unplayed stones per player (index by `Player::index`) and stone (table order).
    pub remaining: [[u8; 10]; 2],
    /// The side to move.
    pub to_move: Player,
    /// Consecutive passes just made.
    pub passes: u8,
    /// The winner, if someone completed a path.
    pub winner: Option<Player>,
    /// The game is over (a win or two passes in a row).
    pub finished: bool,
}

impl Position {
    /// The empty field, every stone unplayed, Black to move.
    pub fn start() -> Position {
        let mut counts = [0u8; 10];
        for (c, def) in counts.iter_mut().zip(STONES.iter()) {
            *c = def.count;
        }
        Position {
            heights: [0; CELLS],
            tops: [None; CELLS],
            remaining: [counts; 2],
            to_move: Player::Black,
            passes: 0,
            winner: None,
            finished: false,
        }
    }

    /// Settles a stone over `cells` for the side to move: its base `z` when the placement is legal
    /// (rules 2–4; rule 1 is checked by `Placement::cover`), `None` otherwise.
    fn settle(&self, cells: &[Covered]) -> Option<i32> {
        let mut z = 0;
        for c in cells {
            z = z.max(i32::from(self.heights[c.cell]) - c.bottom);
        }
        for c in cells {
            let h = i32::from(self.heights[c.cell]);
            if c.foot && (z + c.bottom != h || (h != 0 && self.tops[c.cell] != Some(self.to_move)))
            {
                return None;
            }
            if z + c.top > MAX_HEIGHT {
                return None;
            }
        }
        Some(z)
    }

    /// Whether the side to move may make this placement now.
    pub fn is_legal_placement(&self, p: &Placement) -> bool {
        !self.finished
            && self.remaining[self.to_move.index()][p.stone] > 0
            && p.cover().is_some_and(|cells| self.settle(&cells).is_some())
    }

    /// Every legal placement, one per distinct (cell, bottom, top) set, each with its smallest
    /// spelling, in canonical order: stone table order, anchor file then rank, direction n e s w,
    /// unflipped before flipped.
    pub fn legal_placements(&self) -> Vec<Placement> {
        let mut out = Vec::new();
        if self.finished {
            return out;
        }
        let mut seen: HashSet<Vec<(usize, i32, i32)>> = HashSet::new();
        for (stone, def) in STONES.iter().enumerate() {
            if self.remaining[self.to_move.index()][stone] == 0 {
                continue;
            }
            for file in 0..FILES {
                for rank in 0..RANKS {
                    for dir in 0..4 {
                        for flipped in [false, true] {
                            if flipped && !def.reversible {
                                continue;
                            }
                            let p = Placement {
                                stone,
                                flipped,
                                anchor: cell_index(file, rank),
                                dir,
                            };
                            let Some(cells) = p.cover() else { continue };
                            let Some(z) = self.settle(&cells) else {
                                continue;
                            };
                            let mut key: Vec<(usize, i32, i32)> = cells
                                .iter()
                                .map(|c| (c.cell, z + c.bottom, z + c.top))
                                .collect();
                            key.sort();
                            if seen.insert(key) {
                                out.push(p);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Every legal move: the placements, or `pass` when there is none; nothing once finished.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.finished {
            return Vec::new();
        }
        let placements = self.legal_placements();
        if placements.is_empty() {
            vec![Move::Pass]
        } else {
            placements.into_iter().map(Move::Place).collect()
        }
    }

    /// Every legal move in canonical spelling and order.
    pub fn moves(&self) -> Vec<String> {
        self.legal_moves().iter().map(Move::to_string).collect()
    }

    /// The number of legal moves, counted from the precomputed orientation classes without
    /// building or deduplicating moves (same result as `legal_moves().len()`): every on-field
    /// placement of every class is settled and checked.
    pub fn count_moves_simple(&self) -> u64 {
        if self.finished {
            return 0;
        }
        let stock = &self.remaining[self.to_move.index()];
        let mut n = 0;
        for class in &tables().classes {
            if stock[class.stone] == 0 {
                continue;
            }
            for p in &class.placements {
                if self.settle(&p.cells[..p.len]).is_some() {
                    n += 1;
                }
            }
        }
        if n == 0 {
            1
        } else {
            n
        }
    }

    /// The same count as `count_moves_simple`, faster: a placement over bare cells only is legal
    /// exactly when its class is `flat_legal`, so start from those counts and re-check only the
    /// placements touching a raised cell (each once, at its lowest-indexed raised cell).
    pub fn count_moves(&self) -> u64 {
        if self.finished {
            return 0;
        }
        let t = tables();
        let stock = &self.remaining[self.to_move.index()];
        let mut n: i64 = 0;
        for class in &t.classes {
            if stock[class.stone] > 0 && class.flat_legal {
                n += class.placements.len() as i64;
            }
        }
        for (cell, &h) in self.heights.iter().enumerate() {
            if h == 0 {
                continue;
            }
            for &(k, i) in &t.by_cell[cell] {
                let class = &t.classes[k];
                if stock[class.stone] == 0 {
                    continue;
                }
                let cells = &t.classes[k].placements[i].cells[..class.placements[i].len];
                if cells
                    .iter()
                    .any(|c| c.cell < cell && self.heights[c.cell] > 0)
                {
                    continue; // counted at its lowest raised cell
                }
                n += i64::from(self.settle(cells).is_some()) - i64::from(class.flat_legal);
            }
        }
        if n == 0 {
            1
        } else {
            n as u64
        }
    }

    /// Applies a move known to be legal.
    pub fn apply(&mut self, mv: Move) {
        let mover = self.to_move;
        match mv {
            Move::Pass => {
                self.passes += 1;
                if self.passes >= 2 {
                    self.finished = true;
                }
            }
            Move::Place(p) => {
                let cells = p.cover().unwrap_or_default();
                let z = self.settle(&cells).unwrap_or(0);
                for c in &cells {
                    self.heights[c.cell] = (z + c.top) as u8;
                    self.tops[c.cell] = Some(mover);
                }
                self.remaining[mover.index()][p.stone] -= 1;
                self.passes = 0;
                if self.has_path(mover) {
                    self.winner = Some(mover);
                    self.finished = true;
                }
            }
        }
        self.to_move = mover.other();
    }

    /// Parses a move in any legal spelling and plays it; an error if malformed or illegal.
    pub fn play(&mut self, mv: &str) -> Result<(), String> {
        if self.finished {
            return Err(format!("`{mv}`: the game is over"));
        }
        let parsed = parse_move(mv)?;
        match parsed {
            Move::Pass => {
                if !self.legal_placements().is_empty() {
                    return Err("pass is only legal when no placement exists".to_string());
                }
            }
            Move::Place(p) => {
                if self.remaining[self.to_move.index()][p.stone] == 0 {
                    return Err(format!("`{mv}`: no {} left", STONES[p.stone].name));
                }
                if !self.is_legal_placement(&p) {
                    return Err(format!("`{mv}` is illegal"));
                }
            }
        }
        self.apply(parsed);
        Ok(())
    }

    /// Whether `p`'s colour, seen from above, connects rank 1 to rank 10 orthogonally.
    pub fn has_path(&self, p: Player) -> bool {
        let mut seen = [false; CELLS];
        let mut stack = Vec::new();
        for file in 0..FILES {
            let c = cell_index(file, 0);
            if self.tops[c] == Some(p) {
                seen[c] = true;
                stack.push(c);
            }
        }
        while let Some(c) = stack.pop() {
            let (f, r) = cell_coords(c);
            if r == RANKS - 1 {
                return true;
            }
            let next = [
                (f > 0).then(|| c - 1),
                (f + 1 < FILES).then(|| c + 1),
                (r > 0).then(|| c - FILES),
                (r + 1 < RANKS).then(|| c + FILES),
            ];
            for n in next.into_iter().flatten() {
                if !seen[n] && self.tops[n] == Some(p) {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        false
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// The game has ended (a win, or two passes in a row).
    pub fn is_over(&self) -> bool {
        self.finished
    }

    /// Points of each player's unplayed stones, `[Black, Blue]`; the winner's score is doubled.
    pub fn scores(&self) -> [u32; 2] {
        let mut out = [0u32; 2];
        for (i, score) in out.iter_mut().enumerate() {
            *score = self.remaining[i]
                .iter()
                .zip(STONES.iter())
                .map(|(&n, d)| u32::from(n) * d.points)
                .sum();
            if self.winner.map(Player::index) == Some(i) {
                *score *= 2;
            }
        }
        out
    }

    /// perft: positions reached after exactly `depth` moves, every ply applied.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal_moves()
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                child.apply(mv);
                child.perft(depth - 1)
            })
            .sum()
    }

    /// perft with the last ply counted (not applied) by `count_moves`; same result as `perft`.
    /// From depth 3 the root moves are shared out over the available threads.
    pub fn perft_bulk(&self, depth: u32) -> u64 {
        if depth < 3 {
            return self.perft_bulk_serial(depth);
        }
        let moves = self.legal_moves();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let chunk = moves.len().div_ceil(threads).max(1);
        std::thread::scope(|scope| {
            let handles: Vec<_> = moves
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|&mv| {
                                let mut child = self.clone();
                                child.apply(mv);
                                child.perft_bulk_serial(depth - 1)
                            })
                            .sum::<u64>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("perft thread panicked"))
                .sum()
        })
    }

    fn perft_bulk_serial(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ => self
                .legal_moves()
                .into_iter()
                .map(|mv| {
                    let mut child = self.clone();
                    child.apply(mv);
                    child.perft_bulk_serial(depth - 1)
                })
                .sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(pos: &mut Position, moves: &[&str]) {
        for mv in moves {
            if let Err(e) = pos.play(mv) {
                panic!("{mv}: {e}");
            }
        }
    }

    fn cell(name: &str) -> usize {
        parse_cell(name).expect("cell name")
    }

    fn has(pos: &Position, mv: &str) -> bool {
        pos.moves().iter().any(|m| m == mv)
    }

    /// A deterministic pseudo-random generator for playouts (xorshift64*).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
        }
    }

    #[test]
    fn start_depth_one() {
        let pos = Position::start();
        let moves = pos.moves();
        println!("start position: {} moves", moves.len());
        // Flat ground: Block 90, Brick 161, Post 90, Beam 142, Step 322 (Step! overhangs),
        // Corner 288, Pillar 90, Span 123, Arch 142 + 142, Bridge 123 + 123.
        assert_eq!(moves.len(), 1836);
        assert_eq!(pos.count_moves(), 1836);
        assert_eq!(pos.count_moves_simple(), 1836);
        assert_eq!(pos.perft(1), 1836);
        assert_eq!(moves[0], "Block a1 n");
        assert!(has(&pos, "Beam a1 e"));
        assert!(!has(&pos, "Beam c1 w"), "duplicate spelling printed");
        assert!(has(&pos, "Beam a1 n"));
        assert!(!has(&pos, "Beam a3 s"));
        assert!(!has(&pos, "Block a1 e"));
        assert!(!moves.iter().any(|m| m.starts_with("Step!")));
        let unique: HashSet<&String> = moves.iter().collect();
        assert_eq!(unique.len(), moves.len());
        assert_eq!(moves.last().map(String::as_str), Some("Bridge! i7 n"));
    }

    #[test]
    fn canonical_order() {
        let pos = Position::start();
        let key = |m: &str| -> (usize, usize, usize, usize, bool) {
            let Ok(Move::Place(p)) = parse_move(m) else {
                panic!("{m}")
            };
            let (f, r) = cell_coords(p.anchor);
            (p.stone, f, r, p.dir, p.flipped)
        };
        let keys: Vec<_> = pos.moves().iter().map(|m| key(m)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn any_spelling_is_accepted() {
        let mut a = Position::start();
        let mut b = Position::start();
        play_all(&mut a, &["Beam a1 e"]);
        play_all(&mut b, &["Beam c1 w"]);
        assert_eq!(a, b);
        let mut c = Position::start();
        play_all(&mut c, &["Block e5 w"]);
        let mut d = Position::start();
        play_all(&mut d, &["Block e5 n"]);
        assert_eq!(c, d);
        let mut e = Position::start();
        assert!(e.play("Block! a1 n").is_err());
        assert!(e.play("Beam a1").is_err());
        assert!(e.play("Beam a0 e").is_err());
        assert!(e.play("Beam a11 e").is_err());
        assert!(e.play("Beam j1 e").is_err());
        assert!(e.play("Beam a1 x").is_err());
        assert!(e.play("Beam h1 e").is_err(), "off the field");
        assert!(e.play("pass").is_err(), "pass with placements available");
        assert_eq!(e, Position::start());
    }

    #[test]
    fn direction_convention() {
        // Corner e at b2: (0,0)=b2, (1,0)=c2, (0,1)=b3.
        let mut pos = Position::start();
        play_all(&mut pos, &["Corner b2 e"]);
        for c in ["b2", "c2", "b3"] {
            assert_eq!(pos.heights[cell(c)], 1, "{c}");
        }
        // Corner n at b2: +x north, +y west: b2, b3, a2.
        let mut pos = Position::start();
        play_all(&mut pos, &["Corner b2 n"]);
        for c in ["b2", "b3", "a2"] {
            assert_eq!(pos.heights[cell(c)], 1, "{c}");
        }
        // Corner s at b2: +x south, +y east: b2, b1, c2.
        let mut pos = Position::start();
        play_all(&mut pos, &["Corner b2 s"]);
        for c in ["b2", "b1", "c2"] {
            assert_eq!(pos.heights[cell(c)], 1, "{c}");
        }
        // Corner w at b2: +x west, +y south: b2, a2, b1.
        let mut pos = Position::start();
        play_all(&mut pos, &["Corner b2 w"]);
        for c in ["b2", "a2", "b1"] {
            assert_eq!(pos.heights[cell(c)], 1, "{c}");
        }
        assert_eq!(pos.heights.iter().filter(|&&h| h > 0).count(), 3);
    }

    #[test]
    fn block_stacks_on_own_colour_not_on_opponent() {
        let mut pos = Position::start();
        play_all(&mut pos, &["Block a1 n", "Block b1 n"]);
        // Black to move: a1 is Black, b1 is Blue.
        assert!(has(&pos, "Block a1 n"));
        assert!(!has(&pos, "Block b1 n"));
        assert!(pos.clone().play("Block b1 e").is_err());
        // A Brick whose foot would be on Blue's block is illegal too.
        assert!(!has(&pos, "Brick a1 e"));
        play_all(&mut pos, &["Block a1 s"]);
        let a1 = cell("a1");
        assert_eq!(pos.heights[a1], 2);
        assert_eq!(pos.tops[a1], Some(Player::Black));
        // Blue may stack on b1 but not on a1.
        assert!(has(&pos, "Block b1 n"));
        assert!(!has(&pos, "Block a1 n"));
    }

    #[test]
    fn beam_crosses_over_opponent_block() {
        let mut pos = Position::start();
        play_all(
            &mut pos,
            &["Block a1 n", "Block b1 n", "Block c1 n", "Block i10 n"],
        );
        // Feet a1 and c1 rest on Black at height 1, the middle covers Blue's block at b1.
        assert!(has(&pos, "Beam a1 e"));
        play_all(&mut pos, &["Beam c1 w"]);
        let b1 = cell("b1");
        assert_eq!(pos.heights[b1], 2);
        assert_eq!(pos.tops[b1], Some(Player::Black));
        // An Arch straddles an opponent's block on bare ground with its raised middle.
        let mut pos = Position::start();
        play_all(&mut pos, &["Block a5 n", "Block f1 n"]);
        assert!(has(&pos, "Arch e1 e"));
        // A Beam cannot: settling on the middle lifts its feet off the board.
        assert!(!has(&pos, "Beam e1 e"));
        play_all(&mut pos, &["Arch g1 w"]);
        let f1 = cell("f1");
        assert_eq!(pos.heights[f1], 2);
        assert_eq!(pos.tops[f1], Some(Player::Black));
        // A Beam may also pass over a gap between raised feet.
        let mut pos = Position::start();
        play_all(
            &mut pos,
            &["Block a5 n", "Block i1 n", "Block c5 n", "Block i2 n"],
        );
        assert!(has(&pos, "Beam a5 e"));
        play_all(&mut pos, &["Beam a5 e"]);
        assert_eq!(pos.heights[cell("b5")], 2);
    }

    #[test]
    fn height_limit_five() {
        let mut pos = Position::start();
        play_all(
            &mut pos,
            &["Pillar a1 n", "Block i10 n", "Post a1 n", "Block i9 n"],
        );
        let a1 = cell("a1");
        assert_eq!(pos.heights[a1], 5);
        assert!(!has(&pos, "Block a1 n"));
        assert!(pos.clone().play("Block a1 n").is_err());
        let mut pos = Position::start();
        play_all(&mut pos, &["Pillar a1 n", "Block i10 n"]);
        assert!(has(&pos, "Post a1 n"));
        assert!(!has(&pos, "Pillar a1 n"), "3 + 3 = 6 is too high");
    }

    #[test]
    fn overhang_is_illegal() {
        let mut pos = Position::start();
        play_all(&mut pos, &["Block a1 n", "Block i10 n"]);
        // One foot on the block at height 1, the other would hang over bare board.
        assert!(!has(&pos, "Brick a1 e"));
        assert!(!has(&pos, "Beam a1 e"));
        assert!(pos.clone().play("Beam a1 e").is_err());
        // Corner a1 e: its non-foot (0,0) on the block lifts the stone to z = 1, so its feet hang.
        assert!(!has(&pos, "Corner a1 e"));
        // The non-foot corner cell may pass over a bare cell when the feet rest on Black.
        play_all(
            &mut pos,
            &["Block b2 n", "Block i9 n", "Block a3 n", "Block i8 n"],
        );
        // Corner a2 e: (0,0)=a2 (not a foot, bare), (1,0)=b2 and (0,1)=a3 feet on Black blocks.
        assert!(has(&pos, "Corner a2 e"));
    }

    #[test]
    fn upside_down_arch_on_flat_ground() {
        let mut pos = Position::start();
        assert!(has(&pos, "Arch! c4 n"));
        assert!(!has(&pos, "Arch! c6 s"));
        assert!(has(&pos, "Arch c4 n"));
        play_all(&mut pos, &["Arch! c6 s"]);
        let h = |c: &str| pos.heights[cell(c)];
        assert_eq!((h("c4"), h("c5"), h("c6")), (2, 1, 2));
        // A Step upside down needs its low end raised by one: illegal on flat ground.
        let start = Position::start();
        assert!(start.clone().play("Step! a1 e").is_err());
        let mut pos = Position::start();
        play_all(&mut pos, &["Block b1 n", "Block i10 n"]);
        assert!(has(&pos, "Step! a1 e"));
        play_all(&mut pos, &["Step! a1 e"]);
        let h = |c: &str| pos.heights[cell(c)];
        assert_eq!((h("a1"), h("b1")), (2, 2));
    }

    #[test]
    fn win_by_connected_path() {
        let mut pos = Position::start();
        // Black: a1..a4 (Span), a5..a8 (upside-down Bridge), b9..b10 (Brick).
        play_all(
            &mut pos,
            &[
                "Span a1 n",
                "Block i1 n",
                "Bridge! a5 n",
                "Block i2 n",
                "Brick b9 n",
                "Block i3 n",
            ],
        );
        // a1..a8 and b9..b10 are Black, but only diagonally touching at a8/b9.
        assert!(!pos.has_path(Player::Black));
        assert!(!pos.is_over());
        play_all(&mut pos, &["Block a9 n"]);
        assert!(pos.is_over());
        assert_eq!(pos.winner(), Some(Player::Black));
        assert!(pos.moves().is_empty());
        assert_eq!(pos.perft(1), 0);
        assert_eq!(pos.count_moves(), 0);
        assert!(pos.play("Block e5 n").is_err());
        // Black used Span 16, Bridge 36, Brick 4, Block 1: 192 - 57 = 135, doubled.
        // Blue used three Blocks: 189.
        assert_eq!(pos.scores(), [270, 189]);
    }

    #[test]
    fn covering_breaks_a_path() {
        let mut pos = Position::start();
        for file_e in (0..RANKS).map(|r| cell_index(4, r)) {
            pos.heights[file_e] = 1;
            pos.tops[file_e] = Some(Player::Blue);
        }
        assert!(pos.has_path(Player::Blue));
        // Black straddles e5 with an Arch (feet on bare d5 and f5, raised middle over e5).
        play_all(&mut pos, &["Arch d5 e"]);
        assert_eq!(pos.tops[cell("e5")], Some(Player::Black));
        assert_eq!(pos.heights[cell("e5")], 2);
        assert!(!pos.has_path(Player::Blue));
        assert!(!pos.is_over());
    }

    #[test]
    fn two_passes_end_the_game() {
        let mut pos = Position::start();
        pos.remaining = [[0; 10]; 2];
        pos.remaining[1][0] = 1;
        assert_eq!(pos.moves(), vec!["pass".to_string()]);
        assert_eq!(pos.count_moves(), 1);
        assert!(pos.clone().play("Block a1 n").is_err());
        play_all(&mut pos, &["pass"]);
        assert!(!pos.is_over());
        // Blue has a Block, so Blue must place it.
        assert!(pos.clone().play("pass").is_err());
        play_all(&mut pos, &["Block a1 n", "pass"]);
        assert!(!pos.is_over(), "passes must be consecutive");
        assert_eq!(pos.moves(), vec!["pass".to_string()]);
        play_all(&mut pos, &["pass"]);
        assert!(pos.is_over());
        assert_eq!(pos.winner(), None);
        assert!(pos.moves().is_empty());
        assert!(pos.play("pass").is_err());
        assert_eq!(pos.scores(), [0, 0]);
    }

    #[test]
    fn pass_when_stones_remain_but_nothing_fits() {
        // Black has only a Pillar left and every cell is at height 3 with Blue on top.
        let mut pos = Position::start();
        pos.remaining[0] = [0, 0, 0, 0, 0, 0, 1, 0, 0, 0];
        pos.heights = [3; CELLS];
        pos.tops = [Some(Player::Blue); CELLS];
        pos.winner = None;
        assert_eq!(pos.moves(), vec!["pass".to_string()]);
        play_all(&mut pos, &["pass"]);
        assert_eq!(pos.passes, 1);
        assert_eq!(pos.to_move, Player::Blue);
    }

    #[test]
    fn scores() {
        let mut pos = Position::start();
        assert_eq!(pos.scores(), [192, 192]);
        play_all(&mut pos, &["Bridge a1 e", "Block a5 n"]);
        assert_eq!(pos.scores(), [156, 191]);
        pos.winner = Some(Player::Blue);
        assert_eq!(pos.scores(), [156, 382]);
    }

    #[test]
    fn duplicate_orientations_share_feet() {
        // "Same cells with the same spans are one move" is only sound if such spellings also
        // agree on their feet; check it for every stone.
        for (stone, def) in STONES.iter().enumerate() {
            let plain: HashSet<_> = orientations(stone)
                .into_iter()
                .map(|(f, d)| shape_key(&oriented_shape(stone, f, d), false))
                .collect();
            let footed: HashSet<_> = orientations(stone)
                .into_iter()
                .map(|(f, d)| shape_key(&oriented_shape(stone, f, d), true))
                .collect();
            assert_eq!(plain.len(), footed.len(), "{}", def.name);
        }
    }

    #[test]
    fn fast_count_matches_move_list_in_playouts() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..20 {
            let mut pos = Position::start();
            let mut plies = 0;
            while !pos.is_over() {
                let moves = pos.legal_moves();
                assert_eq!(pos.count_moves(), moves.len() as u64);
                assert_eq!(pos.count_moves_simple(), moves.len() as u64);
                let strings = pos.moves();
                let mv = &strings[rng.below(strings.len())];
                let mut via_string = pos.clone();
                play_all(&mut via_string, &[mv]);
                pos.apply(moves[strings.iter().position(|s| s == mv).unwrap_or(0)]);
                assert_eq!(pos, via_string);
                plies += 1;
            }
            assert_eq!(pos.count_moves(), 0);
            assert!(plies <= 52);
        }
    }

    #[test]
    fn perft_two_matches_bulk() {
        let pos = Position::start();
        let p2 = pos.perft_bulk(2);
        println!("perft 2 = {p2}");
        assert_eq!(pos.perft(2), p2);
        let mut pos = Position::start();
        play_all(&mut pos, &["Pillar e5 n", "Arch! d4 e"]);
        assert_eq!(pos.perft(2), pos.perft_bulk(2));
    }

    #[test]
    #[ignore]
    fn perft_from_start() {
        let pos = Position::start();
        for depth in 1..=2 {
            let t = std::time::Instant::now();
            let n = pos.perft(depth);
            println!("perft {depth} = {n} ({:.2?})", t.elapsed());
        }
        let t = std::time::Instant::now();
        let n = pos.perft_bulk(3);
        println!("perft_bulk 3 = {n} ({:.2?})", t.elapsed());
    }
}
