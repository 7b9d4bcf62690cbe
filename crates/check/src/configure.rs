//! The board of one choice of option values: everything about it that depends on the options,
//! as plain data (cell indices and vectors), and the limits those values break, as coded
//! diagnostics ([`ConfigureError`]). The lowering copies this data into the program's tables.
//!
//! Cells are numbered as [`Geometry`] enumerates them; relations are numbered as the program
//! numbers them: directions and maps in file order, then relations, each once the relations it
//! names are known.

use std::collections::{HashMap, HashSet};

use super::consteval::{Const, ConstEnv, ConstError};
use super::error::ConfigureError;
use super::geometry::{Geometry, GeometryError, MAX_CELLS};
use super::model::Names;
use super::Checked;
use rulestone_syntax::ast::{
    vector_text, Expr, ExprKind, File, ItemKind, PatternShape, RelItem, ShapeDecl, Vector,
};
use rulestone_syntax::Ident;

/// A step vector and the player it belongs to (`None`: every player).
pub type TaggedVector = (Vec<i64>, Option<u8>);

/// The board of these options and the tables drawn on it.
#[derive(Clone, Debug)]
pub struct Configured {
    pub geometry: Geometry,
    /// Directions, relations and maps, in the order the program numbers them.
    pub relations: Vec<Relation>,
    /// Patterns, in file order.
    pub patterns: Vec<Pattern>,
    /// Zones and their cells, in file order.
    pub zones: Vec<(String, Vec<usize>)>,
    /// Every shape's placements, for each relation a `place` statement turns shapes along.
    pub placements: HashMap<String, Placements>,
    /// Each token's start cell.
    pub tokens: HashMap<String, usize>,
    pub tracks: HashMap<String, Track>,
    /// Each counter's start value.
    pub starts: HashMap<String, i32>,
    /// Each shape's count and points, in declaration order.
    pub shapes: Vec<(i32, i32)>,
}

#[derive(Clone, Debug)]
pub struct Track {
    /// Each lane's player and cells, entry first.
    pub lanes: Vec<(u8, Vec<usize>)>,
    /// Per player: the entry of each of the player's lanes and the cells nearer to it than to
    /// the other entries (squared distance between coordinates; ties go to the lane first).
    pub entries: [Vec<(usize, Vec<usize>)>; 2],
}

/// A direction, a relation or a map.
#[derive(Clone, Debug)]
pub struct Relation {
    pub name: String,
    /// The vectors of a direction or relation; `None` for a map.
    pub vectors: Option<Vec<TaggedVector>>,
    /// Each ray: the player it belongs to and, per cell, the next cell.
    pub rays: Vec<(Option<u8>, Vec<Option<usize>>)>,
    /// Per ray: the index of the opposite ray.
    pub opposite: Vec<Option<usize>>,
    /// Per axis, per ray: the index of the ray with that axis's component negated.
    pub mirrors: Vec<Vec<Option<usize>>>,
    /// Per ray: its name for notation.
    pub names: Vec<String>,
}

/// A pattern's instances: per cell, those that cover it, each as its cells in ascending order.
#[derive(Clone, Debug)]
pub struct Pattern {
    pub name: String,
    pub per_cell: Vec<Vec<Vec<usize>>>,
}

/// Every distinct placement of every shape along one relation's vectors.
#[derive(Clone, Debug, Default)]
pub struct Placements {
    /// The turns' names, for notation.
    pub facings: Vec<String>,
    /// Per shape, in declaration order.
    pub by_shape: Vec<Vec<Placement>>,
}

#[derive(Clone, Debug)]
pub struct Placement {
    pub anchor: usize,
    pub facing: usize,
    pub flipped: bool,
    /// `(cell, bottom, top, foot)` of each of the shape's cells.
    pub parts: Vec<(usize, u8, u8, bool)>,
}

