//! Every problem the checker reports, one enum per area, each variant with its stable code,
//! message, labels and help right here (the registry of codes is `rulestone_diag::codes`).
//!
//! Message style is rustc's: lowercase, no trailing period, identifiers in backticks; the
//! primary label says what is wrong at that spot, `help` says how to fix it, and secondary
//! labels point at related places ("first defined here").

use std::fmt;

use miette::{Diagnostic, LabeledSpan, Severity, SourceCode};
use thiserror::Error;

use rulestone_diag::Diag;
use rulestone_syntax::Span;

/// Names: unknown, duplicated, unbound, of the wrong kind, or defined in terms of themselves.
#[derive(Debug, Error, Diagnostic)]
pub enum ResolveError {
    #[error("unknown name `{name}`")]
    #[diagnostic(code(E0101))]
    UnknownName {
        name: String,
        #[label("not declared")]
        span: Span,
        #[help]
        help: Option<String>,
    },

    #[error("no axis `{name}` on this board")]
    #[diagnostic(code(E0101))]
    UnknownAxis {
        name: String,
        #[label("not an axis")]
        span: Span,
        #[help]
        help: Option<String>,
    },

    #[error("unknown function `{name}`")]
    #[diagnostic(code(E0101))]
    UnknownFunction {
        name: String,
        #[label("not a built-in function")]
        span: Span,
        #[help]
        help: Option<String>,
    },

    #[error("`{name}` is defined more than once")]
    #[diagnostic(
        code(E0102),
        help("every declared name, option word, player, axis and variable must be unique")
    )]
    Duplicate {
        name: String,
        #[label(primary, "defined again here")]
        span: Span,
        #[label("first defined here")]
        first: Span,
    },

    #[error("`{name}` is a built-in name")]
    #[diagnostic(code(E0102), help("choose another name"))]
    Builtin {
        name: String,
        #[label("cannot be redefined")]
        span: Span,
    },

    #[error("`{name}` is already the name of a cell")]
    #[diagnostic(code(E0102), help("choose a name that is not a cell name"))]
    CellName {
        name: String,
        #[label("a cell of the board has this name")]
        span: Span,
    },

    #[error("variable `{name}` is used before it is picked")]
    #[diagnostic(code(E0103), help("move the `pick` of `{name}` before this use"))]
    UsedBeforePick {
        name: String,
        #[label(primary, "not bound yet")]
        span: Span,
        #[label("picked only here")]
        pick: Span,
    },

    #[error("variable `{name}` may be unbound here")]
    #[diagnostic(
        code(E0103),
        help(
            "pick `{name}` in every branch (of `either`, `first`, or `if` with `else`); \
             variables picked inside an `if` without `else` or a `repeat` are not visible after them"
        )
    )]
    MaybeUnbound {
        name: String,
        #[label(primary, "not bound on every path to here")]
        span: Span,
        #[label("bound here on some paths only")]
        pick: Span,
    },

    #[error("axis `{name}` is used before its range")]
    #[diagnostic(
        code(E0103),
        help("a cell range may use only the axes listed before it")
    )]
    AxisBeforeRange {
        name: String,
        #[label(primary, "its range comes later")]
        span: Span,
        #[label("the range of `{name}`")]
        range: Span,
    },

    #[error("expected {expected}, found {found}")]
    #[diagnostic(code(E0104))]
    WrongKind {
        expected: String,
        found: String,
        #[label("not {expected}")]
        span: Span,
        #[help]
        help: Option<String>,
    },

    #[error("`{name}` is defined in terms of itself")]
    #[diagnostic(
        code(E0105),
        help(
            "a definition, zone, relation or procedure may not refer back to itself, directly or indirectly"
        )
    )]
    Cycle {
        name: String,
        #[label(primary, "refers back to `{name}` here")]
        span: Span,
        #[label("`{name}` is defined here")]
        decl: Span,
    },
}

