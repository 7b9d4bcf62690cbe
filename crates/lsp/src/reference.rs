//! Hover text for keywords and built-ins, taken from the language reference
//! (`grammar/README.md`) so that its words are written once: the syntax that shows the word and
//! the first paragraph that explains it, with the number of the section they come from.
//!
//! The reference is read at first use and every keyword's and built-in's text is found then and
//! kept. A built-in is looked for first in the rows of the sections on built-ins. Otherwise, in
//! this order: a section titled by the word (`### 3.10b \`marker\``); a table row whose syntax
//! shows it (`pick v in S`, `count(S)`); a paragraph defining it in bold (`**\`if\`** keeps
//! ...`); a line of a section's syntax block (`axes X, Y, ...`), each first with the word at
//! the start of the code, then anywhere in it (`on no moves`, `put k of p at c`); last, a line of
//! an example, then a paragraph showing it in code.
//!
//! Invariant: every keyword of the grammar and every built-in of the checker finds a text (the
//! tests say which one lost it when the reference changes); nothing here names a game.

use std::collections::HashMap;
use std::sync::OnceLock;

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};
use rulestone_check::builtins;

use rulestone_syntax::keywords;

use super::position;
use super::tokens::{self, Kind, Token};

const REFERENCE: &str = include_str!("../../../grammar/README.md");

/// What the reference says about one word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The syntax that shows the word: a syntax block, a table row's syntax or one line.
    pub syntax: String,
    /// The first paragraph that explains it (or the rest of its table row).
    pub text: String,
    /// The number of its section, such as `3.10b`.
    pub section: String,
}

impl Entry {
    fn new(syntax: impl Into<String>, text: impl Into<String>, section: &Section) -> Entry {
        Entry {
            syntax: syntax.into(),
            text: text.into(),
            section: section.number.to_string(),
        }
    }

    /// The hover's Markdown: a title, the syntax, the text and where it comes from.
    #[must_use]
    pub fn markdown(&self, title: &str) -> String {
        format!(
            "{title}\n\n```\n{}\n```\n\n{}\n\n§{} in the language reference",
            self.syntax, self.text, self.section
        )
    }
}

/// What the reference says about a keyword or built-in, if it is one.
#[must_use]
pub fn entry(word: &str) -> Option<&'static Entry> {
    static ENTRIES: OnceLock<HashMap<String, Entry>> = OnceLock::new();
    ENTRIES
        .get_or_init(|| {
            let sections = sections(REFERENCE);
            documented_words()
                .filter_map(|w| find(&sections, &w).map(|e| (w, e)))
                .collect()
        })
        .get(word)
}

/// The hover title of a word: what it is, with a built-in function's signature.
#[must_use]
pub fn title(word: &str) -> String {
    if let Some(f) = builtins::function(word) {
        format!("built-in function `{}`", f.signature)
    } else if builtins::value(word).is_some() {
        format!("built-in value `{word}`")
    } else {
        format!("keyword `{word}`")
    }
}

/// Hovering a keyword or built-in at a byte offset: what the reference says about it. A word
/// the file binds as a variable (`pick to in ...`) is not taken for the keyword it spells.
#[must_use]
pub fn hover(source: &str, at: usize) -> Option<Hover> {
    let found = tokens::scan(source);
    let token = tokens::word_at(&found, at)?;
    if binds(source, &found, token.text(source)) {
        return None;
    }
    explain_token(source, token)
}

/// What the reference says about the keyword or built-in at a byte offset, where the syntax
/// tree says the word is no name.
#[must_use]
pub fn explain(source: &str, at: usize) -> Option<Hover> {
    let found = tokens::scan(source);
    explain_token(source, tokens::word_at(&found, at)?)
}

fn explain_token(source: &str, token: Token) -> Option<Hover> {
    let word = token.text(source);
    let entry = entry(word)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: entry.markdown(&title(word)),
        }),
        range: Some(position::range(source, token.start, token.end)),
    })
}

/// Whether a word follows `pick`, `let` or `place` somewhere: a variable's name.
fn binds(source: &str, found: &[Token], word: &str) -> bool {
    found.windows(2).any(|pair| {
        pair.iter().all(|t| t.kind == Kind::Word)
            && ["pick", "let", "place"].contains(&pair[0].text(source))
            && pair[1].text(source) == word
    })
}

