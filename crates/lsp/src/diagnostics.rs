//! The diagnostics `rulestone check` gives, as LSP diagnostics: code, severity, message with
//! the primary label and the help, the primary label's range, the other labels and the related
//! diagnostics as related information.

use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range,
    Uri,
};
use miette::{LabeledSpan, Severity};

use rulestone_diag::{self as diag, Diag};

use super::position::LineIndex;

/// Every diagnostic of a source text, as `rulestone check` reports it without `--set`.
#[must_use]
pub fn diagnose(uri: &Uri, source: &str) -> Vec<Diagnostic> {
    diagnose_until(uri, source, &mut || false).unwrap_or_default()
}

/// [`diagnose`], or `None` once `stop` answers true (asked between the checker's steps, see
/// [`rulestone_lower::diagnose_until`]): a check nobody waits for any more ends early.
pub fn diagnose_until(
    uri: &Uri,
    source: &str,
    stop: &mut dyn FnMut() -> bool,
) -> Option<Vec<Diagnostic>> {
    let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        rulestone_lower::diagnose_until(source, &[], stop)
    }));
    match found {
        Ok(diags) => {
            let index = LineIndex::new(source);
            Some(diags?.iter().map(|d| convert(uri, &index, d)).collect())
        }
        // A bug of the checker must not take the editor's server down with it.
        Err(_) => Some(vec![internal_error()]),
    }
}

/// What is published when the checker fails on a file.
#[must_use]
pub fn internal_error() -> Diagnostic {
    Diagnostic {
        range: Range::default(),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("rulestone".to_string()),
        message: "internal error: the checker failed on this file".to_string(),
        ..Diagnostic::default()
    }
}

pub(super) fn convert(uri: &Uri, index: &LineIndex, d: &Diag) -> Diagnostic {
    let d = d.as_ref();
    let labels: Vec<LabeledSpan> = d.labels().map(Iterator::collect).unwrap_or_default();
    let primary = labels.iter().position(LabeledSpan::primary).unwrap_or(0);
    let mut message = d.to_string();
    let mut at = Range::default();
    let mut related = Vec::new();
    for (i, label) in labels.iter().enumerate() {
        let span = index.range(label.offset(), label.offset() + label.len());
        if i == primary {
            at = span;
            if let Some(text) = label.label() {
                message.push('\n');
                message.push_str(text);
            }
        } else {
            related.push(DiagnosticRelatedInformation {
                location: Location::new(uri.clone(), span),
                message: label.label().unwrap_or("here").to_string(),
            });
        }
    }
    if let Some(help) = d.help() {
        message.push_str("\nhelp: ");
        message.push_str(&help.to_string());
    }
    if let Some(inner) = d.related() {
        for r in inner {
            let first = r.labels().and_then(|mut l| l.next());
            let span = first.map_or(at, |l| index.range(l.offset(), l.offset() + l.len()));
            let code = r.code().map(|c| format!("[{c}] ")).unwrap_or_default();
            related.push(DiagnosticRelatedInformation {
                location: Location::new(uri.clone(), span),
                message: format!("{code}{r}"),
            });
        }
    }
    Diagnostic {
        range: at,
        severity: Some(match diag::severity(d) {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Advice => DiagnosticSeverity::INFORMATION,
        }),
        code: diag::code_of(d).map(NumberOrString::String),
        source: Some("rulestone".to_string()),
        message,
        related_information: if related.is_empty() {
            None
        } else {
            Some(related)
        },
        ..Diagnostic::default()
    }
}
