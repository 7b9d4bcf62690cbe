//! Declarations: players, options, pieces, counters, tokens, tracks, shapes, and the tables
//! precomputed from them (relations, patterns, placements).

use super::*;

/// A relation's rays, each with the player it belongs to: per cell, the next cell or [`NO_CELL`].
type Rays = Vec<(Option<u8>, Vec<u16>)>;

impl<'a> Lowerer<'a> {
    /// Resolves every declaration. Names may be used before they are declared, so those that
    /// need no other come first; then relations and zones, which may refer to each other, are
    /// retried until no more resolve; then patterns and the declarations that take counter
    /// slots (in file order, which numbers the slots), whose views may name relations.
    pub(super) fn declare(&mut self) -> Result<()> {
        let round = |item: &Item| match item.kind {
            ItemKind::Relation { .. } | ItemKind::Zone { .. } => 1,
            ItemKind::Pattern { .. }
            | ItemKind::Counter { .. }
            | ItemKind::Shape(_)
            | ItemKind::Token { .. }
            | ItemKind::Track { .. } => 2,
            _ => 0,
        };
        let items = &self.file.items;
        for item in items.iter().filter(|i| round(i) == 0) {
            self.declare_item(item)?;
        }
        let mut pending: Vec<&Item> = items.iter().filter(|i| round(i) == 1).collect();
        while !pending.is_empty() {
            let (before, mut first_error) = (pending.len(), None);
            pending.retain(|item| {
                let failed = self
                    .declare_item(item)
                    .map_err(|e| first_error.get_or_insert(e));
                failed.is_err()
            });
            if let (true, Some(e)) = (pending.len() == before, first_error) {
                return Err(e);
            }
        }
        for item in items.iter().filter(|i| round(i) == 2) {
            self.declare_item(item)?;
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
        match kind {
            ItemKind::Game { name, .. } => self.prog.name.clone_from(name),
            ItemKind::Players(names) => {
                for (i, p) in names.iter().enumerate() {
                    self.prog.players.push(p.name.clone());
                    self.syms.insert(&p.name, Sym::Player(i as u8));
                }
            }
            ItemKind::Option(o) => {
                if let OptionType::Enum(words) = &o.ty {
                    for w in words {
                        self.syms.insert(&w.name, Sym::Word);
                    }
                }
                let sym = match self.env.values.get(&o.name.name) {
                    Some(Const::Int(v) | Const::Decimal(v)) => Sym::IntConst(*v),
                    _ => Sym::Word,
                };
                self.syms.insert(&o.name.name, sym);
            }
            ItemKind::Direction { name, vector } => {
                self.declare_relation(&name.name, vec![(vector.components.clone(), None)])?;
            }
            ItemKind::Relation {
                name,
                members,
                players,
            } => {
                let mut vectors = Vec::new();
                for (m, who) in members.iter().zip(players) {
                    let who = match who.as_ref().map(|p| self.syms.get(&p.name)) {
                        None => None,
                        Some(Some(Sym::Player(i))) => Some(*i),
                        Some(_) => return err("a relation's vectors are for a player"),
                    };
                    let vs = self.rel_vectors(m)?;
                    vectors.extend(vs.into_iter().map(|(v, inner)| (v, who.or(inner))));
                }
                self.declare_relation(&name.name, vectors)?;
            }
            ItemKind::Map { name, coords } => self.map(name, coords)?,
            ItemKind::Pattern { name, shape } => {
                let pattern = self.pattern(&name.name, shape)?;
                let id = id16(self.prog.patterns.len())?;
                self.prog.patterns.push(pattern);
                self.syms.insert(&name.name, Sym::Pattern(id));
            }
            ItemKind::Zone { name, cells } => {
                let id = self.set(cells)?;
                let SetExpr::Const(cells) = self.prog.sets[id as usize] else {
                    return err(format!("zone `{}` is not constant", name.name));
                };
                let z = id16(self.prog.zones.len())?;
                let name = name.name.clone();
                self.syms.insert(&name, Sym::Zone(z));
                self.prog.zones.push(Zone { name, cells });
            }
            ItemKind::Piece { name, symbols } => {
                let mut syms: Vec<String> = symbols.iter().map(|(s, _)| s.clone()).collect();
                // Without symbols, a piece is drawn with its initial, upper case first.
                let initial = name.name.chars().next().unwrap_or('?');
                if syms.is_empty() {
                    syms.push(initial.to_uppercase().to_string());
                }
                if syms.len() == 1 {
                    syms.push(initial.to_lowercase().to_string());
                }
                let k = u8::try_from(self.prog.pieces.len()).unwrap_or(0);
                self.syms.insert(&name.name, Sym::Piece(k));
                let name = name.name.clone();
                self.prog.pieces.push(Piece {
                    name,
                    symbols: syms,
                });
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
                    AstView::Directions(rel) => match self.syms.get(&rel.name) {
                        Some(Sym::Relation(r)) => CounterView::Directions(*r),
                        _ => return err(format!("`{}` is not a relation", rel.name)),
                    },
                };
                let expanded = crate::check::zones::Defines::new(self.file).expand(init);
                let what = || format!("the start value of `{}`", name.name);
                let initial = self.constant(expanded.as_ref().unwrap_or(init), init.span, what)?;
                let players = match (per_cell, per_player) {
                    (true, _) => vec![None; self.geo.len()],
                    (false, true) => vec![Some(0), Some(1)],
                    (false, false) => vec![None],
                };
                let base = self.counters(&name.name, &players, initial, view)?;
                let sym = if *per_cell {
                    self.prog.layers.push((name.name.clone(), base));
                    Sym::Layer { base }
                } else {
                    Sym::Counter { base }
                };
                self.syms.insert(&name.name, sym);
            }
            ItemKind::Define { name, params, expr } => {
                self.syms.insert(&name.name, Sym::Define(expr, params));
            }
            ItemKind::Token {
                name,
                start,
                carried,
            } => {
                let ExprKind::Name(n) = &start.kind else {
                    return err(format!("token `{}` does not start on a cell", name.name));
                };
                let cell = self.cell_named(n)? as i32;
                let slot = self.counters(&name.name, &[None], cell, CounterView::Hidden)?;
                self.syms.insert(&name.name, Sym::Token { slot });
                if *carried {
                    self.carried.push(slot);
                }
            }
            ItemKind::Track { name, lanes } => {
                let mut resolved = Vec::new();
                for lane in lanes {
                    let Some(Sym::Player(p)) = self.syms.get(&lane.player.name).copied() else {
                        return err(format!("`{}` is not a player", lane.player.name));
                    };
                    let cells = lane.cells.iter().map(|c| self.cell_named(c));
                    resolved.push((p, cells.collect::<Result<_>>()?));
                }
                let players = vec![None; self.geo.len()];
                let base = self.counters(&name.name, &players, 0, CounterView::Plain)?;
                self.prog.layers.push((name.name.clone(), base));
                self.syms.insert(&name.name, Sym::Layer { base });
                self.tracks.insert(&name.name, resolved);
            }
            _ => {}
        }
        Ok(())
    }

