//! The checker's configured board tables ([`configure`]) as the program's: cells become 16-bit
//! ids and sets of cells, per-cell lists become flat arrays with offsets. The checker computed
//! every entry; nothing here decides anything about the game. A marker without a legend gets
//! the language's default one.

use rulestone_check::configure;
use rulestone_check::geometry::Geometry;
use rulestone_ir::build::id16;
use rulestone_ir::{
    Board, BuildError, CellSet, Marker, Pattern, PlacedCell, Placement, Placements, Program, Ray,
    Relation, SetId, Zone, NO_CELL, NO_DIR,
};
use rulestone_syntax::ast::{Expr, ExprKind};

type Result<T> = std::result::Result<T, BuildError>;

/// The checker's board for these options: its axes, cell names and coordinates.
#[must_use]
pub fn board(geometry: &Geometry) -> Board {
    let coords = geometry.coords.iter().flatten();
    let coords = coords.map(|&v| i32::try_from(v).unwrap_or(i32::MAX));
    Board::new(
        geometry.axes.clone(),
        geometry.names.clone(),
        coords.collect(),
    )
}

/// A relation's rays, each with the player it belongs to: per cell, the next cell or [`NO_CELL`].
type Rays = [(Option<u8>, Vec<u16>)];

/// A configured direction, relation or map on a board of `cells` cells: its rays, and per
/// cell the cells they lead to (for each player when some ray is one player's).
#[must_use]
pub fn relation(r: &configure::Relation, cells: usize) -> Relation {
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

/// A marker drawn as `text` on the cells of `set` (written `cells` in the game), with the
/// game's legend or else [`default_legend`].
#[must_use]
pub fn marker(text: &str, set: SetId, legend: Option<&str>, cells: &Expr) -> Marker {
    let text = text.to_string();
    let legend = legend.map_or_else(|| default_legend(cells), str::to_string);
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

/// A configured pattern: its instances, listed cell by cell.
#[must_use]
pub fn pattern(p: &configure::Pattern) -> Pattern {
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

/// A `place` statement's table: the configured placements of every shape along one
/// relation, each with its cells' parts in one flat array.
///
/// # Errors
/// When there are more placements than a move's 16-bit choice can name.
pub fn placements(conf: &configure::Placements) -> Result<Placements> {
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
        return Err(BuildError::too_large(what, found, max as u64));
    }
    Ok(table)
}

/// Adds the table of a `place` statement ([`placements`]) to `program`; its id.
///
/// # Errors
/// When the table is too large, or the program has too many tables.
pub fn push_placements(program: &mut Program, conf: &configure::Placements) -> Result<u16> {
    let id = id16(program.placements.len())?;
    program.placements.push(placements(conf)?);
    Ok(id)
}

/// The checker's relations, patterns and zones for these options as the program's tables,
/// each given the id of its index in the checker's list.
///
/// # Errors
/// When a table has more entries than 16-bit ids can number.
pub fn add_configured(program: &mut Program, board: &configure::Configured) -> Result<()> {
    let cells = board.geometry.len();
    let relations = board.relations.iter();
    program.relations = relations.map(|r| relation(r, cells)).collect();
    program.patterns = board.patterns.iter().map(pattern).collect();
    let zone = |(name, cells): &(String, Vec<usize>)| Zone {
        name: name.clone(),
        cells: cells.iter().copied().collect(),
    };
    program.zones = board.zones.iter().map(zone).collect();
    let longest = (program.relations.len()).max(program.patterns.len().max(program.zones.len()));
    id16(longest.saturating_sub(1)).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulestone_syntax::{Ident, Span};

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
        assert_eq!(default_legend(&name("goal_hexes")), "goal hexes");
        assert_eq!(default_legend(&both), "goal hexes, ball");
        let other = Expr {
            kind: ExprKind::Int(3),
            span,
        };
        assert_eq!(default_legend(&other), "marked");
        assert_eq!(marker("*", 0, Some("goal"), &both).legend, "goal");
    }
}
