//! The language's keywords, read from the grammar itself so that there is one list: the words
//! the grammar reserves (its `keyword` rule, never names) and every word it matches as a keyword
//! somewhere (its `kw_*` rules; some, such as `line` or `count`, are keywords only where the
//! grammar expects them).
//!
//! It also gives the keywords that begin a declaration (the first `kw_*` of each alternative of
//! the grammar's `item` rule) and a statement (the same for `stmt`), for "did you mean" on a
//! misspelt keyword where one of them must begin.
//!
//! Invariant: every list is exactly the quoted words of those rules in `grammar/game.pest`.

use std::sync::OnceLock;

const GRAMMAR: &str = include_str!("../../../grammar/game.pest");

/// The words that can never be names.
#[must_use]
pub fn reserved() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let Some(start) = GRAMMAR.find("\nkeyword = @{") else {
            return Vec::new();
        };
        let body = &GRAMMAR[start..];
        let end = body.find("\n}").unwrap_or(body.len());
        quoted(&body[..end])
    })
}

/// Every word that is a keyword somewhere in the grammar, in grammar order.
#[must_use]
pub fn all() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        GRAMMAR
            .lines()
            .filter(|line| line.starts_with("kw_"))
            .filter_map(|line| quoted(line).into_iter().next())
            .collect()
    })
}

/// The keywords a top-level declaration can begin with, in grammar order.
#[must_use]
pub fn declaration_starts() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| starts_of("item"))
}

/// The keywords a statement can begin with, in grammar order.
#[must_use]
pub fn statement_starts() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| starts_of("stmt"))
}

/// The body of a grammar rule: the text between `NAME = ... {` and its closing brace.
fn rule_body(name: &str) -> Option<&'static str> {
    let mut offset = 0;
    for line in GRAMMAR.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        if line.split_whitespace().next() != Some(name) || !line.contains('=') {
            continue;
        }
        let body = &GRAMMAR[here + line.find('{')? + 1..];
        return Some(&body[..body.find('}')?]);
    }
    None
}

/// The first keyword of each alternative of a rule that is a choice of other rules, such as
/// `stmt = _{ pick_stmt | put_stmt | ... }`; alternatives that begin with no keyword (an
/// assignment begins with a name) give none.
fn starts_of(choice: &str) -> Vec<String> {
    let Some(body) = rule_body(choice) else {
        return Vec::new();
    };
    let mut words: Vec<String> = Vec::new();
    for alternative in body.split('|').map(str::trim) {
        let first = rule_body(alternative)
            .and_then(|b| b.split_whitespace().next())
            .and_then(|t| t.strip_prefix("kw_"))
            .and_then(|kw| rule_body(&format!("kw_{kw}")))
            .and_then(|b| quoted(b).into_iter().next());
        if let Some(word) = first {
            if !words.contains(&word) {
                words.push(word);
            }
        }
    }
    words
}

/// Whether a word is a keyword somewhere in the grammar.
#[must_use]
pub fn is_keyword(word: &str) -> bool {
    all().iter().any(|k| k == word)
}

/// The quoted words of a piece of grammar text.
fn quoted(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic()))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{all, declaration_starts, is_keyword, reserved, statement_starts};

    #[test]
    fn the_grammar_lists_the_keywords() {
        assert!(reserved().iter().any(|w| w == "while"));
        assert!(reserved().iter().any(|w| w == "game"));
        assert!(!reserved().iter().any(|w| w == "line"));
        assert!(is_keyword("line") && is_keyword("for"));
        assert!(!is_keyword("zzz") && is_keyword("stone"));
        // Every reserved word is a keyword somewhere.
        assert!(reserved().iter().all(|w| is_keyword(w)), "{:?}", all());
    }

    #[test]
    fn the_grammar_lists_what_begins_declarations_and_statements() {
        let has = |list: &[String], w: &str| list.iter().any(|x| x == w);
        let (decls, stmts) = (declaration_starts(), statement_starts());
        for w in ["game", "players", "board", "piece", "turn", "on", "setup"] {
            assert!(has(decls, w), "{w} in {decls:?}");
        }
        for w in [
            "pick", "put", "require", "either", "draw", "let", "again", "move",
        ] {
            assert!(has(stmts, w), "{w} in {stmts:?}");
        }
        assert!(!has(stmts, "turn") && !has(decls, "pick"));
        assert!(decls.iter().chain(stmts).all(|w| is_keyword(w)));
    }
}
