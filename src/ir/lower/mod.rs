//! Checked AST + option values → [`Program`]: the checker's board for these options
//! ([`Configured`]) copied into tables, names resolved to dense ids, option tests folded away,
//! statements compiled to bytecode. The lowering only translates: how a program's tables,
//! folded constants, jumps and slots are written is [`crate::ir::build`]'s.

use std::collections::HashMap;

use super::{
    AssignKind, AssignSlot, Board, BoolExpr, BoolId, CellRef, CellSet, CmpOp, Code, Counter,
    CounterView, DirExpr, Finish, HistoryIgnores, IntExpr, IntId, IntOp, Marker, Op, Pattern,
    Piece, Placements, PlayerRef, Program, Relation, SetExpr, SetId, Shape, Template, TemplatePart,
    Zone, MAX_DECISIONS, MAX_PLACED, MAX_SET_LOCALS, MAX_VARS,
};
use crate::check::configure::{Configured, Track};
use crate::check::consteval::{Const, ConstEnv};
use crate::check::error::ConfigureError;
use crate::check::model::{DeclId, ExprTypes, Names, Ty};
use crate::check::Checked;
use crate::syntax::ast::{
    AssignOp, BinaryOp, Block, CounterView as AstView, Expr, ExprKind, File, Item, ItemKind, Stmt,
    StmtKind, Template as AstTemplate, TemplatePart as AstPart, UnaryOp,
};
use crate::syntax::Ident;

use super::build::{id16, pc, Asm, Labels, Slots};
use super::error::LowerError;
use super::passes::decisions;

/// What the declaration `name` lowers to, matched against `pattern`: the checker has made the
/// name a declaration of that kind, so any other is a bug (`E0999`).
macro_rules! declared {
    ($self:ident, $name:expr, $pattern:pat => $value:expr) => {
        match $self.syms.get($name).copied() {
            Some($pattern) => $value,
            _ => return err(format!("`{}` is not the kind the checker found", $name)),
        }
    };
}

mod decls;
mod exprs;
mod stmts;

/// A construct the checker should have rejected (a bug, reported as `E0999`).
fn err<T>(message: impl Into<String>) -> std::result::Result<T, LowerError> {
    Err(LowerError::internal(message))
}

type Result<T> = std::result::Result<T, LowerError>;

/// Lowers a checked game for the given option values and the board the checker configured
/// for them ([`Checked::board`]): the lowering receives the board, it never computes one.
///
/// # Errors
/// When the options break a limit of the IR or the runtime.
pub fn lower(checked: &Checked, options: &ConstEnv, board: Configured) -> Result<Program> {
    Lowerer::new(checked, options, board).run()
}

#[derive(Clone, Copy)]
enum Sym<'a> {
    IntConst(i64),
    Player(u8),
    Relation(u16),
    Pattern(u16),
    Zone(u16),
    Piece(u8),
    Counter {
        base: u16,
    },
    /// A per-cell counter (or a track's counts): the slot of cell 0.
    Layer {
        base: u16,
    },
    /// A token: the counter slot holding its cell.
    Token {
        slot: u16,
    },
    /// A define: its body and its parameters (none for a plain define).
    Define(&'a Expr, &'a [Ident]),
}

/// What each declaration of the checked game lowers to, by the checker's [`DeclId`]: the
/// lowering resolves names through the checker's table ([`Names`]) and keeps no name table of
/// its own.
struct Symbols<'a> {
    names: &'a Names,
    by_decl: Vec<Option<Sym<'a>>>,
    /// The player variable of `score p = ...` while its expression is lowered for one player.
    bound_player: Option<(&'a str, Sym<'a>)>,
}

impl<'a> Symbols<'a> {
    fn new(names: &'a Names) -> Symbols<'a> {
        Symbols {
            names,
            by_decl: vec![None; names.decls.len()],
            bound_player: None,
        }
    }

    /// What a name lowers to, once its declaration is lowered.
    fn get(&self, name: &str) -> Option<&Sym<'a>> {
        if let Some((bound, sym)) = &self.bound_player {
            if *bound == name {
                return Some(sym);
            }
        }
        let decl: DeclId = self.names.lookup(name)?;
        self.by_decl.get(decl)?.as_ref()
    }

