//! Checked AST + option values → [`Program`]: the checker's board for these options
//! ([`Configured`]) copied into tables, names resolved to dense ids, option tests folded away,
//! statements compiled to bytecode. The lowering only translates: how a program's tables,
//! folded constants, jumps and slots are written is [`rulestone_ir::build`]'s.

use rulestone_check::configure::{Configured, Track};
use rulestone_check::consteval::{Const, ConstEnv};
use rulestone_check::error::ConfigureError;
use rulestone_check::model::{DeclId, ExprTypes, Names, Ty};
use rulestone_check::Checked;
use rulestone_ir::{
    AssignSlot, BoolExpr, BoolId, CellRef, CellSet, CmpOp, Code, CounterView, DirExpr, Finish,
    IntExpr, IntId, IntOp, Op, Piece, PlayerRef, Program, SetExpr, SetId, TemplatePart,
};
use rulestone_syntax::ast::{
    AssignOp, BinaryOp, Block, CounterView as AstView, Expr, ExprKind, File, Item, ItemKind, Stmt,
    StmtKind, Template as AstTemplate, TemplatePart as AstPart, UnaryOp,
};
use rulestone_syntax::Ident;

use crate::LowerError;
use rulestone_ir::build::locals::{Local, Locals};
use rulestone_ir::build::{id16, pc, rounds, Asm, Labels};
use rulestone_ir::passes::decisions;
use rulestone_ir::BuildError;

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

/// What a declaration lowers to. An option needs none: the expressions it decides fold with
/// its value ([`ConstEnv::eval`]).
#[derive(Clone, Copy)]
enum Sym<'a> {
    Player(u8),
    Relation(u16),
    Pattern(u16),
    Zone(u16),
    Piece(u8),
    /// A counter: its first slot (player 0's for a counter per player).
    Counter(u16),
    /// A per-cell counter (or a track's counts): the slot of cell 0.
    Layer(u16),
    /// A token: the counter slot holding its cell.
    Token(u16),
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

struct Lowerer<'a> {
    file: &'a File,
    /// The checker's type of every expression.
    types: &'a ExprTypes,
    env: &'a ConstEnv,
    /// The board of these options and its tables, from the checker.
    board: Configured,
    syms: Symbols<'a>,
    prog: Program,
    /// The local names bound so far and their slots.
    locals: Locals,
    /// Inside the right side of `where`, axis names mean the candidate cell's coordinates.
    in_where: bool,
    /// The `distinct` blocks being lowered, innermost last.
    distinct_stack: Vec<u8>,
    /// The rounds the `repeat`s around the statement being lowered run at least, multiplied:
    /// every round is a step of move generation (E1009 past [`rulestone_ir::MAX_STEPS`]).
    forced_rounds: u64,
    /// The labels of the program being lowered.
    labels: Labels,
    /// The slots of `carried` tokens, which follow `move`.
    carried: Vec<u16>,
}

impl<'a> Lowerer<'a> {
    fn new(checked: &'a Checked, env: &'a ConstEnv, board: Configured) -> Self {
        let (file, types) = (&checked.file, &checked.types);
        let cells = crate::configured::board(&board.geometry);
        let options = env.texts(file);
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
            locals: Locals::default(),
            in_where: false,
            distinct_stack: Vec::new(),
            forced_rounds: 1,
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
                    decisions::fit(&self.prog, &self.prog.turn).map_err(|e| at(e.into()))?;
                }
                ItemKind::NoMoves(b) => self.prog.no_moves = self.code(b).map_err(at)?,
                _ => {}
            }
            self.prog.ids_fit().map_err(|e| at(e.into()))?;
        }
        for item in &file.items {
            self.late_item(item).map_err(|e| e.at(item.span))?;
            self.prog.ids_fit().map_err(|e| e.at(item.span))?;
        }
        self.prog.default_programs();
        Ok(self.prog)
    }

    /// Markers, status lines, the score and the heuristic: declarations read like turn code.
    fn late_item(&mut self, item: &'a Item) -> Result<()> {
        match &item.kind {
            ItemKind::Marker {
                symbol,
                cells,
                legend,
            } => {
                let set = self.set(cells)?;
                let legend = legend.as_ref().map(|(text, _)| text.as_str());
                let marker = crate::configured::marker(&symbol.0, set, legend, cells);
                self.prog.markers.push(marker);
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
            ItemKind::RepetitionsIgnore(names) => {
                self.prog
                    .ignore_in_history(names.iter().map(|n| n.name.as_str()));
            }
            _ => {}
        }
        Ok(())
    }

    /// A `write` or `status` text: a new template, its holes lowered.
    pub(super) fn template(&mut self, text: &AstTemplate) -> Result<u16> {
        let parts = text.parts.iter().map(|p| match p {
            AstPart::Text(s) => Ok(TemplatePart::Text(s.clone())),
            AstPart::Hole(e) => self.template_part(e),
        });
        let parts = parts.collect::<Result<_>>()?;
        Ok(self.prog.push_template(parts))
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