/// Every word the reference must explain: the keywords and the built-ins.
fn documented_words() -> impl Iterator<Item = String> {
    keywords::all()
        .iter()
        .cloned()
        .chain(builtins::values().map(|b| b.name.to_string()))
        .chain(builtins::functions().map(|b| b.name.to_string()))
}

/// One part of a section.
#[derive(Debug)]
enum Block<'a> {
    Code(Vec<&'a str>),
    Paragraph(Vec<&'a str>),
    /// A table row's cells, escaped bars unescaped.
    Row(Vec<String>),
}

/// A numbered section: its number, its title and its blocks. A heading without a number
/// (`### A complete game`) continues the section before it.
#[derive(Debug)]
struct Section<'a> {
    number: &'a str,
    title: &'a str,
    /// Whether the heading has a number of its own (one without is an example, such as
    /// `### A complete game`, whose code is no syntax).
    numbered: bool,
    blocks: Vec<Block<'a>>,
}

impl Section<'_> {
    /// The code block a numbered section opens with, before any prose: its syntax. Command
    /// lines (`rulestone check FILE`) are not the language's.
    fn syntax_block(&self) -> Option<&[&str]> {
        match self.blocks.first() {
            Some(Block::Code(lines)) if self.numbered => Some(lines),
            _ => None,
        }
    }

    /// The line of the syntax block that shows the word, without its comment.
    fn syntax_line(&self, word: &str, shows: Shows) -> Option<&str> {
        code_line(self.syntax_block()?.iter(), word, shows)
    }

    /// The line of any of the section's code blocks that shows the word.
    fn any_code_line(&self, word: &str, shows: Shows) -> Option<&str> {
        if !self.numbered {
            return None;
        }
        let lines = self.blocks.iter().flat_map(|b| match b {
            Block::Code(lines) => lines.as_slice(),
            _ => &[],
        });
        code_line(lines, word, shows)
    }

    fn paragraphs(&self) -> impl Iterator<Item = &[&str]> {
        self.blocks.iter().filter_map(|b| match b {
            Block::Paragraph(lines) => Some(lines.as_slice()),
            _ => None,
        })
    }

    /// The first paragraph that shows the word in code, or else the first paragraph.
    fn paragraph_about(&self, word: &str) -> Option<String> {
        self.paragraphs()
            .find(|p| code_spans(&p.join(" ")).any(|c| has_word(c, word)))
            .or_else(|| self.paragraphs().next())
            .map(prose)
    }
}

/// The sections of the reference, from its `##`, `###` and `####` headings (text before the
/// first one is left out).
fn sections(text: &str) -> Vec<Section<'_>> {
    let mut reader = Reader::default();
    for line in text.lines() {
        reader.read(line);
    }
    reader.end_paragraph();
    reader.sections
}

/// The reference read line by line into sections and their blocks.
#[derive(Default)]
struct Reader<'a> {
    sections: Vec<Section<'a>>,
    /// The lines of the code block being read, inside its fences.
    fence: Option<Vec<&'a str>>,
    paragraph: Vec<&'a str>,
}

impl<'a> Reader<'a> {
    fn read(&mut self, line: &'a str) {
        if let Some(code) = self.fence.as_mut() {
            if line.trim_start().starts_with("```") {
                let code = self.fence.take().unwrap_or_default();
                self.push(Block::Code(code));
            } else {
                code.push(line);
            }
            return;
        }
        let starts_block = line.trim().is_empty()
            || ["#", "|", "```", "- ", "---"]
                .iter()
                .any(|p| line.starts_with(p));
        if starts_block {
            self.end_paragraph();
        }
        if let Some((number, title)) = heading(line) {
            self.open(number, title);
        } else if line.starts_with("```") {
            self.fence = Some(Vec::new());
        } else if line.starts_with('|') {
            // A table's separator row (`|---|---|`) is no row.
            if !line.contains("---") {
                self.push(Block::Row(cells(line)));
            }
        } else if !line.trim().is_empty() && !line.starts_with("---") {
            self.paragraph.push(line);
        }
    }