    /// Records what the declaration of `name` lowers to.
    fn insert(&mut self, name: &str, sym: Sym<'a>) {
        let decl = self.names.lookup(name);
        if let Some(slot) = decl.and_then(|d| self.by_decl.get_mut(d)) {
            *slot = Some(sym);
        }
    }
}

/// A `place` variable: its slot, its table and the turn variable holding its anchor.
#[derive(Clone, Copy, Debug)]
struct PlacedVar {
    slot: u8,
    table: u16,
    anchor: u8,
}

struct Lowerer<'a> {
    file: &'a File,
    /// The checker's type of every expression.
    types: &'a ExprTypes,
    env: &'a ConstEnv,
    /// The board of these options and its tables, from the checker.
    board: Configured,
    syms: Symbols<'a>,
    prog: Program,
    /// Turn variables: each name gets one slot for the whole program.
    vars: Slots,
    /// `let` sets: each name gets one slot.
    set_locals: Slots,
    /// `place` variables' slots.
    placed_slots: Slots,
    /// Lowering statements (where unknown names are turn variables), not declarations.
    in_code: bool,
    /// Inside the right side of `where`, axis names mean the candidate cell's coordinates.
    in_where: bool,
    placed_vars: HashMap<String, PlacedVar>,
    /// Direction variables (`pick d in R`): their slot and relation.
    dir_vars: HashMap<String, (u8, u16)>,
    /// The `distinct` blocks being lowered, innermost last.
    distinct_stack: Vec<u8>,
    /// The labels of the program being lowered.
    labels: Labels,
    /// The slots of `carried` tokens, which follow `move`.
    carried: Vec<u16>,
}

impl<'a> Lowerer<'a> {
    fn new(checked: &'a Checked, env: &'a ConstEnv, board: Configured) -> Self {
        let (file, types) = (&checked.file, &checked.types);
        let cells = Board::configured(&board.geometry);
        let options = crate::check::options::declared(file)
            .map(|d| {
                let value = env.values.get(&d.name.name).map(Const::text);
                (d.name.name.clone(), value.unwrap_or_default())
            })
            .collect();
        Lowerer {
            file,
            types,
            env,
            board,
            syms: Symbols::new(&checked.names),
            prog: Program {
                board: cells,
                options,
                ..Program::default()
            },
            vars: Slots::new(MAX_VARS, |found, max, span| {
                LowerError::TooManyTurnVariables { found, max, span }
            }),
            set_locals: Slots::new(MAX_SET_LOCALS, |found, max, span| {
                LowerError::TooManySetLocals { found, max, span }
            }),
            placed_slots: Slots::new(MAX_PLACED, |found, max, span| {
                LowerError::TooManyPlaceVariables { found, max, span }
            }),
            in_code: false,
            in_where: false,
            placed_vars: HashMap::new(),
            dir_vars: HashMap::new(),
            distinct_stack: Vec::new(),
            labels: Labels::default(),
            carried: Vec::new(),
        }
    }

    fn run(mut self) -> Result<Program> {
        self.declare()?;
        let file = self.file;
        for item in &file.items {
            let at = |e: LowerError| e.at(item.span);
            match &item.kind {
                ItemKind::Setup(b) => self.prog.setup = self.code(b).map_err(at)?,
                ItemKind::Turn(b) => {
                    self.prog.turn = self.code(b).map_err(at)?;
                    let found = decisions::run(&self.prog, &self.prog.turn);
                    if found > MAX_DECISIONS as u64 {
                        return Err(LowerError::TooManyDecisions {
                            found,
                            max: MAX_DECISIONS,
                            span: Some(item.span),
                        });
                    }
                }
                ItemKind::NoMoves(b) => self.prog.no_moves = self.code(b).map_err(at)?,
                _ => {}
            }
            self.prog.ids_fit().map_err(at)?;
        }
        for item in &file.items {
            self.late_item(item).map_err(|e| e.at(item.span))?;
            self.prog.ids_fit().map_err(|e| e.at(item.span))?;
        }
        self.prog.history_ignores = history_ignores(file, &self.prog.counters);
        if self.prog.no_moves.ops.is_empty() {
            // Without `on no moves`, a player who cannot move ends the game drawn.
            self.prog.no_moves = Code::new(vec![Op::Finish(Finish::Draw), Op::Done]);
        }
        if self.prog.setup.ops.is_empty() {
            self.prog.setup = Code::new(vec![Op::Done]);
        }
        Ok(self.prog)
    }

