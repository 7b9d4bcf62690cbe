//! `repetitions`, the one expression that reads the game's history: it counts the positions
//! moves make, so it is read only in `turn` (E0520), and only in games whose moves always pass
//! the turn (E0521), since the position it counts has the opponent to move.

use super::error::HistoryError;
use super::Checker;
use crate::syntax::ast::{Block, StmtKind};
use crate::syntax::Span;

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

/// The first `again` in a block, nested blocks included.
fn first_again(block: &Block) -> Option<Span> {
    block.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::Again => Some(s.span),
        StmtKind::If {
            then, otherwise, ..
        } => first_again(then).or_else(|| otherwise.as_ref().and_then(first_again)),
        StmtKind::Either(blocks) | StmtKind::First(blocks) => blocks.iter().find_map(first_again),
        StmtKind::Repeat { body, .. } | StmtKind::Distinct(body) | StmtKind::While { body, .. } => {
            first_again(body)
        }
        _ => None,
    })
}