    /// Starts a section; one without a number of its own continues the one before.
    fn open(&mut self, number: &'a str, title: &'a str) {
        let numbered = !number.is_empty();
        let number = match self.sections.last() {
            Some(before) if !numbered => before.number,
            _ => number,
        };
        self.sections.push(Section {
            number,
            title,
            numbered,
            blocks: Vec::new(),
        });
    }

    fn end_paragraph(&mut self) {
        if !self.paragraph.is_empty() {
            let lines = std::mem::take(&mut self.paragraph);
            self.push(Block::Paragraph(lines));
        }
    }

    /// Adds a block to the current section (none before the first heading).
    fn push(&mut self, block: Block<'a>) {
        if let Some(section) = self.sections.last_mut() {
            section.blocks.push(block);
        }
    }
}

/// A heading's number (empty when it has none) and title.
fn heading(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("##")?.trim_start_matches('#');
    let rest = rest.strip_prefix(' ')?;
    let (first, title) = rest.split_once(' ').unwrap_or((rest, ""));
    let number = first.trim_end_matches('.');
    if number.starts_with(|c: char| c.is_ascii_digit()) {
        Some((number, title))
    } else {
        Some(("", rest))
    }
}

/// The cells of a table row, `\|` read as a bar inside a cell.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner
        .replace("\\|", "\u{0}")
        .split('|')
        .map(|c| c.trim().replace('\u{0}', "|"))
        .collect()
}