/// Types: mismatches, arities, vector lengths and counter indexing.
#[derive(Debug, Error, Diagnostic)]
pub enum TypeError {
    #[error("mismatched types")]
    #[diagnostic(code(E0201))]
    Mismatch {
        expected: String,
        found: String,
        #[label("expected {expected}, found {found}")]
        span: Span,
        #[help]
        help: Option<String>,
    },

    #[error("`{op}` cannot compare {found}")]
    #[diagnostic(
        code(E0201),
        help("`==` and `!=` compare integers, players, option words and cells")
    )]
    NotComparable {
        op: &'static str,
        found: String,
        #[label("this is {found}")]
        span: Span,
    },

    #[error("a template cannot show {found}")]
    #[diagnostic(
        code(E0201),
        help(
            "a `{{...}}` hole may hold a number, a cell, a player, an option word or `letter(...)`"
        )
    )]
    NotWritable {
        found: String,
        #[label("this is {found}")]
        span: Span,
    },

    #[error("an `if` expression gives a number, but this branch is {found}")]
    #[diagnostic(
        code(E0205),
        help("both branches of `if ... then ... else ...` must be integers")
    )]
    IfNotNumber {
        found: String,
        #[label("this is {found}")]
        span: Span,
    },

    #[error("`{func}` takes {expected} but {supplied} supplied")]
    #[diagnostic(code(E0202), help("the signature is `{signature}`"))]
    Arity {
        func: String,
        expected: String,
        supplied: String,
        signature: &'static str,
        #[label("expected {expected}")]
        span: Span,
    },

    #[error("this part of `{define}` is {now} here but {before} at an earlier use")]
    #[diagnostic(
        code(E0201),
        help("a define's body is one expression for all its uses: give its parameters arguments of the same types, or write two defines")
    )]
    DefineBodyTypes {
        define: String,
        before: String,
        now: String,
        #[label("{now} here")]
        span: Span,
    },

    #[error("`{name}` takes {expected} but {supplied} supplied")]
    #[diagnostic(code(E0202), help("{help}"))]
    DefineArity {
        name: String,
        expected: String,
        supplied: String,
        help: String,
        #[label("expected {expected}")]
        span: Span,
    },

    #[error("vector has {found} but the board has {axes} {}", if *.axes == 1 { "axis" } else { "axes" })]
    #[diagnostic(
        code(E0203),
        help("write one component per axis, in the order `{axis_list}`")
    )]
    VectorLength {
        /// "1 component", "3 components".
        found: String,
        axes: usize,
        /// One component per axis: "1 component", "3 components".
        expected: String,
        axis_list: String,
        #[label("expected {expected}")]
        span: Span,
    },

    #[error("per-player counter `{name}` needs a player index")]
    #[diagnostic(
        code(E0204),
        help("write `{name}[mover]`, `{name}[opponent]` or another player")
    )]
    NeedsIndex {
        name: String,
        #[label("missing `[player]`")]
        span: Span,
    },

    #[error("per-cell counter `{name}` needs a cell here")]
    #[diagnostic(
        code(E0204),
        help("write `{name}[c]` for a cell `c`, or the bare name on the right of `where`, where it means the candidate cell's value")
    )]
    LayerNeedsCell {
        name: String,
        #[label("missing `[cell]`")]
        span: Span,
    },

    #[error("{what} has no field `{field}`")]
    #[diagnostic(
        code(E0201),
        help("a placed shape `s` has `s.anchor` (a cell), `s.cells` (the cells it covers) and `s.facing` (the turn, as text)")
    )]
    NoSuchField {
        what: String,
        field: String,
        #[label("unknown field")]
        span: Span,
    },

    #[error("{what} cannot be indexed")]
    #[diagnostic(
        code(E0204),
        help("only counters declared `per player` take `[player]`")
    )]
    NotIndexable {
        what: String,
        #[label("not a per-player counter")]
        span: Span,
    },
}

