//! The checker: syntax tree → checked game. Names, types, options, geometry; every problem.
//!
//! [`check`] runs the passes below over one file and collects every problem instead of
//! stopping at the first; a pass that depends on an earlier one (e.g. cell names on the board)
//! quietly skips what the earlier problem made meaningless, so one mistake gives one report.
//!
//! | pass                              | file        | codes                                   |
//! |-----------------------------------|-------------|-----------------------------------------|
//! | declarations, required items      | `names.rs`, `game.rs` | E0102, E0501, E0502           |
//! | options                           | `game.rs`   | E0301, E0302                            |
//! | presets                           | `presets.rs` | E0102, E0302–E0304                     |
//! | board and its cells               | `board.rs`  | E0102, E0103, E0401–E0404, E0407, E0408 |
//! | definition cycles                 | `game.rs`   | E0105                                   |
//! | directions, relations, patterns   | `board.rs`  | E0101, E0104, E0203, W0406, W0409       |
//! | zones, counter start values       | `board.rs`  | E0404, W0405, E0408                     |
//! | expressions (used by all passes)  | `expr.rs`   | E0101, E0103, E0104, E0201, E0202, E0204, E0404, W0606 |
//! | `where` conditions that stay per-cell tests | `cost.rs` | W0608                        |
//! | turn, setup, on-no-moves programs | `stmt.rs`   | E0102, E0103, E0204, W0504, E0505       |
//! | procedures and their calls        | `procedures.rs` | E0007, E0104, E0202, E0509          |
//! | shapes and `place`                | `shapes.rs` | E0203, E0404, E0701–E0704               |
//! | ending, unused declarations, notation | `game.rs` | E0503, W0601, W0602                  |
//! | the board of chosen option values | `configure.rs` | E0401–E0403, E0408, E0411, E0419  |
//!
//! Every message is defined once, in `error.rs`; codes are registered in `rulestone_diag::codes`.

mod board;
pub mod builtins;
pub mod configure;
pub mod consteval;
mod cost;
pub mod deck;
pub mod error;
mod expr;
mod game;
pub mod geometry;
mod history;
pub mod model;
mod names;
pub mod operators;
pub mod options;
pub mod presets;
mod procedures;
mod shapes;
mod stmt;
use rulestone_diag::suggest;
pub mod table;
pub mod zones;

use std::collections::{HashMap, HashSet};

use miette::Diagnostic;

use rulestone_diag::Diag;
use rulestone_syntax::ast;
use rulestone_syntax::Span;

use error::InDefine;
use geometry::Geometry;
use names::Entry;

/// A game file that passed the checker: lowering may rely on its names and types being right.
#[derive(Clone, Debug)]
pub struct Checked {
    pub file: ast::File,
    /// Every declared name and the declaration each use refers to.
    pub names: model::Names,
    /// The type of every checked expression: the lowering reads types here, never infers them.
    pub types: model::ExprTypes,
    /// The resolved declarations of a table game; `None` for a board game.
    pub table: Option<table::TableGame>,
}

impl Checked {
    /// The name the `game` declaration gives.
    #[must_use]
    pub fn game_name(&self) -> String {
        self.file
            .items
            .iter()
            .find_map(|i| match &i.kind {
                ast::ItemKind::Game { name, .. } => Some(name.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }
}

/// The declared names of a parsed file and every use the checker resolved, even when the file
/// has errors: what an editor needs to find and rename names in a file being edited.
#[must_use]
pub fn resolve_names(file: &ast::File) -> model::Names {
    let (file, _) = file.expand_procedures();
    let file = &file;
    let mut c = Checker::new(file);
    if table::is_table_game(file) {
        c.run_table();
    } else {
        c.run();
    }
    names_of(&mut c)
}

fn names_of(c: &mut Checker<'_>) -> model::Names {
    model::Names::new(
        c.entries
            .iter()
            .map(|e| model::Decl {
                name: e.name.clone(),
                kind: e.sym,
                span: e.span,
            })
            .collect(),
        std::mem::take(&mut c.uses),
    )
}

/// The names with a meaning in every expression (`mover`, `empty`, ...).
pub fn builtin_values() -> impl Iterator<Item = &'static str> {
    builtins::values().map(|s| s.name)
}

/// The built-in functions, each with its signature.
pub fn builtin_functions() -> impl Iterator<Item = (&'static str, &'static str)> {
    builtins::functions().map(|s| (s.name, s.signature))
}

/// Checks a parsed file. Returns the checked game only if there is no error (warnings allowed),
/// and every problem found, errors and warnings, in source order.
#[must_use]
pub fn check(file: &ast::File) -> (Option<Checked>, Vec<Diag>) {
    // Procedure calls are written out first: every later pass sees the statements that run.
    let (file, too_large) = file.expand_procedures();
    let file = &file;
    let mut c = Checker::new(file);
    if let Some(span) = too_large {
        c.report(error::GameError::ProceduresTooLarge {
            limit: rulestone_syntax::procedures::MAX_EXPANDED_STATEMENTS,
            span,
        });
    }
    let table = if table::is_table_game(file) {
        Some(c.run_table())
    } else {
        c.run();
        None
    };
    let types = std::mem::take(&mut c.types);
    let names = names_of(&mut c);
    if let Some(d) = c.too_deep.take() {
        c.report_diag(d);
    }
    let diags = c.finish();
    if rulestone_diag::has_errors(&diags) {
        (None, diags)
    } else {
        (
            Some(Checked {
                file: file.clone(),
                names,
                types,
                table,
            }),
            diags,
        )
    }
}

/// Which board axes an expression may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axes {
    /// Outside the board and `where` conditions.
    Hidden,
    /// In the range of the axis with this index: only the axes before it.
    Upto(usize),
    /// In the board's filter and name, and on the right of `where`.
    All,
}

/// What must be constant, when an expression must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Constant {
    /// The board declaration: integers, options, axes, `letter`.
    Board,
    /// The zone declared by this item.
    Zone(usize),
    /// The start value of the counter declared by this item.
    Counter(usize),
    /// The start cell of the token declared by this item.
    Token(usize),
    /// The `count` or `points` of the shape declared by this item.
    Shape(usize),
}