impl Checked {
    /// The board and its tables for option values from [`configure`](Self::configure).
    ///
    /// # Errors
    /// The first limit these values break: no cells, too many, two cells named alike, a value
    /// that cannot be computed, a map that is not one-to-one, a cell the board lacks.
    pub fn board(&self, env: &ConstEnv) -> Result<Configured, ConfigureError> {
        let file = &self.file;
        let Some((board, board_span)) = file.items.iter().find_map(|i| match &i.kind {
            ItemKind::Board(b) => Some((b, i.span)),
            _ => None,
        }) else {
            return Err(ConfigureError::NoCells {
                span: rulestone_syntax::Span::default(),
            });
        };
        let geometry = Geometry::build(board, env).map_err(|e| match e {
            GeometryError::Const(c) => ConfigureError::NotComputable {
                what: "the board".to_string(),
                reason: c.reason(),
                span: c.span(),
            },
            GeometryError::DuplicateName { name, span } => {
                ConfigureError::DuplicateCellName { name, span }
            }
            GeometryError::TooManyCells { found, span } => ConfigureError::TooManyCells {
                found,
                max: MAX_CELLS,
                span,
            },
            GeometryError::CoordinateRange { span } => ConfigureError::NotComputable {
                what: "the board".to_string(),
                reason: "a coordinate out of range",
                span,
            },
        })?;
        if geometry.is_empty() {
            return Err(ConfigureError::NoCells { span: board_span });
        }
        let mut c = Configured {
            geometry,
            relations: Vec::new(),
            patterns: Vec::new(),
            zones: Vec::new(),
            placements: HashMap::new(),
            tokens: HashMap::new(),
            tracks: HashMap::new(),
            starts: HashMap::new(),
            shapes: Vec::new(),
        };
        c.relations(file, env)?;
        c.cells(file)?;
        c.constants(file, env)?;
        c.zones(file, &self.names, env)?;
        for item in &file.items {
            if let ItemKind::Pattern { name, shape } = &item.kind {
                let pattern = c.pattern(&name.name, shape);
                c.patterns.push(pattern);
            }
        }
        let shapes: Vec<&ShapeDecl> = (file.items.iter())
            .filter_map(|i| match &i.kind {
                ItemKind::Shape(s) => Some(s),
                _ => None,
            })
            .collect();
        for turned in super::shapes::turned(file) {
            if !c.placements.contains_key(&turned.name) {
                let table = c.placements(&turned.name, &shapes);
                c.placements.insert(turned.name.clone(), table);
            }
        }
        Ok(c)
    }
}

impl Configured {
    /// The relation named `name`.
    #[must_use]
    pub fn relation(&self, name: &str) -> Option<&Relation> {
        self.relations.iter().find(|r| r.name == name)
    }

    /// The vectors of the direction or relation named `name` (none for another name).
    #[must_use]
    pub fn vectors(&self, name: &str) -> Option<&Vec<TaggedVector>> {
        self.relation(name)?.vectors.as_ref()
    }

    /// `d in other` for a direction value `d` of relation `mine`: per player, a mask with bit
    /// `i` set when `mine`'s vector `i` (of the first 64) is also `other`'s for that player.
    #[must_use]
    pub fn vector_masks(&self, mine: &str, other: &str) -> Option<[u64; 2]> {
        let (vs, ws) = (self.vectors(mine)?, self.vectors(other)?);
        let member = |v: &Vec<i64>, p| {
            ws.iter()
                .any(|(w, who)| w == v && who.is_none_or(|o| o == p))
        };
        let mask = |p| {
            let members = vs.iter().take(64).enumerate();
            let members = members.filter(|(_, (v, _))| member(v, p));
            members.fold(0, |mask, (i, _)| mask | 1 << i)
        };
        Some([mask(0), mask(1)])
    }

    /// Directions and maps in file order, then relations, each once those it names are known.
    fn relations(&mut self, file: &File, env: &ConstEnv) -> Result<(), ConfigureError> {
        for item in &file.items {
            match &item.kind {
                ItemKind::Direction { name, vector } => {
                    let vectors = vec![(vector.components.clone(), None)];
                    self.relation_of(file, &name.name, vectors);
                }
                ItemKind::Map { name, coords } => self.map(name, coords, env)?,
                _ => {}
            }
        }
        let players = players(file);
        let mut pending: Vec<_> = (file.items.iter())
            .filter_map(|i| match &i.kind {
                ItemKind::Relation {
                    name,
                    members,
                    players,
                } => Some((name, members, players)),
                _ => None,
            })
            .collect();
        loop {
            let before = pending.len();
            pending.retain(|(name, members, who)| {
                let mut vectors = Vec::new();
                for (m, who) in members.iter().zip(who.iter()) {
                    let who = who.as_ref().and_then(|p| players.get(&p.name).copied());
                    let vs = match m {
                        RelItem::Vector(v) => vec![(v.components.clone(), None)],
                        RelItem::Name(n) => match self.vectors(&n.name) {
                            Some(vs) => vs.clone(),
                            None => return true,
                        },
                    };
                    vectors.extend(vs.into_iter().map(|(v, inner)| (v, who.or(inner))));
                }
                // A vector listed twice leads to the same cells: kept once, so that a chain
                // of relations each naming the one before twice stays as small as its vectors.
                let mut seen = HashSet::new();
                vectors.retain(|v| seen.insert(v.clone()));
                self.relation_of(file, &name.name, vectors);
                false
            });
            if pending.is_empty() || pending.len() == before {
                return Ok(());
            }
        }
    }