/// Shapes and their placement.
#[derive(Debug, Error, Diagnostic)]
pub enum ShapeError {
    #[error("the span `{bottom}..{top}` of shape `{shape}` is empty")]
    #[diagnostic(
        code(E0701),
        help("a span gives the heights of a cell's bottom and top faces above the shape's base, e.g. `0..1` for one unit tall; the top must be above the bottom, and the bottom at least 0")
    )]
    EmptySpan {
        shape: String,
        bottom: i64,
        top: i64,
        #[label("bottom face not below the top face")]
        span: Span,
    },

    #[error("cell `{cell}` is listed twice in shape `{shape}`")]
    #[diagnostic(code(E0702), help("give each cell of the shape one span"))]
    RepeatedCell {
        shape: String,
        cell: String,
        #[label(primary, "listed again here")]
        span: Span,
        #[label("first listed here")]
        first: Span,
    },

    #[error("foot `{cell}` is not a cell of shape `{shape}`")]
    #[diagnostic(
        code(E0703),
        help("feet are some of the shape's own cells: those that must rest on something")
    )]
    FootOutside {
        shape: String,
        cell: String,
        #[label("not one of the shape's cells")]
        span: Span,
    },

    #[error("`place` turns shapes on a flat board, but this board has {axes} {}", if *.axes == 1 { "axis" } else { "axes" })]
    #[diagnostic(
        code(E0704),
        help(
            "`place` needs a board with two axes (x, y); its heights come from a per-cell counter"
        )
    )]
    NotPlanar {
        axes: usize,
        #[label("turns need two axes")]
        span: Span,
    },
}

/// Option declarations.
#[derive(Debug, Error, Diagnostic)]
pub enum OptionDeclError {
    #[error("default `{value}` of option `{name}` is not one of its values")]
    #[diagnostic(code(E0301))]
    BadDefault {
        name: String,
        value: String,
        #[label("not {accepted}")]
        span: Span,
        accepted: String,
        #[help]
        help: Option<String>,
    },

    #[error("option range `{lo}..{hi}` is empty")]
    #[diagnostic(code(E0302), help("write the smaller bound first: `{hi}..{lo}`"))]
    EmptyRange {
        lo: String,
        hi: String,
        #[label("the lower bound is above the upper bound")]
        span: Span,
    },

    #[error("option `{name}` lists `{word}` twice")]
    #[diagnostic(code(E0302), help("remove the repeated word"))]
    DuplicateWord {
        name: String,
        word: String,
        #[label(primary, "listed again here")]
        span: Span,
        #[label("first listed here")]
        first: Span,
    },

    #[error("preset `{preset}` sets `{name}` twice")]
    #[diagnostic(code(E0302), help("keep one value for each option in a preset"))]
    PresetSetsTwice {
        preset: String,
        name: String,
        #[label(primary, "set again here")]
        span: Span,
        #[label("first set here")]
        first: Span,
    },

    #[error("preset `{preset}` sets `{name}`, which is not an option")]
    #[diagnostic(code(E0303))]
    PresetUnknownOption {
        preset: String,
        name: String,
        #[label("no option of this name")]
        span: Span,
        #[help]
        help: String,
    },

    #[error("preset `{preset}` gives option `{name}` the value `{value}`, not {accepted}")]
    #[diagnostic(code(E0304), help("give a value the option's declaration allows"))]
    PresetBadValue {
        preset: String,
        name: String,
        value: String,
        accepted: String,
        #[label("outside the option's type")]
        span: Span,
        #[label("declared here")]
        declared: Span,
    },

