//! Checked AST + option values → [`Program`]: cells enumerated, names resolved to dense ids,
//! neighbour and pattern tables precomputed, option tests folded away, statements compiled to
//! bytecode.

use std::collections::HashMap;

use super::{
    AssignKind, AssignSlot, Board, BoolExpr, BoolId, CellRef, CellSet, CmpOp, Code, Counter,
    CounterView, DirExpr, Finish, IntExpr, IntId, IntOp, Op, Pattern, Piece, PlacedCell, Placement,
    Placements, PlayerRef, Program, Ray, Relation, SetExpr, SetId, Shape, Template, TemplatePart,
    Zone, MAX_VARS, NO_CELL, NO_DIR,
};
use crate::check::consteval::{Const, ConstEnv};
use crate::check::geometry::{Geometry, GeometryError};
use crate::check::model::{ExprTypes, Ty};
use crate::check::Checked;
use crate::syntax::ast::{
    AssignOp, BinaryOp, Block, CounterView as AstView, Expr, ExprKind, File, Item, ItemKind,
    OptionType, PatternShape, RelItem, ShapeDecl, Stmt, StmtKind, TemplatePart as AstPart, UnaryOp,
};

use super::error::LowerError;

/// A construct the checker should have rejected (a bug, reported as `E0999`).
fn err<T>(message: impl Into<String>) -> std::result::Result<T, LowerError> {
    Err(LowerError::internal(message))
}

type Result<T> = std::result::Result<T, LowerError>;

/// Lowers a checked game for the given option values.
///
/// # Errors
/// When the options produce an unusable board or a construct the runtime cannot run.
pub fn lower(checked: &Checked, options: &ConstEnv) -> Result<Program> {
    Lowerer::new(&checked.file, &checked.types, options)?.run()
}

/// A track's lanes: each lane's player and cells, entry first.
type Lanes = Vec<(u8, Vec<usize>)>;

/// A step vector and the player it belongs to (`None`: every player).
type TaggedVector = (Vec<i64>, Option<u8>);

#[derive(Clone, Copy)]
enum Sym<'a> {
    IntConst(i64),
    Word,
    Player(u8),
    Relation(u16),
    Pattern(u16),
    Zone(u16),
    Piece(u8),
    Counter {
        base: u16,
    },
    /// A per-cell counter (or a track's counts): the slot of cell 0.
    Layer {
        base: u16,
    },
    /// A token: the counter slot holding its cell.
    Token {
        slot: u16,
    },
    Shape,
    Define(&'a Expr),
}

/// A shape's cells as declared: offset, span and whether it is a foot.
#[derive(Clone, Debug)]
struct ShapeCell {
    offset: [i64; 2],
    bottom: i64,
    top: i64,
    foot: bool,
}

/// A `place` variable: its slot, its table and the turn variable holding its anchor.
#[derive(Clone, Copy, Debug)]
struct PlacedVar {
    slot: u8,
    table: u16,
    anchor: u8,
}

struct Lowerer<'a> {
    file: &'a File,
    /// The checker's type of every expression.
    types: &'a ExprTypes,
    env: &'a ConstEnv,
    geo: Geometry,
    syms: HashMap<&'a str, Sym<'a>>,
    /// Each direction's and relation's vectors, with the player a vector belongs to (`None`:
    /// every player).
    vectors: HashMap<&'a str, Vec<TaggedVector>>,
    prog: Program,
    /// Turn variables: each name gets one slot for the whole program.
    vars: HashMap<String, u8>,
    next_var: u8,
    /// `let` sets: each name gets one slot.
    set_locals: HashMap<String, u8>,
    /// Lowering statements (where unknown names are turn variables), not declarations.
    in_code: bool,
    /// Inside the right side of `where`, axis names mean the candidate cell's coordinates.
    in_where: bool,
    /// Each shape's cells, in declaration order.
    shape_cells: Vec<Vec<ShapeCell>>,
    placed_vars: HashMap<String, PlacedVar>,
    /// Direction variables (`pick d in R`): their slot and relation.
    dir_vars: HashMap<String, (u8, u16)>,
    /// The `distinct` blocks being lowered, innermost last.
    distinct_stack: Vec<u8>,
    /// Each track's lanes: player and cells, entry first.
    tracks: HashMap<&'a str, Lanes>,
    /// The slots of `carried` tokens, which follow `move`.
    carried: Vec<u16>,
}

impl<'a> Lowerer<'a> {
    fn new(file: &'a File, types: &'a ExprTypes, env: &'a ConstEnv) -> Result<Self> {
        let Some((board, board_span)) = file.items.iter().find_map(|i| match &i.kind {
            ItemKind::Board(b) => Some((b, i.span)),
            _ => None,
        }) else {
            return err("the game has no board");
        };
        let geo = Geometry::build(board, env).map_err(|e| match e {
            GeometryError::Const(c) => LowerError::NotComputable {
                what: "the board".to_string(),
                reason: c.reason(),
                span: Some(c.span()),
            },
            GeometryError::DuplicateName { name, span } => LowerError::DuplicateCellName {
                name,
                span: Some(span),
            },
            GeometryError::TooManyCells { span } => LowerError::TooManyCells {
                max: crate::check::geometry::MAX_CELLS,
                span: Some(span),
            },
        })?;
        if geo.is_empty() {
            return Err(LowerError::NoCells {
                span: Some(board_span),
            });
        }
        let axes = geo.axes.clone();
        let coords: Vec<i32> = geo
            .coords
            .iter()
            .flatten()
            .map(|&v| i32::try_from(v).unwrap_or(i32::MAX))
            .collect();
        let names = geo.names.clone();
        let n = geo.len();
        let axis_tables = Board::build_axis_tables(axes.len(), &coords, n);
        let options = crate::check::options::declared(file)
            .map(|d| {
                let v = match env.values.get(&d.name.name) {
                    Some(Const::Int(v)) => v.to_string(),
                    Some(Const::Word(w) | Const::Text(w)) => w.clone(),
                    _ => String::new(),
                };
                (d.name.name.clone(), v)
            })
            .collect();
        Ok(Lowerer {
            file,
            types,
            env,
            geo,
            syms: HashMap::new(),
            vectors: HashMap::new(),
            prog: Program {
                name: String::new(),
                players: Vec::new(),
                board: Board {
                    axes,
                    axis_tables,
                    names,
                    coords,
                    all: CellSet::first_n(n),
                },
                relations: Vec::new(),
                patterns: Vec::new(),
                zones: Vec::new(),
                pieces: Vec::new(),
                counters: Vec::new(),
                sets: Vec::new(),
                ints: Vec::new(),
                bools: Vec::new(),
                templates: Vec::new(),
                setup: Code::default(),
                turn: Code::default(),
                no_moves: Code::default(),
                distinct_blocks: 0,
                layers: Vec::new(),
                shapes: Vec::new(),
                placements: Vec::new(),
                score: None,
                markers: Vec::new(),
                status: Vec::new(),
                options,
            },
            vars: HashMap::new(),
            next_var: 0,
            set_locals: HashMap::new(),
            in_code: false,
            in_where: false,
            shape_cells: Vec::new(),
            placed_vars: HashMap::new(),
            dir_vars: HashMap::new(),
            distinct_stack: Vec::new(),
            tracks: HashMap::new(),
            carried: Vec::new(),
        })
    }

    fn run(mut self) -> Result<Program> {
        self.declare()?;
        let file = self.file;
        for item in &file.items {
            if let ItemKind::Counter {
                name,
                view: AstView::Directions(rel),
                ..
            } = &item.kind
            {
                let Some(Sym::Relation(r)) = self.syms.get(rel.name.as_str()).copied() else {
                    return err(format!("`{}` is not a relation", rel.name));
                };
                for c in &mut self.prog.counters {
                    if c.name == name.name {
                        c.view = CounterView::Directions(r);
                    }
                }
            }
        }
        for item in &file.items {
            let at = |e: LowerError| e.at(item.span);
            match &item.kind {
                ItemKind::Setup(b) => self.prog.setup = self.code(b).map_err(at)?,
                ItemKind::Turn(b) => self.prog.turn = self.code(b).map_err(at)?,
                ItemKind::NoMoves(b) => self.prog.no_moves = self.code(b).map_err(at)?,
                _ => {}
            }
        }
        for item in &file.items {
            self.late_item(item).map_err(|e| e.at(item.span))?;
        }
        if self.prog.no_moves.ops.is_empty() {
            // Without `on no moves`, a player who cannot move ends the game drawn.
            self.prog.no_moves = Code::new(vec![Op::Finish(Finish::Draw), Op::Done]);
        }
        if self.prog.setup.ops.is_empty() {
            self.prog.setup = Code::new(vec![Op::Done]);
        }
        Ok(self.prog)
    }

    /// Markers, status lines and the score: declarations read like turn code.
    fn late_item(&mut self, item: &'a Item) -> Result<()> {
        if let ItemKind::Marker { symbol, cells } = &item.kind {
            self.in_code = true;
            let set = self.set(cells)?;
            self.prog.markers.push((symbol.0.clone(), set));
        }
        if let ItemKind::Status { text, when } = &item.kind {
            self.in_code = true;
            let mut parts = Vec::new();
            for p in &text.parts {
                parts.push(match p {
                    AstPart::Text(s) => TemplatePart::Text(s.clone()),
                    AstPart::Hole(e) => self.template_part(e)?,
                });
            }
            let id = u16::try_from(self.prog.templates.len()).unwrap_or(u16::MAX);
            self.prog.templates.push(Template { parts });
            let when = match when {
                Some(w) => Some(self.bool(w)?),
                None => None,
            };
            self.prog.status.push((id, when));
        }
        if let ItemKind::Score { player, expr } = &item.kind {
            let mut ids = [0; 2];
            for (p, id) in ids.iter_mut().enumerate() {
                self.syms.insert(
                    player.name.as_str(),
                    Sym::Player(u8::try_from(p).unwrap_or(0)),
                );
                *id = self.int(expr)?;
            }
            self.syms.remove(player.name.as_str());
            self.prog.score = Some(ids);
        }
        Ok(())
    }

    /// Resolves every declaration. Names may be used before they are declared, so simple
    /// declarations come first, then directions, then relations, patterns and zones, which may
    /// refer to each other: these are retried until no more resolve.
    fn declare(&mut self) -> Result<()> {
        let file = self.file;
        let is_late = |k: &ItemKind| matches!(k, ItemKind::Relation { .. } | ItemKind::Zone { .. });
        for item in &file.items {
            if !is_late(&item.kind) && !matches!(item.kind, ItemKind::Pattern { .. }) {
                self.declare_item(item)?;
            }
        }
        let mut pending: Vec<&Item> = file.items.iter().filter(|i| is_late(&i.kind)).collect();
        while !pending.is_empty() {
            let before = pending.len();
            let mut first_error = None;
            let mut still = Vec::new();
            for item in pending {
                if let Err(e) = self.declare_item(item) {
                    first_error.get_or_insert(e);
                    still.push(item);
                }
            }
            if still.len() == before {
                if let Some(e) = first_error {
                    return Err(e);
                }
            }
            pending = still;
        }
        for item in &file.items {
            if matches!(item.kind, ItemKind::Pattern { .. }) {
                self.declare_item(item)?;
            }
        }
        if self.prog.players.len() != 2 {
            return err("a game needs exactly two players");
        }
        Ok(())
    }

