//! The game as a whole: required declarations, options, definition cycles, the programs, whether
//! the game can end, and unused declarations.

use std::collections::HashMap;

use super::board::head;
use super::error::{GameError, Lint, OnceError, OptionDeclError, ResolveError};
use super::names::Sym;
use super::stmt::ends_game;
use super::suggest;
use super::{options, Axes, Checker, Cx};
use rulestone_syntax::ast::{
    number_text, Block, Expr, ExprKind, ItemKind, OptionType, OptionValue, RelItem, StmtKind,
};
use rulestone_syntax::{Ident, Span};

/// Every name an expression refers to (not function names or `.axis` fields).
fn names_in<'e>(e: &'e Expr, out: &mut Vec<&'e Ident>) {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Decimal(_) => {}
        ExprKind::Name(id) => out.push(id),
        ExprKind::Call { func, args } => {
            // A call may be one of a parameterised define.
            out.push(func);
            for a in args {
                names_in(a, out);
            }
        }
        ExprKind::CellSet(args) => {
            for a in args {
                names_in(a, out);
            }
        }
        ExprKind::Unary { operand, .. } => names_in(operand, out),
        ExprKind::Binary { lhs, rhs, .. } => {
            names_in(lhs, out);
            names_in(rhs, out);
        }
        ExprKind::Field { base, .. } => names_in(base, out),
        ExprKind::Index { base, index } => {
            names_in(base, out);
            names_in(index, out);
        }
        ExprKind::If {
            cond,
            then,
            otherwise,
        } => {
            names_in(cond, out);
            names_in(then, out);
            names_in(otherwise, out);
        }
    }
}