    #[error("the enumerated options make {count} combinations, more than {limit}")]
    #[diagnostic(
        code(E1011),
        help(
            "`compile` builds one program for each combination of words, and `check` lowers \
             the game for each word: drop words or options, or make a numeric choice a range \
             (`option size: 5..19 = 9`)"
        )
    )]
    TooManyCombinations {
        /// The product of the options' word counts, or `more than …` past `u64`.
        count: String,
        limit: usize,
        #[label("this option brings the count past {limit}")]
        span: Span,
    },

    #[error("the game declares {count} presets, more than {limit}")]
    #[diagnostic(
        code(E1011),
        help("`compile` builds one program for each preset: keep the presets players choose, and set other values with `--set`")
    )]
    TooManyPresets {
        count: usize,
        limit: usize,
        #[label("one preset past the limit")]
        span: Span,
    },
}

/// The board, its cells, zones and geometry.
#[derive(Debug, Error, Diagnostic)]
pub enum BoardError {
    #[error("the board has no cells with the default options")]
    #[diagnostic(code(E0401), help("check the cell ranges and the `if` filter"))]
    NoCells {
        #[label("this board is empty")]
        span: Span,
    },

    #[error("two cells are named `{name}`")]
    #[diagnostic(
        code(E0402),
        help("use every axis in the name template, e.g. `name \"{{letter(x)}}{{y + 1}}\"`")
    )]
    DuplicateCellName {
        name: String,
        #[label("gives the same name to two cells")]
        span: Span,
    },

    #[error("the board has {found} cells; at most {max} are allowed")]
    #[diagnostic(code(E0403), help("shrink the ranges or filter cells with `if`"))]
    TooManyCells {
        found: usize,
        max: usize,
        #[label("these ranges make too many cells")]
        span: Span,
    },

    #[error("the cell ranges span more than {max} coordinates")]
    #[diagnostic(
        code(E0403),
        help("a board has at most 1024 cells; make the ranges smaller instead of filtering most coordinates out with `if`")
    )]
    TooManyCoordinates {
        max: u64,
        #[label("too many coordinates to enumerate")]
        span: Span,
    },

    #[error("{what} must be constant")]
    #[diagnostic(code(E0404))]
    NotConstant {
        what: String,
        reason: String,
        #[label("{reason}")]
        span: Span,
        #[help]
        help: Option<String>,
    },

    #[error("zone `{name}` is empty with the default options")]
    #[diagnostic(
        code(W0405),
        severity(Warning),
        help("check the zone's cells and conditions against the board: while it is empty, a goal or any rule that needs one of its cells can never hold, so such a win never happens")
    )]
    EmptyZone {
        name: String,
        #[label("contains no cells")]
        span: Span,
    },

    #[error("{what} links no two cells of the board")]
    #[diagnostic(
        code(W0406),
        severity(Warning),
        help(
            "no cell has a neighbour this way; check the components against the axes `{axis_list}`"
        )
    )]
    NoLinks {
        what: String,
        axis_list: String,
        #[label("a direction the board's topology lacks")]
        span: Span,
    },

    #[error("cell range for `{found}` where axis `{expected}` is expected")]
    #[diagnostic(code(E0407), help("give one range per axis, in the order of `axes`"))]
    RangeAxis {
        expected: String,
        found: String,
        #[label("expected a range for `{expected}`")]
        span: Span,
    },

    #[error("axis `{name}` has no cell range")]
    #[diagnostic(code(E0407), help("add `{name} in LO..HI` to `cells`"))]
    MissingRange {
        name: String,
        #[label("declared here")]
        span: Span,
    },

    #[error("cell range for `{name}`, which is not an axis")]
    #[diagnostic(code(E0407), help("declare the axis in `axes`, or remove the range"))]
    ExtraRange {
        name: String,
        #[label("no axis left for this range")]
        span: Span,
    },

    #[error("the board cannot be built with the default options")]
    #[diagnostic(code(E0408), help("{help}"))]
    Evaluation {
        reason: String,
        help: String,
        #[label("{reason}")]
        span: Span,
    },

    #[error("zone `{name}` cannot be computed with the default options")]
    #[diagnostic(
        code(E0408),
        help("make sure the condition has a value for every cell")
    )]
    ZoneEvaluation {
        name: String,
        reason: String,
        #[label("{reason}")]
        span: Span,
    },

    #[error("zone `{name}` is computed through zones and defines more than {limit} levels deep")]
    #[diagnostic(
        code(E0005),
        help("a zone that names another zone is computed through it, at most {limit} levels deep; chain fewer zones, or write the zone as one expression, e.g. `zone z = a | b | c`")
    )]
    ZonesTooDeep {
        name: String,
        limit: usize,
        #[label("past the limit here")]
        span: Span,
    },

    #[error("cell `{name}` is on two lanes of track `{track}`")]
    #[diagnostic(
        code(E0410),
        help("a track counts the pieces waiting on each field, so each field belongs to one lane of one player")
    )]
    TrackCellTwice {
        name: String,
        track: String,
        #[label(primary, "on a lane again here")]
        span: Span,
        #[label("first here")]
        first: Span,
    },

    #[error("pattern `{name}` fits nowhere on the board")]
    #[diagnostic(
        code(W0409),
        severity(Warning),
        help("no cell is the anchor of a whole instance of this shape; check its vectors")
    )]
    PatternFitsNowhere {
        name: String,
        #[label("no instance on the board")]
        span: Span,
    },
}