    fn declare_item(&mut self, item: &'a Item) -> Result<()> {
        self.declare_kind(&item.kind).map_err(|e| e.at(item.span))
    }

    fn declare_kind(&mut self, kind: &'a ItemKind) -> Result<()> {
        {
            match kind {
                ItemKind::Game { name, .. } => self.prog.name.clone_from(name),
                ItemKind::Players(names) => {
                    for (i, p) in names.iter().enumerate() {
                        self.prog.players.push(p.name.clone());
                        self.syms
                            .insert(&p.name, Sym::Player(u8::try_from(i).unwrap_or(0)));
                    }
                }
                ItemKind::Option(o) => {
                    if let OptionType::Enum(words) = &o.ty {
                        for w in words {
                            self.syms.insert(&w.name, Sym::Word);
                        }
                    }
                    let sym = match self.env.values.get(&o.name.name) {
                        Some(Const::Int(v)) => Sym::IntConst(*v),
                        _ => Sym::Word,
                    };
                    self.syms.insert(&o.name.name, sym);
                }
                ItemKind::Direction { name, vector } => {
                    self.vectors
                        .insert(&name.name, vec![(vector.components.clone(), None)]);
                    self.relation_table(name.name.as_str())?;
                }
                ItemKind::Relation {
                    name,
                    members,
                    players,
                } => {
                    let mut vs = Vec::new();
                    for (m, who) in members.iter().zip(players) {
                        let who = match who {
                            Some(p) => match self.syms.get(p.name.as_str()) {
                                Some(Sym::Player(i)) => Some(*i),
                                _ => return err(format!("`{}` is not a player", p.name)),
                            },
                            None => None,
                        };
                        for (v, inner) in self.rel_vectors(m)? {
                            vs.push((v, who.or(inner)));
                        }
                    }
                    self.vectors.insert(&name.name, vs);
                    self.relation_table(name.name.as_str())?;
                }
                ItemKind::Pattern { name, shape } => {
                    let pattern = self.pattern(&name.name, shape)?;
                    let id = self.prog.patterns.len();
                    self.prog.patterns.push(pattern);
                    self.syms.insert(&name.name, Sym::Pattern(id16(id)?));
                }
                ItemKind::Zone { name, cells } => {
                    let id = self.set(cells)?;
                    let SetExpr::Const(c) = self.prog.sets[id as usize] else {
                        return err(format!("zone `{}` is not constant", name.name));
                    };
                    let z = self.prog.zones.len();
                    self.prog.zones.push(Zone {
                        name: name.name.clone(),
                        cells: c,
                    });
                    self.syms.insert(&name.name, Sym::Zone(id16(z)?));
                }
                ItemKind::Piece { name, symbols } => {
                    let k = self.prog.pieces.len();
                    let mut syms: Vec<String> = symbols.iter().map(|(s, _)| s.clone()).collect();
                    let initial = name.name.chars().next().unwrap_or('?');
                    while syms.len() < 2 {
                        syms.push(if syms.is_empty() {
                            initial.to_uppercase().to_string()
                        } else {
                            initial.to_lowercase().to_string()
                        });
                    }
                    self.prog.pieces.push(Piece {
                        name: name.name.clone(),
                        symbols: syms,
                    });
                    self.syms
                        .insert(&name.name, Sym::Piece(u8::try_from(k).unwrap_or(0)));
                }
                ItemKind::Shape(shape) => self.shape(shape)?,
                ItemKind::Counter {
                    name,
                    per_player,
                    per_cell,
                    init,
                    view,
                } => {
                    let view = match view {
                        AstView::Plain => CounterView::Plain,
                        AstView::Hidden => CounterView::Hidden,
                        // Relations may come later in the file: set once all are declared.
                        AstView::Directions(_) => CounterView::Plain,
                    };
                    let expanded = crate::check::zones::Defines::new(self.file).expand(init);
                    let v = self
                        .env
                        .int(expanded.as_ref().unwrap_or(init))
                        .map_err(|e| LowerError::NotComputable {
                            what: format!("the start value of `{}`", name.name),
                            reason: e.reason(),
                            span: Some(init.span),
                        })?;
                    let initial = i32::try_from(v).unwrap_or(i32::MAX);
                    let base = id16(self.prog.counters.len())?;
                    if *per_cell {
                        for _ in 0..self.geo.len() {
                            self.prog.counters.push(Counter {
                                name: name.name.clone(),
                                player: None,
                                initial,
                                view,
                            });
                        }
                        self.prog.layers.push((name.name.clone(), base));
                        self.syms.insert(&name.name, Sym::Layer { base });
                        return Ok(());
                    }
                    if *per_player {
                        for p in 0..2u8 {
                            self.prog.counters.push(Counter {
                                name: name.name.clone(),
                                player: Some(p),
                                initial,
                                view,
                            });
                        }
                    } else {
                        self.prog.counters.push(Counter {
                            name: name.name.clone(),
                            player: None,
                            initial,
                            view,
                        });
                    }
                    self.syms.insert(&name.name, Sym::Counter { base });
                }
                ItemKind::Define { name, expr } => {
                    self.syms.insert(&name.name, Sym::Define(expr));
                }
                ItemKind::Token {
                    name,
                    start,
                    carried,
                } => {
                    let cell = match &start.kind {
                        ExprKind::Name(n) => self.geo.by_name.get(n.name.as_str()).copied(),
                        _ => None,
                    };
                    let Some(cell) = cell else {
                        return err(format!("token `{}` does not start on a cell", name.name));
                    };
                    let slot = id16(self.prog.counters.len())?;
                    self.prog.counters.push(Counter {
                        name: name.name.clone(),
                        player: None,
                        initial: i32::try_from(cell).unwrap_or(0),
                        view: CounterView::Hidden,
                    });
                    self.syms.insert(&name.name, Sym::Token { slot });
                    if *carried {
                        self.carried.push(slot);
                    }
                }
                ItemKind::Track { name, lanes } => {
                    let players = self.file.items.iter().find_map(|i| match &i.kind {
                        ItemKind::Players(p) => Some(p),
                        _ => None,
                    });
                    let mut resolved = Vec::new();
                    for lane in lanes {
                        let Some(p) = players
                            .and_then(|ps| ps.iter().position(|p| p.name == lane.player.name))
                        else {
                            return err(format!("`{}` is not a player", lane.player.name));
                        };
                        let mut cells = Vec::new();
                        for c in &lane.cells {
                            let Some(&cell) = self.geo.by_name.get(c.name.as_str()) else {
                                return err(format!("`{}` is not a cell", c.name));
                            };
                            cells.push(cell);
                        }
                        resolved.push((u8::try_from(p).unwrap_or(0), cells));
                    }
                    let base = id16(self.prog.counters.len())?;
                    for _ in 0..self.geo.len() {
                        self.prog.counters.push(Counter {
                            name: name.name.clone(),
                            player: None,
                            initial: 0,
                            view: CounterView::Plain,
                        });
                    }
                    self.prog.layers.push((name.name.clone(), base));
                    self.syms.insert(&name.name, Sym::Layer { base });
                    self.tracks.insert(&name.name, resolved);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A shape's declaration: its stock counters and its cells.
    fn shape(&mut self, shape: &'a ShapeDecl) -> Result<()> {
        let constant = |e: &Option<Expr>, default: i64, what: &str| -> Result<i32> {
            match e {
                None => Ok(i32::try_from(default).unwrap_or(0)),
                Some(e) => match self.env.int(e) {
                    Ok(v) => Ok(i32::try_from(v).unwrap_or(i32::MAX)),
                    Err(c) => Err(LowerError::NotComputable {
                        what: format!("the {what} of shape `{}`", shape.name.name),
                        reason: c.reason(),
                        span: Some(e.span),
                    }),
                },
            }
        };
        let count = constant(&shape.count, 1, "count")?;
        let points = constant(&shape.points, 0, "points")?;
        let stock = id16(self.prog.counters.len())?;
        for p in 0..2u8 {
            self.prog.counters.push(Counter {
                name: shape.name.name.clone(),
                player: Some(p),
                initial: count,
                view: CounterView::Plain,
            });
        }
        if self.prog.shapes.len() >= usize::from(u8::MAX) {
            return Err(LowerError::TableTooLarge {
                what: "shapes",
                found: self.prog.shapes.len() as u64 + 1,
                max: u64::from(u8::MAX),
                span: Some(shape.name.span),
            });
        }
        self.prog.shapes.push(Shape {
            name: shape.name.name.clone(),
            count,
            points,
            flip: shape.flip.as_ref().map(|(m, _)| m.clone()),
            stock,
        });
        let mut cells = Vec::new();
        for part in &shape.parts {
            for v in &part.cells {
                let [dx, dy] = v.components[..] else {
                    return err(format!(
                        "shape `{}` needs two-component cells",
                        shape.name.name
                    ));
                };
                let foot = shape
                    .feet
                    .as_ref()
                    .is_none_or(|feet| feet.iter().any(|f| f.components == v.components));
                cells.push(ShapeCell {
                    offset: [dx, dy],
                    bottom: part.bottom,
                    top: part.top,
                    foot,
                });
            }
        }
        self.shape_cells.push(cells);
        self.syms.insert(&shape.name.name, Sym::Shape);
        Ok(())
    }

    /// The name of each vector of a relation, for notation: the direction declared with that
    /// vector, else the vector itself.
    fn vector_names(&self, vectors: &[TaggedVector]) -> Vec<String> {
        vectors
            .iter()
            .map(|(v, _)| {
                self.file
                    .items
                    .iter()
                    .find_map(|i| match &i.kind {
                        ItemKind::Direction { name, vector } if vector.components == *v => {
                            Some(name.name.clone())
                        }
                        _ => None,
                    })
                    .unwrap_or_else(|| {
                        let parts: Vec<String> = v.iter().map(i64::to_string).collect();
                        format!("({})", parts.join(", "))
                    })
            })
            .collect()
    }

    /// Every distinct placement of every shape, turned along each vector of `turned` (the
    /// shape's +x axis; +y is +x turned a quarter turn anticlockwise) and, for shapes with a
    /// flip mark, upside down too.
    fn placements(&mut self, turned: &str) -> Result<u16> {
        let vectors = self.vectors.get(turned).cloned().unwrap_or_default();
        let mut table = Placements {
            facings: self.vector_names(&vectors),
            by_shape: Vec::new(),
            instances: Vec::new(),
            parts: Vec::new(),
        };
        for (s, cells) in self.shape_cells.iter().enumerate() {
            let start = u32::try_from(table.instances.len()).unwrap_or(u32::MAX);
            let height = cells.iter().map(|c| c.top).max().unwrap_or(0);
            let flips: &[bool] = if self.prog.shapes[s].flip.is_some() {
                &[false, true]
            } else {
                &[false]
            };
            let mut seen = std::collections::HashSet::new();
            for anchor in 0..self.geo.len() {
                for (f, (v, _)) in vectors.iter().enumerate() {
                    let [ax, ay] = v[..] else {
                        return err(format!(
                            "`{turned}` needs two-component vectors to turn shapes"
                        ));
                    };
                    for &flipped in flips {
                        let mut parts = Vec::new();
                        let mut covered = CellSet::EMPTY;
                        for c in cells {
                            let [dx, dy] = c.offset;
                            let step = [dx * ax - dy * ay, dx * ay + dy * ax];
                            let Some(cell) = self.geo.offset(anchor, &step) else {
                                break;
                            };
                            let (bottom, top) = if flipped {
                                (height - c.top, height - c.bottom)
                            } else {
                                (c.bottom, c.top)
                            };
                            covered.insert(cell);
                            parts.push(PlacedCell {
                                cell: u8::try_from(cell).unwrap_or(u8::MAX),
                                bottom: u8::try_from(bottom).unwrap_or(u8::MAX),
                                top: u8::try_from(top).unwrap_or(u8::MAX),
                                foot: c.foot,
                            });
                        }
                        if parts.len() != cells.len() || covered.len() != cells.len() {
                            continue;
                        }
                        let mut key: Vec<(u8, u8, u8)> =
                            parts.iter().map(|p| (p.cell, p.bottom, p.top)).collect();
                        key.sort_unstable();
                        if !seen.insert(key) {
                            continue;
                        }
                        table.instances.push(Placement {
                            shape: u8::try_from(s).unwrap_or(u8::MAX),
                            anchor: u8::try_from(anchor).unwrap_or(u8::MAX),
                            facing: u8::try_from(f).unwrap_or(u8::MAX),
                            flipped,
                            cells: covered,
                            first: u32::try_from(table.parts.len()).unwrap_or(u32::MAX),
                            len: u8::try_from(parts.len()).unwrap_or(u8::MAX),
                            max_top: parts.iter().map(|p| p.top).max().unwrap_or(0),
                        });
                        table.parts.extend(parts);
                    }
                }
            }
            let end = u32::try_from(table.instances.len()).unwrap_or(u32::MAX);
            table.by_shape.push((start, end));
        }
        if table.instances.len() > usize::from(u16::MAX) {
            return Err(LowerError::TableTooLarge {
                what: "placements in one `place`",
                found: table.instances.len() as u64,
                max: u64::from(u16::MAX),
                span: None,
            });
        }
        let id = id16(self.prog.placements.len())?;
        self.prog.placements.push(table);
        Ok(id)
    }

    fn rel_vectors(&self, item: &RelItem) -> Result<Vec<TaggedVector>> {
        match item {
            RelItem::Vector(v) => Ok(vec![(v.components.clone(), None)]),
            RelItem::Name(n) => self
                .vectors
                .get(n.name.as_str())
                .cloned()
                .map_or_else(|| err(format!("unknown direction `{}`", n.name)), Ok),
        }
    }

    fn relation_table(&mut self, name: &'a str) -> Result<()> {
        let vectors = self.vectors.get(name).cloned().unwrap_or_default();
        let table = |player: Option<u8>| -> Vec<CellSet> {
            (0..self.geo.len())
                .map(|c| {
                    let mut m = CellSet::EMPTY;
                    for (v, who) in &vectors {
                        if player.is_none() || who.is_none() || *who == player {
                            if let Some(t) = self.geo.offset(c, v) {
                                m.insert(t);
                            }
                        }
                    }
                    m
                })
                .collect()
        };
        let per_player = if vectors.iter().any(|(_, who)| who.is_some()) {
            vec![table(Some(0)), table(Some(1))]
        } else {
            Vec::new()
        };
        let rays = vectors
            .iter()
            .map(|(v, who)| {
                let next = (0..self.geo.len())
                    .map(|c| {
                        self.geo
                            .offset(c, v)
                            .map_or(NO_CELL, |t| u8::try_from(t).unwrap_or(NO_CELL))
                    })
                    .collect();
                Ray::new(*who, next)
            })
            .collect();
        let opposite = vectors
            .iter()
            .map(|(v, who)| {
                let back: Vec<i64> = v.iter().map(|x| -x).collect();
                vectors
                    .iter()
                    .position(|(u, w)| *u == back && w == who)
                    .and_then(|i| u8::try_from(i).ok())
                    .unwrap_or(NO_DIR)
            })
            .collect();
        let names = self.vector_names(&vectors);
        let mirrors = (0..self.geo.axes.len())
            .map(|axis| {
                vectors
                    .iter()
                    .map(|(v, who)| {
                        let mut m = v.clone();
                        if let Some(x) = m.get_mut(axis) {
                            *x = -*x;
                        }
                        vectors
                            .iter()
                            .position(|(u, w)| *u == m && w == who)
                            .and_then(|i| u8::try_from(i).ok())
                            .unwrap_or(NO_DIR)
                    })
                    .collect()
            })
            .collect();
        let id = id16(self.prog.relations.len())?;
        self.prog.relations.push(Relation {
            name: name.to_string(),
            masks: table(None),
            per_player,
            rays,
            opposite,
            names,
            mirrors,
        });
        self.syms.insert(name, Sym::Relation(id));
        Ok(())
    }

    fn pattern(&self, name: &str, shape: &PatternShape) -> Result<Pattern> {
        let n = self.geo.len();
        let mut per_cell: Vec<Vec<CellSet>> = vec![Vec::new(); n];
        let mut add = |inst: CellSet| {
            for c in inst.iter() {
                if !per_cell[c].contains(&inst) {
                    per_cell[c].push(inst);
                }
            }
        };
        match shape {
            PatternShape::Shape(vs) => {
                for anchor in 0..n {
                    let mut inst = CellSet::EMPTY;
                    let mut whole = true;
                    for v in vs {
                        match self.geo.offset(anchor, &v.components) {
                            Some(c) => inst.insert(c),
                            None => whole = false,
                        }
                    }
                    if whole {
                        add(inst);
                    }
                }
            }
            PatternShape::Line(item) => {
                let vs = self.rel_vectors(item)?;
                for (v, _) in vs {
                    let back: Vec<i64> = v.iter().map(|x| -x).collect();
                    for start in 0..n {
                        if self.geo.offset(start, &back).is_some() {
                            continue; // not the first cell of its line
                        }
                        let mut inst = CellSet::EMPTY;
                        let mut c = Some(start);
                        while let Some(cell) = c {
                            inst.insert(cell);
                            c = self.geo.offset(cell, &v);
                        }
                        // A line of one cell is no line.
                        if inst.len() >= 2 {
                            add(inst);
                        }
                    }
                }
            }
        }
        let mut offsets = vec![0u32];
        let mut instances = Vec::new();
        for list in per_cell {
            instances.extend(list);
            offsets.push(u32::try_from(instances.len()).unwrap_or(u32::MAX));
        }
        Ok(Pattern {
            name: name.to_string(),
            offsets,
            instances,
        })
    }

    // ---- statements -------------------------------------------------------------------------

    fn code(&mut self, block: &Block) -> Result<Code> {
        self.in_code = true;
        let mut ops = Vec::new();
        self.block(block, &mut ops)?;
        ops.push(Op::Done);
        self.mark_replay_lets(&mut ops);
        Ok(Code::new(ops))
    }

    fn var(&mut self, name: &str) -> Result<u8> {
        if let Some(v) = self.vars.get(name) {
            return Ok(*v);
        }
        self.new_var(name)
    }

    fn new_var(&mut self, name: &str) -> Result<u8> {
        if usize::from(self.next_var) >= MAX_VARS {
            return Err(LowerError::TooManyTurnVariables {
                found: usize::from(self.next_var) + 1,
                max: MAX_VARS,
                span: None,
            });
        }
        let v = self.next_var;
        self.next_var += 1;
        self.vars.insert(name.to_string(), v);
        Ok(v)
    }

    fn block(&mut self, block: &Block, ops: &mut Vec<Op>) -> Result<()> {
        for stmt in &block.stmts {
            self.stmt(stmt, ops).map_err(|e| e.at(stmt.span))?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_lines)] // one arm per statement kind
    fn stmt(&mut self, stmt: &Stmt, ops: &mut Vec<Op>) -> Result<()> {
        {
            match &stmt.kind {
                StmtKind::Pick { var, from, by } => {
                    if let Some(p) = by {
                        let player = self.player(p)?;
                        ops.push(Op::Chooser(player));
                    }
                    let relation = match &from.kind {
                        ExprKind::Name(n) => match self.syms.get(n.name.as_str()) {
                            Some(Sym::Relation(r)) => Some(*r),
                            _ => None,
                        },
                        _ => None,
                    };
                    if let Some(relation) = relation {
                        let slot = self.var(&var.name).map_err(|e| e.at(var.span))?;
                        self.dir_vars.insert(var.name.clone(), (slot, relation));
                        ops.push(Op::PickDir {
                            var: slot,
                            relation,
                        });
                    } else {
                        let from = self.set(from)?;
                        let var = self.var(&var.name).map_err(|e| e.at(var.span))?;
                        ops.push(Op::Pick { var, from });
                    }
                }
                StmtKind::Place {
                    var,
                    from,
                    turned,
                    layer,
                    max,
                    feet,
                } => {
                    let player = match &from.kind {
                        ExprKind::Call { func, args }
                            if func.name == "unplayed" && args.len() == 1 =>
                        {
                            self.player(&args[0])?
                        }
                        _ => return err("`place` takes shapes from `unplayed(player)`"),
                    };
                    let Some(Sym::Layer { base }) = self.syms.get(layer.name.as_str()).copied()
                    else {
                        return err(format!("`{}` is not a per-cell counter", layer.name));
                    };
                    let table = self.placements(&turned.name)?;
                    let max = match max {
                        Some(m) => self.int(m)?,
                        None => self.push_int(IntExpr::Const(i32::MAX)),
                    };
                    let feet = match feet {
                        Some(cells) => Some(self.set(cells)?),
                        None => None,
                    };
                    let anchor = self.var(&format!("{}.anchor", var.name))?;
                    let slot = match self.placed_vars.get(&var.name) {
                        Some(p) => p.slot,
                        None => {
                            let slot = self.placed_vars.len();
                            if slot >= super::MAX_PLACED {
                                return Err(LowerError::TooManyPlaceVariables {
                                    found: slot + 1,
                                    max: super::MAX_PLACED,
                                    span: Some(var.span),
                                });
                            }
                            u8::try_from(slot).unwrap_or(0)
                        }
                    };
                    self.placed_vars.insert(
                        var.name.clone(),
                        PlacedVar {
                            slot,
                            table,
                            anchor,
                        },
                    );
                    ops.push(Op::Place {
                        slot,
                        anchor,
                        table,
                        player,
                        layer: base,
                        max,
                        feet,
                    });
                }
                StmtKind::Let { name, value } if self.ty(value)? == Ty::Dir => {
                    let (relation, dir) = self.dir(value)?;
                    let var = self.var(&name.name)?;
                    self.dir_vars.insert(name.name.clone(), (var, relation));
                    ops.push(Op::SetDir { var, relation, dir });
                }
                StmtKind::Let { name, value } if self.ty(value)? == Ty::Cell => {
                    let set = self.set(value)?;
                    let var = self.var(&name.name)?;
                    ops.push(Op::SetVar { var, set });
                }
                StmtKind::Assign { target, value, .. }
                    if self.dir_vars.contains_key(&target.name) =>
                {
                    let (_, dir) = self.dir(value)?;
                    let (var, relation) = self.dir_vars[&target.name];
                    ops.push(Op::SetDir { var, relation, dir });
                }
                StmtKind::Assign { target, value, .. }
                    if self.set_locals.contains_key(&target.name) =>
                {
                    let set = self.set(value)?;
                    let slot = self.set_locals[&target.name];
                    ops.push(Op::Let {
                        slot,
                        set,
                        replay: true,
                    });
                }
                StmtKind::Assign {
                    target,
                    index: Some(index),
                    op,
                    value,
                } if matches!(self.syms.get(target.name.as_str()), Some(Sym::Layer { .. }))
                    && self.ty(index)? == Ty::Cells =>
                {
                    let Some(Sym::Layer { base }) = self.syms.get(target.name.as_str()).copied()
                    else {
                        return err(format!("`{}` is not a per-cell counter", target.name));
                    };
                    let cells = self.set(index)?;
                    let value = self.int(value)?;
                    let op = match op {
                        AssignOp::Set => AssignKind::Set,
                        AssignOp::Add => AssignKind::Add,
                        AssignOp::Sub => AssignKind::Sub,
                    };
                    ops.push(Op::AssignAll {
                        base,
                        cells,
                        op,
                        value,
                    });
                }
                StmtKind::Assign { target, value, .. } if self.vars.contains_key(&target.name) => {
                    let set = self.set(value)?;
                    let var = self.vars[&target.name];
                    ops.push(Op::SetVar { var, set });
                }
                StmtKind::Roll {
                    counters, lo, hi, ..
                } => {
                    let (Ok(lo), Ok(count)) = (i32::try_from(*lo), u16::try_from(hi - lo + 1))
                    else {
                        return err("a roll range must hold 1 to 256 values");
                    };
                    for c in counters {
                        let Some(Sym::Counter { base, .. }) =
                            self.syms.get(c.name.as_str()).copied()
                        else {
                            return err(format!("`{}` is not a counter", c.name));
                        };
                        ops.push(Op::Roll {
                            slot: base,
                            lo,
                            count,
                        });
                    }
                }
                StmtKind::Again => ops.push(Op::Again),
                StmtKind::While { cond, body } => {
                    let var = self.new_var(&format!("#while{}", ops.len()))?;
                    let cond = self.bool(cond)?;
                    ops.push(Op::RepeatStart { var });
                    let head = ops.len();
                    ops.push(Op::Jump(0));
                    self.loop_memo(body, ops);
                    self.block(body, ops)?;
                    ops.push(Op::Jump(pc(head)?));
                    ops[head] = Op::WhileCheck {
                        var,
                        cond,
                        exit: pc(ops.len())?,
                    };
                }
                StmtKind::Let { name, value } => {
                    let set = self.set(value)?;
                    let slot = match self.set_locals.get(&name.name) {
                        Some(s) => *s,
                        None => {
                            let s = self.set_locals.len();
                            if s >= super::MAX_SET_LOCALS {
                                return Err(LowerError::TooManySetLocals {
                                    found: s + 1,
                                    max: super::MAX_SET_LOCALS,
                                    span: Some(name.span),
                                });
                            }
                            let s = u8::try_from(s).unwrap_or(0);
                            self.set_locals.insert(name.name.clone(), s);
                            s
                        }
                    };
                    ops.push(Op::Let {
                        slot,
                        set,
                        replay: true,
                    });
                }
                StmtKind::Put { piece, owner, at } => {
                    let Some(Sym::Piece(k)) = self.syms.get(piece.name.as_str()).copied() else {
                        return err(format!("`{}` is not a piece", piece.name));
                    };
                    let owner = match owner {
                        Some(o) => self.player(o)?,
                        None => PlayerRef::Mover,
                    };
                    let code_base = 1 + 2 * k;
                    if self.ty(at)? == Ty::Cells {
                        let at = self.set(at)?;
                        ops.push(Op::PutAll {
                            code_base,
                            owner,
                            at,
                        });
                    } else {
                        let at = self.cell(at)?;
                        ops.push(Op::Put {
                            code_base,
                            owner,
                            at,
                        });
                    }
                }
                StmtKind::Move { what, to } => self.move_stmt(what, to, ops)?,
                StmtKind::Enter { track, owner, near } => {
                    let (base, lanes) = self.track(&track.name)?;
                    let owner = self.owner_or_mover(owner.as_ref())?;
                    let near = self.cell(near)?;
                    self.per_player(owner, true, ops, |this, p, ops| {
                        this.enter(base, &lanes, p, near, ops)
                    })?;
                }
                StmtKind::Advance { track, owner } => {
                    let (base, lanes) = self.track(&track.name)?;
                    let owner = self.owner_or_mover(owner.as_ref())?;
                    self.per_player(owner, false, ops, |this, p, ops| {
                        for (_, cells) in lanes.iter().filter(|(q, _)| *q == p) {
                            this.advance_lane(base, cells, ops)?;
                        }
                        Ok(())
                    })?;
                }
                StmtKind::Take { track, owner } => {
                    let (base, lanes) = self.track(&track.name)?;
                    let owner = self.owner_or_mover(owner.as_ref())?;
                    self.per_player(owner, true, ops, |this, p, ops| {
                        this.take(base, &lanes, p, ops)
                    })?;
                }
                StmtKind::Remove { at } => {
                    if self.ty(at)? == Ty::Cells {
                        let at = self.set(at)?;
                        ops.push(Op::RemoveAll { at });
                    } else {
                        let at = self.cell(at)?;
                        ops.push(Op::Remove { at });
                    }
                }
                StmtKind::Require(c) => {
                    let c = self.bool(c)?;
                    if !matches!(self.prog.bools[c as usize], BoolExpr::Const(true)) {
                        ops.push(Op::Require(c));
                    }
                }
                StmtKind::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    let c = self.bool(cond)?;
                    match self.prog.bools[c as usize] {
                        BoolExpr::Const(true) => self.block(then, ops)?,
                        BoolExpr::Const(false) => {
                            if let Some(b) = otherwise {
                                self.block(b, ops)?;
                            }
                        }
                        _ => {
                            let unless = ops.len();
                            ops.push(Op::Unless { cond: c, target: 0 });
                            self.block(then, ops)?;
                            if let Some(b) = otherwise {
                                let jump = ops.len();
                                ops.push(Op::Jump(0));
                                let else_start = pc(ops.len())?;
                                ops[unless] = Op::Unless {
                                    cond: c,
                                    target: else_start,
                                };
                                self.block(b, ops)?;
                                ops[jump] = Op::Jump(pc(ops.len())?);
                            } else {
                                ops[unless] = Op::Unless {
                                    cond: c,
                                    target: pc(ops.len())?,
                                };
                            }
                        }
                    }
                }
                StmtKind::Either(blocks) | StmtKind::First(blocks) => {
                    let first = matches!(stmt.kind, StmtKind::First(_));
                    let at = ops.len();
                    ops.push(Op::Jump(0));
                    let mut starts = Vec::new();
                    let mut jumps = Vec::new();
                    for b in blocks {
                        starts.push(pc(ops.len())?);
                        self.block(b, ops)?;
                        jumps.push(ops.len());
                        ops.push(Op::Jump(0));
                    }
                    let join = pc(ops.len())?;
                    for j in jumps {
                        ops[j] = Op::Jump(join);
                    }
                    ops[at] = if first {
                        Op::First(starts)
                    } else {
                        Op::Either(starts)
                    };
                }
                StmtKind::Repeat {
                    min,
                    max,
                    body,
                    range,
                } => {
                    let var = self.new_var(&format!("#repeat{}", ops.len()))?;
                    let (Ok(min), Ok(max)) = (u8::try_from(*min), u8::try_from(*max)) else {
                        return Err(LowerError::RepeatTooLong {
                            found: i64::from((*min).max(*max)),
                            max: i64::from(u8::MAX),
                            span: Some(*range),
                        });
                    };
                    ops.push(Op::RepeatStart { var });
                    let check = ops.len();
                    ops.push(Op::Jump(0));
                    self.loop_memo(body, ops);
                    self.block(body, ops)?;
                    ops.push(Op::RepeatNext {
                        var,
                        check: pc(check)?,
                    });
                    ops[check] = Op::RepeatCheck {
                        var,
                        min,
                        max,
                        exit: pc(ops.len())?,
                    };
                }
                StmtKind::Distinct(body) => {
                    let block = u8::try_from(self.prog.distinct_blocks).map_err(|_| {
                        LowerError::TableTooLarge {
                            what: "`distinct` blocks",
                            found: self.prog.distinct_blocks as u64 + 1,
                            max: u64::from(u8::MAX) + 1,
                            span: None,
                        }
                    })?;
                    self.prog.distinct_blocks += 1;
                    ops.push(Op::DistinctStart { block });
                    self.distinct_stack.push(block);
                    self.block(body, ops)?;
                    self.distinct_stack.pop();
                    ops.push(Op::DistinctEnd { block });
                }
                StmtKind::Write(t) => {
                    let mut parts = Vec::new();
                    for p in &t.parts {
                        parts.push(match p {
                            AstPart::Text(s) => TemplatePart::Text(s.clone()),
                            AstPart::Hole(e) => self.template_part(e)?,
                        });
                    }
                    let id = u16::try_from(self.prog.templates.len()).unwrap_or(u16::MAX);
                    self.prog.templates.push(Template { parts });
                    ops.push(Op::Write(id));
                }
                StmtKind::Win(p) => {
                    let p = self.player(p)?;
                    ops.push(Op::Finish(Finish::Win(p)));
                }
                StmtKind::Lose(p) => {
                    let p = self.player(p)?;
                    ops.push(Op::Finish(Finish::Lose(p)));
                }
                StmtKind::Draw => ops.push(Op::Finish(Finish::Draw)),
                StmtKind::Assign {
                    target,
                    index,
                    op,
                    value,
                } => {
                    let (base, per_cell) = match self.syms.get(target.name.as_str()).copied() {
                        Some(Sym::Counter { base, .. }) => (base, false),
                        Some(Sym::Layer { base }) => (base, true),
                        _ => return err(format!("`{}` is not a counter", target.name)),
                    };
                    let slot = match index {
                        Some(i) if per_cell => AssignSlot::PerCell {
                            base,
                            cell: self.cell(i)?,
                        },
                        Some(i) => AssignSlot::PerPlayer {
                            base,
                            player: self.player(i)?,
                        },
                        None => AssignSlot::Global(base),
                    };
                    let value = self.int(value)?;
                    let op = match op {
                        AssignOp::Set => AssignKind::Set,
                        AssignOp::Add => AssignKind::Add,
                        AssignOp::Sub => AssignKind::Sub,
                    };
                    ops.push(Op::Assign { slot, op, value });
                }
            }
        }
        Ok(())
    }

    /// `move a to b`: a token's new cell, or a piece's move with the carried tokens on `a`.
    fn move_stmt(&mut self, what: &Expr, to: &Expr, ops: &mut Vec<Op>) -> Result<()> {
        let to = self.cell(to)?;
        let value = self.push_int(IntExpr::CellId(to));
        if let ExprKind::Name(n) = &what.kind {
            if let Some(Sym::Token { slot }) = self.syms.get(n.name.as_str()).copied() {
                if !self.vars.contains_key(&n.name) {
                    ops.push(Op::Assign {
                        slot: AssignSlot::Global(slot),
                        op: AssignKind::Set,
                        value,
                    });
                    return Ok(());
                }
            }
        }
        let from = self.cell(what)?;
        ops.push(Op::Move { from, to });
        for slot in self.carried.clone() {
            let cond = self.push_bool(BoolExpr::CellEq {
                eq: true,
                lhs: CellRef::Slot(slot),
                rhs: from,
            });
            let unless = ops.len();
            ops.push(Op::Unless { cond, target: 0 });
            ops.push(Op::Assign {
                slot: AssignSlot::Global(slot),
                op: AssignKind::Set,
                value,
            });
            ops[unless] = Op::Unless {
                cond,
                target: pc(ops.len())?,
            };
        }
        Ok(())
    }

    /// A track's per-cell slots and its lanes.
    fn track(&self, name: &str) -> Result<(u16, Lanes)> {
        match (self.syms.get(name), self.tracks.get(name)) {
            (Some(Sym::Layer { base }), Some(lanes)) => Ok((*base, lanes.clone())),
            _ => err(format!("`{name}` is not a track")),
        }
    }

    fn owner_or_mover(&mut self, owner: Option<&Expr>) -> Result<PlayerRef> {
        owner.map_or(Ok(PlayerRef::Mover), |o| self.player(o))
    }

    /// Emits `body` for each player `owner` may be, behind a test of who it is; with `fail`,
    /// a player with no branch (no lanes) ends the walk.
    fn per_player(
        &mut self,
        owner: PlayerRef,
        fail: bool,
        ops: &mut Vec<Op>,
        mut body: impl FnMut(&mut Self, u8, &mut Vec<Op>) -> Result<()>,
    ) -> Result<()> {
        let mut ends = Vec::new();
        for p in 0..2u8 {
            if matches!(owner, PlayerRef::Const(q) if q != p) {
                continue;
            }
            let guard = if matches!(owner, PlayerRef::Const(_)) {
                None
            } else {
                let cond = self.push_bool(BoolExpr::PlayerEq {
                    eq: true,
                    lhs: owner,
                    rhs: PlayerRef::Const(p),
                });
                ops.push(Op::Unless { cond, target: 0 });
                Some((ops.len() - 1, cond))
            };
            body(self, p, ops)?;
            ends.push(ops.len());
            ops.push(Op::Jump(0));
            patch_guard(ops, guard)?;
        }
        if fail {
            self.fail(ops);
        }
        patch_jumps(ops, &ends)
    }

    /// Ends this way through the program.
    fn fail(&mut self, ops: &mut Vec<Op>) {
        let never = self.push_bool(BoolExpr::Const(false));
        ops.push(Op::Require(never));
    }

    /// `enter`: one more piece on the entry of player `p`'s lane nearest to `near` (squared
    /// distance between coordinates; ties go to the lane written first).
    fn enter(
        &mut self,
        base: u16,
        lanes: &[(u8, Vec<usize>)],
        p: u8,
        near: CellRef,
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        let entries: Vec<usize> = lanes
            .iter()
            .filter(|(q, _)| *q == p)
            .filter_map(|(_, cells)| cells.first().copied())
            .collect();
        if entries.is_empty() {
            self.fail(ops);
            return Ok(());
        }
        let axes = self.prog.board.axes.len();
        let coords = &self.prog.board.coords;
        let dist = |a: usize, b: usize| -> i64 {
            (0..axes)
                .map(|k| {
                    let d = i64::from(coords[a * axes + k]) - i64::from(coords[b * axes + k]);
                    d * d
                })
                .sum()
        };
        let mut regions = vec![CellSet::EMPTY; entries.len()];
        for c in 0..self.prog.board.len() {
            let nearest = (0..entries.len())
                .min_by_key(|&k| (dist(c, entries[k]), k))
                .unwrap_or(0);
            regions[nearest].insert(c);
        }
        let value = self.push_int(IntExpr::Const(1));
        let mut ends = Vec::new();
        for (k, &entry) in entries.iter().enumerate() {
            let last = k + 1 == entries.len();
            let guard = if last {
                None
            } else {
                let set = self.push_set(SetExpr::Const(regions[k]));
                let cond = self.push_bool(BoolExpr::In { cell: near, set });
                ops.push(Op::Unless { cond, target: 0 });
                Some((ops.len() - 1, cond))
            };
            ops.push(Op::Assign {
                slot: AssignSlot::PerCell {
                    base,
                    cell: CellRef::Const(u8::try_from(entry).unwrap_or(u8::MAX)),
                },
                op: AssignKind::Add,
                value,
            });
            if !last {
                ends.push(ops.len());
                ops.push(Op::Jump(0));
            }
            patch_guard(ops, guard)?;
        }
        patch_jumps(ops, &ends)
    }

    /// `advance` on one lane: the end gains the field before it, each field takes the one
    /// before it, the entry empties.
    fn advance_lane(&mut self, base: u16, cells: &[usize], ops: &mut Vec<Op>) -> Result<()> {
        let slot = |c: usize| AssignSlot::PerCell {
            base,
            cell: CellRef::Const(u8::try_from(c).unwrap_or(u8::MAX)),
        };
        for i in (1..cells.len()).rev() {
            let before = self.push_int(IntExpr::CellCounter {
                base,
                cell: CellRef::Const(u8::try_from(cells[i - 1]).unwrap_or(u8::MAX)),
            });
            let op = if i + 1 == cells.len() {
                AssignKind::Add
            } else {
                AssignKind::Set
            };
            ops.push(Op::Assign {
                slot: slot(cells[i]),
                op,
                value: before,
            });
        }
        if cells.len() > 1 {
            let zero = self.push_int(IntExpr::Const(0));
            ops.push(Op::Assign {
                slot: slot(cells[0]),
                op: AssignKind::Set,
                value: zero,
            });
        }
        Ok(())
    }

    /// `take`: one piece leaves the end of player `p`'s first lane that holds one.
    fn take(
        &mut self,
        base: u16,
        lanes: &[(u8, Vec<usize>)],
        p: u8,
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        let one = self.push_int(IntExpr::Const(1));
        let zero = self.push_int(IntExpr::Const(0));
        let mut ends = Vec::new();
        for (_, cells) in lanes.iter().filter(|(q, _)| *q == p) {
            let Some(&end) = cells.last() else { continue };
            let cell = CellRef::Const(u8::try_from(end).unwrap_or(u8::MAX));
            let count = self.push_int(IntExpr::CellCounter { base, cell });
            let cond = self.push_bool(BoolExpr::Cmp {
                op: CmpOp::Gt,
                lhs: count,
                rhs: zero,
            });
            let at = ops.len();
            ops.push(Op::Unless { cond, target: 0 });
            ops.push(Op::Assign {
                slot: AssignSlot::PerCell { base, cell },
                op: AssignKind::Sub,
                value: one,
            });
            ends.push(ops.len());
            ops.push(Op::Jump(0));
            ops[at] = Op::Unless {
                cond,
                target: pc(ops.len())?,
            };
        }
        self.fail(ops);
        patch_jumps(ops, &ends)
    }

    /// `waiting(T, p)`: how many of `p`'s pieces wait at the ends of `p`'s lanes.
    fn waiting(&mut self, args: &[Expr]) -> Result<IntExpr> {
        let Some(ExprKind::Name(t)) = args.first().map(|a| &a.kind) else {
            return err("`waiting` expects a track");
        };
        let (base, lanes) = self.track(&t.name)?;
        let owner = self.owner_or_mover(args.get(1))?;
        let mut sums = [IntExpr::Const(0), IntExpr::Const(0)];
        for (p, sum) in sums.iter_mut().enumerate() {
            let mut acc: Option<IntId> = None;
            for (_, cells) in lanes.iter().filter(|(q, _)| usize::from(*q) == p) {
                let Some(&end) = cells.last() else { continue };
                let cell = CellRef::Const(u8::try_from(end).unwrap_or(u8::MAX));
                let here = self.push_int(IntExpr::CellCounter { base, cell });
                acc = Some(match acc {
                    None => here,
                    Some(a) => self.push_int(IntExpr::Bin {
                        op: IntOp::Add,
                        lhs: a,
                        rhs: here,
                    }),
                });
            }
            if let Some(a) = acc {
                *sum = self.prog.ints[usize::from(a)].clone();
            }
        }
        let [first, second] = sums;
        Ok(match owner {
            PlayerRef::Const(0) => first,
            PlayerRef::Const(_) => second,
            _ => {
                let cond = self.push_bool(BoolExpr::PlayerEq {
                    eq: true,
                    lhs: owner,
                    rhs: PlayerRef::Const(0),
                });
                let then = self.push_int(first);
                let otherwise = self.push_int(second);
                IntExpr::Cond {
                    cond,
                    then,
                    otherwise,
                }
            }
        })
    }

    /// Inside a `distinct` block, a loop whose rounds choose between branches can reach one
    /// position by many paths: its body starts with a memo that stops the repeats.
    fn loop_memo(&self, body: &Block, ops: &mut Vec<Op>) {
        fn chooses(b: &Block) -> bool {
            b.stmts.iter().any(|s| match &s.kind {
                StmtKind::Either(_) | StmtKind::First(_) => true,
                StmtKind::If {
                    then, otherwise, ..
                } => chooses(then) || otherwise.as_ref().is_some_and(chooses),
                StmtKind::Repeat { body, .. }
                | StmtKind::Distinct(body)
                | StmtKind::While { body, .. } => chooses(body),
                _ => false,
            })
        }
        if let Some(&block) = self.distinct_stack.last() {
            if chooses(body) {
                ops.push(Op::Memo { block });
            }
        }
    }

    /// A `let` whose set only `pick`s read is skipped when a known move is replayed.
    fn mark_replay_lets(&self, ops: &mut [Op]) {
        let mut read = [false; super::MAX_SET_LOCALS];
        for op in ops.iter() {
            match op {
                Op::Let { set, .. } => self.locals_in_set(*set, &mut read),
                Op::Require(b) | Op::Unless { cond: b, .. } => self.locals_in_bool(*b, &mut read),
                Op::Assign { value, .. } => self.locals_in_int(*value, &mut read),
                Op::PutAll { at, .. } | Op::RemoveAll { at } | Op::SetVar { set: at, .. } => {
                    self.locals_in_set(*at, &mut read);
                }
                Op::AssignAll { cells, value, .. } => {
                    self.locals_in_set(*cells, &mut read);
                    self.locals_in_int(*value, &mut read);
                }
                Op::WhileCheck { cond, .. } => self.locals_in_bool(*cond, &mut read),
                Op::Write(t) => {
                    for part in &self.prog.templates[usize::from(*t)].parts {
                        if let TemplatePart::Int(i) | TemplatePart::Letter(i) = part {
                            self.locals_in_int(*i, &mut read);
                        }
                    }
                }
                _ => {}
            }
        }
        for op in ops.iter_mut() {
            if let Op::Let { slot, replay, .. } = op {
                *replay = read[usize::from(*slot)];
            }
        }
    }

    fn locals_in_set(&self, id: SetId, read: &mut [bool]) {
        match &self.prog.sets[id as usize] {
            SetExpr::Local(slot) => read[usize::from(*slot)] = true,
            SetExpr::Union(a, b) | SetExpr::Inter(a, b) | SetExpr::Diff(a, b) => {
                self.locals_in_set(*a, read);
                self.locals_in_set(*b, read);
            }
            SetExpr::All { of, .. }
            | SetExpr::None { of, .. }
            | SetExpr::Any { of, .. }
            | SetExpr::Step { of, .. }
            | SetExpr::StepDir { of, .. } => self.locals_in_set(*of, read),
            SetExpr::Line { run: Some(r), .. } => self.locals_in_set(*r, read),
            SetExpr::Between { run, end, .. } | SetExpr::Brackets { run, end, .. } => {
                self.locals_in_set(*run, read);
                self.locals_in_set(*end, read);
            }
            SetExpr::Where { base, cond } => {
                self.locals_in_set(*base, read);
                self.locals_in_bool(*cond, read);
            }
            SetExpr::AxisCmp { value, .. } => self.locals_in_int(*value, read),
            _ => {}
        }
    }

    fn locals_in_bool(&self, id: BoolId, read: &mut [bool]) {
        match &self.prog.bools[id as usize] {
            BoolExpr::Not(x) => self.locals_in_bool(*x, read),
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
                self.locals_in_bool(*a, read);
                self.locals_in_bool(*b, read);
            }
            BoolExpr::Cmp { lhs, rhs, .. } => {
                self.locals_in_int(*lhs, read);
                self.locals_in_int(*rhs, read);
            }
            BoolExpr::In { set, .. } | BoolExpr::Completes { set, .. } => {
                self.locals_in_set(*set, read);
            }
            BoolExpr::Connected {
                through, from, to, ..
            } => {
                for s in [through, from, to] {
                    self.locals_in_set(*s, read);
                }
            }
            _ => {}
        }
    }

    fn locals_in_int(&self, id: IntId, read: &mut [bool]) {
        match &self.prog.ints[id as usize] {
            IntExpr::Count(s) => self.locals_in_set(*s, read),
            IntExpr::Neg(x) => self.locals_in_int(*x, read),
            IntExpr::Bin { lhs, rhs, .. } => {
                self.locals_in_int(*lhs, read);
                self.locals_in_int(*rhs, read);
            }
            _ => {}
        }
    }

    fn template_part(&mut self, e: &Expr) -> Result<TemplatePart> {
        self.template_part_at(e).map_err(|err| err.at(e.span))
    }

    fn template_part_at(&mut self, e: &Expr) -> Result<TemplatePart> {
        match &e.kind {
            ExprKind::Name(n) => {
                if let Some(p) = self.placed_vars.get(&n.name) {
                    return Ok(TemplatePart::ShapeName {
                        slot: p.slot,
                        table: p.table,
                    });
                }
            }
            ExprKind::Field { base, field } if field.name == "facing" => {
                if let Some(p) = self.placed(base) {
                    return Ok(TemplatePart::Facing {
                        slot: p.slot,
                        table: p.table,
                    });
                }
            }
            _ => {}
        }
        if let ExprKind::Call { func, args } = &e.kind {
            if func.name == "letter" && args.len() == 1 {
                return Ok(TemplatePart::Letter(self.int(&args[0])?));
            }
        }
        Ok(match self.ty(e)? {
            Ty::Dir => {
                let (relation, dir) = self.dir(e)?;
                TemplatePart::Dir { relation, dir }
            }
            Ty::Cell => TemplatePart::Cell(self.cell(e)?),
            Ty::Int => TemplatePart::Int(self.int(e)?),
            Ty::Player => TemplatePart::Player(self.player(e)?),
            _ => match self.env.eval(e) {
                Ok(Const::Word(w) | Const::Text(w)) => TemplatePart::Text(w),
                _ => return err("this value cannot be written"),
            },
        })
    }

    // ---- expressions ------------------------------------------------------------------------

    /// A direction value: its relation and how to compute it.
    fn dir(&mut self, e: &Expr) -> Result<(u16, DirExpr)> {
        self.dir_at(e).map_err(|err| err.at(e.span))
    }

    fn dir_at(&mut self, e: &Expr) -> Result<(u16, DirExpr)> {
        match &e.kind {
            ExprKind::Name(n) => match self.dir_vars.get(&n.name) {
                Some(&(slot, relation)) => Ok((relation, DirExpr::Var(slot))),
                None => match self.syms.get(n.name.as_str()) {
                    Some(Sym::Define(d)) => self.dir(d),
                    _ => err(format!("`{}` is not a direction value", n.name)),
                },
            },
            ExprKind::Unary {
                op: UnaryOp::Neg,
                operand,
            } => {
                let (r, d) = self.dir(operand)?;
                Ok((r, DirExpr::Neg(Box::new(d))))
            }
            ExprKind::Call { func, args }
                if matches!(func.name.as_str(), "left" | "right") && args.len() == 2 =>
            {
                let (r, d) = self.dir(&args[0])?;
                let Ok(k) = self.env.int(&args[1]) else {
                    return err(format!("the turn of `{}` must be a constant", func.name));
                };
                let k = i32::try_from(k).unwrap_or(0);
                let k = if func.name == "left" { -k } else { k };
                Ok((r, DirExpr::Turn(Box::new(d), k)))
            }
            ExprKind::Call { func, args } if func.name == "dir" && args.len() == 2 => {
                let relation = match &args[0].kind {
                    ExprKind::Name(n) => match self.syms.get(n.name.as_str()) {
                        Some(Sym::Relation(r)) => *r,
                        _ => return err(format!("`{}` is not a relation", n.name)),
                    },
                    _ => return err("`dir` takes a relation's name"),
                };
                let i = self.int(&args[1])?;
                Ok((relation, DirExpr::Index(i)))
            }
            ExprKind::Call { func, args } if func.name == "flip" && args.len() == 2 => {
                let (r, d) = self.dir(&args[0])?;
                let axis = match &args[1].kind {
                    ExprKind::Name(n) => self.geo.axes.iter().position(|a| *a == n.name),
                    _ => None,
                };
                let Some(axis) = axis.and_then(|a| u8::try_from(a).ok()) else {
                    return err("`flip` takes an axis of the board");
                };
                Ok((r, DirExpr::Mirror(Box::new(d), axis)))
            }
            _ => err("expected a direction value"),
        }
    }

    fn is_dir(&self, e: &Expr) -> bool {
        self.ty(e).is_ok_and(|t| t == Ty::Dir)
    }

    /// `d in R`: per player, the vectors of `d`'s relation that are `R`'s for that player.
    fn dir_members(&self, relation: u16, other: &Expr) -> Result<[u64; 2]> {
        let ExprKind::Name(n) = &other.kind else {
            return err("expected a relation after `in`");
        };
        let mine = &self.prog.relations[usize::from(relation)].name;
        let (Some(vs), Some(ws)) = (
            self.vectors.get(mine.as_str()),
            self.vectors.get(n.name.as_str()),
        ) else {
            return err(format!("`{}` is not a relation", n.name));
        };
        let mut members = [0u64; 2];
        for (p, mask) in members.iter_mut().enumerate() {
            let p = u8::try_from(p).unwrap_or(0);
            for (i, (v, _)) in vs.iter().enumerate().take(64) {
                if ws
                    .iter()
                    .any(|(w, who)| w == v && who.is_none_or(|o| o == p))
                {
                    *mask |= 1 << i;
                }
            }
        }
        Ok(members)
    }

    /// The `place` variable an expression names, if it does.
    fn placed(&self, e: &Expr) -> Option<PlacedVar> {
        match &e.kind {
            ExprKind::Name(n) => self.placed_vars.get(&n.name).copied(),
            _ => None,
        }
    }

    /// The type the checker found for `e`: the lowering never infers or guesses one.
    fn ty(&self, e: &Expr) -> Result<Ty> {
        match self.types.of(e) {
            Some(Ty::Error) | None => err("an expression the checker did not type"),
            Some(t) => Ok(t),
        }
    }

    fn push_set(&mut self, s: SetExpr) -> SetId {
        self.prog.sets.push(s);
        u16::try_from(self.prog.sets.len() - 1).unwrap_or(u16::MAX)
    }

    fn push_int(&mut self, i: IntExpr) -> IntId {
        self.prog.ints.push(i);
        u16::try_from(self.prog.ints.len() - 1).unwrap_or(u16::MAX)
    }

    fn push_bool(&mut self, b: BoolExpr) -> BoolId {
        self.prog.bools.push(b);
        u16::try_from(self.prog.bools.len() - 1).unwrap_or(u16::MAX)
    }

    fn const_set(&self, id: SetId) -> Option<CellSet> {
        match self.prog.sets[id as usize] {
            SetExpr::Const(c) => Some(c),
            _ => None,
        }
    }

    fn set(&mut self, e: &Expr) -> Result<SetId> {
        self.set_at(e).map_err(|err| err.at(e.span))
    }

    fn set_at(&mut self, e: &Expr) -> Result<SetId> {
        let all = self.prog.board.all;
        let s = match &e.kind {
            ExprKind::Field { base, field }
                if field.name == "cells" && self.placed(base).is_some() =>
            {
                let p = self
                    .placed(base)
                    .ok_or_else(|| LowerError::internal("no placement"))?;
                SetExpr::Placed {
                    slot: p.slot,
                    table: p.table,
                }
            }
            ExprKind::Name(n) => {
                let name = n.name.as_str();
                if self.vars.contains_key(name) {
                    let c = self.cell(e)?;
                    return Ok(self.push_set(SetExpr::Single(c)));
                }
                if let Some(slot) = self.set_locals.get(name) {
                    let local = SetExpr::Local(*slot);
                    return Ok(self.push_set(local));
                }
                match self.syms.get(name).copied() {
                    Some(Sym::Zone(z)) => SetExpr::Const(self.prog.zones[z as usize].cells),
                    Some(Sym::Token { slot }) => SetExpr::Single(CellRef::Slot(slot)),
                    Some(Sym::Define(d)) => return self.set(d),
                    Some(_) => return err(format!("`{name}` is not a set of cells")),
                    None => match name {
                        "empty" => SetExpr::Empty,
                        "occupied" => SetExpr::Occupied,
                        "own" => SetExpr::PlayerPieces(PlayerRef::Mover),
                        "enemy" => SetExpr::PlayerPieces(PlayerRef::Opponent),
                        "cells" => SetExpr::Const(all),
                        _ => match self.cell(e)? {
                            CellRef::Const(c) => {
                                let mut one = CellSet::EMPTY;
                                one.insert(usize::from(c));
                                SetExpr::Const(one)
                            }
                            c => SetExpr::Single(c),
                        },
                    },
                }
            }
            ExprKind::CellSet(items) => {
                let mut acc = self.push_set(SetExpr::Const(CellSet::EMPTY));
                for item in items {
                    let s = self.set(item)?;
                    acc = self.union(acc, s);
                }
                return Ok(acc);
            }
            ExprKind::Call { func, args } => {
                let arg = |i: usize| {
                    args.get(i).map_or_else(
                        || err(format!("`{}` is missing an argument", func.name)),
                        Ok,
                    )
                };
                match func.name.as_str() {
                    "pieces" => {
                        let Some(ExprKind::Name(k)) = args.first().map(|a| &a.kind) else {
                            return err("`pieces` expects a piece");
                        };
                        let Some(Sym::Piece(kind)) = self.syms.get(k.name.as_str()).copied() else {
                            return err(format!("`{}` is not a piece", k.name));
                        };
                        let code = 1 + 2 * kind;
                        if let Some(p) = args.get(1) {
                            let player = self.player(p)?;
                            SetExpr::Pieces { code, player }
                        } else {
                            let a = self.push_set(SetExpr::Pieces {
                                code,
                                player: PlayerRef::Const(0),
                            });
                            let b = self.push_set(SetExpr::Pieces {
                                code,
                                player: PlayerRef::Const(1),
                            });
                            SetExpr::Union(a, b)
                        }
                    }
                    "step" if args.first().is_some_and(|a| self.is_dir(a)) => {
                        let (relation, dir) = self.dir(arg(0)?)?;
                        let of = self.set(arg(1)?)?;
                        SetExpr::StepDir { relation, dir, of }
                    }
                    f @ ("ray" | "run") => {
                        let first = arg(0)?;
                        let (relation, dir) = if self.is_dir(first) {
                            let (r, d) = self.dir(first)?;
                            (r, Some(d))
                        } else {
                            (self.relation_arg(f, args)?, None)
                        };
                        let from = self.cell(arg(1)?)?;
                        let run = if f == "run" {
                            Some(self.set(arg(2)?)?)
                        } else {
                            None
                        };
                        SetExpr::Line {
                            relation,
                            dir,
                            from,
                            run,
                        }
                    }
                    f @ ("all" | "none" | "any" | "step") => {
                        let relation = self.relation_arg(&func.name, args)?;
                        let of = self.set(arg(1)?)?;
                        match f {
                            "all" => SetExpr::All { relation, of },
                            "none" => SetExpr::None { relation, of },
                            "any" => SetExpr::Any { relation, of },
                            _ => SetExpr::Step { relation, of },
                        }
                    }
                    "between" => {
                        let relation = self.relation_arg(&func.name, args)?;
                        let from = self.cell(arg(1)?)?;
                        let run = self.set(arg(2)?)?;
                        let end = self.set(arg(3)?)?;
                        SetExpr::Between {
                            relation,
                            from,
                            run,
                            end,
                        }
                    }
                    "brackets" => {
                        let relation = self.relation_arg(&func.name, args)?;
                        let run = self.set(arg(1)?)?;
                        let end = self.set(arg(2)?)?;
                        SetExpr::Brackets { relation, run, end }
                    }
                    other => return err(format!("`{other}` does not give a set of cells")),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::Union => {
                    let (a, b) = (self.set(lhs)?, self.set(rhs)?);
                    return Ok(self.union(a, b));
                }
                BinaryOp::Inter | BinaryOp::Sub => {
                    let (a, b) = (self.set(lhs)?, self.set(rhs)?);
                    if let (Some(x), Some(y)) = (self.const_set(a), self.const_set(b)) {
                        SetExpr::Const(if *op == BinaryOp::Inter { x & y } else { x - y })
                    } else if *op == BinaryOp::Inter {
                        // Cheap operand first: it narrows the cells the costly one must test.
                        if self.set_cost(a) > self.set_cost(b) {
                            SetExpr::Inter(b, a)
                        } else {
                            SetExpr::Inter(a, b)
                        }
                    } else {
                        SetExpr::Diff(a, b)
                    }
                }
                BinaryOp::Where => {
                    let base = self.set(lhs)?;
                    let outer = self.in_where;
                    self.in_where = true;
                    let cond = self.bool(rhs);
                    self.in_where = outer;
                    let cond = cond?;
                    match (&self.prog.bools[cond as usize], self.const_set(base)) {
                        (BoolExpr::Const(true), _) => return Ok(base),
                        (BoolExpr::Const(false), _) => SetExpr::Const(CellSet::EMPTY),
                        (_, Some(cells)) if self.candidate_only(cond) => {
                            // A filter on coordinates alone is decided now, cell by cell.
                            let mut out = CellSet::EMPTY;
                            for c in cells.iter() {
                                if self.eval_static_bool(cond, c) {
                                    out.insert(c);
                                }
                            }
                            SetExpr::Const(out)
                        }
                        _ => match self.axis_filter(cond) {
                            Some(filter) => {
                                let f = self.push_set(filter);
                                if matches!(self.prog.sets[base as usize], SetExpr::Const(c) if c == self.prog.board.all)
                                {
                                    return Ok(f);
                                }
                                SetExpr::Inter(f, base)
                            }
                            None => SetExpr::Where { base, cond },
                        },
                    }
                }
                _ => return err(format!("`{}` does not give a set of cells", op.symbol())),
            },
            _ => {
                let c = self.cell(e)?;
                SetExpr::Single(c)
            }
        };
        Ok(self.push_set(s))
    }

    /// A `where` condition `axis <op> value` (or mirrored) with a value that does not depend on
    /// the candidate becomes a table lookup.
    fn axis_filter(&mut self, cond: BoolId) -> Option<SetExpr> {
        let BoolExpr::Cmp { op, lhs, rhs } = self.prog.bools[cond as usize].clone() else {
            return None;
        };
        let axis_of = |i: IntId, this: &Self| match this.prog.ints[i as usize] {
            IntExpr::Axis {
                cell: CellRef::Candidate,
                axis,
            } => Some(axis),
            _ => None,
        };
        let free = |i: IntId, this: &Self| !this.int_mentions_candidate(i);
        if let Some(axis) = axis_of(lhs, self) {
            if free(rhs, self) {
                return Some(SetExpr::AxisCmp {
                    axis,
                    op,
                    value: rhs,
                });
            }
        }
        if let Some(axis) = axis_of(rhs, self) {
            if free(lhs, self) {
                let mirrored = match op {
                    CmpOp::Lt => CmpOp::Gt,
                    CmpOp::Le => CmpOp::Ge,
                    CmpOp::Gt => CmpOp::Lt,
                    CmpOp::Ge => CmpOp::Le,
                    other => other,
                };
                return Some(SetExpr::AxisCmp {
                    axis,
                    op: mirrored,
                    value: lhs,
                });
            }
        }
        None
    }

    fn int_mentions_candidate(&self, i: IntId) -> bool {
        match &self.prog.ints[i as usize] {
            IntExpr::Axis { cell, .. } => *cell == CellRef::Candidate,
            IntExpr::Neg(x) => self.int_mentions_candidate(*x),
            IntExpr::Bin { lhs, rhs, .. } => {
                self.int_mentions_candidate(*lhs) || self.int_mentions_candidate(*rhs)
            }
            IntExpr::Count(_) => true,
            IntExpr::CellCounter { cell, .. } => *cell == CellRef::Candidate,
            _ => false,
        }
    }

    /// A rough cost of evaluating a set: per-cell tests cost more than bitset lookups.
    fn set_cost(&self, id: SetId) -> u32 {
        match &self.prog.sets[id as usize] {
            SetExpr::Union(a, b) | SetExpr::Inter(a, b) | SetExpr::Diff(a, b) => {
                self.set_cost(*a) + self.set_cost(*b)
            }
            SetExpr::All { of, .. }
            | SetExpr::None { of, .. }
            | SetExpr::Any { of, .. }
            | SetExpr::Step { of, .. } => 10 + self.set_cost(*of),
            SetExpr::Where { base, .. } => 20 + self.set_cost(*base),
            _ => 1,
        }
    }

    /// The relation (or direction) named by a built-in's first argument.
    fn relation_arg(&self, func: &str, args: &[Expr]) -> Result<u16> {
        match args.first().map(|a| &a.kind) {
            Some(ExprKind::Name(n)) => match self.syms.get(n.name.as_str()) {
                Some(Sym::Relation(r)) => Ok(*r),
                _ => err(format!("`{}` is not a relation", n.name)),
            },
            _ => err(format!("`{func}` expects a relation")),
        }
    }

    fn union(&mut self, a: SetId, b: SetId) -> SetId {
        if let (Some(x), Some(y)) = (self.const_set(a), self.const_set(b)) {
            self.push_set(SetExpr::Const(x | y))
        } else {
            self.push_set(SetExpr::Union(a, b))
        }
    }

    /// Whether a condition reads nothing but constants and the candidate's coordinates.
    fn candidate_only(&self, b: BoolId) -> bool {
        match &self.prog.bools[b as usize] {
            BoolExpr::Const(_) => true,
            BoolExpr::Not(x) => self.candidate_only(*x),
            BoolExpr::And(x, y) | BoolExpr::Or(x, y) => {
                self.candidate_only(*x) && self.candidate_only(*y)
            }
            BoolExpr::Cmp { lhs, rhs, .. } => {
                self.int_candidate_only(*lhs) && self.int_candidate_only(*rhs)
            }
            _ => false,
        }
    }

    fn int_candidate_only(&self, i: IntId) -> bool {
        match &self.prog.ints[i as usize] {
            IntExpr::Const(_) => true,
            IntExpr::Axis { cell, .. } => *cell == CellRef::Candidate,
            IntExpr::Neg(x) => self.int_candidate_only(*x),
            IntExpr::Bin { lhs, rhs, .. } => {
                self.int_candidate_only(*lhs) && self.int_candidate_only(*rhs)
            }
            _ => false,
        }
    }

    fn eval_static_bool(&self, b: BoolId, cand: usize) -> bool {
        match &self.prog.bools[b as usize] {
            BoolExpr::Const(v) => *v,
            BoolExpr::Not(x) => !self.eval_static_bool(*x, cand),
            BoolExpr::And(x, y) => {
                self.eval_static_bool(*x, cand) && self.eval_static_bool(*y, cand)
            }
            BoolExpr::Or(x, y) => {
                self.eval_static_bool(*x, cand) || self.eval_static_bool(*y, cand)
            }
            BoolExpr::Cmp { op, lhs, rhs } => {
                let (a, b) = (
                    self.eval_static_int(*lhs, cand),
                    self.eval_static_int(*rhs, cand),
                );
                compare(*op, a, b)
            }
            _ => false,
        }
    }

    fn eval_static_int(&self, i: IntId, cand: usize) -> i32 {
        match &self.prog.ints[i as usize] {
            IntExpr::Const(v) => *v,
            IntExpr::Axis { axis, .. } => self.prog.board.coord(cand, usize::from(*axis)),
            IntExpr::Neg(x) => self.eval_static_int(*x, cand).wrapping_neg(),
            IntExpr::Bin { op, lhs, rhs } => int_op(
                *op,
                self.eval_static_int(*lhs, cand),
                self.eval_static_int(*rhs, cand),
            ),
            _ => 0,
        }
    }

    fn cell(&mut self, e: &Expr) -> Result<CellRef> {
        self.cell_at(e).map_err(|err| err.at(e.span))
    }

    fn cell_at(&mut self, e: &Expr) -> Result<CellRef> {
        match &e.kind {
            ExprKind::Field { base, field } if field.name == "anchor" => match self.placed(base) {
                Some(p) => Ok(CellRef::Var(p.anchor)),
                None => err("only a placed shape has an anchor"),
            },
            ExprKind::Name(n) => {
                let name = n.name.as_str();
                if let Some(Sym::Define(d)) = self.syms.get(name).copied() {
                    return self.cell(d);
                }
                if let Some(Sym::Token { slot }) = self.syms.get(name).copied() {
                    if !self.vars.contains_key(name) {
                        return Ok(CellRef::Slot(slot));
                    }
                }
                if let Some(&c) = self.geo.by_name.get(name) {
                    if !self.vars.contains_key(name) {
                        return Ok(CellRef::Const(u8::try_from(c).unwrap_or(u8::MAX)));
                    }
                }
                if !self.in_code {
                    return err(format!("`{name}` is not known yet"));
                }
                Ok(CellRef::Var(self.var(name)?))
            }
            _ => err("only a picked cell or a cell name can be used here"),
        }
    }

    fn player(&mut self, e: &Expr) -> Result<PlayerRef> {
        self.player_at(e).map_err(|err| err.at(e.span))
    }

    fn player_at(&mut self, e: &Expr) -> Result<PlayerRef> {
        match &e.kind {
            ExprKind::Name(n) => match (n.name.as_str(), self.syms.get(n.name.as_str()).copied()) {
                (_, Some(Sym::Player(p))) => Ok(PlayerRef::Const(p)),
                (_, Some(Sym::Define(d))) => self.player(d),
                ("mover", None) => Ok(PlayerRef::Mover),
                ("opponent", None) => Ok(PlayerRef::Opponent),
                (name, _) => err(format!("`{name}` is not a player")),
            },
            ExprKind::Call { func, args } if func.name == "owner" && args.len() == 1 => {
                Ok(PlayerRef::Owner(self.cell(&args[0])?))
            }
            _ => err("expected a player"),
        }
    }

    fn int(&mut self, e: &Expr) -> Result<IntId> {
        self.int_at(e).map_err(|err| err.at(e.span))
    }

    fn int_at(&mut self, e: &Expr) -> Result<IntId> {
        if let Ok(Const::Int(v)) = self.env.eval(e) {
            if !self.mentions_runtime_name(e) {
                return Ok(self.push_int(IntExpr::Const(i32::try_from(v).unwrap_or(i32::MAX))));
            }
        }
        let i = match &e.kind {
            ExprKind::Int(v) => IntExpr::Const(i32::try_from(*v).unwrap_or(i32::MAX)),
            ExprKind::Name(n) => {
                let name = n.name.as_str();
                if self.in_where && !self.vars.contains_key(name) {
                    if let Some(axis) = self.geo.axes.iter().position(|a| a == name) {
                        return Ok(self.push_int(IntExpr::Axis {
                            cell: CellRef::Candidate,
                            axis: u8::try_from(axis).unwrap_or(0),
                        }));
                    }
                }
                match self.syms.get(name).copied() {
                    Some(Sym::IntConst(v)) => IntExpr::Const(i32::try_from(v).unwrap_or(i32::MAX)),
                    Some(Sym::Counter { base, .. }) => IntExpr::Counter(base),
                    Some(Sym::Layer { base }) if self.in_where => IntExpr::CellCounter {
                        base,
                        cell: CellRef::Candidate,
                    },
                    Some(Sym::Define(d)) => return self.int(d),
                    _ => return err(format!("`{name}` is not a number")),
                }
            }
            ExprKind::Field { base, field } => {
                let cell = self.cell(base)?;
                let Some(axis) = self.geo.axes.iter().position(|a| *a == field.name) else {
                    return err(format!("the board has no axis `{}`", field.name));
                };
                IntExpr::Axis {
                    cell,
                    axis: u8::try_from(axis).unwrap_or(0),
                }
            }
            ExprKind::Index { base, index } => {
                let ExprKind::Name(n) = &base.kind else {
                    return err("only a per-player counter can be indexed");
                };
                if let Some(Sym::Layer { base }) = self.syms.get(n.name.as_str()).copied() {
                    let cell = self.cell(index)?;
                    return Ok(self.push_int(IntExpr::CellCounter { base, cell }));
                }
                let Some(Sym::Counter { base, .. }) = self.syms.get(n.name.as_str()).copied()
                else {
                    return err(format!("`{}` is not a counter", n.name));
                };
                IntExpr::PlayerCounter {
                    base,
                    player: self.player(index)?,
                }
            }
            ExprKind::Call { func, args } if func.name == "count" && args.len() == 1 => {
                IntExpr::Count(self.set(&args[0])?)
            }
            ExprKind::Call { func, args } if func.name == "points" && args.len() == 1 => {
                IntExpr::Points(self.player(&args[0])?)
            }
            ExprKind::Call { func, args } if func.name == "won" && args.len() == 1 => {
                IntExpr::Won(self.player(&args[0])?)
            }
            ExprKind::Call { func, args } if func.name == "waiting" => self.waiting(args)?,
            ExprKind::Call { func, args } if func.name == "index" && args.len() == 1 => {
                let (relation, dir) = self.dir(&args[0])?;
                IntExpr::DirIndex { relation, dir }
            }
            ExprKind::Unary {
                op: UnaryOp::Neg,
                operand,
            } => IntExpr::Neg(self.int(operand)?),
            ExprKind::Binary { op, lhs, rhs } => {
                let op = match op {
                    BinaryOp::Add => IntOp::Add,
                    BinaryOp::Sub => IntOp::Sub,
                    BinaryOp::Mul => IntOp::Mul,
                    BinaryOp::Div => IntOp::Div,
                    BinaryOp::Rem => IntOp::Rem,
                    _ => return err("expected a number"),
                };
                let (lhs, rhs) = (self.int(lhs)?, self.int(rhs)?);
                IntExpr::Bin { op, lhs, rhs }
            }
            _ => return err("expected a number"),
        };
        Ok(self.push_int(i))
    }

    /// Whether a name in the expression means something else than its option value here
    /// (a turn variable or, inside `where`, an axis).
    fn mentions_runtime_name(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Name(n) => {
                self.vars.contains_key(&n.name)
                    || self.set_locals.contains_key(&n.name)
                    || (self.in_where && self.geo.axes.contains(&n.name))
            }
            ExprKind::Unary { operand, .. } => self.mentions_runtime_name(operand),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.mentions_runtime_name(lhs) || self.mentions_runtime_name(rhs)
            }
            ExprKind::Call { args, .. } => args.iter().any(|a| self.mentions_runtime_name(a)),
            _ => true,
        }
    }

    fn bool(&mut self, e: &Expr) -> Result<BoolId> {
        self.bool_at(e).map_err(|err| err.at(e.span))
    }

    fn bool_at(&mut self, e: &Expr) -> Result<BoolId> {
        if !self.mentions_runtime_name(e) {
            if let Ok(Const::Bool(v)) = self.env.eval(e) {
                return Ok(self.push_bool(BoolExpr::Const(v)));
            }
        }
        let b = match &e.kind {
            ExprKind::Name(n) => match self.syms.get(n.name.as_str()).copied() {
                Some(Sym::Define(d)) => return self.bool(d),
                _ => return err(format!("`{}` is not a condition", n.name)),
            },
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => {
                let x = self.bool(operand)?;
                match self.prog.bools[x as usize] {
                    BoolExpr::Const(v) => BoolExpr::Const(!v),
                    _ => BoolExpr::Not(x),
                }
            }
            ExprKind::Call { func, args } if func.name == "connected" && args.len() == 4 => {
                let relation = self.relation_arg(&func.name, args)?;
                let through = self.set(&args[1])?;
                let from = self.set(&args[2])?;
                let to = self.set(&args[3])?;
                BoolExpr::Connected {
                    relation,
                    through,
                    from,
                    to,
                }
            }
            ExprKind::Call { func, args } if func.name == "completes" && args.len() == 3 => {
                let ExprKind::Name(p) = &args[0].kind else {
                    return err("`completes` expects a pattern");
                };
                let Some(Sym::Pattern(pattern)) = self.syms.get(p.name.as_str()).copied() else {
                    return err(format!("`{}` is not a pattern", p.name));
                };
                let cell = self.cell(&args[1])?;
                let set = self.set(&args[2])?;
                BoolExpr::Completes { pattern, cell, set }
            }
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::And | BinaryOp::Or => {
                    let a = self.bool(lhs)?;
                    let b = self.bool(rhs)?;
                    let and = *op == BinaryOp::And;
                    match (&self.prog.bools[a as usize], &self.prog.bools[b as usize]) {
                        (BoolExpr::Const(x), _) if *x != and => BoolExpr::Const(*x),
                        (BoolExpr::Const(_), _) => return Ok(b),
                        (_, BoolExpr::Const(y)) if *y != and => BoolExpr::Const(*y),
                        (_, BoolExpr::Const(_)) => return Ok(a),
                        _ if and => BoolExpr::And(a, b),
                        _ => BoolExpr::Or(a, b),
                    }
                }
                BinaryOp::In if self.is_dir(lhs) => {
                    let (relation, dir) = self.dir(lhs)?;
                    let members = self.dir_members(relation, rhs)?;
                    BoolExpr::DirIn {
                        relation,
                        dir,
                        members,
                    }
                }
                BinaryOp::In => {
                    let cell = self.cell(lhs)?;
                    let set = self.set(rhs)?;
                    BoolExpr::In { cell, set }
                }
                BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge => {
                    let cmp = match op {
                        BinaryOp::Eq => CmpOp::Eq,
                        BinaryOp::Ne => CmpOp::Ne,
                        BinaryOp::Lt => CmpOp::Lt,
                        BinaryOp::Le => CmpOp::Le,
                        BinaryOp::Gt => CmpOp::Gt,
                        _ => CmpOp::Ge,
                    };
                    let eq = cmp == CmpOp::Eq;
                    match self.ty(lhs)? {
                        Ty::Cell => BoolExpr::CellEq {
                            eq,
                            lhs: self.cell(lhs)?,
                            rhs: self.cell(rhs)?,
                        },
                        Ty::Player => BoolExpr::PlayerEq {
                            eq,
                            lhs: self.player(lhs)?,
                            rhs: self.player(rhs)?,
                        },
                        _ => {
                            let (l, r) = (self.int(lhs)?, self.int(rhs)?);
                            match (&self.prog.ints[l as usize], &self.prog.ints[r as usize]) {
                                (IntExpr::Const(x), IntExpr::Const(y)) => {
                                    BoolExpr::Const(compare(cmp, *x, *y))
                                }
                                _ => BoolExpr::Cmp {
                                    op: cmp,
                                    lhs: l,
                                    rhs: r,
                                },
                            }
                        }
                    }
                }
                _ => return err("expected a condition"),
            },
            _ => return err("expected a condition"),
        };
        Ok(self.push_bool(b))
    }
}