    /// A direction or relation of `vectors`: per cell the cells they lead to, and which vector
    /// is each one's opposite and its mirror image along each axis.
    fn relation_of(&mut self, file: &File, name: &str, vectors: Vec<TaggedVector>) {
        let geo = &self.geometry;
        let rays = (vectors.iter())
            .map(|(v, who)| (*who, (0..geo.len()).map(|c| geo.offset(c, v)).collect()))
            .collect();
        let index_of =
            |m: Vec<i64>, who: &Option<u8>| vectors.iter().position(|(u, w)| *u == m && w == who);
        let opposite = (vectors.iter())
            .map(|(v, who)| index_of(v.iter().map(|x| -x).collect(), who))
            .collect();
        let mirrored = |axis: usize| {
            let mirror = |(v, who): &TaggedVector| {
                let mut m = v.clone();
                if let Some(x) = m.get_mut(axis) {
                    *x = -*x;
                }
                index_of(m, who)
            };
            vectors.iter().map(mirror).collect()
        };
        self.relations.push(Relation {
            name: name.to_string(),
            rays,
            opposite,
            mirrors: (0..geo.axes.len()).map(mirrored).collect(),
            names: vector_names(file, &vectors),
            vectors: Some(vectors),
        });
    }

    /// A `map`: a relation of one ray, whose next cell is each cell's image.
    fn map(&mut self, name: &Ident, coords: &[Expr], env: &ConstEnv) -> Result<(), ConfigureError> {
        let geo = &self.geometry;
        let mut next = vec![None; geo.len()];
        let mut source: Vec<Option<usize>> = vec![None; geo.len()];
        for (c, own) in geo.coords.iter().enumerate() {
            let mut env = env.clone();
            for (axis, v) in geo.axes.iter().zip(own) {
                env.set(axis, Const::Int(*v));
            }
            let at = coords
                .iter()
                .map(|e| env.int(e))
                .collect::<Result<Vec<i64>, _>>();
            let at = at.map_err(|e| ConfigureError::NotComputable {
                what: format!("map `{}`", name.name),
                reason: e.reason(),
                span: e.span(),
            })?;
            let Some(&t) = geo.by_coords.get(&at) else {
                continue;
            };
            if let Some(first) = source[t].replace(c) {
                return Err(ConfigureError::MapNotOneToOne {
                    map: name.name.clone(),
                    first: geo.names[first].clone(),
                    second: geo.names[c].clone(),
                    target: geo.names[t].clone(),
                    span: name.span,
                });
            }
            next[c] = Some(t);
        }
        self.relations.push(Relation {
            name: name.name.clone(),
            vectors: None,
            rays: vec![(None, next)],
            opposite: vec![None],
            names: vec![name.name.clone()],
            mirrors: vec![vec![None]; geo.axes.len()],
        });
        Ok(())
    }

