//! No function in hand-written code is longer than [`LIMIT`] lines, counted from its `fn` line
//! to its closing brace: a long function is split into a short dispatcher plus one named helper
//! per case or concern (`docs/architecture.md`).
//!
//! The scan covers `src/`, `crates/*/src/`, `crates/*/tests/` and `tests/` with its support
//! modules in the folders below it (`tests/generator/`, `tests/common/`, ...), and skips generated
//! code: any file that says `@generated` in its first lines (`tests/compiled/test_games.rs`, for
//! one). It is a small lexer, not a parser: it blanks out comments, strings (raw ones too) and
//! char literals so a brace inside them cannot fool it, then finds every `fn` followed by a
//! name, free, method or nested, skips those without a body (a trait method ending in `;`) and
//! matches the braces of the rest. Closures are not counted.

use std::fs;
use std::path::{Path, PathBuf};

/// The longest a hand-written function may be, in lines.
const LIMIT: usize = 150;

/// How many of a file's first lines may mark it as generated.
const GENERATED_MARK_LINES: usize = 5;

/// One function found by the scan.
#[derive(Debug, PartialEq, Eq)]
struct Function {
    name: String,
    /// The 1-based line of its `fn` keyword.
    line: usize,
    /// Lines from the `fn` line to the closing brace, both included.
    lines: usize,
}

#[test]
fn no_hand_written_function_is_longer_than_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut too_long = Vec::new();
    let mut scanned = 0;
    for path in hand_written_files(root) {
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        scanned += 1;
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for f in functions(&text) {
            if f.lines > LIMIT {
                too_long.push(format!(
                    "{shown}:{} fn {} ({} lines)",
                    f.line, f.name, f.lines
                ));
            }
        }
    }
    assert!(
        scanned > 50,
        "the scan found only {scanned} Rust files under {}",
        root.display()
    );
    assert!(
        too_long.is_empty(),
        "{} function(s) longer than {LIMIT} lines; split each into a short dispatcher plus \
         well-named helpers (one per case or concern), see docs/architecture.md:\n  {}",
        too_long.len(),
        too_long.join("\n  ")
    );
}

/// The hand-written `.rs` files the rule covers, in a stable order: everything under `src/`,
/// `tests/` (the test targets and the support modules in its folders), `crates/*/src/` and
/// `crates/*/tests/`.
fn hand_written_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    collect_rust_files(&root.join("src"), &mut files);
    collect_rust_files(&root.join("tests"), &mut files);
    if let Ok(crates) = fs::read_dir(root.join("crates")) {
        for krate in crates.flatten() {
            collect_rust_files(&krate.path().join("src"), &mut files);
            collect_rust_files(&krate.path().join("tests"), &mut files);
        }
    }
    files.retain(|path| !is_generated(path));
    files.sort();
    files
}

/// Every `.rs` file in `dir` and its subfolders; a missing folder has none.
fn collect_rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// Whether a file marks itself `@generated` near its top; such code is regenerated, not split.
fn is_generated(path: &Path) -> bool {
    fs::read_to_string(path).is_ok_and(|text| {
        text.lines()
            .take(GENERATED_MARK_LINES)
            .any(|line| line.contains("@generated"))
    })
}

