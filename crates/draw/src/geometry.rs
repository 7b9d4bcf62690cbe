//! Where each cell goes: the plane lattice, the level axis and the panels, inferred from the
//! board's axes, its cells' coordinates and its relations' direction vectors (see the crate
//! docs for the rules).

use rulestone_ir::{Board, Program, NO_CELL};

/// The outline a cell is drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellShape {
    /// A unit square.
    Square,
    /// A pointy-top hexagon whose opposite sides are one unit apart.
    Hex,
    /// A circle of one unit across: the cells of a board with levels (balls rest on balls).
    Circle,
}

/// How the two plane axes map to the picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lattice {
    /// `(1, 0)` and `(0, 1)` are the unit steps.
    Square,
    /// Axial hex coordinates: `(1, 0)`, `(0, 1)` and the diagonal pair `(1, skew)`,
    /// `(-1, -skew)` are the six neighbours (`skew` is `-1` or `1`).
    Axial { skew: i32 },
    /// Doubled-width hex coordinates: `(2, 0)` and `(1, ±1)` are neighbours.
    Doubled,
}

/// A board's picture geometry: a centre per cell, in units of one cell step, `y` up.
#[derive(Clone, Debug)]
pub struct Layout {
    pub lattice: Lattice,
    pub shape: CellShape,
    /// The axis drawn as levels (cells of a higher level rest between their supports).
    pub level_axis: Option<usize>,
    /// Each cell's centre in the picture, `y` up.
    pub centres: Vec<(f64, f64)>,
    /// Each cell's level, counted from 0 (always 0 without a level axis).
    pub levels: Vec<usize>,
    /// Each cell's panel (one per combination of values of the leading axes that are not
    /// the level axis).
    pub panels: Vec<usize>,
    /// The panels' titles, `s = 1`; a single panel has an empty title.
    pub panel_titles: Vec<String>,
}

