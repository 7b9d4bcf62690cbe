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
use crate::ir::{Piece, NO_CELL, NO_DIR};

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
