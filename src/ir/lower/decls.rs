//! Declarations: players, options, pieces, counters, tokens, tracks, shapes, and the tables
//! the checker's configured board holds (relations, patterns, zones, placements), copied into
//! the program's ([`crate::ir::build::tables`]).

use super::*;

impl<'a> Lowerer<'a> {
    /// Resolves every declaration. Names may be used before they are declared, so those that
    /// need no other come first (the configured relations, patterns and zones before all);
    /// then the declarations that take counter slots (in file order, which numbers the slots).
    pub(super) fn declare(&mut self) -> Result<()> {
        let first = |item: &Item| {
            !matches!(
                item.kind,
                ItemKind::Counter { .. }
                    | ItemKind::Shape(_)
                    | ItemKind::Token { .. }
                    | ItemKind::Track { .. }
            )
        };
        for r in &self.board.relations {
            self.syms
                .insert(&r.name, Sym::Relation(id16(self.prog.relations.len())?));
            let relation = Relation::configured(r, self.board.geometry.len());
            self.prog.relations.push(relation);
        }
        for p in &self.board.patterns {
            self.syms
                .insert(&p.name, Sym::Pattern(id16(self.prog.patterns.len())?));
            self.prog.patterns.push(Pattern::configured(p));
        }
        for (name, cells) in &self.board.zones {
            self.syms
                .insert(name, Sym::Zone(id16(self.prog.zones.len())?));
            let (name, cells) = (name.clone(), cells.iter().copied().collect());
            self.prog.zones.push(Zone { name, cells });
        }
        let items = &self.file.items;
        for item in items.iter().filter(|i| first(i)) {
            self.declare_item(item)?;
        }
        for item in items.iter().filter(|i| !first(i)) {
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
            ItemKind::Piece { name, symbols } => {
                let k = u8::try_from(self.prog.pieces.len()).unwrap_or(0);
                self.syms.insert(&name.name, Sym::Piece(k));
                let symbols = symbols.iter().map(|(s, _)| s.clone()).collect();
                self.prog.pieces.push(Piece::drawn(&name.name, symbols));
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
                let base = self.prog.add_counter(&name.name, &players, initial, view)?;
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
                let (cell, view) = (cell as i32, CounterView::Hidden);
                let slot = self.prog.add_counter(&name.name, &[None], cell, view)?;
                self.syms.insert(&name.name, Sym::Token { slot });
                if *carried {
                    self.carried.push(slot);
                }
            }
            ItemKind::Track { name, .. } => {
                let (cells, view) = (vec![None; self.board.geometry.len()], CounterView::Plain);
                let base = self.prog.add_counter(&name.name, &cells, 0, view)?;
                self.prog.layers.push((name.name.clone(), base));
                self.syms.insert(&name.name, Sym::Layer { base });
            }
            _ => {}
        }
        Ok(())
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
        let (players, view) = ([Some(0), Some(1)], CounterView::Plain);
        let stock = self.prog.add_counter(&name.name, &players, count, view)?;
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
        let table = Placements::configured(conf)?;
        let id = id16(self.prog.placements.len())?;
        self.prog.placements.push(table);
        Ok(id)
    }
}