/// The context of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cx {
    axes: Axes,
    constant: Option<Constant>,
}

impl Cx {
    /// Turn, setup and on-no-moves programs.
    const PLAY: Cx = Cx {
        axes: Axes::Hidden,
        constant: None,
    };

    fn with_axes(self, axes: Axes) -> Cx {
        Cx { axes, ..self }
    }
}

/// Variables bound in one block.
#[derive(Clone, Debug, Default)]
struct Frame {
    bound: Vec<(String, Span)>,
    /// Bound on some paths only (inside `if`, `repeat` or some branches of `either`).
    partial: Vec<(String, Span)>,
}

#[allow(clippy::struct_excessive_bools)] // independent flags of one checking run
struct Checker<'a> {
    file: &'a ast::File,
    diags: Vec<Diag>,
    /// How many of `diags` are errors.
    errors: usize,
    /// The code and main span of every problem in `diags` ([`seen_key`]).
    seen: HashSet<(String, usize, usize)>,
    /// Variables bound by `let` (sets of cells); all other variables are cells, except these.
    set_vars: HashSet<String>,
    /// Variables bound by `place` (a placed shape).
    placement_vars: HashSet<String>,
    /// The player variable of `score p = ...` and `heuristic p = ...`.
    player_vars: HashSet<String>,
    /// How many times a player variable was read, for W0507.
    player_var_reads: usize,
    /// Variables bound by `pick d in RELATION` (direction values).
    dir_vars: HashSet<String>,

    /// Declared names → index into `entries`.
    names: HashMap<String, usize>,
    entries: Vec<Entry>,
    /// The entries marked used, in order, each when it was first marked.
    newly_used: Vec<usize>,
    options: Vec<&'a ast::OptionDecl>,
    options_ok: bool,

    board: Option<&'a ast::Board>,
    /// Set once the board is known to be missing or broken: cell names cannot be told apart
    /// from unknown names then, so unknown names are not reported.
    cells_unknown: bool,
    geometry: Option<Geometry>,

    /// Zones, defines and relations that are part of a definition cycle (already reported).
    cyclic: HashSet<String>,

    frames: Vec<Frame>,
    /// Every variable picked anywhere in the program being checked, with its first pick.
    picks: HashMap<String, Span>,
    /// Defines being expanded, outermost first, with the span of their use.
    expanding: Vec<(usize, Span)>,
    /// How deep `infer` is in the expression being checked, defines expanded.
    depth: usize,
    /// The first expression found too deep once its defines are expanded (E0005), or the
    /// first expansion past the size limit (E0007).
    too_deep: Option<Diag>,
    /// How many expression parts the expansions of defines have added so far (E0007).
    expanded: usize,
    /// Checking a define that is never used: names that may be variables are not reported.
    lenient: bool,
    /// One "must be constant" report per constant expression.
    constant_reported: bool,
    /// The type of every expression inferred so far.
    types: model::ExprTypes,
    /// The declaration each resolved use of a name refers to.
    uses: model::Uses,
    /// Whether the `turn` program is being checked (`repetitions` is read only there).
    in_turn: bool,
    /// The kind of name the bare name at this span must be (a `step`'s relation, a `put`'s
    /// piece), so that an unknown one can list the names of that kind.
    wanted: Option<(Span, names::Want)>,
    /// The first `repetitions` the turn reads (E0521 with `again`).
    turn_repetitions: Option<Span>,
}