/// Compares two integers.
#[must_use]
pub fn compare(op: CmpOp, a: i32, b: i32) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

/// Integer arithmetic with floor division; division by zero gives zero.
#[must_use]
pub fn int_op(op: IntOp, a: i32, b: i32) -> i32 {
    match op {
        IntOp::Add => a.wrapping_add(b),
        IntOp::Sub => a.wrapping_sub(b),
        IntOp::Mul => a.wrapping_mul(b),
        IntOp::Div => a.checked_div_euclid(b).unwrap_or(0),
        IntOp::Rem => a.checked_rem_euclid(b).unwrap_or(0),
    }
}

fn id16(n: usize) -> Result<u16> {
    u16::try_from(n).map_err(|_| LowerError::TableTooLarge {
        what: "entries in one table (counters, relations, sets, ...)",
        found: n as u64 + 1,
        max: u64::from(u16::MAX) + 1,
        span: None,
    })
}

/// Points a placeholder `unless` (its index and condition) past the ops after it.
fn patch_guard(ops: &mut [Op], guard: Option<(usize, BoolId)>) -> Result<()> {
    if let Some((at, cond)) = guard {
        ops[at] = Op::Unless {
            cond,
            target: pc(ops.len())?,
        };
    }
    Ok(())
}

/// Points the placeholder jumps at `ends` to the next op.
fn patch_jumps(ops: &mut [Op], ends: &[usize]) -> Result<()> {
    let end = pc(ops.len())?;
    for &j in ends {
        ops[j] = Op::Jump(end);
    }
    Ok(())
}

fn pc(n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| LowerError::TableTooLarge {
        what: "instructions in one program",
        found: n as u64 + 1,
        max: u64::from(u32::MAX) + 1,
        span: None,
    })
}
