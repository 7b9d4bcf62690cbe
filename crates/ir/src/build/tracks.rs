//! Track statements as primitive ops: a track is a per-cell counter over its lanes' cells
//! (how many pieces stand on each field), so `enter`, `advance` and `take` are assignments to
//! those cells, and `waiting` is a sum of them. For an owner known only when the game runs,
//! each player's ops stand behind a test of who it is.

use super::{Asm, Result};
use crate::{AssignKind, AssignSlot, BoolExpr, CellRef, CmpOp, IntExpr, IntId, IntOp, Op};
use crate::{PlayerRef, Program, SetExpr};

/// A track's lanes as its ops read them (the checker configures them for the board).
#[derive(Clone, Copy, Debug)]
pub struct Track<'a> {
    /// Each lane's player and cells, entry first.
    pub lanes: &'a [(u8, Vec<usize>)],
    /// Per player: the entry of each of the player's lanes and the cells nearest to it.
    pub entries: &'a [Vec<(usize, Vec<usize>)>; 2],
}

/// Whether `owner` is player `p`.
fn player_is(owner: PlayerRef, p: u8) -> BoolExpr {
    BoolExpr::PlayerEq {
        eq: true,
        lhs: owner,
        rhs: PlayerRef::Const(p),
    }
}

/// The cell with index `c`.
fn const_cell(c: usize) -> CellRef {
    CellRef::Const(u16::try_from(c).unwrap_or(u16::MAX))
}

/// The counter slot of cell `c` of the track whose slots start at `base`.
fn field(base: u16, c: usize) -> AssignSlot {
    AssignSlot::PerCell {
        base,
        cell: const_cell(c),
    }
}

