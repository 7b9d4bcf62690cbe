//! The local names of a game's programs (picked cells, direction values, `let` sets, placed
//! shapes) and the slots that hold them during a move. Each name keeps one slot for the whole
//! game: the setup, turn and on-no-moves programs never run at once. Slots come from three
//! bounded files ([`Slots`]), each with its own limit error (E1001-E1003); loop counters and
//! placements' anchors share the file of picked cells.

use std::collections::HashMap;

use super::{Result, Slots};
use crate::{BuildError, MAX_PLACED, MAX_SET_LOCALS, MAX_VARS};
use rulestone_base::Span;

/// What a local name holds, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Local {
    /// A cell, in a turn variable.
    Cell(u8),
    /// A direction value: a turn variable holding a vector index of `relation`.
    Dir { var: u8, relation: u16 },
    /// A set of cells, in a `let` slot.
    Set(u8),
    /// A placed shape.
    Placed(Placed),
}

/// A placed shape: its placement slot, the `place` statement's table and the turn variable
/// holding its anchor cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub slot: u8,
    pub table: u16,
    pub anchor: u8,
}

/// The local names bound so far, each with what it held when last bound.
pub struct Locals {
    by_name: HashMap<String, Local>,
    vars: Slots,
    sets: Slots,
    placed: Slots,
}

impl Default for Locals {
    fn default() -> Self {
        Locals {
            by_name: HashMap::new(),
            vars: Slots::new(MAX_VARS, |found, max, span| {
                BuildError::TooManyTurnVariables { found, max, span }
            }),
            sets: Slots::new(MAX_SET_LOCALS, |found, max, span| {
                BuildError::TooManySetLocals { found, max, span }
            }),
            placed: Slots::new(MAX_PLACED, |found, max, span| {
                BuildError::TooManyPlaceVariables { found, max, span }
            }),
        }
    }
}

impl Locals {
    /// What `name` holds, if it is a bound local.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<Local> {
        self.by_name.get(name).copied()
    }

    /// Binds `name` (at `span`) to a cell; its turn variable.
    ///
    /// # Errors
    /// E1001, when the turn variables are all taken.
    pub fn cell(&mut self, name: &str, span: Span) -> Result<u8> {
        let var = self.vars.slot(name, Some(span))?;
        self.by_name.insert(name.to_string(), Local::Cell(var));
        Ok(var)
    }

    /// Binds `name` (at `span`) to a direction value of `relation`; its turn variable.
    ///
    /// # Errors
    /// E1001, when the turn variables are all taken.
    pub fn dir(&mut self, name: &str, span: Span, relation: u16) -> Result<u8> {
        let var = self.vars.slot(name, Some(span))?;
        let local = Local::Dir { var, relation };
        self.by_name.insert(name.to_string(), local);
        Ok(var)
    }

    /// Binds `name` (at `span`) to a set of cells; its `let` slot.
    ///
    /// # Errors
    /// E1002, when the `let` slots are all taken.
    pub fn set(&mut self, name: &str, span: Span) -> Result<u8> {
        let slot = self.sets.slot(name, Some(span))?;
        self.by_name.insert(name.to_string(), Local::Set(slot));
        Ok(slot)
    }

    /// Binds `name` (at `span`) to a shape placed from `table`.
    ///
    /// # Errors
    /// E1001 for its anchor, or E1003 when the placement slots are all taken.
    pub fn placed(&mut self, name: &str, span: Span, table: u16) -> Result<Placed> {
        let anchor = self.vars.slot(&format!("{name}.anchor"), None)?;
        let slot = self.placed.slot(name, Some(span))?;
        let placed = Placed {
            slot,
            table,
            anchor,
        };
        self.by_name.insert(name.to_string(), Local::Placed(placed));
        Ok(placed)
    }

    /// The counter of the loop whose first op is op `at` of its program; loops at the same
    /// place in different programs share it.
    ///
    /// # Errors
    /// E1001, when the turn variables are all taken.
    pub fn loop_counter(&mut self, kind: &str, at: usize) -> Result<u8> {
        self.vars.slot(&format!("#{kind}{at}"), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_keeps_its_slot_and_holds_what_it_was_last_bound_to() {
        let span = Span { start: 0, end: 1 };
        let mut locals = Locals::default();
        assert_eq!(locals.cell("c", span), Ok(0));
        assert_eq!(locals.set("s", span), Ok(0));
        assert_eq!(locals.loop_counter("while", 3), Ok(1));
        assert_eq!(locals.dir("c", span, 2), Ok(0));
        assert_eq!(
            locals.get("c"),
            Some(Local::Dir {
                var: 0,
                relation: 2
            })
        );
        let placed = locals.placed("p", span, 5);
        let (slot, table, anchor) = (0, 5, 2);
        assert_eq!(
            placed,
            Ok(Placed {
                slot,
                table,
                anchor
            })
        );
        assert_eq!(locals.get("a1"), None);
    }
}