impl<'a> Checker<'a> {
    fn new(file: &'a ast::File) -> Self {
        Checker {
            file,
            diags: Vec::new(),
            errors: 0,
            seen: HashSet::new(),
            set_vars: HashSet::new(),
            placement_vars: HashSet::new(),
            player_vars: HashSet::new(),
            player_var_reads: 0,
            dir_vars: HashSet::new(),
            names: HashMap::new(),
            entries: Vec::new(),
            newly_used: Vec::new(),
            options: Vec::new(),
            options_ok: true,
            board: None,
            cells_unknown: false,
            geometry: None,
            cyclic: HashSet::new(),
            frames: Vec::new(),
            picks: HashMap::new(),
            expanding: Vec::new(),
            depth: 0,
            too_deep: None,
            expanded: 0,
            lenient: false,
            constant_reported: false,
            types: model::ExprTypes::default(),
            uses: model::Uses::default(),
            in_turn: false,
            wanted: None,
            turn_repetitions: None,
        }
    }

    fn run(&mut self) {
        self.declare_all();
        self.check_structure();
        self.check_options();
        self.check_presets();
        self.check_board();
        self.find_cycles();
        self.check_procedures();
        self.check_geometry_items();
        self.check_zones();
        self.check_counters();
        self.check_tracks();
        self.check_shapes();
        self.check_programs();
        self.check_history_ignores();
        self.check_ending();
        self.check_unused_defines();
        self.lint_unused();
        self.lint_silent_turn();
    }

    /// A table game: players and options as for any game, then the table declarations.
    fn run_table(&mut self) -> table::TableGame {
        self.declare_all();
        let file = self.file;
        let players = file
            .items
            .iter()
            .filter(|i| matches!(i.kind, ast::ItemKind::Players(_)))
            .count();
        if players == 0 {
            self.report(error::GameError::NoPlayers);
        }
        self.check_options();
        self.check_presets();
        let game = self.check_table_game();
        for army in &game.armies {
            for d in deck::check_army(&game, army) {
                self.report_diag(d);
            }
        }
        game
    }

    /// Diagnostics in source order (problems without a span first), each reported once.
    fn finish(self) -> Vec<Diag> {
        let mut keyed: Vec<(usize, Diag)> = self
            .diags
            .into_iter()
            .map(|d| (primary_span(d.as_ref()).map_or(0, |s| s.0), d))
            .collect();
        keyed.sort_by_key(|(start, _)| *start);
        keyed.into_iter().map(|(_, d)| d).collect()
    }

    /// Records a problem, unless the same problem (code and main span) was already recorded.
    /// Inside a define expansion the problem gets a label at the define's use.
    fn report<E>(&mut self, e: E)
    where
        E: Diagnostic + Send + Sync + 'static,
    {
        let mut diag: Diag = Box::new(e);
        if let Some(&(entry, use_span)) = self.expanding.first() {
            diag = Box::new(InDefine {
                inner: diag,
                define: self.entries[entry].name.clone(),
                use_span,
            });
        }
        self.report_diag(diag);
    }

    /// Records an already boxed problem, unless the same problem was already recorded.
    fn report_diag(&mut self, diag: Diag) {
        if self.seen.insert(seen_key(diag.as_ref())) {
            if rulestone_diag::severity(diag.as_ref()) == miette::Severity::Error {
                self.errors += 1;
            }
            self.diags.push(diag);
        }
    }

    /// How many errors were recorded so far (kept as they are recorded: passes ask before and
    /// after each declaration).
    fn error_count(&self) -> usize {
        self.errors
    }
}

/// What makes two problems the same: code and main span.
fn seen_key(d: &dyn Diagnostic) -> (String, usize, usize) {
    let code = rulestone_diag::code_of(d).unwrap_or_default();
    let (start, len) = primary_span(d).unwrap_or((0, 0));
    (code, start, len)
}

/// Offset and length of the label the header of a diagnostic points at.
fn primary_span(d: &dyn Diagnostic) -> Option<(usize, usize)> {
    let labels: Vec<miette::LabeledSpan> = d.labels()?.collect();
    let l = labels
        .iter()
        .find(|l| l.primary())
        .or_else(|| labels.first())?;
    Some((l.offset(), l.len()))
}