/// A paragraph's text, a bullet's `- ` and its lines' indent left out.
fn prose(lines: &[&str]) -> String {
    let text = lines
        .iter()
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join("\n");
    match text.strip_prefix("- ") {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// The code spans of a piece of Markdown.
fn code_spans(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

/// The words of a piece of code.
fn words(code: &str) -> impl Iterator<Item = &str> {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

fn has_word(code: &str, word: &str) -> bool {
    words(code).any(|w| w == word)
}

fn starts_with_word(code: &str, word: &str) -> bool {
    code.trim_start()
        .strip_prefix(word)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
}

/// How a piece of code shows a word: first, or anywhere.
type Shows = fn(&str, &str) -> bool;

/// The reference's text for a word: a built-in's row in a section on built-ins, else the first
/// way of finding it that finds something, each tried on every section in order, the word
/// first at the start of the code, then anywhere in it; examples and mentions in prose last.
/// Sections whose tables survey constructs defined in other sections (what each costs).
const SURVEYS: [&str; 1] = ["What things cost"];

fn find(sections: &[Section], word: &str) -> Option<Entry> {
    let is_builtin = super::analysis::is_builtin(word);
    let on_builtins = sections
        .iter()
        .filter(|s| is_builtin && s.title.starts_with("Built-in"))
        .find_map(|s| by_row(s, word, starts_with_word));
    let shows: [Shows; 2] = [starts_with_word, has_word];
    let first: [Way; 4] = [by_title, by_row, by_definition, by_syntax_line];
    let last: [Way; 2] = [by_code_line, by_mention];
    // A survey's rows name constructs defined elsewhere: never their definition.
    let defining: Vec<&Section> = sections
        .iter()
        .filter(|s| !SURVEYS.contains(&s.title))
        .collect();
    let tier = |ways: &[Way]| {
        shows.iter().find_map(|shows| {
            ways.iter()
                .find_map(|way| defining.iter().find_map(|s| way(s, word, *shows)))
        })
    };
    on_builtins.or_else(|| tier(&first)).or_else(|| tier(&last))
}

/// One way of finding a word's text in a section.
type Way = fn(&Section, &str, Shows) -> Option<Entry>;

/// A section whose title's code shows the word: its syntax block and first paragraph.
fn by_title(section: &Section, word: &str, shows: Shows) -> Option<Entry> {
    let title = code_spans(section.title).next()?;
    if !shows(title, word) {
        return None;
    }
    let syntax = section
        .syntax_block()
        .map_or_else(|| title.to_string(), |lines| lines.join("\n"));
    Some(Entry::new(syntax, section.paragraph_about(word)?, section))
}

/// A table row whose first cell (after a precedence level) is syntax (code) that shows the
/// word: that syntax, and the row's other cells as its text.
fn by_row(section: &Section, word: &str, shows: Shows) -> Option<Entry> {
    section.blocks.iter().find_map(|b| {
        let Block::Row(cells) = b else { return None };
        // The operators' table puts a precedence level before the syntax.
        let level = cells
            .first()
            .is_some_and(|c| c.chars().all(|c| c.is_ascii_digit()));
        let at = usize::from(level);
        let first = cells.get(at)?;
        if !first.starts_with('`') || !code_spans(first).any(|c| shows(c, word)) {
            return None;
        }
        let syntax = code_spans(first).collect::<Vec<_>>().join(", ");
        let rest: Vec<&str> = cells[at + 1..]
            .iter()
            .map(String::as_str)
            .filter(|c| !c.is_empty())
            .collect();
        Some(Entry::new(syntax, rest.join(" — "), section))
    })
}

/// A paragraph that defines the word in bold (`**\`if\`** keeps only ...`): the line of the
/// syntax block that shows it (else the bold code), and the paragraph.
fn by_definition(section: &Section, word: &str, shows: Shows) -> Option<Entry> {
    section.paragraphs().find_map(|p| {
        let first = p.first()?;
        let defined = first.trim_start_matches("- ").strip_prefix("**`")?;
        let code = defined.split('`').next()?;
        if !shows(code, word) {
            return None;
        }
        let syntax = section.syntax_line(word, shows).unwrap_or(code);
        Some(Entry::new(syntax, prose(p), section))
    })
}

/// A line of a section's syntax block that shows the word: that line, and the first paragraph
/// of the section that shows the word in code (else the line's comment, else its first one).
fn by_syntax_line(section: &Section, word: &str, shows: Shows) -> Option<Entry> {
    line_entry(section, section.syntax_line(word, shows)?, word)
}

/// The same with a line of any code block of the section (an example).
fn by_code_line(section: &Section, word: &str, shows: Shows) -> Option<Entry> {
    line_entry(section, section.any_code_line(word, shows)?, word)
}

/// The first line that shows the word, without its comment; command lines
/// (`rulestone check FILE`) are not the language's.
fn code_line<'a>(
    mut lines: impl Iterator<Item = &'a &'a str>,
    word: &str,
    shows: Shows,
) -> Option<&'a str> {
    lines.find_map(|l| {
        let code = l.split("//").next().unwrap_or_default().trim();
        (!code.starts_with("rulestone ") && shows(code, word)).then_some(code)
    })
}

fn line_entry(section: &Section, code: &str, word: &str) -> Option<Entry> {
    let line = section.blocks.iter().find_map(|b| match b {
        Block::Code(lines) => lines.iter().find(|l| l.contains(code)),
        _ => None,
    })?;
    let comment = line.split_once("//").map(|(_, c)| c.trim());
    let about = section
        .paragraphs()
        .find(|p| code_spans(&p.join(" ")).any(|c| has_word(c, word)))
        .map(prose);
    let text = about
        .or_else(|| comment.filter(|c| !c.is_empty()).map(str::to_string))
        .or_else(|| section.paragraph_about(word))?;
    Some(Entry::new(code, text, section))
}

/// A paragraph whose code shows the word (`\`cross LINE\` the moment ...`): that code and the
/// paragraph. Paths (`docs/rules/`) are not code of the language.
fn by_mention(section: &Section, word: &str, shows: Shows) -> Option<Entry> {
    section.paragraphs().find_map(|p| {
        let text = prose(p);
        let code = code_spans(&p.join(" "))
            .find(|c| !c.contains('/') && shows(c, word))?
            .to_string();
        Some(Entry::new(code, text, section))
    })
}

#[cfg(test)]
mod tests {
    use super::{builtins, documented_words, entry, hover, sections, title, HashMap, REFERENCE};

    /// Every keyword and built-in finds its text; the failure names those that lost it.
    #[test]
    fn every_keyword_and_builtin_has_a_text() {
        let missing: Vec<String> = documented_words().filter(|w| entry(w).is_none()).collect();
        assert!(
            missing.is_empty(),
            "no text in the reference for {missing:?}"
        );
    }

    /// Every built-in of the checker's table is explained in the reference's own tables
    /// (§4.3 values, §4.4 functions), and the editor grammar highlights it as what it is: a
    /// function in the rule of built-in functions, a value in that of built-in constants.
    #[test]
    fn every_builtin_is_in_the_reference_and_the_editor_grammar() {
        let grammar = include_str!("../../../editors/vscode/syntaxes/rulestone.tmLanguage.json");
        let grammar: serde_json::Value = serde_json::from_str(grammar).expect("grammar JSON");
        let patterns = grammar["repository"]
            .as_object()
            .into_iter()
            .flat_map(|r| r.values())
            .flat_map(|r| r["patterns"].as_array().into_iter().flatten());
        let mut by_scope: HashMap<String, Vec<String>> = HashMap::new();
        for p in patterns {
            let scope = p["name"].as_str().or(p["captures"]["1"]["name"].as_str());
            let words = p["match"].as_str().and_then(|m| {
                let start = m.find("\\b(")? + 3;
                let end = start + m[start..].find(')')?;
                Some(
                    m[start..end]
                        .split('|')
                        .map(str::to_string)
                        .collect::<Vec<_>>(),
                )
            });
            if let (Some(scope), Some(words)) = (scope, words) {
                by_scope.entry(scope.to_string()).or_default().extend(words);
            }
        }
        let rule = |scope: &str| by_scope.get(scope).cloned().unwrap_or_default();
        let functions = rule("support.function.builtin.rulestone");
        let values = rule("support.constant.builtin.rulestone");
        let mut missing = Vec::new();
        for b in builtins::TABLE {
            let (section, listed) = match b.id {
                builtins::Builtin::Func(_) => ("4.4", &functions),
                builtins::Builtin::Value(_) => ("4.3", &values),
            };
            if entry(b.name).is_none_or(|e| e.section != section) {
                missing.push(format!("`{}` in §{section} of grammar/README.md", b.name));
            }
            if !listed.iter().any(|w| w == b.name) {
                missing.push(format!("`{}` in the editor grammar", b.name));
            }
        }
        assert!(missing.is_empty(), "missing: {missing:?}");
    }

    /// Every word's text, for reading them over: `cargo test --lib reference -- --ignored
    /// --nocapture`.
    #[test]
    #[ignore = "prints every text"]
    fn print_every_text() {
        for w in documented_words() {
            if let Some(e) = entry(&w) {
                println!("===== {}\n{}\n", w, e.markdown(&title(&w)));
            }
        }
    }

    #[test]
    fn a_variable_spelt_like_a_keyword_is_not_explained() {
        let source = "turn {\n    pick to in empty\n    move to to to\n}\n";
        let at = |n: usize| {
            source
                .match_indices("to")
                .nth(n)
                .map(|(i, _)| i + 1)
                .unwrap_or_default()
        };
        assert!(hover(source, at(1)).is_none());
        assert!(hover(source, source.find("pick").unwrap_or_default()).is_some());
        assert!(hover(source, source.find("empty").unwrap_or_default()).is_some());
        // Comments and strings are not words.
        assert!(hover("// pick\nwrite \"pick\"", 4).is_none());
        assert!(hover("// pick\nwrite \"pick\"", 16).is_none());
    }

    #[test]
    fn the_reference_is_read_into_numbered_sections() {
        let all = sections(REFERENCE);
        assert!(all.iter().any(|s| s.number == "3.10b"));
        assert!(all.iter().all(|s| !s.number.is_empty()));
    }

    #[test]
    fn a_section_a_row_and_a_syntax_line() {
        let marker = entry("marker").expect("marker");
        assert_eq!(marker.section, "3.10b");
        assert!(marker.syntax.starts_with("marker \"TEXT\" on CELLS"));
        assert!(marker.text.starts_with("Display only"), "{}", marker.text);
        let count = entry("count").expect("count");
        assert_eq!(
            (count.syntax.as_str(), count.section.as_str()),
            ("count(S)", "4.4")
        );
        let pick = entry("pick").expect("pick");
        assert_eq!(pick.section, "5.1");
        assert!(pick.text.contains("choice point"));
        assert!(entry("axes").is_some_and(|e| e.syntax.starts_with("axes X")));
        assert_eq!(title("count"), "built-in function `count(cells) -> int`");
        assert_eq!(title("mover"), "built-in value `mover`");
        assert_eq!(title("pick"), "keyword `pick`");
        assert!(entry("zzz").is_none());
    }
}
