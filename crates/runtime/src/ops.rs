//! The meaning of the turn's ops, written once: the interpreter (`engine.rs`) calls these
//! functions and the code generator (`rulestone-codegen`) emits calls to them, so generated
//! code is control flow around them. Each is `#[inline]`: generated code, another crate,
//! inlines them, and a constant operand folds as it did when the code spelled the rule out.

use super::state::GameResult;
use rulestone_ir::{CellBits, PlacedCell, Placement, Shape};

/// `put ... of p`: the code of the piece of kind `code_base` (its code for player 0) for
/// player `owner` (codes are `1 + 2 * kind + player`).
#[inline]
#[must_use]
pub fn piece_code(code_base: u8, owner: u8) -> u8 {
    code_base.wrapping_add(owner)
}

/// `roll`: the value of outcome `k` of a roll from `lo` (the decision is the offset).
#[inline]
#[must_use]
pub fn roll_value(lo: i32, k: u16) -> i32 {
    lo.wrapping_add(i32::from(k))
}

/// `win p` (`win` true) or `lose p`: the result, for `who`, a player (0 or 1).
#[inline]
#[must_use]
pub fn finish(win: bool, who: u8) -> GameResult {
    GameResult::Win(if win { who } else { 1u8.wrapping_sub(who) })
}

/// Two decisions read as one number, high byte first (a `place` instance's index, a cell of
/// a board of more than 256 cells).
#[inline]
#[must_use]
pub fn two_decisions(hi: u8, lo: u8) -> u16 {
    (u16::from(hi) << 8) | u16::from(lo)
}

/// `set v = S`: the one cell of `s`; `None`, which ends the walk, when it holds none or
/// several.
#[inline]
#[must_use]
pub fn only_cell<const W: usize>(s: &CellBits<W>) -> Option<usize> {
    match (s.iter().next(), s.len()) {
        (Some(c), 1) => Some(c),
        _ => None,
    }
}

/// `repeat`'s test after `rounds` rounds of at least `min` and at most `max`: whether it may
/// stop, and whether it may go on (when both, a decision chooses).
#[inline]
#[must_use]
pub fn repeat_bounds(rounds: u16, min: u8, max: u8) -> (bool, bool) {
    (rounds >= u16::from(min), rounds < u16::from(max))
}

/// `place`: the base on which a copy with these parts comes to rest on the layer whose
/// heights start at `counters[layer]`: the lowest at which no part is below the layer's
/// height at its cell, and at least 0.
#[inline]
#[must_use]
pub fn settle(parts: &[PlacedCell], counters: &[i32], layer: usize) -> i32 {
    parts
        .iter()
        .map(|part| counters[layer + usize::from(part.cell)] - i32::from(part.bottom))
        .fold(0, i32::max)
}

/// `place`: whether a copy at base `z` stays at most `max` high and stands on its feet: each
/// foot on a cell of `feet` whose height is the foot's bottom.
#[inline]
#[must_use]
pub fn rests_on<const W: usize>(
    inst: &Placement,
    parts: &[PlacedCell],
    counters: &[i32],
    layer: usize,
    z: i32,
    max: i32,
    feet: &CellBits<W>,
) -> bool {
    z + i32::from(inst.max_top) <= max
        && parts.iter().all(|part| {
            !part.foot
                || (feet.contains(usize::from(part.cell))
                    && counters[layer + usize::from(part.cell)] == z + i32::from(part.bottom))
        })
}

/// `place`: the layer's new height at a part's cell under a copy at base `z` (its slot and
/// value).
#[inline]
#[must_use]
pub fn part_top(part: &PlacedCell, layer: usize, z: i32) -> (usize, i32) {
    (layer + usize::from(part.cell), z + i32::from(part.top))
}

/// `move from to`: the cells it changes and their new codes, the lift first; none when the
/// piece stays where it is.
#[inline]
#[must_use]
pub fn move_changes(from: usize, to: usize, piece: u8) -> Option<[(usize, u8); 2]> {
    (from != to).then_some([(from, 0), (to, piece)])
}

/// `place`: the counter slot of `who`'s stock of `shape` (player 0's slot, then player 1's).
#[inline]
#[must_use]
pub fn stock_slot(shape: &Shape, who: u8) -> usize {
    usize::from(shape.stock) + usize::from(who)
}

/// `place`: whether `who` has a copy of `shape` left to place.
#[inline]
#[must_use]
pub fn has_stock(counters: &[i32], shape: &Shape, who: u8) -> bool {
    counters
        .get(stock_slot(shape, who))
        .is_some_and(|&left| left > 0)
}

/// `place`: every counter a copy with these parts changes when it comes to rest at base `z`,
/// with its new value: the layer rises to each part's top, then the copy leaves `who`'s stock
/// of `shape`. The stock is read now, so the caller may write the changes as it goes.
#[inline]
pub fn placement_changes<'a>(
    parts: &'a [PlacedCell],
    shape: Option<&Shape>,
    counters: &[i32],
    layer: usize,
    z: i32,
    who: u8,
) -> impl Iterator<Item = (usize, i32)> + 'a {
    let stock = shape.map(|shape| {
        let slot = stock_slot(shape, who);
        (slot, counters[slot] - 1)
    });
    parts
        .iter()
        .map(move |part| part_top(part, layer, z))
        .chain(stock)
}

/// `sum(counter, S)`: the per-cell counter whose slot for cell 0 is `counters[base]`, added up
/// over the cells of `s`, saturating as `+` does.
#[inline]
#[must_use]
pub fn cell_sum<const W: usize>(counters: &[i32], base: usize, s: &CellBits<W>) -> i32 {
    s.iter().fold(0, |total, c| {
        total.saturating_add(counters.get(base + c).copied().unwrap_or(0))
    })
}

#[cfg(test)]
mod tests {
    use super::cell_sum;
    use rulestone_ir::CellBits;

    /// The counter is added up over the set's cells only, and saturates rather than panicking.
    #[test]
    fn cell_sum_adds_the_set_cells() {
        let counters = [9, 1, 2, 3, 4];
        let set: CellBits<1> = [0, 2, 3].into_iter().collect();
        assert_eq!(cell_sum(&counters, 1, &set), 1 + 3 + 4);
        assert_eq!(cell_sum(&counters, 1, &CellBits::<1>::default()), 0);
        let big = [i32::MAX, 1];
        let both: CellBits<1> = [0, 1].into_iter().collect();
        assert_eq!(cell_sum(&big, 0, &both), i32::MAX, "saturates as `+` does");
    }
}