/// Every distinct direction vector of the program's relations, read off their ray tables
/// (one step from any cell that has a next cell), in order of first appearance.
#[must_use]
pub fn vectors(program: &Program) -> Vec<Vec<i32>> {
    let board = &program.board;
    let axes = board.axes.len();
    let mut out: Vec<Vec<i32>> = Vec::new();
    for relation in &program.relations {
        for v in relation_vectors(board, relation) {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out.retain(|v| v.len() == axes && v.iter().any(|&c| c != 0));
    out
}

/// One relation's vectors, one per ray that has a step somewhere on the board.
fn relation_vectors(board: &Board, relation: &rulestone_ir::Relation) -> Vec<Vec<i32>> {
    let axes = board.axes.len();
    relation
        .rays
        .iter()
        .filter_map(|ray| {
            let (from, to) =
                ray.next.iter().enumerate().find(|&(c, &n)| {
                    n != NO_CELL && usize::from(n) < board.len() && c < board.len()
                })?;
            let to = usize::from(*to);
            Some(
                (0..axes)
                    .map(|a| board.coord(to, a) - board.coord(from, a))
                    .collect(),
            )
        })
        .collect()
}

/// The plane lattice that the plane vectors `(dx, dy)` make.
#[must_use]
pub fn lattice(plane: &[(i32, i32)]) -> Lattice {
    let has = |v: (i32, i32)| plane.contains(&v) || plane.contains(&(-v.0, -v.1));
    let unit = has((1, 0)) && has((0, 1));
    if !has((1, 0)) && has((2, 0)) && (has((1, 1)) || has((1, -1))) {
        return Lattice::Doubled;
    }
    if unit && has((1, -1)) && !has((1, 1)) {
        return Lattice::Axial { skew: -1 };
    }
    if unit && has((1, 1)) && !has((1, -1)) {
        return Lattice::Axial { skew: 1 };
    }
    Lattice::Square
}

impl Lattice {
    /// The picture position of plane coordinates `(x, y)`, `y` up.
    #[must_use]
    pub fn place(self, x: f64, y: f64) -> (f64, f64) {
        let h = 3f64.sqrt() / 2.0;
        match self {
            Lattice::Square => (x, y),
            Lattice::Axial { skew } => (x - f64::from(skew) * y / 2.0, y * h),
            Lattice::Doubled => (x / 2.0, y * h),
        }
    }

    /// The picture direction of a plane vector, unit length.
    #[must_use]
    pub fn direction(self, dx: i32, dy: i32) -> (f64, f64) {
        let (a, b) = self.place(f64::from(dx), f64::from(dy));
        let (o, p) = self.place(0.0, 0.0);
        let (x, y) = (a - o, b - p);
        let len = (x * x + y * y).sqrt();
        if len > 0.0 {
            (x / len, y / len)
        } else {
            (0.0, 0.0)
        }
    }
}

/// A leading axis that is a level: some relation's vectors all step one level the same way
/// (all `-1` or all `+1` on that axis) and, on average, sideways in the plane; the shift per
/// level up that puts a cell at the centre of the cells it rests on.
fn level_axis(
    program: &Program,
    leading: usize,
    plane: (usize, usize),
) -> Option<(usize, (f64, f64))> {
    let board = &program.board;
    for axis in 0..leading {
        for relation in &program.relations {
            let vs = relation_vectors(board, relation);
            if vs.len() < 2 {
                continue;
            }
            let d = vs[0][axis];
            if d.abs() != 1 || vs.iter().any(|v| v[axis] != d) {
                continue;
            }
            // Only the level axis and the plane may change along these vectors.
            if vs
                .iter()
                .any(|v| (0..leading).any(|a| a != axis && v[a] != 0))
            {
                continue;
            }
            let n = vs.len() as f64;
            let mx = vs.iter().map(|v| f64::from(v[plane.0])).sum::<f64>() / n;
            let my = vs.iter().map(|v| f64::from(v[plane.1])).sum::<f64>() / n;
            if mx == 0.0 && my == 0.0 {
                continue;
            }
            let d = f64::from(d);
            return Some((axis, (-mx / d, -my / d)));
        }
    }
    None
}

/// The layout of the program's board.
#[must_use]
pub fn layout(program: &Program) -> Layout {
    let board = &program.board;
    let axes = board.axes.len();
    let cells = board.len();
    if axes < 2 {
        // One axis: a single row.
        let centres = (0..cells)
            .map(|c| {
                (
                    f64::from(if axes == 1 { board.coord(c, 0) } else { 0 }),
                    0.0,
                )
            })
            .collect();
        return Layout {
            lattice: Lattice::Square,
            shape: CellShape::Square,
            level_axis: None,
            centres,
            levels: vec![0; cells],
            panels: vec![0; cells],
            panel_titles: vec![String::new()],
        };
    }
    let (px, py) = (axes - 2, axes - 1);
    let leading = axes - 2;
    let all = vectors(program);
    let plane: Vec<(i32, i32)> = all
        .iter()
        .filter(|v| v[..leading].iter().all(|&c| c == 0))
        .map(|v| (v[px], v[py]))
        .collect();
    let lattice = lattice(&plane);
    let level = level_axis(program, leading, (px, py));
    let lowest = |a: usize| (0..cells).map(|c| board.coord(c, a)).min().unwrap_or(0);
    let level_lo = level.map_or(0, |(a, _)| lowest(a));
    // Panels: one per combination of the other leading axes' values, in board order.
    let mut keys: Vec<Vec<i32>> = Vec::new();
    let mut panels = Vec::with_capacity(cells);
    for c in 0..cells {
        let key: Vec<i32> = (0..leading)
            .filter(|&a| level.map(|(l, _)| l) != Some(a))
            .map(|a| board.coord(c, a))
            .collect();
        let i = keys.iter().position(|k| *k == key).unwrap_or_else(|| {
            keys.push(key);
            keys.len() - 1
        });
        panels.push(i);
    }
    let names: Vec<&str> = (0..leading)
        .filter(|&a| level.map(|(l, _)| l) != Some(a))
        .map(|a| board.axes[a].as_str())
        .collect();
    let panel_titles = if keys.len() <= 1 {
        vec![String::new(); keys.len().max(1)]
    } else {
        keys.iter()
            .map(|k| {
                names
                    .iter()
                    .zip(k)
                    .map(|(n, v)| format!("{n} = {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect()
    };
    let mut levels = Vec::with_capacity(cells);
    let mut centres = Vec::with_capacity(cells);
    for c in 0..cells {
        let (mut x, mut y) = (f64::from(board.coord(c, px)), f64::from(board.coord(c, py)));
        let mut l = 0;
        if let Some((axis, (sx, sy))) = level {
            let up = board.coord(c, axis) - level_lo;
            l = usize::try_from(up).unwrap_or(0);
            x += f64::from(up) * sx;
            y += f64::from(up) * sy;
        }
        levels.push(l);
        centres.push(lattice.place(x, y));
    }
    // Panels side by side, a gap of one cell between them.
    if keys.len() > 1 {
        let mut offset = 0.0;
        for p in 0..keys.len() {
            let xs = || (0..cells).filter(|&c| panels[c] == p).map(|c| centres[c].0);
            let lo = xs().fold(f64::INFINITY, f64::min);
            let hi = xs().fold(f64::NEG_INFINITY, f64::max);
            if !lo.is_finite() {
                continue;
            }
            let shift = offset - lo;
            for (centre, _) in centres.iter_mut().zip(&panels).filter(|(_, &q)| q == p) {
                centre.0 += shift;
            }
            offset += hi - lo + 2.0;
        }
    }
    let shape = if level.is_some() {
        CellShape::Circle
    } else if lattice == Lattice::Square {
        CellShape::Square
    } else {
        CellShape::Hex
    };
    Layout {
        lattice,
        shape,
        level_axis: level.map(|(a, _)| a),
        centres,
        levels,
        panels,
        panel_titles,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_by_default() {
        assert_eq!(
            lattice(&[(1, 0), (0, 1), (-1, 0), (0, -1)]),
            Lattice::Square
        );
        assert_eq!(lattice(&[(1, 0), (1, 1), (1, -1)]), Lattice::Square);
        assert_eq!(lattice(&[]), Lattice::Square);
    }

    #[test]
    fn axial_hex_pairs() {
        let hex = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
        assert_eq!(lattice(&hex), Lattice::Axial { skew: -1 });
        let axial_diagonal = [(-1, -1), (0, -1), (1, 0), (1, 1), (0, 1), (-1, 0)];
        assert_eq!(lattice(&axial_diagonal), Lattice::Axial { skew: 1 });
    }

    #[test]
    fn doubled_width() {
        let tank = [(2, 0), (1, -1), (-1, -1), (-2, 0), (-1, 1), (1, 1)];
        assert_eq!(lattice(&tank), Lattice::Doubled);
    }

    #[test]
    fn hex_neighbours_are_one_apart() {
        for (lattice, steps) in [
            (Lattice::Axial { skew: -1 }, [(1, 0), (0, 1), (1, -1)]),
            (Lattice::Axial { skew: 1 }, [(1, 0), (0, 1), (1, 1)]),
            (Lattice::Doubled, [(2, 0), (1, 1), (1, -1)]),
        ] {
            for (dx, dy) in steps {
                let (x, y) = lattice.place(f64::from(dx), f64::from(dy));
                let d = (x * x + y * y).sqrt();
                assert!((d - 1.0).abs() < 1e-9, "{lattice:?} {dx},{dy}: {d}");
            }
        }
    }

    fn program(axes: &[&str], coords: Vec<Vec<i32>>, relations: &[&[Vec<i32>]]) -> Program {
        let names = (0..coords.len()).map(|c| format!("c{c}")).collect();
        let flat: Vec<i32> = coords.iter().flatten().copied().collect();
        let board = Board::new(axes.iter().map(|a| a.to_string()).collect(), names, flat);
        let rels = relations
            .iter()
            .enumerate()
            .map(|(i, vs)| {
                let rays = vs
                    .iter()
                    .map(|v| {
                        let next = coords
                            .iter()
                            .map(|c| {
                                let t: Vec<i32> = c.iter().zip(v).map(|(a, b)| a + b).collect();
                                coords
                                    .iter()
                                    .position(|d| *d == t)
                                    .and_then(|p| u16::try_from(p).ok())
                                    .unwrap_or(NO_CELL)
                            })
                            .collect();
                        rulestone_ir::Ray::new(None, next)
                    })
                    .collect();
                rulestone_ir::Relation {
                    name: format!("r{i}"),
                    masks: Vec::new(),
                    per_player: Vec::new(),
                    rays,
                    opposite: Vec::new(),
                    names: Vec::new(),
                    mirrors: Vec::new(),
                }
            })
            .collect();
        Program {
            board,
            relations: rels,
            ..Program::default()
        }
    }

    #[test]
    fn levels_rest_between_their_supports() {
        // Two levels: four cells below, one above resting on all four.
        let mut coords = Vec::new();
        for x in 0..2 {
            for y in 0..2 {
                coords.push(vec![1, x, y]);
            }
        }
        coords.push(vec![2, 0, 0]);
        let supports = [
            vec![-1, 0, 0],
            vec![-1, 1, 0],
            vec![-1, 0, 1],
            vec![-1, 1, 1],
        ];
        let p = program(&["l", "x", "y"], coords, &[&supports]);
        let layout = layout(&p);
        assert_eq!(layout.level_axis, Some(0));
        assert_eq!(layout.shape, CellShape::Circle);
        assert_eq!(layout.centres[4], (0.5, 0.5));
        assert_eq!(layout.levels, vec![0, 0, 0, 0, 1]);
        assert_eq!(layout.panel_titles.len(), 1);
    }

    #[test]
    fn other_leading_axes_make_panels() {
        let coords = vec![vec![0, 0, 0], vec![0, 1, 0], vec![1, 0, 0], vec![1, 1, 0]];
        let p = program(&["s", "x", "y"], coords, &[&[vec![0, 1, 0]]]);
        let layout = layout(&p);
        assert_eq!(layout.level_axis, None);
        assert_eq!(layout.panel_titles, vec!["s = 0", "s = 1"]);
        assert_eq!(layout.centres[2].0, 3.0);
    }
}
