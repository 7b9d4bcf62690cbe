//! The syntax tree of a `.game` file, exactly as written: names are unresolved strings and every
//! node keeps its span for diagnostics.

pub use super::span::{Ident, Span};
pub use rulestone_base::decimal::{decimal_text, number_text, parse_hundredths, DECIMAL_SCALE};

#[derive(Clone, Debug)]
pub struct File {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub struct Item {
    pub kind: ItemKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ItemKind {
    Game {
        name: String,
        name_span: Span,
    },
    Players(Vec<Ident>),
    Option(OptionDecl),
    /// `preset NAME: OPTION = VALUE, ...`: a named set of option values.
    Preset {
        name: Ident,
        sets: Vec<PresetSet>,
    },
    Board(Board),
    Direction {
        name: Ident,
        vector: Vector,
    },
    Relation {
        name: Ident,
        members: Vec<RelItem>,
        /// `players[i]`: the player member `i` belongs to (`for P`), or `None` for all.
        players: Vec<Option<Ident>>,
    },
    /// `map m = (x2, y2)`: each cell's image, at the coordinates computed from its own.
    Map {
        name: Ident,
        coords: Vec<Expr>,
    },
    Pattern {
        name: Ident,
        shape: PatternShape,
    },
    Zone {
        name: Ident,
        cells: Expr,
    },
    Piece {
        name: Ident,
        symbols: Vec<(String, Span)>,
    },
    Counter {
        name: Ident,
        per_player: bool,
        /// `per cell`: a layer, one value per cell.
        per_cell: bool,
        init: Expr,
        view: CounterView,
    },
    /// `token ball at d5 [carried]`: a marker on one cell, apart from the pieces.
    Token {
        name: Ident,
        start: Expr,
        /// `carried`: `move` takes it along with the piece on its cell.
        carried: bool,
    },
    /// `track T { P: c1 -> c2, ... }`: lanes along which pieces out of play wait.
    Track {
        name: Ident,
        lanes: Vec<TrackLane>,
    },
    /// `status "text {e}" when cond`: a line under the board drawing.
    Status {
        text: Template,
        when: Option<Expr>,
    },
    Shape(ShapeDecl),
    /// `marker "o" on CELLS [legend "TEXT"]`: drawn on those cells, explained under the board.
    Marker {
        symbol: (String, Span),
        cells: Expr,
        legend: Option<(String, Span)>,
    },
    /// `score p = expr`: each player's score at the end of a game.
    Score {
        player: Ident,
        expr: Expr,
    },
    /// `heuristic p = expr`: how promising a position looks for each player.
    Heuristic {
        player: Ident,
        expr: Expr,
    },
    /// `repetitions ignore a, b`: what `repetitions` leaves out when it compares positions
    /// (counters, or `mover` for the player to move).
    RepetitionsIgnore(Vec<Ident>),
    /// `define name(params) = expr`: a macro, expanded at each use (no parameters: `define
    /// name = expr`, used as `name`).
    Define {
        name: Ident,
        params: Vec<Ident>,
        expr: Expr,
    },
    /// `procedure name(params) { ... }`: a named statement block, written out in full at each
    /// call (`name(args)` as a statement), each parameter replaced by its argument.
    Procedure {
        name: Ident,
        params: Vec<Ident>,
        body: Block,
    },
    Setup(Block),
    Turn(Block),
    NoMoves(Block),
    /// A declaration of a table game (discs on a continuous table; see [`TableItem`]).
    Table(TableItem),
}

impl ItemKind {
    /// The name this item declares, if any.
    #[must_use]
    pub fn declared_name(&self) -> Option<&Ident> {
        match self {
            ItemKind::Option(o) => Some(&o.name),
            ItemKind::Direction { name, .. }
            | ItemKind::Relation { name, .. }
            | ItemKind::Map { name, .. }
            | ItemKind::Pattern { name, .. }
            | ItemKind::Zone { name, .. }
            | ItemKind::Piece { name, .. }
            | ItemKind::Counter { name, .. }
            | ItemKind::Token { name, .. }
            | ItemKind::Track { name, .. }
            | ItemKind::Shape(ShapeDecl { name, .. })
            | ItemKind::Define { name, .. }
            | ItemKind::Procedure { name, .. } => Some(name),
            _ => None,
        }
    }
}

/// One lane of a track: its player and its cells, entry first.
#[derive(Clone, Debug)]
pub struct TrackLane {
    pub player: Ident,
    pub cells: Vec<Ident>,
}

/// How the board drawing shows a counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CounterView {
    Plain,
    /// `hidden`: not shown.
    Hidden,
    /// `shown as R`: as the name of a direction of relation `R`.
    Directions(Ident),
}

/// A piece made of cells, each with a solid span; see `shape` in the language reference.
#[derive(Clone, Debug)]
pub struct ShapeDecl {
    pub name: Ident,
    pub count: Option<Expr>,
    pub points: Option<Expr>,
    /// `flip "!"`: the shape may be placed upside down, spelled with this mark after its name.
    pub flip: Option<(String, Span)>,
    pub parts: Vec<ShapePart>,
    /// The cells that must rest on something; `None`: every cell.
    pub feet: Option<Vec<Vector>>,
}

/// Cells of a shape sharing one span `bottom..top` (heights of the faces above the base).
#[derive(Clone, Debug)]
pub struct ShapePart {
    pub cells: Vec<Vector>,
    pub bottom: i64,
    pub top: i64,
    /// The span's text `b..t`.
    pub span_span: Span,
}

#[derive(Clone, Debug)]
pub struct OptionDecl {
    pub name: Ident,
    pub ty: OptionType,
    pub default: OptionValue,
}

impl OptionDecl {
    /// Whether the option's values are decimal numbers (in hundredths).
    #[must_use]
    pub fn is_decimal(&self) -> bool {
        matches!(self.ty, OptionType::Range { decimal: true, .. })
    }
}

/// One `OPTION = VALUE` of a preset: the value as written, read as `--set` reads it.
#[derive(Clone, Debug)]
pub struct PresetSet {
    pub option: Ident,
    pub value: String,
    /// The value's span.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum OptionType {
    Enum(Vec<Ident>),
    /// An inclusive range. With `decimal`, the bounds and the option's values are in
    /// hundredths ([`DECIMAL_SCALE`]).
    Range {
        lo: i64,
        hi: i64,
        span: Span,
        decimal: bool,
    },
}

/// A vector as written: `(1, -1)`.
#[must_use]
pub fn vector_text(components: &[i64]) -> String {
    let parts: Vec<String> = components.iter().map(i64::to_string).collect();
    format!("({})", parts.join(", "))
}

#[derive(Clone, Debug)]
pub enum OptionValue {
    Int(i64, Span),
    Word(Ident),
}

impl OptionValue {
    #[must_use]
    pub fn span(&self) -> Span {
        match self {
            OptionValue::Int(_, s) => *s,
            OptionValue::Word(w) => w.span,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Board {
    pub axes: Vec<Ident>,
    pub ranges: Vec<AxisRange>,
    pub filter: Option<Expr>,
    pub name: Template,
}

#[derive(Clone, Debug)]
pub struct AxisRange {
    pub axis: Ident,
    pub lo: Expr,
    pub hi: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Vector {
    pub components: Vec<i64>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum RelItem {
    Vector(Vector),
    Name(Ident),
}

impl RelItem {
    #[must_use]
    pub fn span(&self) -> Span {
        match self {
            RelItem::Vector(v) => v.span,
            RelItem::Name(n) => n.span,
        }
    }
}

#[derive(Clone, Debug)]
pub enum PatternShape {
    /// The whole line through a cell along a direction and its opposite.
    Line(RelItem),
    /// Vectors from the shape's anchor.
    Shape(Vec<Vector>),
}

#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

impl Block {
    /// Calls `f` on every statement of the block in source order, at any depth of `if`,
    /// `either`, `first`, `repeat`, `distinct` and `while` (the statements that hold blocks
    /// included, before the statements inside them).
    pub fn for_each_stmt<'b>(&'b self, f: &mut dyn FnMut(&'b Stmt)) {
        for stmt in &self.stmts {
            f(stmt);
            match &stmt.kind {
                StmtKind::If {
                    then, otherwise, ..
                } => {
                    then.for_each_stmt(f);
                    if let Some(o) = otherwise {
                        o.for_each_stmt(f);
                    }
                }
                StmtKind::Either(blocks) | StmtKind::First(blocks) => {
                    blocks.iter().for_each(|b| b.for_each_stmt(f));
                }
                StmtKind::Repeat { body, .. }
                | StmtKind::Distinct(body)
                | StmtKind::While { body, .. } => body.for_each_stmt(f),
                _ => {}
            }
        }
    }

    /// Whether any statement of the block, at any depth of `if`, `either`, `first`, `repeat`,
    /// `distinct`, `while` and expanded procedure calls, is one that `found` accepts. (Blocks are looked into, not
    /// offered to `found`.)
    pub fn any_stmt(&self, found: &dyn Fn(&StmtKind) -> bool) -> bool {
        self.stmts.iter().any(|stmt| match &stmt.kind {
            StmtKind::If {
                then, otherwise, ..
            } => then.any_stmt(found) || otherwise.as_ref().is_some_and(|b| b.any_stmt(found)),
            StmtKind::Either(blocks) | StmtKind::First(blocks) => {
                blocks.iter().any(|b| b.any_stmt(found))
            }
            StmtKind::Repeat { body, .. }
            | StmtKind::Distinct(body)
            | StmtKind::While { body, .. } => body.any_stmt(found),
            StmtKind::Call {
                body: Some(body), ..
            } => body.any_stmt(found),
            kind => found(kind),
        })
    }
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `place s in <shapes> turned <relation> on <layer> [max e] [feet where c]`.
    Place {
        var: Ident,
        from: Expr,
        turned: Ident,
        layer: Ident,
        max: Option<Expr>,
        feet: Option<Expr>,
    },
    Pick {
        var: Ident,
        from: Expr,
        /// `by p`: the player who chooses (default: the mover).
        by: Option<Expr>,
    },
    /// `roll a, b in lo..hi`: a chance move sets each counter.
    Roll {
        counters: Vec<Ident>,
        lo: i64,
        hi: i64,
        range: Span,
    },
    /// `again`: the same player moves next.
    Again,
    /// `while cond { ... }`
    While {
        cond: Expr,
        body: Block,
    },
    Put {
        piece: Ident,
        owner: Option<Expr>,
        at: Expr,
    },
    Remove {
        at: Expr,
    },
    /// `move a to b`: a piece (or, when `what` names a token, the token) goes to `to`.
    Move {
        what: Expr,
        to: Expr,
    },
    /// `shift S along m`: the pieces on `S` move at once, each to its cell's image under the
    /// map (or direction) `m`.
    Shift {
        what: Expr,
        along: Ident,
    },
    /// `enter T of p near c`: a piece of `p` joins the track at its nearest lane entry.
    Enter {
        track: Ident,
        owner: Option<Expr>,
        near: Expr,
    },
    /// `advance T of p`: `p`'s pieces on the track move one field on.
    Advance {
        track: Ident,
        owner: Option<Expr>,
    },
    /// `take T of p`: a piece of `p` leaves the end of the track.
    Take {
        track: Ident,
        owner: Option<Expr>,
    },
    Require(Expr),
    If {
        cond: Expr,
        then: Block,
        otherwise: Option<Block>,
    },
    Either(Vec<Block>),
    First(Vec<Block>),
    Repeat {
        min: u32,
        max: u32,
        range: Span,
        body: Block,
    },
    Distinct(Block),
    Write(Template),
    Win(Expr),
    Lose(Expr),
    Draw,
    Assign {
        target: Ident,
        index: Option<Expr>,
        op: AssignOp,
        value: Expr,
    },
    /// `let name = cells`: a set computed once at this point.
    Let {
        name: Ident,
        value: Expr,
    },
    /// `name(args)`: a call of a procedure. `body` is the procedure's body with each parameter
    /// replaced by its argument, filled in by [`File::expand_procedures`] (`None` as parsed, and
    /// for a call that names no procedure, has the wrong number of arguments or recurses).
    Call {
        name: Ident,
        args: Vec<Expr>,
        body: Option<Block>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

#[derive(Clone, Debug)]
pub struct Template {
    pub parts: Vec<TemplatePart>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TemplatePart {
    Text(String),
    Hole(Expr),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    /// How many parts [`substitute`](Self::substitute) would build, given the part count of
    /// each argument, saturating: lets a caller refuse an expansion before building it.
    #[must_use]
    pub fn substituted_size(&self, params: &[Ident], arg_sizes: &[usize]) -> usize {
        let sub = |e: &Expr| e.substituted_size(params, arg_sizes);
        let all = |es: &[Expr]| es.iter().fold(0usize, |n, e| n.saturating_add(sub(e)));
        let inner = match &self.kind {
            ExprKind::Name(id) => {
                if let Some(&n) = params
                    .iter()
                    .position(|p| p.name == id.name)
                    .and_then(|i| arg_sizes.get(i))
                {
                    return n;
                }
                0
            }
            ExprKind::Int(_) | ExprKind::Decimal(_) => 0,
            ExprKind::Call { args, .. } | ExprKind::CellSet(args) => all(args),
            ExprKind::Unary { operand, .. } => sub(operand),
            ExprKind::Field { base, .. } => sub(base),
            ExprKind::Binary { lhs, rhs, .. } => sub(lhs).saturating_add(sub(rhs)),
            ExprKind::Index { base, index } => sub(base).saturating_add(sub(index)),
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => sub(cond)
                .saturating_add(sub(then))
                .saturating_add(sub(otherwise)),
        };
        inner.saturating_add(1)
    }

    /// How many parts the expression has.
    #[must_use]
    pub fn size(&self) -> usize {
        self.substituted_size(&[], &[])
    }

    /// A parameterised define's body as it stands at one call: every name that is one of
    /// `params` replaced by the matching argument, each part keeping its own span. Arguments are
    /// inserted as written, so a name in an argument is never taken for a parameter.
    #[must_use]
    pub fn substitute(&self, params: &[Ident], args: &[Expr]) -> Expr {
        let sub = |e: &Expr| Box::new(e.substitute(params, args));
        let all = |es: &[Expr]| es.iter().map(|e| e.substitute(params, args)).collect();
        let kind = match &self.kind {
            ExprKind::Name(id) => {
                if let Some(arg) = params
                    .iter()
                    .position(|p| p.name == id.name)
                    .and_then(|i| args.get(i))
                {
                    return arg.clone();
                }
                ExprKind::Name(id.clone())
            }
            ExprKind::Int(v) => ExprKind::Int(*v),
            ExprKind::Decimal(v) => ExprKind::Decimal(*v),
            ExprKind::Call { func, args: a } => ExprKind::Call {
                func: func.clone(),
                args: all(a),
            },
            ExprKind::CellSet(items) => ExprKind::CellSet(all(items)),
            ExprKind::Unary { op, operand } => ExprKind::Unary {
                op: *op,
                operand: sub(operand),
            },
            ExprKind::Binary { op, lhs, rhs } => ExprKind::Binary {
                op: *op,
                lhs: sub(lhs),
                rhs: sub(rhs),
            },
            ExprKind::Field { base, field } => ExprKind::Field {
                base: sub(base),
                field: field.clone(),
            },
            ExprKind::Index { base, index } => ExprKind::Index {
                base: sub(base),
                index: sub(index),
            },
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => ExprKind::If {
                cond: sub(cond),
                then: sub(then),
                otherwise: sub(otherwise),
            },
        };
        Expr {
            kind,
            span: self.span,
        }
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    /// A decimal literal such as `7.5`, in hundredths ([`DECIMAL_SCALE`]).
    Decimal(i64),
    Name(Ident),
    Call {
        func: Ident,
        args: Vec<Expr>,
    },
    CellSet(Vec<Expr>),
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Field {
        base: Box<Expr>,
        field: Ident,
    },
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    /// `if cond then then else otherwise`: a number chosen by a condition.
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Where,
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Union,
    Inter,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinaryOp {
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Where => "where",
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::In => "in",
            BinaryOp::Union => "|",
            BinaryOp::Inter => "&",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
        }
    }
}

// ---- Table games -------------------------------------------------------------------------

/// A declaration of a table game: discs sliding on a continuous table, driven by cards.
#[derive(Clone, Debug)]
pub enum TableItem {
    /// `param friction = 20`
    Param {
        name: Ident,
        value: f64,
        value_span: Span,
    },
    /// `table length by width { wall ...  line ... }`
    Table {
        length: Quantity,
        width: Quantity,
        physics: Vec<(Physics, Quantity)>,
        walls: Vec<AxisAt>,
        lines: Vec<(Ident, AxisAt)>,
        regions: Vec<Region>,
    },
    /// `home North on north_home`
    Home {
        player: Ident,
        line: Ident,
    },
    /// `disc Core "C" radius 2 mass 4`
    Disc {
        name: Ident,
        letter: (String, Span),
        radius: Quantity,
        mass: Option<Quantity>,
    },
    /// `faction A, B`
    Factions(Vec<Ident>),
    Card(CardDecl),
    /// `army rules { ... }`
    ArmyRules(Vec<ArmyRule>),
    Army(Army),
    /// `setup table { place ... }`
    Setup(Vec<SetupPlace>),
    /// `table turn { ... }`
    Turn(Vec<TurnStep>),
    /// `basic shot up to N`
    BasicShot(Quantity),
    /// `aim noise N`
    AimNoise(Quantity),
    /// `points far 3, near 1`
    Points(Vec<(Ident, u32)>),
    /// `capture { ... }`
    Capture(Vec<CaptureRule>),
    /// `match { ... }`
    Match(Vec<MatchRule>),
    /// `penalty name "text" warnings N`
    Penalty {
        name: Ident,
        text: String,
        warnings: u32,
    },
}

/// A physical constant of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Physics {
    Friction,
    StoneRestitution,
    WallRestitution,
    WallJumpSpeed,
    TimeStep,
}

/// A real number written in the file, or a parameter's name.
#[derive(Clone, Debug)]
pub enum Quantity {
    Number(f64, Span),
    Param(Ident),
}

impl Quantity {
    #[must_use]
    pub fn span(&self) -> Span {
        match self {
            Quantity::Number(_, s) => *s,
            Quantity::Param(i) => i.span,
        }
    }
}

/// `region east_end: x > 110`
#[derive(Clone, Debug)]
pub struct Region {
    pub name: Ident,
    pub at: AxisAt,
    /// `>`: the side of larger coordinates.
    pub greater: bool,
}

/// `x = 60`
#[derive(Clone, Debug)]
pub struct AxisAt {
    pub axis: Ident,
    pub at: Quantity,
}

#[derive(Clone, Debug)]
pub struct CardDecl {
    pub name: Ident,
    pub faction: Ident,
    pub disc: Ident,
    pub shot: ShotKind,
    pub by_hand: bool,
}

/// `basic` or `power N`.
#[derive(Clone, Debug)]
pub enum ShotKind {
    Basic(Span),
    Power(Quantity),
}

#[derive(Clone, Debug)]
pub struct ArmyRule {
    pub kind: ArmyRuleKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ArmyRuleKind {
    Stones(Bound),
    Cards(Bound),
    Copies(Bound),
    CardForEachKind,
    FactionsDiffer,
    Factions(Bound),
    /// `Core at least 5`
    Kind(Ident, Bound),
}

/// `at least N`, `at most N`, `exactly N`, `N to M`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    pub min: Option<u32>,
    pub max: Option<u32>,
}

impl Bound {
    #[must_use]
    pub fn holds(self, n: u32) -> bool {
        self.min.is_none_or(|m| n >= m) && self.max.is_none_or(|m| n <= m)
    }
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.min, self.max) {
            (Some(a), Some(b)) if a == b => write!(f, "exactly {a}"),
            (Some(a), Some(b)) => write!(f, "{a} to {b}"),
            (Some(a), None) => write!(f, "at least {a}"),
            (None, Some(b)) => write!(f, "at most {b}"),
            (None, None) => write!(f, "any number"),
        }
    }
}

/// `army Name { factions ...  stones ...  cards ... }`
#[derive(Clone, Debug)]
pub struct Army {
    pub name: Ident,
    pub factions: Vec<Ident>,
    /// Kind, count, span of the entry.
    pub stones: Vec<(Ident, u32, Span)>,
    /// Card, copies, span of the entry.
    pub cards: Vec<(Ident, u32, Span)>,
    pub span: Span,
}

/// `place Core on center alternating`
#[derive(Clone, Debug)]
pub struct SetupPlace {
    pub kinds: Vec<Ident>,
    /// A line name, or `home`.
    pub line: Ident,
    pub alternating: bool,
}

/// One step of `table turn { ... }`.
#[derive(Clone, Debug)]
pub struct TurnStep {
    pub kind: TurnStepKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TurnStepKind {
    /// `draw N` (N cards) or `draw to N` (until the hand holds N).
    Draw { to: bool, count: Quantity },
    /// `play each card`
    PlayEachCard,
    /// `shot Leader, Pawn basic`: a shot without a card.
    Shot { kinds: Vec<Ident>, shot: ShotKind },
    /// `if COND { ... } else { ... }`
    If {
        cond: Vec<TableCmp>,
        then: Vec<TurnStep>,
        otherwise: Vec<TurnStep>,
    },
}

/// `captures >= 8`: one comparison of a table game's condition (the comparisons of a condition
/// are joined by `and`).
#[derive(Clone, Debug)]
pub struct TableCmp {
    pub left: TableTerm,
    pub op: BinaryOp,
    pub right: TableTerm,
}

/// A number, a parameter or a quantity's name, or `opponent QUANTITY`.
#[derive(Clone, Debug)]
pub enum TableTerm {
    Number(f64, Span),
    Name(Ident),
    Opponent(Ident),
}

#[derive(Clone, Debug)]
pub struct CaptureRule {
    pub event: CaptureEvent,
    pub effect: CaptureEffect,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum CaptureEvent {
    /// The centre of a stone enters one of these regions.
    Enter(Vec<Ident>),
    /// The centre of a stone crosses one of these lines.
    Cross(Vec<Ident>),
    /// The shot stone goes over a wall.
    OverWallShot,
    /// A stone other than the shot one goes over a wall.
    OverWallKnocked,
    /// A stone leaves the table where there is no wall.
    OffTable,
}

#[derive(Clone, Debug)]
pub enum CaptureEffect {
    ByOpponentOfOwner,
    ByOpponentOfShooter,
    /// Put back on this line, at the free point nearest to where it left.
    BackTo(Ident),
}

#[derive(Clone, Debug)]
pub struct MatchRule {
    pub kind: MatchRuleKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum MatchRuleKind {
    /// `win when COND`
    Win(Vec<TableCmp>),
    /// `after N turns: most QUANTITY`
    After { turns: Quantity, most: Ident },
    /// `tie: sudden death for N turns`
    SuddenDeath(Quantity),
    /// `tie: draw`
    TieDraw,
    /// `clock turn N`: seconds per turn.
    TurnClock(Quantity),
    /// `clock match N`: seconds for the whole match (before sudden death).
    MatchClock(Quantity),
    /// `referee when OPTION == WORD`
    Referee { option: Ident, word: Ident },
}