    /// Tokens' start cells and tracks' lanes, which must be on the board of these options.
    fn cells(&mut self, file: &File) -> Result<(), ConfigureError> {
        let geo = &self.geometry;
        let cell = |n: &Ident| {
            geo.by_name
                .get(&n.name)
                .copied()
                .ok_or_else(|| ConfigureError::MissingCell {
                    name: n.name.clone(),
                    span: n.span,
                })
        };
        let players = players(file);
        for item in &file.items {
            match &item.kind {
                ItemKind::Token { name, start, .. } => {
                    if let ExprKind::Name(n) = &start.kind {
                        self.tokens.insert(name.name.clone(), cell(n)?);
                    }
                }
                ItemKind::Track { name, lanes } => {
                    let mut resolved = Vec::new();
                    for lane in lanes {
                        let p = players.get(&lane.player.name).copied().unwrap_or(0);
                        let cells = lane.cells.iter().map(cell);
                        resolved.push((p, cells.collect::<Result<_, _>>()?));
                    }
                    let track = Track {
                        entries: [0, 1].map(|p| entries(geo, &resolved, p)),
                        lanes: resolved,
                    };
                    self.tracks.insert(name.name.clone(), track);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Every zone's cells; a cell name the board of these options lacks is `E0411`.
    fn zones(&mut self, file: &File, names: &Names, env: &ConstEnv) -> Result<(), ConfigureError> {
        let eval = super::zones::ZoneEval::new(file, &self.geometry);
        let mut zones = Vec::new();
        for item in &file.items {
            if let ItemKind::Zone { name, cells } = &item.kind {
                let set = eval
                    .cells(cells, env)
                    .map_err(|c| zone_error(&c, names, name))?;
                let members = set.iter().enumerate().filter(|(_, &m)| m);
                zones.push((name.name.clone(), members.map(|(c, _)| c).collect()));
            }
        }
        self.zones = zones;
        Ok(())
    }

    /// Counters' start values and shapes' counts and points.
    fn constants(&mut self, file: &File, env: &ConstEnv) -> Result<(), ConfigureError> {
        let int = |e: &Expr, what: String| {
            let v = env.int(e).map_err(|c| ConfigureError::NotComputable {
                what,
                reason: c.reason(),
                span: e.span,
            })?;
            Ok(i32::try_from(v).unwrap_or(i32::MAX))
        };
        let defines = super::zones::Defines::new(file);
        for item in &file.items {
            match &item.kind {
                ItemKind::Counter { name, init, .. } => {
                    let e = defines.expand(init);
                    let what = format!("the start value of `{}`", name.name);
                    let v = int(e.as_ref().unwrap_or(init), what)?;
                    self.starts.insert(name.name.clone(), v);
                }
                ItemKind::Shape(shape) => {
                    let of = |e: &Option<Expr>, default, what: &str| {
                        e.as_ref().map_or(Ok(default), |e| {
                            int(e, format!("the {what} of shape `{}`", shape.name.name))
                        })
                    };
                    let count = of(&shape.count, 1, "count")?;
                    self.shapes.push((count, of(&shape.points, 0, "points")?));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A pattern's instances: every anchor where the whole shape fits, or every line of at
    /// least two cells along the direction, listed under each cell they cover.
    fn pattern(&self, name: &str, shape: &PatternShape) -> Pattern {
        let geo = &self.geometry;
        let mut found = Vec::new();
        match shape {
            PatternShape::Shape(vs) => {
                for anchor in 0..geo.len() {
                    let cells = vs.iter().map(|v| geo.offset(anchor, &v.components));
                    found.extend(cells.collect::<Option<Vec<usize>>>());
                }
            }
            PatternShape::Line(item) => {
                let vectors = match item {
                    RelItem::Vector(v) => vec![(v.components.clone(), None)],
                    RelItem::Name(n) => self.vectors(&n.name).cloned().unwrap_or_default(),
                };
                for (v, _) in vectors {
                    let back: Vec<i64> = v.iter().map(|x| -x).collect();
                    // Each line from its first cell.
                    for start in (0..geo.len()).filter(|&c| geo.offset(c, &back).is_none()) {
                        let line: Vec<usize> =
                            std::iter::successors(Some(start), |&c| geo.offset(c, &v)).collect();
                        if line.len() >= 2 {
                            found.push(line);
                        }
                    }
                }
            }
        }
        let mut per_cell: Vec<Vec<Vec<usize>>> = vec![Vec::new(); geo.len()];
        for mut cells in found {
            cells.sort_unstable();
            cells.dedup();
            for &c in &cells {
                if !per_cell[c].contains(&cells) {
                    per_cell[c].push(cells.clone());
                }
            }
        }
        Pattern {
            name: name.to_string(),
            per_cell,
        }
    }

    /// Every distinct placement of every shape, turned along each vector of `turned` (the
    /// shape's +x axis; +y is +x turned a quarter turn anticlockwise) and, for shapes with a
    /// flip mark, upside down too. Shapes are placed on two axes only (the checker sees to it).
    fn placements(&self, turned: &str, shapes: &[&ShapeDecl]) -> Placements {
        let geo = &self.geometry;
        let vectors = self.vectors(turned).cloned().unwrap_or_default();
        let mut table = Placements {
            facings: self
                .relation(turned)
                .map(|r| r.names.clone())
                .unwrap_or_default(),
            by_shape: Vec::new(),
        };
        for shape in shapes {
            let cells: Vec<_> = (shape.parts.iter())
                .flat_map(|p| p.cells.iter().map(move |v| (v, p)))
                .collect();
            let height = cells.iter().map(|(_, p)| p.top).max().unwrap_or(0);
            let feet = shape.feet.as_ref();
            let is_foot =
                |v: &Vector| feet.is_none_or(|f| f.iter().any(|f| f.components == v.components));
            let byte = |h: i64| u8::try_from(h).unwrap_or(u8::MAX);
            let (mut seen, mut list) = (HashSet::new(), Vec::new());
            for anchor in 0..geo.len() {
                for (facing, (v, _)) in vectors.iter().enumerate() {
                    let [ax, ay] = v[..] else { continue };
                    for flipped in [false, true]
                        .into_iter()
                        .take(1 + usize::from(shape.flip.is_some()))
                    {
                        let placed = cells.iter().map(|&(v, part)| {
                            let [dx, dy] = v.components[..] else {
                                return None;
                            };
                            let cell =
                                geo.offset(anchor, &[dx * ax - dy * ay, dx * ay + dy * ax])?;
                            let (bottom, top) = if flipped {
                                (height - part.top, height - part.bottom)
                            } else {
                                (part.bottom, part.top)
                            };
                            Some((cell, byte(bottom), byte(top), is_foot(v)))
                        });
                        let Some(parts) = placed.collect::<Option<Vec<_>>>() else {
                            continue;
                        };
                        let mut key: Vec<_> = parts.iter().map(|p| (p.0, p.1, p.2)).collect();
                        key.sort_unstable();
                        let distinct = key.windows(2).all(|w| w[0].0 != w[1].0);
                        if distinct && seen.insert(key) {
                            list.push(Placement {
                                anchor,
                                facing,
                                flipped,
                                parts,
                            });
                        }
                    }
                }
            }
            table.by_shape.push(list);
        }
        table
    }
}

/// Player `p`'s lanes' entries, each with the cells nearest to it.
fn entries(geo: &Geometry, lanes: &[(u8, Vec<usize>)], p: u8) -> Vec<(usize, Vec<usize>)> {
    let firsts: Vec<usize> = (lanes.iter())
        .filter(|(q, _)| *q == p)
        .filter_map(|(_, cells)| cells.first().copied())
        .collect();
    let dist = |a: usize, b: usize| -> i64 {
        let (a, b) = (&geo.coords[a], &geo.coords[b]);
        a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
    };
    let mut regions = vec![Vec::new(); firsts.len()];
    for c in (0..geo.len()).filter(|_| !firsts.is_empty()) {
        let nearest = (0..firsts.len()).min_by_key(|&k| (dist(c, firsts[k]), k));
        regions[nearest.unwrap_or(0)].push(c);
    }
    firsts.into_iter().zip(regions).collect()
}

/// Each player's index, by name.
fn players(file: &File) -> HashMap<String, u8> {
    let names = file.items.iter().find_map(|i| match &i.kind {
        ItemKind::Players(names) => Some(names),
        _ => None,
    });
    let names = names.into_iter().flatten().enumerate();
    names
        .map(|(i, p)| (p.name.clone(), u8::try_from(i).unwrap_or(u8::MAX)))
        .collect()
}

/// The name of each vector of a relation, for notation: the direction declared with that
/// vector, else the vector itself.
fn vector_names(file: &File, vectors: &[TaggedVector]) -> Vec<String> {
    let named = |v: &Vec<i64>| {
        file.items.iter().find_map(|i| match &i.kind {
            ItemKind::Direction { name, vector } if vector.components == *v => {
                Some(name.name.clone())
            }
            _ => None,
        })
    };
    (vectors.iter())
        .map(|(v, _)| named(v).unwrap_or_else(|| vector_text(v)))
        .collect()
}

/// Why zone `zone` cannot be computed: a cell name the board of these options lacks (E0411),
/// else the value that failed (E0408).
fn zone_error(c: &ConstError, names: &Names, zone: &Ident) -> ConfigureError {
    let span = c.span();
    match names.cell_named_at(span) {
        Some(cell) if matches!(c, ConstError::NotConstant(_)) => ConfigureError::MissingCell {
            name: cell.to_string(),
            span,
        },
        _ => ConfigureError::NotComputable {
            what: format!("zone `{}`", zone.name),
            reason: c.reason(),
            span,
        },
    }
}
