//! The language's keywords, read from the grammar itself so that there is one list: the words
//! the grammar reserves (its `keyword` rule, never names) and every word it matches as a keyword
//! somewhere (its `kw_*` rules; some, such as `line` or `count`, are keywords only where the
//! grammar expects them).
//!
//! Invariant: both lists are exactly the quoted words of those rules in `grammar/game.pest`.

use std::sync::OnceLock;

const GRAMMAR: &str = include_str!("../../grammar/game.pest");

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
    use super::{all, is_keyword, reserved};

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
}