    /// Adds a counter's slots, one for each entry of `players` (the player a slot is for);
    /// returns the first.
    fn counters(
        &mut self,
        name: &str,
        players: &[Option<u8>],
        initial: i32,
        view: CounterView,
    ) -> Result<u16> {
        let base = id16(self.prog.counters.len())?;
        self.prog
            .counters
            .extend(players.iter().map(|&player| Counter {
                name: name.to_string(),
                player,
                initial,
                view,
            }));
        Ok(base)
    }

    /// A declaration's integer, known before play (`what` names it when it cannot be computed).
    fn constant(&self, e: &Expr, span: Span, what: impl FnOnce() -> String) -> Result<i32> {
        let v = self.env.int(e).map_err(|c| LowerError::NotComputable {
            what: what(),
            reason: c.reason(),
            span: Some(span),
        })?;
        Ok(i32::try_from(v).unwrap_or(i32::MAX))
    }

    /// The cell a declaration names: it may be missing on the board of these options.
    fn cell_named(&self, name: &Ident) -> Result<usize> {
        self.geo.by_name.get(&name.name).copied().ok_or_else(|| {
            let name = name.clone();
            LowerError::MissingCell {
                name: name.name,
                span: Some(name.span),
            }
        })
    }

    /// A shape's declaration: its stock counters and its cells.
    fn shape(&mut self, shape: &'a ShapeDecl) -> Result<()> {
        let name = &shape.name;
        let constant = |e: &Option<Expr>, default: i32, what: &str| {
            e.as_ref().map_or(Ok(default), |e| {
                self.constant(e, e.span, || format!("the {what} of shape `{}`", name.name))
            })
        };
        let count = constant(&shape.count, 1, "count")?;
        let points = constant(&shape.points, 0, "points")?;
        if self.prog.shapes.len() >= usize::from(u8::MAX) {
            return Err(LowerError::TableTooLarge {
                what: "shapes",
                found: self.prog.shapes.len() as u64 + 1,
                max: u64::from(u8::MAX),
                span: Some(name.span),
            });
        }
        let stock = self.counters(&name.name, &[Some(0), Some(1)], count, CounterView::Plain)?;
        let flip = shape.flip.as_ref().map(|(m, _)| m.clone());
        self.prog.shapes.push(Shape {
            name: name.name.clone(),
            count,
            points,
            flip,
            stock,
        });
        self.shapes.push(shape);
        self.syms.insert(&name.name, Sym::Shape);
        Ok(())
    }