impl Checker<'_> {
    /// `players`, `game`, `turn`, `setup` and `on no moves`: present or unique as required.
    pub(super) fn check_structure(&mut self) {
        let file = self.file;
        let mut players: Option<Span> = None;
        let mut game: Option<Span> = None;
        let mut turn: Option<Span> = None;
        let mut setup: Option<Span> = None;
        let mut no_moves: Option<Span> = None;
        let mut score: Option<Span> = None;
        let mut heuristic: Option<Span> = None;
        let mut ignores: Option<Span> = None;
        for item in &file.items {
            let (slot, what, span) = match &item.kind {
                ItemKind::Players(names) => {
                    if players.is_none() && names.len() != 2 {
                        let end = names.last().map_or(item.span.end, |n| n.span.end);
                        self.report(GameError::PlayerCount {
                            count: names.len(),
                            span: Span {
                                start: item.span.start,
                                end: end.min(item.span.end),
                            },
                        });
                    }
                    (&mut players, "players", head(item.span, 7))
                }
                ItemKind::Game { .. } => (&mut game, "game", head(item.span, 4)),
                ItemKind::Turn(_) => (&mut turn, "turn", head(item.span, 4)),
                ItemKind::Setup(_) => (&mut setup, "setup", head(item.span, 5)),
                ItemKind::Score { .. } => (&mut score, "score", head(item.span, 5)),
                ItemKind::Heuristic { .. } => (&mut heuristic, "heuristic", head(item.span, 9)),
                ItemKind::RepetitionsIgnore(_) => {
                    (&mut ignores, "repetitions ignore", head(item.span, 11))
                }
                ItemKind::NoMoves(b) => (
                    &mut no_moves,
                    "on no moves",
                    Span {
                        start: item.span.start,
                        end: b.span.start.saturating_sub(1).max(item.span.start + 2),
                    },
                ),
                _ => continue,
            };
            match *slot {
                Some(first) if what == "heuristic" => {
                    self.report(GameError::HeuristicTwice { span, first });
                }
                Some(first) => self.report(GameError::Twice { what, span, first }),
                None => *slot = Some(span),
            }
        }
        if players.is_none() {
            self.report(GameError::NoPlayers);
        }
        if turn.is_none() {
            let piece = self.first_piece().unwrap_or_else(|| "PIECE".to_string());
            self.report(GameError::Missing {
                what: "turn",
                example: format!("turn {{ pick c in empty  put {piece} at c }}"),
            });
        }
    }

    /// The first piece the game declares, for examples written in the game's own words.
    fn first_piece(&self) -> Option<String> {
        self.file.items.iter().find_map(|i| match &i.kind {
            ItemKind::Piece { name, .. } => Some(name.name.clone()),
            _ => None,
        })
    }

    /// Option types and defaults.
    pub(super) fn check_options(&mut self) {
        self.check_combinations();
        for o in self.options.clone() {
            let value = options::default_text(o);
            let mut default_checkable = true;
            match &o.ty {
                OptionType::Enum(words) => {
                    let mut firsts: HashMap<&str, Span> = HashMap::new();
                    for w in words {
                        if let Some(&first) = firsts.get(w.name.as_str()) {
                            self.report(OptionDeclError::DuplicateWord {
                                name: o.name.name.clone(),
                                word: w.name.clone(),
                                span: w.span,
                                first,
                            });
                        } else {
                            firsts.insert(&w.name, w.span);
                        }
                    }
                }
                OptionType::Range {
                    lo,
                    hi,
                    span,
                    decimal,
                } => {
                    if lo > hi {
                        self.report(OptionDeclError::EmptyRange {
                            lo: number_text(*lo, *decimal),
                            hi: number_text(*hi, *decimal),
                            span: *span,
                        });
                        self.options_ok = false;
                        default_checkable = false;
                    }
                }
            }
            if !default_checkable || options::default_value(o).is_some() {
                continue;
            }
            self.options_ok = false;
            let accepted = options::accepted(o);
            let suggestion = match (&o.ty, &o.default) {
                (OptionType::Enum(words), OptionValue::Word(w)) => {
                    suggest::closest(&w.name, words.iter().map(|x| x.name.as_str()))
                }
                _ => None,
            };
            let help = match suggestion {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("the option takes {accepted}"),
            };
            self.report(OptionDeclError::BadDefault {
                name: o.name.name.clone(),
                value,
                span: o.default.span(),
                accepted,
                help: Some(help),
            });
        }
    }

    /// The combinations of the enumerated options' words (E1011): `compile` builds a program
    /// for each, so their number is bounded by [`options::MAX_COMBINATIONS`].
    fn check_combinations(&mut self) {
        let limit = options::MAX_COMBINATIONS;
        let mut count: u64 = 1;
        let mut past = None;
        for o in &self.options {
            if let OptionType::Enum(words) = &o.ty {
                let distinct = options::distinct_words(words) as u64;
                count = count.saturating_mul(distinct.max(1));
                if past.is_none() && count > limit as u64 {
                    past = Some(o.name.span);
                }
            }
        }
        if let Some(span) = past {
            let count = if count == u64::MAX {
                format!("more than {}", u64::MAX)
            } else {
                count.to_string()
            };
            self.report(OptionDeclError::TooManyCombinations { count, limit, span });
        }
    }

    /// The declared names a zone, define or relation refers to, with where.
    fn references(&self, entry: usize) -> Vec<(usize, Span)> {
        let (Sym::Zone { item }
        | Sym::Define { item }
        | Sym::Relation { item }
        | Sym::Procedure { item }) = self.entries[entry].sym
        else {
            return Vec::new();
        };
        let mut ids: Vec<&Ident> = Vec::new();
        match self.file.items.get(item).map(|i| &i.kind) {
            Some(ItemKind::Zone { cells: e, .. }) => names_in(e, &mut ids),
            // A parameter hides a declaration of its name in the body.
            Some(ItemKind::Define { params, expr, .. }) => {
                names_in(expr, &mut ids);
                ids.retain(|id| params.iter().all(|p| p.name != id.name));
            }
            Some(ItemKind::Procedure { body, .. }) => super::procedures::calls_in(body, &mut ids),
            Some(ItemKind::Relation { members, .. }) => {
                ids.extend(members.iter().filter_map(|m| match m {
                    RelItem::Name(id) => Some(id),
                    RelItem::Vector(_) => None,
                }));
            }
            _ => {}
        }
        ids.into_iter()
            .filter(|id| self.axis_index(&id.name).is_none())
            .filter_map(|id| {
                let &target = self.names.get(&id.name)?;
                matches!(
                    self.entries[target].sym,
                    Sym::Zone { .. }
                        | Sym::Define { .. }
                        | Sym::Relation { .. }
                        | Sym::Procedure { .. }
                )
                .then_some((target, id.span))
            })
            .collect()
    }

    /// Zones, defines and relations defined in terms of themselves (E0105), once per cycle.
    pub(super) fn find_cycles(&mut self) {
        let mut state = vec![0_u8; self.entries.len()];
        let mut stack = Vec::new();
        for n in 0..self.entries.len() {
            if state[n] == 0 {
                self.visit(n, &mut state, &mut stack);
            }
        }
    }

    /// Depth-first from `n`, with an explicit stack: a chain of thousands of definitions must
    /// not exhaust the thread's stack.
    fn visit(&mut self, n: usize, state: &mut [u8], stack: &mut Vec<usize>) {
        // Each open node with its references and how many of them were followed.
        let mut open: Vec<OpenNode> = Vec::new();
        state[n] = 1;
        stack.push(n);
        open.push((n, self.references(n), 0));
        while let Some((node, refs, next)) = open.last_mut() {
            let Some(&(target, span)) = refs.get(*next) else {
                let node = *node;
                open.pop();
                stack.pop();
                state[node] = 2;
                continue;
            };
            *next += 1;
            match state[target] {
                0 => {
                    state[target] = 1;
                    stack.push(target);
                    let refs = self.references(target);
                    open.push((target, refs, 0));
                }
                1 => {
                    let from = stack.iter().position(|&x| x == target).unwrap_or(0);
                    let members: Vec<String> = stack[from..]
                        .iter()
                        .map(|&m| self.entries[m].name.clone())
                        .collect();
                    if members.iter().all(|m| !self.cyclic.contains(m)) {
                        self.report(ResolveError::Cycle {
                            name: self.entries[target].name.clone(),
                            span,
                            decl: self.entries[target].span,
                        });
                    }
                    self.cyclic.extend(members);
                }
                _ => {}
            }
        }
    }

    /// The turn, setup and on-no-moves programs.
    pub(super) fn check_programs(&mut self) {
        let file = self.file;
        for item in &file.items {
            if let ItemKind::Setup(b) | ItemKind::Turn(b) | ItemKind::NoMoves(b) = &item.kind {
                self.in_turn = matches!(item.kind, ItemKind::Turn(_));
                self.program(b);
                self.in_turn = false;
                if let (ItemKind::Turn(b), Some(span)) = (&item.kind, self.turn_repetitions) {
                    self.history_without_again(b, span);
                }
            }
            if let ItemKind::Score { player, expr } = &item.kind {
                self.per_player_int(player, expr);
            }
            if let ItemKind::Heuristic { player, expr } = &item.kind {
                self.heuristic(player, expr);
            }
            if let ItemKind::Marker { cells, .. } = &item.kind {
                self.frames.clear();
                self.expect(cells, super::expr::Ty::Cells, Cx::PLAY);
            }
            if let ItemKind::Status { text, when } = &item.kind {
                self.frames.clear();
                self.template(text, Cx::PLAY);
                if let Some(w) = when {
                    self.expect(w, super::expr::Ty::Bool, Cx::PLAY);
                }
            }
            if let ItemKind::Counter {
                view: rulestone_syntax::ast::CounterView::Directions(rel),
                ..
            } = &item.kind
            {
                self.expect_kind(
                    rel,
                    super::names::Sym::Relation { item: 0 },
                    Some(
                        "`shown as` names the relation whose directions the counter numbers".into(),
                    ),
                );
            }
            match &item.kind {
                ItemKind::Setup(b) => self.check_once(b, "setup"),
                ItemKind::NoMoves(b) => self.check_once(b, "on no moves"),
                _ => {}
            }
        }
    }

    /// `score p = expr` and `heuristic p = expr`: a number (integer or decimal) for each player
    /// `p`. Returns
    /// whether the expression checked without errors and how often it read `p` (through
    /// defines too).
    fn per_player_int(&mut self, player: &Ident, expr: &Expr) -> (bool, usize) {
        let errors = self.error_count();
        let reads = self.player_var_reads;
        self.frames.clear();
        self.frames.push(super::Frame::default());
        self.bind_name(player);
        self.player_vars.insert(player.name.clone());
        self.expect_number(expr, Cx::PLAY);
        self.player_vars.remove(&player.name);
        self.frames.clear();
        (self.error_count() == errors, self.player_var_reads - reads)
    }

    /// `heuristic p = expr`: an integer for each player `p`, which had better depend on `p`
    /// (W0507): a search only sees the difference between the two players' values.
    fn heuristic(&mut self, player: &Ident, expr: &Expr) {
        let (clean, reads) = self.per_player_int(player, expr);
        if clean && reads == 0 {
            self.report(GameError::HeuristicIgnoresPlayer {
                player: player.name.clone(),
                span: expr.span,
                var: player.span,
            });
        }
    }

    /// `setup` and `on no moves` run once without choices: a choice point or a `require` there
    /// would silently do nothing sensible (E0506).
    fn check_once(&mut self, block: &Block, program: &'static str) {
        for s in &block.stmts {
            let span = super::stmt::stmt_span(s);
            let choice = |what| OnceError::Choice {
                what,
                program,
                span,
            };
            match &s.kind {
                StmtKind::Pick { .. } => self.report(choice("pick")),
                StmtKind::Place { .. } => self.report(choice("place")),
                StmtKind::Roll { .. } => self.report(choice("roll")),
                StmtKind::Either(_) => self.report(choice("either")),
                StmtKind::First(_) => self.report(choice("first")),
                StmtKind::Repeat { min, max, .. } if min < max => self.report(choice("repeat")),
                StmtKind::Require(_) => self.report(OnceError::Require { program, span }),
                _ => {}
            }
            match &s.kind {
                StmtKind::If {
                    then, otherwise, ..
                } => {
                    self.check_once(then, program);
                    if let Some(b) = otherwise {
                        self.check_once(b, program);
                    }
                }
                StmtKind::Repeat { body, .. }
                | StmtKind::Distinct(body)
                | StmtKind::While { body, .. }
                | StmtKind::Call {
                    body: Some(body), ..
                } => {
                    self.check_once(body, program);
                }
                _ => {}
            }
        }
    }

    /// A game whose rules never say `win`, `lose` or `draw` can never end (E0503).
    pub(super) fn check_ending(&mut self) {
        let file = self.file;
        let mut turn = None;
        let mut ends = false;
        for item in &file.items {
            match &item.kind {
                ItemKind::Turn(b) => {
                    turn.get_or_insert(item.span);
                    ends |= ends_game(b);
                }
                ItemKind::Setup(b) | ItemKind::NoMoves(b) => ends |= ends_game(b),
                _ => {}
            }
        }
        if let (Some(span), false) = (turn, ends) {
            self.report(GameError::NeverEnds {
                span: head(span, 4),
            });
        }
    }

    /// A turn that never writes gives every move the same empty text, which nobody can type
    /// (W0602). Only when the checker has found no error, as for W0601: a fixture or a file
    /// being written is told first what is wrong.
    pub(super) fn lint_silent_turn(&mut self) {
        if self.error_count() > 0 {
            return;
        }
        let file = self.file;
        for item in &file.items {
            if let ItemKind::Turn(b) = &item.kind {
                if !b.stmts.is_empty() && !b.any_stmt(&|k| matches!(k, StmtKind::Write(_))) {
                    self.report(Lint::SilentTurn {
                        span: head(item.span, 4),
                    });
                }
            }
        }
    }

    /// Defines that are never used are still checked, as far as makes sense without a use:
    /// names that might be variables at a use are not reported.
    pub(super) fn check_unused_defines(&mut self) {
        for entry in 0..self.entries.len() {
            let Sym::Define { item } = self.entries[entry].sym else {
                continue;
            };
            if self.entries[entry].used || self.cyclic.contains(&self.entries[entry].name) {
                continue;
            }
            let Some(ItemKind::Define { params, expr, .. }) =
                self.file.items.get(item).map(|i| &i.kind)
            else {
                continue;
            };
            // A parameter stands for an argument nobody gave: a name that matches no
            // declaration, so that it passes unreported as a possible variable would.
            let unknowns: Vec<Expr> = params
                .iter()
                .map(|p| Expr {
                    kind: ExprKind::Name(Ident {
                        name: format!("{}()", p.name),
                        span: p.span,
                    }),
                    span: p.span,
                })
                .collect();
            let body = expr.substitute(params, &unknowns);
            self.lenient = true;
            self.frames.clear();
            self.picks.clear();
            self.infer(
                &body,
                Cx {
                    axes: Axes::All,
                    constant: None,
                },
            );
            self.lenient = false;
        }
    }

    /// Declarations nobody refers to (W0601).
    ///
    /// Only when the checker has found no error: a pass skips what an error made meaningless
    /// (a missing `turn` leaves no rules to use anything, an unknown name may be a misspelt use,
    /// a wrong expression is not looked into further), so once there is an error the uses are
    /// not all known, and "never used" would be a follow-on of it, not a finding of its own.
    pub(super) fn lint_unused(&mut self) {
        // Past a too-deep expansion, what it would have used is unknown.
        if self.too_deep.is_some() || self.error_count() > 0 {
            return;
        }
        let unused: Vec<(&'static str, String, Span)> = self
            .entries
            .iter()
            .filter(|e| !e.used && !matches!(e.sym, Sym::Player | Sym::Word { .. }))
            .filter(|e| !self.cyclic.contains(&e.name))
            .map(|e| (e.sym.kind(), e.name.clone(), e.span))
            .collect();
        for (kind, name, span) in unused {
            self.report(Lint::Unused { kind, name, span });
        }
    }
}

/// A definition being visited by the cycle search: its references and how many were followed.
type OpenNode = (usize, Vec<(usize, Span)>, usize);