/// The game as a whole: players, required declarations, ending, statement structure.
#[derive(Debug, Error, Diagnostic)]
pub enum GameError {
    #[error("{what} may not hold `{sep}`")]
    #[diagnostic(
        code(E0420),
        help("`{sep}` separates the moves of a list (`--after \"a1; b2\"`, `draw --moves`), so a move written with it could never be typed there; use another character, such as `-`, `:` or `/`")
    )]
    SeparatorInNotation {
        what: &'static str,
        sep: char,
        #[label("this text holds `{sep}`")]
        span: Span,
    },

    #[error("{what} may not hold the control character `{shown}`")]
    #[diagnostic(
        code(E0420),
        help("a move is typed on one line and saved one move a line, so a line break, tab or other control character in its text could not be typed or would break the record; use printable characters")
    )]
    ControlInNotation {
        what: &'static str,
        shown: String,
        #[label("this text holds `{shown}`")]
        span: Span,
    },

    #[error("the game declares no players")]
    #[diagnostic(
        code(E0501),
        help("add `players White, Black`, naming the player who starts first")
    )]
    NoPlayers,

    #[error("a game has exactly 2 players, but {count} {verb} declared", verb = if *.count == 1 { "is" } else { "are" })]
    #[diagnostic(code(E0501), help("name two players, the one who starts first"))]
    PlayerCount {
        count: usize,
        #[label("expected 2 players")]
        span: Span,
    },

    #[error("the game has no `{what}` declaration")]
    #[diagnostic(code(E0502), help("add `{example}`"))]
    Missing {
        what: &'static str,
        /// A declaration to start from, using the game's own names where it has some.
        example: String,
    },

    #[error("`{what}` is declared more than once")]
    #[diagnostic(code(E0502), help("merge the declarations into one"))]
    Twice {
        what: &'static str,
        #[label(primary, "declared again here")]
        span: Span,
        #[label("first declared here")]
        first: Span,
    },

    #[error("`heuristic` is declared more than once")]
    #[diagnostic(
        code(E0502),
        help("a game has one heuristic: add the terms into one expression, e.g. `heuristic p = 3 * stock[p] + count(pieces(stone, p))`")
    )]
    HeuristicTwice {
        #[label(primary, "declared again here")]
        span: Span,
        #[label("first declared here")]
        first: Span,
    },

    #[error("the heuristic gives both players the same value")]
    #[diagnostic(
        code(W0507),
        severity(Warning),
        help("a search compares the mover's value with the opponent's, so an expression without `{player}` never prefers one move to another; say what belongs to `{player}`: `pieces(stone, {player})` for `own`, `stock[{player}]` for `stock[mover]`")
    )]
    HeuristicIgnoresPlayer {
        player: String,
        #[label(primary, "does not depend on `{player}`")]
        span: Span,
        #[label("the player")]
        var: Span,
    },

    #[error("`owner` of a cell the turn has just emptied")]
    #[diagnostic(
        code(W0508),
        severity(Warning),
        help("the owner of an empty cell is no player: comparisons with it are false, its counters read 0, and an action for it (`counter[owner(c)] += 1`, `put P of owner(c) at ...`, `win owner(c)`) fails the turn as a failed `require` does; use the owner before emptying the cell: `stock[owner(c)] += 1` then `remove c`")
    )]
    OwnerOfEmptied {
        #[label(primary, "this cell is empty here")]
        span: Span,
        #[label("emptied here")]
        emptied: Span,
    },

    #[error("`{define}` nests deeper than {limit} levels once its defines are expanded")]
    #[diagnostic(
        code(E0005),
        help("a define is checked, compiled and run where it is used, as if its body were written there, so defines used inside defines add up; shorten the chain of defines or the expressions in it")
    )]
    DefinesTooDeep {
        limit: usize,
        define: String,
        #[label("expanding this use reaches level {limit}")]
        span: Span,
    },

    #[error("the calls of procedures write out more than {limit} statements")]
    #[diagnostic(
        code(E0007),
        help("each call of a procedure stands for its whole body, so calls inside procedures multiply; call fewer procedures from inside others")
    )]
    ProceduresTooLarge {
        limit: usize,
        #[label("writing out this call passes the limit")]
        span: Span,
    },

    #[error("`{name}` binds the name `{var}`, but a procedure binds no names")]
    #[diagnostic(
        code(E0509),
        help("a procedure is written out where it is called, so a name it bound would meet the caller's names; pick or `let` in the caller and pass the value as an argument")
    )]
    ProcedureBinds {
        name: String,
        var: String,
        #[label("bound here")]
        span: Span,
    },

    #[error("the uses of defines expand to more than {limit} expression parts, first reached in `{define}`")]
    #[diagnostic(
        code(E0007),
        help("each use of a define stands for its whole body, and a parameter used twice copies its argument twice; use fewer nested calls, or a define with one use of each parameter")
    )]
    DefinesTooLarge {
        limit: usize,
        define: String,
        #[label("expanding this use passes the limit")]
        span: Span,
    },

    #[error("the game can never end")]
    #[diagnostic(
        code(E0503),
        help("end the game with `win`, `lose` or `draw`, e.g. `on no moves {{ lose mover }}`")
    )]
    NeverEnds {
        #[label("no `win`, `lose` or `draw` anywhere in the rules")]
        span: Span,
    },

    #[error("unreachable statement")]
    #[diagnostic(
        code(W0504),
        severity(Warning),
        help("remove it, or move it before the statement that ends the game")
    )]
    Unreachable {
        #[label(primary, "unreachable")]
        span: Span,
        #[label("the game ends here")]
        end: Span,
    },

    #[error("`repeat {min}..{max}` never runs its body")]
    #[diagnostic(code(E0505), help("the upper bound is the most times the body runs; make it at least 1, e.g. `repeat 0..1`"))]
    RepeatNever {
        min: u32,
        max: u32,
        #[label("the upper bound is 0")]
        span: Span,
    },

    #[error("roll range `{lo}..{hi}` has no values")]
    #[diagnostic(
        code(E0801),
        help("a roll takes a value from `lo` to `hi`, both included, at most 256 values: e.g. `roll d in 1..6`")
    )]
    RollRange {
        lo: i64,
        hi: i64,
        #[label("{why}")]
        span: Span,
        why: &'static str,
    },

    #[error("`{op}` cannot change the variable `{name}`")]
    #[diagnostic(
        code(E0802),
        help("a variable holds a cell, a direction or a set of cells, not a number: give it a new value with `{name} = ...`, or keep numbers in a `counter`")
    )]
    VariableArithmetic {
        name: String,
        op: &'static str,
        #[label("`{name}` is a variable")]
        span: Span,
    },

    #[error("repeat range `{min}..{max}` is empty")]
    #[diagnostic(
        code(E0505),
        help("write the smaller bound first: `repeat {max}..{min}`")
    )]
    RepeatEmpty {
        min: u32,
        max: u32,
        #[label("the lower bound is above the upper bound")]
        span: Span,
    },
}

