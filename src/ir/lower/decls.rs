//! Declarations: players, options, pieces, counters, tokens, tracks, shapes, and the tables
//! precomputed from them (relations, patterns, placements).

use super::*;

impl<'a> Lowerer<'a> {
    /// Resolves every declaration. Names may be used before they are declared, so simple
    /// declarations come first, then directions, then relations, patterns and zones, which may
    /// refer to each other: these are retried until no more resolve.
    pub(super) fn declare(&mut self) -> Result<()> {
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

    pub(super) fn declare_item(&mut self, item: &'a Item) -> Result<()> {
        self.declare_kind(&item.kind).map_err(|e| e.at(item.span))
    }

    pub(super) fn declare_kind(&mut self, kind: &'a ItemKind) -> Result<()> {
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
                        Some(Const::Int(v) | Const::Decimal(v)) => Sym::IntConst(*v),
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
                ItemKind::Map { name, coords } => self.map(name, coords)?,
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
                    let Some(&cell) = self.geo.by_name.get(n.name.as_str()) else {
                        return Err(LowerError::MissingCell {
                            name: n.name.clone(),
                            span: Some(n.span),
                        });
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
                                return Err(LowerError::MissingCell {
                                    name: c.name.clone(),
                                    span: Some(c.span),
                                });
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
    pub(super) fn shape(&mut self, shape: &'a ShapeDecl) -> Result<()> {
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
    pub(super) fn vector_names(&self, vectors: &[TaggedVector]) -> Vec<String> {
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
    pub(super) fn placements(&mut self, turned: &str) -> Result<u16> {
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
                                cell: u16::try_from(cell).unwrap_or(u16::MAX),
                                bottom: u8::try_from(bottom).unwrap_or(u8::MAX),
                                top: u8::try_from(top).unwrap_or(u8::MAX),
                                foot: c.foot,
                            });
                        }
                        if parts.len() != cells.len() || covered.len() != cells.len() {
                            continue;
                        }
                        let mut key: Vec<(u16, u8, u8)> =
                            parts.iter().map(|p| (p.cell, p.bottom, p.top)).collect();
                        key.sort_unstable();
                        if !seen.insert(key) {
                            continue;
                        }
                        table.instances.push(Placement {
                            shape: u8::try_from(s).unwrap_or(u8::MAX),
                            anchor: u16::try_from(anchor).unwrap_or(u16::MAX),
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

    /// A `map` becomes a relation of one ray, whose next cell is each cell's image: `shift`
    /// walks it as it walks a direction's.
    pub(super) fn map(&mut self, name: &'a Ident, coords: &[Expr]) -> Result<()> {
        let n = self.geo.len();
        let mut next = vec![NO_CELL; n];
        let mut source: Vec<Option<usize>> = vec![None; n];
        for (c, own) in self.geo.coords.iter().enumerate() {
            let mut env = self.env.clone();
            for (axis, v) in self.geo.axes.iter().zip(own) {
                env.set(axis, Const::Int(*v));
            }
            let mut at = Vec::with_capacity(coords.len());
            for e in coords {
                at.push(env.int(e).map_err(|e| LowerError::NotComputable {
                    what: format!("map `{}`", name.name),
                    reason: e.reason(),
                    span: Some(e.span()),
                })?);
            }
            let Some(&t) = self.geo.by_coords.get(&at) else {
                continue;
            };
            if let Some(first) = source[t] {
                return Err(LowerError::MapNotOneToOne {
                    map: name.name.clone(),
                    first: self.geo.names[first].clone(),
                    second: self.geo.names[c].clone(),
                    target: self.geo.names[t].clone(),
                    span: Some(name.span),
                });
            }
            source[t] = Some(c);
            next[c] = u16::try_from(t).unwrap_or(NO_CELL);
        }
        let masks = next
            .iter()
            .map(|&t| {
                let mut m = CellSet::EMPTY;
                if t != NO_CELL {
                    m.insert(usize::from(t));
                }
                m
            })
            .collect();
        let id = id16(self.prog.relations.len())?;
        self.prog.relations.push(Relation {
            name: name.name.clone(),
            masks,
            per_player: Vec::new(),
            rays: vec![Ray::new(None, next)],
            opposite: vec![NO_DIR],
            names: vec![name.name.clone()],
            mirrors: vec![vec![NO_DIR]; self.geo.axes.len()],
        });
        self.syms.insert(&name.name, Sym::Relation(id));
        Ok(())
    }

    pub(super) fn rel_vectors(&self, item: &RelItem) -> Result<Vec<TaggedVector>> {
        match item {
            RelItem::Vector(v) => Ok(vec![(v.components.clone(), None)]),
            RelItem::Name(n) => self
                .vectors
                .get(n.name.as_str())
                .cloned()
                .map_or_else(|| err(format!("unknown direction `{}`", n.name)), Ok),
        }
    }

    pub(super) fn relation_table(&mut self, name: &'a str) -> Result<()> {
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
                            .map_or(NO_CELL, |t| u16::try_from(t).unwrap_or(NO_CELL))
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

    pub(super) fn pattern(&self, name: &str, shape: &PatternShape) -> Result<Pattern> {
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
}
