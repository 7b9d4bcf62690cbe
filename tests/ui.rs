//! UI tests: every `tests/ui/<area>/<name>.game` is parsed and checked, its diagnostics are
//! rendered without colour and compared with `snapshots/ui/<area>/<name>.snap`, and the codes it
//! emits must equal the `// expect:` line of its header:
//!
//! ```text
//! // check-fail            (or `// check-pass`: no errors, warnings allowed)
//! // expect: E0101 W0601   (every code the file emits; empty for none)
//! // set: width=30         (optional: option settings, as `check --set` takes them)
//! // file: table.perft      (optional: the file name `check` is given, if not the fixture's)
//! // run                    (optional: the first position's moves are listed too, and an
//! //                         error of the run, such as E1008, joins the expected codes)
//! ```
//!
//! Fixtures go through [`rulestone::diagnose_file`], the pipeline `check` runs: the file-kind
//! test, the checker, then the options and the lowering (for the settings, or for each option's
//! extreme values), then a few seeded random games of each program lowered (W0607).
//!
//! Every `tests/ui/deck/<name>.deck` is a deck file checked against the army rules of
//! `games/warstone.game` (each army on its own, then the first two armies as the two players'),
//! with the same header, snapshotted to `snapshots/ui/deck/<name>.snap`.
//!
//! Every bundled game under `games/` must check without errors.
//!
//! Update snapshots with `INSTA_UPDATE=always cargo test --test ui` (or `cargo insta review`),
//! then read `git diff snapshots/`.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use rulestone::check::deck;
use rulestone::check::table::TableGame;
use rulestone::diag::{self, Diag};

mod common;

/// What `rulestone check` reports, through the one pipeline (checker, options, lowering).
fn diagnose(source: &str, sets: &[(String, String)]) -> Vec<Diag> {
    rulestone::diagnose(source, sets)
}

/// What `rulestone check NAME` reports on a file called `name`.
fn diagnose_file(name: &str, source: &str, sets: &[(String, String)]) -> Vec<Diag> {
    rulestone::diagnose_file(name, source, sets, &mut || false)
}

use common::{files, root};

/// The path relative to the crate root, with `/` separators.
fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

struct Header {
    pass: bool,
    expect: Option<BTreeSet<String>>,
    /// `// set: width=30 height=4`: option settings, as `check --set` takes them.
    sets: Vec<(String, String)>,
    /// `// file: table.perft`: the name the file is checked under, instead of its own.
    file: Option<String>,
    /// `// run`: the first position's moves are listed after the check.
    run: bool,
}

/// Reads the directives from the comment lines that open the file.
fn header(source: &str) -> Header {
    let mut h = Header {
        pass: false,
        expect: None,
        sets: Vec::new(),
        file: None,
        run: false,
    };
    for line in source.lines() {
        let Some(comment) = line.trim().strip_prefix("//") else {
            break;
        };
        let comment = comment.trim();
        if comment == "check-pass" {
            h.pass = true;
        } else if comment == "check-fail" {
            h.pass = false;
        } else if comment == "run" {
            h.run = true;
        } else if let Some(codes) = comment.strip_prefix("expect:") {
            h.expect = Some(codes.split_whitespace().map(str::to_string).collect());
        } else if let Some(name) = comment.strip_prefix("file:") {
            h.file = Some(name.trim().to_string());
        } else if let Some(sets) = comment.strip_prefix("set:") {
            h.sets = sets
                .split_whitespace()
                .filter_map(|s| s.split_once('='))
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
        }
    }
    h
}

#[test]
fn ui() {
    let mut fixtures = Vec::new();
    files(&root().join("tests/ui"), "game", &mut fixtures);
    assert!(!fixtures.is_empty(), "no fixtures under tests/ui");
    let mut failures = Vec::new();
    for path in &fixtures {
        let shown = relative(path);
        let source = fs::read_to_string(path).unwrap_or_default();
        let header = header(&source);
        let name = header.file.clone().unwrap_or_else(|| shown.clone());
        let mut diags = diagnose_file(&name, &source, &header.sets);
        let checked_clean = !diag::has_errors(&diags);
        if header.run {
            diags.extend(run_first_position(&source, &header.sets));
        }
        failures.extend(compare(&shown, &header, &diags, checked_clean));
        let text = diag::render(&diags, &source, &shown, false);
        snapshot(path, &text);
    }
    assert!(failures.is_empty(), "\n{}\n", failures.join("\n"));
}

/// `// run`: the errors of listing the first position's moves, as a command would meet them
/// (a generation past the step limit, E1008; two moves written the same, E1010).
fn run_first_position(source: &str, sets: &[(String, String)]) -> Vec<Diag> {
    let Ok(program) = rulestone::compile(source, sets) else {
        return Vec::new();
    };
    let mut engine = rulestone::runtime::Engine::new(&program);
    let legal = rulestone::session::notation::legal_with_text(&mut engine);
    let exceeded = rulestone::runtime::game::steps_exceeded(&engine).map(|e| Box::new(e) as Diag);
    let same = rulestone::session::notation::same_notation(&legal).map(|e| Box::new(e) as Diag);
    exceeded.into_iter().chain(same).collect()
}