/// Statements of `setup` and `on no moves`, which run once and choose nothing.
#[derive(Debug, Error, Diagnostic)]
pub enum OnceError {
    #[error("`{what}` makes a choice, but `{program}` has no choices")]
    #[diagnostic(
        code(E0506),
        help("`setup` and `on no moves` run once, straight through: name cells directly, e.g. `put stone of White at a1`")
    )]
    Choice {
        what: &'static str,
        program: &'static str,
        #[label("a choice point outside `turn`")]
        span: Span,
    },

    #[error("`require` has no effect in `{program}`")]
    #[diagnostic(
        code(E0506),
        help("`require` rejects moves, and `{program}` makes none; use `if` to run statements conditionally")
    )]
    Require {
        program: &'static str,
        #[label("nothing to reject here")]
        span: Span,
    },
}

/// Reading the game's history (`repetitions`) where no move is being made, or where a move
/// may not pass the turn.
#[derive(Debug, Error, Diagnostic)]
pub enum HistoryError {
    #[error("`repetitions` is read outside `turn`")]
    #[diagnostic(
        code(E0520),
        help("`repetitions` counts the positions a move makes; read it in `turn`, e.g. `if repetitions >= 3 {{ draw }}` at the end of the turn")
    )]
    OutsideTurn {
        #[label("no move is being made here")]
        span: Span,
    },

    #[error("`repetitions` is read in a turn that may keep the mover with `again`")]
    #[diagnostic(
        code(E0521),
        help("`repetitions` counts positions with the opponent to move; a game whose moves keep the turn cannot read it")
    )]
    WithAgain {
        #[label("the position this counts has the opponent to move")]
        span: Span,
        #[label("this move keeps the mover")]
        again: Span,
    },

    #[error("`repetitions ignore` in a game that never reads `repetitions`")]
    #[diagnostic(
        code(W0522),
        severity(Warning),
        help("it only changes what `repetitions` compares; read `repetitions` in `turn` (e.g. `if repetitions >= 3 {{ draw }}`) or remove the declaration")
    )]
    IgnoredUnread {
        #[label("changes nothing here")]
        span: Span,
    },
}

