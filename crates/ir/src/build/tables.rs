//! Tables the language defines for what a game leaves out or adds: a piece's default symbols,
//! a shape's stock, a per-cell counter's slots, the slots history ignores. (The checker's
//! configured board becomes tables in the lowering, which reads the checker's types.)

use super::Result;
use crate::{BuildError, CounterView, Piece, Program, Shape};

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

/// Tables the language defines, added to a program.
impl Program {
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
            return Err(BuildError::too_large("shapes", found, u8::MAX.into()));
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
    use crate::Counter;

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