impl Asm<'_> {
    /// `enter T for owner near c`: one more piece on the entry of the owner's lane nearest to
    /// `near`; a player with no lane cannot enter.
    ///
    /// # Errors
    /// When the program grows too long for its jumps.
    pub fn enter(
        &mut self,
        base: u16,
        track: &Track<'_>,
        owner: PlayerRef,
        near: CellRef,
    ) -> Result<()> {
        self.per_player(owner, true, |a, p| {
            a.enter_nearest(base, &track.entries[usize::from(p)], near)
        })
    }

    /// `advance T for owner`: on each of the owner's lanes, the end gains the field before it,
    /// each field takes the one before it, and the entry empties.
    ///
    /// # Errors
    /// When the program grows too long for its jumps.
    pub fn advance(&mut self, base: u16, track: &Track<'_>, owner: PlayerRef) -> Result<()> {
        self.per_player(owner, false, |a, p| {
            for (_, cells) in track.lanes.iter().filter(|(q, _)| *q == p) {
                a.advance_lane(base, cells);
            }
            Ok(())
        })
    }

    /// `take T for owner`: one piece leaves the end of the owner's first lane that holds one;
    /// when none does, this way through the program ends.
    ///
    /// # Errors
    /// When the program grows too long for its jumps.
    pub fn take(&mut self, base: u16, track: &Track<'_>, owner: PlayerRef) -> Result<()> {
        self.per_player(owner, true, |a, p| a.take_from_lanes(base, track.lanes, p))
    }

    /// Emits `body` for each player `owner` may be, behind a test of who it is; with `fail`,
    /// a player with no branch (no lanes) ends the walk.
    fn per_player(
        &mut self,
        owner: PlayerRef,
        fail: bool,
        mut body: impl FnMut(&mut Self, u8) -> Result<()>,
    ) -> Result<()> {
        let end = self.labels.new_label();
        for p in 0..2u8 {
            if matches!(owner, PlayerRef::Const(q) if q != p) {
                continue;
            }
            let known = matches!(owner, PlayerRef::Const(_));
            let skip = (!known).then(|| self.unless(player_is(owner, p)));
            body(self, p)?;
            self.ops.push(Op::Jump(end));
            skip.map_or(Ok(()), |skip| self.bind(skip))?;
        }
        if fail {
            self.fail();
        }
        self.bind(end)
    }

    /// One more piece on the entry nearest to `near` among `entries`, each an entry and the
    /// cells nearest to it.
    fn enter_nearest(
        &mut self,
        base: u16,
        entries: &[(usize, Vec<usize>)],
        near: CellRef,
    ) -> Result<()> {
        if entries.is_empty() {
            self.fail();
            return Ok(());
        }
        let (value, end) = (
            self.prog.push_int(IntExpr::Const(1)),
            self.labels.new_label(),
        );
        for (k, (entry, region)) in entries.iter().enumerate() {
            let last = k + 1 == entries.len();
            let skip = (!last).then(|| {
                let region = region.iter().copied().collect();
                let set = self.prog.push_set(SetExpr::Const(region));
                self.unless(BoolExpr::In { cell: near, set })
            });
            let (slot, op) = (field(base, *entry), AssignKind::Add);
            self.ops.push(Op::Assign { slot, op, value });
            if let Some(skip) = skip {
                self.ops.push(Op::Jump(end));
                self.bind(skip)?;
            }
        }
        self.bind(end)
    }

    /// `advance` on one lane, `cells` from its entry to its end.
    fn advance_lane(&mut self, base: u16, cells: &[usize]) {
        for i in (1..cells.len()).rev() {
            let cell = const_cell(cells[i - 1]);
            let value = self.prog.push_int(IntExpr::CellCounter { base, cell });
            let op = if i + 1 == cells.len() {
                AssignKind::Add
            } else {
                AssignKind::Set
            };
            let slot = field(base, cells[i]);
            self.ops.push(Op::Assign { slot, op, value });
        }
        if cells.len() > 1 {
            let value = self.prog.push_int(IntExpr::Const(0));
            let (slot, op) = (field(base, cells[0]), AssignKind::Set);
            self.ops.push(Op::Assign { slot, op, value });
        }
    }

    /// One piece leaves the end of player `p`'s first lane that holds one.
    fn take_from_lanes(&mut self, base: u16, lanes: &[(u8, Vec<usize>)], p: u8) -> Result<()> {
        let value = self.prog.push_int(IntExpr::Const(1));
        let zero = self.prog.push_int(IntExpr::Const(0));
        let done = self.labels.new_label();
        for (_, cells) in lanes.iter().filter(|(q, _)| *q == p) {
            let Some(&end) = cells.last() else { continue };
            let cell = const_cell(end);
            let lhs = self.prog.push_int(IntExpr::CellCounter { base, cell });
            let (op, rhs) = (CmpOp::Gt, zero);
            let skip = self.unless(BoolExpr::Cmp { op, lhs, rhs });
            let (slot, op) = (field(base, end), AssignKind::Sub);
            self.ops.push(Op::Assign { slot, op, value });
            self.ops.push(Op::Jump(done));
            self.bind(skip)?;
        }
        self.fail();
        self.bind(done)
    }
}

/// `waiting(T, owner)`: how many of the owner's pieces wait at the ends of the owner's lanes.
pub fn waiting(prog: &mut Program, base: u16, track: &Track<'_>, owner: PlayerRef) -> IntExpr {
    let sums = [0u8, 1].map(|p| {
        let ends = track.lanes.iter().filter(|(q, _)| *q == p);
        let ends = ends.filter_map(|(_, cells)| cells.last());
        let mut acc: Option<IntId> = None;
        for &end in ends {
            let cell = const_cell(end);
            let rhs = prog.push_int(IntExpr::CellCounter { base, cell });
            acc = Some(match acc {
                None => rhs,
                Some(lhs) => prog.push_int(IntExpr::Bin {
                    op: IntOp::Add,
                    lhs,
                    rhs,
                }),
            });
        }
        acc.map_or(IntExpr::Const(0), |a| prog.ints[usize::from(a)].clone())
    });
    let [first, second] = sums;
    match owner {
        PlayerRef::Const(0) => first,
        PlayerRef::Const(_) => second,
        _ => IntExpr::Cond {
            cond: prog.push_bool(player_is(owner, 0)),
            then: prog.push_int(first),
            otherwise: prog.push_int(second),
        },
    }
}