/// What is wrong with a fixture's diagnostics, given its header; `checked_clean` says whether
/// `check` itself found no error.
fn compare(shown: &str, h: &Header, diags: &[Diag], checked_clean: bool) -> Vec<String> {
    let mut failures = Vec::new();
    let emitted: BTreeSet<String> = diags
        .iter()
        .filter_map(|d| diag::code_of(d.as_ref()))
        .collect();
    match &h.expect {
        None => failures.push(format!("{shown}: no `// expect:` line")),
        Some(expect) if *expect != emitted => failures.push(format!(
            "{shown}: expected codes {expect:?}, emitted {emitted:?}"
        )),
        Some(_) => {}
    }
    let errors = !checked_clean;
    if h.pass && errors {
        failures.push(format!("{shown}: `check-pass` but errors were reported"));
    }
    if !h.pass && !errors {
        failures.push(format!("{shown}: `check-fail` but no error was reported"));
    }
    failures
}

/// Compares the rendered diagnostics of `tests/ui/<area>/<name>.<ext>` with
/// `snapshots/ui/<area>/<name>.snap`.
fn snapshot(path: &Path, text: &str) {
    let area = path
        .parent()
        .and_then(Path::file_name)
        .map_or_else(String::new, |a| a.to_string_lossy().into_owned());
    let name = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    insta::with_settings!({
        snapshot_path => format!("../snapshots/ui/{area}"),
        prepend_module_to_snapshot => false,
        input_file => path,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

/// The game whose army rules the deck fixtures are checked against.
const DECK_GAME: &str = "games/warstone.game";

/// Parses a deck file and checks its armies: each on its own, then the first two as opponents.
fn diagnose_deck(game: &TableGame, source: &str) -> Vec<Diag> {
    match rulestone::syntax::parse_deck(source) {
        Err(errors) => diag::boxed(errors),
        Ok(armies) => {
            let mut diags: Vec<Diag> = armies
                .iter()
                .flat_map(|a| deck::check_army(game, a))
                .collect();
            if let [first, second, ..] = armies.as_slice() {
                diags.extend(deck::check_opponents(game, first, second));
            }
            diags
        }
    }
}

#[test]
fn deck_fixtures() {
    let game_source = fs::read_to_string(root().join(DECK_GAME)).unwrap_or_default();
    let file = rulestone::syntax::parse(&game_source)
        .unwrap_or_else(|_| panic!("{DECK_GAME} does not parse"));
    let (checked, _) = rulestone::check::check(&file);
    let game = checked
        .and_then(|c| c.table)
        .unwrap_or_else(|| panic!("{DECK_GAME} is not a table game that checks clean"));

    let mut fixtures = Vec::new();
    files(&root().join("tests/ui/deck"), "deck", &mut fixtures);
    assert!(!fixtures.is_empty(), "no fixtures under tests/ui/deck");
    let mut failures = Vec::new();
    for path in &fixtures {
        let shown = relative(path);
        let source = fs::read_to_string(path).unwrap_or_default();
        let diags = diagnose_deck(&game, &source);
        let clean = !diag::has_errors(&diags);
        failures.extend(compare(&shown, &header(&source), &diags, clean));
        let text = diag::render(&diags, &source, &shown, false);
        snapshot(path, &text);
    }
    assert!(failures.is_empty(), "\n{}\n", failures.join("\n"));
}

#[test]
fn bundled_games_check_clean() {
    let mut games = Vec::new();
    files(&root().join("games"), "game", &mut games);
    assert!(!games.is_empty(), "no games under games/");
    let mut failures = Vec::new();
    for path in &games {
        let shown = relative(path);
        let source = fs::read_to_string(path).unwrap_or_default();
        let diags = diagnose(&source, &[]);
        if diag::has_errors(&diags) {
            failures.push(diag::render(&diags, &source, &shown, false));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// A snapshot whose fixture was renamed or deleted would never be checked again.
#[test]
fn no_orphan_snapshots() {
    let mut snapshots = Vec::new();
    files(&root().join("snapshots/ui"), "snap", &mut snapshots);
    let orphans: Vec<String> = snapshots
        .iter()
        .filter(|s| {
            let fixture = s
                .strip_prefix(root().join("snapshots"))
                .map(|rel| root().join("tests").join(rel));
            !fixture.is_ok_and(|f| {
                f.with_extension("game").exists() || f.with_extension("deck").exists()
            })
        })
        .map(|s| relative(s))
        .collect();
    assert!(
        orphans.is_empty(),
        "snapshots without a fixture: {orphans:?}"
    );
}