    /// The name of each vector of a relation, for notation: the direction declared with that
    /// vector, else the vector itself.
    fn vector_names(&self, vectors: &[TaggedVector]) -> Vec<String> {
        let named = |v: &Vec<i64>| {
            self.file.items.iter().find_map(|i| match &i.kind {
                ItemKind::Direction { name, vector } if vector.components == *v => {
                    Some(name.name.clone())
                }
                _ => None,
            })
        };
        vectors
            .iter()
            .map(|(v, _)| named(v).unwrap_or_else(|| crate::syntax::ast::vector_text(v)))
            .collect()
    }

    /// Every distinct placement of every shape, turned along each vector of `turned` (the
    /// shape's +x axis; +y is +x turned a quarter turn anticlockwise) and, for shapes with a
    /// flip mark, upside down too.
    pub(super) fn placements(&mut self, turned: &str) -> Result<u16> {
        let vectors = self.vectors.get(turned).cloned().unwrap_or_default();
        let mut table = Placements {
            facings: self.vector_names(&vectors),
            by_shape: Vec::new(),
            instances: Vec::new(),
            parts: Vec::new(),
        };
        for (s, shape) in self.shapes.iter().enumerate() {
            let start = table.instances.len() as u32;
            let parts = shape.parts.iter();
            let cells: Vec<_> = parts
                .flat_map(|p| p.cells.iter().map(move |v| (v, p)))
                .collect();
            let height = cells.iter().map(|(_, p)| p.top).max().unwrap_or(0);
            let feet = shape.feet.as_ref();
            let is_foot =
                |v: &Vector| feet.is_none_or(|f| f.iter().any(|f| f.components == v.components));
            let mut seen = std::collections::HashSet::new();
            for anchor in 0..self.geo.len() {
                for (f, (v, _)) in vectors.iter().enumerate() {
                    let [ax, ay] = v[..] else {
                        return err(format!(
                            "`{turned}` needs two-component vectors to turn shapes"
                        ));
                    };
                    for flipped in [false, true]
                        .into_iter()
                        .take(1 + usize::from(shape.flip.is_some()))
                    {
                        // Shapes are placed on two axes only (the checker sees to it).
                        let placed = cells.iter().map(|&(v, part)| {
                            let [dx, dy] = v.components[..] else {
                                return None;
                            };
                            let cell = self
                                .geo
                                .offset(anchor, &[dx * ax - dy * ay, dx * ay + dy * ax])?;
                            let (bottom, top) = if flipped {
                                (height - part.top, height - part.bottom)
                            } else {
                                (part.bottom, part.top)
                            };
                            Some(PlacedCell {
                                cell: cell as u16,
                                bottom: u8::try_from(bottom).unwrap_or(u8::MAX),
                                top: u8::try_from(top).unwrap_or(u8::MAX),
                                foot: is_foot(v),
                            })
                        });
                        let Some(parts) = placed.collect::<Option<Vec<PlacedCell>>>() else {
                            continue;
                        };
                        let mut covered = CellSet::EMPTY;
                        parts
                            .iter()
                            .for_each(|p| covered.insert(usize::from(p.cell)));
                        let mut key: Vec<_> =
                            parts.iter().map(|p| (p.cell, p.bottom, p.top)).collect();
                        key.sort_unstable();
                        if covered.len() != cells.len() || !seen.insert(key) {
                            continue;
                        }
                        table.instances.push(Placement {
                            shape: s as u8,
                            anchor: anchor as u16,
                            facing: u8::try_from(f).unwrap_or(u8::MAX),
                            flipped,
                            cells: covered,
                            first: table.parts.len() as u32,
                            len: u8::try_from(parts.len()).unwrap_or(u8::MAX),
                            max_top: parts.iter().map(|p| p.top).max().unwrap_or(0),
                        });
                        table.parts.extend(parts);
                    }
                }
            }
            table.by_shape.push((start, table.instances.len() as u32));
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

    /// A `map` becomes a relation of one ray, whose next cell is each cell's image: `shift`
    /// walks it as it walks a direction's.
    fn map(&mut self, name: &'a Ident, coords: &[Expr]) -> Result<()> {
        let n = self.geo.len();
        let mut next = vec![NO_CELL; n];
        let mut source: Vec<Option<usize>> = vec![None; n];
        for (c, own) in self.geo.coords.iter().enumerate() {
            let mut env = self.env.clone();
            for (axis, v) in self.geo.axes.iter().zip(own) {
                env.set(axis, Const::Int(*v));
            }
            let at = coords
                .iter()
                .map(|e| env.int(e))
                .collect::<std::result::Result<_, _>>();
            let at: Vec<i64> = at.map_err(|e| LowerError::NotComputable {
                what: format!("map `{}`", name.name),
                reason: e.reason(),
                span: Some(e.span()),
            })?;
            let Some(&t) = self.geo.by_coords.get(&at) else {
                continue;
            };
            if let Some(first) = source[t].replace(c) {
                let names = &self.geo.names;
                return Err(LowerError::MapNotOneToOne {
                    map: name.name.clone(),
                    first: names[first].clone(),
                    second: names[c].clone(),
                    target: names[t].clone(),
                    span: Some(name.span),
                });
            }
            next[c] = t as u16;
        }
        self.push_relation(Relation {
            name: name.name.clone(),
            masks: masks(n, &[(None, next.clone())], None),
            per_player: Vec::new(),
            rays: vec![Ray::new(None, next)],
            opposite: vec![NO_DIR],
            names: vec![name.name.clone()],
            mirrors: vec![vec![NO_DIR]; self.geo.axes.len()],
        })
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

    /// A direction or relation of `vectors`: per cell the cells they lead to (for each player
    /// when some vector is one player's), each vector's ray, and which vector is each one's
    /// opposite and its mirror image along each axis.
    fn declare_relation(&mut self, name: &'a str, vectors: Vec<TaggedVector>) -> Result<()> {
        let n = self.geo.len();
        let rays: Rays = vectors
            .iter()
            .map(|(v, who)| {
                let next = (0..n).map(|c| self.geo.offset(c, v).map_or(NO_CELL, |t| t as u16));
                (*who, next.collect())
            })
            .collect();
        let index_of = |m: Vec<i64>, who: &Option<u8>| {
            let i = vectors.iter().position(|(u, w)| *u == m && w == who);
            i.and_then(|i| u8::try_from(i).ok()).unwrap_or(NO_DIR)
        };
        let opposite = vectors
            .iter()
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
        let per_player = if vectors.iter().any(|(_, who)| who.is_some()) {
            vec![masks(n, &rays, Some(0)), masks(n, &rays, Some(1))]
        } else {
            Vec::new()
        };
        let relation = Relation {
            name: name.to_string(),
            masks: masks(n, &rays, None),
            per_player,
            opposite,
            names: self.vector_names(&vectors),
            mirrors: (0..self.geo.axes.len()).map(mirrored).collect(),
            rays: rays
                .into_iter()
                .map(|(who, next)| Ray::new(who, next))
                .collect(),
        };
        self.vectors.insert(name, vectors);
        self.push_relation(relation)
    }

    fn push_relation(&mut self, relation: Relation) -> Result<()> {
        let id = id16(self.prog.relations.len())?;
        self.syms.insert(&relation.name, Sym::Relation(id));
        self.prog.relations.push(relation);
        Ok(())
    }

    /// A pattern's instances: every anchor where the whole shape fits, or every line of at
    /// least two cells along the direction, listed under each cell they cover.
    fn pattern(&self, name: &str, shape: &PatternShape) -> Result<Pattern> {
        let (n, geo) = (self.geo.len(), &self.geo);
        let mut found = Vec::new();
        match shape {
            PatternShape::Shape(vs) => {
                for anchor in 0..n {
                    let cells = vs.iter().map(|v| geo.offset(anchor, &v.components));
                    if let Some(cells) = cells.collect::<Option<Vec<usize>>>() {
                        found.push(cells);
                    }
                }
            }
            PatternShape::Line(item) => {
                for (v, _) in self.rel_vectors(item)? {
                    let back: Vec<i64> = v.iter().map(|x| -x).collect();
                    // Each line from its first cell.
                    for start in (0..n).filter(|&c| geo.offset(c, &back).is_none()) {
                        let line: Vec<usize> =
                            std::iter::successors(Some(start), |&c| geo.offset(c, &v)).collect();
                        if line.len() >= 2 {
                            found.push(line);
                        }
                    }
                }
            }
        }
        let mut per_cell: Vec<Vec<CellSet>> = vec![Vec::new(); n];
        for cells in found {
            let mut inst = CellSet::EMPTY;
            cells.iter().for_each(|&c| inst.insert(c));
            for c in inst.iter() {
                if !per_cell[c].contains(&inst) {
                    per_cell[c].push(inst);
                }
            }
        }
        let mut offsets = vec![0u32];
        let mut instances = Vec::new();
        for list in per_cell {
            instances.extend(list);
            offsets.push(instances.len() as u32);
        }
        Ok(Pattern {
            name: name.to_string(),
            offsets,
            instances,
        })
    }
}

/// Per cell, the next cells of the rays that are `player`'s (of every ray for `None`).
fn masks(n: usize, rays: &[(Option<u8>, Vec<u16>)], player: Option<u8>) -> Vec<CellSet> {
    let mine = |who: &Option<u8>| player.is_none() || who.is_none() || *who == player;
    (0..n)
        .map(|c| {
            let mut m = CellSet::EMPTY;
            for (_, next) in rays.iter().filter(|(who, _)| mine(who)) {
                if next[c] != NO_CELL {
                    m.insert(usize::from(next[c]));
                }
            }
            m
        })
        .collect()
}
