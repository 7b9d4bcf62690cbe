//! The one table of built-ins: every built-in function and value with its id, signature, type
//! rule and a line of documentation. The checker types calls and names from it, the lowering
//! dispatches on its ids ([`Func`], [`Value`], each matched exhaustively there), and the language
//! server completes and explains from it. A test fails when the language reference or the
//! editor grammar lacks one of its names.

use super::model::Ty;

/// A built-in function, as the checker resolved a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    Abs,
    All,
    Any,
    Between,
    Brackets,
    Cell,
    Completes,
    Connected,
    Count,
    Dir,
    Flip,
    Group,
    Index,
    Left,
    Letter,
    Max,
    Min,
    None,
    Offset,
    One,
    Owner,
    Pieces,
    Points,
    Ray,
    Right,
    Run,
    Step,
    Sum,
    Unplayed,
    Waiting,
    Won,
}

/// A built-in value (a name with a meaning in every expression), as the checker resolved it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Cells,
    Empty,
    Enemy,
    Mover,
    Occupied,
    Opponent,
    Own,
    Repetitions,
}

/// The built-in a call or a name resolved to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Func(Func),
    Value(Value),
}

/// What the checker does beyond matching each argument to its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Each argument is checked against its type.
    Plain,
    /// The first argument is a relation, a direction or a direction value.
    RelationOrDir,
    /// The second argument names an axis of the board.
    Axis,
    /// The first argument names a track.
    Track,
    /// The call reads every shape's stock (so every shape counts as used).
    Stocks,
    /// Allowed where the board is built (a constant there).
    BoardConstant,
    /// The first argument names a per-cell counter.
    Layer,
    /// One integer per axis of the board (`cell`), after a cell when `offset`: the
    /// signature's arguments stand for a two-axis board, the arity is the board's.
    Coordinates,
}

/// One built-in. A value has no arguments; its `result` is its type.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub name: &'static str,
    pub id: Builtin,
    /// Argument types; those after `required` are optional.
    pub args: &'static [Ty],
    pub required: usize,
    pub result: Ty,
    pub rule: Rule,
    /// The signature shown in help and hover (a value's is its name).
    pub signature: &'static str,
    /// One line saying what it gives.
    pub doc: &'static str,
}

impl Spec {
    const fn func(
        name: &'static str,
        id: Func,
        args: &'static [Ty],
        result: Ty,
        signature: &'static str,
        doc: &'static str,
    ) -> Spec {
        Spec {
            name,
            id: Builtin::Func(id),
            args,
            required: args.len(),
            result,
            rule: Rule::Plain,
            signature,
            doc,
        }
    }

    const fn value(name: &'static str, id: Value, ty: Ty, doc: &'static str) -> Spec {
        Spec {
            name,
            id: Builtin::Value(id),
            args: &[],
            required: 0,
            result: ty,
            rule: Rule::Plain,
            signature: name,
            doc,
        }
    }

    /// Only the first `n` arguments are required.
    const fn optional_after(mut self, n: usize) -> Spec {
        self.required = n;
        self
    }

    const fn rule(mut self, rule: Rule) -> Spec {
        self.rule = rule;
        self
    }

    /// The function's id, if this is a function.
    #[must_use]
    pub fn func_id(&self) -> Option<Func> {
        match self.id {
            Builtin::Func(f) => Some(f),
            Builtin::Value(_) => None,
        }
    }

    /// The value's id, if this is a value.
    #[must_use]
    pub fn value_id(&self) -> Option<Value> {
        match self.id {
            Builtin::Value(v) => Some(v),
            Builtin::Func(_) => None,
        }
    }
}

use Ty::{Bool, Cell, Cells, Dir, Int, Pattern, Piece, Player, Relation, Shapes, Text};

