//! `repetitions`, the one expression that reads the game's history: it counts the positions
//! moves make, so it is read only in `turn` (E0520), and only in games whose moves always pass
//! the turn (E0521), since the position it counts has the opponent to move. `repetitions
//! ignore` names what its comparison leaves out: counters, or `mover` for the player to move.

use super::error::{HistoryError, ResolveError};
use super::names::Sym;
use super::{Axes, Checker};
use rulestone_syntax::ast::{Block, ItemKind, StmtKind};
use rulestone_syntax::{Ident, Span};

impl Checker<'_> {
    /// A use of `repetitions` (in a context where values of the position are allowed).
    pub(super) fn history_read(&mut self, span: Span) {
        if self.in_turn {
            self.turn_repetitions.get_or_insert(span);
        } else if !self.lenient {
            self.report(HistoryError::OutsideTurn { span });
        }
    }

    /// E0521: the turn reads `repetitions` (first at `span`) and may say `again`.
    pub(super) fn history_without_again(&mut self, turn: &Block, span: Span) {
        if let Some(again) = first_again(turn) {
            self.report(HistoryError::WithAgain { span, again });
        }
    }
}

impl Checker<'_> {
    /// `repetitions ignore ...`: each name a counter of any kind, or `mover`; W0522 when the
    /// game never reads `repetitions`, which the declaration then cannot change.
    pub(super) fn check_history_ignores(&mut self) {
        let file = self.file;
        for item in &file.items {
            let ItemKind::RepetitionsIgnore(names) = &item.kind else {
                continue;
            };
            for name in names {
                self.ignored_name(name);
            }
            if self.turn_repetitions.is_none() {
                self.report(HistoryError::IgnoredUnread {
                    span: Span {
                        start: item.span.start,
                        end: item.span.start + 11,
                    },
                });
            }
        }
    }

    /// One name of `repetitions ignore`: a counter (global, per player or per cell) or `mover`.
    fn ignored_name(&mut self, id: &Ident) {
        if id.name == "mover" {
            return;
        }
        match self.use_global(id) {
            Some((_, Sym::Counter { .. } | Sym::Layer)) => {}
            Some(_) => self.report(ResolveError::WrongKind {
                expected: "a counter or `mover`".to_string(),
                found: self.describe_name(&id.name),
                span: id.span,
                help: Some(
                    "`repetitions ignore` leaves counters, and with `mover` the player to move, \
                     out of the positions it compares"
                        .to_string(),
                ),
            }),
            None => self.unknown_name(id, Axes::Hidden),
        }
    }
}

/// The first `again` in a block, nested blocks included.
fn first_again(block: &Block) -> Option<Span> {
    block.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::Again => Some(s.span),
        StmtKind::If {
            then, otherwise, ..
        } => first_again(then).or_else(|| otherwise.as_ref().and_then(first_again)),
        StmtKind::Either(blocks) | StmtKind::First(blocks) => blocks.iter().find_map(first_again),
        StmtKind::Repeat { body, .. }
        | StmtKind::Distinct(body)
        | StmtKind::While { body, .. }
        | StmtKind::Call {
            body: Some(body), ..
        } => first_again(body),
        _ => None,
    })
}
