//! The formatter (`rulestone fmt`, `rulestone::syntax::format_source`) on every `.game` file of
//! the repository: it keeps the meaning (the same syntax tree, spans aside) and every comment,
//! it is idempotent, scrambled whitespace formats back to the same text, files that do not parse
//! are refused, and the bundled games are formatted (what CI checks).

use std::fs;
use std::path::{Path, PathBuf};

use rulestone::syntax::format::fingerprint;
use rulestone::syntax::{format_source, parse, FormatError};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.game` file under `dir`, sorted (build directories and `.git` skipped).
fn game_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.starts_with('.') && !name.starts_with("target") {
                    walk(&path, out);
                }
            } else if name.ends_with(".game") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

fn format(text: &str, what: &str) -> String {
    match format_source(text) {
        Ok(t) => t,
        Err(FormatError::Syntax(errors)) => {
            let rendered =
                rulestone::diag::render(&rulestone::diag::boxed(errors), text, what, false);
            panic!("{what}: does not parse:\n{rendered}")
        }
        Err(e) => panic!("{what}: {e}"),
    }
}

/// The comments of a text, in order, trimmed (strings skipped).
fn comments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut in_string = false;
    while let Some((i, c)) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if c == '/' && text[i..].starts_with("//") {
            let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
            out.push(text[i..end].trim_end().to_string());
            while chars.peek().is_some_and(|&(j, _)| j < end) {
                chars.next();
            }
        }
    }
    out
}

/// A small deterministic generator for the scrambles.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Characters next to which spaces may be added or removed without joining two tokens.
const LOOSE: &str = "(){}[],:|&+*=<>";

/// Scrambles the whitespace of a game text outside strings and comments, keeping its line
/// breaks: indentation removed or replaced by spaces and tabs, spaces around punctuation removed
/// or multiplied, trailing spaces, runs of blank lines.
fn scramble(text: &str, seed: u64) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let chars: Vec<char> = text.chars().collect();
    let mut out = "\n \n".to_string();
    let mut in_string = false;
    let mut in_comment = false;
    let mut line_start = true;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if line_start && !in_string {
            // The indentation: replaced by a random one.
            while i < chars.len() && (chars[i] == ' ' || chars[i] == '\t') {
                i += 1;
            }
            for _ in 0..rng.below(4) {
                out.push(if rng.below(3) == 0 { '\t' } else { ' ' });
            }
            line_start = false;
            continue;
        }
        if in_string {
            out.push(c);
            if c == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 1;
            } else if c == '"' {
                in_string = false;
            }
        } else if in_comment {
            if c == '\n' {
                in_comment = false;
                continue;
            }
            out.push(c);
        } else if c == '\n' {
            // Trailing spaces, sometimes extra blank lines.
            for _ in 0..rng.below(3) {
                out.push(' ');
            }
            out.push('\n');
            // A blank line becomes several.
            let rest: String = chars[i + 1..].iter().take_while(|&&c| c != '\n').collect();
            if i + 1 < chars.len() && rest.trim().is_empty() && rng.below(2) == 0 {
                out.push_str("\n  \n");
            }
            line_start = true;
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            in_comment = true;
            out.push(c);
        } else if c == ' ' {
            let before = i.checked_sub(1).map(|j| chars[j]);
            let after = chars.get(i + 1).copied();
            let loose = before.is_some_and(|b| LOOSE.contains(b))
                || after.is_some_and(|a| LOOSE.contains(a));
            if loose && rng.below(2) == 0 {
                // dropped
            } else {
                for _ in 0..=rng.below(3) {
                    out.push(' ');
                }
            }
        } else {
            out.push(c);
            let after = chars.get(i + 1).copied();
            let free = after.is_some_and(|a| a != ' ' && a != '\n' && a != '/');
            if "(){}[],:".contains(c) && free && rng.below(3) == 0 {
                out.push(' ');
            }
        }
        i += 1;
    }
    out.push_str("\n\n");
    out
}

#[test]
fn every_game_file_keeps_its_meaning_and_comments() {
    let files = game_files(&root());
    assert!(files.len() > 100, "found only {} .game files", files.len());
    let mut formatted = 0;
    for path in &files {
        let what = path.display().to_string();
        let source = read(path);
        let Ok(before) = parse(&source) else {
            match format_source(&source) {
                Err(FormatError::Syntax(errors)) => assert!(!errors.is_empty(), "{what}"),
                other => panic!("{what}: does not parse, yet formatting gave {other:?}"),
            }
            continue;
        };
        formatted += 1;
        let once = format(&source, &what);
        let after = parse(&once).unwrap_or_else(|e| panic!("{what}: formatted text: {e:?}"));
        assert_eq!(fingerprint(&before), fingerprint(&after), "{what}: meaning");
        assert_eq!(comments(&source), comments(&once), "{what}: comments");
        assert_eq!(format(&once, &what), once, "{what}: not idempotent");
        assert!(once.ends_with('\n') && !once.contains("\n\n\n"), "{what}");
        assert!(!once.lines().any(|l| l.ends_with(' ')), "{what}");
    }
    assert!(formatted > 100, "formatted only {formatted} files");
}

#[test]
fn scrambled_whitespace_formats_back() {
    for path in game_files(&root()) {
        let what = path.display().to_string();
        let source = read(&path);
        let Ok(canonical) = format_source(&source) else {
            continue;
        };
        for seed in 1..=3 {
            let scrambled = scramble(&source, seed);
            assert_ne!(scrambled, source, "{what}: the scramble changed nothing");
            assert_eq!(
                format(&scrambled, &format!("{what}, scramble {seed}")),
                canonical,
                "{what}, scramble {seed}"
            );
        }
        let crlf = canonical.replace('\n', "\r\n");
        if parse(&crlf)
            .is_ok_and(|f| parse(&canonical).is_ok_and(|g| fingerprint(&f) == fingerprint(&g)))
        {
            assert_eq!(format(&crlf, &what), canonical, "{what}, CRLF");
        }
    }
}

#[test]
fn statements_are_split_and_blocks_laid_out() {
    let src = "game \"T\" players A, B\nturn { pick c in empty put s at c\n  if c in top { win mover } else { draw } }\non no moves {}\n";
    let want = "game \"T\"\nplayers A, B\nturn {\n    pick c in empty\n    put s at c\n    if c in top { win mover } else { draw }\n}\non no moves {}\n";
    assert_eq!(format(src, "src"), want);
}

#[test]
fn comments_blank_lines_and_operators() {
    let src = r#"game "T" // the name
players A, B
board { // the board
    axes x, y

    cells x in 0..2, y in 0..2
    name "{letter(x)}{y + 1}"
    // last member

}
counter n per player = 0 hidden
define far = cells where x.x > -1 and not (x == 1)
    // why
    or {} == {a1}
turn {

    pick c in empty // where
    n[mover] -= -1 + - n[mover]
    if c in {a1} { win mover } else if c in {b2} {
        draw
    } else { lose mover }
    first { write "a" } or { write "b" }
    // end of turn
}
// the end
"#;
    let want = r#"game "T" // the name
players A, B
board { // the board
    axes x, y

    cells x in 0..2, y in 0..2
    name "{letter(x)}{y + 1}"
    // last member
}
counter n per player = 0 hidden
define far = cells where x.x > -1 and not (x == 1)
    // why
    or {} == {a1}
turn {
    pick c in empty // where
    n[mover] -= -1 + -n[mover]
    if c in {a1} { win mover } else if c in {b2} {
        draw
    } else { lose mover }
    first { write "a" } or { write "b" }
    // end of turn
}
// the end
"#;
    assert_eq!(format(src, "src"), want);
    assert_eq!(format(want, "want"), want);
}

#[test]
fn cards_are_aligned_in_columns() {
    let src = r#"card Blaze Crimson Core power 45
card CopperKing Copper Master basic by hand
card Ember Crimson Core basic // a comment ends the table
card Wave   Azure Core power 42

card Mist Azure Master basic
"#;
    let want = r#"card Blaze      Crimson Core   power 45
card CopperKing Copper  Master basic by hand
card Ember Crimson Core basic // a comment ends the table
card Wave Azure Core power 42

card Mist Azure Master basic
"#;
    assert_eq!(format(src, "src"), want);
    assert_eq!(format(want, "want"), want);
}

#[test]
fn files_that_do_not_parse_are_refused() {
    for name in [
        "E0001-missing-at",
        "E0004-unclosed-brace",
        "E0002-number-too-large",
    ] {
        let path = root().join(format!("tests/ui/syntax/{name}.game"));
        match format_source(&read(&path)) {
            Err(FormatError::Syntax(errors)) => assert!(!errors.is_empty()),
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// `rulestone fmt --check games/ tests/games/`: the bundled games are formatted.
#[test]
fn bundled_games_are_formatted() {
    let mut unformatted = Vec::new();
    for dir in ["games", "tests/games"] {
        for path in game_files(&root().join(dir)) {
            let source = read(&path);
            if format(&source, &path.display().to_string()) != source {
                unformatted.push(path.display().to_string());
            }
        }
    }
    assert!(
        unformatted.is_empty(),
        "not formatted (run `cargo run -- fmt games/ tests/games/`): {unformatted:#?}"
    );
}
