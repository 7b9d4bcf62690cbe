//! Declarations: players, options, pieces, counters, tokens, tracks, shapes, and the tables
//! the checker's configured board holds (relations, patterns, zones, placements), copied into
//! the program's ([`rulestone_ir::build::tables`]).

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
        crate::configured::add_configured(&mut self.prog, &self.board)?;
        let b = &self.board;
        for (i, r) in b.relations.iter().enumerate() {
            self.syms.insert(&r.name, Sym::Relation(id16(i)?));
        }
        for (i, p) in b.patterns.iter().enumerate() {
            self.syms.insert(&p.name, Sym::Pattern(id16(i)?));
        }
        for (i, (name, _)) in b.zones.iter().enumerate() {
            self.syms.insert(name, Sym::Zone(id16(i)?));
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
            ItemKind::Piece { name, symbols } => {
                let k = u8::try_from(self.prog.pieces.len()).unwrap_or(0);
                self.syms.insert(&name.name, Sym::Piece(k));
                let symbols = symbols.iter().map(|(s, _)| s.clone()).collect();
                self.prog.pieces.push(Piece::drawn(&name.name, symbols));
            }
            ItemKind::Shape(shape) => {
                let Some(&stock) = self.board.shapes.get(self.prog.shapes.len()) else {
                    return err(format!("shape `{}` is not configured", shape.name.name));
                };
                let flip = shape.flip.as_ref().map(|(mark, _)| mark.clone());
                let at = shape.name.span;
                let added = self.prog.add_shape(&shape.name.name, stock, flip);
                added.map_err(|e| e.at(at))?;
            }
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
                let players = if *per_player {
                    &[Some(0), Some(1)][..]
                } else {
                    &[None]
                };
                let sym = if *per_cell {
                    let base = self.prog.add_layer(&name.name, initial, view)?;
                    Sym::Layer(base)
                } else {
                    let base = self.prog.add_counter(&name.name, players, initial, view)?;
                    Sym::Counter(base)
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
                self.syms.insert(&name.name, Sym::Token(slot));
                if *carried {
                    self.carried.push(slot);
                }
            }
            ItemKind::Track { name, .. } => {
                let base = self.prog.add_layer(&name.name, 0, CounterView::Plain)?;
                self.syms.insert(&name.name, Sym::Layer(base));
            }
            _ => {}
        }
        Ok(())
    }

    /// A `place` statement's table: the configured placements along `turned`.
    pub(super) fn placements(&mut self, turned: &str) -> Result<u16> {
        match self.board.placements.get(turned) {
            Some(conf) => Ok(crate::configured::push_placements(&mut self.prog, conf)?),
            None => err(format!("no placements along `{turned}`")),
        }
    }
}
