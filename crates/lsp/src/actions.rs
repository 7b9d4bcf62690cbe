//! Code actions: the checker's "did you mean `X`?" suggestions as quick fixes that replace the
//! misspelt word with `X`.
//!
//! Invariant: a fix replaces exactly the primary label of its diagnostic, and only when that
//! label covers one word (so a suggestion about something larger is never pasted over it).

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Range, TextEdit, Uri, WorkspaceEdit,
};
use miette::LabeledSpan;

use rulestone_diag::Diag;

use super::diagnostics::convert;
use super::position::LineIndex;

/// The word a diagnostic's help suggests, and the byte range it would replace.
fn suggestion(source: &str, d: &Diag) -> Option<((usize, usize), String)> {
    let help = d.help()?.to_string();
    let rest = help.split("did you mean `").nth(1)?;
    let word = rest.split('`').next()?;
    let labels: Vec<LabeledSpan> = d.labels().map(Iterator::collect).unwrap_or_default();
    let label = labels
        .iter()
        .find(|l| l.primary())
        .or_else(|| labels.first())?;
    let (start, end) = (label.offset(), label.offset() + label.len());
    let replaced = source.get(start..end)?;
    let is_word =
        |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (is_word(replaced) && is_word(word) && replaced != word)
        .then(|| ((start, end), word.to_string()))
}

fn overlaps(a: Range, b: Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// The quick fixes for the diagnostics that touch a range.
#[must_use]
pub fn quick_fixes(uri: &Uri, source: &str, within: Range) -> Vec<CodeActionOrCommand> {
    let found =
        std::panic::catch_unwind(|| rulestone_lower::diagnose(source, &[])).unwrap_or_default();
    let index = LineIndex::new(source);
    found
        .iter()
        .filter_map(|d| {
            let ((start, end), word) = suggestion(source, d)?;
            let at = index.range(start, end);
            if !overlaps(at, within) {
                return None;
            }
            let edit = TextEdit {
                range: at,
                new_text: word.clone(),
            };
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Replace `{}` with `{word}`", &source[start..end]),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![convert(uri, &index, d)]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(true),
                ..CodeAction::default()
            }))
        })
        .collect()
}