/// Lints: legal but probably mistaken.
#[derive(Debug, Error, Diagnostic)]
pub enum Lint {
    #[error("{kind} `{name}` is never used")]
    #[diagnostic(
        code(W0601),
        severity(Warning),
        help("remove the declaration, or use it in the rules")
    )]
    Unused {
        kind: &'static str,
        name: String,
        #[label("declared here")]
        span: Span,
    },

    #[error("the turn never writes its move's notation")]
    #[diagnostic(
        code(W0602),
        severity(Warning),
        help("a move's text is what its turn writes, so every move here reads as the same empty text and none can be typed in `play`, `--after` or a record; write each choice the player makes, e.g. `write \"{{c}}\"` after `pick c in empty`")
    )]
    SilentTurn {
        #[label("no `write` in this turn")]
        span: Span,
    },

    #[error("`{left}` and `{right}` share no cell: this set is empty in every position")]
    #[diagnostic(
        code(W0606),
        severity(Warning),
        help("`&` keeps the cells in both sets; to take the cells in either, write `|`")
    )]
    DisjointSets {
        left: String,
        right: String,
        #[label("always empty")]
        span: Span,
    },

    #[error("this condition is tested on every cell of the set, each time it is reached")]
    #[diagnostic(
        code(W0608),
        severity(Advice),
        help("it reads the candidate through {axes} together and otherwise only coordinates of known cells, so the cells it keeps are a fixed shape around them: declare the shape once as a `relation` (`step(R, {{c}})`, `ray(R, c)`) or a `map` (`m(c)`), or write one comparison per coordinate (`x == c.x + 1 and y == c.y`); these are looked up, not tested cell by cell (reference §4.8)")
    )]
    CouldBeLookup {
        axes: String,
        #[label("reads {axes} at once: no lookup answers this")]
        span: Span,
    },
}