    /// Markers, status lines, the score and the heuristic: declarations read like turn code.
    fn late_item(&mut self, item: &'a Item) -> Result<()> {
        self.in_code = true;
        match &item.kind {
            ItemKind::Marker {
                symbol,
                cells,
                legend,
            } => {
                let set = self.set(cells)?;
                let legend = legend.as_ref().map(|(text, _)| text.clone());
                let legend = legend.unwrap_or_else(|| default_legend(cells));
                let text = symbol.0.clone();
                self.prog.markers.push(Marker { text, set, legend });
            }
            ItemKind::Status { text, when } => {
                let id = self.template(text)?;
                let when = when.as_ref().map(|w| self.bool(w)).transpose()?;
                self.prog.status.push((id, when));
            }
            ItemKind::Score { player, expr } => {
                self.prog.score = Some(self.per_player_int(player, expr)?);
                self.prog.score_decimal = self.ty(expr)? == Ty::Decimal;
            }
            ItemKind::Heuristic { player, expr } => {
                self.prog.heuristic = Some(self.per_player_int(player, expr)?);
            }
            _ => {}
        }
        Ok(())
    }

    /// A `write` or `status` text: a new template, its holes lowered.
    pub(super) fn template(&mut self, text: &AstTemplate) -> Result<u16> {
        let mut parts = Vec::new();
        for p in &text.parts {
            parts.push(match p {
                AstPart::Text(s) => TemplatePart::Text(s.clone()),
                AstPart::Hole(e) => self.template_part(e)?,
            });
        }
        let id = u16::try_from(self.prog.templates.len()).unwrap_or(u16::MAX);
        self.prog.templates.push(Template { parts });
        Ok(id)
    }

    /// `score p = ...` or `heuristic p = ...`: the expression lowered once for each player.
    fn per_player_int(&mut self, player: &'a Ident, expr: &'a Expr) -> Result<[IntId; 2]> {
        let mut ids = [0; 2];
        for (p, id) in (0..).zip(&mut ids) {
            self.syms.bound_player = Some((player.name.as_str(), Sym::Player(p)));
            *id = self.int(expr)?;
        }
        self.syms.bound_player = None;
        Ok(ids)
    }

    /// Emits at the end of `ops`, into this program.
    fn asm<'s>(&'s mut self, ops: &'s mut Vec<Op>) -> Asm<'s> {
        let (prog, labels) = (&mut self.prog, &mut self.labels);
        Asm { prog, labels, ops }
    }
}

/// A marker's legend when the game gives none: the names its cells are written with
/// (`goal_hexes` reads `goal hexes`, `{ball}` reads `ball`), else `marked`.
fn default_legend(cells: &Expr) -> String {
    let name = |e: &Expr| match &e.kind {
        ExprKind::Name(n) => Some(n.name.replace('_', " ")),
        _ => None,
    };
    match &cells.kind {
        ExprKind::CellSet(items) => {
            let names: Option<Vec<String>> = items.iter().map(name).collect();
            names.map_or_else(|| "marked".to_string(), |n| n.join(", "))
        }
        _ => name(cells).unwrap_or_else(|| "marked".to_string()),
    }
}

/// `repetitions ignore ...`: the slots of the counters named (all of a per-player or per-cell
/// counter's slots) and whether `mover` is named. The checker has made every name one of these.
fn history_ignores(file: &File, counters: &[Counter]) -> HistoryIgnores {
    let names: Vec<&str> = (file.items.iter())
        .filter_map(|i| match &i.kind {
            ItemKind::RepetitionsIgnore(names) => Some(names),
            _ => None,
        })
        .flatten()
        .map(|n| n.name.as_str())
        .collect();
    let slots = (0..counters.len()).filter(|&i| names.contains(&counters[i].name.as_str()));
    HistoryIgnores {
        mover: names.contains(&"mover"),
        slots: slots.filter_map(|i| u16::try_from(i).ok()).collect(),
    }
}
