//! The registry of codes is complete and every code is real (rustc's tidy `error_codes` check):
//! each code has an explanation with a bad and a fixed example, at least one UI fixture whose
//! snapshot shows it, and a `code(...)` attribute somewhere in `src/`; and every code a fixture
//! expects is registered.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

use rulestone::diag::{explain, CODES};

mod common;

use common::{files, root};

fn read_all(dir: &str, ext: &str) -> Vec<(PathBuf, String)> {
    let mut paths = Vec::new();
    files(&root().join(dir), ext, &mut paths);
    paths
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).unwrap_or_default();
            (p, text)
        })
        .collect()
}

/// The fenced code blocks of a markdown text with their info strings.
fn code_blocks(markdown: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in markdown.lines() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some((info.trim().to_string(), String::new())),
            }
        } else if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    blocks
}

#[test]
fn every_code_is_explained() {
    let mut missing = Vec::new();
    for info in CODES {
        let text = info.explanation;
        let blocks = code_blocks(text);
        if text.trim().is_empty() || info.title.is_empty() {
            missing.push(format!("{}: empty title or explanation", info.code));
        }
        let heading = format!("# {}: {}\n", info.code, info.title);
        if !text.starts_with(&heading) {
            missing.push(format!(
                "{}: explanation must start with `{}`",
                info.code,
                heading.trim()
            ));
        }
        if !blocks.iter().any(|(tag, _)| tag == "game,bad") {
            missing.push(format!("{}: no ```game,bad example", info.code));
        }
        if !blocks.iter().any(|(tag, _)| tag == "game") {
            missing.push(format!("{}: no fixed ```game example", info.code));
        }
        assert_eq!(explain(&info.code.to_lowercase()), Some(info));
    }
    assert!(missing.is_empty(), "\n{}\n", missing.join("\n"));
}

/// Fixed examples are real `.game` text: a whole file, or statements of a turn.
#[test]
fn fixed_examples_parse() {
    let mut bad = Vec::new();
    for info in CODES {
        for (tag, body) in code_blocks(info.explanation) {
            if tag != "game" {
                continue;
            }
            let wrapped = format!("turn {{\n{body}}}\n");
            if rulestone::syntax::parse(&body).is_err()
                && rulestone::syntax::parse(&wrapped).is_err()
            {
                bad.push(format!(
                    "{}: fixed example does not parse:\n{body}",
                    info.code
                ));
            }
        }
    }
    assert!(bad.is_empty(), "\n{}\n", bad.join("\n"));
}

#[test]
fn every_code_has_a_ui_snapshot() {
    let snapshots = read_all("snapshots/ui", "snap");
    let missing: Vec<&str> = CODES
        .iter()
        .map(|c| c.code)
        .filter(|code| !rulestone::diag::codes::INTERNAL.contains(code))
        .filter(|code| {
            let needle = format!("[{code}]");
            !snapshots.iter().any(|(_, text)| text.contains(&needle))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "codes without a UI snapshot: {missing:?}"
    );
}

#[test]
fn every_code_is_emitted() {
    let sources: Vec<(PathBuf, String)> = rust_sources()
        .into_iter()
        .filter(|(p, _)| !p.ends_with("diag/src/codes.rs"))
        .collect();
    let missing: Vec<&str> = CODES
        .iter()
        .map(|c| c.code)
        .filter(|code| {
            let needle = format!("code({code})");
            !sources.iter().any(|(_, text)| text.contains(&needle))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "codes never emitted in src/ or crates/: {missing:?}"
    );
}

#[test]
fn fixtures_use_registered_codes() {
    let registered: BTreeSet<&str> = CODES.iter().map(|c| c.code).collect();
    let mut unknown = Vec::new();
    let fixtures = read_all("tests/ui", "game")
        .into_iter()
        .chain(read_all("tests/ui", "deck"));
    for (path, text) in fixtures {
        for line in text
            .lines()
            .take_while(|l| l.trim_start().starts_with("//"))
        {
            if let Some(codes) = line
                .trim_start()
                .trim_start_matches("//")
                .trim()
                .strip_prefix("expect:")
            {
                for code in codes.split_whitespace() {
                    if !registered.contains(code) {
                        unknown.push(format!("{}: {code}", path.display()));
                    }
                }
            }
        }
    }
    for (path, text) in rust_sources() {
        for (i, _) in text.match_indices("code(") {
            let code: String = text[i + 5..]
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            let shaped = code.len() == 5
                && (code.starts_with('E') || code.starts_with('W'))
                && code[1..].chars().all(|c| c.is_ascii_digit());
            if shaped && !registered.contains(code.as_str()) {
                unknown.push(format!("{}: {code}", path.display()));
            }
        }
    }
    assert!(unknown.is_empty(), "unregistered codes: {unknown:?}");
}

/// Every Rust source of the command line and the stages' crates.
fn rust_sources() -> Vec<(PathBuf, String)> {
    let mut all = read_all("src", "rs");
    all.extend(read_all("crates", "rs"));
    all
}
