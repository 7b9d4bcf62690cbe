//! The checker's configured board tables ([`configure`]) as the program's: cells become 16-bit
//! ids and sets of cells, per-cell lists become flat arrays with offsets. The checker computed
//! every entry; nothing here decides anything about the game. A piece without symbols gets
//! the language's default ones.

use super::Result;
use crate::check::configure;
use crate::check::geometry::Geometry;
use crate::ir::{
    Board, CellSet, LowerError, Pattern, PlacedCell, Placement, Placements, Ray, Relation,
};
use crate::ir::{CounterView, Marker, Piece, Program, SetId, Shape, Zone, NO_CELL, NO_DIR};
use crate::syntax::ast::{Expr, ExprKind};

impl Board {
    /// The checker's board for these options: its axes, cell names and coordinates.
    #[must_use]
    pub fn configured(geometry: &Geometry) -> Board {
        let coords = geometry.coords.iter().flatten();
        let coords = coords.map(|&v| i32::try_from(v).unwrap_or(i32::MAX));
        Board::new(
            geometry.axes.clone(),
            geometry.names.clone(),
            coords.collect(),
        )
    }
}

/// A relation's rays, each with the player it belongs to: per cell, the next cell or [`NO_CELL`].
type Rays = [(Option<u8>, Vec<u16>)];

impl Relation {
    /// A configured direction, relation or map on a board of `cells` cells: its rays, and per
    /// cell the cells they lead to (for each player when some ray is one player's).
    #[must_use]
    pub fn configured(r: &configure::Relation, cells: usize) -> Relation {
        let cell = |c: &Option<usize>| c.map_or(NO_CELL, |t| u16::try_from(t).unwrap_or(NO_CELL));
        let rays: Vec<(Option<u8>, Vec<u16>)> = (r.rays.iter())
            .map(|(who, next)| (*who, next.iter().map(cell).collect()))
            .collect();
        let dir = |i: &Option<usize>| i.and_then(|i| u8::try_from(i).ok()).unwrap_or(NO_DIR);
        let per_player = if rays.iter().any(|(who, _)| who.is_some()) {
            vec![masks(cells, &rays, Some(0)), masks(cells, &rays, Some(1))]
        } else {
            Vec::new()
        };
        Relation {
            name: r.name.clone(),
            masks: masks(cells, &rays, None),
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
fn masks(cells: usize, rays: &Rays, player: Option<u8>) -> Vec<CellSet> {
    let is_mine = |who: &Option<u8>| player.is_none() || who.is_none() || *who == player;
    let mine: Vec<&Vec<u16>> = (rays.iter().filter(|(who, _)| is_mine(who)))
        .map(|(_, next)| next)
        .collect();
    let next = |c: usize| {
        mine.iter()
            .map(move |next| next[c])
            .filter(|&t| t != NO_CELL)
    };
    (0..cells)
        .map(|c| next(c).map(usize::from).collect())
        .collect()
}

impl Piece {
    /// A piece drawn with `symbols`, White's first; without symbols, with its name's initial,
    /// upper case for White.
    #[must_use]
    pub fn drawn(name: &str, mut symbols: Vec<String>) -> Piece {
        let initial = name.chars().next().unwrap_or('?');
        if symbols.is_empty() {
            symbols.push(initial.to_uppercase().to_string());
        }
        if symbols.len() == 1 {
            symbols.push(initial.to_lowercase().to_string());
        }
        let name = name.to_string();
        Piece { name, symbols }
    }
}

impl Marker {
    /// A marker drawn as `text` on the cells of `set` (written `cells` in the game), with the
    /// game's legend or else [`Marker::default_legend`].
    #[must_use]
    pub fn drawn(text: &str, set: SetId, legend: Option<&str>, cells: &Expr) -> Marker {
        let text = text.to_string();
        let legend = legend.map_or_else(|| Marker::default_legend(cells), str::to_string);
        Marker { text, set, legend }
    }

    /// A marker's legend when the game gives none: the names its cells are written with
    /// (`goal_hexes` reads `goal hexes`, `{ball}` reads `ball`), else `marked`.
    #[must_use]
    pub fn default_legend(cells: &Expr) -> String {
        let name = |e: &Expr| match &e.kind {
            ExprKind::Name(n) => Some(n.name.replace('_', " ")),
            _ => None,
        };
        let names = match &cells.kind {
            ExprKind::CellSet(items) => items.iter().map(name).collect::<Option<Vec<_>>>(),
            _ => name(cells).map(|n| vec![n]),
        };
        names.map_or_else(|| "marked".to_string(), |n| n.join(", "))
    }
}

impl Pattern {
    /// A configured pattern: its instances, listed cell by cell.
    #[must_use]
    pub fn configured(p: &configure::Pattern) -> Pattern {
        let mut pattern = Pattern {
            name: p.name.clone(),
            offsets: vec![0],
            instances: Vec::new(),
        };
        for list in &p.per_cell {
            let sets = list
                .iter()
                .map(|cells| cells.iter().copied().collect::<CellSet>());
            pattern.instances.extend(sets);
            pattern.offsets.push(pattern.instances.len() as u32);
        }
        pattern
    }
}

impl Placements {
    /// A `place` statement's table: the configured placements of every shape along one
    /// relation, each with its cells' parts in one flat array.
    ///
    /// # Errors
    /// When there are more placements than a move's 16-bit choice can name.
    pub fn configured(conf: &configure::Placements) -> Result<Placements> {
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
                    cells: p.parts.iter().map(|c| c.0).collect(),
                    first: table.parts.len() as u32,
                    len: u8::try_from(p.parts.len()).unwrap_or(u8::MAX),
                    max_top: p.parts.iter().map(|c| c.2).max().unwrap_or(0),
                });
                table.parts.extend(parts);
            }
            table.by_shape.push((start, table.instances.len() as u32));
        }
        let (found, max) = (table.instances.len(), usize::from(u16::MAX));
        if found > max {
            let what = "placements in one `place`";
            return Err(LowerError::too_large(what, found, max as u64));
        }
        Ok(table)
    }
}

