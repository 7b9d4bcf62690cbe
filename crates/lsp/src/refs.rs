//! Finding every occurrence of a name and renaming it.
//!
//! A global name (what the checker declares), a name the syntax tree declares elsewhere (axes,
//! table parameters, lines, regions) and a local (a variable bound inside one item: valid in
//! that item only, since a local may not reuse a global name) are found as words of the text,
//! joined by the uses the checker resolved. A rename is refused when the new name is not a
//! name, is a keyword or a built-in, is already used in the file, or when the renamed file
//! would have more errors than before.

use std::collections::HashMap;

use lsp_types::{Location, Position, PrepareRenameResponse, TextEdit, Uri, WorkspaceEdit};

use rulestone_syntax::keywords;

use super::analysis::{is_builtin, Analysis};
use super::position::{offset, range, LineIndex};

/// Every occurrence of the name at a position, with or without its declaration, in the
/// analysed text.
#[must_use]
pub fn references(
    uri: &Uri,
    analysis: &Analysis,
    at: Position,
    include_declaration: bool,
) -> Option<Vec<Location>> {
    let source = analysis.source.as_str();
    let target = analysis.target(offset(source, at))?;
    let spans = analysis.occurrences(&target);
    let index = LineIndex::new(source);
    Some(
        spans
            .into_iter()
            .filter(|s| include_declaration || Some(*s) != target.declared)
            .map(|s| Location::new(uri.clone(), index.range(s.start as usize, s.end as usize)))
            .collect(),
    )
}

/// The range of the name a rename at this position of the analysed text would change, or
/// nothing to rename.
#[must_use]
pub fn prepare(analysis: &Analysis, at: Position) -> Option<PrepareRenameResponse> {
    let source = analysis.source.as_str();
    let target = analysis.target(offset(source, at))?;
    Some(PrepareRenameResponse::Range(range(
        source,
        target.at.start,
        target.at.end,
    )))
}

/// The edits that rename the name at a position of the analysed text.
///
/// # Errors
/// Nothing renamable is there, or the new name is refused (the message says why).
pub fn rename(
    uri: &Uri,
    analysis: &Analysis,
    at: Position,
    new_name: &str,
) -> Result<WorkspaceEdit, String> {
    let source = analysis.source.as_str();
    let target = analysis
        .target(offset(source, at))
        .ok_or("there is no name to rename here")?;
    if new_name == target.name {
        return Ok(WorkspaceEdit::default());
    }
    valid_name(new_name)?;
    if let Some(clash) = analysis
        .words()
        .find(|t| t.text(source) == new_name)
        .map(|t| range(source, t.start, t.end).start)
    {
        return Err(format!(
            "`{new_name}` is already used in this file (line {}, column {})",
            clash.line + 1,
            clash.character + 1
        ));
    }
    let spans = analysis.occurrences(&target);
    // The renamed text in one pass (spans are sorted and do not overlap).
    let mut renamed = String::with_capacity(source.len());
    let mut copied = 0;
    for s in &spans {
        let Some(before) = source.get(copied..s.start as usize) else {
            continue;
        };
        renamed.push_str(before);
        renamed.push_str(new_name);
        copied = s.end as usize;
    }
    renamed.push_str(&source[copied..]);
    still_as_good(source, &renamed)?;
    let index = LineIndex::new(source);
    let edits = spans
        .iter()
        .map(|s| TextEdit {
            range: index.range(s.start as usize, s.end as usize),
            new_text: new_name.to_string(),
        })
        .collect();
    Ok(WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    })
}

/// A new name must be a name: letters, digits and `_`, not starting with a digit, and neither
/// a reserved keyword nor a built-in (a word that is a keyword only in some places may be a
/// name: the check after renaming refuses it where it is not).
fn valid_name(name: &str) -> Result<(), String> {
    let first = name.chars().next().ok_or("the new name is empty")?;
    if !(first.is_ascii_alphabetic() || first == '_')
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Err(format!(
            "`{name}` is not a name: use letters, digits and `_`, starting with a letter or `_`"
        ));
    }
    if keywords::reserved().iter().any(|k| k == name) {
        return Err(format!("`{name}` is a keyword of the language"));
    }
    if is_builtin(name) {
        return Err(format!("`{name}` is a built-in name"));
    }
    Ok(())
}

/// Refuses a rename after which the checker finds more errors than before.
fn still_as_good(before: &str, after: &str) -> Result<(), String> {
    let errors = |text: &str| {
        let found =
            std::panic::catch_unwind(|| rulestone_lower::diagnose(text, &[])).unwrap_or_default();
        found
            .into_iter()
            .filter(|d| rulestone_diag::severity(d.as_ref()) == miette::Severity::Error)
            .collect::<Vec<_>>()
    };
    let old = errors(before).len();
    let new = errors(after);
    match new.get(old..).and_then(|extra| extra.first()) {
        None => Ok(()),
        Some(first) => {
            let code = rulestone_diag::code_of(first.as_ref())
                .map(|c| format!("[{c}] "))
                .unwrap_or_default();
            Err(format!(
                "the renamed file would not check: {code}{}",
                first.as_ref()
            ))
        }
    }
}
