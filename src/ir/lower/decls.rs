//! Declarations: players, options, pieces, counters, tokens, tracks, shapes, and the tables
//! the checker's configured board holds (relations, patterns, placements), copied into the
//! program's.

use super::*;
use crate::check::configure;

/// A relation's rays, each with the player it belongs to: per cell, the next cell or [`NO_CELL`].
type Rays = Vec<(Option<u8>, Vec<u16>)>;

impl<'a> Lowerer<'a> {
    /// Resolves every declaration. Names may be used before they are declared, so those that
    /// need no other come first (the configured relations before all); then zones, which may
    /// refer to each other, are retried until no more resolve; then patterns and the
    /// declarations that take counter slots (in file order, which numbers the slots).
    pub(super) fn declare(&mut self) -> Result<()> {
        let round = |item: &Item| match item.kind {
            ItemKind::Zone { .. } => 1,
            ItemKind::Pattern { .. }
            | ItemKind::Counter { .. }
            | ItemKind::Shape(_)
            | ItemKind::Token { .. }
            | ItemKind::Track { .. } => 2,
            _ => 0,
        };
        for r in std::mem::take(&mut self.board.relations) {
            let relation = self.configured_relation(&r);
            self.board.relations.push(r);
            let id = id16(self.prog.relations.len())?;
            self.syms.insert(&relation.name, Sym::Relation(id));
            self.prog.relations.push(relation);
        }
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
            // A word option needs no symbol: its tests fold with its value (`ConstEnv::eval`).
            ItemKind::Option(o) => {
                if let Some(Const::Int(v) | Const::Decimal(v)) = self.env.values.get(&o.name.name) {
                    self.syms.insert(&o.name.name, Sym::IntConst(*v));
                }
            }
            ItemKind::Pattern { name, .. } => {
                let id = id16(self.prog.patterns.len())?;
                let Some(p) = self.board.patterns.get(usize::from(id)) else {
                    return err(format!("pattern `{}` is not configured", name.name));
                };
                let mut pattern = Pattern {
                    name: p.name.clone(),
                    offsets: vec![0],
                    instances: Vec::new(),
                };
                for list in &p.per_cell {
                    pattern.instances.extend(list.iter().map(cell_set));
                    pattern.offsets.push(pattern.instances.len() as u32);
                }
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
                view,
                ..
            } => {
                let view = match view {
                    AstView::Plain => CounterView::Plain,
                    AstView::Hidden => CounterView::Hidden,
                    AstView::Directions(rel) => {
                        CounterView::Directions(declared!(self, &rel.name, Sym::Relation(r) => r))
                    }
                };
                let initial = self.board.starts.get(&name.name).copied().unwrap_or(0);
                let players = match (per_cell, per_player) {
                    (true, _) => vec![None; self.board.geometry.len()],
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
            ItemKind::Token { name, carried, .. } => {
                let Some(&cell) = self.board.tokens.get(&name.name) else {
                    return err(format!("token `{}` does not start on a cell", name.name));
                };
                let cell = cell as i32;
                let slot = self.counters(&name.name, &[None], cell, CounterView::Hidden)?;
                self.syms.insert(&name.name, Sym::Token { slot });
                if *carried {
                    self.carried.push(slot);
                }
            }
            ItemKind::Track { name, .. } => {
                let players = vec![None; self.board.geometry.len()];
                let base = self.counters(&name.name, &players, 0, CounterView::Plain)?;
                self.prog.layers.push((name.name.clone(), base));
                self.syms.insert(&name.name, Sym::Layer { base });
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

    /// A shape's declaration: its stock counters and its cells.
    fn shape(&mut self, shape: &'a crate::syntax::ast::ShapeDecl) -> Result<()> {
        let name = &shape.name;
        let found = self.prog.shapes.len() + 1;
        if found > usize::from(u8::MAX) {
            return Err(LowerError::too_large("shapes", found, u8::MAX.into()).at(name.span));
        }
        let Some(&(count, points)) = self.board.shapes.get(self.prog.shapes.len()) else {
            return err(format!("shape `{}` is not configured", name.name));
        };
        let stock = self.counters(&name.name, &[Some(0), Some(1)], count, CounterView::Plain)?;
        let flip = shape.flip.as_ref().map(|(m, _)| m.clone());
        self.prog.shapes.push(Shape {
            name: name.name.clone(),
            count,
            points,
            flip,
            stock,
        });
        Ok(())
    }

    /// A `place` statement's table: the configured placements along `turned`.
    pub(super) fn placements(&mut self, turned: &str) -> Result<u16> {
        let Some(conf) = self.board.placements.get(turned) else {
            return err(format!("no placements along `{turned}`"));
        };
        let mut table = Placements {
            facings: conf.facings.clone(),
            by_shape: Vec::new(),
            instances: Vec::new(),
            parts: Vec::new(),
        };
        for (s, list) in conf.by_shape.iter().enumerate() {
            let start = table.instances.len() as u32;
            for p in list {
                let parts = p.parts.iter().map(|&(cell, bottom, top, foot)| PlacedCell {
                    cell: cell as u16,
                    bottom,
                    top,
                    foot,
                });
                table.instances.push(Placement {
                    shape: s as u8,
                    anchor: p.anchor as u16,
                    facing: u8::try_from(p.facing).unwrap_or(u8::MAX),
                    flipped: p.flipped,
                    cells: cell_set(p.parts.iter().map(|c| c.0)),
                    first: table.parts.len() as u32,
                    len: u8::try_from(p.parts.len()).unwrap_or(u8::MAX),
                    max_top: p.parts.iter().map(|c| c.2).max().unwrap_or(0),
                });
                table.parts.extend(parts);
            }
            table.by_shape.push((start, table.instances.len() as u32));
        }
        if table.instances.len() > usize::from(u16::MAX) {
            let what = "placements in one `place`";
            return Err(LowerError::too_large(
                what,
                table.instances.len(),
                u16::MAX.into(),
            ));
        }
        let id = id16(self.prog.placements.len())?;
        self.prog.placements.push(table);
        Ok(id)
    }

    /// A configured direction, relation or map: its rays, and per cell the cells they lead to
    /// (for each player when some ray is one player's).
    fn configured_relation(&self, r: &configure::Relation) -> Relation {
        let n = self.board.geometry.len();
        let cell = |c: &Option<usize>| c.map_or(NO_CELL, |t| t as u16);
        let rays: Rays = (r.rays.iter())
            .map(|(who, next)| (*who, next.iter().map(cell).collect()))
            .collect();
        let dir = |i: &Option<usize>| i.and_then(|i| u8::try_from(i).ok()).unwrap_or(NO_DIR);
        let per_player = if rays.iter().any(|(who, _)| who.is_some()) {
            vec![masks(n, &rays, Some(0)), masks(n, &rays, Some(1))]
        } else {
            Vec::new()
        };
        Relation {
            name: r.name.clone(),
            masks: masks(n, &rays, None),
            per_player,
            opposite: r.opposite.iter().map(dir).collect(),
            names: r.names.clone(),
            mirrors: (r.mirrors.iter())
                .map(|m| m.iter().map(dir).collect())
                .collect(),
            rays: (rays.into_iter())
                .map(|(who, next)| Ray::new(who, next))
                .collect(),
        }
    }
}

/// Per cell, the next cells of the rays that are `player`'s (of every ray for `None`).
fn masks(n: usize, rays: &[(Option<u8>, Vec<u16>)], player: Option<u8>) -> Vec<CellSet> {
    let is_mine = |who: &Option<u8>| player.is_none() || who.is_none() || *who == player;
    let mine: Vec<&Vec<u16>> = (rays.iter().filter(|(who, _)| is_mine(who)))
        .map(|(_, next)| next)
        .collect();
    let next = |c: usize| {
        mine.iter()
            .map(move |next| next[c])
            .filter(|&t| t != NO_CELL)
    };
    (0..n).map(|c| cell_set(next(c).map(usize::from))).collect()
}