/// A problem found inside a `define` body while checking one of its uses: the inner problem,
/// plus a label at the use (a define is expanded where it is used, so its meaning there matters).
pub struct InDefine {
    pub inner: Diag,
    pub define: String,
    pub use_span: Span,
}

impl fmt::Debug for InDefine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InDefine")
            .field("inner", &self.inner)
            .field("define", &self.define)
            .field("use_span", &self.use_span)
            .finish()
    }
}

impl fmt::Display for InDefine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}

impl std::error::Error for InDefine {}

impl Diagnostic for InDefine {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.code()
    }

    fn severity(&self) -> Option<Severity> {
        self.inner.severity()
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.help()
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.inner.source_code()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let mut labels: Vec<LabeledSpan> = self
            .inner
            .labels()
            .map(Iterator::collect)
            .unwrap_or_default();
        // The inner problem's main label stays the one the header points at.
        if !labels.iter().any(LabeledSpan::primary) {
            if let Some(first) = labels.first_mut() {
                *first = LabeledSpan::new_primary_with_span(
                    first.label().map(str::to_string),
                    *first.inner(),
                );
            }
        }
        labels.push(LabeledSpan::new_with_span(
            Some(format!("in this use of `{}`", self.define)),
            self.use_span,
        ));
        Some(Box::new(labels.into_iter()))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        self.inner.related()
    }
}

/// A limit the board breaks for one choice of option values (see [`super::configure`]); `check`
/// reports these for the defaults, for each option's extreme values and for `--set`.
#[derive(Clone, Debug, PartialEq, Eq, Error, Diagnostic)]
pub enum ConfigureError {
    #[error("the board has no cells")]
    #[diagnostic(
        code(E0401),
        help("the ranges or the `if` filter leave no cell for these option values")
    )]
    NoCells {
        #[label("no cell for these option values")]
        span: Span,
    },

    #[error("two cells are named `{name}`")]
    #[diagnostic(
        code(E0402),
        help("make the `name` template tell every cell apart for all option values")
    )]
    DuplicateCellName {
        name: String,
        #[label("names two cells alike")]
        span: Span,
    },

    #[error("the board has no cell `{name}`")]
    #[diagnostic(
        code(E0411),
        help("the cell exists for the default options only; narrow the option's range, or name a cell every board has")
    )]
    MissingCell {
        name: String,
        #[label("no such cell for these option values")]
        span: Span,
    },

    #[error("map `{map}` sends both `{first}` and `{second}` to `{target}`")]
    #[diagnostic(
        code(E0419),
        help("a map moves every piece at once, so it must send different cells to different cells; change its coordinates so that no two cells share an image")
    )]
    MapNotOneToOne {
        map: String,
        first: String,
        second: String,
        target: String,
        #[label("not one-to-one for these option values")]
        span: Span,
    },

    #[error("the board has {found} cells; at most {max} are allowed")]
    #[diagnostic(
        code(E0403),
        help("narrow the option's range so that the board stays within {max} cells")
    )]
    TooManyCells {
        found: usize,
        max: usize,
        #[label("these ranges make too many cells")]
        span: Span,
    },

    #[error("{what} cannot be computed: {reason}")]
    #[diagnostic(
        code(E0408),
        help("make sure no option value divides by 0 or leaves the range of values")
    )]
    NotComputable {
        what: String,
        reason: &'static str,
        #[label("cannot be computed for these option values")]
        span: Span,
    },
}