/// Tables the checker configured or the language defines, added to a program.
impl Program {
    /// Adds the table of a `place` statement ([`Placements::configured`]); its id.
    ///
    /// # Errors
    /// When the table is too large, or the program has too many tables.
    pub fn push_placements(&mut self, conf: &configure::Placements) -> Result<u16> {
        let id = super::id16(self.placements.len())?;
        self.placements.push(Placements::configured(conf)?);
        Ok(id)
    }

    /// The checker's relations, patterns and zones for these options as the program's tables,
    /// each given the id of its index in the checker's list.
    ///
    /// # Errors
    /// When a table has more entries than 16-bit ids can number.
    pub fn add_configured(&mut self, board: &configure::Configured) -> Result<()> {
        let cells = board.geometry.len();
        let relations = board.relations.iter();
        self.relations = relations.map(|r| Relation::configured(r, cells)).collect();
        self.patterns = board.patterns.iter().map(Pattern::configured).collect();
        let zone = |(name, cells): &(String, Vec<usize>)| Zone {
            name: name.clone(),
            cells: cells.iter().copied().collect(),
        };
        self.zones = board.zones.iter().map(zone).collect();
        let longest = (self.relations.len()).max(self.patterns.len().max(self.zones.len()));
        super::id16(longest.saturating_sub(1)).map(|_| ())
    }

    /// Adds a shape with its stock of `count` copies per player, each worth `points`, and the
    /// mark `flip` of an upside-down copy.
    ///
    /// # Errors
    /// When the game has more shapes than a move's 8-bit shape index can name.
    pub fn add_shape(
        &mut self,
        name: &str,
        (count, points): (i32, i32),
        flip: Option<String>,
    ) -> Result<()> {
        let found = self.shapes.len() + 1;
        if found > usize::from(u8::MAX) {
            return Err(LowerError::too_large("shapes", found, u8::MAX.into()));
        }
        let stock = self.add_counter(name, &[Some(0), Some(1)], count, CounterView::Plain)?;
        let name = name.to_string();
        self.shapes.push(Shape {
            name,
            count,
            points,
            flip,
            stock,
        });
        Ok(())
    }

    /// Adds a per-cell counter (or a track's counts), one slot for each cell of the board;
    /// returns its first slot.
    ///
    /// # Errors
    /// When the slots' ids do not fit in 16 bits.
    pub fn add_layer(&mut self, name: &str, initial: i32, view: CounterView) -> Result<u16> {
        let cells = vec![None; self.board.len()];
        let base = self.add_counter(name, &cells, initial, view)?;
        self.layers.push((name.to_string(), base));
        Ok(base)
    }

    /// `repetitions ignore ...`: leaves out every slot of the counters named (the checker has
    /// made each name a counter or `mover`), and the player to move when `mover` is named.
    pub fn ignore_in_history<'n>(&mut self, names: impl IntoIterator<Item = &'n str>) {
        let ignores = &mut self.history_ignores;
        for name in names {
            ignores.mover |= name == "mover";
            let named = self
                .counters
                .iter()
                .enumerate()
                .filter(|(_, c)| c.name == name);
            let slots = named.filter_map(|(i, _)| u16::try_from(i).ok());
            ignores.slots.extend(slots);
        }
        ignores.slots.sort_unstable();
        ignores.slots.dedup();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Counter;
    use crate::syntax::{Ident, Span};

    fn name(text: &str) -> Expr {
        let span = Span { start: 0, end: 1 };
        let ident = Ident {
            name: text.to_string(),
            span,
        };
        Expr {
            kind: ExprKind::Name(ident),
            span,
        }
    }

    #[test]
    fn a_marker_without_legend_reads_as_the_names_of_its_cells() {
        let span = Span { start: 0, end: 1 };
        let both = Expr {
            kind: ExprKind::CellSet(vec![name("goal_hexes"), name("ball")]),
            span,
        };
        assert_eq!(Marker::default_legend(&name("goal_hexes")), "goal hexes");
        assert_eq!(Marker::default_legend(&both), "goal hexes, ball");
        let other = Expr {
            kind: ExprKind::Int(3),
            span,
        };
        assert_eq!(Marker::default_legend(&other), "marked");
        assert_eq!(Marker::drawn("*", 0, Some("goal"), &both).legend, "goal");
    }

    #[test]
    fn repetitions_ignore_every_slot_of_the_counters_named() {
        let mut p = Program::default();
        let counter = |name: &str, player| Counter {
            name: name.to_string(),
            player,
            initial: 0,
            view: CounterView::Plain,
        };
        p.counters = vec![
            counter("a", Some(0)),
            counter("b", None),
            counter("a", Some(1)),
        ];
        p.ignore_in_history(["a", "mover"]);
        p.ignore_in_history(["a"]);
        assert_eq!(p.history_ignores.slots, [0, 2]);
        assert!(p.history_ignores.mover);
    }
}
