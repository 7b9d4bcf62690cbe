//! Observation tensors read off the board's geometry, the same way for every game: a stack of
//! planes, each one value per cell of the board (cells in their index order, the order
//! `rulestone info` lists them; a board's levels and axes are flattened into that one list).
//!
//! The planes, in order, for the observing player `p`:
//!
//! 1. per piece kind, in declaration order, two planes: `p`'s pieces of that kind (1 on the
//!    cells holding one), then the opponent's;
//! 2. per `marker`, in declaration order: 1 on the cells it marks in this position;
//! 3. per per-cell counter (`counter NAME per cell`), in declaration order: its value on each
//!    cell;
//! 4. per counter slot that is not per cell (a plain counter, or a per-player counter's slot
//!    for each player, `p`'s slot first), in declaration order: its value on every cell;
//! 5. the player to move: 1 on every cell when `p` is to move, else 0.
//!
//! Invariants: the shape depends on the program alone (its option values included), never on
//! the position; a plane's values are the position's, unscaled.

use rulestone_ir::Program;
use rulestone_runtime::Engine;

/// What one plane of an observation holds, for documentation and column names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plane {
    /// Pieces of a kind (its name); `own` for the observer's, else the opponent's.
    Pieces { kind: String, own: bool },
    /// A marker's cells (its text).
    Marker(String),
    /// A per-cell counter's values (its name).
    Layer(String),
    /// A counter slot's value on every cell (its name, and whose slot a per-player one is:
    /// `Some(true)` the observer's).
    Counter { name: String, own: Option<bool> },
    /// 1 where the observer is to move.
    ToMove,
}

impl std::fmt::Display for Plane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let whose = |own: bool| if own { "own" } else { "opponent's" };
        match self {
            Plane::Pieces { kind, own } => write!(f, "{} {kind}", whose(*own)),
            Plane::Marker(text) => write!(f, "marker {text}"),
            Plane::Layer(name) => write!(f, "per-cell counter {name}"),
            Plane::Counter { name, own: None } => write!(f, "counter {name}"),
            Plane::Counter {
                name,
                own: Some(own),
            } => write!(f, "{} counter {name}", whose(*own)),
            Plane::ToMove => f.write_str("to move"),
        }
    }
}

/// The counter slots that belong to per-cell counters.
fn layer_slots(program: &Program) -> Vec<bool> {
    let cells = program.board.len();
    let mut in_layer = vec![false; program.counters.len()];
    for (_, first) in &program.layers {
        let first = usize::from(*first);
        for slot in in_layer.iter_mut().skip(first).take(cells) {
            *slot = true;
        }
    }
    in_layer
}

/// The counter slots with a constant plane each, in plane order for `observer`: declaration
/// order, the observer's slot of a per-player counter before the opponent's.
fn counter_slots(program: &Program, observer: u8) -> Vec<usize> {
    let in_layer = layer_slots(program);
    let mut slots: Vec<usize> = (0..program.counters.len())
        .filter(|&s| !in_layer[s])
        .collect();
    // A per-player counter's slots are adjacent; put the observer's first.
    for pair in 0..slots.len().saturating_sub(1) {
        let (a, b) = (slots[pair], slots[pair + 1]);
        let (ca, cb) = (&program.counters[a], &program.counters[b]);
        if ca.name == cb.name && ca.player.is_some() && cb.player == Some(observer) {
            slots.swap(pair, pair + 1);
        }
    }
    slots
}

/// The planes of `program`'s observations for `observer`, in order.
#[must_use]
pub fn planes(program: &Program, observer: u8) -> Vec<Plane> {
    let mut out = Vec::new();
    for piece in &program.pieces {
        for own in [true, false] {
            out.push(Plane::Pieces {
                kind: piece.name.clone(),
                own,
            });
        }
    }
    out.extend(
        program
            .markers
            .iter()
            .map(|m| Plane::Marker(m.text.clone())),
    );
    out.extend(program.layers.iter().map(|(n, _)| Plane::Layer(n.clone())));
    for slot in counter_slots(program, observer) {
        let c = &program.counters[slot];
        out.push(Plane::Counter {
            name: c.name.clone(),
            own: c.player.map(|p| p == observer),
        });
    }
    out.push(Plane::ToMove);
    out
}

/// `(planes, cells)`: the shape of every observation of `program`.
#[must_use]
pub fn shape(program: &Program) -> (usize, usize) {
    (planes(program, 0).len(), program.board.len())
}

/// Writes the observation of the engine's position for `observer` into `out`, which holds
/// `planes * cells` values (plane-major); every value is written.
///
/// # Panics
/// Never: `out` shorter than the shape is written as far as it goes.
pub fn write(engine: &Engine<'_>, observer: u8, out: &mut [f32]) {
    let program = engine.program();
    let cells = program.board.len();
    let state = &engine.state;
    out.fill(0.0);
    let mut planes = out.chunks_mut(cells.max(1));
    for kind in 0..program.pieces.len() {
        for owner in [observer, 1 - observer.min(1)] {
            let Some(plane) = planes.next() else { return };
            let code = 1 + 2 * kind + usize::from(owner);
            for (value, &c) in plane.iter_mut().zip(&state.board) {
                if usize::from(c) == code {
                    *value = 1.0;
                }
            }
        }
    }
    for (_, set) in engine.markers() {
        let Some(plane) = planes.next() else { return };
        for (cell, value) in plane.iter_mut().enumerate() {
            if set.contains(cell) {
                *value = 1.0;
            }
        }
    }
    for (_, first) in &program.layers {
        let Some(plane) = planes.next() else { return };
        let values = state.counters.iter().skip(usize::from(*first));
        for (value, &v) in plane.iter_mut().zip(values) {
            *value = v as f32;
        }
    }
    for slot in counter_slots(program, observer) {
        let Some(plane) = planes.next() else { return };
        plane.fill(state.counters.get(slot).copied().unwrap_or(0) as f32);
    }
    if let Some(plane) = planes.next() {
        plane.fill(if state.mover == observer { 1.0 } else { 0.0 });
    }
}