/// Every built-in, functions then values, each alphabetically.
#[rustfmt::skip]
pub const TABLE: &[Spec] = &[
    Spec::func("abs", Func::Abs, &[Int], Int,
        "abs(int) -> int",
        "the number without its sign"),
    Spec::func("all", Func::All, &[Relation, Cells], Cells,
        "all(relation, cells) -> cells",
        "the cells all of whose neighbours along the relation are in the set"),
    Spec::func("any", Func::Any, &[Relation, Cells], Cells,
        "any(relation, cells) -> cells",
        "the cells with at least one neighbour along the relation in the set"),
    Spec::func("between", Func::Between, &[Relation, Cell, Cells, Cells], Cells,
        "between(relation, cell, cells, cells) -> cells",
        "the runs of the first set next to the cell that the second set closes"),
    Spec::func("brackets", Func::Brackets, &[Relation, Cells, Cells], Cells,
        "brackets(relation, cells, cells) -> cells",
        "the cells from which `between` finds a closed run"),
    Spec::func("cell", Func::Cell, &[Int, Int], Cells,
        "cell(int, int, ...) -> cells",
        "the cell with these coordinates, one per axis (no cell off the board)")
        .rule(Rule::Coordinates),
    Spec::func("completes", Func::Completes, &[Pattern, Cell, Cells], Bool,
        "completes(pattern, cell, cells) -> bool",
        "whether an instance of the pattern through the cell lies in the set"),
    Spec::func("connected", Func::Connected, &[Relation, Cells, Cells, Cells], Bool,
        "connected(relation, cells, cells, cells) -> bool",
        "whether the first set holds a path from the second set to the third"),
    Spec::func("count", Func::Count, &[Cells], Int,
        "count(cells) -> int",
        "the number of cells in the set"),
    Spec::func("dir", Func::Dir, &[Relation, Int], Dir,
        "dir(relation, int) -> direction",
        "the direction at an index of the relation's list"),
    Spec::func("flip", Func::Flip, &[Dir, Int], Dir,
        "flip(direction, axis) -> direction",
        "the direction with one axis's component negated")
        .rule(Rule::Axis),
    Spec::func("group", Func::Group, &[Relation, Cells, Cells], Cells,
        "group(relation, cells, cells) -> cells",
        "the groups of the second set that the first set touches"),
    Spec::func("index", Func::Index, &[Dir], Int,
        "index(direction) -> int",
        "a direction value's index in its relation's list"),
    Spec::func("left", Func::Left, &[Dir, Int], Dir,
        "left(direction, int) -> direction",
        "the direction some places earlier in the relation's list"),
    Spec::func("letter", Func::Letter, &[Int], Text,
        "letter(int) -> text",
        "the letter for a number, in templates")
        .rule(Rule::BoardConstant),
    Spec::func("max", Func::Max, &[Int, Int], Int,
        "max(int, int) -> int",
        "the larger of two numbers"),
    Spec::func("min", Func::Min, &[Int, Int], Int,
        "min(int, int) -> int",
        "the smaller of two numbers"),
    Spec::func("none", Func::None, &[Relation, Cells], Cells,
        "none(relation, cells) -> cells",
        "the cells none of whose neighbours along the relation are in the set"),
    Spec::func("offset", Func::Offset, &[Cells, Int, Int], Cells,
        "offset(cell, int, int, ...) -> cells",
        "the cell at the cell's coordinates plus one offset per axis (no cell off the board)")
        .rule(Rule::Coordinates),
    Spec::func("one", Func::One, &[Cells], Cells,
        "one(cells) -> cells",
        "the first cell of the set in board order"),
    Spec::func("owner", Func::Owner, &[Cell], Player,
        "owner(cell) -> player",
        "the player owning the piece on the cell"),
    Spec::func("pieces", Func::Pieces, &[Piece, Player], Cells,
        "pieces(piece) -> cells` or `pieces(piece, player) -> cells",
        "the cells holding a piece of the kind")
        .optional_after(1),
    Spec::func("points", Func::Points, &[Player], Int,
        "points(player) -> int",
        "the points of the player's unplayed shapes")
        .rule(Rule::Stocks),
    Spec::func("ray", Func::Ray, &[Relation, Cell], Cells,
        "ray(relation or direction, cell) -> cells",
        "the cells after the cell along each vector, up to the board's edge")
        .rule(Rule::RelationOrDir),
    Spec::func("right", Func::Right, &[Dir, Int], Dir,
        "right(direction, int) -> direction",
        "the direction some places later in the relation's list"),
    Spec::func("run", Func::Run, &[Relation, Cell, Cells], Cells,
        "run(relation or direction, cell, cells) -> cells",
        "the cells after the cell along each vector while they are in the set")
        .rule(Rule::RelationOrDir),
    Spec::func("step", Func::Step, &[Relation, Cells], Cells,
        "step(relation, cells) -> cells",
        "the cells one step along the relation from the set")
        .rule(Rule::RelationOrDir),
    Spec::func("sum", Func::Sum, &[Int, Cells], Int,
        "sum(counter, cells) -> int",
        "a per-cell counter's values added up over the cells of the set")
        .rule(Rule::Layer),
    Spec::func("unplayed", Func::Unplayed, &[Player], Shapes,
        "unplayed(player) -> shapes",
        "the shapes of which the player still has copies")
        .rule(Rule::Stocks),
    Spec::func("waiting", Func::Waiting, &[Int, Player], Int,
        "waiting(track) -> int` or `waiting(track, player) -> int",
        "how many pieces wait on the last fields of the track's lanes")
        .optional_after(1)
        .rule(Rule::Track),
    Spec::func("won", Func::Won, &[Player], Int,
        "won(player) -> int",
        "1 when the game is over and won by the player, else 0"),
    Spec::value("cells", Value::Cells, Cells, "every cell of the board"),
    Spec::value("empty", Value::Empty, Cells, "the cells with no piece"),
    Spec::value("enemy", Value::Enemy, Cells, "the cells with a piece of the opponent"),
    Spec::value("mover", Value::Mover, Player, "the player whose turn it is"),
    Spec::value("occupied", Value::Occupied, Cells, "the cells with a piece"),
    Spec::value("opponent", Value::Opponent, Player, "the other player"),
    Spec::value("own", Value::Own, Cells, "the cells with a piece of the mover"),
    Spec::value("repetitions", Value::Repetitions, Int,
        "how many times the position has stood in this game"),
];

/// The built-in function called `name`.
#[must_use]
pub fn function(name: &str) -> Option<&'static Spec> {
    TABLE
        .iter()
        .find(|s| s.name == name && s.func_id().is_some())
}

/// The built-in value called `name`.
#[must_use]
pub fn value(name: &str) -> Option<&'static Spec> {
    TABLE
        .iter()
        .find(|s| s.name == name && s.value_id().is_some())
}

/// Every built-in function.
pub fn functions() -> impl Iterator<Item = &'static Spec> {
    TABLE.iter().filter(|s| s.func_id().is_some())
}

/// Every built-in value.
pub fn values() -> impl Iterator<Item = &'static Spec> {
    TABLE.iter().filter(|s| s.value_id().is_some())
}

#[cfg(test)]
mod tests {
    use super::{Builtin, TABLE};

    /// Each name and each id appears once.
    #[test]
    fn names_and_ids_are_unique() {
        for (i, a) in TABLE.iter().enumerate() {
            for b in &TABLE[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.id, b.id);
            }
        }
        assert!(TABLE
            .iter()
            .all(|s| s.required <= s.args.len()
                && matches!(s.id, Builtin::Func(_)) != s.args.is_empty()));
    }
}