/// Every function with a body in `source`, in order of its `fn` keyword.
fn functions(source: &str) -> Vec<Function> {
    let code = blank_non_code(source);
    let mut found = Vec::new();
    let mut i = 0;
    while i < code.len() {
        if is_keyword_fn(&code, i) {
            if let Some(f) = function_at(&code, i) {
                found.push(f);
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    found
}

/// Whether `code[i..]` starts the keyword `fn` (not `Fn`, not part of a longer identifier).
fn is_keyword_fn(code: &[char], i: usize) -> bool {
    code.get(i) == Some(&'f')
        && code.get(i + 1) == Some(&'n')
        && (i == 0 || !is_ident_char(code[i - 1]))
        && !code.get(i + 2).is_some_and(|&c| is_ident_char(c))
}

/// The function whose `fn` keyword is at `at`, or `None` for a bodiless declaration, a
/// function-pointer type (`fn(u8) -> u8`) or anything else that is not a definition.
fn function_at(code: &[char], at: usize) -> Option<Function> {
    let mut i = at + 2;
    while code.get(i).is_some_and(|c| c.is_whitespace()) {
        i += 1;
    }
    let name_start = i;
    while code.get(i).is_some_and(|&c| is_ident_char(c)) {
        i += 1;
    }
    if i == name_start {
        return None;
    }
    let name: String = code[name_start..i].iter().collect();
    let open = body_open(code, i)?;
    let close = matching_close(code, open)?;
    let line = line_of(code, at);
    Some(Function {
        name,
        line,
        lines: line_of(code, close) - line + 1,
    })
}

/// The `{` that opens the body after a signature starting at `from`: the first `{` outside
/// parentheses and brackets, or `None` if a `;` (a declaration) comes first.
fn body_open(code: &[char], from: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &c) in code.iter().enumerate().skip(from) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            '{' if depth == 0 => return Some(i),
            ';' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// The `}` matching the `{` at `open`.
fn matching_close(code: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &c) in code.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The 1-based line of `code[at]`.
fn line_of(code: &[char], at: usize) -> usize {
    code[..at].iter().filter(|&&c| c == '\n').count() + 1
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `source` with every comment, string literal and char literal replaced by spaces, newlines
/// kept, so positions and line numbers still match and only code braces remain.
fn blank_non_code(source: &str) -> Vec<char> {
    let src: Vec<char> = source.chars().collect();
    let mut out = src.clone();
    let mut i = 0;
    while i < src.len() {
        let literal_end = match src[i] {
            '/' if src.get(i + 1) == Some(&'/') => Some(line_comment_end(&src, i)),
            '/' if src.get(i + 1) == Some(&'*') => Some(block_comment_end(&src, i)),
            '"' => Some(string_end(&src, i)),
            'r' if starts_raw_string(&src, i) => Some(raw_string_end(&src, i)),
            '\'' => char_literal_end(&src, i),
            _ => None,
        };
        if let Some(end) = literal_end {
            blank(&mut out, i, end);
            i = end;
        } else if is_ident_char(src[i]) {
            // Step over a whole identifier so the `r` inside `bar` is never a raw prefix.
            i += 1;
            while src.get(i).is_some_and(|&c| is_ident_char(c)) && !starts_raw_string(&src, i) {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Replace `out[from..to]` by spaces, keeping newlines.
fn blank(out: &mut [char], from: usize, to: usize) {
    let to = to.min(out.len());
    for c in &mut out[from..to] {
        if *c != '\n' {
            *c = ' ';
        }
    }
}

fn line_comment_end(src: &[char], from: usize) -> usize {
    src[from..]
        .iter()
        .position(|&c| c == '\n')
        .map_or(src.len(), |n| from + n)
}

/// The end of a block comment starting at `from`; Rust block comments nest.
fn block_comment_end(src: &[char], from: usize) -> usize {
    let mut depth = 0usize;
    let mut i = from;
    while i < src.len() {
        if src[i] == '/' && src.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if src[i] == '*' && src.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    src.len()
}

/// The end (just past the closing quote) of a `"…"` string starting at `from`.
fn string_end(src: &[char], from: usize) -> usize {
    let mut i = from + 1;
    while i < src.len() {
        match src[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    src.len()
}

/// Whether an `r` at `at` starts a raw string (`r"…"`, `r#"…"#`, also after `b` or `c`),
/// rather than a raw identifier (`r#type`) or the end of a name.
fn starts_raw_string(src: &[char], at: usize) -> bool {
    if src.get(at) != Some(&'r') {
        return false;
    }
    let prefix_ok = at == 0
        || !is_ident_char(src[at - 1])
        || ((src[at - 1] == 'b' || src[at - 1] == 'c') && (at == 1 || !is_ident_char(src[at - 2])));
    if !prefix_ok {
        return false;
    }
    let mut i = at + 1;
    while src.get(i) == Some(&'#') {
        i += 1;
    }
    src.get(i) == Some(&'"')
}

/// The end of a raw string whose `r` is at `from`: past the quote and as many `#` as opened it.
fn raw_string_end(src: &[char], from: usize) -> usize {
    let mut i = from + 1;
    let mut hashes = 0;
    while src.get(i) == Some(&'#') {
        hashes += 1;
        i += 1;
    }
    i += 1;
    while i < src.len() {
        if src[i] == '"' && (1..=hashes).all(|k| src.get(i + k) == Some(&'#')) {
            return i + 1 + hashes;
        }
        i += 1;
    }
    src.len()
}

/// The end of a char literal starting at `from` (`'{'`, `'\n'`, `'\u{7b}'`), or `None` when
/// the quote starts a lifetime or label (`'a`, `'static`).
fn char_literal_end(src: &[char], from: usize) -> Option<usize> {
    match src.get(from + 1)? {
        '\\' => {
            let close = src[from + 2..].iter().position(|&c| c == '\'')?;
            Some(from + 2 + close + 1)
        }
        _ if src.get(from + 2) == Some(&'\'') => Some(from + 3),
        _ => None,
    }
}

const SAMPLE: &str = r####"
/// A doc comment with a brace {
fn braces_in_strings() -> usize {
    let a = "{ not a brace";
    let b = r"{{ raw";
    let c = r#"}"# ;
    let d = br##"a "# } still inside"##;
    let e = '{';
    let f = '\u{7b}';
    let g = b'}';
    /* a { block /* nested } */ comment { */
    // a line comment }
    a.len() + b.len() + c.len() + d.len() + e.len_utf8() + f.len_utf8() + g as usize
}

trait Shape {
    fn area(&self) -> f64;
    fn sides(&self) -> usize {
        0
    }
}

pub(crate) const unsafe extern "C" fn with_qualifiers<'a, T: Fn(u8) -> u8>(x: &'a [u8; 2]) -> u8
where
    T: Copy,
{
    fn nested(callback: fn(u8) -> u8) -> u8 {
        callback(1)
    }
    x[0]
}
"####;

#[test]
fn scanner_ignores_braces_in_strings_chars_and_comments() {
    let found = functions(SAMPLE);
    let summary: Vec<(&str, usize, usize)> = found
        .iter()
        .map(|f| (f.name.as_str(), f.line, f.lines))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("braces_in_strings", 3, 12),
            ("sides", 18, 3),
            ("with_qualifiers", 23, 9),
            ("nested", 27, 3),
        ]
    );
}

#[test]
fn scanner_flags_a_long_function() {
    let body = "    let x = \"}\";\n".repeat(LIMIT);
    let source = format!("fn long() {{\n{body}}}\n\nfn short() {{}}\n");
    let found = functions(&source);
    assert_eq!(
        found,
        vec![
            Function {
                name: "long".into(),
                line: 1,
                lines: LIMIT + 2,
            },
            Function {
                name: "short".into(),
                line: LIMIT + 4,
                lines: 1,
            },
        ]
    );
}

#[test]
fn generated_files_are_skipped() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bundled = root.join("tests/compiled/bundled.rs");
    if bundled.exists() {
        assert!(is_generated(&bundled));
        assert!(!hand_written_files(root).contains(&bundled));
    }
    assert!(hand_written_files(root).contains(&root.join("tests/function_length.rs")));
}
